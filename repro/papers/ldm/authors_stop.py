"""LDM Tables 2 and 3 under the authors' stopping rule (issue 46, item 1).

The authors' released code (kunzhan/LDM_HSI_Classification, LDM/LDM.cpp,
``solve_cd``; read, not copied) stops its coordinate descent silently after a
pass whose projected gradients have a spread max PG - min PG <= 0.01, or after
1,000 passes: ``repro.solvers.LDM(stop='authors')``. Run to convergence that
code gives our LDM (notes, "LDM"); as released it returns a model that is not
the optimum. This module runs the LDM column of Tables 2 and 3 with that rule
as the one change from the protocol of ``jobs.py`` (the same sets, 30
partitions, grids, 5-fold inner CV and tie rule), every fit started from
beta = 0 as the code starts it (the committed LDM warm-starts along the grid,
which under a rule that stops short of the optimum would stop elsewhere):

    python -m repro.papers.ldm.authors_stop table2 [table3] [--sets heart sonar]

Rows go to ``EVIDENCE`` (one per table, set and partition), set by set, the
cheapest sets first; a run resumes after the sets the file already has. Every record is paired with the
committed records' SVM and LDM by (paper_dataset, split_index):
:func:`wtl_against_svm` is the paper's win/tie/loss row of this reading.

The rows heart-f9, wdbc-f14 and colic-f13 (``SKIPPED``) are not run: encodings
beside a paper row (jobs.ENCODINGS), left out of the counts over sets anyway.
"""
from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning

from ...experiments.selection import dataset_record, fold_record, select_and_test
from ...experiments.stats import paired_comparison, win_tie_loss
from ...solvers import LDM
from . import jobs as L

EVIDENCE = Path("paper_tables") / "ldm_authors_stop.csv"
METHOD = "LDM (authors' stop)"
TABLES = {"table2": "linear", "table3": "rbf"}
SKIPPED = ("heart-f9", "wdbc-f14", "colic-f13")


class _ColdLDM(LDM):
    """LDM(stop='authors') that ignores a grid's warm start (the authors' code
    starts every fit from beta = 0) and tallies how each fit stopped."""

    def start_from(self, fitted):
        return self

    def fit(self, X, y):
        super().fit(X, y)
        tally = getattr(self, "_tally", None)
        if tally is not None:
            tally.extend(self.stopped_by_)
        return self


class AuthorsStopGrid(L.ScoreGrid):
    """jobs.ScoreGrid of LDM with every fit by the authors' stopping rule."""

    def __init__(self, kernel: str, impute=()):
        super().__init__("LDM", kernel, impute=impute)
        self.stops = []  # 'spread' or 'cap', per binary problem fitted

    def make(self, p: dict, m: int):
        model = _ColdLDM(**{**L.make_estimator("LDM", self.kernel, p, m).get_params(), "stop": "authors"})
        model._tally = self.stops
        return model


