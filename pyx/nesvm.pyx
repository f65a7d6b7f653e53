# cython: language_level=3
"""NESVM (nesvm.txt): Nesterov's method on the smoothed primal C-SVM, LP-SVM, LS-SVM.

One call runs Algorithm 1 for one smoothing parameter (a homotopy stage of
Algorithm 2 is one call; the Python side loops over the stages). The
variables are theta = [w; b] (Eq. 37: the bias is a constant feature 1
appended to every row, not penalised; b stays 0 without an intercept). Per
iteration k, in the paper's order:

  Step 1  f = X w (the first matrix-vector product), margins
          m_i = y_i (f_i + b) and the dual variable u_i of the smoothed hinge,
          Eq. 6 (median{(1 - m_i) / (mu ||X_i||_inf), 0, 1}) with Eq. 10's case
          split; F_mu(w^k) from the same margins (Eq. 10 and, LP-SVM, Eq. 28)
  stop    |F_mu(w^k) - F_mu(w^{k-1})| < eps (Algorithm 1; checked once
          F_mu(w^k) is known, so it costs no extra product)
  Step 2  gradient, Eq. 47 (C-SVM: w - C (YX)'u), Eq. 51 (LP-SVM: u_l1 - C
          (YX)'v, u_l1 of Eq. 24), Eq. 55 (LS-SVM: w - 2C (YX)'(1 - YXw)):
          the second product X'(C y u); the bias gets only the loss part (Eq. 37)
  Step 3  y^k = w^k - grad / L (Eq. 33); z^k = w* - (1/L) sum_{i<=k} (i+1)/2
          grad_i (Eq. 34, sigma_2 = 1, the weighted sum kept in ``gsum``)
  Step 4  w^{k+1} = 2/(k+3) z^k + (k+1)/(k+3) y^k (Eq. 35)

Kernel form (end of Sec. II-C): the rows are those of the kernel matrix K and
the l2 penalty is 1/2 beta'K beta, whose gradient K beta is the first product
itself (f = K beta), so a kernel iteration is also two products.

``threshold`` 0 takes Eq. 10 as printed (the linear piece below the margin
1 - mu, the quadratic piece divided by mu ||X_i||_inf); 1 takes the exact
maximiser of Eq. 5 (Eq. 6: linear below 1 - mu ||X_i||_inf). They agree when
||X_i||_inf = 1 (every row with an intercept and features in [-1, 1]). A zero
row (||X_i||_inf = 0, possible only without an intercept) has margin 0 for
every w: its hinge is the constant 1, the maximiser of Eq. 5 is u_i = 1, and
it adds nothing to the gradient; no division happens.

``nesvm_restart_run`` is the option no table of the paper uses (NESVM's
``scheme='restart'``): the same F_mu (Eq. 10 / 28 / 55 with Eq. 37's bias),
minimised by Nesterov's method in the form of Beck and Teboulle's FISTA
("A fast iterative shrinkage-thresholding algorithm for linear inverse
problems", SIAM J. Imaging Sci. 2009; no nonsmooth part here, so the proximal
step p_L(y) of their Sec. 2 is the gradient step y - grad F_mu(y) / L) with
their backtracking estimate of L (Sec. 4, "FISTA with backtracking") and
O'Donoghue and Candes' gradient restart ("Adaptive restart for accelerated
gradient schemes", Found. Comput. Math. 2015: its "gradient scheme";
the section and equation numbers of both papers could not be checked here,
no copy being at hand, so the steps are named by what they compute). Per step k, from
the extrapolated point y_k:

  1  margins and u_i at y_k (Eq. 6), F_mu(y_k): O(n), in the pass of step 5
     that forms X y_k (below)
  2  grad F_mu(y_k) (Eq. 47 / 51 / 55): the product X'(C y u)
  3  X grad (the second product; for a kernel model K grad)
  4  backtracking (Beck and Teboulle, Sec. 4, step k): the smallest
     L = eta^i L with F(p_L(y_k)) <= Q_L(p_L(y_k), y_k) (their quadratic model Q_L, Sec. 2),
     which for a gradient step reads F_mu(y - g/L) <= F_mu(y) - ||g||^2 / (2L)
     (plus 1e-12 |F_mu(y)| for rounding). Each trial is O(n + d), no product:
     X p_L(y) = X y - (X g) / L. The search starts from ``shrink`` L_{k-1}
     (NESVM passes 1/2: our choice, not Beck and Teboulle's, whose L never
     decreases: near the optimum of the smoothed hinge few rows lie on its
     quadratic piece and the local curvature is far below the global bound,
     so a non-increasing L keeps the short steps of the first iterates; a9a,
     C = 1, mu = 0.03, tol 1e-6: 374 steps against 1,152). L never exceeds ``L_max``
     (the bound of Eq. 48 / 52 / 56 or the power method's): there the test
     holds up to rounding and the step is taken.
  5  x_k = p_L(y_k); restart (O'Donoghue and Candes' gradient
     scheme) when grad F_mu(y_k)'(x_k - x_{k-1}) > 0: the momentum is dropped
     (t_k = 1); then t_{k+1} = (1 + sqrt(1 + 4 t_k^2)) / 2 and
     y_{k+1} = x_k + (t_k - 1) / t_{k+1} (x_k - x_{k-1}) (FISTA's
     momentum step, Beck and Teboulle, Sec. 4); X y_{k+1} by the same combination, no product.
  stop  Algorithm 1's rule on F_mu(x_k) (known from step 4's accepted trial).

The O(n) passes (one to three a step) read Eq. 6's smoothed hinge without a
branch (``_hinge``: u = median{r / t, 0, 1}, h = u (r - t u / 2); the printed
threshold keeps ``smoothed_hinge``): with the branches of ``smoothed_hinge``
a9a's step (mu = 0.03, two trials a step) took 1.02 ms, without 0.61 ms,
where SciPy's two bare CSR products take 0.51 ms (measured on one loaded core).

The gradient scheme rather than the function scheme F_mu(x_k) > F_mu(x_{k-1}):
both quantities are at hand here, and O'Donoghue and Candes note the gradient
test is the more stable near the optimum, where F_mu's changes reach its
rounding (our rule stops at relative changes down to 1e-8). The products kept
by combination drift from X x by rounding only; they are recomputed (one
product) at a restart when REFRESH_STEPS steps passed since the last, and at
the end, so the returned F_mu and ``fx`` are exact.

No allocation in the loop: every buffer comes from the caller.
"""
from functools import partial

