"""The SLURM profile as a cluster user meets it, planned without a cluster (issue 49).

Dry runs (``-n``) of README.md's cluster commands, as "On a SLURM cluster" gives
them, with its placeholders filled in: every job keeps the profile's default
resources and adds the account and partition; the plan prints what a cluster
user needs (jobs submitted, CPU-hours, the longest job, the largest memory
request) and no local wall time; a data cache the compute nodes would not see is
refused. tests/test_slurm.py runs the same commands on a real one-node SLURM.
"""
import math
import re
from pathlib import Path

import pytest
import yaml

from repro.experiments import config as C
from repro.experiments import cost as COST
from repro.experiments import resources as R
from repro.papers.catalog import table_spec
# the tests folder is on sys.path
from slurm_cluster import filled, readme_cluster_commands, workflow_rules
from test_workflow import REPO, copy_workflow, run_snakemake
from test_workflow_plan import _clone

PROFILE = REPO / "workflow" / "profiles" / "slurm" / "config.v8+.yaml"
CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def profile_defaults() -> dict:
    """The profile's default resources, as Snakemake reads it (a YTE template)."""
    import yte

    with open(PROFILE) as f:
        return yte.process_yaml(f, require_use_yte=True)["default-resources"]


@pytest.fixture
def cluster_env(data_env, monkeypatch):
    """A data cache where a cluster's jobs could reach it (a folder under ~/.cache,
    never created by a dry run), no SBATCH_ variables of the caller's own."""
    cache = Path.home() / ".cache" / "repro-cluster-test-not-created"
    if C.node_local(cache):
        pytest.skip(f"this machine's home is node-local storage ({C.node_local(cache)})")
    monkeypatch.setenv("REPRO_DATA_DIR", str(cache))
    for name in ("SBATCH_ACCOUNT", "SBATCH_PARTITION"):
        monkeypatch.delenv(name, raising=False)
    yield monkeypatch
    assert not cache.exists()


def dry_run(cwd, env, args, monkeypatch):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    r = run_snakemake(["-n", *args], cwd=cwd)
    for name in env:
        monkeypatch.delenv(name)
    return r, r.stdout + r.stderr


def planned(out: str) -> list:
    """(rule, {resource: value}) of every job of a dry run's output."""
    jobs, rule = [], None
    for line in out.splitlines():
        m = re.match(r"(?:local)?rule (\w+):$", line)
        if m:
            rule = m.group(1)
        m = re.match(r"\s+resources: (.*)$", line)
        if m and rule:
            jobs.append((rule, dict(item.split("=", 1) for item in m.group(1).split(", "))))
            rule = None
    return jobs


def plan_of(r) -> str:
    """The plan's lines (printed on stderr when Snakemake plans, rules/plan.smk)."""
    lines = r.stderr[r.stderr.index("Plan ("):].splitlines()
    kept = [lines[0]]
    for line in lines[1:]:
        if not (line.startswith("  ") or line.startswith("The whole")):
            break
        kept.append(line)
    return "\n".join(kept)


def test_the_readme_has_the_two_cluster_commands():
    (env, args), (env2, args2) = readme_cluster_commands()
    assert env == {"SBATCH_ACCOUNT": "<account>", "SBATCH_PARTITION": "<partition>"}
    assert env2 == {"SBATCH_PARTITION": "<partition>"}
    for command in (args, args2):
        assert command[:2] == ["--workflow-profile", "workflow/profiles/slurm"]
        assert "--default-resources" not in command  # it would replace the profile's
    assert args2[-2:] == ["--configfile", "config/test.yaml"]


