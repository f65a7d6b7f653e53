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

from test_workflow import REPO, run_snakemake

RECORD_RULE = re.compile(r"_(record|fold|svmlight)$")


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


def _stats(out: str) -> dict:
    """Snakemake's 'Job stats' table of a dry run: rule -> count."""
    table = out[out.index("Job stats:"):].splitlines()[3:]
    rows = {}
    for line in table:
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            break
        rows[parts[0]] = int(parts[1])
    return rows


def _plan(cwd, *args):
    r = run_snakemake(["-n", "--cores", "8", *args], cwd=cwd)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    return out


def test_a_fresh_clone_plans_only_the_table_steps_and_says_what_it_costs(data_env, clone):
    out = _plan(clone)
    committed = sorted(p.name[: -len("_records.csv")] for p in (clone / "paper_tables").glob("*_records.csv")
                       if p.read_text().count("\n") > 1)  # nesvm_images: no job (its sets are unavailable)
    assert len(committed) >= 17
    for table in committed:  # every committed table's records laid back as its jobs' outputs
        assert re.search(rf"  {table}: \d+ job files laid back from paper_tables/{table}_records.csv", out), table
    stats = _stats(out)
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


def test_the_readme_states_the_whole_runs_cost_as_the_plan_computes_it(data_env, clone):
    out = _plan(clone)
    whole = re.search(r"every job from scratch: (\d+\.\d) hours of one core \(\d+ jobs\), about (\S+ hours|\d+h\d\dm|\d+m\d\ds) "
                      r"wall at --cores 8", out)
    first_screen = " ".join((REPO / "README.md").read_text(encoding="utf-8")[:2500].split())
    assert f"{whole.group(1)} CPU-hours" in first_screen, whole.group(0)
    assert f"about {whole.group(2)} at 8 cores" in first_screen, whole.group(0)


def test_recompute_runs_a_tables_jobs_again_and_only_while_asked(data_env, clone):
    out = _plan(clone, "--config", "recompute=ldm_table4", "--", "ldm_table4")
    assert _stats(out).get("ldm_table4_record") == 40, out
    assert re.search(r"  ldm_table4: 40 of 40 jobs to run, \d+m\d\ds of one core as measured", out)
    # asked in a dry run only: the next plain plan reuses the job files as before
    assert "ldm_table4_record" not in _stats(_plan(clone, "ldm_table4"))


def test_an_unknown_table_in_recompute_is_refused(data_env, clone):
    r = run_snakemake(["-n", "--cores", "1", "--config", "recompute=ldm_tabel4"], cwd=clone)
    assert r.returncode != 0
    assert "recompute: unknown table(s) ['ldm_tabel4']" in r.stdout + r.stderr


def test_recompute_without_reuse_runs_every_job_with_its_measured_cost(data_env, tmp_path):
    """Nothing laid back, the page up to date: recompute still makes the page's jobs run."""
    clone = _clone(tmp_path)
    out = _plan(clone, "--config", "reuse_records=false", "recompute=lsvm_accuracy", "--", "lsvm_accuracy")
    assert _stats(out).get("lsvm_accuracy_fold") == 60, out
    assert re.search(r"  lsvm_accuracy: 60 of 60 jobs to run, (\d+m)?\d+(\.\d)?s of one core as measured", out)
    assert not (clone / "results" / "full" / "lsvm").exists()


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


def test_the_readmes_cost_table_is_what_the_committed_records_measured():
    """Every row of the README's cost table states the jobs and the measured seconds of
    the table's committed records, as the plan prints them; and Page's share."""
    from repro.papers.catalog import table_spec
    from repro.experiments.cost import hours, measured_seconds
    from repro.experiments.records import read_records

    text = (REPO / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \w[\w-]* \| `(\w+)` \| (\d+) \| ([^|]+) \|", text, re.MULTILINE)
    assert len(rows) >= 18, rows
    for target, jobs, stated in rows:
        spec = table_spec({"gs_svm_speed_table": "gs_svm_speed"}.get(target, target))
        seconds = measured_seconds(spec, REPO / "paper_tables")
        assert (int(jobs), stated.strip()) == (len(seconds), hours(sum(seconds.values()))), target
    spec = table_spec("gs_svm_table2")
    records = read_records(REPO / "paper_tables" / "gs_svm_table2_records.csv", spec.schema)
    page = records[records.paper_dataset == "Page"]["seconds"].sum() / 3600
    assert text.count(f"{page:.1f} CPU-hours") >= 2 and "12 CPU-hours" not in text