import numpy as np
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport INFINITY, fabs, isfinite, sqrt
from _rows cimport Rows, rows_init
from _linalg cimport rows_matvec, rows_rmatvec

cnp.import_array()

cdef extern from *:
    """
    /* median{v, 0, 1} and max{r, 0} without a branch (the restart scheme's
       O(n) passes: GCC -O3 compiled the ternaries into branches, which
       mispredict on rows of random sign: see the header);
       SSE2's maxsd / minsd where there is SSE2, the ternaries elsewhere */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline double nesvm_clamp01(double v) {
        __m128d x = _mm_max_sd(_mm_set_sd(v), _mm_setzero_pd());
        return _mm_cvtsd_f64(_mm_min_sd(x, _mm_set_sd(1.0)));
    }
    static inline double nesvm_positive(double r) {
        return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(r), _mm_setzero_pd()));
    }
    #else
    static inline double nesvm_clamp01(double v) {
        v = v > 0.0 ? v : 0.0;
        return v < 1.0 ? v : 1.0;
    }
    static inline double nesvm_positive(double r) { return r > 0.0 ? r : 0.0; }
    #endif
    """
    double nesvm_clamp01(double v) noexcept nogil
    double nesvm_positive(double r) noexcept nogil

MODELS = {"C": 0, "LP": 1, "LS": 2}
THRESHOLDS = {"printed": 0, "eq6": 1}

