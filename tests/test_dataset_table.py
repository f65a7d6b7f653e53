"""paper_tables/datasets.{md,csv} (repro.datasets.report): only what is true on every
machine. No availability column, nothing that depends on the cache, the network or
the paths of the machine that built it; source and sha256 for every file; stand-ins
and unavailable sets marked; the committed page is what the generator gives."""
import csv
import io
import json
import re
from pathlib import Path

import pandas as pd
import pytest

import repro.datasets as D
from repro.datasets import loader, report, sources
from repro.datasets.registry import MIRROR_ORIGIN, REGISTRY


REPO = Path(__file__).resolve().parents[1]
COMMITTED_CSV = REPO / "paper_tables" / "datasets.csv"
COMMITTED_MD = REPO / "paper_tables" / "datasets.md"
SHAPE = ["rows", "test_rows", "features", "classes"]
# what the fetch step measured, with the stamp of the job that measured it (its machine, date)
MEASURED = SHAPE + ["provenance"]
# small sets, one of each kind: LIBSVM train+test, a UCI file, two files in one split,
# a file derived from a compressed one, a stand-in drawn from a pool
SMALL = ["heart_scale", "a1a", "glass", "segment", "page-blocks", "w1a"]


def _summaries(names, folder):
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for n in names:
        p = folder / f"{n}.json"
        p.write_text(json.dumps(report.fetch_summary(n, download=False)))
        out.append(p)
    return out


def _csv(table):
    return table.to_csv(index=False)


@pytest.fixture
def two_caches(tmp_path, monkeypatch, data_env):
    """Summaries of SMALL fetched into two different caches (one fresh, one filled
    before and read warm): the fetch records differ in their paths (and could in
    their 'source'), the table must not."""
    runs = []
    for label in ("a", "b"):
        cache = tmp_path / f"cache-{label}"
        monkeypatch.setenv("REPRO_DATA_DIR", str(cache))
        D.clear_memo()
        if label == "b":  # warm: filled by an earlier fetch, then summarised
            for n in SMALL:
                D.fetch(n, download=False)
            D.clear_memo()
        runs.append(_summaries(SMALL, tmp_path / f"summaries-{label}"))
    D.clear_memo()
    return runs


@pytest.mark.slow
def test_table_has_no_availability_column_or_machine_value(two_caches, monkeypatch, tmp_path):
    a, b = two_caches
    recs = [json.loads(p.read_text()) for p in a + b]
    # the records do differ (cache paths): the test would see a leak
    assert json.loads(a[0].read_text())["splits"] != json.loads(b[0].read_text())["splits"]
    tables = []
    for files, word in ((a, "cached"), (b, "unavailable")):
        # whatever this machine says about availability, the table says the same
        monkeypatch.setattr(loader, "availability", lambda name, split=None, w=word: w)
        monkeypatch.setattr(sources, "where", lambda fs, w=word: w)
        tables.append(report.dataset_table(files))
    assert _csv(tables[0]) == _csv(tables[1])
    assert report.to_markdown(tables[0]) == report.to_markdown(tables[1])
    t = tables[0]
    assert "availability" not in t.columns
    text = _csv(t) + report.to_markdown(t)
    for rec in recs:  # no cache path, no cache/mirror word of the records
        for s in rec["splits"].values():
            for path in s["files"]:
                assert path not in text
    assert str(tmp_path) not in text and str(sources.data_dir()) not in text
    cells = set(t.astype(str).to_numpy().ravel())
    assert not cells & {"cache", "cached", "mirror", "download", "stand-in", "not obtained"}
    # the shapes of the small sets did come from the records
    got = t.set_index("dataset")
    assert got.loc["glass", "rows"] == 214 and got.loc["glass", "classes"] == 6
    assert got.loc["segment", "rows"] == 2310 and got.loc["w1a", "rows"] == 2477


@pytest.mark.slow
def test_shapes_only_from_the_registrys_files(tmp_path, two_caches):
    """A record made from other bytes (an unverified copy, another version) gives no
    shape: the page shows only what any machine with the mirror would measure."""
    files, _ = two_caches
    rec = json.loads(files[0].read_text())  # heart_scale
    assert rec["name"] == "heart_scale"
    rec["splits"]["train"]["sha256"] = ["0" * 64]
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(rec))
    t = report.dataset_table([odd]).set_index("dataset")
    assert t.loc["heart_scale", SHAPE].isna().all()
    t = report.dataset_table(files[:1]).set_index("dataset")
    assert t.loc["heart_scale", "rows"] == 270 and t.loc["heart_scale", "features"] == 13


