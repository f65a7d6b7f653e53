"""repro.papers.ldm.readings: the readings sweep of LDM Tables 2 and 3's
unexplained misses (issue 27, item 4), and the shared sweep it runs through
(repro.experiments.readings)."""
import numpy as np
import pandas as pd
import pytest

from repro.experiments import readings as R
from repro.papers.ldm import jobs as L
from repro.papers.ldm import pages as P
from repro.papers.ldm import readings as LR


def test_scaling_reading_maps_the_fit_part_onto_its_range():
    rng = np.random.default_rng(0)
    X, Z = rng.normal(size=(20, 3)), rng.normal(size=(5, 3))
    X[:, 2] = 4.0  # a constant column
    (a, b), (c, d) = L.scale01(X, Z), L.scale01(X, Z, feature_range=(-1.0, 1.0))
    assert np.allclose(c[:, :2].min(0), -1) and np.allclose(c[:, :2].max(0), 1)
    assert np.allclose(c, 2 * a - 1) and np.allclose(d, 2 * b - 1)
    assert np.all(c[:, 2] == -1.0)
    # the protocol's own range is the tables' arithmetic, bitwise
    assert all(np.array_equal(u, v) for u, v in zip(L.scale01(X, Z, feature_range=(0.0, 1.0)), (a, b)))
    with pytest.raises(ValueError, match="largest absolute value"):
        L.ScoreGrid("LDM", "large", feature_range=(-1.0, 1.0))


def test_which_readings_apply():
    assert LR.applies("SVM by LIBSVM (bias not penalised)", "SVM", "linear")
    assert not LR.applies("SVM by LIBSVM (bias not penalised)", "SVM", "rbf")  # Table 3's SVM is LIBSVM
    assert not LR.applies("SVM by LIBSVM (bias not penalised)", "LDM", "linear")
    assert LR.applies("width grid 2^-4..2^4", "MAMC", "rbf") and not LR.applies("width grid 2^-4..2^4", "SVM", "linear")
    assert not LR.applies("C grid {1, 10, 50, 100, 1000}", "MAMC", "rbf")
    assert not LR.applies("ties to the last best point", "MAMC", "linear")  # one grid point
    assert LR.applies("ties to the last best point", "MAMC", "rbf")
    assert LR.applies("scaled to [-1, 1]", "KM-OMD", "rbf")
    # Table 4 (large sets): sparse scaling kept, LIBLINEAR with more passes instead of LIBSVM
    assert [r for r in LR.READINGS if LR.applies(r, "SVM", "large")] == [
        "ties to the last best point", "C grid {1, 10, 50, 100, 1000}",
        "SVM by LIBLINEAR with 10x the passes (max_iter 100,000)"]
    assert [r for r in LR.READINGS if LR.applies(r, "LDM", "large")] == [
        "ties to the last best point", "C grid {1, 10, 50, 100, 1000}"]
    assert not LR.applies("SVM by LIBLINEAR with 10x the passes (max_iter 100,000)", "SVM", "linear")
    assert [r for r in LR.READINGS if LR.applies(r, "KM-OMD", "linear")] == [
        "scaled to [-1, 1]", "ties to the last best point", "C grid {1, 10, 50, 100, 1000}",
        "KM-OMD stopped by the scale-invariant rule"]


@pytest.mark.parametrize("kernel", ["linear", "rbf", "large"])
def test_the_protocols_own_reading_is_the_records_cell(data_env, monkeypatch, kernel):
    """With its change set to the protocol's own values, a reading's value is
    the mean of the jobs' records over the same partitions: the sweep runs the
    protocol, changed only where it says (Table 4: a large set, ASGD)."""
    large = kernel == "large"
    tiny, dataset = (L.LARGE_PROTOCOLS["tiny"], "adult-a") if large else (L.PROTOCOLS["tiny"], "heart")
    records = pd.concat([L.run_partition(tiny, kernel, dataset, r) for r in range(tiny.n_partitions)])
    monkeypatch.setitem(LR.READINGS, "the protocol", {"tie": "first", "c_grid": tiny.c_grid,
                                                      **({} if large else {"feature_range": (0.0, 1.0),
                                                                           "width_log2": tiny.width_log2})})
    for method in (("SVM", "LDM") if large else ("SVM", "LDM", "MAMC", "KM-OMD")):
        cell = records[records.method == method].test_accuracy.mean()
        assert LR.accuracy(dataset, method, "the protocol", kernel, protocol=tiny) == pytest.approx(cell, abs=1e-12)


def test_sweep_rows_and_the_page(data_env, monkeypatch):
    """The layer runs each task (in worker processes or not, the same values),
    judges it by the tolerance, and the page lists it under its cell."""
    from repro.tolerances import tolerance_for

    tiny = L.PROTOCOLS["tiny"]
    comparison = pd.DataFrame({"dataset": ["heart"], "method": ["MAMC"], "metric": "accuracy",
                               "published": [0.537], "reproduced": [0.66], "verdict": "miss (unexplained)"})
    cells = comparison.set_index(["dataset", "method"])
    tasks = [("heart", "MAMC", "MAMC without the bias"), ("heart", "MAMC", "scaled to [-1, 1]")]
    run = LR.partial(LR.accuracy, kernel="linear", protocol=tiny)
    serial = R.sweep(tasks, run, cells, tolerance_for("ldm", "accuracy"), "accuracy")
    pooled = R.sweep(tasks, run, cells, tolerance_for("ldm", "accuracy"), "accuracy", jobs=2)
    assert list(serial.columns) == ["dataset", "method", "reading", "accuracy", "published", "protocol_value",
                                    "within_tolerance", "seconds"]
    assert serial.accuracy.tolist() == pooled.accuracy.tolist()
    rule = tolerance_for("ldm", "accuracy")
    assert serial.within_tolerance.tolist() == [bool(rule.accepts(0.537, v)) for v in serial.accuracy]
    tried = P.readings_tried(comparison, pd.DataFrame(columns=["dataset", "method", "value"]), serial)
    text = tried.iloc[0]["readings tried (value, tolerance)"]
    assert text.startswith(f"MAMC without the bias {serial.accuracy[0]:.3f} (")
    assert "; scaled to [-1, 1] " in text


def test_extend_keeps_the_committed_rows_and_replaces_a_row_run_again(monkeypatch):
    """--extend: the committed rows stay (those of a cell explained since
    included), a (cell, reading) run again replaces its row, and every row
    is judged again by its cell's tolerance."""
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    comparison = pd.read_csv(Path("paper_tables") / "ldm_table2.csv")
    committed = LR.load_evidence("table2")
    again = committed.iloc[[0]].assign(accuracy=committed.published.iloc[0], within_tolerance=False)
    out = LR.merge("table2", comparison, committed, again)
    assert len(out) == len(committed)
    key = tuple(committed.iloc[0][R.KEY_COLUMNS])
    row = out.set_index(R.KEY_COLUMNS).loc[key]
    assert row.accuracy == committed.published.iloc[0] and bool(row.within_tolerance)
    rest = out.set_index(R.KEY_COLUMNS).drop(index=[key])
    assert rest.accuracy.equals(committed.set_index(R.KEY_COLUMNS).drop(index=[key]).accuracy.loc[rest.index])
