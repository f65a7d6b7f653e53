"""A table's page opens with the paper's table as printed, our value beside every cell.

What a reader holds a reproduction against is the paper's own table, so every
page starts with it: the paper's rows and columns in the paper's order, each
cell ``ours (paper)`` with a mark for its verdict, numbers as the paper prints
them (as many decimals as the printed value, a ``±`` std where the paper gives
one, its bullet/circle as ``•``/``∘``). The long form, one row per cell with
every column, stays in the table's CSV.

Two layouts, chosen by what was published:

* :func:`printed_table`: a table the paper prints (``paper_tables/published/
  <table id>.csv``): rows are its row labels, columns its method columns and
  its descriptive columns (``Size``, ``Dim``, named in the transcription's note);
* :func:`claims_table`: numbers the paper states in its text or reads off a
  figure (``claims.csv``): one row per claim (method and metric), one column
  per dataset of the comparison.

Both read only a comparison frame (:func:`repro.tables.compare`'s columns) and,
for the first, the published table: this module knows no paper.
"""
from __future__ import annotations

import math
import re

import pandas as pd

from ..tables import (MISS_EXPLAINED, MISS_UNEXPLAINED, NO_PUBLISHED, NO_TOLERANCE, OK, READING, STANDIN,
                      UNAVAILABLE, misses_markdown, to_markdown)

#: verdict (its first words) -> the mark a printed cell carries, and the legend's words
MARKS = (
    (OK, "✓", "ok: within the tolerance"),
    (MISS_EXPLAINED, "†", "miss, explained (the reason is under the table)"),
    (MISS_UNEXPLAINED, "✗", "miss, unexplained"),
    (UNAVAILABLE, "n/a", "the dataset is unavailable offline"),
    ("not run", "–", "not run (the CSV says why)"),
    ("not compared", "≠", "shown, not compared (other data, or a mean over incomplete inputs)"),
    ("partial", "…", "run on part of the protocol's splits, shown apart"),
    (READING, "≈", "another reading of a printed row's data, evidence on that row, not a published cell"),
    (NO_TOLERANCE, "", "reported without a judgement"),
    (NO_PUBLISHED, "", "no published value"),
)
STANDIN_MARK = ("ˢ", "computed on a stand-in dataset, not the original")
#: the paper's significance markers (transcribed as better/worse) as printed
SIGNIFICANCE = {"better": "•", "worse": "∘"}
_COLUMN_NOTE = re.compile(r"column '([^']+)'")
_PRINTED_NOTE = re.compile(r"printed '([^']+)'")


def mark(verdict) -> str:
    """The mark of a verdict: ``✓``, ``†``, ``✗``, ... with ``ˢ`` for a stand-in."""
    if not isinstance(verdict, str):
        return ""
    base = verdict[:-len(STANDIN)] if verdict.endswith(STANDIN) else verdict
    symbol = next((s for prefix, s, _ in MARKS if base.startswith(prefix)), "?")
    return symbol + (STANDIN_MARK[0] if verdict.endswith(STANDIN) else "")


def legend(verdicts) -> str:
    """One line naming the marks that ``verdicts`` use."""
    verdicts = [v for v in verdicts if isinstance(v, str)]
    bases = {v[:-len(STANDIN)] if v.endswith(STANDIN) else v for v in verdicts}
    used = [f"{s} {words}" for prefix, s, words in MARKS if s and any(b.startswith(prefix) for b in bases)]
    if any(v.endswith(STANDIN) for v in verdicts):
        used.append(f"{STANDIN_MARK[0]} {STANDIN_MARK[1]}")
    return "Marks: " + "; ".join(used) + "." if used else ""


def decimals(text: str) -> int:
    """How many decimals a printed number has (``'0.970'`` -> 3, ``'12'`` -> 0)."""
    text = str(text).strip()
    return len(text.split(".", 1)[1]) if "." in text else 0


def _fmt(value, places: int) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{places}f}"


