"""The dataset table of paper_tables/: every paper's dataset and what is true of it everywhere.

The page lists, for each dataset and paper mention, what holds on every machine: the
files (mirror layout), their sha256 and where they come from (canonical URL, or the
package a mirror copy was taken from), the shape measured on those files by the
workflow's fetch step, and whether the row is a stand-in, download only or unavailable.
Nothing depends on this machine's cache or network: availability here is what
``python -m repro.datasets`` prints. A shape is shown only where the fetch step read
exactly the files the row lists, each with the sha256 the registry records (so a warm
cache, a fresh one, or a network gives the same page); other rows keep empty shape cells.
"""
import io
import json
import logging
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..tables import to_markdown as _md
from .registry import FIRST_HASH, MIRROR_ORIGIN, REGISTRY, DatasetSpec, FileSpec, get_spec

log = logging.getLogger(__name__)

COLUMNS = ["dataset", "paper", "where", "paper_name", "paper_rows", "paper_test_rows", "paper_dim",
           "split", "rows", "test_rows", "features", "classes", "standin", "status", "files",
           "sha256", "source", "note", "provenance"]
SEP = "; "
_SK_FETCHER = {"covtype": "scikit-learn fetch_covtype", "rcv1-binary": "scikit-learn fetch_rcv1",
               "rcv1-ccat": "scikit-learn fetch_rcv1"}
_SK_SOURCE = {"covtype": "https://ndownloader.figshare.com/files/5976039",
              "rcv1-binary": "https://ndownloader.figshare.com/files/5976069",
              "rcv1-ccat": "https://ndownloader.figshare.com/files/5976069"}
_UNVERIFIED = "sha256 unknown: downloaded only with REPRO_ALLOW_UNVERIFIED=1"


# ---------------------------------------------------------------- the fetch step's summary
def fetch_summary(name: str, download: bool = False) -> dict:
    """Fetch one dataset into the cache and measure the splits the papers use: the
    JSON record the workflow's fetch step writes (``results/<scale>/data/NAME.json``).
    ``source`` and ``files`` there describe this machine (cache or mirror, cache
    paths); :func:`dataset_table` uses only the shapes and the sha256 of the files read."""
    from . import fetch, load

    fetch(name, download=download)
    splits = {}
    for split in get_spec(name).used_splits():
        X, y, info = load(name, split=split, return_info=True, download=download)
        labels, counts = np.unique(y, return_counts=True)
        splits[split] = {
            "rows": X.shape[0], "features": X.shape[1], "sparse": sp.issparse(X),
            "classes": {str(k): int(v) for k, v in zip(labels, counts)},
            "source": info.source, "standin": info.standin,
            "files": list(info.files), "sha256": list(info.sha256),
        }
    return {"name": get_spec(name).name, "splits": splits}


# ---------------------------------------------------------------- what a row is made of
def _row_splits(spec: DatasetSpec, split: str) -> tuple:
    """The load() splits a row's numbers come from: (train,) or (train, test)."""
    return ("train", "test") if split in ("train+test", "all") else (split,)


def _files_of(spec: DatasetSpec, split: str) -> tuple:
    """The registry files one load() split is read from (a stand-in: its pool's)."""
    if spec.standin:
        pool = get_spec(spec.standin.pool)
        return _files_of(pool, spec.standin.pool_split)
    return tuple(spec.files(split)) if spec.splits and split in dict(spec.splits) else ()


def _file_source(f: FileSpec) -> str:
    if f.package is not None:
        return f"pypi:{f.package[0]} (installed): {f.package[1]}/{f.package[2]}"
    if f.url:
        return f.url
    if f.derive is not None:
        return f"derived ({f.derive[1]}) from {_file_source(f.derive[0])}"
    return MIRROR_ORIGIN.get(f.path, "unknown")


def _in_mirror(f: FileSpec) -> bool:
    return f.status != "not in mirror" and f.package is None


def _status(spec: DatasetSpec, files: tuple, canon: tuple) -> str:
    """Stand-in, in the offline mirror, download only or unavailable: true everywhere."""
    if spec.format == "none":
        see = "".join(f"; see {u}" for u in spec.urls)
        return f"unavailable ({spec.source_note}{see})"
    if spec.format == "image":
        return (f"download only (not in the offline mirror; {FIRST_HASH}); the feature matrix is "
                "built from the archive by the workflow (repro.datasets.image_features)")
    if spec.standin:
        st = spec.standin
        return (f"STAND-IN: {st.train:,} + {st.test:,} rows drawn from {st.pool} ({st.pool_split}), "
                f"in the offline mirror; the published {', '.join(f.path for f in canon)}: "
                f"download only (not in the offline mirror; {_UNVERIFIED})")
    if files and all(f.package is not None for f in files):
        return "in an installed package: " + ", ".join(_file_source(f) for f in files)
    absent = [f for f in files if not _in_mirror(f)]
    if spec.sklearn and (absent or not files):
        return ("download only (not in the offline mirror): scikit-learn's checksummed "
                f"{_SK_FETCHER[spec.sklearn].split()[-1]}")
    if not absent:
        return "in the offline mirror"
    unknown = "" if all(f.url_sha256 for f in absent) else f"; {_UNVERIFIED}"
    if len(absent) == len(files):
        return f"download only (not in the offline mirror{unknown})"
    return (f"download only for {', '.join(f.path for f in absent)} "
            f"(not in the offline mirror{unknown}); the rest in the offline mirror")


