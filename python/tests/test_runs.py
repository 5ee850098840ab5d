"""Sweeps, checked runs, tuning specs and run bundles from Python: the real
IREE on the CPU (llvm-cpu, local-task), each answer held to the CLI's."""

import json
import os
import subprocess
import time

import pytest

from conftest import EXAMPLES, MATMUL, REDUCTION, SOURCE, all_read, cli, cli_json

CPU_MATMUL = EXAMPLES / "llvm_cpu" / "matmul_f32_small_dispatch_0.benchmark.mlir"
CPU_PROGRAM = EXAMPLES / "sources" / "matmul_f32_small.mlir"
WRONG_REFERENCE = (EXAMPLES.parent / "tests" / "e2e" / "data"
                   / "matmul_f32_small_wrong_reference.mlir")
# Two CPU configs of the matmul (op 1; op 0 is its fill), replaced whole.
CONFIGS = ("lowering_config=#iree_cpu.lowering_config<cache_parallel = [32, 32, 0], "
           "distribution = [32, 32, 0], vector_common_parallel = [8, 8, 0], "
           "vector_reduction = [0, 0, 8]>,#iree_cpu.lowering_config<cache_parallel "
           "= [64, 64, 0], distribution = [64, 64, 0], vector_common_parallel = [8, "
           "16, 0], vector_reduction = [0, 0, 4]>")


def test_a_sweep_calls_back_per_candidate_and_the_cli_resumes_it(tilescope, tmp_path):
    seen = []
    result = tilescope.sweep(tilescope.open(CPU_MATMUL), "0:1", vary=[CONFIGS],
                             stage="resources", name="py", workspace=tmp_path,
                             on_candidate=lambda c, done, total: seen.append((c, done, total)))
    assert isinstance(result, tilescope.SweepResult) and all_read(result)
    assert result.sweep == "py" and result.ran == 2 and not result.cancelled
    assert [(done, total) for _, done, total in seen] == [(1, 2), (2, 2)]
    assert all(isinstance(c, tilescope.SweepCandidate) for c, _, _ in seen)
    assert sorted(c.candidate for c, _, _ in seen) == \
        sorted(c.candidate for c in result.candidates)
    assert all(c.outcome == "ok" and c.try_id for c in result.candidates), result
    # The CLI finds the same sweep in the history and runs nothing again.
    again = cli_json("sweep", CPU_MATMUL, "--op", "0:1", "--vary", CONFIGS,
                     "--compile-only", "--name", "py", "--workspace", tmp_path, "--json")
    assert again["ran"] == 0 and again["resumed"] == 2
    assert {c["candidate"]: c["try"] for c in again["candidates"]} == \
        {c.candidate: c.try_id for c in result.candidates}


def test_a_callback_that_answers_false_stops_the_sweep(tilescope, tmp_path):
    result = tilescope.sweep(tilescope.open(CPU_MATMUL), "0:1", vary=[CONFIGS],
                             stage="resources", workspace=tmp_path, parallel=1,
                             on_candidate=lambda c, done, total: False)
    assert result.cancelled
    assert sum(c.try_id is not None for c in result.candidates) == 1, result


def test_a_callback_exception_stops_the_sweep_and_is_raised(tilescope, tmp_path):
    def fails(candidate, done, total):
        raise ValueError("not this one: " + candidate.candidate)

    with pytest.raises(ValueError, match="not this one"):
        tilescope.sweep(tilescope.open(CPU_MATMUL), "0:1", vary=[CONFIGS],
                        stage="resources", workspace=tmp_path, parallel=1,
                        on_candidate=fails)
    assert len(tilescope.history(tmp_path)) == 1


@pytest.mark.parametrize("answer", [[1, 2], "stop", {"a": 1}])
def test_a_callback_answering_the_wrong_type_raises_not_aborts(tilescope, tmp_path, answer):
    with pytest.raises(TypeError, match="wrong type"):
        tilescope.sweep(tilescope.open(CPU_MATMUL), "0:1", vary=[CONFIGS],
                        stage="resources", workspace=tmp_path, parallel=1,
                        on_candidate=lambda c, done, total: answer)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0, 0.0])
def test_timeouts_and_budgets_that_are_no_time_are_refused(tilescope, tmp_path, value):
    with pytest.raises(tilescope.Error, match="timeout is in seconds"):
        tilescope.run_try(tilescope.open(CPU_MATMUL), "0:1", stage="compile",
                          workspace=tmp_path, timeout=value)
    with pytest.raises(tilescope.Error, match="budget is in minutes"):
        tilescope.tune(CPU_PROGRAM, target="llvm-cpu", workspace=tmp_path,
                       budget=value)


