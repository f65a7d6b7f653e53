"""Small-fit overhead: 10-fold ``cross_val_score`` of SMO and GS-SVM against SVC.

A script, not a test (timings vary with the machine). For each data set the
features are scaled to [-1, 1] once (RangeScaler, on the whole set: the point is
the estimators' cost, not the protocol), then ``cross_val_score(estimator, X, y,
cv=10)`` (default scoring, accuracy) is timed for

* ``SVC(C, gamma, tol=1e-3)`` (scikit-learn's LIBSVM, the reference),
* ``SMO(C, gamma, tol=1e-3, kernel_cache=True)`` (same problem, same tolerance),
* ``GSSVM(gamma)`` (greedy stagewise hard-margin: a different algorithm, no C),

with every BLAS / OpenMP pool pinned to one thread (threadpoolctl), repeats
interleaved (estimator-major within a repeat, so a slow spell on the shared
machine hits all three) and the best repeat kept. Printed: seconds and the
ratio to SVC. Usage::

    REPRO_DATA_MIRROR=/work/shared/datasets PYTHONPATH=. \\
        python benchmarks/cv_overhead.py [--repeats 7] [--C 1] [--gamma 0.5]

Measured on the 2-core development machine (Python 3.11, scikit-learn 1.9.1,
C=1, gamma=0.5, best of 7; ratio = time / SVC time):

    (filled in below the table printed by the runs before and after the
    overhead work; see RESULTS)
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

DATASETS = ("vowel", "segment", "iris")


def estimators(C, gamma):
    return {
        "SVC": lambda: SVC(C=C, gamma=gamma, tol=1e-3),
        "SMO": lambda: SMO(C=C, gamma=gamma, tol=1e-3, kernel_cache=True),
        "GSSVM": lambda: GSSVM(gamma=gamma),
    }


def time_cv(make, X, y):
    start = time.perf_counter()
    scores = cross_val_score(make(), X, y, cv=10)
    return time.perf_counter() - start, float(np.mean(scores))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--C", type=float, default=1.0)
    parser.add_argument("--gamma", type=float, default=0.5)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    args = parser.parse_args(argv)

    data = {}
    for name in args.datasets:
        X, y = load(name)
        data[name] = (RangeScaler(feature_range=(-1.0, 1.0)).fit_transform(X), y)
    makers = estimators(args.C, args.gamma)
    best = {(d, e): np.inf for d in data for e in makers}
    accuracy = {}
    with threadpool_limits(limits=1):
        for _ in range(args.repeats):
            for d, (X, y) in data.items():
                for e, make in makers.items():
                    seconds, acc = time_cv(make, X, y)
                    best[d, e] = min(best[d, e], seconds)
                    accuracy[d, e] = acc

    print(f"10-fold cross_val_score, C={args.C:g}, gamma={args.gamma:g}, tol=1e-3, "
          f"best of {args.repeats}, 1 thread")
    print(f"{'dataset':8s} {'estimator':9s} {'seconds':>9s} {'x SVC':>7s} {'accuracy':>9s}")
    for d in data:
        for e in makers:
            ratio = best[d, e] / best[d, "SVC"]
            print(f"{d:8s} {e:9s} {best[d, e]:9.4f} {ratio:7.2f} {accuracy[d, e]:9.4f}")


if __name__ == "__main__":
    main()