def _printed_cell(pub_rows: pd.DataFrame, ours: pd.Series | None) -> str:
    """One cell: ``ours (paper) mark``; several metrics of one printed cell
    (the w/t/l row) join with ``/`` as the paper prints them."""
    texts = [_paper_text(r) for r in pub_rows.itertuples(index=False)]
    paper = texts[0] if len(set(texts)) == 1 and "N/A" in texts else "/".join(texts)
    if ours is None or ours.empty or ours["reproduced"].isna().all():
        verdict = None if ours is None or ours.empty else ours["verdict"].iloc[0]
        shown = "—" if verdict is None else mark(verdict) or "—"
        return f"{shown} ({paper})"
    parts = []
    for r, o in zip(pub_rows.itertuples(index=False), ours.itertuples(index=False)):
        text = _fmt(o.reproduced, decimals(r.value_text))
        std = getattr(o, "std_ours", None)
        if getattr(r, "std_text", "") and std is not None and not pd.isna(std):
            text += "±" + _fmt(std, decimals(r.std_text))
        text += SIGNIFICANCE.get(getattr(o, "marker_ours", "") or "", "")
        parts.append(text)
    return f"{'/'.join(parts)} ({paper}) {mark(ours['verdict'].iloc[0])}".rstrip()


def _shown_cell(pub_rows: pd.DataFrame, shown: pd.DataFrame | None) -> str:
    """A descriptive cell the comparison does not judge: our value when the
    page gives one, without a mark, else ``—``; the paper's in brackets.
    ``shown`` matches on dataset and metric (and method, where it has that
    column); a cell of several metrics (a w/t/l) joins ours with ``/``."""
    cell = _printed_cell(pub_rows, None)
    if shown is None:
        return cell
    values = []
    for row in pub_rows.itertuples(index=False):
        keep = (shown.dataset == row.dataset) & (shown.metric == row.metric)
        if "method" in shown:
            keep &= shown.method.fillna("") == (row.method or "")
        ours = shown[keep]
        if ours.empty or pd.isna(ours["value"].iloc[0]):
            return cell
        values.append(_fmt(float(ours["value"].iloc[0]), decimals(row.value_text)))
    texts = [_paper_text(r) for r in pub_rows.itertuples(index=False)]
    return f"{'/'.join(values)} ({'/'.join(texts)})"


def _paper_text(row) -> str:
    if not row.value_text:  # a cell printed as '/' or 'N/A' is empty in the transcription; its note quotes it
        found = _PRINTED_NOTE.search(row.note or "")
        return found.group(1) if found else "N/A"
    text = row.value_text
    if getattr(row, "std_text", ""):
        text += "±" + row.std_text
    return text + SIGNIFICANCE.get(getattr(row, "marker", "") or "", "")


def _column(row) -> str:
    """A published cell's column: its method, else the column its note names."""
    if row.method:
        return row.method
    found = _COLUMN_NOTE.search(row.note or "")
    return found.group(1) if found else row.metric


