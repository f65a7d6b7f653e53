"""LDM Tables 2, 3 and 4: the readings sweep of the unexplained misses (issue 27, item 4).

The paper leaves open what jobs.py had to choose: the scaling's range, how ties
in the inner CV are broken, where the C grid and the width grid end, which
SVM its "SVM" column is (LIBLINEAR penalises the bias, LIBSVM does not), whether
MAMC has a bias, how KM-OMD is stopped. For each cell of Tables 2 and 3 that
misses without a tested cause, this runs the whole protocol (30 partitions,
5-fold inner CV; Table 4: its 10 partitions of the large sets) again under
each reading of ``READINGS`` that applies to the cell's method and kernel, one
change at a time, and records its mean test accuracy:

    python -m repro.papers.ldm.readings table2 --jobs 2   # writes EVIDENCE["table2"]

Table 4's SVM is LIBLINEAR's dual CD at max_iter 10,000 (jobs.py), and every
one of its fits stopped there (the page's 'Fits stopped at their iteration
cap'), so Table 4 adds the same SVM with ten times the passes. Its large sets
are scaled by their largest absolute value (to stay sparse), so the scaling
reading does not apply there; nor does LIBSVM for the linear SVM (a kernel
solver on 25,000 to 123,000 training rows at C up to 1000, hours a cell).

(finished rows are kept in EVIDENCE's ``.partial`` file as they come, so the
same command resumes an interrupted sweep.)

The pages of Tables 2 and 3 read the evidence where it exists (not a declared
input of their rules, as GS-SVM's sweep): per unexplained cell, each
reading's value and whether the tolerance accepts it. A reading within the
tolerance is shown, not taken as the cause: the table keeps the protocol's
reading, and a reading that closes one cell is a hypothesis to test on the
others.
"""
from __future__ import annotations

import argparse
from dataclasses import replace
from functools import partial
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from ...experiments import readings as R
from ...experiments.selection import select_and_test
from . import jobs as L
from .tolerances import PAPER_PARTITIONS, partition_noise

TABLES = {"table2": "linear", "table3": "rbf", "table4": "large"}
EVIDENCE = {table: Path("paper_tables") / f"ldm_{table}_readings.csv" for table in TABLES}
# every cell of both tables costs at most 3.1 CPU-minutes in the committed records
MAX_CELL_SECONDS = 600.0
# name -> the one change from the protocol (jobs.py)
READINGS = {
    "scaled to [-1, 1]": {"feature_range": (-1.0, 1.0)},
    "ties to the last best point": {"tie": "last"},
    "C grid {1, 10, 50, 100, 1000}": {"c_grid": (1.0, 10.0, 50.0, 100.0, 1000.0)},
    "width grid 2^-4..2^4": {"width_log2": tuple(range(-4, 5))},
    "SVM by LIBSVM (bias not penalised)": {"estimator": "SVC"},
    "MAMC without the bias": {"estimator": "MAMC without bias"},
    "KM-OMD stopped by the scale-invariant rule": {"estimator": "KM-OMD relative"},
    "SVM by LIBLINEAR with 10x the passes (max_iter 100,000)": {"estimator": "LinearSVC 1e5"},
}
# reading -> the methods it changes (None: every method whose grid it changes)
_ONLY = {"SVM by LIBSVM (bias not penalised)": ("SVM",), "MAMC without the bias": ("MAMC",),
         "KM-OMD stopped by the scale-invariant rule": ("KM-OMD",),
         "SVM by LIBLINEAR with 10x the passes (max_iter 100,000)": ("SVM",)}
# reading -> the kernels (tables) it is run on, where not every one
_KERNELS = {"SVM by LIBSVM (bias not penalised)": ("linear",),  # Table 3's SVM is LIBSVM's already
            "SVM by LIBLINEAR with 10x the passes (max_iter 100,000)": ("large",),
            "scaled to [-1, 1]": ("linear", "rbf"),  # the large sets keep their sparse scaling
            "width grid 2^-4..2^4": ("rbf",)}


def protocol_of(kernel: str) -> L.Protocol:
    """The full protocol of a table's kernel (Table 4: the large sets')."""
    return L.LARGE_PROTOCOLS["full"] if kernel == "large" else L.PROTOCOLS["full"]


def applies(reading: str, method: str, kernel: str) -> bool:
    """Whether the reading changes the cell's run."""
    change = READINGS[reading]
    if kernel not in _KERNELS.get(reading, (kernel,)):
        return False
    if reading in _ONLY:
        return method in _ONLY[reading]
    if "c_grid" in change:
        return method != "MAMC"
    if "tie" in change:  # MAMC's linear grid is one point: no tie to break
        return len(L.grid(method, kernel, protocol_of(kernel))) > 1
    return True


class ReadingGrid(L.ScoreGrid):
    """Table 2's, 3's or 4's grid hook with one reading's scaling or estimator."""

    def __init__(self, method: str, kernel: str, change: dict, select_k: int | None = None, impute=()):
        super().__init__(method, kernel, change.get("feature_range", (0.0, 1.0)), select_k=select_k,
                         impute=impute)
        self.estimator = change.get("estimator")

    def make(self, p: dict, m: int):
        from sklearn.svm import SVC, LinearSVC

        from ...solvers.ldm_baselines import KMOMD, MAMC

        kernel = "precomputed" if self.kernel == "rbf" else "linear"
        if self.estimator == "SVC":
            return SVC(C=p["C"], kernel="linear", tol=1e-3)
        if self.estimator == "LinearSVC 1e5":  # jobs.make_estimator's SVM, but for max_iter
            return LinearSVC(C=p["C"], loss="hinge", dual=True, fit_intercept=True, tol=1e-3,
                             max_iter=100_000, random_state=0)
        if self.estimator == "MAMC without bias":
            return MAMC(kernel=kernel, fit_intercept=False)
        if self.estimator == "KM-OMD relative":
            return KMOMD(lam=1.0 / (1.0 + p["C"]), kernel=kernel, stop="relative", tol=1e-8, max_iter=100_000)
        return super().make(p, m)


