"""SMO for the kernel C-SVM, and the hard-margin SVM built on it.

Two optimisers in ``pyx/smo.pyx`` solve the same dual with the same stopping
rule. ``working_set='second_order'`` (the default) is ``smo_solve_second_order``,
LIBSVM's method (Fan, Chen and Lin's second-order working sets, shrinking with
gradient reconstruction, a kernel-column cache; the second part of the pyx
module docstring). ``working_set='keerthi'`` is ``smo_solve`` (Keerthi,
Shevade, Bhattacharyya, Murthy 2001, "Improvements to Platt's SMO algorithm
for SVM classifier design"), the GS-SVM paper's baseline; its module docstring
states the conventions that decide the kernel-evaluation counts of that
paper's Table 1 (F_i outside I0 over the support vectors only, no count for
the RBF diagonal, takeStep's minimum step ``eps_step``, sequential order),
which the experiments select by name (``working_set='keerthi'``,
``kernel_cache=False``). ``_solve_second_order`` below reports the second
path as ``_solve`` reports the first: the same stopping rule (b_up > b_low -
2 tol, which is LIBSVM's m(alpha) - M(alpha) < eps at eps = 2 tol: F_i = y_i
G_i, m = -b_up, M = -b_low), the same gap, the same final feasibility check.
"""
from math import isfinite
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import Interval, Options

from .._kernels.smo import (alpha_summary, smo_solve, smo_solve_second_order,
                            smo_solve_second_order_pairs)
from ._kernel_model import KernelExpansionMixin
from ._validation import as_columns_input, as_rows_input
from .base import KERNEL_CONSTRAINTS, KKT_TOL, BaseSVMClassifier, History, shared_constraints


def _solve(estimator, X, y, history, *, C, modification, tol, kernel_cache,
           cache_size, eps_step, max_iter, seed=None, alpha0=None,
           working_set="keerthi", shrinking=True, count_table_memory=0.0):
    if working_set == "second_order":
        return _solve_second_order(estimator, X, y, history, C=C, tol=tol,
                                   cache_size=cache_size, shrinking=shrinking,
                                   max_iter=max_iter, alpha0=alpha0, eps_step=eps_step)
    order = None
    if seed is not None:
        order = np.random.default_rng(seed).permutation(X.shape[0]).astype(np.int32)
    rows = as_rows_input(X, gram=estimator._precomputed())
    # CSR data in cache mode: cached kernel rows through the columns of X (same
    # values, fewer products); the row-by-row mode never reads them
    columns = None
    if kernel_cache and not rows[6] and not estimator._precomputed():
        columns = as_columns_input(rows)
    count_table = (not kernel_cache and not estimator._precomputed()
                   and 8.0 * X.shape[0] ** 2 <= count_table_memory * 2.0 ** 20)
    alpha, b, n_iter, n_evals, converged, b_up, b_low, objective, stats = smo_solve(
        rows, y, float(C), *estimator._kernel_args(), int(modification),
        float(tol), float(eps_step), bool(kernel_cache), float(cache_size),
        int(max_iter), history if history.every else None, order, alpha0, columns,
        int(history.every or 0), count_table,
    )
    gap = b_low - b_up
    stop = {}
    if not converged:
        stop = {"limit": f"max_iter={max_iter} successful steps", "parameter": "max_iter",
                "detail": f"the optimality test b_up > b_low - 2 tol did not hold: "
                          f"b_low - b_up = {gap:.3g}, tol = {tol}"}
    elif gap > 2 * tol:
        # the main loop ended because every remaining step was shorter than eps_step
        converged = False
        stop = {"limit": f"eps_step={eps_step:g} (every remaining step refused)",
                "parameter": "eps_step",
                "detail": f"stopped with b_low - b_up = {gap:.3g} > 2 tol = {2 * tol:g}: the "
                          f"remaining steps were refused by eps_step = {eps_step:g} (Platt's "
                          f"1e-3 does this; 1e-12 refuses round-off steps only)"}
    return _result(estimator, y, C, eps_step, alpha, b, n_iter, n_evals, converged, gap,
                   objective, stop, stats)


