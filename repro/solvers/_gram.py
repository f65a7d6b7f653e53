"""A training Gram matrix validated once and cut once, for many fits.

GS-SVM Table 2 fits one K = exp(-theta D) at every C of its grid: with an
ndarray, every ``fit`` validated K again (finite, square, symmetric: O(n^2)
each) and cut the one-vs-one sub-Grams again (``np.take`` on both axes). On
Page (4,925 rows, 5 classes) that was 0.9 s of a 1.08 s fit whose solver took
0.14 s. :class:`PrecomputedGram` does that work once per matrix and hands
``fit`` the same arrays, so a fit on it is the ndarray's fit, bitwise.

Why a wrapper and not a cache keyed on the ndarray: a caller may change an
array in place between two fits (``K *= 2``), and neither ``id(K)`` nor the
array object says so; hashing its contents at every fit would cost what it
saves. The wrapper instead owns a private copy that nothing can write to, so
what it validated and what it cut stay true for as long as it lives.
"""
import hashlib
import weakref

import numpy as np
from sklearn.utils import check_array, check_consistent_length
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from .._kernels.kernels import gram_asymmetry, gram_submatrix

# Default budget of the sub-Gram cache: 1 GiB. Page's ten one-vs-one
# sub-Grams of a 4,925-row fold take about 0.66 GB (one class holds 90 % of
# the rows, so four of the pairs are nearly the whole matrix).
DEFAULT_CACHE_BYTES = 1 << 30


# The arrays a PrecomputedGram owns and hands to solvers (its copy of K and its
# sub-Grams): read-only, and nothing outside the wrapper may write to them, so
# their content hash, once computed, stays true for as long as they live.
# id -> (weak reference, digest or None); the weak reference tells a live
# array from a later one that reuses its id, and removes the entry with it.
_FROZEN = {}


def _freeze(A):
    """Make ``A`` (owning its memory) read-only and remember it as frozen."""
    A.flags.writeable = False
    key = id(A)
    _FROZEN[key] = (weakref.ref(A, lambda _, key=key: _FROZEN.pop(key, None)), None)
    return A


def content_digest(A):
    """A 16-byte hash of ``A``'s values (blake2b of its C-ordered bytes): the
    key a solver caches a factorisation of a Gram matrix under. Hashed once
    for the matrices a PrecomputedGram hands out (LDM's grids fit one Gram at
    hundreds of points: hashing it at each cost a quarter of Table 3's LDM
    time), at every call for any other array, which its owner may change."""
    entry = _FROZEN.get(id(A))
    if entry is not None and entry[0]() is A:
        if entry[1] is None:
            entry = _FROZEN[id(A)] = (entry[0], _blake(A))
        return entry[1]
    return _blake(A)


def is_frozen(A):
    """Whether ``A`` is a matrix a PrecomputedGram validated and holds."""
    entry = _FROZEN.get(id(A))
    return entry is not None and entry[0]() is A


def _labels_key(y):
    """(dtype, shape, digest of the values) of an ndarray of numbers or fixed-width
    strings, else None (nothing to compare: another type, or references as in
    dtype object)."""
    if type(y) is not np.ndarray or y.dtype.kind not in "biufSU":
        return None
    return y.dtype.str, y.shape, _blake(y)


def _blake(A):
    return hashlib.blake2b(np.ascontiguousarray(A).view(np.uint8), digest_size=16).digest()


def _check_symmetric_gram(K):
    """Refuse a Gram matrix that is not symmetric (to rounding): a cheap O(n^2)
    check that catches a transposed or mismatched K(X_train, X_train). Positive
    semi-definiteness is assumed, not checked (that would cost O(n^3)): with an
    indefinite K the dual is not convex and a solver stops at a stationary point
    that need not be the optimum."""
    scale, asym, i, j = gram_asymmetry(K)
    if asym > 1e-10 * scale:
        raise ValueError(f"kernel='precomputed' needs a symmetric Gram matrix K(X_train, X_train); "
                         f"K[{i}, {j}] - K[{j}, {i}] = {K[i, j] - K[j, i]:.3g} (largest |K| {scale:.3g})")


def check_training_gram(K):
    """The checks a validated float64 array passes before it is fitted as
    K(X_train, X_train): square, then symmetric (``_check_symmetric_gram``)."""
    if K.shape[0] != K.shape[1]:
        raise ValueError(
            f"kernel='precomputed' needs the square Gram matrix K(X_train, X_train) "
            f"in fit; got an array of shape {K.shape}."
        )
    _check_symmetric_gram(K)


