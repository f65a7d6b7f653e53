"""repro.objectives against independent computations: explicit loops, a generic
bound-constrained or constrained optimiser on small data, and strong duality."""
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import LinearConstraint, minimize

from repro import objectives as O

RNG = np.random.default_rng(0)
X = RNG.normal(size=(14, 3))
Y = np.where(X[:, 0] + 0.5 * RNG.normal(size=14) > 0, 1.0, -1.0)


@pytest.mark.parametrize("dense", [True, False])
def test_hinge_primal_is_the_sum_it_names(dense):
    w, b, C = np.array([0.3, -1.0, 2.0]), 0.4, 2.5
    loop = 0.5 * sum(v * v for v in w) + C * sum(max(0.0, 1 - yi * (xi @ w + b)) for xi, yi in zip(X, Y))
    data = X if dense else sp.csr_matrix(X)
    assert O.hinge_primal(w, data, Y, C, b) == pytest.approx(loop)


def test_kernel_primal_and_dual_meet_at_the_svm_optimum():
    """SVC's multipliers (tight tolerance) give a dual value whose negative is
    the primal value of the same expansion: zero duality gap."""
    from sklearn.svm import SVC

    C = 1.0
    K = X @ X.T
    svc = SVC(C=C, kernel="precomputed", tol=1e-10).fit(K, Y)
    alpha = np.zeros(len(Y))
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    gap, box = O.dual_feasibility(alpha, Y, C)
    assert gap < 1e-8 and box == 0.0
    primal = O.kernel_hinge_primal(alpha * Y, K, Y, C, svc.intercept_[0])
    assert primal == pytest.approx(-O.kernel_dual(alpha, K, Y), rel=1e-6)
    assert O.hinge_primal(X.T @ (alpha * Y), X, Y, C, svc.intercept_[0]) == pytest.approx(primal)
    assert O.dual_feasibility(alpha + 2 * C, Y, C)[1] == pytest.approx(2 * C)


def test_lsvm_primal_and_dual_meet_at_the_dual_optimum():
    nu = 0.7
    H = Y[:, None] * np.hstack([X, -np.ones((len(Y), 1))])
    Q = np.eye(len(Y)) / nu + H @ H.T
    res = minimize(lambda u: 0.5 * u @ Q @ u - u.sum(), np.zeros(len(Y)), jac=lambda u: Q @ u - 1,
                   bounds=[(0, None)] * len(Y), method="L-BFGS-B", options={"ftol": 1e-15, "gtol": 1e-12})
    u = res.x
    assert O.lsvm_dual(u, X, Y, nu) == pytest.approx(res.fun)
    w, gamma = X.T @ (Y * u), -(Y @ u)  # w = A'Du, gamma = -e'Du
    assert O.squared_hinge_primal(w, gamma, X, Y, nu) == pytest.approx(-res.fun, rel=1e-6)
    assert O.lsvm_dual(u, sp.csr_matrix(X), Y, nu) == pytest.approx(res.fun)


@pytest.mark.parametrize("lambda1, lambda2, C", [(0.25, 0.25, 1.0), (2.0, 0.5, 0.5), (0.0, 0.0, 1.0)])
def test_ldm_dual_solution_minimises_the_primal(lambda1, lambda2, C):
    """Solve Eq. 12 with a generic bound-constrained minimiser, map beta to
    alpha, and check alpha against the primal (Eq. 8) minimised directly as a
    constrained problem in (alpha, xi); with the linear kernel the primal in w
    (Eq. 14) agrees. A G of full rank (m < d after a lift) keeps Eq. 8's
    minimiser unique."""
    Z = np.hstack([X, RNG.normal(size=(14, 12))])  # d = 15 > m = 14: G invertible
    G = Z @ Z.T
    m = len(Y)
    H, _ = O.ldm_dual_matrix(G, Y, lambda1)
    lin = lambda2 / m * H.sum(axis=1) - 1.0
    res = minimize(lambda b: 0.5 * b @ H @ b + lin @ b, np.zeros(m), jac=lambda b: H @ b + lin,
                   bounds=[(0, C)] * m, method="L-BFGS-B", options={"ftol": 1e-15, "gtol": 1e-12})
    assert O.ldm_dual(res.x, G, Y, lambda1, lambda2) == pytest.approx(res.fun)
    alpha = O.ldm_alpha_from_beta(res.x, G, Y, lambda1, lambda2)
    ours = O.ldm_kernel_primal(alpha, G, Y, C, lambda1, lambda2)

    # Eq. 14 in (w, xi): a convex QP with the hinge as linear constraints, by a
    # generic interior-point solver
    d = Z.shape[1]

    def smooth(v):
        return O.ldm_primal(v[:d], Z, Y, 0.0, lambda1, lambda2) + C * v[d:].sum()

    rows = np.hstack([Y[:, None] * Z, np.eye(m)])            # y_i w'z_i + xi_i >= 1
    cons = [LinearConstraint(rows, 1.0, np.inf),
            LinearConstraint(np.hstack([np.zeros((m, d)), np.eye(m)]), 0.0, np.inf)]
    direct = minimize(smooth, np.concatenate([np.zeros(d), np.full(m, 2.0)]), constraints=cons,
                      method="trust-constr", options={"gtol": 1e-12, "xtol": 1e-14, "maxiter": 20000})
    assert ours == pytest.approx(direct.fun, rel=1e-5, abs=1e-6)
    assert O.ldm_primal(Z.T @ alpha, Z, Y, C, lambda1, lambda2) == pytest.approx(ours)


def test_ldm_dual_exists_where_q_is_singular():
    """Linear kernel with d < m and a duplicated row: G and Q are singular,
    the dual matrix is still finite and symmetric."""
    Xd = np.vstack([X, X[:1]])
    yd = np.append(Y, Y[0])
    H, _ = O.ldm_dual_matrix(Xd @ Xd.T, yd, 0.5)
    assert np.isfinite(H).all() and np.allclose(H, H.T, atol=1e-8)


def test_ldm_variance_readings_differ_by_m_squared():
    w = np.array([0.5, -0.2, 0.1])
    m = len(Y)
    base = O.ldm_primal(w, X, Y, 1.0, 0.0, 0.0)
    norm = O.ldm_primal(w, X, Y, 1.0, 1.0, 0.0) - base
    double = O.ldm_primal(w, X, Y, 1.0, 1.0, 0.0, variance="double-sum") - base
    f = X @ w
    loop = sum((Y[i] * f[i] - Y[j] * f[j]) ** 2 for i in range(m) for j in range(m)) / m**2
    assert norm == pytest.approx(loop) and double == pytest.approx(m**2 * loop)
    with pytest.raises(ValueError, match="variance"):
        O.ldm_primal(w, X, Y, 1.0, 1.0, 0.0, variance="other")
