"""Pegasos (pegasos_slides.txt): stochastic sub-gradient descent for the linear SVM."""
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from .._kernels.pegasos import VARIANTS, pegasos
from ._linear_model import LinearModelMixin
from ._validation import as_rows_input
from .base import BaseSVMClassifier, check_model_scale, shared_constraints


class Pegasos(LinearModelMixin, BaseSVMClassifier):
    """Pegasos: stochastic sub-gradient descent for the linear SVM without bias.

    Minimises ``lambda/2 ||w||^2 + 1/m sum_i max(0, 1 - y_i w'x_i)`` with the
    mini-batch projected sub-gradient steps of Pegasos [1]_ (Shalev-Shwartz,
    Singer and Srebro, as presented in ``pegasos_slides.txt``), over dense or
    CSR rows. Use it where you would use
    :class:`~sklearn.linear_model.SGDClassifier` for a hinge-loss linear SVM:
    it minimises the same objective as ``SGDClassifier(loss='hinge',
    alpha=lambda_, fit_intercept=False)``, adds mini-batches, the projection
    and iterate averaging, and took 0.63 to 0.79 of SGDClassifier's time for
    the same number of examples on a9a, w8a and ijcnn1
    (``paper_tables/performance.md``). It runs a fixed number of steps and has
    no bias; for a precise optimum use :class:`~sklearn.svm.LinearSVC` (or
    :class:`~repro.solvers.LinearSVM`).

    Parameters
    ----------
    lambda_ : float, default=1e-4
        Regularisation weight lambda: the hinge SVM with ``C = 1 / (lambda
        m)``, scaled by lambda.
    n_iter : int, default=1_000_000
        Number of mini-batch steps T (not passes); ``n_iter * batch_size``
        examples are processed. The suboptimality falls like ``1 / (lambda k
        T)`` (up to a log): raise it for a smaller lambda or a closer model
        (at the defaults, 2.1 % above the optimum on a9a, 0.5 % on w8a).
    batch_size : int, default=1
        k, the examples per step ('slides': a subset, so at most the number
        of training rows).
    projection : bool, default=True
        Project w onto the ball ``||w|| <= 1/sqrt(lambda)`` after every step
        (the optimum lies in it).
    average : bool or int, default=False
        False: return the last iterate. True: the average of all T iterates.
        An int n: the average of the last ``min(n, T)`` iterates (the authors'
        code's ``num_iter_to_avg``; the last half did best in our runs).
    variant : {'slides', 'code'}, default='slides'
        Where the slides and the authors' C++ code differ (Notes).
    random_state : int, RandomState or None, default=None
        Seed of the initial w and of the mini-batches; the same seed gives the
        same iterates for dense and CSR input.
    history_every : int or None, default=None
        None: no trace. An int: record the objective in ``history_`` every
        ``history_every`` steps and at the last; each record evaluates the
        whole objective, O(nnz(X)), inside the fit's wall time (a record
        every 10,000 steps made a 5-pass fit on w8a 1.7 times as long).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    coef_ : ndarray of shape (n_problems, n_features)
        The weights w (one row per one-vs-one problem).
    intercept_ : ndarray of shape (n_problems,)
        Zeros (no bias).
    n_iter_ : int or ndarray of shape (n_problems,)
        Steps taken (``n_iter``).
    converged_ : bool
        Always False: a fixed-iteration method tests no optimality condition
        (and issues no ConvergenceWarning).
    n_unconverged_problems_ : int
        The number of problems (every one).
    history_ : dict of ndarray
        ``problem, iteration, time, objective``: the objective at the
        recorded iterates (at the running average once averaging has begun;
        empty arrays when ``history_every=None``).

    See Also
    --------
    LinearSVM : dual coordinate descent (LIBLINEAR's method) to a tolerance.

    Notes
    -----
    The problem, for labels y_i in {-1, +1} (one-vs-one for more classes)::

        min_w  lambda/2 ||w||^2 + 1/m sum_i max(0, 1 - y_i w'x_i)

    Step t draws a mini-batch A_t of k = ``batch_size`` examples, keeps the
    violators B_t = {i in A_t : y_i w_t'x_i < 1}, and steps::

        w <- (1 - mu_t lambda) w + mu_t / k sum_{i in B_t} y_i x_i
        w <- min(1, (1 / sqrt(lambda)) / ||w||) w          (projection)

    at a cost of O(nnz of the mini-batch) (w is kept as a scale times a
    vector). 'slides': w_1 drawn uniformly from the ball of radius
    1/sqrt(lambda), mu_t = 1 / (lambda t), A_t a random subset of k distinct
    examples. 'code': w_1 = 0, mu_t = 1 / (lambda (t + 1)), the k examples
    drawn with replacement. There is no stopping rule: the fit always runs
    ``n_iter`` steps. The model is ``f(x) = w'x``; centre the data or append
    a constant feature when an offset is wanted.

    References
    ----------
    .. [1] S. Shalev-Shwartz, Y. Singer and N. Srebro, "Pegasos: Primal
       Estimated sub-GrAdient SOlver for SVM", ICML 2007; presented in J.
       Rupnik's slides "Stochastic subgradient approach for solving linear
       support vector machines" (``pegasos_slides.txt``).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.model_selection import train_test_split
    >>> from repro.solvers import Pegasos
    >>> X, y = make_classification(n_samples=1000, n_features=10, random_state=0)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> clf = Pegasos(lambda_=1e-3, n_iter=20 * len(y_train), random_state=0)
    >>> print(f"{clf.fit(X_train, y_train).score(X_test, y_test):.2f}")
    0.91
    """

    _parameter_constraints = {
        **shared_constraints("random_state", "history_every"),
        "lambda_": [Interval(Real, 0, None, closed="neither")],
        "n_iter": [Interval(Integral, 1, None, closed="left")],
        "batch_size": [Interval(Integral, 1, None, closed="left")],
        "projection": ["boolean"],
        "average": ["boolean", Interval(Integral, 1, None, closed="left")],
        "variant": [StrOptions(set(VARIANTS))],
    }

    def __init__(self, lambda_=1e-4, n_iter=1_000_000, batch_size=1, projection=True,
                 average=False, variant="slides", random_state=None, history_every=None):
        self.lambda_ = lambda_
        self.n_iter = n_iter
        self.batch_size = batch_size
        self.projection = projection
        self.average = average
        self.variant = variant
        self.random_state = random_state
        self.history_every = history_every

    def __sklearn_is_fitted__(self):
        # the parameter ``lambda_`` ends with an underscore, which
        # check_is_fitted's default test would take for a fitted attribute
        return hasattr(self, "coef_")

    def _n_average(self):
        """How many of the last iterates to average (0: none)."""
        if isinstance(self.average, (bool, np.bool_)):
            return int(self.n_iter) if self.average else 0
        return int(self.average)

    # A fixed-iteration method tests no optimality condition: its problems
    # report converged False (converged_ False, n_unconverged_problems_ counting
    # every problem) and no ConvergenceWarning is issued, since no limit was
    # reached (n_iter is the method's setting). The same convention as
    # ASGDSVM and LDM(solver='asgd').
    _warn_unconverged = False

    def _fit_binary(self, X, y, history):
        every = self.history_every
        rows = as_rows_input(X)
        # step t adds mu_t / k sum y x with mu_t = 1 / (lambda t): ||w_t|| <= max ||x|| / lambda
        check_model_scale(self, "lambda_", np.sqrt(rows[3].max(initial=0.0)) / self.lambda_,
                          "max ||x|| / lambda_")
        w, n_iter = pegasos(
            rows, y, float(self.lambda_), int(self.n_iter), int(self.batch_size),
            bool(self.projection), self._n_average(), VARIANTS[self.variant], self._seed(),
            history.callback, int(every) if every is not None else 0,
        )
        return {"coef": w, "intercept": 0.0, "n_iter": n_iter, "converged": False,
                "limit": f"n_iter={self.n_iter} steps (a fixed-iteration method)",
                "parameter": None}
