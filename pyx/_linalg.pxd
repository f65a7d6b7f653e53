# cython: language_level=3
"""Matrix-vector products over the row view (_rows.pxd), dense or CSR.

NESVM (nesvm.txt, Eq. 33-35: the gradient of the smoothed hinge needs X w and
then X' u at every iteration), LSVM and the mini-batch steps of Pegasos all
reduce to the two products

    X . w   out[t] = x_{rows[t]} . w      (rows NULL: every row, out[i] = x_i . w)
    X' . u  w = sum_t u[t] x_{rows[t]}    (rows NULL: w = sum_i u_i x_i)

Both are written once for the row view; X' u skips every term with u == 0, so
a sparse u (the margin violators of a mini-batch, the support vectors of a
smoothed hinge) costs only the rows it names. ``rows_rmatvec`` overwrites w
(it is not an accumulation: w = X' u).

Dense data: with ``blas`` true, the full products call BLAS dgemv from
``scipy.linalg.cython_blas`` (the library SciPy ships, so no link flags). A
C-contiguous (n, d) array is, read column-major, the (d, n) matrix X', so
X w is dgemv('T') and X' u is dgemv('N') on that view with lda = d.
Measured with benchmarks/bench_linalg.py (removed in issue 24; the full products
are now timed by the bench target, repro/bench/pass_floor.py) (2 cores shared with other jobs,
SciPy 1.17's OpenBLAS pinned to one thread, median of repeated calls; runs
varied by up to 30%), loop time / BLAS time:

    X w, all rows (dgemv)              2.0 (200x50), 4.7 (2000x500), 2.6 (20000x100),
                                       4.9 (500x5000), 1.2-1.7 (100000x20)
    X[idx] w, per-row ddot             1.1-3.4 for d >= 50; 0.85 at d = 20, hence
                                       the row loop below BLAS_ROW_MIN_FEATURES
    X' u, all u_i nonzero (dgemv)      1.4-1.8 (0.8-1.35 at 20000x100: noise)
    X' u, half nonzero (dgemv)         1.2-3.0, but 0.5 at 500x5000 (dgemv reads every
                                       row, twice the loop's work; daxpy per row: 1.1)
    X' u, < half nonzero (daxpy rows)  1.0-1.45 (0.8-0.9 at d = 20: call overhead)

The loops are slow on dense rows because a strict left-to-right sum does not
vectorise. With OpenBLAS's default threads on this loaded machine, dgemv
calls took up to 8 ms where one thread takes 0.2 ms (threads waiting for a
busy core), so time the solvers with BLAS pinned to one thread
(threadpoolctl or OPENBLAS_NUM_THREADS=1). The dgemv path of X' u reads every
row, including those with u_i = 0 (the same result for finite data).

BLAS sums in a different order from the row loop, so with ``blas`` true a
dense product differs from the CSR product of the same matrix in the last bits;
callers that need dense and CSR fits to agree bitwise (as GS-SVM and SMO do)
pass ``blas`` false and get the row-view loops for both layouts.
"""
from libc.string cimport memset
from scipy.linalg.cython_blas cimport dgemv, ddot, daxpy
from _rows cimport Rows, get_row, row_dot_vec, row_axpy


cdef enum:
    # dgemv reads every row: used for X' u when at least 1 in this many u_i is
    # nonzero, one daxpy per nonzero row below (see the measurements above)
    RMATVEC_DENSE_GEMV_FRACTION = 2
    # one ddot / daxpy call per row pays for its call only on rows this long
    BLAS_ROW_MIN_FEATURES = 32


cdef inline void rows_matvec(const Rows* R, const double* w, const int* rows, int m,
                             double* out, bint blas) noexcept nogil:
    """out[t] = x_{rows[t]} . w for t < m; rows == NULL: out[i] = x_i . w for the
    first m rows (m = R.n_rows for the whole product)."""
    cdef int t, i
    cdef int d = R.n_features, lda = R.n_features, one = 1
    cdef double alpha = 1.0, beta = 0.0
    cdef char trans = b'T'
    if m <= 0:
        return
    if d == 0:  # BLAS returns early without touching out when a dimension is 0
        memset(out, 0, m * sizeof(double))
        return
    if R.dense and blas and (rows == NULL or d >= BLAS_ROW_MIN_FEATURES):
        if rows == NULL:
            # X (m, d) row-major is X' (d, m) column-major: out = (X')' w
            dgemv(&trans, &d, &m, &alpha, R.data, &lda, <double*> w, &one,
                  &beta, out, &one)
        else:
            for t in range(m):
                out[t] = ddot(&d, R.data + <Py_ssize_t> rows[t] * d, &one,
                              <double*> w, &one)
        return
    for t in range(m):
        i = t if rows == NULL else rows[t]
        out[t] = row_dot_vec(R, i, w)


cdef inline void rows_rmatvec(const Rows* R, const double* u, const int* rows, int m,
                              double* w, bint blas) noexcept nogil:
    """w = sum_t u[t] x_{rows[t]} over t < m with u[t] != 0; rows == NULL:
    w = sum_i u_i x_i over the first m rows. w (n_features) is overwritten."""
    cdef int t, i, nz = 0
    cdef int d = R.n_features, lda = R.n_features, one = 1
    cdef double alpha = 1.0, beta = 0.0
    cdef char trans = b'N'
    if d == 0:
        return
    if R.dense and blas and rows == NULL and m > 0:
        for t in range(m):
            if u[t] != 0.0:
                nz += 1
        if nz * RMATVEC_DENSE_GEMV_FRACTION >= m:
            # X' u with X' the (d, m) column-major view: one pass over X
            dgemv(&trans, &d, &m, &alpha, R.data, &lda, <double*> u, &one,
                  &beta, w, &one)
            return
    memset(w, 0, d * sizeof(double))
    for t in range(m):
        if u[t] == 0.0:
            continue
        i = t if rows == NULL else rows[t]
        if R.dense and blas and d >= BLAS_ROW_MIN_FEATURES:
            daxpy(&d, <double*> &u[t], R.data + <Py_ssize_t> i * d, &one, w, &one)
        else:
            row_axpy(R, i, u[t], w)

