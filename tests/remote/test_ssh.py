"""Runs where the GPU is: `bench --on ssh:HOST` and `sweep --on ssh:HOST`
against a real OpenSSH server on this machine. The "GPU" step is the CPU
(local-task) through exactly the code a GPU host gets: the module travels
as a run bundle, the runtime tools into the host's cache, the results
back into the history. Faults: a host missing the runtime cache, the
server stopped, a place that is not one."""

import json

from conftest import EXAMPLES, SOURCE, cli

CPU_MATMUL = EXAMPLES / "llvm_cpu" / "matmul_f32_small_dispatch_0.benchmark.mlir"
# Two CPU configs of the matmul (op 1; op 0 is its fill), replaced whole.
CONFIGS = ("lowering_config=#iree_cpu.lowering_config<cache_parallel = [32, 32, 0], "
           "distribution = [32, 32, 0], vector_common_parallel = [8, 8, 0], "
           "vector_reduction = [0, 0, 8]>,#iree_cpu.lowering_config<cache_parallel "
           "= [64, 64, 0], distribution = [64, 64, 0], vector_common_parallel = [8, "
           "16, 0], vector_reduction = [0, 0, 4]>")


def bench(workspace, *extra):
    code, out, err = cli("bench", CPU_MATMUL, "--on", "ssh:tilescope-test", "--repetitions",
                         "2", "--workspace", workspace, "--json", *extra)
    return code, (json.loads(out) if out.strip() else {}), err


def history(workspace):
    code, out, err = cli("history", "--workspace", workspace, "--json")
    assert code == 0, err
    return json.loads(out)


def test_a_bench_runs_on_the_host_and_lands_here(remote, tmp_path):
    code, report, err = bench(tmp_path / "ws")
    assert code == 0, err
    assert report["outcome"] == "ok", report
    timed = report["bench"]
    assert timed["ran"] and timed["median_us"] > 0
    assert timed["remote"]["on"] == "ssh:tilescope-test"
    assert timed["remote"]["tools_copied"] is True
    # The tools are in the host's cache, the run folder is gone.
    assert any(p.name.startswith("iree-runtime-") for p in remote.iterdir())
    assert not any((remote / "runs").iterdir())
    # A second try finds the tools there.
    code, again, err = bench(tmp_path / "ws")
    assert code == 0, err
    assert again["bench"]["remote"]["tools_copied"] is False
    rows = history(tmp_path / "ws")
    assert [r["outcome"] for r in rows] == ["ok", "ok"]
    assert all(r["median_us"] > 0 for r in rows)


def test_a_host_missing_the_runtime_cache_gets_it_again(remote, tmp_path):
    code, first, err = bench(tmp_path / "ws")
    assert code == 0, err
    for cached in remote.glob("iree-runtime-*"):
        for tool in cached.iterdir():
            tool.unlink()
    code, second, err = bench(tmp_path / "ws")
    assert code == 0, err
    assert second["bench"]["remote"]["tools_copied"] is True
    assert second["bench"]["median_us"] > 0


def test_a_stopped_server_is_a_clear_outcome_and_nothing_is_lost(server, remote, tmp_path):
    server.stop()
    try:
        code, report, err = bench(tmp_path / "ws")
    finally:
        server.start()
    assert code == 1, err
    assert report["outcome"] == "run-failed", report
    assert "ssh tilescope-test" in report["bench"]["error"]
    assert "connection failed" in report["bench"]["error"]
    # The compile is kept, and the try is in the history with why.
    rows = history(tmp_path / "ws")
    assert len(rows) == 1 and rows[0]["outcome"] == "run-failed"
    assert "connection failed" in rows[0]["summary"]
    assert json.loads(json.dumps(report))["compile"]["artifacts"]["module"]


def test_a_sweep_times_its_candidates_on_the_host(remote, tmp_path):
    code, out, err = cli("sweep", CPU_MATMUL, "--op", "0:1", "--vary", CONFIGS,
                         "--on", "ssh:tilescope-test", "--jobs", "2",
                         "--workspace", tmp_path / "ws", "--json")
    assert code == 0, err
    swept = json.loads(out)
    assert swept["ran"] == 2 and swept["ranking"] == "ranked by measured time"
    assert all(c["outcome"] == "ok" and c["measured_us"] > 0 for c in swept["candidates"])


def test_places_that_are_not_one_are_refused(tmp_path):
    for place, says in [("ssh:", "needs a host name"),
                        ("slurm:", "needs a partition name"),
                        ("moon", "expected local, ssh:HOST or slurm:PARTITION")]:
        code, out, err = cli("bench", CPU_MATMUL, "--on", place, "--workspace", tmp_path)
        assert code == 2, (place, err)
        assert says in err, (place, err)


