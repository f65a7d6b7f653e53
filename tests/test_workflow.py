"""The Snakemake workflow parses, plans and lints cleanly."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def job_stats(output: str) -> dict:
    """Snakemake's 'Job stats' table of a run or dry run: rule -> jobs."""
    table = output[output.index("Job stats:"):].splitlines()[3:]
    rows = {}
    for line in table:
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            break
        rows[parts[0]] = int(parts[1])
    return rows


def run_snakemake(args, cwd=REPO, timeout=300):
    """Run snakemake with ``args`` in ``cwd`` (the data_env fixture has set the
    mirror and a temporary cache in the environment the subprocess inherits)."""
    exe = shutil.which("snakemake")
    cmd = [exe] if exe else [sys.executable, "-m", "snakemake"]
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def copy_workflow(into):
    """The workflow and its configuration copied into ``into``, to run there
    without touching this checkout's results, locks or tables."""
    shutil.copytree(REPO / "workflow", into / "workflow")
    shutil.copytree(REPO / "config", into / "config")


def snakemake(*args):
    """Plan or lint in the repository, on one core, without taking its lock."""
    return run_snakemake(["--nolock", "--cores", "1", *args])


@pytest.mark.parametrize("scale", ["full", "quick", "tiny"])
@pytest.mark.slow
def test_dry_run_plans_every_target(data_env, scale, tmp_path):
    # --forceall: plan the whole DAG whatever outputs this checkout already has
    r = snakemake("-n", "--forceall", "--config", f"scale={scale}", f"results_dir={tmp_path}")
    assert r.returncode == 0, r.stdout + r.stderr
    for rule in ("fetch_dataset", "dataset_table", "gs_svm_table1_record", "gs_svm_table2_fold",
                 "gs_svm_table1", "gs_svm_table2", "gs_svm_speed_record", "gs_svm_speed_table",
                 "lsvm_convergence_record", "lsvm_convergence", "lsvm_scaling_record", "lsvm_scaling",
                 "lsvm_accuracy_fold", "lsvm_accuracy",
                 "pegasos_convergence_record", "pegasos_convergence", "pegasos", "all"):
        assert rule in r.stdout, rule


def test_every_config_key_is_described_in_config_readme():
    import yaml

    schema = yaml.safe_load((REPO / "workflow" / "schemas" / "config.schema.yaml").read_text())
    defaults = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    described = (REPO / "config" / "README.md").read_text()
    assert set(defaults) == set(schema["properties"])
    for key in schema["properties"]:
        assert f"| `{key}` |" in described, key


def test_lint_is_clean(data_env):
    r = snakemake("--lint")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "Lints for" not in out, out


