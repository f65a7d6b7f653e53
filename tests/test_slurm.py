"""The workflow on a real SLURM, through the profile and Snakemake's executor plugin (issue 26).

A single-node SLURM is started on this machine (tests/slurm_cluster.py: Debian's
slurm-wlm and munge, installed with apt-get when missing) and the README's
cluster command is run in copies of the workflow:

- on the tiny test configuration (config/test.yaml, every rule): its records and
  tables must equal those of a local run of the same configuration, apart from
  what measures the run (seconds, the machine). The tiny scale's time caps lie
  several times above what its capped fits take here (at most 6 s of SVM-Light
  against 20 s), so no cap decides a result in one run and not the other;
- on two full-scale tables recomputed beside the committed records: their pages
  must equal the committed ones, and their jobs must have asked SLURM for the
  memory their committed records measured.

Starting SLURM changes the machine, so these tests run only when asked:
REPRO_TEST_SLURM=1 (.ci/run sets it); without it they skip, saying how to ask.
"""
import re
import shlex
import subprocess

import pandas as pd
import pytest

from repro.papers.catalog import table_spec
# the tests folder is on sys.path
from slurm_cluster import NOT_ASKED, LocalSlurm, SlurmUnavailable, asked
from test_workflow import REPO, copy_workflow, run_snakemake

# Skipped before the cluster fixture runs: nothing is installed or started unless asked.
pytestmark = pytest.mark.skipif(not asked(), reason=NOT_ASKED)

FULL_TABLES = ("lsvm_convergence", "ldm_table1")
# Added to the README's command by the test only: the plugin otherwise waits 40 s
# before its first status query.
TEST_ONLY = ["--slurm-init-seconds-before-status-checks", "1"]


def readme_cluster_command(partition: str) -> list:
    """The README's command for a cluster without accounting (the second block
    of "On a SLURM cluster"), its arguments after `snakemake`, the partition filled in."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### On a SLURM cluster"):]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
    command = shlex.split(blocks[1].replace("\\\n", " "))
    assert command[0] == "snakemake" and "<partition>" in blocks[1], blocks[1]
    return [arg.replace("<partition>", partition) for arg in command[1:]]


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


def test_the_tiny_configuration_on_slurm_equals_a_local_run(data_env, tmp_path, cluster):
    local, remote = tmp_path / "local", tmp_path / "slurm"
    for where in (local, remote):
        copy_workflow(where)
    r = run_snakemake(["--cores", "2", "--configfile", "config/test.yaml"], cwd=local, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    command = readme_cluster_command(cluster.partition)
    assert command[-2:] == ["--configfile", "config/test.yaml"]
    r = run_snakemake([*command, *TEST_ONLY], cwd=remote, timeout=1500)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    assert "slurm" in (r.stdout + r.stderr).lower()  # the jobs went through the plugin

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


def test_two_full_tables_recomputed_on_slurm_equal_the_committed_ones(data_env, tmp_path, cluster):
    copy_workflow(tmp_path)
    (tmp_path / "paper_tables").mkdir()
    for records in (REPO / "paper_tables").glob("*_records.csv*"):
        (tmp_path / "paper_tables" / records.name).write_bytes(records.read_bytes())
    command = readme_cluster_command(cluster.partition)[:-2]  # the full scale: no test configuration
    r = run_snakemake([*command, *TEST_ONLY, "--config", f"recompute=[{','.join(FULL_TABLES)}]",
                       "--", *FULL_TABLES], cwd=tmp_path, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    asked = subprocess.run(["squeue", "--states=all", "--noheader", "--format=%j %l %m"],
                           capture_output=True, text=True, check=True).stdout
    for table in FULL_TABLES:
        assert (tmp_path / "paper_tables" / f"{table}.csv").read_text() == \
            (REPO / "paper_tables" / f"{table}.csv").read_text(), table
        records = pd.read_csv(tmp_path / "paper_tables" / f"{table}_records.csv")
        assert records["provenance"].str.contains("scale=full").all()
    # ldm_table1's jobs asked for 1.5 x their measured peak memory, at least 1000 MB
    assert "1000M" in asked, asked
