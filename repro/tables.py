"""Records -> published-vs-reproduced tables, for every paper (CSV and Markdown).

:func:`compare` is the one table builder: a paper's table step computes its
reproduced cells from its records and hands them here with the published
cells; every verdict is decided in this function, from the tolerance rules
(:mod:`repro.tolerances`), the explanations registry (:mod:`repro.explanations`)
and the status of cells that have no reproduced value. Nothing overwrites a
verdict afterwards.

The verdict vocabulary, defined once:

* ``ok``: within the tolerance;
* ``miss (explained)``: outside it, with an entry in the explanations registry
  whose reason a reader can check against evidence the code produces;
* ``miss (unexplained)``: outside it, and either no entry (a test fails until
  one is written) or an entry that records what was found and says it does not
  explain the miss;
* ``no tolerance``: a cell reported without a judgement (e.g. a size);
* ``no published value``: a row of a table with nothing published to
  compare it with (a speed table, readings, figure data): every table's CSV
  has the ``verdict`` column (:func:`with_verdicts`), so a reader and the
  index count verdicts in one schema;
* ``not run (<why>)``: no reproduced value; why is one of ``NOT_RUN_WHY``;
* ``unavailable offline``: the dataset cannot be obtained on this machine;
* ``partial (k/n folds)`` (or partitions): a run continued across sessions, so far on k of
  the protocol's n splits: shown apart, not compared;
* ``not compared (<why>)``: a derived cell (e.g. a mean over datasets) whose
  inputs are incomplete, or ``not compared (other data)``: our value on
  another dataset, shown beside a published value measured on data we cannot
  run (``OTHER_DATA``; :func:`compare`'s ``not_comparable``);

* ``reading of <row> (within | outside | not run)``: a row the paper does not
  print, run on another reading of a printed row's data (another coding, a
  version with the paper's dimension): its value is judged against that
  row's published cell as evidence on it, and it is never counted as a
  published cell of its own (:func:`compare`'s ``readings``);

and the qualifier `` (stand-in)`` appended to any verdict of a cell computed on
a stand-in dataset, so that it is never read as the original.
"""
from __future__ import annotations

import pandas as pd

OK = "ok"
MISS_EXPLAINED = "miss (explained)"
MISS_UNEXPLAINED = "miss (unexplained)"
NO_TOLERANCE = "no tolerance"
NO_PUBLISHED = "no published value"
UNAVAILABLE = "unavailable offline"
STANDIN = " (stand-in)"
OTHER_DATA = "other data"
READING = "reading of"
#: a miss with no entry in its paper's explanations registry (a test fails
#: until one is written: it says what was tried)
NO_CAUSE_TESTED = "not explained: no cause has been tested for this cell yet"
NOT_RUN_WHY = {
    "scale": "left out of this scale",
    "config": "skipped by config",
    "records": "no records",
}


def not_run(why: str) -> str:
    """``not run (<why>)`` for a key of ``NOT_RUN_WHY``."""
    return f"not run ({NOT_RUN_WHY[why]})"


def partial(done: int, total: int, unit: str = "folds") -> str:
    return f"partial ({done}/{total} {unit})"


def not_compared(why: str) -> str:
    return f"not compared ({why})"


def reading(of: str, state: str) -> str:
    """``reading of <row> (<state>)``: the verdict of a row run on another
    reading of the paper row ``of`` (state: within, outside, not run)."""
    return f"{READING} {of} ({state})"


def is_reading(verdict: str) -> bool:
    return verdict.startswith(READING)


