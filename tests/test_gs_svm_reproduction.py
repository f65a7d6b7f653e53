"""GS-SVM paper: reproduced numbers against the published ones.

The quick checks run the experiment code of repro.experiments.gs_svm on sets
we hold as originals; the last test reads the tables of a full workflow run
(paper_tables/gs_svm_table*.csv) when they exist.
"""
from pathlib import Path

import pandas as pd
import pytest

from repro import published
from repro.experiments import gs_svm as GS
from repro.tables import compare
from repro.tolerances import tolerance_for

REPO = Path(__file__).resolve().parents[1]


def published_cell(table, dataset, method, metric):
    df = published.load(table)
    row = df[(df.dataset == dataset) & (df.method == method) & (df.metric == metric)]
    assert len(row) == 1
    return float(row["value"].iat[0])


@pytest.fixture(scope="module")
def adult1_records(data_env):
    jobs = [job for job in GS.table1_jobs(GS.PROTOCOLS["quick"]) if job[0] == "Adult-1"]
    return pd.concat([GS.run_kernel_count(*job) for job in jobs], ignore_index=True)


def test_adult1_gssvm_kernel_count(adult1_records):
    cells = GS.table1_cells(adult1_records).set_index("method")
    ours = cells.loc["GS-SVMs", "value"]
    paper = published_cell("gs_svm_table1", "Adult-1", "GS-SVMs", "kernel_evals_1e6")
    assert tolerance_for("gs_svm", "kernel_evals_1e6").accepts(paper, ours), (paper, ours)
    assert not cells.loc["GS-SVMs", "standin"]


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
def test_table2_quick_protocol_matches_published_cells(data_env, paper_name):
    protocol = GS.PROTOCOLS["quick"]
    records = pd.concat([GS.run_cv_fold(paper_name, k, protocol) for k in range(protocol.outer_folds)],
                        ignore_index=True)
    pub = published.load("gs_svm_table2")
    pub = pub[(pub.dataset == paper_name) & (pub.metric == "accuracy_percent")]
    table = compare(pub, GS.table2_cells(records), GS.PAPER)
    assert len(table) == 3
    assert (table["verdict"] == "ok").all(), table[["method", "published", "reproduced", "verdict"]]


# Cells of the full run that miss the tolerance, with what we found about why.
# Filled from the full run's tables; each entry is checked to still miss.
_SMO_C_GRID = ("SMO's published count is an average over C values the paper does not name; "
               "on Adult our counts grow about linearly with C above C = 2 (see the per-C table), so "
               "the average is decided by the top of our grid (64); ")
_HM_CAP = ("HM-SVM is SMO with C = 1e6 stopped at 1e6 steps (hard margin is infeasible with "
           "overlapping classes or conflicting duplicates); a fit that hits the cap, or where C "
           "binds, is a regularised classifier, not a hard-margin one, and every HM-SVM miss of "
           "ours but Splice's (a coding question, below) lies above the paper's value; ")
_SPLICE_CODING = ("bases coded A=1, C=2, G=3, T=4 (60 dims, the paper's Dim); on that ordinal coding "
                  "scikit-learn's SVC reaches about 86% (C = 8, gamma 2^-7 and 2^-5, 5-fold CV, measured "
                  "2026-11-23), on a one-hot coding (240 dims) 95.6-96.6%, the paper's level: the paper's "
                  "coding is not published and its Dim and accuracy point to different ones. The "
                  "table's Splice-onehot row runs the same protocol on the one-hot coding: 96.8/96.7/96.7 "
                  "vs 96.7/96.3/96.2, within 0.5 points (full run 2026-11-23).")