def test_a_cancelled_flag_runs_nothing(tilescope, tmp_path):
    stop = tilescope.Cancel()
    stop.cancel()
    assert stop.cancelled
    result = tilescope.sweep(tilescope.open(CPU_MATMUL), "0:1", vary=[CONFIGS],
                             stage="resources", workspace=tmp_path, cancel=stop)
    assert result.cancelled and result.ran == 0


def test_a_plan_is_the_clis_plan(tilescope):
    vary = ["subgroup_basis=[[1,8],[0,1]],[[1,1],[0,1]]", "thread=[0,4],[0,8]"]
    planned = tilescope.sweep(tilescope.open(REDUCTION), "0:0", vary=vary, plan=True)
    arguments = ["sweep", REDUCTION, "--op", "0:0", "--plan", "--json"]
    for axis in vary:
        arguments += ["--vary", axis]
    assert planned.to_dict() == cli_json(*arguments) and all_read(planned)
    assert planned.total == 4 and planned.neighbourhood == "axes"
    invalid = [c for c in planned.candidates if not c.valid]
    assert invalid and all("workgroup-size-short" in c.why_not for c in invalid)


def test_bad_sweeps_say_what(tilescope, tmp_path):
    document = tilescope.open(CPU_MATMUL)
    with pytest.raises(tilescope.Error, match="stage is bench or resources"):
        tilescope.sweep(document, "0:1", vary=[CONFIGS], stage="compile")
    with pytest.raises(tilescope.Error, match="workgroup"):
        tilescope.sweep(document, "0:1", vary=["workgroup[0]"], plan=True)


def test_a_checked_run_passes_fails_and_is_recorded(tilescope, tmp_path):
    dispatch = tilescope.open(CPU_MATMUL)
    passed = tilescope.verify(dispatch, program=CPU_PROGRAM, workspace=tmp_path)
    assert isinstance(passed, tilescope.CheckResult) and all_read(passed)
    assert passed.passed is True, passed
    assert passed.outputs[0]["type"] == "128x128xf32"
    assert passed.outputs[0]["mismatches"] == 0
    failed = tilescope.verify(dispatch, program=CPU_PROGRAM, reference=WRONG_REFERENCE,
                              workspace=tmp_path)
    assert failed.passed is False and failed.outcome == "check-failed"
    rows = tilescope.history(tmp_path)
    assert [r.id for r in rows] == [failed.try_id, passed.try_id]
    assert all(r.kind == "verify" and r.check_passed == (r.id == passed.try_id)
               for r in rows)
    # A program alone: IREE's own configs for the CPU.
    program = tilescope.verify(tilescope.open(CPU_PROGRAM), workspace=tmp_path)
    assert program.passed is True, program
    with pytest.raises(tilescope.Error, match="needs the program it came from"):
        tilescope.verify(dispatch, workspace=tmp_path)


def test_an_edited_config_becomes_the_clis_tuning_spec(tilescope, tmp_path):
    editor = tilescope.Editor(tilescope.open(MATMUL))
    editor.set("0:0", "workgroup", "[32, 64, 0]")
    spec = tilescope.tuning_spec(editor.document, ["0:0"])
    assert "iree_codegen.tuning_spec_entrypoint" in spec
    assert "workgroup = [32, 64, 0]" in spec
    edited = tmp_path / "edited.mlir"
    editor.save(edited)
    code, out, err = cli("export-spec", edited, "--op", "0:0")
    assert code == 0, err
    assert out.strip() == spec.strip()
    with pytest.raises(tilescope.Error, match="at least one root op"):
        tilescope.tuning_spec(editor.document, [])


def test_a_reductions_spec_matches_its_body_as_the_cli_writes_it(tilescope, tmp_path):
    editor = tilescope.Editor(tilescope.open(REDUCTION))
    editor.set("0:0", "partial_reduction", "[0, 1024]")
    spec = tilescope.tuning_spec(editor.document, ["0:0"])
    assert "transform.iree.match.cast_compatible_dag_from_root" in spec
    assert "partial_reduction = [0, 1024]" in spec
    edited = tmp_path / "edited.mlir"
    editor.save(edited)
    code, out, err = cli("export-spec", edited, "--op", "0:0")
    assert code == 0, err
    assert out.strip() == spec.strip()


