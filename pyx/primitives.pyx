# cython: language_level=3
"""Python entry points to the solver-layer primitives, for tests and benchmarks.

The solvers call the inline functions of _linalg.pxd (X w and X' u), _vectors.pxd
(the scaled and averaged weight vector) and _random.pxd (xorshift64*) directly;
these wrappers expose each one to Python so tests/test_primitives.py can compare
it with a NumPy reference on dense and CSR rows, and repro.bench.pass_floor can
time the BLAS and row-loop paths. They are not a public API.

Rows arguments are ``as_rows_input`` tuples ``(data, indices, indptr, sqnorm,
n_rows, n_features, dense)``.
"""
import numpy as np
cimport numpy as cnp
from _rows cimport Rows, rows_init
from _linalg cimport rows_matvec, rows_rmatvec
from _random cimport rng_seed, rng_next, rng_randint, rng_uniform
from _vectors cimport (WeightVector, wv_init, wv_scale, wv_add_row, wv_dot_row,
                       wv_project_ball, wv_to_dense, wv_average_step,
                       wv_average_uniform, wv_average_restart, wv_average_to_dense)

cnp.import_array()

# operation codes of weight_vector_ops
OP_SCALE = 0          # w *= value
OP_ADD = 1            # w += value * x_row
OP_DOT = 2            # record w . x_row
OP_PROJECT = 3        # project onto the ball of radius value
OP_AVERAGE = 4        # include w in the uniform average
OP_AVERAGE_MU = 5     # wbar <- (1 - value) wbar + value w
OP_RESTART = 6        # restart the average


cdef object _view(Rows* R, tuple a):
    return rows_init(R, a[0], a[1], a[2], a[3], a[4], a[5], a[6])


def _check_index(const int[::1] idx, int n_rows):
    if idx is not None:
        for t in range(idx.shape[0]):
            if idx[t] < 0 or idx[t] >= n_rows:
                raise IndexError(f"row index {idx[t]} out of range for {n_rows} rows")


def matvec(tuple x, const double[::1] w, const int[::1] idx=None, bint blas=True):
    """X w (idx=None) or X[idx] w, through rows_matvec."""
    cdef Rows R
    keep = _view(&R, x)
    if w.shape[0] != R.n_features:
        raise ValueError(f"w has {w.shape[0]} entries for {R.n_features} features")
    _check_index(idx, R.n_rows)
    cdef int m = R.n_rows if idx is None else idx.shape[0]
    cdef cnp.ndarray[cnp.float64_t, ndim=1] out = np.empty(m)
    cdef const double* wp = &w[0] if w.shape[0] > 0 else NULL
    cdef const int* ip = NULL
    if idx is not None and m > 0:
        ip = &idx[0]
    if m > 0:
        with nogil:
            rows_matvec(&R, wp, ip, m, &out[0], blas)
    return out


def rmatvec(tuple x, const double[::1] u, const int[::1] idx=None, bint blas=True):
    """X' u (idx=None, u has n_rows entries) or sum_t u[t] x_{idx[t]}, through
    rows_rmatvec; the output buffer starts as garbage (np.empty) so a product
    that forgot to overwrite it would show."""
    cdef Rows R
    keep = _view(&R, x)
    cdef int m = R.n_rows if idx is None else idx.shape[0]
    if u.shape[0] != m:
        raise ValueError(f"u has {u.shape[0]} entries for {m} rows")
    _check_index(idx, R.n_rows)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] w = np.empty(max(R.n_features, 1))
    w.fill(np.nan)
    cdef const double* up = &u[0] if m > 0 else NULL
    cdef const int* ip = NULL
    if idx is not None and m > 0:
        ip = &idx[0]
    with nogil:
        rows_rmatvec(&R, up, ip, m, &w[0], blas)
    return w[:R.n_features]


