"""A single-node SLURM on this machine, for the cluster test (issue 26).

What ``../shared/notes/cluster.md`` found to work on the project's machines
(2 cores, no cgroup delegation, root): Debian's ``slurm-wlm`` and ``munge``;
a munge key owned by munge; ``slurm.conf`` with linuxproc process tracking,
no task plugin, no accounting (so job status comes from ``squeue``, which
wants ``MinJobAge`` >= 120 s), one node with this machine's cores and memory,
one default partition. The config must sit at ``/etc/slurm/slurm.conf``: the
executor plugin's in-job ``srun`` does not read ``SLURM_CONF``.

``LocalSlurm`` installs the packages when they are missing (``apt-get``, as
root), starts ``munged``, ``slurmctld`` and ``slurmd``, waits for the node to
be idle, and on exit stops what it started (by pid file), puts back any
``/etc/slurm/slurm.conf`` it replaced and removes its scratch folder.

That changes the machine, so the tests that use it run only when asked
(``REPRO_TEST_SLURM=1``, which ``.ci/run`` sets): a plain ``pytest`` leaves the
system alone and says how to opt in (issue 47).
"""
import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]

PACKAGES = ("slurm-wlm", "munge")
DAEMONS = ("munged", "slurmctld", "slurmd")
CONF = Path("/etc/slurm/slurm.conf")
PARTITION = "repro"

# The environment variable that asks for the cluster tests; NOT_ASKED, the reason
# they give when they skip without it.
OPT_IN = "REPRO_TEST_SLURM"
NOT_ASKED = (
    f"the SLURM tests change this machine (as root they apt-get install {' and '.join(PACKAGES)} "
    f"and start {', '.join(DAEMONS)}): set {OPT_IN}=1 to run them (.ci/run does)"
)


def asked() -> bool:
    """Whether this test run asked for the cluster tests (OPT_IN set to 1)."""
    return os.environ.get(OPT_IN) == "1"


def readme_cluster_commands() -> list:
    """The commands of README.md's "On a SLURM cluster" section, in order: for
    each bash block, (environment variables set before ``snakemake``, the
    arguments after it)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### On a SLURM cluster"):]
    section = section[:re.search(r"\n#{1,3} ", section[1:]).start() + 1]  # to the next heading
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", section, re.S):
        words = shlex.split(block.replace("\\\n", " "))
        env = {}
        while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
            name, _, value = words.pop(0).partition("=")
            env[name] = value
        assert words and words[0] == "snakemake", block
        commands.append((env, words[1:]))
    return commands


def workflow_rules() -> dict:
    """Rule name -> (runs on the submitting host: ``localrule: True``, a timing
    job: ``threads: every_core``), read from the workflow's rules files."""
    rules = {}
    for path in [REPO / "workflow" / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]:
        for name, body in re.findall(r"^rule (\w+):\n(.*?)(?=^\S|\Z)", path.read_text(), re.S | re.M):
            rules[name] = (bool(re.search(r"^\s+localrule: True", body, re.M)),
                           bool(re.search(r"^\s+threads: every_core", body, re.M)))
    return rules


def filled(env: dict, account=None, partition=None) -> dict:
    """A README command's variables with its placeholders filled in; a variable
    whose placeholder is given None is left out (unset)."""
    values = {"<account>": account, "<partition>": partition}
    out = {}
    for name, value in env.items():
        value = values.get(value, value)
        if value is not None:
            out[name] = value
    return out


@contextlib.contextmanager
def shared_cache():
    """A data cache where a cluster's jobs would find it (the workflow refuses one under
    /tmp or $TMPDIR under a cluster executor): a new folder under ~/.cache, removed after."""
    base = Path.home() / ".cache"
    base.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="repro-cluster-test-", dir=base))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Request(NamedTuple):
    """What a SLURM job asked for: minutes, MB, CPUs per task (one task), partition."""
    minutes: int
    mem_mb: int
    cpus: int
    partition: str


