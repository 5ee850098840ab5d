"""The scripts in examples/scripts, run as a person runs them."""

import json
import os
import subprocess
import sys

from conftest import MATMUL, REDUCTION, SOURCE, cli

SCRIPTS = SOURCE / "examples" / "scripts"


def run(script, *arguments):
    return subprocess.run([sys.executable, str(SCRIPTS / script), *map(str, arguments)],
                          capture_output=True, text=True, env=dict(os.environ), timeout=300)


def test_render_all(tmp_path):
    done = run("render_all.py", tmp_path / "out", MATMUL, REDUCTION)
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert "matmul_f16_1024_dispatch_0_0_0_swizzle.svg" in written
    assert "reduction_4x6656x16384_dispatch_0_0_0_lane-basis.svg" in written
    assert "matmul_f16_1024_dispatch_0 0:0 lane-basis: not drawn" in done.stdout
    assert f"{len(written)} pictures" in done.stdout


def test_diff_configs(tilescope, tmp_path):
    editor = tilescope.Editor(tilescope.open(MATMUL))
    editor.set("0:0", "workgroup", "[128, 64, 0]")
    editor.save(tmp_path / "edited.mlir")
    same = run("diff_configs.py", MATMUL, MATMUL)
    assert same.returncode == 0 and same.stdout == ""
    differ = run("diff_configs.py", MATMUL, tmp_path / "edited.mlir")
    assert differ.returncode == 1, differ.stderr
    assert "workgroup: [64, 128, 0] -> [128, 64, 0]" in differ.stdout


def test_tile_sweep_predicts_what_the_sweep_plan_does():
    done = run("tile_sweep.py", MATMUL, "0:0", "workgroup", "1", "32,64,128,256")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "workgroup[1] of 0:0 (now 128):"
    ours = {}
    for line in lines[1:]:
        value, rest = line.split(maxsplit=1)
        ours[int(value)] = float(rest.split()[0]) if " us " in rest else None
    planned = json.loads(cli("sweep", MATMUL, "--op", "0:0", "--plan", "--json",
                             "--vary", "workgroup[1]=32,64,128,256")[1])
    for candidate in planned["candidates"]:
        value = int(candidate["settings"]["workgroup[1]"])
        if candidate["valid"]:
            # The script prints two decimals.
            assert abs(ours[value] - candidate["predicted_us"]) <= 0.005 + 1e-9, candidate
        else:
            assert ours[value] is None, candidate


def test_register_check_fails_an_edit_that_raises_registers(tmp_path):
    raised = run("register_check.py", MATMUL, "0:0", "workgroup=[32, 64, 0]",
                 "--workspace", tmp_path)
    assert raised.returncode == 1, raised.stderr
    assert "vgprs: 132 -> 172  RAISED" in raised.stdout
    lowered = run("register_check.py", MATMUL, "0:0", "reduction=[0, 0, 4]",
                  "--workspace", tmp_path)
    assert lowered.returncode == 0, lowered.stderr
    assert "vgprs: 132 -> 102" in lowered.stdout
    too_big = run("register_check.py", MATMUL, "0:0", "workgroup=[128, 128, 0]",
                  "--workspace", tmp_path)
    assert too_big.returncode == 2
    assert "exceeded the limit of 65536 bytes" in too_big.stderr
    refused = run("register_check.py", MATMUL, "0:0", "workgroup=[1, 2",
                  "--workspace", tmp_path)
    assert refused.returncode == 2 and "workgroup" in refused.stderr
