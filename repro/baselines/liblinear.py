"""LIBLINEAR (the ``liblinear-official`` package) as every caller reads it.

Its Python binding returns a model whose decision values are for its *first*
label (LIBLINEAR orders labels by first appearance), and draws its coordinate
order from the C library's ``rand()``: two things each caller would otherwise
have to get right again.
"""
from __future__ import annotations

import numpy as np


def coefficients(model, n_features: int):
    """``(w, b)`` of a trained binary model with labels +1 / -1, signed so that
    a positive decision value means +1 (``b`` is 0 for a model trained without
    ``-B``: LIBLINEAR's own ``get_decfun_bias`` says so)."""
    sign = 1.0 if model.get_labels()[0] == 1 else -1.0
    w = np.array([model.get_decfun_coef(j + 1) for j in range(n_features)])
    return sign * w, sign * model.get_decfun_bias()


def l2loss_primal_converged(w, b, A, d, C, eps=0.01) -> bool:
    """Whether ``(w, b)`` from LIBLINEAR ``-s 2 -B 1 -c C -e eps`` (squared hinge,
    penalised bias) passes LIBLINEAR's own stop, recomputed here in float64:
    ||grad f(w)|| <= eps max(min(#pos, #neg), 1) / l ||grad f(0)|| (linear.cpp,
    l2r_l2_svc with TRON; -e's default for -s 2 is 0.01). The Python binding
    reports neither the gradient nor whether TRON stopped at its iteration cap,
    so a model it returns is not known converged until this says so (issue 47).
    f = 1/2 ||(w, b)||^2 + C sum_i max(0, 1 - d_i (x_i'w + b))^2 is LSVM's
    primal (7) at nu = 2C, gamma = -b: :func:`repro.objectives.squared_hinge_gradient`."""
    from ..objectives import squared_hinge_gradient

    d = np.asarray(d, dtype=float)
    nu = 2.0 * C
    zero = squared_hinge_gradient(np.zeros(A.shape[1]), 0.0, A, d, nu)
    grad = squared_hinge_gradient(w, -b, A, d, nu)
    positives = int(np.sum(d > 0))
    scale = max(min(positives, d.size - positives), 1) / d.size
    return bool(np.linalg.norm(grad) <= eps * scale * np.linalg.norm(zero))


def seed_rand(seed: int = 1) -> None:
    """Seed the C library's ``rand()``, whose state LIBLINEAR's coordinate order
    comes from, as its command line starts it (the default seed, 1). Through the
    Python binding the state is whatever earlier calls in the process left, so a
    fit at -e 0.1 differs with what ran before it (seen as a 1.5e-3 relative
    change of LIBLINEAR -s 3's primal on a1a between test orders); seeded, the
    run is the same whatever came first."""
    import ctypes

    ctypes.CDLL(None).srand(seed)
