"""LinearSVM (dual coordinate descent) against LIBLINEAR and its own duality gap."""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
import scipy.sparse as sp
from sklearn.svm import LinearSVC

from repro.datasets import load
from repro.objectives import hinge_primal, kernel_dual
from repro.solvers import LinearSVM


def primal(X, y_pm, w, b, C):
    return hinge_primal(w, X, y_pm, C, b)


def as_pm(y, positive):
    return np.where(y == positive, 1.0, -1.0)


@pytest.fixture(scope="module", params=["a1a", "heart_scale"])
def dataset(request, data_env):
    X, y = load(request.param)
    return request.param, X, y


def liblinear_reference(X, y, C, tol):
    """LIBLINEAR's -s 3 (L1-loss dual CD) through scikit-learn's bundled copy,
    whose iteration cap can be raised so that its objective settles; the
    liblinear-official binding stops at a hard-coded 1000 passes, where on a1a
    the objective is still 2e-4 above the optimum (see test below)."""
    Xc = sp.csr_matrix(X)
    Xc.indices = Xc.indices.astype(np.int32)
    Xc.indptr = Xc.indptr.astype(np.int32)
    return LinearSVC(loss="hinge", dual=True, C=C, fit_intercept=False,
                     tol=tol, max_iter=1_000_000).fit(Xc, y)


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_primal_objective_matches_settled_liblinear(dataset, C):
    name, X, y = dataset
    ours = LinearSVM(C=C, fit_intercept=False, tol=1e-6, max_iter=100_000).fit(X, y)
    ref = liblinear_reference(X, y, C, tol=1e-6)
    y_pm = as_pm(y, ours.classes_[1])
    p_ours = primal(X, y_pm, ours.coef_[0], 0.0, C)
    p_ref = primal(X, y_pm, ref.coef_[0], 0.0, C)
    assert ours.converged_
    assert abs(p_ours - p_ref) <= 1e-4 * p_ref, (name, p_ours, p_ref)


def test_never_worse_than_liblinear_official(dataset):
    """The official binding (capped at 1000 passes) is an upper bound on the optimum."""
    from liblinear import liblinearutil

    name, X, y = dataset
    C = 1.0
    y_pm = as_pm(y, np.unique(y)[1])
    model = liblinearutil.train(liblinearutil.problem(y_pm.tolist(), sp.csr_matrix(X)),
                                liblinearutil.parameter(f"-s 3 -c {C} -e 1e-4 -q"))
    sign = 1.0 if model.get_labels()[0] == 1 else -1.0
    w_ll = sign * np.array([model.w[i] for i in range(X.shape[1])])
    ours = LinearSVM(C=C, fit_intercept=False, tol=1e-6, max_iter=100_000).fit(X, y)
    assert primal(X, y_pm, ours.coef_[0], 0.0, C) <= primal(X, y_pm, w_ll, 0.0, C) * (1 + 1e-9)


def test_duality_gap_certifies_optimum(dataset):
    name, X, y = dataset
    C = 1.0
    m = LinearSVM(C=C, fit_intercept=True, tol=1e-6, max_iter=100_000, history_every=1).fit(X, y)
    y_pm = as_pm(y, m.classes_[1])
    w, b = m.coef_[0], m.intercept_[0]
    # with the intercept regularised as the weight of a constant-1 feature
    p = primal(X, y_pm, w, b, C) + 0.5 * b * b
    alpha = m.dual_coef_[0] * y_pm
    Xb = np.hstack([np.asarray(sp.csr_matrix(X).todense()), np.ones((X.shape[0], 1))])  # the bias feature
    d = -kernel_dual(alpha, Xb @ Xb.T, y_pm)  # from the multipliers, not the solver's own report
    assert d == pytest.approx(-m.history_["objective"][-1], rel=1e-9)
    assert np.all(alpha >= -1e-12) and np.all(alpha <= C + 1e-12)
    np.testing.assert_allclose(np.asarray(X.T @ (alpha * y_pm)).ravel(), w, atol=1e-8)
    assert 0 <= p - d <= 1e-4 * p


def test_dense_and_sparse_give_the_same_model(data_env):
    X, y = load("heart_scale")
    Xd = X.toarray() if sp.issparse(X) else X
    a = LinearSVM(C=0.5, random_state=3).fit(Xd, y)
    b = LinearSVM(C=0.5, random_state=3).fit(sp.csr_matrix(Xd), y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-12, atol=1e-12)
    assert a.n_iter_ == b.n_iter_


def test_history_is_a_monotone_dual_trace(data_env):
    X, y = load("heart_scale")
    m = LinearSVM(C=1.0, tol=1e-5, max_iter=100_000, history_every=1).fit(X, y)
    assert m.converged_
    h = m.history_
    assert len(h["iteration"]) == m.n_iter_
    assert np.all(np.diff(h["time"]) >= 0)
    # coordinate descent never increases the dual objective
    assert np.all(np.diff(h["objective"]) <= 1e-9 * np.abs(h["objective"][:-1]) + 1e-12)


def test_max_iter_reached_is_reported():
    X, y = np.random.default_rng(0).normal(size=(200, 5)), np.r_[np.zeros(100), np.ones(100)]
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        m = LinearSVM(C=100.0, tol=1e-12, max_iter=3).fit(X, y)
    assert m.n_iter_ == 3 and not m.converged_


def test_random_state_none_draws_a_seed_from_the_global_state():
    X, y = np.random.default_rng(1).normal(size=(300, 5)), np.r_[np.zeros(150), np.ones(150)]
    fit = lambda rs: LinearSVM(C=10.0, tol=1e-1, random_state=rs).fit(X, y).coef_  # noqa: E731
    np.testing.assert_array_equal(fit(4), fit(4))
    np.random.seed(0)
    a = fit(None)
    np.random.seed(0)
    np.testing.assert_array_equal(fit(None), a)  # reproducible through np.random.seed
    assert not np.array_equal(fit(None), a)      # and not a fixed seed


@pytest.mark.parametrize("name", ["a1a", "heart_scale"])
def test_defaults_converge_close_to_the_optimum(data_env, name):
    """The defaults (LIBLINEAR's tol = 0.1 for -s 3, 1000 passes) converge
    without a warning on the papers' data, and the primal they leave is within
    2e-3 (relative) of a tight solve (measured: 5e-4 on a1a, 9e-4 on
    heart_scale; see the tol entry of the LinearSVM docstring)."""
    X, y = load(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        default = LinearSVM().fit(X, y)
    tight = LinearSVM(tol=1e-6, max_iter=100_000).fit(X, y)
    assert default.converged_ and tight.converged_
    y_pm = as_pm(y, default.classes_[1])
    # the intercept is a regularised weight (intercept_scaling = 1)
    p_default, p_tight = (primal(X, y_pm, m.coef_[0], m.intercept_[0], 1.0) + 0.5 * m.intercept_[0] ** 2
                          for m in (default, tight))
    assert 0.0 <= p_default - p_tight <= 2e-3 * p_tight


def test_defaults_still_warn_on_unscaled_data(data_env):
    """Real non-convergence keeps its warning at the defaults: fourclass as
    published (features up to 190) is still far from the stopping rule after
    1000 passes (and after 200,000), and converges in 39 once scaled."""
    X, y = load("fourclass")
    with pytest.warns(ConvergenceWarning, match="max_iter=1000 passes"):
        m = LinearSVM().fit(X, y)
    assert not m.converged_
