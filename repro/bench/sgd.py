"""Pegasos and LDM's ASGD beside scikit-learn's SGDClassifier, for the same
number of examples.

Pegasos: both minimise lambda/2 ||w||^2 + 1/m sum hinge(1 - y w'x), no bias:
SGDClassifier(loss='hinge', alpha=lambda, learning_rate='optimal',
fit_intercept=False), eta_t = 1/(alpha (t + t0)), the schedule closest to
Pegasos' 1/(lambda t); EPOCHS passes with tol=None (no early stop), and
Pegasos the same number of single-example steps, without a trace (SGD keeps
none). The objective is computed for both by repro.objectives.hinge_primal.

LDM's ASGD (Algorithm 2; its eta0 search included): EPOCHS * m steps, each
drawing two examples, against averaged SGD (average=True, alpha = 1/(C m),
fit_intercept=False), the SVM LDM reduces to at lambda1 = lambda2 = 0. They
minimise different objectives: the training accuracies are compared.
"""
from __future__ import annotations

from ..objectives import hinge_primal
from .data import binary
from .measure import check_size, row, side_by_side

BASELINE = "SGDClassifier"
PEGASOS = {"full": (("a9a", "w8a", "ijcnn1"), 50), "tiny": (("a1a",), 5)}
LDM_SETS = {"full": (("a9a", "w8a"), (10.0, 100.0)), "tiny": (("a1a",), (10.0,))}
REPEAT = {"full": 3, "tiny": 2}
LAMBDA = 1e-4
LDM_LAMBDAS = 2.0 ** -5
LDM_EPOCHS = 5


def pegasos_vs_sgd(size: str) -> list[dict]:
    from sklearn.linear_model import SGDClassifier

    from ..solvers import Pegasos

    check_size(size)
    sets, epochs = PEGASOS[size]
    rows = []
    for name in sets:
        X, y = binary(name)
        m = X.shape[0]

        def objective(w):
            return float(hinge_primal(w, X, y, 1.0 / (LAMBDA * m))) * LAMBDA
        makers = {variant: (lambda v=variant: Pegasos(lambda_=LAMBDA, n_iter=epochs * m, variant=v,
                                                      random_state=0, history_every=None))
                  for variant in ("slides", "code")}
        makers[BASELINE] = lambda: SGDClassifier(loss="hinge", penalty="l2", alpha=LAMBDA,
                                                 learning_rate="optimal", fit_intercept=False,
                                                 max_iter=epochs, tol=None, random_state=0)
        measured = side_by_side(makers, lambda model: model.fit(X, y), REPEAT[size])
        sgd = measured.result(BASELINE)
        for variant in ("slides", "code"):
            ours = measured.result(variant)
            rows.append(row("pegasos_sgd", f"Pegasos ({variant})", BASELINE, name,
                            f"lambda {LAMBDA:g}, {epochs} passes' worth of single-example steps; "
                            f"{m} x {X.shape[1]}", measured, measured.best(variant), measured.best(BASELINE),
                            objective="lambda/2 |w|^2 + mean hinge (min)",
                            objectives=(objective(ours.coef_[0]), objective(sgd.coef_[0])),
                            accuracy="training", accuracies=(ours.score(X, y), sgd.score(X, y))))
    return rows


def ldm_asgd_vs_sgd(size: str) -> list[dict]:
    from sklearn.linear_model import SGDClassifier

    from ..solvers import LDM

    check_size(size)
    sets, c_values = LDM_SETS[size]
    rows = []
    for name in sets:
        X, y = binary(name)
        m = X.shape[0]
        for C in c_values:
            makers = {"LDM": lambda: LDM(C=C, lambda1=LDM_LAMBDAS, lambda2=LDM_LAMBDAS, solver="asgd",
                                         n_epochs=LDM_EPOCHS, random_state=0),
                      BASELINE: lambda: SGDClassifier(loss="hinge", average=True, alpha=1.0 / (C * m),
                                                      max_iter=LDM_EPOCHS, tol=None, fit_intercept=False,
                                                      random_state=0)}
            measured = side_by_side(makers, lambda model: model.fit(X, y), REPEAT[size])
            ours, sgd = measured.result("LDM"), measured.result(BASELINE)
            rows.append(row("ldm_asgd_sgd", "LDM (ASGD)", f"{BASELINE} (averaged)", name,
                            f"C {C:g}, lambda1 = lambda2 = 2^-5, {LDM_EPOCHS} epochs (LDM: its eta0 search "
                            f"included); {m} x {X.shape[1]}", measured, measured.best("LDM"),
                            measured.best(BASELINE), accuracy="training",
                            accuracies=(ours.score(X, y), sgd.score(X, y)),
                            note="different objectives (LDM's margin mean and variance terms): accuracy only"))
    return rows
