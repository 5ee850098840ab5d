"""A real OpenSSH server on 127.0.0.1 for the remote-run tests, started for
the session and stopped after: its own host key, a client key made for the
test, and an ssh config naming it `tilescope-test`. Tilescope reaches it
through $TILESCOPE_SSH (ssh -F that config) as a user's own ssh config
would; the host's cache is a folder of the test ($TILESCOPE_REMOTE_CACHE),
not the user's ~/.cache."""

import getpass
import os
import pathlib
import shutil
import socket
import subprocess
import time

import pytest

SOURCE = pathlib.Path(os.environ.get("TILESCOPE_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
EXAMPLES = SOURCE / "examples"
SSHD = "/usr/sbin/sshd"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, folder):
        self.folder = folder
        self.port = free_port()
        self.process = None
        keygen = ["ssh-keygen", "-q", "-t", "ed25519", "-N", ""]
        subprocess.run(keygen + ["-f", str(folder / "host_key")], check=True)
        subprocess.run(keygen + ["-f", str(folder / "client_key")], check=True)
        shutil.copy(folder / "client_key.pub", folder / "authorized_keys")
        (folder / "sshd_config").write_text(f"""\
Port {self.port}
ListenAddress 127.0.0.1
HostKey {folder / 'host_key'}
PidFile {folder / 'sshd.pid'}
AuthorizedKeysFile {folder / 'authorized_keys'}
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
""")
        (folder / "ssh_config").write_text(f"""\
Host tilescope-test
  HostName 127.0.0.1
  Port {self.port}
  User {getpass.getuser()}
  IdentityFile {folder / 'client_key'}
  IdentitiesOnly yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
""")
        if os.geteuid() == 0:
            os.makedirs("/run/sshd", exist_ok=True)  # sshd's privilege separation
        self.start()

    def start(self):
        self.process = subprocess.Popen([SSHD, "-D", "-e", "-f", str(self.folder / "sshd_config")],
                                        stdout=subprocess.DEVNULL,
                                        stderr=open(self.folder / "sshd.log", "ab"))
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError("sshd did not start: " +
                                       (self.folder / "sshd.log").read_text())
                time.sleep(0.1)
        raise RuntimeError("sshd did not listen on port %d" % self.port)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


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
