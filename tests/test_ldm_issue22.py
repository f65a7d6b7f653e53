"""Issue 22, items 8, 10 and 11: the reproducers of the LDM estimators and
their baselines, kept as regression tests.

* item 8: KM-OMD's stopping rule is relative to the Frank-Wolfe gap at the
  uniform start (scale-invariant); the linear kernel works with X w products
  (no m x m Gram); the committed LDM tables keep the earlier rule by name
  (``stop='legacy'``);
* item 10: C overflowing ASGD's 1/(mC), a non-finite kernel parameter and CSR
  with int64 indices give a ValueError naming the parameter, or are accepted;
* item 11: ASGD (a fixed-epoch method) does not claim convergence.
"""
import time
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning

from repro.solvers import ASGDSVM, KMOMD, LDM, MAMC, SVM
from repro.solvers import ldm_baselines
from repro.solvers.base import check_kernel_parameters


def heart():
    from repro.datasets import load

    X, y = load("heart_scale")
    X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
    return X, np.where(y == np.unique(y)[1], 1.0, -1.0)


def small():
    X, y = make_classification(n_samples=60, n_features=4, n_informative=2, n_redundant=0,
                               flip_y=0.1, random_state=3)
    return X, np.where(y == 1, 1.0, -1.0)


# -- item 8: KM-OMD --------------------------------------------------------------
def test_kmomd_lam0_is_scale_invariant_on_heart(data_env):
    """The reproducer: at lam = 0 the problem is scale-invariant; the earlier
    rule stopped the fit on heart_scale * 1e-4 after 8 steps (objective 4.1e-10, the
    optimum 2.9e-20) and it agreed with the unscaled fit on 55.6 % of rows."""
    X, y = heart()
    ref = KMOMD(lam=0, kernel="linear").fit(X, y)
    small_ = KMOMD(lam=0, kernel="linear").fit(X * 1e-4, y)
    assert ref.converged_ and small_.converged_
    assert small_.n_iter_ > 100  # not stopped by an absolute threshold
    assert abs(small_.n_iter_ - ref.n_iter_) <= 2
    assert np.mean(ref.predict(X) == small_.predict(X * 1e-4)) == 1.0
    # lam = 0, linear: the objective is ||w||^2 (the hulls' distance), near the
    # optimum's ~0 relative to the uniform start's, in either unit
    g0 = np.where(y > 0, 1.0 / (y > 0).sum(), 1.0 / (y < 0).sum())
    start = np.sum((X.T @ (y * g0)) ** 2)
    assert ref.coef_[0] @ ref.coef_[0] <= 1e-7 * start
    assert small_.coef_[0] @ small_.coef_[0] <= 1e-7 * start * 1e-8
    # the legacy rule, kept for the committed tables, is the absolute one
    legacy = KMOMD(lam=0, kernel="linear", stop="legacy").fit(X * 1e-4, y)
    assert legacy.n_iter_ < 20


@pytest.mark.parametrize("scale", [1e-4, 1.0, 1e4])
def test_kmomd_iterates_do_not_depend_on_the_units(scale):
    """lam = 0: scaling X by s scales Q and every gap by s^2 (lam > 0 adds a
    ridge that does not scale: that problem depends on the units)."""
    X, y = small()
    ref = KMOMD(lam=0.0, kernel="linear").fit(X, y)
    fit = KMOMD(lam=0.0, kernel="linear").fit(X * scale, y)
    assert abs(fit.n_iter_ - ref.n_iter_) <= 2
    np.testing.assert_array_equal(fit.predict(X * scale), ref.predict(X))


def _qp(X, y, lam, K=None):
    pos = y > 0
    m = len(y)
    K = X @ X.T if K is None else K
    return (1 - lam) * y[:, None] * K * y[None, :] + lam * pos.sum() * (~pos).sum() / m * np.eye(m)


