"""Experiments of the Pegasos slides (pegasos_slides.txt, "Quick convergence to
suboptimal solutions"): how fast Pegasos approaches the optimum of
``lambda/2 ||w||^2 + 1/m sum_i max(0, 1 - y_i w'x_i)``.

The slides' claims (200 iterations -> 0.3 % above the optimum in 9.2 CPU
seconds, 560 iterations -> 0.1 %, SVM Light about 4 CPU hours) are on RCV1
category CCAT, which scikit-learn's ``fetch_rcv1`` downloads: offline it is
not in the cache or the mirror, its cells read ``unavailable offline``, and the
same experiment is run on a9a and w8a, shown beside the claims as ``not
compared (other data)``. When ``rcv1-ccat`` is in the cache (``snakemake
data`` on a machine with the network) its jobs are planned too.

What is measured, per dataset, lambda = ``LAMBDA`` (1e-4, the value of the
Pegasos paper's CCAT run; the slides name none) and batch size k:

* one **iteration** is one mini-batch step of size k (draw k distinct
  examples, step on the violators, project: repro.solvers.Pegasos with
  ``variant='slides'``); an iteration processes k examples, and every k gets
  the same budget of examples processed, ``Protocol.examples`` (the slides: "if
  kT is fixed the k does not play a significant role");
* one fit of ``examples / k`` iterations, traced every ``1/history_points`` of
  them; the **seconds** of a point are that fit's own history time (the time
  of the trace's objectives left out, repro.solvers.base.History);
* about ``points_per_decade`` of the traced iterations per decade are kept,
  and for each the iterate w_{t+1} is made again by a fit of t iterations with
  the same seed (the same draws: the iterates of a shorter run are a prefix of
  the long run's, which the records check: ``solver_objective`` is the long
  run's own trace at t, ``objective`` the refit's): its primal objective is
  computed by :func:`repro.objectives.hinge_primal` (times lambda, so that it
  is the slides' scale) and its test error on the test data;
* the optimum: LIBLINEAR (scikit-learn's LinearSVC, hinge loss, dual
  coordinate descent, no bias, C = 1/(lambda m)) at ``OPT_TOL``; LIBLINEAR is
  also run at the looser tolerances of ``liblinear_tols`` (its time to a given
  gap), and scikit-learn's SGDClassifier (hinge, alpha = lambda, no bias, its
  default 'optimal' learning rate, not tuned) for 1, 2, 4, ... epochs up to
  the same number of examples processed as Pegasos;
* test data: a9a's published test file; w8a's test file is not in the mirror,
  so an 80/20 stratified split of its training file with seed 0
  (:func:`repro.experiments.splits.published_test_or_holdout`, the same split as the GS-SVM
  speed table), said so in every record (``test_set``).

The times to 1 %, 0.3 % and 0.1 % above the optimum are read from the
records by the table step (``pegasos_report``): the first kept point, in
order of examples processed, whose gap is at most the threshold. All fits of
a job run in one process with BLAS/OpenMP pools pinned to one thread.
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from .. import datasets
from ..objectives import hinge_primal
from ..solvers import Pegasos
from . import TableSpec, report_builder
from .splits import published_test_or_holdout  # the one 80/20 split rule; see the module docstring
from .progress import duration
from .records import JobFiles, RecordSchema
from .timing import machine_record

PAPER = "pegasos"
LAMBDA = 1e-4
SEED = 0                    # random_state of Pegasos, SGD and LIBLINEAR (its CD order)
OPT_TOL = 1e-10             # LIBLINEAR's tolerance for the optimum
LIBLINEAR_MAX_ITER = 1_000_000  # a9a needs about 1.2e5 passes at OPT_TOL
THRESHOLDS = (0.01, 0.003, 0.001)  # relative gaps of the table: 1 %, 0.3 %, 0.1 %
CCAT = "CCAT"               # the slides' dataset, as the claims name it
CCAT_REGISTRY = "rcv1-ccat"
BASELINES_JOB = "baselines"


@dataclass(frozen=True)
class Protocol:
    datasets: tuple          # registry names; those not obtainable offline are not planned
    batch_sizes: tuple       # k
    examples: int            # examples processed per fit, k * T, the same for every k
    history_points: int = 1000   # traced iterations of a fit (its stride: T / history_points)
    points_per_decade: int = 20  # kept points (refitted, objective and test error)
    liblinear_tols: tuple = (1.0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-8, OPT_TOL)


PROTOCOLS = {
    # 2e7 examples: about 600 passes over a9a, 400 over w8a; enough for every
    # k to come within 0.1 % of the optimum on both (measured), 1 to 2 s a fit.
    "full": Protocol(datasets=(CCAT_REGISTRY, "a9a", "w8a"), batch_sizes=(1, 8, 64),
                     examples=20_000_000),
    # CI-sized: a9a only, a quarter of the examples, two batch sizes.
    "quick": Protocol(datasets=("a9a",), batch_sizes=(1, 64), examples=5_000_000,
                      history_points=200, points_per_decade=10,
                      liblinear_tols=(1.0, 1e-2, 1e-8, OPT_TOL)),
}


def obtainable_offline(name: str) -> bool:
    """Whether a dataset can be read without the network (cache, mirror or a
    stand-in). ``repro.datasets.availability`` says 'download' for rcv1-ccat
    even where the network is out, so 'unavailable' alone would not do."""
    return datasets.availability(name) in ("cached", "mirror", "stand-in")


def pegasos_job(k: int) -> str:
    return f"pegasos_k{k}"


def jobs(protocol: Protocol):
    """One job per (dataset, k) for Pegasos, one per dataset for the optimum
    and the baselines; datasets not obtainable offline are not planned."""
    for name in protocol.datasets:
        if not obtainable_offline(name):
            continue
        for k in protocol.batch_sizes:
            yield {"dataset": name, "job": pegasos_job(k)}
        yield {"dataset": name, "job": BASELINES_JOB}


def _data(dataset: str):
    X, y, Xt, yt, test_note = published_test_or_holdout(dataset)
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(f"{dataset}: the convergence experiment needs two classes, got {classes}")
    signs = np.where(y == classes[1], 1.0, -1.0)  # the estimators' positive class is classes_[1]
    return X, y, signs, Xt, yt, test_note


def objective(w, X, signs, lam: float = LAMBDA) -> float:
    """The slides' objective lambda/2 ||w||^2 + 1/m sum hinge, computed by
    repro.objectives (whose scale is 1/2 ||w||^2 + C sum hinge, C = 1/(lambda m))."""
    return lam * hinge_primal(np.ravel(w), X, signs, 1.0 / (lam * X.shape[0]))


def kept_iterations(iterations, per_decade: int) -> list:
    """About ``per_decade`` of the traced ``iterations`` per decade (the first
    traced at or after each point of a log grid), and the last."""
    its = np.asarray(iterations)
    grid = np.geomspace(its[0], its[-1], max(2, int(np.ceil(np.log10(its[-1] / its[0]) * per_decade)) + 1))
    idx = np.unique(np.searchsorted(its, grid, side="left").clip(0, len(its) - 1))
    return sorted(set(its[idx].tolist()) | {int(its[-1])})


def _base_record(dataset, X, Xt, test_note, job):
    return {"dataset": dataset, "job": job, "n_train": X.shape[0], "n_test": Xt.shape[0],
            "n_features": X.shape[1], "test_set": test_note, "lambda_": LAMBDA}


def run_pegasos(protocol: Protocol, dataset: str, k: int) -> pd.DataFrame:
    """Pegasos' trace for one (dataset, k): see the module docstring."""
    X, y, signs, Xt, yt, test_note = _data(dataset)
    start = time.perf_counter()
    T = protocol.examples // k
    stride = max(1, T // protocol.history_points)
    base = _base_record(dataset, X, Xt, test_note, pegasos_job(k))
    rows = []
    with threadpool_limits(limits=1):
        model = Pegasos(lambda_=LAMBDA, n_iter=T, batch_size=k, random_state=SEED,
                        history_every=stride).fit(X, y)
        h = model.history_
        trace = dict(zip(h["iteration"].tolist(), zip(h["time"].tolist(), h["objective"].tolist())))
        kept = kept_iterations(h["iteration"], protocol.points_per_decade)
        print(f"{dataset} k={k}: {T} iterations in {duration(trace[T][0])}, refitting {len(kept)} "
              "kept iterates", flush=True)  # the job's log
        for t in kept:
            again = Pegasos(lambda_=LAMBDA, n_iter=t, batch_size=k, random_state=SEED,
                            history_every=None).fit(X, y)
            seconds, solver_objective = trace[t]
            rows.append({**base, "method": "Pegasos", "batch_size": float(k), "tol": np.nan,
                         "iteration": t, "examples": t * k, "seconds": seconds,
                         "objective": objective(again.coef_, X, signs),
                         "solver_objective": solver_objective,
                         "test_error": 1.0 - again.score(Xt, yt)})
    return _finish(rows, start, protocol)


def run_baselines(protocol: Protocol, dataset: str) -> pd.DataFrame:
    """LIBLINEAR at every tolerance of the protocol (the tightest is the
    optimum) and SGDClassifier at 1, 2, 4, ... epochs up to Pegasos' examples."""
    from sklearn.linear_model import SGDClassifier
    from sklearn.svm import LinearSVC

    X, y, signs, Xt, yt, test_note = _data(dataset)
    start = time.perf_counter()
    m = X.shape[0]
    base = _base_record(dataset, X, Xt, test_note, BASELINES_JOB)
    epochs = sorted({2 ** j for j in range(int(np.log2(protocol.examples / m)) + 1)}
                    | {int(np.ceil(protocol.examples / m))})
    fits = [("LIBLINEAR", tol, lambda tol=tol: LinearSVC(
                loss="hinge", dual=True, fit_intercept=False, C=1.0 / (LAMBDA * m), tol=tol,
                max_iter=LIBLINEAR_MAX_ITER, random_state=SEED))
            for tol in protocol.liblinear_tols]
    fits += [("SGDClassifier", e, lambda e=e: SGDClassifier(
                loss="hinge", alpha=LAMBDA, fit_intercept=False, max_iter=e, tol=None,
                random_state=SEED))
             for e in epochs]
    rows = []
    with threadpool_limits(limits=1), warnings.catch_warnings():
        # LIBLINEAR at a loose tol, or at OPT_TOL hitting max_iter, warns; the
        # records carry its passes (iteration), which say so
        warnings.simplefilter("ignore", ConvergenceWarning)
        for method, setting, make in fits:
            model = make()
            t0 = time.perf_counter()
            model.fit(X, y)
            seconds = time.perf_counter() - t0
            passes = int(np.max(model.n_iter_))
            rows.append({**base, "method": method,
                         "batch_size": 1.0 if method == "SGDClassifier" else np.nan,
                         "tol": setting if method == "LIBLINEAR" else np.nan,
                         "iteration": passes, "examples": passes * m, "seconds": seconds,
                         "objective": objective(model.coef_, X, signs), "solver_objective": np.nan,
                         "test_error": 1.0 - model.score(Xt, yt)})
            print(f"{dataset} {method} {setting:g}: {passes} passes, {duration(seconds)}", flush=True)
    return _finish(rows, start, protocol)


def _finish(rows, start, protocol):
    seconds = time.perf_counter() - start
    frame = pd.DataFrame(rows)
    frame["budget_examples"] = protocol.examples
    frame["seed"] = SEED
    frame["job_seconds"] = seconds
    for key, value in machine_record(1).items():
        frame[key] = value
    return frame


def run(protocol: Protocol, dataset: str, job: str) -> pd.DataFrame:
    """One job of the convergence table (``jobs``)."""
    if job == BASELINES_JOB:
        return run_baselines(protocol, dataset)
    if job.startswith("pegasos_k") and job[len("pegasos_k"):].isdigit():
        return run_pegasos(protocol, dataset, int(job[len("pegasos_k"):]))
    raise ValueError(f"unknown job {job!r}: pegasos_k<batch size> or {BASELINES_JOB}")


def is_optimum(records: pd.DataFrame) -> pd.Series:
    """The records of LIBLINEAR at OPT_TOL (relative comparison only: np.isclose's
    default absolute 1e-8 would take tol = 1e-8 for 1e-10)."""
    return (records.method == "LIBLINEAR") & np.isclose(records.tol, OPT_TOL, rtol=1e-9, atol=0.0)


def optima(records: pd.DataFrame) -> pd.Series:
    """dataset -> the optimum: LIBLINEAR's objective at OPT_TOL (one record per dataset)."""
    opt = records[is_optimum(records)]
    if opt["dataset"].duplicated().any():
        raise ValueError(f"more than one optimum record for {sorted(set(opt.dataset[opt.dataset.duplicated()]))}")
    return opt.set_index("dataset")["objective"]


def with_gaps(records: pd.DataFrame) -> pd.DataFrame:
    """The records with ``gap``: objective / optimum - 1 (NaN where the
    dataset's optimum is not among the records)."""
    opt = optima(records)
    return records.assign(gap=records["objective"] / records["dataset"].map(opt) - 1.0)


def method_label(method: str, batch_size: float) -> str:
    return f"Pegasos (k={int(batch_size)})" if method == "Pegasos" else method


def times_to_gap(records: pd.DataFrame, thresholds=THRESHOLDS) -> pd.DataFrame:
    """Per (dataset, method, k): iterations, examples and seconds at the first
    kept point (in order of examples processed) within each threshold of the
    optimum (NaN: not reached), the final gap and test error."""
    gaps = with_gaps(records)
    rows = []
    keys = ["dataset", "method", "batch_size"]
    for (dataset, method, k), g in gaps.groupby(keys, sort=False, dropna=False):
        g = g.sort_values(["examples", "seconds"], kind="stable")
        last = g.iloc[-1]
        row = {"dataset": dataset, "method": method_label(method, k), "n_train": int(last.n_train),
               "test_set": last.test_set}
        for thr in thresholds:
            hit = g[g["gap"] <= thr]
            first = hit.iloc[0] if len(hit) else None
            tag = _pct(thr)
            row[f"iterations_to_{tag}"] = first.iteration if first is not None else np.nan
            row[f"examples_to_{tag}"] = first.examples if first is not None else np.nan
            row[f"seconds_to_{tag}"] = first.seconds if first is not None else np.nan
        row.update({"last_examples": int(last.examples), "last_gap_percent": 100 * last.gap,
                    "last_test_error_percent": 100 * last.test_error})
        rows.append(row)
    return pd.DataFrame(rows)


def _pct(threshold: float) -> str:
    """0.003 -> '0.3pct' (the metric names of the claims)."""
    return f"{100 * threshold:g}pct"


_SCHEMA = RecordSchema({
    "dataset": "str", "job": "str", "n_train": "int", "n_test": "int", "n_features": "int",
    "test_set": "str", "lambda_": "float", "method": "str", "batch_size": "float", "tol": "float",
    "iteration": "int", "examples": "int", "seconds": "float", "objective": "float",
    "solver_objective": "float", "test_error": "float", "budget_examples": "int", "seed": "int",
    "job_seconds": "float", "cpu_model": "str", "cpu_count": "int", "threads": "int",
    "thread_pools": "str"})


TABLES = {spec.id: spec for spec in (
    TableSpec("pegasos_convergence", PAPER, _SCHEMA,
              JobFiles("{dataset}/{job}.csv", {"dataset": "dataset", "job": "job"}),
              jobs=jobs, run=run, build=report_builder("pegasos_report", "convergence"),
              cost=lambda job: job["job_seconds"].iat[0]),
)}