def printed_table(comparison: pd.DataFrame, published: pd.DataFrame, title: str,
                  shown: pd.DataFrame | None = None) -> str:
    """The paper's table as printed, ``ours (paper)`` in every cell, its
    marks' legend below; ``published``: :func:`repro.published.load`'s frame
    (``value_text``, ``std_text``, ``marker``, ``note``). Cells of the paper
    that the comparison does not judge (a size, a w/t/l row the page
    computes apart) show ``— (paper)``, or ``ours (paper)`` without a mark when
    ``shown`` (dataset, metric, value) has our value of it (a set's size)."""
    pub = published.copy()
    for col in ("std_text", "marker", "note", "method"):
        pub[col] = pub[col].fillna("") if col in pub else ""
    pub["column"] = [_column(r) for r in pub.itertuples(index=False)]
    comp = comparison.assign(method=comparison["method"].fillna(""))
    rows = list(dict.fromkeys(pub["dataset"]))
    columns = list(dict.fromkeys(pub["column"]))
    grid = []
    for dataset in rows:
        line = {"": dataset}
        for column in columns:
            cell = pub[(pub.dataset == dataset) & (pub.column == column)]
            if cell.empty:
                line[column] = ""
                continue
            ours = cell[["dataset", "method", "metric"]].merge(comp, how="left")
            ours = None if ours["verdict"].isna().any() else ours
            line[column] = _printed_cell(cell, ours) if ours is not None else _shown_cell(cell, shown)
        grid.append(line)
    grid_frame = pd.DataFrame(grid, columns=[""] + columns)
    return to_markdown(grid_frame, title=title, notes="Every cell: ours (the paper's, as printed) and the "
                                                      "verdict's mark; a cell without a mark is shown, not "
                                                      "judged (e.g. a set's size), and '—' has no value of "
                                                      "ours in this table.") + "\n" + legend(comparison["verdict"]) + "\n"


def claims_table(comparison: pd.DataFrame, title: str) -> str:
    """The numbers a paper states in its text or figures, one row per claim
    (method and metric), one column per dataset: ``ours (paper) mark``, to
    four significant digits (the claims have no printed layout)."""
    if "published" not in comparison:
        return ""
    judged = comparison.dropna(subset=["published"])
    judged = judged[judged["verdict"].map(lambda v: isinstance(v, str) and v != NO_PUBLISHED)]
    if judged.empty:
        return ""
    claims = list(dict.fromkeys(zip(judged["method"].fillna(""), judged["metric"])))
    datasets = list(dict.fromkeys(judged["dataset"]))
    grid = []
    for method, metric in claims:
        line = {"claim": f"{method}: {metric}" if method else metric}
        for dataset in datasets:
            cell = judged[(judged.dataset == dataset) & (judged.method.fillna("") == method)
                          & (judged.metric == metric)]
            line[dataset] = "" if cell.empty else _claim_cell(cell.iloc[0])
        grid.append(line)
    shown = pd.DataFrame(grid, columns=["claim"] + datasets)
    return to_markdown(shown, title=title, notes="The paper's numbers are stated in its text or read "
                                                 "from its figures (paper_tables/published/claims.csv); "
                                                 "every cell: ours (the paper's) and the verdict's mark.") \
        + "\n" + legend(judged["verdict"]) + "\n"


def _claim_cell(row) -> str:
    ours = "—" if pd.isna(row.reproduced) else _number(row.reproduced)
    return f"{ours} ({_number(row.published)}) {mark(row.verdict)}".rstrip()


def _number(value: float) -> str:
    """A count as an integer (``7980000``), anything else to four significant digits."""
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else f"{value:.4g}"


def opening(spec, table: pd.DataFrame, shown: pd.DataFrame | None = None) -> str:
    """What a table's page opens with (:func:`repro.experiments.write_table`):
    the paper's table as printed when the paper prints one (a published table
    of the spec's id), else its claims with ours beside them, then the misses
    with their reasons; else the line saying that nothing was published to
    compare. The long form follows, in the page the paper's builder writes."""
    from .. import published
    from ..papers import NAMES

    name = NAMES[spec.paper]
    misses = misses_markdown(table) if "why" in table else ""
    if spec.id in published.list_tables():
        pub = published.load(spec.id)
        ref = " and ".join(dict.fromkeys(r.split(",")[0] for r in pub["ref"]))
        return "\n".join(filter(None, [printed_table(table, pub, f"{name}, {ref} as printed: ours (paper)", shown),
                                        misses])) + "\n"
    claims = claims_table(table, f"{name}: the paper's numbers, ours beside them")
    if claims:
        return "\n".join(filter(None, [claims, misses])) + "\n"
    return (f"*No published value: the {name} paper prints no number for this table, so its rows "
            f"carry the verdict '{NO_PUBLISHED}' and are shown, not judged.*\n\n")
