"""LSVM: Lagrangian Support Vector Machine (Mangasarian and Musicant, JMLR 2001).

Section 3 of the paper (``lsvm_section3.txt``). The primal (7) is

    min_{w, gamma, y}  nu/2 ||y||^2 + 1/2 (w'w + gamma^2)   s.t.  D(Aw - e gamma) + y >= e,

squared slacks and a penalised bias, decision function ``x'w - gamma``. With
``H = D[A -e]`` and ``Q = I/nu + HH'`` (10) its dual is (11),
``min_{u >= 0} 1/2 u'Qu - e'u``, whose optimality conditions (12)
``0 <= u _|_ Qu - e >= 0`` are rewritten by (13) as the fixed point (14) and
solved by the iteration (15)

    u^{i+1} = Q^{-1} (e + ((Q u^i - e) - alpha u^i)_+),

which converges linearly from any start when 0 < alpha < 2/nu (16), at the rate
``||I - alpha Q^{-1}||`` of (20). The primal solution follows from (9):
``w = A'Du``, ``gamma = -e'Du`` (the printed code's last line), ``y = u/nu``.

Two ways to apply ``Q^{-1}``, each factored once by Cholesky (never an explicit
inverse):

* linear kernel: the Sherman-Morrison-Woodbury identity (1),
  ``Q^{-1} = nu (I - H (I/nu + H'H)^{-1} H')``, so only the (n+1) x (n+1)
  matrix ``I/nu + H'H`` is factored and an iteration costs one product with
  ``H'`` and one with ``H`` (dense or CSR: ``H`` keeps A's layout, A is never
  densified). The printed code also forms ``Qu^i`` by two more products every
  iteration; here ``Q u^{i+1}`` is the right-hand side ``e + (...)_+`` just
  solved with (15 premultiplied by Q), so it is carried over instead: half the
  products, the same iterates up to rounding (tests/test_lsvm.py checks them
  against the printed recurrence with Q formed explicitly);
* other kernels (Sec. 4 of the paper: ``AA'`` replaced by ``K(A, A')``):
  ``Q = I/nu + D(K + ee')D`` formed (m x m) and factored, for data whose
  matrix fits ``kernel_memory``.

Each binary problem starts from ``u^0 = Q^{-1} e`` as the printed code does
(``u = nu*(1 - S*(H'*e))``), and stops when ``||u^{i+1} - u^i|| <= tol`` (which
bounds the violation (25) of (14)) or after ``max_iter`` iterations.
"""
from numbers import Real

import numpy as np
import scipy.sparse as sp
from scipy.linalg import cho_factor, cho_solve
from sklearn.utils._param_validation import Interval, StrOptions

# the compiled primitive behind repro.kernels.kernel_matrix (the same values; that
# module imports repro.solvers, so importing it here would be circular)
from .._kernels.kernels import kernel_matrix
from ._kernel_model import check_matrix_memory
from ._linear_or_kernel import LinearOrKernelMixin
from ._validation import as_rows_input
from .base import KERNEL_CONSTRAINTS, BaseSVMClassifier, check_model_scale, shared_constraints


def _alpha_for(alpha, nu):
    """The step alpha of (15) for a resolved nu: 1.9/nu by default (the paper's
    and the authors' code's choice), else the given value inside (0, 2/nu) (16)."""
    if alpha is None:
        return 1.9 / nu
    alpha = float(alpha)
    if not 0.0 < alpha < 2.0 / nu:  # also refuses NaN
        raise ValueError(f"LSVM needs 0 < alpha < 2/nu (the paper's condition (16), which makes "
                         f"the iteration (15) converge); got alpha={alpha!r} with nu={nu!r} "
                         f"(2/nu = {2.0 / nu!r}); alpha=None takes 1.9/nu")
    return alpha


def _check_memory(size, what, kernel_memory, fix):
    """Refuse up front a dense size x size matrix beyond kernel_memory (MB)."""
    check_matrix_memory("LSVM forms and factors", size, what, kernel_memory, fix)


