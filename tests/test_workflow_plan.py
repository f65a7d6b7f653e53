"""A fresh clone's workflow: committed records reused, the plan's cost printed, recompute.

Each test plans (dry run) in a copy of what a clone of this checkout holds
(tracked and untracked-but-not-ignored files of workflow/ and paper_tables/,
no results/), the package imported from this checkout.
"""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from test_workflow import REPO, job_stats, run_snakemake

RECORD_RULE = re.compile(r"_(record|fold|svmlight)$")
FIGURES = REPO / "docs" / "measured_figures.csv"  # every measured figure the README states
COSTS = REPO / "docs" / "table_costs.csv"  # what each table costs, shown by docs/workflow.rst


def _clone(into: Path) -> Path:
    """The files of workflow/, config/ and paper_tables/ a clone would have (no results/, logs/)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                             "--", "workflow", "config", "paper_tables"], cwd=REPO, capture_output=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: no clone to imitate")
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (REPO / name).exists():  # listed but deleted in the working tree: not in the clone either
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, into / name)
    return into


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    return _clone(tmp_path_factory.mktemp("clone"))


def _plan(cwd, *args):
    r = run_snakemake(["-n", "--cores", "8", *args], cwd=cwd)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    return out


@pytest.mark.slow
def test_a_fresh_clone_plans_only_the_table_steps_and_says_what_it_costs(data_env, clone):
    out = _plan(clone)
    committed = sorted(p.name[: -len("_records.csv")] for p in (clone / "paper_tables").glob("*_records.csv")
                       if p.read_text().count("\n") > 1)  # nesvm_images: no job (its sets are unavailable)
    assert len(committed) >= 17
    for table in committed:  # every committed table's records laid back as its jobs' outputs
        assert re.search(rf"  {table}: \d+ job files laid back from paper_tables/{table}_records.csv", out), table
    stats = job_stats(out)
    assert stats, out
    assert not [rule for rule in stats if RECORD_RULE.search(rule)], stats  # no experiment job runs
    assert {"gs_svm_table2", "ldm_table3", "nesvm_time", "pegasos_convergence", "all"} <= set(stats)
    # the plan printed before Snakemake's own agrees with it (the aggregate rule 'all' is not a step)
    head = re.search(r"Plan \(full scale, target all\): (\d+) jobs to run: 0 experiment jobs", out)
    assert head and int(head.group(1)) == stats["total"] - 1, out
    assert re.search(r"  cost: about \S+ of one core: the experiment jobs' measured 0\.0s", out)
    assert re.search(r"  expected wall time at --cores 8 \(this machine has \d+\)|  expected wall time at --cores 8:", out)
    whole = re.search(r"The whole full run, every job from scratch: (\d+\.\d) hours of one core \((\d+) jobs\), "
                      r"about (\S+ hours|\d+h\d\dm|\d+m\d\ds) wall at --cores 8 on 8 free cores", out)
    assert whole, out
    assert int(whole.group(2)) > 900  # every job of every table (LDM Tables 2-3: one per set)


def _figures() -> dict:
    """docs/measured_figures.csv: key -> its value as the README and the docs state it."""
    import csv

    with open(FIGURES, newline="", encoding="utf-8") as f:
        return {row["key"]: row["value"] for row in csv.DictReader(f)}


def _planned(out: str, scale: str) -> tuple:
    """(jobs, experiment jobs) of the plan's first line."""
    head = re.search(rf"Plan \({scale} scale, target all\): (\d+) jobs to run: (\d+) experiment jobs", out)
    assert head, out
    return int(head.group(1)), int(head.group(2))


@pytest.mark.slow
def test_the_measured_figures_of_the_plan_are_what_the_plan_computes(data_env, tmp_path):
    """The jobs, CPU-hours and wall times that docs/measured_figures.csv holds (and the
    README states, tests/test_readme_figures.py) are what a fresh clone's plan prints in
    the README's order, at --cores 2 (what --cores all is on the 2-core machine the
    README speaks of). SVM-Light's build is one of the whole run's jobs and of the quick
    run's: a fresh clone builds it when a job first needs it, a machine that has built it
    already plans it no more, so the build is counted as a fresh clone counts it."""
    clone = _clone(tmp_path)
    figures = _figures()
    # the main command: every page rebuilt from the committed records
    main = _plan_at(clone, "2")
    assert f"{_planned(main, 'full')[0]} jobs" == figures["main_run_jobs"], main
    # the whole full run from scratch
    out = _plan_at(clone, "2", "--config", "recompute=all")
    build = 1 - job_stats(out).get("svmlight_build", 0)
    assert f"{_planned(out, 'full')[0] + build} jobs" == figures["whole_run_jobs"], out
    whole = re.search(r"every job from scratch: (\d+\.\d) hours of one core \(\d+ jobs\), about (\S+) wall "
                      r"at --cores 8 on 8 free cores, (\d+\.\d hours|\d+h\d\dm|\d+m\d\ds) at --cores 2", out)
    assert whole, out
    assert f"{whole.group(1)} CPU-hours" == figures["whole_run_cpu_hours"], whole.group(0)
    assert whole.group(2) == figures["whole_run_wall_8"], whole.group(0)
    assert whole.group(3) == figures["whole_run_wall_2"], whole.group(0)


