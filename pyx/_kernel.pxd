# cython: language_level=3
"""Kernel functions over the row view, with an evaluation counter.

linear  k(x, z) = x . z
rbf     k(x, z) = exp(-gamma * ||x - z||^2)          (the papers' Gaussian kernel,
                                                     theta in gs_svm.txt Sec. 3)
poly    k(x, z) = (gamma * x . z + coef0) ** degree
precomputed  k(x_i, z_j) = A[i, j]: the rows of A are rows of a Gram matrix
        (dense only), so a solver given K instead of X reads its values
        through the same calls (and counts them as evaluations).

Every call of ``kernel_ij`` adds one to ``spec.n_evals`` and ``kernel_row``
adds one per entry it fills, so a solver's count is exactly the number of
kernel values it computed (the measure of the GS-SVM paper's Table 1). Values a
solver reads from a cache are not counted because they are not computed.

||x - z||^2 is formed as ||x||^2 + ||z||^2 - 2 x.z from precomputed squared
norms (one dot product per evaluation, as LIBSVM does); rounding can make it
slightly negative for identical rows, so it is clamped at 0.
"""
from libc.math cimport exp, pow
from libc.string cimport memset
from _rows cimport Rows, Cols, get_row, rows_dot, row_dot_vec, row_scatter, row_unscatter

cdef enum:
    KERNEL_LINEAR = 0
    KERNEL_RBF = 1
    KERNEL_POLY = 2
    KERNEL_PRECOMPUTED = 3

cdef struct KernelSpec:
    int kind
    double gamma
    double coef0
    int degree
    long long n_evals


cdef inline KernelSpec kernel_spec(int kind, double gamma, double coef0, int degree) noexcept nogil:
    cdef KernelSpec k
    k.kind = kind
    k.gamma = gamma
    k.coef0 = coef0
    k.degree = degree
    k.n_evals = 0
    return k


cdef inline double kernel_from_dot(const KernelSpec* k, double d, double sq_i,
                                   double sq_j) noexcept nogil:
    """The kernel value given x.z and the squared norms."""
    cdef double sq
    if k.kind == KERNEL_RBF:
        sq = sq_i + sq_j - 2.0 * d
        if sq < 0.0:
            sq = 0.0
        return exp(-k.gamma * sq)
    elif k.kind == KERNEL_POLY:
        return pow(k.gamma * d + k.coef0, k.degree)
    return d


cdef inline double kernel_value(const KernelSpec* k, const Rows* A, int i,
                                const Rows* B, int j) noexcept nogil:
    """k(x_i, z_j) without counting (for callers that count in bulk)."""
    if k.kind == KERNEL_PRECOMPUTED:  # A is dense: entry j of row i
        return A.data[<Py_ssize_t> i * A.n_features + j]
    return kernel_from_dot(k, rows_dot(A, i, B, j), A.sqnorm[i], B.sqnorm[j])


cdef inline double kernel_ij(KernelSpec* k, const Rows* A, int i,
                             const Rows* B, int j) noexcept nogil:
    """k(x_i, z_j), counted once."""
    k.n_evals += 1
    return kernel_value(k, A, i, B, j)


cdef inline void kernel_row(KernelSpec* k, const Rows* A, int i, const Rows* B,
                            const int* js, int m, double* out) noexcept nogil:
    """out[t] = k(x_i, z_{js[t]}) for t < m (js == NULL: all rows 0..m-1 of B).

    Counts m evaluations.
    """
    cdef int t
    k.n_evals += m
    if js == NULL:
        for t in range(m):
            out[t] = kernel_value(k, A, i, B, t)
    else:
        for t in range(m):
            out[t] = kernel_value(k, A, i, B, js[t])


cdef inline void kernel_row_buffered(KernelSpec* k, const Rows* A, int i, const Rows* B,
                                     const int* js, int m, double* out,
                                     double* work) noexcept nogil:
    """kernel_row, faster when both views are CSR: x_i is scattered once into
    ``work`` (a zeroed buffer of n_features doubles, left zeroed on return) so
    each dot costs O(nnz(z_j)) instead of a merge of two rows. Same values, same
    count (m) as kernel_row."""
    cdef int t, j
    if A.dense or B.dense or work == NULL:
        kernel_row(k, A, i, B, js, m, out)
        return
    k.n_evals += m
    row_scatter(A, i, work)
    for t in range(m):
        j = t if js == NULL else js[t]
        out[t] = kernel_from_dot(k, row_dot_vec(B, j, work), A.sqnorm[i], B.sqnorm[j])
    row_unscatter(A, i, work)


cdef inline void kernel_row_by_columns(KernelSpec* k, const Rows* X, int i, const Cols* XT,
                                       const int* js, int m, double* out,
                                       double* dots) noexcept nogil:
    """kernel_row(k, X, i, X, js, m, out) for CSR X (a computed kernel), the dot
    products taken through the columns ``XT`` of X: for every nonzero x_if, the
    rows with a nonzero in column f receive x_if x_jf. This touches only the
    products that are not zero (sum over the columns of x_i of their nnz), where
    one dot per row j costs nnz(x_j) whatever x_i holds; on the sparse binary
    sets of the papers (Adult, Web) it is several times fewer operations.
    ``dots``: a zeroed buffer of X.n_rows doubles, left zeroed on return.

    Same values, bitwise, as ``kernel_row``: dots[j] receives the products
    x_if x_jf of the common columns in ascending column order, starting from
    0.0, as the sparse dot does (which also adds exact zeros, changing nothing).
    Same count (m).

    Clearing ``dots`` afterwards: with js == NULL every entry is read once, so it
    is zeroed as it is read; otherwise a memset of the whole buffer when the
    scatter touched more than n_rows / 8 entries (one sequential pass is far
    cheaper than that many scattered writes: on a4a the clearing pass was a
    quarter of GS-SVM's time), else the touched entries are zeroed again."""
    cdef int* ind
    cdef double* val
    cdef int nnz, p, r, t, f, j
    cdef double v
    cdef long long touched = 0
    k.n_evals += m
    get_row(X, i, &ind, &val, &nnz)
    for p in range(nnz):
        f = ind[p]
        v = val[p]
        touched += XT.indptr[f + 1] - XT.indptr[f]
        for r in range(XT.indptr[f], XT.indptr[f + 1]):
            dots[XT.indices[r]] += v * XT.data[r]
    if js == NULL:
        for t in range(m):
            out[t] = kernel_from_dot(k, dots[t], X.sqnorm[i], X.sqnorm[t])
            dots[t] = 0.0
        if m < X.n_rows:
            memset(dots + m, 0, (X.n_rows - m) * sizeof(double))
        return
    for t in range(m):
        j = js[t]
        out[t] = kernel_from_dot(k, dots[j], X.sqnorm[i], X.sqnorm[j])
    if touched > X.n_rows // 8:
        memset(dots, 0, X.n_rows * sizeof(double))
        return
    for p in range(nnz):
        f = ind[p]
        for r in range(XT.indptr[f], XT.indptr[f + 1]):
            dots[XT.indices[r]] = 0.0
