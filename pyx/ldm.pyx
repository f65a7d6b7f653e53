# cython: language_level=3
"""LDM (ldm.txt, Zhang and Zhou): dual coordinate descent and averaged SGD.

The model (Eq. 5, with the margin mean of Eq. 3 and the variance of Eq. 4 in
the normalised form that builds Q in Eq. 6 and 8), no bias:

    min_w 1/2 w'w + lambda1 2/m^2 (m ||X'w||^2 - (y'X'w)^2) - lambda2/m y'X'w
          + C sum_i max(0, 1 - y_i w'phi(x_i))

``ldm_cd`` -- Algorithm 1, coordinate descent on the dual (12)

    min_b 1/2 b'Hb + (lambda2/m He - e)'b,  0 <= b_i <= C,  H = Y G Q^-1 G Y,

with the initialisation and the update as printed: b = 0, u = lambda2/m
(Q^-1 G Y) e; then for i = 1..m in order, [grad f]_i = y_i P_i'u - 1,
b_i <- min(max(b_i - [grad f]_i / h_ii, 0), C), u <- u + (b_i - b_i^old) y_i R_i.
The two matrices make one kernel serve both of the paper's forms:

* kernel form (Sec. 3.2.1): P = G, u = alpha, y_i R_i = (Q^-1 G Y) e_i, i.e.
  R_i = the i-th column of (I + c M G)^-1 (Q = G (I + c M G), c = 4 lambda1/m^2,
  M = mI - yy'; Q itself is never inverted, see repro.objectives.ldm_dual_matrix);
* linear primal form (Eq. 14, the same dual): P = X, u = w, R = X S^-1 with
  S = I + c X'MX (d x d), so a step costs O(d) instead of O(m).

In both, h_ii = P_i'R_i (y_i^2 = 1), and u = R'Y(b + lambda2/m e) at every step
(the expansion after Eq. 12). A pass takes O(nnz(P) + m k) (k = columns of R).

Stopping: the largest projected gradient |PG_i| of a pass (PG_i = g_i inside
the box, min(g_i, 0) at 0, max(g_i, 0) at C) at most ``tol``; then u is rebuilt
from b (removing the drift of the updates) and the projected gradients are
recomputed; the pass loop only ends when that fresh check holds too.

``ldm_asgd`` -- Algorithm 2 (linear kernel), averaged SGD with the unbiased
two-example gradient of Theorem 2 (Eq. 15). Written in the units of the
objective divided by mC (the same minimiser; that scaling is the one of the
authors' code): with lam = 1/(mC),

    w <- (1 - eta'_t lam) w
         + eta'_t [lam (lambda2 y_i - 4 lambda1 x_i'w + 4 lambda1 y_i y_j x_j'w)
                   + y_i [y_i x_i'w < 1]] x_i,

which is Eq. 17 with the paper's eta_t = lam eta'_t; eta'_t = eta0 (1 + a eta0
t)^(-power) (Xu 2011). Only x_i is added; x_j enters through one dot product,
so a step is O(nnz(x_i) + nnz(x_j)) on the scaled weight vector of _vectors.pxd
(its lazily averaged copy gives wbar of Algorithm 2 with mu_t = 1/max(1, t - t0)).
"""
from functools import partial

import numpy as np
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport fabs, pow, INFINITY
from _rows cimport Rows, rows_init, row_dot_vec, row_scatter
from _random cimport rng_seed, rng_randint
from _vectors cimport (WeightVector, wv_init, wv_scale, wv_dot_row, wv_add_row,
                       wv_to_dense, wv_average_uniform, wv_average_to_dense)

cnp.import_array()

PAIRINGS = {"independent": 0, "permutations": 1}

# Without a trace the ASGD loop still returns to Python this often (Ctrl-C).
cdef long long _CHUNK = 1 << 20


cdef inline double _projected(double g, double b, double C) noexcept nogil:
    if b <= 0.0:
        return g if g < 0.0 else 0.0
    if b >= C:
        return g if g > 0.0 else 0.0
    return g


cdef double _rebuild(const Rows* P, const double[:, ::1] R, const double[::1] y,
                     const double[::1] beta, double shift, double* u, double C) noexcept nogil:
    """u = sum_i y_i (beta_i + shift) R_i from scratch; return the largest |PG_i|
    of the fresh gradients y_i P_i'u - 1."""
    cdef int m = R.shape[0], k = R.shape[1], i, j
    cdef double coef, g, pg, worst = 0.0
    for j in range(k):
        u[j] = 0.0
    for i in range(m):
        coef = y[i] * (beta[i] + shift)
        if coef != 0.0:
            for j in range(k):
                u[j] += coef * R[i, j]
    for i in range(m):
        g = y[i] * row_dot_vec(P, i, u) - 1.0
        pg = fabs(_projected(g, beta[i], C))
        if pg > worst:
            worst = pg
    return worst