def _result(estimator, y, C, eps_step, alpha, b, n_iter, n_evals, converged, gap, objective,
            stop, stats):
    """Both paths' result dict, after the one final check of the solution
    (``_check_solution``): a failed check makes the fit unconverged."""
    lo, hi, balance, total, support, dual_coef = alpha_summary(alpha, y)
    failed = _check_solution(estimator, lo, hi, balance, total, C, b, objective, n_iter,
                             eps_step)
    if failed and stop:
        stop["detail"] += f"; and the final check of the solution failed: {failed}"
    elif failed:
        converged, stop = False, {"limit": "the final check of the solution", "parameter": None,
                                  "detail": failed}
    return {
        "support": support,
        "dual_coef": dual_coef,
        "intercept": -b,  # Keerthi: f(x) = sum alpha_i y_i K(x_i, x) - b
        "n_iter": n_iter,
        "n_kernel_evals": n_evals,
        "converged": converged,
        **stop,
        "gap": gap,
        "objective": objective,
        # _check_solution raised on a non-finite alpha, b or objective: the
        # model's numbers (alpha y, -b, objective) are finite (base._check_finite)
        "finite": True,
        "alpha": alpha,
        "C": C,
        **stats,
    }


def _solve_second_order(estimator, X, y, history, *, C, tol, cache_size, shrinking,
                        max_iter, alpha0, eps_step):
    """``working_set='second_order'``: ``smo_solve_second_order`` (pyx/smo.pyx,
    the second part of its docstring). Its stopping rule is the Keerthi path's:
    LIBSVM's m(alpha) - M(alpha) < eps with m = -b_up, M = -b_low (F_i = y_i
    G_i, LIBSVM's gradient G times y_i) and eps = 2 tol is b_up > b_low - 2 tol,
    tested on every example with exact F before ``converged`` is True; the
    final feasibility check below is the same function."""
    rows = as_rows_input(X, gram=estimator._precomputed())
    columns = None
    if not rows[6] and not estimator._precomputed():
        columns = as_columns_input(rows)
    solved = smo_solve_second_order(
        rows, y, float(C), *estimator._kernel_args(), float(tol), float(cache_size),
        bool(shrinking), int(max_iter), history if history.every else None, alpha0, columns,
        int(history.every or 0),
    )
    return _second_order_result(estimator, y, solved, C=C, tol=tol, max_iter=max_iter,
                                eps_step=eps_step)


def _second_order_result(estimator, y, solved, *, C, tol, max_iter, eps_step):
    """The result dict of one problem from what ``smo_solve_second_order``
    returned (``solved``), after the final check."""
    alpha, b, n_iter, n_evals, converged, b_up, b_low, objective, stats = solved
    gap = b_low - b_up
    stop = {}
    if not converged and stats["stalled"]:
        stop = {"limit": "the rounding of the multipliers (a working pair's step changed neither)",
                "parameter": "tol",
                "detail": f"the optimality test b_up > b_low - 2 tol did not hold after "
                          f"{n_iter} steps: b_low - b_up = {gap:.3g}, tol = {tol}; the working "
                          f"pair's step changed neither multiplier"}
    elif not converged:
        stop = {"limit": f"max_iter={max_iter} successful steps", "parameter": "max_iter",
                "detail": f"the optimality test b_up > b_low - 2 tol did not hold: "
                          f"b_low - b_up = {gap:.3g}, tol = {tol}"}
    # the second path does not snap multipliers by eps_step: its box steps put a
    # multiplier on its bound exactly, and the equality moves by rounding only
    return _result(estimator, y, C, eps_step, alpha, b, n_iter, n_evals, converged, gap,
                   objective, stop, {key: stats[key] for key in ("n_F", "n_F_evals", "n_examine")})