def test_every_file_has_a_source_and_sha256():
    t = report.dataset_table([])
    for _, row in t.iterrows():
        spec = REGISTRY[row["dataset"]]
        if spec.format == "none":
            assert row["files"] == "" and row["status"].startswith("unavailable")
            continue
        files, shas, srcs = (row[c].split(report.SEP) for c in ("files", "sha256", "source"))
        assert files and len(files) == len(shas) == len(srcs), row["dataset"]
        for f, h, s in zip(files, shas, srcs):
            assert re.search(r"https?://|debian:|pypi:", s), (row["dataset"], f, s)
        reg = {f.path: f.sha256 for sp in REGISTRY.values() for f in sp.all_files()}
        for f, h in zip(files, shas):
            if f in reg and reg[f] is not None:
                assert h == reg[f], (row["dataset"], f)
            else:
                assert h in ("unknown", "checked by scikit-learn"), (row["dataset"], f)
                assert not row["status"].startswith("in the offline mirror")
    # every registry file a paper row reads is listed with its hash
    listed = {f for fs in t["files"] for f in fs.split(report.SEP) if f}
    for name, spec in REGISTRY.items():
        if spec.splits and not spec.standin:
            for s in spec.used_splits():
                assert {f.path for f in spec.files(s)} <= listed, name


def test_origin_of_mirror_files_without_url_is_the_manifests(data_env):
    rows = {r["path"]: r for r in csv.DictReader(open(data_env / "MANIFEST.tsv"), delimiter="\t")}
    urlless = {f.path for sp in REGISTRY.values() for f in sp.all_files()
               if f.url is None and f.derive is None and f.sha256 and f.package is None}
    assert urlless == set(MIRROR_ORIGIN)
    for path, origin in MIRROR_ORIGIN.items():
        prov = rows[path]["provenance"]
        if prov.startswith("DERIVED: pyreadr export"):  # the R file it was exported from
            rda = path.rsplit(".", 1)[0] + ".rda"
            assert origin == "pyreadr export of " + rows[rda]["provenance"], path
        else:
            assert origin == prov, path


def test_standins_and_unavailable_sets_are_marked():
    t = report.dataset_table([])
    for _, row in t.iterrows():
        spec = REGISTRY[row["dataset"]]
        assert (row["standin"] == "STAND-IN") == bool(spec.standin), row["dataset"]
        assert row["status"].startswith("STAND-IN") == bool(spec.standin)
        # unavailable = no public file; a set with a URL is download only, never unavailable
        assert row["status"].startswith("unavailable") == (spec.format == "none"), row["dataset"]
        urls = [f.url for f in spec.all_files() if f.url]
        if (urls or spec.sklearn) and not spec.standin and any(
                f.status == "not in mirror" for f in spec.all_files()
                if f.path in row["files"].split(report.SEP)):
            assert "download only" in row["status"], row["dataset"]
    by = t.set_index("dataset")
    assert by.loc["w1a", "status"].startswith("STAND-IN") and "w8a" in by.loc["w1a", "status"]
    assert by.loc["covtype", "status"].startswith("download only (not in the offline mirror)")
    assert by.loc["news20", "status"].startswith("download only (not in the offline mirror")
    assert by.loc["isolet", "status"].startswith("unavailable")
    assert by.loc["colic.orig", "status"].startswith("download only for uci/horse-colic.test")
    assert by.loc["glass", "status"] == "in the offline mirror"


def test_page_says_where_availability_is_printed():
    md = report.to_markdown(report.dataset_table([]))
    assert "`python -m repro.datasets`" in md
    assert "availability" not in md.split("\n| dataset")[1].split("\n")[0]
    assert md.count("\n| dataset |") == 1 and "\n## Files" in md


def _committed():
    return pd.read_csv(COMMITTED_CSV, dtype=str, keep_default_na=False)


