# cython: language_level=3
# (boundscheck, wraparound, cdivision and initializedcheck are set in setup.py)
"""SMO with Keerthi's Modifications 1 and 2, with an exact kernel-evaluation count.

Implements the pseudo-code of Keerthi, Shevade, Bhattacharyya, Murthy (2001),
"Improvements to Platt's SMO algorithm for SVM classifier design", Neural
Computation 13:637-649 (Sec. 4 and the pseudo-code appendix of their report
CD-99-14): ``takeStep``, ``examineExample`` and the two main loops for

    min_alpha  W = 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij - sum_i alpha_i,
    0 <= alpha_i <= C,  sum_i y_i alpha_i = 0,

with F_i = sum_j alpha_j y_j K_ij - y_i, the index sets I0 = {0 < alpha < C},
I1 = {y=+1, alpha=0}, I2 = {y=-1, alpha=C}, I3 = {y=+1, alpha=C},
I4 = {y=-1, alpha=0}, the bounds b_up = min{F_i : i in I0+I1+I2} (index i_up)
and b_low = max{F_i : i in I0+I3+I4} (index i_low) that replace Platt's single
threshold, and the optimality test b_up >= b_low - 2 tau (``tol`` = tau).
An error cache F is kept for I0 only (updated after every successful step);
Modification 1 alternates passes over all examples and over I0 (an I0 pass stops
as soon as b_up > b_low - 2 tau); Modification 2 replaces the I0 pass by steps
on the pair (i_up, i_low) until b_up > b_low - 2 tau. The threshold returned is
b = (b_up + b_low) / 2 with Keerthi's sign, f(x) = sum_i alpha_i y_i K(x_i, x) - b.

Two modes share every line of the optimiser, so they follow the same path and
return bitwise identical alphas:

* count mode (``use_cache`` False): no kernel cache, every kernel value is
  computed when needed with ``kernel_ij`` and counted (the setting of the GS-SVM
  paper's Table 1);
* fast mode (``use_cache`` True): an LRU cache of whole kernel rows K(i, :)
  within ``cache_size`` MB (at least two rows), as LIBSVM's but without
  shrinking. A row is computed with ``kernel_row`` (l - 1 counted values, the
  diagonal is K_ii; for CSR data through the columns of X,
  ``kernel_row_by_columns``, the same values) when a successful takeStep needs the row of i1 or i2 for
  the error-cache update, it is not cached and the example lands in I0; for an
  example that lands on a bound only the |I0| values the update reads are
  computed, not cached (``step_row``); any other kernel value (k12,
  and K(i, j) for F_i) is read from a cached row of i or of j when there is
  one, and otherwise computed singly and counted. The working-set choice stays
  Keerthi's: only kernel values are reused.

For CSR data the example whose kernel values are needed (x_i1, x_i2, or the
x_i of F_i) is scattered once into a dense vector and the kernel is called
with that one-row dense view against the CSR rows: the kernel's dense x CSR
branch adds the same products in the same column order as the CSR x CSR merge
(plus exact zeros), so every value is bitwise the one ``kernel_ij(X, i, X, j)``
gives (K is bitwise symmetric), at a fraction of the merge's cost.

Conventions (they move Table 1 counts by tens of percent, see the notes):

* F_i of an example outside I0 (examineExample) is computed from scratch over
  the support vectors only, alpha_j > 0 (one evaluation per support vector,
  the natural implementation), in the order of an internal support-vector list.
* The diagonal K_ii is never counted for the RBF kernel: it is 1 and is not
  evaluated. For the linear and polynomial kernels the l diagonal values are
  computed (and counted) once at the start.
* takeStep's minimum step: a step is refused when
  |a2 - alph2| < eps_step * (a2 + alph2 + eps_step). Platt's eps = 1e-3 makes
  Modification 2 stall above the 2 tau optimality gap (its inner loop ends as
  soon as a step on (i_up, i_low) is refused); the default 1e-12 only refuses
  steps below round-off. The same eps_step separates the two end points when
  eta >= 0.
* eta = 2 K12 - K11 - K22 >= 0 (duplicate rows, or an indefinite kernel) is
  handled as in Platt: the objective is evaluated at both ends L and H of the
  segment, and alpha_2 moves to the lower end if it is lower by more than eps_step.
* When a2 is clipped to L or H, a1 is set to its bound exactly (not through
  a rounded subtraction), so the index sets are decided by exact comparisons.
  Besides, a new multiplier within (2 eps_step + 1e-15) m of 0, m the largest
  of the pair's old and new multipliers, or within (2 eps_step + 1e-15) C of C,
  is put on that bound (the equality sum_i y_i alpha_i = 0 then moves by at most
  that much). Both widths are relative to the scale they act on: a width
  proportional to C near 0 put every multiplier of a problem whose multipliers
  are small next to C (a large C, or widely separated data) on 0, a trivial
  model reported as converged. Without it rounding leaves multipliers an ulp inside the box, in I0,
  where the only feasible step for a violating pair is shorter than the
  minimum step: the solver then stops with b_low - b_up far above 2 tau (seen
  with duplicate all-zero rows), or with eps_step = 0 swaps the ulp between
  the two multipliers forever.
* Examples are visited sequentially, 0..l-1, in the passes over all examples
  and over I0 (another fixed permutation can be passed as ``order``); the I0
  pass tests membership when it reaches an example. Modification 2's inner
  loop tests b_up > b_low - 2 tau before each step on (i_up, i_low) (the
  pseudo-code's "do until"). Initialisation: alpha = 0, i_up = first y=+1
  example (b_up = -1), i_low = first y=-1 example (b_low = +1). After a successful step (i_up, b_up)
  and (i_low, b_low) are recomputed from i1, i2 and I0 only, so the F values of
  i_up and i_low are always exact.
* The dual objective W is maintained exactly through each step,
  dW = y1 F1 d1 + y2 F2 d2 + 1/2 (K11 d1^2 + K22 d2^2) + y1 y2 K12 d1 d2
  (the gradient of W is dW/dalpha_i = y_i F_i), and sampled for ``history``
  every ``history_every`` successful steps (with the time, without the GIL,
  handed over at the next signal poll or pass end) and at the end of every pass.
* An iteration is one successful takeStep; ``max_iter`` of them stop the solver.
  The passes run without the GIL and poll for signals every 1024 examineExample
  / takeStep calls, so Ctrl-C stops a long fit.
"""
import numpy as np
cimport numpy as cnp
from libc.math cimport fabs, isfinite, INFINITY
from cpython.exc cimport PyErr_CheckSignals
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from _rows cimport Rows, Cols, rows_init, cols_init
from _kernel cimport (KernelSpec, kernel_spec, kernel_ij, kernel_row, kernel_row_by_columns,
                     KERNEL_RBF, KERNEL_PRECOMPUTED)