class _OneCallMixin:
    """The one-vs-one problems of ``working_set='second_order'`` on dense data
    with a computed kernel, solved in one Cython call
    (``smo_solve_second_order_pairs``) instead of the base's loop: the same
    problems, rows, steps and results bitwise, without the Python around each
    small problem (issue 25: it was about a third of a 10-fold cross-validation
    of Vowel, 55 problems of about 96 rows per fit). Everything else (two
    classes, CSR, a precomputed kernel, the Keerthi path) takes the base's loop.
    A subclass says how it solves in ``_second_order_settings``."""

    def _solve_problems(self, X, y_idx, gram):
        if (self.working_set != "second_order" or len(self.problems_) == 1 or sp.issparse(X)
                or self._precomputed()):
            return super()._solve_problems(X, y_idx, gram)
        settings = self._second_order_settings()
        every = self._history_every()
        histories = [History(every) for _ in self.problems_]
        alpha0s = [self._next_alpha0() for _ in self.problems_]
        solved = smo_solve_second_order_pairs(
            as_rows_input(X), np.asarray(y_idx, dtype=np.intp), self.problems_,
            float(settings["C"]), *self._kernel_args(), float(settings["tol"]),
            float(settings["cache_size"]), bool(settings["shrinking"]),
            int(settings["max_iter"]), [h if every else None for h in histories], alpha0s,
            int(every or 0))
        results = []
        for (rows, y, out), history in zip(solved, histories):
            history.close()
            result = _second_order_result(self, y, out, C=settings["C"], tol=settings["tol"],
                                          max_iter=settings["max_iter"],
                                          eps_step=settings["eps_step"])
            result["rows"] = rows
            results.append(result)
        return results, histories


_TINY = np.finfo(float).tiny


def _balance_rtol(eps_step):
    """|sum_i y_i alpha_i| allowed at the end, relative to sum_i alpha_i: every
    step keeps the equality up to rounding, and a multiplier put on a bound
    moves it by at most (2 eps_step + 1e-15) of the pair's scale (pyx/smo.pyx);
    a few such moves are allowed for, a larger imbalance is a broken solution."""
    return max(1e-8, 4.0 * (2.0 * eps_step + 1e-15))


def _check_solution(estimator, lo, hi, balance, total, C, b, objective, n_iter, eps_step):
    """What is wrong with the returned multipliers, or "" when they are a
    feasible point: finite, in the box [0, C], sum_i y_i alpha_i = 0 (up to
    ``_balance_rtol``). ``lo``, ``hi``, ``balance``, ``total``: what
    ``alpha_summary`` (pyx/smo.pyx) returns for them. Non-finite values raise
    a ValueError (data or kernel values beyond float64: no setting of the
    solver helps)."""
    name = type(estimator).__name__
    # lo and hi are NaN when any multiplier is and hold any infinity, so finite
    # lo and hi is np.isfinite(alpha).all()
    if not (isfinite(lo) and isfinite(hi) and isfinite(b) and isfinite(objective)):
        raise ValueError(
            f"{name}: non-finite multipliers, threshold or objective after {n_iter} SMO steps: "
            f"the kernel values overflow float64 (scale the features, or lower gamma / degree)")
    if lo < 0.0 or hi > C:
        return f"multipliers outside [0, C]: min {lo:.3g}, max {hi:.3g}, C = {C:g}"
    if abs(balance) > _balance_rtol(eps_step) * max(total, _TINY):
        return (f"sum_i y_i alpha_i = {abs(balance):.3g} for sum_i alpha_i = {total:.3g}: "
                f"the multipliers violate the equality constraint")
    return ""


