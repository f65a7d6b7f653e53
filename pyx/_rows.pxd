# cython: language_level=3
"""One row view for dense and CSR data (the lightning convention).

A solver written against ``Rows`` works unchanged on a dense C-contiguous
float64 array and on a CSR matrix with sorted int32 indices: a dense row hands
back the shared index array 0..d-1, so every loop reads ``(indices, values,
nnz)`` the same way. Only structs and inline functions live here: a ``cdef
class`` declared in a flat .pxd does not compile once the module is built
under the dotted name ``repro._kernels.<name>``.

The Python side (``repro.solvers._validation.as_rows_input``) guarantees the
layout; ``rows_init`` trusts it and only keeps raw pointers, so the caller
must hold the arrays returned by ``rows_init`` for as long as the view is used.
"""
cimport numpy as cnp
from libc.math cimport sqrt

cdef struct Rows:
    double* data       # dense: n_rows*n_features values, row-major; CSR: nnz values
    int* indices       # CSR column indices; dense: 0..n_features-1 shared by every row
    int* indptr        # CSR row pointers (n_rows+1); NULL for dense
    double* sqnorm     # ||x_i||^2 for every row (precomputed in Python)
    int n_rows
    int n_features
    bint dense


cdef inline object rows_init(Rows* R, object data, object indices, object indptr,
                             object sqnorm, int n_rows, int n_features, bint dense):
    """Point ``R`` at the arrays; return them so the caller keeps them alive.

    data: float64 C-contiguous (dense: shape (n, d); CSR: .data), indices: int32
    (dense: arange(d)), indptr: int32 CSR row pointers or None for dense,
    sqnorm: float64 (n,).
    """
    cdef cnp.ndarray a_data = data
    cdef cnp.ndarray a_ind = indices
    cdef cnp.ndarray a_sq = sqnorm
    cdef cnp.ndarray a_ptr
    R.data = <double*> cnp.PyArray_DATA(a_data)
    R.indices = <int*> cnp.PyArray_DATA(a_ind)
    R.sqnorm = <double*> cnp.PyArray_DATA(a_sq)
    R.n_rows = n_rows
    R.n_features = n_features
    R.dense = dense
    if dense:
        R.indptr = NULL
    else:
        a_ptr = indptr
        R.indptr = <int*> cnp.PyArray_DATA(a_ptr)
    return (data, indices, indptr, sqnorm)


cdef inline void get_row(const Rows* R, int i, int** ind, double** val, int* nnz) noexcept nogil:
    if R.dense:
        ind[0] = R.indices
        val[0] = R.data + <Py_ssize_t> i * R.n_features
        nnz[0] = R.n_features
    else:
        ind[0] = R.indices + R.indptr[i]
        val[0] = R.data + R.indptr[i]
        nnz[0] = R.indptr[i + 1] - R.indptr[i]


cdef inline double row_dot_vec(const Rows* R, int i, const double* w) noexcept nogil:
    """x_i . w for a dense vector w of length n_features."""
    cdef int* ind
    cdef double* val
    cdef int nnz, k
    cdef double s = 0.0
    get_row(R, i, &ind, &val, &nnz)
    if R.dense:
        for k in range(nnz):
            s += val[k] * w[k]
    else:
        for k in range(nnz):
            s += val[k] * w[ind[k]]
    return s


cdef inline void row_axpy(const Rows* R, int i, double a, double* w) noexcept nogil:
    """w += a * x_i."""
    cdef int* ind
    cdef double* val
    cdef int nnz, k
    get_row(R, i, &ind, &val, &nnz)
    if R.dense:
        for k in range(nnz):
            w[k] += a * val[k]
    else:
        for k in range(nnz):
            w[ind[k]] += a * val[k]


cdef inline double row_sqnorm(const Rows* R, int i) noexcept nogil:
    return R.sqnorm[i]


cdef inline double rows_dot(const Rows* A, int i, const Rows* B, int j) noexcept nogil:
    """x_i . z_j for rows of two views (possibly the same), any dense/CSR mix.

    CSR indices are sorted (guaranteed by the Python side), so two sparse rows
    are multiplied by a merge; a dense row is indexed directly.
    """
    cdef int *ia
    cdef int *ib
    cdef double *va
    cdef double *vb
    cdef int na, nb, p = 0, q = 0, k
    cdef double s = 0.0
    get_row(A, i, &ia, &va, &na)
    get_row(B, j, &ib, &vb, &nb)
    if A.dense and B.dense:
        for k in range(na):
            s += va[k] * vb[k]
    elif A.dense:
        for k in range(nb):
            s += vb[k] * va[ib[k]]
    elif B.dense:
        for k in range(na):
            s += va[k] * vb[ia[k]]
    else:
        while p < na and q < nb:
            if ia[p] == ib[q]:
                s += va[p] * vb[q]
                p += 1
                q += 1
            elif ia[p] < ib[q]:
                p += 1
            else:
                q += 1
    return s


cdef inline void row_scatter(const Rows* R, int i, double* work) noexcept nogil:
    """work[ind] = x_i for a zeroed dense buffer of n_features (undo with row_unscatter)."""
    cdef int* ind
    cdef double* val
    cdef int nnz, k
    get_row(R, i, &ind, &val, &nnz)
    for k in range(nnz):
        work[ind[k]] = val[k]


cdef inline void row_unscatter(const Rows* R, int i, double* work) noexcept nogil:
    cdef int* ind
    cdef double* val
    cdef int nnz, k
    get_row(R, i, &ind, &val, &nnz)
    for k in range(nnz):
        work[ind[k]] = 0.0


cdef struct Cols:
    # the same CSR matrix by columns (CSC): what one row against all rows needs
    double* data
    int* indices       # row indices, ascending within each column
    int* indptr        # n_features + 1 column pointers


cdef inline object cols_init(Cols* C, object data, object indices, object indptr):
    """Point ``C`` at a CSR matrix's columns already built by
    ``repro.solvers._validation.as_columns_input`` (float64 values, int32 row
    indices ascending within each column, int32 column pointers); return them so
    the caller keeps them alive. The Python wrapper builds them: a kernel module
    importing the validation layer at call time would close an import loop
    (_validation imports the compiled kernels)."""
    cdef cnp.ndarray a_data = data
    cdef cnp.ndarray a_ind = indices
    cdef cnp.ndarray a_ptr = indptr
    C.data = <double*> cnp.PyArray_DATA(a_data)
    C.indices = <int*> cnp.PyArray_DATA(a_ind)
    C.indptr = <int*> cnp.PyArray_DATA(a_ptr)
    return (data, indices, indptr)