KNOWN_MISSES: dict[tuple[str, str, str], str] = {
    ("gs_svm_table1", "Adult-4", "SMO-1"): _SMO_C_GRID + "ours 161e6 vs 345e6 (0.47x); SMO-2 on the same "
                                           "set is within 2x (0.55x).",
    ("gs_svm_table1", "Adult-7", "SMO-1"): _SMO_C_GRID + "ours 1841e6 vs 856e6 (2.15x) on the a7a "
                                           "stand-in (16,100 rows drawn from a9a, not the original a7a).",
    ("gs_svm_table2", "Glass", "GS-SVMs"): "64.5 vs 71.5: GS-SVM has no capacity control but theta, and on "
                                           "Glass (6 classes, 9-29 rows for 4 of them) the inner CV picks large "
                                           "theta (median 2^4); fold assignment and scaling are not published. "
                                           "The paper's claim 'GS-SVM significantly better on Glass' is not "
                                           "reproduced (ours: 5.6 points worse, p = 0.09).",
    ("gs_svm_table2", "Glass", "HM-SVMs"): _HM_CAP + "73.4 vs 68.7; 538 one-vs-one problems ended unconverged.",
    ("gs_svm_table2", "Glass", "SVMs"): "70.0 vs 66.8 (3.2 points, just outside 3): 214 rows, one test row "
                                        "is 4.7 points of a fold's accuracy.",
    ("gs_svm_table2", "Iris", "HM-SVMs"): "96.7 vs 92.0 (7 of 150 rows), NOT explained: no fit hit the step "
                                          "cap; the inner CV picks theta = 2^-8 (median), the grid's smallest, "
                                          "where ties go, a nearly linear kernel; the paper's folds and tie "
                                          "rule are not published.",
    ("gs_svm_table2", "Liver", "GS-SVMs"): "70.4 vs 66.0: above the paper; the paper's 'GS-SVM significantly "
                                           "worse than SVM on Liver' is not reproduced (ours: 0.9 points worse, "
                                           "p = 0.71).",
    ("gs_svm_table2", "Liver", "HM-SVMs"): _HM_CAP + "69.0 vs 61.7; 913 problems ended unconverged; Liver has "
                                           "duplicated rows with opposite labels, where the true hard-margin "
                                           "problem is infeasible.",
    **{("gs_svm_table2", "Splice", m): _SPLICE_CODING for m in ("GS-SVMs", "HM-SVMs", "SVMs")},
    ("gs_svm_table2", "German", "HM-SVMs"): _HM_CAP + "73.1 vs 69.3; 244 problems ended unconverged.",
    ("gs_svm_table2", "Diabetes", "HM-SVMs"): _HM_CAP + "73.6 vs 70.6 (3.02 points, just outside 3); 808 "
                                              "problems ended unconverged.",
}


def full_run_cells():
    cells = []
    for table in ("gs_svm_table1", "gs_svm_table2"):
        path = REPO / "paper_tables" / f"{table}.csv"
        if path.exists():
            df = pd.read_csv(path)
            cells += [(table, r.dataset, r.method, r.verdict) for r in df.itertuples()]
    return cells


@pytest.mark.parametrize("table, dataset, method, verdict",
                         full_run_cells() or [pytest.param(None, None, None, None, marks=pytest.mark.skip(
                             reason="no full-run tables: run `snakemake --cores 8 gs_svm` (profile full)"))])
def test_full_run_cell_within_tolerance(table, dataset, method, verdict):
    if verdict.startswith("not run"):
        pytest.skip(f"{dataset} {method}: not run in the full run (left out or unavailable: "
                    f"see the note above paper_tables/{table}.md)")
    if verdict.startswith(("partial", "not compared")):
        pytest.skip(f"{dataset} {method}: {verdict}, shown apart in paper_tables/{table}.md "
                    f"(a run continued across sessions, see README 'Resuming a long run')")
    reason = KNOWN_MISSES.get((table, dataset, method))
    if reason:
        assert verdict.startswith("miss"), f"known miss now passes, update KNOWN_MISSES: {dataset} {method}"
        pytest.xfail(reason)
    assert verdict.startswith("ok"), (table, dataset, method, verdict)
