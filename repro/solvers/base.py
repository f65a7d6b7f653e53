"""Shared scikit-learn compatible base for the papers' SVM classifiers.

A solver subclass implements one binary problem with labels in {-1, +1}:

* ``_fit_binary(X, y, history) -> dict``: solve it; ``X`` is validated
  (float64, C-contiguous or CSR), ``history`` is a :class:`History` (see
  "Trace" below). The dict holds whatever the solver needs later and must
  contain ``"n_iter"`` and ``"converged"`` (bool); when ``converged`` is False
  it also names what stopped the solver: ``"limit"`` (the limit reached, e.g.
  ``"max_iter=1000 passes"``), ``"parameter"`` (the parameter to change, e.g.
  ``"max_iter"``; None when no setting helps, e.g. a failed final check of the
  solution) and optionally ``"detail"`` (one sentence, e.g. the gap left).
  The base adds ``"rows"``, the training-set index of each row of the problem.
* ``_set_fitted(results, X)``: publish fitted attributes (``coef_``,
  ``support_``, ...) from the list of per-problem dicts (``X``: the validated
  training data, e.g. to keep support vectors).
* ``_decision_values(X) -> ndarray (n_samples, n_problems)``: the decision
  value of every problem on the validated data ``X`` (one call for all
  problems, so a solver can share work between them).
* optionally ``_prepare_fit(X)``: called once per ``fit`` with the validated
  training data before the first problem is solved, to fix what every
  problem shares and what depends on the whole training set (the kernel
  solvers resolve ``gamma='scale'`` there, so the one-vs-one problems use the
  gamma of the whole training set, as scikit-learn's SVC does).

:class:`~repro.solvers._linear_model.LinearModelMixin` (``coef_``,
``intercept_``) and :class:`~repro.solvers._kernel_model.KernelExpansionMixin`
(support vectors) implement the last two for linear and kernel solvers.

The base does everything else the same way for every paper: validation with
clear errors, label mapping, one-vs-one for more than two classes (the papers'
multiclass scheme: GS-SVM Sec. 3, NESVM Sec. IV), ``classes_``,
``n_features_in_``, ``n_iter_``, ``converged_``, ``n_unconverged_problems_``,
the ConvergenceWarning, ``history_``, ``decision_function`` and ``predict``.

Conventions: in a binary problem ``classes_[1]`` is the positive class (+1),
as in scikit-learn. For k > 2 classes there is one problem per pair (i, j),
i < j, in ``problems_``, where class j is +1 and class i is -1; each problem
votes, and ties are broken by the summed confidences as scikit-learn's SVC does.

Shared parameters: ``C``, ``tol``, ``max_iter``, ``random_state`` and
``history_every`` mean the same in every solver and are validated by the same
constraints (:func:`shared_constraints`); a solver that draws random numbers
takes its seed from :meth:`BaseSVMClassifier._seed`.

Convergence
-----------
``converged_`` is True when every problem met its stopping rule, a test this
package computes in float64 on the returned model (a wrapped library's own
status is never taken alone: SVM re-tests LIBSVM's and LIBLINEAR's models,
issue 47); ``n_unconverged_problems_`` counts those that did not (0 ..
n_problems). A fit with unconverged problems issues ONE ConvergenceWarning
naming the estimator, the limit reached, how many of the problems stopped and
the parameter to change (scikit-learn's ``_warn_from_fit_status`` idea:
reported in one place).

Trace (``history_``)
--------------------
``history_every`` (int >= 1, or None for no trace: every estimator's default, as a
trace costs time inside the fit) sets the stride: the trace
keeps every ``history_every``-th iteration and the last one of each problem.
What an iteration is belongs to the solver (LinearSVM: a pass over the data;
SMO: a successful step; GS-SVM: a greedy step), and a kernel that reports only
at the end of a pass (SMO, LinearSVM) can only be sampled there: a report is
kept when the iteration count reached the next multiple of ``history_every``.
``history_`` is a dict of four equally long arrays, one row per kept report,
problems one after the other:

* ``problem`` (int): index into ``problems_`` (0 for a binary fit);
* ``iteration`` (int): the solver's iteration count at the report;
* ``time`` (float): seconds since the problem's solver started, without the
  time spent in the trace itself (evaluating objectives for it, bookkeeping);
* ``objective`` (float): the solver's objective at that iterate (the quantity
  it minimises; its docstring says which).

A solver that reports more per iteration names the extra columns in the class
attribute ``_history_columns`` (e.g. NESVM: the unsmoothed primal beside the
smoothed one it minimises) and reports ``(objective, extra_1, ...)`` (a tuple,
or a callable returning one) in that order; ``history_`` then holds one more
float array per name.
"""
from itertools import combinations
from numbers import Integral, Real
from time import perf_counter
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn import get_config
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import assert_all_finite, check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._kernels.kernels import gram_submatrix
from ._blas import one_blas_thread
from ._gram import PrecomputedGram, check_training_gram

