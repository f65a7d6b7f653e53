"""``paper_tables/README.md``: what of each paper reproduced, its claims first.

The index is written by the workflow (rule ``paper_index``) from the tables'
CSVs and records, never by hand. It opens with the papers' central claims,
each judged by the statistic it is about (:mod:`.claims`; each paper declares
its claims in ``repro/papers/<id>/central_claims.py``), then the count of the
published cells (per paper: published cells, compared, ok, explained and
unexplained misses, unavailable, not run, not compared, stand-in), then a
section per paper (scope, its claims with how each verdict follows, the
misses with links to their reasons, what could not be run), then the records'
provenance.

A paper declares what the index says of it (:class:`PaperSummary`: its
tables' titles, its scope, its claims, why a method is not run) in its
folder (``repro/papers/<id>/summary.py``); everything else is counted here.
Each published cell counts once: a row run on another reading of a printed
row (``reading of ...``) and a cell the paper prints as N/A are not
published cells. Below the full scale the index says it judges nothing
against the papers: its protocols are small.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..tables import (MISS_EXPLAINED, MISS_UNEXPLAINED, NO_PUBLISHED, NO_TOLERANCE, OK, STANDIN,
                      UNAVAILABLE, is_reading, to_markdown)
from .claims import VERDICTS as CLAIM_VERDICTS

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


@dataclass(frozen=True)
class PaperSummary:
    """What the index says of a paper besides its counts: its citation, its
    scope (which tables, figures and claims the reproduction covers), the
    title of each of its tables' pages (table id -> title), its central
    claims (:class:`repro.experiments.claims.PaperClaim`, from the paper's
    ``central_claims.py``) and, for each method of its tables that is not
    run, why (method -> reason)."""
    paper: str
    citation: str
    scope: str
    titles: dict
    claims: tuple = field(default_factory=tuple)
    not_run: dict = field(default_factory=dict)


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
    # a reading of a printed row is evidence on that row, not a published cell
    verdicts = [v for v in table["verdict"] if v != NO_PUBLISHED and not is_reading(v)]
    counts = {name: 0 for name in CATEGORIES}
    for v in verdicts:
        name = category(v)
        if name is None:
            raise ValueError(f"verdict {v!r} is not in the vocabulary of repro.tables")
        counts[name] += 1
    judged = [v for v in verdicts if category(v) in JUDGED]
    return {"published cells": len(verdicts), "compared": len(judged), **counts,
            "stand-in": sum(v.endswith(STANDIN) for v in judged)}


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


def summary_rows(summaries: dict, tables: dict, judged: dict | None = None) -> pd.DataFrame:
    """The whole in one table: a row per paper and a total; ``judged``
    (paper -> [(claim, judgement)]) fills the claims column."""
    rows = []
    for paper, summary in summaries.items():
        counts = [count(tables[t]) for t in summary.titles if t in tables]
        row = {"paper": summary_name(summary)}
        row.update({k: sum(c[k] for c in counts) for k in counts[0]})
        verdicts = [j.verdict for _, j in (judged or {}).get(paper, [])]
        row["claims"] = ", ".join(f"{verdicts.count(v)} {v}" for v in CLAIM_VERDICTS if verdicts.count(v))
        rows.append(row)
    frame = pd.DataFrame(rows)
    total = {"paper": "all five"} | {k: frame[k].sum() for k in frame.columns if k not in ("paper", "claims")}
    return pd.concat([frame, pd.DataFrame([total | {"claims": ""}])], ignore_index=True)


def summary_name(summary: PaperSummary) -> str:
    from ..papers import NAMES
    return NAMES[summary.paper]


def claims_markdown(summaries: dict, judged: dict, full: bool = True) -> str:
    """The claims table the index opens with: one row per claim of every
    paper, where the paper says it, the statistic, the paper's value, ours
    and the verdict (below the full scale: ours, not judged)."""
    rows = []
    for paper, summary in summaries.items():
        for claim, judgement in judged.get(paper, []):
            rows.append({"paper": summary_name(summary), "claim": claim.claim,
                         "where": f"`{claim.source}`", "statistic": claim.statistic, "paper's": claim.paper,
                         "ours": judgement.ours,
                         "verdict": f"**{judgement.verdict}**" if full else "not judged at this scale",
                         "evidence": f"[{claim.pages[0]}]({claim.pages[0]}.md)"})
    if not rows:
        return ""
    frame = pd.DataFrame(rows)
    counts = frame["verdict"].str.strip("*").value_counts()
    tally = ", ".join(f"{counts[v]} {v}" for v in CLAIM_VERDICTS if v in counts)
    if not full:
        return to_markdown(frame, title="", notes=(
            "Each claim as the paper states it (where: the file of `shared/papers/` and its line) and our value of "
            "the statistic it is about, computed on this scale's small protocols: shown to check the pipeline, "
            "not judged."))
    notes = ("Each claim as the paper states it (where: the file of `shared/papers/` and its line), judged by "
             "the statistic it is about: a ratio, a paired test, a win/tie/loss count, a bound. **holds**: "
             "ours satisfies the claim; **does not hold**: it does not, and our protocol could have shown it; "
             "**not resolved**: the effect claimed is smaller than what our protocol can resolve; **not "
             "testable here**: the data or method it needs could not be obtained. Each paper's section "
             f"below says how each verdict follows from the numbers. In all: {tally}.")
    return to_markdown(frame, title="", notes=notes)


def _claims_section(claims: list, full: bool) -> list:
    """A paper's claims with the reasoning behind each verdict."""
    if not claims:
        return []
    lines = ["**Central claims.**", ""]
    for claim, judgement in claims:
        verdict = judgement.verdict if full else "not judged at this scale"
        lines.append(f"- {claim.claim} (`{claim.source}`). Paper: {claim.paper}; ours: {judgement.ours}; "
                     f"**{verdict}**. {judgement.why}")
        for name, ours, reading_verdict in judgement.readings:
            lines.append(f"  - Under the reading *{name}*: ours {ours}; {reading_verdict if full else 'not judged'}.")
    return lines + [""]