cnp.import_array()


# ---------------------------------------------------------------------------
# LRU cache of whole kernel rows
# ---------------------------------------------------------------------------
cdef struct RowCache:
    double* store      # capacity * l values, slot s at store + s * l
    int* slot_of       # example -> slot, -1 when not cached
    int* owner         # slot -> example
    int* prev          # LRU links between slots (head: most recent)
    int* next
    int head
    int tail
    int used
    int capacity
    int l


cdef inline void _lru_unlink(RowCache* c, int s) noexcept nogil:
    if c.prev[s] >= 0:
        c.next[c.prev[s]] = c.next[s]
    else:
        c.head = c.next[s]
    if c.next[s] >= 0:
        c.prev[c.next[s]] = c.prev[s]
    else:
        c.tail = c.prev[s]


cdef inline void _lru_push_front(RowCache* c, int s) noexcept nogil:
    c.prev[s] = -1
    c.next[s] = c.head
    if c.head >= 0:
        c.prev[c.head] = s
    c.head = s
    if c.tail < 0:
        c.tail = s


cdef inline double* cache_peek(const RowCache* c, int i) noexcept nogil:
    """Row i if cached (recency unchanged), else NULL."""
    cdef int s = c.slot_of[i]
    if s < 0:
        return NULL
    return c.store + <Py_ssize_t> s * c.l


# ---------------------------------------------------------------------------
# one example held as a dense row (the fast sparse x dense kernel path)
# ---------------------------------------------------------------------------
cdef struct Probe:
    Rows R             # a one-row dense view of x_src (CSR data), or X itself (dense)
    int row            # the row of R that holds x_src
    int src            # the example held, -1 when none
    double* buf        # n_features zeros, x_src scattered in (CSR data)


cdef inline void _probe_init(Probe* p, const Rows* X, double* buf, int* cols) noexcept nogil:
    p.buf = buf
    p.src = -1
    p.row = 0
    p.R.data = buf
    p.R.indices = cols
    p.R.indptr = NULL
    p.R.sqnorm = X.sqnorm
    p.R.n_rows = 1
    p.R.n_features = X.n_features
    p.R.dense = True


cdef inline void probe_load(const Rows* X, Probe* p, int i) noexcept nogil:
    """Hold x_i so that kernel_ij(k, &p.R, p.row, X, j) == kernel_ij(k, X, i, X, j)
    bitwise: with CSR data x_i is scattered into a dense buffer and the kernel's
    dense x CSR branch adds the same products in the same (column) order as the
    CSR x CSR merge, plus exact zeros; it costs nnz(x_j) instead of
    nnz(x_i) + nnz(x_j) data-dependent branches."""
    cdef int t, a, b
    if p.src == i:
        return
    if X.dense:
        p.R = X[0]
        p.row = i
        p.src = i
        return
    if p.src >= 0:
        for t in range(X.indptr[p.src], X.indptr[p.src + 1]):
            p.buf[X.indices[t]] = 0.0
    a = X.indptr[i]
    b = X.indptr[i + 1]
    for t in range(a, b):
        p.buf[X.indices[t]] = X.data[t]
    p.R.sqnorm = X.sqnorm + i
    p.row = 0
    p.src = i


