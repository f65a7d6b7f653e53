"""The Snakemake report and the index, built by the workflow from the committed records.

In a copy of the workflow with the committed records beside it, the default
target lays the records back and builds every page (no experiment job runs),
and `snakemake --report report.zip` packs every table, figure and the index
with their captions, grouped by paper, without a warning per job file."""
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from repro.papers import NAMES
from repro.papers.catalog import SUMMARIES, TABLES
from repro.papers.gs_svm import order_spread, readings, split_spread, uncapped
from repro.papers.ldm import authors_stop
from repro.papers.ldm import readings as ldm_readings
from repro.papers.nesvm import image_readings
from repro.papers.nesvm import readings as nesvm_readings

from test_workflow import REPO, copy_workflow, run_snakemake  # the tests folder is on sys.path (rootdir imports)


@pytest.mark.slow
def test_the_report_holds_every_table_figure_and_the_index(data_env, tmp_path):
    copy_workflow(tmp_path)
    (tmp_path / "paper_tables").mkdir()
    for records in (REPO / "paper_tables").glob("*_records.csv*"):
        shutil.copy2(records, tmp_path / "paper_tables" / records.name)
    # and the committed evidence a page reads beside its records (a fresh clone has it)
    for evidence in (uncapped.EVIDENCE, readings.EVIDENCE, order_spread.EVIDENCE, split_spread.EVIDENCE,
                     *ldm_readings.EVIDENCE.values(), nesvm_readings.EVIDENCE, image_readings.EVIDENCE,
                     image_readings.FULL_EVIDENCE, authors_stop.EVIDENCE):
        if (REPO / evidence).exists():
            shutil.copy2(REPO / evidence, tmp_path / evidence)
    r = run_snakemake(["--cores", "2"], cwd=tmp_path, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "0 experiment jobs" in r.stderr
    built = tmp_path / "paper_tables"
    for name in ["README.md", *(f"{t}.md" for t in TABLES), *(f"{p}_agreement.png" for p in NAMES)]:
        assert (built / name).read_bytes() == (REPO / "paper_tables" / name).read_bytes(), name

    r = run_snakemake(["--report", "report.zip"], cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    log = r.stdout + r.stderr
    assert "Missing metadata" not in log and len(log.splitlines()) < 200  # no warning per job file
    with zipfile.ZipFile(tmp_path / "report.zip") as archive:
        names = {Path(n).name for n in archive.namelist()}
        html = archive.read("report/report.html").decode()
    expected = {"README.md", *(f"{t}.csv" for t in TABLES), *(f"{p}_agreement.png" for p in NAMES),
                *(p.name for p in (REPO / "paper_tables").glob("*.png"))}
    assert expected <= names, expected - names
    for paper, summary in SUMMARIES.items():  # grouped by paper, each table under its title
        assert NAMES[paper] in html
        for title in summary.titles.values():
            assert title in html, title
    assert re.search(r"How to read the verdicts", html)  # the captions