# The parameters every iterative solver shares, constrained once (the meaning is
# documented in each estimator; ``random_state`` accepts None, an int or a
# RandomState, as in scikit-learn).
SHARED_CONSTRAINTS = {
    "C": [Interval(Real, 0, None, closed="neither")],
    "tol": [Interval(Real, 0, None, closed="neither")],
    "max_iter": [Interval(Integral, 1, None, closed="left")],
    "random_state": ["random_state"],
    "history_every": [Interval(Integral, 1, None, closed="left"), None],
}


# ``tol`` of the SMO-type stops (Keerthi's b_low - b_up <= 2 tol, LIBSVM's
# m(alpha) - M(alpha) <= eps): both gaps are 2 at the zero start, so a tol of
# 1 or more would accept the zero model after no step (issue 22's probe: SMO,
# HardMarginSVM and SVM's LIBSVM path reported it converged).
KKT_TOL = [Interval(Real, 0, 1, closed="neither")]


# Below this many multiply-adds a dense product runs on one BLAS thread (about
# 1 ms on one core). A threaded GEMM hands out work to threads that may have
# to wait for a core: with the cores busy (cross-validation with n_jobs, other
# users) a 53 x 438 x 55 product of a Vowel fold's prediction was seen to take
# 16 ms instead of 0.06 ms, which alone made a 10-fold cross-validation several
# times slower than SVC's (LIBSVM does not use BLAS). OpenBLAS's one-thread and
# threaded GEMM may round an entry differently (last bit): so did the plain
# product between thread settings.
_SERIAL_BELOW = 1 << 24
def dense_product(A, B):
    """``A @ B`` for 2-D ``A`` (dense or CSR) and a dense ``B``; a small dense
    product on one BLAS thread (see ``_SERIAL_BELOW``). The limit is
    process-wide while it lasts: fits run in threads of one process (joblib's
    threading backend) may see BLAS on one thread meanwhile (slower, never
    wrong); processes (the default loky backend) are unaffected."""
    if sp.issparse(A) or A.shape[0] * A.shape[1] * B.shape[1] >= _SERIAL_BELOW:
        return np.asarray(A @ B)
    with one_blas_thread():
        return A @ B


# The kernel parameters every kernel estimator takes, constrained once. Every
# number must be finite: ``coef0`` was constrained as ``Real`` only, so NaN and
# infinity passed and a fit with ``coef0=nan`` "converged" after 0 steps
# (issue 22, item 5). ``closed="neither"`` with open ends excludes +-inf, and
# scikit-learn's Interval refuses NaN; ``check_kernel_parameters`` checks the
# same again at every fit (BaseSVMClassifier.fit), whatever constraints a
# subclass declares and whatever a scikit-learn version makes of them.
KERNEL_CONSTRAINTS = {
    "kernel": [StrOptions({"linear", "rbf", "poly", "precomputed"})],
    # 'scale' and 'auto' as in scikit-learn's SVC (see _kernel_model.resolve_gamma)
    "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0, None, closed="neither")],
    "coef0": [Interval(Real, None, None, closed="neither")],
    "degree": [Interval(Integral, 1, None, closed="left")],
}

# the parameters check_kernel_parameters reads, with what each must be
_KERNEL_NUMBERS = {"gamma": "a positive finite number", "coef0": "a finite number",
                   "degree": "an integer >= 1"}