cdef enum:
    MODEL_C = 0
    MODEL_LP = 1
    MODEL_LS = 2

# returned status
STATUS = {0: "converged", 1: "max_iter", 2: "diverged"}
cdef enum:
    ST_CONVERGED = 0
    ST_MAX_ITER = 1
    ST_DIVERGED = 2


cdef inline double smoothed_hinge(double m, double xinf, double mu, bint printed,
                                  double* u) noexcept nogil:
    """h_mu at the margin m = y_i X_i w (Eq. 10) and its dual variable u_i (Eq. 6)."""
    cdef double r = 1.0 - m, t
    if r <= 0.0:             # y_i X_i w >= 1
        u[0] = 0.0
        return 0.0
    if xinf == 0.0:          # zero row: the hinge is the constant 1 (see the header)
        u[0] = 1.0
        return r
    t = mu * xinf
    if (m < 1.0 - mu) if printed else (r >= t):
        u[0] = 1.0
        return r - 0.5 * t
    u[0] = r / t
    return 0.5 * r * r / t


cdef inline double smoothed_l1(double w, double mu, double* u) noexcept nogil:
    """l_mu(w_j) (Eq. 28) and u_j = median{w_j / mu, -1, 1} (Eq. 24)."""
    if w > mu:
        u[0] = 1.0
        return w - 0.5 * mu
    if w < -mu:
        u[0] = -1.0
        return -w - 0.5 * mu
    u[0] = w / mu
    return 0.5 * w * w / mu


def smoothed_hinge_values(const double[::1] m, const double[::1] xinf, double mu,
                          bint printed):
    """(h_mu, u) elementwise: the kernel's own code, for the tests."""
    cdef Py_ssize_t i, n = m.shape[0]
    h = np.empty(n)
    u = np.empty(n)
    cdef double[::1] hv = h, uv = u
    for i in range(n):
        hv[i] = smoothed_hinge(m[i], xinf[i], mu, printed, &uv[i])
    return h, u


cdef inline int _status(double fmu, double change, long long steps, double tol, bint relative,
                        long long max_iter, double diverge_above) noexcept nogil:
    """Both schemes' end test after ``steps`` steps: diverged (F_mu non-finite or past
    ``diverge_above``), converged (Algorithm 1's rule |F_mu(w^k) - F_mu(w^{k-1})| < eps,
    relative or absolute), at max_iter, or -1 to go on."""
    if not isfinite(fmu) or fmu > diverge_above:
        return ST_DIVERGED
    if steps > 0 and change < (tol * fabs(fmu) if relative else tol):
        return ST_CONVERGED
    if steps >= max_iter:
        return ST_MAX_ITER
    return -1


cdef inline double _objectives(int model, bint kernel_penalty, const double* w, int d,
                               const double* f, double C, double mu_l1, bint smoothed,
                               double loss_sum) noexcept nogil:
    """R(w) + C * loss_sum: R smoothed (F_mu) or not (F), the loss sum given
    (the smoothed hinge, the hinge or the squared loss, summed by the caller)."""
    cdef int j
    cdef double reg = 0.0, uu
    if model == MODEL_LP:
        for j in range(d):
            reg += smoothed_l1(w[j], mu_l1, &uu) if smoothed else fabs(w[j])
    elif kernel_penalty:     # 1/2 beta'K beta with f = K beta
        for j in range(d):
            reg += w[j] * f[j]
        reg *= 0.5
    else:
        for j in range(d):
            reg += w[j] * w[j]
        reg *= 0.5
    return reg + C * loss_sum


cdef double _smoothed_objective(Rows* X, const double* y, const double* xinf, int model,
                                double C, double mu, double mu_l1, bint printed, bint intercept,
                                bint kernel_penalty, const double* th, double* f,
                                double* marg) noexcept nogil:
    """F_mu at th (f and marg: work buffers of length n, left holding X th and
    the margins)."""
    cdef int i, n = X.n_rows, d = X.n_features
    cdef double b = th[d] if intercept else 0.0, loss = 0.0, r, uu
    rows_matvec(X, th, NULL, n, f, True)
    for i in range(n):
        marg[i] = y[i] * (f[i] + b)
        if model == MODEL_LS:
            r = 1.0 - marg[i]
            loss += r * r
        else:
            loss += smoothed_hinge(marg[i], xinf[i], mu, printed, &uu)
    return _objectives(model, kernel_penalty, th, d, f, C, mu_l1, True, loss)