def _check_nu_scale(estimator, nu, m, sqnorm):
    """Refuse a nu so large that u (and w = A'Du) overflow: Q = I/nu + HH' is at
    least I/nu, so the dual solution u = Q^-1 e has ||u|| <= nu sqrt(m), and
    w's norm is at most that times a row's norm in feature space."""
    scale = np.sqrt(1.0 + np.max(sqnorm, initial=0.0))
    check_model_scale(estimator, "nu", nu * np.sqrt(m) * scale, "nu sqrt(m) max ||(x_i, 1)||")


def _iterate(solve_into, m, nu, alpha, tol, max_iter, history=None, callback=None):
    """Iteration (15) from u^0 = Q^{-1} e, with ``solve_into(z, out)`` writing
    ``Q^{-1} z`` into ``out``.

    Returns ``(u, z, n_iter, step)`` with ``z = Q u`` (exact up to the solve's
    rounding) and ``step = ||u^{n_iter} - u^{n_iter - 1}||``. ``callback(i, u)``,
    if given, sees every iterate (u^0 included; tests measure the rate (20)).
    """
    # buffers reused across iterations: at m = 1e6 a fresh 8 MB array per
    # operation costs page faults comparable to the products themselves
    z = np.ones(m)              # Q u^0 = e
    u = np.empty(m)
    solve_into(z, u)            # u^0 = Q^{-1} e
    z_new, u_new, diff = np.empty(m), np.empty(m), np.empty(m)
    if callback is not None:
        callback(0, u)
    step, it = np.inf, 0
    while it < max_iter and step > tol:
        # e + ((Qu - e) - alpha u)_+ = max(Qu - alpha u, 1): the right-hand side
        # of (15), and Q u^{i+1} itself
        np.multiply(u, -alpha, out=z_new)
        z_new += z
        np.maximum(z_new, 1.0, out=z_new)
        solve_into(z_new, u_new)
        np.subtract(u_new, u, out=diff)
        step = float(np.sqrt(diff @ diff))
        u, u_new, z, z_new = u_new, u, z_new, z
        it += 1
        if callback is not None:
            callback(it, u)
        if history is not None:
            # the dual (11) is cheap with z = Qu: 1/2 u'z - e'u, O(m); a callable
            # so that it is evaluated only for kept reports, outside the timing.
            # Its buffers hold this iterate when it is evaluated: at once when the
            # report is kept, else at close() only if it was the last report.
            history.record(it, lambda u=u, z=z: 0.5 * float(u @ z) - float(u.sum()))
    return u, z, it, step


def smw_operator(A, d, nu):
    """``H = D[A -e]`` (A's layout: dense array or CSR) and the Cholesky factor of
    the (n+1) x (n+1) matrix ``I/nu + H'H`` of the SMW identity (1)."""
    m, n = A.shape
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below, with the fix
        if sp.issparse(A):
            H = sp.hstack([sp.diags(d) @ A, sp.csr_matrix(-d[:, None])], format="csr")
            HtH = (H.T @ H).toarray()
        else:
            H = np.empty((m, n + 1))
            np.multiply(A, d[:, None], out=H[:, :n])
            H[:, n] = -d
            HtH = H.T @ H
    if not np.all(np.isfinite(HtH)):
        raise ValueError("LSVM: H'H = [A -e]'[A -e] holds values beyond float64 (X's values are "
                         "finite but their products overflow): scale the features")
    HtH[np.diag_indices(n + 1)] += 1.0 / nu
    scale = float(np.max(np.abs(HtH.diagonal()), initial=0.0))
    return H, _cholesky(HtH, "I/nu + H'H", scale, nu, overwrite=False)


def _cholesky(Q, what, scale, nu, overwrite=True):
    """Q's Cholesky factor (in place when Q is Fortran-ordered, as ``lsvm_kernel``
    passes it); a ValueError naming the matrix when it is not positive definite
    in float64 (its largest diagonal entry ``scale`` so far above 1/nu that the
    rounding of the rest outweighs it), instead of LAPACK's LinAlgError."""
    try:
        return cho_factor(Q, lower=True, overwrite_a=overwrite, check_finite=False)
    except np.linalg.LinAlgError as error:
        raise ValueError(
            f"LSVM: {what} is not positive definite in float64 ({error}; its largest diagonal "
            f"entry is {scale:.3g} against 1/nu = {1.0 / nu:.3g}): scale the features or lower "
            f"gamma / degree (or raise 1/nu)") from None


