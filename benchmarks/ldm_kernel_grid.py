"""Kernel LDM on the largest regular set: one fit, and Table 3's CV grid per partition,
against LIBSVM's (scikit-learn's SVC) grid on the same partition.

Data: german (ldm-german, 1000 x 59), partition 0 of Tables 2/3
(repro.papers.ldm.jobs.partitions), its training half (500 rows), scaled to
[0, 1] on it; RBF kernel exp(-||x-z||^2 / (2 w^2)), w = width x delta.

1. One fit at a fixed setting (C = 10, lambda1 = lambda2 = 2^-5, width 1 x delta)
   on the precomputed Gram matrix: LDM (dual CD, Algorithm 1) against SVC; best
   of REPEATS (interleaved). LDM's first fit pays its eigendecomposition, later
   fits of the same Gram matrix find it in the solver's cache: both are printed
   (cold: the cache cleared before each fit).
2. The grid of one partition as Table 3 runs it: repro.experiments.selection.
   select_and_test with ldm.ScoreGrid over ldm.grid (LDM: 5 widths x 3 C x 7 x 7
   lambdas = 735 points, SVM: 15 points), 5-fold inner CV and the refit; once each.

Threads pinned to 1. Run:
  REPRO_DATA_MIRROR=../shared/datasets python benchmarks/ldm_kernel_grid.py
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import warnings  # noqa: E402
from time import perf_counter  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from repro.papers.ldm import jobs as L  # noqa: E402
from repro.experiments.selection import select_and_test  # noqa: E402
from repro.kernels import squared_distances  # noqa: E402
from repro.solvers import ldm as ldm_module  # noqa: E402

DATASET = "german"
SETTING = {"C": 10.0, "lambda1": 2.0 ** -5, "lambda2": 2.0 ** -5, "width_factor": 1.0}
REPEATS = 5


def clear_caches():
    for name in ("_EIGH_CACHE", "_R_CACHE"):
        cache = getattr(ldm_module, name, None)
        if cache is not None:
            cache.clear()


def one_fit(G, y):
    times = {"SVC": [], "LDM cold": [], "LDM cached": []}
    for _ in range(REPEATS):
        for name in times:
            method = "SVM" if name == "SVC" else "LDM"
            if name == "LDM cold":
                clear_caches()
            model = L.make_estimator(method, "rbf", SETTING, len(y))
            start = perf_counter()
            model.fit(G, y)
            times[name].append(perf_counter() - start)
    return {k: min(v) for k, v in times.items()}


def main():
    X, y, _ = L.load(DATASET)
    protocol = L.PROTOCOLS["full"]
    outer = L.partitions(y, protocol)[0]
    Xf, = L.scale01(X[outer.train])
    yf = y[outer.train]
    G = L.rbf(squared_distances(Xf, Xf), SETTING["width_factor"] * L.mean_distance(Xf))
    print(f"{DATASET}: partition 0, training half {len(yf)} rows, RBF; setting {SETTING}; 1 thread")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        best = one_fit(G, yf)
        print(f"one fit (best of {REPEATS}): SVC {best['SVC']:.4f} s, LDM {best['LDM cold']:.4f} s "
              f"(cold), {best['LDM cached']:.4f} s (eigendecomposition cached); ratio LDM/SVC "
              f"{best['LDM cold'] / best['SVC']:.2f} cold, {best['LDM cached'] / best['SVC']:.2f} cached")
        grids = {}
        for method in ("SVM", "LDM"):
            clear_caches()
            points = L.grid(method, "rbf", protocol)
            start = perf_counter()
            chosen = select_and_test(X, y, outer, points, L.ScoreGrid(method, "rbf"), protocol.inner_folds,
                                     L.INNER_SEED)
            grids[method] = perf_counter() - start
            print(f"CV grid, {method}: {len(points)} points x {protocol.inner_folds} folds + refit: "
                  f"{grids[method]:.2f} s ({grids[method] / (len(points) * protocol.inner_folds + 1) * 1e3:.2f} "
                  f"ms a fit), chosen {chosen.params}, test accuracy {chosen.test_score:.4f}")
        print(f"grid ratio LDM/SVM per partition: {grids['LDM'] / grids['SVM']:.1f} "
              f"(per grid point: {grids['LDM'] / 735 / (grids['SVM'] / 15):.2f})")


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
