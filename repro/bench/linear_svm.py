"""LinearSVM (dual coordinate descent, LIBLINEAR's ``-s 3`` algorithm) beside
LIBLINEAR ``-s 3`` itself (liblinear-official).

The same problem: 1/2 (||w||^2 + b^2) + C sum hinge(1 - y (w'x + b)) with the
bias a constant feature of value 1 (``-B 1``; ``fit_intercept=True,
intercept_scaling=1``), C = 1, and the same stopping rule (the projected
gradient's spread <= tol, ``-e``) at LIBLINEAR's default 0.1 and at 0.01.
LIBLINEAR stops ``-s 3`` at 300 passes whatever -e is (LinearSVM's docstring),
ours at 1000: where LIBLINEAR stops there first, the objectives show it.
LIBLINEAR's time is its ``train`` call (its problem built untimed); ours is
the whole ``fit``.
"""
from __future__ import annotations

import numpy as np

from ..objectives import hinge_primal
from ..baselines.liblinear import coefficients
from . import liblinear
from .data import binary
from .measure import call, check_size, row, side_by_side

NAME = "linear_svm"
C = 1.0
BASELINE = "LIBLINEAR -s 3"
SETS = {"full": ("a9a", "w8a"), "tiny": ("a1a",)}
TOLS = (0.1, 0.01)
REPEAT = {"full": 5, "tiny": 2}


def primal(w, b, X, y) -> float:
    """The objective both minimise: the bias regularised as a weight."""
    return float(hinge_primal(w, X, y, C, b)) + 0.5 * b * b


def compare(size: str) -> list[dict]:
    from ..solvers import LinearSVM

    check_size(size)
    rows = []
    for name in SETS[size]:
        X, y = binary(name)
        for tol in TOLS:
            makers = {"LinearSVM": lambda: (lambda: LinearSVM(C=C, tol=tol, history_every=None).fit(X, y)),
                      BASELINE: lambda: liblinear.trainer(X, y, f"-s 3 -c {C!r} -e {tol!r}")}
            measured = side_by_side(makers, call, REPEAT[size])
            ours = measured.result("LinearSVM")
            w, b = ours.coef_.ravel(), float(ours.intercept_[0])
            lw, lb = coefficients(measured.result(BASELINE), X.shape[1])
            acc = (float(ours.score(X, y)), float(np.mean(np.where(X @ lw + lb > 0, 1.0, -1.0) == y)))
            rows.append(row(NAME, "LinearSVM", BASELINE, name,
                            f"C {C:g}, -B 1, tol (-e) {tol:g}; {X.shape[0]} x {X.shape[1]}; "
                            f"ours {int(np.sum(ours.n_iter_))} passes", measured,
                            measured.best("LinearSVM"), measured.best(BASELINE),
                            objective="primal, bias regularised (min)",
                            objectives=(primal(w, b, X, y), primal(lw, lb, X, y)),
                            accuracy="training", accuracies=acc))
    return rows
