"""LIBLINEAR (liblinear-official) as the comparisons call it: the problem built
apart from the training, so that only ``train`` is timed (building its problem
is a copy of X into LIBLINEAR's own nodes, which our solvers do not pay). A
model is read with :func:`repro.baselines.liblinear.coefficients`."""
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