def _trace(tuple x, const double[::1] y, const double[::1] xinf, int model, double C,
           double mu, double mu_l1, bint printed, bint intercept, bint kernel_penalty,
           const double[::1] theta, const double[::1] f, const double[::1] ystep,
           double[::1] fy, double[::1] my, double fmu, double hinge_sum, double mu_report,
           bint have_y):
    """One report of the trace, (F_mu(w^k), F(w^k), mu, F_mu(y^{k-1})), built by
    the History only for the reports it keeps and outside its timing. The
    buffers hold the iterate of the report when it is evaluated (at once, or
    for the last report after the run, when nothing has moved since)."""
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef int n = X.n_rows, d = X.n_features
    cdef double F, Fy = np.nan
    F = fmu if model == MODEL_LS else _objectives(
        model, kernel_penalty, &theta[0], d, &f[0], C, mu_l1, False, hinge_sum)
    if have_y:  # Theorem 4 bounds F_mu(y^k): one more product, only when reported
        Fy = _smoothed_objective(&X, &y[0], &xinf[0], model, C, mu, mu_l1, printed, intercept,
                                 kernel_penalty, &ystep[0], &fy[0], &my[0])
    return (fmu, F, mu_report, Fy)


def nesvm_run(tuple x, const double[::1] y, const double[::1] xinf, int model, double C,
              double mu, double mu_l1, double L, bint printed, bint intercept,
              bint kernel_penalty, double[::1] theta, const double[::1] wstar,
              double[::1] gsum, long long k, double tol, bint relative, long long max_iter,
              double diverge_above, double[::1] f, double[::1] coef,
              double[::1] grad, double[::1] ystep, double[::1] fy, double[::1] my,
              bint trace_y, object history, long long every,
              long long offset, double mu_report, double[::1] csum=None):
    """Algorithm 1 from theta = w^k (in/out) with the weighted gradient sum
    ``gsum`` (in/out) and the step counter ``k`` (0 for a fresh run; a
    homotopy run that carries k passes it on).

    x: the rows (``as_rows_input``; the kernel matrix for a kernel model);
    theta, wstar, gsum, grad, ystep: length d + 1 (the bias last); f, coef,
    fy, my: length n (work buffers). Stops when |F_mu(w^k) - F_mu(w^{k-1})| <
    tol (times |F_mu(w^k)| when ``relative``), after ``max_iter`` steps of this
    call, or when F_mu leaves float64 or exceeds ``diverge_above`` (a step size
    1/L too long). ``history(offset + steps, trace)`` is called at every
    multiple of ``every`` (0: never) and at the end, ``trace`` a callable giving
    (F_mu(w^k), F(w^k), mu_report, F_mu(y^{k-1}) or NaN unless ``trace_y``)
    (see ``_trace``).

    ``csum`` (length n, in/out, optional): the dual variables weighted as the
    gradients of Eq. 34, csum += (k+1)/2 C y_i u_i (LS-SVM: 2C y_i r_i) at every
    step, reset by the caller with ``gsum``: their average is the dual point of
    Nesterov's smoothing scheme whose gap closes with the iterates (NESVM's
    duality gap test at the end of a fit). O(n) per step; the iterates do not
    depend on it.

    Returns (k, steps, status, F_mu(w^k), |last change|).
    """
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef int n = X.n_rows, d = X.n_features, p = d + 1, i, j
    cdef double b, loss, hinge, fmu = 0.0, fmu_prev = 0.0, change = np.inf
    cdef double m, r, uu, a_z, a_y, wk
    cdef long long steps = 0
    cdef int status = ST_MAX_ITER
    cdef bint report
    cdef double* th = &theta[0]
    cdef double* fp = &f[0] if n > 0 else NULL
    cdef double* cp = &coef[0] if n > 0 else NULL
    cdef double* gp = &grad[0]
    cdef double inv_L = 1.0 / L
    cdef bint sum_duals = csum is not None and n > 0
    cdef double* sp = &csum[0] if sum_duals else NULL
    while True:
        # Step 1: the first product, margins, dual variables, F_mu(w^k)
        with nogil:
            rows_matvec(&X, th, NULL, n, fp, True)
            b = th[d] if intercept else 0.0
            loss = 0.0
            hinge = 0.0  # the unsmoothed F's loss, for the trace (margins at hand)
            for i in range(n):
                m = y[i] * (f[i] + b)
                r = 1.0 - m
                if model == MODEL_LS:
                    loss += r * r
                    coef[i] = 2.0 * C * y[i] * r            # Eq. 55
                else:
                    if r > 0.0:
                        hinge += r
                    loss += smoothed_hinge(m, xinf[i], mu, printed, &uu)
                    coef[i] = C * y[i] * uu                 # Eq. 47, 51: C (YX)'u
            fmu = _objectives(model, kernel_penalty, th, d, fp, C, mu_l1, True, loss)
        if steps > 0:
            change = fabs(fmu - fmu_prev)
        status = _status(fmu, change, steps, tol, relative, max_iter, diverge_above)
        report = status >= 0 or (every > 0 and (offset + steps) % every == 0)
        if report and history is not None:
            history(offset + steps, partial(
                _trace, x, y, xinf, model, C, mu, mu_l1, printed, intercept, kernel_penalty,
                theta, f, ystep, fy, my, fmu, hinge, mu_report, trace_y and steps > 0))
        if status >= 0:
            break
        fmu_prev = fmu
        with nogil:
            # Step 2: the second product, grad = R'(w) - X'(C y u)
            rows_rmatvec(&X, cp, NULL, n, gp, True)
            b = 0.0
            for i in range(n):
                b += coef[i]
            grad[d] = -b if intercept else 0.0              # Eq. 37: loss part only
            for j in range(d):
                wk = th[j]
                if model == MODEL_LP:
                    smoothed_l1(wk, mu_l1, &uu)             # Eq. 30
                    grad[j] = uu - grad[j]
                elif kernel_penalty:
                    grad[j] = f[j] - grad[j]                # K beta
                else:
                    grad[j] = wk - grad[j]
            if sum_duals:  # the weighted dual variables (see csum above)
                a_y = 0.5 * (k + 1.0)
                for i in range(n):
                    sp[i] += a_y * cp[i]
            # Steps 3-4: Eq. 33-35
            a_z = 2.0 / (k + 3.0)
            a_y = (k + 1.0) / (k + 3.0)
            for j in range(p):
                ystep[j] = th[j] - inv_L * grad[j]
                gsum[j] += 0.5 * (k + 1.0) * grad[j]
                th[j] = a_z * (wstar[j] - inv_L * gsum[j]) + a_y * ystep[j]
            k += 1
        steps += 1
        PyErr_CheckSignals()
    return k, steps, status, fmu, change