class _WarmStartMixin:
    """``warm_start=True``: start each problem's SMO from the multipliers of the
    previous ``fit`` (scaled by ``min(1, C / C_previous)`` so they stay in the
    new box and keep ``sum y_i alpha_i = 0``) when ``y`` is the same as then;
    otherwise, and on the first fit, from alpha = 0. Meant for a path over C on
    one training set (a grid search along C): the end point does not depend on
    the start (the optimum, within ``tol``), the number of steps does."""

    def fit(self, X, y):
        """Fit; see the class docstring for ``warm_start``."""
        previous = getattr(self, "_warm_state", None)
        self._alpha_start = None
        if self.warm_start and previous is not None and np.array_equal(previous[0], np.asarray(y)):
            self._alpha_start = iter([a * min(1.0, self.C / c) for a, c in previous[1]])
        try:
            super().fit(X, y)
        finally:
            self._alpha_start = None
        self._warm_state = (np.array(y, copy=True), self._final_alphas)
        return self

    def _next_alpha0(self):
        return None if self._alpha_start is None else next(self._alpha_start)


def _set_smo_fitted(estimator, results, X):
    KernelExpansionMixin._set_fitted(estimator, results, X)
    estimator._final_alphas = [(r["alpha"], r["C"]) for r in results]
    estimator.dual_objective_ = np.array([r["objective"] for r in results])
    estimator.optimality_gap_ = np.array([r["gap"] for r in results])
    estimator.fit_stats_ = [
        {key: r[key] for key in ("n_F", "n_F_evals", "n_examine", "n_kernel_evals")}
        for r in results
    ]


