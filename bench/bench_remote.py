"""What running elsewhere costs: one 64-candidate CPU sweep (the small f32
matmul, 64 whole configs) run here, through a single-node Slurm on this
machine (one job array), and through ssh to an sshd on 127.0.0.1, each in a
fresh workspace; the overhead per candidate against the local sweep.

The services are the tests' own (tests/remote/services.py): started here,
stopped after. Figures only, never pass/fail."""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

SOURCE = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SOURCE / "tests" / "remote"))
import services  # noqa: E402  (the tests' sshd and Slurm)

CLI = os.environ["TILESCOPE_CLI"]
MATMUL = SOURCE / "examples" / "llvm_cpu" / "matmul_f32_small_dispatch_0.benchmark.mlir"


def configs():
    texts = []
    for tile in (16, 32, 64, 128):
        for a, b in ((4, 4), (8, 8), (8, 16), (16, 16)):
            for k in (2, 4, 8, 16):
                texts.append(
                    "#iree_cpu.lowering_config<cache_parallel = [%d, %d, 0], distribution = "
                    "[%d, %d, 0], vector_common_parallel = [%d, %d, 0], vector_reduction = "
                    "[0, 0, %d]>" % (tile, tile, tile, tile, a, b, k))
    return texts


def sweep(place, workspace, env, *extra):
    start = time.monotonic()
    run = subprocess.run([CLI, "sweep", MATMUL, "--op", "0:1", "--vary",
                          "lowering_config=" + ",".join(configs()), "--on", place,
                          "--repetitions", "1", "--workspace", workspace, "--json", *extra],
                         capture_output=True, text=True, env=env, timeout=3600)
    wall = time.monotonic() - start
    # 1: it ran, and a candidate failed (its outcome says why).
    if run.returncode not in (0, 1) or not run.stdout.strip():
        raise SystemExit("sweep --on %s failed: %s" % (place, run.stderr[-2000:]))
    swept = json.loads(run.stdout)
    ok = sum(c["outcome"] == "ok" for c in swept["candidates"])
    failed = sorted({c["outcome"] for c in swept["candidates"] if c["outcome"] != "ok"})
    if failed:
        print("    (--on %s: not ok: %s)" % (place, ", ".join(failed)))
    return wall, ok, len(swept["candidates"])


def main():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="tilescope-bench-remote-"))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    print("bench_remote: a 64-candidate CPU sweep (small f32 matmul, --repetitions 1)")
    (folder / "sshd").mkdir()
    server = services.Server(folder / "sshd")
    (folder / "slurm").mkdir()
    cluster = services.Cluster(folder / "slurm")
    try:
        local, ok, total = sweep("local", folder / "ws-local", env)
        print("  here (local):            %6.1f s, %d of %d timed" % (local, ok, total))
        slurm_env = dict(env, SLURM_CONF=str(cluster.conf))
        on_slurm, ok, _ = sweep("slurm:" + cluster.PARTITION, folder / "ws-slurm", slurm_env)
        print("  Slurm (one job array):   %6.1f s, %d of %d timed; %+.2f s a candidate"
              % (on_slurm, ok, total, (on_slurm - local) / total))
        compiled, ok, _ = sweep("slurm:" + cluster.PARTITION, folder / "ws-slurm-compile",
                                slurm_env, "--compile-on", "slurm:" + cluster.CPU_PARTITION)
        print("  Slurm, compiling there:  %6.1f s, %d of %d timed; %+.2f s a candidate"
              " (a compile array, each run task waiting for its compile task)"
              % (compiled, ok, total, (compiled - local) / total))
        ssh_env = dict(env, TILESCOPE_SSH="ssh -F %s" % (folder / "sshd" / "ssh_config"),
                       TILESCOPE_REMOTE_CACHE=str(folder / "host-cache"))
        on_ssh, ok, _ = sweep("ssh:tilescope-test", folder / "ws-ssh", ssh_env)
        print("  ssh to 127.0.0.1:        %6.1f s, %d of %d timed; %+.2f s a candidate"
              % (on_ssh, ok, total, (on_ssh - local) / total))
    finally:
        cluster.stop()
        server.stop()


if __name__ == "__main__":
    main()
