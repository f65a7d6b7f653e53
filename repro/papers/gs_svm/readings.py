"""GS-SVM Table 2: the readings sweep of the unexplained misses (issue 27, item 4).

The paper leaves open how features were scaled, how ties in the inner CV were
broken, where the theta grid ends and how the inner folds were drawn
(jobs.py's docstring says what the tables run). For each cell of Table 2 that
misses without a tested cause, this runs the whole protocol (10 outer folds,
10 inner folds) again under each reading of ``READINGS``, one change at a
time, and records its mean test accuracy:

    python -m repro.papers.gs_svm.readings     # writes EVIDENCE

Only the cells whose committed records cost at most ``MAX_CELL_SECONDS`` are
swept (the full protocol is the cheapest that decides a cell of 10 outer
folds); the others are listed on the page as not swept, with their cost, but
for the one reading that tests an explanation offered for them, HM-SVM
without the step cap (the costly HM-SVM cells, CPU-hours):

    python -m repro.papers.gs_svm.readings --costly --jobs 2   # adds their rows to EVIDENCE

(a cell already in EVIDENCE under that reading is not run again). After the
tolerance changes, ``--extend`` keeps the committed rows and sweeps only the
unexplained cells they lack; every row is judged again by its cell's
tolerance (``cell_rules``: split_spread.py's measurement). The
page of Table 2 reads EVIDENCE where it exists (not a declared input of its
rule, as uncapped.py's): per unexplained cell, each reading's value and
whether the tolerance accepts it. A reading within the tolerance is shown,
not taken as the cause: the table keeps the protocol's reading, and a reading
that closes one cell is a hypothesis to test on the others.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

import pandas as pd

from ...experiments import readings as R
from . import jobs as J

EVIDENCE = Path("paper_tables") / "gs_svm_table2_readings.csv"
# the committed cost of a (set, method) above which its cell is not swept here
MAX_CELL_SECONDS = 120.0
# name -> the one change from the protocol (jobs.py): feature range of the
# scaling, tie rule of the inner CV, theta grid (log2), inner-fold seed,
# HM-SVM's step cap
UNCAPPED = "HM-SVM without the step cap"
READINGS = {
    "scaled to [0, 1]": {"feature_range": (0.0, 1.0)},
    "ties to the last best point": {"tie": "last"},
    "theta grid 2^-12..2^12": {"log2_theta": tuple(range(-12, 13))},
    "inner folds drawn with seed 2": {"inner_seed": 2},
    UNCAPPED: {"hm_max_iter": 100_000_000},
}


def _applies(reading: str, method: str, capped: int) -> bool:
    """Whether the reading changes the cell's run: the step cap matters only for
    HM-SVM cells whose committed records have problems stopped at it
    (``capped``); elsewhere the uncapped run is the protocol's."""
    return "hm_max_iter" not in READINGS[reading] or (method == "HM-SVMs" and capped > 0)


def accuracy(dataset: str, method: str, reading: str, protocol=None) -> float:
    """Mean test accuracy (percent) of ``method`` on ``dataset`` over the outer
    folds of Table 2's protocol with the one change ``READINGS[reading]``."""
    return J.protocol_accuracy(dataset, method, READINGS[reading], protocol)


def targets(comparison: pd.DataFrame, records: pd.DataFrame) -> tuple[list, list]:
    """(swept, not swept): the (dataset, method, seconds) of the unexplained
    misses, split by the committed cost of their records (``MAX_CELL_SECONDS``)."""
    return R.targets(comparison, records, MAX_CELL_SECONDS)


def sweep(comparison: pd.DataFrame, records: pd.DataFrame, protocol=None, jobs: int = 1,
          progress: Path | None = None, costly: bool = False) -> pd.DataFrame:
    """One row per (swept cell, reading that applies to its method); ``progress``:
    the layer's file of finished rows, which an interrupted sweep resumes from.
    ``costly``: instead, the cells above MAX_CELL_SECONDS under ``UNCAPPED``
    alone, where it applies (the whole protocol without HM-SVM's step cap: the
    test of the cap explanation, issue 27)."""
    capped = records.groupby(["paper_dataset", "method"])["n_unconverged_problems"].sum()
    swept, left = targets(comparison, records)
    # the costly cells cheapest first: an interrupted run has the most cells done
    cells, names = (sorted(left, key=lambda cell: cell[2]), [UNCAPPED]) if costly else (swept, list(READINGS))
    tasks = [(dataset, method, reading) for dataset, method, _ in cells
             for reading in names if _applies(reading, method, int(capped.get((dataset, method), 0)))]
    committed = load_evidence() if costly else None
    if committed is not None:  # hours a cell: one committed is not run again
        kept = set(zip(*(committed[c] for c in R.KEY_COLUMNS)))
        tasks = [task for task in tasks if task not in kept]
    return R.sweep(tasks, partial(accuracy, protocol=protocol), comparison.set_index(["dataset", "method"]),
                   cell_rules(records), "accuracy_percent", jobs, progress=progress)


def cell_rules(records: pd.DataFrame):
    """(dataset, method) -> the cell's accuracy tolerance as its page measures it
    (split_spread.py, from the committed draws of the outer folds)."""
    from types import SimpleNamespace

    from ...tolerances import tolerance_for
    from . import split_spread

    context = {"split_noise": split_spread.noise(split_spread.load_evidence(), records)}
    rule = tolerance_for(J.PAPER, "accuracy_percent")
    return lambda dataset, method: rule.at(SimpleNamespace(dataset=dataset, method=method), context)


def load_evidence(path: Path = EVIDENCE) -> pd.DataFrame | None:
    """The committed sweep, or None where it was not run."""
    return R.load_evidence(path)


def main(argv=None):
    import argparse

    from ..._io import write_text_atomic
    from ...experiments.records import read_records
    from ...experiments.resume import records_file

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--costly", action="store_true",
                        help=f"the cells above {MAX_CELL_SECONDS:g} CPU-seconds, under '{UNCAPPED}' only "
                             "(added to EVIDENCE's rows)")
    parser.add_argument("--extend", action="store_true",
                        help="keep the committed evidence's rows (not run again) and sweep only the "
                             "unexplained cells it lacks (after a change of the tolerance)")
    args = parser.parse_args(argv)
    records = read_records(records_file("gs_svm_table2"), J.TABLE2_SCHEMA)
    comparison = pd.read_csv(Path("paper_tables") / "gs_svm_table2.csv")
    comparison = comparison[comparison.metric == "accuracy_percent"]
    progress = R.partial_path(EVIDENCE)
    committed = load_evidence()
    if args.extend and committed is not None and not progress.exists():
        write_text_atomic(progress, committed.to_csv(index=False))  # as rows already finished
    rows = sweep(comparison, records, jobs=args.jobs, progress=progress, costly=args.costly)
    if (args.costly or args.extend) and committed is not None:
        # the committed rows stay (a cell that no longer misses keeps its rows); a cell run again is replaced
        rows = pd.concat([committed, rows]).drop_duplicates(R.KEY_COLUMNS, keep="last")
    # every row judged by its cell's tolerance now (kept rows were judged when they ran)
    rule = cell_rules(records)
    rows["within_tolerance"] = [bool(r is not None and r.accepts(p, v)) for r, p, v in zip(
        map(rule, rows.dataset, rows.method), rows.published, rows.accuracy_percent)]
    write_text_atomic(EVIDENCE, rows.to_csv(index=False))
    progress.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
