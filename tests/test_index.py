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
from repro.experiments.index import AGREEMENT_SUFFIX, Claim, claim_verdict, read_tables, write_index
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
        if v == "no published value":
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


def test_every_table_has_a_title_and_every_claim_a_table():
    for paper, tables in BY_PAPER.items():
        summary = SUMMARIES[paper]
        assert set(summary.titles) == set(tables), paper
        for claim in summary.claims:
            assert claim.table in tables, claim
            assert len(claim.cells(pd.read_csv(FOLDER / f"{claim.table}.csv"))) > 0, claim


@pytest.mark.parametrize("verdicts, expected", [
    (["ok", "ok (stand-in)", "no published value"], ("reproduced", 2, 2)),
    (["ok", "miss (explained)", "unavailable offline"], ("partly", 1, 2)),
    (["miss (unexplained)", "miss (explained) (stand-in)"], ("not reproduced", 0, 2)),
    (["unavailable offline", "not run (no records)"], ("not judged", 0, 0)),
])
def test_claim_verdicts(verdicts, expected):
    table = pd.DataFrame({"dataset": "d", "method": "m", "metric": "x", "verdict": verdicts})
    assert claim_verdict(Claim("c", "t"), table) == expected


def test_a_claim_judged_on_stand_ins_says_so_beside_its_verdict():
    from repro.experiments.index import PaperSummary, paper_section

    table = pd.DataFrame({"dataset": "d", "method": "m", "metric": "x",
                          "verdict": ["miss (unexplained) (stand-in)", "ok (stand-in)", "ok"]})
    summary = PaperSummary(paper="nesvm", citation="c", scope="s", titles={"t": "T"},
                           claims=(Claim("one", "t"),))
    text = paper_section(summary, {"t": table}, [])
    assert "**partly** (2 of 3 cells ok, 2 with stand-in data;" in text
    table["verdict"] = ["miss (unexplained) (stand-in)", "ok (stand-in)", "unavailable offline"]
    assert "(1 of 2 cells ok, all with stand-in data;" in paper_section(summary, {"t": table}, [])


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