def _minutes(limit: str) -> int:
    """squeue's time limit ([days-]hours:minutes:seconds, or minutes:seconds) in minutes."""
    days, _, clock = limit.rpartition("-")
    parts = [int(p) for p in clock.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    hours, minutes, seconds = parts
    return int(days or 0) * 1440 + hours * 60 + minutes + (seconds > 0)


def _megabytes(memory: str) -> int:
    """squeue's minimum memory (4000M, 2G, ...) in MB."""
    units = {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}
    return round(float(memory[:-1]) * units[memory[-1]]) if memory[-1] in units else int(memory)


def submitted(output: str) -> dict:
    """SLURM job id -> rule, for every job the executor plugin says it submitted
    ("... submitted with SLURM jobid N (log: .../slurm_logs/rule_<rule>/...)")."""
    jobs = {}
    for jobid, log in re.findall(r"submitted with SLURM jobid (\d+) \(log: (.*?)\)", output):
        rule = next(p[len("rule_"):] for p in Path(log).parts if p.startswith("rule_"))
        jobs[jobid] = rule
    return jobs


def requests(job_ids) -> dict:
    """SLURM job id -> :class:`Request`, from squeue (finished jobs are kept MinJobAge)."""
    out = _run("squeue", "--states=all", "--noheader", f"--jobs={','.join(job_ids)}",
               "--format=%i|%l|%m|%c|%P").stdout
    found = {}
    for line in out.splitlines():
        jobid, limit, memory, cpus, partition = line.strip().split("|")
        found[jobid] = Request(_minutes(limit), _megabytes(memory), int(cpus), partition)
    return found


class SlurmUnavailable(RuntimeError):
    """SLURM cannot be installed or started here (not root, no package index)."""


def _run(*cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def install_packages():
    """apt-get the packages when one of the daemons is missing (needs root)."""
    if all(shutil.which(d) for d in DAEMONS) and shutil.which("sbatch"):
        return
    if os.geteuid() != 0:
        raise SlurmUnavailable("slurm-wlm and munge are not installed, and installing them needs root")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        _run("apt-get", "update", "-qq", env=env)
        _run("apt-get", "install", "-y", "-qq", *PACKAGES, env=env)
    except subprocess.CalledProcessError as err:
        raise SlurmUnavailable(f"apt-get install {' '.join(PACKAGES)} failed: {err.stderr[-500:]}")


def _memory_mb() -> int:
    with open("/proc/meminfo") as f:
        total_kb = next(int(line.split()[1]) for line in f if line.startswith("MemTotal:"))
    return int(total_kb / 1024 * 0.9)  # a little under the total, as slurmd measures less


def slurm_conf(scratch: Path, host: str, cpus: int, memory_mb: int) -> str:
    return "\n".join([
        "ClusterName=repro-test",
        f"SlurmctldHost={host}",
        "SlurmUser=root",
        "AuthType=auth/munge",
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_Core_Memory",
        "AccountingStorageType=accounting_storage/none",
        "JobAcctGatherType=jobacct_gather/none",
        # squeue status (no sacct) needs finished jobs kept >= 120 s; the tests read every
        # job's requests from squeue after runs of several minutes: kept an hour
        "MinJobAge=3600",
        "ReturnToService=2",
        f"StateSaveLocation={scratch}/state",
        f"SlurmdSpoolDir={scratch}/spool",
        f"SlurmctldPidFile={scratch}/slurmctld.pid",
        f"SlurmdPidFile={scratch}/slurmd.pid",
        f"SlurmctldLogFile={scratch}/slurmctld.log",
        f"SlurmdLogFile={scratch}/slurmd.log",
        f"NodeName={host} CPUs={cpus} RealMemory={memory_mb} State=UNKNOWN",
        f"PartitionName={PARTITION} Nodes={host} Default=YES MaxTime=INFINITE State=UP",
        "",
    ])


class LocalSlurm:
    """Context manager: a running single-node SLURM; ``partition`` names its queue."""

    partition = PARTITION

    def __init__(self, start_timeout=60.0):
        self.start_timeout = start_timeout
        self.scratch = None
        self._saved_conf = None
        self._pids = {}

    # -- start -------------------------------------------------------------
    def __enter__(self):
        install_packages()
        self.scratch = Path(tempfile.mkdtemp(prefix="repro-slurm-"))
        try:
            self._start_munge()
            self._write_conf()
            for daemon in ("slurmctld", "slurmd"):
                _run(daemon)  # they daemonise and write their pid files
                self._pids[daemon] = self.scratch / f"{daemon}.pid"
            self._wait_idle()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _start_munge(self):
        """munged in Debian's own places (its strict permission checks accept
        them): the key the package made (one is made when missing), /run/munge
        for the socket and pid file."""
        key = Path("/etc/munge/munge.key")
        if not key.exists():
            _run("runuser", "-u", "munge", "--", "mungekey", "--create")
        run = Path("/run/munge")
        run.mkdir(mode=0o755, exist_ok=True)
        shutil.chown(run, "munge", "munge")
        pidfile = run / "munged.pid"
        if not _alive(pidfile):
            _run("runuser", "-u", "munge", "--", "munged")
            self._pids["munged"] = pidfile  # stopped at exit only when started here
        _run("bash", "-c", "munge -n | unmunge")

    def _write_conf(self):
        (self.scratch / "state").mkdir()
        (self.scratch / "spool").mkdir()
        host = socket.gethostname().split(".")[0]
        text = slurm_conf(self.scratch, host, os.cpu_count() or 1, _memory_mb())
        CONF.parent.mkdir(parents=True, exist_ok=True)
        if CONF.exists():
            self._saved_conf = self.scratch / "slurm.conf.saved"
            shutil.copy2(CONF, self._saved_conf)
        CONF.write_text(text)

    def _wait_idle(self):
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            out = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True)
            if out.returncode == 0 and out.stdout.strip() in ("idle", "mixed", "allocated"):
                return
            time.sleep(1.0)
        logs = "".join((self.scratch / f"{d}.log").read_text()[-800:]
                       for d in ("slurmctld", "slurmd") if (self.scratch / f"{d}.log").exists())
        raise SlurmUnavailable(f"the node did not come up idle in {self.start_timeout:.0f} s; logs:\n{logs}")

    # -- stop --------------------------------------------------------------
    def __exit__(self, *exc):
        for daemon in ("slurmd", "slurmctld", "munged"):
            pidfile = self._pids.pop(daemon, None)
            if pidfile is not None:
                _stop(pidfile)
        if self._saved_conf is not None:
            shutil.copy2(self._saved_conf, CONF)
        elif CONF.exists() and self.scratch is not None:
            CONF.unlink()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
        return False


def _alive(pidfile: Path) -> bool:
    try:
        os.kill(int(pidfile.read_text().split()[0]), 0)
        return True
    except (OSError, ValueError, IndexError):
        return False


def _stop(pidfile: Path, timeout=20.0):
    """SIGTERM the daemon of ``pidfile`` and wait until it is gone."""
    try:
        pid = int(pidfile.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    os.kill(pid, signal.SIGKILL)
