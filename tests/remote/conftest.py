"""Fixtures of the remote-run tests (services.py): a real OpenSSH server on
127.0.0.1, started for the session and stopped after (its own host key, a
client key made for the test, an ssh config naming it `tilescope-test`;
Tilescope reaches it through $TILESCOPE_SSH, ssh -F that config, as a
user's own ssh config would; the host's cache is a folder of the test,
$TILESCOPE_REMOTE_CACHE, not the user's ~/.cache); and a single-node Slurm,
found through $SLURM_CONF."""

import os
import pathlib
import subprocess

import pytest

from services import MUNGED, SLURMCTLD, SLURMD, SSHD, Cluster, Server

SOURCE = pathlib.Path(os.environ.get("TILESCOPE_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
EXAMPLES = SOURCE / "examples"


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    if not os.access(SSHD, os.X_OK):
        pytest.fail(f"{SSHD} is missing: scripts/tilescope.sh installs openssh-server")
    server = Server(tmp_path_factory.mktemp("sshd"))
    yield server
    server.stop()


@pytest.fixture
def remote(server, tmp_path, monkeypatch):
    """The environment a test's tilescope-cli runs with: the test server as
    `tilescope-test`, a cache of the test's own on the host."""
    if server.process.poll() is not None:
        server.start()
    cache = tmp_path / "host-cache"
    monkeypatch.setenv("TILESCOPE_SSH", f"ssh -F {server.folder / 'ssh_config'}")
    monkeypatch.setenv("TILESCOPE_REMOTE_CACHE", str(cache))
    return cache


def cli(*arguments, timeout=300):
    """The built tilescope-cli; returns (exit code, stdout, stderr)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run([os.environ["TILESCOPE_CLI"], *map(str, arguments)],
                         capture_output=True, text=True, env=env, timeout=timeout)
    return run.returncode, run.stdout, run.stderr


@pytest.fixture(scope="session")
def cluster(tmp_path_factory):
    for daemon in (MUNGED, SLURMCTLD, SLURMD):
        if not os.access(daemon, os.X_OK):
            pytest.fail(f"{daemon} is missing: scripts/tilescope.sh installs munge, "
                        "slurmctld, slurmd and slurm-client")
    cluster = Cluster(tmp_path_factory.mktemp("slurm"))
    yield cluster
    cluster.stop()


@pytest.fixture
def slurm(cluster, monkeypatch):
    """The environment a test's tilescope-cli runs with: the test cluster,
    its node up, no extra sbatch options."""
    if cluster.sinfo() not in ("idle", "mix", "alloc"):
        subprocess.run(["scontrol", "update", f"nodename={cluster.node}", "state=resume"],
                       env=cluster.env)
    monkeypatch.setenv("SLURM_CONF", str(cluster.conf))
    monkeypatch.delenv("TILESCOPE_SBATCH_OPTIONS", raising=False)
    return cluster
