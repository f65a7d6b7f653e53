"""``paper_tables/README.md``: how much of each paper reproduced, counted from the tables.

The index is written by the workflow (rule ``paper_index``) from the tables'
CSVs, never by hand, so its counts are the verdicts the pages show. It opens
with a reproducibility summary in the form of the ML Reproducibility
Challenge's reports: one table for the whole (per paper: published cells,
compared, ok, explained and unexplained misses, unavailable, not run, not
compared, stand-in; its central claims with a verdict), then a section per
paper (scope, what reproduced, what did not and the reason the page gives,
what could not be run), then links to every page and figure.

A paper declares what the index says of it (:class:`PaperSummary`: its
tables' titles, its scope and its central claims) in its folder
(``repro/papers/<id>/summary.py``); everything else is counted here. A
claim's verdict is computed from the cells it names: **reproduced** when
every judged cell is ok, **partly** when some are, **not reproduced** when
none is, **not judged** when it has no judged cell (e.g. its data are
unavailable).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..tables import (MISS_EXPLAINED, MISS_UNEXPLAINED, NO_PUBLISHED, NO_TOLERANCE, OK, STANDIN,
                      UNAVAILABLE, to_markdown)

#: the summary's count columns, in order, and which verdicts each counts
#: (by the verdict without its stand-in qualifier)
CATEGORIES = {
    "ok": lambda v: v == OK,
    "explained miss": lambda v: v == MISS_EXPLAINED,
    "unexplained miss": lambda v: v == MISS_UNEXPLAINED,
    "unavailable": lambda v: v == UNAVAILABLE,
    "not run": lambda v: v.startswith("not run"),
    "not compared": lambda v: v.startswith("not compared") or v.startswith("partial") or v == NO_TOLERANCE,
}
JUDGED = ("ok", "explained miss", "unexplained miss")
#: a paper's figure of reproduced against published values, beside the index
AGREEMENT_SUFFIX = "_agreement.png"
CLAIM_VERDICTS = ("reproduced", "partly", "not reproduced", "not judged")


@dataclass(frozen=True)
class Claim:
    """A central claim of a paper and the cells that judge it: a table id and,
    optionally, the datasets, methods or metrics of its cells (None: all)."""
    text: str
    table: str
    methods: tuple | None = None
    metrics: tuple | None = None
    datasets: tuple | None = None

    def cells(self, table: pd.DataFrame) -> pd.DataFrame:
        keep = pd.Series(True, index=table.index)
        for column, values in (("method", self.methods), ("metric", self.metrics), ("dataset", self.datasets)):
            if values is not None:
                keep &= table[column].isin(values)
        return table[keep]


@dataclass(frozen=True)
class PaperSummary:
    """What the index says of a paper besides its counts: its citation, its
    scope (which tables, figures and claims the reproduction covers), the
    title of each of its tables' pages (table id -> title) and its claims."""
    paper: str
    citation: str
    scope: str
    titles: dict
    claims: tuple = field(default_factory=tuple)


def base_verdict(verdict: str) -> str:
    """A verdict without its `` (stand-in)`` qualifier."""
    return verdict[:-len(STANDIN)] if verdict.endswith(STANDIN) else verdict


def category(verdict: str) -> str | None:
    """The summary column a verdict counts in (None for ``no published value``)."""
    base = base_verdict(verdict)
    return next((name for name, test in CATEGORIES.items() if test(base)), None)


def count(table: pd.DataFrame) -> dict:
    """The summary's counts of one table's CSV: cells with a published value,
    per category, compared (the judged ones) and compared on a stand-in."""
    verdicts = [v for v in table["verdict"] if v != NO_PUBLISHED]
    counts = {name: 0 for name in CATEGORIES}
    for v in verdicts:
        name = category(v)
        if name is None:
            raise ValueError(f"verdict {v!r} is not in the vocabulary of repro.tables")
        counts[name] += 1
    judged = [v for v in verdicts if category(v) in JUDGED]
    return {"published cells": len(verdicts), "compared": len(judged), **counts,
            "stand-in": sum(v.endswith(STANDIN) for v in judged)}


