"""Small-fit overhead: 10-fold ``cross_val_score`` of SMO and GS-SVM against SVC.

A script, not a test (timings vary with the machine). For each data set the
features are scaled to [-1, 1] once (RangeScaler, on the whole set: the point is
the estimators' cost, not the protocol), then ``cross_val_score(estimator, X, y,
cv=10)`` (default scoring, accuracy) is timed for

* ``SVC(C, gamma, tol=1e-3)`` (scikit-learn's LIBSVM, the reference),
* ``SMO(C, gamma, tol=1e-3, kernel_cache=True)`` (same problem, same tolerance),
* ``GSSVM(gamma)`` (greedy stagewise hard-margin: a different algorithm, no C),

with every BLAS / OpenMP pool pinned to one thread (threadpoolctl; --unpinned
leaves them), repeats interleaved (each repeat times every data set and
estimator once, so a slow spell on the shared machine hits all of them) and the
best repeat kept. Printed: seconds, the ratio to SVC, and the time spent in the
Cython optimiser. Usage::

    REPRO_DATA_MIRROR=/work/shared/datasets PYTHONPATH=. \\
        python benchmarks/cv_overhead.py [--repeats 7] [--C 1] [--gamma 0.5] [--unpinned]

Measured on the 2-core development machine, shared with other work (Python
3.11, scikit-learn 1.9.1, OpenBLAS), C=1, gamma=0.5, 1 thread, best of 7;
ratio = seconds / SVC's seconds. "before": the code at e042f68; "after": this
branch (same alphas, support vectors and decision values; see below).

    dataset  estimator  before  after   solver alone (after)
    vowel    SMO         1.89   1.84    1.29
    vowel    GSSVM       0.96   0.80    0.31
    segment  SMO         2.07   2.10    1.85
    segment  GSSVM       0.60   0.56    0.36
    iris     SMO         1.02   1.05    0.14
    iris     GSSVM       0.87   0.89    0.04
    (SVC: vowel 0.050 s, segment 0.195 s, iris 0.0135 s before; 0.051 / 0.196 /
    0.0135 s after)

What the numbers say:

* With the threads pinned, GS-SVM is faster than SVC on all three sets and SMO
  is on par on Iris. SMO stays ~1.85x SVC on Vowel and ~2.1x on Segment
  because of its optimiser itself ("solver alone": the time inside smo_solve
  is already 1.29x and 1.85x SVC's whole cross-validation). That is the
  algorithm, not overhead: Keerthi's Modification 2 takes ~5x more steps than
  LIBSVM's second-order working-set selection with shrinking (mean steps per
  one-vs-one problem on the whole set: Vowel 401 vs 75, Segment 867 vs 131,
  Iris 132 vs 26), and ~70% of smo_solve's time is spent computing kernel rows
  (perf: kernel_row + exp). Changing that would change the fitted model, which
  this work must not do. The Python overhead around the solver (validation,
  one-vs-one bookkeeping, trace, prediction set-up) is ~2 ms per Vowel fold
  (55 problems) after the changes, about 30% of SMO's time there.
* The reported 1.5x-8x comes from unpinned runs on a busy machine: prediction
  multiplies the kernel block by the coefficients (a 53 x 438 x 55 product on a
  Vowel fold) with OpenBLAS's threaded GEMM, whose second thread waits for a
  core when another process holds it (16 ms instead of 0.06 ms seen). Unpinned,
  with one busy-loop process beside it, best of 3, two rounds:
      before: vowel SMO 5.54 / 2.12, GSSVM 3.85 / 2.11; segment SMO 3.37 / 2.56;
              iris SMO 1.02 / 1.85, GSSVM 0.67 / 1.29
      after:  vowel SMO 2.73 / 1.88, GSSVM 0.76 / 0.78; segment SMO 1.63 / 2.08;
              iris SMO 1.13 / 1.05, GSSVM 0.89 / 0.88
  Small products now run on one BLAS thread (repro.solvers.base.dense_product).

Changes behind "after": the small prediction products on one BLAS thread; the
one-vs-one votes in one np.add.at instead of a Python loop of 4 operations per
problem (bitwise the same sums); GSSVM's trace every 10th step by default
(history_every=10, the kernel skips the rest) instead of a Python call per step
(+40% on its 100-sample problems); the trace assembled once per fit; the
int32 work arrays of smo_solve filled in C instead of by np.full.

Decision values: with one BLAS thread (as here) they are bitwise those of
e042f68; OpenBLAS's threaded GEMM sums in another order, so an unpinned run of
the old code differs from either in the last bit (<= 2 ulp), as the old code
did between thread counts.
"""
import argparse
import time

