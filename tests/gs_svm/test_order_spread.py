"""repro.papers.gs_svm.order_spread: Table 1's counts over row orders, the
measurement behind Table 1's tolerance (issue 27, item 3)."""
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from repro.papers.gs_svm import jobs as GS
from repro.papers.gs_svm import order_spread as O
from repro.tolerances import tolerance_for


def _records(values: dict) -> pd.DataFrame:
    """Table 1 records of the file's order: (set, method, C) -> count."""
    return pd.DataFrame([{"paper_dataset": d, "method": m, "C": c, "n_kernel_evals": v, "fit_seconds": 1.0}
                         for (d, m, c), v in values.items()])


def _evidence(values: dict) -> pd.DataFrame:
    """(set, method, C, seed) -> count."""
    return pd.DataFrame([{"paper_dataset": d, "method": m, "C": c, "order_seed": s, "n_kernel_evals": v,
                          "fit_seconds": 1.0} for (d, m, c, s), v in values.items()])


def test_cells_ratios_and_the_factor():
    nan = np.nan
    records = _records({("A", "GS-SVMs", nan): 100.0, ("A", "SMO-1", 1.0): 1e6, ("A", "SMO-1", 2.0): 3e6,
                        ("A", "SMO-2", 1.0): 2e6, ("A", "SMO-2", 2.0): 2e6,
                        ("B", "SMO-1", 1.0): 5e6})  # B: no orders measured, left out
    evidence = _evidence({("A", "GS-SVMs", nan, 1): 110.0, ("A", "SMO-1", 1.0, 1): 2e6, ("A", "SMO-1", 2.0, 1): 2e6,
                          ("A", "SMO-2", 1.0, 1): 2e6, ("A", "SMO-2", 2.0, 1): 6e6,
                          ("A", "SMO-1", 4.0, 1): 9e9})  # a C the records lack: not in the cells
    cells = O.cells(evidence, records).set_index(["paper_dataset", "method", "order_seed"])["value"]
    assert cells.loc[("A", "SMO-1", 0)] == 2.0 and cells.loc[("A", "SMO-1", 1)] == 2.0   # means over C = 1, 2 (1e6)
    assert cells.loc[("A", "SMO-2", 1)] == 4.0 and cells.loc[("A", "GS-SVMs", 1)] == pytest.approx(1.1e-4)
    assert "B" not in cells.index.get_level_values(0)
    ratios = O.ratios(evidence, records).set_index("method")["ratio"]
    assert ratios["SMO-1"] == 1.0 and ratios["SMO-2"] == 2.0 and ratios["GS-SVMs"] == pytest.approx(1.1)
    noise = O.noise(evidence, records)
    # SMO-1 and SMO-2 pooled: the 95th percentile of {1, 2}
    assert noise["SMO-1"] == noise["SMO-2"] == pytest.approx(np.quantile([1.0, 2.0], 0.95))
    assert noise["GS-SVMs"] == pytest.approx(1.1)
    assert O.noise(None, records) == {}
    summary = O.summary(evidence, records).set_index("method")
    assert summary.loc["SMO-2", "largest_ratio"] == 2.0 and summary.loc["SMO-2", "orders"] == 2


def test_the_tolerance_is_the_measured_factor():
    rule = tolerance_for("gs_svm", "kernel_evals_1e6")
    cell = SimpleNamespace(dataset="Adult-1", method="SMO-1")
    assert rule.at(cell, {}) is None  # not measured: no judgement
    judged = rule.at(cell, {"order_noise": {("Adult-1", "SMO-1"): 1.25}})
    assert judged.accepts(10.0, 12.4) and not judged.accepts(10.0, 12.6) and not judged.accepts(10.0, 7.9)


def test_counts_permute_the_rows(data_env):
    """A permuted order is a fit on the same rows: GS-SVM's and SMO's counts are
    those of Table 1's models on the permuted data, seeded, and the file's order
    (the records) is not among the orders."""
    tiny = GS.PROTOCOLS["tiny"]
    one = O.counts("Adult-1", 1, tiny)
    assert list(one.columns) == O.COLUMNS
    assert sorted(one.method.unique()) == ["GS-SVMs", "SMO-1", "SMO-2"] and set(one.order_seed) == {1}
    again = O.counts("Adult-1", 1, tiny)
    assert one.n_kernel_evals.tolist() == again.n_kernel_evals.tolist()
    from repro import datasets

    X, y = datasets.load(GS.our_name("Adult-1"))
    order = np.random.default_rng(1).permutation(X.shape[0])
    model = GS.table1_model("SMO-1", 1.0).fit(X[order], np.asarray(y)[order])
    assert int(one.set_index("method").loc["SMO-1", "n_kernel_evals"]) == model.n_kernel_evals_