def claim_verdict(claim: Claim, table: pd.DataFrame) -> tuple[str, int, int]:
    """(verdict, cells ok, cells judged) of a claim on its table's CSV."""
    judged = [category(v) for v in claim.cells(table)["verdict"] if v != NO_PUBLISHED]
    judged = [c for c in judged if c in JUDGED]
    ok = judged.count("ok")
    if not judged:
        return "not judged", 0, 0
    verdict = "reproduced" if ok == len(judged) else "partly" if ok else "not reproduced"
    return verdict, ok, len(judged)


def read_tables(folder, table_ids) -> dict:
    """table id -> its CSV as a frame (every CSV has the verdict column)."""
    out = {}
    for table_id in table_ids:
        frame = pd.read_csv(Path(folder) / f"{table_id}.csv", keep_default_na=False, na_values=[""])
        if "verdict" not in frame:
            raise ValueError(f"{folder}/{table_id}.csv has no verdict column")
        frame["verdict"] = frame["verdict"].fillna(NO_PUBLISHED)
        out[table_id] = frame
    return out


def summary_rows(summaries: dict, tables: dict) -> pd.DataFrame:
    """The whole in one table: a row per paper and a total."""
    rows = []
    for paper, summary in summaries.items():
        counts = [count(tables[t]) for t in summary.titles if t in tables]
        row = {"paper": summary_name(summary)}
        row.update({k: sum(c[k] for c in counts) for k in counts[0]})
        verdicts = [claim_verdict(c, tables[c.table])[0] for c in summary.claims if c.table in tables]
        row["claims"] = ", ".join(f"{verdicts.count(v)} {v}" for v in CLAIM_VERDICTS if verdicts.count(v))
        rows.append(row)
    frame = pd.DataFrame(rows)
    total = {"paper": "all five"} | {k: frame[k].sum() for k in frame.columns if k not in ("paper", "claims")}
    return pd.concat([frame, pd.DataFrame([total | {"claims": ""}])], ignore_index=True)


def summary_name(summary: PaperSummary) -> str:
    from ..papers import NAMES
    return NAMES[summary.paper]


def paper_section(summary: PaperSummary, tables: dict, figures) -> str:
    """A paper's section: scope, claims with verdicts, the misses with the
    page's reason, what could not be run, and links to its pages and figures
    (its agreement figure, ``<paper>_agreement.png``, shown in place)."""
    name = summary_name(summary)
    lines = [f"## {name}", "", f"*{summary.citation}*", "", f"**Scope.** {summary.scope}", ""]
    agreement = f"{summary.paper}{AGREEMENT_SUFFIX}"
    if any(Path(f).name == agreement for f in figures):
        lines += [f"![{name}: reproduced against published]({agreement})", "",
                  "Every compared cell: x the paper's value, y ours, the band its tolerance accepts, "
                  "coloured by verdict (hollow: a stand-in dataset).", ""]
    if summary.claims:
        lines += ["**Central claims.**", ""]
        for claim in summary.claims:
            verdict, ok, judged = claim_verdict(claim, tables[claim.table])
            evidence = f"{ok} of {judged} cells ok" if judged else _not_judged_why(claim, tables)
            on_standin = sum(v.endswith(STANDIN) and category(v) in JUDGED
                             for v in claim.cells(tables[claim.table])["verdict"])
            if on_standin:  # a claim judged on stand-in data says so where its verdict is
                evidence += (", all with stand-in data" if on_standin == judged
                             else f", {on_standin} with stand-in data")
            lines.append(f"- {claim.text} — **{verdict}** ({evidence}; [{claim.table}]({claim.table}.md))")
        lines.append("")
    lines += _misses(summary, tables) + _not_run(summary, tables)
    links = [f"[{title}]({t}.md)" for t, title in summary.titles.items() if t in tables]
    lines += ["**Pages.** " + "; ".join(links) + ".", ""]
    shown = [f for f in figures if any(Path(f).name.startswith(t) for t in summary.titles)]
    if shown:
        lines += ["**Figures.** " + "; ".join(f"[{Path(f).name}]({Path(f).name})" for f in shown) + ".", ""]
    return "\n".join(lines)