class PrecomputedGram:
    """K(X_train, X_train) for repeated fits of estimators with
    ``kernel='precomputed'``: pass it to ``fit`` where the ndarray would go.

    >>> gram = PrecomputedGram(K)
    >>> for C in grid:
    ...     SMO(kernel="precomputed", C=C).fit(gram, y).score(K_test, y_test)

    The constructor copies K (float64, C order; see ``copy``), refuses it with the
    ValueErrors an estimator's ``fit`` gives for that ndarray (not 2-D, NaN or
    infinite values, not square, not symmetric) and makes the copy read-only.
    Each ``fit`` then skips those checks and reuses the one-vs-one sub-Grams
    cut at an earlier fit on the same rows; the model is bitwise the ndarray's
    (same arrays in, same solver). Prediction still takes the ndarray
    K(X_test, X_train).

    Why the reuse is safe: the copy is private (nothing outside holds a
    reference that may write: ``matrix`` is a read-only view, and NumPy
    refuses to make a view of a read-only array writeable; with
    ``copy=False`` the caller's own array is read-only), so its checks and
    its cuts cannot go stale; a cut is keyed on the exact training rows it
    holds (the bytes of their indices), and the sub-Grams handed to a solver
    are read-only too, so a solver cannot alter a cached one. Changing the
    caller's K after construction changes nothing here: wrap the new values.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        The training Gram matrix.
    copy : bool, default=True
        False: for a caller that hands K over (a temporary such as
        ``np.exp(-theta * D)``, which nothing else references): a float64
        C-ordered array that owns its memory is kept as it is, made read-only
        in place (a write through any name of it then raises), which saves
        the copy of its n^2 values in fresh memory (on Page 0.2 GB per theta,
        whose page faults cost more than the copy). A view, or an array of
        another dtype or order, is copied whatever ``copy`` says. Re-enabling
        writes on the handed-over array voids what is said above.
    max_cache_bytes : int, default=1 GiB
        Budget of the sub-Gram cache (the full matrix is not counted: it is
        the binary problem's own matrix, never copied). A sub-Gram that
        would take the cache beyond it is not kept and is cut again at each
        fit; what is kept stays until the wrapper is dropped (one-vs-one
        visits the pairs in a fixed cycle, where evicting the least recently
        used entry would evict the next one needed). 0 disables the cache.
    """

    def __init__(self, K, copy=True, max_cache_bytes=DEFAULT_CACHE_BYTES):
        given = K
        K = check_array(K, accept_sparse=False, dtype=np.float64, order="C", copy=copy,
                        input_name="K")
        if K is given and K.base is not None:  # a view: its base could still be written
            K = K.copy()
        check_training_gram(K)
        self._K = _freeze(K)
        self.max_cache_bytes = int(max_cache_bytes)
        self._cache = {}  # row indices' bytes -> read-only sub-Gram
        self._y_key, self._y = None, None  # the labels last checked (validate_fit)
        self.cache_bytes = 0

    @property
    def shape(self):
        return self._K.shape

    @property
    def matrix(self):
        """The validated copy, as a read-only view."""
        return self._K.view()

    def __repr__(self):
        n = self._K.shape[0]
        return (f"PrecomputedGram({n} x {n}, {len(self._cache)} sub-Grams cached, "
                f"{self.cache_bytes / 2**20:.1f} MiB)")

    def validate_fit(self, estimator, y):
        """What ``validate_data(estimator, K, y)`` and ``check_classification_targets(y)``
        give at a fit, without checking K again: the read-only K and y checked as
        ``check_X_y`` checks it (the same ``_check_y`` behind the public entry
        point) and as classification targets; ``n_features_in_`` set to n_samples
        and no feature names, as for the ndarray.

        y is checked once per content: a grid fits one y at every point, and
        scikit-learn's checks of it (its dataframe probes, ``type_of_target``)
        cost more than an LDM fit on a small set (1.2 ms of 2 ms). The checked y
        is kept as a private read-only copy with the digest of its values; a y of
        equal dtype, shape and values is that y, checked (labels of dtype object
        are checked at every fit: their bytes are references, not values)."""
        # validate_data with skip_check_array on the wrapper's own ndarray, which
        # has no feature names: n_features_in_ set, earlier feature names dropped
        estimator.n_features_in_ = self._K.shape[1]
        if hasattr(estimator, "feature_names_in_"):
            del estimator.feature_names_in_
        key = _labels_key(y)
        if key is not None and key == self._y_key:
            return self._K, self._y
        y = validate_data(estimator, "no_validation", y)
        check_consistent_length(self._K, y)
        check_classification_targets(y)
        key = _labels_key(y)
        if key is not None:
            self._y_key, self._y = key, np.array(y, copy=True)
            self._y.flags.writeable = False
        return self._K, y

    def sub_gram(self, rows):
        """K[rows][:, rows] as a C-contiguous read-only array (rows: the sorted
        training rows of one one-vs-one problem), cut as the estimators cut the
        ndarray and cached within ``max_cache_bytes``."""
        rows = np.asarray(rows, dtype=np.intp)
        if len(rows) == self._K.shape[0] and np.array_equal(rows, np.arange(len(rows))):
            return self._K  # every row, in order: the matrix itself
        key = rows.tobytes()
        sub = self._cache.get(key)
        if sub is None:
            sub = _freeze(gram_submatrix(self._K, rows))
            if self.cache_bytes + sub.nbytes <= self.max_cache_bytes:
                self._cache[key] = sub
                self.cache_bytes += sub.nbytes
        return sub