def lsvm_linear(A, d, nu, alpha, tol, max_iter, history=None, callback=None):
    """Linear LSVM by (15) with the SMW identity (the paper's Code 2).

    A: (m, n) dense float64 or CSR; d: labels +-1. Returns ``(w, gamma, u,
    n_iter, step)``.
    """
    H, factor = smw_operator(A, d, nu)
    dense = not sp.issparse(H)

    def solve_into(z, out):
        # Q^{-1} z = nu (z - H (I/nu + H'H)^{-1} H'z)
        q = cho_solve(factor, H.T @ z, check_finite=False)
        if dense:
            np.dot(H, q, out=out)
        else:
            out[:] = H @ q
        np.subtract(z, out, out=out)
        out *= nu

    u, _, n_iter, step = _iterate(solve_into, A.shape[0], nu, alpha, tol, max_iter, history,
                                  callback)
    wg = np.asarray(H.T @ u).ravel()  # H'u = [A'Du; -e'Du] = [w; gamma]
    return wg[:-1].copy(), float(wg[-1]), u, n_iter, step


def lsvm_kernel(K, d, nu, alpha, tol, max_iter, history=None, callback=None):
    """Nonlinear LSVM by (15) with ``Q = I/nu + D(K + ee')D`` formed and factored.

    K: the (m, m) kernel matrix, OVERWRITTEN (it becomes Q's Cholesky factor:
    one m x m array in all). Returns ``(u, n_iter, step)``.
    """
    m = K.shape[0]
    K += 1.0                       # K + ee': the bias gamma = -e'Du of (9)
    K *= d[:, None]
    K *= d[None, :]
    K[np.diag_indices(m)] += 1.0 / nu
    # Q is symmetric, so its transpose is the same matrix in Fortran order:
    # LAPACK factors it in place instead of copying (m^2 more bytes)
    scale = float(np.max(np.abs(K.diagonal()), initial=0.0))
    factor = _cholesky(K.T, "Q = I/nu + D(K + ee')D", scale, nu)

    def solve_into(z, out):
        out[:] = cho_solve(factor, z, check_finite=False)

    u, _, n_iter, step = _iterate(solve_into, m, nu, alpha, tol, max_iter, history, callback)
    return u, n_iter, step