def _agreements(X, y, outer, kernel: str, params: dict, impute=()) -> tuple[float, float]:
    """Test-half agreement of the selected point fitted by the authors' rule
    with the bias-free SVM at its C (and width), and with the LDM the
    protocol fits at the same point (to its tolerance, cold); ``impute``: the
    set's missing values filled on the training half first (jobs.prepare)."""
    yf = y[outer.train]
    Xf, Xt = L.prepare(kernel, X[outer.train], yf, X[outer.test], impute=impute)
    if kernel == "rbf":
        from ...kernels import squared_distances

        w = params["width_factor"] * L.mean_distance(Xf)
        Xf, Xt = L.rbf(squared_distances(Xf, Xf), w), L.rbf(squared_distances(Xt, Xf), w)
    m = len(yf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = AuthorsStopGrid(kernel).make(params, m).fit(Xf, yf).predict(Xt)
        svm = L.make_estimator("SVM (no bias)", kernel, params, m).fit(Xf, yf).predict(Xt)
        ldm = L.make_estimator("LDM", kernel, params, m).fit(Xf, yf).predict(Xt)
    return float(np.mean(ours == svm)), float(np.mean(ours == ldm))


def run_partition(table: str, dataset: str, partition: int, protocol: L.Protocol | None = None) -> dict:
    """One record: partition ``partition`` of ``dataset`` in ``table``, the LDM
    column's protocol with the authors' stopping rule."""
    kernel = TABLES[table]
    protocol = protocol or L.PROTOCOLS["full"]
    X, y, info = L.load(dataset)
    outer = L.partitions(y, protocol, dataset)[int(partition)]
    start = time.perf_counter()
    hook = AuthorsStopGrid(kernel, info.impute)
    points = L.grid("LDM", kernel, protocol)
    chosen = select_and_test(X, y, outer, points, hook, protocol.inner_folds, L.INNER_SEED)
    params = {"log2_C": L._log2(chosen.params, "C"), "log2_lambda1": L._log2(chosen.params, "lambda1"),
              "log2_lambda2": L._log2(chosen.params, "lambda2"),
              "log2_width_factor": L._log2(chosen.params, "width_factor")}
    with_svm, with_ldm = _agreements(X, y, outer, kernel, chosen.params, info.impute)
    return {"table": table,
            **fold_record(dataset_record(dataset, info), X, y, outer, protocol.inner_folds, L.INNER_SEED,
                          METHOD, params, chosen),
            "kernel": kernel, "grid_size": len(points), "n_best": chosen.n_best,
            "agreement_with_svm_no_bias": with_svm, "agreement_with_converged_ldm": with_ldm,
            "n_problems": len(hook.stops), "n_capped_problems": int(sum(s == "cap" for s in hook.stops)),
            "seconds": time.perf_counter() - start}


def run_set(table: str, dataset: str, protocol: L.Protocol | None = None) -> pd.DataFrame:
    """Every partition of one set (jobs.run_set's order), stamped with provenance."""
    from ...experiments.provenance import stamp
    from ...solvers.ldm import clear_factorisation_caches

    protocol = protocol or L.PROTOCOLS["full"]
    rows = []
    for r in range(protocol.n_partitions):
        rows.append(run_partition(table, dataset, r, protocol))
        clear_factorisation_caches()
    frame = pd.DataFrame(rows)
    frame["provenance"] = stamp("full", threads=1)
    return frame


def _tables_folder(folder) -> Path:
    """paper_tables/ of the repository root ``folder``, or ``folder`` itself (an
    evidence folder: paper_tables/ or a copy of it under any name)."""
    folder = Path(folder)
    return folder / "paper_tables" if (folder / "paper_tables").is_dir() else folder


def load_evidence(folder: Path | str = ".") -> pd.DataFrame | None:
    """The committed rows (``EVIDENCE`` under ``folder``: the repository root or
    its paper_tables/), or None where none were run."""
    path = _tables_folder(folder) / EVIDENCE.name
    return pd.read_csv(path) if path.exists() else None


def _table(table_id: str) -> str:
    table = table_id.removeprefix("ldm_")
    if table not in TABLES:
        raise ValueError(f"table_id must be one of {sorted(TABLES)} (or ldm_...); got {table_id!r}")
    return table


def wtl_against_svm(evidence_folder, table_id: str) -> dict:
    """LDM (authors' stop) against the committed SVM of ``table_id`` ('table2',
    'table3' or 'ldm_table2', ...): the paired two-tailed t-test at 95 % per set
    over the partitions both have (paired by paper_dataset and split_index),
    each dataset counted once (jobs.distinct). ``evidence_folder``: the
    repository root, or the folder of the records (paper_tables/ or a copy).

    Returns the counts of this reading under win_tie_loss's keys ('win',
    'tie', 'loss'), and 'wtl' ('1/12/4'); 'committed_ldm': the committed
    LDM's counts against SVM on the same sets and partitions;
    'sets' (the sets counted), 'partitions' (paired partitions in all),
    'missing' (sets the committed records count that this reading lacks),
    and 'per_set' (set -> (mean LDM (authors' stop), mean SVM, p, outcome))."""
    table = _table(table_id)
    tables = _tables_folder(evidence_folder)
    records = pd.read_csv(tables / f"ldm_{table}_records.csv")
    ours = load_evidence(tables)
    ours = ours[ours.table == table] if ours is not None else pd.DataFrame(columns=["paper_dataset"])
    committed = L.distinct(records[records.method.isin(["SVM", "LDM"])], "paper_dataset")
    ours = L.distinct(ours, "paper_dataset")
    both = pd.concat([committed[["paper_dataset", "split_index", "method", "test_accuracy"]],
                      ours[["paper_dataset", "split_index", "method", "test_accuracy"]]], ignore_index=True)
    ran = sorted(set(ours.paper_dataset))
    tests = paired_comparison(both[both.paper_dataset.isin(ran)], METHOD, "SVM", score="test_accuracy",
                              by="paper_dataset")
    base = paired_comparison(both[both.paper_dataset.isin(ran)], "LDM", "SVM", score="test_accuracy",
                             by="paper_dataset")
    counts = win_tie_loss(tests)
    return {**counts, "wtl": "/".join(str(v) for v in counts.values()),
            "committed_ldm": win_tie_loss(base), "sets": len(tests),
            "partitions": int(tests.splits.sum()) if len(tests) else 0,
            "missing": sorted(set(committed.paper_dataset) - set(ran)),
            "per_set": {r.paper_dataset: (r.mean_a, r.mean_b, r.p, r.outcome) for r in tests.itertuples()}}


def main(argv=None):
    from ..._io import write_text_atomic

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tables", nargs="+", choices=sorted(TABLES))
    parser.add_argument("--sets", nargs="*", help="only these sets (default: every set of the "
                                                  "committed records, SKIPPED aside)")
    args = parser.parse_args(argv)
    for table in args.tables:
        records = pd.read_csv(Path("paper_tables") / f"ldm_{table}_records.csv")
        # the cheapest sets first (the committed LDM's seconds), so a run cut short has the most sets
        cost = records[records.method == "LDM"].groupby("paper_dataset", sort=False).seconds.sum()
        names = [n for n in cost.sort_values(kind="stable").index if n not in SKIPPED]
        for name in args.sets or names:
            done = load_evidence()
            if done is not None and ((done.table == table) & (done.paper_dataset == name)).any():
                continue
            frame = run_set(table, name)
            print(f"{table} {name}: {frame.seconds.sum():.1f} s, mean accuracy "
                  f"{frame.test_accuracy.mean():.4f}", flush=True)
            rows = frame if done is None else pd.concat([done, frame], ignore_index=True)
            write_text_atomic(EVIDENCE, rows.to_csv(index=False))


if __name__ == "__main__":
    main()
