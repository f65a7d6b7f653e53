"""What every benchmark row carries, and the one way two methods are timed.

A comparison times our solver and the tool a user would pick instead in the
same process, interleaved and best of N, with the BLAS/OpenMP pools pinned
(repro.experiments.timing.interleaved_best_of: the one harness). Each row
carries the machine, the load average before and after its measurement (the
machine may be shared: a ratio measured under load is flagged by it, not
hidden), the date and the package versions, so that a ratio is only ever read
beside where it was measured.
"""
from __future__ import annotations

import datetime
import math
import os
from dataclasses import dataclass
from typing import Any, Callable

from ..experiments.provenance import git_commit, version
from ..experiments.timing import cpu_model, interleaved_best_of
from ..tables import NO_PUBLISHED

#: the sizes of every comparison: the measurement the page reports, and a few
#: seconds on small data (tests, the quick scale)
SIZES = ("full", "tiny")
#: LIBSVM, LIBLINEAR and our kernels are single-threaded: one thread for all
THREADS = 1
#: the packages whose version a row records (distribution name -> column)
VERSIONED = {"repro": "version_repro", "numpy": "version_numpy", "scipy": "version_scipy",
             "scikit-learn": "version_sklearn", "liblinear-official": "version_liblinear",
             "libsvm-official": "version_libsvm"}
COLUMNS = ["comparison", "solver", "baseline", "dataset", "setting", "repeat",
           "time_ours", "time_baseline", "ratio", "objective", "objective_ours", "objective_baseline",
           "accuracy", "accuracy_ours", "accuracy_baseline", "note",
           "threads", "cpu_model", "cpu_count", "load_before", "load_after", "date", "git_commit",
           *VERSIONED.values(), "verdict"]
#: nothing in the five papers is a published time of these pairs (the verdict
#: column every table CSV shares)
VERDICT = NO_PUBLISHED


def check_size(size: str) -> str:
    if size not in SIZES:
        raise ValueError(f"size must be one of {SIZES}; got {size!r}")
    return size


def versions() -> dict:
    """The versions a row records (repro.experiments.provenance reads them)."""
    return {column: version(dist) for dist, column in VERSIONED.items()}


@dataclass
class Measured:
    """The timings of one interleaved measurement and the load around it."""
    timings: dict
    load_before: float
    load_after: float
    repeat: int

    def best(self, name: str) -> float:
        return self.timings[name].best

    def result(self, name: str) -> Any:
        return self.timings[name].result


def side_by_side(makers: dict[str, Callable[[], Any]], run: Callable[[Any], Any], repeat: int) -> Measured:
    """``interleaved_best_of`` at THREADS threads, with the 1-minute load
    average read just before and just after (the machine's state while it ran)."""
    before = os.getloadavg()[0]
    timings = interleaved_best_of(makers, run, repeat, THREADS)
    return Measured(timings, before, os.getloadavg()[0], repeat)


def call(fn: Callable[[], Any]) -> Any:
    """The ``run`` of a measurement whose subjects are prepared calls (their
    set-up made, untimed, by the maker)."""
    return fn()


_CONTEXT: dict = {}


def context() -> dict:
    """The columns every row shares (read once per process: the commit and the
    versions do not change while a comparison runs)."""
    if not _CONTEXT:
        _CONTEXT.update(threads=THREADS, cpu_model=cpu_model(), cpu_count=os.cpu_count(),
                        git_commit=git_commit(), **versions())
    return dict(_CONTEXT)


def row(comparison: str, solver: str, baseline: str, dataset: str, setting: str, measured: Measured,
        time_ours: float, time_baseline: float, *, objective: str = "", objectives=(math.nan, math.nan),
        accuracy: str = "", accuracies=(math.nan, math.nan), note: str = "") -> dict:
    """One row: ours beside the baseline, the time ratio ours / baseline (< 1:
    ours faster) and what both reached (objective and/or accuracy, named)."""
    return {"comparison": comparison, "solver": solver, "baseline": baseline, "dataset": dataset,
            "setting": setting, "repeat": measured.repeat, "time_ours": float(time_ours),
            "time_baseline": float(time_baseline), "ratio": float(time_ours) / float(time_baseline),
            "objective": objective, "objective_ours": float(objectives[0]),
            "objective_baseline": float(objectives[1]), "accuracy": accuracy,
            "accuracy_ours": float(accuracies[0]), "accuracy_baseline": float(accuracies[1]), "note": note,
            "load_before": measured.load_before, "load_after": measured.load_after,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            **context(), "verdict": VERDICT}
