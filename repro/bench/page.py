"""performance.md and performance.csv: every comparison's rows merged, with
where, when and how they were measured, read from the rows themselves."""
from __future__ import annotations

import math

import pandas as pd

from .._io import write_text_atomic
from .history import NOTES
from .measure import COLUMNS, VERSIONED
from .registry import COMPARISONS, MODULES, TITLES

INTRO = """\
Written by `snakemake --cores 2 bench` (repro.bench), not by hand, from the rows in `performance.csv`. The
`bench` target is not part of the default target: timings need a quiet machine. None of the five papers
published these pairs, so every row's verdict is `no published value`.

**How to read it.** `ratio` = time of ours / time of the baseline: **< 1: ours faster**, > 1: ours slower. Each pair
was timed in one process, on the same data, interleaved (ours, baseline, ours, baseline, ...; best of `repeat`,
repro.experiments.timing), BLAS/OpenMP pools pinned to the thread count below (LIBSVM, LIBLINEAR and our kernels
are single-threaded). Beside every time is what the run reached, for both: the objective both minimise (same
formula, computed the same way) and/or the accuracy, so a ratio is read only where both reached the same optimum.
The load average (1 minute) read just before and after each measurement is on every row: the machine may be
shared, and a row measured under load says so. Compare ratios, not seconds, and only between like machines.
"""


def _number(x, digits=4) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return f"{x:.{digits}g}"


def _pair(a, b, digits) -> str:
    a, b = _number(a, digits), _number(b, digits)
    return f"{a} / {b}" if a or b else ""


def _docstring(name: str) -> str:
    doc = MODULES[name].__doc__ or ""
    return " ".join(doc.split())


def provenance(rows: pd.DataFrame) -> str:
    def values(column):
        return ", ".join(sorted({str(v) for v in rows[column].dropna()}))
    versions = "; ".join(f"{dist} {values(column)}" for dist, column in VERSIONED.items())
    return "\n".join([
        "## Where and when",
        "",
        f"- machine: {values('cpu_model')}, {values('cpu_count')} cores; threads: {values('threads')}",
        f"- measured: {rows['date'].min()} to {rows['date'].max()}",
        f"- load average (1 min) around the measurements: {rows['load_before'].min():.2f} to "
        f"{rows[['load_before', 'load_after']].max().max():.2f} (per row below)",
        *([f"- **the machine was shared**: the load average exceeded its {int(cores)} cores during some "
            "measurements (the rows say which); a ratio measured under load is indicative only, and both "
            "methods of a pair ran under the same load (interleaved)"]
          if (cores := rows["cpu_count"].min()) and rows[["load_before", "load_after"]].max().max() > cores
          else []),
        f"- git commit: {values('git_commit') or 'unknown'}" + (
            " (+dirty: code, config or transcriptions of the checkout differed from that commit while measuring)"
            if "+dirty" in values("git_commit") else ""),
        f"- versions: {versions}",
        "",
    ])


def summary(rows: pd.DataFrame) -> str:
    lines = ["## Summary", "", "| comparison | rows | ratio, least | ratio, greatest |", "|---|---|---|---|"]
    for name, part in rows.groupby("comparison", sort=False):
        lines.append(f"| [{TITLES.get(name, name)}](#{name}) | {len(part)} | {part['ratio'].min():.3g} | "
                     f"{part['ratio'].max():.3g} |")
    return "\n".join(lines + [""])


def comparison_section(name: str, part: pd.DataFrame) -> str:
    lines = [f"<a id=\"{name}\"></a>", f"## {TITLES.get(name, name)}", "", _docstring(name), "",
             "| solver | baseline | dataset | setting | ours s | baseline s | ratio | objective | ours / baseline "
             "| accuracy | ours / baseline | repeat | load before, after | note |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in part.itertuples(index=False):
        lines.append(" | ".join([
            f"| {r.solver}", r.baseline, r.dataset, r.setting, _number(r.time_ours), _number(r.time_baseline),
            f"**{r.ratio:.3g}**", r.objective if isinstance(r.objective, str) else "",
            _pair(r.objective_ours, r.objective_baseline, 8),
            r.accuracy if isinstance(r.accuracy, str) else "", _pair(r.accuracy_ours, r.accuracy_baseline, 4),
            str(r.repeat), f"{r.load_before:.2f}, {r.load_after:.2f}",
            (r.note if isinstance(r.note, str) else "") + " |"]))
    return "\n".join(lines + [""])


def merge(paths) -> pd.DataFrame:
    rows = pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
    missing = [c for c in COLUMNS if c not in rows.columns]
    if missing:
        raise ValueError(f"benchmark rows lack the columns {missing}: written by another version of repro.bench?")
    unknown = sorted(set(rows["comparison"]) - set(COMPARISONS))
    if unknown:
        raise ValueError(f"benchmark rows of unknown comparisons {unknown}; the comparisons: {', '.join(COMPARISONS)}")
    # the registry's order, the rows of a comparison as it wrote them
    order = rows["comparison"].map({name: k for k, name in enumerate(COMPARISONS)})
    return rows.assign(_order=order).sort_values("_order", kind="stable").drop(columns="_order")[COLUMNS]


def render(rows: pd.DataFrame) -> str:
    parts = ["# Performance: our solvers beside the tools a user would pick instead", "", INTRO,
             provenance(rows), summary(rows)]
    parts += [comparison_section(name, part) for name, part in rows.groupby("comparison", sort=False)]
    parts += ["## History: earlier measurements", "",
              "Quoted as recorded by the benchmark scripts the bench target replaced (not remeasured here):", "",
              NOTES]
    return "\n".join(parts)


def write_page(paths, md_path, csv_path) -> pd.DataFrame:
    """Merge the comparisons' CSVs (``paths``) into ``csv_path`` and the page ``md_path``."""
    if not paths:
        raise ValueError("write_page needs at least one comparison CSV")
    rows = merge(paths)
    write_text_atomic(csv_path, rows.to_csv(index=False))
    write_text_atomic(md_path, render(rows))
    return rows
