"""SMO(working_set='second_order'): the second solver path (issue 25).

Checked against LIBSVM (sklearn.svm.SVC), against the Keerthi path's optimum,
and on its own: warm start, multiclass, a precomputed kernel, max_iter,
shrinking on and off, a cache too small for the problem, dense = CSR.

Tolerances (decided from the theory before the first run):

* Both solvers stop on the same rule: ours when b_low - b_up < 2 tol, SVC's
  LIBSVM when m - M < eps, the same quantity (F = yG, m = -b_up, M = -b_low;
  pyx/smo.pyx), so SVC gets ``tol = 2 tol``. Neither stops at the optimum.
  What bounds the distance of each to the optimum is its own duality gap
  gap(alpha) = P(w_alpha, b) - D(alpha) >= 0 (computed below from the kernel
  matrix, with the model's own intercept): W(alpha) - W* <= gap(alpha), so two
  solutions' dual objectives differ by at most the larger of their gaps (plus
  rounding, 1e-12 relative). That is the objective test: no fitted constant.
* Support sets: the primal is 1-strongly convex in w, so 1/2 ||w_a - w*||^2 <=
  gap_a, and two models' f differ at x by at most (sqrt(2 gap_a) + sqrt(2
  gap_b)) sqrt(K(x, x)) + |b_a - b_b|. An example that is a support vector of
  one model and not of the other is on the margin of both within that amount
  plus the two KKT tolerances 2 tol each; the test checks every such example
  against this bound (degenerate examples, alpha_i = 0 with y_i f_i = 1, may
  legitimately sit in one support set and not the other).
* The gap bound is rigorous but loose at large C (it holds C times the hinge
  residual the stopping rule leaves, up to C * tol per example), so the
  LIBSVM comparison also asks for a relative agreement of the objectives of
  1e-6 (= TOL): added after the first run, which showed agreement to about
  1e-11 relative on every case, so it is a regression guard with a margin of
  1e5, not a bound derived from the theory.
"""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import linear_kernel, rbf_kernel
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from repro._kernels.smo import smo_solve_second_order
from repro.solvers._validation import KERNELS, as_columns_input, as_rows_input
from repro.solvers.smo import SMO, HardMarginSVM

TOL = 1e-6
RTOL_ROUNDING = 1e-12