@pytest.mark.slow
def test_the_readmes_cluster_commands_keep_the_profiles_defaults(cluster_env, tmp_path):
    rules = workflow_rules()
    defaults = profile_defaults()
    assert {"runtime", "mem_mb", "cpus_per_task"} <= set(defaults)
    copy_workflow(tmp_path)
    for (env, args), account in zip(readme_cluster_commands(), ("acct-x", None)):
        env = filled(env, account=account, partition="part-x")
        if "--configfile" not in args:
            args = [*args, "--configfile", "config/test.yaml"]  # the tiny scale: every rule
        r, out = dry_run(tmp_path, env, args, cluster_env)
        assert r.returncode == 0, out[-3000:]
        jobs = planned(out)
        assert len(jobs) > 100, out[-3000:]
        kinds = set()
        for rule, res in jobs:
            local, _ = rules[rule]
            kinds.add(local)
            if local:  # a table, data or build step: the profile's defaults
                assert (int(res["runtime"]), int(res["mem_mb"])) == \
                    (defaults["runtime"], defaults["mem_mb"]), (rule, res)
            else:  # an experiment job: not measured at the tiny scale
                assert (int(res["runtime"]), int(res["mem_mb"])) == \
                    (CONFIG["unmeasured_resources"]["runtime"],
                     CONFIG["unmeasured_resources"]["mem_mb"]), (rule, res)
            # a dry run plans on one core: a timing job's cpus are checked on SLURM
            assert res["cpus_per_task"] == "1", (rule, res)
            assert res["slurm_partition"] == "part-x", (rule, res)
            assert res.get("slurm_account") == account, (rule, res)
        assert kinds == {True, False}
        experiment = sum(not rules[rule][0] for rule, _ in jobs)
        plan = plan_of(r)
        assert f"  on the cluster (slurm): {experiment} jobs submitted;" in plan
        assert "  largest memory request: 4000 MB (" in plan
        assert "wall" not in plan and "--cores" not in plan
        assert "warning: the default resources lack" not in plan


@pytest.mark.slow
def test_default_resources_on_the_command_line_are_said_to_replace_the_profiles(cluster_env, tmp_path):
    copy_workflow(tmp_path)
    r, out = dry_run(tmp_path, {}, ["--workflow-profile", "workflow/profiles/slurm", "--default-resources",
                                    "slurm_partition=part-x", "--configfile", "config/test.yaml"], cluster_env)
    assert r.returncode == 0, out[-3000:]
    assert "  warning: the default resources lack runtime, cpus_per_task, which workflow/profiles/slurm " \
           "sets: --default-resources on the command line replaces" in out
    assert {res.get("runtime") for _, res in planned(out)} >= {None}  # what the warning is about


@pytest.mark.slow
def test_the_plan_on_a_cluster_gives_cpu_hours_the_longest_job_and_the_largest_memory(cluster_env, tmp_path):
    """Full scale, one table recomputed: the plan's figures and each job's requests
    are the committed records' measurements."""
    clone = _clone(tmp_path)
    (env, args), _ = readme_cluster_commands()
    args = [a.replace("recompute=all", "recompute=ldm_table1") for a in args]
    r, out = dry_run(clone, filled(env, account="acct-x", partition="part-x"), [*args, "--", "ldm_table1"],
                     cluster_env)
    assert r.returncode == 0, out[-3000:]
    jobs = [res for rule, res in planned(out) if rule == "ldm_table1_record"]
    measured = R.measured(table_spec("ldm_table1"))
    assert len(jobs) == len(measured) == 22
    asked = sorted((R.runtime_minutes(m.seconds), R.mem_mb(m.peak_mb)) for m in measured.values())
    assert sorted((int(j["runtime"]), int(j["mem_mb"])) for j in jobs) == asked
    start = yaml.safe_load((REPO / "workflow" / "resources" / "measured.yaml").read_text())["job_start_seconds"]
    cpu = sum(m.seconds + start for m in measured.values())
    plan = plan_of(r)
    assert "  on the cluster (slurm): 22 jobs submitted;" in plan
    assert f"  cost: about {COST.cpu_hours(cpu)}: each job's measured seconds" in plan
    path, longest = max(measured.items(), key=lambda kv: kv[1].seconds)
    assert (f"  longest job: ldm_table1 {path}, {COST.hours(longest.seconds)} measured, "
            f"{R.runtime_minutes(longest.seconds)} min asked") in plan
    assert f"  largest memory request: {max(b for _, b in asked)} MB (ldm_table1 " in plan
    whole = re.search(r"The whole full run, every job from scratch: (\d+\.\d+) CPU-hours on the cluster "
                      r"\((\d+) jobs submitted", plan)
    assert whole and int(whole.group(2)) > 800 and float(whole.group(1)) > 1, plan
    assert "wall" not in plan and "--cores" not in plan


