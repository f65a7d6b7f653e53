# cython: language_level=3
# (boundscheck, wraparound, cdivision and initializedcheck are set in setup.py)
"""SMO with Keerthi's Modifications 1 and 2, with an exact kernel-evaluation count,
and a second path with LIBSVM's second-order working sets, shrinking and column cache.

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
  paper's Table 1). With ``count_table`` the l x l kernel matrix is computed
  first, row by row through the same probe and ``kernel_row`` that fast mode
  fills its cache with (so each entry is bitwise the value ``kernel_ij`` gives),
  and every value the algorithm asks for is read from it and counted as an
  evaluation all the same: the same steps and the same count, at a memory read
  instead of a kernel evaluation per value (Table 1's Adult-7 asks for each of
  its 1.3e8 distinct values about 24 times at C = 64);
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

Second path, ``smo_solve_second_order`` (``SMO(working_set='second_order')``)
----------------------------------------------------------------------------
The decomposition method of LIBSVM, written here from the papers (not a
translation of svm.cpp), for the same dual and with the same stopping rule:

* Sign convention. LIBSVM's gradient is G = Q alpha - e with Q_ij = y_i y_j
  K_ij; ours is Keerthi's F_i = sum_j alpha_j y_j K_ij - y_i, so F_i = y_i G_i.
  LIBSVM's I_up(alpha) = {alpha_t < C, y_t = 1 or alpha_t > 0, y_t = -1} is
  Keerthi's I0 + I1 + I2 and I_low(alpha) is I0 + I3 + I4; -y_t G_t = -F_t,
  so m(alpha) = max_{I_up} -y_t G_t = -b_up and M(alpha) = min_{I_low} -y_t G_t
  = -b_low. LIBSVM's stop m(alpha) - M(alpha) < eps is b_low - b_up < eps;
  with eps = 2 tol it is Keerthi's b_up > b_low - 2 tol, tested here in
  exactly that form, on every example with exact F before the solver says
  converged (``repro/solvers/smo.py`` then reports b_low - b_up as the gap and
  runs the same feasibility check on both paths). Kernel columns are cached
  as K, not Q: with F no sign enters the inner loops.
* Full gradient: F_i is kept for every active example and updated after every
  step, F_t += y_i d_i K_ti + y_j d_j K_tj (Chang & Lin, "LIBSVM: a library
  for support vector machines", ACM TIST 2(3), 2011, Sec. 4.1, the gradient
  update of the decomposition method, written in F).
* Working set (Fan, Chen, Lin, "Working set selection using second order
  information for training support vector machines", JMLR 6:1889-1918, 2005,
  WSS 2): i = argmin_{t in I_up} F_t (their argmax of -y_t G_t),
  j = argmin over t in I_low with F_t > F_i of -b_it^2 / a_it with b_it =
  F_t - F_i and a_it = K_ii + K_tt - 2 K_it (-b_it^2 / a_it is the decrease
  of the two-variable subproblem on {i, t} without its box); a_it <= 0 (an
  indefinite kernel, or duplicate rows) is replaced by tau = 1e-12, in the
  selection and in the step (their section on non-positive-definite kernel
  matrices; LIBSVM's TAU).
* Step: along d_i = y_i s, d_j = -y_j s the dual changes by s (F_i - F_j) +
  s^2 a_ij / 2; s = (F_j - F_i) / a_ij clipped to the box; a multiplier whose
  clip is reached is set on its bound exactly. An iteration is a step that
  changed a multiplier; ``max_iter`` of them stop the solver. A pair whose step
  is below rounding (changes neither multiplier) ends the solve unconverged
  (``stalled``) instead of repeating it up to max_iter.
* Shrinking (Chang & Lin 2011, Sec. 5.1; LIBSVM's do_shrinking / be_shrunk)
  every min(l, 1000) steps: an example on a bound that is in I_up only is set
  aside while F_t > b_low, one in I_low only while F_t < b_up. The first time
  b_low - b_up <= 10 eps (= 20 tol) every example is made active again with its
  exact F (LIBSVM's unshrink). Gradient reconstruction (Sec. 5.1): Fbar_t = sum_{alpha_j = C} C y_j K_tj is kept for every example
  (LIBSVM's G_bar times y_t) and a shrunk F_t is rebuilt as Fbar_t - y_t +
  sum_{free j} alpha_j y_j K_tj, through the free columns or the shrunk
  columns, whichever computes fewer kernel values. When the active set meets
  the stopping rule, F is rebuilt on every example and the rule is tested
  again (the final optimality check on the whole set).
* Threshold: b = (b_up + b_low) / 2 over every example when converged (as the
  first path); stopped unconverged, LIBSVM's rho, the mean F over the free
  examples (Chang & Lin 2011, Sec. 4.1.5), as the midpoint is then set by the
  two most violating examples.
* Kernel cache (Chang & Lin 2011, Sec. 5.2): an LRU cache of columns K(:, i),
  each slot l doubles, capacity cache_size MB / (8 l) columns (at least two).
  While examples are shrunk only the active entries of a new column are
  computed, the others marked missing (NaN) and filled in when a larger set
  needs them (see ``fetch_col``). CSR data: columns through the columns of X
  or by per-example dot products, whichever costs fewer operations.
  A precomputed kernel's Gram rows are the columns (nothing computed).
* ``n_kernel_evals``: every kernel value computed (the l diagonal values for
  non-rbf kernels, once, as in the first path; the entries of every column
  computed, including its diagonal entry).
"""
import numpy as np
cimport numpy as cnp
from libc.math cimport fabs, isfinite, isnan, INFINITY, NAN
from cpython.exc cimport PyErr_CheckSignals
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from _rows cimport Rows, Cols, rows_init, cols_init, get_row
from _kernel cimport (KernelSpec, kernel_spec, kernel_ij, kernel_row, kernel_row_by_columns,
                     kernel_from_dot,
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


cdef inline double* _lru_hit(RowCache* c, int s) noexcept nogil:
    """Slot s's values, the slot moved to the front (most recently used)."""
    _lru_unlink(c, s)
    _lru_push_front(c, s)
    return c.store + <Py_ssize_t> s * c.l


cdef inline int _lru_claim(RowCache* c, int i) noexcept nogil:
    """A slot for example i, at the front: a free one, else the least recently
    used one, whose example is dropped from the cache."""
    cdef int s
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
    return s


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
cdef struct Trace:
    long long every   # sample (step, W, time) every `every` successful steps; 0: none
    long long n       # samples held, flushed to the Python trace while the GIL is held
    long long cap
    long long* it
    double* obj
    double* t


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
    double* table      # count mode with count_table: K_ij at table + i * l + j, or NULL
    Trace trace            # (step, W, time) samples taken without the GIL
    RowCache* cache
    Probe* p1          # x_i1 (takeStep) / x_i (compute_F)
    Probe* p2          # x_i2 (takeStep)
    Cols* XT           # fast mode, CSR data: X by columns for whole rows, else NULL
    double* dots       # its zeroed buffer of l dot products


cdef inline bint in_I0(const Solver* S, int i) noexcept nogil:
    return S.alpha[i] > 0.0 and S.alpha[i] < S.C


cdef inline bint up_set(double y, double alpha, double C) noexcept nogil:
    # I_up = I0 + I1 + I2 (LIBSVM's I_up(alpha)): alpha may move so that its
    # term y alpha increases
    if y > 0:
        return alpha < C
    return alpha > 0.0


cdef inline bint low_set(double y, double alpha, double C) noexcept nogil:
    # I_low = I0 + I3 + I4 (LIBSVM's I_low(alpha))
    if y > 0:
        return alpha > 0.0
    return alpha < C


cdef inline bint in_up(const Solver* S, int i) noexcept nogil:
    return up_set(S.y[i], S.alpha[i], S.C)


cdef inline bint in_low(const Solver* S, int i) noexcept nogil:
    return low_set(S.y[i], S.alpha[i], S.C)


cdef inline void _bounds_with(Solver* S, int i) noexcept nogil:
    """Take example i into b_up = min F over I_up and b_low = max F over I_low."""
    if in_up(S, i) and S.F[i] < S.b_up:
        S.b_up = S.F[i]
        S.i_up = i
    if in_low(S, i) and S.F[i] > S.b_low:
        S.b_low = S.F[i]
        S.i_low = i


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
        return _lru_hit(c, s)
    s = _lru_claim(c, i)
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
    if S.table != NULL:  # count mode's table: read, counted as computed
        S.k.n_evals += 1
        return S.table[<Py_ssize_t> i * S.l + j]
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
            elif S.table != NULL:  # count mode's table: read, counted as computed
                S.k.n_evals += 1
                v = S.table[<Py_ssize_t> i * S.l + j]
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


cdef tuple _trace_init(Trace* T, object history, long long history_every):
    """Point T at new sample buffers; returns the arrays behind them (keep them
    alive, and hand them to ``_trace_flush``)."""
    T.every = history_every if history is not None else 0
    T.n = 0
    T.cap = 4096
    it_arr = np.empty(T.cap, dtype=np.int64)
    obj_arr = np.empty(T.cap)
    t_arr = np.empty(T.cap)
    T.it = <long long*> cnp.PyArray_DATA(it_arr)
    T.obj = <double*> cnp.PyArray_DATA(obj_arr)
    T.t = <double*> cnp.PyArray_DATA(t_arr)
    return (it_arr, t_arr, obj_arr)


cdef inline void _trace_sample(Trace* T, long long step, double objective) noexcept nogil:
    """Keep (step, W, time) when ``step`` is a multiple of the stride (room permitting:
    the caller flushes at half capacity)."""
    if T.every > 0 and step % T.every == 0 and T.n < T.cap:
        T.it[T.n] = step
        T.obj[T.n] = objective
        T.t[T.n] = _now()
        T.n += 1


cdef void _trace_flush(Trace* T, object history, tuple buffers):
    """Hand the samples taken without the GIL to the trace (``History.record_batch``;
    ``buffers``: what ``_trace_init`` returned)."""
    cdef Py_ssize_t n = T.n
    if n:
        history.record_batch(buffers[0][:n], buffers[1][:n], buffers[2][:n])
    T.n = 0


cdef void _poll(Trace* T, object history, tuple buffers) except *:
    """Between steps, with the GIL: raise KeyboardInterrupt on Ctrl-C, and flush
    the trace's samples once its buffers are half full."""
    PyErr_CheckSignals()
    if T.n * 2 >= T.cap:
        _trace_flush(T, history, buffers)


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
        if S.table != NULL:  # count mode's table: its rows read, counted as computed
            r1 = S.table + <Py_ssize_t> i1 * S.l
            r2 = S.table + <Py_ssize_t> i2 * S.l
            # two values for every I0 example but i1 and i2 (I0 as before this step)
            S.k.n_evals += 2 * (S.ni0 - (S.i0_pos[i1] >= 0) - (S.i0_pos[i2] >= 0))
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
        _bounds_with(S, i1 if t == 0 else i2)
    for t in range(S.ni0):
        i = S.i0[t]
        if S.F[i] < S.b_up:
            S.b_up = S.F[i]
            S.i_up = i
        if S.F[i] > S.b_low:
            S.b_low = S.F[i]
            S.i_low = i
    S.n_steps += 1
    _trace_sample(&S.trace, S.n_steps, S.obj)
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
            _bounds_with(S, i)


cdef cnp.ndarray _minus_ones(Py_ssize_t n):
    # np.full is a Python-level function, ~3x the cost of np.empty: six calls
    # per binary problem showed in the profile of small one-vs-one fits
    cdef cnp.ndarray[cnp.int32_t, ndim=1] a = np.empty(n, dtype=np.int32)
    cdef Py_ssize_t i
    for i in range(n):
        a[i] = -1
    return a


cdef tuple _cache_init(RowCache* c, int l, int capacity, Py_ssize_t store_size):
    """An empty LRU cache of ``capacity`` slots of l values (``store_size``
    values allocated: capacity * l, or 1 where nothing will be cached); returns
    the arrays behind it, to be kept alive while it is used."""
    store = np.empty(store_size)
    # slot_of (l), owner, prev, next (capacity each): one allocation, all -1
    links = _minus_ones(l + 3 * <Py_ssize_t> capacity)
    cdef int* base = <int*> cnp.PyArray_DATA(links)
    c.store = <double*> cnp.PyArray_DATA(store)
    c.slot_of = base
    c.owner = base + l
    c.prev = base + l + capacity
    c.next = base + l + 2 * <Py_ssize_t> capacity
    c.head = -1
    c.tail = -1
    c.used = 0
    c.capacity = capacity
    c.l = l
    return (store, links)


cdef void _kernel_diagonal(KernelSpec* k, const Rows* X, int kind, double* kdiag, int l) except *:
    """K_ii of every example, computed (and counted) once; the RBF kernel's is 1
    and not evaluated (``kdiag`` holds ones already). |K_ij| <= sqrt(K_ii K_jj)
    for a PSD kernel: finite diagonal values keep every kernel value finite; an
    overflowing one would stall every step (eta = nan) into a trivial model, so
    it is refused before the first step."""
    cdef int i
    if kind == KERNEL_RBF:
        return
    for i in range(l):
        kdiag[i] = kernel_ij(k, X, i, X, i)
        if not isfinite(kdiag[i]):
            raise ValueError(f"K(x_{i}, x_{i}) = {kdiag[i]!r} before the first step: the "
                             f"kernel values overflow float64 (scale the features, or lower "
                             f"gamma / degree)")


def smo_solve(tuple x, const double[::1] y, double C, int kind, double gamma,
              double coef0, int degree, int modification, double tol, double eps_step,
              bint use_cache, double cache_size, long long max_iter, object history,
              const int[::1] order=None, const double[::1] alpha0=None,
              tuple columns=None, long long history_every=0, bint count_table=False):
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
    ``count_table`` (count mode only): the l x l kernel matrix computed first
    and read instead of recomputed, every value asked for counted as before
    (the module docstring); the same steps, alphas and count.

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
    cdef Cols XT
    cdef cnp.ndarray[cnp.float64_t, ndim=1] dots_arr
    cdef cnp.ndarray[cnp.float64_t, ndim=2] table_arr
    cdef long long evals_before

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
    S.table = NULL
    # the trace: every history_every-th successful step sampled without the GIL
    # into these buffers, handed to history.record_at when the GIL is held
    hist_buffers = _trace_init(&S.trace, history, history_every)
    S.cache = &cache
    S.p1 = &probe1
    S.p2 = &probe2
    _probe_init(&probe1, &X, &buf1[0], <int*> &cols[0])
    _probe_init(&probe2, &X, &buf2[0], <int*> &cols[0])

    _kernel_diagonal(&k, &X, kind, &kdiag_arr[0], l)

    if kind == KERNEL_PRECOMPUTED:
        if not X.dense or X.n_features != l:
            raise ValueError("a precomputed kernel needs the dense l x l Gram matrix")
        if use_cache:
            S.gram = X.data
    if count_table and not use_cache and kind != KERNEL_PRECOMPUTED:
        # every row as fast mode computes a cached row (probe, kernel_row): the
        # values kernel_ij gives, bitwise; not counted (the reads are)
        table_arr = np.empty((l, l))
        S.table = &table_arr[0, 0]
        evals_before = k.n_evals
        with nogil:
            for i in range(l):
                probe_load(&X, &probe1, i)
                kernel_row(&k, &probe1.R, probe1.row, &X, S.iota, l, S.table + <Py_ssize_t> i * l)
                S.table[<Py_ssize_t> i * l + i] = S.kdiag[i]
        k.n_evals = evals_before
    if use_cache and S.gram == NULL:
        capacity = <int> min(<double> l, cache_size * 1048576.0 / (8.0 * l))
        capacity = max(capacity, 2)
        keep_cache = _cache_init(&cache, l, capacity, <Py_ssize_t> capacity * l)
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
                            _poll(&S.trace, history, hist_buffers)
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
                            _poll(&S.trace, history, hist_buffers)
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
                            _poll(&S.trace, history, hist_buffers)
                n_changed = 0
        if examine_all:
            examine_all = False
        elif n_changed == 0:
            examine_all = True
        if history is not None:
            _trace_flush(&S.trace, history, hist_buffers)
            history(S.n_steps, S.obj)  # the end of the pass: kept as the last report if it is the last
    converged = not (n_changed > 0 or examine_all)
    stats = {"n_F": int(S.n_f), "n_F_evals": int(S.n_f_evals), "n_examine": int(n_examine)}
    return (alpha_arr, 0.5 * (S.b_up + S.b_low), int(S.n_steps), int(k.n_evals),
            bool(converged), S.b_up, S.b_low, S.obj, stats)


# ===========================================================================
# The second solver path: second-order working sets, shrinking, column cache
# ===========================================================================
# See the module docstring's second part ("working_set='second_order'") for the
# sources and the sign conventions. Everything below is kept in Keerthi's
# variables: F_i = sum_j alpha_j y_j K_ij - y_i = y_i G_i, with G = Q alpha - e
# LIBSVM's gradient (Q_ij = y_i y_j K_ij), so the kernel columns are cached as
# K (not Q) and no sign is multiplied in the inner loops.

cdef double TAU = 1e-12   # Fan, Chen, Lin (2005): a curvature a_ts <= 0 is replaced by tau


cdef struct Bounds:
    double up          # b_up: min F over I_up, reached at example i_up
    int i_up
    double low         # b_low: max F over I_low


cdef inline void _bounds_start(Bounds* B) noexcept nogil:
    B.up = INFINITY
    B.i_up = -1
    B.low = -INFINITY


cdef struct WSolver:
    Rows* X
    KernelSpec* k
    double* y
    double* alpha
    char* sets         # IN_UP | IN_LOW of each example, kept by _set_alpha
    double* F          # F_i, exact on the active set (all examples when nothing is shrunk)
    double* Fbar       # sum over alpha_j = C of C y_j K_ij, for every i (LIBSVM's G_bar, times y_i)
    double* kdiag
    int* active        # the active (unshrunk) examples, ascending; all of 0..l-1 when na == l
    int na
    int l
    double C
    double tol
    double b_up        # min F over I_up, max F over I_low: over the active set, after select_pair
    double b_low
    double obj         # dual objective W, maintained through the steps (for the trace)
    long long n_steps
    long long n_unshrink  # gradient reconstructions (the active set grown back to all)
    double* gram       # precomputed kernel: the Gram matrix, whose rows are the columns
    RowCache* cache    # LRU of kernel columns K(:, i), l doubles a slot, capacity from cache_size
    int* col_gen       # per slot: the shrinking phase in which its active entries were computed
    char* col_full     # per slot: all l entries valid
    int gen            # shrinking phase, + 1 each time the active set grows back to all examples
    Probe* p
    Cols* XT           # CSR data: X by columns (whole columns through the columns of X), else NULL
    double* dots       # zeroed buffer of l doubles for kernel_row_by_columns
    double nnz_per_row # CSR: mean nonzeros per row (the cost model of _compute_entries)
    double* tmp        # l doubles: kernel values of an index list before they are scattered
    int* idx           # l ints: scratch index list
    Trace trace
    # the next select_pair's first pass, done by take_pair's F update (one pass
    # over the active set a step instead of two); valid until the active set
    # or F changes otherwise (shrinking, reconstruction)
    bint scan_valid
    Bounds scan


cdef enum:
    IN_UP = 1    # bits of WSolver.sets: the example is in I_up, in I_low
    IN_LOW = 2


cdef inline void _set_alpha(WSolver* S, int i, double a) noexcept nogil:
    """The one way alpha_i changes on this path: it keeps ``sets[i]`` (up_set
    and low_set of the new value), which the scans read instead of comparing
    y_i and alpha_i with 0 and C for every example every step."""
    S.alpha[i] = a
    S.sets[i] = (IN_UP if up_set(S.y[i], a, S.C) else 0) | \
        (IN_LOW if low_set(S.y[i], a, S.C) else 0)


cdef inline void _bounds_see(Bounds* B, char sets, int s, double Fs) noexcept nogil:
    """One example of the scan for b_up (its first example in scan order on
    ties) and b_low: every such scan goes through here, so the scan fused into
    take_pair is select_pair's own. The conditions are combined with & (not
    and): one branch each, taken rarely, instead of two of which the first,
    the example's index set, is unpredictable."""
    if ((sets & IN_UP) != 0) & (Fs < B.up):
        B.up = Fs
        B.i_up = s
    if ((sets & IN_LOW) != 0) & (Fs > B.low):
        B.low = Fs


cdef void _dense_entries(WSolver* S, int i, const int* js, int m, double* out) noexcept nogil:
    """out[t] = K(x_i, x_{js[t]}) (js NULL: x_t) for dense X and a computed
    kernel, counted (m values): ``kernel_row``'s values bitwise (each dot
    product adds x_if x_jf for f = 0, 1, ... as ``rows_dot``'s dense branch,
    and ``kernel_from_dot`` maps it). Four rows are taken at once: their four
    sums are independent chains of additions, so the processor overlaps them
    (one sum at a time waits on the latency of each addition), while each sum
    keeps its own order, hence its value. On dense data the kernel values are
    most of the solver's time."""
    cdef int t, f, d = S.X.n_features, j0, j1, j2, j3
    cdef const double* xi = S.X.data + <Py_ssize_t> i * d
    cdef const double* x0
    cdef const double* x1
    cdef const double* x2
    cdef const double* x3
    cdef double s0, s1, s2, s3, v, sq_i = S.X.sqnorm[i]
    S.k.n_evals += m
    t = 0
    while t + 4 <= m:
        if js == NULL:
            j0 = t
            j1 = t + 1
            j2 = t + 2
            j3 = t + 3
        else:
            j0 = js[t]
            j1 = js[t + 1]
            j2 = js[t + 2]
            j3 = js[t + 3]
        x0 = S.X.data + <Py_ssize_t> j0 * d
        x1 = S.X.data + <Py_ssize_t> j1 * d
        x2 = S.X.data + <Py_ssize_t> j2 * d
        x3 = S.X.data + <Py_ssize_t> j3 * d
        s0 = 0.0
        s1 = 0.0
        s2 = 0.0
        s3 = 0.0
        for f in range(d):
            v = xi[f]
            s0 += v * x0[f]
            s1 += v * x1[f]
            s2 += v * x2[f]
            s3 += v * x3[f]
        out[t] = kernel_from_dot(S.k, s0, sq_i, S.X.sqnorm[j0])
        out[t + 1] = kernel_from_dot(S.k, s1, sq_i, S.X.sqnorm[j1])
        out[t + 2] = kernel_from_dot(S.k, s2, sq_i, S.X.sqnorm[j2])
        out[t + 3] = kernel_from_dot(S.k, s3, sq_i, S.X.sqnorm[j3])
        t += 4
    while t < m:
        j0 = t if js == NULL else js[t]
        x0 = S.X.data + <Py_ssize_t> j0 * d
        s0 = 0.0
        for f in range(d):
            s0 += xi[f] * x0[f]
        out[t] = kernel_from_dot(S.k, s0, sq_i, S.X.sqnorm[j0])
        t += 1


cdef void _compute_entries(WSolver* S, int i, const int* js, int m, double* col) noexcept nogil:
    """col[j] = K(x_i, x_j) for the m examples j of the list js (js NULL: all
    l examples, written in place), computed and counted (m values).

    CSR data: through the columns of X (``kernel_row_by_columns``: its cost is
    the nonzeros of the columns x_i touches, whatever m is) or by one dot
    product per example with x_i scattered into the probe (cost about m times
    the mean nonzeros of a row), whichever the counts say is cheaper: on a
    shrunk active set the second is, on the whole set the first. Both give
    the same values bitwise (see ``probe_load``)."""
    cdef int t, f
    cdef int* ind
    cdef double* val
    cdef int nnz
    cdef double cost_cols
    cdef bint by_columns = False
    if S.XT != NULL:
        get_row(S.X, i, &ind, &val, &nnz)
        cost_cols = m
        for t in range(nnz):
            f = ind[t]
            cost_cols += S.XT.indptr[f + 1] - S.XT.indptr[f]
        by_columns = cost_cols <= m * S.nnz_per_row + nnz
    if S.X.dense:
        if js == NULL:
            _dense_entries(S, i, NULL, m, col)
        else:
            _dense_entries(S, i, js, m, S.tmp)
            for t in range(m):
                col[js[t]] = S.tmp[t]
        return
    if js == NULL:
        if by_columns:
            kernel_row_by_columns(S.k, S.X, i, S.XT, NULL, m, col, S.dots)
        else:
            probe_load(S.X, S.p, i)
            kernel_row(S.k, &S.p.R, S.p.row, S.X, NULL, m, col)
        return
    if by_columns:
        kernel_row_by_columns(S.k, S.X, i, S.XT, js, m, S.tmp, S.dots)
    else:
        probe_load(S.X, S.p, i)
        kernel_row(S.k, &S.p.R, S.p.row, S.X, js, m, S.tmp)
    for t in range(m):
        col[js[t]] = S.tmp[t]


cdef void _fill_missing(WSolver* S, int i, double* col, const int* js, int m) noexcept nogil:
    """Compute the entries of column i still marked missing (NaN) among the m
    examples of js (NULL: all l)."""
    cdef int t, j, n = 0
    for t in range(m):
        j = t if js == NULL else js[t]
        if isnan(col[j]):
            S.idx[n] = j
            n += 1
    if n > 0:
        _compute_entries(S, i, S.idx, n, col)


cdef double* fetch_col(WSolver* S, int i, bint full) noexcept nogil:
    """The kernel column K(:, i), valid on the active set (``full``: on all l
    examples), from the LRU cache (Chang & Lin 2011, Sec. 5) or computed into
    its least recently used slot (Chang & Lin 2011, Sec. 5.2).

    While examples are shrunk only the active entries are computed (as LIBSVM's
    get_Q(i, active_size)); the others are marked missing (NaN) and filled in
    when the column is needed on a larger set: all examples (``full``, or the
    active set grown back to all), or the active set of a later shrinking phase
    (``col_gen``: within one phase the active set only shrinks, so the entries
    computed for it stay sufficient). A slot holds l values whatever is valid
    in it, so the budget in bytes is capacity * l * 8 <= cache_size MB."""
    cdef RowCache* c = S.cache
    cdef int s, t
    cdef double* col
    if S.gram != NULL:
        return S.gram + <Py_ssize_t> i * S.l
    s = c.slot_of[i]
    if s >= 0:
        col = _lru_hit(c, s)
        if S.col_full[s]:
            return col
        if full or S.na == S.l:
            _fill_missing(S, i, col, NULL, S.l)
            S.col_full[s] = 1
        elif S.col_gen[s] != S.gen:
            _fill_missing(S, i, col, S.active, S.na)
            S.col_gen[s] = S.gen
        return col
    s = _lru_claim(c, i)
    col = c.store + <Py_ssize_t> s * c.l
    if full or S.na == S.l:
        _compute_entries(S, i, NULL, S.l, col)
        S.col_full[s] = 1
    else:
        for t in range(S.l):
            col[t] = NAN
        _compute_entries(S, i, S.active, S.na, col)
        S.col_full[s] = 0
        S.col_gen[s] = S.gen
    col[i] = S.kdiag[i]  # the diagonal as used everywhere else (K_ii = 1 for rbf)
    return col


cdef int select_pair(WSolver* S, int* out_i, int* out_j) noexcept nogil:
    """WSS 2 of Fan, Chen, Lin (2005) over the active set, in F: i = argmin of
    F over I_up (their i = argmax -y_t G_t, i.e. Keerthi's i_up, b_up = F_i);
    j = argmin over t in I_low with F_t > b_up of -(F_t - b_up)^2 / a_it,
    a_it = K_ii + K_tt - 2 K_it (their -b_it^2 / a_it with b_it = F_t - F_i; a_it <=
    0 replaced by tau). Also sets S.b_up and S.b_low = max of F over I_low.
    Returns 1 when the active set is optimal: b_up > b_low - 2 tol, Keerthi's
    test and the current path's, which is LIBSVM's m(alpha) - M(alpha) < eps
    with m = -b_up, M = -b_low and eps = 2 tol.

    The division is skipped for a candidate that cannot win: with B = -best >
    0 and num = (F_t - b_up)^2, o_t = -fl(num / a) <= best needs fl(num / a) >=
    B, and num < fl(fl(B (1 - 2^-40)) a) gives num / a < B (1 - 2^-40)(1 +
    2^-53)^2 < B (1 - 2^-52) <= the double below B, so fl(num / a) < B (fl is
    monotone). Every candidate that can win is divided as before, so the
    choice is bitwise the plain loop's. The bound holds where the products
    round relatively, in the normal range: B > 1e-250 and fl(fl(B ..) a) >
    1e-300 are required, else the candidate is divided."""
    cdef int t, s, i, j = -1
    cdef double b_up, b_low, Fs, diff, num, lim, quad, o, best = INFINITY, cut = -1.0
    cdef double Kii
    cdef double* Ki
    cdef bint all_active = S.na == S.l
    cdef int na = S.na
    cdef const int* active = S.active
    cdef const double* F = S.F
    cdef const double* kdiag = S.kdiag
    cdef const char* sets = S.sets
    cdef Bounds B
    if S.scan_valid:   # the same scan, in the same order, made by the last take_pair
        B = S.scan
        S.scan_valid = False
    else:
        _bounds_start(&B)
        for t in range(na):
            s = t if all_active else active[t]
            _bounds_see(&B, sets[s], s, F[s])
    i, b_up, b_low = B.i_up, B.up, B.low
    S.b_up = b_up
    S.b_low = b_low
    if i < 0 or b_up > b_low - 2.0 * S.tol:
        return 1
    Ki = fetch_col(S, i, False)
    Kii = kdiag[i]
    for t in range(na):
        s = t if all_active else active[t]
        diff = F[s] - b_up
        if (diff > 0.0) & ((sets[s] & IN_LOW) != 0):
            quad = Kii + kdiag[s] - 2.0 * Ki[s]
            if quad <= 0.0:
                quad = TAU
            num = diff * diff
            lim = cut * quad
            if (num < lim) & (lim > 1e-300):
                continue   # o > best: see the docstring
            o = -num / quad
            if o <= best:
                best = o
                j = s
                cut = -best * (1.0 - 9.094947017729282e-13) if -best > 1e-250 else -1.0
    if j < 0:
        return 1
    out_i[0] = i
    out_j[0] = j
    return 0


cdef void _update_Fbar(WSolver* S, int i, double was, double now) noexcept nogil:
    """Keep Fbar when alpha_i moves onto or off the upper bound C (LIBSVM's
    G_bar update, over all l examples: shrunk ones need it to be rebuilt)."""
    cdef bint at_c_before = was == S.C, at_c_now = now == S.C
    cdef double c
    cdef double* col
    cdef int t
    if at_c_before == at_c_now:
        return
    c = S.C * S.y[i] if at_c_now else -S.C * S.y[i]
    col = fetch_col(S, i, True)
    for t in range(S.l):
        S.Fbar[t] += c * col[t]


cdef int take_pair(WSolver* S, int i, int j) noexcept nogil:
    """Solve the two-variable subproblem on (i, j), i in I_up, j in I_low, F_j >
    F_i, and update F on the active set. The feasible direction is d_i = y_i s,
    d_j = -y_j s (s >= 0 keeps sum y alpha), along which W changes by
    s (F_i - F_j) + s^2 a_ij / 2; the minimiser s = (F_j - F_i) / a_ij (a_ij
    <= 0 replaced by tau, Fan et al.) is clipped to the box. A variable whose
    clip is reached is set on its bound exactly, so the index sets are decided
    by exact comparisons. Returns 0 when neither multiplier changed (the step
    is below the multipliers' rounding: a stall), 1 otherwise.

    The loop that updates F also makes the next select_pair's scan for b_up
    (and its example) and b_low, over the same active set in the same order,
    so the pair chosen is the one a separate scan chooses, bitwise; it saves a
    pass over the active set a step, which is what a step costs once the
    kernel columns are cached (HardMarginSVM's capped problems)."""
    cdef double* Ki = fetch_col(S, i, False)
    cdef double* Kj          # fetched second: capacity >= 2 keeps column i
    cdef double yi = S.y[i], yj = S.y[j], ai = S.alpha[i], aj = S.alpha[j]
    cdef double Fi = S.F[i], Fj = S.F[j], kii = S.kdiag[i], kjj = S.kdiag[j], kij
    cdef double quad, step, room_i, room_j, ni, nj, di, dj, ci, cj
    cdef double Fs
    cdef int t, s
    cdef int na = S.na
    cdef bint all_active = S.na == S.l
    cdef const int* active = S.active
    cdef double* F = S.F
    cdef const char* sets = S.sets
    cdef Bounds B
    Kj = fetch_col(S, j, False)
    kij = Ki[j]
    quad = kii + kjj - 2.0 * kij
    step = (Fj - Fi) / (quad if quad > 0.0 else TAU)
    room_i = S.C - ai if yi > 0 else ai      # how far s may go before alpha_i meets its bound
    room_j = aj if yj > 0 else S.C - aj
    if step >= room_i or step >= room_j:
        if room_i <= room_j:
            step = room_i
            ni = S.C if yi > 0 else 0.0
            if room_j == room_i:
                nj = 0.0 if yj > 0 else S.C
            else:
                nj = aj - yj * step
        else:
            step = room_j
            nj = 0.0 if yj > 0 else S.C
            ni = ai + yi * step
    else:
        ni = ai + yi * step
        nj = aj - yj * step
    # rounding can leave a sum an ulp outside the box
    ni = min(max(ni, 0.0), S.C)
    nj = min(max(nj, 0.0), S.C)
    if ni == ai and nj == aj:
        return 0
    di = ni - ai
    dj = nj - aj
    S.obj += yi * Fi * di + yj * Fj * dj + 0.5 * (kii * di * di + kjj * dj * dj) \
        + yi * yj * kij * di * dj
    ci = yi * di
    cj = yj * dj
    _set_alpha(S, i, ni)   # before the loop: its scan reads the index sets after the step
    _set_alpha(S, j, nj)
    # The loop reads locals only: the stores to F may alias anything reached
    # through S (extensions are built with -fno-strict-aliasing), so fields of
    # S read in the loop would be loaded again at every example.
    _bounds_start(&B)   # a local: the stores to F cannot alias it, so it stays in registers
    for t in range(na):
        s = t if all_active else active[t]
        Fs = F[s] + (ci * Ki[s] + cj * Kj[s])
        F[s] = Fs
        _bounds_see(&B, sets[s], s, Fs)
    S.scan = B
    S.scan_valid = True
    _update_Fbar(S, i, ai, ni)
    _update_Fbar(S, j, aj, nj)
    S.n_steps += 1
    _trace_sample(&S.trace, S.n_steps, S.obj)
    return 1


cdef void reconstruct_and_unshrink(WSolver* S) noexcept nogil:
    """Make every example active again with its exact F (Chang & Lin 2011,
    Sec. 5.1, gradient reconstruction): for a shrunk example k, F_k = Fbar_k - y_k +
    sum over free j of alpha_j y_j K_kj (the bounded-at-C part is Fbar, the
    zeros add nothing; free examples are never shrunk, so they are active).
    As LIBSVM, the kernel values come either from the columns of the free
    examples on all l entries or from the columns of the shrunk examples on
    the active entries, whichever computes fewer."""
    cdef int t, u, k, j, n_free = 0, n_inactive
    cdef double s
    cdef double* col
    if S.na == S.l:
        return
    S.scan_valid = False   # F and the active set change
    n_inactive = S.l - S.na
    for t in range(S.na):
        if S.alpha[S.active[t]] > 0.0 and S.alpha[S.active[t]] < S.C:
            n_free += 1
    # the shrunk examples listed after the active ones (S.active has room for
    # l; both parts ascending), each starting from F_k = Fbar_k - y_k
    u = 0
    t = 0
    for k in range(S.l):
        if t < S.na and S.active[t] == k:
            t += 1
        else:
            S.active[S.na + u] = k
            u += 1
    for u in range(n_inactive):
        k = S.active[S.na + u]
        S.F[k] = S.Fbar[k] - S.y[k]
    if <double> n_free * S.l > 2.0 * S.na * n_inactive:
        # many free examples: one column per shrunk example, on the active entries
        for u in range(n_inactive):
            k = S.active[S.na + u]
            col = fetch_col(S, k, False)
            s = 0.0
            for t in range(S.na):
                j = S.active[t]
                if S.alpha[j] > 0.0 and S.alpha[j] < S.C:
                    s += S.alpha[j] * S.y[j] * col[j]
            S.F[k] += s
    else:
        # few free examples: their whole columns
        for t in range(S.na):
            j = S.active[t]
            if S.alpha[j] > 0.0 and S.alpha[j] < S.C:
                col = fetch_col(S, j, True)
                s = S.alpha[j] * S.y[j]
                for u in range(n_inactive):
                    k = S.active[S.na + u]
                    S.F[k] += s * col[k]
    for k in range(S.l):
        S.active[k] = k
    S.na = S.l
    S.gen += 1
    S.n_unshrink += 1


cdef bint _be_shrunk(const WSolver* S, int k, double b_up, double b_low) noexcept nogil:
    """LIBSVM's be_shrunk in F: an example on a bound that is in I_up only
    (y = +1 at 0, y = -1 at C) can pair only with an I_low example of larger
    F, so it is set aside while F_k > b_low; one in I_low only (y = +1 at C, y
    = -1 at 0) while F_k < b_up. Free examples stay."""
    cdef double a = S.alpha[k]
    if a > 0.0 and a < S.C:
        return False
    if (S.y[k] > 0) == (a == 0.0):   # in I_up only
        return S.F[k] > b_low
    return S.F[k] < b_up


cdef void do_shrinking(WSolver* S, bint* unshrunk) noexcept nogil:
    """Chang & Lin (2011), Sec. 5.1 (LIBSVM's do_shrinking): b_up and b_low on
    the active set; the first time the gap b_low - b_up falls to 10 eps (eps =
    2 tol) every example is made active again with its exact F, so the
    shrinking decisions of the end game are taken on the whole set; then the
    examples that satisfy _be_shrunk leave the active set (kept ascending)."""
    cdef int t, s, n = 0
    cdef double b_up, b_low
    cdef Bounds B
    S.scan_valid = False   # the active set changes
    _bounds_start(&B)
    for t in range(S.na):
        s = S.active[t]
        _bounds_see(&B, S.sets[s], s, S.F[s])
    b_up, b_low = B.up, B.low
    if not unshrunk[0] and b_low - b_up <= 10.0 * 2.0 * S.tol:
        unshrunk[0] = True
        reconstruct_and_unshrink(S)
    for t in range(S.na):
        s = S.active[t]
        if not _be_shrunk(S, s, b_up, b_low):
            S.active[n] = s
            n += 1
    S.na = n


def smo_solve_second_order(tuple x, const double[::1] y, double C, int kind, double gamma,
                           double coef0, int degree, double tol, double cache_size,
                           bint shrinking, long long max_iter, object history,
                           const double[::1] alpha0=None, tuple columns=None,
                           long long history_every=0):
    """Train the binary SVM on rows ``x`` with second-order working sets,
    shrinking and a kernel-column cache (see the module docstring's second part).

    Arguments as ``smo_solve`` (``kind``..``degree`` the kernel, ``columns`` the
    CSR matrix by columns, ``alpha0`` a feasible start); ``cache_size`` in MB
    bounds the column cache (at least two columns); ``shrinking`` as LIBSVM's
    -h. ``max_iter`` counts successful steps (pairs whose multipliers changed).

    Returns the tuple of ``smo_solve``, ``(alpha, b, n_iter, n_kernel_evals,
    converged, b_up, b_low, objective, stats)``, with b = (b_up + b_low) / 2
    when converged and LIBSVM's mean F over the free examples when stopped early,
    b_up and b_low taken over every example with exact F at the end (shrunk
    examples reconstructed), ``converged`` True exactly when b_up > b_low - 2
    tol there, ``objective`` W = 1/2 sum_i alpha_i (y_i F_i - 1) from the
    final F, and ``stats`` with ``n_F`` = ``n_F_evals`` = 0 (no F is computed
    from scratch after the start), ``n_examine`` = 0, ``n_unshrink`` (gradient
    reconstructions) and ``stalled`` (True when a selected pair's step was
    below rounding, which ends the solve unconverged).
    """
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef int l = X.n_rows
    if l < 2 or y.shape[0] != l:
        raise ValueError("need at least two examples and one label per row")
    cdef KernelSpec k = kernel_spec(kind, gamma, coef0, degree)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] y_arr = np.ascontiguousarray(y, dtype=np.float64)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] alpha_arr = np.zeros(l)
    cdef int nf = max(X.n_features, 1)
    # The solver's other arrays in two blocks (F, Fbar, kdiag, tmp, the probe's
    # buffer; active, idx, the probe's columns), filled below: a one-vs-one fit
    # of an 11-class set makes 55 small problems, where a dozen allocations
    # each showed in the profile.
    cdef cnp.ndarray[cnp.float64_t, ndim=1] work = np.empty(4 * <Py_ssize_t> l + nf)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] iwork = np.empty(2 * <Py_ssize_t> l + nf,
                                                           dtype=np.int32)
    cdef double* F_ = &work[0]
    cdef double* Fbar_ = F_ + l
    cdef double* kdiag_ = Fbar_ + l
    cdef double* tmp_ = kdiag_ + l
    cdef double* buf_ = tmp_ + l
    cdef int* active_ = <int*> &iwork[0]
    cdef int* idx_ = active_ + l
    cdef int* cols_ = idx_ + l
    cdef cnp.ndarray[cnp.int32_t, ndim=1] gen_arr
    cdef cnp.ndarray[cnp.int8_t, ndim=1] full_arr
    cdef cnp.ndarray[cnp.int8_t, ndim=1] sets_arr = np.empty(l, dtype=np.int8)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] dots_arr
    cdef WSolver S
    cdef RowCache cache
    cdef Probe probe
    cdef Cols XT
    cdef int i, j, t, capacity, counter
    cdef bint optimal = False, stalled = False, unshrunk = False
    cdef long long calls = 0
    cdef double a, balance = 0.0, total = 0.0, snap0, largest = 0.0, c
    cdef double* col

    cdef bint has_pos = False, has_neg = False
    for i in range(l):   # a C loop: two np.any calls cost more than a small problem's setup
        if y_arr[i] > 0:
            has_pos = True
        elif y_arr[i] < 0:
            has_neg = True
        F_[i] = -y_arr[i]   # alpha = 0: F_i = -y_i
        Fbar_[i] = 0.0
        kdiag_[i] = 1.0
        tmp_[i] = 0.0
        active_[i] = i
        idx_[i] = 0
    for i in range(nf):
        buf_[i] = 0.0
        cols_[i] = i
    if not (has_pos and has_neg):
        raise ValueError("y must contain both classes (+1 and -1)")
    S.X = &X
    S.k = &k
    S.y = &y_arr[0]
    S.alpha = &alpha_arr[0]
    S.sets = <char*> &sets_arr[0]
    S.F = F_
    S.Fbar = Fbar_
    S.kdiag = kdiag_
    S.active = active_
    S.na = l
    S.l = l
    S.C = C
    S.tol = tol
    S.obj = 0.0
    S.n_steps = 0
    S.scan_valid = False
    S.n_unshrink = 0
    S.gram = NULL
    S.cache = &cache
    S.gen = 0
    S.p = &probe
    S.tmp = tmp_
    S.idx = idx_
    S.XT = NULL
    S.dots = NULL
    S.nnz_per_row = 0.0
    _probe_init(&probe, &X, buf_, cols_)
    hist_buffers = _trace_init(&S.trace, history, history_every)

    _kernel_diagonal(&k, &X, kind, kdiag_, l)
    if kind == KERNEL_PRECOMPUTED:
        if not X.dense or X.n_features != l:
            raise ValueError("a precomputed kernel needs the dense l x l Gram matrix")
        S.gram = X.data   # its rows are the columns: nothing computed or cached
        capacity = 2
    else:
        capacity = <int> min(<double> l, cache_size * 1048576.0 / (8.0 * l))
        capacity = max(capacity, 2)
    # (with a precomputed kernel the cache below is allocated but never used)
    keep_cache = _cache_init(&cache, l, capacity,
                             <Py_ssize_t> capacity * l if S.gram == NULL else 1)
    gen_arr = np.zeros(capacity, dtype=np.int32)
    full_arr = np.zeros(capacity, dtype=np.int8)
    S.col_gen = <int*> &gen_arr[0]
    S.col_full = <char*> &full_arr[0]
    if S.gram == NULL and not X.dense and columns is not None:
        keep_cols = cols_init(&XT, columns[0], columns[1], columns[2])
        dots_arr = np.zeros(l)
        S.XT = &XT
        S.dots = &dots_arr[0]
        S.nnz_per_row = X.indptr[l] / <double> l

    if alpha0 is not None:
        # a feasible start (warm start), checked and put on the bounds as smo_solve's
        if alpha0.shape[0] != l:
            raise ValueError(f"alpha0 has {alpha0.shape[0]} entries for {l} examples")
        for i in range(l):
            if alpha0[i] > largest:
                largest = alpha0[i]
        snap0 = (2.0 * 1e-12 + 1e-15) * largest
        for i in range(l):
            a = alpha0[i]
            if not (0.0 <= a <= C):
                raise ValueError(f"alpha0[{i}] = {a!r} is outside [0, C = {C!r}]")
            if a < snap0:
                a = 0.0
            elif a > C - (2.0 * 1e-12 + 1e-15) * C:
                a = C
            alpha_arr[i] = a
            balance += y_arr[i] * a
            total += a
        if abs(balance) > 1e-9 * max(total, 1.0):
            raise ValueError(f"alpha0 violates sum_i y_i alpha_i = 0 (it is {balance!r})")
        # F and Fbar from the columns of the nonzero multipliers (as LIBSVM's
        # gradient initialisation); the columns stay cached for the steps
        with nogil:
            for j in range(l):
                a = S.alpha[j]
                if a > 0.0:
                    col = fetch_col(&S, j, True)
                    c = a * S.y[j]
                    for t in range(l):
                        S.F[t] += c * col[t]
                    if a == C:
                        c = C * S.y[j]
                        for t in range(l):
                            S.Fbar[t] += c * col[t]
        for i in range(l):
            S.obj += 0.5 * S.alpha[i] * (S.y[i] * S.F[i] - 1.0)

    for i in range(l):   # the index sets of the start
        _set_alpha(&S, i, S.alpha[i])

    # the main loop (LIBSVM's Solver::Solve): shrink every min(l, 1000) steps;
    # when the active set is optimal, rebuild F on every example and test again
    counter = min(l, 1000) + 1
    while S.n_steps < max_iter:
        with nogil:
            while S.n_steps < max_iter:
                if shrinking:
                    counter -= 1
                    if counter == 0:
                        counter = min(l, 1000)
                        do_shrinking(&S, &unshrunk)
                if select_pair(&S, &i, &j):
                    if S.na == l:
                        optimal = True
                        break
                    reconstruct_and_unshrink(&S)
                    if select_pair(&S, &i, &j):
                        optimal = True
                        break
                    counter = 1   # shrink again at the next step
                if not take_pair(&S, i, j):
                    stalled = True
                    break
                calls += 1
                if calls % 1024 == 0:
                    break   # out of nogil: poll Ctrl-C, flush the trace
        PyErr_CheckSignals()
        if history is not None and (S.trace.n * 2 >= S.trace.cap or optimal or stalled):
            _trace_flush(&S.trace, history, hist_buffers)
        if optimal or stalled:
            break

    # the final state on every example: exact F, b_up / b_low over all
    with nogil:
        if S.na < l:
            reconstruct_and_unshrink(&S)
        if not optimal:
            select_pair(&S, &i, &j)   # only for b_up / b_low over all examples
    converged = bool(S.b_up > S.b_low - 2.0 * tol)
    # b: converged, the midpoint of [b_up, b_low], where every free example's F
    # lies (an interval narrower than 2 tol, so any rule agrees to tol). Stopped
    # early (a step cap), the midpoint is set by the two most violating examples
    # and can lie far from where the free examples put b: HardMarginSVM at its
    # 1e6-step cap on Diabetes (outer fold 0, theta 2^-8) had b_up 75.9, b_low
    # 85.8 and the free F at 85.8, and the midpoint's model scored 35 % against
    # 74 %. Then LIBSVM's rule, the mean F over the free examples (Chang and
    # Lin 2011, Sec. 4.1.5: rho; the midpoint when none is free).
    b = 0.5 * (S.b_up + S.b_low)
    if not converged:
        free_sum, n_free = 0.0, 0
        for i in range(l):
            if 0.0 < S.alpha[i] < C:
                free_sum += S.F[i]
                n_free += 1
        if n_free > 0:
            b = free_sum / n_free
    obj = 0.0
    for i in range(l):
        obj += 0.5 * S.alpha[i] * (S.y[i] * S.F[i] - 1.0)
    if history is not None:
        _trace_flush(&S.trace, history, hist_buffers)
        history(S.n_steps, obj)
    stats = {"n_F": 0, "n_F_evals": 0, "n_examine": 0, "n_unshrink": int(S.n_unshrink),
             "stalled": bool(stalled)}
    return (alpha_arr, b, int(S.n_steps), int(k.n_evals),
            converged, S.b_up, S.b_low, obj, stats)