# ---------------------------------------------------------------------------
# solver state
# ---------------------------------------------------------------------------
cdef struct Solver:
    Rows* X
    KernelSpec* k
    double* y
    double* alpha
    double* F          # error cache: exact for I0, i_up and i_low
    double* kdiag      # K_ii
    int* iota          # 0..l-1 (column lists for kernel_row)
    int* sv            # examples with alpha > 0, in insertion order (swap-remove)
    int* sv_pos
    int nsv
    int* i0            # examples with 0 < alpha < C
    int* i0_pos
    int ni0
    int l
    double C
    double tol
    double eps
    double snap_rel    # 2 eps + 1e-15: the snap's width relative to the scale it acts on
    double snap        # snap_rel C: how close to C a multiplier is put on C
    double b_up
    double b_low
    int i_up
    int i_low
    double obj         # dual objective W
    long long n_steps
    long long n_f      # F_i computed from scratch (examineExample outside I0)
    long long n_f_evals  # kernel values computed for them
    bint use_cache
    double* gram       # fast mode with a precomputed kernel: row i at gram + i * l
    long long hist_every   # sample (step, W, time) every hist_every successful steps; 0: none
    long long hist_n       # samples held, flushed to the Python trace while the GIL is held
    long long hist_cap
    long long* hist_it
    double* hist_obj
    double* hist_t
    RowCache* cache
    Probe* p1          # x_i1 (takeStep) / x_i (compute_F)
    Probe* p2          # x_i2 (takeStep)
    Cols* XT           # fast mode, CSR data: X by columns for whole rows, else NULL
    double* dots       # its zeroed buffer of l dot products


cdef inline bint in_I0(const Solver* S, int i) noexcept nogil:
    return S.alpha[i] > 0.0 and S.alpha[i] < S.C


cdef inline bint in_up(const Solver* S, int i) noexcept nogil:
    # I0 + I1 + I2
    if S.y[i] > 0:
        return S.alpha[i] < S.C
    return S.alpha[i] > 0.0


cdef inline bint in_low(const Solver* S, int i) noexcept nogil:
    # I0 + I3 + I4
    if S.y[i] > 0:
        return S.alpha[i] > 0.0
    return S.alpha[i] < S.C


cdef inline void _list_add(int* lst, int* pos, int* n, int i) noexcept nogil:
    if pos[i] < 0:
        pos[i] = n[0]
        lst[n[0]] = i
        n[0] += 1


cdef inline void _list_remove(int* lst, int* pos, int* n, int i) noexcept nogil:
    cdef int p = pos[i], last
    if p >= 0:
        n[0] -= 1
        last = lst[n[0]]
        lst[p] = last
        pos[last] = p
        pos[i] = -1


cdef inline double* cached_row(const Solver* S, int i) noexcept nogil:
    """Row K(i, :) when it is at hand without computing (fast mode), else NULL."""
    if S.gram != NULL:
        return S.gram + <Py_ssize_t> i * S.l
    return cache_peek(S.cache, i)


cdef double* cache_fetch(Solver* S, int i, Probe* p) noexcept nogil:
    """Row K(i, :) from the cache, computed (l - 1 counted values, the diagonal
    is K_ii) into the least recently used slot when missing. With a precomputed
    kernel the row of the Gram matrix itself (nothing computed or counted)."""
    cdef RowCache* c = S.cache
    cdef int s
    cdef double* row
    if S.gram != NULL:
        return S.gram + <Py_ssize_t> i * S.l
    s = c.slot_of[i]
    if s >= 0:
        _lru_unlink(c, s)
        _lru_push_front(c, s)
        return c.store + <Py_ssize_t> s * c.l
    if c.used < c.capacity:
        s = c.used
        c.used += 1
    else:
        s = c.tail
        _lru_unlink(c, s)
        c.slot_of[c.owner[s]] = -1
    c.owner[s] = i
    c.slot_of[i] = s
    _lru_push_front(c, s)
    row = c.store + <Py_ssize_t> s * c.l
    if S.XT != NULL:  # CSR: through the columns of X (same values, fewer operations)
        kernel_row_by_columns(S.k, S.X, i, S.XT, NULL, S.l, row, S.dots)
        S.k.n_evals -= 1  # the diagonal is K_ii, not computed
    else:
        probe_load(S.X, p, i)
        kernel_row(S.k, &p.R, p.row, S.X, S.iota, i, row)
        kernel_row(S.k, &p.R, p.row, S.X, S.iota + i + 1, S.l - i - 1, row + i + 1)
    row[i] = S.kdiag[i]
    return row