# ---------------------------------------------------------------------------
# data and helpers
# ---------------------------------------------------------------------------
def separable_blobs(n=160, d=6, seed=0):
    """Two classes split by a hyperplane with a margin (so the hard-margin and
    C = 1e6 problems have a finite optimum for the linear kernel too), on a
    sparse-looking support: about half the entries are exact zeros."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(4 * n, d)) * (rng.random((4 * n, d)) < 0.5)
    w = np.ones(d) / np.sqrt(d)
    s = X @ w
    keep = np.flatnonzero(np.abs(s) > 0.25)[:n]
    X, s = X[keep], s[keep]
    return X, np.where(s > 0, 1.0, -1.0)


def overlapping_blobs(n=200, d=5, seed=1):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.4, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + 0.8 * y[:, None]
    return X, y


def gram(X, kernel, gamma):
    X = X.toarray() if sp.issparse(X) else X
    return rbf_kernel(X, gamma=gamma) if kernel == "rbf" else linear_kernel(X)


def full_dual(support, dual_coef, n):
    c = np.zeros(n)
    c[support] = np.asarray(dual_coef).ravel()
    return c


def objective_and_gap(c, intercept, K, y, C):
    """(W, gap): W = 1/2 c^T K c - sum |c| (c_i = alpha_i y_i), the dual objective
    minimised here, and gap = P(w, b) - D(alpha) with D = -W, P = 1/2 ||w||^2 +
    C sum_i max(0, 1 - y_i f(x_i)), f = K c + intercept."""
    Kc = K @ c
    quad = 0.5 * float(c @ Kc)
    W = quad - float(np.abs(c).sum())
    hinge = np.maximum(0.0, 1.0 - y * (Kc + intercept)).sum()
    P = quad + C * hinge
    return W, P + W


def ours(est, K, y):
    c = full_dual(est.support_, est.dual_coef_, len(y))
    return c, float(np.ravel(est.intercept_)[0])


def libsvm(svc, K, y):
    d = svc.dual_coef_
    d = np.asarray(d.toarray() if sp.issparse(d) else d).ravel()
    return full_dual(svc.support_, d, len(y)), float(svc.intercept_[0])


def check_same_optimum(a, b, K, y, C, tol=TOL):
    """The objective test and the support-set test of the module docstring for
    two solutions a, b = (c, intercept)."""
    Wa, ga = objective_and_gap(*a, K, y, C)
    Wb, gb = objective_and_gap(*b, K, y, C)
    assert ga >= -RTOL_ROUNDING * abs(Wa) and gb >= -RTOL_ROUNDING * abs(Wb)  # weak duality
    assert abs(Wa - Wb) <= max(ga, gb) + RTOL_ROUNDING * max(abs(Wa), abs(Wb), 1.0), \
        (Wa, Wb, ga, gb)
    sa, sb = a[0] != 0, b[0] != 0
    differ = np.flatnonzero(sa != sb)
    if differ.size:
        ga, gb = max(ga, 0.0), max(gb, 0.0)
        f_a = K @ a[0] + a[1]
        room = ((np.sqrt(2 * ga) + np.sqrt(2 * gb)) * np.sqrt(np.diag(K)[differ])
                + abs(a[1] - b[1]) + 2 * (2 * tol))
        off_margin = np.abs(y[differ] * f_a[differ] - 1.0)
        assert np.all(off_margin <= room), (differ, off_margin, room)
    return Wa, Wb


def fit_quietly(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        return est.fit(X, y)


# ---------------------------------------------------------------------------
# against LIBSVM
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("C", [1e-3, 1.0, 1e3, 1e6])
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_reaches_the_libsvm_optimum(layout, kernel, C):
    X, y = separable_blobs()
    gamma = 0.5
    Xin = sp.csr_matrix(X) if layout == "csr" else X
    est = fit_quietly(SMO(C=C, kernel=kernel, gamma=gamma, tol=TOL,
                          working_set="second_order"), Xin, y)
    assert est.converged_ and est.optimality_gap_[0] < 2 * TOL
    svc = SVC(C=C, kernel=kernel, gamma=gamma, tol=2 * TOL).fit(Xin, y)
    K = gram(X, kernel, gamma)
    W, W_svc = check_same_optimum(ours(est, K, y), libsvm(svc, K, y), K, y, C)
    assert abs(W - W_svc) <= TOL * abs(W_svc)
    # dual_objective_ is the maintained W of the same multipliers
    assert est.dual_objective_[0] == pytest.approx(W, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("C", [0.1, 10.0])
def test_overlapping_classes_against_libsvm(C):
    X, y = overlapping_blobs()
    est = fit_quietly(SMO(C=C, gamma=0.2, tol=TOL, working_set="second_order"), X, y)
    svc = SVC(C=C, gamma=0.2, tol=2 * TOL).fit(X, y)
    K = gram(X, "rbf", 0.2)
    check_same_optimum(ours(est, K, y), libsvm(svc, K, y), K, y, C)
    assert np.mean(est.predict(X) == svc.predict(X)) >= 0.99


# ---------------------------------------------------------------------------
# against the Keerthi path
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
def test_reaches_the_keerthi_optimum(kernel, C):
    X, y = overlapping_blobs(n=150) if kernel != "linear" else separable_blobs(n=120)
    kw = dict(C=C, kernel=kernel, gamma=0.2, coef0=1.0, degree=2, tol=TOL)
    second = fit_quietly(SMO(working_set="second_order", **kw), X, y)
    keerthi = fit_quietly(SMO(working_set="keerthi", kernel_cache=True, **kw), X, y)
    Xd = X
    if kernel == "poly":
        K = (0.2 * Xd @ Xd.T + 1.0) ** 2
    else:
        K = gram(Xd, kernel, 0.2)
    check_same_optimum(ours(second, K, y), ours(keerthi, K, y), K, y, C)


def test_the_second_order_path_is_the_default():
    """A user's default (issue 48); the GS-SVM paper's experiments name
    working_set='keerthi' (tests/test_experiment_settings.py)."""
    assert SMO().working_set == "second_order" and HardMarginSVM().working_set == "second_order"
    X, y = overlapping_blobs(n=80)
    a = SMO(gamma=0.05).fit(X, y)
    b = SMO(gamma=0.05, working_set="second_order").fit(X, y)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    assert a.fit_stats_ == b.fit_stats_


def test_hard_margin_second_order():
    X, y = separable_blobs(n=120)
    a = fit_quietly(HardMarginSVM(gamma=0.5, working_set="second_order"), X, y)
    b = fit_quietly(HardMarginSVM(gamma=0.5, working_set="keerthi"), X, y)
    assert a.converged_
    K = gram(X, "rbf", 0.5)
    check_same_optimum(ours(a, K, y), ours(b, K, y), K, y, 1e6, tol=1e-3)
    assert np.all(a.predict(X) == y)


# ---------------------------------------------------------------------------
# the second path on its own
# ---------------------------------------------------------------------------
def test_dense_and_csr_give_the_same_model():
    # the kernel values are bitwise equal for both layouts (pyx/smo.pyx), so the
    # whole path is: the same multipliers bitwise
    X, y = separable_blobs()
    for kernel in ("rbf", "linear"):
        a = SMO(C=10.0, kernel=kernel, gamma=0.5, working_set="second_order").fit(X, y)
        b = SMO(C=10.0, kernel=kernel, gamma=0.5, working_set="second_order").fit(
            sp.csr_matrix(X), y)
        np.testing.assert_array_equal(a.support_, b.support_)
        np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
        assert a.intercept_ == b.intercept_ and a.n_kernel_evals_ == b.n_kernel_evals_


@pytest.mark.parametrize("cache_size", [200, 0.005])
def test_shrinking_on_and_off_reach_the_same_optimum(cache_size):
    # 0.005 MB holds only a few columns of 200 examples: eviction, and columns
    # computed on a shrunk active set completed later, are exercised
    X, y = overlapping_blobs()
    K = gram(X, "rbf", 0.2)
    on = fit_quietly(SMO(C=10.0, gamma=0.2, tol=TOL, working_set="second_order",
                         cache_size=cache_size), X, y)
    off = fit_quietly(SMO(C=10.0, gamma=0.2, tol=TOL, working_set="second_order",
                          shrinking=False, cache_size=cache_size), X, y)
    check_same_optimum(ours(on, K, y), ours(off, K, y), K, y, 10.0)


def _direct(X, y, C, gamma, tol, cache_size, shrinking, alpha0=None):
    rows = as_rows_input(X)
    columns = None if rows[6] else as_columns_input(rows)
    return smo_solve_second_order(rows, y, C, KERNELS["rbf"], gamma, 0.0, 3, tol, cache_size,
                                  shrinking, 10_000_000, None, alpha0, columns, 0)


@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_shrinking_rebuilds_the_exact_gradient(layout):
    # shrinking happens (the gradient is reconstructed at least once) and the
    # returned b_up / b_low are those of F recomputed from scratch on every example
    X, y = overlapping_blobs(n=1500, d=4)
    X = sp.csr_matrix(X) if layout == "csr" else X
    alpha, b, n_iter, n_evals, converged, b_up, b_low, obj, stats = _direct(
        X, y, 10.0, 0.5, 1e-3, 0.5, True)
    assert converged and stats["n_unshrink"] >= 1 and not stats["stalled"]
    K = gram(X, "rbf", 0.5)
    F = K @ (alpha * y) - y
    up = np.where(y > 0, alpha < 10.0, alpha > 0)
    low = np.where(y > 0, alpha > 0, alpha < 10.0)
    assert F[up].min() == pytest.approx(b_up, abs=1e-9)
    assert F[low].max() == pytest.approx(b_low, abs=1e-9)
    assert obj == pytest.approx(0.5 * alpha @ (y * F - 1.0), rel=1e-12)
    assert b == 0.5 * (b_up + b_low)


def test_counts_the_kernel_values_it_computes():
    # no shrinking and a cache holding every column: each column is computed
    # once, l values (the rbf diagonal included), so the count is l times the
    # number of distinct working-set columns, between l and l * l
    X, y = overlapping_blobs(n=100)
    est = SMO(C=1.0, gamma=0.2, working_set="second_order", shrinking=False).fit(X, y)
    assert est.n_kernel_evals_ % 100 == 0 and 100 <= est.n_kernel_evals_ <= 100 * 100
    lin = SMO(C=1.0, kernel="linear", working_set="second_order", shrinking=False).fit(X, y)
    assert lin.n_kernel_evals_ % 100 == 0  # the l diagonal values, then whole columns


def test_warm_start_along_C():
    X, y = overlapping_blobs()
    K = gram(X, "rbf", 0.2)
    warm = SMO(gamma=0.2, tol=TOL, working_set="second_order", warm_start=True)
    for C in (0.1, 1.0, 10.0):
        warm.set_params(C=C)
        fit_quietly(warm, X, y)
        cold = fit_quietly(SMO(C=C, gamma=0.2, tol=TOL, working_set="second_order"), X, y)
        check_same_optimum(ours(warm, K, y), ours(cold, K, y), K, y, C)


def test_multiclass_iris():
    X, y = load_iris(return_X_y=True)
    second = fit_quietly(SMO(C=10.0, gamma=0.5, tol=TOL, working_set="second_order"), X, y)
    keerthi = fit_quietly(SMO(C=10.0, gamma=0.5, tol=TOL, working_set="keerthi", kernel_cache=True),
                          X, y)
    svc = SVC(C=10.0, gamma=0.5, tol=2 * TOL).fit(X, y)
    assert len(second.problems_) == 3 and second.converged_
    assert np.mean(second.predict(X) == svc.predict(X)) >= 0.99
    assert np.mean(second.predict(X) == keerthi.predict(X)) >= 0.99
    for p, (neg, pos) in enumerate(second.problems_):
        rows = np.flatnonzero((y == neg) | (y == pos))
        Kp = rbf_kernel(X[rows], gamma=0.5)
        yp = np.where(y[rows] == pos, 1.0, -1.0)
        # each problem's dual objective within the larger of the two gaps
        for est in (second, keerthi):
            assert est.dual_objective_[p] <= 0
        gap = max(abs(second.optimality_gap_[p]), abs(keerthi.optimality_gap_[p]))
        assert gap < 2 * TOL
        n = len(rows)
        bound = 2 * 2 * TOL * 10.0 * n  # W - W* <= l C (b_low - b_up) at a 2 tol point
        assert abs(second.dual_objective_[p] - keerthi.dual_objective_[p]) <= bound


def test_precomputed_kernel_gives_the_rbf_model():
    X, y = overlapping_blobs()
    K = gram(X, "rbf", 0.2)
    a = fit_quietly(SMO(C=3.0, kernel="precomputed", tol=TOL, working_set="second_order"), K, y)
    b = fit_quietly(SMO(C=3.0, gamma=0.2, tol=TOL, working_set="second_order"), X, y)
    check_same_optimum(ours(a, K, y), ours(b, K, y), K, y, 3.0)
    assert a.n_kernel_evals_ == len(y)  # the diagonal only: the Gram rows are the columns
    np.testing.assert_array_equal(a.predict(K), b.predict(X))


def test_max_iter_stops_unconverged_with_a_warning():
    X, y = overlapping_blobs()
    est = SMO(C=10.0, gamma=0.2, working_set="second_order", max_iter=5)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        est.fit(X, y)
    assert est.converged_ is False or not np.all(est.converged_)
    assert est.n_iter_ == 5
    assert est.optimality_gap_[0] > 2 * est.tol


def test_a_step_below_rounding_ends_unconverged():
    # C ~ 1e15 with contradictory duplicates at tol ~ 1e-12: the multipliers grow
    # to ~1e15, where the selected pair's step no longer changes them; the solve
    # ends there (instead of repeating the pair up to max_iter) and says so.
    # The data are drawn as in the search that found the case (trial 85 of seed 0).
    rng = np.random.default_rng(0)
    for _ in range(86):
        X = rng.normal(size=(40, 2))
        y = np.where(rng.random(40) < 0.5, 1.0, -1.0)
        y[0], y[1] = 1.0, -1.0
        X[1] = X[0]
        C, tol = 10.0 ** rng.uniform(8, 17), 10 ** rng.uniform(-12, -6)
        rng.choice(["linear", "rbf"])
    est = SMO(C=C, gamma=0.5, tol=tol, working_set="second_order")
    with pytest.warns(ConvergenceWarning, match="rounding of the multipliers"):
        est.fit(X, y)
    assert not est.converged_ and est.n_iter_ < est.max_iter
    assert est.optimality_gap_[0] > 2 * tol


def test_history_ends_at_the_final_objective():
    X, y = overlapping_blobs()
    est = SMO(C=10.0, gamma=0.2, working_set="second_order", history_every=10).fit(X, y)
    it = est.history_["iteration"]
    assert it[-1] == est.n_iter_ and np.all(np.diff(it) > 0)
    assert est.history_["objective"][-1] == pytest.approx(est.dual_objective_[0], rel=1e-9)
    assert np.all(np.diff(est.history_["objective"]) <= 1e-9 * abs(est.dual_objective_[0]))


# scikit-learn's estimator contract for the second path (tests/estimators.py's
# registry holds the default paths; it is kept as it is here)
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks([SMO(working_set="second_order"),
                          HardMarginSVM(working_set="second_order")])
def test_sklearn_compatible_second_order(estimator, check):
    check(estimator)


@pytest.mark.parametrize("converge", [False, True])
def test_the_threshold_is_the_free_examples_mean_when_stopped_early_and_the_midpoint_when_converged(converge):
    """A hard margin on overlapping classes stopped at a step cap: b is LIBSVM's
    rho, the mean F over the free examples (the midpoint of [b_up, b_low] is set
    by the two worst violators); converged, the midpoint (every free F within 2 tol)."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=200, n_features=5, flip_y=0.2, random_state=1)
    s = np.where(y == 1, 1.0, -1.0)
    C = 1e6 if not converge else 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        alpha, b, _, _, converged, b_up, b_low, _, _ = smo_solve_second_order(
            as_rows_input(X), s, C, KERNELS["rbf"], 0.5, 0.0, 3, 1e-3, 100.0, True,
            200 if not converge else 10**6, None)
    assert converged == converge
    F = rbf_kernel(X, gamma=0.5) @ (alpha * s) - s
    free = (alpha > 0) & (alpha < C)
    assert free.any()
    if converge:
        assert b == 0.5 * (b_up + b_low) and np.ptp(F[free]) <= 2e-3 + 1e-9
    else:
        assert b_low - b_up > 1.0 and b == pytest.approx(F[free].mean(), rel=1e-9, abs=1e-9)
        assert b != pytest.approx(0.5 * (b_up + b_low))