class LSVM(LinearOrKernelMixin, BaseSVMClassifier):
    """Lagrangian SVM (Mangasarian and Musicant, JMLR 2001): squared-hinge SVM with a penalised bias.
    It solves the primal (7), ``min nu/2 ||(e - D(Aw - e gamma))_+||^2 + 1/2
    (w'w + gamma^2)``, through its dual (11) by the fixed-point iteration (15)
    of Section 3 [1]_ (lsvm_section3.txt), which converges linearly from any start. For the
    linear kernel it factors only an (n+1) x (n+1) matrix (Sherman-Morrison-
    Woodbury), and an iteration is two products with the data, so it handles
    millions of rows with few features: at 1e6 rows and 10 features it took
    0.32 times the time of LIBLINEAR ``-s 2`` on the same objective
    (paper_tables/performance.md). Use it instead of LinearSVC (squared hinge)
    when there are many more rows than features; with many features, or for a
    hinge loss, LinearSVC or :class:`LinearSVM` is the tool. Other kernels form
    and factor the m x m matrix Q (within ``kernel_memory``), so SVC scales
    further there.

    Parameters
    ----------
    nu : float or '1/m', default=1.0
        Weight of the squared slacks in (7). '1/m': the authors' code's default,
        1 / (rows of the binary problem). LIBLINEAR ``-s 2 -B 1``'s C is nu/2.
    kernel : {'linear', 'rbf', 'poly'}, default='linear'
        'linear': the SMW path (dense or CSR data, never densified). 'rbf'
        ``exp(-gamma ||x - z||^2)`` and 'poly' ``(gamma x'z + coef0)^degree``:
        Q = I/nu + D(K + ee')D is formed and factored (m x m).
    gamma : float, 'scale', 'auto' or None, default=None
        Kernel width of 'rbf' and 'poly' (not the paper's bias gamma); None
        means 'scale', as scikit-learn's SVC. Ignored by 'linear'.
    coef0 : float, default=0.0
        Constant of the 'poly' kernel (>= 0).
    degree : int, default=3
        Degree of the 'poly' kernel.
    alpha : float or None, default=None
        Step of (15); None means 1.9/nu, the paper's choice. Must satisfy
        0 < alpha < 2/nu, condition (16) (ValueError otherwise).
    tol : float, default=1e-5
        Stop when ``||u^{i+1} - u^i|| <= tol`` (the authors' code's rule and
        default; see Notes).
    max_iter : int, default=10_000
        Iteration cap; reaching it leaves ``converged_`` False and warns once.
        The authors' code stops at 100 (the experiments pass it by name).
    kernel_memory : float, default=1024
        MB allowed for the one dense matrix LSVM factors (m x m for 'rbf' and
        'poly': up to m = 11,585 rows at 1024 MB; (n+1) x (n+1) for 'linear');
        a larger problem is refused up front with the size it needs.
    history_every : int or None, default=None
        Stride of ``history_`` in iterations of (15): the dual (11),
        ``1/2 u'Qu - e'u``, O(m) a report since Qu is carried by the
        iteration; None: no trace.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels; ``classes_[1]`` is the positive class.
    coef_ : ndarray of shape (n_problems, n_features)
        'linear' only: w of each problem.
    intercept_ : ndarray of shape (n_problems,)
        ``-gamma`` (the decision function is ``x'w - gamma``); for other kernels
        ``e'Du``.
    dual_coef_ : list of ndarray, or ndarray
        ``u_i d_i`` per training row ('linear': every row; other kernels: the
        rows with ``u_i != 0``, in general all of them).
    support_, support_vectors_, n_support_ : ndarray
        'rbf' and 'poly' only.
    n_kernel_evals_ : int
        'rbf' and 'poly': m^2 per problem (the matrix is computed in full).
    n_iter_ : int or ndarray
        Iterations of (15) per problem.
    converged_ : bool
        Every problem met ``tol`` before ``max_iter``.
    n_unconverged_problems_ : int
        How many did not.
    history_ : dict of ndarray or None
        The trace (``problem``, ``iteration``, ``time``, ``objective``).

    See Also
    --------
    repro.objectives.squared_hinge_primal : the primal (7) at a fitted model.
    repro.objectives.lsvm_dual : the dual (11).

    Notes
    -----
    With ``H = D[A -e]`` and ``Q = I/nu + HH'`` (10), the dual of (7) is (11),
    ``min_{u >= 0} 1/2 u'Qu - e'u``; its optimality conditions (12),
    ``0 <= u _|_ Qu - e >= 0``, are rewritten by (13) as the fixed point (14)
    and solved by (15)::

        u^{i+1} = Q^-1 (e + ((Q u^i - e) - alpha u^i)_+),

    which converges linearly from any start when ``0 < alpha < 2/nu`` (16), at
    the rate ``||I - alpha Q^-1||`` of (20). The primal solution follows from
    (9): ``w = A'Du``, ``gamma = -e'Du``, slacks ``u/nu``. The linear kernel
    applies ``Q^-1 = nu (I - H (I/nu + H'H)^-1 H')`` (the SMW identity (1)) with
    one Cholesky factor of the (n+1) x (n+1) matrix; other kernels (Sec. 4 of
    the paper) replace AA' by K(A, A'), giving ``f(x) = sum_i u_i d_i (K(x,
    x_i) + 1)``. Each problem starts from ``u^0 = Q^-1 e`` as the printed code
    does.

    **Stopping rule**: ``||u^{i+1} - u^i|| <= tol`` or ``max_iter`` iterations;
    by (25) the step bounds the violation of (14) and the distance of w and
    gamma to the optimum. The rule is absolute in u, and u = nu * slacks (9):
    with ``nu='1/m'`` it loosens as m grows (repro.bench.lsvm: 21 iterations at
    m = 1e4, 1 at m = 1e6, the primal (7) still within 1e-7 relative of
    LIBLINEAR's ``-s 2 -B 1``). At the default nu = 1 with alpha = 1.9/nu the
    directions of u in the null space of HH' contract by only 0.9 per iteration
    (20): 112 to 120 iterations on heart_scale, a1a and the UCI sets Heart,
    Diabetes, Ionosphere and Liver, 204 on Australian and 1,437 on WDBC
    (unscaled: the rate is then set by the largest eigenvalue of HH'), each
    within 1e-7 relative of L-BFGS-B's primal; hence ``max_iter=10_000`` rather
    than the authors' 100.

    Compared with LIBLINEAR's ``-s 2 -B 1`` (squared hinge, the bias a
    penalised feature of value 1, ``1/2 w'w + C sum xi^2``) the objective is
    the same with ``C = nu/2`` and ``b = -gamma``.

    References
    ----------
    .. [1] O. L. Mangasarian and D. R. Musicant, "Lagrangian support vector
       machines", JMLR 1:161-177, 2001 (its Section 3 is lsvm_section3.txt:
       (10)-(16), (20), (25); (1), (7) and (9) are in its Sec. 2).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from repro.solvers import LSVM
    >>> X, y = make_classification(n_samples=300, n_features=10, random_state=0)
    >>> clf = LSVM(nu=1.0).fit(X[:200], y[:200])
    >>> clf.converged_
    True
    >>> print(clf.score(X[200:], y[200:]))
    0.9...
    """

    _parameter_constraints = {
        **shared_constraints("tol", "max_iter", "history_every"),
        "nu": [Interval(Real, 0, None, closed="neither"), StrOptions({"1/m"})],
        "kernel": [StrOptions({"linear", "rbf", "poly"})],
        "gamma": KERNEL_CONSTRAINTS["gamma"] + [None],
        "coef0": KERNEL_CONSTRAINTS["coef0"],
        "degree": KERNEL_CONSTRAINTS["degree"],
        # checked against 2/nu at fit (condition (16) depends on nu)
        "alpha": [Real, None],
        "kernel_memory": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, nu=1.0, kernel="linear", gamma=None, coef0=0.0, degree=3, alpha=None,
                 tol=1e-5, max_iter=10_000, kernel_memory=1024, history_every=None):
        self.nu = nu
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.alpha = alpha
        self.tol = tol
        self.max_iter = max_iter
        self.kernel_memory = kernel_memory
        self.history_every = history_every

    def _prepare_fit(self, X):
        if self._linear():
            _check_memory(X.shape[1] + 1, "I/nu + H'H of the SMW identity", self.kernel_memory,
                          "use fewer features")
        super()._prepare_fit(X)

    def _fit_binary(self, X, y, history):
        m = X.shape[0]
        nu = 1.0 / m if self.nu == "1/m" else float(self.nu)
        alpha = _alpha_for(self.alpha, nu)
        if self._linear():
            _check_nu_scale(self, nu, m, as_rows_input(X)[3])
            w, gamma, u, n_iter, step = lsvm_linear(X, y, nu, alpha, self.tol, self.max_iter,
                                                    history)
            result = {"coef": w, "intercept": -gamma, "dual_coef": u * y}
        else:
            _check_memory(m, "Q = I/nu + D(K + ee')D", self.kernel_memory,
                          "use fewer samples (kernel='linear' needs only an (n_features+1)^2 "
                          "matrix)")
            rows = as_rows_input(X)
            K, n_evals = kernel_matrix(rows, rows, *self._kernel_args())
            _check_nu_scale(self, nu, m, np.diag(K))
            u, n_iter, step = lsvm_kernel(K, y, nu, alpha, self.tol, self.max_iter, history)
            support = np.flatnonzero(u)
            result = {"support": support, "dual_coef": (u * y)[support],
                      "intercept": float(u @ y), "n_kernel_evals": n_evals}
        result.update(n_iter=n_iter, converged=step <= self.tol, nu=nu)
        if not result["converged"]:
            result.update(limit=f"max_iter={self.max_iter} iterations", parameter="max_iter",
                          detail=f"||u^(i+1) - u^i|| = {step:.3g} > tol={self.tol}")
        return result

    def _set_fitted(self, results, X):
        super()._set_fitted(results, X)
        if self._linear():
            self.dual_coef_ = [r["dual_coef"] for r in results]