def smo_solve_second_order_pairs(tuple x, const cnp.intp_t[::1] labels, list pairs,
                                 double C, int kind, double gamma, double coef0, int degree,
                                 double tol, double cache_size, bint shrinking,
                                 long long max_iter, list histories, list alpha0s,
                                 long long history_every):
    """One-vs-one on dense rows ``x`` (an ``as_rows_input`` tuple, a computed
    kernel): for each ``(neg, pos)`` of ``pairs`` the binary problem on the rows
    whose ``labels`` are ``neg`` or ``pos``, in ascending row order, ``pos``
    as +1, solved by ``smo_solve_second_order``. Nothing differs from cutting
    the rows in Python and calling it per problem (the rows' values, their
    squared norms, hence every step, are the same bitwise); what this saves is
    the Python around 55 small problems of an 11-class fit (issue 25: about
    a third of a 10-fold cross-validation of Vowel).

    ``histories`` and ``alpha0s``: one entry per pair (a History or None, an
    alpha0 or None). Returns one tuple per pair: ``(rows, y, solved)`` with
    ``solved`` what ``smo_solve_second_order`` returns."""
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    if not X.dense or kind == KERNEL_PRECOMPUTED:
        raise ValueError("smo_solve_second_order_pairs takes dense rows and a computed kernel")
    if labels.shape[0] != X.n_rows:
        raise ValueError(f"{labels.shape[0]} labels for {X.n_rows} rows")
    cdef Py_ssize_t n = X.n_rows, d = X.n_features, i, m, r, f
    cdef cnp.intp_t neg, pos, c
    cdef cnp.ndarray[cnp.intp_t, ndim=1] rows_arr
    cdef cnp.ndarray[cnp.float64_t, ndim=1] y_arr, sq_arr
    cdef cnp.ndarray[cnp.float64_t, ndim=2] data_arr
    indices = x[1]   # dense rows share 0..d-1
    out = []
    for p, (neg, pos) in enumerate(pairs):
        m = 0
        for i in range(n):
            if labels[i] == neg or labels[i] == pos:
                m += 1
        rows_arr = np.empty(m, dtype=np.intp)
        y_arr = np.empty(m)
        sq_arr = np.empty(m)
        data_arr = np.empty((m, d))
        r = 0
        for i in range(n):
            c = labels[i]
            if c == neg or c == pos:
                rows_arr[r] = i
                y_arr[r] = 1.0 if c == pos else -1.0
                sq_arr[r] = X.sqnorm[i]
                for f in range(d):
                    data_arr[r, f] = X.data[i * d + f]
                r += 1
        solved = smo_solve_second_order(
            (data_arr, indices, None, sq_arr, <int> m, <int> d, True), y_arr, C, kind, gamma,
            coef0, degree, tol, cache_size, shrinking, max_iter, histories[p], alpha0s[p], None,
            history_every)
        out.append((rows_arr, y_arr, solved))
    return out