def paper_section(summary: PaperSummary, tables: dict, figures, claims: list = (), full: bool = True) -> str:
    """A paper's section: scope, claims with verdicts and their reasoning,
    the misses with links to the page's reasons, what could not be run, and
    links to its pages and figures (its agreement figure,
    ``<paper>_agreement.png``, shown in place)."""
    name = summary_name(summary)
    lines = [f"## {name}", "", f"*{summary.citation}*", "", f"**Scope.** {summary.scope}", ""]
    lines += _claims_section(list(claims), full)
    agreement = f"{summary.paper}{AGREEMENT_SUFFIX}"
    if any(Path(f).name == agreement for f in figures):
        lines += [f"![{name}: reproduced against published]({agreement})", "",
                  "Every compared cell: x the paper's value, y ours, the band its tolerance accepts, "
                  "coloured by verdict (hollow: a stand-in dataset).", ""]
    lines += _misses(summary, tables) + _not_run(summary, tables)
    links = [f"[{title}]({t}.md)" for t, title in summary.titles.items() if t in tables]
    lines += ["**Pages.** " + "; ".join(links) + ".", ""]
    shown = [f for f in figures if any(Path(f).name.startswith(t) for t in summary.titles)]
    if shown:
        lines += ["**Figures.** " + "; ".join(f"[{Path(f).name}]({Path(f).name})" for f in shown) + ".", ""]
    return "\n".join(lines)


def _cell_name(row) -> str:
    """A cell as the reader finds it: the row, the method (when the table
    has one) and the metric."""
    method = row.method if isinstance(row.method, str) and row.method else ""
    return f"{row.dataset}, {method + ', ' if method else ''}{row.metric}"


def _misses(summary: PaperSummary, tables: dict) -> list:
    """Every miss of the paper's tables, unexplained first, with its metric,
    both values and a link to the full reason on its page."""
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
    lines = [f"**What did not reproduce** ({len(misses)} cells; each reason in full under 'Misses and why' "
             "on its page):", ""]
    for explained, table_id, row in sorted(misses, key=lambda m: (m[0], m[1])):
        label = "explained" if explained else "unexplained"
        standin = " on a stand-in" if row.verdict.endswith(STANDIN) else ""
        lines.append(f"- [{table_id}]({table_id}.md), {_cell_name(row)}: ours {_num(row.reproduced)}, "
                     f"the paper's {_num(row.published)} ({label}{standin})")
    return lines + [""]


def _not_run(summary: PaperSummary, tables: dict) -> list:
    """Cells with no reproduced value: the sets unavailable here, by table;
    the methods not run, by table and method, with why (the summary's reason
    for the method, else the verdict's)."""
    unavailable: dict = {}
    not_run: dict = {}
    for table_id in summary.titles:
        table = tables.get(table_id)
        if table is None:
            continue
        for row in table.itertuples(index=False):
            name = category(row.verdict)
            if name == "unavailable":
                unavailable.setdefault(table_id, set()).add(str(row.dataset))
            elif name == "not run":
                method = row.method if isinstance(row.method, str) and row.method else ""
                not_run.setdefault((table_id, method, base_verdict(row.verdict)), set()).add(str(row.dataset))
    if not unavailable and not not_run:
        return []
    lines = ["**What could not be run.**", ""]
    for table_id, sets in unavailable.items():
        lines.append(f"- {table_id}: {len(sets)} set{'s' if len(sets) > 1 else ''} unavailable offline "
                     f"({', '.join(sorted(sets))}).")
    for (table_id, method, verdict), sets in not_run.items():
        reason = summary.not_run.get(method, verdict)
        what = f"{method}, " if method else ""
        lines.append(f"- {table_id}: {what}{len(sets)} set{'s' if len(sets) > 1 else ''} not run "
                     f"({', '.join(sorted(sets))}): {reason.rstrip('.')}.")
    return lines + ["", "Why a dataset is unavailable, and its stand-in if any: [datasets.md](datasets.md).", ""]


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


