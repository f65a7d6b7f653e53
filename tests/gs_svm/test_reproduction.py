"""GS-SVM paper: reproduced numbers against the published ones.

The quick checks run the experiment code of repro/papers/gs_svm/ on sets
we hold as originals; the last tests rebuild the tables of the full run from
their committed records (paper_tables/gs_svm_table*_records.csv) and check
them against the explanations registry (repro/papers/gs_svm/explanations.py).
"""
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from repro import published
from repro.experiments.records import read_records
from repro.experiments.resume import records_file
from repro.papers.gs_svm import jobs as GS
from repro.papers.gs_svm import order_spread, split_spread
from repro.tolerances import tolerance_for

REPO = Path(__file__).resolve().parents[2]


def published_cell(table, dataset, method, metric):
    df = published.load(table)
    row = df[(df.dataset == dataset) & (df.method == method) & (df.metric == metric)]
    assert len(row) == 1
    return float(row["value"].iat[0])


@pytest.fixture(scope="module")
def adult1_records(data_env):
    protocol = GS.PROTOCOLS["quick"]
    jobs = [job for job in GS.table1_jobs(protocol) if job["dataset"] == "Adult-1"]
    return pd.concat([GS.run_kernel_count(protocol, **job) for job in jobs], ignore_index=True)


@pytest.mark.slow
def test_adult1_gssvm_kernel_count(adult1_records):
    """GS-SVM's count on Adult-1 (an original set) is the committed full run's,
    exactly, and the verdict the page gives it is what the tolerance measured
    over row orders (order_spread.py) makes of it: 1.6 % below the paper's,
    beyond the 1.5 % that row orders alone give (a miss, shown as one)."""
    cells = GS.table1_cells(adult1_records).set_index("method")
    ours = cells.loc["GS-SVMs", "value"]
    committed = pd.read_csv(REPO / "paper_tables" / "gs_svm_table1_records.csv")
    assert ours * 1e6 == committed.loc[(committed.paper_dataset == "Adult-1")
                                       & (committed.method == "GS-SVMs"), "n_kernel_evals"].item()
    paper = published_cell("gs_svm_table1", "Adult-1", "GS-SVMs", "kernel_evals_1e6")
    noise = order_spread.noise(order_spread.load_evidence(REPO / order_spread.EVIDENCE), committed)
    cell = SimpleNamespace(dataset="Adult-1", method="GS-SVMs")
    rule = tolerance_for("gs_svm", "kernel_evals_1e6").at(cell, {"order_noise": {("Adult-1", "GS-SVMs"): noise["GS-SVMs"]}})
    page = pd.read_csv(REPO / "paper_tables" / "gs_svm_table1.csv").set_index(["dataset", "method"])
    assert page.loc[("Adult-1", "GS-SVMs"), "verdict"] == ("ok" if rule.accepts(paper, ours) else "miss (unexplained)")
    assert not cells.loc["GS-SVMs", "standin"]


@pytest.mark.slow
def test_adult1_smo_needs_at_least_ten_times_the_kernel_evaluations(adult1_records):
    """The paper's headline: GS-SVM needs 10 to 30 times fewer kernel values than
    SMO (its Table 1 actually spans 9.6 to 50.8)."""
    ratios = GS.table1_ratios(adult1_records)
    mean = ratios[ratios.C == "mean"].set_index("method")["ratio"]
    assert mean["SMO-1"] >= 10 and mean["SMO-2"] >= 10, mean.to_dict()


def test_adult1_models_generalise(adult1_records):
    """A count is only meaningful for a model that learned: a1a.t accuracy near
    the usual 84% for every fit."""
    assert adult1_records["test_accuracy"].between(0.80, 0.87).all(), adult1_records[["method", "C", "test_accuracy"]]


