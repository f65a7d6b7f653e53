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
from concurrent.futures import ProcessPoolExecutor
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


def _timed(run: Callable, task: tuple) -> tuple[float, float]:
    start = time.perf_counter()
    value = run(*task)
    return float(value), time.perf_counter() - start


def sweep(tasks: Iterable[tuple], run: Callable, cells: pd.DataFrame, rule, value_column: str,
          jobs: int = 1, extra: dict | None = None) -> pd.DataFrame:
    """Run every ``(dataset, method, reading)`` of ``tasks`` through ``run``
    (a picklable module-level function when ``jobs > 1``: each task in a worker
    process), beside the cell's published and reproduced values from
    ``cells`` (a comparison table indexed by dataset and method) and whether
    ``rule`` (a Tolerance) accepts the reading's value. ``extra``: constant
    columns appended to every row (e.g. the profile that was run)."""
    tasks = list(tasks)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_timed, [run] * len(tasks), tasks))
    else:
        results = [_timed(run, task) for task in tasks]
    rows = []
    for (dataset, method, reading), (value, seconds) in zip(tasks, results):
        published = float(cells.loc[(dataset, method), "published"])
        ours = float(cells.loc[(dataset, method), "reproduced"])
        rows.append({"dataset": dataset, "method": method, "reading": reading, value_column: value,
                     "published": published, "protocol_value": ours,
                     "within_tolerance": bool(rule.accepts(published, value)), "seconds": seconds,
                     **(extra or {})})
        print(f"{dataset} {method}, {reading}: {value:.4g} (protocol {ours:.4g}, paper {published:.4g})",
              flush=True)
    return pd.DataFrame(rows, columns=KEY_COLUMNS + [value_column] + TAIL_COLUMNS + list(extra or {}))


def load_evidence(path: Path) -> pd.DataFrame | None:
    """A committed sweep, or None where it was not run."""
    return pd.read_csv(path) if Path(path).exists() else None


def tried(evidence: pd.DataFrame | None, dataset: str, method: str, value_column: str,
          fmt: str = ".3f") -> list[str]:
    """The page's entries of one cell: 'reading value (within|outside)'."""
    if evidence is None:
        return []
    got = evidence[(evidence.dataset == dataset) & (evidence.method == method)]
    return [f"{r.reading} {getattr(r, value_column):{fmt}} ({'within' if r.within_tolerance else 'outside'})"
            for r in got.itertuples()]