def judge_claims(summaries: dict, folder, full: bool = True) -> dict:
    """paper -> [(claim, judgement)] on the tables in ``folder`` (below the
    full scale, a claim whose sets the run left out is not testable there)."""
    from .claims import judge_all
    return {paper: judge_all(s.claims, folder, full) for paper, s in summaries.items()}


def index_markdown(summaries: dict, tables: dict, figures=(), provenance: str = "", judged: dict | None = None,
                   scale: str = "full") -> str:
    """The whole index page (``paper_tables/README.md``; a scale's own below the full one)."""
    judged = judged or {}
    full = scale == "full"
    summary = summary_rows(summaries, tables, judged if full else None)
    title = "What of each paper reproduced: its claims, then its cells"
    head = [f"# {title}" if full else f"# Scale {scale}: a small run of the pipeline, not a reproduction", ""]
    if not full:
        head += [f"**This folder is the `{scale}` scale's output: the same code on small grids and sets, to check "
                 "that the pipeline runs. It judges nothing against the papers**: its verdicts compare small "
                 "protocols with published values measured on the full ones, so a miss or a match here "
                 "means nothing about the papers. The reproduction is `paper_tables/README.md` at the "
                 "repository's root.", ""]
    head += [
        "*Written by the workflow (rule `paper_index`, `repro.experiments.index`) from the tables' CSVs and "
        "records in this folder; do not edit by hand.*",
        "",
        "## The papers' claims" if full else "## The papers' claims (our statistics, not judged)",
        "",
        claims_markdown(summaries, judged, full).rstrip(),
        "",
        "## The published cells",
        "",
        to_markdown(summary, notes=(
            "Published cells: the cells of the papers' tables and the numbers of their text that a page "
            "sets ours beside, each counted once: a row we run on another reading of a printed row (another "
            "coding, a version with the paper's dimension) is evidence on that row, and a cell the paper "
            "prints as N/A is not a published cell. Compared = ok + explained miss + unexplained miss; "
            "stand-in: compared cells computed on a stand-in dataset (counted in their category too). Not "
            "compared: shown beside the paper's but measured on other data, on part of a protocol, or "
            "without a tolerance. Claims: the verdicts of the claims above. A cell's agreement confirms no "
            "effect smaller than its tolerance: the claims are judged by their own statistics.")).rstrip(),
        "",
        "Verdicts of the cells: **ok** within the tolerance the paper's folder states "
        "(`repro/papers/<id>/tolerances.py`); **explained miss**, with a reason whose evidence the page "
        "shows; **unexplained miss**, with the readings tried. Every page opens with the paper's table as "
        "printed, ours beside each cell.",
        "",
    ]
    if full:
        head += [
            "Beyond the papers: [performance.md](performance.md), every solver of the package beside the tool "
            "a user would pick instead, timed side by side (`snakemake --cores 2 bench`); "
            "[solvers_compared.md](solvers_compared.md), every solver on common sets with the objective it "
            "reaches (`snakemake --cores 2 solvers_compared`). Both are measured apart from the papers' "
            "tables and have no published value to compare.",
            "",
        ]
    sections = [paper_section(s, tables, figures, judged.get(p, []), full) for p, s in summaries.items()]
    text = "\n".join(head + sections + [provenance]).rstrip() + "\n"
    if not full:  # pages that only the committed folder has
        text = text.replace("](datasets.md)", "](../../../paper_tables/datasets.md)")
    return text


def _nothing_compared(title: str) -> bytes:
    from .report import png_bytes, pyplot

    fig = pyplot().figure(figsize=(6, 2))
    fig.text(0.5, 0.5, f"{title}\n\nno cell with both a published and a reproduced value in this run",
             ha="center", va="center")
    return png_bytes(fig)


def write_index(folder, summaries: dict, output, figures=(), provenance: str = "", scale: str = "full") -> list:
    """Read every table's CSV in ``folder``, judge the papers' claims on its
    tables and records, draw each paper's agreement figure beside the index
    and write the index to ``output``; returns the paths written (the index
    last)."""
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
    text = index_markdown(summaries, tables, [*figures, *map(str, written)], provenance,
                          judge_claims(summaries, folder, scale == "full"), scale)
    write_text_atomic(output, text)
    return [*written, Path(output)]
