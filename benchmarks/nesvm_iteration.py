"""NESVM: time per Nesterov step against the two bare sparse matrix-vector
products it needs (issue 15, Performance: at most 1.5x).

One step of Algorithm 1 is X w (the margins, Eq. 15) and X'u (the gradient,
Eq. 16) plus O(n + d) vector work. The bare products are scipy's CSR
``X @ w`` and ``X.T @ u`` on the same matrix (n x d, without the bias column
NESVM handles apart), best of REPEATS timings of BARE_LOOPS products each.
NESVM's step: the fit at STEPS_HI steps minus the fit at STEPS_LO steps
(tol tiny, no trace: history_every=None), divided by the difference, so the
set-up (row norms, the Lipschitz constant, validation) cancels; best of
REPEATS each. Threads pinned to 1 (threadpoolctl, and the environment).

Run:  REPRO_DATA_MIRROR=../shared/datasets python benchmarks/nesvm_iteration.py
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import warnings  # noqa: E402
from time import perf_counter  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from repro.datasets import load  # noqa: E402
from repro.solvers import NESVM  # noqa: E402

DATASETS = ("a9a", "w8a")
REPEATS = 5
STEPS_LO, STEPS_HI = 200, 1200
BARE_LOOPS = 200


def fit_seconds(X, y, steps):
    best = np.inf
    for _ in range(REPEATS):
        est = NESVM(C=1.0, mu=5.0, tol=1e-300, max_iter=steps, history_every=None)
        start = perf_counter()
        est.fit(X, y)
        best = min(best, perf_counter() - start)
    assert int(np.sum(est.n_iter_)) == steps, "the run stopped before its step budget"
    return best


def bare_seconds(X):
    """Best time of one X @ w plus one X.T @ u (scipy CSR), per pair."""
    rng = np.random.default_rng(0)
    w, u = rng.standard_normal(X.shape[1]), rng.random(X.shape[0])
    best = np.inf
    for _ in range(REPEATS):
        start = perf_counter()
        for _ in range(BARE_LOOPS):
            m = X @ w
            g = X.T @ u
        best = min(best, (perf_counter() - start) / BARE_LOOPS)
    assert m.shape[0] == X.shape[0] and g.shape[0] == X.shape[1]
    return best


def main():
    print(f"{'set':8s} {'n':>7s} {'d':>5s} {'nnz':>9s} {'NESVM us/step':>14s} {'2 matvecs us':>13s} "
          f"{'ratio':>6s}")
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for name in DATASETS:
            X, y = load(name)
            X = sp.csr_matrix(X, dtype=float)
            y = np.where(y > 0, 1.0, -1.0)
            step = (fit_seconds(X, y, STEPS_HI) - fit_seconds(X, y, STEPS_LO)) / (STEPS_HI - STEPS_LO)
            bare = bare_seconds(X)
            print(f"{name:8s} {X.shape[0]:7d} {X.shape[1]:5d} {X.nnz:9d} {1e6 * step:14.1f} "
                  f"{1e6 * bare:13.1f} {step / bare:6.2f}", flush=True)
    print("ratio: NESVM's time per step over the two bare products' (target: at most 1.5)")


if __name__ == "__main__":
    main()