cdef inline double* step_row(Solver* S, int i, Probe* p, bint keep) noexcept nogil:
    """The row K(i, :) for takeStep's error-cache update (fast mode): the cached
    row (or the Gram row), computed into the cache when missing and ``keep``,
    else NULL. takeStep keeps the row of an example that lands in I0: Modification
    2's inner loop and the I0 passes step on I0 again and again. The row of an
    example that lands on a bound (most steps of a pass over all examples, one per
    violating example) is rarely needed again, and the update reads only its
    |I0| entries: computing l values into the cache would cost l / |I0| times
    more and evict rows that are reused. Either way the values are the ones
    ``kernel_ij`` gives, so both modes keep taking the same path."""
    if keep or S.gram != NULL:
        return cache_fetch(S, i, p)
    cdef int s = S.cache.slot_of[i]
    if s < 0:
        return NULL
    _lru_unlink(S.cache, s)
    _lru_push_front(S.cache, s)
    return S.cache.store + <Py_ssize_t> s * S.cache.l


cdef inline double kval(Solver* S, int i, int j) noexcept nogil:
    """K(x_i, x_j), i != j: from a cached row when there is one (fast mode),
    else computed and counted. K is bitwise symmetric (same dot-product order)."""
    cdef double* r
    if S.use_cache:
        r = cached_row(S, i)
        if r != NULL:
            return r[j]
        r = cached_row(S, j)
        if r != NULL:
            return r[i]
    return kernel_ij(S.k, S.X, i, S.X, j)


cdef double compute_F(Solver* S, int i) noexcept nogil:
    """F_i = sum_{alpha_j > 0} alpha_j y_j K_ij - y_i from scratch."""
    cdef double s = 0.0, v
    cdef double* ri = NULL
    cdef double* rj
    cdef int t, j
    cdef long long before = S.k.n_evals
    if S.use_cache:
        ri = cached_row(S, i)
    for t in range(S.nsv):
        j = S.sv[t]
        if j == i:
            v = S.kdiag[i]
        elif ri != NULL:
            v = ri[j]
        else:
            rj = cached_row(S, j) if S.use_cache else NULL
            if rj != NULL:
                v = rj[i]
            else:
                probe_load(S.X, S.p1, i)
                v = kernel_ij(S.k, &S.p1.R, S.p1.row, S.X, j)
        s += S.alpha[j] * S.y[j] * v
    S.n_f += 1
    S.n_f_evals += S.k.n_evals - before
    return s - S.y[i]


cdef inline double step_objective(double y2, double F1, double F2, double eta,
                                  double d2) noexcept nogil:
    # change of W when alpha_2 moves by d2 along the constraint line
    return y2 * (F2 - F1) * d2 - 0.5 * eta * d2 * d2


cdef inline double _now() noexcept nogil:
    # the clock of Python's time.perf_counter on Linux, so the trace's times agree
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + 1e-9 * ts.tv_nsec


cdef void _flush_trace(Solver* S, object history, tuple buffers):
    """Hand the samples taken without the GIL to the trace (``History.record_batch``;
    ``buffers``: the arrays behind S.hist_it, S.hist_t, S.hist_obj)."""
    cdef Py_ssize_t n = S.hist_n
    if n:
        history.record_batch(buffers[0][:n], buffers[1][:n], buffers[2][:n])
    S.hist_n = 0