def max_projected_gradient(const double[::1] g, const double[::1] beta, double C):
    """The largest |PG_i| of the box QP (12) for the gradient g at beta (PG_i = g_i
    inside the box, min(g_i, 0) at 0, max(g_i, 0) at C); NaN when a g_i is NaN.
    The fit's final check (repro.solvers.ldm), on gradients it recomputes from
    beta: the value NumPy's three-way ``where`` gives, without its temporaries."""
    cdef Py_ssize_t i, m = g.shape[0]
    cdef double gi, pg, worst = 0.0
    if beta.shape[0] != m:
        raise ValueError(f"g has {m} values and beta {beta.shape[0]}")
    with nogil:
        for i in range(m):
            gi = g[i]
            if gi != gi:
                worst = gi
                break
            if beta[i] <= 0.0:
                pg = gi if gi < 0.0 else 0.0
            elif beta[i] >= C:
                pg = gi if gi > 0.0 else 0.0
            else:
                pg = gi
            if fabs(pg) > worst:
                worst = fabs(pg)
    return worst


def update_diagonal(tuple p, const double[:, ::1] R):
    """h with h_i = P_i'R_i (the curvature of coordinate i, Algorithm 1), as
    ``ldm_cd`` computes it: a grid that solves many problems on one (P, R)
    computes it once and hands it over (``h``), with the same values bitwise."""
    cdef Rows P
    keep = rows_init(&P, p[0], p[1], p[2], p[3], p[4], p[5], p[6])
    cdef int m = R.shape[0], k = R.shape[1], i
    h_arr = np.empty(max(m, 1))
    cdef double[::1] h = h_arr
    with nogil:
        for i in range(m):
            h[i] = row_dot_vec(&P, i, &R[i, 0]) if k > 0 else 0.0
    return h_arr[:m]