def test_snakefmt_is_clean():
    """The rules files are formatted as snakefmt formats them (a test extra)."""
    exe = shutil.which("snakefmt")
    if exe is None:
        pytest.skip("snakefmt is not installed (pip install -e '.[test]')")
    r = subprocess.run([exe, "--check", "workflow"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.slow
def test_unknown_scale_is_refused(data_env):
    r = snakemake("-n", "--config", "scale=fast")
    assert r.returncode != 0
    assert "'fast' is not one of ['full', 'quick', 'tiny']" in r.stdout + r.stderr


@pytest.mark.slow
def test_a_misspelt_key_or_a_wrong_kind_is_refused_by_the_schema(data_env):
    r = snakemake("-n", "--config", "scael=quick")
    assert r.returncode != 0 and "scael" in r.stdout + r.stderr
    r = snakemake("-n", "--config", "skip_datasets=Page")  # a string where a list is expected
    assert r.returncode != 0 and "skip_datasets" in r.stdout + r.stderr


@pytest.mark.parametrize("key", ["skip_datasets", "partial_datasets"])
@pytest.mark.slow
def test_a_dataset_no_table_knows_is_refused_in_one_line(data_env, key):
    r = snakemake("-n", "--config", f'{key}=["Page","Pgae"]')
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert f"config {key}: no table knows the dataset(s) ['Pgae']" in out, out


@pytest.mark.slow
def test_the_old_profile_key_is_refused_with_the_new_name(data_env):
    """config profile collided with Snakemake's own --profile: it is now scale."""
    r = snakemake("-n", "--config", "profile=quick")
    assert r.returncode != 0
    assert "use --config scale=quick" in r.stdout + r.stderr


@pytest.mark.slow
def test_skipped_datasets_are_left_out_of_the_plan(data_env):
    r = snakemake("-n", "--forceall", "--config", "skip_datasets=[\"Page\",\"Iris\"]", "reuse_records=false",
                  "--", "gs_svm_table2")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "table2/Heart/fold0_SVMs.csv" in out
    assert "table2/Page/" not in out and "table2/Iris/" not in out


@pytest.mark.slow
def test_partial_datasets_plan_only_the_folds_already_run(data_env, tmp_path):
    # a results folder of its own, so what this checkout has run does not matter
    done = tmp_path / "full" / "gs_svm" / "table2" / "Page" / "fold3_HM-SVMs.csv"
    done.parent.mkdir(parents=True)
    done.write_text("paper_dataset,fold,method\nPage,3,HM-SVMs\n")
    r = snakemake("-n", "--forceall", "--config", "partial_datasets=[\"Page\"]", "reuse_records=false",
                  f"results_dir={tmp_path}", "--", "gs_svm_table2")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "table2/Heart/fold0_GS-SVMs.csv" in out and "table2/Heart/fold9_SVMs.csv" in out
    assert "table2/Page/fold3_HM-SVMs.csv" in out
    assert "table2/Page/fold3_SVMs.csv" not in out and "table2/Page/fold0_HM-SVMs.csv" not in out


@pytest.mark.slow
def test_unlock_needs_no_core_count(data_env, tmp_path):
    # After a killed run Snakemake tells the user to run `snakemake --unlock`,
    # which passes no --cores: no rule may read workflow.cores while parsing.
    # A copy of the workflow, so no lock of a run in this checkout is touched.
    copy_workflow(tmp_path)
    r = run_snakemake(["--unlock"], cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Unlocked working directory" in r.stdout + r.stderr


@pytest.mark.slow
def test_quick_table_runs_through_the_generic_scripts(data_env, tmp_path):
    """The generic record and table scripts end to end: Table 2 of the quick
    scale with two of its three sets skipped, in a copy of the workflow."""
    copy_workflow(tmp_path)
    r = run_snakemake(["--cores", "2", "--config", "scale=quick", 'skip_datasets=["Wine","Heart"]',
                       "--", "gs_svm_table2"], cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "gs_svm_table2: 30 of 30 jobs to run" in r.stdout + r.stderr  # the start's cost lines
    import pandas as pd

    table = pd.read_csv(tmp_path / "results" / "quick" / "paper_tables" / "gs_svm_table2.csv").set_index(["dataset", "method"])
    # its tolerance is measured on the full protocol (split_spread.py): the quick
    # scale's cells are shown beside the paper's without a judgement
    assert table.loc[("Iris", "SVMs"), "verdict"] == "no tolerance"
    assert pd.notna(table.loc[("Iris", "SVMs"), "reproduced"])
    assert table.loc[("Wine", "SVMs"), "verdict"] == "not run (skipped by config)"
    assert table.loc[("German", "SVMs"), "verdict"] == "not run (left out of this scale)"
    quick = tmp_path / "results" / "quick" / "paper_tables"
    page = (quick / "gs_svm_table2.md").read_text()
    assert page.startswith("Scale: quick.") and "skip_datasets" in page
    assert not (tmp_path / "paper_tables").exists()  # the papers' tables are never touched
    records = (quick / "gs_svm_table2_records.csv").read_text()
    assert records.count("\nIris,") == 30  # 10 outer folds x 3 methods


@pytest.mark.slow
def test_every_page_the_full_scale_writes_is_committed(data_env, tmp_path):
    """No target leaves an untracked file in paper_tables/ (the quick scale writes
    to results/quick/paper_tables/)."""
    r = snakemake("-n", "--forceall", "--config", f"results_dir={tmp_path}", "reuse_records=false")
    assert r.returncode == 0, r.stdout + r.stderr
    outputs = {f.strip() for line in r.stdout.splitlines() if line.strip().startswith("output:")
               for f in line.split(":", 1)[1].split(",")}
    pages = {f for f in outputs if f.startswith("paper_tables/")}
    listed = subprocess.run(["git", "ls-files", "paper_tables"], cwd=REPO, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    assert len(pages) > 60 and pages <= set(listed.stdout.split()), pages - set(listed.stdout.split())
    quick = snakemake("-n", "--forceall", "--config", "scale=quick", f"results_dir={tmp_path}")
    quick_outputs = {f.strip() for line in quick.stdout.splitlines() if line.strip().startswith("output:")
                     for f in line.split(":", 1)[1].split(",")}
    in_pages = {f for f in quick_outputs if f.startswith("paper_tables/")}
    assert in_pages == {"paper_tables/datasets.md", "paper_tables/datasets.csv"}  # the same at every scale
    assert sum(f.startswith(f"{tmp_path}/quick/paper_tables/") for f in quick_outputs) > 40
