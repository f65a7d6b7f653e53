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
    """Linear soft-margin SVM by dual coordinate descent: LIBLINEAR's ``-s 3`` method in Cython.
    It minimises ``1/2 ||w||^2 + C sum_i max(0, 1 - y_i f(x_i))`` (hinge loss,
    with an optional regularised bias) by Hsieh et al.'s dual coordinate
    descent with shrinking [1]_ over dense or CSR rows. It is not one of the
    five papers' methods but their common baseline: the linear SVM that LDM
    (ldm.txt), LSVM (lsvm_section3.txt) and NESVM (nesvm.txt) are compared
    with, as LIBLINEAR [2]_. It solves the problem of scikit-learn's
    ``LinearSVC(loss='hinge')`` by the same algorithm (0.72 to 0.98 times
    LIBLINEAR ``-s 3``'s time on a9a and w8a at equal tol,
    paper_tables/performance.md); use it instead of LinearSVC when you want
    this package's interface (``history_`` of the dual objective per pass,
    ``converged_`` per problem, one-vs-one, int64 CSR indices) or a
    comparison with the papers' solvers on equal terms; otherwise LinearSVC is
    the same model.

    Parameters
    ----------
    C : float, default=1.0
        Weight of the hinge loss.
    tol : float, default=0.1
        Stop when the spread of projected gradients (max - min) over all
        variables is at most ``tol``: LIBLINEAR's ``-e`` default for ``-s 3``.
        Pass a smaller ``tol`` (and a larger ``max_iter``) when the optimum
        itself is wanted (Notes).
    max_iter : int, default=1000
        Maximum number of passes over the data; a fit that reaches it warns
        (ConvergenceWarning).
    fit_intercept : bool, default=True
        Append a constant feature ``intercept_scaling`` to every row, so that
        ``f(x) = w'x + b`` with b regularised as a weight (LIBLINEAR ``-B``).
        False: ``f(x) = w'x`` (the NESVM and LDM papers' bias-free models).
    intercept_scaling : float, default=1.0
        Value of that constant feature.
    random_state : int, RandomState or None, default=0
        Seed of the coordinate order (a permutation every pass); None draws a
        seed, so repeated fits differ.
    history_every : int or None, default=None
        Stride of ``history_`` in passes (the dual objective); None: no
        trace. A kept entry costs one call, the O(d) objective being
        evaluated outside the timing.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels; ``classes_[1]`` is the positive class.
    coef_ : ndarray of shape (n_problems, n_features)
        w of each problem.
    intercept_ : ndarray of shape (n_problems,)
        b (``intercept_scaling`` times the constant feature's weight).
    dual_coef_ : list of ndarray
        ``alpha_i y_i`` for every training row of each problem.
    n_iter_ : int or ndarray
        Passes per problem.
    converged_ : bool
        Every problem met ``tol`` before ``max_iter`` (otherwise one
        ConvergenceWarning per fit).
    n_unconverged_problems_ : int
        How many problems stopped at ``max_iter``.
    history_ : dict of ndarray or None
        ``problem, iteration, time, objective``: the dual objective (to
        minimise) after the passes kept.

    See Also
    --------
    sklearn.svm.LinearSVC : LIBLINEAR; ``loss='hinge'`` is this problem.
    repro.objectives.hinge_primal : the primal objective at a fitted model.

    Notes
    -----
    The dual, with ``Q_ij = y_i y_j x_i'x_j`` (x_i extended by the constant
    feature when ``fit_intercept``)::

        min_alpha  1/2 alpha'Q alpha - e'alpha,   0 <= alpha_i <= C,
        alpha_i <- min(max(alpha_i - (y_i w'x_i - 1) / Q_ii, 0), C),   w = sum_i alpha_i y_i x_i,

    one coordinate at a time in a random order each pass, variables stuck at a
    bound set aside (shrinking) and restored before the test is accepted.
    **Stopping rule**: the spread max - min of the projected gradients at most
    ``tol`` over all variables (LIBLINEAR's ``solve_l2r_l1l2_svc``), or
    ``max_iter`` passes.

    At the default ``tol=0.1`` and C = 1 the hinge primal (intercept included)
    was left 9e-5 to 9e-4 above the optimum (relative) on a1a-a9a, heart_scale
    and w8a, 1e-3 and 2e-3 on w7a and w4a, 1e-2 on w1a, in 51 to 490 passes;
    over C in {0.1, 1, 10} the test accuracy moved by at most 0.07 points on
    a1a, a9a, w1a and w8a against tol = 1e-6. tol = 1e-4 (LinearSVC's default)
    needs 3,566 passes on a1a and up to 41,041 on a5a. ``max_iter`` binds at
    the default tol on unscaled data (german, fourclass and splice as
    published: 206, 39 and at most 389 passes once scaled to [-1, 1]) or with a
    large C (a1a, a9a and w8a at C = 10). LIBLINEAR's own cap differs:
    liblinear-official 2.50 stops ``-s 3`` at 300 passes whatever ``-e`` is, so
    compare the two at equal passes or at an equal gap, not at equal ``-e``.

    References
    ----------
    .. [1] C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi and S.
       Sundararajan, "A dual coordinate descent method for large-scale linear
       SVM", ICML 2008.
    .. [2] R.-E. Fan, K.-W. Chang, C.-J. Hsieh, X.-R. Wang and C.-J. Lin,
       "LIBLINEAR: a library for large linear classification", JMLR 9, 2008.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from repro.solvers import LinearSVM
    >>> X, y = make_classification(n_samples=300, n_features=10, random_state=0)
    >>> clf = LinearSVM(C=1.0).fit(X[:200], y[:200])
    >>> clf.converged_
    True
    >>> print(clf.score(X[200:], y[200:]))
    0.9...
    """

    _parameter_constraints = {
        **shared_constraints("C", "tol", "max_iter", "random_state", "history_every"),
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, C=1.0, tol=0.1, max_iter=1000, fit_intercept=True,
                 intercept_scaling=1.0, random_state=0, history_every=None):
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
