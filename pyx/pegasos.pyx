# cython: language_level=3
"""Pegasos: stochastic sub-gradient descent for the bias-free linear SVM.

Implements "Pegasos - the algorithm" of pegasos_slides.txt for

    min_w  lambda/2 ||w||^2 + 1/m sum_i max(0, 1 - y_i w'x_i)

(no offset: the slides set b = 0 before the algorithm). The steps, in the
slides' order: "Initialize: choose w_1 randomly so that ||w_1|| <= 1/sqrt(lambda)"
(``_draw_init``); for t = 1..T "choose A_t, a random subset of S of size k"
(``_draw_batch``, k distinct rows, since a subset has no repeats); "B_t =
{(x, y) in A_t : y w_t'x < 1}" (all margins are taken at w_t, before the step
changes w); "mu_t = 1/(lambda t)"; "w_{t+1/2} = (1 - mu_t lambda) w_t + mu_t/k
sum_{B_t} y x"; "w_{t+1} = min{1, 1/(sqrt(lambda) ||w_{t+1/2}||)} w_{t+1/2}"
(``wv_project_ball``); "output w_{T+1}".

variant 1 ("code") follows the authors' released C++ code instead where it
differs from the slides: mu = 1/(lambda (t+2)) with t counted from 0 (that is
1/(lambda (t+1)) for the slides' t = 1, 2, ...), w starts at 0, and the k
examples of a step are drawn at random with replacement.

w is the scaled vector of _vectors.pxd (w = a v with ||w||^2 tracked), so the
shrink and the projection are O(1) and a step costs O(nnz of the mini-batch);
the optional average of the last iterates is its lazily averaged copy.
"""
from functools import partial

import numpy as np
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport cos, log, pow, sqrt, M_PI
from _rows cimport Rows, rows_init, row_dot_vec
from _random cimport rng_seed, rng_randint, rng_uniform
from _vectors cimport (WeightVector, wv_init, wv_scale, wv_dot_row, wv_add_row,
                       wv_project_ball, wv_to_dense, wv_average_uniform,
                       wv_average_to_dense)

cnp.import_array()

VARIANTS = {"slides": 0, "code": 1}

# Between two calls back into Python (trace reports, Ctrl-C checks) the loop
# runs without the GIL; without a trace it still surfaces this often so that a
# long fit can be interrupted.
cdef long long _CHUNK = 1 << 20


cdef inline void _draw_init(unsigned long long* state, double* w, int d,
                            double radius) noexcept nogil:
    """w uniform in the ball of radius ``radius``: a Gaussian direction (d
    Box-Muller draws, two uniforms each) scaled to length radius * U^(1/d),
    which is the radius law of the uniform distribution on a d-ball. The
    slides only ask for ||w_1|| <= 1/sqrt(lambda); uniform in the ball is the
    draw that prefers no direction and no length."""
    cdef int j
    cdef double s = 0.0, u1, u2, length
    if d == 0:
        return
    for j in range(d):
        u1 = 1.0 - rng_uniform(state)  # (0, 1]: log(u1) is finite
        u2 = rng_uniform(state)
        w[j] = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2)
        s += w[j] * w[j]
    length = radius * pow(rng_uniform(state), 1.0 / d)
    s = length / sqrt(s) if s > 0.0 else 0.0
    for j in range(d):
        w[j] *= s


cdef inline void _draw_batch(unsigned long long* state, int* perm, int m, int k,
                             bint replace, int* batch) noexcept nogil:
    """k row indices into ``batch``. Without replacement: the first k steps of
    a Fisher-Yates shuffle of ``perm`` (a permutation of 0..m-1 kept between
    calls), which picks a uniform k-subset whatever order perm is in, in O(k).
    For k = 1 both are one uniform draw, taken directly (perm's swap is a
    random memory access that cost 10-25 % of a sparse step on a9a and w8a)."""
    cdef int s, j, tmp
    if replace or k == 1:  # a subset of one row is one uniform draw: skip perm
        for s in range(k):
            batch[s] = rng_randint(state, m)
    else:
        for s in range(k):
            j = s + rng_randint(state, m - s)
            tmp = perm[s]; perm[s] = perm[j]; perm[j] = tmp
            batch[s] = perm[s]


def pegasos_draws(unsigned long long seed, int m, int d, int k, long long n_iter,
                  double radius, int variant):
    """Debug entry point: the random draws ``pegasos`` makes for these
    arguments, ``(w_1, batches)`` with batches of shape (n_iter, k), from the
    same generator, the same draw functions and in the same order (the draws
    never depend on the data). The tests' NumPy reference runs on them."""
    cdef unsigned long long state = rng_seed(seed)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] w = np.zeros(max(d, 1))
    cdef cnp.ndarray[cnp.int32_t, ndim=1] perm = np.arange(m, dtype=np.int32)
    cdef cnp.ndarray[cnp.int32_t, ndim=2] batches = np.zeros((n_iter, k), dtype=np.int32)
    cdef long long t
    if variant == 0:
        _draw_init(&state, &w[0], d, radius)
    for t in range(n_iter):
        _draw_batch(&state, <int*> &perm[0], m, k, variant == 1, <int*> &batches[t, 0])
    return w[:d], batches