def _base_loop(estimator):
    """``estimator`` with the base class's per-problem loop instead of SMO's
    one-call path (``_OneCallMixin``)."""
    from repro.solvers.base import BaseSVMClassifier

    estimator._solve_problems = lambda X, y_idx, gram: BaseSVMClassifier._solve_problems(
        estimator, X, y_idx, gram)
    return estimator


@pytest.mark.parametrize("make", [
    lambda: SMO(C=1.0, gamma=0.5, working_set="second_order", history_every=100),
    lambda: SMO(C=100.0, gamma=0.5, working_set="second_order", shrinking=False,
                history_every=None),
    lambda: SMO(C=1.0, kernel="poly", gamma=0.1, coef0=1.0, working_set="second_order",
                history_every=100),
    lambda: HardMarginSVM(gamma=0.05, working_set="second_order", max_iter=3000,
                          history_every=100),
], ids=["rbf", "no-shrinking-no-trace", "poly", "hard-margin-capped"])
def test_one_call_one_vs_one_is_the_per_problem_loop_bitwise(make):
    """SMO's one-vs-one problems solved in one Cython call give what the base's
    loop gives, to the last bit: the same rows, multipliers, thresholds, steps,
    kernel counts, traces and warnings (4 classes, one of them small)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(130, 4))
    y = np.repeat(np.array([3, 0, 7, 1]), [40, 35, 45, 10])
    X[y == 7] += 0.7
    with warnings.catch_warnings(record=True) as one:
        warnings.simplefilter("always")
        a = make().fit(X, y)
    with warnings.catch_warnings(record=True) as loop:
        warnings.simplefilter("always")
        b = _base_loop(make()).fit(X, y)
    assert [str(w.message) for w in one] == [str(w.message) for w in loop]
    assert len(a.problems_) == 6
    for name in ("intercept_", "n_iter_", "n_support_", "dual_objective_", "optimality_gap_",
                 "n_kernel_evals_", "converged_", "n_unconverged_problems_"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    for u, v in zip(a.support_ + a.dual_coef_ + a.support_vectors_,
                    b.support_ + b.dual_coef_ + b.support_vectors_):
        assert np.array_equal(u, v)
    for name in ("problem", "iteration", "objective"):  # time differs, of course
        assert np.array_equal(a.history_[name], b.history_[name]), name
    assert np.array_equal(a.decision_function(X), b.decision_function(X))


def test_one_call_warm_start_is_the_per_problem_loop():
    X, y = load_iris(return_X_y=True)
    a = SMO(gamma=0.5, working_set="second_order", warm_start=True)
    b = _base_loop(SMO(gamma=0.5, working_set="second_order", warm_start=True))
    for C in (0.1, 1.0, 10.0):
        a.set_params(C=C).fit(X, y)
        b.set_params(C=C).fit(X, y)
        assert np.array_equal(a.n_iter_, b.n_iter_) and np.array_equal(a.intercept_, b.intercept_)
    assert a.n_iter_.sum() < SMO(C=10.0, gamma=0.5, working_set="second_order").fit(X, y).n_iter_.sum()


def test_alpha_summary_against_numpy():
    from repro._kernels.smo import alpha_summary

    rng = np.random.default_rng(0)
    alpha = np.where(rng.uniform(size=50) < 0.4, 0.0, rng.uniform(0, 2, 50))
    y = np.where(rng.uniform(size=50) < 0.5, 1.0, -1.0)
    lo, hi, balance, total, support, dual = alpha_summary(alpha, y)
    assert (lo, hi) == (alpha.min(), alpha.max())
    assert balance == pytest.approx(np.dot(y, alpha), abs=1e-12)
    assert total == pytest.approx(alpha.sum(), rel=1e-14)
    assert np.array_equal(support, np.flatnonzero(alpha > 0))
    assert np.array_equal(dual, alpha[support] * y[support])
    alpha[7] = np.nan
    lo, hi = alpha_summary(alpha, y)[:2]
    assert np.isnan(lo) and np.isnan(hi)
    alpha[7] = np.inf
    assert alpha_summary(alpha, y)[1] == np.inf


def test_the_one_call_kernel_refuses_labels_that_do_not_match_the_rows():
    from repro._kernels.smo import smo_solve_second_order_pairs

    X = np.random.default_rng(0).normal(size=(6, 2))
    with pytest.raises(ValueError, match="5 labels for 6 rows"):
        smo_solve_second_order_pairs(as_rows_input(X), np.zeros(5, dtype=np.intp), [(0, 1)], 1.0,
                                     KERNELS["rbf"], 0.5, 0.0, 3, 1e-3, 10.0, True, 100, [None],
                                     [None], 0)


def _reference_steps(K, y, C, tol, max_steps):
    """The second-order path without shrinking, step by step in NumPy: WSS 2
    (i the first minimum of F over I_up, j the last minimum of -(F_t - b_up)^2
    / a_it over I_low with F_t > b_up, a_it <= 0 replaced by tau) and the
    clipped two-variable step, each value formed by the same operations in
    the same order as pyx/smo.pyx, so the multipliers must agree bitwise. An
    independent reading of Fan, Chen and Lin's WSS 2: the kernel's shortcuts
    (its fused scans, the division it skips for a candidate that cannot win,
    its index-set flags) are none of them here."""
    tau = 1e-12
    alpha, F, kd = np.zeros(len(y)), -y.copy(), np.diag(K).copy()
    for step in range(max_steps):
        up = np.where(y > 0, alpha < C, alpha > 0)
        low = np.where(y > 0, alpha > 0, alpha < C)
        i = int(np.flatnonzero(up)[np.argmin(F[up])])
        b_up, b_low = F[i], F[low].max()
        if b_up > b_low - 2.0 * tol:
            return alpha, step, True
        diff = F - b_up
        quad = (K[i, i] + kd) - 2.0 * K[i]
        quad = np.where(quad <= 0.0, tau, quad)
        o = np.where(low & (diff > 0.0), (-diff * diff) / quad, np.inf)
        j = int(np.flatnonzero(o == o.min())[-1])
        q = (kd[i] + kd[j]) - 2.0 * K[i, j]
        s = (F[j] - F[i]) / (q if q > 0.0 else tau)
        room_i = C - alpha[i] if y[i] > 0 else alpha[i]
        room_j = alpha[j] if y[j] > 0 else C - alpha[j]
        if s >= room_i or s >= room_j:
            if room_i <= room_j:
                s = room_i
                ni = C if y[i] > 0 else 0.0
                nj = (0.0 if y[j] > 0 else C) if room_j == room_i else alpha[j] - y[j] * s
            else:
                s = room_j
                nj = 0.0 if y[j] > 0 else C
                ni = alpha[i] + y[i] * s
        else:
            ni, nj = alpha[i] + y[i] * s, alpha[j] - y[j] * s
        ni, nj = min(max(ni, 0.0), C), min(max(nj, 0.0), C)
        ci, cj = y[i] * (ni - alpha[i]), y[j] * (nj - alpha[j])
        alpha[i], alpha[j] = ni, nj
        F = F + (ci * K[i] + cj * K[j])
    return alpha, max_steps, False


@pytest.mark.parametrize("max_steps", [40, 3000])
@pytest.mark.parametrize("C", [0.5, 10.0, 1e6])
@pytest.mark.parametrize("duplicates", [False, True])
def test_steps_equal_an_independent_numpy_reading_bitwise(C, duplicates, max_steps):
    # duplicated rows make exact ties in both selections (the tie rules are
    # part of the path), duplicates with the other label pairs that end at C
    # (C = 1e6 is HardMarginSVM's); 40 steps stop before the optimum
    X, y = overlapping_blobs(n=80)
    if duplicates:
        X[40:60], y[40:60] = X[:20], y[:20]
        X[60:66], y[60:66] = X[:6], -y[:6]
    K = rbf_kernel(X, gamma=0.5)
    alpha, _, n_iter, _, converged, _, _, _, _ = smo_solve_second_order(
        as_rows_input(K, gram=True), y, C, KERNELS["precomputed"], 0.0, 0.0, 3, 1e-3, 100.0,
        False, max_steps, None)
    ref_alpha, ref_steps, ref_converged = _reference_steps(K, y, C, 1e-3, max_steps)
    assert (n_iter, converged) == (ref_steps, ref_converged)
    np.testing.assert_array_equal(alpha, ref_alpha)
