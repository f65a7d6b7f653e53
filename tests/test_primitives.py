"""The solver-layer primitives (pyx/_linalg.pxd, _vectors.pxd, _random.pxd) against
pure NumPy references, on dense and CSR rows, through pyx/primitives.pyx."""
import zlib

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from repro._kernels import primitives as P
from repro.solvers._validation import as_rows_input

rng = np.random.default_rng(0)


def _general():
    A = rng.normal(size=(7, 40)) * (rng.random((7, 40)) < 0.5)  # some exact zeros
    A[3] = 0.0  # CSR: a row with no stored entry
    return A


def _csr_with_stored_zeros(M):
    """CSR holding every entry of M, zeros included: a row of explicit zeros."""
    r, c = np.indices(M.shape)
    return sp.csr_matrix((M.ravel(), (r.ravel(), c.ravel())), shape=M.shape)


MATRICES = {
    "general": _general(),
    "narrow": rng.normal(size=(9, 5)),    # below the length where BLAS row calls pay
    "d=1": rng.normal(size=(6, 1)),
    "n=1": rng.normal(size=(1, 40)),
    "all_zero": np.zeros((3, 4)),
}
FORMATS = {
    "dense": lambda M: M,
    "csr": sp.csr_matrix,
    "csr_stored_zeros": _csr_with_stored_zeros,
}
CASES = [(m, f) for m in MATRICES for f in FORMATS]


def rows_of(name, fmt):
    M = MATRICES[name]
    return M, as_rows_input(FORMATS[fmt](M))


# -- X w and X' u -----------------------------------------------------------------
@pytest.mark.parametrize("blas", [True, False])
@pytest.mark.parametrize("name,fmt", CASES)
def test_matvec_all_rows_and_a_subset(name, fmt, blas):
    M, rows = rows_of(name, fmt)
    n, d = M.shape
    w = rng.normal(size=d)
    np.testing.assert_allclose(P.matvec(rows, w, None, blas), M @ w, rtol=1e-13, atol=1e-13)
    idx = np.array([n - 1, 0, n - 1] + list(range(n))[::2], dtype=np.int32)  # repeats too
    np.testing.assert_allclose(P.matvec(rows, w, idx, blas), M[idx] @ w, rtol=1e-13, atol=1e-13)
    assert P.matvec(rows, w, np.zeros(0, dtype=np.int32), blas).shape == (0,)