class SMO(_OneCallMixin, _WarmStartMixin, KernelExpansionMixin, BaseSVMClassifier):
    """Kernel C-SVM trained by SMO: LIBSVM's second-order method or Keerthi's.

    Solves the dual of the soft-margin kernel SVM, the problem of
    scikit-learn's :class:`~sklearn.svm.SVC`, by sequential minimal
    optimisation on one of two paths: by default LIBSVM's method [2]_ [3]_
    (second-order working sets, shrinking, a kernel cache), or Platt's SMO
    with Keerthi et al.'s Modification 1 or 2 [1]_, the baseline of the GS-SVM
    paper [4]_ (``working_set='keerthi'``; with ``kernel_cache=False`` it
    counts every kernel value as that paper's Table 1 does). Use it instead of
    SVC when you want what SVC does not give: the kernel evaluations counted
    (``n_kernel_evals_``), the dual objective and its trace, a warm start along
    a path over C, a Gram matrix checked once for a grid of fits
    (:class:`~repro.solvers.PrecomputedGram`), or Keerthi's algorithm itself;
    at the same stopping rule the default path took 0.18 to 0.97 of SVC's time
    on a4a, w8a and ijcnn1 (``paper_tables/performance.md``). For a linear
    kernel on many samples use :class:`~sklearn.svm.LinearSVC` (or
    :class:`~repro.solvers.LinearSVM`), for a stream
    :class:`~sklearn.linear_model.SGDClassifier`.

    Parameters
    ----------
    C : float, default=1.0
        Upper bound of the multipliers (the box of the dual).
    kernel : {'rbf', 'linear', 'poly', 'precomputed'}, default='rbf'
        'rbf': ``exp(-gamma ||x - z||^2)``; 'linear': ``x.z``; 'poly':
        ``(gamma x.z + coef0)**degree``; 'precomputed': ``fit`` takes the Gram
        matrix K(X_train, X_train) (an array or a ``PrecomputedGram``) and
        prediction K(X, X_train).
    gamma : float, 'scale' or 'auto', default='scale'
        Width of 'rbf' and 'poly'. 'scale': ``1 / (n_features * X.var())``,
        'auto': ``1 / n_features``, computed on the whole training set at
        ``fit`` as SVC does and kept in ``_gamma``. The GS-SVM paper's theta
        is a number (0.05 in its Table 1).
    coef0 : float, default=0.0
        Constant of 'poly' (>= 0: the kernel must be positive semi-definite).
    degree : int, default=3
        Degree of 'poly'.
    modification : {1, 2}, default=2
        ``working_set='keerthi'`` only: Keerthi's Modification 1 or 2 (Notes).
    tol : float, default=1e-3
        Stop when ``b_low - b_up <= 2 tol`` (Notes); in (0, 1). SVC's ``tol``
        is this rule's ``2 tol``: ``SMO(tol=1e-3)`` stops as ``SVC(tol=2e-3)``.
    kernel_cache : bool, default=True
        ``working_set='keerthi'`` only. True: an LRU cache of kernel rows
        within ``cache_size`` MB. False: count mode, no cache, every kernel
        value needed is computed and counted (the GS-SVM paper's setting; the
        same steps and multipliers, slower).
    cache_size : float, default=200
        Kernel cache in MB (both paths).
    eps_step : float, default=1e-12
        ``working_set='keerthi'`` only: takeStep's minimum step (Notes).
    max_iter : int, default=10_000_000
        Maximum number of successful steps per problem; reaching it stops the
        fit with a ConvergenceWarning.
    random_state : int, RandomState or None, default=None
        ``working_set='keerthi'`` only. None: the passes visit the examples in
        order 0..l-1 (Keerthi's pseudo-code; unlike scikit-learn, None is not
        random here); a seed: in a random permutation drawn once per problem.
    warm_start : bool, default=False
        Start from the previous fit's multipliers (scaled into the new box)
        when ``y`` is unchanged: a path over increasing C costs a fraction of
        cold starts. The optimum does not depend on the start.
    history_every : int or None, default=None
        None: no trace. An int: record the dual objective in ``history_``
        every ``history_every`` successful steps and at the last (about a
        microsecond of Python per record, inside the fit's wall time).
    working_set : {'second_order', 'keerthi'}, default='second_order'
        The optimiser (Notes). Both solve the same dual to the same rule;
        their multipliers agree within ``tol``, not bitwise.
    shrinking : bool, default=True
        ``working_set='second_order'`` only: LIBSVM's shrinking heuristic.
    count_table_memory : float, default=0
        Count mode only (``working_set='keerthi'``, ``kernel_cache=False``, a
        computed kernel): a problem whose l x l kernel matrix fits in this
        many MB computes it once and counts each value read from it as an
        evaluation: the same steps and counts, faster. 0: never.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels; ``classes_[1]`` is the positive class of a binary fit.
    support_, support_vectors_, dual_coef_ : ndarray, or a list (one per problem)
        Training indices of the support vectors, the vectors (None with
        kernel='precomputed') and their ``alpha_i y_i``.
    intercept_, n_support_ : ndarray of shape (n_problems,)
        The bias of each problem's ``f``, and its number of support vectors.
    n_kernel_evals_ : int
        Kernel values computed during training, all problems together.
    n_iter_ : int or ndarray of shape (n_problems,)
        Successful steps per problem.
    converged_, n_unconverged_problems_ : bool, int
        Whether every problem met the stopping rule, and how many did not
        (one ConvergenceWarning when ``max_iter`` or ``eps_step`` stopped one).
    dual_objective_, optimality_gap_ : ndarray of shape (n_problems,)
        The final dual objective W (Notes), and ``b_low - b_up`` at the end
        (``<= 2 tol`` when converged).
    fit_stats_ : list of dict
        Per problem: ``n_kernel_evals`` and, on Keerthi's path, ``n_F`` (F_i
        computed from scratch), ``n_F_evals`` (their kernel values) and
        ``n_examine`` (examineExample calls); 0 on the second-order path.
    history_ : dict of ndarray
        ``problem, iteration, time, objective``: the dual objective every
        ``history_every`` steps (empty arrays when ``history_every=None``).

    See Also
    --------
    HardMarginSVM : the same solver with a box that stands in for infinity.
    GSSVM : the greedy stagewise SVM that the GS-SVM paper compares with SMO.

    Notes
    -----
    The dual, for labels y_i in {-1, +1} (one-vs-one problems for more
    classes, as SVC)::

        min_alpha  W(alpha) = 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij - sum_i alpha_i
        s.t.       0 <= alpha_i <= C,   sum_i y_i alpha_i = 0,

    and the model ``f(x) = sum_i alpha_i y_i K(x_i, x) + intercept_``. With
    Keerthi's F_i = sum_j alpha_j y_j K_ij - y_i and the index sets I_up =
    {alpha_i < C, y_i = +1} + {alpha_i > 0, y_i = -1} and I_low = {alpha_i <
    C, y_i = -1} + {alpha_i > 0, y_i = +1}, the thresholds are b_up = min
    over I_up of F_i and b_low = max over I_low of F_i, and the stopping rule
    of both paths is::

        b_low - b_up <= 2 tol

    tested on every example with exact F_i. It is LIBSVM's m(alpha) -
    M(alpha) < eps with eps = 2 tol (F_i = y_i G_i, m = -b_up, M = -b_low);
    ``intercept_`` is -(b_up + b_low) / 2 (on the second-order path stopped
    unconverged, minus LIBSVM's mean F_i over the free examples).

    'second_order' keeps F_i for every example, takes the i in I_up of least
    F_i and the j in I_low that decreases W most to second order (WSS 2 of
    [2]_), and shrinks examples that stay at a bound, rebuilding their F_i
    before the final test. 'keerthi' is the pseudo-code of [1]_, with an
    error cache of F_i over I0 = {0 < alpha_i < C} only: Modification 1
    alternates passes over all examples and over I0, Modification 2 replaces
    the I0 pass by steps on the pair (i_up, i_low); takeStep refuses a step
    with ``|a2 - alph2| < eps_step (a2 + alph2 + eps_step)`` (Platt's 1e-3
    stops Modification 2 above the 2 tol gap; 1e-12 refuses round-off
    only). ``pyx/smo.pyx`` states the conventions that decide the counts.

    Every fit ends with a check of the multipliers (finite, in [0, C],
    ``sum_i y_i alpha_i = 0``); a failed check makes the fit unconverged.

    References
    ----------
    .. [1] S. S. Keerthi, S. K. Shevade, C. Bhattacharyya and K. R. K. Murthy,
       "Improvements to Platt's SMO algorithm for SVM classifier design",
       Neural Computation 13(3):637-649, 2001.
    .. [2] R.-E. Fan, P.-H. Chen and C.-J. Lin, "Working set selection using
       second order information for training support vector machines",
       Journal of Machine Learning Research 6:1889-1918, 2005.
    .. [3] C.-C. Chang and C.-J. Lin, "LIBSVM: a library for support vector
       machines", ACM Transactions on Intelligent Systems and Technology
       2(3):27, 2011.
    .. [4] L. Bo, L. Wang and L. Jiao, "Training support vector machines
       using greedy stagewise algorithm", PAKDD 2005 (``gs_svm.txt``).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.model_selection import train_test_split
    >>> from repro.solvers import SMO
    >>> X, y = make_classification(n_samples=300, n_features=8, random_state=0)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> clf = SMO(C=1.0).fit(X_train, y_train)
    >>> print(f"{clf.score(X_test, y_test):.2f}")
    0.92

    The same problem as scikit-learn's SVC, whose ``tol`` is twice ours:

    >>> from sklearn.svm import SVC
    >>> svc = SVC(C=1.0, tol=2e-3).fit(X_train, y_train)
    >>> print(f"{svc.score(X_test, y_test):.2f}")
    0.92

    The GS-SVM paper's baseline, which counts every kernel value it computes:

    >>> paper = SMO(C=1.0, gamma=0.05, working_set="keerthi", modification=2,
    ...             kernel_cache=False).fit(X_train, y_train)
    >>> print(f"{paper.score(X_test, y_test):.2f}", paper.n_kernel_evals_ > 0)
    0.92 True
    """

    _parameter_constraints = {
        **KERNEL_CONSTRAINTS,
        **shared_constraints("C", "max_iter", "random_state", "history_every"),
        "tol": KKT_TOL,
        "modification": [Options(Integral, {1, 2})],
        "kernel_cache": ["boolean"],
        "cache_size": [Interval(Real, 0, None, closed="neither")],
        "count_table_memory": [Interval(Real, 0, None, closed="left")],
        "eps_step": [Interval(Real, 0, None, closed="left")],
        "warm_start": ["boolean"],
        "working_set": [Options(str, {"keerthi", "second_order"})],
        "shrinking": ["boolean"],
    }

    def __init__(self, C=1.0, kernel="rbf", gamma="scale", coef0=0.0, degree=3,
                 modification=2, tol=1e-3, kernel_cache=True, cache_size=200,
                 eps_step=1e-12, max_iter=10_000_000, random_state=None, warm_start=False,
                 history_every=None, working_set="second_order", shrinking=True,
                 count_table_memory=0.0):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.modification = modification
        self.tol = tol
        self.kernel_cache = kernel_cache
        self.cache_size = cache_size
        self.eps_step = eps_step
        self.max_iter = max_iter
        self.random_state = random_state
        self.warm_start = warm_start
        self.history_every = history_every
        self.working_set = working_set
        self.shrinking = shrinking
        self.count_table_memory = count_table_memory

    def _second_order_settings(self):
        return {"C": self.C, "tol": self.tol, "cache_size": self.cache_size,
                "shrinking": self.shrinking, "max_iter": self.max_iter,
                "eps_step": self.eps_step}

    def _fit_binary(self, X, y, history):
        second = self.working_set == "second_order"
        return _solve(self, X, y, history, C=self.C, modification=self.modification,
                      tol=self.tol, kernel_cache=self.kernel_cache,
                      cache_size=self.cache_size, eps_step=self.eps_step,
                      max_iter=self.max_iter,
                      seed=None if self.random_state is None or second else self._seed(),
                      alpha0=self._next_alpha0(), working_set=self.working_set,
                      shrinking=self.shrinking, count_table_memory=self.count_table_memory)

    def _set_fitted(self, results, X):
        _set_smo_fitted(self, results, X)