def ldm_cd(tuple p, const double[:, ::1] R, const double[::1] y, double C, double shift,
           double[::1] beta, double tol, long long max_iter, bint shuffle,
           unsigned long long seed, bint shrinking, object history, object h_given=None,
           bint spread_stop=False):
    """Algorithm 1 on (P, R) (see the module docstring); ``beta`` (length m, in
    [0, C]) is the start and is updated in place; ``shift`` = lambda2 / m.

    Returns (u, n_passes, converged, max_pg): u = R'Y(beta + shift e) and the
    largest fresh projected gradient at the end. ``history(passes, beta)`` (or
    None) is called after every pass with the current beta (a copy).
    ``shuffle``: visit the coordinates of every pass in a fresh random order
    (Hsieh et al. 2008, which the paper cites for the method, and the
    authors' code) instead of 1..m as printed. ``shrinking``: LIBLINEAR's
    shrinking of variables stuck at a bound (the same iterates restricted to
    the active set; convergence is always confirmed on all m). ``h_given``:
    ``update_diagonal(p, R)``, when the caller keeps it (else computed here).
    ``spread_stop``: the stopping rule of the authors' released code
    (LDM.cpp, ``solve_cd``; LIBLINEAR's rule) instead of the one above: a pass
    ends the loop when the spread max PG - min PG over the variables it
    visited is at most ``tol`` and none was set aside (if some were, they are
    all restored and the loop goes on), with no confirmation on rebuilt
    gradients; ``converged`` then says only that this rule was met, not
    that every |PG_i| <= tol (``max_pg`` is the fresh largest |PG_i|).

    The confirmation rebuilds u from beta and recomputes every gradient, unless
    no coordinate has moved since u was last rebuilt: then the pass just made
    computed those very gradients, from that very u, over all m, and the
    rebuild would repeat it bitwise (a warm-started grid point that starts at
    its optimum: most of LDM Table 3's fits on vehicle, one pass each).
    """
    cdef Rows P
    keep = rows_init(&P, p[0], p[1], p[2], p[3], p[4], p[5], p[6])
    cdef int m = R.shape[0], k = R.shape[1], i, j
    cdef cnp.ndarray[cnp.float64_t, ndim=1] u_arr = np.zeros(max(k, 1))
    cdef cnp.ndarray[cnp.float64_t, ndim=1] h_arr
    if h_given is None:
        h_arr = np.empty(max(m, 1))
    else:
        h_arr = np.ascontiguousarray(h_given, dtype=np.float64)
        if h_arr.shape[0] != m:
            raise ValueError(f"h_given has {h_arr.shape[0]} values for {m} rows")
        if m == 0:
            h_arr = np.empty(1)
    cdef double* u = &u_arr[0]
    cdef double* h = &h_arr[0]
    cdef cnp.ndarray[cnp.int32_t, ndim=1] order_arr = np.arange(max(m, 1), dtype=np.int32)
    cdef int* order = <int*> &order_arr[0]
    cdef unsigned long long state = rng_seed(seed)
    cdef int s, r, tmp, active = m
    cdef double pg_max_old = INFINITY, pg_min_old = -INFINITY, pg_max_new, pg_min_new
    cdef double g, pg, worst, b_old, b_new, delta, coef
    cdef long long passes = 0
    cdef bint converged = False
    cdef bint moved = False   # a coordinate changed since u was last rebuilt
    cdef bint compute_h = h_given is None
    with nogil:
        if compute_h:
            for i in range(m):
                h[i] = row_dot_vec(&P, i, &R[i, 0]) if k > 0 else 0.0
        worst = _rebuild(&P, R, y, beta, shift, u, C)
    while passes < max_iter and not converged:
        with nogil:
            worst = 0.0
            pg_max_new = -INFINITY
            pg_min_new = INFINITY
            if shuffle:
                for r in range(active - 1, 0, -1):
                    tmp = rng_randint(&state, r + 1)
                    order[r], order[tmp] = order[tmp], order[r]
            s = 0
            while s < active:
                i = order[s]
                g = y[i] * row_dot_vec(&P, i, u) - 1.0
                # shrinking (Hsieh et al. 2008, Sec. 3; LIBLINEAR): a variable
                # at a bound whose gradient pushes it outward by more than the
                # last pass's extreme projected gradient is set aside until the
                # active set has converged; then every variable is checked again
                if shrinking and beta[i] <= 0.0 and g > pg_max_old:
                    active -= 1
                    order[s], order[active] = order[active], order[s]
                    continue
                if shrinking and beta[i] >= C and g < pg_min_old:
                    active -= 1
                    order[s], order[active] = order[active], order[s]
                    continue
                s += 1
                pg = _projected(g, beta[i], C)
                if pg > pg_max_new:
                    pg_max_new = pg
                if pg < pg_min_new:
                    pg_min_new = pg
                if fabs(pg) > worst:
                    worst = fabs(pg)
                if pg == 0.0:
                    continue
                b_old = beta[i]
                if h[i] > 0.0:
                    b_new = b_old - g / h[i]
                else:
                    # f is linear in b_i (h_ii = 0: x_i has no component the
                    # model can use): the minimiser is a bound
                    b_new = C if g < 0.0 else 0.0
                if b_new < 0.0:
                    b_new = 0.0
                elif b_new > C:
                    b_new = C
                delta = b_new - b_old
                if delta != 0.0:
                    moved = True
                    beta[i] = b_new
                    coef = delta * y[i]
                    for j in range(k):
                        u[j] += coef * R[i, j]
            passes += 1
            if spread_stop:
                # the authors' rule: the spread of this pass's projected gradients
                if pg_max_new - pg_min_new <= tol:
                    if active < m:
                        active = m
                        pg_max_old = INFINITY
                        pg_min_old = -INFINITY
                    else:
                        converged = True
                else:
                    pg_max_old = pg_max_new if pg_max_new > 0.0 else INFINITY
                    pg_min_old = pg_min_new if pg_min_new < 0.0 else -INFINITY
            elif worst <= tol:
                if active < m:  # the active set converged: check them all again
                    active = m
                    pg_max_old = INFINITY
                    pg_min_old = -INFINITY
                elif moved:
                    # confirm on gradients rebuilt from beta (no accumulated drift)
                    worst = _rebuild(&P, R, y, beta, shift, u, C)
                    moved = False
                    converged = worst <= tol
                else:  # this pass's gradients over all m are the rebuild's (docstring)
                    converged = True
            else:
                pg_max_old = pg_max_new if pg_max_new > 0.0 else INFINITY
                pg_min_old = pg_min_new if pg_min_new < 0.0 else -INFINITY
        if history is not None:
            history(passes, np.array(beta, copy=True))
        PyErr_CheckSignals()
    if not converged or spread_stop:
        with nogil:
            worst = _rebuild(&P, R, y, beta, shift, u, C)
    return u_arr[:k], passes, converged, worst


cdef inline double _eq15_coef(double si, double sj, double yi, double yj, double lam,
                              double lambda1, double lambda2, bint inclusive) noexcept nogil:
    """b with (Eq. 15) / (mC) = lam w - b x_i, from s_i = w'x_i and s_j = w'x_j."""
    cdef double b = lam * (lambda2 * yi - 4.0 * lambda1 * si + 4.0 * lambda1 * yi * yj * sj)
    if yi * si < 1.0 or (inclusive and yi * si <= 1.0):
        b += yi
    return b


