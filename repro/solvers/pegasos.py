"""Pegasos (pegasos_slides.txt): stochastic sub-gradient descent for the linear SVM."""
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from .._kernels.pegasos import VARIANTS, pegasos
from ._linear_model import LinearModelMixin
from ._validation import as_rows_input
from .base import BaseSVMClassifier, check_model_scale, shared_constraints


class Pegasos(LinearModelMixin, BaseSVMClassifier):
    """Pegasos, ``min_w lambda/2 ||w||^2 + 1/m sum_i max(0, 1 - y_i w'x_i)``.

    The algorithm of the slides (pegasos_slides.txt, "Pegasos - the
    algorithm"), in Cython over dense or CSR rows. The model has **no bias**
    (``intercept_`` is 0): the slides drop the offset b before the algorithm;
    centre the data or append a constant feature when an offset is wanted.

    One **iteration** is one mini-batch step of size k = ``batch_size``: draw
    A_t, take the violators B_t = {y w_t'x < 1} among them, step
    ``w <- (1 - mu_t lambda) w + mu_t/k sum_{B_t} y x``, then project onto the
    ball of radius 1/sqrt(lambda). An iteration touches k examples, so
    ``n_iter * batch_size`` examples are processed in all (the slides: "the
    product kT determines how close to the optimal value we get"), and a step
    costs O(nnz of the mini-batch) (w is kept as a scale times a vector).

    Pegasos has no stopping rule: it is a fixed-iteration method. It always
    runs ``n_iter`` steps and tests no optimality condition, so ``converged_``
    is False afterwards (it claims no convergence it did not test, as
    ASGDSVM) and no ConvergenceWarning is issued; ``n_iter`` (with
    ``lambda_``) sets how close to the optimum it gets.

    Parameters
    ----------
    lambda_ : float, default=1e-4
        Regularisation weight lambda. The problem is LinearSVM's /
        LIBLINEAR's bias-free hinge SVM with C = 1 / (lambda m), scaled by
        lambda.
    n_iter : int, default=1_000_000
        Number of mini-batch steps T (not passes). The suboptimality of
        Pegasos falls like 1 / (lambda k T) (up to a log), so what is enough
        depends on lambda and on how close one needs to be; there is no
        default that suits every lambda. With the default batch of one
        example, 10^6 steps process 10^6 examples (31 passes over a9a, 20 over
        w8a) in about 0.03-0.04 s on one core, and at the default lambda = 1e-4
        left the last iterate (random_state=0, measured against LIBLINEAR at
        tol=1e-6/1e-8) 2.1 % above the optimum on a9a, 0.5 % on w8a, 3.3 % on
        a1a (variant='code': 2.5, 0.5, 4.5 %); at lambda = 1e-3 on a1a 0.4 %.
        Averaging the last half of the iterates (``average=500_000``) gave
        0.3 % on a9a and 0.8 % on a1a. Raise n_iter for smaller lambda or a
        closer model.
    batch_size : int, default=1
        k, the number of examples per step. ``variant='slides'`` draws a
        subset (no repeats within a step), so k is capped at the number of
        training rows of the problem.
    projection : bool, default=True
        Apply the slides' projection onto the ball ||w|| <= 1/sqrt(lambda)
        after every step (the optimum lies in that ball).
    average : bool or int, default=False
        False: return the last iterate w_{T+1} (the slides' output). True:
        return the plain average of all T iterates w_2 .. w_{T+1}. An int n:
        the average of the last min(n, T) iterates, the option of the authors'
        code (``num_iter_to_avg`` of ``Learn`` in its pegasos_optimize.cc). The average is kept lazily, so it does not change the O(nnz)
        cost of a step. Averaging from the first iterate (True) keeps the
        poor early iterates in the average (4.4 % above the optimum on a9a in
        the setting of ``n_iter``, against 2.1 % for the last iterate);
        averaging the last half did best there (see ``n_iter``).
    variant : {'slides', 'code'}, default='slides'
        Where the slides and the authors' released C++ code differ:

        * ``'slides'``: w_1 drawn uniformly from the ball of radius
          1/sqrt(lambda) (a Gaussian direction scaled to length
          lambda^(-1/2) U^(1/d)); mu_t = 1/(lambda t), t = 1, 2, ...; A_t a
          random *subset* of k distinct examples (the slides: "a random subset
          of S of size k"), drawn independently at every step. Note that
          mu_1 lambda = 1, so the first step forgets w_1 except through which
          examples of A_1 violate the margin.
        * ``'code'``: w starts at 0; mu = 1/(lambda (t + 2)) counting t from
          0 (1/(lambda (t + 1)) for t = 1, 2, ...); the k examples of a step
          drawn uniformly at random with replacement.
    random_state : int, RandomState or None, default=None
        Seed of the initial w and of the mini-batches (see
        ``BaseSVMClassifier._seed``); the same seed gives the same iterates for
        dense and CSR input.
    history_every : int or None, default=10_000
        Stride of ``history_`` in iterations (mini-batch steps); the last step
        is always kept (100 reports at the default n_iter). A kept report costs
        an O(nnz(X)) objective, evaluated outside the reported time but not
        outside the fit's wall time: pass None (no trace) when timing fits.

    Attributes
    ----------
    coef_ : ndarray (n_problems, n_features)
    intercept_ : ndarray (n_problems,)
        Zeros (no bias).
    n_iter_ : int or ndarray
        Mini-batch steps taken (``n_iter``); examples processed: n_iter_ * k.
    converged_ : bool
        Always False (a fixed-iteration method tests no optimality condition).
    n_unconverged_problems_ : int
        The number of problems (every one).
    history_ : dict of arrays
        ``problem, iteration, time, objective``: after the kept iterations t,
        ``lambda/2 ||w||^2 + mean hinge`` at w_{t+1} (at the running average
        once averaging has begun). The History has four columns, so the
        examples processed are not a column of their own: they are
        ``iteration * k`` (k = min(batch_size, m) for 'slides').
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
                 average=False, variant="slides", random_state=None, history_every=10_000):
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