# the restart scheme's products kept by combination are recomputed at a restart
# once this many steps passed since the last recomputation (see the header)
cdef enum:
    REFRESH_STEPS = 64


cdef inline double _hinge(double m, double xinf, double mu, double inv_t, bint printed,
                          double* u) noexcept nogil:
    """``smoothed_hinge`` for the restart scheme: Eq. 6's reading without a
    branch, u = median{r / t, 0, 1} with r = 1 - m, t = mu ||X_i||_inf and 1/t
    precomputed (``inv_t``; +inf for a zero row, whose r is 1), and h_mu = u (r
    - t u / 2), Eq. 5's value at that u (the same function, rounded
    differently); the printed reading goes to ``smoothed_hinge``."""
    cdef double r, v
    if printed:
        return smoothed_hinge(m, xinf, mu, True, u)
    r = 1.0 - m
    v = nesvm_clamp01(r * inv_t)
    u[0] = v
    return v * (r - 0.5 * v * mu * xinf)


cdef inline double _loss_duals(int model, int n, const double* y, const double* f, double b,
                               const double* xinf, const double* inv_t, double mu, bint printed,
                               double C, double* coef, double* hinge) noexcept nogil:
    """The loss sum at the margins y_i (f_i + b) and the coefficients C y_i u_i
    (Eq. 47 / 51; LS-SVM: 2C y_i r_i, Eq. 55) written to ``coef``; ``hinge``
    gets the unsmoothed hinge sum (for the trace)."""
    cdef int i
    cdef double m, r, uu, loss = 0.0, hs = 0.0
    for i in range(n):
        m = y[i] * (f[i] + b)
        r = 1.0 - m
        if model == MODEL_LS:
            loss += r * r
            coef[i] = 2.0 * C * y[i] * r
        else:
            hs += nesvm_positive(r)
            loss += _hinge(m, xinf[i], mu, inv_t[i], printed, &uu)
            coef[i] = C * y[i] * uu
    hinge[0] = hs
    return loss


