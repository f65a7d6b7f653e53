"""Records carry where they were made; pages read it from them (issue 24)."""
from types import SimpleNamespace

import pandas as pd
import pytest

import repro.experiments as E
from repro.experiments import provenance as P
from repro.experiments.records import JobFiles, RecordSchema, read_records, write_records

SCHEMA = RecordSchema({"x": "int", "value": "float"})


def _spec():
    return E.TableSpec("ldm_table9", "ldm", SCHEMA, JobFiles("{x}.csv", {"x": "x"}, rows=1),
                       jobs=lambda p: ({"x": i} for i in range(3)),
                       run=lambda protocol, x: pd.DataFrame({"x": [x], "value": [x / 2]}),
                       build=lambda records, run: E.TableOutput(records.copy(), f"# page\n\n{len(records.columns)} columns\n"),
                       protocols={"quick": {}})


def test_a_stamp_names_every_key_and_parses_back():
    stamp = P.stamp("quick", threads=2)
    values = P.parse(stamp)
    assert list(values) == list(P.KEYS)
    assert values["scale"] == "quick" and values["threads"] == "2"
    assert values["numpy"] == __import__("numpy").__version__
    assert int(values["peak_rss_mb"]) > 0  # the job's peak memory, for a cluster's request
    assert P.parse("") == {}


def test_jobs_stamp_their_records_and_the_page_reads_the_stamps(tmp_path):
    spec = _spec()
    paths = spec.job_paths(tmp_path, {})
    for path, fields in zip(paths, spec.jobs({})):
        E.write_job(spec, "quick", {k: str(v) for k, v in fields.items()}, path, threads=1)
    job = read_records(paths[0], SCHEMA)
    assert P.parse(job[P.COLUMN].iloc[0])["commit"] == P.git_commit()
    out = SimpleNamespace(csv=tmp_path / "t.csv", md=tmp_path / "t.md", records=tmp_path / "r.csv")
    E.write_table(spec, paths, out, E.table_run(spec, "quick"))
    md = out.md.read_text()
    assert "2 columns" in md  # the builder never sees the stamp
    assert "## Provenance of these records" in md
    assert f"| commit | {P.git_commit()} |" in md and "| scale | quick |" in md
    assert P.COLUMN in read_records(out.records, SCHEMA)  # committed records keep the stamps


def test_records_without_stamps_read_as_before_and_the_page_says_not_recorded(tmp_path):
    spec = _spec()
    old = tmp_path / "old.csv"
    write_records(old, pd.DataFrame({"x": [0, 1], "value": [0.0, 0.5]}), SCHEMA)
    text = old.read_text()
    assert P.COLUMN not in text
    new = tmp_path / "new.csv"
    E.write_job(spec, "quick", {"x": "2"}, new)
    out = SimpleNamespace(csv=tmp_path / "t.csv", md=tmp_path / "t.md", records=tmp_path / "r.csv")
    E.write_table(spec, [old, new], out, E.table_run(spec, "quick"))
    assert "2 of 3 records predate the stamp" in out.md.read_text()
    out2 = SimpleNamespace(csv=tmp_path / "u.csv", md=tmp_path / "u.md", records=tmp_path / "s.csv")
    E.write_table(spec, [old], out2, E.table_run(spec, "quick"))
    assert "Not recorded: the 2 records" in out2.md.read_text()
    assert out2.records.read_text() == text  # records made before the stamp are written back unchanged


def test_a_stamp_that_is_not_text_is_refused(tmp_path):
    with pytest.raises(ValueError, match="provenance"):
        SCHEMA.check(pd.DataFrame({"x": [1], "value": [0.5], P.COLUMN: [3]}), "test")


def test_a_stamp_names_the_blas_kernels_and_openblas_coretype_picks_them():
    import subprocess
    import sys

    from threadpoolctl import threadpool_info

    archs = {i.get("architecture") for i in threadpool_info() if i.get("internal_api") == "openblas"}
    blas = P.parse(P.stamp("quick"))["blas"]
    assert archs and all(f"openblas {a}" in blas for a in archs), (blas, archs)
    code = ("import numpy, scipy.linalg; from repro.experiments import provenance as P; "
            "print(P.parse(P.stamp('quick'))['blas'])")
    env = {**__import__("os").environ, "OPENBLAS_CORETYPE": "Haswell"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "openblas Haswell"


def test_a_page_says_not_recorded_for_a_key_older_stamps_lack(tmp_path):
    spec = _spec()
    path = tmp_path / "job.csv"
    E.write_job(spec, "quick", {"x": "1"}, path)
    job = read_records(path, SCHEMA)
    job[P.COLUMN] = job[P.COLUMN].str.replace(r"; blas=[^;]*", "", regex=True)  # a stamp made before the key
    write_records(path, job, SCHEMA)
    out = SimpleNamespace(csv=tmp_path / "t.csv", md=tmp_path / "t.md", records=tmp_path / "r.csv")
    E.write_table(spec, [path], out, E.table_run(spec, "quick"))
    assert "| blas | not recorded |" in out.md.read_text()
