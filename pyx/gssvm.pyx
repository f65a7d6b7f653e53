# cython: language_level=3
"""GS-SVM: the greedy stagewise algorithm for hard-margin SVMs.

Bo, Wang, Jiao, "Training Support Vector Machines Using Greedy Stagewise
Algorithm" (gs_svm.txt), Algorithm 1 / Fig. 1. The dual (1), min 1/2 sum
a_i a_j y_i y_j K_ij - sum a_i s.t. a_i >= 0 (no bias, so no equality
constraint), is approximated by adding one basis sample at a time and never
revisiting it. Each step m uses the gradient of Eq. 5, g_b = y_b sum_j a_j
y_{b_j} K(x_{b_j}, x_b) - 1 (g^0 = -1), the gain of Eq. 10, h_b = -g_b^2 /
(2 K_bb) if g_b < 0 else 0, the selection of Eq. 11, b_m = argmin_{b in Q} h_b
over the unused set Q, and the step of Eq. 12, a_m = -g_{b_m} / K_{b_m b_m};
then b_m leaves Q (step 5) and g is updated over the remaining unused samples
only (step 6), g_q += a_m y_{b_m} y_q K(x_{b_m}, x_q), q in Q. Steps 1-10 are
the loop below; it stops (step 3) when min_{b in Q} g_b >= 0, when Q is empty,
or after ``max_steps`` steps. Step 6 as printed multiplies by ``beta_m`` (an
index); Eq. 5 requires the coefficient ``alpha_m``, which is what is used.
Step 7 ("update h by (4.9)") is folded into step 4: h_q is a function of g_q
and K_qq only, so it is computed on the fly while scanning Q and never stored
(the printed h^0 = -1 is irrelevant: only the argmin of h is used). Ties in
the argmin are broken by the lowest sample index. Since earlier coefficients
are never changed, adding (a_m, b_m) changes the dual objective (1) restricted
to the selected set by exactly 1/2 a_m^2 K_bb + a_m g_b = h_{b_m} =
-g_b^2/(2 K_bb) < 0, so the objective reported to ``history`` is maintained
incrementally from 0 and decreases strictly at every step.

Cost and counting. Memory is O(l): g, the diagonal, the index array Q, one
kernel-row buffer and the output; the kernel matrix is never formed (CSR data
adds a copy of X by columns, O(nnz) like X, through which the kernel rows are
computed: ``kernel_row_by_columns``, same values). Step m
computes one kernel row K(x_{b_m}, x_q) for q in Q (the |Q| samples still
unused after b_m is removed) through ``kernel_row``, so the counter grows by
sum_m |Q_m|, the paper's O(nl). The diagonal K(x_b, x_b) of Eq. 10/12 is 1
without evaluation for the RBF kernel; for linear/poly it is computed once per
sample at the start with ``kernel_ij`` and counted: diagonal evaluations
counted are 0 for rbf and l otherwise. Eq. 8 assumes K_bb > 0; a sample with
K_bb <= 0 (an all-zero row under the linear kernel or poly with coef0 = 0,
or a non-PSD poly setting) would make the one-variable problem (7) unbounded,
so such a sample is left out of Q from the start and never selected.

Q is kept compact as an index array: the selected sample is swap-removed, so
the scan and the update touch only unused samples (their order in Q is then
scrambled, which is why ties are resolved on the sample index, not on the
position in Q).
"""
import numpy as np
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from _rows cimport Rows, Cols, rows_init, cols_init
from _kernel cimport (KernelSpec, kernel_spec, kernel_ij, kernel_row, kernel_row_by_columns,
                      KERNEL_RBF, KERNEL_PRECOMPUTED)

cnp.import_array()


