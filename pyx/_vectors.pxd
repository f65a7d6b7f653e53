# cython: language_level=3
"""A scaled weight vector with a lazily averaged copy, for the SGD solvers.

Pegasos (pegasos_slides.txt: w <- (1 - eta_t lambda) w + eta_t/k sum y_i x_i,
then the projection onto the ball of radius 1/sqrt(lambda)) and LDM's averaged
SGD (ldm.txt) shrink the whole weight vector at every step but add only a few
sparse rows. Stored as w = a * v (the scikit-learn ``WeightVector`` /
lightning ``sgd_fast`` layout), the shrink is one multiplication of the scalar
a, and a row costs O(nnz(x_i)):

    w *= s          a <- a s,                      ||w||^2 <- s^2 ||w||^2
    w += b x_i      v <- v + (b / a) x_i,          ||w||^2 <- ||w||^2 + 2 b w.x_i + b^2 ||x_i||^2
    w . x_i         a (v . x_i)

||w||^2 is tracked, so the projection ``wv_project_ball`` is O(1). When |a|
falls below 1e-9 (Pegasos' a_t = prod (1 - 1/s) = 1/t reaches it after 1e9
steps, faster with larger steps) a is folded into v (O(d)), before the
quotient b / a can overflow or a underflow; the fold also recomputes ||w||^2
exactly, so the drift of the tracked value stays bounded. A shrink by exactly
0 (Pegasos' first step, eta_1 lambda = 1) zeroes v (O(d)) instead of leaving
a = 0, which no later b / a could survive.

Averaging (ASGD). The average of the iterates since a restart,
wbar_t = (1 / (t - t0 + 1)) sum_{s=t0..t} w_s, or any running average
wbar_t = (1 - mu_t) wbar_{t-1} + mu_t w_t, is kept as

    wbar = (u + c v) / beta

with a second caller-owned vector u and two scalars. The idea, an auxiliary
vector so that a sparse step leaves the average O(nnz), is that of Xu 2011,
"Towards optimal one pass large scale learning with averaged stochastic
gradient descent" (its sparse implementation of ASGD), also used by
scikit-learn's ``WeightVector.add_average``; the recurrence below is derived
here for this representation:

    averaging step  beta <- beta / (1 - mu),  c <- c + mu a beta     O(1)
                    (uniform mu = 1/k: beta = k, c <- c + a exactly)
    w += b x_i      u <- u - c (b / a) x_i     (so that u + c v is unchanged)  O(nnz)
    w *= s          nothing (a is not part of the representation)          O(1)
    materialise     u <- u + c v,  c <- 0                                  O(d), rare
    read wbar       (u + c v) / beta                                       O(d)

beta grows like 1 / prod(1 - mu); with the uniform schedule it is just k, and
when another schedule makes it exceed 1e100 it is folded into u and c (O(d)).

Rounding. u and c v can both be much larger than their sum beta wbar, and
wbar then loses the digits they cancel: an add changes u by c (b / a) x, so
the loss grows with c / (a beta), the mean scale of the averaged iterates over
the current scale. It stays near 1 while a is steady (uniform averaging keeps
it exactly 1) and near log t for Pegasos' a_t = 1/t; a steep shrink (a test
with w *= 1e-4 steps lost 8 digits) makes it huge. So whenever a shrink takes
|c| above 100 |a| beta, and at every fold, the average is materialised,
u <- u + c v, c <- 0 (O(d)): at most about two digits are lost, and the O(d)
is paid only after the scale has fallen a hundredfold below the mean scale of
the averaged iterates, which a steady SGD schedule does rarely.

Before the first averaging step of a run (``avg_count`` 0) the average is not
represented, adds leave u alone, and ``wv_average_to_dense`` returns w itself;
the first step (or a step with mu >= 1) zeroes u (O(d)).

Only structs and inline functions (a cdef class in a flat .pxd does not compile
under a dotted module name); the arrays are owned by the caller, who keeps them
alive while the struct is used.
"""
from libc.math cimport fabs, sqrt
from libc.string cimport memset
from _rows cimport Rows, get_row

cdef struct WeightVector:
    double* v          # w = a * v; n_features entries owned by the caller
    double a
    double sqnorm      # ||w||^2, tracked
    int n_features
    double* u          # the average's auxiliary vector (NULL: no averaging)
    double avg_c       # wbar = (u + avg_c v) / avg_beta
    double avg_beta
    long long avg_count  # iterates in the average since its (re)start


cdef inline void wv_init(WeightVector* W, double* v, int n_features, double* u) noexcept nogil:
    """w = v (its current contents: zeros for a cold start); u: a buffer of
    n_features doubles for the average, or NULL for none."""
    cdef int j
    W.v = v
    W.a = 1.0
    W.n_features = n_features
    W.sqnorm = 0.0
    for j in range(n_features):
        W.sqnorm += v[j] * v[j]
    W.u = u
    W.avg_c = 0.0
    W.avg_beta = 1.0
    W.avg_count = 0


cdef inline void _wv_average_materialise(WeightVector* W) noexcept nogil:
    """u <- u + c v, c <- 0 (O(d)); the average is unchanged (see Rounding)."""
    cdef int j
    cdef double c = W.avg_c
    if W.u == NULL or W.avg_count == 0 or c == 0.0:
        return
    for j in range(W.n_features):
        W.u[j] += c * W.v[j]
    W.avg_c = 0.0


