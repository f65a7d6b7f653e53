"""10-fold cross-validation of our SMO beside SVC's: the cost of many small
fits (the one-vs-one problems of multi-class sets), where the per-problem
Python layer around the solver counts as much as the solver.

``cross_val_score(estimator, X, y, cv=10)`` (stratified, unshuffled folds;
accuracy) on sets scaled to [-1, 1] once, on the whole set (the estimators'
cost is measured, not a protocol); RBF gamma 0.5, C = 1, tol 1e-3 (SVC 2e-3,
the same stopping quantity; see kernel_svm). GS-SVM (no C) beside them.
"""
from __future__ import annotations

import numpy as np

from .data import scaled
from .measure import check_size, row, side_by_side

NAME = "smo_cv"
GAMMA, C, TOL = 0.5, 1.0, 1e-3
BASELINE = "LIBSVM (SVC)"
SETS = {"full": ("vowel", "segment", "iris"), "tiny": ("iris",)}
REPEAT = {"full": 5, "tiny": 2}


def makers():
    from sklearn.svm import SVC

    from ..solvers import GSSVM, SMO

    # every setting named, with the traces these timings were recorded with
    return {"SMO (second order)": lambda: SMO(C=C, gamma=GAMMA, tol=TOL, working_set="second_order",
                                              history_every=100),
            "SMO (Keerthi, cache)": lambda: SMO(C=C, gamma=GAMMA, tol=TOL, working_set="keerthi",
                                                modification=2, kernel_cache=True,
                                                history_every=100),
            "GS-SVM": lambda: GSSVM(kernel="rbf", gamma=GAMMA, history_every=10),
            BASELINE: lambda: SVC(C=C, kernel="rbf", gamma=GAMMA, tol=2 * TOL)}


def compare(size: str) -> list[dict]:
    from sklearn.model_selection import cross_val_score

    check_size(size)
    rows = []
    for name in SETS[size]:
        X, y = scaled(name)
        measured = side_by_side(makers(), lambda model: cross_val_score(model, X, y, cv=10), REPEAT[size])
        base = float(np.mean(measured.result(BASELINE)))
        for solver in ("SMO (second order)", "SMO (Keerthi, cache)", "GS-SVM"):
            rows.append(row(NAME, solver, BASELINE, name,
                            f"10-fold CV, {X.shape[0]} x {X.shape[1]}, {len(np.unique(y))} classes; "
                            f"rbf gamma {GAMMA:g}, C {C:g}", measured,
                            measured.best(solver), measured.best(BASELINE),
                            accuracy="10-fold CV mean", accuracies=(float(np.mean(measured.result(solver))), base),
                            note="GS-SVM: hard-margin, no C" if solver == "GS-SVM" else ""))
    return rows