def _mean_hinge(tuple x, const double[::1] y, const double[::1] w):
    """1/m sum_i max(0, 1 - y_i w'x_i) over the rows of x (dense or CSR)."""
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef int i
    cdef double s = 0.0, z
    for i in range(X.n_rows):
        z = 1.0 - y[i] * row_dot_vec(&X, i, &w[0])
        if z > 0.0:
            s += z
    return s / X.n_rows if X.n_rows > 0 else 0.0


def _objective(tuple x, y, double lam, v, double a, u, double c, double beta):
    """lambda/2 ||w||^2 + mean hinge at the iterate held by (v, a), or at the
    average (u + c v) / beta when u is given; the trace's objective. Called by
    the History outside its timing, while v and u are as they were at the report."""
    w = (u + c * v) / beta if u is not None else a * v
    w = np.ascontiguousarray(w)
    return 0.5 * lam * float(w @ w) + _mean_hinge(x, y, w)


def pegasos(tuple x, const double[::1] y, double lam, long long n_iter, int batch_size,
            bint projection, long long n_average, int variant, unsigned long long seed,
            object history, long long history_every):
    """Return (w, n_iter) after n_iter mini-batch steps.

    ``variant``: 0 slides, 1 the authors' code (see the module docstring).
    ``n_average``: 0 returns the last iterate w_{T+1}; n >= 1 the plain average
    of the last min(n, T) iterates w_{t+1} (after projection).
    ``history(t, objective)`` (or None) is called at every multiple of
    ``history_every`` and after the last step, with a callable giving the
    objective at w_{t+1} (at the running average once averaging has begun).
    """
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef int m = X.n_rows, d = X.n_features
    cdef bint replace = variant == 1
    # a subset of S has at most m rows; with replacement any k can be drawn
    cdef int k = batch_size if replace or batch_size < m else m
    cdef double radius = 1.0 / sqrt(lam)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] v_arr = np.zeros(max(d, 1))
    cdef cnp.ndarray[cnp.float64_t, ndim=1] u_arr = np.zeros(max(d, 1))
    cdef cnp.ndarray[cnp.float64_t, ndim=1] w_out = np.zeros(max(d, 1))
    cdef cnp.ndarray[cnp.int32_t, ndim=1] perm_arr = np.arange(max(m, 1), dtype=np.int32)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] batch_arr = np.zeros(max(k, 1), dtype=np.int32)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] viol_arr = np.zeros(max(k, 1), dtype=np.int32)
    cdef int* perm = <int*> &perm_arr[0]
    cdef int* batch = <int*> &batch_arr[0]
    cdef int* viol = <int*> &viol_arr[0]
    cdef unsigned long long state = rng_seed(seed)
    cdef WeightVector W
    cdef long long t = 0, stop, avg_from = n_iter - n_average  # average w_{t+1} for t > avg_from
    cdef int s, i, n_viol
    cdef double mu, inv_t, step, inv_lam = 1.0 / lam

    if n_average > 0 and avg_from < 0:
        avg_from = 0
    if variant == 0:
        _draw_init(&state, &v_arr[0], d, radius)
    wv_init(&W, &v_arr[0], d, &u_arr[0] if n_average > 0 else NULL)

    while t < n_iter:
        if history is not None:
            stop = min(n_iter, (t // history_every + 1) * history_every)
        else:
            stop = min(n_iter, t + _CHUNK)
        with nogil:
            while t < stop:
                t += 1
                _draw_batch(&state, perm, m, k, replace, batch)
                # B_t from the margins at w_t, all taken before w moves
                n_viol = 0
                for s in range(k):
                    i = batch[s]
                    if y[i] * wv_dot_row(&W, &X, i) < 1.0:
                        viol[n_viol] = i
                        n_viol += 1
                # mu_t lambda is 1/t (slides) or 1/(t+1) (code) exactly: taking
                # the shrink from it, not from mu * lam, makes the slides' first
                # shrink exactly 0 (w_1 is then forgotten, as the slides' update says)
                # (one division per step: mu = (1/t') (1/lambda), t' = t or t + 1)
                inv_t = 1.0 / (t if variant == 0 else t + 1)
                mu = inv_t * inv_lam
                wv_scale(&W, 1.0 - inv_t)
                step = mu / k
                for s in range(n_viol):
                    i = viol[s]
                    wv_add_row(&W, &X, i, step * y[i])
                if projection:
                    wv_project_ball(&W, radius)
                if n_average > 0 and t > avg_from:
                    wv_average_uniform(&W)
        if history is not None:
            # O(nnz(X)) objective as a callable: the History evaluates it outside
            # its timing; v and u stay as they are now until the next step (or,
            # for the last report, after this function has returned)
            if n_average > 0 and W.avg_count > 0:
                history(t, partial(_objective, x, y, lam, v_arr, W.a, u_arr, W.avg_c, W.avg_beta))
            else:
                history(t, partial(_objective, x, y, lam, v_arr, W.a, None, 0.0, 1.0))
        PyErr_CheckSignals()

    if n_average > 0:
        wv_average_to_dense(&W, &w_out[0])
    else:
        wv_to_dense(&W, &w_out[0])
    return w_out[:d], t
