"""Every objective a solver is judged by, computed from its fitted model and the data.

No solver is graded by the number it reports about itself: the tests, the
experiments and the cross-solver tables evaluate these functions (plain NumPy
and SciPy, written from the papers' equations) on a model's coefficients.
Dense arrays and CSR matrices are accepted wherever ``X`` is.

=====================  ==========================================================
hinge_primal           1/2 ||w||^2 + C sum_i max(0, 1 - y_i (x_i'w + b)); with or
                       without a bias b (never penalised; LIBLINEAR's penalised
                       bias is a constant feature appended to X)
kernel_dual            1/2 (a*y)' K (a*y) - sum_i a_i (the SVM dual, minimised),
                       and dual_feasibility: |y'a| and the box 0 <= a <= C
kernel_kkt_gap         the optimality gap b_low - b_up of SVM dual multipliers
                       (Keerthi et al.; LIBSVM's m(a) - M(a)), from K (a*y)
hinge_duality_gap      P(w) - D(a) of a linear hinge model w (no free bias), with
                       the multipliers a reconstructed from w: a certificate that
                       needs no solver's own report
kernel_hinge_primal    the primal of a kernel expansion f = K beta + b
kernel_squared_hinge_  LSVM's primal (7) for a kernel expansion (bias penalised)
  primal
squared_hinge_primal   LSVM (lsvm_section3.txt, its formulation (7)):
                       nu/2 sum max(0, 1 - d_i(A_i w - gamma))^2 + 1/2 (w'w + gamma^2)
lsvm_dual              1/2 u'(I/nu + HH')u - e'u, H = D[A -e] (its Eq. 11)
ldm_primal             LDM (ldm.txt Eq. 5, linear: Eq. 14), margin variance read
                       as Eq. 6/8 do (normalised) or as Eq. 4's double sum
ldm_kernel_primal      the same with w = phi(X)' alpha (Eq. 8)
ldm_dual               1/2 b'Hb + (lambda2/m He - e)'b, H = Y G Q^-1 G Y (Eq. 12),
                       Q^-1 G Y taken as (I + c M G)^-1 Y (never Q^-1 itself)
=====================  ==========================================================

NESVM (nesvm.txt): smoothed_hinge (Eq. 10), smoothed_l1 (Eq. 28), and the
primal objectives of its C-SVM, LP-SVM and LS-SVM, smoothed (F_mu) or not (F):
see the NESVM section at the end (``nesvm_kernel_primal`` for its kernel models).

The kernel objectives take the n x n matrix K, or, where it is too large to
form (w8a: 49,749 rows), the products K beta over the training rows
(``Kbeta``, ``Kay``, ``Galpha``), which a caller sums over the support rows
in blocks; the value is the same.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def _margins(X, y, w, b=0.0):
    return np.asarray(y, dtype=float) * (np.asarray(X @ np.asarray(w, dtype=float)).ravel() + b)


def hinge_primal(w, X, y, C, intercept=0.0):
    """1/2 ||w||^2 + C sum_i max(0, 1 - y_i (x_i'w + intercept)), labels +-1."""
    w = np.asarray(w, dtype=float).ravel()
    return 0.5 * w @ w + C * np.maximum(0.0, 1.0 - _margins(X, y, w, intercept)).sum()


def kernel_dual(alpha, K, y, Kay=None):
    """The SVM dual to minimise, 1/2 (alpha*y)' K (alpha*y) - sum alpha.
    ``Kay``: K (alpha*y) instead of K (K may then be None)."""
    ay, Kay = _products(np.asarray(alpha, dtype=float) * np.asarray(y, dtype=float), K, Kay)
    return 0.5 * ay @ Kay - np.sum(alpha)


def dual_feasibility(alpha, y, C=np.inf):
    """(|y'alpha|, largest distance outside the box [0, C]) of SVM multipliers."""
    alpha = np.asarray(alpha, dtype=float)
    box = max(0.0, -alpha.min(initial=0.0), (alpha - C).max(initial=0.0))
    return abs(float(np.dot(y, alpha))), box


def kernel_kkt_gap(alpha, y, C, Kay):
    """How far SVM dual multipliers are from optimal, in float64: b_low - b_up.

    The dual is ``min 1/2 (a*y)'K(a*y) - e'a`` over ``0 <= a <= C``, ``y'a = 0``
    (labels +-1). With ``F_i = (K (a*y))_i - y_i`` (``Kay`` = K (a*y), the
    caller's float64 products) and the index sets of Keerthi, Shevade,
    Bhattacharyya and Murthy (2001, Sec. 3; pyx/smo.pyx)

        I_up  = {0 < a_i < C} + {y_i = +1, a_i = 0} + {y_i = -1, a_i = C},
        I_low = {0 < a_i < C} + {y_i = +1, a_i = C} + {y_i = -1, a_i = 0},
        b_up  = min_{I_up} F_i,   b_low = max_{I_low} F_i,

    ``a`` is optimal iff b_low <= b_up (their Sec. 3), and their stopping test
    is b_low <= b_up + 2 tau. The same number is LIBSVM's m(a) - M(a) (Chang
    and Lin, "LIBSVM: a library for support vector machines", Sec. 4.1.2: stop
    when m(a) - M(a) <= eps, with -y_i grad_i = -F_i), so a LIBSVM fit at
    ``-e eps`` meets its test exactly when this gap is <= eps. Multipliers on a
    bound must be exactly 0 or C (LIBSVM's and our SMO's are: they clip). Only
    the multipliers' own values enter: no solver's report is read. Returns
    +inf when one of the sets is empty (no label of one sign, or every
    multiplier stuck so that no pair can move: then any gap test fails)."""
    alpha = np.asarray(alpha, dtype=float)
    y = np.asarray(y, dtype=float)
    F = np.asarray(Kay, dtype=float) - y
    free = (alpha > 0.0) & (alpha < C)
    at_zero, at_c = alpha <= 0.0, alpha >= C
    up = free | ((y > 0) & at_zero) | ((y < 0) & at_c)
    low = free | ((y > 0) & at_c) | ((y < 0) & at_zero)
    if not up.any() or not low.any():
        return np.inf
    return float(F[low].max() - F[up].min())


def hinge_duality_gap(w, X, y, C, band):
    """``(gap, alpha)``: a float64 bound on how far ``w`` is from minimising
    ``P(w) = 1/2 ||w||^2 + C sum_i max(0, 1 - y_i x_i'w)`` (no free bias: a
    penalised bias is a constant column of X, LIBLINEAR's ``-B``), for a
    solver that returns w but not its multipliers (LIBLINEAR).

    Weak duality: for every ``alpha`` in [0, C]^n, D(alpha) = e'alpha - 1/2
    ||X'Y alpha||^2 <= min P, so ``gap = P(w) - D(alpha) >= P(w) - min P``.
    The multipliers are rebuilt from w by the dual's optimality conditions
    (Hsieh et al. 2008, Sec. 2: the L1-loss dual, 0 <= alpha_i <= C, without an
    equality): alpha_i = C where the margin m_i = y_i x_i'w < 1 - band, 0 where
    m_i > 1 + band, and on the margin band the least-squares fit of
    X_F'Y_F alpha_F = w - C X_L'y_L clipped to [0, C]. With the residual r =
    w - X'Y alpha,

        P(w) - D(alpha) = sum_i [C max(0, 1 - m_i) - alpha_i (1 - m_i)] + 1/2 ||r||^2,

    whose terms vanish off the band and are at most C band on it: a solver
    whose dual iterate has every projected gradient within ``band`` (LIBLINEAR
    ``-s 3``'s stop at -e band: max - min <= eps, with PG_i = 0 reachable) has
    a gap <= C n band plus the rounding of r, which this reconstruction
    recovers whenever the band's least squares is solved in the box (the
    solver's own alpha is such a solution). A larger gap certifies nothing."""
    w = np.asarray(w, dtype=float).ravel()
    y = np.asarray(y, dtype=float)
    margins = _margins(X, y, w)
    lower, band_rows = margins < 1.0 - band, np.abs(margins - 1.0) <= band
    alpha = np.where(lower, float(C), 0.0)
    target = w - np.asarray(X.T @ (alpha * y)).ravel()
    if band_rows.any():
        alpha[band_rows] = np.clip(_least_squares(X[band_rows], y[band_rows], target), 0.0, C)
    residual = w - np.asarray(X.T @ (alpha * y)).ravel()
    primal = 0.5 * w @ w + C * np.maximum(0.0, 1.0 - margins).sum()
    dual = alpha.sum() - 0.5 * (w - residual) @ (w - residual)
    return float(primal - dual), alpha


# A band least squares of more values than this runs on the sparse rows (LSMR)
# instead of a dense copy (8 bytes a value: 160 MB).
_DENSE_LSTSQ_VALUES = 20_000_000


def _least_squares(A, y, target):
    """The minimum-norm solution of (Y A)' x = target (A: the band's rows),
    densely (LAPACK's gelsd) when A is small, else by LSMR to the precision of
    float64 (sparse rows of many features, e.g. text)."""
    if not sp.issparse(A) or A.shape[0] * A.shape[1] <= _DENSE_LSTSQ_VALUES:
        A = A.toarray() if sp.issparse(A) else np.asarray(A)
        return np.linalg.lstsq((A * y[:, None]).T, target, rcond=None)[0]
    from scipy.sparse.linalg import lsmr

    YA = sp.csr_matrix(A.multiply(y[:, None]))
    return lsmr(YA.T, target, atol=1e-15, btol=1e-15, maxiter=10 * min(YA.shape))[0]


def _products(beta, K, Kbeta):
    """(beta, K beta): from K, or the products given where K (n x n) is too
    large to form (``Kbeta``, summed over the support rows in blocks)."""
    beta = np.asarray(beta, dtype=float)
    if Kbeta is None:
        if K is None:
            raise ValueError("give the kernel matrix K or the products Kbeta = K beta")
        return beta, np.asarray(K @ beta, dtype=float)
    Kbeta = np.asarray(Kbeta, dtype=float)
    if Kbeta.shape != beta.shape:
        raise ValueError(f"Kbeta must have beta's shape {beta.shape}; got {Kbeta.shape}")
    return beta, Kbeta


def kernel_hinge_primal(beta, K, y, C, intercept=0.0, Kbeta=None):
    """Primal of f = K beta + intercept (beta = alpha * y for an SVM):
    1/2 beta'K beta + C sum_i max(0, 1 - y_i f(x_i)). ``Kbeta``: K beta over
    the training rows instead of K (K may then be None)."""
    beta, Kb = _products(beta, K, Kbeta)
    f = Kb + intercept
    return 0.5 * beta @ Kb + C * np.maximum(0.0, 1.0 - np.asarray(y, dtype=float) * f).sum()


def kernel_squared_hinge_primal(beta, K, d, nu, intercept=0.0, Kbeta=None):
    """LSVM's primal (7) in kernel form, f = K beta + intercept with the bias
    penalised as (7) penalises gamma = -intercept: nu/2 sum_i max(0, 1 -
    d_i f(x_i))^2 + 1/2 (beta'K beta + intercept^2). With K = AA' and beta =
    D u it is ``squared_hinge_primal`` at w = A'beta."""
    beta, Kb = _products(beta, K, Kbeta)
    slack = np.maximum(0.0, 1.0 - np.asarray(d, dtype=float) * (Kb + intercept))
    return 0.5 * nu * slack @ slack + 0.5 * (beta @ Kb + intercept * intercept)


def squared_hinge_primal(w, gamma, A, d, nu):
    """LSVM's primal: nu/2 ||(e - D(Aw - e gamma))_+||^2 + 1/2 (w'w + gamma^2); the
    decision function is x'w - gamma and the bias is penalised."""
    w = np.asarray(w, dtype=float).ravel()
    slack = np.maximum(0.0, 1.0 - _margins(A, d, w, -gamma))
    return 0.5 * nu * slack @ slack + 0.5 * (w @ w + gamma * gamma)


def squared_hinge_gradient(w, gamma, A, d, nu):
    """The gradient of :func:`squared_hinge_primal` in (w, gamma), one vector of
    n + 1 values: w - nu A'D s and gamma + nu d's, with s = (e - D(Aw - e gamma))_+
    the slacks. Zero exactly at the minimiser (the objective is strictly convex
    and differentiable): the float64 test of a solver that returns only (w, gamma),
    LIBLINEAR ``-s 2 -B 1`` (C = nu/2; its bias is b = -gamma)."""
    w = np.asarray(w, dtype=float).ravel()
    d = np.asarray(d, dtype=float)
    slack = np.maximum(0.0, 1.0 - _margins(A, d, w, -gamma))
    ds = d * slack
    return np.concatenate([w - nu * np.asarray(A.T @ ds).ravel(), [gamma + nu * ds.sum()]])


def lsvm_dual(u, A, d, nu):
    """LSVM's dual (11): 1/2 u'Qu - e'u with Q = I/nu + HH', H = D[A -e]."""
    u = np.asarray(u, dtype=float)
    d = np.asarray(d, dtype=float)
    Htu = np.concatenate([np.asarray(A.T @ (d * u)).ravel(), [-(d @ u)]])  # H'u
    return 0.5 * (u @ u / nu + Htu @ Htu) - u.sum()


def _variance_weight(m, variance):
    """The factor of Eq. 4's margin variance that lambda1 multiplies:
    'normalised' (Eq. 6/8: 2/m^2 (m ||f||^2 - (y'f)^2), the paper's default)
    or 'double-sum' (Eq. 4's first line, m^2 times as large)."""
    if variance == "normalised":
        return 1.0
    if variance == "double-sum":
        return float(m) ** 2
    raise ValueError(f"variance must be 'normalised' or 'double-sum'; got {variance!r}")


def _ldm_terms(f, y, C, lambda1, lambda2, variance):
    """Margin variance, mean and hinge terms of LDM given f_i = w'phi(x_i)."""
    y = np.asarray(y, dtype=float)
    m = len(y)
    margins = y * f
    mean = margins.sum() / m                                  # Eq. 3
    var = 2.0 / m**2 * (m * f @ f - (y @ f) ** 2)             # Eq. 4 as used in Eq. 6/8
    return (lambda1 * _variance_weight(m, variance) * var - lambda2 * mean
            + C * np.maximum(0.0, 1.0 - margins).sum())


def ldm_primal(w, X, y, C, lambda1, lambda2, variance="normalised"):
    """LDM's primal (Eq. 5, linear form Eq. 14), no bias:
    1/2 w'w + lambda1 var - lambda2 mean + C sum_i max(0, 1 - y_i w'x_i)."""
    w = np.asarray(w, dtype=float).ravel()
    f = np.asarray(X @ w).ravel()
    return 0.5 * w @ w + _ldm_terms(f, y, C, lambda1, lambda2, variance)


def ldm_kernel_primal(alpha, G, y, C, lambda1, lambda2, variance="normalised", Galpha=None):
    """LDM's primal with w = sum_i alpha_i phi(x_i) (Eq. 7-8): 1/2 alpha'G alpha + ...
    ``Galpha``: G alpha instead of G (G may then be None)."""
    alpha, f = _products(alpha, G, Galpha)
    return 0.5 * alpha @ f + _ldm_terms(f, y, C, lambda1, lambda2, variance)


def ldm_dual_matrix(G, y, lambda1):
    """H = Y G Q^-1 G Y of Eq. 12 without inverting Q: Q = G (I + c M G) with
    c = 4 lambda1 / m^2 and M = m I - yy', so Q^-1 G Y = (I + c M G)^-1 Y,
    which exists even where G (and so Q) is singular."""
    G = G.toarray() if sp.issparse(G) else np.asarray(G, dtype=float)
    y = np.asarray(y, dtype=float)
    m = len(y)
    c = 4.0 * lambda1 / m**2
    MG = m * G - np.outer(y, y @ G)
    A = np.linalg.solve(np.eye(m) + c * MG, np.diag(y))      # Q^-1 G Y
    return y[:, None] * (G @ A), A


def ldm_dual(beta, G, y, lambda1, lambda2):
    """LDM's dual (12) to minimise, 1/2 b'Hb + (lambda2/m He - e)'b."""
    H, _ = ldm_dual_matrix(G, y, lambda1)
    beta = np.asarray(beta, dtype=float)
    m = len(beta)
    return 0.5 * beta @ (H @ beta) + (lambda2 / m * H.sum(axis=1) - 1.0) @ beta


def ldm_alpha_from_beta(beta, G, y, lambda1, lambda2):
    """The expansion coefficients alpha = Q^-1 G Y (lambda2/m e + beta) (after Eq. 12)."""
    _, A = ldm_dual_matrix(G, y, lambda1)
    return A @ (lambda2 / len(beta) + np.asarray(beta, dtype=float))


# ---------------------------------------------------------------------------
# NESVM (nesvm.txt): smoothed hinge, smoothed l1 norm, F_mu and F of its models
# ---------------------------------------------------------------------------

def _row_inf_norms(X, intercept):
    """||X_i||_inf of the rows of X, of [X, e] with an intercept (Eq. 37)."""
    if sp.issparse(X):
        norms = np.asarray(abs(X).max(axis=1).todense()).ravel() if X.shape[1] else \
            np.zeros(X.shape[0])
    else:
        norms = np.abs(np.asarray(X, dtype=float)).max(axis=1, initial=0.0)
    return np.maximum(norms, 1.0) if intercept else norms


def smoothed_hinge(margin, row_inf_norm, mu, threshold="printed"):
    """NESVM's smoothed hinge h_mu at margins y_i X_i w, elementwise.

    ``threshold='printed'``: Eq. 10 as printed, 0 above margin 1, the linear
    piece ``(1 - m) - mu/2 ||X_i||_inf`` below ``1 - mu``, else
    ``(1 - m)^2 / (2 mu ||X_i||_inf)``. ``'eq6'``: the maximum of Eq. 5 itself,
    whose linear piece starts at ``1 - mu ||X_i||_inf`` (Eq. 6). A zero row
    (||X_i||_inf = 0) has the hinge's value max(0, 1 - m) (Eq. 5 with d_1 = 0).
    """
    if threshold not in ("printed", "eq6"):
        raise ValueError(f"threshold must be 'printed' or 'eq6'; got {threshold!r}")
    m = np.asarray(margin, dtype=float)
    a = np.broadcast_to(np.asarray(row_inf_norm, dtype=float), m.shape)
    r = 1.0 - m
    t = mu * a
    linear = (m < 1.0 - mu) if threshold == "printed" else (r >= t)
    with np.errstate(divide="ignore", invalid="ignore"):
        quad = 0.5 * r * r / t
    out = np.where(linear, r - 0.5 * t, quad)
    out = np.where(a == 0.0, np.maximum(r, 0.0), out)
    return np.where(r <= 0.0, 0.0, out)


def smoothed_l1(w, mu):
    """NESVM's smoothed l1 norm l_mu (Eq. 28), elementwise: |w| - mu/2 beyond
    |w| > mu, w^2 / (2 mu) inside."""
    w = np.asarray(w, dtype=float)
    return np.where(np.abs(w) > mu, np.abs(w) - 0.5 * mu, 0.5 * w * w / mu)


def _nesvm_parts(model, w, X, y, intercept):
    if model not in ("C", "LP", "LS"):
        raise ValueError(f"model must be 'C', 'LP' or 'LS'; got {model!r}")
    w = np.asarray(w, dtype=float).ravel()
    return w, _margins(X, y, w, intercept)


def nesvm_primal(model, w, X, y, C, intercept=0.0):
    """F, the unsmoothed primal of NESVM's models (the bias never penalised):
    'C' 1/2 ||w||^2 + C sum hinge (Eq. 45-46), 'LP' ||w||_1 + C sum hinge
    (Eq. 49-50), 'LS' 1/2 ||w||^2 + C sum (1 - y_i (x_i'w + b))^2 (Eq. 53-54)."""
    w, m = _nesvm_parts(model, w, X, y, intercept)
    if model == "LS":
        return 0.5 * w @ w + C * np.sum((1.0 - m) ** 2)
    reg = np.abs(w).sum() if model == "LP" else 0.5 * w @ w
    return reg + C * np.maximum(0.0, 1.0 - m).sum()


def nesvm_smoothed_primal(model, w, X, y, C, mu, intercept=0.0, mu_l1=None,
                          threshold="printed", fit_intercept=True):
    """F_mu, the smoothed primal NESVM minimises: the hinge replaced by
    ``smoothed_hinge`` with ||X_i||_inf of [X, e] when ``fit_intercept`` (Eq.
    37), and for 'LP' the l1 norm by ``smoothed_l1`` with ``mu_l1`` (None: mu).
    'LS' has nothing to smooth (F_mu = F)."""
    w, m = _nesvm_parts(model, w, X, y, intercept)
    if model == "LS":
        return nesvm_primal(model, w, X, y, C, intercept)
    loss = smoothed_hinge(m, _row_inf_norms(X, fit_intercept), mu, threshold).sum()
    reg = smoothed_l1(w, mu if mu_l1 is None else mu_l1).sum() if model == "LP" else 0.5 * w @ w
    return reg + C * loss


def nesvm_kernel_primal(model, beta, K, y, C, intercept=0.0, Kbeta=None):
    """F of NESVM's kernel models (f = K beta + b, the end of its Sec. II-C as
    NESVM reads it): 'C' is ``kernel_hinge_primal``; 'LP' ||beta||_1 + C sum
    hinge; 'LS' 1/2 beta'K beta + C sum (1 - y_i f(x_i))^2. ``Kbeta``: K beta
    instead of K (K may then be None)."""
    if model not in ("C", "LP", "LS"):
        raise ValueError(f"model must be 'C', 'LP' or 'LS'; got {model!r}")
    if model == "C":
        return kernel_hinge_primal(beta, K, y, C, intercept, Kbeta)
    beta, Kb = _products(beta, K, Kbeta)
    m = np.asarray(y, dtype=float) * (Kb + intercept)
    if model == "LS":
        return 0.5 * beta @ Kb + C * np.sum((1.0 - m) ** 2)
    return np.abs(beta).sum() + C * np.maximum(0.0, 1.0 - m).sum()