def accuracy(dataset: str, method: str, reading: str, kernel: str, n_partitions: int | None = None,
             protocol: L.Protocol | None = None) -> float:
    """Mean test accuracy of ``method`` on ``dataset`` over the partitions of
    Table 2's (linear), 3's (rbf) or 4's (large) protocol (``protocol``: the
    full one by default) with the one change ``READINGS[reading]``;
    ``n_partitions``: the first that many only."""
    change = READINGS[reading]
    protocol = replace(protocol or protocol_of(kernel),
                       **{k: change[k] for k in ("c_grid", "width_log2") if k in change})
    if n_partitions is not None:
        protocol = replace(protocol, n_partitions=n_partitions)
    X, y, info = L.load_large(dataset) if kernel == "large" else L.load(dataset)
    k = None if kernel == "large" else L.select_k(dataset)  # a version's k, chosen on each training part
    impute = () if kernel == "large" else info.impute  # missing values, filled on each training part
    points = L.grid(method, kernel, protocol)
    scores = [select_and_test(X, y, outer, points, ReadingGrid(method, kernel, change, k, impute),
                              protocol.inner_folds,
                              L.INNER_SEED, tie=change.get("tie", "first")).test_score
              for outer in L.partitions(y, protocol, dataset)]
    return float(np.mean(scores))


def targets(comparison: pd.DataFrame, records: pd.DataFrame) -> tuple[list, list]:
    """(swept, not swept): the unexplained misses' (dataset, method, seconds)."""
    return R.targets(comparison, records, MAX_CELL_SECONDS)


def sweep(table: str, comparison: pd.DataFrame, records: pd.DataFrame, jobs: int = 1,
          n_partitions: int | None = None, progress: Path | None = None) -> pd.DataFrame:
    """One row per (swept cell, reading that applies to it); ``progress``: the
    layer's file of finished rows, which an interrupted sweep resumes from."""
    kernel = TABLES[table]
    # the costliest cells first, so the worker processes finish together
    cost_first = sorted(targets(comparison, records)[0], key=lambda cell: -cell[2])
    tasks = [(dataset, method, reading) for dataset, method, _ in cost_first
             for reading in READINGS if applies(reading, method, kernel)]
    cells = comparison.set_index(["dataset", "method"])
    profile = n_partitions or protocol_of(kernel).n_partitions
    return R.sweep(tasks, partial(accuracy, kernel=kernel, n_partitions=n_partitions), cells,
                   cell_rules(table, comparison), "accuracy", jobs, extra={"partitions": profile},
                   progress=progress)


def cell_rules(table: str, comparison: pd.DataFrame):
    """(dataset, method) -> the cell's accuracy tolerance as its page measures it
    (tolerances.py: from the protocol's partitions' spread, std_ours of the
    comparison, and the paper's printed std)."""
    from ...tolerances import tolerance_for

    noise = {"partition_noise": partition_noise(
        comparison.rename(columns={"std_ours": "std"}), L.published_cells(f"ldm_{table}", set(comparison.dataset)),
        protocol_of(TABLES[table]).n_partitions, PAPER_PARTITIONS[f"ldm_{table}"])}
    rule = tolerance_for(L.PAPER, "accuracy")
    return lambda dataset, method: rule.at(SimpleNamespace(dataset=dataset, method=method), noise)


def merge(table: str, comparison: pd.DataFrame, committed: pd.DataFrame | None,
          rows: pd.DataFrame) -> pd.DataFrame:
    """The committed rows with the new ones (a (cell, reading) run again
    replaces its row; a cell that no longer misses, e.g. explained since,
    keeps its rows), every row judged by its cell's tolerance now."""
    rows = pd.concat([f for f in (committed, rows) if f is not None], ignore_index=True)
    rows = rows.drop_duplicates(R.KEY_COLUMNS, keep="last").reset_index(drop=True)
    rule = cell_rules(table, comparison)
    rows["within_tolerance"] = [bool(r is not None and r.accepts(p, v)) for r, p, v in zip(
        map(rule, rows.dataset, rows.method), rows.published, rows.accuracy)]
    return rows


def load_evidence(table: str) -> pd.DataFrame | None:
    """The committed sweep of ``table`` ('table2', 'table3'), or None where it was not run."""
    return R.load_evidence(EVIDENCE[table])


def main(argv=None):
    from ..._io import write_text_atomic
    from ...experiments.records import read_records
    from ...experiments.resume import records_file

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("table", choices=sorted(TABLES))
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--extend", action="store_true",
                        help="keep the committed evidence's rows (not run again) and sweep only the "
                             "unexplained cells it lacks (after a change of the tolerance)")
    args = parser.parse_args(argv)
    records = read_records(records_file(f"ldm_{args.table}"), L.SCHEMA)
    comparison = pd.read_csv(Path("paper_tables") / f"ldm_{args.table}.csv")
    # an interrupted sweep (Table 3's runs for about 1.5 CPU-hours) resumes from here
    progress = R.partial_path(EVIDENCE[args.table])
    if args.extend and EVIDENCE[args.table].exists() and not progress.exists():
        write_text_atomic(progress, EVIDENCE[args.table].read_text())  # as rows already finished
    committed = load_evidence(args.table) if args.extend else None
    evidence = merge(args.table, comparison, committed, sweep(args.table, comparison, records, args.jobs,
                                                              progress=progress))
    write_text_atomic(EVIDENCE[args.table], evidence.to_csv(index=False))
    progress.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
