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

No allocation in the loop: every buffer comes from the caller.
"""
from functools import partial

import numpy as np
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport fabs, isfinite
from _rows cimport Rows, rows_init
from _linalg cimport rows_matvec, rows_rmatvec

cnp.import_array()

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
        if not isfinite(fmu) or fmu > diverge_above:
            status = ST_DIVERGED
        elif steps > 0 and change < (tol * fabs(fmu) if relative else tol):
            status = ST_CONVERGED
        elif steps >= max_iter:
            status = ST_MAX_ITER
        else:
            status = -1
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
