"""Time the dense paths of pyx/_linalg.pxd: BLAS (dgemv / ddot / daxpy) against
the row-view loops, the measurement quoted in that header.

    PYTHONPATH=. python benchmarks/bench_linalg.py

Not a test: timings depend on the machine and its load. Prints the median of
repeated calls in microseconds and the speed-up of BLAS over the loop.
"""
import timeit

import numpy as np

from repro._kernels.primitives import matvec, rmatvec
from repro.solvers._validation import as_rows_input


def median_us(fn, repeat=15):
    number = max(1, int(0.02 / max(timeit.timeit(fn, number=1), 1e-7)))
    return 1e6 * np.median(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main():
    rng = np.random.default_rng(0)
    print(f"{'shape':>14} {'product':<28} {'loop us':>10} {'blas us':>10} {'speed-up':>9}")
    for n, d in [(200, 50), (2000, 500), (20000, 100), (500, 5000), (100000, 20)]:
        X = rng.standard_normal((n, d))
        rows = as_rows_input(X)
        w = rng.standard_normal(d)
        cases = [("X w", lambda b: matvec(rows, w, None, b)),
                 ("X[idx] w, |idx| = n/10",
                  (lambda idx: lambda b: matvec(rows, w, idx, b))(
                      rng.choice(n, n // 10, replace=False).astype(np.int32)))]
        for frac in (1.0, 0.5, 0.25, 0.1, 0.01):
            u = rng.standard_normal(n) * (rng.random(n) < frac)
            cases.append((f"X' u, {frac:.0%} of u nonzero",
                          (lambda u: lambda b: rmatvec(rows, u, None, b))(u)))
        for name, fn in cases:
            loop, blas = median_us(lambda: fn(False)), median_us(lambda: fn(True))
            print(f"{str((n, d)):>14} {name:<28} {loop:10.1f} {blas:10.1f} {loop / blas:9.2f}")


if __name__ == "__main__":
    main()
