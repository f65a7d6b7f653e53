"""Turn validated input into the layout the Cython kernels assume.

The kernels never check their input: this module is the one place that makes
dense data float64 C-contiguous and CSR data float64 with sorted, duplicate-free
int32 indices, and that computes the squared row norms the RBF kernel needs.
"""
import numpy as np
import scipy.sparse as sp

from .._kernels.kernels import fill_sqnorms

KERNELS = {"linear": 0, "rbf": 1, "poly": 2, "precomputed": 3}


def as_rows_input(X, check_norms=True, gram=False):
    """Return the tuple ``(data, indices, indptr, sqnorm, n_rows, n_features, dense)``
    read by ``rows_init`` in pyx/_rows.pxd.

    ``gram=True``: X is a dense matrix of kernel values (kernel='precomputed',
    LDM's Gram rows), read entry by entry and never through squared norms, so
    ``sqnorm`` stays zero: its O(n^2) pass was a quarter of a precomputed SMO
    fit on Page (2,040 fits per inner split in GS-SVM's Table 2). Such a matrix
    was checked finite where it was validated."""
    n, d = X.shape
    if gram:
        if sp.issparse(X):
            raise ValueError("a Gram matrix of kernel values must be dense")
        return (np.ascontiguousarray(X, dtype=np.float64), np.arange(max(d, 1), dtype=np.int32),
                None, np.zeros(n), n, d, True)
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)  # copy-free when already CSR float64
        if not X.has_canonical_format:  # the sparse-sparse dot is a sorted merge
            X = X.copy()
            X.sum_duplicates()
        data = np.ascontiguousarray(X.data, dtype=np.float64)
        indices = np.ascontiguousarray(X.indices, dtype=np.int32)
        indptr = np.ascontiguousarray(X.indptr, dtype=np.int32)
        if data.size == 0:  # keep a valid pointer for empty matrices
            data, indices = np.zeros(1), np.zeros(1, dtype=np.int32)
        rows = (data, indices, indptr, np.zeros(n), n, d, False)
    else:
        data = np.ascontiguousarray(X, dtype=np.float64)
        indices = np.arange(max(d, 1), dtype=np.int32)
        rows = (data, indices, None, np.zeros(n), n, d, True)
    # the same summation for both layouts: bitwise equal norms for equal data
    fill_sqnorms(rows)
    sqnorm = rows[3]
    if check_norms and not np.all(np.isfinite(sqnorm)):
        i = int(np.flatnonzero(~np.isfinite(sqnorm))[0])
        raise ValueError(f"row {i} of X has a squared norm beyond float64 (its values are finite "
                         f"but too large): scale the features")
    return rows


def as_columns_input(rows):
    """The CSR rows of an ``as_rows_input`` tuple by columns (CSC): ``(data,
    row indices, column pointers)`` read by ``cols_init`` in pyx/_rows.pxd, row
    indices ascending within each column (what ``kernel_row_by_columns`` needs
    to add the products in the order of a row's dot product)."""
    data, indices, indptr, _, n, d, dense = rows
    if dense:
        raise ValueError("as_columns_input takes CSR rows")
    nnz = int(indptr[-1])
    csc = sp.csr_matrix((data[:nnz], indices[:nnz], indptr), shape=(n, d)).tocsc()
    csc.sort_indices()
    out_data = np.ascontiguousarray(csc.data, dtype=np.float64)
    out_indices = np.ascontiguousarray(csc.indices, dtype=np.int32)
    if out_data.size == 0:  # keep a valid pointer for empty matrices
        out_data, out_indices = np.zeros(1), np.zeros(1, dtype=np.int32)
    return out_data, out_indices, np.ascontiguousarray(csc.indptr, dtype=np.int32)


def kernel_params(kernel, gamma, coef0=0.0, degree=3):
    """Map an estimator's kernel parameters to the (kind, gamma, coef0, degree)
    arguments of the Cython kernel primitives."""
    return KERNELS[kernel], float(gamma), float(coef0), int(degree)
