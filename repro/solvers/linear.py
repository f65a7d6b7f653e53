"""Plain linear soft-margin SVM by dual coordinate descent (LIBLINEAR's method).

The reference linear solver of the package: it exercises the estimator base and
the row view, and is the "SVM" baseline against which the papers' linear
methods can be compared on equal footing.
"""
from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from .._kernels.linear_dcd import dcd_l1svm
from ._linear_model import LinearModelMixin
from ._validation import as_rows_input
from .base import BaseSVMClassifier, shared_constraints


class LinearSVM(LinearModelMixin, BaseSVMClassifier):
    """Linear L1-loss SVM, ``min_w 1/2 ||w||^2 + C sum_i max(0, 1 - y_i f(x_i))``.

    Solved in the dual by coordinate descent with shrinking (Hsieh et al. 2008,
    the algorithm of LIBLINEAR's ``-s 3``), in Cython over dense or CSR rows.

    Parameters
    ----------
    C : float, default=1.0
        Weight of the hinge loss.
    tol : float, default=0.1
        Stop when the spread of projected gradients (max - min) is <= tol,
        over all variables. The default is LIBLINEAR's for ``-s 3`` (``-e``,
        "dual maximal violation <= eps", 0.1, unscaled, with the same rule in
        ``solve_l2r_l1l2_svc``). Measured at C = 1 against tol = 1e-6, it
        leaves the hinge primal (intercept included) 9e-5 to 9e-4 above the
        optimum (relative) on a1a-a9a, heart_scale and w8a, 1e-3 and 2e-3 on
        w7a and w4a, 1e-2 on w1a, in 51 to 490 passes; over C in {0.1, 1, 10} the test accuracy moved by at most
        0.07 points on a1a, a9a, w1a and w8a (heart_scale's training accuracy:
        0.75 points at C = 0.1). tol = 1e-4 (scikit-learn LinearSVC's default) needs
        3,566 passes on a1a and up to 41,041 on a5a: pass a smaller tol (and
        a larger max_iter) when the optimum itself is wanted.
    max_iter : int, default=1000
        Maximum number of passes over the data. A fit that reaches it warns
        (ConvergenceWarning): at the default tol that happens on unscaled data
        (german, fourclass and splice as published: 206, 39 and at most 389
        passes once scaled to [-1, 1]) or with a large C (a1a, a9a and w8a at
        C = 10). LIBLINEAR's own cap is not this one: liblinear-official 2.50
        (the version this package installs) stops ``-s 3`` at 300 passes with
        "reaching max number of iterations" whatever ``-e`` is (measured on a9a
        and w8a, C = 1, ``-B 1``, at ``-e`` 0.1 and 1e-6), so compare the two
        at equal passes or at an equal gap, not at equal ``-e``.
    fit_intercept : bool, default=True
        Append a constant feature ``intercept_scaling`` to every row, so that
        ``f(x) = w'x + b`` with ``b`` regularised as a weight (LIBLINEAR ``-B``).
        With False, ``f(x) = w'x`` (the formulation of the NESVM and LDM papers'
        bias-free models).
    intercept_scaling : float, default=1.0
        Value of that constant feature.
    random_state : int, RandomState or None, default=0
        Seed of the coordinate order (the permutations of every pass). None:
        a seed drawn from NumPy's global random state, so repeated fits differ
        (see ``BaseSVMClassifier._seed``).
    history_every : int or None, default=1
        Stride of ``history_`` in passes (see the base module's "Trace"); the
        default keeps every pass: a pass costs O(nnz) and its trace entry one
        call, the O(d) objective being evaluated outside the timing.

    Attributes
    ----------
    coef_ : ndarray (n_problems, n_features)
    intercept_ : ndarray (n_problems,)
    dual_coef_ : list of ndarray
        ``alpha_i * y_i`` for every training row of each problem.
    n_iter_ : int or ndarray
    converged_ : bool
        Whether every problem met ``tol`` before ``max_iter`` (one
        ConvergenceWarning per fit is issued when one did not).
    n_unconverged_problems_ : int
        How many problems stopped at ``max_iter``.
    history_ : dict of arrays
        ``problem, iteration, time, objective``: the dual objective (to
        minimise) after the passes kept (see ``history_every``).
    """

    _parameter_constraints = {
        **shared_constraints("C", "tol", "max_iter", "random_state", "history_every"),
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, C=1.0, tol=0.1, max_iter=1000, fit_intercept=True,
                 intercept_scaling=1.0, random_state=0, history_every=1):
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.random_state = random_state
        self.history_every = history_every

    def _fit_binary(self, X, y, history):
        bias = self.intercept_scaling if self.fit_intercept else 0.0
        rows = as_rows_input(X)
        with np.errstate(over="ignore"):
            diagonal = rows[3].max(initial=0.0) + bias * bias  # Q_ii with the constant feature
        if not np.isfinite(diagonal):
            # Q_ii = inf makes every step 0: the zero model would pass the stop
            raise ValueError(f"LinearSVM: intercept_scaling={self.intercept_scaling!r} is too large: "
                             f"the dual's diagonal ||x||^2 + intercept_scaling^2 overflows float64; "
                             f"lower intercept_scaling")
        w, wb, alpha, n_iter, converged = dcd_l1svm(
            rows, y, self.C, bias, self.tol, self.max_iter, self._seed(), history.callback,
        )
        result = {"coef": w, "intercept": wb * bias, "dual_coef": alpha * y,
                  "n_iter": n_iter, "converged": converged}
        if not converged:
            result.update(limit=f"max_iter={self.max_iter} passes", parameter="max_iter",
                          detail=f"the projected-gradient spread was still above tol={self.tol}")
        return result

    def _set_fitted(self, results, X):
        super()._set_fitted(results, X)
        self.dual_coef_ = [r["dual_coef"] for r in results]