@pytest.mark.parametrize("blas", [True, False])
@pytest.mark.parametrize("name,fmt", CASES)
@pytest.mark.parametrize("density", [1.0, 0.6, 0.3, 0.0])
def test_rmatvec_overwrites_and_skips_zero_weights(name, fmt, blas, density):
    # density covers both dense paths (one dgemv from half the rows on, one
    # axpy per nonzero row below) and u == 0 (w must come back zero, not stale)
    M, rows = rows_of(name, fmt)
    n, d = M.shape
    u = rng.normal(size=n) * (rng.random(n) < density)
    np.testing.assert_allclose(P.rmatvec(rows, u, None, blas), M.T @ u, rtol=1e-13, atol=1e-13)
    idx = np.array([0, n - 1, 0], dtype=np.int32)
    c = np.array([1.5, -2.0, 0.25])
    np.testing.assert_allclose(P.rmatvec(rows, c, idx, blas), M[idx].T @ c, rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(P.rmatvec(rows, np.zeros(0), np.zeros(0, dtype=np.int32), blas),
                                  np.zeros(d))


def test_rmatvec_skips_rows_whose_weight_is_zero():
    # a skipped row is not read at all: an infinite entry in it cannot leak in
    # as 0 * inf = nan
    M = np.array([[1.0, 2.0], [np.inf, 1.0], [3.0, -1.0]])
    for fmt in ("dense", "csr"):
        rows = as_rows_input(FORMATS[fmt](M), check_norms=False)  # the solvers' input refuses inf
        u = np.array([2.0, 0.0, 1.0])
        np.testing.assert_array_equal(P.rmatvec(rows, u, None, False), [5.0, 3.0])
        np.testing.assert_array_equal(P.rmatvec(rows, u[[0, 2]], np.array([0, 2], np.int32), True),
                                      [5.0, 3.0])


@pytest.mark.parametrize("name", MATRICES)
def test_row_loops_give_dense_and_csr_bitwise_equal_products(name):
    # blas=False is the promise to solvers whose dense and CSR fits must agree
    M = MATRICES[name]
    w, u = rng.normal(size=M.shape[1]), rng.normal(size=M.shape[0])
    dense, csr = as_rows_input(M), as_rows_input(sp.csr_matrix(M))
    np.testing.assert_array_equal(P.matvec(dense, w, None, False), P.matvec(csr, w, None, False))
    np.testing.assert_array_equal(P.rmatvec(dense, u, None, False), P.rmatvec(csr, u, None, False))


def test_entry_points_refuse_mismatched_shapes():
    rows = as_rows_input(MATRICES["general"])
    with pytest.raises(ValueError, match="features"):
        P.matvec(rows, np.zeros(3))
    with pytest.raises(ValueError, match="rows"):
        P.rmatvec(rows, np.zeros(3))
    with pytest.raises(IndexError):
        P.matvec(rows, np.zeros(40), np.array([7], dtype=np.int32))


matrices = st.tuples(st.integers(1, 12), st.integers(1, 40)).flatmap(
    lambda shape: arrays(np.float64, shape, elements=st.sampled_from([0.0, 0.0, 1.0, -2.5]) | st.floats(-1e3, 1e3)))


@settings(max_examples=60, deadline=None)
@given(M=matrices, sparse=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_products_match_numpy_property(M, sparse, seed):
    r = np.random.default_rng(seed)
    n, d = M.shape
    rows = as_rows_input(sp.csr_matrix(M) if sparse else M)
    w = r.normal(size=d)
    u = r.normal(size=n) * (r.random(n) < 0.5)
    scale = 1e-12 * (np.abs(M).sum() + 1.0) * 10
    np.testing.assert_allclose(P.matvec(rows, w), M @ w, rtol=1e-12, atol=scale * np.abs(w).max())
    np.testing.assert_allclose(P.rmatvec(rows, u), M.T @ u, rtol=1e-12,
                               atol=scale * (np.abs(u).max() + 1e-300))


# -- the random number generator ----------------------------------------------------
MASK = (1 << 64) - 1


def xorshift64star(seed, count):
    s = (seed * 2 + 1) & MASK
    out = []
    for _ in range(count):
        s ^= s >> 12
        s ^= (s << 25) & MASK
        s ^= s >> 27
        out.append((s * 2685821657736338717) & MASK)
    return out


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63, 2**64 - 1])
def test_generator_matches_the_reference_and_its_helpers(seed):
    raw = xorshift64star(seed, 50)
    assert P.rng_draws(seed, 50).tolist() == raw
    assert P.rng_draws(seed, 50, 7).tolist() == [x % 7 for x in raw]
    assert P.rng_draws(seed, 50, -1).tolist() == [(x >> 11) * 2.0**-53 for x in raw]


def test_seeds_differ_and_uniforms_stay_in_the_unit_interval():
    draws = {seed: tuple(P.rng_draws(seed, 4)) for seed in range(100)}
    assert len(set(draws.values())) == 100
    x = P.rng_draws(3, 100_000, -1)
    assert x.min() >= 0.0 and x.max() < 1.0
    # 10 bins: chi-square with 9 degrees of freedom, 99.99% quantile 33.7
    counts = np.bincount(P.rng_draws(3, 100_000, 10), minlength=10)
    assert counts.size == 10 and ((counts - 1e4) ** 2 / 1e4).sum() < 33.7


# -- the scaled and averaged weight vector -------------------------------------------
SCALE, ADD, DOT, PROJECT, AVERAGE, AVERAGE_MU, RESTART = (
    P.OP_SCALE, P.OP_ADD, P.OP_DOT, P.OP_PROJECT, P.OP_AVERAGE, P.OP_AVERAGE_MU, P.OP_RESTART)


