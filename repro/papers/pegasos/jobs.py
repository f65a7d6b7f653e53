"""The Pegasos slides' jobs (pegasos_slides.txt, "Quick convergence to
suboptimal solutions"): how fast Pegasos approaches the optimum of
``lambda/2 ||w||^2 + 1/m sum_i max(0, 1 - y_i w'x_i)``.

The slides' claims (200 iterations -> 0.3 % above the optimum in 9.2 CPU
seconds, 560 iterations -> 0.1 %, SVM Light about 4 CPU hours) are on RCV1
category CCAT, which scikit-learn's ``fetch_rcv1`` downloads: offline it is
not in the cache or the mirror, its cells read ``unavailable offline``, and the
same experiment is run on a9a, w8a, ijcnn1 and ``news20-halves`` (the mirror's
sparse text corpus news20.multiclass read as topics 1-10 against 11-20, a
**stand-in for CCAT**, labelled so wherever its results appear:
repro.datasets.registry says why that grouping), shown beside the claims as
``not compared (other data)``. When ``rcv1-ccat`` is in the cache
(``snakemake data`` on a machine with the network) its jobs are planned too.

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
* SVM-Light V6.02 (the slides' baseline; repro.baselines.svmlight, built by
  the workflow's rule svmlight_build, never committed) on the same objective:
  linear kernel, ``-b 0`` (no bias), C = 1/(lambda m), one fit per stopping
  tolerance ``-e`` of ``svmlight_tols``, each killed after ``svmlight_cap_s``
  seconds (its record then says so); its objective is computed from the
  weight vector read back from its model file. Its own job (``svmlight``) per
  dataset; where it cannot be built here (no compiler, no package index) the
  job's one record carries the reason (``note``) and its cells read
  unavailable;
* the kT experiment (the slides: "if kT is fixed the k does not play a
  significant role"): for each kT of ``kt_values`` and each k, the iterate after
  T = ceil(kT / k) iterations, refitted with the same seed (records with
  ``kT_target``; their seconds are that refit's own time, no trace);
* test data: a9a's and ijcnn1's published test files; w8a's test file is not
  in the mirror and news20.multiclass' test file is not in the registry, so an
  80/20 stratified split of the training file with seed 0
  (:func:`repro.experiments.splits.published_test_or_holdout`, the same split as the GS-SVM
  speed table), said so in every record (``test_set``).

The times to 1 %, 0.3 % and 0.1 % above the optimum are read from the
records by the table step (``pages``): the first kept point, in
order of examples processed, whose gap is at most the threshold. All fits of
a job run in one process with BLAS/OpenMP pools pinned to one thread.
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from ... import datasets
from ...experiments.progress import duration
from ...experiments.records import JobFiles, RecordSchema
from ...experiments.splits import published_test_or_holdout  # the one 80/20 split rule; see the module docstring
from ...experiments.timing import MACHINE_COLUMNS, machine_record
from ...objectives import hinge_primal
from ...solvers import Pegasos

PAPER = "pegasos"
LAMBDA = 1e-4
SEED = 0                    # random_state of Pegasos, SGD and LIBLINEAR (its CD order)
OPT_TOL = 1e-10             # LIBLINEAR's tolerance for the optimum
LIBLINEAR_MAX_ITER = 1_000_000  # a9a needs about 1.2e5 passes at OPT_TOL
THRESHOLDS = (0.01, 0.003, 0.001)  # relative gaps of the table: 1 %, 0.3 %, 0.1 %
CCAT = "CCAT"               # the slides' dataset, as the claims name it
CCAT_REGISTRY = "rcv1-ccat"
BASELINES_JOB = "baselines"
SVMLIGHT_JOB = "svmlight"
SVMLIGHT = "SVM-Light"
# stand-in dataset (registry name) -> the slides' dataset it stands in for
STANDINS = {"news20-halves": CCAT}


@dataclass(frozen=True)
class Protocol:
    datasets: tuple          # registry names; those not obtainable offline are not planned
    batch_sizes: tuple       # k
    examples: int            # examples processed per fit, k * T, the same for every k
    history_points: int = 1000   # traced iterations of a fit (its stride: T / history_points)
    points_per_decade: int = 20  # kept points (refitted, objective and test error)
    liblinear_tols: tuple = (1.0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-8, OPT_TOL)
    kt_values: tuple = (1e5, 1e6, 1e7)     # examples processed k*T at which every k is compared
    # the kT iterates again with these seeds (not SEED, whose iterates the claim
    # rows judge): what the gap ratio over k reads when only the draws differ,
    # the measured spread behind the claim's tolerance (kt_seed_noise)
    kt_seeds: tuple = tuple(range(1, 21))
    svmlight_tols: tuple = (1.0, 1e-1, 1e-2, 1e-3, 1e-4)  # svm_learn -e, one fit each
    svmlight_cap_s: float = 600.0          # wall-time cap of one svm_learn fit


PROTOCOLS = {
    # 2e7 examples: about 600 passes over a9a, 400 over w8a; enough for every
    # k to come within 0.1 % of the optimum on both (measured), 1 to 2 s a fit.
    # ijcnn1 and the news20 stand-in measured alike (measured: every SVM-Light
    # fit here takes under 4 s, far below the cap).
    "full": Protocol(datasets=(CCAT_REGISTRY, "a9a", "w8a", "ijcnn1", "news20-halves"),
                     batch_sizes=(1, 8, 64), examples=20_000_000),
    # CI-sized: a9a only, a quarter of the examples, two batch sizes.
    "quick": Protocol(datasets=("a9a",), batch_sizes=(1, 64), examples=5_000_000,
                      history_points=200, points_per_decade=10,
                      liblinear_tols=(1.0, 1e-2, 1e-8, OPT_TOL), kt_values=(1e5, 1e6), kt_seeds=(1, 2, 3, 4, 5),
                      svmlight_tols=(1e-1, 1e-3), svmlight_cap_s=120.0),
}
# The tiny test configuration's scale (config/test.yaml): the quick scale cut to a
# few seconds a job, so CI can run every rule locally and on a one-node SLURM.
PROTOCOLS["tiny"] = replace(PROTOCOLS["quick"], batch_sizes=(1,), examples=200_000, history_points=50,
                            liblinear_tols=(1.0, OPT_TOL), kt_values=(1e5,), kt_seeds=(1, 2, 3), svmlight_tols=(1e-1,),
                            svmlight_cap_s=20.0)


def pegasos_job(k: int) -> str:
    return f"pegasos_k{k}"


def jobs(protocol: Protocol):
    """One job per (dataset, k) for Pegasos, one per dataset for the optimum
    and the baselines and one for SVM-Light; datasets not obtainable offline
    are not planned."""
    for name in protocol.datasets:
        if not datasets.obtainable(name):  # rcv1-ccat: where downloads can happen
            continue
        for k in protocol.batch_sizes:
            yield {"dataset": name, "job": pegasos_job(k)}
        yield {"dataset": name, "job": BASELINES_JOB}
        yield {"dataset": name, "job": SVMLIGHT_JOB}


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
            "n_features": X.shape[1], "test_set": test_note, "lambda_": LAMBDA,
            "standin": dataset in STANDINS, "kT_target": np.nan, "note": ""}


def kt_iterations(protocol: Protocol, k: int) -> dict:
    """kT -> T = ceil(kT / k): the iterations of batch size k that process (at
    least) kT examples; kT above the budget are left out."""
    return {kt: int(np.ceil(kt / k)) for kt in protocol.kt_values if kt <= protocol.examples}


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
        # the kT experiment: the same seed, T = ceil(kT / k) iterations, timed alone;
        # then the same iterates with the other seeds (their spread: kt_seed_noise)
        for seed in (SEED, *protocol.kt_seeds):
            for kt, t in kt_iterations(protocol, k).items():
                again = Pegasos(lambda_=LAMBDA, n_iter=t, batch_size=k, random_state=seed,
                                history_every=None)
                t0 = time.perf_counter()
                again.fit(X, y)
                rows.append({**base, "method": "Pegasos", "batch_size": float(k), "tol": np.nan,
                             "iteration": t, "examples": t * k, "seconds": time.perf_counter() - t0,
                             "objective": objective(again.coef_, X, signs), "solver_objective": np.nan,
                             "test_error": 1.0 - again.score(Xt, yt), "kT_target": kt, "seed": seed})
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


def run_svmlight(protocol: Protocol, dataset: str) -> pd.DataFrame:
    """SVM-Light on the slides' objective (linear kernel, no bias, C = 1/(lambda
    m)), one fit per -e of the protocol, each capped at ``svmlight_cap_s``;
    one record with the reason where it cannot be had here."""
    from ...baselines import svmlight

    X, y, signs, Xt, yt, test_note = _data(dataset)
    start = time.perf_counter()
    m = X.shape[0]
    base = {**_base_record(dataset, X, Xt, test_note, SVMLIGHT_JOB), "method": SVMLIGHT,
            "batch_size": np.nan, "iteration": np.nan, "examples": np.nan, "seconds": np.nan,
            "objective": np.nan, "solver_objective": np.nan, "test_error": np.nan}
    folder = svmlight.default_dir()
    if not svmlight.available(folder):
        reason = svmlight.why_unavailable(folder) or (
            f"not built in {folder}: run `snakemake --cores 1 svmlight_build`")
        print(f"{dataset} {SVMLIGHT}: unavailable: {reason}", flush=True)
        return _finish([{**base, "tol": np.nan, "note": f"unavailable: {reason}"}], start, protocol)
    rows = []
    for tol in protocol.svmlight_tols:
        model = svmlight.SVMLight(C=1.0 / (LAMBDA * m), kernel="linear", tol=tol, fit_intercept=False,
                                  timeout=protocol.svmlight_cap_s, binaries=folder)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)  # its relaxed KKT: the objective says
                model.fit(X, y)
        except svmlight.TimeLimitExceeded:
            rows.append({**base, "tol": tol, "seconds": protocol.svmlight_cap_s,
                         "note": f"not reached in the cap ({protocol.svmlight_cap_s:g} s)"})
            print(f"{dataset} {SVMLIGHT} -e {tol:g}: killed at the cap", flush=True)
            continue
        rows.append({**base, "tol": tol, "iteration": model.n_iter_, "seconds": model.fit_seconds_,
                     "objective": objective(model.coef_, X, signs),
                     "test_error": 1.0 - model.score(Xt, yt),
                     "note": f"svm_learn cpu {model.stats_.get('cpu_seconds', np.nan):g} s"})
        print(f"{dataset} {SVMLIGHT} -e {tol:g}: {model.n_iter_} iterations, "
              f"{duration(model.fit_seconds_)}", flush=True)
    return _finish(rows, start, protocol)


def _finish(rows, start, protocol):
    seconds = time.perf_counter() - start
    frame = pd.DataFrame(rows)
    frame["budget_examples"] = protocol.examples
    # every fit's random_state is SEED (LIBLINEAR's CD order, SGD's and Pegasos'
    # draws; SVM-Light draws nothing) but the kT experiment's other seeds
    frame["seed"] = frame["seed"].fillna(SEED).astype(int) if "seed" in frame else SEED
    frame["job_seconds"] = seconds
    for key, value in machine_record(1).items():
        frame[key] = value
    return frame


def run(protocol: Protocol, dataset: str, job: str) -> pd.DataFrame:
    """One job of the convergence table (``jobs``)."""
    if job == BASELINES_JOB:
        return run_baselines(protocol, dataset)
    if job == SVMLIGHT_JOB:
        return run_svmlight(protocol, dataset)
    if job.startswith("pegasos_k") and job[len("pegasos_k"):].isdigit():
        return run_pegasos(protocol, dataset, int(job[len("pegasos_k"):]))
    raise ValueError(f"unknown job {job!r}: pegasos_k<batch size>, {BASELINES_JOB} or {SVMLIGHT_JOB}")


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


def kt_label(kt: float) -> str:
    """The method of a kT claim row: 'Pegasos (kT=1e+06)'."""
    return f"Pegasos (kT={kt:.0e})"


def traces(records: pd.DataFrame) -> pd.DataFrame:
    """The records of the convergence traces with their gaps: the kT refits
    and the records without an objective (SVM-Light unavailable or capped) left
    out, each (dataset, method, k) in its order of work: examples processed,
    and for SVM-Light (which counts none) its fits from the loosest -e to the
    tightest."""
    gaps = with_gaps(records)
    gaps = gaps[gaps["kT_target"].isna() & gaps["objective"].notna()]
    order = gaps["examples"].where(gaps["examples"].notna(), -gaps["tol"])
    return gaps.assign(_order=order).sort_values(["_order", "seconds"], kind="stable").drop(columns="_order")


def times_to_gap(records: pd.DataFrame, thresholds=THRESHOLDS) -> pd.DataFrame:
    """Per (dataset, method, k): iterations, examples and seconds at the first
    kept point (in order of work, ``traces``) within each threshold of the
    optimum (NaN: not reached), the final gap and test error."""
    gaps = traces(records)
    rows = []
    keys = ["dataset", "method", "batch_size"]
    for (dataset, method, k), g in gaps.groupby(keys, sort=False, dropna=False):
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
        row.update({"last_examples": last.examples, "last_seconds": last.seconds,
                    "last_gap_percent": 100 * last.gap,
                    "last_test_error_percent": 100 * last.test_error})
        rows.append(row)
    return _in_job_order(pd.DataFrame(rows), records)


def _in_job_order(frame: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """Rows per (dataset, method) in the records' order (datasets as planned;
    Pegasos by k, LIBLINEAR, SGDClassifier, SVM-Light), not in order of work."""
    if frame.empty:
        return frame
    keys = records.drop_duplicates(["dataset", "method", "batch_size"])
    rank = {(d, method_label(m, k)): i for i, (d, m, k) in
            enumerate(zip(keys.dataset, keys.method, keys.batch_size))}
    order = [rank[(d, m)] for d, m in zip(frame.dataset, frame.method)]
    return frame.iloc[np.argsort(order, kind="stable")].reset_index(drop=True)


def test_error_course(records: pd.DataFrame, thresholds=THRESHOLDS) -> pd.DataFrame:
    """Per (dataset, method, k), for the slides' "the lowest error on the test
    set is achieved much earlier": the first point (in order of work) where
    the test error is lowest, its examples and gap; the test error at the first
    point within each threshold and at the end; and ``lowest_over_0.1pct``,
    the examples at the lowest test error over the examples to 0.1 % (< 1:
    the lowest test error comes before the 0.1 %-accurate solution; where 0.1 %
    is not reached, over the last point's examples instead, which bounds the
    ratio from above, and ``reached_0.1pct`` False)."""
    rows = []
    for (dataset, method, k), g in traces(records).groupby(["dataset", "method", "batch_size"],
                                                            sort=False, dropna=False):
        best = g.loc[g["test_error"].idxmin()]  # idxmin: the first minimum, in order of work
        row = {"dataset": dataset, "method": method_label(method, k),
               "lowest_test_error_percent": 100 * best.test_error, "iteration_at_lowest": best.iteration,
               "examples_at_lowest": best.examples, "gap_percent_at_lowest": 100 * best.gap}
        for thr in thresholds:
            hit = g[g["gap"] <= thr]
            row[f"test_error_percent_at_{_pct(thr)}"] = 100 * hit["test_error"].iat[0] if len(hit) else np.nan
            if thr == min(thresholds):
                reached = hit["examples"].iat[0] if len(hit) else np.nan
        row["test_error_percent_at_end"] = 100 * g["test_error"].iat[-1]
        row["reached_0.1pct"] = bool(pd.notna(reached))
        denominator = reached if pd.notna(reached) else g["examples"].iat[-1]
        row["lowest_over_0.1pct"] = best.examples / denominator if denominator > 0 else np.nan
        rows.append(row)
    return _in_job_order(pd.DataFrame(rows), records)


def kt_gaps(records: pd.DataFrame, seeds=(SEED,)) -> pd.DataFrame:
    """The kT experiment: per (dataset, kT, k) the gap and test error of the
    iterate after ceil(kT / k) iterations, for the fits of ``seeds`` (the
    claim's: SEED, as every other fit of the table)."""
    peg = with_gaps(records)
    peg = peg[peg["kT_target"].notna() & peg["seed"].isin(seeds)]
    return (peg[["dataset", "kT_target", "batch_size", "iteration", "examples", "seconds", "gap",
                 "test_error"]]
            .sort_values(["dataset", "kT_target", "batch_size"], kind="stable").reset_index(drop=True))


def kt_spread(records: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, kT): the gaps over k, and ``gap_ratio_over_k`` = the
    largest gap over the smallest (1: k plays no role), with the k of each."""
    rows = []
    for (dataset, kt), g in kt_gaps(records).groupby(["dataset", "kT_target"], sort=False):
        worst, best = g.loc[g["gap"].idxmax()], g.loc[g["gap"].idxmin()]
        rows.append({"dataset": dataset, "kT": kt,
                     **{f"gap_percent_k{int(r.batch_size)}": 100 * r.gap for r in g.itertuples()},
                     "k_largest_gap": int(worst.batch_size), "k_smallest_gap": int(best.batch_size),
                     "gap_ratio_over_k": worst.gap / best.gap if best.gap > 0 else np.inf})
    return pd.DataFrame(rows)


NOISE_QUANTILE = 0.95  # of the gap ratio when only the draws differ: the claim's tolerance


def kt_seed_noise(records: pd.DataFrame, quantile: float = NOISE_QUANTILE) -> pd.DataFrame:
    """Per (dataset, kT): what ``gap_ratio_over_k`` reads when k plays no role.

    The claim's cell is the largest over the smallest of n_k gaps (one per k,
    each one seed's last iterate). Here the other seeds' gaps stand in for
    draws that differ in nothing but the random draws: at each k, every set of
    n_k of them gives a ratio max / min, and ``noise_factor`` is the
    ``quantile`` of those ratios pooled over the k (a ratio is free of the
    k's own level, so pooling mixes no scales). A cell above it is a spread
    over k that draws alone give less than 1 - quantile of the time. Also
    per (dataset, kT): the seeds, the ratios counted, and per k the median
    gap over the seeds (whether the k differ beyond the draws)."""
    from itertools import combinations

    seeds = sorted(set(records.loc[records["kT_target"].notna(), "seed"]) - {SEED})
    gaps = kt_gaps(records, seeds)
    rows = []
    for (dataset, kt), g in gaps.groupby(["dataset", "kT_target"], sort=False):
        ks = sorted(g["batch_size"].unique())
        ratios = []
        for _, at_k in g.groupby("batch_size"):
            values = at_k["gap"].to_numpy()
            ratios += [max(c) / min(c) if min(c) > 0 else np.inf for c in combinations(values, len(ks))]
        rows.append({"dataset": dataset, "kT": kt, "seeds": len(seeds), "ratios": len(ratios),
                     **{f"median_gap_percent_k{int(k)}": 100 * g.loc[g.batch_size == k, "gap"].median()
                        for k in ks},
                     "noise_factor": float(np.quantile(ratios, quantile)) if ratios else np.nan})
    return pd.DataFrame(rows, columns=None if rows else ["dataset", "kT", "seeds", "ratios", "noise_factor"])


def _pct(threshold: float) -> str:
    """0.003 -> '0.3pct' (the metric names of the claims)."""
    return f"{100 * threshold:g}pct"


SCHEMA = RecordSchema({
    "dataset": "str", "job": "str", "n_train": "int", "n_test": "int", "n_features": "int",
    "test_set": "str", "lambda_": "float", "standin": "bool", "method": "str", "batch_size": "float",
    "tol": "float", "kT_target": "float",
    # float: SVM-Light counts no examples, and a capped or unavailable fit has none
    "iteration": "float", "examples": "float", "seconds": "float", "objective": "float",
    "solver_objective": "float", "test_error": "float", "budget_examples": "int", "seed": "int",
    "job_seconds": "float", **MACHINE_COLUMNS, "note": "str"})