@pytest.mark.parametrize("paper_name", GS.PROTOCOLS["quick"].table2_datasets)
def test_table2_quick_protocol_lands_within_the_tolerance_of_the_full_runs_cells(data_env, paper_name):
    """The quick protocol (coarse grids, 3 inner folds) runs Table 2's code on
    a small set; its cells lie within the measured tolerance (split_spread.py,
    what two draws of the outer folds give) of the committed full run's. The
    published cells are the full run's to match (the page), not the quick
    protocol's: Wine's HM-SVM is 98.89 here, 2.25 points from the paper's
    96.64, where the full run's 98.33 is within its 2.14."""
    protocol = GS.PROTOCOLS["quick"]
    records = pd.concat([GS.run_cv_fold(protocol, paper_name, k) for k in range(protocol.outer_folds)],
                        ignore_index=True)
    committed = read_records(records_file("gs_svm_table2"), GS.TABLE2_SCHEMA)
    noise = split_spread.noise(split_spread.load_evidence(), committed)
    full = GS.table2_cells(committed).set_index(["dataset", "method"])["value"]
    quick = GS.table2_cells(records)
    assert len(quick) == 3
    rule = tolerance_for(GS.PAPER, "accuracy_percent")
    for cell in quick.itertuples():
        judged = rule.at(SimpleNamespace(dataset=paper_name, method=cell.method), {"split_noise": noise})
        assert judged.accepts(full[(paper_name, cell.method)], cell.value), (cell.method, cell.value, judged.value)


# The full run's tables, rebuilt from their committed records: the committed
# pages must be what the builder makes of them now, every miss must have an
# entry in the explanations registry, and every entry must still match a miss.
FULL_TABLES = ("gs_svm_table1", "gs_svm_table2")


@pytest.fixture(scope="module")
def rebuilt(data_env):
    from repro.experiments import TableRun
    from repro.papers.catalog import table_spec

    tables = {}
    for table in FULL_TABLES:
        path = REPO / "paper_tables" / f"{table}_records.csv"
        if path.exists():
            records = read_records(path, table_spec(table).schema)
            tables[table] = table_spec(table).build(records, TableRun("full", GS.PROTOCOLS["full"])).csv
    if not tables:
        pytest.skip("no full-run records: run `snakemake --cores 8 gs_svm` (scale full)")
    return tables


@pytest.mark.parametrize("table", FULL_TABLES)
def test_committed_table_is_what_its_records_build(rebuilt, table):
    if table not in rebuilt:
        pytest.skip(f"no records for {table}")
    committed = pd.read_csv(REPO / "paper_tables" / f"{table}.csv", keep_default_na=False)
    ours = rebuilt[table]
    assert committed["verdict"].tolist() == ours["verdict"].tolist(), \
        "stale table: run python -m repro.papers rebuild " + table
    assert committed["why"].tolist() == ours["why"].fillna("").tolist()
    pd.testing.assert_series_equal(pd.to_numeric(committed["reproduced"].replace("", "nan")),
                                   ours["reproduced"].astype(float), check_names=False)


@pytest.mark.parametrize("table", FULL_TABLES)
def test_every_entry_of_the_registry_still_matches_a_miss(rebuilt, table):
    from repro.explanations import entries

    if table not in rebuilt:
        pytest.skip(f"no records for {table}")
    resolved = rebuilt[table].attrs["explanations_used"]
    failing = {cell: r.key for cell, r in resolved.items() if not r.holds}
    assert not failing, f"{table}: entries whose condition no longer holds (stale): {failing}"
    stale = set(entries(table)) - {r.key for r in resolved.values()}
    assert not stale, f"{table}: entries that match no miss (stale: remove or update): {sorted(map(str, stale))}"


@pytest.mark.parametrize("table", FULL_TABLES)
def test_every_miss_has_an_entry(rebuilt, table):
    if table not in rebuilt:
        pytest.skip(f"no records for {table}")
    comparison = rebuilt[table]
    misses = comparison[comparison["verdict"].str.startswith("miss")]
    covered = rebuilt[table].attrs["explanations_used"]
    bare = misses[[(d, m) not in covered for d, m in zip(misses.dataset, misses.method)]]
    assert bare.empty, f"misses with no entry in repro/papers/gs_svm/explanations.py: {bare[['dataset', 'method']].values.tolist()}"


@pytest.mark.parametrize("table", FULL_TABLES)
def test_full_run_cells_are_ok_or_registered_misses(rebuilt, table):
    """Every compared cell of the full run is within tolerance or a miss the
    registry covers; sets not run or cut short are listed, not compared."""
    if table not in rebuilt:
        pytest.skip(f"no records for {table}")
    verdicts = rebuilt[table]["verdict"].str.replace(" (stand-in)", "", regex=False)
    allowed = {"ok", "miss (explained)", "miss (unexplained)"}
    # a row run on another reading of a printed row (Splice-onehot) is judged as evidence on that row
    odd = rebuilt[table][~verdicts.isin(allowed) & ~verdicts.str.startswith("reading of ")]
    assert odd.empty, f"cells not compared in the committed full run: {odd[['dataset', 'method', 'verdict']]}"