cdef inline double _advance_duals(int model, int n, const double* y, double* fx, double* fy,
                                  const double* gf, double inv_L, double beta, double b,
                                  const double* xinf, const double* inv_t, double mu,
                                  bint printed, double C, double* coef) noexcept nogil:
    """X x_k = X y_k - (X g) / L into fx, X y_{k+1} = X x_k + beta (X x_k - X
    x_{k-1}) into fy, and in the same pass what ``_loss_duals`` gives at y_{k+1}
    (bias b): the loss sum and the coefficients."""
    cdef int i
    cdef double m, r, uu, fnew, loss = 0.0
    for i in range(n):
        fnew = fy[i] - inv_L * gf[i]
        fy[i] = fnew + beta * (fnew - fx[i])
        fx[i] = fnew
        m = y[i] * (fy[i] + b)
        r = 1.0 - m
        if model == MODEL_LS:
            loss += r * r
            coef[i] = 2.0 * C * y[i] * r
        else:
            loss += _hinge(m, xinf[i], mu, inv_t[i], printed, &uu)
            coef[i] = C * y[i] * uu
    return loss


cdef inline double _trial_objective(int model, bint kernel_penalty, int n, int d,
                                    const double* y, const double* xinf, const double* inv_t,
                                    double mu, double mu_l1, bint printed, double C, bint intercept,
                                    const double* yp, const double* g, const double* fy,
                                    const double* gf, double inv_L,
                                    double* hinge) noexcept nogil:
    """F_mu(p) at p = yp - g / L with X p = fy - gf / L (no product); ``hinge``:
    the unsmoothed hinge sum at p."""
    cdef int i, j
    cdef double b = (yp[d] - inv_L * g[d]) if intercept else 0.0
    cdef double m, r, uu, pj, loss = 0.0, hs = 0.0, reg = 0.0
    for i in range(n):
        m = y[i] * (fy[i] - inv_L * gf[i] + b)
        r = 1.0 - m
        if model == MODEL_LS:
            loss += r * r
        else:
            hs += nesvm_positive(r)
            loss += _hinge(m, xinf[i], mu, inv_t[i], printed, &uu)
    for j in range(d):
        pj = yp[j] - inv_L * g[j]
        if model == MODEL_LP:
            reg += smoothed_l1(pj, mu_l1, &uu)
        elif kernel_penalty:  # 1/2 beta'K beta, K beta = fy - gf / L (d = n)
            reg += 0.5 * pj * (fy[j] - inv_L * gf[j])
        else:
            reg += 0.5 * pj * pj
    hinge[0] = hs
    return reg + C * loss


