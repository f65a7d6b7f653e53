"""LDM(stop='authors'): the authors' released code's stopping rule (issue 46, item 1).

* The kernel's spread rule is the loop of the code's ``solve_cd`` (LDM.cpp)
  written out in numpy here (printed order, no shrinking): the same passes and
  the same beta.
* Against the default rule on small data: the objective is never below the
  optimum and is above it where the 1,000-pass cap stops it; predictions
  mostly agree; converged_ never claims the optimum, stopped_by_ says why it
  stopped, and no ConvergenceWarning is issued; tol and max_iter are ignored.
* repro.papers.ldm.authors_stop.wtl_against_svm on a made-up evidence folder.
"""
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning

from repro import objectives as O
from repro.kernels import kernel_matrix
from repro.solvers import LDM
from repro.solvers._validation import as_rows_input


def data(m=80, d=5, seed=0, flip=0.1):
    X, y = make_classification(n_samples=m, n_features=d, n_informative=3, n_redundant=0,
                               flip_y=flip, random_state=seed)
    X = (X - X.min(0)) / (X.max(0) - X.min(0))
    return X, np.where(y == 1, 1.0, -1.0)


def _authors_loop(G, R, h, y, C, shift, eps, max_iter):
    """LDM.cpp's solve_cd without shrinking, in the order 1..m: passes until
    one whose projected gradients spread by at most eps, at most max_iter;
    (beta, passes, whether the spread rule ended it)."""
    m = len(y)
    beta = np.zeros(m)
    u = R.T @ (y * (beta + shift))
    passes = 0
    while passes < max_iter:
        hi, lo = -np.inf, np.inf
        for i in range(m):
            g = y[i] * (G[i] @ u) - 1.0
            pg = min(g, 0.0) if beta[i] <= 0.0 else (max(g, 0.0) if beta[i] >= C else g)
            hi, lo = max(hi, pg), min(lo, pg)
            if pg != 0.0:
                new = min(max(beta[i] - g / h[i], 0.0), C)
                u += (new - beta[i]) * y[i] * R[i]
                beta[i] = new
        passes += 1
        if hi - lo <= eps:
            return beta, passes, True
    return beta, passes, False


@pytest.mark.parametrize("C, eps, max_iter", [(1.0, 0.01, 1000), (100.0, 0.01, 1000), (100.0, 0.01, 7)])
def test_the_spread_rule_is_the_codes_loop(C, eps, max_iter):
    from repro._kernels.ldm import ldm_cd
    from repro.solvers.ldm import kernel_operands

    X, y = data(m=50, seed=3)
    G = kernel_matrix(X, X, kernel="rbf", gamma=0.7)
    P = as_rows_input(G, gram=True)
    R, h = kernel_operands(G, P, y, 2**-4)
    R, h, shift = np.asarray(R), np.asarray(h), 2**-4 / len(y)
    beta = np.zeros(len(y))
    _, passes, met, worst = ldm_cd(P, R, y, C, shift, beta, eps, max_iter, False, 0, False, None,
                                   None, True)
    ref_beta, ref_passes, ref_met = _authors_loop(G, R, h, y, C, shift, eps, max_iter)
    assert (passes, met) == (ref_passes, ref_met)
    np.testing.assert_allclose(beta, ref_beta, rtol=0, atol=1e-10)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_authors_stop_against_the_optimum(kernel):
    X, y = data(m=120, seed=1)
    kw = dict(lambda1=2**-8, lambda2=2**-8, kernel=kernel, gamma=1.0)
    gaps, agree = [], []
    for C in (10.0, 100.0):
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)  # the authors' rule warns of nothing
            a = LDM(C=C, stop="authors", **kw).fit(X, y)
        b = LDM(C=C, tol=1e-6, max_iter=10**6, **kw).fit(X, y)
        assert b.converged_ and not a.converged_ and a.n_unconverged_problems_ == 1
        assert a.stopped_by_.tolist() in (["spread"], ["cap"])
        assert a.stopped_by_[0] == "spread" or a.n_iter_ == LDM.AUTHORS_MAX_PASSES
        if kernel == "linear":
            fa = O.ldm_primal(a.coef_.ravel(), X, y, C, 2**-8, 2**-8)
            fb = O.ldm_primal(b.coef_.ravel(), X, y, C, 2**-8, 2**-8)
            assert fa >= fb * (1 - 1e-12)
            gaps.append(fa / fb - 1)
        agree.append(np.mean(a.predict(X) == b.predict(X)))
    assert min(agree) >= 0.9
    if kernel == "linear":
        assert max(gaps) > 1e-4  # the code's rule leaves the optimum somewhere on this grid


def test_authors_stop_ignores_tol_and_max_iter_and_is_never_the_default():
    X, y = data(m=60, seed=2)
    assert LDM().stop == "tol"
    a = LDM(C=50.0, stop="authors").fit(X, y)
    b = LDM(C=50.0, stop="authors", tol=1e-9, max_iter=3).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.n_iter_ == b.n_iter_
    # a refit by the default rule drops the report of the authors' one
    a.set_params(stop="tol").fit(X, y)
    assert a.converged_ and not hasattr(a, "stopped_by_")
    with pytest.raises(ValueError, match="stop"):
        LDM(stop="code").fit(X, y)


def test_authors_stop_one_vs_one_reports_every_problem():
    X, y = make_classification(n_samples=90, n_features=4, n_informative=3, n_redundant=0,
                               n_classes=3, n_clusters_per_class=1, random_state=0)
    model = LDM(C=10.0, stop="authors").fit(X, y)
    assert len(model.stopped_by_) == 3 and model.n_unconverged_problems_ == 3 and not model.converged_


def test_wtl_against_svm_pairs_by_partition_and_counts_each_dataset_once(tmp_path):
    from repro.papers.ldm import authors_stop as A

    rng = np.random.default_rng(0)
    rows, ours = [], []
    for name, shift in (("heart", 0.05), ("sonar", 0.0), ("vote", -0.05), ("house", 0.05)):
        for r in range(30):
            svm = 0.8 + 0.01 * rng.standard_normal()
            rows += [{"paper_dataset": name, "split_index": r, "method": "SVM", "test_accuracy": svm},
                     {"paper_dataset": name, "split_index": r, "method": "LDM", "test_accuracy": svm}]
            ours.append({"table": "table2", "paper_dataset": name, "split_index": r, "method": A.METHOD,
                         "test_accuracy": svm + shift + 0.001 * rng.standard_normal()})
    folder = tmp_path / "paper_tables"
    folder.mkdir()
    pd.DataFrame(rows + [{**rows[0], "paper_dataset": "wdbc"}]).to_csv(folder / "ldm_table2_records.csv",
                                                                       index=False)
    pd.DataFrame(ours).to_csv(folder / A.EVIDENCE.name, index=False)
    renamed = tmp_path / "evidence"
    renamed.mkdir()
    for path in folder.iterdir():
        (renamed / path.name).write_bytes(path.read_bytes())
    for where in (tmp_path, folder, renamed):
        result = A.wtl_against_svm(where, "ldm_table2")
        assert (result["win"], result["tie"], result["loss"]) == (1, 1, 1)  # house is vote's data
        assert result["wtl"] == "1/1/1"
        assert result["committed_ldm"] == {"win": 0, "tie": 3, "loss": 0}
        assert result["sets"] == 3 and result["partitions"] == 90 and result["missing"] == ["wdbc"]
    with pytest.raises(ValueError, match="table_id"):
        A.wtl_against_svm(tmp_path, "table4")