def rng_draws(unsigned long long seed, int count, int n=0):
    """``count`` draws from the generator seeded with ``seed``: raw 64-bit
    outputs, or with n > 0 integers in [0, n), or with n == -1 doubles in [0, 1)."""
    cdef unsigned long long s = rng_seed(seed)
    cdef int t
    cdef cnp.ndarray[cnp.uint64_t, ndim=1] raw
    cdef cnp.ndarray[cnp.int64_t, ndim=1] ints
    cdef cnp.ndarray[cnp.float64_t, ndim=1] unif
    if n > 0:
        ints = np.empty(count, dtype=np.int64)
        for t in range(count):
            ints[t] = rng_randint(&s, n)
        return ints
    if n == -1:
        unif = np.empty(count)
        for t in range(count):
            unif[t] = rng_uniform(&s)
        return unif
    raw = np.empty(count, dtype=np.uint64)
    for t in range(count):
        raw[t] = rng_next(&s)
    return raw


def weight_vector_ops(tuple x, const int[::1] codes, const int[::1] rows,
                      const double[::1] values, const double[::1] w0, bint average=True):
    """Apply a sequence of operations (the OP_* codes; ``rows[t]`` and
    ``values[t]`` are the row and scalar of operation t) to a WeightVector
    started at w0, and record the state after each one.

    Returns a dict of arrays with one row per operation: ``w`` (n_ops, d),
    ``wbar`` (n_ops, d: the average, w itself before the first averaging
    step), ``sqnorm`` (tracked ||w||^2), ``scale`` (a), ``result`` (w . x for
    OP_DOT, the factor for OP_PROJECT, NaN otherwise)."""
    cdef Rows R
    keep = _view(&R, x)
    cdef int d = R.n_features, n_ops = codes.shape[0], t, code
    if w0.shape[0] != d:
        raise ValueError(f"w0 has {w0.shape[0]} entries for {d} features")
    if rows.shape[0] != n_ops or values.shape[0] != n_ops:
        raise ValueError("codes, rows and values must have one entry per operation")
    for t in range(n_ops):
        if codes[t] in (OP_ADD, OP_DOT) and not 0 <= rows[t] < R.n_rows:
            raise IndexError(f"row index {rows[t]} out of range for {R.n_rows} rows")
        if codes[t] not in (OP_SCALE, OP_ADD, OP_DOT, OP_PROJECT, OP_AVERAGE,
                            OP_AVERAGE_MU, OP_RESTART):
            raise ValueError(f"unknown operation code {codes[t]}")
        if not average and codes[t] in (OP_AVERAGE, OP_AVERAGE_MU):
            raise ValueError("an averaging operation needs average=True")
    # one spare entry: valid pointers when d == 0
    cdef cnp.ndarray[cnp.float64_t, ndim=1] v = np.zeros(d + 1)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] u = np.empty(d + 1)
    v[:d] = w0
    cdef cnp.ndarray[cnp.float64_t, ndim=2] w_tr = np.zeros((n_ops, d + 1))
    cdef cnp.ndarray[cnp.float64_t, ndim=2] wbar_tr = np.zeros((n_ops, d + 1))
    cdef cnp.ndarray[cnp.float64_t, ndim=1] sq_tr = np.empty(n_ops)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] a_tr = np.empty(n_ops)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] res = np.full(n_ops, np.nan)
    cdef WeightVector W
    wv_init(&W, &v[0], d, &u[0] if average else NULL)
    for t in range(n_ops):
        code = codes[t]
        if code == OP_SCALE:
            wv_scale(&W, values[t])
        elif code == OP_ADD:
            wv_add_row(&W, &R, rows[t], values[t])
        elif code == OP_DOT:
            res[t] = wv_dot_row(&W, &R, rows[t])
        elif code == OP_PROJECT:
            res[t] = wv_project_ball(&W, values[t])
        elif code == OP_AVERAGE:
            wv_average_uniform(&W)
        elif code == OP_AVERAGE_MU:
            wv_average_step(&W, values[t])
        else:
            wv_average_restart(&W)
        wv_to_dense(&W, &w_tr[t, 0])
        wv_average_to_dense(&W, &wbar_tr[t, 0])
        sq_tr[t] = W.sqnorm
        a_tr[t] = W.a
    return {"w": w_tr[:, :d], "wbar": wbar_tr[:, :d], "sqnorm": sq_tr, "scale": a_tr,
            "result": res}
