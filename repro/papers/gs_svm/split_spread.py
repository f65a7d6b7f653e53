"""GS-SVM Table 2: how far a cell moves with the draw of the outer folds,
measured; the accuracy tolerance of Table 2 (issue 27: tolerances measured,
not chosen).

A cell of Table 2 is one 10-fold cross-validation's mean test accuracy. The
paper's assignment of rows to folds is not published, so even with its exact
method and data our cell and the paper's are two draws of the folds. This
runs the whole protocol (10 outer folds, 10 inner folds, the grids) again
with the outer folds drawn with each seed of ``SEEDS`` (the committed records
are seed ``jobs.OUTER_SEED``), on the cells that are cheap to repeat:

    python -m repro.papers.gs_svm.split_spread --jobs 2   # writes EVIDENCE (about 100 CPU-minutes)

Which cells (fixed before any was run): GS-SVM on every set (the cheapest
method everywhere), SVM and HM-SVM where the committed cell costs at most
``MAX_CELL_SECONDS`` (the small sets). ``noise`` turns the runs
into the tolerance of every cell of a set: sd, the spread of the cell over
the draws pooled over the set's measured methods (the root of their mean
variance; the draw moves which rows are tested by which model, which is the
set's, whatever the method); two draws differ with standard deviation
sqrt(2) sd, so the tolerance is 1.96 sqrt(2) sd plus half a unit of the
printed value's last digit. A cell beyond it differs from the paper by more
than two draws of the folds give 5 % of the time. The Mean row (over n
sets) gets 1.96 sqrt(2 sum sd^2) / n plus the same half unit. The page of
Table 2 reads EVIDENCE (committed) at the full scale; elsewhere, and on a
set without runs, cells are reported without a judgement.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ...experiments import readings as R
from . import jobs as J

EVIDENCE = Path("paper_tables") / "gs_svm_table2_split_spread.csv"
SEEDS = (1, 2, 3, 4)
Z95 = 1.959963984540054  # the two-sided 95 % point of the standard normal: the rule before issue 46
HALF_UNIT = 0.005        # Table 2 prints accuracies in percent with two decimals
DRAWS = {f"outer folds drawn with seed {seed}": {"outer_seed": seed} for seed in SEEDS}
# the committed cost of a cell above which only its GS-SVM is run (readings.py's bound)
MAX_CELL_SECONDS = 120.0


def draw_accuracy(dataset: str, method: str, draw: str, protocol: J.Protocol | None = None) -> float:
    """The cell (percent) with the outer folds of ``DRAWS[draw]``."""
    return J.protocol_accuracy(dataset, method, DRAWS[draw], protocol)


def cells_to_run(records: pd.DataFrame) -> list[tuple[str, str]]:
    """(set, method) of the measured cells: GS-SVM everywhere, SVM and HM-SVM
    where the committed cell cost at most MAX_CELL_SECONDS."""
    cost = records.groupby(["paper_dataset", "method"], sort=False)["seconds"].sum()
    return [(d, m) for (d, m), seconds in cost.items()
            if m == "GS-SVMs" or seconds <= MAX_CELL_SECONDS]


def measure(records: pd.DataFrame, comparison: pd.DataFrame, jobs: int = 1,
            progress: Path | None = None, seeds=SEEDS) -> pd.DataFrame:
    """One row per (measured cell, seed of ``seeds``): its mean test accuracy (percent)."""
    draws = [draw for draw, change in DRAWS.items() if change["outer_seed"] in seeds]
    tasks = [(d, m, draw) for d, m in cells_to_run(records) for draw in draws]
    return R.sweep(tasks, draw_accuracy, comparison.set_index(["dataset", "method"]),
                   None, "accuracy_percent", jobs, progress=progress)


def spread(evidence: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """Per measured cell: its values over the draws (the committed records'
    and the evidence's), their count and sample standard deviation."""
    committed = (records.groupby(["paper_dataset", "method"])["test_accuracy"].mean().mul(100.0)
                 .rename("accuracy_percent").reset_index().rename(columns={"paper_dataset": "dataset"}))
    draws = pd.concat([committed, evidence[["dataset", "method", "accuracy_percent"]]], ignore_index=True)
    draws = draws.merge(evidence[["dataset", "method"]].drop_duplicates())
    return (draws.groupby(["dataset", "method"])["accuracy_percent"]
            .agg(draws="count", lowest="min", highest="max", sd="std").reset_index())


def set_sd(evidence: pd.DataFrame, records: pd.DataFrame) -> dict:
    """set -> sd pooled over its measured methods (root of the mean variance)."""
    cells = spread(evidence, records)
    return {d: math.sqrt(float(np.mean(g.sd ** 2))) for d, g in cells.groupby("dataset")}


def set_df(evidence: pd.DataFrame, records: pd.DataFrame) -> dict:
    """set -> the degrees of freedom of its pooled sd: the draws less one,
    summed over its measured methods."""
    cells = spread(evidence, records)
    return {d: int((g.draws - 1).sum()) for d, g in cells.groupby("dataset")}


def t95(df: float) -> float:
    """The two-sided 95 % point of Student's t with ``df`` degrees of freedom."""
    return float(stats.t.ppf(0.975, df))


def measured_methods(evidence: pd.DataFrame) -> dict:
    """set -> the methods whose spread was measured on it."""
    return {d: list(dict.fromkeys(g.method)) for d, g in evidence.groupby("dataset")}


def noise(evidence: pd.DataFrame | None, records: pd.DataFrame, methods=J.TABLE2_METHODS,
          rule: str = "t") -> dict:
    """(set, method) -> the cell's tolerance in points, for every method of a
    set with runs; ("Mean", method) -> the Mean row's, when each of the
    paper's 15 sets has runs. Empty without evidence. ``rule``: "t" (the
    quantile of Student's t at the spread's degrees of freedom) or "z" (the
    normal's 1.96, the rule before issue 46, kept to say what it judged).
    A method not measured on a set gets (tolerance, note): its spread is
    borrowed, and the note says from which methods."""
    if evidence is None or not len(evidence):
        return {}
    sds, dfs, measured = set_sd(evidence, records), set_df(evidence, records), measured_methods(evidence)

    def q(df):
        return Z95 if rule == "z" else t95(df)
    out = {}
    for d, sd in sds.items():
        value = q(dfs[d]) * math.sqrt(2.0) * sd + HALF_UNIT
        for m in methods:
            out[(d, m)] = value if m in measured[d] or rule == "z" else (
                value, f"{m}'s own spread not measured on this set (a draw costs more than "
                       f"{MAX_CELL_SECONDS / 60:g} CPU-minutes): borrowed from {', '.join(measured[d])}")
    sets = J.TABLE2_DATASETS   # the paper's Mean row is over its 15 sets
    if all(d in sds for d in sets):
        variance = sum(sds[d] ** 2 for d in sets)
        # Welch-Satterthwaite: the degrees of freedom of a sum of estimated variances
        df = variance ** 2 / sum(sds[d] ** 4 / dfs[d] for d in sets if sds[d] > 0)
        mean = q(df) * math.sqrt(2.0 * variance) / len(sets) + HALF_UNIT
        out.update({("Mean", m): mean for m in methods})
    return out


def summary(evidence: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """The page's table: per measured cell its draws, and its set's pooled sd and tolerance."""
    cells = spread(evidence, records)
    sds = set_sd(evidence, records)
    cells["set_sd"] = cells.dataset.map(sds)
    cells["df"] = cells.dataset.map(set_df(evidence, records))
    cells["tolerance_points"] = cells.df.map(t95) * math.sqrt(2.0) * cells.set_sd + HALF_UNIT
    return cells


def load_evidence(path: Path = EVIDENCE) -> pd.DataFrame | None:
    """The committed measurement, or None where it was not run."""
    return R.load_evidence(path)


def main(argv=None):
    import argparse

    from ..._io import write_text_atomic
    from ...experiments.records import read_records
    from ...experiments.resume import records_file

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seeds", type=int, nargs="+", default=list(SEEDS), choices=SEEDS,
                        help="some of the seeds (runs split over machines; their files concatenated)")
    args = parser.parse_args(argv)
    records = read_records(records_file("gs_svm_table2"), J.TABLE2_SCHEMA)
    comparison = pd.read_csv(Path("paper_tables") / "gs_svm_table2.csv")
    comparison = comparison[comparison.metric == "accuracy_percent"]
    progress = R.partial_path(EVIDENCE)
    rows = measure(records, comparison, jobs=args.jobs, progress=progress, seeds=tuple(args.seeds))
    # a draw is a measurement, not a reading to judge: the sweep's verdict column is left out
    write_text_atomic(EVIDENCE, rows.drop(columns="within_tolerance").to_csv(index=False))
    progress.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
