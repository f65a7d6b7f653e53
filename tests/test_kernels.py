"""The shared Cython primitives (pyx/_rows.pxd, pyx/_kernel.pxd) against NumPy."""
import numpy as np
import pytest
import scipy.sparse as sp

from repro._kernels import kernels as K
from repro.solvers._validation import KERNELS, as_rows_input

rng = np.random.default_rng(0)
A = rng.normal(size=(7, 5)) * (rng.random((7, 5)) < 0.6)  # some exact zeros
B = rng.normal(size=(4, 5)) * (rng.random((4, 5)) < 0.6)
A[3] = 0.0  # an empty row: CSR rows with nnz == 0
B[1] = A[2]  # identical rows: ||x - z||^2 == 0 exactly

# kernels computed from the rows; 'precomputed' (rows of a Gram matrix) has its own tests
COMPUTED = {name: code for name, code in KERNELS.items() if name != "precomputed"}

FORMATS = {
    "dense": lambda M: M,
    "csr": sp.csr_matrix,
}


def reference(kind, X, Z, gamma=0.3, coef0=1.5, degree=3):
    dot = X @ Z.T
    if kind == "linear":
        return dot
    if kind == "rbf":
        sq = ((X[:, None, :] - Z[None, :, :]) ** 2).sum(-1)
        return np.exp(-gamma * sq)
    return (gamma * dot + coef0) ** degree


@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
def test_row_dot_all_layout_pairs(fa, fb):
    G = K.row_dots(as_rows_input(FORMATS[fa](A)), as_rows_input(FORMATS[fb](B)))
    np.testing.assert_allclose(G, A @ B.T, rtol=1e-13, atol=1e-13)


def test_csr_with_unsorted_and_duplicate_indices_is_canonicalised():
    # the sparse merge needs sorted, duplicate-free indices; the Python side must fix them
    M = sp.csr_matrix((np.array([1.0, 2.0, 3.0]), np.array([3, 0, 3]), np.array([0, 3])), shape=(1, 5))
    G = K.row_dots(as_rows_input(M), as_rows_input(sp.csr_matrix(B)))
    np.testing.assert_allclose(G, M.toarray() @ B.T, rtol=1e-13)


@pytest.mark.parametrize("fmt", FORMATS)
def test_matvec_and_rmatvec(fmt):
    w = rng.normal(size=5)
    c = rng.normal(size=7)
    rows = as_rows_input(FORMATS[fmt](A))
    np.testing.assert_allclose(K.matvec(rows, w), A @ w, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(K.rmatvec(rows, c), A.T @ c, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("kind", COMPUTED)
@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
def test_kernel_matrix_matches_numpy_and_counts(kind, fa, fb):
    Kab, n_evals = K.kernel_matrix(
        as_rows_input(FORMATS[fa](A)), as_rows_input(FORMATS[fb](B)),
        KERNELS[kind], 0.3, 1.5, 3,
    )
    np.testing.assert_allclose(Kab, reference(kind, A, B), rtol=1e-12, atol=1e-12)
    assert n_evals == A.shape[0] * B.shape[0]


@pytest.mark.parametrize("kind", COMPUTED)
def test_kernel_matrix_subset_of_rows_counts_only_those(kind):
    rows = np.array([6, 0, 2], dtype=np.int32)
    Kab, n_evals = K.kernel_matrix(as_rows_input(A), as_rows_input(sp.csr_matrix(B)),
                                   KERNELS[kind], 0.3, 1.5, 3, rows)
    np.testing.assert_allclose(Kab, reference(kind, A[rows], B), rtol=1e-12, atol=1e-12)
    assert n_evals == len(rows) * B.shape[0]


@pytest.mark.parametrize("kind", COMPUTED)
@pytest.mark.parametrize("fmt", FORMATS)
def test_single_evaluations_and_counter(kind, fmt):
    ii = rng.integers(0, 7, size=25).astype(np.int32)
    jj = rng.integers(0, 4, size=25).astype(np.int32)
    v, n_evals = K.kernel_pairs(as_rows_input(FORMATS[fmt](A)), as_rows_input(FORMATS[fmt](B)),
                                KERNELS[kind], 0.3, 1.5, 3, ii, jj)
    np.testing.assert_allclose(v, reference(kind, A, B)[ii, jj], rtol=1e-12, atol=1e-12)
    assert n_evals == 25


def gram_rows():
    """A 7 x 4 block of a Gram matrix, K(A, B), as the rows a precomputed kernel reads."""
    return as_rows_input(reference("rbf", A, B))


def test_precomputed_reads_gram_entries_and_counts():
    G = reference("rbf", A, B)
    Kab, n_evals = K.kernel_matrix(gram_rows(), as_rows_input(B), KERNELS["precomputed"], 0.3, 1.5, 3)
    np.testing.assert_array_equal(Kab, G)
    assert n_evals == G.size
    rows = np.array([6, 0, 2], dtype=np.int32)
    Kab, n_evals = K.kernel_matrix(gram_rows(), as_rows_input(B), KERNELS["precomputed"], 0.3, 1.5, 3, rows)
    np.testing.assert_array_equal(Kab, G[rows])
    assert n_evals == len(rows) * B.shape[0]
    ii = rng.integers(0, 7, size=25).astype(np.int32)
    jj = rng.integers(0, 4, size=25).astype(np.int32)
    v, n_evals = K.kernel_pairs(gram_rows(), as_rows_input(B), KERNELS["precomputed"], 0.3, 1.5, 3, ii, jj)
    np.testing.assert_array_equal(v, G[ii, jj])
    assert n_evals == 25


@pytest.mark.parametrize("bad", ["csr", "too_few_columns"])
def test_precomputed_rejects_rows_that_are_not_a_dense_gram_block(bad):
    # the kernel reads entry j of a dense row: CSR data or a row shorter than
    # the other side would be read out of place, so the entry points refuse them
    G = reference("rbf", A, B)
    rows = as_rows_input(sp.csr_matrix(G)) if bad == "csr" else as_rows_input(G[:, :3])
    with pytest.raises(ValueError, match="precomputed"):
        K.kernel_matrix(rows, as_rows_input(B), KERNELS["precomputed"], 0.3, 1.5, 3)
    with pytest.raises(ValueError, match="precomputed"):
        K.kernel_pairs(rows, as_rows_input(B), KERNELS["precomputed"], 0.3, 1.5, 3,
                       np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int32))


def test_rbf_of_identical_rows_is_exactly_one():
    Kab, _ = K.kernel_matrix(as_rows_input(A), as_rows_input(B), KERNELS["rbf"], 0.3, 0, 3)
    assert Kab[2, 1] == 1.0
