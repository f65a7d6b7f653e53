"""kernel='precomputed' and warm starts, the two things that make the full
Table 2 protocol of the GS-SVM paper affordable.

* A Gram matrix computed with our own kernel primitive gives the solvers the
  same kernel values as the rbf kernel, so the fitted models are identical.
* A warm-started SMO path over C ends, at every C, at the cold-start optimum
  (same dual objective within the tolerance, same predictions), in fewer steps.
* The Table 2 driver (one squared-distance matrix per split, one kernel per
  theta shared across C, warm starts along C) selects what scikit-learn's
  GridSearchCV over the plain Pipeline(RangeScaler, estimator) selects.
"""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline

from repro._kernels.kernels import kernel_matrix
from repro._kernels.smo import smo_solve
from repro.datasets.preprocess import RangeScaler
from repro.papers.gs_svm import jobs as GS
from repro.solvers import GSSVM, SMO, HardMarginSVM
from repro.solvers._validation import as_rows_input, kernel_params


def gram(A, B, gamma):
    K, _ = kernel_matrix(as_rows_input(A), as_rows_input(B), *kernel_params("rbf", gamma))
    return K


@pytest.fixture(scope="module")
def binary():
    X, y = make_classification(n_samples=160, n_features=6, flip_y=0.1, random_state=3)
    return X, y


def fitted_alpha(model, n):
    alpha = np.zeros(n)
    alpha[model.support_] = np.abs(model.dual_coef_)
    return alpha


@pytest.mark.parametrize("make", [
    lambda k: GSSVM(kernel=k, gamma=0.3),
    lambda k: SMO(kernel=k, gamma=0.3, C=2.0, working_set="keerthi", kernel_cache=False),
    lambda k: SMO(kernel=k, gamma=0.3, C=2.0, working_set="keerthi", modification=1,
                  kernel_cache=True),
    lambda k: SMO(kernel=k, gamma=0.3, C=2.0),
    lambda k: HardMarginSVM(kernel=k, gamma=0.3, max_iter=20_000, working_set="keerthi"),
    lambda k: HardMarginSVM(kernel=k, gamma=0.3, max_iter=20_000),
], ids=["GSSVM", "SMO-2 count", "SMO-1 cache", "SMO second order", "HardMarginSVM keerthi",
        "HardMarginSVM second order"])
def test_precomputed_gram_gives_the_same_model(binary, make):
    X, y = binary
    Xt = X[:40] + 0.1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = make("rbf").fit(X, y)
        b = make("precomputed").fit(gram(X, X, 0.3), y)
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    np.testing.assert_allclose(a.decision_function(Xt), b.decision_function(gram(Xt, X, 0.3)),
                               rtol=1e-12, atol=1e-12)
    assert b.support_vectors_ is None


def test_precomputed_multiclass_slices_rows_and_columns():
    X, y = load_iris(return_X_y=True)
    a = SMO(gamma=0.5, C=4.0, working_set="keerthi", kernel_cache=True).fit(X, y)
    b = SMO(kernel="precomputed", C=4.0, working_set="keerthi", kernel_cache=True).fit(
        gram(X, X, 0.5), y)
    for sa, sb in zip(a.support_, b.support_):
        np.testing.assert_array_equal(sa, sb)
    np.testing.assert_array_equal(a.predict(X), b.predict(gram(X, X, 0.5)))


def test_precomputed_works_in_cross_validation(binary):
    """The estimator tag 'pairwise' makes scikit-learn slice K[train][:, train]."""
    X, y = binary
    K = gram(X, X, 0.3)
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    on_k = cross_val_score(GSSVM(kernel="precomputed"), K, y, cv=cv)
    on_x = cross_val_score(GSSVM(gamma=0.3), X, y, cv=cv)
    np.testing.assert_array_equal(on_k, on_x)


def test_precomputed_input_errors(binary):
    X, y = binary
    with pytest.raises(ValueError, match="square Gram matrix"):
        SMO(kernel="precomputed").fit(X, y)
    with pytest.raises(TypeError, match="[Ss]parse"):
        SMO(kernel="precomputed").fit(sp.csr_matrix(gram(X, X, 0.3)), y)
    model = GSSVM(kernel="precomputed").fit(gram(X, X, 0.3), y)
    with pytest.raises(ValueError, match="features"):
        model.predict(gram(X[:5], X[:50], 0.3))  # columns must be the training rows


