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


def seed_rand(seed: int = 1) -> None:
    """Seed the C library's ``rand()``, whose state LIBLINEAR's coordinate order
    comes from, as its command line starts it (the default seed, 1). Through the
    Python binding the state is whatever earlier calls in the process left, so a
    fit at -e 0.1 differs with what ran before it (seen as a 1.5e-3 relative
    change of LIBLINEAR -s 3's primal on a1a between test orders); seeded, the
    run is the same whatever came first."""
    import ctypes

    ctypes.CDLL(None).srand(seed)