def check_kernel_parameters(estimator):
    """Refuse a non-finite kernel parameter (``gamma``, ``coef0``, ``degree``:
    those of them the estimator has) with scikit-learn's InvalidParameterError
    (a ValueError) naming it. Strings (gamma='scale') and None are left to the
    estimator's constraints; only numbers are checked here."""
    from sklearn.utils._param_validation import InvalidParameterError

    for name, must in _KERNEL_NUMBERS.items():
        value = getattr(estimator, name, None)
        if value is None or isinstance(value, str) or not isinstance(value, (Real, np.number)):
            continue
        v = float(value)
        bad = (not np.isfinite(v) or (name == "gamma" and v <= 0.0)
               or (name == "degree" and (v < 1 or v != int(v))))
        if bad:
            raise InvalidParameterError(
                f"The {name!r} parameter of {type(estimator).__name__} must be {must}; "
                f"got {value!r}.")
    # (gamma x.z + coef0)^degree is a positive semi-definite kernel for coef0 >= 0
    # (a sum of powers of the linear kernel with non-negative weights); with
    # coef0 < 0 it is not in general (degree 1 adds the constant coef0 * ee'),
    # so the SVM problem is not convex and no solver here can certify a solution
    # (GS-SVM and the bias-free SVM were seen to report convergence to a
    # decision value of 0 or of one class; LIBSVM to run without end).
    coef0 = getattr(estimator, "coef0", None)
    if (getattr(estimator, "kernel", None) == "poly" and isinstance(coef0, (Real, np.number))
            and not isinstance(coef0, bool) and float(coef0) < 0.0):
        raise InvalidParameterError(
            f"The 'coef0' parameter of {type(estimator).__name__} must be >= 0 with "
            f"kernel='poly' (a polynomial kernel with coef0 < 0 is not positive semi-definite, "
            f"and the SVM problem is then not convex); got {coef0!r}.")


def check_model_scale(estimator, name, bound, why):
    """Refuse, before solving, a parameter ``name`` so large for X that the
    model it allows overflows float64: ``bound`` is the caller's bound on the
    model's norm (``why`` says where it comes from). The solvers evaluate
    ||w||^2 (objectives, steps), so a bound whose square is beyond float64 would
    end in a garbage model or an infinity deep in the solver (issue 22's probe:
    NESVM at C = 1e300, LSVM at nu = 1e300, Pegasos at lambda_ = 1e-300). The
    bound is loose on purpose: only a parameter tens of orders of magnitude
    beyond any useful value is refused."""
    with np.errstate(over="ignore", invalid="ignore"):
        ok = np.isfinite(np.float64(bound) * np.float64(bound))
    if not ok:
        raise ValueError(
            f"{type(estimator).__name__}: {name}={getattr(estimator, name)!r} is too extreme "
            f"for X: the model's norm can reach {why} = {float(bound):.3g}, whose square "
            f"overflows float64; change {name} or scale the features")


def check_kernel_range(kernel, gamma, coef0, degree, sqnorm, estimator="kernel",
                       other_sqnorm=None):
    """Refuse, before any kernel value is computed, rows whose kernel values
    can overflow float64, naming the row: one O(n) pass over the squared row
    norms ``sqnorm`` (of the rows the solver will pair), never a check per
    kernel evaluation. The worst case over all pairs, by Cauchy-Schwarz
    (|x.z| <= ||x|| ||z|| <= max ||x||^2):

    * linear: max ||x||^2 (refused already by ``as_rows_input`` when a
      squared norm is beyond float64);
    * rbf: never beyond 1 (exp of a non-positive number);
    * poly: (gamma max ||x||^2 + |coef0|)^degree, which is the value of the
      largest row's own K(x, x) when coef0 >= 0 (solvers compute the diagonal).

    ``other_sqnorm``: the squared norms of the other side's rows when the
    kernel pairs two sets (K(X, Y)); ||x|| ||z|| <= sqrt(max ||x||^2 max
    ||z||^2) then. A bound within a relative 1e-6 of the float64 limit is
    refused as well (rounding of the dot products)."""
    if kernel not in ("linear", "poly") or len(sqnorm) == 0:
        return
    sqnorm = np.asarray(sqnorm, dtype=float)
    i = int(np.argmax(sqnorm))
    top = float(sqnorm[i])
    if other_sqnorm is not None:
        if len(other_sqnorm) == 0:
            return
        top = float(np.sqrt(top) * np.sqrt(float(np.max(other_sqnorm))))
    with np.errstate(over="ignore", invalid="ignore"):
        if kernel == "linear":
            bound = np.float64(top)
            formula = f"||x_{i}||^2 = {top:.3g}"
        else:
            base = np.float64(gamma) * np.float64(top) + abs(np.float64(coef0))
            bound = base ** np.float64(degree)
            formula = (f"(gamma ||x_{i}||^2 + |coef0|)^degree = ({gamma:.3g} * {top:.3g} + "
                       f"{abs(coef0):.3g})^{degree}")
        ok = np.isfinite(bound) and np.isfinite(bound * (1.0 + 1e-6))
    if not ok:
        raise ValueError(
            f"{estimator}: row {i} of X gives a {kernel} kernel value beyond float64 "
            f"({formula} overflows; its values are finite but too large): scale the features, "
            f"or lower gamma / coef0 / degree")


