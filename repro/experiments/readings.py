"""Readings sweeps: each unexplained miss run again under the readings its paper
leaves open, one change at a time (issue 27, item 4).

A paper's ``readings`` module names its readings and how to run one cell under
one of them (a function ``run(dataset, method, reading) -> value``); this layer
picks the cells (the misses without a tested cause, those whose committed
records cost at most a bound), runs every (cell, reading) that applies, in
worker processes, records each value with whether the tolerance would accept
it, and reads the committed evidence back for the page. A reading within the
tolerance is shown, not taken as the cause: the table keeps the protocol's
reading, and a reading that closes one cell is a hypothesis to test on others.
"""
from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Callable, Iterable

import numpy as np
import pandas as pd

# the evidence file's columns besides the value's own (named by the paper)
KEY_COLUMNS = ["dataset", "method", "reading"]
TAIL_COLUMNS = ["published", "protocol_value", "within_tolerance", "seconds"]


def unexplained(comparison: pd.DataFrame) -> pd.DataFrame:
    """The rows of a comparison table missed without a tested cause."""
    from ..tables import MISS_UNEXPLAINED

    return comparison[comparison.verdict.str.startswith(MISS_UNEXPLAINED)]


def targets(comparison: pd.DataFrame, records: pd.DataFrame, max_seconds: float,
            dataset_column: str = "paper_dataset") -> tuple[list, list]:
    """(swept, not swept): the (dataset, method, seconds) of the unexplained
    misses, split by the committed cost of their records (at most
    ``max_seconds`` are swept); seconds is that cost."""
    cost = records.groupby([dataset_column, "method"])["seconds"].sum()
    swept, left = [], []
    for r in unexplained(comparison).itertuples():
        seconds = float(cost.get((r.dataset, r.method), np.inf))
        (swept if seconds <= max_seconds else left).append((r.dataset, r.method, seconds))
    return swept, left


def _timed(run: Callable, task: tuple) -> tuple[float, float, dict]:
    start = time.perf_counter()
    result = run(*task)
    # a run may return (value, {detail column: value}): how the value was obtained
    value, details = result if isinstance(result, tuple) else (result, {})
    return float(value), time.perf_counter() - start, details


def _row(task: tuple, value: float, seconds: float, details: dict, cells: pd.DataFrame, rule,
         value_column: str, extra: dict | None) -> dict:
    dataset, method, reading = task
    if callable(rule):  # a rule per cell: (dataset, method) -> Tolerance
        rule = rule(dataset, method)
    published = float(cells.loc[(dataset, method), "published"])
    ours = float(cells.loc[(dataset, method), "reproduced"])
    print(f"{dataset} {method}, {reading}: {value:.4g} (protocol {ours:.4g}, paper {published:.4g})",
          flush=True)
    return {"dataset": dataset, "method": method, "reading": reading, value_column: value,
            "published": published, "protocol_value": ours,
            # a cell without a measured tolerance (rule None) is judged by none: not within
            "within_tolerance": bool(rule is not None and rule.accepts(published, value)),
            "seconds": seconds, **(extra or {}), **details}


def partial_path(evidence: Path) -> Path:
    """Where a sweep bound for ``evidence`` keeps the rows it has finished."""
    evidence = Path(evidence)
    return evidence.with_name(evidence.name + ".partial")


def sweep(tasks: Iterable[tuple], run: Callable, cells: pd.DataFrame, rule, value_column: str,
          jobs: int = 1, extra: dict | None = None, progress: Path | None = None,
          detail_columns: tuple = ()) -> pd.DataFrame:
    """Run every ``(dataset, method, reading)`` of ``tasks`` through ``run``
    (a picklable module-level function when ``jobs > 1``: each task in a worker
    process), beside the cell's published and reproduced values from
    ``cells`` (a comparison table indexed by dataset and method) and whether
    ``rule`` (a Tolerance, or a function of (dataset, method) giving the
    cell's) accepts the reading's value. ``extra``: constant
    columns appended to every row (e.g. the profile that was run);
    ``detail_columns``: the columns of the dict that ``run`` returns beside
    its value, as ``(value, details)`` (e.g. what a projected value rests on).

    ``progress``: a CSV file that every finished row is written to at once
    (atomically), so that a sweep of hours that is interrupted resumes: the
    tasks already in it (with the same ``extra``) are not run again. The rows
    come back in the order of ``tasks`` whatever order they finished in."""
    from .._io import write_text_atomic

    tasks = [tuple(task) for task in tasks]
    columns = KEY_COLUMNS + [value_column] + TAIL_COLUMNS + list(extra or {}) + list(detail_columns)
    done: dict[tuple, dict] = {}
    if progress is not None and Path(progress).exists():
        kept = pd.read_csv(progress)
        if list(kept.columns) != columns:
            raise ValueError(f"{progress}: columns {list(kept.columns)}, expected {columns}; "
                             "delete it to start the sweep again")
        for row in kept.to_dict("records"):
            if all(row[k] == v for k, v in (extra or {}).items()):
                done[(row["dataset"], row["method"], row["reading"])] = row
    todo = [task for task in tasks if task not in done]

    def finished(task, result):
        done[task] = _row(task, *result, cells, rule, value_column, extra)
        if progress is not None:
            write_text_atomic(progress, pd.DataFrame(list(done.values()), columns=columns).to_csv(index=False))

    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(_timed, run, task): task for task in todo}
            for future in as_completed(futures):
                finished(futures[future], future.result())
    else:
        for task in todo:
            finished(task, _timed(run, task))
    return pd.DataFrame([done[task] for task in tasks], columns=columns)


def load_evidence(path: Path, text_columns=()) -> pd.DataFrame | None:
    """A committed sweep, or None where it was not run. ``text_columns``: read
    as strings, '' where empty (pandas would read an all-empty column as NaN)."""
    if not Path(path).exists():
        return None
    frame = pd.read_csv(path, dtype={c: str for c in text_columns})
    return frame.fillna({c: "" for c in text_columns})


def tried(evidence: pd.DataFrame | None, dataset: str, method: str, value_column: str,
          fmt: str = ".3f", rule=None) -> list[str]:
    """The page's entries of one cell: 'reading value (within|outside)', judged
    by ``rule`` (the cell's Tolerance) where given, else as the sweep judged."""
    if evidence is None:
        return []
    got = evidence[(evidence.dataset == dataset) & (evidence.method == method)]

    def within(r):
        value = getattr(r, value_column)
        return rule.accepts(r.published, value) if rule is not None else r.within_tolerance

    return [f"{r.reading} {getattr(r, value_column):{fmt}} ({'within' if within(r) else 'outside'})"
            for r in got.itertuples()]
