"""The README's figures come from one table, and its findings from the index (issue 49).

- docs/measured_figures.csv holds every measured figure the README states (minutes,
  jobs, CPU-hours, memory, the install and test times), each with its provenance. Every
  row is stated, word for word, where its ``stated in`` says; every such figure the
  README states is a row's value (the cluster section aside: its figures are the
  records' own requests, which tests/test_resources.py checks against the code); and
  the rows the repository can compute cheaply equal the computation (here: the peak
  memory from the committed records, the job start-up and the quick run from
  workflow/resources/measured.yaml; the plan's jobs, CPU-hours and wall times in
  tests/test_workflow_plan.py).
- The README's headline (the claims' verdicts and the published cells' counts, in all
  and per paper) and its findings (a claim's location, our value, the verdict) are
  those paper_tables/README.md states, so they cannot go stale when the index is
  rebuilt.
"""
import csv
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = Path(__file__).resolve().parents[1] / "README.md"
INDEX = REPO / "paper_tables" / "README.md"
FIGURES = REPO / "docs" / "measured_figures.csv"
COLUMNS = ["key", "figure", "value", "stated in", "how it was obtained", "when", "commit", "machine",
           "conditions", "status"]
VERDICTS = ("holds", "does not hold", "not resolved", "not testable here")

# A figure the README states: a time, a count of jobs or tests, CPU time, memory.
FIGURE = re.compile(
    r"(?<![\w.-])(?:\d+h\d\dm|\d+m\d\d(?:\.\d)?s|"
    r"\d[\d,]*(?:\.\d+)? ?(?:CPU-hours|CPU-minutes|hours|minutes|min|seconds|s|ms|us|GB|MB|"
    r"(?:experiment )?jobs|steps|tests))(?![\w-])")


def _normal(text: str) -> str:
    return " ".join(text.split())


def _rows() -> list:
    with open(FIGURES, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS, reader.fieldnames
        return list(reader)


def _prose(text: str) -> str:
    """The README without its code blocks and without the cluster section."""
    text = re.sub(r"^```.*?^```[ \t]*$", "", text, flags=re.M | re.S)
    start = text.find("### On a SLURM cluster")
    if start >= 0:
        body = text.index("\n", start) + 1 if "\n" in text[start:] else len(text)
        end = re.search(r"^#{1,3} ", text[body:], re.M)
        text = text[:start] + (text[body + end.start():] if end else "")
    return text


def test_the_table_is_well_formed():
    rows = _rows()
    keys = [row["key"] for row in rows]
    assert len(keys) == len(set(keys)), "a key twice"
    for row in rows:
        assert row["value"].strip() and row["figure"].strip() and row["stated in"].strip(), row
        for where in row["stated in"].split(";"):
            assert (REPO / where.strip()).is_file(), f"{row['key']}: no file {where!r}"


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row["key"])
def test_every_figure_is_stated_where_the_table_says(row):
    for where in row["stated in"].split(";"):
        path = README if where.strip() == "README.md" else REPO / where.strip()
        text = _normal(path.read_text(encoding="utf-8"))
        assert _normal(row["value"]) in text, f"{where.strip()} does not state {row['value']!r} ({row['key']})"


def test_every_figure_the_readme_states_is_in_the_table():
    values = [_normal(row["value"]) for row in _rows() if "README.md" in row["stated in"]]
    prose = _normal(_prose(README.read_text(encoding="utf-8")))
    stated = FIGURE.findall(prose)
    assert stated, "no figure found: has the README's wording changed?"
    missing = sorted({f for f in stated if not any(f in v for v in values)})
    assert not missing, f"figures the README states that docs/measured_figures.csv does not hold: {missing}"


def test_the_figure_pattern():
    found = FIGURE.findall("76 jobs, 1.2 minutes on 2 cores; 8.0 CPU-hours, 1h00m, 2.1 s, 4.8 GB, "
                           "167 experiment jobs, a1a and 123 features, --cores 2, 4,476 tests, 58m03s")
    assert found == ["76 jobs", "1.2 minutes", "8.0 CPU-hours", "1h00m", "2.1 s", "4.8 GB",
                     "167 experiment jobs", "4,476 tests", "58m03s"]


def test_the_cluster_section_is_left_to_its_own_tests():
    text = "a\n### On a SLURM cluster\n628 s measured\n### Resuming\nb 3 jobs\n## Next\n"
    assert "628" not in _prose(text) and "3 jobs" in _prose(text)
    assert "628" not in _prose("a\n### On a SLURM cluster\n628 s\n")