def shared_constraints(*names):
    """The ``_parameter_constraints`` entries of the shared parameters ``names``."""
    return {name: SHARED_CONSTRAINTS[name] for name in names}


class History:
    """Trace of one binary problem (see "Trace" in the module docstring).

    Solvers call ``record(iteration, objective)`` (or the instance itself, the
    callback handed to Cython kernels) after an iteration or a pass, with
    ``objective`` a float or a zero-argument callable. A callable is evaluated
    only for the reports kept, and that time is left out of ``time``: an
    expensive objective costs nothing between kept reports. The last report of
    a problem is always kept: it is held until :meth:`close`, so a callable
    given there must still describe the final iterate when the solver returns
    (it does when the solver returns right after its last report).
    """

    def __init__(self, every=1):
        self.every = every
        self.rows = []
        self._next = every if every is not None else None
        self._pending = None
        self._excluded = 0.0  # seconds spent in the trace, left out of ``time``
        self._start = perf_counter()

    @property
    def callback(self):
        """What to hand a kernel: the recorder, or None when there is no trace
        (so the kernel skips the call altogether)."""
        return None if self.every is None else self.record

    def wants(self, iteration):
        """Whether a report at ``iteration`` would be kept before the last one
        (lets a solver skip building an objective it would not report)."""
        return self.every is not None and iteration >= self._next

    def record(self, iteration, objective):
        entered = perf_counter()
        if self.every is None:
            return
        elapsed = entered - self._start - self._excluded
        if iteration >= self._next:
            self._pending = None
            self._keep(int(iteration), elapsed, objective)
            self._next = (int(iteration) // self.every + 1) * self.every
        else:
            self._pending = (int(iteration), elapsed, objective)
        self._excluded += perf_counter() - entered

    __call__ = record

    def record_batch(self, iterations, timestamps, objectives):
        """Reports taken earlier by a kernel running without the GIL, handed over
        now: ``timestamps`` are ``time.perf_counter`` readings (on Linux the
        kernel's CLOCK_MONOTONIC). The trace's own time so far is left out of
        each; the time of this call is left out of the reports that follow."""
        entered = perf_counter()
        if self.every is None:
            return
        excluded = self._excluded  # all spent before these reports were taken
        for iteration, timestamp, objective in zip(iterations.tolist(), timestamps.tolist(),
                                                   objectives.tolist()):
            if iteration >= self._next:
                self._pending = None
                self._keep(int(iteration), timestamp - self._start - excluded, objective)
                self._next = (int(iteration) // self.every + 1) * self.every
        self._excluded += perf_counter() - entered

    def close(self):
        """Keep the held last report (called by the base once the solver returned),
        unless it repeats the iteration last kept (SMO's final pass takes no step)."""
        if self._pending is not None and (not self.rows or self._pending[0] > self.rows[-1][0]):
            self._keep(*self._pending)
        self._pending = None

    def _keep(self, iteration, elapsed, objective):
        if callable(objective):
            objective = objective()
        values = objective if isinstance(objective, tuple) else (objective,)
        self.rows.append((iteration, elapsed, *map(float, values)))


def _empty_history(columns=()):
    return {"problem": np.zeros(0, dtype=int), "iteration": np.zeros(0, dtype=int),
            "time": np.zeros(0), "objective": np.zeros(0),
            **{name: np.zeros(0) for name in columns}}


def _validate_rows(estimator, X):
    """``validate_data(estimator, X, reset=False)`` as prediction calls it.

    An exact NumPy float64 2-D C-ordered array with at least one row and the
    fitted number of columns, given to an estimator fitted without feature
    names, is what ``validate_data`` hands back as it is: for it only the
    finite check is left (skipped under ``assume_finite``, as there). Every
    other input goes through ``validate_data``. Why: its dataframe probes cost
    0.5 ms a call, half of an LDM grid point's prediction on a small set."""
    if (type(X) is np.ndarray and X.dtype == np.float64 and X.ndim == 2 and X.flags.c_contiguous
            and X.shape[0] >= 1 and X.shape[1] == getattr(estimator, "n_features_in_", -1) >= 1
            and not hasattr(estimator, "feature_names_in_")):
        if not get_config()["assume_finite"]:
            assert_all_finite(X, input_name="X", estimator_name=type(estimator).__name__)
        return X
    return validate_data(estimator, X, accept_sparse=False if estimator._precomputed() else "csr",
                         dtype=np.float64, order="C", reset=False)


class BaseSVMClassifier(ClassifierMixin, BaseEstimator):
    """Base class; see the module docstring for the subclass contract."""

    _parameter_constraints: dict = {}

    # names of the extra per-iteration values a solver reports (see "Trace")
    _history_columns = ()

    # False for a solver whose iteration cap is a model parameter rather than a
    # safeguard (GS-SVM's max_steps is its capacity control): converged_ and
    # n_unconverged_problems_ still say so, but no warning is issued.
    _warn_unconverged = True

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = not self._precomputed()
        tags.input_tags.pairwise = self._precomputed()
        return tags

    def _precomputed(self):
        """True when X is a Gram matrix (kernel='precomputed'): fit takes
        K(X_train, X_train), prediction K(X, X_train), and a one-vs-one problem
        takes the rows and columns of its samples."""
        return getattr(self, "kernel", None) == "precomputed"

    def _seed(self):
        """The seed (an int for the Cython kernels) of one binary problem, from
        ``random_state`` through scikit-learn's ``check_random_state``: an int
        is used as it is (so a given int gives the same run as before this
        helper existed); None (NumPy's global state) or a RandomState draws one."""
        if isinstance(self.random_state, Integral):
            return int(self.random_state)
        return int(check_random_state(self.random_state).randint(np.iinfo(np.int32).max))

    def _history_every(self):
        return getattr(self, "history_every", None)

    # -- fitting -------------------------------------------------------------
    def fit(self, X, y):
        """Fit one binary problem, or one per pair of classes.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)
            With kernel='precomputed': K(X_train, X_train), an array or a
            :class:`~repro.solvers.PrecomputedGram` (checked and cut once for
            many fits; the same model bitwise).
        y : array-like of shape (n_samples,), at least two classes

        Returns
        -------
        self
        """
        if not get_config()["skip_parameter_validation"]:  # as scikit-learn's _fit_context
            self._validate_params()
        check_kernel_parameters(self)  # finite gamma, coef0, degree whatever the constraints
        precomputed = self._precomputed()
        gram = X if isinstance(X, PrecomputedGram) else None
        if gram is not None:
            if not precomputed:
                kernel = getattr(self, "kernel", None)
                has = f"has kernel={kernel!r}" if kernel is not None else "takes no kernel"
                raise ValueError(
                    f"{type(self).__name__}: a PrecomputedGram is a Gram matrix, for "
                    f"kernel='precomputed'; this estimator {has}: pass the data X"
                    f"{', or set kernel=' + repr('precomputed') if kernel is not None else ''}.")
            X, y = gram.validate_fit(self, y)  # K checked once, when it was wrapped; y as below
        else:
            X, y = validate_data(
                self, X, y, accept_sparse=False if precomputed else "csr", dtype=np.float64,
                order="C",
            )
            if precomputed:
                check_training_gram(X)
            check_classification_targets(y)
        classes, y_idx = np.unique(y, return_inverse=True)
        if len(classes) < 2:
            raise ValueError(
                f"{type(self).__name__} needs samples of at least 2 classes in y; "
                f"got 1 class: {classes[0]!r}."
            )
        self.classes_ = classes
        self.problems_ = [(0, 1)] if len(classes) == 2 else list(combinations(range(len(classes)), 2))
        self._prepare_fit(X)
        self._check_kernel_range(X)

        results, histories = self._solve_problems(X, y_idx, gram)
        traces = [(p, *row) for p, history in enumerate(histories) for row in history.rows]
        if traces:
            trace = np.array(traces, dtype=float)
            self.history_ = {
                "problem": trace[:, 0].astype(int),
                "iteration": trace[:, 1].astype(int),
                "time": trace[:, 2],
                "objective": trace[:, 3],
                **{name: trace[:, 4 + j] for j, name in enumerate(self._history_columns)},
            }
        else:
            self.history_ = _empty_history(self._history_columns)
        n_iter = np.array([r["n_iter"] for r in results], dtype=int)
        self.n_iter_ = int(n_iter[0]) if len(n_iter) == 1 else n_iter
        self._set_convergence(results)
        self._set_fitted(results, X)
        return self

    def _solve_problems(self, X, y_idx, gram):
        """Solve every problem of ``problems_``: one ``_fit_binary`` each, on
        the rows of its two classes (ascending row order; class ``pos`` is +1).
        Returns the per-problem result dicts, each with ``"rows"`` (problem row
        -> training row), and their closed :class:`History` objects. ``gram``:
        the :class:`PrecomputedGram` when ``fit`` was given one, else None. A
        solver may override it to solve the problems in one call (SMO's
        second-order path), with the same results."""
        every = self._history_every()
        precomputed = self._precomputed()
        binary = len(self.classes_) == 2
        results, histories = [], []
        scratch = None   # the precomputed sub-Grams' one buffer (pyx/kernels.pyx)
        if precomputed and gram is None and not binary:
            sizes = np.bincount(y_idx, minlength=len(self.classes_))
            scratch = np.empty(max(int(sizes[neg] + sizes[pos]) ** 2
                                   for neg, pos in self.problems_))
        for p, (neg, pos) in enumerate(self.problems_):
            if binary:
                rows, Xp, yp = np.arange(len(y_idx)), X, np.where(y_idx == pos, 1.0, -1.0)
            else:
                rows = np.flatnonzero((y_idx == neg) | (y_idx == pos))
                if gram is not None:  # cut once per wrapper (repro.solvers._gram)
                    Xp = gram.sub_gram(rows)
                elif precomputed:  # one pass, C-ordered, into the scratch
                    Xp = gram_submatrix(X, rows, out=scratch)
                else:
                    Xp = X[rows]
                yp = np.where(y_idx[rows] == pos, 1.0, -1.0)
            history = History(every)
            result = self._fit_binary(Xp, yp, history)
            self._check_finite(result, p)
            history.close()
            result["rows"] = rows
            results.append(result)
            histories.append(history)
        return results, histories

    def _set_convergence(self, results):
        """``converged_``, ``n_unconverged_problems_`` and the one warning."""
        stopped = [(p, r) for p, r in enumerate(results) if not r["converged"]]
        self.converged_ = not stopped
        self.n_unconverged_problems_ = len(stopped)
        if not stopped or not self._warn_unconverged:
            return
        if len(results) == 1:
            what = "the binary problem stopped unconverged"
        else:
            what = (f"{len(stopped)} of {len(results)} one-vs-one problems stopped "
                    f"unconverged")
        # group the problems by the limit that stopped them (usually one group)
        groups = {}
        for p, r in stopped:
            groups.setdefault((r["limit"], r["parameter"]), []).append((p, r))
        parts = []
        for (limit, parameter), members in groups.items():
            part = f"{limit} reached"
            if len(groups) > 1:
                part += f" in {len(members)}"
            # one problem's detail stands for its group (they differ in numbers only)
            p, first = members[0]
            if first.get("detail"):
                where = f"problem {self.problems_[p]}: " if len(results) > 1 else ""
                part += f" ({where}{first['detail']})"
            # no parameter: a check failed that no setting can fix (a bug to report)
            parts.append(part + (f"; change {parameter} to go further" if parameter else ""))
        warnings.warn(f"{type(self).__name__}: {what}: " + "; ".join(parts) + ".",
                      ConvergenceWarning, stacklevel=3)

    # the numbers of a problem's result that a model is made of
    _RESULT_ARRAYS = ("coef", "dual_coef", "intercept", "objective")

    def _check_finite(self, result, p):
        """A ValueError naming the cause when a problem's model holds a NaN or an
        infinity (finite data whose norms or kernel values overflow float64),
        instead of a model that predicts one class everywhere. A solver whose
        own final check already refused non-finite values says so with
        ``result["finite"] = True`` (SMO's: 550 small problems per 10-fold CV
        of Vowel, where these four reductions cost about a tenth of the time)."""
        if result.get("finite"):
            return
        for key in self._RESULT_ARRAYS:
            if key in result and not np.all(np.isfinite(result[key])):
                where = f" (problem {self.problems_[p]})" if len(self.problems_) > 1 else ""
                raise ValueError(
                    f"{type(self).__name__}: non-finite {key} after {result.get('n_iter')} "
                    f"iterations{where}: the data's norms or kernel values overflow float64; "
                    f"scale the features (or lower gamma / degree)")

    def _prepare_fit(self, X):
        """Hook before the problems are solved (see the module docstring)."""

    def _check_kernel_range(self, X):
        """A computed polynomial kernel whose values can overflow float64 on X
        is refused before any is computed, naming the row (``check_kernel_range``;
        rbf cannot overflow, a linear kernel's row norms are checked where the
        solvers lay out the rows). Runs after ``_prepare_fit``, which resolves
        ``_gamma``; every one-vs-one problem pairs rows of X, so X's largest
        norm bounds them all."""
        if getattr(self, "kernel", None) != "poly":
            return
        if sp.issparse(X):
            sqnorm = np.asarray(X.multiply(X).sum(axis=1)).ravel()
        else:
            sqnorm = np.einsum("ij,ij->i", X, X)
        if not np.all(np.isfinite(sqnorm)):
            i = int(np.flatnonzero(~np.isfinite(sqnorm))[0])
            raise ValueError(f"{type(self).__name__}: row {i} of X has a squared norm beyond "
                             f"float64 (its values are finite but too large): scale the features")
        check_kernel_range("poly", float(self._gamma), float(self.coef0), int(self.degree),
                           sqnorm, type(self).__name__)

    def _fit_binary(self, X, y, history):  # pragma: no cover - abstract
        raise NotImplementedError

    def _set_fitted(self, results, X):  # pragma: no cover - abstract
        raise NotImplementedError

    def _decision_values(self, X):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- prediction ----------------------------------------------------------
    def decision_function(self, X):
        """Binary: shape (n_samples,), positive means ``classes_[1]``.
        Multiclass: shape (n_samples, n_classes), one-vs-one votes plus a tie
        breaker in (-1/3, 1/3) from the summed confidences."""
        check_is_fitted(self)
        X = _validate_rows(self, X)
        n_samples = X.shape[0]
        values = self._decision_values(X)
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{type(self).__name__}: non-finite decision values: X's norms or its "
                             f"kernel values overflow float64; scale the features as for training")
        if len(self.classes_) == 2:
            return values[:, 0]
        n_classes = len(self.classes_)
        # Problem p adds to its classes (pos_p, neg_p): a vote (f > 0, f <= 0)
        # and a confidence (+f, -f). One np.add.at over the columns
        # pos_0, neg_0, pos_1, neg_1, ... instead of a Python loop of 4
        # operations per problem: it visits each row's columns in that order, so
        # every class receives its terms in problem order, as in the loop
        # (bitwise equal sums), at a fraction of the cost for many problems.
        problems = np.asarray(self.problems_)
        columns = problems[:, ::-1].ravel()  # pos_0, neg_0, pos_1, neg_1, ...
        win = values > 0
        cast = np.empty((n_samples, 2 * len(problems)))
        cast[:, 0::2] = win
        cast[:, 1::2] = ~win
        signed = np.empty_like(cast)
        signed[:, 0::2] = values
        signed[:, 1::2] = -values
        at = (np.arange(n_samples)[:, None], columns[None, :])
        votes = np.zeros((n_samples, n_classes))
        np.add.at(votes, at, cast)
        confidence = np.zeros((n_samples, n_classes))
        np.add.at(confidence, at, signed)
        return votes + confidence / (3 * (np.abs(confidence) + 1))

    def predict(self, X):
        """Class labels of X."""
        f = self.decision_function(X)
        if f.ndim == 1:
            return self.classes_[(f > 0).astype(int)]
        return self.classes_[np.argmax(f, axis=1)]
