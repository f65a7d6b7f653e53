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
import threading
import weakref
from collections import OrderedDict

import numpy as np
import scipy.linalg as sla
from sklearn.utils import check_array, check_consistent_length
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from .._kernels.kernels import gram_asymmetry, gram_submatrix
from ._blas import one_blas_thread

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


def _freeze(A, digest=None):
    """Make ``A`` (owning its memory) read-only and remember it as frozen, with
    its ``content_digest`` when the caller has computed it already."""
    A.flags.writeable = False
    key = id(A)
    _FROZEN[key] = (weakref.ref(A, lambda _, key=key: _FROZEN.pop(key, None)), digest)
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
    check that catches a transposed or mismatched K(X_train, X_train)."""
    scale, asym, i, j = gram_asymmetry(K)
    if asym > 1e-10 * scale:
        raise ValueError(f"kernel='precomputed' needs a symmetric Gram matrix K(X_train, X_train); "
                         f"K[{i}, {j}] - K[{j}, {i}] = {K[i, j] - K[j, i]:.3g} (largest |K| {scale:.3g})")


# --- positive semi-definiteness (issue 47) -----------------------------------
# With an indefinite K the SVM dual is not convex: every solver here stopped at
# a stationary point and reported convergence (GSSVM on -(XX'): training
# accuracy 0.00). A K that is not PSD beyond rounding is refused instead.
#
# The rounding allowed: rounding K's entries to float32 moves every eigenvalue
# by at most ||E||_2 <= ||E||_F <= 2^-24 ||K||_F (|E_ij| <= 2^-24 |K_ij|). The
# allowance is 16 times that, 2^-20 ||K||_F: room for a Gram formed in float32
# arithmetic (measured: XX' of rank 10-300 formed in float32 reached
# -1.5e-8 ||K||_F) and for float64 Cholesky's own error (about n eps ||K||_2).
# An indefinite kernel's negative eigenvalues are orders beyond it (-(XX'):
# -||K||_2 >= -||K||_F / sqrt(rank)).
PSD_RTOL = 2.0 ** -20

# The eigenvalue test (a Cholesky factorisation of K + tol I, O(n^3 / 3)) runs
# on at most PSD_EIGEN_MAX rows: on all of K up to that size (1000 rows: about
# 8 ms on one core), above it on the principal submatrix of that many rows
# drawn with a fixed seed. Every principal submatrix of a PSD matrix is PSD, so
# the sampled test is necessary and never refuses a PSD K; it misses a negative
# direction the sample does not see. The O(n^2) checks (diagonal, 2 x 2 minors)
# still run on all of K. Why not larger: GS-SVM's Table 2 fits a fresh Gram at
# each of 17 widths per inner split (1,710 per method and set, 5,130 a set),
# mostly once each; on segment (1,871 rows a split, 0.11 s a fit on average)
# the whole factorisation and the hash below added about 92 ms a Gram (+85 % on
# the set's 558 s), the sample about 19 ms (+17 %).
PSD_EIGEN_MAX = 1000

# A Gram fitted again (a grid of C on one ndarray, the same K built anew for
# another method) is checked once: the outcome is remembered under its content
# digest (``content_digest``) for the last _PSD_MEMO_SIZE matrices. The digest
# is free for the frozen arrays a PrecomputedGram holds (hashed once); for any
# other array it is a blake2b pass over K (8 ms at 1000 rows, 34 ms at 2000),
# paid only where the check costs more, up to PSD_EIGEN_MAX rows: above, the
# check is O(n^2) passes and the fixed-size factorisation (20 ms at 2000 rows),
# less than the hash, and runs again.
_PSD_MEMO_SIZE = 256
_PSD_MEMO = OrderedDict()  # (n, digest) -> "" (PSD) or the refusal's message
_PSD_LOCK = threading.Lock()
_PSD_PREFIX = ("kernel='precomputed' needs a positive semi-definite Gram matrix K(X_train, "
               "X_train) (on an indefinite one the SVM problem is not convex and no solver "
               "can certify its optimum): ")
# |K_ij| = sqrt(K_ii K_jj) exactly (a repeated row) may round a few ulps over
_MINOR_SLACK = 1.0 + 8.0 * np.finfo(float).eps
_BLOCK_VALUES = 1 << 20  # values per row block of the 2 x 2 minor check (8 MB)


def psd_tolerance(K):
    """How far below 0 K's eigenvalues may reach by rounding: PSD_RTOL ||K||_F."""
    return PSD_RTOL * float(np.linalg.norm(K))


def _negative_diagonal(K, tol):
    """K_ii >= 0 (a diagonal entry is a squared norm in feature space)."""
    diagonal = np.diagonal(K)
    i = int(np.argmin(diagonal))
    if diagonal[i] < -tol:
        return f"K[{i}, {i}] = {diagonal[i]:.6g} is negative (a diagonal entry is a squared norm)"
    return ""


