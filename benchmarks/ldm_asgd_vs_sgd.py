"""LDM's ASGD (Algorithm 2) against scikit-learn's averaged SGD for the same epochs.

LDM: repro.solvers.LDM(solver='asgd', C, lambda1, lambda2, n_epochs=EPOCHS):
EPOCHS * m steps, each drawing two examples (Eq. 15), plus its eta0 search
(one plain-SGD epoch on at most 1,000 rows per candidate step; see
repro.solvers.LDM._search_eta0). SGDClassifier(loss='hinge', average=True,
alpha=1/(C m), max_iter=EPOCHS, tol=None, fit_intercept=False): the SVM LDM
reduces to at lambda1 = lambda2 = 0, EPOCHS * m single-example steps. The issue's
target: LDM at most 2x SGDClassifier's time (it draws two examples per step).

Printed per set: each time (best of REPEATS, interleaved, one thread), LDM's
time with and without its eta0 search (without: the same fit with the eta0 the
search chose handed in, so the steps are identical: the coefficients are
checked equal), the search's own time, the ratios to SGDClassifier, and the
training accuracies (a sanity check that both learned something).
Data: a9a and w8a (training files), as loaded (both are 0/1 features already).

Run:  REPRO_DATA_MIRROR=../shared/datasets python benchmarks/ldm_asgd_vs_sgd.py [C ...]
(default: C = 10, 50, 100, the paper's grid; lambda1 = lambda2 = 2^-5, its middle)
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

from time import perf_counter  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.linear_model import SGDClassifier  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from repro.datasets import load  # noqa: E402
from repro.solvers import LDM  # noqa: E402

import sys  # noqa: E402

LAMBDA1, LAMBDA2 = 2.0 ** -5, 2.0 ** -5
C_VALUES = (10.0, 50.0, 100.0)
EPOCHS = 5
REPEATS = 5
DATASETS = ("a9a", "w8a")


def ldm(C, eta0=None):
    """LDM's ASGD; with ``eta0`` the search is replaced by that value (the
    instance attribute shadows the method: the fit is otherwise the same)."""
    model = LDM(C=C, lambda1=LAMBDA1, lambda2=LAMBDA2, solver="asgd", n_epochs=EPOCHS, random_state=0)
    if eta0 is not None:
        model._search_eta0 = lambda *args: eta0
    return model


def timed_search(model, record):
    """Wrap ``model``'s eta0 search to record its own time."""
    search = model._search_eta0

    def wrapper(*args):
        start = perf_counter()
        value = search(*args)
        record.append(perf_counter() - start)
        return value
    model._search_eta0 = wrapper
    return model


def main(C):
    print(f"\nC={C:g}, lambda1=lambda2=2^{np.log2(LAMBDA1):g}, {EPOCHS} epochs, best of {REPEATS} "
          "(interleaved), 1 thread")
    print(f"{'data':5} {'m':>6} {'SGD s':>8} {'LDM s':>8} {'LDM-nosearch s':>15} {'search s':>9} "
          f"{'ratio':>6} {'ratio nosearch':>15} {'acc SGD':>8} {'acc LDM':>8}")
    for name in DATASETS:
        X, y = load(name)
        m = X.shape[0]
        eta0 = ldm(C).fit(X, y).eta0_[0]
        times = {"sgd": [], "ldm": [], "nosearch": []}
        searches = []
        models = {}
        for _ in range(REPEATS):
            makers = {"sgd": lambda: SGDClassifier(loss="hinge", average=True, alpha=1.0 / (C * m),
                                                   max_iter=EPOCHS, tol=None, fit_intercept=False,
                                                   random_state=0),
                      "ldm": lambda: timed_search(ldm(C), searches),
                      "nosearch": lambda: ldm(C, eta0)}
            for key, make in makers.items():
                model = make()
                start = perf_counter()
                model.fit(X, y)
                times[key].append(perf_counter() - start)
                models[key] = model
        if not np.array_equal(models["ldm"].coef_, models["nosearch"].coef_):
            raise AssertionError("the fit with eta0 handed in differs from the searched one")
        best = {k: min(v) for k, v in times.items()}
        acc = {k: np.mean(models[k].predict(X) == y) for k in ("sgd", "ldm")}
        print(f"{name:5} {m:6d} {best['sgd']:8.4f} {best['ldm']:8.4f} {best['nosearch']:15.4f} "
              f"{min(searches):9.4f} {best['ldm'] / best['sgd']:6.2f} {best['nosearch'] / best['sgd']:15.2f} "
              f"{acc['sgd']:8.4f} {acc['ldm']:8.4f}")


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        for c in (map(float, sys.argv[1:]) if len(sys.argv) > 1 else C_VALUES):
            main(c)