cdef int take_step(Solver* S, int i1, int i2) noexcept nogil:
    cdef double alph1, alph2, y1, y2, F1, F2, s, L, H, k11, k12, k22, eta
    cdef double a1, a2, d1, d2, c1, c2, Lobj, Hobj, v1, v2, snap0
    cdef double* r1 = NULL
    cdef double* r2 = NULL
    cdef int t, i
    if i1 == i2:
        return 0
    alph1 = S.alpha[i1]
    alph2 = S.alpha[i2]
    y1 = S.y[i1]
    y2 = S.y[i2]
    F1 = S.F[i1]
    F2 = S.F[i2]
    s = y1 * y2
    if y1 != y2:
        L = max(0.0, alph2 - alph1)
        H = min(S.C, S.C + alph2 - alph1)
    else:
        L = max(0.0, alph1 + alph2 - S.C)
        H = min(S.C, alph1 + alph2)
    if L == H:
        return 0
    k11 = S.kdiag[i1]
    k22 = S.kdiag[i2]
    k12 = kval(S, i1, i2)
    eta = 2.0 * k12 - k11 - k22
    if eta < 0.0:
        a2 = alph2 - y2 * (F1 - F2) / eta
        if a2 < L:
            a2 = L
        elif a2 > H:
            a2 = H
    else:
        Lobj = step_objective(y2, F1, F2, eta, L - alph2)
        Hobj = step_objective(y2, F1, F2, eta, H - alph2)
        if Lobj < Hobj - S.eps:
            a2 = L
        elif Lobj > Hobj + S.eps:
            a2 = H
        else:
            a2 = alph2
    if fabs(a2 - alph2) < S.eps * (a2 + alph2 + S.eps):
        return 0
    a1 = alph1 + s * (alph2 - a2)
    # where a2 sits at an end point that is a bound for alpha_1, put a1 on it exactly
    if y1 != y2:
        if a2 == L and alph2 - alph1 >= 0.0:
            a1 = 0.0
        elif a2 == H and alph2 - alph1 <= 0.0:
            a1 = S.C
    else:
        if a2 == L and alph1 + alph2 - S.C >= 0.0:
            a1 = S.C
        elif a2 == H and alph1 + alph2 <= S.C:
            a1 = 0.0
    if a1 < 0.0:
        a1 = 0.0
    elif a1 > S.C:
        a1 = S.C
    # a multiplier within a rounding-sized distance of a bound is put on it (see
    # the module docstring): near 0 relative to the pair's multipliers, near C
    # relative to C, so that neither width grows with C alone
    snap0 = S.snap_rel * max(max(alph1, alph2), max(a1, a2))
    if a1 < snap0:
        a1 = 0.0
    elif a1 > S.C - S.snap:
        a1 = S.C
    if a2 < snap0:
        a2 = 0.0
    elif a2 > S.C - S.snap:
        a2 = S.C
    if a1 == alph1 and a2 == alph2:
        return 0
    d1 = a1 - alph1
    d2 = a2 - alph2
    c1 = y1 * d1
    c2 = y2 * d2
    S.obj += y1 * F1 * d1 + y2 * F2 * d2 + 0.5 * (k11 * d1 * d1 + k22 * d2 * d2) + s * k12 * d1 * d2

    # error cache over I0 (i1 and i2 are updated from k11, k12, k22 below)
    if S.use_cache:
        # capacity >= 2: a row fetched for i1 is the most recent, not evicted for i2
        r1 = step_row(S, i1, S.p1, a1 > 0.0 and a1 < S.C)
        r2 = step_row(S, i2, S.p2, a2 > 0.0 and a2 < S.C)
    if r1 != NULL and r2 != NULL:
        for t in range(S.ni0):
            i = S.i0[t]
            if i != i1 and i != i2:
                S.F[i] += c1 * r1[i] + c2 * r2[i]
    else:  # count mode, or a row not kept: the I0 values computed singly and counted
        if r1 == NULL:
            probe_load(S.X, S.p1, i1)
        if r2 == NULL:
            probe_load(S.X, S.p2, i2)
        for t in range(S.ni0):
            i = S.i0[t]
            if i != i1 and i != i2:
                v1 = r1[i] if r1 != NULL else kernel_ij(S.k, &S.p1.R, S.p1.row, S.X, i)
                v2 = r2[i] if r2 != NULL else kernel_ij(S.k, &S.p2.R, S.p2.row, S.X, i)
                S.F[i] += c1 * v1 + c2 * v2
    S.F[i1] = F1 + c1 * k11 + c2 * k12
    S.F[i2] = F2 + c1 * k12 + c2 * k22

    S.alpha[i1] = a1
    S.alpha[i2] = a2
    for t in range(2):
        i = i1 if t == 0 else i2
        if S.alpha[i] > 0.0:
            _list_add(S.sv, S.sv_pos, &S.nsv, i)
        else:
            _list_remove(S.sv, S.sv_pos, &S.nsv, i)
        if in_I0(S, i):
            _list_add(S.i0, S.i0_pos, &S.ni0, i)
        else:
            _list_remove(S.i0, S.i0_pos, &S.ni0, i)

    # (i_up, b_up) and (i_low, b_low) from i1, i2 and I0 only
    S.b_up = INFINITY
    S.b_low = -INFINITY
    for t in range(2):
        i = i1 if t == 0 else i2
        if in_up(S, i) and S.F[i] < S.b_up:
            S.b_up = S.F[i]
            S.i_up = i
        if in_low(S, i) and S.F[i] > S.b_low:
            S.b_low = S.F[i]
            S.i_low = i
    for t in range(S.ni0):
        i = S.i0[t]
        if S.F[i] < S.b_up:
            S.b_up = S.F[i]
            S.i_up = i
        if S.F[i] > S.b_low:
            S.b_low = S.F[i]
            S.i_low = i
    S.n_steps += 1
    if S.hist_every > 0 and S.n_steps % S.hist_every == 0 and S.hist_n < S.hist_cap:
        S.hist_it[S.hist_n] = S.n_steps
        S.hist_obj[S.hist_n] = S.obj
        S.hist_t[S.hist_n] = _now()
        S.hist_n += 1
    return 1


