"""GS-SVM Table 1: how far the kernel-evaluation counts move with the order of
the training rows, measured; the tolerance of Table 1 (issue 27, item 3).

A cell of Table 1 is one run's count (GS-SVM) or its mean over the C grid
(SMO-1, SMO-2). Both algorithms visit the examples in the order of the file:
Keerthi's examine-all loop and GS-SVM's greedy scans break ties by position,
so the same data in another row order gives another count. The paper's order
is not published (nor is its copy of the files), so the spread of a cell over
row orders is what the same quantity varies by when only that differs, as
the Pegasos kT tolerance is the spread over seeds. This runs every method of
Table 1 at every C of the grid on ``SETS`` with the rows permuted by each seed
of ``SEEDS`` (seed s: numpy's ``default_rng(s).permutation``; the committed
records are the file's order):

    python -m repro.papers.gs_svm.order_spread     # writes EVIDENCE (about 2 CPU-minutes)

``noise`` turns it into the tolerance: for each method family (GS-SVM; SMO-1
and SMO-2 together), every pair of orders of a set gives a ratio max / min of
the cell, the quantity a comparison with the paper's one order reads when
only the order differs; the factor is the 95th percentile of those ratios
pooled over the sets (a cell beyond it is a difference that row orders alone
give less than 5 % of the time). SETS are the two smallest of the table (one
Adult, one Web: 2 CPU-minutes; Adult-4 and Web-4 would cost about 20, Adult-7 and
Web-7 hours), so the factor is measured at the small end and applied to every
set, which the page says. The page of Table 1 reads EVIDENCE (committed)
where it exists; without it the counts are reported without a judgement.
"""
from __future__ import annotations

import time
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from ... import datasets
from . import jobs as J

EVIDENCE = Path("paper_tables") / "gs_svm_table1_order_spread.csv"
SETS = ("Adult-1", "Web-1")
SEEDS = tuple(range(1, 11))
QUANTILE = 0.95
# the methods whose orders are pooled into one factor
FAMILIES = {"GS-SVMs": "GS-SVM", "SMO-1": "SMO", "SMO-2": "SMO"}
COLUMNS = ["paper_dataset", "method", "C", "order_seed", "n_kernel_evals", "fit_seconds"]


def counts(dataset: str, seed: int, protocol: J.Protocol | None = None) -> pd.DataFrame:
    """Table 1's fits of one set (every method, every C) on its rows permuted by ``seed``."""
    protocol = protocol or J.PROTOCOLS["full"]
    X, y = datasets.load(J.our_name(dataset))
    order = np.random.default_rng(seed).permutation(X.shape[0])
    X, y = X[order], np.asarray(y)[order]
    rows = []
    for job in J.table1_jobs(protocol):
        if job["dataset"] != dataset:
            continue
        model = J.table1_model(job["method"], job["C"])
        start = time.perf_counter()
        model.fit(X, y)
        rows.append({"paper_dataset": dataset, "method": job["method"],
                     "C": np.nan if job["C"] is None else job["C"], "order_seed": seed,
                     "n_kernel_evals": int(model.n_kernel_evals_), "fit_seconds": time.perf_counter() - start})
        print(f"{dataset} seed {seed} {job['method']} C={job['C']}: {model.n_kernel_evals_}", flush=True)
    return pd.DataFrame(rows, columns=COLUMNS)


def cells(evidence: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """A Table 1 cell per (set, method, order): the records as order 0 (the
    file's), the evidence's orders beside them, on the sets both have and the
    C values both have (so every order's cell is the mean over one grid)."""
    base = records[records.paper_dataset.isin(set(evidence.paper_dataset))].assign(order_seed=0)
    evidence = evidence[evidence.paper_dataset.isin(set(base.paper_dataset))]
    both = pd.concat([base[COLUMNS[:-1]], evidence[COLUMNS[:-1]]], ignore_index=True)
    cs = set(evidence.C.dropna()) & set(base.C.dropna())
    both = both[both.C.isna() | both.C.isin(cs)]
    if base.empty:  # no records of the measured sets (e.g. a run without them): no cells
        return pd.DataFrame(columns=["paper_dataset", "method", "order_seed", "value"])
    return (both.groupby(["paper_dataset", "method", "order_seed"], dropna=False)["n_kernel_evals"]
            .mean().div(1e6).rename("value").reset_index())


def ratios(evidence: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """Every pair of orders of a (set, method): max / min of the two cells."""
    rows = []
    for (dataset, method), g in cells(evidence, records).groupby(["paper_dataset", "method"]):
        for a, b in combinations(g.value.tolist(), 2):
            rows.append({"paper_dataset": dataset, "method": method, "family": FAMILIES[method],
                         "ratio": max(a, b) / min(a, b)})
    return pd.DataFrame(rows, columns=["paper_dataset", "method", "family", "ratio"])


def noise(evidence: pd.DataFrame | None, records: pd.DataFrame) -> dict:
    """method -> the factor of its family (the QUANTILE of the pairs' ratios);
    empty without evidence."""
    pairs = ratios(evidence, records) if evidence is not None and len(evidence) else None
    if pairs is None or pairs.empty:
        return {}
    factor = pairs.groupby("family")["ratio"].quantile(QUANTILE)
    return {method: float(factor[family]) for method, family in FAMILIES.items() if family in factor.index}


def summary(evidence: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """The page's table: per set and method, the cells over the orders (min,
    median, max) and the family's factor."""
    c = cells(evidence, records)
    factor = noise(evidence, records)
    out = (c.groupby(["paper_dataset", "method"])["value"]
           .agg(orders="count", lowest="min", median="median", highest="max").reset_index())
    out["largest_ratio"] = out.highest / out.lowest
    out["tolerance_factor"] = out.method.map(factor)
    return out


def load_evidence(path: Path = EVIDENCE) -> pd.DataFrame | None:
    """The committed measurement, or None where it was not run."""
    return pd.read_csv(path) if Path(path).exists() else None


def main():
    from ..._io import write_text_atomic

    frames = [counts(dataset, seed) for dataset in SETS for seed in SEEDS]
    write_text_atomic(EVIDENCE, pd.concat(frames, ignore_index=True).to_csv(index=False))


if __name__ == "__main__":
    main()