@pytest.mark.slow
def test_the_measured_figures_of_the_quick_plan_are_what_the_plan_computes(data_env, tmp_path):
    """The quick scale's jobs in docs/measured_figures.csv are what its plan prints after
    the main command (the README's order), whose dataset fetches and datasets page it
    then finds done; SVM-Light's build counted as in the test above."""
    out = _plan_at(_clone(tmp_path), "2", "--config", "scale=quick")
    figures = _figures()
    stats = job_stats(out)
    jobs, experiments = _planned(out, "quick")
    after_main = jobs - stats["fetch_dataset"] - stats["dataset_table"] + 1 - stats.get("svmlight_build", 0)
    assert f"{after_main} jobs" == figures["quick_jobs"], out
    assert f"{experiments} experiment jobs" == figures["quick_experiment_jobs"], out


def _plan_at(cwd, cores, *args):
    r = run_snakemake(["-n", "--cores", cores, *args], cwd=cwd)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    return out


@pytest.mark.slow
def test_recompute_runs_a_tables_jobs_again_and_only_while_asked(data_env, clone):
    out = _plan(clone, "--config", "recompute=ldm_table4", "--", "ldm_table4")
    assert job_stats(out).get("ldm_table4_record") == 40, out
    assert re.search(r"  ldm_table4: 40 of 40 jobs to run, \d+m\d\ds of one core as measured", out)
    # asked in a dry run only: the next plain plan reuses the job files as before
    assert "ldm_table4_record" not in job_stats(_plan(clone, "ldm_table4"))


@pytest.mark.slow
def test_an_unknown_table_in_recompute_is_refused(data_env, clone):
    r = run_snakemake(["-n", "--cores", "1", "--config", "recompute=ldm_tabel4"], cwd=clone)
    assert r.returncode != 0
    assert "recompute: unknown table(s) ['ldm_tabel4']" in r.stdout + r.stderr


@pytest.mark.slow
def test_recompute_without_reuse_runs_every_job_with_its_measured_cost(data_env, tmp_path):
    """Nothing laid back, the page up to date: recompute still makes the page's jobs run."""
    clone = _clone(tmp_path)
    out = _plan(clone, "--config", "reuse_records=false", "recompute=lsvm_accuracy", "--", "lsvm_accuracy")
    assert job_stats(out).get("lsvm_accuracy_fold") == 60, out
    assert re.search(r"  lsvm_accuracy: 60 of 60 jobs to run, (\d+m)?\d+(\.\d)?s of one core as measured", out)
    assert not (clone / "results" / "full" / "lsvm").exists()


@pytest.mark.slow
def test_a_missing_baseline_stops_the_workflow_with_one_message(data_env, tmp_path):
    """LIBLINEAR made unimportable: the workflow stops before planning, naming it."""
    poison = tmp_path / "poison" / "liblinear"
    poison.mkdir(parents=True)
    (poison / "__init__.py").write_text("raise ImportError('hidden by the test')\n")
    clone = _clone(tmp_path / "clone")
    import os

    env = {**os.environ, "PYTHONPATH": str(poison.parent)}
    exe = shutil.which("snakemake")
    r = subprocess.run([exe, "-n", "--cores", "1"], cwd=clone, env=env, capture_output=True, text=True, timeout=300)
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert "liblinear.liblinearutil (from liblinear-official): hidden by the test" in out
    assert "pip install -e ." in out
    assert "Building DAG" not in out  # stopped before planning


def test_the_cost_table_is_what_the_committed_records_measured():
    """Every row of the cost table (docs/table_costs.csv, shown by docs/workflow.rst)
    states the jobs and the measured seconds of the table's committed records, as the
    plan prints them; and Page's share (docs/measured_figures.csv, stated in
    docs/workflow.rst) is what its records measured."""
    import csv

    from repro.experiments.cost import hours, measured_seconds
    from repro.experiments.records import read_records
    from repro.papers.catalog import TABLES, table_spec

    with open(COSTS, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    targets = [row["table (target)"] for row in rows]
    ids = [{"gs_svm_speed_table": "gs_svm_speed"}.get(t, t) for t in targets]
    assert sorted(ids) == sorted(TABLES), targets  # every table, once
    for row, table_id in zip(rows, ids):
        seconds = measured_seconds(table_spec(table_id), REPO / "paper_tables")
        assert (int(row["jobs"]), row["measured, one core"]) == (len(seconds), hours(sum(seconds.values()))), row
    assert "table_costs.csv" in (REPO / "docs" / "workflow.rst").read_text(encoding="utf-8")
    spec = table_spec("gs_svm_table2")
    records = read_records(REPO / "paper_tables" / "gs_svm_table2_records.csv", spec.schema)
    page = records[records.paper_dataset == "Page"]["seconds"].sum() / 3600
    assert _figures()["page_cpu_hours"] == f"{page:.1f} CPU-hours"
