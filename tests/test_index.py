"""The reader's index (paper_tables/README.md) and the schema every table's CSV shares.

The index is the workflow's (repro.experiments.index), so the committed one
must be what the committed CSVs give; its counts are recounted here from the
CSVs with code of this test's own, and every page's opening table is checked
against the published table's rows and columns."""
import glob
import re
from pathlib import Path

import pandas as pd
import pytest

from repro import published
from repro.experiments.index import AGREEMENT_SUFFIX, count, read_tables, write_index
from repro.papers.catalog import BY_PAPER, SUMMARIES, TABLES

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "paper_tables"


def committed_tables():
    return read_tables(FOLDER, list(TABLES))


def test_every_table_csv_has_the_verdict_column_filled():
    for table_id in TABLES:
        frame = pd.read_csv(FOLDER / f"{table_id}.csv", keep_default_na=False)
        assert "verdict" in frame, table_id
        assert (frame["verdict"] != "").all(), f"{table_id}: a row without a verdict"


def test_the_committed_index_and_figures_are_what_the_tables_give(tmp_path):
    figures = sorted(str(Path("paper_tables") / Path(f).name) for f in glob.glob(str(FOLDER / "*.png"))
                     if not f.endswith(AGREEMENT_SUFFIX))
    written = write_index(FOLDER, SUMMARIES, tmp_path / "README.md", figures)
    for path in written[:-1]:  # the agreement figures, drawn from the same CSVs
        assert path.read_bytes() == (FOLDER / path.name).read_bytes(), path.name
    built = written[-1].read_text()
    assert (FOLDER / "README.md").read_text() == built, \
        "paper_tables/README.md is stale: run snakemake --cores 2 paper_tables/README.md"


def _summary_table(text: str) -> pd.DataFrame:
    """The index's count of the published cells (the section after the claims)."""
    text = text.split("## The published cells", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in text.splitlines() if ln.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines[1:] if ln.split("|")[1].strip()
            in {"GS-SVM", "NESVM", "Pegasos", "LSVM", "LDM", "all five"}]
    return pd.DataFrame(rows, columns=header).set_index("paper")


def _recount(verdicts) -> dict:
    """This test's own count of verdict strings, the vocabulary spelled out."""
    out = dict.fromkeys(["published cells", "compared", "ok", "explained miss", "unexplained miss",
                         "unavailable", "not run", "not compared", "stand-in"], 0)
    for v in verdicts:
        if v == "no published value" or v.startswith("reading of "):  # not published cells
            continue
        out["published cells"] += 1
        standin = v.endswith(" (stand-in)")
        v = v.removesuffix(" (stand-in)")
        if v in ("ok", "miss (explained)", "miss (unexplained)"):
            out["compared"] += 1
            out["stand-in"] += standin
            out[{"ok": "ok", "miss (explained)": "explained miss",
                 "miss (unexplained)": "unexplained miss"}[v]] += 1
        elif v == "unavailable offline":
            out["unavailable"] += 1
        elif v.startswith("not run"):
            out["not run"] += 1
        else:
            assert v.startswith(("not compared", "partial")) or v == "no tolerance", v
            out["not compared"] += 1
    return out


def test_the_index_counts_equal_a_recount_from_the_csvs():
    shown = _summary_table((FOLDER / "README.md").read_text())
    names = {"gs_svm": "GS-SVM", "nesvm": "NESVM", "pegasos": "Pegasos", "lsvm": "LSVM", "ldm": "LDM"}
    total = None
    for paper, tables in BY_PAPER.items():
        verdicts = [v for t in tables for v in pd.read_csv(FOLDER / f"{t}.csv", keep_default_na=False)["verdict"]]
        counts = _recount(verdicts)
        assert {k: int(shown.loc[names[paper], k]) for k in counts} == counts, paper
        total = counts if total is None else {k: total[k] + counts[k] for k in counts}
    assert {k: int(shown.loc["all five", k]) for k in total} == total


def test_every_table_has_a_title_and_every_claim_a_page():
    for paper, tables in BY_PAPER.items():
        summary = SUMMARIES[paper]
        assert set(summary.titles) == set(tables), paper
        assert summary.claims, f"{paper} declares no central claim"
        for claim in summary.claims:
            assert set(claim.pages) <= set(tables), claim


def test_a_reading_of_a_printed_row_and_a_cell_printed_na_are_not_published_cells():
    from repro.tables import NO_PUBLISHED, reading

    table = pd.DataFrame({"dataset": ["colic", "colic-f13", "colic"], "method": ["LDM", "LDM", "MDO"],
                          "metric": "accuracy", "verdict": ["ok", reading("colic", "within"), NO_PUBLISHED]})
    counts = count(table)
    assert counts["published cells"] == 1 and counts["ok"] == 1
    # counted as a cell of its own, the reading would add a second published cell for colic's LDM
    table.loc[1, "verdict"] = "ok"
    assert count(table)["published cells"] == 2