def test_warm_start_path_reaches_the_cold_optimum_in_fewer_steps(binary):
    X, y = binary
    K = gram(X, X, 0.3)
    # Keerthi's path, the Table 2 protocol's for SVMs when these steps were measured
    warm = SMO(kernel="precomputed", working_set="keerthi", kernel_cache=True, warm_start=True,
               tol=1e-3)
    steps_warm = steps_cold = 0
    for C in [0.5, 1.0, 4.0, 16.0, 64.0, 8.0]:  # up, then down (scaled start)
        warm.set_params(C=C).fit(K, y)
        cold = SMO(kernel="precomputed", working_set="keerthi", kernel_cache=True, C=C,
                   tol=1e-3).fit(K, y)
        assert warm.converged_ and cold.converged_
        alpha = fitted_alpha(warm, len(y))
        assert alpha.max() <= C and abs(alpha @ np.where(y == 1, 1, -1)) < 1e-9 * C * len(y)
        # both meet the same optimality test: their objectives agree to a few tol
        np.testing.assert_allclose(warm.dual_objective_, cold.dual_objective_, rtol=1e-3)
        assert np.mean(warm.predict(K) == cold.predict(K)) >= 0.98
        steps_warm += warm.n_iter_
        steps_cold += cold.n_iter_
    assert steps_warm < 0.8 * steps_cold


def test_warm_start_objective_is_the_recomputed_one(binary):
    """The dual objective maintained from a warm start equals W computed in NumPy."""
    X, y = binary
    K = gram(X, X, 0.3)
    m = SMO(kernel="precomputed", working_set="keerthi", kernel_cache=True, warm_start=True,
            C=1.0).fit(K, y)
    m.set_params(C=3.0).fit(K, y)
    v = np.zeros(len(y))
    v[m.support_] = m.dual_coef_
    np.testing.assert_allclose(m.dual_objective_[0], 0.5 * v @ K @ v - np.abs(v).sum(), rtol=1e-9)


def test_warm_start_is_ignored_when_the_labels_change(binary):
    X, y = binary
    K = gram(X, X, 0.3)
    m = SMO(kernel="precomputed", warm_start=True).fit(K, y)
    y2 = y.copy()
    y2[:10] = 1 - y2[:10]
    again = m.fit(K, y2)
    fresh = SMO(kernel="precomputed").fit(K, y2)
    np.testing.assert_array_equal(again.dual_coef_, fresh.dual_coef_)


def test_infeasible_start_is_refused(binary):
    X, y = binary
    ypm = np.where(y == 1, 1.0, -1.0)
    rows = as_rows_input(gram(X, X, 0.3))
    args = (rows, ypm, 1.0, 3, 0.3, 0.0, 3, 2, 1e-3, 1e-12, True, 10.0, 1000, None, None)
    with pytest.raises(ValueError, match="outside"):
        smo_solve(*args, np.full(len(y), 2.0))
    with pytest.raises(ValueError, match="sum_i y_i alpha_i"):
        smo_solve(*args, (ypm > 0) * 0.5)
    with pytest.raises(ValueError, match="entries"):
        smo_solve(*args, np.zeros(3))


@pytest.mark.parametrize("method", ["GS-SVMs", "HM-SVMs", "SVMs"])
def test_table2_driver_selects_what_grid_search_selects(method):
    """Independent reference: GridSearchCV over Pipeline(RangeScaler(-1, 1),
    estimator with the rbf kernel), which recomputes every kernel and starts
    every SVM cold."""
    X, y = load_iris(return_X_y=True)
    protocol = GS.Protocol(table1_datasets=(), table1_c_grid=(), table2_datasets=("Iris",),
                           log2_theta=(-4, -1, 2), log2_c=(-1, 3, 7), outer_folds=5, inner_folds=3)
    outer = GS.outer_splits(y, protocol)[1]
    train, test = outer.train, outer.test
    ours = GS.select_method(X, y, outer, method, protocol)

    thetas = [2.0 ** k for k in protocol.log2_theta]
    estimator, grid = {
        "GS-SVMs": (GSSVM(), {"gamma": thetas}),
        "HM-SVMs": (HardMarginSVM(C=GS.HM_C, max_iter=GS.HM_MAX_ITER,
                                  working_set=protocol.working_set), {"gamma": thetas}),
        "SVMs": (SMO(working_set=protocol.working_set, modification=2, kernel_cache=True),
                 {"gamma": thetas, "C": [2.0 ** k for k in protocol.log2_c]}),
    }[method]
    name = type(estimator).__name__.lower()
    search = GridSearchCV(make_pipeline(RangeScaler(feature_range=(-1.0, 1.0)), estimator),
                          {f"{name}__{k}": v for k, v in grid.items()},
                          cv=StratifiedKFold(protocol.inner_folds, shuffle=True, random_state=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        search.fit(X[train], y[train])
    reference = search.cv_results_["mean_test_score"]
    if method == "SVMs":  # warm and cold starts stop at different points within tol
        np.testing.assert_allclose(ours.inner_scores, reference, atol=0.02)
    else:
        np.testing.assert_allclose(ours.inner_scores, reference, atol=1e-12)
    assert ours.params == {k.split("__")[1]: v for k, v in search.best_params_.items()}
    assert ours.test_score == pytest.approx(search.score(X[test], y[test]))
