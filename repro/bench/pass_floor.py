"""The floor of an iteration: what one pass over the data costs when nothing
but the products is done, beside what our solvers' iterations cost.

* NESVM's step (Algorithm 1: X w for the margins, X'u for the gradient, plus
  O(n + d) vector work) against scipy's two bare CSR products ``X @ w`` and
  ``X.T @ u`` on the same matrix. The step: the fit at STEPS[1] steps minus the
  fit at STEPS[0] (tol tiny, no trace), divided by the difference, so the
  set-up (row norms, the Lipschitz constant, validation) cancels.
* LSVM's iteration (SMW path: A'z and Aq with 10 columns, plus the m-vector
  work) against the two dense products: the median gap between successive
  ``history_`` times of a 20-iteration fit (tol no step meets).
* Our kernels' own dense products (repro._kernels.primitives matvec and
  rmatvec, the row-view loops and the BLAS path of pyx/_linalg.pxd) against
  NumPy's ``X @ w`` and ``X.T @ u``.

Every ratio is per iteration (or per product pair): 1 is the floor.
"""
from __future__ import annotations

import warnings

import numpy as np

from .data import binary
from .measure import check_size, row, side_by_side

NAME = "pass_floor"
REPEAT = {"full": 5, "tiny": 2}
NESVM_SETS = {"full": ("a9a", "w8a"), "tiny": ("a1a",)}
STEPS = {"full": (200, 1200), "tiny": (50, 250)}
LSVM_POINTS = {"full": 1_000_000, "tiny": 10_000}
LSVM_ITERATIONS = 20
DENSE_SHAPES = {"full": ((20_000, 100), (2_000, 500)), "tiny": ((2_000, 50),)}
BARE = "two bare products"


def loop(fn, times: int):
    """A call running ``fn`` ``times`` times: a product of microseconds is timed
    over many calls, and the measurement divided by ``times``."""
    def run():
        for _ in range(times):
            fn()
    return run


def nesvm_step(size: str) -> list[dict]:
    from sklearn.exceptions import ConvergenceWarning

    from ..solvers import NESVM

    lo, hi = STEPS[size]
    rows = []
    for name in NESVM_SETS[size]:
        X, y = binary(name)
        rng = np.random.default_rng(0)
        w, u = rng.standard_normal(X.shape[1]), rng.random(X.shape[0])
        loops = hi - lo  # as many product pairs as the steps measured

        def fit(steps):
            return lambda: NESVM(C=1.0, mu=5.0, kernel="linear", tol=1e-300, max_iter=steps,
                                 history_every=None).fit(X, y)
        makers = {"hi": lambda: fit(hi), "lo": lambda: fit(lo), BARE: lambda: loop(lambda: (X @ w, X.T @ u), loops)}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            measured = side_by_side(makers, lambda f: f(), REPEAT[size])
        if int(np.sum(measured.result("hi").n_iter_)) != hi:
            raise RuntimeError(f"NESVM stopped before its {hi} steps on {name}")
        step = (measured.best("hi") - measured.best("lo")) / (hi - lo)
        rows.append(row(NAME, "NESVM step", "scipy CSR X @ w + X.T @ u", name,
                        f"per step: (fit at {hi} - fit at {lo} steps) / {hi - lo}; {X.shape[0]} x {X.shape[1]}, "
                        f"nnz {X.nnz}", measured, step, measured.best(BARE) / loops,
                        note="time per step and per product pair"))
    return rows


def lsvm_iteration(size: str) -> list[dict]:
    from sklearn.exceptions import ConvergenceWarning

    from ..papers.lsvm.jobs import make_data
    from ..solvers import LSVM

    m = LSVM_POINTS[size]
    A, d = make_data(m)
    rng = np.random.default_rng(1)
    z, q = rng.standard_normal(A.shape[0]), rng.standard_normal(A.shape[1])
    # history_every=1: every iteration's time is read from the trace below
    makers = {"LSVM": lambda: (lambda: LSVM(nu=1.0 / m, tol=1e-300, max_iter=LSVM_ITERATIONS,
                                            history_every=1).fit(A, d)),
              BARE: lambda: loop(lambda: (A.T @ z, A @ q), LSVM_ITERATIONS)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        measured = side_by_side(makers, lambda f: f(), REPEAT[size])
    per_iteration = float(np.median(np.diff(measured.result("LSVM").history_["time"])))
    return [row(NAME, "LSVM iteration", "NumPy A.T @ z + A @ q", "synthetic (lsvm_scaling's data)",
                f"median gap between the {LSVM_ITERATIONS} iterations' trace times; m {m}, n {A.shape[1]}, dense",
                measured, per_iteration, measured.best(BARE) / LSVM_ITERATIONS,
                note="time per iteration and per product pair; the fit's best time "
                     f"{measured.best('LSVM'):.3g} s includes forming H'H")]


def dense_primitives(size: str) -> list[dict]:
    from .._kernels.primitives import matvec, rmatvec
    from ..solvers._validation import as_rows_input

    rng = np.random.default_rng(0)
    rows = []
    for n, d in DENSE_SHAPES[size]:
        X = rng.standard_normal((n, d))
        rows_input = as_rows_input(X)
        w, u = rng.standard_normal(d), rng.standard_normal(n)
        times = max(1, 20_000_000 // (n * d))  # about 0.05 s of products per timing

        def ours(blas):
            return lambda: loop(lambda: (matvec(rows_input, w, None, blas), rmatvec(rows_input, u, None, blas)),
                                times)
        makers = {"loops": ours(False), "blas": ours(True), BARE: lambda: loop(lambda: (X @ w, X.T @ u), times)}
        measured = side_by_side(makers, lambda f: f(), REPEAT[size])
        for key, label in (("loops", "row-view loops"), ("blas", "BLAS path")):
            rows.append(row(NAME, f"primitives matvec + rmatvec ({label})", "NumPy X @ w + X.T @ u",
                            f"random normal {n} x {d}", f"dense, {times} product pairs a timing", measured,
                            measured.best(key) / times, measured.best(BARE) / times,
                            note="time per product pair"))
    return rows


def compare(size: str) -> list[dict]:
    check_size(size)
    return nesvm_step(size) + lsvm_iteration(size) + dense_primitives(size)
