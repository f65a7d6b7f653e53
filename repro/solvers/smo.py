"""SMO with Keerthi et al.'s Modifications 1 and 2, and the hard-margin SVM built on it.

The optimiser is ``pyx/smo.pyx`` (Keerthi, Shevade, Bhattacharyya, Murthy 2001,
"Improvements to Platt's SMO algorithm for SVM classifier design"); its module
docstring states the conventions that decide the kernel-evaluation counts of the
GS-SVM paper's Table 1 (F_i outside I0 over the support vectors only, no count
for the RBF diagonal, takeStep's minimum step ``eps_step``, sequential order).

``working_set='second_order'`` selects a second optimiser in the same module,
``smo_solve_second_order`` (LIBSVM's method: Fan, Chen and Lin's second-order
working sets, shrinking with gradient reconstruction, a kernel-column cache;
the second part of the pyx module docstring). It returns the same tuple, and
``_solve_second_order`` below reports it as ``_solve`` reports the first path:
the same stopping rule (b_up > b_low - 2 tol, which is LIBSVM's m(alpha) -
M(alpha) < eps at eps = 2 tol: F_i = y_i G_i, m = -b_up, M = -b_low), the same
gap, the same final feasibility check. The default stays 'keerthi', whose
steps, counts and records are unchanged.
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
    """Soft-margin kernel SVM trained by SMO with Keerthi's Modification 1 or 2.

    Solves ``min 1/2 sum alpha_i alpha_j y_i y_j K_ij - sum alpha_i`` subject to
    ``0 <= alpha_i <= C`` and ``sum y_i alpha_i = 0`` with the pseudo-code of
    Keerthi et al. (2001): the two thresholds b_up / b_low, an error cache over
    the non-bound set I0 and the optimality test ``b_up > b_low - 2 tol``.
    The model is ``f(x) = sum_i dual_coef_i K(x_i, x) + intercept_`` with
    ``intercept_ = -b`` and ``b = (b_up + b_low) / 2``.

    Parameters
    ----------
    C : float, default=1.0
        Upper bound of the multipliers (capacity control).
    kernel : {'rbf', 'linear', 'poly', 'precomputed'}, default='rbf'
        ``rbf``: ``exp(-gamma ||x - z||^2)`` (the GS-SVM paper's theta = gamma).
        ``precomputed``: ``fit`` takes the Gram matrix K(X_train, X_train) and
        prediction K(X, X_train); in fast mode its rows are the cache.
    gamma : float, 'scale' or 'auto', default=0.05
        Kernel width of rbf and poly (the GS-SVM paper's theta; 0.05 in its
        Table 1, where SMO is the baseline). ``'scale'``: ``1 / (n_features *
        X.var())`` and ``'auto'``: ``1 / n_features``, computed on the training
        data at ``fit`` as scikit-learn's SVC does (one-vs-one problems use the
        value of the whole training set) and stored in ``_gamma``, which
        prediction uses. Ignored by 'linear' and 'precomputed'.
    coef0, degree : kernel parameters of poly (see ``pyx/_kernel.pxd``).
    modification : {1, 2}, default=2
        Keerthi's Modification 1 (alternate passes over all examples and over I0)
        or Modification 2 (steps on the pair (i_up, i_low) instead of the I0 pass).
    tol : float, default=1e-3
        Keerthi's tau: stop when ``b_up > b_low - 2 tol`` over all examples.
        It must be below 1: at the start (all alpha 0) ``b_low - b_up = 2``,
        so a tol of 1 or more would accept the zero model without a step.
    kernel_cache : bool, default=False
        False: count mode, no cache, every kernel value needed is computed and
        counted (the setting of the GS-SVM paper's Table 1). True: fast mode, an
        LRU cache of kernel rows within ``cache_size`` MB (as LIBSVM); the same
        steps are taken (same alphas), only kernel values are reused.
    cache_size : float, default=200
        Kernel-row cache budget in MB (fast mode); at least two rows are kept.
    count_table_memory : float, default=0
        Count mode only (``kernel_cache=False``, a computed kernel): a binary
        problem of l examples whose l x l kernel matrix fits in this many MB
        (8 l^2 bytes) computes it once before the first step, with the routine
        that computes the values otherwise, and reads every value from it while
        counting each read as an evaluation: the same steps, alphas and
        ``n_kernel_evals_``, bitwise, in a fraction of the time where the
        algorithm asks for the same values many times (Table 1 of the GS-SVM
        paper). 0: never (the values computed when asked for).
    eps_step : float, default=1e-12
        takeStep's minimum step: a step with ``|a2 - alph2| < eps_step (a2 +
        alph2 + eps_step)`` is refused. Platt's value 1e-3 makes Modification 2
        stop early, above the ``2 tol`` gap; 1e-12 refuses round-off steps only.
    max_iter : int, default=10_000_000
        Maximum number of successful steps (takeStep calls that changed alpha);
        when reached the fit stops with a ConvergenceWarning.
    random_state : int, RandomState or None, default=None
        None: the passes visit the examples in their order 0..l-1 (Keerthi's
        pseudo-code; unlike the other solvers, None is not "random" here). An
        int or a RandomState: in a random permutation drawn once per problem
        from the seed ``BaseSVMClassifier._seed`` gives (the visiting order
        moves the counts by about 10%).
    warm_start : bool, default=False
        Start from the previous fit's multipliers when ``y`` is unchanged (see
        ``_WarmStartMixin``): a path over increasing C costs a fraction of
        cold starts. Kernel values for the initial F_i are counted.
    history_every : int or None, default=100
        Stride of ``history_`` in successful steps (see the base module's
        "Trace"): the kernel samples the objective every ``history_every``
        steps, plus the last. A sample costs about a microsecond of Python,
        left out of the trace's time but not of the fit's: the default keeps
        it near 1% of a small problem's steps. None: no trace.
    working_set : {'keerthi', 'second_order'}, default='keerthi'
        'keerthi': the solver above (Keerthi's Modifications, count or fast
        mode; the path the GS-SVM paper's tables use). 'second_order': a second
        solver path as LIBSVM's (``smo_solve_second_order`` in pyx/smo.pyx):
        the full gradient F kept for every example, the working pair chosen by
        the second-order rule of Fan, Chen and Lin (2005, WSS 2, tau = 1e-12
        for non-positive curvature), shrinking with the gradient rebuilt from
        Fbar before the final test, and an LRU kernel-column cache within
        ``cache_size`` MB (used whatever ``kernel_cache`` says). Its stopping
        rule is this one, ``b_up > b_low - 2 tol`` on every example
        (LIBSVM's m(alpha) - M(alpha) < eps with eps = 2 tol), so
        ``converged_`` means the same; ``max_iter`` counts successful steps
        (pairs whose multipliers changed); ``n_kernel_evals_`` counts the
        kernel values it computed. ``modification``, ``kernel_cache``,
        ``eps_step`` and ``random_state`` do not apply to it (``fit_stats_``'s
        ``n_F``, ``n_F_evals`` and ``n_examine`` are 0). The optimum is the
        same within ``tol``; the multipliers are not bitwise those of the
        Keerthi path.
    shrinking : bool, default=True
        ``working_set='second_order'`` only: LIBSVM's shrinking heuristic
        (False: every example stays active; same optimum within ``tol``).

    Attributes
    ----------
    support_, dual_coef_, intercept_, support_vectors_, n_support_ :
        The kernel expansion (see ``KernelExpansionMixin``).
    n_kernel_evals_ : int
        Kernel values computed during training (all problems).
    n_iter_ : int or ndarray
        Successful steps per problem.
    converged_ : bool
        Whether every problem met the optimality test ``b_low - b_up <= 2 tol``:
        False (with one ConvergenceWarning per fit) when ``max_iter`` stopped a
        problem, or when its main loop ended on steps refused by ``eps_step``.
    n_unconverged_problems_ : int
        How many one-vs-one problems (1 for a binary fit) ended that way.
    dual_objective_ : ndarray (n_problems,)
        Final dual objective ``1/2 sum alpha_i alpha_j y_i y_j K_ij - sum alpha_i``
        (maintained through the steps; the last entry of ``history_`` too).
    optimality_gap_ : ndarray (n_problems,)
        ``b_low - b_up`` at the end (<= 2 tol when converged).
    fit_stats_ : list of dict
        Per problem: ``n_F`` (F_i computed from scratch for examples outside I0),
        ``n_F_evals`` (kernel values computed for them), ``n_examine``
        (examineExample calls), ``n_kernel_evals``.
    history_ : dict of arrays
        ``problem, iteration, time, objective``: the dual objective (to
        minimise) every ``history_every`` successful steps and at the last.
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

    def __init__(self, C=1.0, kernel="rbf", gamma=0.05, coef0=0.0, degree=3,
                 modification=2, tol=1e-3, kernel_cache=False, cache_size=200,
                 eps_step=1e-12, max_iter=10_000_000, random_state=None, warm_start=False,
                 history_every=100, working_set="keerthi", shrinking=True, count_table_memory=0.0):
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
    """The hard-margin SVM (HM-SVMs of the GS-SVM paper's Table 2), as SMO with a huge C.

    The hard-margin dual, ``min 1/2 sum alpha_i alpha_j y_i y_j K_ij - sum
    alpha_i`` with ``alpha_i >= 0`` (no upper bound) and ``sum y_i alpha_i = 0``,
    is unbounded below (the primal is infeasible) as soon as no separating
    function exists in the kernel's feature space. With the RBF kernel (whose
    Gram matrix is positive definite on distinct points) that happens exactly
    when identical inputs carry different labels, which is the case in Adult and
    in several UCI sets of Table 2: along alpha_i = alpha_j -> infinity for such
    a pair, f is unchanged and the dual decreases without limit, so a solver
    without a box would never stop. We therefore solve the soft-margin dual
    with a very large box ``C`` (default 1e6). It equals the hard-margin
    solution whenever that exists with every alpha_i < C; otherwise the larger
    multiplier of each contradictory pair sits at C and the rest of the data is
    fitted with margins as hard as the box allows.

    The solver is SMO with Keerthi's Modification 2 and the kernel-row cache
    (the fast mode of :class:`SMO`, 200 MB, ``eps_step`` = 1e-12). Every step
    is bounded by the box and ``max_iter`` bounds the number of steps, so the
    fit always terminates; on overlapping classes with a small gamma the
    number of steps grows roughly in proportion to C (about 1e7 steps for 200
    overlapping 2-D points; LIBSVM with C = 1e6 needs millions of iterations
    there too), and a fit that reaches ``max_iter`` warns (ConvergenceWarning)
    and keeps its last iterate.

    Parameters
    ----------
    kernel, gamma, coef0, degree : as in :class:`SMO` (gamma: a number,
        'scale' or 'auto'; default 0.05, the paper's theta).
    C : float, default=1e6
        The box that stands in for infinity.
    tol : float, default=1e-3
        Keerthi's tau, below 1 (as in :class:`SMO`).
    max_iter : int, default=10_000_000
        Maximum number of successful SMO steps (ConvergenceWarning when reached).
    warm_start : bool, default=False
        As in :class:`SMO` (e.g. continue from the soft-margin solution at the
        largest C of a grid).
    history_every : int or None, default=100
        As in :class:`SMO`.
    working_set : {'keerthi', 'second_order'}, default='keerthi'
        As in :class:`SMO`: 'second_order' solves with the second path (Fan,
        Chen, Lin's working sets, shrinking, the 200 MB column cache).

    Attributes
    ----------
    As :class:`SMO`.
    """

    _parameter_constraints = {
        **KERNEL_CONSTRAINTS,
        **shared_constraints("C", "max_iter", "history_every"),
        "tol": KKT_TOL,
        "warm_start": ["boolean"],
        "working_set": [Options(str, {"keerthi", "second_order"})],
    }

    def __init__(self, kernel="rbf", gamma=0.05, coef0=0.0, degree=3, C=1e6,
                 tol=1e-3, max_iter=10_000_000, warm_start=False, history_every=100,
                 working_set="keerthi"):
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
