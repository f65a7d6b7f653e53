"""Feature scaling fitted on a training part and applied to a test part.

LDM normalises every feature into [0, 1]; LIBSVM's svm-scale default is [-1, 1].
:class:`RangeScaler` does both, for dense arrays and CSR matrices:

* per column ``x -> lo + (x - min) * (hi - lo) / (max - min)`` with min/max of the
  training part (implicit zeros of a CSR matrix count); test values outside the
  training range are not clipped (as svm-scale);
* a constant training column maps to 0 everywhere, so nothing is divided by zero;
* CSR stays CSR only if 0 maps to 0. For [0, 1] on non-negative data the column
  is divided by its maximum, which *is* min-max scaling whenever the column minimum
  is 0 (always the case for a column with an implicit zero), and keeps sparsity.
  A negative entry, or the range [-1, 1], would turn implicit zeros into non-zeros:
  that raises ``ValueError`` (densify with ``.toarray()`` first if that is wanted).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_array, check_is_fitted


def _col_min_max(X):
    if sp.issparse(X):
        X = X.tocsc()
        return (np.asarray(X.min(axis=0).toarray()).ravel(),
                np.asarray(X.max(axis=0).toarray()).ravel())
    return np.nanmin(X, axis=0), np.nanmax(X, axis=0)


class RangeScaler(TransformerMixin, BaseEstimator):
    """Min-max scaling into ``feature_range``; see the module docstring for CSR rules."""

    def __init__(self, feature_range=(0.0, 1.0)):
        self.feature_range = feature_range

    def fit(self, X, y=None):
        """Learn each column's min and max. Everything is checked before any
        attribute is set, so a refused input leaves the scaler as it was."""
        lo, hi = map(float, self.feature_range)
        if not lo < hi:
            raise ValueError(f"feature_range must be increasing, got {self.feature_range}")
        # clear errors for NaN / inf, empty or 1-D input (scikit-learn's wording)
        X = check_array(X, accept_sparse="csr", dtype=np.float64)
        mn, mx = _col_min_max(X)
        span = mx - mn
        const = ~(span > 0)
        if sp.issparse(X):
            if lo != 0.0:
                raise ValueError("scaling a sparse matrix to a range other than [0, hi] would "
                                 "make implicit zeros non-zero; call .toarray() first")
            if np.any(mn < 0):
                raise ValueError("sparse input with negative values: min-max scaling would "
                                 "make implicit zeros non-zero; call .toarray() first")
            # 0 -> 0: divide by the column maximum (equals min-max when the min is 0)
            scale = np.where(const, 0.0, hi / np.where(mx > 0, mx, 1.0))
            offset = np.zeros_like(scale)
        else:
            scale = np.where(const, 0.0, (hi - lo) / np.where(const, 1.0, span))
            offset = np.where(const, 0.0, lo - mn * scale)
        self.scale_, self.offset_ = scale, offset
        self.data_min_, self.data_max_ = mn, mx
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X):
        check_is_fitted(self, "scale_")
        X = check_array(X, accept_sparse="csr", dtype=np.float64)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, the scaler was fitted on "
                             f"{self.n_features_in_}")
        if sp.issparse(X):
            if np.any(self.offset_ != 0):
                raise ValueError("this scaler does not map 0 to 0; densify X first")
            X = X.copy()
            X.data *= self.scale_[X.indices]
            X.eliminate_zeros()
            X.indices = X.indices.astype(np.int32, copy=False)
            return X
        return np.ascontiguousarray(X * self.scale_ + self.offset_)


def scale_fit_apply(X_train, X_test=None, feature_range=(0.0, 1.0)):
    """Fit on ``X_train``, apply to both: ``(X_train_s, X_test_s or None, scaler)``."""
    sc = RangeScaler(feature_range).fit(X_train)
    return sc.transform(X_train), (None if X_test is None else sc.transform(X_test)), sc


def scale01(X_train, X_test=None):
    """[0, 1] scaling as in LDM Section 4.1 (fitted on the training part)."""
    return scale_fit_apply(X_train, X_test, (0.0, 1.0))


def scale_pm1(X_train, X_test=None):
    """[-1, 1] scaling as LIBSVM's svm-scale default (dense input)."""
    return scale_fit_apply(X_train, X_test, (-1.0, 1.0))


def impute_on(strategies, X_fit, *others):
    """Missing values (NaN) filled by statistics of ``X_fit`` only: each column by
    its strategy in ``strategies`` (one per column, as ``load(..., impute=False)``
    gives them in ``DatasetInfo.impute``): 'mean', the column's mean, or
    'most_frequent', its mode, a tie going to the smallest value (scikit-learn's
    SimpleImputer, the rule of a plain load's imputation over all rows). Returns
    ``[X_fit, *others]`` imputed, float64 C-contiguous; with no strategies (a set
    whose registry entry imputes nothing) the arrays themselves, untouched, so
    every other set's computation is bit for bit what it was.

    An experiment calls it where it fits its scaling, on the part a model is
    trained on (an outer training part, an inner CV training fold), and applies
    it to the rows it holds out, so no held-out value enters a filled cell."""
    if not strategies:
        return [X_fit, *others]
    from sklearn.impute import SimpleImputer

    strategies = tuple(strategies)
    arrays = [np.array(Z, dtype=np.float64, order="C", copy=True) for Z in (X_fit, *others)]
    for Z in arrays:
        if Z.ndim != 2 or Z.shape[1] != len(strategies):
            raise ValueError(f"{len(strategies)} strategies for an array of shape {Z.shape}")
    empty = np.flatnonzero(np.isnan(arrays[0]).all(axis=0)) if len(arrays[0]) else np.arange(len(strategies))
    if len(empty):
        raise ValueError(f"columns {empty.tolist()}: every value of the fit part is missing, "
                         "nothing to impute from")
    for strategy in sorted(set(strategies)):
        if strategy not in ("mean", "most_frequent"):
            raise ValueError(f"strategy must be 'mean' or 'most_frequent'; got {strategy!r}")
        cols = np.flatnonzero(np.array(strategies) == strategy)
        imputer = SimpleImputer(strategy=strategy).fit(arrays[0][:, cols])
        for Z in arrays:
            Z[:, cols] = imputer.transform(Z[:, cols])
    return arrays
