"""The generic published-vs-reproduced table builder and the tolerance rules."""
import numpy as np
import pandas as pd
import pytest

from repro.tables import compare, to_markdown
from repro.tolerances import Tolerance

PUB = pd.DataFrame({
    "dataset": ["A", "A", "B", "B"],
    "method": ["GS", "SMO", "GS", "SMO"],
    "metric": ["kernel_evals_1e6"] * 4,
    "value": [1.0, 20.0, 2.0, 30.0],
})


def test_verdicts_follow_the_tolerance_rules():
    rep = pd.DataFrame({
        "dataset": ["A", "A", "B"], "method": ["GS", "SMO", "GS"],
        "metric": ["kernel_evals_1e6"] * 3, "value": [1.9, 41.0, 0.9],
        "standin": [False, False, True],
    })
    t = compare(PUB, rep, "gs_svm").set_index(["dataset", "method"])
    assert t.loc[("A", "GS"), "verdict"] == "ok"          # factor 1.9
    assert t.loc[("A", "SMO"), "verdict"] == "miss"       # factor 2.05
    assert t.loc[("B", "GS"), "verdict"] == "miss (stand-in)"  # factor 2.2, on a stand-in
    assert t.loc[("B", "SMO"), "verdict"] == "not run"
    assert t.loc[("A", "GS"), "difference"] == pytest.approx(0.9)


def test_duplicate_reproduced_cells_are_refused():
    rep = pd.DataFrame({"dataset": ["A", "A"], "method": ["GS", "GS"],
                        "metric": ["kernel_evals_1e6"] * 2, "value": [1.0, 1.1]})
    with pytest.raises(ValueError, match="not unique"):
        compare(PUB, rep, "gs_svm")


def test_metric_without_rule_is_reported_unjudged():
    pub = pd.DataFrame({"dataset": ["A"], "method": [""], "metric": ["n_instances"], "value": [10.0]})
    rep = pd.DataFrame({"dataset": ["A"], "method": [""], "metric": ["n_instances"], "value": [12.0]})
    assert compare(pub, rep, "gs_svm")["verdict"].tolist() == ["no tolerance"]


@pytest.mark.parametrize("kind, value, pub, rep, ok", [
    ("abs", 3.0, 80.0, 82.9, True), ("abs", 3.0, 80.0, 76.9, False),
    ("factor", 2.0, 10.0, 5.0, True), ("factor", 2.0, 10.0, 20.1, False),
    ("factor", 2.0, 10.0, 0.0, False), ("abs", 3.0, 80.0, np.nan, False),
])
def test_tolerance_accepts(kind, value, pub, rep, ok):
    assert Tolerance(kind, value, "").accepts(pub, rep) is ok


def test_markdown_escapes_pipes_and_blanks_missing():
    md = to_markdown(pd.DataFrame({"a": ["x|y", None], "b": [1.5, np.nan]}), title="T")
    assert "x\\|y" in md and "| 1.5 |" in md and "|  |  |" in md


def test_partial_means_average_both_sides_over_the_sets_run():
    from repro.experiments.gs_svm_report import _partial_means

    comparison = pd.DataFrame({
        "dataset": ["Iris", "Iris", "Wine", "Page", "Mean"],
        "method": ["SVMs", "GS-SVMs", "SVMs", "SVMs", "SVMs"],
        "metric": ["accuracy_percent"] * 4 + ["mean_accuracy_percent"],
        "published": [96.0, 95.0, 98.0, 97.0, 88.0],
        "reproduced": [94.0, 95.0, 99.0, float("nan"), float("nan")],
    })
    md = _partial_means(comparison)
    assert "Mean over the 2 sets run" in md and "Iris, Wine" in md
    assert "| SVMs | 97.0 | 96.5 | -0.5 |" in md      # Page (not run) is left out of both
    assert "| GS-SVMs | 95.0 | 95.0 | 0.0 |" in md


def _table2_records(sets):
    """Synthetic Table 2 records from ``(set, accuracy, n_folds)`` entries: each
    of the set's first ``n_folds`` outer folds scores ``accuracy`` for every method."""
    return pd.DataFrame([
        {"paper_dataset": d, "dataset": d.lower(), "standin": False, "n_samples": 150,
         "n_features": 4, "n_classes": 3, "fold": k, "method": m, "log2_theta": 0.0,
         "log2_C": float("nan"), "inner_cv_accuracy": 0.9, "test_accuracy": acc,
         "n_fits": 1, "n_unconverged_problems": 0, "seconds": 1.0}
        for d, acc, n_folds in sets for k in range(n_folds)
        for m in ("GS-SVMs", "HM-SVMs", "SVMs")])


def test_table2_sets_with_missing_folds_are_shown_not_compared():
    from repro.experiments import gs_svm_report

    records = _table2_records([("Iris", 0.95, 10), ("Wine", 0.5, 3)])
    comparison, _, md = gs_svm_report.table2(records, outer_folds=10)
    verdicts = comparison.set_index(["dataset", "method"])["verdict"]
    assert verdicts[("Iris", "SVMs")] in ("ok", "miss")
    assert verdicts[("Wine", "SVMs")] == "partial (3/10 folds)"   # not compared
    assert verdicts[("Mean", "SVMs")] == "not compared (sets missing)"
    assert "Sets run on fewer than 10 outer folds" in md and "| Wine | SVMs | 3 | 50.0 |" in md


def test_table2_variant_rows_are_compared_with_their_paper_row_and_left_out_of_the_mean():
    """Splice-onehot (a second coding of Splice) is judged against Splice's
    published cells; the Mean row stays the mean over the paper's 15 sets."""
    from repro import published
    from repro.experiments import gs_svm as GS, gs_svm_report

    assert GS.TABLE2_VARIANTS == {"Splice-onehot": "Splice"}
    sets = [(d, 0.9, 10) for d in GS.TABLE2_DATASETS] + [("Splice-onehot", 0.5, 10)]
    comparison, _, md = gs_svm_report.table2(_table2_records(sets), outer_folds=10)
    rows = comparison.set_index(["dataset", "method"])
    pub = published.load("gs_svm_table2").set_index(["dataset", "method", "metric"])["value"]
    for m in ("GS-SVMs", "HM-SVMs", "SVMs"):
        assert rows.loc[("Splice-onehot", m), "published"] == pub[("Splice", m, "accuracy_percent")]
        assert rows.loc[("Splice-onehot", m), "reproduced"] == pytest.approx(50.0)
        assert rows.loc[("Mean", m), "reproduced"] == pytest.approx(90.0)  # 0.5 left out
    assert "Mean over the" not in md  # all 15 sets run: the paper's Mean row is compared
    # without its records the variant row is listed, not run
    alone, _, _ = gs_svm_report.table2(_table2_records(sets[:-1]), outer_folds=10)
    assert "Splice-onehot" not in set(alone.dropna(subset=["reproduced"]).dataset)


def test_partial_means_leave_variants_out():
    from repro.experiments.gs_svm_report import _partial_means

    comparison = pd.DataFrame({
        "dataset": ["Splice", "Splice-onehot"], "method": ["SVMs", "SVMs"],
        "metric": ["accuracy_percent"] * 2, "published": [96.2, 96.2], "reproduced": [86.0, 96.0]})
    md = _partial_means(comparison)
    assert "Mean over the 1 sets run" in md and "| SVMs | 96.2 | 86.0 |" in md