def _measured(spec: DatasetSpec, summary: dict | None, splits: tuple) -> dict:
    """The summary's numbers for ``splits``, if it read exactly the row's files with the
    registry's sha256 (else {}: the page shows only what any machine would measure)."""
    if not summary:
        return {}
    out = {}
    for s in splits:
        rec = summary.get(s)
        want = [f.sha256 for f in _files_of(spec, s)]
        if rec is None or not want or None in want:
            return {}
        if list(rec.get("sha256", [])) != want:
            log.warning("%s (%s): the fetch step read files with sha256 %s, not the "
                        "registry's %s: its shape is not shown", spec.name, s,
                        rec.get("sha256"), want)
            return {}
        out[s] = rec
    return out


def _default_split(spec: DatasetSpec) -> str:
    used = spec.used_splits()
    return "train+test" if set(used) == {"train", "test"} else used[0]


def dataset_table(summary_files) -> pd.DataFrame:
    """One row per (dataset, paper mention); a dataset no paper names gets one row.
    ``summary_files``: the JSON records of the workflow's fetch step (datasets without
    one keep empty shape cells). Nothing in it depends on the machine's cache or
    network: see the module's docstring."""
    return _table([json.loads(Path(f).read_text()) for f in summary_files])


# The columns a fetch measures (or reads from the registry beside what it measured): a
# committed stamp is kept only while a new fetch gives every one of them unchanged.
MEASURED = ["dataset", "paper", "where", "split", "rows", "test_rows", "features", "classes",
            "files", "sha256"]


def kept_stamp(summary: dict, committed_csv) -> str | None:
    """The committed page's stamp of ``summary``'s dataset, if this fetch measured exactly
    what that page shows for it (the same files, sha256 and shapes in every row); else None.

    The fetch step runs in every fresh clone (its records are not committed), so a new
    stamp on every run would rewrite ``paper_tables/datasets.csv`` and ``.md`` with a new
    commit and date although nothing they report changed. A stamp names the run that
    measured a row; a fetch that measures the same row again confirms it and keeps it
    (as a reused record keeps its own). ``committed_csv``: that page, read before the
    dataset-table step replaces it; missing or unreadable: None."""
    path = Path(committed_csv)
    try:
        old = pd.read_csv(path, dtype=str, keep_default_na=False)
    except (OSError, ValueError, pd.errors.ParserError):
        return None
    if not set(MEASURED + ["provenance"]) <= set(old.columns):
        return None
    old = old[old["dataset"] == summary["name"]]
    # the new rows as the page would print them (read back as the page is read)
    new = pd.read_csv(io.StringIO(_table([summary]).to_csv(index=False)), dtype=str,
                      keep_default_na=False)
    new = new[new["dataset"] == summary["name"]]
    stamps = set(old["provenance"])
    if (old.empty or len(stamps) != 1 or "" in stamps
            or not old[MEASURED].reset_index(drop=True).equals(new[MEASURED].reset_index(drop=True))):
        return None
    return stamps.pop()


def _table(records) -> pd.DataFrame:
    """dataset_table of the fetch records themselves (dicts)."""
    obtained, stamped = {}, {}
    for rec in records:
        obtained[rec["name"]] = rec["splits"]
        stamped[rec["name"]] = rec.get("provenance", "")
    rows = []
    for name, spec in REGISTRY.items():
        for ref in spec.papers or [None]:
            split = ref.split if ref else _default_split(spec)
            parts = _row_splits(spec, split)
            files = tuple(dict.fromkeys(f for s in parts for f in _files_of(spec, s)))
            canon = tuple(f for s in parts if spec.splits and s in dict(spec.splits)
                          for f in spec.files(s))
            paths = [f.path for f in files]
            sources = [_file_source(f) for f in files]
            shas = [f.sha256 or "unknown" for f in files]
            if spec.sklearn and (not files or any(not _in_mirror(f) for f in files)):
                paths.append(_SK_FETCHER[spec.sklearn])
                sources.append(_SK_SOURCE[spec.sklearn])
                shas.append("checked by scikit-learn")
            if not files and not spec.sklearn:
                sources = list(spec.urls)
            got = _measured(spec, obtained.get(name), parts)
            train = got.get(parts[0], {})
            test = got.get("test", {}) if len(parts) == 2 else {}
            rows.append({
                "dataset": name,
                "paper": ref.paper if ref else "",
                "where": ref.table if ref else "",
                "paper_name": ref.name if ref else "",
                "paper_rows": ref.rows if ref else None,
                "paper_test_rows": ref.test_rows if ref else None,
                "paper_dim": ref.dim if ref else None,
                "split": split,
                "rows": train.get("rows"),
                "test_rows": test.get("rows"),
                "features": train.get("features"),
                "classes": len(train["classes"]) if train else None,
                "standin": "STAND-IN" if spec.standin else "",
                "status": _status(spec, files, canon),
                "files": SEP.join(paths),
                "sha256": SEP.join(shas),
                "source": SEP.join(sources),
                "note": (ref.note if ref and ref.note else spec.note),
                # the stamp of the fetch job that measured the shapes (its commit, versions, CPU,
                # date: repro.experiments.provenance); empty where none was measured
                "provenance": stamped.get(name, "") if train else "",
            })
    ints = ["paper_rows", "paper_test_rows", "paper_dim", "rows", "test_rows", "features", "classes"]
    return pd.DataFrame(rows, columns=COLUMNS).astype({c: "Int64" for c in ints})


