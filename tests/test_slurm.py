"""The workflow on a real SLURM, through the profile and Snakemake's executor plugin (issues 26, 49).

A single-node SLURM is started on this machine (tests/slurm_cluster.py: Debian's
slurm-wlm and munge, installed with apt-get when missing) and the README's
cluster command is run, exactly as "On a SLURM cluster" gives it (its
placeholders filled in), in copies of the workflow, with a data cache outside
/tmp (the workflow refuses a node-local one under a cluster executor):

- on the tiny test configuration (config/test.yaml, every rule): every job
  SLURM was given is an experiment job (the table, data and build steps run
  here), and asked for what its kind asks (time and memory: config
  unmeasured_resources, as the tiny scale is not measured; CPUs: its threads,
  config cluster_timing_threads for a timing job; the partition given); its
  records and tables must equal those of a local run of the same configuration,
  apart from what measures the run (seconds, the machine). The tiny scale's time
  caps lie several times above what its capped fits take here (at most 6 s of
  SVM-Light against 20 s), so no cap decides a result in one run and not the other;
- on two full-scale tables recomputed beside the committed records: their pages
  must equal the committed ones, and each of their jobs must have asked SLURM
  for the time and memory its committed record measured (with the margins of
  repro.experiments.resources).

Starting SLURM changes the machine, so these tests run only when asked:
REPRO_TEST_SLURM=1 (.ci/run sets it); without it they skip, saying how to ask.
They take minutes: marked slow too (pytest --slow).
"""
import os
import re
import shutil
import subprocess
import sys

import pandas as pd
import pytest
import yaml

from repro.experiments import resources as R
from repro.papers.catalog import table_spec
# the tests folder is on sys.path
from slurm_cluster import (NOT_ASKED, LocalSlurm, SlurmUnavailable, asked, filled, readme_cluster_commands,
                           requests, shared_cache, submitted, workflow_rules)
from test_workflow import REPO, copy_workflow, job_stats

# Skipped before the cluster fixture runs: nothing is installed or started unless asked.
pytestmark = [pytest.mark.skipif(not asked(), reason=NOT_ASKED), pytest.mark.slow]

FULL_TABLES = ("lsvm_convergence", "ldm_table1")
CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
# Added to the README's command by the test only: the plugin otherwise waits 40 s
# before its first status query.
TEST_ONLY = ["--slurm-init-seconds-before-status-checks", "1"]


def readme_cluster_command(partition: str):
    """The README's command for a cluster without accounting (the second block of
    "On a SLURM cluster"): its environment with the partition filled in (no
    account), and its arguments after `snakemake`."""
    env, args = readme_cluster_commands()[1]
    assert env.get("SBATCH_PARTITION") == "<partition>", env
    return filled(env, partition=partition), args


def run_snakemake(args, cwd, env, timeout):
    """snakemake ``args`` in ``cwd``, with the README's environment variables ``env``."""
    exe = shutil.which("snakemake")
    cmd = [exe] if exe else [sys.executable, "-m", "snakemake"]
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **env})


# The NESVM timing tables' claims ("NESVM fastest at every C", ...) are read from
# the measured times, so their values, verdicts and notes are measurements too
TIMED_CLAIM_COLUMNS = {"reproduced", "difference", "verdict", "claim", "note", "why"}


def measures_the_run(column: str, table_id: str) -> bool:
    """A column that says how long a job took or where it ran, not what it computed
    (the Pegasos records' note gives svm_learn's CPU time; the NESVM timing tables'
    claims are read from times)."""
    return ("seconds" in column or column in {"provenance", "cpu_model", "cpu_count", "threads",
                                              "thread_pools", "time_ratio_vs_libsvm"}
            or (table_id, column) == ("pegasos_convergence", "note")
            or (table_id in ("nesvm_time", "nesvm_images") and column in TIMED_CLAIM_COLUMNS))


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip("snakemake_executor_plugin_slurm")
    try:
        with LocalSlurm() as running:
            yield running
    except SlurmUnavailable as why:
        pytest.skip(str(why))


@pytest.fixture
def cache(data_env, monkeypatch):
    """The data cache of these runs: on storage the README calls shared (not /tmp)."""
    with shared_cache() as folder:
        monkeypatch.setenv("REPRO_DATA_DIR", str(folder))
        yield folder


