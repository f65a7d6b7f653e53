"""Shared part of the linear solvers: ``f(x) = w'x + b`` per binary problem.

LinearSVM uses it now; NESVM, Pegasos, LSVM and linear LDM are meant to as well,
so that each writes only its optimiser. Result dict keys a solver returns from
``_fit_binary``: ``coef`` (n_features,) and ``intercept`` (a float; 0.0 for a
bias-free model).
"""
import numpy as np

from .base import dense_product


class LinearModelMixin:
    """Fitted attributes and decision function of a linear model.

    Attributes set: ``coef_`` ndarray (n_problems, n_features) and
    ``intercept_`` ndarray (n_problems,), one row / entry per problem of
    ``problems_`` (one for a binary fit, as scikit-learn's linear models).
    """

    def _set_fitted(self, results, X):
        self.coef_ = np.vstack([np.asarray(r["coef"], dtype=float) for r in results])
        self.intercept_ = np.array([r["intercept"] for r in results], dtype=float)

    def _decision_values(self, X):
        # (n, n_problems) for a dense X and for CSR (a sparse x dense product is
        # dense); a small dense product on one BLAS thread (see dense_product)
        return dense_product(X, self.coef_.T) + self.intercept_