@pytest.mark.parametrize("how", ["REPRO_DATA_DIR", "config data_cache"])
def test_a_node_local_cache_is_refused_under_the_profile(cluster_env, tmp_path, how):
    copy_workflow(tmp_path)
    cache = tmp_path / "cache"  # under /tmp: each node's own
    _, args = readme_cluster_commands()[1]
    if how == "REPRO_DATA_DIR":
        cluster_env.setenv("REPRO_DATA_DIR", str(cache))
    else:
        args = [*args, "--config", f"data_cache={cache}"]
    r, out = dry_run(tmp_path, {"SBATCH_PARTITION": "part-x"}, args, cluster_env)
    assert r.returncode != 0
    said = [line for line in out.splitlines() if "the data cache" in line]
    assert len(said) == 1 and said[0].startswith(how), out[-2000:]
    assert f"{cache} is under /tmp, which the slurm jobs on other nodes do not see" in said[0]
    assert "set config data_cache (--config data_cache=DIR) or REPRO_DATA_DIR" in said[0]
    assert not cache.exists()


# -- the checks themselves -----------------------------------------------------------------

def test_node_local_storage_is_told_by_folder_variable_and_filesystem(tmp_path):
    if C.node_local(Path.home(), {}, tmp_path / "none"):
        pytest.skip("this machine's home is node-local storage")
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/vda / ext4 rw 0 0\ntmpfs /scratch/ram tmpfs rw 0 0\n"
                      "nfs:/home /shared\\040home nfs rw 0 0\n")
    home = str(Path.home())
    env = {"TMPDIR": "/local/job42", "XDG_RUNTIME_DIR": home}  # a TMPDIR holding the home is not node-local
    assert C.node_local(Path("/tmp/x"), env, mounts) == "under /tmp"
    assert C.node_local(Path("/dev/shm"), env, mounts) == "under /dev/shm"
    assert C.node_local(Path("/local/job42/cache"), env, mounts) == "under $TMPDIR (/local/job42)"
    assert C.node_local(Path("/scratch/ram/c"), env, mounts) == "on a tmpfs filesystem (in one machine's memory)"
    assert C.node_local(Path("/shared home/c"), env, mounts) is None
    assert C.node_local(Path(home) / ".cache" / "repro", env, mounts) is None


def test_a_cache_that_cannot_be_created_is_refused(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    settings = C.read({**CONFIG, "data_cache": str(blocker / "cache")})
    with pytest.raises(C.ConfigError) as err:
        C.shared_storage(settings, None, "slurm", environment={}, mounts=tmp_path / "none")
    # tmp_path is under /tmp: said first; elsewhere the same path cannot be created
    assert str(err.value).startswith("config data_cache: the data cache ")
    assert C._creatable(blocker / "cache").startswith("does not exist and cannot be created")
    assert C._creatable(blocker) == "is not a folder"
    assert C._creatable(tmp_path / "new" / "cache") is None and not (tmp_path / "new").exists()


def test_a_mirror_the_nodes_cannot_see_is_refused(tmp_path):
    settings = C.read({**CONFIG, "data_cache": str(Path.home() / ".cache" / "repro")})
    with pytest.raises(C.ConfigError, match=r"^REPRO_DATA_MIRROR: the dataset mirror /dev/shm/m is under /dev/shm"):
        C.shared_storage(settings, Path("/dev/shm/m"), "slurm", environment={"REPRO_DATA_MIRROR": "/dev/shm/m"},
                         mounts=tmp_path / "none")


def test_the_cluster_summary_charges_each_job_its_cores():
    jobs = [COST.Job(100.0, False, "t", cores=1, runtime_min=5, mem_mb=1000, name="a"),
            COST.Job(600.0, True, "t", cores=2, runtime_min=20, mem_mb=1500, name="b"),
            COST.Job(None, False, "t", cores=1, runtime_min=120, mem_mb=4000, name="c"),
            COST.Job(None, local=True, name="page")]
    s = COST.cluster_summary(COST.Cost(jobs), start_s=2.0)
    assert (s.submitted, s.local, s.unmeasured) == (3, 1, 1)
    assert math.isclose(s.cpu_seconds, 102.0 + 2 * 602.0)
    assert s.longest.name == "b" and s.largest_memory.name == "c"
    assert COST.cpu_hours(s.cpu_seconds) == "0.36 CPU-hours"
    assert COST.cpu_hours(36000 * 1.25) == "12.5 CPU-hours"