def _failing_minor(K, tol):
    """K_ij^2 <= (K_ii + tol)(K_jj + tol): every 2 x 2 principal submatrix has
    its eigenvalues >= -tol, as K's must (Cauchy's interlacing). Tested as
    |K_ij| / r_j <= r_i (r = sqrt(diag + tol)), by blocks of rows, three passes
    over K; names the pair that exceeds the most."""
    n = K.shape[0]
    root = np.sqrt(np.diagonal(K) + tol)  # _negative_diagonal ran first: >= 0
    if not root.all():  # tol = 0: K is all zeros, trivially PSD
        return ""
    inverse = 1.0 / root
    step = max(1, _BLOCK_VALUES // n)
    worst, where = _MINOR_SLACK, None
    for start in range(0, n, step):
        scaled = np.abs(K[start:start + step])
        scaled *= inverse
        ratio = scaled.max(axis=1) * inverse[start:start + step]  # max_j |K_ij| / (r_i r_j)
        i = int(np.argmax(ratio))
        if ratio[i] > worst:
            worst, where = float(ratio[i]), (start + i, int(np.argmax(scaled[i])))
    if where is None:
        return ""
    i, j = where
    return (f"K[{i}, {j}]^2 = {K[i, j] ** 2:.6g} exceeds K[{i}, {i}] K[{j}, {j}] = "
            f"{K[i, i] * K[j, j]:.6g} (a 2 x 2 principal minor is negative)")


def _smallest_eigenvalue(S):
    """lambda_min of the symmetric S (LAPACK's syevr for that one value, or the
    whole spectrum by divide and conquer where syevr fails)."""
    try:
        return float(sla.eigh(S, eigvals_only=True, subset_by_index=[0, 0])[0])
    except np.linalg.LinAlgError:
        return float(sla.eigh(S, eigvals_only=True, driver="evd")[0])


def _negative_eigenvalue(K, tol):
    """lambda_min(K) >= -tol, tested by a Cholesky factorisation of K + tol I
    (it exists iff K + tol I is positive definite); only when that fails is
    the smallest eigenvalue computed, to name it (and to pass a K that
    Cholesky's rounding alone failed). Above PSD_EIGEN_MAX rows: on a sampled
    principal submatrix (see PSD_EIGEN_MAX)."""
    n = K.shape[0]
    rows, S = None, K
    if n > PSD_EIGEN_MAX:
        rows = np.sort(np.random.default_rng(0).choice(n, PSD_EIGEN_MAX, replace=False))
        S = K[np.ix_(rows, rows)]
    shifted = np.array(S, order="C")  # a private copy, factored in place
    shifted[np.diag_indices_from(shifted)] += tol
    # symmetric: the C-ordered copy read as Fortran is the same matrix
    _, info = sla.lapack.dpotrf(shifted.T, lower=1, overwrite_a=1, clean=0)
    if info == 0:
        return ""
    smallest = _smallest_eigenvalue(S)
    if smallest >= -tol:
        return ""
    where = ("its smallest eigenvalue" if rows is None else
             f"the smallest eigenvalue of its principal submatrix on {len(rows)} rows (a sample, "
             f"seed 0, of {n}: beyond {PSD_EIGEN_MAX} rows only a sample is factorised)")
    return (f"{where} is {smallest:.6g}, below -{tol:.3g} (the rounding allowed, "
            f"2^-20 ||K||_F)")


def _psd_failure(K):
    """Why K is not PSD beyond rounding, or "": the cheap necessary checks first
    (they name the entries), then the eigenvalue test. On one BLAS thread:
    predictable beside other work (on this 2-core machine under load, the
    threaded factorisation of a 2000-row K took 0.4 to 2.5 s instead of 0.12 s,
    and ||K||_F's dot product of 500 rows 12 ms instead of 0.1 ms)."""

    with one_blas_thread():
        tol = psd_tolerance(K)
        for check in (_negative_diagonal, _failing_minor, _negative_eigenvalue):
            failure = check(K, tol)
            if failure:
                return _PSD_PREFIX + failure
    return ""


def _check_psd_gram(K):
    """Refuse a K that is not PSD beyond rounding (``_psd_failure``), each
    content checked once where that pays (``_PSD_MEMO``). Returns K's content
    digest when it was computed here (None otherwise), for the caller to keep."""
    digest = None
    if K.shape[0] > PSD_EIGEN_MAX and not is_frozen(K):
        failure = _psd_failure(K)  # cheaper than hashing it (see _PSD_MEMO)
    else:
        digest = content_digest(K)
        failure = _remembered_psd_failure(K, digest)
    if failure:
        raise ValueError(failure)
    return digest


def _remembered_psd_failure(K, digest):
    """``_psd_failure(K)``, computed once per content (``_PSD_MEMO``)."""
    key = (K.shape[0], digest)
    with _PSD_LOCK:
        failure = _PSD_MEMO.get(key)
        if failure is not None:
            _PSD_MEMO.move_to_end(key)
            return failure
    failure = _psd_failure(K)
    with _PSD_LOCK:
        _PSD_MEMO[key] = failure
        while len(_PSD_MEMO) > _PSD_MEMO_SIZE:
            _PSD_MEMO.popitem(last=False)
    return failure


def check_training_gram(K):
    """The checks a validated float64 array passes before it is fitted as
    K(X_train, X_train): square, symmetric (``_check_symmetric_gram``), then
    positive semi-definite up to rounding (``_check_psd_gram``). A one-vs-one
    problem's sub-Gram is a principal submatrix of the checked K, so it is PSD
    too and is not checked again. Returns K's content digest when the check
    computed it, else None."""
    if K.shape[0] != K.shape[1]:
        raise ValueError(
            f"kernel='precomputed' needs the square Gram matrix K(X_train, X_train) "
            f"in fit; got an array of shape {K.shape}."
        )
    _check_symmetric_gram(K)
    return _check_psd_gram(K)


class PrecomputedGram:
    """A training Gram matrix K(X_train, X_train) checked once and cut once, for many fits.
    Pass it to ``fit`` of any estimator here with ``kernel='precomputed'``
    where the ndarray would go: its constructor copies K and refuses it with
    the ValueErrors ``fit`` gives for that ndarray (not 2-D, NaN or infinite
    values, not square, not symmetric, not positive semi-definite), and every
    ``fit`` then skips those O(n^2) checks and reuses the one-vs-one sub-Grams
    cut at an earlier fit; the model is bitwise the ndarray's. Use it for a
    grid of C (or lambda1, lambda2) on one kernel matrix, as GS-SVM Table 2 and
    the LDM tables do (on Page, 4,925 rows and 5 classes, 0.05 s of per-fit
    overhead instead of 0.35 s; LDM also keys its cached eigendecomposition on
    it without rehashing K). scikit-learn's SVC takes only the ndarray and
    checks it at every fit. Prediction still takes the ndarray K(X, X_train).

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        The training Gram matrix.
    copy : bool, default=True
        False: for a caller that hands K over (a temporary such as
        ``np.exp(-theta * D)`` that nothing else references): a float64
        C-ordered array owning its memory is kept and made read-only in place,
        saving the copy of its n^2 values (on Page 0.2 GB per theta). A view,
        or an array of another dtype or order, is copied whatever ``copy`` says.
    max_cache_bytes : int, default=1 GiB
        Budget of the sub-Gram cache (the full matrix is not counted). A
        sub-Gram that would exceed it is not kept and is cut again at each fit;
        0 disables the cache.

    Attributes
    ----------
    shape : tuple of int
        ``(n_samples, n_samples)``.
    matrix : ndarray
        The validated copy, as a read-only view.
    cache_bytes : int
        Bytes held by the cached sub-Grams.
    max_cache_bytes : int
        The cache's budget.

    Notes
    -----
    Why the reuse is safe: the copy is private and read-only (``matrix`` is a
    read-only view, and NumPy refuses to make a view of a read-only array
    writeable; with ``copy=False`` the caller's own array is made read-only), so
    its checks and its cuts cannot go stale. A cut is keyed on the exact
    training rows it holds (the bytes of their indices), and the sub-Grams
    handed to a solver are read-only too. Changing the caller's K after
    construction changes nothing here: wrap the new values. Re-enabling writes
    on an array handed over with ``copy=False`` voids this. What is cached
    stays until the wrapper is dropped: one-vs-one visits the pairs in a fixed
    cycle, where evicting the least recently used entry would evict the next
    one needed. Positive semi-definiteness is tested by a Cholesky factorisation
    of ``K + tol I`` (``tol = 2^-20 ||K||_F``), on a sampled principal
    submatrix of 1,000 rows above that size (module ``repro.solvers._gram``).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from repro.kernels import kernel_matrix
    >>> from repro.solvers import LDM, PrecomputedGram
    >>> X, y = make_classification(n_samples=300, n_features=10, random_state=0)
    >>> gram = PrecomputedGram(kernel_matrix(X[:200], kernel="rbf", gamma=0.1))
    >>> K_test = kernel_matrix(X[200:], X[:200], kernel="rbf", gamma=0.1)
    >>> scores = [LDM(kernel="precomputed", C=C).fit(gram, y[:200]).score(K_test, y[200:])
    ...           for C in (0.5, 1.0, 2.0)]  # K checked once, not at every fit
    >>> print(max(scores))
    0.9...
    """

    def __init__(self, K, copy=True, max_cache_bytes=DEFAULT_CACHE_BYTES):
        given = K
        K = check_array(K, accept_sparse=False, dtype=np.float64, order="C", copy=copy,
                        input_name="K")
        if K is given and K.base is not None:  # a view: its base could still be written
            K = K.copy()
        digest = check_training_gram(K)
        self._K = _freeze(K, digest)  # the digest the check computed, not hashed again
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
