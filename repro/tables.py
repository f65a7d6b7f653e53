"""Records -> tables for paper_tables/ (published vs reproduced, Markdown/CSV)."""
import pandas as pd


def to_markdown(df: pd.DataFrame, title: str = "", notes: str = "") -> str:
    """A GitHub-flavoured Markdown table (no extra dependency); empty cells for NaN."""
    cols = [str(c) for c in df.columns]
    def cell(v):
        if v is None or (pd.api.types.is_scalar(v) and pd.isna(v)):
            return ""
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
                      "verdict", "tolerance", "our_dataset", "standin", "note"]


def compare(published: pd.DataFrame, reproduced: pd.DataFrame, paper: str) -> pd.DataFrame:
    """Published vs reproduced, one row per published cell, with a verdict.

    ``published``: a table of :func:`repro.published.load` (columns dataset,
    method, metric, value, ...). ``reproduced``: cells computed by an experiment,
    columns ``dataset`` (the paper's name), ``method``, ``metric``, ``value`` and
    optionally ``our_dataset``, ``standin`` (bool) and ``note``.

    Verdicts: ``ok`` (within the tolerance of :mod:`repro.tolerances`), ``miss``
    (outside it), ``not run`` (no reproduced value), ``no tolerance`` (a cell
    we report without judging, e.g. a dataset size). A stand-in dataset adds
    `` (stand-in)`` to the verdict so it is never read as the original.
    """
    from .tolerances import tolerance_for

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
    verdicts, tols = [], []
    for row in out.itertuples(index=False):
        tol = tolerance_for(paper, row.metric)
        tols.append(tol.describe() if tol else "")
        if pd.isna(row.reproduced):
            verdict = "not run"
        elif tol is None:
            verdict = "no tolerance"
        else:
            verdict = "ok" if tol.accepts(float(row.published), float(row.reproduced)) else "miss"
        if row.standin is True:
            verdict += " (stand-in)"
        verdicts.append(verdict)
    out["verdict"] = verdicts
    out["tolerance"] = tols
    out["standin"] = out["standin"].fillna(False).astype(bool)
    return out[COMPARISON_COLUMNS]
