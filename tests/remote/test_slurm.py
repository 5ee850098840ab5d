"""Runs on a Slurm cluster: `sweep --on slurm:PARTITION` as one job array and
`bench --on slurm:PARTITION`, against a real single-node Slurm (munged,
slurmctld, slurmd) on this machine. The "GPU" step is the CPU (local-task)
through exactly the code a GPU node gets: the candidates compile here, their
run bundles go out as the array's tasks, each lands in the history as its
task ends. Faults: a task over its time limit, a task cancelled, the node
set DOWN mid-sweep, Tilescope killed mid-sweep, Stop, the shared runtime
tools missing, a partition that is not one; each a clear outcome on the
right try, the history intact, the sweep resumable."""

import json
import os
import pathlib
import shutil
import signal
import subprocess
import time

from conftest import EXAMPLES, SOURCE, cli

CPU_MATMUL = EXAMPLES / "llvm_cpu" / "matmul_f32_small_dispatch_0.benchmark.mlir"
CONFIG = ("#iree_cpu.lowering_config<cache_parallel = [{0}, {0}, 0], distribution = [{0}, "
          "{0}, 0], vector_common_parallel = [8, 8, 0], vector_reduction = [0, 0, {1}]>")
# Two CPU configs of the matmul (op 1; op 0 is its fill), replaced whole.
TWO = "lowering_config=" + CONFIG.format(32, 8) + "," + CONFIG.format(64, 4)
ON = "slurm:tilescope"


def sweep_command(workspace, *extra, vary=TWO):
    return ["sweep", CPU_MATMUL, "--op", "0:1", "--vary", vary, "--on", ON,
            "--workspace", workspace, "--json", *extra]


def sweep(workspace, *extra, vary=TWO, timeout=600):
    code, out, err = cli(*sweep_command(workspace, *extra, vary=vary), timeout=timeout)
    return code, (json.loads(out) if out.strip() else {}), err


