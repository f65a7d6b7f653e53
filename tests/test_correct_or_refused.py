"""Correct or refused: a fit either returns a model that meets its stopping rule,
checked here against LIBSVM's dual objective, or says it did not (converged_
False with a ConvergenceWarning) or raises a ValueError naming the cause; it
never hands back a wrong model that looks converged. (Issue 12's cases.)"""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import linear_kernel, rbf_kernel
from sklearn.svm import SVC

from repro.objectives import dual_feasibility, kernel_dual
from repro.solvers import SMO, HardMarginSVM


def multipliers(model, n):
    alpha = np.zeros(n)
    alpha[model.support_] = np.abs(model.dual_coef_)
    return alpha


def pm(model, y):
    return np.where(y == model.classes_[1], 1.0, -1.0)


@pytest.mark.parametrize("working_set", ["keerthi", "second_order"])
def test_hard_margin_with_a_huge_box_on_heart(data_env, working_set):
    """C = 1e12 put every multiplier below 2 on 0 (a snap width proportional to C).
    gamma 0.05: heart's features are unscaled (up to 564), where 'scale' gives a
    width of 1e-5 that no hard margin fits in 1e7 steps."""
    from repro.datasets import load

    X, y = load("heart")
    m = HardMarginSVM(C=1e12, gamma=0.05, working_set=working_set).fit(X, y)
    assert m.converged_ and m.n_iter_ > 0 and m.score(X, y) == 1.0


def test_a_large_box_keeps_the_equality_and_reaches_the_optimum():
    X = np.random.RandomState(0).randn(20, 5)
    y = np.tile([1, -1], 10)
    m = SMO(C=3e11, gamma=10.0).fit(X, y)
    alpha, ypm = multipliers(m, 20), pm(m, y)
    assert m.converged_
    balance, box = dual_feasibility(alpha, ypm, 3e11)
    assert balance < 1e-9 * alpha.sum() and box == 0.0
    assert kernel_dual(alpha, rbf_kernel(X, gamma=10.0), ypm) == pytest.approx(-10.0, rel=1e-3)


@pytest.mark.parametrize("scale", [1.0, 500.0, 1e4])
def test_hard_margin_separates_separable_data_at_any_scale(scale):
    rng = np.random.RandomState(1)
    Z = rng.randn(200, 2)
    Z = Z[np.abs(Z.sum(axis=1)) > 0.3]
    y = np.where(Z.sum(axis=1) > 0, 1, -1)
    m = HardMarginSVM(kernel="linear").fit(Z * scale, y)
    assert m.converged_ and m.n_iter_ > 0 and m.score(Z * scale, y) == 1.0


CS = [1e-6, 1e-3, 1.0, 1e3, 1e6, 1e9, 1e12]
SCALES = [1e-3, 1.0, 1e3]


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("C", CS)
def test_smo_is_libsvms_optimum_or_says_it_is_not(kernel, scale, C):
    """Over C from 1e-6 to 1e12 and feature scales from 1e-3 to 1e3: a fit
    reported as converged is feasible and has LIBSVM's dual objective (to the
    tolerance both stop at); any other fit warns."""
    rng = np.random.RandomState(2)
    X = rng.randn(24, 3)
    y = np.where(X[:, 0] + 0.3 * rng.randn(24) > 0, 1, -1)
    if kernel == "linear":  # separable, so LIBSVM ends at every C
        X[:, 0] += np.where(y > 0, 1.0, -1.0)
    X = X * scale
    gamma = 0.5 / scale**2  # the same kernel matrix at every scale
    K = rbf_kernel(X, gamma=gamma) if kernel == "rbf" else linear_kernel(X)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        ours = SMO(C=C, kernel=kernel, gamma=gamma, tol=1e-3).fit(X, y)
    warned = any(issubclass(w.category, ConvergenceWarning) for w in caught)
    assert warned == (not ours.converged_)
    if not ours.converged_:
        return  # said so: not a silent wrong model
    ref = SVC(C=C, kernel="precomputed", tol=1e-5).fit(K, y)
    ypm = pm(ours, y)
    alpha = multipliers(ours, len(y))
    a_ref = np.zeros(len(y))
    a_ref[ref.support_] = np.abs(ref.dual_coef_[0])
    balance, box = dual_feasibility(alpha, ypm, C)
    assert box == 0.0 and balance <= 1e-8 * max(alpha.sum(), 1e-300)
    w_ours, w_ref = kernel_dual(alpha, K, ypm), kernel_dual(a_ref, K, ypm)
    # both stop within a KKT gap of 2 tol, which bounds the objective gap by
    # 2 tol sum(alpha) (the duality gap of a 2 tol-optimal point)
    assert w_ours <= w_ref + 2e-3 * max(alpha.sum(), a_ref.sum()) + 1e-12 * abs(w_ref)
    agree = np.mean(np.sign(K @ (alpha * ypm) + ours.intercept_[0]) == np.sign(ref.decision_function(K)))
    assert agree >= 0.9


@pytest.mark.parametrize("name", ["LinearSVM", "GSSVM", "SMO", "HardMarginSVM"])
def test_norms_beyond_float64_are_refused_by_name(name):
    import repro.solvers

    # gamma named: 'scale' would refuse X first, for its variance beyond float64
    params = {} if name == "LinearSVM" else {"gamma": 0.05}
    make = lambda: getattr(repro.solvers, name)(**params)  # noqa: E731
    X = np.random.RandomState(0).randn(30, 4) * 1e155  # finite, but ||x||^2 overflows
    y = np.tile([0, 1], 15)
    with pytest.raises(ValueError, match="squared norm beyond float64"):
        make().fit(X, y)
    model = make().fit(X / 1e155, y)
    if name == "LinearSVM":  # x'w stays finite: a linear model predicts such rows correctly
        f = model.decision_function(X)
        np.testing.assert_allclose(f, X @ model.coef_[0] + model.intercept_[0])
        assert np.isfinite(f).all()
    else:  # a kernel needs ||x||^2
        with pytest.raises(ValueError, match="squared norm beyond float64"):
            model.predict(X)


def test_kernel_values_beyond_float64_are_refused_with_the_iteration():
    from repro.solvers import GSSVM

    X = np.random.RandomState(0).randn(30, 4)
    y = np.tile([0, 1], 15)
    # refused up front from the row norms (issue 22 item 5), before any kernel value
    for cls in (GSSVM, SMO):
        with pytest.raises(ValueError, match=r"row \d+ of X gives a poly kernel value beyond float64"):
            cls(kernel="poly", degree=200, gamma=10.0).fit(X, y)


def test_a_gram_matrix_must_be_square_and_symmetric():
    X = np.random.RandomState(0).randn(12, 3)
    y = np.tile([0, 1], 6)
    K = rbf_kernel(X)
    with pytest.raises(ValueError, match="square Gram matrix"):
        SMO(kernel="precomputed").fit(K[:, :10], y)
    bad = K.copy()
    bad[2, 5] += 0.1
    with pytest.raises(ValueError, match=r"symmetric Gram matrix.*K\[2, 5\] - K\[5, 2\] = 0.1"):
        SMO(kernel="precomputed").fit(bad, y)
    assert SMO(kernel="precomputed").fit(K, y).converged_