def test_a_sweep_travels_as_a_bundle_and_comes_back_measured(tilescope, tmp_path):
    workspace = tmp_path / "workspace"
    tilescope.sweep(tilescope.open(CPU_MATMUL), "0:1", vary=[CONFIGS],
                    stage="resources", name="travel", workspace=workspace)
    bundle = tilescope.bundle(tmp_path / "bundle", sweep="travel", workspace=workspace)
    assert (bundle / "run.sh").is_file() and (bundle / "manifest.json").is_file()
    # The GPU machine's part: run.sh alone, no Tilescope.
    run = subprocess.run(["/bin/bash", str(bundle / "run.sh")], cwd="/",
                         env=dict(os.environ, TILESCOPE_REPETITIONS="2"),
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    report = tilescope.import_results(bundle, workspace=workspace)
    modules = report["modules"]
    assert len(modules) == 2 and all("try" in m for m in modules), report
    assert all(m["sweep"] == "travel" for m in modules)
    benches = tilescope.history(workspace, outcome="ok")
    assert {m["try"] for m in modules} <= {r.id for r in benches}
    again = tilescope.import_results(bundle, workspace=workspace)
    assert all(m["already_imported"] for m in again["modules"])
    with pytest.raises(tilescope.Error, match="name the tries"):
        tilescope.bundle(tmp_path / "none", workspace=workspace)


def test_the_iree_in_use_is_named(tilescope):
    iree = tilescope.iree()
    assert iree["compiler_library"].endswith("libIREECompiler.so")
    assert "iree-compile" in iree["tools"]
    assert json.loads(cli("doctor", "--json")[1])["iree"]["library"] \
        == iree["compiler_library"]


def test_a_program_tuned_from_python_is_the_one_the_cli_tunes(tilescope, tmp_path):
    program = EXAMPLES.parent / "tests" / "e2e" / "data" / "two_matmuls.mlir"
    steps = []
    result = tilescope.tune(program, target="llvm-cpu", workspace=tmp_path,
                            candidates=3, repetitions=3, on_progress=steps.append)
    assert isinstance(result, tilescope.TuneResult) and all_read(result)
    assert result.measured and result.device == "local-task"
    assert [d.op_name for d in result.dispatches] == ["linalg.matmul"] * 2
    assert abs(sum(d.share for d in result.dispatches) - 1) < 1e-6
    assert all(d.default_time.median_us > 0 for d in result.dispatches)
    assert result.default_program.check_passed, result
    assert result.end_to_end is None or result.end_to_end.a_us > 0
    assert steps and all({"step", "done", "total", "seconds_left"} <= set(s)
                         for s in steps)
    # The CLI resumes the same tune from the history: the same answer.
    again = cli_json("tune", program, "--target", "llvm-cpu", "--workspace", tmp_path,
                     "--candidates", "3", "--repetitions", "3", "--json")
    assert again["tries"] == 0 and again["resumed"] == result.tries
    assert [(d["winner"], d["kept"]) for d in again["dispatches"]] == \
        [(d.winner, d.kept) for d in result.dispatches]


def test_a_tune_writes_a_run_bundle_as_the_cli_does(tilescope, tmp_path):
    # bundle= times nothing here; what it writes is what `tune --bundle`
    # writes (the round trip itself: e2e_cli_tune).
    program = EXAMPLES.parent / "tests" / "e2e" / "data" / "two_matmuls.mlir"
    bundle = tmp_path / "bundle"
    result = tilescope.tune(program, target="llvm-cpu", workspace=tmp_path / "ws",
                            candidates=2, bundle=bundle)
    assert not result.measured and result.bundle == str(bundle), result
    for name in ("run.sh", "programs.sh", "manifest.json", "programs/default.vmfb"):
        assert (bundle / name).exists(), name
    with pytest.raises(tilescope.Error, match="give one"):
        tilescope.tune(program, target="llvm-cpu", workspace=tmp_path / "ws",
                       bundle=tmp_path / "other", on="ssh:gpu-box")
    # Importing a bundle that has not run is said, not guessed at.
    with pytest.raises(tilescope.Error, match="import"):
        tilescope.tune(program, target="llvm-cpu", workspace=tmp_path / "ws",
                       import_from=bundle)


def test_a_tune_stops_when_its_progress_callback_says_so(tilescope, tmp_path):
    program = EXAMPLES.parent / "tests" / "e2e" / "data" / "two_matmuls.mlir"
    result = tilescope.tune(program, target="llvm-cpu", workspace=tmp_path,
                            candidates=3, on_progress=lambda step: False)
    assert result.cancelled
    with pytest.raises(tilescope.Error):
        tilescope.tune(program, target="no-such-target", workspace=tmp_path)


def test_two_tunes_of_one_program_on_one_workspace_both_finish_or_one_refuses(tmp_path):
    """A second tune of the program on the same workspace, started while the
    first runs, is refused, saying which tune holds the folder; never do both
    time every candidate under each other's load."""
    program = SOURCE / "tests" / "e2e" / "data" / "two_matmuls.mlir"
    arguments = [os.environ["TILESCOPE_CLI"], "tune", str(program), "--target", "gfx942",
                 "--candidates", "2", "--workspace", str(tmp_path)]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    first = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
    folder = tmp_path / "tune"
    deadline = time.monotonic() + 20
    while first.poll() is None and not folder.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    second = subprocess.run(arguments, capture_output=True, text=True, env=env, timeout=300)
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    if second.returncode != 0:
        assert "is running already" in second.stderr, second.stderr
        assert str(first.pid) in second.stderr, second.stderr


def test_a_compiled_kernels_instructions_are_classed_by_loop(tilescope, tmp_path):
    """tilescope.instructions on a try folder: the sm_90 matmul's K loop,
    one pass of it 2 x 4 subgroup intrinsics x K tile 8 = 64 mma.sync and
    16 128-bit global loads a lane, as `tilescope-cli isa --json` says."""
    document = tilescope.open(EXAMPLES / "cuda_sm_90" / "matmul_f16_1024_dispatch_0.benchmark.mlir")
    tried = tilescope.run_try(document, stage="compile", workspace=tmp_path)
    folder = tried.compile["artifacts"]["directory"]
    kernels = tilescope.instructions(folder)
    # The PTX, and the SASS of its cubin (ptxas and nvdisasm) beside it.
    assert [k["dialect"] for k in kernels] == ["ptx", "sass"]
    for kernel in kernels:
        loops = [r for r in kernel["regions"] if r["kind"] == "loop"]
        assert len(loops) == 1
        assert loops[0]["counts"]["mma"] == 64
        assert loops[0]["width_bits"]["global load"] == {"128": 16}
    assert kernels[1]["live_registers"]["register_file"] == "GPRs"
    listed = tilescope.instructions(kernels[0]["file"], instructions=True)
    assert sum(1 for r in listed[0]["regions"] for i in r["instructions"]
               if i["class"] == "mma") >= 64
    # Each MMA result element a thread stores, from which MMA register: the
    # 64 x 64 workgroup tile's 4096 f32 elements from 8 of the MMAs.
    stored = listed[0]["accumulators"]
    assert stored["threads"] == 128
    elements = [e for s in stored["stores"] for e in s["elements"]]
    assert len(elements) == 64 * 64
    assert len({e[1] for e in elements}) == 64 * 64  # one store each
    assert len({e[2] for e in elements}) == 8
    assert "4096 elements of 8 MMAs' results" in stored["summary"]
    # Where each MMA's A and B bytes come from: every byte followed back
    # through ld.shared and st.shared to a global load of the LHS (binding
    # 0) or the RHS (binding 1).
    moved = listed[0]["operands"]
    mmas = [m for m in moved["moves"] if m["kind"] in ("MMA A", "MMA B")]
    assert len(mmas) >= 2 * 64
    assert all(m["followed_bytes"] == m["bytes"] for m in mmas)
    assert {r[1] for m in mmas if m["kind"] == "MMA A" for r in m["runs"]} == {0}
    assert {r[1] for m in mmas if m["kind"] == "MMA B" for r in m["runs"]} == {1}
    assert "followed to bindings 0, 1" in moved["summary"]
    # Nsight Compute's source page of a profiled run (written here in its
    # form from the SASS's own lines: no GPU) laid over the SASS kernel.
    sass = tilescope.instructions(kernels[1]["file"], instructions=True)[0]
    rows = ['"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed"']
    for region in sass["regions"]:
        for i in region["instructions"]:
            rows.append(f'"0x{0x7f0000000000 + i["address"]:x}","{i["mnemonic"]}","{i["line"]}","1,024"')
    page = tmp_path / "module.source.csv"
    page.write_text("\n".join(rows) + "\n")
    profiled = tilescope.instructions(folder, counters=page)
    assert "profile" not in profiled[0]
    profile = profiled[1]["profile"]
    assert profile["same_code"] and profile["matched"] == len(rows) - 1
    assert profile["stall_samples"] == sum(i["line"] for r in sass["regions"] for i in r["instructions"])
    with pytest.raises(tilescope.Error, match="not Nsight Compute's source page"):
        tilescope.instructions(folder, counters=EXAMPLES / "generate.sh")
    code, out, err = cli("isa", folder, "--json")
    assert code == 0, err
    assert json.loads(out)["kernels"] == kernels
    with pytest.raises(tilescope.Error, match="not PTX"):
        tilescope.instructions(EXAMPLES / "cuda_sm_90" / "matmul_f16_1024_dispatch_0.benchmark.mlir")
