"""Shared parts of the kernel solvers: kernel parameters and the kernel expansion.

A kernel solver's binary result is ``f(x) = sum_i dual_coef_i k(x_i, x) +
intercept`` over its support vectors. ``KernelExpansionMixin`` publishes the
fitted attributes from the per-problem result dicts and evaluates ``f`` with
the Cython kernel primitives, so each solver only writes its optimiser.

Result dict keys a solver returns from ``_fit_binary``: ``support`` (indices
into the problem's rows), ``dual_coef`` (alpha_i * y_i for those rows),
``intercept``, ``n_iter``, ``n_kernel_evals``.
"""
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from .._kernels.kernels import kernel_matrix
from ._validation import as_rows_input, kernel_params

KERNEL_PARAMETER_CONSTRAINTS = {
    "kernel": [StrOptions({"linear", "rbf", "poly", "precomputed"})],
    "gamma": [Interval(Real, 0, None, closed="neither")],
    "coef0": [Real],
    "degree": [Interval(Integral, 1, None, closed="left")],
}


class KernelExpansionMixin:
    """Fitted attributes and decision function of a kernel expansion.

    Attributes set (binary: arrays; k > 2 classes: one entry per one-vs-one
    problem, indices refer to the full training set):
    ``support_``, ``dual_coef_``, ``intercept_`` (n_problems,),
    ``support_vectors_`` (None with kernel='precomputed': ``support_`` indexes
    the columns of K(X, X_train) prediction reads), ``n_support_`` and ``n_kernel_evals_`` (the total
    number of kernel values computed during training, over all problems).
    """

    def _kernel_args(self):
        return kernel_params(self.kernel, self.gamma, self.coef0, self.degree)

    def _set_fitted(self, results, X):
        support = [r["rows"][r["support"]] for r in results]
        dual = [np.asarray(r["dual_coef"], dtype=float) for r in results]
        self.intercept_ = np.array([r["intercept"] for r in results], dtype=float)
        self.n_kernel_evals_ = int(sum(r["n_kernel_evals"] for r in results))
        self.n_support_ = np.array([len(s) for s in support])
        self.support_ = support[0] if len(results) == 1 else support
        self.dual_coef_ = dual[0] if len(results) == 1 else dual
        if self._precomputed():  # prediction reads the support columns of K(X, X_train)
            self._support_columns = support
            self.support_vectors_ = None
            return
        # keep the support vectors in the kernel's input layout for prediction
        vectors = [X[s] for s in support]
        self._sv_rows = [as_rows_input(v) for v in vectors]
        self.support_vectors_ = vectors[0] if len(results) == 1 else vectors

    def _decision_input(self, X):
        # the kernel's row view of X, built once for all one-vs-one problems
        return X if self._precomputed() else as_rows_input(X)

    def _decision_problem(self, p, rows):
        dual = self.dual_coef_ if len(self.problems_) == 1 else self.dual_coef_[p]
        if self._precomputed():
            return rows[:, self._support_columns[p]] @ dual + self.intercept_[p]
        if len(dual) == 0:
            return np.full(rows[4], self.intercept_[p])  # rows[4]: number of rows
        K, _ = kernel_matrix(rows, self._sv_rows[p], *self._kernel_args())
        return K @ dual + self.intercept_[p]
