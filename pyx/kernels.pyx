# cython: language_level=3
"""Python entry points to the shared kernel primitives (_kernel.pxd, _rows.pxd).

Used by the estimators for prediction (kernel values between test rows and
support vectors) and by the tests, which compare every primitive with NumPy on
dense and CSR inputs and check the evaluation counter.

Arguments ``a`` and ``b`` are tuples ``(data, indices, indptr, sqnorm,
n_rows, n_features, dense)`` made by ``repro.solvers._validation.as_rows_input``.
"""
import numpy as np
cimport numpy as cnp
from _rows cimport Rows, rows_init, rows_dot, row_dot_vec, row_axpy
from _kernel cimport (KernelSpec, kernel_spec, kernel_ij, kernel_row_buffered,
                     KERNEL_PRECOMPUTED)

cnp.import_array()


cdef object _view(Rows* R, tuple a):
    return rows_init(R, a[0], a[1], a[2], a[3], a[4], a[5], a[6])


def _check_precomputed(tuple a, tuple b, int kind):
    """A precomputed kernel reads entry j of row i of ``a`` as k(a_i, b_j): ``a``
    must be a dense block of a Gram matrix with a column for every row of ``b``,
    or the entries would be read out of place (a silent wrong answer)."""
    if kind == KERNEL_PRECOMPUTED and (not a[6] or a[5] < b[4]):
        raise ValueError(
            f"kernel='precomputed' needs dense Gram rows with one column per row of the "
            f"other side; got {'dense' if a[6] else 'CSR'} rows with {a[5]} columns for {b[4]} rows")


def kernel_matrix(tuple a, tuple b, int kind, double gamma, double coef0, int degree,
                  const int[::1] rows=None):
    """K[r, j] = k(a_{rows[r]}, b_j) (rows=None: every row of a).

    Returns (K, n_evals), n_evals counted by the kernel_row primitive.
    """
    _check_precomputed(a, b, kind)
    cdef Rows A, B
    keep_a = _view(&A, a)
    keep_b = _view(&B, b)
    cdef KernelSpec k = kernel_spec(kind, gamma, coef0, degree)
    cdef int n = A.n_rows if rows is None else rows.shape[0]
    cdef int m = B.n_rows
    cdef cnp.ndarray[cnp.float64_t, ndim=2, mode="c"] K = np.empty((n, m), dtype=np.float64)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] work = np.zeros(A.n_features + 1)
    cdef int r, i
    with nogil:
        for r in range(n):
            i = r if rows is None else rows[r]
            kernel_row_buffered(&k, &A, i, &B, NULL, m, &K[r, 0] if m > 0 else NULL, &work[0])
    return K, k.n_evals


def kernel_pairs(tuple a, tuple b, int kind, double gamma, double coef0, int degree,
                 const int[::1] ii, const int[::1] jj):
    """v[t] = k(a_{ii[t]}, b_{jj[t]}) by single evaluations; returns (v, n_evals)."""
    _check_precomputed(a, b, kind)
    cdef Rows A, B
    keep_a = _view(&A, a)
    keep_b = _view(&B, b)
    cdef KernelSpec k = kernel_spec(kind, gamma, coef0, degree)
    cdef Py_ssize_t t, n = ii.shape[0]
    cdef cnp.ndarray[cnp.float64_t, ndim=1] v = np.empty(n, dtype=np.float64)
    with nogil:
        for t in range(n):
            v[t] = kernel_ij(&k, &A, ii[t], &B, jj[t])
    return v, k.n_evals


def row_dots(tuple a, tuple b):
    """G[i, j] = a_i . b_j through rows_dot (tests the dense/CSR merge paths)."""
    cdef Rows A, B
    keep_a = _view(&A, a)
    keep_b = _view(&B, b)
    cdef cnp.ndarray[cnp.float64_t, ndim=2, mode="c"] G = np.empty((A.n_rows, B.n_rows))
    cdef int i, j
    for i in range(A.n_rows):
        for j in range(B.n_rows):
            G[i, j] = rows_dot(&A, i, &B, j)
    return G


def matvec(tuple a, const double[::1] w):
    """X @ w through row_dot_vec."""
    cdef Rows A
    keep_a = _view(&A, a)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] out = np.empty(A.n_rows)
    cdef int i
    for i in range(A.n_rows):
        out[i] = row_dot_vec(&A, i, &w[0])
    return out


