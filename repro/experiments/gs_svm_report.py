"""GS-SVM paper: records -> published-vs-reproduced tables (CSV and Markdown)."""
from __future__ import annotations

import pandas as pd

from .. import published
from .._io import write_text_atomic
from ..tables import compare, to_markdown
from . import gs_svm as GS

SPEEDUP_CLAIM = (10.0, 30.0)  # "GS-SVMs obtain the speedup range from 10 to 30" (Sec. 3)


def _read(paths) -> pd.DataFrame:
    return pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)


def table1(records: pd.DataFrame):
    """(comparison, ratios, markdown) for Table 1."""
    pub = published.load("gs_svm_table1")
    pub = pub[pub.metric == "kernel_evals_1e6"]
    comparison = compare(pub, GS.table1_cells(records), GS.PAPER)
    ratios = GS.table1_ratios(records)
    ratios["in_claimed_range"] = ratios["ratio"].between(*SPEEDUP_CLAIM)
    per_c = records.pivot_table(index=["paper_dataset", "method"], columns="C",
                                values="n_kernel_evals", sort=False) / 1e6
    per_c = per_c[sorted(per_c.columns)]
    per_c.columns = [f"C={c:g}" for c in per_c.columns]
    mean_ratios = ratios[ratios.C == "mean"]
    md = "\n".join([
        to_markdown(comparison.round(3), title="GS-SVM paper, Table 1: kernel evaluations (1e6)",
                    notes="theta = 0.05; SMO without kernel cache (every computed kernel value "
                          "counted, rbf diagonal not counted), tolerance 1e-3; SMO's published "
                          "value is an average over unnamed C values, ours over the C grid "
                          "below. '(stand-in)': a size-matched subset, not the original file."),
        to_markdown(per_c.reset_index().round(3), title="SMO kernel evaluations (1e6) for every C"),
        to_markdown(mean_ratios.drop(columns="C").round(2),
                    title="SMO / GS-SVM ratios (mean over C)",
                    notes=f"The paper claims a speedup from {SPEEDUP_CLAIM[0]:g} to "
                          f"{SPEEDUP_CLAIM[1]:g}; its own Table 1 gives 9.6 to 50.8."),
    ])
    return comparison, ratios, md


def table2(records: pd.DataFrame, outer_folds: int = 10):
    """(comparison, ttests, markdown) for Table 2. A set with fewer than
    ``outer_folds`` outer folds run is not compared (its cells read
    'partial (k/10 folds)'); the folds it has are shown in a table of their own.
    The paper's Mean row is compared only when all 15 sets have all their folds
    (else it reads 'not compared (sets missing)')."""
    pub = published_table2()
    acc = pub[pub.metric.isin(["accuracy_percent", "mean_accuracy_percent"])]
    folds = records.groupby("paper_dataset")["fold"].nunique()
    short = folds[folds < outer_folds]  # paper name -> folds run, for sets still partial
    all_records = records
    partial = records[records.paper_dataset.isin(short.index)]
    records = records[~records.paper_dataset.isin(short.index)]
    cells = GS.table2_cells(records)
    comparison = compare(acc, cells, GS.PAPER)
    for name, n in short.items():
        comparison.loc[comparison.dataset == name, "verdict"] = f"partial ({n}/{outer_folds} folds)"
    mean_row = (comparison.dataset == "Mean") & comparison.reproduced.isna()
    comparison.loc[mean_row, "verdict"] = "not compared (sets missing)"
    ttests = GS.paired_ttests(records)
    dims = (pub[pub.metric == "n_features"][["dataset", "value", "note"]]
            .rename(columns={"value": "paper_dim", "note": "paper_note"}))
    ours = all_records.groupby("paper_dataset").agg(our_dataset=("dataset", "first"),
                                                n_samples=("n_samples", "first"),
                                                our_dim=("n_features", "first"),
                                                n_classes=("n_classes", "first")).reset_index()
    dims = dims.merge(ours, left_on="dataset", right_on="paper_dataset", how="left").drop(columns="paper_dataset")
    dims = dims[dims.dataset != "Mean"].astype({"paper_dim": "Int64", "our_dim": "Int64",
                                                 "n_samples": "Int64", "n_classes": "Int64"})
    dims["why"] = dims["dataset"].map(_dimension_notes())
    params = (records.groupby(["paper_dataset", "method"], sort=False)
              .agg(median_log2_theta=("log2_theta", "median"), median_log2_C=("log2_C", "median"),
                   unconverged_problems=("n_unconverged_problems", "sum"),
                   seconds=("seconds", "sum")).reset_index())
    md = "\n".join([
        to_markdown(comparison.round(2), title="GS-SVM paper, Table 2: 10-fold CV accuracy (%)",
                    notes="Protocol in repro/experiments/gs_svm.py: one-against-one, inner CV "
                          "chooses log2(theta) (and log2(C) for SVM), features scaled to [-1, 1] "
                          "on each training part."),
        _partial_means(comparison),
        _partial_sets(partial, acc, outer_folds),
        to_markdown(ttests.round(4), title="Paired two-tailed t-tests, GS-SVM vs SVM over the outer folds",
                    notes="The paper: GS-SVM significantly better on Glass, worse on Liver."),
        to_markdown(dims[["dataset", "our_dataset", "n_samples", "paper_dim", "our_dim", "n_classes", "why"]],
                    title="Dimensions: paper vs ours",
                    notes="See repro.datasets (python -m repro.datasets info NAME) for why they differ."),
        to_markdown(params.round(2), title="Selected parameters and time"),
    ])
    return comparison, ttests, md