def eq15_gradient(tuple x, const double[::1] y, double C, double lambda1, double lambda2,
                  const double[::1] w, int i, int j, bint inclusive=False):
    """Debug entry point: the two-example gradient of Eq. 15 at w, for the pair
    (i, j), computed by the code the ASGD step uses (m = the number of rows)."""
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef double m = X.n_rows
    cdef double lam = 1.0 / (m * C)
    cdef double b = _eq15_coef(row_dot_vec(&X, i, &w[0]), row_dot_vec(&X, j, &w[0]), y[i], y[j],
                               lam, lambda1, lambda2, inclusive)
    g = np.asarray(w, dtype=float) * lam
    cdef double[::1] from_row = np.zeros(X.n_features)
    row_scatter(&X, i, &from_row[0])  # x_i as a dense vector
    return (g - b * np.asarray(from_row)) * (m * C)


def ldm_asgd(tuple x, const double[::1] y, double C, double lambda1, double lambda2,
             long long n_steps, double eta0, double a, double power, long long t0,
             int pairing, bint margin_inclusive, bint average, unsigned long long seed,
             object history, long long history_every, double m_scale):
    """Averaged SGD (Algorithm 2) for ``n_steps`` steps; returns (w, steps).

    ``m_scale`` is the m of lam = 1/(m C) (the training set's size; the eta0
    search runs on a sample with C rescaled so that m_scale C stays the same).
    ``pairing``: 0 draws i and j independently and uniformly at every step (the
    paper's Theorem 2); 1 takes them from two permutations shuffled at the start
    of every epoch of m steps (the authors' code). ``margin_inclusive`` counts
    y_i w'x_i <= 1 as a hinge violation (the code) instead of < 1 (Eq. 15).
    ``average``: return wbar, the plain average of the iterates after step t0
    (w itself when t0 >= n_steps); otherwise the last iterate.
    ``history(t, w)`` (or None) is called every ``history_every`` steps and
    after the last, with the returned quantity (a copy) at that point.
    """
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef int m = X.n_rows, d = X.n_features
    cdef cnp.ndarray[cnp.float64_t, ndim=1] v_arr = np.zeros(max(d, 1))
    cdef cnp.ndarray[cnp.float64_t, ndim=1] u_arr = np.zeros(max(d, 1))
    cdef cnp.ndarray[cnp.float64_t, ndim=1] w_out = np.zeros(max(d, 1))
    cdef cnp.ndarray[cnp.int32_t, ndim=1] p1_arr = np.arange(max(m, 1), dtype=np.int32)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] p2_arr = np.arange(max(m, 1), dtype=np.int32)
    cdef int* p1 = <int*> &p1_arr[0]
    cdef int* p2 = <int*> &p2_arr[0]
    cdef unsigned long long state = rng_seed(seed)
    cdef WeightVector W
    cdef double lam = 1.0 / (m_scale * C)
    cdef double eta, si, sj, b, yi
    cdef long long t = 0, stop
    cdef int i, j, pos, r, tmp
    wv_init(&W, &v_arr[0], d, &u_arr[0] if average else NULL)
    if m == 0:
        return w_out[:d], 0
    while t < n_steps:
        if history is not None:
            stop = min(n_steps, (t // history_every + 1) * history_every)
        else:
            stop = min(n_steps, t + _CHUNK)
        with nogil:
            while t < stop:
                if pairing == 0:
                    i = rng_randint(&state, m)
                    j = rng_randint(&state, m)
                else:
                    pos = <int> (t % m)
                    if pos == 0:  # a new epoch: shuffle both permutations
                        for r in range(m - 1, 0, -1):
                            tmp = rng_randint(&state, r + 1)
                            p1[r], p1[tmp] = p1[tmp], p1[r]
                        for r in range(m - 1, 0, -1):
                            tmp = rng_randint(&state, r + 1)
                            p2[r], p2[tmp] = p2[tmp], p2[r]
                    i = p1[pos]
                    j = p2[pos]
                # eta'_t with t counted from 0, as Xu's eta0 (1 + a eta0 t)^-c
                eta = eta0 * pow(1.0 + a * eta0 * t, -power)
                t += 1
                yi = y[i]
                si = wv_dot_row(&W, &X, i)
                sj = wv_dot_row(&W, &X, j)  # both taken at w_t, before the step
                b = _eq15_coef(si, sj, yi, y[j], lam, lambda1, lambda2, margin_inclusive)
                wv_scale(&W, 1.0 - eta * lam)
                wv_add_row(&W, &X, i, eta * b)
                if average and t > t0:
                    wv_average_uniform(&W)
        if history is not None:
            if average:
                wv_average_to_dense(&W, &w_out[0])
            else:
                wv_to_dense(&W, &w_out[0])
            history(t, np.array(w_out[:d], copy=True))
        PyErr_CheckSignals()
    if average:
        wv_average_to_dense(&W, &w_out[0])
    else:
        wv_to_dense(&W, &w_out[0])
    return w_out[:d], t