def started(workspace, *extra):
    """A sweep in the background (its candidates slow: many repetitions)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.Popen([os.environ["TILESCOPE_CLI"],
                             *map(str, sweep_command(workspace, *extra))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def wait_for(what, timeout=180):
    end = time.time() + timeout
    while time.time() < end:
        value = what()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError("timed out waiting")


def history(workspace):
    code, out, err = cli("history", "--workspace", workspace, "--json")
    assert code == 0, err
    return json.loads(out)


def by_outcome(swept):
    return sorted(c["outcome"] for c in swept["candidates"])


def test_a_sweep_goes_out_as_one_array_and_resumes_without_resubmitting(slurm, tmp_path):
    ws = tmp_path / "ws"
    code, swept, err = sweep(ws, "--repetitions", "2")
    assert code == 0, err
    assert swept["ran"] == 2 and swept["ranking"] == "ranked by measured time", swept
    assert len(swept["slurm"]["jobs"]) == 1 and swept["slurm"]["submitted"] == 2
    assert all(c["outcome"] == "ok" and c["measured_us"] > 0 for c in swept["candidates"])
    rows = history(ws)
    tasks = sorted(r["details"]["bench"]["slurm"]["task"] for r in rows)
    job = swept["slurm"]["jobs"][0]
    assert tasks == [job + "_0", job + "_1"], tasks
    assert all(r["details"]["on"] == ON and r["details"]["bench"]["slurm"]["node"] == slurm.node
               for r in rows)
    # Again: everything comes from the history, nothing is submitted.
    code, again, err = sweep(ws, "--repetitions", "2")
    assert code == 0, err
    assert again["resumed"] == 2 and again["ran"] == 0 and "slurm" not in again, again


def test_past_the_array_limit_a_task_runs_several_candidates(slurm, tmp_path, monkeypatch):
    monkeypatch.setenv("TILESCOPE_SLURM_ARRAY_LIMIT", "1")
    code, swept, err = sweep(tmp_path / "ws", "--repetitions", "2")
    assert code == 0, err
    assert swept["slurm"]["submitted"] == 2 and by_outcome(swept) == ["ok", "ok"], swept
    job = swept["slurm"]["jobs"][0]
    tasks = {r["details"]["bench"]["slurm"]["task"] for r in history(tmp_path / "ws")}
    assert tasks == {job + "_0"}, tasks


def test_a_bench_runs_as_a_task_and_the_shared_tools_come_back(slurm, tmp_path):
    ws = tmp_path / "ws"
    for _ in range(2):
        code, out, err = cli("bench", CPU_MATMUL, "--on", ON, "--repetitions", "2",
                             "--workspace", ws, "--json")
        assert code == 0, err
        report = json.loads(out)
        assert report["outcome"] == "ok" and report["bench"]["median_us"] > 0, report
        assert report["bench"]["slurm"]["state"] == "COMPLETED"
        # A cluster whose shared copy of the runtime tools went missing:
        # the next run copies them again.
        copies = list((ws / "slurm").glob("iree-runtime-*"))
        assert len(copies) == 1
        shutil.rmtree(copies[0])


def test_a_task_over_its_time_limit_is_timed_out_and_resumable(slurm, tmp_path, monkeypatch):
    monkeypatch.setenv("TILESCOPE_SBATCH_OPTIONS", "--time=0:05")
    ws = tmp_path / "ws"
    one = "lowering_config=" + CONFIG.format(32, 8)
    code, swept, err = sweep(ws, "--repetitions", "400", vary=one)
    assert code == 1, err
    [candidate] = swept["candidates"]
    assert candidate["outcome"] == "timed-out", candidate
    assert "ran past its time limit" in candidate["summary"], candidate
    [row] = history(ws)
    assert row["outcome"] == "timed-out"
    # Resumable: run again with the limit lifted, it is sent again.
    monkeypatch.delenv("TILESCOPE_SBATCH_OPTIONS")
    code, again, err = sweep(ws, "--repetitions", "2", vary=one)
    assert code == 0, err
    assert again["slurm"]["submitted"] == 1 and by_outcome(again) == ["ok"], again


def test_a_cancelled_task_is_said_and_only_it_is_sent_again(slurm, tmp_path):
    ws = tmp_path / "ws"
    running = started(ws, "--repetitions", "30")
    task = wait_for(lambda: slurm.running())[0]
    slurm.command("scancel", task)
    out, err = running.communicate(timeout=300)
    swept = json.loads(out)
    assert by_outcome(swept) == ["cancelled", "ok"], swept
    cancelled = next(c for c in swept["candidates"] if c["outcome"] == "cancelled")
    assert f"Slurm task {task} was cancelled" in cancelled["summary"], cancelled
    code, again, err = sweep(ws, "--repetitions", "2")
    assert code == 0, err
    assert again["resumed"] == 1 and again["slurm"]["submitted"] == 1, again


def test_the_node_going_down_mid_sweep_fails_its_tasks_and_the_sweep_resumes(slurm, tmp_path):
    ws = tmp_path / "ws"
    # Long tasks (300 repetitions of 0.1 s): the Stop must find them running.
    # With short ones a loaded machine finished them before the SIGINT was
    # handled, and the sweep run again rightly took their results instead.
    running = started(ws, "--repetitions", "300")
    wait_for(lambda: slurm.running())
    slurm.command("scontrol", "update", f"nodename={slurm.node}", "state=down",
                  "reason=tilescope-test")
    wait_for(lambda: not slurm.running())
    # Back up (ReturnToService=2 may have brought it back already, and then
    # Slurm refuses "resume").
    subprocess.run(["scontrol", "update", f"nodename={slurm.node}", "state=resume"],
                   env=slurm.env, capture_output=True)
    wait_for(lambda: slurm.sinfo() in ("idle", "mix", "alloc"))
    out, err = running.communicate(timeout=300)
    swept = json.loads(out)
    failed = [c for c in swept["candidates"] if c["outcome"] == "node-failed"]
    assert failed, swept
    assert all("the node went down while it ran" in c["summary"] for c in failed), failed
    assert len(history(ws)) == 2
    code, again, err = sweep(ws, "--repetitions", "2")
    assert code == 0, err
    assert again["slurm"]["submitted"] == len(failed) and by_outcome(again) == ["ok", "ok"]


def test_tilescope_killed_mid_sweep_waits_for_its_tasks_when_run_again(slurm, tmp_path):
    ws = tmp_path / "ws"
    running = started(ws, "--repetitions", "10")
    wait_for(lambda: slurm.running())
    running.kill()  # no chance to record or cancel anything
    running.communicate()
    assert history(ws) == []
    code, again, err = sweep(ws, "--repetitions", "10")
    assert code == 0, err
    # The tasks of the killed run are waited for (or taken as they finished),
    # not sent again.
    assert again["slurm"]["reattached"] == 2 and again["slurm"]["submitted"] == 0, again
    assert by_outcome(again) == ["ok", "ok"]
    assert all(r["details"]["bench"]["slurm"]["reattached"] for r in history(ws))


def test_stop_cancels_the_array_and_the_sweep_resumes(slurm, tmp_path):
    ws = tmp_path / "ws"
    # Long tasks (300 repetitions of 0.1 s): the Stop must find them running.
    # With short ones a loaded machine finished them before the SIGINT was
    # handled, and the sweep run again rightly took their results instead.
    running = started(ws, "--repetitions", "300")
    wait_for(lambda: slurm.running())
    job = slurm.running()[0].split("_")[0]
    running.send_signal(signal.SIGINT)
    running.communicate(timeout=120)
    wait_for(lambda: not slurm.running(job), timeout=60)
    assert history(ws) == []
    code, again, err = sweep(ws, "--repetitions", "2")
    assert code == 0, err
    assert again["slurm"]["submitted"] == 2 and by_outcome(again) == ["ok", "ok"], again


COMPILE_ON = "slurm:tilescope-cpu"


def test_compiling_goes_as_its_own_array_that_the_runs_wait_for(slurm, tmp_path):
    ws = tmp_path / "ws"
    code, swept, err = sweep(ws, "--repetitions", "2", "--compile-on", COMPILE_ON)
    assert code == 0, err
    assert by_outcome(swept) == ["ok", "ok"], swept
    compile_job, run_job = swept["slurm"]["jobs"]
    rows = history(ws)
    assert sorted(r["details"]["bench"]["slurm"]["task"] for r in rows) == [
        run_job + "_0", run_job + "_1"]
    for row in rows:
        assert row["details"]["compiled_on"] == COMPILE_ON, row
        assert "resources" in row["details"], row  # read here, after
        folder = pathlib.Path(row["directory"])
        status, milliseconds = (folder / "compile.status").read_text().split()
        assert status == "0" and int(milliseconds) > 0
        assert (folder / "module.vmfb").is_file()
    # Each compile ran as a task of the compile array, on the CPU partition.
    logs = ws.glob("slurm/sweep-*/logs/%s_*.log" % compile_job)
    assert sorted(log.read_text().count("tilescope: compiling") for log in logs) == [1, 1]
    script = next(ws.glob("slurm/sweep-*/submit-1-compile.sh")).read_text()
    assert "command.sh" in script
    # Again: everything from the history.
    code, again, err = sweep(ws, "--repetitions", "2", "--compile-on", COMPILE_ON)
    assert code == 0, err
    assert again["resumed"] == 2 and "slurm" not in again, again


def test_a_compile_task_cancelled_ends_its_run_too_and_the_sweep_resumes(
        slurm, tmp_path, monkeypatch):
    # The compile array held in the queue, then cancelled: its run tasks,
    # which wait for it, go too (nothing is left queued), each candidate says
    # so, and running the sweep again sends both again.
    monkeypatch.setenv("TILESCOPE_SBATCH_COMPILE_OPTIONS", "--hold")
    ws = tmp_path / "ws"
    running = started(ws, "--repetitions", "2", "--compile-on", COMPILE_ON)

    def held():
        out = subprocess.run(["squeue", "--noheader", "--format=%i|%j", "--array"],
                             capture_output=True, text=True, env=slurm.env).stdout
        return [line.split("|")[0].split("_")[0] for line in out.split()
                if line.endswith("|tilescope-compile")]
    job = wait_for(held)[0]
    slurm.command("scancel", job)
    out, err = running.communicate(timeout=300)
    swept = json.loads(out)
    assert by_outcome(swept) == ["cancelled", "cancelled"], swept
    assert all("its compile: Slurm task %s_" % job in c["summary"]
               for c in swept["candidates"]), swept
    wait_for(lambda: not subprocess.run(["squeue", "--noheader"], capture_output=True,
                                        text=True, env=slurm.env).stdout.strip(), timeout=60)
    monkeypatch.delenv("TILESCOPE_SBATCH_COMPILE_OPTIONS")
    code, again, err = sweep(ws, "--repetitions", "2", "--compile-on", COMPILE_ON)
    assert code == 0, err
    assert again["slurm"]["submitted"] == 2 and by_outcome(again) == ["ok", "ok"], again


def test_compile_on_needs_a_cluster_run(slurm, tmp_path):
    code, out, err = cli("sweep", CPU_MATMUL, "--op", "0:1", "--vary", TWO,
                         "--compile-on", COMPILE_ON, "--workspace", tmp_path / "ws")
    assert code == 2 and "--on slurm:PARTITION" in err, err


def test_a_partition_slurm_refuses_is_said_and_nothing_is_recorded(slurm, tmp_path):
    code, out, err = cli("sweep", CPU_MATMUL, "--op", "0:1", "--vary", TWO, "--on",
                         "slurm:no-such-partition", "--repetitions", "2",
                         "--workspace", tmp_path / "ws")
    assert code != 0
    assert "no-such-partition" in err and "invalid partition" in err.lower(), err
    assert history(tmp_path / "ws") == []


def test_the_workspace_says_where_runs_go(slurm, tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    settings = ws / "settings.json"
    settings.write_text('{"on": "%s"}' % ON)
    code, out, err = cli("bench", CPU_MATMUL, "--repetitions", "2", "--workspace", ws, "--json")
    assert code == 0, err + out
    assert json.loads(out)["bench"]["slurm"]["state"] == "COMPLETED"
    # --on wins over the workspace.
    code, out, err = cli("bench", CPU_MATMUL, "--repetitions", "2", "--on", "local",
                         "--workspace", ws, "--json")
    assert code == 0, err
    assert "slurm" not in json.loads(out)["bench"]
    # A setting that is not a place is said, with the file.
    settings.write_text('{"on": "moon"}')
    code, out, err = cli("bench", CPU_MATMUL, "--workspace", ws)
    assert code == 2 and str(settings) in err and "expected local" in err, err


def test_doctor_asks_a_node_of_the_partition(slurm, tmp_path, monkeypatch):
    # As the runs do, it asks for a GPU: this cluster has none to give.
    code, out, err = cli("doctor", "--on", ON, "--workspace", tmp_path)
    assert code == 1 and "srun" in err and "gres" in err.lower(), err
    monkeypatch.setenv("TILESCOPE_SBATCH_OPTIONS", "--gres=none")
    code, out, err = cli("doctor", "--on", ON, "--workspace", tmp_path, "--json")
    assert code == 5, err  # a node, but no GPU on it
    found = json.loads(out)
    assert "local-task://" in found["devices"] and slurm.node in found["where"], found


def test_a_checked_run_runs_its_tested_module_on_a_node(slurm, tmp_path):
    program = EXAMPLES / "sources" / "matmul_f32_small.mlir"
    code, out, err = cli("verify", CPU_MATMUL, "--program", program, "--on", ON,
                         "--workspace", tmp_path / "ws", "--json")
    assert code == 0, err
    checked = json.loads(out)
    assert checked["passed"] is True, checked
    assert any("srun" in command and "--partition=tilescope" in command
               for command in checked["commands"]), checked["commands"]


def test_a_program_tunes_with_every_timed_run_on_the_cluster(slurm, tmp_path):
    # `tune --on slurm:PARTITION`: each sweep an array, the checked runs and
    # both programs end to end (iree-benchmark-module) as srun steps.
    program = SOURCE / "tests" / "e2e" / "data" / "two_matmuls.mlir"
    code, out, err = cli("tune", program, "--target", "llvm-cpu", "--on", ON,
                         "--candidates", "2", "--repetitions", "2", "--workspace",
                         tmp_path / "ws", "--json", timeout=900)
    assert code == 0, err
    tuned = json.loads(out)
    assert tuned["measured"] and tuned["on"] == ON, out
    for dispatch in tuned["dispatches"]:
        assert dispatch["share_from"] == "measured", dispatch
    default = tuned["default_program"]
    assert default["check_passed"] and default["time"] is not None, default
    assert any("srun" in command and "--partition=tilescope" in command
               for command in default["commands"]), default["commands"]


def test_python_runs_on_the_cluster_too(slurm, tmp_path):
    import tilescope
    document = tilescope.open(CPU_MATMUL)
    report = tilescope.run_try(document, "0:1", stage="bench", on=ON,
                               workspace=tmp_path / "ws", repetitions=2)
    assert report["outcome"] == "ok", report
    assert report["bench"]["slurm"]["state"] == "COMPLETED"


def test_python_sweeps_on_the_cluster_with_the_arrays_state(slurm, tmp_path):
    import tilescope
    document = tilescope.open(CPU_MATMUL)
    lines, finished = [], []
    swept = tilescope.sweep(document, "0:1", vary=[TWO], on=ON, workspace=tmp_path / "ws",
                            repetitions=2, on_status=lines.append,
                            on_candidate=lambda c, done, total: finished.append(done))
    assert swept["ran"] == 2 and len(swept["slurm"]["jobs"]) == 1, swept
    job = swept["slurm"]["jobs"][0]
    # The array's state as the command line's progress line says it.
    assert lines and all(line.startswith("job " + job) for line in lines), lines
    assert any("of 2 done" in line for line in lines), lines
    assert sorted(finished) == [1, 2]


def test_python_compiles_on_the_cluster_too(slurm, tmp_path):
    import tilescope
    document = tilescope.open(CPU_MATMUL)
    one = "lowering_config=" + CONFIG.format(32, 8)
    swept = tilescope.sweep(document, "0:1", vary=[one], on=ON, compile_on=COMPILE_ON,
                            workspace=tmp_path / "ws", repetitions=2)
    assert swept["ran"] == 1 and len(swept["slurm"]["jobs"]) == 2, swept
    assert swept["candidates"][0]["outcome"] == "ok", swept