def reference_ops(M, ops, w0):
    """The same operations on a plain dense w; the average kept explicitly: the
    list of iterates (uniform) or the recurrence wbar = (1 - mu) wbar + mu w."""
    w = np.array(w0, dtype=float)
    iterates, wbar = [], None
    trace = {"w": [], "wbar": [], "result": []}
    for code, i, value in ops:
        result = np.nan
        if code == SCALE:
            w = w * value
        elif code == ADD:
            w = w + value * M[i]
        elif code == DOT:
            result = M[i] @ w
        elif code == PROJECT:
            norm = np.linalg.norm(w)
            result = 1.0 if norm <= value else value / norm
            w = w * result
        elif code == AVERAGE:
            iterates.append(w.copy())
            wbar = np.mean(iterates, axis=0)
        elif code == AVERAGE_MU:
            wbar = w.copy() if wbar is None or value >= 1 else (1 - value) * wbar + value * w
        elif code == RESTART:
            iterates, wbar = [], None
        trace["w"].append(w.copy())
        trace["wbar"].append(w.copy() if wbar is None else wbar.copy())
        trace["result"].append(result)
    return {k: np.array(v) for k, v in trace.items()}


def run_ops(M, fmt, ops, w0=None, average=True):
    w0 = np.zeros(M.shape[1]) if w0 is None else w0
    codes = np.array([o[0] for o in ops], dtype=np.int32)
    rows = np.array([o[1] for o in ops], dtype=np.int32)
    values = np.array([o[2] for o in ops], dtype=float)
    return P.weight_vector_ops(as_rows_input(FORMATS[fmt](M)), codes, rows, values, w0, average)


def check_against_reference(M, fmt, ops, w0=None):
    got = run_ops(M, fmt, ops, w0)
    ref = reference_ops(M, ops, np.zeros(M.shape[1]) if w0 is None else w0)
    size = max(1.0, np.abs(ref["w"]).max(), np.abs(ref["wbar"]).max())
    np.testing.assert_allclose(got["w"], ref["w"], rtol=1e-9, atol=1e-10 * size)
    np.testing.assert_allclose(got["wbar"], ref["wbar"], rtol=1e-8, atol=1e-9 * size)
    np.testing.assert_allclose(got["sqnorm"], (ref["w"] ** 2).sum(axis=1), rtol=1e-8,
                               atol=1e-9 * size ** 2)
    np.testing.assert_allclose(got["result"], ref["result"], rtol=1e-9, atol=1e-10 * size)
    # the scale is folded into v before it underflows
    assert np.all(np.abs(got["scale"]) >= 1e-9)
    return got


def random_ops(r, n, count, averaging):
    ops = []
    for _ in range(count):
        kind = r.choice(["scale", "add", "add", "dot", "project", "average", "restart"],
                        p=[0.25, 0.2, 0.2, 0.1, 0.1, 0.13, 0.02])
        if kind == "scale":
            ops.append((SCALE, 0, r.choice([0.5, 0.9, 0.999, -0.7, 1.3, 1e-4])))
        elif kind == "add":
            ops.append((ADD, r.integers(n), r.normal() * 3))
        elif kind == "dot":
            ops.append((DOT, r.integers(n), 0.0))
        elif kind == "project":
            ops.append((PROJECT, 0, r.uniform(0.1, 5.0)))
        elif kind == "average":
            ops.append((AVERAGE, 0, 0.0) if averaging == "uniform"
                       else (AVERAGE_MU, 0, r.choice([0.5, 0.1, 0.01, 1.0])))
        else:
            ops.append((RESTART, 0, 0.0))
    return ops


@pytest.mark.parametrize("averaging", ["uniform", "mu"])
@pytest.mark.parametrize("name,fmt", CASES)
def test_weight_vector_follows_a_random_sequence_of_steps(name, fmt, averaging):
    M = MATRICES[name]
    r = np.random.default_rng(zlib.crc32(f"{name}/{fmt}/{averaging}".encode()))
    check_against_reference(M, fmt, random_ops(r, M.shape[0], 300, averaging),
                            w0=r.normal(size=M.shape[1]))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), sparse=st.booleans(),
       averaging=st.sampled_from(["uniform", "mu"]), count=st.integers(1, 120))
