"""A table's committed records written back as its job files (repro.experiments.resume,
``python -m repro.papers resume``)."""
import os
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from repro.papers.__main__ import main
from repro.papers.catalog import table_spec
from repro.papers.gs_svm import jobs as GS
from repro.experiments import write_job, write_table, table_run
from repro.experiments.records import write_checksum, write_records
from repro.experiments.resume import restore_jobs, table_id_of

SPEC = table_spec("gs_svm_table2")


def OUT(tmp_path):
    """Table 2's job folder under a results folder in ``tmp_path``."""
    return tmp_path / "full" / "gs_svm" / "table2"


def _fold_frame(name, fold):
    """Synthetic records of one Table 2 job (one row per method)."""
    return pd.DataFrame([{
        "paper_dataset": name, "dataset": name.lower(), "standin": False, "n_samples": 150,
        "n_features": 4, "n_classes": 3, "split_scheme": "stratified_kfold", "split_seed": 0,
        "split_index": fold, "inner_folds": 10, "inner_seed": 1, "method": method,
        "log2_theta": -1.0, "log2_C": 3.0 if method == "SVMs" else float("nan"),
        "inner_cv_accuracy": 0.9, "test_accuracy": 0.1 + fold / 30,
        "n_fits": 171, "n_unconverged_problems": 0, "refit_unconverged_problems": 0, "seconds": 1.5}
        for method in GS.TABLE2_METHODS])


def _records_file(tmp_path, frames):
    """A records file as the table step writes it: the records and their sha256 beside them."""
    path = tmp_path / "gs_svm_table2_records.csv"
    write_records(path, pd.concat(frames, ignore_index=True), SPEC.schema)
    write_checksum(path)
    return path


def test_restored_jobs_are_byte_for_byte_the_files_the_jobs_wrote(data_env, tmp_path):
    """Real jobs (two quick-scale Iris folds), their table's records file, and
    the files resume writes back from it."""
    ran = tmp_path / "ran"
    jobs = [(0, "SVMs"), (4, "GS-SVMs")]
    paths = [SPEC.job_files.path(ran, dataset="Iris", fold=k, method=m) for k, m in jobs]
    for (k, m), path in zip(jobs, paths):
        write_job(SPEC, "quick", {"dataset": "Iris", "fold": str(k), "method": m}, path)
    table = tmp_path / "tables"
    outputs = type("Out", (), {"csv": table / "t.csv", "md": table / "t.md",
                               "records": table / "gs_svm_table2_records.csv",
                               "checksum": table / "gs_svm_table2_records.csv.sha256"})
    write_table(SPEC, paths, outputs, table_run(SPEC, "quick"))
    restored = tmp_path / "restored" / "gs_svm" / "table2"
    written = restore_jobs(SPEC, restored, source=outputs.records)
    assert [p.relative_to(restored) for p in written] == [p.relative_to(ran) for p in paths]
    for path, back in zip(paths, written):
        assert back.read_bytes() == path.read_bytes()


def test_existing_job_files_are_kept(tmp_path, capsys):
    records = _records_file(tmp_path, [_fold_frame("Page", 0), _fold_frame("Page", 1)])
    out = tmp_path / "full" / "gs_svm" / "table2"
    kept = SPEC.job_files.path(out, dataset="Page", fold=0, method="SVMs")
    kept.parent.mkdir(parents=True)
    kept.write_text("this machine's run\n")
    main(["resume", str(records), str(out)])
    assert kept.read_text() == "this machine's run\n"
    assert SPEC.job_files.path(out, dataset="Page", fold=1, method="SVMs").exists()
    assert "wrote 5 job file(s)" in capsys.readouterr().out  # 2 folds x 3 methods, one kept


def test_a_records_file_cut_mid_line_is_refused_and_nothing_written(tmp_path):
    path = _records_file(tmp_path, [_fold_frame("Page", 0), _fold_frame("Page", 1)])
    text = path.read_text()
    path.write_text(text[: len(text) - 7])  # cut inside the last row
    write_checksum(path)  # as if cut before the table step recorded it: the parser must refuse
    with pytest.raises(ValueError, match=r"line 7: the file ends mid-line"):
        restore_jobs(SPEC, OUT(tmp_path), source=path)
    assert not OUT(tmp_path).exists()


def test_a_records_file_cut_at_a_line_boundary_is_refused_and_nothing_written(tmp_path):
    """A table whose jobs write several records each (here 3): the last job lost its last one."""
    from repro.experiments.records import JobFiles, RecordSchema, read_records

    schema = RecordSchema({"dataset": "str", "fold": "int", "method": "str", "value": "float"})
    jobs = JobFiles("{dataset}/fold{fold}.csv", {"dataset": "dataset", "fold": "fold"}, rows=3, unique="method")
    records = pd.DataFrame({"dataset": "Page", "fold": [0, 0, 0, 1, 1, 1], "method": list("abcabc"),
                            "value": 0.5})
    path = tmp_path / "records.csv"
    write_records(path, records, schema)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]))
    out = tmp_path / "jobs"
    with pytest.raises(ValueError, match=r"job \{'dataset': 'Page', 'fold': 1\} has 2 records, expected 3"):
        jobs.restore(read_records(path, schema), out, schema)
    assert not out.exists()


