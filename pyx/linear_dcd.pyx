# cython: language_level=3
"""Dual coordinate descent for the linear soft-margin (L1-loss) SVM.

Hsieh, Chang, Lin, Keerthi, Sundararajan (2008), "A Dual Coordinate Descent
Method for Large-scale Linear SVM", Algorithm 1 (update of one alpha_i in closed
form, Eq. 3-6 there) with the shrinking of their Section 3 / Algorithm 2, as
LIBLINEAR's ``solve_l2r_l1l2_svc`` implements it:

    min_alpha  1/2 alpha' Q alpha - e' alpha,   0 <= alpha_i <= C,
    Q_ij = y_i y_j x_i' x_j,   w = sum_i alpha_i y_i x_i,

which is the dual of  min_w 1/2 ||w||^2 + C sum_i max(0, 1 - y_i w' x_i).
With an intercept the rows carry an extra constant feature ``bias`` (so the
intercept is regularised, exactly as in LIBLINEAR with -B). Stopping rule: the
projected-gradient spread  max PG - min PG <= tol  over all variables (checked
again on the full set once shrinking has converged).
"""
from functools import partial

import numpy as np
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from _rows cimport Rows, rows_init, row_dot_vec, row_axpy
from _random cimport rng_seed, rng_randint

cnp.import_array()

def _dual_objective(const double[::1] w, int d, double wb, double sum_alpha):
    """1/2 (||w||^2 + wb^2) - sum_i alpha_i, the dual objective (to minimise),
    with w as it is when called."""
    cdef double wnorm2 = wb * wb
    cdef int k
    for k in range(d):
        wnorm2 += w[k] * w[k]
    return 0.5 * wnorm2 - sum_alpha


def dcd_l1svm(tuple x, const double[::1] y, double C, double bias, double tol,
              int max_iter, unsigned long long seed, object history):
    """Return (w, b_weight, alpha, n_iter, converged).

    ``history(iteration, objective)`` is called once per outer pass, with
    ``objective`` a zero-argument callable giving the dual objective at the end
    of that pass (valid until w changes: the History evaluates it at once, or
    for the last pass when the solver has returned).
    The decision value is x' w + bias * b_weight.
    """
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef int l = X.n_rows, d = X.n_features
    cdef cnp.ndarray[cnp.float64_t, ndim=1] w_arr = np.zeros(max(d, 1))
    cdef cnp.ndarray[cnp.float64_t, ndim=1] alpha_arr = np.zeros(l)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] index_arr = np.arange(l, dtype=np.int32)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] qd_arr = np.empty(l)
    cdef double* w = &w_arr[0]
    cdef double* alpha = &alpha_arr[0]
    cdef int* index = <int*> &index_arr[0]
    cdef double* QD = &qd_arr[0]
    cdef double wb = 0.0, b2 = bias * bias
    cdef double G, PG, yi, a_old, delta, sum_alpha = 0.0
    cdef double PGmax_old = np.inf, PGmin_old = -np.inf, PGmax_new, PGmin_new
    cdef int i, s, j, tmp, active = l, it = 0
    cdef bint converged = False
    cdef unsigned long long state = rng_seed(seed)

    for i in range(l):
        QD[i] = X.sqnorm[i] + b2

    while it < max_iter:
        PGmax_new = -np.inf
        PGmin_new = np.inf
        with nogil:
            for s in range(active):  # random permutation of the active set
                j = s + rng_randint(&state, active - s)
                tmp = index[s]; index[s] = index[j]; index[j] = tmp
            s = 0
            while s < active:
                i = index[s]
                yi = y[i]
                G = yi * (row_dot_vec(&X, i, w) + bias * wb) - 1.0
                PG = 0.0
                if alpha[i] == 0.0:
                    if G > PGmax_old:  # shrink: stays at the lower bound
                        active -= 1
                        tmp = index[s]; index[s] = index[active]; index[active] = tmp
                        continue
                    elif G < 0.0:
                        PG = G
                elif alpha[i] == C:
                    if G < PGmin_old:  # shrink: stays at the upper bound
                        active -= 1
                        tmp = index[s]; index[s] = index[active]; index[active] = tmp
                        continue
                    elif G > 0.0:
                        PG = G
                else:
                    PG = G
                if PG > PGmax_new:
                    PGmax_new = PG
                if PG < PGmin_new:
                    PGmin_new = PG
                if PG > 1e-12 or PG < -1e-12:
                    a_old = alpha[i]
                    alpha[i] = min(max(a_old - G / QD[i], 0.0), C)
                    delta = (alpha[i] - a_old) * yi
                    sum_alpha += alpha[i] - a_old
                    row_axpy(&X, i, delta, w)
                    wb += delta * bias
                s += 1
        it += 1
        if history is not None:
            # the objective costs O(d): handed over as a callable, which the
            # History evaluates (outside its timing) only for the passes it keeps
            history(it, partial(_dual_objective, w_arr, d, wb, sum_alpha))
        PyErr_CheckSignals()  # let Ctrl-C stop a long fit between passes
        if PGmax_new - PGmin_new <= tol:
            if active == l:
                converged = True
                break
            # converged on the shrunk set: check once more on every variable
            active = l
            PGmax_old = np.inf
            PGmin_old = -np.inf
            continue
        PGmax_old = PGmax_new if PGmax_new > 0.0 else np.inf
        PGmin_old = PGmin_new if PGmin_new < 0.0 else -np.inf
    return w_arr[:d], wb, alpha_arr, it, converged
