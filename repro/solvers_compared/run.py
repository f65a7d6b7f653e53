"""One dataset's rows: every roster entry fitted once, capped, then graded.

Each fit runs in a forked child with one thread (``run_capped``: BLAS and
OpenMP pinned, the fit alone timed, a fit under a second timed again warm)
and is stopped at ``CAP_SECONDS``. A solver is not run on a set when it
cannot finish there in reasonable time, and the row says why instead of
leaving it out: it reached the cap on the previous (smaller) set of the
sequence, or its time there scaled by the ratio of training rows (a lower
bound for every solver here: none is sub-linear in the rows) already exceeds
the cap; or it would form an n x n kernel matrix beyond ``KERNEL_MEMORY_MB``
(the package's solvers refuse those up front, at their default 1024 MB).
"""
from __future__ import annotations

import warnings

import pandas as pd

from repro.baselines.liblinear import seed_rand
from repro.experiments.timing import machine_record, run_capped
from repro.tables import NO_PUBLISHED  # the verdict every table's CSV carries

from . import models
from .data import load_split
from .roster import ENTRIES

CAP_SECONDS = 120.0
KERNEL_MEMORY_MB = 1024

COLUMNS = ["dataset", "split", "n_train", "n_test", "n_features", "solver", "kernel", "problem",
           "setting", "reference", "status", "train_seconds", "kernel_evals", "n_iter", "converged",
           "test_accuracy", "objective", "verdict", "cpu_model", "threads"]
#: the job's provenance stamp (repro.experiments.provenance.stamp), after COLUMNS; rows
#: made before it existed have no such column
PROVENANCE = "provenance"



def _fit_function(entry, X, y):
    """What the capped child runs: the fit, and the model read into arrays."""
    made = entry.make(X.shape[0])
    if entry.family == "liblinear":
        from liblinear import liblinearutil

        bias = entry.extra["bias"]
        # the problem is built here, outside the child's clock (as LIBLINEAR's
        # command line reads its file before it trains)
        problem = liblinearutil.problem(y, X, bias=bias)

        def fit():
            seed_rand()  # as LIBLINEAR's command line: the same run whatever ran before
            return models.read_liblinear(liblinearutil.train(problem, made), X.shape[1], bias)
        return fit

    def fit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an unconverged fit says so in its row
            made.fit(X, y)
        if entry.family == "svc":
            return models.read_svc(made, entry.kernel)
        return models.read_ours(made, entry.kernel)
    return fit


def _too_slow(entry, previous, n_train):
    """Why not to run ``entry`` on a set of n_train rows, from its row on the
    previous set (a dict of that row), or ''."""
    if previous is None:
        return ""
    status = previous["status"]
    if status.startswith("not run (too slow"):
        return status
    if status.startswith("stopped at the cap"):
        return (f"not run (too slow: stopped at the {CAP_SECONDS:.0f} s cap on "
                f"{previous['dataset']}, {int(previous['n_train']):,} training rows)")
    if status == "ok":
        estimate = float(previous["train_seconds"]) * n_train / float(previous["n_train"])
        if estimate > CAP_SECONDS:
            return (f"not run (too slow: {float(previous['train_seconds']):.1f} s on "
                    f"{previous['dataset']}, {int(previous['n_train']):,} training rows; at "
                    f"least {estimate:.0f} s expected for {n_train:,})")
    return ""


def _too_big(entry, n_train):
    need = 8.0 * n_train * n_train / 2**20
    if entry.full_gram and need > KERNEL_MEMORY_MB:
        return (f"not run (its {n_train:,} x {n_train:,} kernel matrix needs {need:,.0f} MB, "
                f"above the solvers' kernel_memory of {KERNEL_MEMORY_MB} MB)")
    return ""


def run_dataset(name, size="full", previous=None, cap_seconds=CAP_SECONDS, entries=None):
    """The rows of one dataset (a DataFrame with ``COLUMNS``). ``previous``:
    the rows of the previous set of the sequence (or None), for the too-slow
    rule; ``cap_seconds``: the cap of one fit."""
    if not cap_seconds > 0:
        raise ValueError(f"cap_seconds must be positive; got {cap_seconds!r}")
    data = load_split(name)
    X, y, Xt, yt = data.X, data.y, data.X_test, data.y_test
    n = X.shape[0]
    machine = machine_record(threads=1)
    before = {}
    if previous is not None and len(previous):
        before = {(r["solver"], r["kernel"]): r for r in previous.to_dict("records")}
    rows = []
    for entry in ENTRIES if entries is None else entries:
        row = {"dataset": name, "split": data.split, "n_train": n, "n_test": Xt.shape[0],
               "n_features": X.shape[1], "solver": entry.solver, "kernel": entry.kernel,
               "problem": entry.problem, "setting": entry.setting,
               "reference": entry.reference, "verdict": NO_PUBLISHED,
               "cpu_model": machine["cpu_model"], "threads": machine["threads"]}
        why = _too_big(entry, n) or _too_slow(entry, before.get((entry.solver, entry.kernel)), n)
        if why:
            rows.append({**row, "status": why})
            continue
        try:
            run = run_capped(_fit_function(entry, X, y), cap_seconds, threads=1)
        except RuntimeError as e:  # the fit raised in the child: the row says what
            rows.append({**row, "status": "failed: " + str(e).split("\n")[0]})
            continue
        if run.capped:
            rows.append({**row, "status": f"stopped at the cap ({cap_seconds:.0f} s)",
                         "train_seconds": run.seconds})
            continue
        model = run.value
        rows.append({**row, "status": "ok", "train_seconds": run.seconds,
                     "kernel_evals": model.n_kernel_evals, "n_iter": model.n_iter,
                     "converged": model.converged,
                     "test_accuracy": models.accuracy(model, Xt, yt, X),
                     "objective": models.objective(entry.problem, model, X, y)})
    from repro.experiments.provenance import stamp

    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame[PROVENANCE] = stamp(size, threads=1)  # after the fits: the stamp holds the job's peak memory
    return frame