def _not_judged_why(claim: Claim, tables: dict) -> str:
    verdicts = sorted({base_verdict(v) for v in claim.cells(tables[claim.table])["verdict"]})
    return "no cell judged: " + ", ".join(verdicts)


def _misses(summary: PaperSummary, tables: dict) -> list:
    """Every miss of the paper's tables, unexplained first, with the first
    sentence of the reason its page gives."""
    misses = []
    for table_id in summary.titles:
        table = tables.get(table_id)
        if table is None or "why" not in table:
            continue
        for row in table.itertuples(index=False):
            name = category(row.verdict) if row.verdict != NO_PUBLISHED else None
            if name in ("explained miss", "unexplained miss"):
                misses.append((name != "unexplained miss", table_id, row))
    if not misses:
        return ["**What did not reproduce.** Every compared cell is within its tolerance.", ""]
    lines = [f"**What did not reproduce** ({len(misses)} cells; the reasons are the pages'):", ""]
    for explained, table_id, row in sorted(misses, key=lambda m: (m[0], m[1])):
        why = _first_sentence(row.why) if isinstance(row.why, str) and row.why else "no reason recorded"
        label = "explained" if explained else "unexplained"
        lines.append(f"- {table_id}, {row.dataset}, {row.method}: {_num(row.reproduced)} against "
                     f"{_num(row.published)} ({label}{' on a stand-in' if row.verdict.endswith(STANDIN) else ''})"
                     f": {why}")
    return lines + [""]


def _not_run(summary: PaperSummary, tables: dict) -> list:
    """Cells with no reproduced value, grouped by why, naming their datasets."""
    groups: dict = {}
    for table_id in summary.titles:
        table = tables.get(table_id)
        if table is None:
            continue
        for row in table.itertuples(index=False):
            if category(row.verdict) in ("unavailable", "not run"):
                groups.setdefault(base_verdict(row.verdict), {}).setdefault(table_id, set()).add(str(row.dataset))
    if not groups:
        return []
    lines = ["**What could not be run.**", ""]
    for verdict, by_table in groups.items():
        where = "; ".join(f"{t}: {', '.join(sorted(d))}" for t, d in by_table.items())
        lines.append(f"- {verdict}: {where}")
    return lines + ["", "Why a dataset is unavailable, and its stand-in if any: [datasets.md](datasets.md).", ""]


def _first_sentence(text: str, limit: int = 300) -> str:
    cut = text.split(". ")[0].rstrip(".") + "."
    return cut if len(cut) <= limit else cut[:limit].rsplit(" ", 1)[0] + " …"


def _num(value) -> str:
    return "—" if pd.isna(value) else f"{value:.4g}"


def _date_range(dates: list) -> str:
    if not dates:
        return "not recorded"
    first, last = dates[0][:10], dates[-1][:10]
    return first if first == last else f"{first} to {last}"


def provenance_markdown(folder, table_ids) -> str:
    """Where each table's records were made, read from their stamps
    (:mod:`.provenance`): records, how many are stamped, commits, dates, CPUs."""
    from .provenance import COLUMN, parse

    rows = []
    for table_id in table_ids:
        path = Path(folder) / f"{table_id}_records.csv"
        if not path.exists():
            continue
        header = pd.read_csv(path, nrows=0).columns
        column = COLUMN if COLUMN in header else header[0]
        stamps = pd.read_csv(path, usecols=[column], keep_default_na=False)[column]
        parsed = [parse(s) for s in stamps if s] if column == COLUMN else []

        def values(key):
            return ", ".join(sorted({p[key] for p in parsed})) if parsed else "not recorded"
        dates = sorted(p["date"] for p in parsed)
        rows.append({"table": table_id, "records": len(stamps), "stamped": len(parsed), "commit": values("commit"),
                     "scale": values("scale"), "cpu": values("cpu"),
                     "dates": _date_range(dates)})
    return "## Provenance of the records\n\n" + to_markdown(pd.DataFrame(rows), notes=(
        "Read from the records' `provenance` stamps (package version, git commit with `+dirty`, scale, "
        "Python and library versions, SVM-Light build, CPU, cores, threads, date; each page lists them "
        "in full). Records made before jobs stamped them say 'not recorded'."))