cdef inline void wv_fold(WeightVector* W) noexcept nogil:
    """v <- a v, a <- 1 (O(d)), with ||w||^2 recomputed exactly; w and the
    average are unchanged (the average is materialised first, so c v does not
    have to follow v)."""
    cdef int j
    cdef double a = W.a
    cdef double s = 0.0
    _wv_average_materialise(W)
    if a == 0.0:
        memset(W.v, 0, W.n_features * sizeof(double))
    else:
        for j in range(W.n_features):
            W.v[j] *= a
            s += W.v[j] * W.v[j]
    W.a = 1.0
    W.sqnorm = s


cdef inline void wv_scale(WeightVector* W, double s) noexcept nogil:
    """w *= s: O(1), except the rare fold or materialisation (O(d))."""
    W.a *= s
    W.sqnorm *= s * s
    if fabs(W.a) < 1e-9:  # see the module docstring
        wv_fold(W)
    elif W.u != NULL and W.avg_count > 0 and fabs(W.avg_c) > 100.0 * fabs(W.a) * W.avg_beta:
        _wv_average_materialise(W)


cdef inline double wv_dot_row(const WeightVector* W, const Rows* R, int i) noexcept nogil:
    """w . x_i in O(nnz(x_i))."""
    cdef int* ind
    cdef double* val
    cdef int nnz, k
    cdef double s = 0.0
    get_row(R, i, &ind, &val, &nnz)
    for k in range(nnz):
        s += val[k] * W.v[ind[k]]
    return W.a * s


cdef inline void wv_add_row(WeightVector* W, const Rows* R, int i, double b) noexcept nogil:
    """w += b x_i in O(nnz(x_i)); reads ||x_i||^2 from R.sqnorm (filled by
    as_rows_input). CSR indices are duplicate-free, so the dot with the old v
    and the update share one pass."""
    cdef int* ind
    cdef double* val
    cdef int nnz, k, j
    cdef double xv = 0.0, q, cu
    if b == 0.0:
        return
    q = b / W.a
    get_row(R, i, &ind, &val, &nnz)
    if W.u != NULL and W.avg_count > 0:
        cu = -W.avg_c * q
        for k in range(nnz):
            j = ind[k]
            xv += val[k] * W.v[j]
            W.v[j] += q * val[k]
            W.u[j] += cu * val[k]
    else:
        for k in range(nnz):
            j = ind[k]
            xv += val[k] * W.v[j]
            W.v[j] += q * val[k]
    W.sqnorm += 2.0 * b * W.a * xv + b * b * R.sqnorm[i]
    if W.sqnorm < 0.0:  # rounding, when w is (nearly) cancelled
        W.sqnorm = 0.0


cdef inline double wv_project_ball(WeightVector* W, double r) noexcept nogil:
    """Scale w onto the ball ||w|| <= r when it lies outside (Pegasos'
    projection, r = 1 / sqrt(lambda)); O(1). Returns the factor applied (1.0
    when w was inside)."""
    cdef double s
    if W.sqnorm <= r * r:
        return 1.0
    s = r / sqrt(W.sqnorm)
    wv_scale(W, s)
    return s


cdef inline void wv_to_dense(const WeightVector* W, double* out) noexcept nogil:
    """out = w (O(d))."""
    cdef int j
    for j in range(W.n_features):
        out[j] = W.a * W.v[j]


cdef inline void _wv_average_start(WeightVector* W) noexcept nogil:
    memset(W.u, 0, W.n_features * sizeof(double))
    W.avg_c = W.a
    W.avg_beta = 1.0
    W.avg_count = 1


cdef inline void wv_average_step(WeightVector* W, double mu) noexcept nogil:
    """wbar <- (1 - mu) wbar + mu w for 0 < mu <= 1 (mu >= 1, or the first step
    since a restart: wbar <- w, O(d)); O(1) otherwise. Needs W.u."""
    cdef int j
    if W.avg_count == 0 or mu >= 1.0:
        _wv_average_start(W)
        return
    W.avg_beta /= 1.0 - mu
    W.avg_c += mu * W.a * W.avg_beta
    W.avg_count += 1
    if W.avg_beta > 1e100:  # only non-uniform schedules get here
        for j in range(W.n_features):
            W.u[j] /= W.avg_beta
        W.avg_c /= W.avg_beta
        W.avg_beta = 1.0


cdef inline void wv_average_uniform(WeightVector* W) noexcept nogil:
    """Include the current w in the plain average of the iterates since the
    last restart (mu = 1 / (count + 1), kept exact: beta = count, c += a).
    Assumes every step since the restart was uniform (do not mix with
    ``wv_average_step`` within one average)."""
    if W.avg_count == 0:
        _wv_average_start(W)
        return
    W.avg_count += 1
    W.avg_c += W.a
    W.avg_beta = <double> W.avg_count


cdef inline void wv_average_restart(WeightVector* W) noexcept nogil:
    """Forget the averaged iterates: the next averaging step starts a new
    average (t0 of ASGD). O(1)."""
    W.avg_count = 0


cdef inline void wv_average_to_dense(const WeightVector* W, double* out) noexcept nogil:
    """out = wbar (O(d)); w itself when no iterate has been averaged yet."""
    cdef int j
    if W.u == NULL or W.avg_count == 0:
        wv_to_dense(W, out)
        return
    for j in range(W.n_features):
        out[j] = (W.u[j] + W.avg_c * W.v[j]) / W.avg_beta