@pytest.mark.parametrize("sparse", [False, True])
def test_kmomd_linear_factored_form_reaches_the_gram_forms_optimum(sparse):
    """The linear kernel's X w form against the Gram form (precomputed K = XX')
    and the optimum's objective, dense and CSR alike."""
    X, y = small()
    lam = 0.2
    Q = _qp(X, y, lam)
    gram = KMOMD(lam=lam, kernel="precomputed", tol=1e-12, max_iter=200_000).fit(X @ X.T, y)
    lin = KMOMD(lam=lam, kernel="linear", tol=1e-12, max_iter=200_000).fit(
        sp.csr_matrix(X) if sparse else X, y)
    assert gram.converged_ and lin.converged_
    g = np.zeros(len(y))
    g[gram.support_] = np.abs(gram.dual_coef_)
    np.testing.assert_allclose(lin.coef_[0], X.T @ (y * g), rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(lin.intercept_, gram.intercept_, rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(lin.decision_function(X), gram.decision_function(X @ X.T),
                               rtol=1e-5, atol=1e-8)
    assert g @ Q @ g == pytest.approx(lin.coef_[0] @ lin.coef_[0] * (1 - lam)
                                      + (g @ g) * lam * (y > 0).sum() * (y < 0).sum() / len(y),
                                      rel=1e-6)


def test_kmomd_linear_never_forms_the_gram_matrix(monkeypatch):
    """kernel='linear' calls no kernel_matrix and stays O(nnz) per step: a
    20,000-row sparse problem (the Gram would take 3.2 GB) fits in seconds."""
    def refuse(*args, **kwargs):
        raise AssertionError("kernel_matrix called for the linear KM-OMD")

    monkeypatch.setattr(ldm_baselines, "kernel_matrix", refuse)
    rng = np.random.default_rng(0)
    X = sp.random(20_000, 50, density=0.05, format="csr", random_state=1)
    y = np.where(X @ rng.normal(size=50) + 0.01 * rng.normal(size=20_000) > 0, 1.0, -1.0)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = KMOMD(lam=0.1, kernel="linear", max_iter=500).fit(X, y)
    assert time.perf_counter() - start < 60
    assert model.n_iter_ >= 1 and np.all(np.isfinite(model.coef_))


def test_kmomd_stops_at_its_relative_gap():
    """The recorded gap is at most tol times the start's gap, and a tighter tol
    takes more steps (the rule is the stopping criterion, not the cap)."""
    X, y = small()
    loose = KMOMD(lam=0.1, kernel="rbf", gamma=0.5, tol=1e-4).fit(X, y)
    tight = KMOMD(lam=0.1, kernel="rbf", gamma=0.5, tol=1e-10).fit(X, y)
    assert loose.converged_ and tight.converged_ and tight.n_iter_ > loose.n_iter_


def test_kmomd_unconverged_says_so():
    X, y = small()
    with pytest.warns(ConvergenceWarning, match="max_iter=3 steps.*of the start's"):
        model = KMOMD(lam=0.0, kernel="linear", max_iter=3).fit(X, y)
    assert not model.converged_


# -- item 10: clear errors -------------------------------------------------------
@pytest.mark.parametrize("make", [lambda: ASGDSVM(C=1e307), lambda: LDM(solver="asgd", C=1e307),
                                  lambda: ASGDSVM(C=5e-324)])
def test_asgd_refuses_a_c_that_overflows_its_step(make):
    X, y = small()
    with pytest.raises(ValueError, match="C=.*out of range for ASGD"):
        make().fit(X, y)


@pytest.mark.parametrize("cls", [KMOMD, MAMC, SVM, LDM])
@pytest.mark.parametrize("param, value", [("coef0", np.nan), ("coef0", np.inf), ("gamma", np.inf)])
def test_non_finite_kernel_parameters_are_refused_at_fit(cls, param, value):
    """KMOMD(kernel='poly', coef0=nan) ended in a LinAlgError, MAMC fitted and
    failed only at predict."""
    X, y = small()
    est = cls(kernel="poly", **{param: value})
    with pytest.raises(ValueError, match=f"'{param}' parameter of {cls.__name__}"):
        est.fit(X, y)


@pytest.mark.parametrize("kernel, fit_intercept", [("linear", True), ("linear", False),
                                                   ("rbf", True), ("rbf", False)])
def test_svm_accepts_csr_with_int64_indices(kernel, fit_intercept):
    X, y = small()
    X64 = sp.csr_matrix(X)
    X64.indices, X64.indptr = X64.indices.astype(np.int64), X64.indptr.astype(np.int64)
    fit64 = SVM(kernel=kernel, fit_intercept=fit_intercept, max_iter=100_000).fit(X64, y)
    ref = SVM(kernel=kernel, fit_intercept=fit_intercept, max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(fit64.decision_function(X64), ref.decision_function(X),
                               rtol=1e-8, atol=1e-10)


# -- item 11: ASGD does not claim convergence -----------------------------------
@pytest.mark.parametrize("make", [lambda: ASGDSVM(random_state=0),
                                  lambda: LDM(solver="asgd", random_state=0)])
def test_asgd_is_a_fixed_epoch_method_and_claims_no_convergence(make):
    X, y = small()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ConvergenceWarning: no limit was reached
        model = make().fit(X, y)
    assert model.converged_ is False and model.n_unconverged_problems_ == 1
    assert model.n_iter_ == model.n_epochs * len(y)
    # multiclass: every one-vs-one problem counted
    Xm, ym = make_classification(n_samples=90, n_features=4, n_informative=3, n_redundant=0,
                                 n_classes=3, random_state=0)
    multi = make().fit(Xm, ym)
    assert multi.converged_ is False and multi.n_unconverged_problems_ == 3


def test_ldm_cd_still_reports_its_test():
    X, y = small()
    assert LDM(solver="cd").fit(X, y).converged_ is True


@pytest.mark.parametrize("cls", [KMOMD, MAMC, SVM, LDM])
def test_the_kernel_parameter_check_covers_the_ldm_estimators(cls):
    """The one check every fit runs (base.check_kernel_parameters; the LDM
    paper's estimators had a second copy of it, removed)."""
    for param, value in [("coef0", np.nan), ("coef0", -np.inf), ("gamma", np.nan)]:
        with pytest.raises(ValueError, match=f"'{param}' parameter of {cls.__name__}"):
            check_kernel_parameters(cls(kernel="poly", **{param: value}))
    check_kernel_parameters(cls(kernel="poly", coef0=1.0, gamma=0.5))


def _legacy_gram_reference(K, y, lam, tol, max_iter):
    """The earlier stop='legacy' solver as it was (commit 7ea5665), the Gram
    form with every product recomputed: the reference the factored legacy
    path must reproduce. Returns (g, n_iter, converged)."""
    m = len(y)
    pos, neg = y > 0, y < 0
    Q = (1.0 - lam) * (y[:, None] * K * y[None, :])
    Q[np.diag_indices(m)] += lam * pos.sum() * neg.sum() / m

    def project(v):
        out = np.empty_like(v)
        out[pos] = ldm_baselines.project_simplex(v[pos])
        out[neg] = ldm_baselines.project_simplex(v[neg])
        return out

    step = 1.0 / (2.0 * np.linalg.eigvalsh(Q)[-1])
    g = np.where(pos, 1.0 / pos.sum(), 1.0 / neg.sum())
    z, t, n_iter = g.copy(), 1.0, 0
    while n_iter < max_iter:
        grad_g = 2.0 * Q @ g
        if grad_g @ g - grad_g[pos].min() - grad_g[neg].min() <= tol * max(1.0, abs(g @ Q @ g)):
            return g, n_iter, True
        n_iter += 1
        g_next = project(z - step * 2.0 * Q @ z)
        t_next = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
        z = g_next + (t - 1.0) / t_next * (g_next - g)
        if g_next @ Q @ g_next > g @ Q @ g:
            z, t_next = g.copy(), 1.0
            g_next = project(g - step * grad_g)
        g, t = g_next, t_next
    return g, n_iter, False


@pytest.mark.parametrize("lam", [1 / 11, 1 / 101])  # the LDM tables' C = 10 and 100
@pytest.mark.parametrize("sparse", [False, True])
def test_kmomd_legacy_factored(data_env, lam, sparse):
    """Issue 25: stop='legacy' with the linear kernel works with X'(Yg)
    products, never the m x m Gram matrix, and reaches the earlier Gram-form
    solver's solution to its tolerance (heart_scale: objective, weights,
    threshold, every training prediction). The step counts are not compared:
    where momentum restarts fall moves with rounding (heart_scale, lam 1/11,
    1/51, 1/101: 459, 446, 517 steps in the Gram form, 579, 424, 448 here)."""
    X, y = heart()
    g_ref, n_ref, conv_ref = _legacy_gram_reference(X @ X.T, y, lam, 1e-8, 100_000)
    model = KMOMD(lam=lam, kernel="linear", stop="legacy", tol=1e-8, max_iter=100_000).fit(
        sp.csr_matrix(X) if sparse else X, y)
    assert conv_ref and model.converged_
    w_ref = X.T @ (y * g_ref)
    np.testing.assert_allclose(model.coef_[0], w_ref, rtol=1e-4, atol=1e-6 * np.abs(w_ref).max())
    b_ref = -0.5 * float((X.T @ g_ref) @ w_ref)
    assert model.intercept_[0] == pytest.approx(b_ref, rel=1e-4, abs=1e-8)
    np.testing.assert_array_equal(np.sign(model.decision_function(X)), np.sign(X @ w_ref + b_ref))


def test_kmomd_legacy_factored_never_forms_the_gram(monkeypatch):
    """The linear legacy path never calls the kernel matrix."""
    X, y = small()
    monkeypatch.setattr(ldm_baselines.KMOMD, "_gram",
                        lambda self, X: pytest.fail("the m x m Gram matrix was formed"))
    assert KMOMD(lam=0.1, kernel="linear", stop="legacy").fit(X, y).converged_