def published_table2() -> pd.DataFrame:
    """The paper's Table 2 cells, plus a copy of a row's cells for each variant
    of it that we run (``GS.TABLE2_VARIANTS``), under the variant's name."""
    pub = published.load("gs_svm_table2")
    copies = [pub[pub.dataset == row].assign(dataset=variant)
              for variant, row in GS.TABLE2_VARIANTS.items()]
    return pd.concat([pub, *copies], ignore_index=True)


def _partial_means(comparison: pd.DataFrame) -> str:
    """When some sets were not run, the paper's Mean row cannot be compared; print
    instead both means over the sets that were run (empty when all were)."""
    cells = comparison[(comparison.metric == "accuracy_percent")
                       & comparison.dataset.isin(GS.TABLE2_DATASETS)].dropna(subset=["reproduced"])
    if cells.empty or set(cells.dataset) == set(GS.TABLE2_DATASETS):
        return ""
    means = (cells.groupby("method", sort=False)[["published", "reproduced"]].mean()
             .assign(difference=lambda d: d.reproduced - d.published).reset_index())
    names = ", ".join(sorted(set(cells.dataset)))
    return to_markdown(means.round(2), title=f"Mean over the {cells.dataset.nunique()} sets run",
                       notes=f"Not the paper's Mean row (15 sets): the paper's cells and ours, "
                             f"averaged over the same sets ({names}).")


def _partial_sets(partial: pd.DataFrame, published_cells: pd.DataFrame, outer_folds: int) -> str:
    """Mean accuracy over the outer folds a set has, for sets whose run stopped
    short of ``outer_folds`` (shown, not compared: a mean over some folds is
    not the published 10-fold figure)."""
    if partial.empty:
        return ""
    means = (partial.groupby(["paper_dataset", "method"], sort=False)
             .agg(folds_run=("fold", "nunique"), accuracy_percent=("test_accuracy", "mean"))
             .reset_index())
    means["accuracy_percent"] *= 100
    pub = published_cells.set_index(["dataset", "method"])["value"]
    means["published_10_fold"] = [pub.get((d, m)) for d, m in zip(means.paper_dataset, means.method)]
    return to_markdown(means.round(2), title=f"Sets run on fewer than {outer_folds} outer folds",
                       notes="Not compared (verdict 'partial' above): the mean over the folds "
                             "that were run, beside the paper's 10-fold value.")


def _dimension_notes() -> dict:
    """Paper name -> the registry's note on how our version relates to the paper's."""
    from .. import datasets

    notes = {}
    for paper_name, name in datasets.paper_datasets(GS.PAPER).items():
        spec = datasets.get_spec(name)
        ref = next(r for r in spec.papers if r.paper == "gs-svm" and r.name == paper_name)
        notes[paper_name] = ref.note or spec.preprocessing
    return notes


def _banner(protocol: str, note: str) -> str:
    """The lines above a table: the profile when it is not the paper's, and the
    run's note (e.g. which sets were skipped)."""
    return (f"Profile: {protocol}.\n\n" if protocol != "full" else "") + (f"{note}\n\n" if note else "")


def write_table(number: int, inputs, outputs, protocol: str, note: str = ""):
    """The workflow's gs_svm_table1 / gs_svm_table2 step: Table ``number``'s
    records, comparison and Markdown, each written atomically."""
    records = _read(inputs)
    if number == 1:
        comparison, _, md = table1(records)
    else:
        comparison, _, md = table2(records, GS.PROTOCOLS[protocol].outer_folds)
    write_text_atomic(outputs.records, records.to_csv(index=False))
    write_text_atomic(outputs.csv, comparison.to_csv(index=False))
    write_text_atomic(outputs.md, _banner(protocol, note) + md)


def write_speed_table(inputs, outputs):
    records = _read(inputs)
    md = to_markdown(
        records.round(4), title="GS-SVM and SMO beside LIBSVM: fit time and test accuracy",
        notes="Best of `repeat` fits, methods interleaved in one process; "
              "time_ratio_vs_libsvm < 1 means faster than LIBSVM (scikit-learn's SVC, C = 1, "
              "200 MB cache). GS-SVM has no C. Measured on the machine that ran the workflow; "
              "compare ratios, not seconds.")
    write_text_atomic(outputs.csv, records.to_csv(index=False))
    write_text_atomic(outputs.md, md)
