"""The parts of a table's page that every paper shares: datasets left out or
cut short, their cells' statuses, and the lines above a table.

A run can leave a dataset out (not in this scale, skipped by config,
unavailable offline) or cut it short (a run continued across machine
sessions has some of the protocol's splits: config ``partial_datasets``).
Such cells get their verdict from :func:`statuses` (the vocabulary of
:mod:`repro.tables`), never a number: a mean over some folds is not the
published figure. The splits a short set has are shown apart by
:func:`partial_sets_markdown`.
"""
from __future__ import annotations

import pandas as pd

from .. import datasets
from ..tables import UNAVAILABLE, not_run, partial, to_markdown


def split_by_completeness(records: pd.DataFrame, n_splits: int, by: str = "paper_dataset",
                          split: str = "split_index"):
    """(complete, short_records, short) where ``short`` maps each dataset run on
    fewer than ``n_splits`` splits to the number it has."""
    counts = records.groupby(by)[split].nunique()
    short = counts[counts < n_splits]
    cut = records[by].isin(short.index)
    return records[~cut], records[cut], short


def statuses(table_datasets, protocol_datasets, table_run, short=None, n_splits=None,
             dataset_names: dict | None = None, download: bool | None = None,
             unit: str = "folds") -> dict:
    """The verdict of the cells of every dataset of a table that has no
    reproduced value, the first that applies of: ``partial`` (run on fewer
    splits than the protocol's), ``not run (skipped by config)``, ``not run
    (left out of this scale)``, ``unavailable offline`` (cannot be obtained
    on this machine: its jobs would fail for want of data).

    ``dataset_names`` maps a paper's name to the registry's, for the
    availability check (datasets without one are not checked): a set is
    unavailable when :func:`repro.datasets.obtainable` says so, which counts a
    'download' set only where its host answers (``download``: None probes,
    True/False decides)."""
    short = {} if short is None else dict(short)
    dataset_names = dataset_names or {}
    out = {}
    for name in table_datasets:
        if name in short:
            out[name] = partial(int(short[name]), n_splits, unit)
        elif name in table_run.skipped:
            out[name] = not_run("config")
        elif name not in protocol_datasets:
            out[name] = not_run("scale")
        elif name in dataset_names and not datasets.obtainable(dataset_names[name], download=download):
            out[name] = UNAVAILABLE
    return out


def split_means(records: pd.DataFrame, score: str, metric: str, scale: float = 100.0,
                split: str = "split_index", unit: str = "splits") -> pd.DataFrame:
    """Cells of a table over splits: the mean (and std) of ``score`` over the
    splits of every (paper dataset, method), times ``scale``, in the columns
    :func:`repro.tables.compare` reads, with the number of splits as the note
    ("10 ``unit``")."""
    cells = (records.groupby(["paper_dataset", "method"], sort=False)
             .agg(value=(score, "mean"), std=(score, "std"), our_dataset=("dataset", "first"),
                  standin=("standin", "first"), splits=(split, "nunique")).reset_index()
             .rename(columns={"paper_dataset": "dataset"}))
    cells[["value", "std"]] *= scale
    cells["metric"] = metric
    cells["note"] = cells["splits"].map(lambda k: f"{k} {unit}")
    return cells.drop(columns="splits")


def partial_sets_markdown(short_records: pd.DataFrame, published: pd.DataFrame, n_splits: int,
                          score: str, scale: float = 100.0, split: str = "split_index") -> str:
    """Mean score over the splits a short set has, beside the published value
    (shown, not compared); empty when no set is short."""
    if short_records.empty:
        return ""
    means = (short_records.groupby(["paper_dataset", "method"], sort=False)
             .agg(splits_run=(split, "nunique"), mean=(score, "mean")).reset_index())
    means["mean"] *= scale
    pub = published.set_index(["dataset", "method"])["value"]
    means["published"] = [pub.get((d, m)) for d, m in zip(means.paper_dataset, means.method)]
    return to_markdown(means.round(2), title=f"Sets run on fewer than {n_splits} splits",
                       notes="Not compared (verdict 'partial' above): the mean over the splits "
                             f"that were run, beside the paper's value over all {n_splits}.")


def partial_means_markdown(comparison: pd.DataFrame, metric: str, datasets_of_mean) -> str:
    """When some datasets of a mean row were not run, the paper's mean cannot
    be compared; print instead both means over the datasets run (empty when
    all were). ``datasets_of_mean``: the datasets the paper's mean is over."""
    names = list(datasets_of_mean)
    cells = comparison[(comparison.metric == metric)
                       & comparison.dataset.isin(names)].dropna(subset=["reproduced"])
    if cells.empty or set(cells.dataset) == set(names):
        return ""
    means = (cells.groupby("method", sort=False)[["published", "reproduced"]].mean()
             .assign(difference=lambda d: d.reproduced - d.published).reset_index())
    run = ", ".join(sorted(set(cells.dataset)))
    return to_markdown(means.round(2), title=f"Mean over the {cells.dataset.nunique()} sets run",
                       notes=f"Not the paper's mean row ({len(names)} sets): the paper's cells and ours, "
                             f"averaged over the same sets ({run}).")


def banner(table_run) -> str:
    """The lines above a table: the scale when it is not the paper's, and the
    run's note (e.g. which sets were skipped)."""
    scale = f"Scale: {table_run.scale}.\n\n" if table_run.scale != "full" else ""
    return scale + (f"{table_run.note}\n\n" if table_run.note else "")


def pyplot():
    """matplotlib's pyplot on the Agg backend: jobs and table steps draw
    without a display (imported when a figure is drawn, not with the page)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def png_bytes(fig, dpi: int = 100) -> bytes:
    """A figure's PNG (closed after): no Software metadata, so the bytes do
    not change with matplotlib's version and a rebuilt figure of the same
    records is the same file."""
    import io

    import matplotlib.pyplot as plt

    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=dpi, metadata={"Software": None})
    plt.close(fig)
    return out.getvalue()
