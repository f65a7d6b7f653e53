"""The workflow on a real SLURM, through the profile and Snakemake's executor plugin (issue 26).

A single-node SLURM is started on this machine (tests/slurm_cluster.py: Debian's
slurm-wlm and munge, installed with apt-get when missing), and two small tables
are recomputed through `workflow/profiles/slurm` in a copy of the workflow with
the committed records beside it: their pages must equal the committed ones
(the jobs are deterministic apart from their seconds), and every job must have
asked SLURM for the runtime and memory its committed records measured."""
import shutil
import subprocess

import pandas as pd
import pytest

from slurm_cluster import LocalSlurm, SlurmUnavailable  # the tests folder is on sys.path
from test_workflow import REPO, run_snakemake

TABLES = ("lsvm_convergence", "ldm_table1")


def test_two_tables_recomputed_on_slurm_equal_the_committed_ones(data_env, tmp_path):
    pytest.importorskip("snakemake_executor_plugin_slurm")
    shutil.copytree(REPO / "workflow", tmp_path / "workflow")
    (tmp_path / "paper_tables").mkdir()
    for records in (REPO / "paper_tables").glob("*_records.csv*"):
        shutil.copy2(records, tmp_path / "paper_tables" / records.name)
    try:
        cluster = LocalSlurm()
        cluster.__enter__()
    except SlurmUnavailable as why:
        pytest.skip(str(why))
    try:
        r = run_snakemake(["--workflow-profile", "workflow/profiles/slurm", "--slurm-no-account",
                           "--slurm-status-command", "squeue",
                           "--slurm-init-seconds-before-status-checks", "1",
                           "--default-resources", "slurm_partition=repro", "runtime=30", "mem_mb=2000",
                           "--config", f"recompute=[{','.join(TABLES)}]", "--", *TABLES],
                          cwd=tmp_path, timeout=900)
        assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
        asked = subprocess.run(["squeue", "--states=all", "--noheader", "--format=%j %l %m"],
                               capture_output=True, text=True, check=True).stdout
    finally:
        cluster.__exit__(None, None, None)
    for table in TABLES:
        assert (tmp_path / "paper_tables" / f"{table}.csv").read_text() == \
            (REPO / "paper_tables" / f"{table}.csv").read_text(), table
        records = pd.read_csv(tmp_path / "paper_tables" / f"{table}_records.csv")
        assert records["provenance"].str.contains("scale=full").all()
    # ldm_table1's jobs asked for 1.5 x their measured peak memory, at least 1000 MB
    assert "1000M" in asked, asked
