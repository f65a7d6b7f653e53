"""Where a record came from: package, commit, scale, libraries, machine and date.

Every job stamps its records with one ``provenance`` field (:func:`stamp`,
written by :func:`repro.experiments.write_job`): ``key=value`` pairs joined by
``; ``, the same on every row of a job. Pages and the index read provenance
from the records (:func:`summary_markdown`), never from the machine that
builds the page, so a page rebuilt elsewhere still says where its numbers
were measured. Records made before the stamp existed have no such column;
their pages say so rather than guess.

The column is optional in every record schema (:mod:`.records`): a file
without it reads as before, byte for byte.
"""
from __future__ import annotations

import datetime
import functools
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pandas as pd

COLUMN = "provenance"
#: the libraries whose versions a stamp names (distribution names)
LIBRARIES = {"numpy": "numpy", "scipy": "scipy", "scikit-learn": "scikit-learn",
             "libsvm": "libsvm-official", "liblinear": "liblinear-official"}
#: the stamp's keys, in the order pages show them
KEYS = ("repro", "commit", "scale", "python", *LIBRARIES, "svmlight", "cpu", "cores", "threads",
        "blas", "peak_rss_mb", "date")


def version(distribution: str) -> str:
    """An installed distribution's version, or ``not installed``."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


@functools.lru_cache(maxsize=1)
def git_commit() -> str:
    """The checkout's commit (12 hex digits), ``+dirty`` when tracked files
    other than the workflow's outputs in ``paper_tables/`` (the published
    transcriptions in ``paper_tables/published/`` count) differ from it;
    ``unknown`` outside a git checkout (an installed package)."""
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        # the workflow's own outputs (paper_tables/) are tracked and rewritten while jobs
        # run: only a change to anything else (code, config, transcriptions) is dirty
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no",
                                "--", ".", ":(exclude)paper_tables/*.md", ":(exclude)paper_tables/*.csv",
                                ":(exclude)paper_tables/*.png", ":(exclude)paper_tables/*.sha256"],
                               capture_output=True, text=True, timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def _svmlight() -> str:
    """SVM-Light's version and the pinned sha256 of the source it is built from."""
    from ..baselines.svmlight import SDIST_SHA256, SVMLIGHT_VERSION
    return f"{SVMLIGHT_VERSION} (sdist sha256 {SDIST_SHA256[:12]})"


def blas_kernels() -> str:
    """The BLAS libraries loaded in this process and, for OpenBLAS, the kernels
    it picked for this CPU (threadpoolctl's "architecture"; the environment's
    OPENBLAS_CORETYPE overrides the pick). Kernels for different CPUs round
    their sums in different orders, so where a grid's scores tie, records made
    with different kernels can choose different tied points (README, "The same
    records on another CPU")."""
    from threadpoolctl import threadpool_info

    found = sorted({f"{info.get('internal_api')} {info.get('architecture') or ''}".strip()
                    for info in threadpool_info() if info.get("user_api") == "blas"})
    return ", ".join(found) if found else "none loaded"


def peak_rss_mb() -> int:
    """The largest resident memory this process has held so far, in MB
    (``getrusage``; Linux reports kilobytes): a job stamps it after its run,
    so it is the job's peak, what a cluster's memory request must cover."""
    import resource

    return int(round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


def stamp(scale: str, threads: int | None = None) -> str:
    """The provenance of a job run now (call it after the job's work: it
    records the peak memory so far), as its records' ``provenance`` field."""
    from .. import __version__
    from .timing import cpu_model

    values = {"repro": __version__, "commit": git_commit(), "scale": scale,
              "python": ".".join(map(str, sys.version_info[:3])),
              **{key: version(dist) for key, dist in LIBRARIES.items()},
              "svmlight": _svmlight(), "cpu": cpu_model(), "cores": str(os.cpu_count()),
              "threads": str(threads if threads is not None else os.environ.get("OMP_NUM_THREADS", "unpinned")),
              "blas": blas_kernels(),
              "peak_rss_mb": str(peak_rss_mb()),
              "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    for key, value in values.items():
        if ";" in value or "=" in value:
            raise ValueError(f"provenance {key} {value!r} holds ';' or '=', which the stamp uses")
    return "; ".join(f"{key}={values[key]}" for key in KEYS)


def parse(text: str) -> dict:
    """A stamp back as a dict (empty for a record made before stamps)."""
    if not isinstance(text, str) or not text:
        return {}
    return dict(part.split("=", 1) for part in text.split("; "))


def summary_markdown(stamps, seeds: dict | None = None) -> str:
    """Provenance of a table's records, for its page: each key's values with
    how many jobs' rows carry each (dates as a range), the seeds the records
    name, and how many rows predate the stamp."""
    stamps = list(stamps)
    parsed = [parse(s) for s in stamps]
    stamped = [p for p in parsed if p]
    lines = ["## Provenance of these records", ""]
    if seeds:
        lines.append("Seeds (from the records): " + "; ".join(f"{k} {v}" for k, v in seeds.items()) + ".")
        lines.append("")
    if not stamped:
        return "\n".join(lines + [f"Not recorded: the {len(stamps)} records were made before jobs stamped "
                                  "their provenance (package, commit, libraries, CPU, threads, date); "
                                  "the commit that added them is in `git log` of the records file.", ""])
    if len(stamped) < len(stamps):
        lines += [f"{len(stamps) - len(stamped)} of {len(stamps)} records predate the stamp (not recorded).", ""]
    rows = []
    for key in KEYS:
        values = pd.Series([p.get(key, "not recorded") for p in stamped])  # a key stamps gained later
        if key == "date":
            shown = values.min() if values.min() == values.max() else f"{values.min()} to {values.max()}"
        elif key == "peak_rss_mb":  # per job: the range, what a cluster profile reads
            numbers = pd.to_numeric(values, errors="coerce").dropna()
            shown = ("not recorded" if numbers.empty else f"{numbers.min():g}" if numbers.min() == numbers.max()
                     else f"{numbers.min():g} to {numbers.max():g}")
        else:
            counts = values.value_counts(sort=False)
            shown = counts.index[0] if len(counts) == 1 else \
                ", ".join(f"{v} ({n} records)" for v, n in counts.items())
        rows.append(f"| {key} | {shown} |")
    return "\n".join(lines + ["| | |", "|---|---|", *rows, ""])


def seeds_of(records: pd.DataFrame) -> dict:
    """The seed columns of a table's records and their values."""
    return {c: ", ".join(str(v) for v in sorted(records[c].dropna().unique()))
            for c in records.columns if c.endswith("seed")}
