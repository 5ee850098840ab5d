"""Tries from Python: the real iree-compile, resources, a timed CPU run, and
the workspace's history as the CLI reads it."""

import json

import pytest

from conftest import EXAMPLES, MATMUL, all_read, cli

CPU_MATMUL = EXAMPLES / "llvm_cpu" / "matmul_f32_small_dispatch_0.benchmark.mlir"


def test_a_cpu_try_runs_and_lands_in_the_history(tilescope, tmp_path):
    report = tilescope.run_try(tilescope.open(CPU_MATMUL), "0:0", stage="bench",
                               workspace=tmp_path, repetitions=2)
    assert isinstance(report, tilescope.TryResult) and all_read(report)
    assert report.outcome == "ok", report
    assert report.bench["ran"] and report.bench["median_us"] > 0
    rows = tilescope.history(tmp_path)
    assert [row.id for row in rows] == [report.try_id]
    assert all(isinstance(row, tilescope.Try) and all_read(row) for row in rows)
    assert rows[0].kind == "bench" and rows[0].op == "0:0"
    code, out, err = cli("history", "--workspace", tmp_path, "--json")
    assert code == 0, err
    assert json.loads(out) == [row.to_dict() for row in rows]
    # Read as the dicts they once were, too.
    assert rows[0]["id"] == rows[0].id and "details" in rows[0]


def test_a_history_read_creates_nothing(tilescope, tmp_path):
    typo = tmp_path / "typo" / "ws"
    assert tilescope.history(typo) == []
    assert not (tmp_path / "typo").exists()


def test_a_gpu_file_compiles_and_reads_its_resources_here(tilescope, tmp_path):
    report = tilescope.run_try(tilescope.open(MATMUL), "0:0", stage="resources",
                               workspace=tmp_path)
    assert report.outcome == "ok", report
    kernel = report.resources["kernels"][0]
    assert kernel["arch"] == "gfx942" and kernel["vgprs"] > 0
    assert kernel["occupancy"]["active"] >= 1
    assert tilescope.history(tmp_path, outcome="ok")[0].id == report.try_id


def test_bad_requests_say_what(tilescope, tmp_path):
    document = tilescope.open(CPU_MATMUL)
    with pytest.raises(tilescope.Error, match="stage is compile, resources or bench"):
        tilescope.run_try(document, stage="run", workspace=tmp_path)
    with pytest.raises(tilescope.Error, match="repetitions"):
        tilescope.run_try(document, stage="bench", workspace=tmp_path, repetitions=0)
