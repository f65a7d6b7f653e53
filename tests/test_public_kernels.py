"""repro.kernels: the public squared distances and Gram matrices."""
import math

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import cdist

from repro._kernels import kernels as private
from repro.kernels import kernel_matrix, squared_distances
from repro.solvers._validation import as_rows_input, kernel_params

rng = np.random.default_rng(3)
X = rng.normal(size=(9, 6)) * (rng.random((9, 6)) < 0.6)
X[4] = 0.0  # an empty CSR row
Y = rng.normal(size=(5, 6)) * (rng.random((5, 6)) < 0.6)
Y[2] = X[1]  # an identical row: distance exactly 0

FORMATS = {"dense": lambda M: M, "csr": sp.csr_matrix}


def hand_formed(A, B):
    """The arithmetic of repro/papers/gs_svm/jobs.py's _scaled_sqdists, which
    squared_distances replaces: dots from the private linear kernel, then
    sqA[:, None] + sqB[None, :] - 2 dots, clamped at 0."""
    RA, RB = as_rows_input(A), as_rows_input(B)
    dots, _ = private.kernel_matrix(RA, RB, *kernel_params("linear", 1.0))
    D = RA[3][:, None] + RB[3][None, :] - 2.0 * dots
    np.maximum(D, 0.0, out=D)
    return D


@pytest.mark.parametrize("fx", FORMATS)
@pytest.mark.parametrize("fy", FORMATS)
def test_squared_distances_are_the_hand_formed_ones_and_match_cdist(fx, fy):
    A, B = FORMATS[fx](X), FORMATS[fy](Y)
    D = squared_distances(A, B)
    np.testing.assert_array_equal(D, hand_formed(A, B))
    scale = max((X ** 2).sum(1).max(), (Y ** 2).sum(1).max())
    np.testing.assert_allclose(D, cdist(X, Y, "sqeuclidean"), rtol=1e-10, atol=1e-10 * scale)
    assert D[1, 2] == 0.0 and D.shape == (9, 5) and D.dtype == np.float64


@pytest.mark.parametrize("fx", FORMATS)
def test_squared_distances_of_x_with_itself(fx):
    D = squared_distances(FORMATS[fx](X))
    np.testing.assert_array_equal(D, hand_formed(FORMATS[fx](X), FORMATS[fx](X)))
    np.testing.assert_array_equal(np.diag(D), 0.0)
    np.testing.assert_allclose(D, cdist(X, X, "sqeuclidean"), rtol=1e-10,
                               atol=1e-10 * (X ** 2).sum(1).max())


@pytest.mark.parametrize("fx", FORMATS)
@pytest.mark.parametrize("fy", FORMATS)
def test_exp_of_the_distances_is_bitwise_the_solvers_rbf_kernel(fx, fy):
    # the C library's exp (math.exp), as the kernel calls it; NumPy's own exp
    # may round differently
    A, B, gamma = FORMATS[fx](X), FORMATS[fy](Y), 0.37
    K = kernel_matrix(A, B, "rbf", gamma=gamma)
    expected = np.vectorize(lambda d: math.exp(-gamma * d))(squared_distances(A, B))
    np.testing.assert_array_equal(K, expected)
    solver, _ = private.kernel_matrix(as_rows_input(A), as_rows_input(B), *kernel_params("rbf", gamma))
    np.testing.assert_array_equal(K, solver)


@pytest.mark.parametrize("fx", FORMATS)
def test_kernel_matrix_matches_numpy(fx):
    A = FORMATS[fx](X)
    np.testing.assert_allclose(kernel_matrix(A, Y, "linear"), X @ Y.T, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel_matrix(A, Y, "poly", gamma=0.5, coef0=1.5, degree=3),
                               (0.5 * X @ Y.T + 1.5) ** 3, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel_matrix(A, None, "rbf", gamma=0.2),
                               np.exp(-0.2 * cdist(X, X, "sqeuclidean")), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("call", [squared_distances, lambda A, B=None: kernel_matrix(A, B, gamma=1.0)])
def test_inputs_are_validated(call):
    with pytest.raises(ValueError, match="X must be 2-D"):
        call(np.zeros(4))
    with pytest.raises(ValueError, match="X must be 2-D"):
        call(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="Y must be 2-D"):
        call(X, np.zeros(6))
    with pytest.raises(ValueError, match="X contains NaN or infinity"):
        call(np.array([[0.0, np.nan]]))
    with pytest.raises(ValueError, match="Y contains NaN or infinity"):
        call(X, sp.csr_matrix(np.array([[0.0, 0, 0, 0, 0, np.inf]])))
    with pytest.raises(ValueError, match="X has 6 features but Y has 5"):
        call(X, Y[:, :5])
    with pytest.raises(ValueError, match="real numbers"):
        call(np.array([["a", "b"]]))


def test_kernel_parameters_are_validated():
    with pytest.raises(ValueError, match="kernel must be one of"):
        kernel_matrix(X, kernel="precomputed")
    with pytest.raises(ValueError, match="needs gamma"):
        kernel_matrix(X, kernel="rbf")
    for bad in (0.0, -1.0, np.inf, "0.1"):
        with pytest.raises(ValueError, match="gamma"):
            kernel_matrix(X, kernel="poly", gamma=bad)
    with pytest.raises(ValueError, match="degree"):
        kernel_matrix(X, kernel="poly", gamma=1.0, degree=0)
    with pytest.raises(ValueError, match="coef0"):
        kernel_matrix(X, kernel="poly", gamma=1.0, coef0=np.nan)
