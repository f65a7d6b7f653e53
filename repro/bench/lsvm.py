"""LSVM (Mangasarian and Musicant's Lagrangian SVM, the SMW path) beside
LIBLINEAR ``-s 2`` (squared hinge, primal Newton) at 1e6 points.

The data of the workflow's lsvm_scaling table (repro.papers.lsvm.jobs.make_data:
10 dense N(0, 1) features, labels the side of a random hyperplane, 10 %
flipped; one seed). LSVM at the authors' defaults (tol 1e-5, alpha 1.9/nu)
with nu = 1/m, their code's default; LIBLINEAR ``-s 2 -B 1`` with C = nu/2:
LSVM's primal 1/2 (w'w + gamma^2) + nu/2 sum xi^2 is LIBLINEAR's 1/2 w'w
+ C sum xi^2 with the bias a feature (b = -gamma), so both are graded by
repro.objectives.squared_hinge_primal. LIBLINEAR's time is its ``train``
(its problem, a copy of A, built untimed); LSVM's fit includes its validation,
forming H = D[A -e], H'H and the Cholesky factor.
"""
from __future__ import annotations

import numpy as np

from ..objectives import squared_hinge_primal
from ..baselines.liblinear import coefficients
from . import liblinear
from .measure import call, check_size, row, side_by_side

NAME = "lsvm"
BASELINE = "LIBLINEAR -s 2"
POINTS = {"full": 1_000_000, "tiny": 10_000}
REPEAT = {"full": 3, "tiny": 2}


def compare(size: str) -> list[dict]:
    from ..papers.lsvm.jobs import make_data
    from ..solvers import LSVM

    check_size(size)
    m = POINTS[size]
    A, d = make_data(m)
    nu = 1.0 / m
    makers = {"LSVM": lambda: (lambda: LSVM(nu=nu, history_every=None).fit(A, d)),
              BASELINE: lambda: liblinear.trainer(A, d, f"-s 2 -c {nu / 2.0!r}")}
    measured = side_by_side(makers, call, REPEAT[size])
    ours = measured.result("LSVM")
    w, gamma = ours.coef_[0], -float(ours.intercept_[0])
    lw, lb = coefficients(measured.result(BASELINE), A.shape[1])
    acc = (float(ours.score(A, d)), float(np.mean(np.where(A @ lw + lb > 0, 1.0, -1.0) == d)))
    return [row(NAME, "LSVM", BASELINE, "synthetic (lsvm_scaling's data)",
                f"m {m}, n {A.shape[1]}, nu 1/m (LIBLINEAR C = nu/2); LSVM {int(ours.n_iter_)} iterations",
                measured, measured.best("LSVM"), measured.best(BASELINE),
                objective="squared-hinge primal (min)",
                objectives=(squared_hinge_primal(w, gamma, A, d, nu), squared_hinge_primal(lw, -lb, A, d, nu)),
                accuracy="training", accuracies=acc)]