def rmatvec(tuple a, const double[::1] c):
    """X.T @ c through row_axpy."""
    cdef Rows A
    keep_a = _view(&A, a)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] w = np.zeros(A.n_features)
    cdef int i
    for i in range(A.n_rows):
        row_axpy(&A, i, c[i], &w[0])
    return w


def fill_sqnorms(tuple a):
    """a[3][i] = x_i . x_i through rows_dot, so that dense and CSR copies of the
    same data get bitwise identical norms (and so identical kernel values)."""
    cdef Rows A
    keep_a = _view(&A, a)
    cdef double[::1] sq = a[3]
    cdef int i
    for i in range(A.n_rows):
        sq[i] = rows_dot(&A, i, &A, i)


def gram_asymmetry(const double[:, ::1] K):
    """``(max |K_ij|, max |K_ij - K_ji|, i, j)`` of a square C-ordered matrix,
    (i, j) the first pair (i < j, row-major) where the second maximum is reached
    ((0, 0) when K is exactly symmetric). The symmetry test of a precomputed
    Gram matrix (repro.solvers._gram) in one pass without temporaries: NumPy's
    ``abs(K - K.T)`` wrote two n x n arrays, 0.1 s a matrix on Page's folds,
    where GS-SVM's Table 2 checks 17 matrices per inner split. The loops walk
    64 x 64 tiles, so the transposed reads stay in cache. NaN is not looked for
    (the caller has refused non-finite matrices)."""
    cdef Py_ssize_t n = K.shape[0], bi, bj, i, j, i_end, j_end, j_start
    cdef Py_ssize_t tile = 64, arg_i = 0, arg_j = 0
    cdef double scale = 0.0, asym = 0.0, d, a
    if K.shape[1] != n:
        raise ValueError(f"gram_asymmetry needs a square matrix; got shape {K.shape[0]} x {K.shape[1]}")
    with nogil:
        bi = 0
        while bi < n:
            i_end = min(bi + tile, n)
            bj = bi
            while bj < n:
                j_end = min(bj + tile, n)
                for i in range(bi, i_end):
                    j_start = i + 1 if bj == bi else bj
                    a = abs(K[i, i]) if bj == bi else 0.0
                    if a > scale:
                        scale = a
                    for j in range(j_start, j_end):
                        a = abs(K[i, j])
                        if a > scale:
                            scale = a
                        a = abs(K[j, i])
                        if a > scale:
                            scale = a
                        d = abs(K[i, j] - K[j, i])
                        if d > asym:
                            asym = d
                            arg_i = i
                            arg_j = j
                bj += tile
            bi += tile
    return scale, asym, int(arg_i), int(arg_j)


def gram_submatrix(const double[:, ::1] K, const cnp.intp_t[::1] rows, out=None):
    """``K[rows][:, rows]`` as a C-ordered array, in one pass: the one-vs-one
    sub-Gram of a precomputed kernel. ``np.take`` on both axes wrote an
    intermediate array of len(rows) x n first (on Page's folds the two passes
    were a quarter of an SVM grid's time). ``rows``: indices into K, checked
    here. ``out``: a 1-d float64 scratch array of at least len(rows)^2 values
    whose start is filled and returned as the m x m view (a fit's problems one
    after another in one buffer: a fresh array of Page's size is fresh pages,
    which the kernel zeroes first), else a new array."""
    cdef Py_ssize_t n = K.shape[0], m = rows.shape[0], a, b, r
    for a in range(m):
        if rows[a] < 0 or rows[a] >= n:
            raise IndexError(f"row index {rows[a]} out of range for a Gram matrix of {n} rows")
    if out is None:
        out = np.empty((m, m))
    else:
        if out.dtype != np.float64 or out.ndim != 1 or out.shape[0] < m * m:
            raise ValueError(f"out must be a 1-d float64 array of at least {m * m} values")
        out = out[:m * m].reshape(m, m)
    cdef double[:, ::1] o = out
    with nogil:
        for a in range(m):
            r = rows[a]
            for b in range(m):
                o[a, b] = K[r, rows[b]]
    return out