cdef int examine_example(Solver* S, int i2) noexcept nogil:
    cdef double F2, two_tol = 2.0 * S.tol
    cdef int i1 = -1
    cdef bint optimal = True
    if in_I0(S, i2):
        F2 = S.F[i2]
    else:
        F2 = compute_F(S, i2)
        S.F[i2] = F2
        if in_up(S, i2):          # I1 or I2
            if F2 < S.b_up:
                S.b_up = F2
                S.i_up = i2
        elif F2 > S.b_low:        # I3 or I4
            S.b_low = F2
            S.i_low = i2
    if in_up(S, i2) and S.b_low - F2 > two_tol:
        optimal = False
        i1 = S.i_low
    if in_low(S, i2) and F2 - S.b_up > two_tol:
        optimal = False
        i1 = S.i_up
    if optimal:
        return 0
    if in_I0(S, i2):
        i1 = S.i_low if S.b_low - F2 > F2 - S.b_up else S.i_up
    return take_step(S, i1, i2)


cdef void _warm_start(Solver* S, const double[::1] alpha0) except *:
    """Start from a feasible alpha0: index sets, every F_i, b_up / b_low, W."""
    cdef int i, l = S.l
    cdef double a, balance = 0.0, total = 0.0, snap0, largest = 0.0
    if alpha0.shape[0] != l:
        raise ValueError(f"alpha0 has {alpha0.shape[0]} entries for {l} examples")
    for i in range(l):
        if alpha0[i] > largest:
            largest = alpha0[i]
    snap0 = S.snap_rel * largest  # relative to the multipliers, as in take_step
    for i in range(l):
        a = alpha0[i]
        if not (0.0 <= a <= S.C):
            raise ValueError(f"alpha0[{i}] = {a!r} is outside [0, C = {S.C!r}]")
        if a < snap0:
            a = 0.0
        elif a > S.C - S.snap:
            a = S.C
        S.alpha[i] = a
        balance += S.y[i] * a
        total += a
        if a > 0.0:
            _list_add(S.sv, S.sv_pos, &S.nsv, i)
        if in_I0(S, i):
            _list_add(S.i0, S.i0_pos, &S.ni0, i)
    if abs(balance) > 1e-9 * max(total, 1.0):
        raise ValueError(f"alpha0 violates sum_i y_i alpha_i = 0 (it is {balance!r})")
    S.b_up = INFINITY
    S.b_low = -INFINITY
    S.obj = 0.0
    with nogil:
        for i in range(l):
            S.F[i] = compute_F(S, i)
            S.obj += 0.5 * S.alpha[i] * (S.y[i] * S.F[i] - 1.0)  # W = 1/2 sum a_i (y_i F_i - 1)
            if in_up(S, i) and S.F[i] < S.b_up:
                S.b_up = S.F[i]
                S.i_up = i
            if in_low(S, i) and S.F[i] > S.b_low:
                S.b_low = S.F[i]
                S.i_low = i


cdef cnp.ndarray _minus_ones(Py_ssize_t n):
    # np.full is a Python-level function, ~3x the cost of np.empty: six calls
    # per binary problem showed in the profile of small one-vs-one fits
    cdef cnp.ndarray[cnp.int32_t, ndim=1] a = np.empty(n, dtype=np.int32)
    cdef Py_ssize_t i
    for i in range(n):
        a[i] = -1
    return a