def test_a_file_that_is_not_a_tables_records_is_refused(tmp_path):
    bad = tmp_path / "table.csv"
    bad.write_text("dataset,method,value\nIris,SVMs,0.9\n")
    with pytest.raises(ValueError, match="not a table's records file"):
        table_id_of(bad)
    one = tmp_path / "gs_svm_table1_records.csv"
    one.write_text("x\n1\n")
    write_checksum(one)
    with pytest.raises(ValueError, match="line 1: columns do not match the schema"):
        restore_jobs(table_spec("gs_svm_table1"), tmp_path / "full" / "gs_svm" / "table1", source=one)


def test_a_folder_that_is_not_the_tables_is_refused_in_one_line(tmp_path, capsys):
    """A typo in the folder would fill a folder the workflow never reads."""
    records = _records_file(tmp_path, [_fold_frame("Page", 0)])
    typo = tmp_path / "results" / "full" / "ldm" / "tabel4"
    with pytest.raises(SystemExit) as stop:
        main(["resume", str(records), str(typo)])
    message = str(stop.value.code)
    assert message.startswith("resume: ") and "\n" not in message
    assert "is not the job folder of gs_svm_table2 (it ends in gs_svm/table2" in message
    assert not typo.exists()


def test_a_table_without_committed_records_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no paper_tables/ here
    with pytest.raises(SystemExit) as stop:
        main(["resume", "ldm_table4"])
    assert str(stop.value.code) == ("resume: ldm_table4 has no committed records (paper_tables/"
                                    "ldm_table4_records.csv does not exist): its jobs have to run")
    with pytest.raises(SystemExit) as stop:
        main(["resume", "ldm_tabel4"])
    assert str(stop.value.code).startswith("resume: unknown table 'ldm_tabel4'")


def test_a_table_id_restores_into_the_folder_the_workflow_reads(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "paper_tables").mkdir()
    _records_file(tmp_path / "paper_tables", [_fold_frame("Page", 0), _fold_frame("Iris", 3)])
    main(["resume", "gs_svm_table2"])
    assert "wrote 6 job file(s) of gs_svm_table2" in capsys.readouterr().out
    assert SPEC.job_files.path(tmp_path / "results" / "full" / "gs_svm" / "table2", dataset="Iris", fold=3,
                               method="HM-SVMs").exists()


def test_jobs_keyed_by_a_missing_value_are_restored_too(tmp_path):
    """Table 1's GS-SVM jobs have no C (NaN): their files are named C none."""
    from repro.experiments.records import JobFiles, RecordSchema

    schema = RecordSchema({"dataset": "str", "C": "float", "value": "float"})
    jobs = JobFiles("{dataset}_C{C}.csv", {"dataset": "dataset", "C": "C"}, rows=1)
    records = pd.DataFrame({"dataset": ["a", "a"], "C": [float("nan"), 2.0], "value": [1.0, 2.0]})
    written = jobs.restore(records, tmp_path, schema)
    assert sorted(p.name for p in written) == ["a_C2.0.csv", "a_Cnone.csv"]


# ---------------------------------------------------------------- laid-back job files edited
def _committed_copy(tmp_path, table_id):
    """A copy of a table's committed records and checksum under ``tmp_path/paper_tables``."""
    tables = tmp_path / "paper_tables"
    tables.mkdir()
    for name in (f"{table_id}_records.csv", f"{table_id}_records.csv.sha256"):
        (tables / name).write_bytes((Path(__file__).resolve().parents[1] / "paper_tables" / name).read_bytes())
    return tables


def _table_outputs(tables, table_id):
    """The table step's outputs in ``tables``, as the workflow's rule names them."""
    return SimpleNamespace(csv=tables / f"{table_id}.csv", md=tables / f"{table_id}.md",
                           records=tables / f"{table_id}_records.csv",
                           checksum=tables / f"{table_id}_records.csv.sha256")


def _set_value(path, column, value):
    """A hand edit of a job file: ``column`` of its first record set to ``value`` (still valid)."""
    lines = path.read_text().splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    fields = lines[1].split(",")
    fields[header.index(column)] = value
    lines[1] = ",".join(fields)
    path.write_text("".join(lines))