def _generated(files=()):
    return pd.read_csv(io.StringIO(_csv(report.dataset_table(files))), dtype=str,
                       keep_default_na=False)


def test_committed_table_matches_the_registry():
    """Everything but the measured shapes, from the registry alone (cheap)."""
    com, gen = _committed(), _generated()
    assert list(com.columns) == list(gen.columns) == report.COLUMNS
    assert com.drop(columns=MEASURED).equals(gen.drop(columns=MEASURED)), \
        "paper_tables/datasets.csv is stale: rebuild it (snakemake paper_tables/datasets.md)"
    # shapes: given exactly for the sets whose files are all here offline (mirror, package)
    for (_, c), (_, g) in zip(com.iterrows(), gen.iterrows()):
        mirror = (c["status"] == "in the offline mirror" or c["status"].startswith("STAND-IN")
                  or c["status"].startswith("in an installed package"))
        assert (c["rows"] != "") == mirror, c["dataset"]
    md = COMMITTED_MD.read_text()
    assert md.startswith("# Datasets of the five papers") and "cached" not in md


def test_committed_shapes_are_measured(tmp_path, monkeypatch, data_env):
    """The fetch step on the mirror, for a few small sets: their committed rows are
    what the generator makes of the measured records."""
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path / "cache"))
    D.clear_memo()
    gen = _generated(_summaries(SMALL, tmp_path / "summaries"))
    D.clear_memo()
    com = _committed()
    mask = com["dataset"].isin(SMALL)
    assert mask.sum() >= len(SMALL)
    pd.testing.assert_frame_equal(com[mask].drop(columns="provenance").reset_index(drop=True),
                                  gen[mask].drop(columns="provenance").reset_index(drop=True))
    assert (com[mask]["rows"] != "").all()
    # every measured row names the job that measured it
    assert (com.loc[com["rows"] != "", "provenance"].str.contains("commit=")).all()


def test_committed_markdown_is_the_csvs():
    table = report.dataset_table([])
    com = pd.read_csv(COMMITTED_CSV, keep_default_na=True)
    for c in SHAPE:
        table[c] = com[c].astype("Int64")
    table["provenance"] = com["provenance"].fillna("")
    md = report.to_markdown(table)
    assert md == COMMITTED_MD.read_text()
    assert "## Provenance of these records" in md and "| commit |" in md


def test_fetch_step_writes_the_summary_the_table_reads():
    text = (REPO / "workflow" / "scripts" / "fetch_dataset.py").read_text()
    assert re.search(r"fetch_summary\(", text)


def test_a_fetch_that_measures_the_committed_rows_keeps_their_stamp(tmp_path, monkeypatch, data_env):
    """The fetch step runs in every fresh clone; it keeps the committed page's stamp
    while it measures exactly what that page shows (so the page rebuilds byte-identical),
    and takes a new one as soon as anything measured differs."""
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path / "cache"))
    D.clear_memo()
    recs = [json.loads(p.read_text()) for p in _summaries(SMALL[:3], tmp_path / "summaries")]
    D.clear_memo()
    com = _committed()
    for rec in recs:
        want = set(com.loc[com["dataset"] == rec["name"], "provenance"])
        assert len(want) == 1 and "commit=" in next(iter(want))
        assert report.kept_stamp(rec, COMMITTED_CSV) == want.pop()
    # one measured number differs in the page: a new stamp
    edited = com.copy()
    edited.loc[edited["dataset"] == recs[0]["name"], "rows"] = "1"
    path = tmp_path / "edited.csv"
    path.write_text(edited.to_csv(index=False))
    assert report.kept_stamp(recs[0], path) is None
    assert report.kept_stamp(recs[1], path) is not None
    # the record read other files than the page lists: a new stamp
    odd = json.loads(json.dumps(recs[1]))
    next(iter(odd["splits"].values()))["sha256"] = ["0" * 64]
    assert report.kept_stamp(odd, COMMITTED_CSV) is None
    # no page (a first run), or an unreadable one: a new stamp
    assert report.kept_stamp(recs[0], tmp_path / "missing.csv") is None
    (tmp_path / "bad.csv").write_text("not,a\npage")
    assert report.kept_stamp(recs[0], tmp_path / "bad.csv") is None