def smo_solve(tuple x, const double[::1] y, double C, int kind, double gamma,
              double coef0, int degree, int modification, double tol, double eps_step,
              bint use_cache, double cache_size, long long max_iter, object history,
              const int[::1] order=None, const double[::1] alpha0=None,
              tuple columns=None, long long history_every=0):
    """Train the binary SVM on rows ``x`` (an ``as_rows_input`` tuple), y in {-1, +1}.

    ``columns``: for CSR rows in fast (cache) mode, the same matrix by columns
    (the tuple made by ``as_columns_input(x)``), through which the cached kernel
    rows are computed (``kernel_row_by_columns``); None computes them by row dot
    products instead, the same values bitwise, only slower on sparse data.

    ``order``: the sequence in which the passes over all examples and over I0
    visit the examples (a permutation of 0..l-1; None: 0, 1, ..., l-1).
    ``alpha0``: a feasible starting point (warm start; None: alpha = 0). Every
    F_i is then computed from scratch once (counted like any kernel value) and
    b_up, b_low are taken over all examples before the first pass.
    ``kind`` KERNEL_PRECOMPUTED: ``x`` holds the dense l x l Gram matrix; in
    fast mode its rows serve as the cache (nothing is computed or counted).

    Returns ``(alpha, b, n_iter, n_kernel_evals, converged, b_up, b_low, objective,
    stats)``:
    f(x) = sum_i alpha_i y_i K(x_i, x) - b; ``n_iter`` successful takeSteps;
    ``converged`` False when ``max_iter`` stopped the main loop; ``objective`` the
    dual objective W (to minimise); ``stats`` a dict with ``n_F`` (F_i computed
    from scratch for examples outside I0), ``n_F_evals`` (kernel values computed
    for them) and ``n_examine`` (examineExample calls). ``history`` (a
    ``repro.solvers.base.History`` or None) gets ``record_batch`` of (n_iter, time, W)
    every ``history_every`` successful steps (0: never) and ``history(n_iter, W)``
    after every pass of the main loop (a pass over all examples, over I0, or one
    Modification-2 inner loop). See the module docstring for the conventions.
    """
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef int l = X.n_rows
    if l < 2 or y.shape[0] != l:
        raise ValueError("need at least two examples and one label per row")
    if modification not in (1, 2):
        raise ValueError("modification must be 1 or 2")
    cdef KernelSpec k = kernel_spec(kind, gamma, coef0, degree)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] alpha_arr = np.zeros(l)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] F_arr = np.zeros(l)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] kdiag_arr = np.ones(l)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] iota_arr = np.arange(l + 1, dtype=np.int32)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] sv_arr = np.empty(l, dtype=np.int32)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] svpos_arr = _minus_ones(l)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] i0_arr = np.empty(l, dtype=np.int32)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] i0pos_arr = _minus_ones(l)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] y_arr = np.ascontiguousarray(y, dtype=np.float64)
    cdef Solver S
    cdef RowCache cache
    cdef Probe probe1, probe2
    cdef int nf = max(X.n_features, 1)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] buf1 = np.zeros(nf)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] buf2 = np.zeros(nf)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] cols = np.arange(nf, dtype=np.int32)
    cdef int i, t, n_changed, capacity, pos_first = -1, neg_first = -1
    cdef bint examine_all = True, success
    cdef long long calls = 0
    cdef cnp.ndarray[cnp.int32_t, ndim=1] visit_arr
    cdef int* visit
    cdef long long n_examine = 0
    cdef cnp.ndarray[cnp.float64_t, ndim=1] store_arr
    cdef cnp.ndarray[cnp.int32_t, ndim=1] slot_arr, owner_arr, prev_arr, next_arr
    cdef Cols XT
    cdef cnp.ndarray[cnp.float64_t, ndim=1] dots_arr

    for i in range(l):
        if y_arr[i] > 0 and pos_first < 0:
            pos_first = i
        elif y_arr[i] < 0 and neg_first < 0:
            neg_first = i
    if pos_first < 0 or neg_first < 0:
        raise ValueError("y must contain both classes (+1 and -1)")
    if order is None:
        visit_arr = np.arange(l, dtype=np.int32)
    else:
        visit_arr = np.ascontiguousarray(order, dtype=np.int32)
        if visit_arr.shape[0] != l or not np.array_equal(np.sort(visit_arr), np.arange(l)):
            raise ValueError("order must be a permutation of 0..l-1")
    visit = <int*> &visit_arr[0]

    S.X = &X
    S.k = &k
    S.y = &y_arr[0]
    S.alpha = &alpha_arr[0]
    S.F = &F_arr[0]
    S.kdiag = &kdiag_arr[0]
    S.iota = <int*> &iota_arr[0]
    S.sv = <int*> &sv_arr[0]
    S.sv_pos = <int*> &svpos_arr[0]
    S.nsv = 0
    S.i0 = <int*> &i0_arr[0]
    S.i0_pos = <int*> &i0pos_arr[0]
    S.ni0 = 0
    S.l = l
    S.C = C
    S.tol = tol
    S.eps = eps_step
    S.snap_rel = 2.0 * eps_step + 1e-15
    S.snap = S.snap_rel * C
    S.obj = 0.0
    S.n_steps = 0
    S.n_f = 0
    S.n_f_evals = 0
    S.use_cache = use_cache
    S.gram = NULL
    # the trace: every history_every-th successful step sampled without the GIL
    # into these buffers, handed to history.record_at when the GIL is held
    S.hist_every = history_every if history is not None else 0
    S.hist_n = 0
    S.hist_cap = 4096
    hist_it_arr = np.empty(S.hist_cap, dtype=np.int64)
    hist_obj_arr = np.empty(S.hist_cap)
    hist_t_arr = np.empty(S.hist_cap)
    S.hist_it = <long long*> cnp.PyArray_DATA(hist_it_arr)
    S.hist_obj = <double*> cnp.PyArray_DATA(hist_obj_arr)
    S.hist_t = <double*> cnp.PyArray_DATA(hist_t_arr)
    hist_buffers = (hist_it_arr, hist_t_arr, hist_obj_arr)
    S.cache = &cache
    S.p1 = &probe1
    S.p2 = &probe2
    _probe_init(&probe1, &X, &buf1[0], <int*> &cols[0])
    _probe_init(&probe2, &X, &buf2[0], <int*> &cols[0])

    if kind != KERNEL_RBF:  # K_ii = 1 for the RBF kernel: nothing to evaluate
        for i in range(l):
            kdiag_arr[i] = kernel_ij(&k, &X, i, &X, i)
            # |K_ij| <= sqrt(K_ii K_jj) for a PSD kernel: finite diagonal values
            # keep every kernel value finite, an overflowing one would stall
            # every step (eta = nan) into a trivial model
            if not isfinite(kdiag_arr[i]):
                raise ValueError(f"K(x_{i}, x_{i}) = {kdiag_arr[i]!r} before the first step: the "
                                 f"kernel values overflow float64 (scale the features, or lower "
                                 f"gamma / degree)")

    if kind == KERNEL_PRECOMPUTED:
        if not X.dense or X.n_features != l:
            raise ValueError("a precomputed kernel needs the dense l x l Gram matrix")
        if use_cache:
            S.gram = X.data
    if use_cache and S.gram == NULL:
        capacity = <int> min(<double> l, cache_size * 1048576.0 / (8.0 * l))
        capacity = max(capacity, 2)
        store_arr = np.empty(<Py_ssize_t> capacity * l)
        slot_arr = _minus_ones(l)
        owner_arr = _minus_ones(capacity)
        prev_arr = _minus_ones(capacity)
        next_arr = _minus_ones(capacity)
        cache.store = &store_arr[0]
        cache.slot_of = <int*> &slot_arr[0]
        cache.owner = <int*> &owner_arr[0]
        cache.prev = <int*> &prev_arr[0]
        cache.next = <int*> &next_arr[0]
        cache.head = -1
        cache.tail = -1
        cache.used = 0
        cache.capacity = capacity
        cache.l = l
    S.XT = NULL
    S.dots = NULL
    if use_cache and S.gram == NULL and not X.dense and columns is not None:
        keep_cols = cols_init(&XT, columns[0], columns[1], columns[2])
        dots_arr = np.zeros(l)
        S.XT = &XT
        S.dots = &dots_arr[0]

    if alpha0 is None:
        # alpha = 0: F_i = -y_i
        S.i_up = pos_first
        S.b_up = -1.0
        S.i_low = neg_first
        S.b_low = 1.0
        F_arr[pos_first] = -1.0
        F_arr[neg_first] = 1.0
    else:
        _warm_start(&S, alpha0)

    n_changed = 0
    while (n_changed > 0 or examine_all) and S.n_steps < max_iter:
        n_changed = 0
        with nogil:  # one pass of the main loop; the GIL is taken back to check Ctrl-C
            if examine_all:
                for t in range(l):
                    n_changed += examine_example(&S, visit[t])
                    n_examine += 1
                    calls += 1
                    if calls % 1024 == 0:
                        with gil:
                            PyErr_CheckSignals()
                            if S.hist_n * 2 >= S.hist_cap:
                                _flush_trace(&S, history, hist_buffers)
                    if S.n_steps >= max_iter:
                        break
            elif modification == 1:
                for t in range(l):
                    i = visit[t]
                    if not in_I0(&S, i):
                        continue
                    n_changed += examine_example(&S, i)
                    n_examine += 1
                    calls += 1
                    if calls % 1024 == 0:
                        with gil:
                            PyErr_CheckSignals()
                            if S.hist_n * 2 >= S.hist_cap:
                                _flush_trace(&S, history, hist_buffers)
                    if S.b_up > S.b_low - 2.0 * tol:
                        n_changed = 0
                        break
                    if S.n_steps >= max_iter:
                        break
            else:
                success = True
                while S.b_up <= S.b_low - 2.0 * tol and success and S.n_steps < max_iter:
                    success = take_step(&S, S.i_up, S.i_low)
                    calls += 1
                    if calls % 1024 == 0:
                        with gil:
                            PyErr_CheckSignals()
                            if S.hist_n * 2 >= S.hist_cap:
                                _flush_trace(&S, history, hist_buffers)
                n_changed = 0
        if examine_all:
            examine_all = False
        elif n_changed == 0:
            examine_all = True
        if history is not None:
            _flush_trace(&S, history, hist_buffers)
            history(S.n_steps, S.obj)  # the end of the pass: kept as the last report if it is the last
    converged = not (n_changed > 0 or examine_all)
    stats = {"n_F": int(S.n_f), "n_F_evals": int(S.n_f_evals), "n_examine": int(n_examine)}
    return (alpha_arr, 0.5 * (S.b_up + S.b_low), int(S.n_steps), int(k.n_evals),
            bool(converged), S.b_up, S.b_low, S.obj, stats)
