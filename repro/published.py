"""Loader for the numbers printed in the five papers (hand-transcribed CSVs).

The CSVs live in ``paper_tables/published/`` at the repository root (see the README
there for the conventions); a built (non-editable) install carries a copy in
``repro/_published/`` (setup.py). Set the environment variable
``REPRO_PUBLISHED_DIR`` to read them from another folder.

Table files use the long ("tidy") layout, one row per printed cell::

    paper,ref,dataset,method,metric,value,std,marker,unit,note

and ``claims.csv`` holds numeric statements made in the text::

    paper,ref,claim_id,quantity,value,unit,text

``load`` returns ``value`` (and ``std`` for tables) as floats, NaN where the paper
prints no number (the ``note`` then starts with ``"missing:"``), and keeps the
printed strings in ``value_text`` (and ``std_text``) so that the printed precision
(e.g. ``"74.20"``) is not lost. ``load(..., raw=True)`` returns every column as the
exact string in the file.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

__all__ = [
    "ENV_VAR",
    "TABLE_COLUMNS",
    "CLAIM_COLUMNS",
    "published_dir",
    "list_tables",
    "table_path",
    "load",
]

ENV_VAR = "REPRO_PUBLISHED_DIR"
TABLE_COLUMNS = ["paper", "ref", "dataset", "method", "metric", "value", "std", "marker", "unit", "note"]
CLAIM_COLUMNS = ["paper", "ref", "claim_id", "quantity", "value", "unit", "text"]


def published_dir() -> Path:
    """Folder holding the published CSVs: ``$REPRO_PUBLISHED_DIR`` if set, else
    the checkout's ``paper_tables/published`` (editable install, source tree),
    else the copy installed with the package."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser().resolve()
    checkout = Path(__file__).resolve().parents[1] / "paper_tables" / "published"
    if checkout.is_dir():
        return checkout
    return Path(__file__).resolve().parent / "_published"


def list_tables() -> list[str]:
    """Sorted table ids (CSV file stems) available in :func:`published_dir`."""
    folder = published_dir()
    if not folder.is_dir():
        raise FileNotFoundError(
            f"published tables folder not found: {folder} "
            f"(set {ENV_VAR} to the folder holding the published CSVs)"
        )
    return sorted(p.stem for p in folder.glob("*.csv") if p.is_file())


def table_path(table_id: str) -> Path:
    """Path of the CSV for ``table_id``; KeyError naming the known ids if unknown."""
    known = list_tables()
    if table_id not in known:
        raise KeyError(
            f"unknown published table {table_id!r}; known tables: {', '.join(known) or '(none)'} "
            f"(folder: {published_dir()})"
        )
    return published_dir() / f"{table_id}.csv"


def _to_float(col: pd.Series) -> pd.Series:
    return pd.to_numeric(col.replace("", float("nan")), errors="raise").astype(float)


def load(table_id: str, *, raw: bool = False) -> pd.DataFrame:
    """Load one published table by id (the file stem, e.g. ``"gs_svm_table2"``).

    With ``raw=False`` (default) ``value``/``std`` are float columns (NaN where empty)
    and the printed strings are kept in ``value_text``/``std_text``. With ``raw=True``
    every column is returned as the exact string in the file.
    """
    path = table_path(table_id)
    df = pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)
    expected = CLAIM_COLUMNS if "claim_id" in df.columns else TABLE_COLUMNS
    if list(df.columns) != expected:
        raise ValueError(f"{path}: columns {list(df.columns)} != expected {expected}")
    if raw:
        return df
    numeric = ["value"] if expected is CLAIM_COLUMNS else ["value", "std"]
    for name in numeric:
        df[f"{name}_text"] = df[name]
        try:
            df[name] = _to_float(df[name])
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{path}: column {name!r} holds a non-numeric entry: {exc}") from exc
    return df


def claim_values(paper: str, claim_ids) -> pd.Series:
    """The published values of ``paper``'s ``claim_ids`` in claims.csv, by
    claim id; a ValueError naming any the file lacks."""
    claims = load("claims")
    claims = claims[(claims.paper == paper) & claims.claim_id.isin(list(claim_ids))].set_index("claim_id")
    missing = sorted(set(claim_ids) - set(claims.index))
    if missing:
        raise ValueError(f"claims.csv lacks {paper} claims {missing}")
    return claims["value"]