def test_python_times_on_the_host_too(remote, tmp_path):
    import tilescope
    document = tilescope.open(CPU_MATMUL)
    report = tilescope.run_try(document, "0:1", stage="bench", on="ssh:tilescope-test",
                               workspace=tmp_path / "ws", repetitions=2)
    assert report["outcome"] == "ok", report
    assert report["bench"]["remote"]["on"] == "ssh:tilescope-test"
    assert tilescope.history(tmp_path / "ws")[0]["median_us"] > 0


def test_stopping_a_run_here_ends_it_on_the_host(remote, tmp_path):
    import os
    import signal
    import subprocess
    import time
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    running = subprocess.Popen([os.environ["TILESCOPE_CLI"], "bench", str(CPU_MATMUL), "--on",
                                "ssh:tilescope-test", "--repetitions", "300", "--workspace",
                                str(tmp_path / "ws")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    # run.sh is running on the host once its folder holds run.pid.
    deadline = time.time() + 120
    while not list(remote.glob("runs/*/run.pid")) and time.time() < deadline:
        time.sleep(0.2)
    [pid_file] = list(remote.glob("runs/*/run.pid"))
    folder = pid_file.parent
    time.sleep(1)
    shell = int(pid_file.read_text())
    group = os.getpgid(shell)

    def alive():  # the run's process group on the host (this machine)
        return subprocess.run(["pgrep", "-g", str(group)], capture_output=True).stdout

    assert alive()
    running.send_signal(signal.SIGINT)
    running.communicate(timeout=120)
    # Nothing of it runs on the host any more, and its folder is gone.
    deadline = time.time() + 30
    while time.time() < deadline and (alive() or folder.exists()):
        time.sleep(0.2)
    assert not alive(), alive()
    assert not folder.exists()
    [row] = history(tmp_path / "ws")
    assert row["outcome"] == "interrupted", row


def test_doctor_says_what_the_host_has_to_run_on(remote, tmp_path):
    import socket
    code, out, err = cli("doctor", "--on", "ssh:tilescope-test", "--json")
    # The host (this machine) has no GPU: exit 5, its CPU listed.
    assert code == 5, err
    found = json.loads(out)
    assert found["on"] == "ssh:tilescope-test" and found["gpu"] is False
    assert "local-task://" in found["devices"], found
    assert socket.gethostname().split(".")[0] in found["where"], found


def test_a_checked_run_runs_its_tested_module_on_the_host(remote, tmp_path):
    program = EXAMPLES / "sources" / "matmul_f32_small.mlir"
    code, out, err = cli("verify", CPU_MATMUL, "--program", program, "--on",
                         "ssh:tilescope-test", "--workspace", tmp_path / "ws", "--json")
    assert code == 0, err
    checked = json.loads(out)
    assert checked["passed"] is True, checked
    assert any("tilescope-test" in command and "iree-run-module" in command
               for command in checked["commands"]), checked["commands"]
    [row] = history(tmp_path / "ws")
    assert row["details"]["on"] == "ssh:tilescope-test" and row["check_passed"] is True


def test_a_program_tunes_with_every_timed_run_on_the_host(remote, tmp_path):
    # `tune --on ssh:HOST`: the dispatches' sweeps, the winners' checked
    # runs and both programs end to end run on the host; compiling, the
    # spec and its proof stay here.
    program = SOURCE / "tests" / "e2e" / "data" / "two_matmuls.mlir"
    code, out, err = cli("tune", program, "--target", "llvm-cpu", "--on", "ssh:tilescope-test",
                         "--candidates", "2", "--repetitions", "2", "--workspace",
                         tmp_path / "ws", "--json", timeout=900)
    assert code == 0, err
    tuned = json.loads(out)
    assert tuned["measured"] and tuned["on"] == "ssh:tilescope-test", out
    assert tuned["device"] == "local-task"
    assert len(tuned["dispatches"]) == 2
    for dispatch in tuned["dispatches"]:
        assert dispatch["share_from"] == "measured", dispatch
        assert dispatch["default_time"] is not None, dispatch
    default = tuned["default_program"]
    assert default["check_passed"] and default["time"] is not None, default
    # The checked run's module went to the host and its outputs came back.
    assert any("ssh" in command and "tilescope-test" in command
               for command in default["commands"]), default["commands"]
    # Every timed try is in the history here; nothing is left on the host.
    rows = history(tmp_path / "ws")
    assert any(r["median_us"] and r["median_us"] > 0 for r in rows)
    assert not any((remote / "runs").iterdir())
    checks = remote / "checks"
    assert not checks.exists() or not any(checks.iterdir())
    # Run again: the sweeps come from the history, the programs run there
    # again, and the report says where.
    code, text, err = cli("tune", program, "--target", "llvm-cpu", "--on", "ssh:tilescope-test",
                          "--candidates", "2", "--repetitions", "2", "--workspace",
                          tmp_path / "ws", timeout=900)
    assert code == 0, err
    assert "measured on local-task (ssh:tilescope-test)" in text, text
