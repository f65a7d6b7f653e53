"""Who is compared, at which one setting, and which problem each solves.

One fixed parameter setting per (solver, kernel), chosen so that solvers of
the same problem solve it at the same constants: C = 1 for every hinge and
squared-hinge model, the RBF width gamma = 0.05 (the GS-SVM paper's theta,
SMO's default and the package's benchmarks' value), Pegasos' lambda = 1 / (C
n) (its objective times 1/lambda is the bias-free C-SVM's at C = 1), LSVM's
nu = 2 C (its (7) is LIBLINEAR ``-s 2 -B 1`` at C = nu / 2), and otherwise
each solver's own defaults (stopping rules and tolerances as shipped, so the
time is what a user gets). No trace is kept while timing (``history_every``
None where the solver has one).

A :class:`Problem` names the objective (``repro.objectives``) that every
solver of that problem is graded by, the reference included; its ``key`` is
what the page groups by when it asks which solver reached the optimum.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

C = 1.0
GAMMA = 0.05
HARD_C = 1e6        # HardMarginSVM's box, and its reference's C
LSVM_NU = 2.0 * C   # (7) = LIBLINEAR -s 2 at C = nu / 2
NESVM_MU = 5.0      # Section IV's smoothing parameter (NESVM's default)
HOMOTOPY = dict(homotopy=True, mu0=1.0, mu=0.01, prox_center="warm", tol=1e-7)
LDM_LAMBDA = 2.0 ** -4  # lambda1 = lambda2, LDM's defaults


@dataclass(frozen=True)
class Problem:
    """An optimisation problem and the objective that grades its solvers."""
    key: str          # short id (the CSV's 'problem')
    title: str        # what the page says it is
    objective: str    # the repro.objectives function, as the page names it


PROBLEMS = {p.key: p for p in (
    Problem("c-svm", "C-SVM, hinge loss, bias not penalised, C = 1",
            "hinge_primal / kernel_hinge_primal"),
    Problem("c-svm-hard", "C-SVM at C = 1e6 (the hard-margin stand-in), bias not penalised",
            "kernel_dual, 0 <= alpha <= 1e6, sum y alpha = 0 (the primal at C = 1e6 is too "
            "coarse a yardstick)"),
    Problem("hard-dual-nobias", "hard-margin SVM dual without bias (GS-SVM's Eq. 1), early stop",
            "kernel_dual (no equality constraint)"),
    Problem("c-svm-penalised-bias", "C-SVM, hinge loss, bias penalised as a feature of value 1, C = 1",
            "hinge_primal on [X, 1]"),
    Problem("c-svm-nobias", "C-SVM without bias, hinge loss, C = 1",
            "hinge_primal / kernel_hinge_primal, intercept 0"),
    Problem("squared-hinge", "squared hinge, bias penalised (LSVM's (7)), nu = 2 (C = 1)",
            "squared_hinge_primal / kernel_squared_hinge_primal"),
    Problem("lp-svm", "LP-SVM: ||w||_1 + C hinge, bias not penalised, C = 1",
            "nesvm_primal('LP') / nesvm_kernel_primal('LP')"),
    Problem("ls-svm", "LS-SVM: 1/2 ||w||^2 + C sum (1 - y f)^2, C = 1",
            "nesvm_primal('LS') / nesvm_kernel_primal('LS')"),
    Problem("ldm", "LDM (Eq. 5), no bias, C = 1, lambda1 = lambda2 = 2^-4",
            "ldm_primal / ldm_kernel_primal"),
)}


@dataclass(frozen=True)
class Entry:
    """One row of the table: a solver at its one setting on one kernel.

    ``make(n_train)`` returns what ``fit`` trains: an estimator, or for
    LIBLINEAR the option string. ``family`` says how the fitted model is read
    (``repro.solvers_compared.models``). ``full_gram``: it forms the n x n
    kernel matrix (refused beyond ``KERNEL_MEMORY_MB``, as the package's
    solvers refuse it)."""
    solver: str
    kernel: str
    problem: str
    setting: str
    make: Callable
    family: str = "ours"
    reference: bool = False
    full_gram: bool = False
    extra: dict = field(default_factory=dict)


def _smo(working_set, modification=2):
    """SMO on one path, every setting named (the estimator's defaults are a
    user's: tests/test_experiment_settings.py)."""
    from repro.solvers import SMO
    return lambda kernel: (lambda n: SMO(C=C, kernel=kernel, gamma=GAMMA, working_set=working_set,
                                          modification=modification, kernel_cache=True,
                                          history_every=None))


def _entries():
    from sklearn.svm import SVC

    from repro.solvers import (ASGDSVM, GSSVM, LDM, LSVM, NESVM, BiasFreeSVM, HardMarginSVM,
                               LinearSVM, Pegasos)

    both = ("linear", "rbf")
    out = []
    for kernel in both:
        g = f", gamma {GAMMA}" if kernel == "rbf" else ""
        out += [
            Entry("GSSVM", kernel, "hard-dual-nobias", f"run to its stopping rule{g}",
                  lambda n, k=kernel: GSSVM(kernel=k, gamma=GAMMA, history_every=None)),
            Entry("SMO (Modification 1)", kernel, "c-svm", f"C 1{g}, tol 1e-3, 200 MB row cache",
                  _smo("keerthi", modification=1)(kernel)),
            Entry("SMO (Modification 2)", kernel, "c-svm", f"C 1{g}, tol 1e-3, 200 MB row cache",
                  _smo("keerthi", modification=2)(kernel)),
            Entry("SMO (second order)", kernel, "c-svm", f"C 1{g}, tol 1e-3, WSS 2, shrinking",
                  _smo("second_order")(kernel)),
            Entry("LIBSVM (SVC)", kernel, "c-svm", f"C 1{g}, tol 2e-3 (= SMO's tol 1e-3), 200 MB",
                  lambda n, k=kernel: SVC(C=C, kernel=k, gamma=GAMMA, tol=2e-3, cache_size=200),
                  family="svc", reference=True),
            Entry("HardMarginSVM", kernel, "c-svm-hard", f"C 1e6{g}, tol 1e-3",
                  lambda n, k=kernel: HardMarginSVM(kernel=k, gamma=GAMMA, C=HARD_C,
                                                    working_set="keerthi", history_every=None)),
            Entry("LIBSVM (SVC), C = 1e6", kernel, "c-svm-hard", f"C 1e6{g}, tol 2e-3",
                  lambda n, k=kernel: SVC(C=HARD_C, kernel=k, gamma=GAMMA, tol=2e-3,
                                          cache_size=200),
                  family="svc", reference=True),
            Entry("NESVM C-SVM", kernel, "c-svm", f"mu 5 (Section IV), tol 1e-6 relative{g}",
                  lambda n, k=kernel: NESVM(model="C", C=C, mu=NESVM_MU, kernel=k, gamma=GAMMA,
                                            history_every=None),
                  full_gram=kernel == "rbf"),
            Entry("NESVM C-SVM (homotopy)", kernel, "c-svm",
                  f"homotopy mu 1 -> 0.01, warm prox-centre, tol 1e-7 relative{g}",
                  lambda n, k=kernel: NESVM(model="C", C=C, kernel=k, gamma=GAMMA,
                                            history_every=None, **HOMOTOPY),
                  full_gram=kernel == "rbf"),
            Entry("NESVM LP-SVM", kernel, "lp-svm", f"mu 5, tol 1e-6 relative{g}",
                  lambda n, k=kernel: NESVM(model="LP", C=C, mu=NESVM_MU, kernel=k, gamma=GAMMA,
                                            history_every=None),
                  full_gram=kernel == "rbf"),
            Entry("NESVM LS-SVM", kernel, "ls-svm", f"tol 1e-6 relative{g}",
                  lambda n, k=kernel: NESVM(model="LS", C=C, kernel=k, gamma=GAMMA,
                                            history_every=None),
                  full_gram=kernel == "rbf"),
            Entry("LSVM", kernel, "squared-hinge", f"nu 2, tol 1e-5{g}",
                  lambda n, k=kernel: LSVM(nu=LSVM_NU, kernel=k, gamma=GAMMA, history_every=None),
                  full_gram=kernel == "rbf"),
            Entry("LDM (coordinate descent)", kernel, "ldm",
                  f"C 1, lambda1 = lambda2 = 2^-4, tol 1e-2{g}",
                  lambda n, k=kernel: LDM(C=C, lambda1=LDM_LAMBDA, lambda2=LDM_LAMBDA, kernel=k,
                                          gamma=GAMMA, solver="cd"),
                  full_gram=kernel == "rbf"),
            Entry("BiasFreeSVM (LDM paper)", kernel, "c-svm-nobias", f"C 1, tol 1e-3{g}",
                  lambda n, k=kernel: BiasFreeSVM(C=C, kernel=k, gamma=GAMMA),
                  full_gram=kernel == "rbf"),
        ]
    out += [
        Entry("LDM (ASGD)", "linear", "ldm", "C 1, lambda1 = lambda2 = 2^-4, 5 epochs",
              lambda n: LDM(C=C, lambda1=LDM_LAMBDA, lambda2=LDM_LAMBDA, kernel="linear",
                            solver="asgd")),
        Entry("LinearSVM", "linear", "c-svm-penalised-bias", "C 1, tol 0.1, bias feature 1",
              lambda n: LinearSVM(C=C, history_every=None)),
        Entry("LIBLINEAR -s 3 -B 1", "linear", "c-svm-penalised-bias", "C 1, -e 0.1, -B 1",
              lambda n: f"-s 3 -c {C!r} -B 1 -q", family="liblinear", reference=True,
              extra={"bias": 1.0}),
        Entry("Pegasos", "linear", "c-svm-nobias", "lambda 1/(C n), 10^6 steps of 1, last iterate",
              lambda n: Pegasos(lambda_=1.0 / (C * n), random_state=0, history_every=None)),
        Entry("ASGDSVM (LDM paper)", "linear", "c-svm-nobias", "C 1, 5 epochs",
              lambda n: ASGDSVM(C=C)),
        Entry("LIBLINEAR -s 3", "linear", "c-svm-nobias", "C 1, -e 0.1, no bias",
              lambda n: f"-s 3 -c {C!r} -q", family="liblinear", reference=True,
              extra={"bias": -1.0}),
        Entry("LIBLINEAR -s 2 -B 1", "linear", "squared-hinge", "C 1 (= nu / 2), -e 0.1, -B 1",
              lambda n: f"-s 2 -c {LSVM_NU / 2!r} -B 1 -q", family="liblinear", reference=True,
              extra={"bias": 1.0}),
    ]
    return out


ENTRIES = _entries()