# ---------------------------------------------------------------- the page
NOTES = """\
Generated by `snakemake paper_tables/datasets.md` (workflow/rules/data.smk) from the registry
(repro/datasets/registry.py) and the shapes the fetch step measured. Everything here holds on
every machine; which sets are in **your** cache, in the mirror or downloadable now is what
`python -m repro.datasets` prints (and `python -m repro.datasets info NAME` for one set).

- `files`, `sha256`, `source`: the files a row is read from (the offline mirror's layout,
  `; `-separated), the sha256 each is checked against (`unknown` where no copy was ever
  hashed), and where each comes from: its canonical URL, or the package the mirror copy
  was taken from. The sha256 of the mirror's files are those of its MANIFEST.tsv.
- `rows`, `test_rows`, `features`, `classes`: measured by the fetch step on exactly the
  files listed, with those sha256 (`split`: which part of the data the paper uses; for
  `train+test` and `all`, `rows` is the training part). Empty for sets that are not in
  the offline mirror, which no machine can rebuild without a download.
- `status`: `in the offline mirror`; `download only (not in the offline mirror)`, from
  the canonical URL or scikit-learn's checksummed fetcher (a file whose sha256 is
  unknown is downloaded only with `REPRO_ALLOW_UNVERIFIED=1`, except the NESVM image
  archives, whose sha256 is recorded at their first download and held to afterwards,
  their features built from them here); `STAND-IN` (also in the
  `standin` column), a size-matched subset drawn with a fixed seed from a set in the
  mirror because the published files are not in it (see repro.datasets.standins;
  results built on it are labelled so, and the published files are used instead
  where they are in the cache or the mirror); `unavailable`: no public file exists, so
  the set cannot be obtained anywhere we know of, and it is never replaced silently."""

FILES_COLUMNS = ["file", "sha256", "source", "in the offline mirror"]


def file_table(table: pd.DataFrame) -> pd.DataFrame:
    """Each file of ``table`` once, with its sha256 and source, in order of appearance."""
    seen = {}
    for files, shas, srcs in zip(table["files"], table["sha256"], table["source"]):
        if not files:
            continue
        for f, h, s in zip(files.split(SEP), shas.split(SEP), srcs.split(SEP)):
            seen.setdefault(f, (h, s))
    mirror = {f.path for spec in REGISTRY.values() for f in spec.all_files() if _in_mirror(f)}
    return pd.DataFrame([(f, h, s, "yes" if f in mirror else "no") for f, (h, s) in seen.items()],
                        columns=FILES_COLUMNS)


def to_markdown(table: pd.DataFrame) -> str:
    """The page: the mention table (its sha256 column moved to a table of files, where
    each hash is printed once) and the table of files."""
    main = _md(table.drop(columns=["sha256", "source", "provenance"], errors="ignore"),
               title="Datasets of the five papers", notes=NOTES)
    files = _md(file_table(table), title="",
                notes="## Files\n\nEvery file the rows above read, once: its sha256 and its source.")
    return main + "\n" + files + "\n" + provenance_markdown(table)


def provenance_markdown(table: pd.DataFrame) -> str:
    """What made the page: the fetch jobs' stamps of the measured rows (one per
    dataset), summarised (:func:`repro.experiments.provenance.summary_markdown`);
    the registry's rows are the code at the commit those stamps name."""
    from ..experiments.provenance import summary_markdown

    measured = table[table["rows"].notna()] if "rows" in table else table.iloc[:0]
    stamps = (measured.drop_duplicates("dataset")["provenance"].fillna("").astype(str)
              if "provenance" in measured else pd.Series([""] * measured["dataset"].nunique(), dtype=str))
    text = summary_markdown(stamps)
    lead = ("The registry's columns are the code of `repro/datasets/registry.py` at the commit below; "
            "`rows`, `test_rows`, `features` and `classes` were measured by the fetch jobs of "
            f"{len(stamps)} datasets, whose stamps these are (a count is of datasets). A fetch that "
            "measures a dataset's rows as this page shows them keeps the page's stamp "
            "(repro.datasets.report.kept_stamp), so the page changes only when a measurement does.")
    return text.replace("## Provenance of these records\n\n", "## Provenance of these records\n\n" + lead + "\n\n", 1)