import numpy as np
from sklearn.model_selection import cross_val_score
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from repro.datasets import load
from repro.datasets.preprocess import RangeScaler
from repro.solvers import GSSVM, SMO
from repro.solvers import gssvm as gssvm_module
from repro.solvers import smo as smo_module

DATASETS = ("vowel", "segment", "iris")


def estimators(C, gamma):
    return {
        "SVC": lambda: SVC(C=C, gamma=gamma, tol=1e-3),
        "SMO": lambda: SMO(C=C, gamma=gamma, tol=1e-3, kernel_cache=True),
        "GSSVM": lambda: GSSVM(gamma=gamma),
    }


_solver_seconds = [0.0]


def _timed(kernel):
    """The Cython entry point, adding its run time to _solver_seconds: the part
    of a cross-validation that is the optimiser itself (not validation,
    one-vs-one bookkeeping, prediction or scikit-learn's own work)."""
    def run(*args, **kwargs):
        start = time.perf_counter()
        try:
            return kernel(*args, **kwargs)
        finally:
            _solver_seconds[0] += time.perf_counter() - start
    return run


smo_module.smo_solve = _timed(smo_module.smo_solve)
gssvm_module.gs_svm = _timed(gssvm_module.gs_svm)


def time_cv(make, X, y):
    _solver_seconds[0] = 0.0
    start = time.perf_counter()
    scores = cross_val_score(make(), X, y, cv=10)
    return time.perf_counter() - start, _solver_seconds[0], float(np.mean(scores))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--C", type=float, default=1.0)
    parser.add_argument("--gamma", type=float, default=0.5)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--unpinned", action="store_true",
                        help="leave the BLAS / OpenMP thread pools as they are")
    args = parser.parse_args(argv)

    data = {}
    for name in args.datasets:
        X, y = load(name)
        data[name] = (RangeScaler(feature_range=(-1.0, 1.0)).fit_transform(X), y)
    makers = estimators(args.C, args.gamma)
    best = {(d, e): (np.inf, np.inf) for d in data for e in makers}
    accuracy = {}
    with threadpool_limits(limits=None if args.unpinned else 1):
        for _ in range(args.repeats):
            for d, (X, y) in data.items():
                for e, make in makers.items():
                    seconds, solver, acc = time_cv(make, X, y)
                    best[d, e] = min(best[d, e], (seconds, solver))
                    accuracy[d, e] = acc

    print(f"10-fold cross_val_score, C={args.C:g}, gamma={args.gamma:g}, tol=1e-3, "
          f"best of {args.repeats}, {'threads unpinned' if args.unpinned else '1 thread'}")
    print("solver s: the time in the Cython optimiser (smo_solve, gs_svm) of that run; "
          "solver x SVC: solver s / SVC's whole seconds")
    print(f"{'dataset':8s} {'estimator':9s} {'seconds':>9s} {'x SVC':>7s} {'solver s':>9s} "
          f"{'solver x SVC':>12s} {'accuracy':>9s}")
    for d in data:
        svc = best[d, "SVC"][0]
        for e in makers:
            seconds, solver = best[d, e]
            solver_cols = (f"{solver:9.4f} {solver / svc:12.2f}" if e != "SVC"
                           else f"{'':9s} {'':12s}")
            print(f"{d:8s} {e:9s} {seconds:9.4f} {seconds / svc:7.2f} {solver_cols} "
                  f"{accuracy[d, e]:9.4f}")


if __name__ == "__main__":
    main()
