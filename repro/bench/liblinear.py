"""LIBLINEAR (liblinear-official) as the comparisons call it: the problem built
apart from the training, so that only ``train`` is timed (building its problem
is a copy of X into LIBLINEAR's own nodes, which our solvers do not pay)."""
from __future__ import annotations

import numpy as np


def problem(X, y, bias: float):
    from liblinear import liblinearutil

    return liblinearutil.problem(np.asarray(y, dtype=float), X, bias=bias)


def trainer(X, y, options: str, bias: float = 1.0):
    """A call that trains LIBLINEAR with ``options`` (``-B`` and ``-q`` added)
    on a problem built now (untimed): the subject of a timed measurement."""
    from liblinear import liblinearutil

    prob = problem(X, y, bias)
    return lambda: liblinearutil.train(prob, f"{options} -B {bias!r} -q")


def coefficients(model, n_features: int):
    """``(w, b)`` of a trained binary model, signed for y = +1 (LIBLINEAR orders
    its labels by first appearance)."""
    sign = 1.0 if model.get_labels()[0] == 1 else -1.0
    w = np.array([model.get_decfun_coef(j + 1) for j in range(n_features)])
    return sign * w, sign * model.get_decfun_bias()
