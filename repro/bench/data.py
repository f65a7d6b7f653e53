"""The data of the benchmarks: registry sets as binary +-1 problems."""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .. import datasets

#: accuracy of a kernel model is read on at most this many rows (seeded): it
#: shows that both solvers reached the same classifier; predicting all of
#: w8a's 49,749 rows with ~5,000 support vectors would cost more than the fits
ACCURACY_ROWS = 10_000


def binary(name: str, sample: int | None = None, seed: int = 0, dense: bool = False):
    """``(X, y)`` of a registry set's training file with y in {-1, +1} (the
    larger label is +1); ``sample`` rows drawn without replacement (seeded);
    CSR with int32 indices (LIBSVM's wrapper refuses 64-bit ones) unless
    ``dense``."""
    X, y = datasets.load(name)
    if sample is not None and X.shape[0] > sample:
        rows = np.sort(np.random.default_rng(seed).choice(X.shape[0], sample, replace=False))
        X, y = X[rows], y[rows]
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(f"{name}: a binary set is needed, it has {len(classes)} classes")
    y = np.where(y == classes[1], 1.0, -1.0)
    if dense:
        return np.ascontiguousarray(X.toarray() if sp.issparse(X) else X, dtype=float), y
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=float)
        X.indices, X.indptr = X.indices.astype(np.int32), X.indptr.astype(np.int32)
    return X, y


def accuracy_rows(n: int, seed: int = 0) -> np.ndarray:
    """The rows (seeded, at most ACCURACY_ROWS) on which a kernel model's accuracy is read."""
    if n <= ACCURACY_ROWS:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, ACCURACY_ROWS, replace=False))


def scaled(name: str):
    """A registry set as dense features scaled to [-1, 1] on the whole set (the
    estimators' cost is measured here, not a protocol) and its labels."""
    from sklearn.preprocessing import MinMaxScaler

    X, y = datasets.load(name)
    X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
    return np.ascontiguousarray(MinMaxScaler((-1, 1)).fit_transform(X)), y