def alpha_summary(const double[::1] alpha, const double[::1] y):
    """One pass over the multipliers for the final check and the model
    (``repro/solvers/smo.py``'s ``_result``): ``(lo, hi, balance, total,
    support, dual_coef)`` with lo / hi the smallest and largest alpha_i (NaN
    if any is NaN), balance = sum_i y_i alpha_i, total = sum_i alpha_i (both
    in index order), support the indices with alpha_i > 0 and dual_coef their
    alpha_i y_i. Five NumPy reductions and two cuts cost several times the
    Python of a small one-vs-one problem."""
    cdef Py_ssize_t n = alpha.shape[0], i, m = 0
    if n == 0 or y.shape[0] != n:
        raise ValueError("alpha and y must be non-empty and of equal length")
    cdef double a, lo = alpha[0], hi = alpha[0], balance = 0.0, total = 0.0
    cdef bint nan = False
    for i in range(n):
        a = alpha[i]
        if isnan(a):
            nan = True
        if a < lo:
            lo = a
        if a > hi:
            hi = a
        balance += y[i] * a
        total += a
        if a > 0.0:
            m += 1
    cdef cnp.ndarray[cnp.intp_t, ndim=1] support = np.empty(m, dtype=np.intp)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] dual = np.empty(m)
    m = 0
    for i in range(n):
        if alpha[i] > 0.0:
            support[m] = i
            dual[m] = alpha[i] * y[i]
            m += 1
    if nan:
        lo = hi = NAN
    return lo, hi, balance, total, support, dual
