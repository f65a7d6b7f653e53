"""LSVM's time and iterations against the number of points m, beside LIBLINEAR.

    PYTHONPATH=. python benchmarks/lsvm_scaling.py [--sizes 1e4 1e5 1e6] [--nu 1/m]

Not a test: timings depend on the machine and its load. The paper's Sec. 5 times
LSVM on synthetic data of up to millions of points in 10 dimensions; its data
generator is not ours to use offline, so the data here is a stand-in: A has
i.i.d. N(0, 1) entries in 10 dimensions, the labels are the side of a random
hyperplane through a point near the origin (d = sign(A w* - b*), w* ~ N(0, I),
b* = 0.3), and 10% of the labels are flipped so the classes overlap (slacks are
positive), all from one seed. The same dense A goes to both solvers.

LSVM: ``repro.solvers.LSVM`` (SMW path) with the authors' defaults (tol 1e-5,
at most 100 iterations, alpha = 1.9/nu) and ``--nu`` (default '1/m', their
code's default; '1' is the estimator's). LIBLINEAR: liblinear-official ``-s 2
-B 1`` (squared hinge, primal Newton; the bias a feature of value 1, penalised
as LSVM's gamma) with ``C = nu / 2``: LSVM's primal (7) is ``1/2 (w'w + gamma^2)
+ nu/2 sum xi^2`` and LIBLINEAR's ``1/2 w'w + C sum xi^2``, so the objectives
are the same up to b = -gamma; both are graded by
``repro.objectives.squared_hinge_primal``. LIBLINEAR's time excludes building its
problem (a copy of A into its sparse nodes); LSVM's fit includes its validation,
forming H = D[A -e], H'H and the Cholesky factor.

Per iteration: the median gap between successive ``history_`` times (the trace's
own cost excluded) of a separate fit run for 20 iterations (tol 1e-300: the
stopping rule may need as few as 1), against the median time of the two dense matrix-vector
products with A (A'z and Aq, 10 columns) that one iteration needs (the target:
at most 2x). BLAS and OpenMP are pinned to ``--threads`` threads (threadpoolctl;
recorded in the output).
"""
import argparse
import json
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_info, threadpool_limits

from repro.papers.lsvm.jobs import make_data  # the data of the workflow's lsvm_scaling table
from repro.objectives import squared_hinge_primal
from repro.solvers import LSVM


def median_time(fn, repeat=7):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def run_lsvm(A, d, nu):
    est = LSVM(nu=nu)
    t0 = time.perf_counter()
    est.fit(A, d)
    fit_s = time.perf_counter() - t0
    # the cost of an iteration, apart from how many the stopping rule needs
    # (with nu = 1/m a few): 20 iterations with a tol no step meets
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        timed = LSVM(nu=nu, tol=1e-300, max_iter=20).fit(A, d)
    t = timed.history_["time"]
    per_iter = float(np.median(np.diff(t)))
    nu_value = 1.0 / len(d) if nu == "1/m" else float(nu)
    w, gamma = est.coef_[0], -est.intercept_[0]
    # classes_ = [-1, 1]: the estimator's +1 is d's +1
    return {"fit_s": fit_s, "n_iter": int(est.n_iter_), "converged": bool(est.converged_),
            "per_iter_s": per_iter, "setup_s": float(t[0]) - per_iter,
            "primal": float(squared_hinge_primal(w, gamma, A, d, nu_value)),
            "accuracy": float(est.score(A, d))}


def run_liblinear(A, d, nu_value):
    from liblinear import liblinearutil

    t0 = time.perf_counter()
    prob = liblinearutil.problem(d, A, bias=1)
    build_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    model = liblinearutil.train(prob, f"-s 2 -B 1 -c {nu_value / 2.0!r} -q")
    train_s = time.perf_counter() - t0
    n = A.shape[1]
    coef = np.array([model.get_decfun_coef(j + 1) for j in range(n)])
    b = model.get_decfun_bias()
    # LIBLINEAR orders its labels by first appearance: the sign of its +1
    sign = 1.0 if model.get_labels()[0] == 1 else -1.0
    coef, b = sign * coef, sign * b
    del prob, model
    acc = float(np.mean(np.where(A @ coef + b > 0, 1.0, -1.0) == d))
    return {"build_s": build_s, "train_s": train_s, "accuracy": acc,
            "primal": float(squared_hinge_primal(coef, -b, A, d, nu_value))}


def two_matvecs(A):
    rng = np.random.default_rng(1)
    z, q = rng.standard_normal(A.shape[0]), rng.standard_normal(A.shape[1])
    return median_time(lambda: (A.T @ z, A @ q), repeat=15)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e4, 1e5, 1e6])
    parser.add_argument("--nu", default="1/m", help="'1/m' or a number")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--no-liblinear", action="store_true")
    parser.add_argument("--out", help="write the records as JSON here")
    args = parser.parse_args()
    nu = args.nu if args.nu == "1/m" else float(args.nu)
    records = []
    with threadpool_limits(limits=args.threads):
        pools = [(p["internal_api"], p["num_threads"]) for p in threadpool_info()]
        print(f"threads: {pools}")
        print(f"{'m':>9} {'nu':>8} {'it':>4} {'conv':>5} {'fit s':>8} {'it ms':>8} "
              f"{'2 mv ms':>8} {'ratio':>6} {'LL s':>8} {'LSVM primal':>14} {'LL primal':>14} "
              f"{'acc':>6} {'LL acc':>6}")
        for m in (int(s) for s in args.sizes):
            A, d = make_data(m)
            nu_value = 1.0 / m if nu == "1/m" else nu
            rec = {"m": m, "n": A.shape[1], "nu": nu_value, "threads": pools,
                   "lsvm": run_lsvm(A, d, nu), "two_matvecs_s": two_matvecs(A)}
            if not args.no_liblinear:
                rec["liblinear"] = run_liblinear(A, d, nu_value)
            records.append(rec)
            ls, ll = rec["lsvm"], rec.get("liblinear", {})
            ratio = ls["per_iter_s"] / rec["two_matvecs_s"]
            print(f"{m:9d} {nu_value:8.2g} {ls['n_iter']:4d} {str(ls['converged']):>5} "
                  f"{ls['fit_s']:8.3f} {1e3 * ls['per_iter_s']:8.3f} "
                  f"{1e3 * rec['two_matvecs_s']:8.3f} {ratio:6.2f} "
                  f"{ll.get('train_s', float('nan')):8.3f} {ls['primal']:14.8g} "
                  f"{ll.get('primal', float('nan')):14.8g} {ls['accuracy']:6.4f} "
                  f"{ll.get('accuracy', float('nan')):6.4f}", flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(records, fh, indent=1)


if __name__ == "__main__":
    main()