def asked_of_slurm(output: str, partition: str) -> dict:
    """Rule -> the Requests SLURM was given for its jobs in a run whose output is ``output``."""
    jobs = submitted(output)
    assert jobs, output[-3000:]
    found = requests(jobs)
    assert set(found) == set(jobs), (jobs, found)
    by_rule = {}
    for jobid, rule in jobs.items():
        assert found[jobid].partition == partition, (rule, found[jobid])
        by_rule.setdefault(rule, []).append(found[jobid])
    return by_rule


def test_the_tiny_configuration_on_slurm_equals_a_local_run(cache, tmp_path, cluster):
    local, remote = tmp_path / "local", tmp_path / "slurm"
    for where in (local, remote):
        copy_workflow(where)
    r = run_snakemake(["--cores", "2", "--configfile", "config/test.yaml"], cwd=local, env={}, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    env, command = readme_cluster_command(cluster.partition)
    assert command[-2:] == ["--configfile", "config/test.yaml"]
    r = run_snakemake([*command, *TEST_ONLY], cwd=remote, env=env, timeout=1500)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-8000:]

    # what each kind of job asked SLURM for
    rules = workflow_rules()
    by_rule = asked_of_slurm(out, cluster.partition)
    ran = {rule: n for rule, n in job_stats(out).items() if rule != "total"}
    assert {rule: len(jobs) for rule, jobs in by_rule.items()} == \
        {rule: n for rule, n in ran.items() if not rules[rule][0]}  # every job but the local steps
    unmeasured = CONFIG["unmeasured_resources"]
    kinds = set()
    for rule, jobs in by_rule.items():
        timing = rules[rule][1]
        kinds.add(timing)
        cpus = int(CONFIG["cluster_timing_threads"]) if timing else 1
        for job in jobs:
            assert (job.minutes, job.mem_mb, job.cpus) == \
                (unmeasured["runtime"], unmeasured["mem_mb"], cpus), (rule, job)
    assert kinds == {True, False}  # timing jobs and the others
    # every kind of experiment job of the five papers went through SLURM
    assert set(by_rule) == {rule for rule in rules if re.search(r"_(record|fold|svmlight)$", rule)}, sorted(by_rule)

    tables = local / "results" / "tiny" / "paper_tables"
    there = remote / "results" / "tiny" / "paper_tables"
    made = sorted(p.name for p in tables.iterdir())
    assert made == sorted(p.name for p in there.iterdir())
    records = [name for name in made if name.endswith("_records.csv")]
    assert len(records) == 18, records  # every table of the five papers
    for name in records:
        table_id = name.removesuffix("_records.csv")
        for name in (name, f"{table_id}.csv"):  # the records, then the table built from them
            ours, theirs = pd.read_csv(tables / name), pd.read_csv(there / name)
            assert list(ours.columns) == list(theirs.columns), name
            kept = [c for c in ours.columns if not measures_the_run(c, table_id)]
            pd.testing.assert_frame_equal(ours[kept], theirs[kept], obj=name)


def test_two_full_tables_recomputed_on_slurm_equal_the_committed_ones(cache, tmp_path, cluster):
    copy_workflow(tmp_path)
    (tmp_path / "paper_tables").mkdir()
    for records in (REPO / "paper_tables").glob("*_records.csv*"):
        (tmp_path / "paper_tables" / records.name).write_bytes(records.read_bytes())
    env, command = readme_cluster_command(cluster.partition)
    command = command[:-2]  # the full scale: no test configuration
    r = run_snakemake([*command, *TEST_ONLY, "--config", f"recompute=[{','.join(FULL_TABLES)}]",
                       "--", *FULL_TABLES], cwd=tmp_path, env=env, timeout=900)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-8000:]
    by_rule = asked_of_slurm(out, cluster.partition)
    assert set(by_rule) == {f"{table}_record" for table in FULL_TABLES}, sorted(by_rule)
    for table in FULL_TABLES:
        assert (tmp_path / "paper_tables" / f"{table}.csv").read_text() == \
            (REPO / "paper_tables" / f"{table}.csv").read_text(), table
        records = pd.read_csv(tmp_path / "paper_tables" / f"{table}_records.csv")
        assert records["provenance"].str.contains("scale=full").all()
        # each job asked for its committed record's measured seconds and peak memory, with the margins
        measured = R.measured(table_spec(table))
        unmeasured = CONFIG["unmeasured_resources"]["mem_mb"]
        expected = sorted((R.runtime_minutes(m.seconds), unmeasured if m.peak_mb is None else R.mem_mb(m.peak_mb), 1)
                          for m in measured.values())
        assert sorted((j.minutes, j.mem_mb, j.cpus) for j in by_rule[f"{table}_record"]) == expected, table