def test_compare_judges_a_reading_against_its_row_and_counts_no_na_cell(monkeypatch):
    from repro.tables import NO_PUBLISHED, compare, reading
    from repro.tolerances import TOLERANCES, Tolerance

    monkeypatch.setitem(TOLERANCES, ("ldm", "acc_test"), Tolerance("abs", 0.01, "test"))
    pub = pd.DataFrame({"dataset": ["a", "a-v", "a"], "method": ["X", "X", "Y"], "metric": "acc_test",
                        "value": [0.80, 0.80, float("nan")]})
    rep = pd.DataFrame({"dataset": ["a", "a-v", "a"], "method": ["X", "X", "Y"], "metric": "acc_test",
                        "value": [0.805, 0.85, 0.7]})
    out = compare(pub, rep, "ldm", "t", readings={"a-v": "a"}).set_index(["dataset", "method"])["verdict"]
    assert out[("a", "X")] == "ok"
    assert out[("a-v", "X")] == reading("a", "outside")
    assert out[("a", "Y")] == NO_PUBLISHED


def _as_printed_marks(page: str) -> dict:
    """The verdict marks in a page's opening grid (the paper's table as printed)."""
    grid = page.split("\n\n|", 1)[1].split("\n\n", 1)[0]
    return {name: sum(cell.count(symbol) for cell in grid.split("|"))
            for name, symbol in (("ok", "✓"), ("explained miss", "†"), ("unexplained miss", "✗"))}


@pytest.mark.parametrize("table_id", [t for t in published.list_tables() if t in TABLES])
def test_the_judged_cells_recount_from_the_as_printed_grid(table_id):
    """Each published cell counts once: the ok / explained / unexplained
    counts of a table equal the marks in its page's as-printed grid."""
    page = (FOLDER / f"{table_id}.md").read_text()
    table = read_tables(FOLDER, [table_id])[table_id]
    counts = count(table)
    assert _as_printed_marks(page) == {k: counts[k] for k in ("ok", "explained miss", "unexplained miss")}


@pytest.mark.parametrize("table_id", [t for t in published.list_tables() if t in TABLES])
def test_each_page_opens_with_the_papers_table_in_its_rows_and_columns(table_id):
    pub = published.load(table_id)
    page = (FOLDER / f"{table_id}.md").read_text()
    first = page[page.index("\n|"):].split("\n\n")[0].strip().splitlines()
    header = [c.strip() for c in first[0].strip("|").split("|")]
    rows = [ln.strip("|").split("|")[0].strip() for ln in first[2:]]
    assert rows == list(dict.fromkeys(pub["dataset"]))
    methods = list(dict.fromkeys(m for m in pub["method"] if m))
    if methods:
        assert header[-len(methods):] == methods
    else:  # a table of descriptive columns only (LDM Table 1: #Instance, #Feature)
        assert len(header) == 1 + pub["metric"].nunique()
    # every cell shows the paper's printed value in brackets
    for line, dataset in zip(first[2:], rows):
        for text in pub[(pub.dataset == dataset) & (pub.method != "") & (pub.value_text != "")]["value_text"]:
            assert re.search(rf"[(/]{re.escape(text)}[±)•∘/]", line), (dataset, text, line)


@pytest.mark.slow
def test_the_quick_scale_index_says_it_judges_nothing_and_its_links_work(tmp_path):
    """Below the full scale the index opens by saying it is a small protocol
    that judges nothing against the papers; every link it makes resolves
    from where the workflow writes it (results/<scale>/paper_tables)."""
    import shutil

    folder = tmp_path / "results" / "quick" / "paper_tables"
    folder.mkdir(parents=True)
    for path in FOLDER.iterdir():
        if path.suffix in (".csv", ".md", ".png") and path.name != "README.md":
            shutil.copy(path, folder / path.name)
    (tmp_path / "paper_tables").mkdir()
    shutil.copy(FOLDER / "datasets.md", tmp_path / "paper_tables" / "datasets.md")
    text = write_index(folder, SUMMARIES, folder / "README.md", scale="quick")[-1].read_text()
    head = text[:1500]
    assert head.startswith("# Scale quick: a small run of the pipeline, not a reproduction")
    assert "It judges nothing against the papers" in head
    assert "**holds**" not in text and "**does not hold**" not in text and "not judged at this scale" in text
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        assert (folder / target).resolve().exists(), target