def test_weight_vector_property(seed, sparse, averaging, count):
    r = np.random.default_rng(seed)
    M = MATRICES["general"]
    check_against_reference(M, "csr" if sparse else "dense", random_ops(r, M.shape[0], count, averaging))


@pytest.mark.parametrize("fmt", FORMATS)
def test_pegasos_like_shrinking_folds_the_scale_and_keeps_the_average(fmt):
    # w <- (1 - 1/t) w + x_i / t: the scale reaches 1e-9 after 1e9 steps, so
    # shrink by 0.5 instead (2**-30 < 1e-9 within 30 steps) to force several folds
    M = MATRICES["general"]
    ops = [(SCALE, 0, 0.0)]  # Pegasos' first step: eta_1 lambda = 1 zeroes w
    for t in range(200):
        ops += [(SCALE, 0, 0.5), (ADD, t % 7, 1.0 / (t + 1)), (AVERAGE, 0, 0.0)]
        if t == 120:
            ops.append((SCALE, 0, 0.0))  # a zeroing scale while averaging
    got = check_against_reference(M, fmt, ops)
    assert np.sum(got["scale"] == 1.0) > 1 + 200 // 30  # the scale was folded repeatedly


@pytest.mark.parametrize("fmt", FORMATS)
def test_average_since_a_restart_is_the_mean_of_those_iterates(fmt):
    M = MATRICES["general"]
    ops = [(ADD, 0, 1.0), (AVERAGE, 0, 0.0), (ADD, 1, 2.0), (AVERAGE, 0, 0.0), (RESTART, 0, 0.0),
           (SCALE, 0, 0.5), (ADD, 2, -1.0), (AVERAGE, 0, 0.0), (ADD, 4, 1.0), (AVERAGE, 0, 0.0)]
    got = run_ops(M, fmt, ops)
    w1 = 0.5 * (M[0] + 2 * M[1]) - M[2]
    w2 = w1 + M[4]
    np.testing.assert_allclose(got["wbar"][-1], (w1 + w2) / 2, rtol=1e-12, atol=1e-14)
    # after the restart and before the next step the average reads as w itself
    np.testing.assert_allclose(got["wbar"][4], M[0] + 2 * M[1], rtol=1e-12, atol=1e-14)


def test_a_long_constant_mu_average_renormalises_without_overflow():
    # mu = 0.5 doubles beta at every step: 2**400 would overflow a naive
    # representation's 1/beta in the read-out
    M = MATRICES["general"]
    r = np.random.default_rng(5)
    ops = []
    for _ in range(400):
        ops += [(ADD, r.integers(7), r.normal()), (AVERAGE_MU, 0, 0.5)]
    got = check_against_reference(M, "csr", ops)
    assert np.all(np.isfinite(got["wbar"]))


@pytest.mark.parametrize("fmt", FORMATS)
def test_projection_onto_the_ball(fmt):
    M = MATRICES["general"]
    ops = [(ADD, 0, 3.0), (ADD, 1, -2.0), (PROJECT, 0, 100.0), (PROJECT, 0, 0.5)]
    got = check_against_reference(M, fmt, ops)
    assert got["result"][2] == 1.0  # inside: untouched
    np.testing.assert_array_equal(got["w"][2], got["w"][1])
    np.testing.assert_allclose(np.linalg.norm(got["w"][3]), 0.5, rtol=1e-12)
    np.testing.assert_allclose(got["sqnorm"][3], 0.25, rtol=1e-12)


def test_weight_vector_refuses_bad_operations():
    rows = as_rows_input(MATRICES["general"])
    one = lambda code, row=0: (np.array([code], np.int32), np.array([row], np.int32), np.ones(1))
    with pytest.raises(ValueError, match="average=True"):
        P.weight_vector_ops(rows, *one(AVERAGE), np.zeros(40), False)
    with pytest.raises(IndexError):
        P.weight_vector_ops(rows, *one(ADD, 7), np.zeros(40))
    with pytest.raises(ValueError, match="unknown"):
        P.weight_vector_ops(rows, *one(99), np.zeros(40))