class HardMarginSVM(_OneCallMixin, _WarmStartMixin, KernelExpansionMixin, BaseSVMClassifier):
    """Hard-margin kernel SVM, solved as SMO's C-SVM with a box of C = 1e6.

    The hard-margin SVM (the HM-SVMs of the GS-SVM paper's Table 2 [1]_): the
    dual of :class:`SMO` with an upper bound ``C`` so large that it binds only
    where no separating function exists. Use it where you would use
    :class:`~sklearn.svm.SVC` with a huge C, to fit the training data with the
    hardest margin the kernel allows (it ran at 0.81 to 0.88 of
    ``SVC(C=1e6)``'s time on sonar, ionosphere and wdbc,
    ``paper_tables/performance.md``); on noisy data a soft margin
    (:class:`SMO` or SVC at a C chosen by cross-validation) generalises better.

    Parameters
    ----------
    kernel : {'rbf', 'linear', 'poly', 'precomputed'}, default='rbf'
        As in :class:`SMO`.
    gamma : float, 'scale' or 'auto', default='scale'
        As in :class:`SMO` (the paper's theta is a number, e.g. 0.05). Scale
        the features first: on heart's raw features (up to 564) 'scale' is
        1.2e-5, a kernel so wide that the hard margin was not reached in 2e6
        steps (gamma 0.05: 589 steps).
    coef0 : float, default=0.0
        As in :class:`SMO`.
    degree : int, default=3
        As in :class:`SMO`.
    C : float, default=1e6
        The box that stands in for infinity (Notes).
    tol : float, default=1e-3
        Stop when ``b_low - b_up <= 2 tol``, in (0, 1), as in :class:`SMO`.
    max_iter : int, default=10_000_000
        Maximum number of successful SMO steps per problem (a
        ConvergenceWarning when reached; the last iterate is kept).
    warm_start : bool, default=False
        As in :class:`SMO` (e.g. continue from the soft-margin solution at
        the largest C of a grid).
    history_every : int or None, default=None
        As in :class:`SMO`: None, no trace.
    working_set : {'second_order', 'keerthi'}, default='second_order'
        As in :class:`SMO`: LIBSVM's method, or Keerthi's Modification 2 with
        the kernel-row cache. Both use a 200 MB cache (and ``eps_step`` =
        1e-12 on Keerthi's path).

    Attributes
    ----------
    classes_, support_, support_vectors_, dual_coef_, intercept_, n_support_ :
        As in :class:`SMO`.
    n_kernel_evals_, n_iter_, converged_, n_unconverged_problems_ :
        As in :class:`SMO`.
    dual_objective_, optimality_gap_, fit_stats_, history_ :
        As in :class:`SMO`.

    See Also
    --------
    SMO : the soft-margin SVM this estimator solves with a huge C.

    Notes
    -----
    The hard-margin dual::

        min_alpha  1/2 sum_ij alpha_i alpha_j y_i y_j K_ij - sum_i alpha_i
        s.t.       alpha_i >= 0,   sum_i y_i alpha_i = 0

    is unbounded below (the primal is infeasible) as soon as no separating
    function exists in the kernel's feature space. With the RBF kernel (a
    positive definite Gram matrix on distinct points) that happens exactly
    when identical inputs carry different labels, as in Adult and several UCI
    sets of the paper's Table 2: along alpha_i = alpha_j -> infinity for such
    a pair f is unchanged and the dual decreases without limit. The
    soft-margin dual with the box ``0 <= alpha_i <= C`` is solved instead. It
    equals the hard-margin solution whenever that exists with every alpha_i
    below C; otherwise the larger multiplier of each contradictory pair sits
    at C and the rest of the data is fitted with margins as hard as the box
    allows. The stopping rule is :class:`SMO`'s, ``b_low - b_up <= 2 tol``.
    Every step is bounded by the box and ``max_iter`` bounds the steps, so a
    fit always ends; on overlapping classes with a small gamma the number of
    steps grows roughly in proportion to C (about 1e7 steps for 200
    overlapping 2-D points; LIBSVM at C = 1e6 needs millions there too).

    References
    ----------
    .. [1] L. Bo, L. Wang and L. Jiao, "Training support vector machines
       using greedy stagewise algorithm", PAKDD 2005 (``gs_svm.txt``).

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from repro.solvers import HardMarginSVM
    >>> X, y = make_moons(n_samples=200, noise=0.1, random_state=0)
    >>> clf = HardMarginSVM(gamma=2.0).fit(X, y)
    >>> print(f"{clf.score(X, y):.2f}", clf.converged_)
    1.00 True
    """

    _parameter_constraints = {
        **KERNEL_CONSTRAINTS,
        **shared_constraints("C", "max_iter", "history_every"),
        "tol": KKT_TOL,
        "warm_start": ["boolean"],
        "working_set": [Options(str, {"keerthi", "second_order"})],
    }

    def __init__(self, kernel="rbf", gamma="scale", coef0=0.0, degree=3, C=1e6,
                 tol=1e-3, max_iter=10_000_000, warm_start=False, history_every=None,
                 working_set="second_order"):
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.warm_start = warm_start
        self.history_every = history_every
        self.working_set = working_set

    # Keerthi's Modification 2 in fast mode, or the second path, with these
    _CACHE_SIZE, _EPS_STEP = 200, 1e-12

    def _second_order_settings(self):
        return {"C": self.C, "tol": self.tol, "cache_size": self._CACHE_SIZE,
                "shrinking": True, "max_iter": self.max_iter, "eps_step": self._EPS_STEP}

    def _fit_binary(self, X, y, history):
        return _solve(self, X, y, history, C=self.C, modification=2, tol=self.tol,
                      kernel_cache=True, cache_size=self._CACHE_SIZE, eps_step=self._EPS_STEP,
                      max_iter=self.max_iter, alpha0=self._next_alpha0(),
                      working_set=self.working_set)

    def _set_fitted(self, results, X):
        _set_smo_fitted(self, results, X)
