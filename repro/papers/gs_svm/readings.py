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

(a cell already in EVIDENCE under that reading is not run again). The
costly cells get the other readings on a cheap profile, fixed before it ran:

    python -m repro.papers.gs_svm.readings --folds --jobs 2   # adds their rows to EVIDENCE

runs each reading on outer folds ``PROFILE_FOLDS`` only, paired with the
committed records of the same folds. Its value is a projection: the committed
cell plus the reading's mean change on those folds (the other folds taken to
change alike; column outer_folds names the folds, folds_value and
folds_protocol_value the two means). A projection within the cell's
tolerance closes the gap on the profile, and that reading is then run on the
whole protocol in the same command (a row with outer_folds 'all'): only a
whole-protocol row says within. HM-SVM without the step cap is not in the
profile (uncapped inner CVs cost up to five times the capped ones; the
refits at the selected theta, uncapped.py, test the cap there). After the
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
# the cheap profile of the cells above MAX_CELL_SECONDS (--folds): these outer
# folds of the protocol's ten, chosen before the run (the first two; not the
# cheapest or the worst, which would bias the projection)
PROFILE_FOLDS = (0, 1)
WHOLE = "all"  # column outer_folds of a whole-protocol row
DETAIL_COLUMNS = ("folds_value", "folds_protocol_value")


def _applies(reading: str, method: str, capped: int) -> bool:
    """Whether the reading changes the cell's run: the step cap matters only for
    HM-SVM cells whose committed records have problems stopped at it
    (``capped``); elsewhere the uncapped run is the protocol's."""
    return "hm_max_iter" not in READINGS[reading] or (method == "HM-SVMs" and capped > 0)


def accuracy(dataset: str, method: str, reading: str, protocol=None) -> float:
    """Mean test accuracy (percent) of ``method`` on ``dataset`` over the outer
    folds of Table 2's protocol with the one change ``READINGS[reading]``."""
    return J.protocol_accuracy(dataset, method, READINGS[reading], protocol)


def _folds_label(folds) -> str:
    return " ".join(map(str, folds))


def projected_accuracy(dataset: str, method: str, reading: str, records: pd.DataFrame,
                       protocol=None, folds=PROFILE_FOLDS) -> tuple[float, dict]:
    """The cheap profile of one costly cell under one reading: the reading's
    mean test accuracy on outer folds ``folds`` beside the committed records'
    on the same folds, and the cell projected from their difference (percent):
    (projection, {folds_value, folds_protocol_value})."""
    ours = records[(records.paper_dataset == dataset) & (records.method == method)]
    on_folds = ours[ours.split_index.isin(folds)]
    if sorted(on_folds.split_index) != sorted(folds):
        raise ValueError(f"{dataset} {method}: the committed records lack outer folds "
                         f"{sorted(set(folds) - set(on_folds.split_index))}")
    value = J.protocol_accuracy(dataset, method, READINGS[reading], protocol, folds=list(folds))
    committed = 100.0 * float(on_folds.test_accuracy.mean())
    cell = 100.0 * float(ours.test_accuracy.mean())
    return cell + (value - committed), {"folds_value": value, "folds_protocol_value": committed}


def targets(comparison: pd.DataFrame, records: pd.DataFrame) -> tuple[list, list]:
    """(swept, not swept): the (dataset, method, seconds) of the unexplained
    misses, split by the committed cost of their records (``MAX_CELL_SECONDS``)."""
    return R.targets(comparison, records, MAX_CELL_SECONDS)


def sweep(comparison: pd.DataFrame, records: pd.DataFrame, protocol=None, jobs: int = 1,
          progress: Path | None = None, costly: bool = False, folds: tuple | None = None,
          tasks: list | None = None) -> pd.DataFrame:
    """One row per (swept cell, reading that applies to its method); ``progress``:
    the layer's file of finished rows, which an interrupted sweep resumes from.
    ``costly``: instead, the cells above MAX_CELL_SECONDS under ``UNCAPPED``
    alone, where it applies (the whole protocol without HM-SVM's step cap: the
    test of the cap explanation, issue 27). ``folds``: instead, those cells
    under the other readings on the cheap profile of these outer folds
    (``projected_accuracy``). ``tasks``: these (dataset, method, reading)
    on the whole protocol instead (a profile's closers)."""
    capped = records.groupby(["paper_dataset", "method"])["n_unconverged_problems"].sum()
    swept, left = targets(comparison, records)
    # the costly cells cheapest first: an interrupted run has the most cells done
    costly_cells = sorted(left, key=lambda cell: cell[2])
    if folds is not None:
        cells, names = costly_cells, [name for name in READINGS if name != UNCAPPED]
    else:
        cells, names = (costly_cells, [UNCAPPED]) if costly else (swept, list(READINGS))
    if tasks is None:
        tasks = [(dataset, method, reading) for dataset, method, _ in cells
                 for reading in names if _applies(reading, method, int(capped.get((dataset, method), 0)))]
    committed = load_evidence() if (costly or folds is not None) else None
    if committed is not None:  # hours a cell: one committed is not run again
        profile = _folds_label(folds) if folds is not None else WHOLE
        kept = committed[committed.outer_folds == profile]
        kept = set(zip(*(kept[c] for c in R.KEY_COLUMNS)))
        tasks = [task for task in tasks if task not in kept]
    run = (partial(projected_accuracy, records=records, protocol=protocol, folds=folds) if folds is not None
           else partial(accuracy, protocol=protocol))
    return R.sweep(tasks, run, comparison.set_index(["dataset", "method"]), cell_rules(records),
                   "accuracy_percent", jobs, progress=progress,
                   extra={"outer_folds": _folds_label(folds) if folds is not None else WHOLE},
                   detail_columns=DETAIL_COLUMNS if folds is not None else ())


