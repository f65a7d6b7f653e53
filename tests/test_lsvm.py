"""LSVM (lsvm_section3.txt): optimality (12), its primal (7) solved independently,
the SMW path against the printed recurrence with Q formed, the rate (20), the
kernel path, the refusals and the convergence report."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.datasets import load_iris
from sklearn.exceptions import ConvergenceWarning

from repro.kernels import kernel_matrix
from repro.objectives import lsvm_dual, squared_hinge_primal
from repro.solvers import LSVM
from repro.solvers.lsvm import lsvm_kernel, lsvm_linear


def make_data(m=150, n=6, seed=0, sparse=False):
    """Two overlapping classes (a noisy linear rule): some slacks positive."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(m, n))
    if sparse:
        A[rng.random((m, n)) < 0.6] = 0.0
    d = np.sign(A @ rng.normal(size=n) + 0.5 + 0.7 * rng.normal(size=m))
    d[d == 0] = 1.0
    return (sp.csr_matrix(A) if sparse else A), d


def explicit_Q(A, d, nu):
    """Q = I/nu + HH' of (10), H = D[A -e], formed (small m only)."""
    A = A.toarray() if sp.issparse(A) else A
    H = d[:, None] * np.hstack([A, -np.ones((len(d), 1))])
    return np.eye(len(d)) / nu + H @ H.T


def printed_lsvm(Q, nu, alpha, n_iter):
    """Iteration (15) as printed in Code 2: Qu recomputed every iteration,
    Q^{-1} applied by a dense solve, from u^0 = Q^{-1} e."""
    e = np.ones(Q.shape[0])
    u = np.linalg.solve(Q, e)
    for _ in range(n_iter):
        u = np.linalg.solve(Q, e + np.maximum((Q @ u - e) - alpha * u, 0.0))
    return u


def primal_by_lbfgs(A, d, nu):
    """(w, gamma) minimising the primal (7) (squared slacks, penalised bias) by
    L-BFGS-B on its smooth (C^1) form, independently of the LSVM code."""
    n = A.shape[1]

    def fun(x):
        w, g = x[:n], x[n]
        s = np.maximum(0.0, 1.0 - d * (np.asarray(A @ w).ravel() - g))
        grad_w = w - nu * np.asarray(A.T @ (d * s)).ravel()
        grad_g = g + nu * (d @ s)
        return 0.5 * nu * s @ s + 0.5 * (w @ w + g * g), np.append(grad_w, grad_g)

    res = minimize(fun, np.zeros(n + 1), jac=True, method="L-BFGS-B",
                   options={"maxiter": 100_000, "ftol": 1e-16, "gtol": 1e-12})
    return res.x[:n], res.x[n]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("nu", [1.0, 0.05])
def test_kkt_of_12_at_the_solution(sparse, nu):
    """0 <= u _|_ Qu - e >= 0 to the tolerance. With the step delta = u^{i+1} -
    u^i of the last iteration, (15) gives min(Qu^{i+1} - e, alpha u^{i+1}) =
    min(a_+, a_- + (alpha I - Q) delta) with min(a_+, a_-) = 0, so each entry of
    min(Qu - e, alpha u) is at most ||(alpha I - Q)|| ||delta|| in size."""
    A, d = make_data(sparse=sparse)
    alpha, tol = 1.9 / nu, 1e-5
    w, gamma, u, n_iter, step = lsvm_linear(A, d, nu, alpha, tol, 10_000)
    assert step <= tol and n_iter > 1
    Q = explicit_Q(A, d, nu)
    r = Q @ u - 1.0
    bound = np.linalg.norm(alpha * np.eye(len(d)) - Q, 2) * step + 1e-10
    assert u.min() >= -bound / alpha
    assert r.min() >= -bound
    assert np.abs(np.minimum(r, alpha * u)).max() <= bound
    assert np.abs(u * r).max() <= bound * max(np.abs(r).max(), np.abs(u).max())
    # the model is the one (9) gives from u
    A_dense = A.toarray() if sp.issparse(A) else A
    np.testing.assert_allclose(w, A_dense.T @ (d * u), rtol=0, atol=1e-12 * np.abs(w).max())
    assert gamma == pytest.approx(-(d @ u), rel=1e-12)


