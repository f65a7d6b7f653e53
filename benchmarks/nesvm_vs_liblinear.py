"""NESVM against LIBLINEAR: time to a primal objective within TARGET (1e-3,
relative) of the optimum (issue 15, Performance; reported whichever way).

The problem: C-SVM at C = 1 with an unpenalised bias, P(w, b) = 1/2 ||w||^2 +
C sum hinge(1 - y (w'x + b)) (repro.objectives.hinge_primal), on the
training files of a9a, w8a and ijcnn1. Its optimum P* is the least primal
found by several solvers (printed with which): LIBLINEAR -s 3 at tol 1e-6
with bias feature B = 1 and B = 10 (its penalty on b, b^2 / (2 B^2), then
nearly vanishes, but the dual CD converges slowly), NESVM with homotopy to mu = 1e-3 (warm prox-centre, power L,
relative tol 1e-9, at most MAX_STEPS steps a stage), and our SMO at tol 1e-6 where it finishes within
SMO_CAP seconds (a forked, capped run). Every one is an upper bound on P*;
SMO's dual value, when it finishes, is a lower bound and is printed.

"Time to the target": a solver's whole fit (best of REPEATS, one thread;
once for a fit over REPEAT_UNDER seconds) whose final model is within
TARGET of P*: LIBLINEAR -s 3 -B 1 (the bias penalised, as one uses it), the
first of tol 1, 0.1, ..., 1e-5 that gets there; NESVM at Section IV's settings (mu = 5, tol 1e-3: it is not
expected to get there, its gap is printed), and the NESVM settings of
NESVM_SETTINGS (plain or homotopy, small mu, the alternatives' options that
get there; every setting at mu >= 0.01 is run, the mu = 0.001 ones only
when none of those got there; NESVM's time is the fastest that got there).
The stopping rule must fire: the time of a run that reaches the
target is the time to the target, as a user would get it.

Run:  REPRO_DATA_MIRROR=../shared/datasets python benchmarks/nesvm_vs_liblinear.py
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import sys  # noqa: E402
import warnings  # noqa: E402
from time import perf_counter  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from liblinear import liblinearutil  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from repro.datasets import load  # noqa: E402
from repro.experiments.timing import run_capped  # noqa: E402
from repro.objectives import hinge_primal  # noqa: E402
from repro.solvers import NESVM, SMO  # noqa: E402
from repro.solvers.nesvm import PRINTED_READINGS  # noqa: E402

C = 1.0
TARGET = 1e-3
REPEATS = 3
DATASETS = ("a9a", "w8a", "ijcnn1")
LIBLINEAR_TOLS = (1.0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5)
SMO_CAP = 60.0
MAX_STEPS = 50_000   # NESVM's step cap in every setting (a step: ~0.6 ms on a9a)
REPEAT_UNDER = 2.0   # a fit longer than this many seconds is timed once
# (label, options): tried in this order, each reported; the first within the
# target is NESVM's time to it
NESVM_SETTINGS = (
    ("Section IV (mu 5, tol 1e-3 absolute, printed L)", dict(tol=1e-3, **PRINTED_READINGS)),
    ("mu 0.01, power L, relative tol 1e-7", dict(mu=0.01, lipschitz="power", stop_rule="relative", tol=1e-7)),
    ("homotopy 1 -> 0.01, warm, power L, relative tol 1e-7",
     dict(homotopy=True, mu0=1.0, mu=0.01, prox_center="warm", lipschitz="power", stop_rule="relative",
          tol=1e-7)),
    ("mu 0.001, power L, relative tol 1e-8", dict(mu=1e-3, lipschitz="power", stop_rule="relative", tol=1e-8)),
    ("homotopy 0.1 -> 0.001, warm, power L, relative tol 1e-8",
     dict(homotopy=True, mu0=0.1, mu=1e-3, prox_center="warm", lipschitz="power", stop_rule="relative",
          tol=1e-8)),
)
REFERENCE_NESVM = dict(homotopy=True, mu0=0.01, mu=1e-3, prox_center="warm", lipschitz="power",
                       stop_rule="relative", tol=1e-9)


def liblinear_fit(X, y, tol, bias):
    prob = liblinearutil.problem(y, X, bias=bias)
    model = liblinearutil.train(prob, f"-s 3 -c {C!r} -e {tol!r} -B {bias!r} -q")
    sign = 1.0 if model.get_labels()[0] == 1 else -1.0
    w = np.array([model.get_decfun_coef(j + 1) for j in range(X.shape[1])])
    return sign * w, sign * model.get_decfun_bias()


def nesvm_fit(X, y, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = NESVM(C=C, history_every=None, **{"max_iter": MAX_STEPS, **options}).fit(X, y)
    return est.coef_.ravel(), float(est.intercept_[0]), int(np.sum(est.n_iter_))


def timed(fn):
    """(best of REPEATS seconds, the last value); once for a fit over REPEAT_UNDER seconds."""
    best, value = np.inf, None
    for _ in range(REPEATS):
        start = perf_counter()
        value = fn()
        best = min(best, perf_counter() - start)
        if best > REPEAT_UNDER:
            break
    return best, value


def smo_reference(X, y):
    def fit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est = SMO(C=C, kernel="linear", tol=1e-6).fit(X, y)
        w = np.asarray(est.support_vectors_.T @ est.dual_coef_.ravel()).ravel()
        return w, float(est.intercept_[0]), -float(np.ravel(est.dual_objective_)[0])
    run = run_capped(fit, SMO_CAP)
    return None if run.capped else (run.value, run.seconds)


def main(datasets):
    with threadpool_limits(limits=1):
        for name in datasets:
            X, y = load(name)
            X = sp.csr_matrix(X, dtype=float)
            y = np.where(y > 0, 1.0, -1.0)
            print(f"== {name}: n = {X.shape[0]}, d = {X.shape[1]}, C = {C:g}", flush=True)
            cands = {}
            for bias in (1.0, 10.0):
                w, b = liblinear_fit(X, y, 1e-6, bias)
                cands[f"LIBLINEAR -s 3 -B {bias:g} tol 1e-6"] = hinge_primal(w, X, y, C, b)
            w, b, it = nesvm_fit(X, y, REFERENCE_NESVM)
            cands[f"NESVM homotopy to mu 1e-3 ({it} steps)"] = hinge_primal(w, X, y, C, b)
            smo = smo_reference(X, y)
            lower = None
            if smo is None:
                print(f"   SMO tol 1e-6: capped at {SMO_CAP:g} s (not a candidate)")
            else:
                (w, b, lower), secs = smo
                cands[f"SMO tol 1e-6 ({secs:.0f} s)"] = hinge_primal(w, X, y, C, b)
            best = min(cands, key=cands.get)
            opt = cands[best]
            for k, v in cands.items():
                print(f"   candidate {k}: {v:.8g} (rel. {v / opt - 1:.1e})")
            print(f"   P* = {opt:.8g} from {best}" + (f"; SMO dual lower bound {lower:.8g} (gap "
                                                       f"{opt / lower - 1:.1e})" if lower else ""))

            ll_time = None
            for tol in LIBLINEAR_TOLS:
                secs, (w, b) = timed(lambda: liblinear_fit(X, y, tol, 1.0))
                gap = hinge_primal(w, X, y, C, b) / opt - 1
                print(f"   LIBLINEAR -s 3 -B 1 tol {tol:g}: {secs:.3f} s, gap {gap:.2e}", flush=True)
                if gap <= TARGET:
                    ll_time = secs
                    break
            ne_time = None
            for label, options in NESVM_SETTINGS:
                if ne_time is not None and options.get("mu", 5.0) < 0.01:
                    continue  # a setting at mu 0.01 got there: the smaller mu only costs more steps
                secs, (w, b, it) = timed(lambda: nesvm_fit(X, y, options))
                gap = hinge_primal(w, X, y, C, b) / opt - 1
                print(f"   NESVM {label}: {secs:.3f} s, {it} steps, gap {gap:.2e}", flush=True)
                if gap <= TARGET:
                    ne_time = secs if ne_time is None else min(ne_time, secs)
            if ll_time and ne_time:
                print(f"   time to within {TARGET:g}: NESVM {ne_time:.3f} s, LIBLINEAR {ll_time:.3f} s, "
                      f"NESVM / LIBLINEAR = {ne_time / ll_time:.1f}")
            else:
                print(f"   time to within {TARGET:g}: NESVM {ne_time}, LIBLINEAR {ll_time} (None: no setting "
                      f"tried got there)")


if __name__ == "__main__":
    main(sys.argv[1:] or DATASETS)