def _figures() -> dict:
    return {row["key"]: row["value"] for row in _rows()}


def test_the_peak_memory_is_the_records():
    from repro.experiments import resources
    from repro.papers.catalog import TABLES

    peak = max(m.peak_mb for spec in TABLES.values() for m in resources.measured(spec).values()
               if m.peak_mb is not None)
    assert _figures()["peak_memory"] == f"{peak / 1000:.1f} GB"


def test_the_start_up_and_the_quick_run_are_what_the_workflow_reads():
    import yaml

    measured = yaml.safe_load((REPO / "workflow" / "resources" / "measured.yaml").read_text())
    figures = _figures()
    assert figures["job_start"] == f"{measured['job_start_seconds']:g} s"
    quick = measured["quick"]
    assert figures["quick_wall"] == f"{quick['wall_seconds'] / 60:.1f} minutes"
    assert figures["quick_cpu"] == f"{quick['cpu_seconds'] / 60:.1f} CPU-minutes"


# -- the headline: paper_tables/README.md's claims and counts ------------------------

def _markdown_table(text: str, first_header: str) -> list:
    """The rows (dicts) of the first Markdown table whose header starts with ``first_header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    header = [c.strip() for c in lines[start].strip().strip("|").split("|")]
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(header, (c.strip() for c in line.strip().strip("|").split(" | ")))))
    return rows


def _index_claims() -> dict:
    text = INDEX.read_text(encoding="utf-8")
    m = re.search(r"In all: (\d+) holds, (\d+) does not hold, (\d+) not resolved, (\d+) not testable here", text)
    assert m, "paper_tables/README.md no longer states its claims 'In all: ...'"
    counts = dict(zip(VERDICTS, map(int, m.groups())))
    rows = _markdown_table(text, "paper | claim")
    assert len(rows) == sum(counts.values())
    assert {v: sum(r["verdict"] == f"**{v}**" for r in rows) for v in VERDICTS} == counts
    return counts


def test_the_readmes_claims_headline_is_the_index():
    counts = _index_claims()
    readme = _normal(README.read_text(encoding="utf-8"))
    m = re.search(r"(\d+) claims: (\d+) hold, (\d+) do not hold, (\d+) not resolved, (\d+) not testable here", readme)
    assert m, "the README states no claims headline"
    assert int(m.group(1)) == sum(counts.values())
    assert dict(zip(VERDICTS, map(int, m.groups()[1:]))) == counts


def test_the_readmes_cells_headline_and_per_paper_table_are_the_index():
    cells = {r["paper"]: r for r in _markdown_table(INDEX.read_text(encoding="utf-8"), "paper | published cells")}
    readme = README.read_text(encoding="utf-8")
    m = re.search(r"(\d+) published cells: (\d+) compared \((\d+) ok, (\d+) explained misses, (\d+) unexplained "
                  r"misses\), (\d+) unavailable, (\d+) not run, (\d+) not compared", _normal(readme))
    assert m, "the README states no cells headline"
    every = cells["all five"]
    assert list(map(int, m.groups())) == [int(every[k]) for k in (
        "published cells", "compared", "ok", "explained miss", "unexplained miss", "unavailable", "not run",
        "not compared")]
    ours = _markdown_table(readme, "paper | claims")
    assert [r["paper"] for r in ours] == [p for p in cells if p != "all five"]
    for row in ours:
        for column, value in row.items():
            assert value == cells[row["paper"]][column], (row["paper"], column)


def test_the_readmes_findings_are_the_index():
    """Each finding names where the paper makes the claim, quotes our value (the index's
    'ours', whole or its start) and gives the verdict: some claim of the index at one of
    those places has that value and that verdict."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## What it found"):]
    section = section[:section.index("\n## ", 1)]
    bullets = [_normal(b) for b in re.split(r"^- ", section, flags=re.M)[1:]]
    assert len(bullets) >= 5, bullets
    claims = _markdown_table(INDEX.read_text(encoding="utf-8"), "paper | claim")
    verdict = "|".join(VERDICTS)
    checked = 0
    for bullet in bullets:
        places = set(re.findall(r"`(\w+\.txt:\d+)`", bullet))
        assert places, f"a finding that names no claim's place: {bullet}"
        for quoted, said in re.findall(rf'"([^"]+)": \*\*({verdict})\*\*', bullet):
            assert any(r["where"].strip("`") in places and r["verdict"] == f"**{said}**"
                       and quoted in r["ours"].replace("\\|", "|") for r in claims), (quoted, said, bullet)
            checked += 1
    assert checked >= 5