def test_kkt_of_12_kernel_path():
    A, d = make_data(m=120)
    nu, tol = 1.0, 1e-6
    est = LSVM(kernel="rbf", gamma=0.3, nu=nu, tol=tol, max_iter=10_000).fit(A, d)
    K = kernel_matrix(A, kernel="rbf", gamma=0.3)
    Q = np.eye(len(d)) / nu + d[:, None] * (K + 1.0) * d[None, :]
    alpha = 1.9 / nu
    u, n_iter, step = lsvm_kernel(K.copy(), d, nu, alpha, tol, 10_000)
    r = Q @ u - 1.0
    bound = np.linalg.norm(alpha * np.eye(len(d)) - Q, 2) * step + 1e-10
    assert est.converged_ and est.n_iter_ == n_iter
    assert np.abs(np.minimum(r, alpha * u)).max() <= bound
    assert u.min() >= -bound / alpha and r.min() >= -bound
    # f(x) = sum_i u_i d_i (K(x, x_i) + 1), support = every nonzero u_i
    X_new = np.random.default_rng(5).normal(size=(7, A.shape[1]))
    f = (kernel_matrix(X_new, A, kernel="rbf", gamma=0.3) + 1.0) @ (u * d)
    classes_sign = 1.0 if est.classes_[1] == 1.0 else -1.0
    np.testing.assert_allclose(est.decision_function(X_new), classes_sign * f, rtol=1e-9,
                               atol=1e-12)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("nu", [1.0, 0.1, "1/m"])
def test_equals_lbfgs_on_its_primal(sparse, nu):
    A, d = make_data(m=200, n=8, seed=1, sparse=sparse)
    est = LSVM(nu=nu, tol=1e-10, max_iter=100_000, history_every=1).fit(A, d)
    assert est.converged_
    nu_value = 1.0 / len(d) if nu == "1/m" else nu
    w, gamma = est.coef_[0], -est.intercept_[0]
    w_ref, gamma_ref = primal_by_lbfgs(A, d, nu_value)
    p, p_ref = (squared_hinge_primal(w, gamma, A, d, nu_value),
                squared_hinge_primal(w_ref, gamma_ref, A, d, nu_value))
    assert abs(p - p_ref) <= 1e-6 * abs(p_ref)
    np.testing.assert_allclose(w, w_ref, rtol=0, atol=1e-4)
    assert abs(gamma - gamma_ref) <= 1e-4
    # strong duality: the dual (11) at u is minus the primal (7) at (w, gamma)
    u = est.dual_coef_[0] * d
    assert lsvm_dual(u, A, d, nu_value) == pytest.approx(-p, rel=1e-6)
    # the recorded trace is the dual (11) at the iterate (final value checked)
    assert est.history_["objective"][-1] == pytest.approx(lsvm_dual(u, A, d, nu_value),
                                                          rel=1e-9)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("nu,alpha_factor", [(1.0, 1.9), (0.2, 1.0)])
def test_smw_matches_printed_recurrence_with_Q_formed(sparse, nu, alpha_factor):
    A, d = make_data(m=100, n=5, seed=2, sparse=sparse)
    alpha, n_iter = alpha_factor / nu, 40
    # tol below any step: exactly n_iter iterations
    _, _, u, it, _ = lsvm_linear(A, d, nu, alpha, 1e-300, n_iter)
    assert it == n_iter
    u_ref = printed_lsvm(explicit_Q(A, d, nu), nu, alpha, n_iter)
    np.testing.assert_allclose(u, u_ref, rtol=0, atol=1e-10 * max(1.0, np.abs(u_ref).max()))


@pytest.mark.parametrize("alpha_factor", [1.9, 1.0, 0.3])
def test_contraction_respects_rate_20(alpha_factor):
    """||Qu^{i+1} - Q u_bar|| <= ||I - alpha Q^{-1}|| ||Qu^i - Q u_bar|| along the
    solver's own iterates (SMW path), with ||I - alpha Q^{-1}||_2 = max |1 -
    alpha / lambda| over Q's eigenvalues lambda (23)."""
    A, d = make_data(m=60, n=4, seed=3)
    nu = 1.0
    alpha = alpha_factor / nu
    Q = explicit_Q(A, d, nu)
    rate = np.max(np.abs(1.0 - alpha / np.linalg.eigvalsh(Q)))
    assert rate < 1.0  # condition (16) holds
    _, _, u_bar, _, step = lsvm_linear(A, d, nu, alpha, 1e-14, 1_000_000)
    assert step <= 1e-14
    errors = []
    lsvm_linear(A, d, nu, alpha, 1e-300, 400,
                callback=lambda i, u: errors.append(np.linalg.norm(Q @ (u - u_bar))))
    errors = np.array(errors)
    # only where the error is well above the rounding of u_bar and of Q @ u
    checked = np.flatnonzero(errors[:-1] > 1e-8)
    assert len(checked) >= 20
    assert np.all(errors[checked + 1] <= rate * errors[checked] + 1e-11)