def with_verdicts(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with a ``verdict`` in every row: ``no published value`` where
    it has none (a table with nothing published, or the rows of a comparison
    that only show data, such as the timings under NESVM's claims)."""
    out = table.copy()
    if "verdict" not in out:
        out["verdict"] = NO_PUBLISHED
    else:
        out["verdict"] = out["verdict"].where(out["verdict"].map(lambda v: isinstance(v, str) and v != ""),
                                              NO_PUBLISHED)
    return out


def is_miss(verdict: str) -> bool:
    return verdict.startswith("miss")


def to_markdown(df: pd.DataFrame, title: str = "", notes: str = "") -> str:
    """A GitHub-flavoured Markdown table (no extra dependency); empty cells for NaN."""
    cols = [str(c) for c in df.columns]

    def cell(v):
        if v is None or (pd.api.types.is_scalar(v) and pd.isna(v)):
            return ""
        if isinstance(v, float) and v.is_integer() and 1e3 <= abs(v) < 1e15:
            return str(int(v))  # a count (7980000), not 7980000.0
        return str(v).replace("|", "\\|")

    lines = []
    if title:
        lines += [f"# {title}", ""]
    if notes:
        lines += [notes.strip(), ""]
    lines.append("| " + " | ".join(cols) + " |")
    lines.append("|" + "|".join("---" for _ in cols) + "|")
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


COMPARISON_COLUMNS = ["dataset", "method", "metric", "published", "reproduced", "difference",
                      "verdict", "tolerance", "our_dataset", "standin", "note", "why"]


def compare(published: pd.DataFrame, reproduced: pd.DataFrame, paper: str, table: str = "",
            status: dict | None = None, context: dict | None = None,
            not_comparable: dict | None = None, readings: dict | None = None) -> pd.DataFrame:
    """Published vs reproduced, one row per published cell, with a verdict.

    ``published``: a table of :func:`repro.published.load` (columns dataset,
    method, metric, value, ...). ``reproduced``: cells computed by an
    experiment, columns ``dataset`` (the paper's name), ``method``, ``metric``,
    ``value`` and optionally ``our_dataset``, ``standin`` (bool) and ``note``.
    ``table``: the published table id, under which the explanations registry
    files its entries. ``status``: the verdict of cells without a reproduced
    value, by dataset name (one of the vocabulary's ``not run``, ``partial``,
    ``not compared``, ``unavailable offline``; default ``not run (no
    records)``). ``context``: what the table's explanations compute their
    facts from (the paper's records and derived tables). ``not_comparable``:
    dataset name -> why (e.g. ``OTHER_DATA``) for rows whose reproduced value
    is shown but must not be judged against the published one (it was measured
    on other data): their verdict is ``not compared (<why>)``. ``readings``:
    row name -> the printed row it is another reading of (its published
    cells are that row's): verdict ``reading of <row> (within | outside |
    not run)``, never a published cell of its own. A cell the paper prints
    as N/A (no value) is not a published cell: ``no published value``.

    The column ``why`` holds, for a miss, the registry's reason with its
    computed facts and where to see the evidence; ``attrs["explanations_used"]``
    maps each (dataset, method) with an entry to the resolved entry
    (:class:`repro.explanations.Resolved`: its key, and whether its condition holds).
    """
    from .explanations import explain
    from .tolerances import tolerance_for

    status = status or {}
    not_comparable = not_comparable or {}
    readings = readings or {}
    key = ["dataset", "method", "metric"]
    pub = published[key + ["value"]].rename(columns={"value": "published"})
    rep = reproduced.copy()
    for col, default in (("our_dataset", ""), ("standin", False), ("note", "")):
        if col not in rep:
            rep[col] = default
    rep = rep[key + ["value", "our_dataset", "standin", "note"]].rename(columns={"value": "reproduced"})
    if rep.duplicated(key).any():
        raise ValueError(f"reproduced cells are not unique: {rep[rep.duplicated(key)][key].values.tolist()}")
    out = pub.merge(rep, on=key, how="left")
    out["difference"] = out["reproduced"] - out["published"]
    out["standin"] = out["standin"].astype("boolean").fillna(False).astype(bool)
    verdicts, tols, whys, used = [], [], [], {}
    for row in out.itertuples(index=False):
        tol = tolerance_for(paper, row.metric) if not pd.isna(row.published) else None
        tol = tol.at(row, context) if tol is not None else None
        tols.append(tol.describe() if tol else "")
        why = ""
        if pd.isna(row.published):  # printed N/A: nothing to compare, and not a published cell
            verdict = NO_PUBLISHED
        elif row.dataset in readings:
            state = ("not run" if pd.isna(row.reproduced) or tol is None else
                     "within" if tol.accepts(float(row.published), float(row.reproduced)) else "outside")
            verdict = reading(readings[row.dataset], state)
        elif pd.isna(row.reproduced) and row.dataset in status:
            verdict = status[row.dataset]
        elif row.dataset in not_comparable:  # with or without a value: other data is never judged
            verdict = not_compared(not_comparable[row.dataset])
        elif pd.isna(row.reproduced):
            verdict = not_run("records")
        elif tol is None:
            verdict = NO_TOLERANCE
        elif tol.accepts(float(row.published), float(row.reproduced)):
            verdict = OK
        else:
            entry = explain(table, row, context or {})
            if entry is None:
                verdict, why = MISS_UNEXPLAINED, NO_CAUSE_TESTED
            else:
                verdict, why = (MISS_EXPLAINED if entry.explained else MISS_UNEXPLAINED), entry.text
                used[(row.dataset, row.method)] = entry
        if row.standin:
            verdict += STANDIN
        verdicts.append(verdict)
        whys.append(why)
    out["verdict"] = verdicts
    out["tolerance"] = tols
    out["why"] = whys
    out = out[COMPARISON_COLUMNS]
    # (dataset, method) -> the registry's resolved entry (key, whether its
    # condition holds): how the tests find stale entries
    out.attrs["explanations_used"] = used
    return out


def comparison_markdown(comparison: pd.DataFrame, title: str, digits: int | None = None,
                        notes: str = "") -> str:
    """A comparison in long form, one row per cell, as the page shows it under
    the paper-shaped table: without the ``why`` column (a miss's reason is
    printed under the table, :func:`misses_markdown`) and without the columns
    that hold one value in every row (named once above the table instead),
    rounded to ``digits`` (None: as computed)."""
    shown = comparison.drop(columns="why")
    constant = [c for c in shown.columns if c not in ("dataset", "method", "metric", "verdict")
                and len(shown) > 1 and shown[c].astype(str).nunique(dropna=False) == 1]
    if constant:
        same = "; ".join(f"{c}: {_plain(shown[c].iloc[0])}" for c in constant)
        notes = (notes.strip() + "\n\n" if notes.strip() else "") + f"The same in every row: {same}."
        shown = shown.drop(columns=constant)
    return to_markdown(shown if digits is None else shown.round(digits), title=title, notes=notes)


def _plain(value) -> str:
    empty = value is None or (pd.api.types.is_scalar(value) and pd.isna(value)) or str(value) == ""
    return "(empty)" if empty else str(value)


def misses_markdown(comparison: pd.DataFrame, title: str = "Misses and why") -> str:
    """The reasons of a table's misses, one paragraph per cell, for the
    Markdown page under the table (the CSV has them in its ``why`` column)."""
    misses = comparison[comparison["verdict"].map(is_miss)]
    if misses.empty:
        return ""
    lines = [f"## {title}", ""]
    for row in misses.itertuples(index=False):
        lines.append(f"- **{row.dataset}, {row.method}** ({row.verdict}, {row.reproduced:.4g} vs "
                     f"{row.published:.4g}): {row.why}")
    return "\n".join(lines) + "\n"