def gs_svm(tuple x, const double[::1] y, int kind, double gamma, double coef0,
           int degree, int max_steps, object history, int history_every=1,
           tuple columns=None):
    """Run Algorithm 1 on rows ``x`` (from ``as_rows_input``) with labels y in {-1, +1}.

    ``columns``: for CSR rows, the same matrix by columns (the tuple made by
    ``as_columns_input(x)``), through which the kernel rows are computed
    (``kernel_row_by_columns``); None takes every kernel row by row dot
    products instead, the same values bitwise, only slower on sparse data.

    ``max_steps`` caps the number of steps (values < 0 or > l mean l).
    ``history(step, objective)`` is called after every ``history_every``-th step
    and after the last one; objective = dual (1) over the selected set.

    Returns ``(alpha, selected, n_steps, n_kernel_evals, stopped)``: the
    coefficients a_m > 0 and sample indices b_m in selection order (length
    n_steps), the number of kernel values computed, and whether the stopping
    rule holds at the end (Q empty or min_{b in Q} g_b >= 0), i.e. False only
    when ``max_steps`` cut the run short.
    """
    cdef Rows X
    keep = rows_init(&X, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    cdef int l = X.n_rows
    cdef int n = l if l > 0 else 1
    cdef KernelSpec k = kernel_spec(kind, gamma, coef0, degree)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] g_arr = np.full(n, -1.0)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] diag_arr = np.ones(n)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] krow_arr = np.empty(n)
    cdef cnp.ndarray[cnp.float64_t, ndim=1] alpha_arr = np.empty(n)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] q_arr = np.empty(n, dtype=np.int32)
    cdef cnp.ndarray[cnp.int32_t, ndim=1] sel_arr = np.empty(n, dtype=np.int32)
    cdef double* g = &g_arr[0]
    cdef double* kdiag = &diag_arr[0]
    cdef double* krow = &krow_arr[0]
    # CSR data: the kernel rows are computed through the columns of X (see
    # kernel_row_by_columns): a CSC copy, O(nnz) like X itself, and a zeroed
    # buffer of l dot products
    cdef Cols XT
    cdef bint by_columns = not X.dense and kind != KERNEL_PRECOMPUTED and columns is not None
    cdef cnp.ndarray[cnp.float64_t, ndim=1] dots_arr
    cdef double* dots = NULL
    if by_columns:
        keep_cols = cols_init(&XT, columns[0], columns[1], columns[2])
        dots_arr = np.zeros(n)
        dots = &dots_arr[0]
    cdef double* alpha = &alpha_arr[0]
    cdef int* Q = <int*> &q_arr[0]
    cdef int* sel = <int*> &sel_arr[0]
    cdef int i, t, q, b, pos, nq = 0, m = 0, last_recorded = 0
    cdef double gq, hq, best_h, gb, kbb, a, c, objective = 0.0
    cdef bint stopped = False

    if max_steps < 0 or max_steps > l:
        max_steps = l
    if history_every < 1:
        history_every = 1

    with nogil:
        # Step 1: g^0 = -1, a = 0, Q = every usable sample, P = {}.
        if kind != KERNEL_RBF:  # rbf: K(x, x) = 1, not evaluated
            for i in range(l):
                kdiag[i] = kernel_ij(&k, &X, i, &X, i)
        for i in range(l):
            if kdiag[i] > 0.0:
                Q[nq] = i
                nq += 1

    while True:  # step 2: for m = 1 .. l
        with nogil:
            # Steps 3-4 (and 7): scan Q once for argmin h (Eq. 10-11); only
            # samples with g < 0 have h < 0, so none found means min g >= 0.
            pos = -1
            best_h = 0.0
            for t in range(nq):
                q = Q[t]
                gq = g[q]
                if gq < 0.0:
                    hq = -gq * gq / (2.0 * kdiag[q])
                    if pos < 0 or hq < best_h or (hq == best_h and q < Q[pos]):
                        pos = t
                        best_h = hq
            if pos < 0:  # step 3: min_{b in Q} g_b >= 0 (or Q empty)
                stopped = True
                break
            if m >= max_steps:
                break
            b = Q[pos]
            gb = g[b]
            kbb = kdiag[b]
            a = -gb / kbb  # Eq. 12
            alpha[m] = a
            sel[m] = b
            objective -= gb * gb / (2.0 * kbb)  # the dual (1) decreases by h_b
            # Step 5: P = P + {b}, Q = Q - {b} (swap-remove keeps Q compact).
            nq -= 1
            Q[pos] = Q[nq]
            # Step 6 (with alpha_m, Eq. 5): one kernel row over the unused set.
            if by_columns:
                kernel_row_by_columns(&k, &X, b, &XT, Q, nq, krow, dots)
            else:
                kernel_row(&k, &X, b, &X, Q, nq, krow)
            c = a * y[b]
            for t in range(nq):
                q = Q[t]
                g[q] += c * y[q] * krow[t]
            m += 1
        # Step 8 (f_m = f_{m-1} + a_m y_b K(., x_b)) is the returned expansion.
        if history is not None and m % history_every == 0:
            history(m, objective)
            last_recorded = m
        PyErr_CheckSignals()  # let Ctrl-C stop a long fit between steps

    if history is not None and m > last_recorded:
        history(m, objective)
    return alpha_arr[:m].copy(), sel_arr[:m].copy(), m, k.n_evals, stopped
