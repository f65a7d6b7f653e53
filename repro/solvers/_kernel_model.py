"""Shared parts of the kernel solvers: kernel parameters and the kernel expansion.

A kernel solver's binary result is ``f(x) = sum_i dual_coef_i k(x_i, x) +
intercept`` over its support vectors. ``KernelExpansionMixin`` publishes the
fitted attributes from the per-problem result dicts and evaluates ``f`` with
the Cython kernel primitives, so each solver only writes its optimiser.

Result dict keys a solver returns from ``_fit_binary``: ``support`` (indices
into the problem's rows), ``dual_coef`` (alpha_i * y_i for those rows),
``intercept``, ``n_iter``, ``n_kernel_evals``.
"""

import numpy as np
import scipy.sparse as sp

from .._kernels.kernels import kernel_matrix
from ._validation import as_rows_input, kernel_params
from .base import KERNEL_CONSTRAINTS, dense_product

# Kernel values held at once when predicting (8 MB x 8 bytes = 64 MB).
_CHUNK_VALUES = 8_000_000
_MB = 1 << 20


def check_matrix_memory(solver, size, what, kernel_memory, fix):
    """Refuse up front a dense size x size float64 matrix beyond ``kernel_memory``
    (MB), naming the size it would need: ``solver`` says who holds it (e.g.
    "LSVM forms and factors"), ``what`` which matrix, ``fix`` what to do instead."""
    need = 8.0 * size * size
    if need > kernel_memory * _MB:
        raise ValueError(
            f"{solver} the {size} x {size} matrix {what}: {need / _MB:,.1f} MB "
            f"(8 * {size}^2 bytes), above kernel_memory={kernel_memory} MB; raise kernel_memory "
            f"if the memory is there, or {fix}")

KERNEL_PARAMETER_CONSTRAINTS = KERNEL_CONSTRAINTS  # one set of kernel parameter rules (base.py)


def resolve_gamma(gamma, X, kernel):
    """The number a kernel solver uses for ``gamma`` on training data ``X``
    (validated: float64 dense or CSR), with scikit-learn's SVC conventions
    (sklearn/svm/_base.py, ``BaseLibSVM.fit``), so that ``_gamma`` equals
    ``SVC(gamma=...)._gamma`` on the same data:

    * a number: itself;
    * ``'scale'``: ``1 / (n_features * X.var())``, the variance over all
      entries; for CSR ``X.multiply(X).mean() - X.mean() ** 2`` (SVC's
      formula: no dense copy); a variance of 0 (constant X) gives 1.0;
    * ``'auto'``: ``1 / n_features``;
    * ``kernel='precomputed'``: 0.0 (X is a Gram matrix; the kernel ignores
      gamma), as SVC.

    One deviation: SVC's CSR formula can round a constant matrix's variance
    to a tiny negative number and then return a negative gamma; a variance
    <= 0 gives 1.0 here (a negative gamma is not a valid kernel width). A
    variance beyond float64 (inf / NaN: entries near the float64 limit) is
    refused with the fix, instead of a gamma of 0 or NaN.
    """
    if kernel == "precomputed":
        return 0.0
    if not isinstance(gamma, str):
        return float(gamma)
    n_features = X.shape[1]
    if gamma == "auto":
        return 1.0 / n_features
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below, with the fix
        X_var = (X.multiply(X)).mean() - X.mean() ** 2 if sp.issparse(X) else X.var()
    if not np.isfinite(X_var):
        raise ValueError("gamma='scale': the variance of X is beyond float64 (its values are finite "
                         "but too large): scale the features, or give a numeric gamma")
    return 1.0 / (n_features * X_var) if X_var > 0 else 1.0


class KernelExpansionMixin:
    """Fitted attributes and decision function of a kernel expansion.

    Attributes set (binary: arrays; k > 2 classes: one entry per one-vs-one
    problem, indices refer to the full training set):
    ``support_``, ``dual_coef_``, ``intercept_`` (n_problems,),
    ``support_vectors_`` (None with kernel='precomputed': ``support_`` indexes
    the columns of K(X, X_train) prediction reads), ``n_support_`` and ``n_kernel_evals_`` (the total
    number of kernel values computed during training, over all problems), and
    ``_gamma``, the number ``gamma`` stands for (:func:`resolve_gamma`: set
    from the whole training set before the first problem, used by training
    and prediction alike).
    """

    def _prepare_fit(self, X):
        self._gamma = resolve_gamma(self.gamma, X, self.kernel)

    def _kernel_args(self):
        return kernel_params(self.kernel, self._gamma, self.coef0, self.degree)

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
        vectors = [X[s] for s in support]
        self.support_vectors_ = vectors[0] if len(results) == 1 else vectors
        # Prediction evaluates the kernel once against the union of the support
        # vectors of all problems (one-vs-one problems share most of them) and
        # combines it with one coefficient column per problem.
        # (one scatter for all problems: a loop of 55 searchsorted cost a tenth
        # of a small 11-class fit)
        every = np.concatenate(support) if support else np.zeros(0, dtype=int)
        union, where = np.unique(every, return_inverse=True)
        self._sv_union = as_rows_input(X[union])
        self._union_coef = np.zeros((len(union), len(results)))
        problem = np.repeat(np.arange(len(results)), [len(s) for s in support])
        self._union_coef[where, problem] = np.concatenate(dual) if dual else np.zeros(0)

    def _decision_values(self, X):
        if self._precomputed():
            dual = [self.dual_coef_] if len(self.problems_) == 1 else self.dual_coef_
            return np.column_stack([X[:, cols] @ d for cols, d in zip(self._support_columns, dual)]
                                   ) + self.intercept_
        n, n_union = X.shape[0], self._union_coef.shape[0]
        out = np.empty((n, len(self.problems_)))
        if n_union == 0:
            out[:] = self.intercept_
            return out
        rows = as_rows_input(X)
        chunk = max(1, _CHUNK_VALUES // n_union)  # bounds the kernel block's memory
        for start in range(0, n, chunk):
            idx = np.arange(start, min(n, start + chunk), dtype=np.int32)
            K, _ = kernel_matrix(rows, self._sv_union, *self._kernel_args(), rows=idx)
            out[start:start + len(idx)] = dense_product(K, self._union_coef) + self.intercept_
        return out
