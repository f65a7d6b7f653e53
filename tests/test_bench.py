"""The bench target (repro.bench): every comparison's tiny size runs and returns
complete rows, the page merges them, and the workflow plans it. Nothing here
asserts a speed: timings depend on the machine and its load."""
import math

import numpy as np
import pandas as pd
import pytest

from repro.bench import COLUMNS, COMPARISONS, run
from repro.bench.measure import VERDICT
from repro.bench.page import write_page
from repro.bench.registry import TITLES

#: comparisons whose rows time bare products: nothing is fitted, nothing to compare
NO_MODEL = {"pass_floor"}


@pytest.fixture(scope="module")
def tiny_rows(data_env):
    return {name: run(name, "tiny") for name in COMPARISONS}


@pytest.mark.parametrize("name", list(COMPARISONS))
@pytest.mark.slow
def test_tiny_comparison_returns_complete_rows(tiny_rows, name):
    rows = tiny_rows[name]
    assert list(rows.columns) == COLUMNS
    assert len(rows) > 0
    assert (rows["comparison"] == name).all()
    for column in ("time_ours", "time_baseline", "ratio", "load_before", "load_after"):
        assert np.isfinite(rows[column]).all() and (rows[column] >= 0).all(), column
    assert (rows["time_ours"] > 0).all() and (rows["time_baseline"] > 0).all()
    assert (rows["threads"] == 1).all() and (rows["verdict"] == VERDICT).all()
    assert rows["cpu_model"].astype(bool).all() and rows["version_sklearn"].astype(bool).all()
    if name in NO_MODEL:
        return
    for r in rows.itertuples():
        # what both reached, so that a ratio is read beside it: both objectives, or both accuracies
        objectives = math.isfinite(r.objective_ours) and math.isfinite(r.objective_baseline)
        accuracies = math.isfinite(r.accuracy_ours) and math.isfinite(r.accuracy_baseline)
        assert objectives or accuracies, (r.solver, r.dataset)
        assert not objectives or r.objective, "an objective needs its name"
        assert not accuracies or (0 <= r.accuracy_ours <= 1 and 0 <= r.accuracy_baseline <= 1)


def test_same_problem_same_optimum(tiny_rows):
    # where both solve one problem to one stopping rule, they reach the same objective
    # (to the tolerances' slack): the rows compare like with like
    rows = pd.concat([tiny_rows["kernel_svm"], tiny_rows["lsvm"]])
    rows = rows[rows["objective"].astype(bool)]
    rel = np.abs(rows["objective_ours"] - rows["objective_baseline"]) / np.abs(rows["objective_baseline"])
    assert (rel < 1e-3).all(), rows[["solver", "dataset", "objective_ours", "objective_baseline"]]


def test_page_merges_every_comparison(tiny_rows, tmp_path):
    paths = []
    for name, rows in tiny_rows.items():
        paths.append(tmp_path / f"{name}.csv")
        rows.to_csv(paths[-1], index=False)
    md, csv = tmp_path / "performance.md", tmp_path / "performance.csv"
    merged = write_page(paths[::-1], md, csv)  # in any order: the page follows the registry's
    table = pd.read_csv(csv)
    assert list(table.columns) == COLUMNS and len(table) == len(merged) == sum(map(len, tiny_rows.values()))
    assert list(dict.fromkeys(table["comparison"])) == list(COMPARISONS)
    assert (table["verdict"] == "no published value").all()
    page = md.read_text()
    for heading in ("How to read it", "< 1: ours faster", "Where and when", "load average", "versions",
                    "History: earlier measurements", *TITLES.values()):
        assert heading in page, heading


def test_bad_input_is_refused_clearly(tmp_path):
    with pytest.raises(ValueError, match="unknown comparison 'svm'; the comparisons: kernel_svm"):
        run("svm", "tiny")
    with pytest.raises(ValueError, match="size must be one of"):
        run("kernel_svm", "huge")
    with pytest.raises(ValueError, match="at least one"):
        write_page([], tmp_path / "p.md", tmp_path / "p.csv")
    bad = tmp_path / "bad.csv"
    pd.DataFrame({"comparison": ["kernel_svm"]}).to_csv(bad, index=False)
    with pytest.raises(ValueError, match="lack the columns"):
        write_page([bad], tmp_path / "p.md", tmp_path / "p.csv")


@pytest.mark.slow
def test_workflow_plans_bench_apart_from_all(data_env, tmp_path):
    from test_workflow import snakemake

    bench = snakemake("-n", "--forceall", "bench", "--config", f"results_dir={tmp_path}")
    assert bench.returncode == 0, bench.stdout + bench.stderr
    for name in COMPARISONS:
        assert f"comparison={name}" in bench.stdout, name
    assert "paper_tables/performance.md" in bench.stdout
    quick = snakemake("-n", "--forceall", "bench", "--config", "scale=quick", f"results_dir={tmp_path}")
    assert quick.returncode == 0 and f"{tmp_path}/bench/tiny/" in quick.stdout, quick.stdout + quick.stderr
    default = snakemake("-n", "--forceall", "--config", f"results_dir={tmp_path}")
    assert default.returncode == 0 and "bench_comparison" not in default.stdout
