"""Kernel values exactly as the solvers compute them, for experiments and studies.

``squared_distances`` and ``kernel_matrix`` run the same compiled primitives
as the solvers (pyx/_rows.pxd, pyx/_kernel.pxd) on the same validated layout
(``repro.solvers._validation.as_rows_input``), so a grid search that forms
exp(-gamma D) once per gamma trains on the very kernel values a solver given
X would compute, and code outside the solvers never has to reach into the
private ``repro._kernels`` modules or read their results by tuple position.

>>> import numpy as np
>>> from repro.kernels import kernel_matrix, squared_distances
>>> X = np.array([[0.0, 1.0], [1.0, 1.0]])
>>> squared_distances(X)
array([[0., 1.],
       [1., 0.]])
"""
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from ._kernels.kernels import kernel_matrix as _kernel_matrix
from .solvers._validation import as_rows_input, kernel_params
from .solvers.base import check_kernel_range

__all__ = ["kernel_matrix", "squared_distances"]

_COMPUTED_KERNELS = ("linear", "rbf", "poly")


def _check_matrix(A, name):
    """A dense array or sparse matrix, 2-D, numeric and finite (CSR stays CSR)."""
    if sp.issparse(A):
        if A.ndim != 2:
            raise ValueError(f"{name} must be 2-D (n_samples, n_features); got shape {A.shape}")
        A = sp.csr_matrix(A)
        values = A.data
    else:
        A = np.asarray(A)
        if A.ndim != 2:
            raise ValueError(f"{name} must be 2-D (n_samples, n_features); got a "
                             f"{A.ndim}-D array of shape {A.shape}")
        if not (np.issubdtype(A.dtype, np.integer) or np.issubdtype(A.dtype, np.floating)
                or A.dtype == np.bool_):
            raise ValueError(f"{name} must hold real numbers; got dtype {A.dtype}")
        values = A
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} contains NaN or infinity")
    return A


def _rows_pair(X, Y):
    X = _check_matrix(X, "X")
    A = as_rows_input(X)
    if Y is None:
        return A, A
    Y = _check_matrix(Y, "Y")
    if Y.shape[1] != X.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features but Y has {Y.shape[1]}")
    return A, as_rows_input(Y)


def squared_distances(X, Y=None):
    """D[i, j] = ||x_i - y_j||^2 for the rows of X and of Y (Y=None: Y = X).

    Formed as the RBF kernel of pyx/_kernel.pxd forms it: ||x||^2 + ||y||^2 -
    2 x.y from the package's own squared norms and dot products, clamped at 0
    (rounding can make it slightly negative for equal rows), so exp(-gamma * D)
    computed with the C library's exp (``math.exp``) is bitwise the RBF kernel
    a solver computes. ``np.exp`` is not: NumPy's own vectorised exp rounds
    some entries differently in the last bit, so take ``kernel_matrix(...,
    'rbf', gamma)`` where the exact solver values matter. X and Y: dense
    arrays or sparse matrices (any mix).

    Returns a dense float64 array of shape (n_X, n_Y).
    """
    A, B = _rows_pair(X, Y)
    dots, _ = _kernel_matrix(A, B, *kernel_params("linear", 1.0))
    D = A[3][:, None] + B[3][None, :] - 2.0 * dots
    np.maximum(D, 0.0, out=D)
    return D


def kernel_matrix(X, Y=None, kernel="rbf", gamma=None, coef0=0.0, degree=3):
    """K[i, j] = k(x_i, y_j), the Gram matrix the solvers compute (Y=None: Y = X).

    kernel: 'linear' (x.y), 'rbf' (exp(-gamma ||x - y||^2)) or 'poly'
    ((gamma x.y + coef0) ** degree), with the parameters the estimators take;
    gamma (> 0) is required by 'rbf' and 'poly'. X and Y: dense arrays or
    sparse matrices (any mix). Returns a dense float64 array (n_X, n_Y).
    """
    if kernel not in _COMPUTED_KERNELS:
        raise ValueError(f"kernel must be one of {', '.join(map(repr, _COMPUTED_KERNELS))}; "
                         f"got {kernel!r}")
    if kernel == "linear":
        gamma = 1.0 if gamma is None else gamma
    elif gamma is None:
        raise ValueError(f"kernel={kernel!r} needs gamma (> 0)")
    if isinstance(gamma, bool) or not isinstance(gamma, Real) or not (0.0 < gamma < np.inf):
        raise ValueError(f"gamma must be a positive finite number; got {gamma!r}")
    if isinstance(coef0, bool) or not isinstance(coef0, Real) or not np.isfinite(coef0):
        raise ValueError(f"coef0 must be a finite number; got {coef0!r}")
    if isinstance(degree, bool) or not isinstance(degree, Integral) or degree < 1:
        raise ValueError(f"degree must be an integer >= 1; got {degree!r}")
    A, B = _rows_pair(X, Y)
    # refuse values beyond float64 up front, naming the row (worst case from the norms)
    check_kernel_range(kernel, float(gamma), float(coef0), int(degree), A[3], "kernel_matrix",
                       None if Y is None else B[3])
    K, _ = _kernel_matrix(A, B, *kernel_params(kernel, gamma, coef0, degree))
    return K
