# cython: language_level=3
"""Euclidean projection onto a product of probability simplices.

KM-OMD's feasible set (repro.solvers.ldm_baselines.KMOMD) is two simplices, one
per class: {g >= 0, sum_{y_i = +1} g_i = 1, sum_{y_i = -1} g_i = 1}. Its
projected-gradient loop projects onto it at every step, which in NumPy was more
than half of a fit on small sets (two sorts, a cumulative sum and a dozen array
temporaries per class, per step: clean1, 5,671 steps, 0.44 of 0.81 s).

The projection of v onto {g >= 0, sum g = 1} is the sort-based rule of Held,
Wolfe and Crowder (1974) as Duchi et al. (ICML 2008, Fig. 1) state it:

    u = v sorted in decreasing order,  c_j = (u_1 + ... + u_j) - 1,
    rho = the last j with u_j - c_j / j > 0,  theta = c_rho / rho,
    g_i = max(v_i - theta, 0).

The arithmetic is NumPy's one, operation for operation (a sequential cumulative
sum, as ``np.cumsum`` adds; the same divisions and comparisons; ``max`` taken as
``np.maximum`` takes it), so the projection is bitwise the NumPy one
(tests/test_simplex.py) and the committed KM-OMD records stay what they were.
"""
import numpy as np
cimport numpy as cnp
from libc.stdlib cimport qsort

cnp.import_array()


cdef int _descending(const void* a, const void* b) noexcept nogil:
    cdef double x = (<const double*>a)[0]
    cdef double y = (<const double*>b)[0]
    return (x < y) - (x > y)


cdef void _project_one(const double* v, const cnp.intp_t* idx, Py_ssize_t n,
                       double* out, double* u) noexcept nogil:
    """Project v[idx] onto the simplex in dimension n into out[idx]; u is scratch."""
    cdef Py_ssize_t j, rho = -1
    cdef double css = 0.0, css_rho = 0.0, theta, d
    for j in range(n):
        u[j] = v[idx[j]]
    qsort(u, n, sizeof(double), _descending)
    for j in range(n):
        css = css + u[j]  # np.cumsum: sequential
        if u[j] - (css - 1.0) / <double>(j + 1) > 0:
            rho = j
            css_rho = css - 1.0
    theta = css_rho / <double>(rho + 1)  # rho >= 0 whenever v is finite (j = 0 holds)
    for j in range(n):
        d = v[idx[j]] - theta
        out[idx[j]] = d if d >= 0.0 else 0.0  # np.maximum(d, 0.0): d when d >= 0


def project_simplices(const double[::1] v, const cnp.intp_t[::1] idx,
                      const cnp.intp_t[::1] bounds, double[::1] out):
    """out[idx[bounds[k]:bounds[k+1]]] = the projection of v over those indices
    onto the simplex, for every group k (groups disjoint, each non-empty).
    Indices outside every group are left as they are in out."""
    cdef Py_ssize_t k, n = v.shape[0], widest = 0
    if out.shape[0] != n:
        raise ValueError(f"project_simplices: out has {out.shape[0]} entries, v {n}")
    if bounds.shape[0] < 1 or bounds[0] != 0 or bounds[bounds.shape[0] - 1] != idx.shape[0]:
        raise ValueError("project_simplices: bounds must run from 0 to len(idx)")
    for k in range(bounds.shape[0] - 1):
        if bounds[k + 1] <= bounds[k]:
            raise ValueError(f"project_simplices: group {k} is empty")
        widest = max(widest, bounds[k + 1] - bounds[k])
    for k in range(idx.shape[0]):
        if idx[k] < 0 or idx[k] >= n:
            raise ValueError(f"project_simplices: index {idx[k]} outside 0..{n - 1}")
    cdef double[::1] scratch = np.empty(max(widest, 1))
    with nogil:
        for k in range(bounds.shape[0] - 1):
            _project_one(&v[0], &idx[bounds[k]], bounds[k + 1] - bounds[k], &out[0], &scratch[0])