def test_an_edited_laid_back_job_file_never_reaches_the_records(tmp_path):
    """Issue 47 item 5: test_accuracy set to 1.0 in a laid-back LSVM job file made the
    table step write it into the records with a fresh, valid checksum."""
    from repro.experiments.rebuild import rebuild

    spec = table_spec("lsvm_accuracy")
    tables = _committed_copy(tmp_path, spec.id)
    out = _table_outputs(tables, spec.id)
    committed = out.records.read_bytes(), out.checksum.read_bytes()
    restore_jobs(spec, results=tmp_path / "results", records_dir=tables)
    jobs = spec.job_paths(tmp_path / "results" / "full", spec.protocol("full"))
    write_table(spec, jobs, out, table_run(spec, "full"))  # laid back untouched: the same records
    assert (out.records.read_bytes(), out.checksum.read_bytes()) == committed
    edited = spec.job_files.path(spec.folder(tmp_path / "results" / "full"), dataset="Heart", fold=0)
    _set_value(edited, "test_accuracy", "1.0")
    with pytest.raises(ValueError) as refused:
        write_table(spec, jobs, out, table_run(spec, "full"))
    message = str(refused.value)
    assert message.startswith(f"{edited}: laid back from the committed records of lsvm_accuracy, and edited since")
    assert "delete it to have it laid back again" in message and "or restore it" in message
    assert (out.records.read_bytes(), out.checksum.read_bytes()) == committed
    rebuild(spec, tables)  # the committed records still pass


def _toy_spec(values):
    """A two-job table whose jobs record ``values[dataset]`` (a test's stand-in for a paper)."""
    import repro.experiments as E
    from repro.experiments.records import JobFiles, RecordSchema

    schema = RecordSchema({"dataset": "str", "fold": "int", "value": "float"})
    return E.TableSpec(
        "ldm_table9", "ldm", schema, JobFiles("{dataset}/fold{fold}.csv", {"dataset": "dataset", "fold": "fold"}, rows=1),
        jobs=lambda p: [{"dataset": d, "fold": 0} for d in ("a", "b")],
        run=lambda p, dataset, fold: pd.DataFrame({"dataset": [dataset], "fold": [fold], "value": [values[dataset]]}),
        build=lambda records, run: E.TableOutput(records, "page\n"), protocols={"full": None})


def test_a_laid_back_job_that_runs_again_is_accepted(tmp_path):
    """What the check must not refuse: a job computed here over a laid-back file (the
    workflow's record step), and a laid-back file deleted and laid back again."""
    from repro.experiments.records import check_laid_back, laid_back_path, read_records

    spec = _toy_spec({"a": 0.25, "b": 0.5})
    tables = tmp_path / "paper_tables"
    tables.mkdir()
    folder = tmp_path / "results" / "full" / "ldm" / "table9"
    jobs = spec.job_paths(tmp_path / "results" / "full", None)
    for path, fields in zip(jobs, spec.jobs(None)):
        write_job(spec, "full", {k: str(v) for k, v in fields.items()}, path)
    out = _table_outputs(tables, spec.id)
    write_table(spec, jobs, out, table_run(spec, "full"))
    for job in jobs:  # the committed records laid back on a fresh checkout
        os.remove(job)
    restore_jobs(spec, folder, source=out.records)
    assert all(laid_back_path(job).exists() for job in jobs)
    rerun = _toy_spec({"a": 0.75, "b": 0.5})  # the code changed: job a gives another value
    write_job(rerun, "full", {"dataset": "a", "fold": "0"}, jobs[0])
    assert not laid_back_path(jobs[0]).exists()
    _set_value(Path(jobs[1]), "value", "0.875")
    with pytest.raises(ValueError, match=r"fold0.csv: laid back from the committed records of ldm_table9"):
        write_table(spec, jobs, out, table_run(spec, "full"))
    os.remove(jobs[1])  # as the message says: deleted, then laid back again
    check_laid_back(jobs, spec.id)  # planned with its sidecar left and no file: to come, not refused
    restore_jobs(spec, folder, source=out.records)
    write_table(spec, jobs, out, table_run(spec, "full"))
    assert read_records(out.records, spec.schema)["value"].tolist() == [0.75, 0.5]


def test_files_laid_back_before_the_sidecars_get_theirs_when_records_are_laid_back(tmp_path):
    """A job file identical to what would be laid back is marked (without being rewritten:
    its time tells Snakemake it is up to date); one this machine computed is left alone."""
    from repro.experiments.records import laid_back_path

    records = _records_file(tmp_path, [_fold_frame("Page", 0)])
    written = restore_jobs(SPEC, OUT(tmp_path), source=records)
    for path in written:
        laid_back_path(path).unlink()  # as laid back before sidecars existed
    ours = written[0]
    _set_value(ours, "seconds", "2.5")  # this machine's run of that job
    os.utime(written[1], ns=(1, 1))
    assert restore_jobs(SPEC, OUT(tmp_path), source=records) == []
    assert not laid_back_path(ours).exists()
    assert all(laid_back_path(p).exists() for p in written[1:])
    assert written[1].stat().st_mtime_ns == 1