cdef inline void _gradient(Rows* X, int model, bint kernel_penalty, bint intercept, double mu_l1,
                           const double* th, const double* f, const double* coef,
                           double* grad) noexcept nogil:
    """grad F_mu at th (Eq. 47 / 51 / 55 with Eq. 37's bias; kernel: K beta =
    f): the product X'coef, then the regulariser's part."""
    cdef int i, j, n = X.n_rows, d = X.n_features
    cdef double b = 0.0, uu
    rows_rmatvec(X, coef, NULL, n, grad, True)
    for i in range(n):
        b += coef[i]
    grad[d] = -b if intercept else 0.0
    for j in range(d):
        if model == MODEL_LP:
            smoothed_l1(th[j], mu_l1, &uu)
            grad[j] = uu - grad[j]
        elif kernel_penalty:
            grad[j] = f[j] - grad[j]
        else:
            grad[j] = th[j] - grad[j]


def nesvm_restart_run(tuple x, const double[::1] y, const double[::1] xinf, int model, double C,
                      double mu, double mu_l1, double L0, double L_max, double eta,
                      double shrink, bint printed, bint intercept, bint kernel_penalty, double[::1] theta,
                      double[::1] ypt, double[::1] grad, double tol, bint relative,
                      long long max_iter, double diverge_above, double[::1] fx, double[::1] fy,
                      double[::1] gf, double[::1] coef, double[::1] inv_t, bint trace_y,
                      object history, long long every, long long offset, double mu_report):
    """The restart scheme (see the header) from x_0 = ``theta`` (in/out: the
    last x_k on return) with zero momentum, L starting at min(L0, L_max).

    theta, ypt, grad: length d + 1 (the bias last); fx, fy, gf, coef, inv_t:
    length n (work buffers; ``fx`` holds X x_k, computed afresh, on return).
    ``eta`` > 1: the backtracking factor; ``shrink`` in (0, 1]: L is
    multiplied by it once before each step's search (1: L never decreases, as
    in Beck and Teboulle). Stops as ``nesvm_run`` does (tol, relative,
    max_iter, diverge_above); ``history(offset + steps, (F_mu(x_k), F(x_k),
    mu_report, F_mu(y_k)))`` at every multiple of ``every`` (0: never) and at
    the end, y_k the point x_k's step started from (NaN at step 0 and unless
    ``trace_y``; known anyway, it costs nothing).

    Returns (steps, status, F_mu(x_k), |last change|, L, restarts, backtracks,
    refreshes): backtracks counts the trials beyond the first of each step,
    refreshes the products spent recomputing X x.
    """
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef int n = X.n_rows, d = X.n_features, p = d + 1, i, j
    cdef double* th = &theta[0]
    cdef double* yp = &ypt[0]
    cdef double* gp = &grad[0]
    cdef double* fxp = &fx[0] if n > 0 else NULL
    cdef double* fyp = &fy[0] if n > 0 else NULL
    cdef double* gfp = &gf[0] if n > 0 else NULL
    cdef double* cp = &coef[0] if n > 0 else NULL
    cdef double* ip = &inv_t[0] if n > 0 else NULL
    cdef double L = L0 if L0 < L_max else L_max
    cdef double inv_L, fmu, fmu_prev, change = np.inf, fy_val, fy_step = np.nan, fp, hinge = 0.0
    cdef double hp = 0.0
    cdef double gnorm2, slack, dot, xnew, t = 1.0, t_next, beta, loss
    cdef long long steps = 0, restarts = 0, backtracks = 0, refreshes = 0, since = 0
    cdef int status
    cdef bint restart
    # x_0: X x_0 exactly, y_1 = x_0
    with nogil:
        for i in range(n):
            inv_t[i] = 1.0 / (mu * xinf[i]) if xinf[i] > 0.0 else INFINITY
        rows_matvec(&X, th, NULL, n, fxp, True)
        for i in range(n):
            fy[i] = fx[i]
        for j in range(p):
            yp[j] = th[j]
        if not intercept:
            yp[d] = 0.0
            th[d] = 0.0
        fmu = _objectives(model, kernel_penalty, th, d, fxp, C, mu_l1, True,
                          _loss_duals(model, n, &y[0], fxp, th[d], &xinf[0], ip, mu, printed, C, cp,
                                      &hinge))
    fy_val = fmu  # F_mu(y_1), y_1 = x_0, its duals in coef
    while True:
        status = _status(fmu, change, steps, tol, relative, max_iter, diverge_above)
        if status >= 0 and steps > 0 and isfinite(fmu):
            # the end: X x_k afresh, F_mu(x_k) from it (the returned fmu, fx)
            with nogil:
                rows_matvec(&X, th, NULL, n, fxp, True)
                fmu = _objectives(model, kernel_penalty, th, d, fxp, C, mu_l1, True,
                                  _loss_duals(model, n, &y[0], fxp, th[d], &xinf[0], ip, mu, printed,
                                              C, cp, &hinge))
            refreshes += 1
        if history is not None and (status >= 0 or (every > 0 and (offset + steps) % every == 0)):
            history(offset + steps, (fmu, fmu if model == MODEL_LS else _objectives(
                model, kernel_penalty, th, d, fxp, C, mu_l1, False, hinge), mu_report,
                fy_step if trace_y else np.nan))
        if status >= 0:
            break
        fmu_prev = fmu
        fy_step = fy_val  # F_mu(y_k), for the trace (fy_val moves on to y_{k+1})
        with nogil:
            # (1: the duals in coef and F_mu(y_k) in fy_val come with y_k, below)
            # 2-3: the gradient (X'coef) and X grad
            _gradient(&X, model, kernel_penalty, intercept, mu_l1, yp, fyp, cp, gp)
            rows_matvec(&X, gp, NULL, n, gfp, True)
            gnorm2 = 0.0
            for j in range(p):
                gnorm2 += gp[j] * gp[j]
            # 4: backtracking from shrink L_{k-1}
            L = L * shrink
            slack = 1e-12 * fabs(fy_val)
            while True:
                inv_L = 1.0 / L
                fp = _trial_objective(model, kernel_penalty, n, d, &y[0], &xinf[0], ip, mu,
                                      mu_l1, printed, C, intercept, yp, gp, fyp, gfp, inv_L, &hinge)
                if fp <= fy_val - 0.5 * inv_L * gnorm2 + slack or L >= L_max:
                    break
                L = L * eta
                if L > L_max:
                    L = L_max
                backtracks += 1
            # 5: the restart test, then x_k and y_{k+1} (and their products)
            dot = 0.0
            for j in range(p):
                dot += gp[j] * (yp[j] - inv_L * gp[j] - th[j])
            restart = dot > 0.0
            if restart:
                t = 1.0
                restarts += 1
            t_next = 0.5 * (1.0 + sqrt(1.0 + 4.0 * t * t))
            beta = (t - 1.0) / t_next
            t = t_next
            for j in range(p):
                xnew = yp[j] - inv_L * gp[j]
                yp[j] = xnew + beta * (xnew - th[j])
                th[j] = xnew
            since += 1
            if restart and since >= REFRESH_STEPS:   # y_{k+1} = x_k: both products afresh
                rows_matvec(&X, th, NULL, n, fxp, True)
                for i in range(n):
                    fy[i] = fx[i]
                refreshes += 1
                since = 0
                loss = _loss_duals(model, n, &y[0], fyp, yp[d], &xinf[0], ip, mu, printed, C, cp,
                                   &hp)
            else:  # X x_k, X y_{k+1} and (step 1 of the next step) the duals at y_{k+1}
                loss = _advance_duals(model, n, &y[0], fxp, fyp, gfp, inv_L, beta, yp[d],
                                      &xinf[0], ip, mu, printed, C, cp)
            fy_val = _objectives(model, kernel_penalty, yp, d, fyp, C, mu_l1, True, loss)
        fmu = fp
        change = fabs(fmu - fmu_prev)
        steps += 1
        PyErr_CheckSignals()
    return steps, status, fmu, change, L, restarts, backtracks, refreshes