def test_kernel_path_equals_linear_lsvm_for_K_equal_AA():
    """kernel='poly' with gamma=1, coef0=0, degree=1 is K = AA': the m x m path
    must give the SMW path's model and iterates."""
    A, d = make_data(m=80, n=5, seed=4)
    nu, alpha = 0.5, 1.9 / 0.5
    _, _, u_lin, it_lin, _ = lsvm_linear(A, d, nu, alpha, 1e-300, 60)
    u_ker, it_ker, _ = lsvm_kernel(A @ A.T, d, nu, alpha, 1e-300, 60)
    assert it_lin == it_ker == 60
    np.testing.assert_allclose(u_ker, u_lin, rtol=0, atol=1e-10 * np.abs(u_lin).max())

    lin = LSVM(nu=nu, tol=1e-9, max_iter=10_000).fit(A, d)
    ker = LSVM(nu=nu, kernel="poly", gamma=1.0, coef0=0.0, degree=1, tol=1e-9,
               max_iter=10_000).fit(A, d)
    assert lin.n_iter_ == ker.n_iter_
    X_new = np.random.default_rng(6).normal(size=(20, 5))
    np.testing.assert_allclose(ker.decision_function(X_new), lin.decision_function(X_new),
                               rtol=0, atol=1e-8)
    assert ker.intercept_[0] == pytest.approx(lin.intercept_[0], abs=1e-9)


def test_kernel_memory_refusal_names_the_size():
    A, d = make_data(m=300)
    with pytest.raises(ValueError, match=r"300 x 300 .*0\.7 MB .*kernel_memory=0\.5 MB"):
        LSVM(kernel="rbf", kernel_memory=0.5).fit(A, d)
    LSVM(kernel="rbf", kernel_memory=0.7).fit(A, d)  # 300^2 * 8 bytes = 0.69 MB fits
    # the linear path factors an (n+1) x (n+1) matrix: 2001^2 * 8 bytes = 30.5 MB
    X = sp.random(50, 2000, density=0.01, format="csr", random_state=0)
    with pytest.raises(ValueError, match=r"2001 x 2001 .*30\.5 MB"):
        LSVM(kernel_memory=16).fit(X, d[:50])


@pytest.mark.parametrize("alpha", [0.0, -1.0, 2.0, 3.0, float("nan")])
def test_alpha_outside_condition_16_is_refused(alpha):
    A, d = make_data()
    with pytest.raises(ValueError, match=r"0 < alpha < 2/nu .*\(16\)"):
        LSVM(nu=1.0, alpha=alpha).fit(A, d)


def test_alpha_inside_condition_16_and_nu_over_m():
    A, d = make_data()
    a = LSVM(nu=1.0, alpha=1.99, tol=1e-9, max_iter=10_000).fit(A, d)
    b = LSVM(nu=1.0, tol=1e-9, max_iter=10_000).fit(A, d)
    np.testing.assert_allclose(a.coef_, b.coef_, atol=1e-7)
    # nu='1/m' is nu = 1/m of the problem, and alpha's bound (16) follows it
    c = LSVM(nu="1/m").fit(A, d)
    e = LSVM(nu=1.0 / len(d)).fit(A, d)
    np.testing.assert_array_equal(c.coef_, e.coef_)
    with pytest.raises(ValueError, match="2/nu"):
        LSVM(nu="1/m", alpha=2.0 * len(d)).fit(A, d)


def test_max_iter_reached_warns_and_reports():
    A, d = make_data()
    with pytest.warns(ConvergenceWarning, match=r"max_iter=3 iterations reached .*tol=1e-12"):
        est = LSVM(tol=1e-12, max_iter=3, history_every=1).fit(A, d)
    assert not est.converged_ and est.n_iter_ == 3
    assert list(est.history_["iteration"]) == [1, 2, 3]
    u = est.dual_coef_[0] * d
    assert est.history_["objective"][-1] == pytest.approx(lsvm_dual(u, A, d, 1.0), rel=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = LSVM(history_every=5, max_iter=10_000).fit(A, d)
    assert est.converged_
    kept = est.history_["iteration"]
    assert kept[-1] == est.n_iter_ and all(i % 5 == 0 for i in kept[:-1])


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_one_vs_one_problems_are_the_binary_fits(kernel):
    X, y = load_iris(return_X_y=True)
    est = LSVM(kernel=kernel, gamma=0.5, max_iter=10_000).fit(X, y)
    assert est.converged_
    assert len(est.problems_) == 3
    for p, (neg, pos) in enumerate(est.problems_):
        rows = np.flatnonzero((y == neg) | (y == pos))
        binary = LSVM(kernel=kernel, gamma=0.5, max_iter=10_000).fit(X[rows], y[rows])
        if kernel == "linear":
            np.testing.assert_allclose(est.coef_[p], binary.coef_[0], rtol=1e-12)
            assert est.intercept_[p] == pytest.approx(binary.intercept_[0], rel=1e-12)
        else:
            np.testing.assert_allclose(est.dual_coef_[p], binary.dual_coef_, rtol=1e-12)
    assert est.score(X, y) > 0.9