def index_markdown(summaries: dict, tables: dict, figures=(), provenance: str = "") -> str:
    """The whole index page (``paper_tables/README.md``)."""
    summary = summary_rows(summaries, tables)
    head = [
        "# How much of each paper reproduced",
        "",
        "*Written by the workflow (rule `paper_index`, `repro.experiments.index`) from the tables' CSVs "
        "in this folder; do not edit by hand. Every count is a count of the verdicts the pages show.*",
        "",
        to_markdown(summary, notes=(
            "Published cells: the cells of the papers' tables and the numbers of their text that a page "
            "sets ours beside. Compared = ok + explained miss + unexplained miss; stand-in: compared cells "
            "computed on a stand-in dataset (counted in their category too). Not compared: shown beside "
            "the paper's but measured on other data, on part of a protocol, or without a tolerance. "
            "Claims: reproduced when every cell judging the claim is ok, partly when some are, not "
            "reproduced when none is, not judged when none could be compared.")).rstrip(),
        "",
        "Beyond the papers: [performance.md](performance.md), every solver of the package beside the tool "
        "a user would pick instead, timed side by side (`snakemake --cores 2 bench`); "
        "[solvers_compared.md](solvers_compared.md), every solver on common sets with the objective it "
        "reaches (`snakemake --cores 2 solvers_compared`). Both are measured apart from the papers' tables "
        "and have no published value to compare.",
        "",
        "Verdicts: **ok** within the tolerance the paper's folder states (`repro/papers/<id>/tolerances.py`); "
        "**explained miss**, with a reason whose evidence the page shows; **unexplained miss**, with the "
        "readings tried. Every page opens with the paper's table as printed, ours beside each cell.",
        "",
    ]
    sections = [paper_section(s, tables, figures) for s in summaries.values()]
    return "\n".join(head + sections + [provenance]).rstrip() + "\n"


def _nothing_compared(title: str) -> bytes:
    from .report import png_bytes, pyplot

    fig = pyplot().figure(figsize=(6, 2))
    fig.text(0.5, 0.5, f"{title}\n\nno cell with both a published and a reproduced value in this run",
             ha="center", va="center")
    return png_bytes(fig)


def write_index(folder, summaries: dict, output, figures=(), provenance: str = "") -> list:
    """Read every table's CSV in ``folder``, draw each paper's agreement
    figure beside the index and write the index to ``output``; returns the
    paths written (the index last)."""
    from .._io import write_bytes_atomic, write_text_atomic
    from .agreement import agreement_figure, drawable

    ids = [t for s in summaries.values() for t in s.titles]
    tables = read_tables(folder, ids)
    written = []
    for paper, summary in summaries.items():
        compared = {t: tables[t] for t in summary.titles
                    if t in tables and "published" in tables[t] and len(drawable(tables[t]))}
        title = f"{summary_name(summary)} paper: ours against the published values"
        path = Path(output).parent / f"{paper}{AGREEMENT_SUFFIX}"
        # every paper gets its figure (the workflow declares them), even a run with nothing compared
        write_bytes_atomic(path, agreement_figure(compared, paper, title) if compared else _nothing_compared(title))
        written.append(path)
    provenance = provenance or provenance_markdown(folder, ids)
    text = index_markdown(summaries, tables, [*figures, *map(str, written)], provenance)
    write_text_atomic(output, text)
    return [*written, Path(output)]