def closers(evidence: pd.DataFrame) -> list:
    """The (dataset, method, reading) whose profile projection is within the
    cell's tolerance and that the whole protocol has not run yet."""
    whole = evidence[evidence.outer_folds == WHOLE]
    done = set(zip(whole.dataset, whole.method, whole.reading))
    profile = evidence[(evidence.outer_folds != WHOLE) & evidence.within_tolerance]
    return [task for task in zip(profile.dataset, profile.method, profile.reading) if task not in done]


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
    return R.load_evidence(path, text_columns=("outer_folds",))


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
    parser.add_argument("--folds", action="store_true",
                        help=f"the cells above {MAX_CELL_SECONDS:g} CPU-seconds under the other readings on "
                             f"outer folds {_folds_label(PROFILE_FOLDS)} (projected); a projection within "
                             "the tolerance is then run on the whole protocol (added to EVIDENCE's rows)")
    parser.add_argument("--merge", nargs="+", metavar="CSV",
                        help="add the finished rows of these files (a sweep's progress file, "
                             f"{R.partial_path(EVIDENCE).name}, after it was stopped) to EVIDENCE, judged again")
    args = parser.parse_args(argv)
    records = read_records(records_file("gs_svm_table2"), J.TABLE2_SCHEMA)
    comparison = pd.read_csv(Path("paper_tables") / "gs_svm_table2.csv")
    comparison = comparison[comparison.metric == "accuracy_percent"]
    progress = R.partial_path(EVIDENCE)
    committed = load_evidence()
    if args.extend and committed is not None and not progress.exists():
        # as rows already finished: the whole protocol's, in the columns of its sweep
        whole = committed[committed.outer_folds == WHOLE]
        write_text_atomic(progress, whole[R.KEY_COLUMNS + ["accuracy_percent"] + R.TAIL_COLUMNS
                                          + ["outer_folds"]].to_csv(index=False))
    if args.merge:  # finished rows of other runs (e.g. an interrupted sweep's progress file)
        rows = merge(committed, *(pd.read_csv(f, dtype={"outer_folds": str}) for f in args.merge),
                     records=records)
        write_text_atomic(EVIDENCE, rows.to_csv(index=False))
        return
    rows = sweep(comparison, records, jobs=args.jobs, progress=progress, costly=args.costly,
                 folds=PROFILE_FOLDS if args.folds else None)
    keep = committed if (args.costly or args.extend or args.folds) else None
    rows = merge(keep, rows, records=records)
    if args.folds:  # a projection within the tolerance: the whole protocol decides
        write_text_atomic(EVIDENCE, rows.to_csv(index=False))  # the profile's rows are kept if this stops
        progress.unlink(missing_ok=True)
        whole = sweep(comparison, records, jobs=args.jobs, progress=progress, tasks=closers(rows))
        rows = merge(rows, whole, records=records)
    write_text_atomic(EVIDENCE, rows.to_csv(index=False))
    progress.unlink(missing_ok=True)


def merge(committed: pd.DataFrame | None, *new: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """The committed rows with the new ones (a (cell, reading, outer folds) run
    again replaces its row; a cell that no longer misses keeps its rows), every
    row judged by its cell's tolerance now (kept rows were judged when they ran)."""
    frames = [f.assign(outer_folds=f["outer_folds"].fillna(WHOLE).replace("", WHOLE) if "outer_folds" in f else WHOLE)
              for f in (committed, *new) if f is not None]
    rows = pd.concat(frames, ignore_index=True).drop_duplicates(R.KEY_COLUMNS + ["outer_folds"], keep="last")
    rule = cell_rules(records)
    rows["within_tolerance"] = [bool(r is not None and r.accepts(p, v)) for r, p, v in zip(
        map(rule, rows.dataset, rows.method), rows.published, rows.accuracy_percent)]
    return rows.reset_index(drop=True)


if __name__ == "__main__":
    main()
