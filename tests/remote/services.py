"""The services the remote-run tests (and bench_remote.py, and the window's
sweep panel test through local_cluster.py) start on this machine, and stop
after: a real OpenSSH server on 127.0.0.1 with its own host key and a client
key made for it, and a single-node Slurm (munged, slurmctld, slurmd). No
pytest here: conftest.py makes fixtures of them."""

import getpass
import os
import pathlib
import shutil
import socket
import subprocess
import time

SSHD = "/usr/sbin/sshd"
MUNGED = "/usr/sbin/munged"
SLURMCTLD = "/usr/sbin/slurmctld"
SLURMD = "/usr/sbin/slurmd"


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




class Cluster:
    """A single-node Slurm on this machine: munged, slurmctld and slurmd in
    the foreground, each with its files in `folder`, on free ports; the node
    is this machine, its partition `tilescope`. Client commands (and the
    tilescope-cli the tests run) find it through $SLURM_CONF."""

    PARTITION = "tilescope"
    # The same node as a second partition: where `--compile-on` sends the
    # compile array (a cluster's CPU nodes).
    CPU_PARTITION = "tilescope-cpu"

    def __init__(self, folder):
        self.folder = folder
        self.node = socket.gethostname().split(".")[0]
        self.user = getpass.getuser()
        self.processes = []
        for sub in ("state", "spool"):
            (folder / sub).mkdir()
        key = folder / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o600)
        self.conf = folder / "slurm.conf"
        self.conf.write_text(f"""\
ClusterName=tilescope-test
SlurmctldHost={self.node}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser={self.user}
SlurmdUser={self.user}
AuthType=auth/munge
AuthInfo=socket={folder / 'munge.socket'}
CredType=cred/munge
StateSaveLocation={folder / 'state'}
SlurmdSpoolDir={folder / 'spool'}
SlurmctldPidFile={folder / 'slurmctld.pid'}
SlurmdPidFile={folder / 'slurmd.pid'}
SlurmctldLogFile={folder / 'slurmctld.log'}
SlurmdLogFile={folder / 'slurmd.log'}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
KillWait=2
MinJobAge=600
NodeName={self.node} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} State=UNKNOWN
PartitionName={self.PARTITION} Nodes={self.node} Default=YES MaxTime=INFINITE State=UP
PartitionName={self.CPU_PARTITION} Nodes={self.node} MaxTime=INFINITE State=UP
""")
        self.env = dict(os.environ, SLURM_CONF=str(self.conf))
        self.start()

    def spawn(self, *command):
        log = open(self.folder / (pathlib.Path(command[0]).name + ".out"), "ab")
        self.processes.append(subprocess.Popen(command, env=self.env, stdout=log,
                                               stderr=subprocess.STDOUT))

    def start(self):
        f = self.folder
        self.spawn(MUNGED, "-F", "-f", f"--socket={f / 'munge.socket'}",
                   f"--key-file={f / 'munge.key'}", f"--pid-file={f / 'munged.pid'}",
                   f"--log-file={f / 'munged.log'}", f"--seed-file={f / 'munged.seed'}")
        for _ in range(100):
            if (f / "munge.socket").exists():
                break
            time.sleep(0.1)
        self.spawn(SLURMCTLD, "-D", "-i", "-f", str(self.conf))
        self.spawn(SLURMD, "-D", "-f", str(self.conf), "-N", self.node)
        for _ in range(300):
            state = self.sinfo()
            if state in ("idle", "mix", "alloc"):
                return
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"{process.args[0]} did not start: " + "".join(
                        p.read_text(errors="replace")[-2000:]
                        for p in f.glob("*.log")))
            time.sleep(0.2)
        raise RuntimeError("the Slurm node did not come up: " + state)

    def sinfo(self):
        run = subprocess.run(["sinfo", "--noheader", "--format=%t", "--nodes", self.node],
                             capture_output=True, text=True, env=self.env)
        return run.stdout.strip().rstrip("*~#!%$@^-")

    def command(self, *words):
        return subprocess.run(list(words), capture_output=True, text=True, env=self.env,
                              check=True).stdout

    def running(self, job=None):
        """The array tasks Slurm says are RUNNING: ["41_0", ...]."""
        out = subprocess.run(["squeue", "--noheader", "--array", "--states=RUNNING",
                              "--format=%i"] + (["--jobs", job] if job else []),
                             capture_output=True, text=True, env=self.env).stdout
        return out.split()

    def stop(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
        self.processes = []
