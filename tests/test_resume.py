"""Per-split records written back from a table's records file (repro.experiments.resume)."""
import pandas as pd
import pytest

from repro.experiments import gs_svm as GS
from repro.experiments import write_job, write_table, table_run
from repro.experiments.records import write_records
from repro.experiments.resume import main, restore_jobs

SPEC = GS.TABLES["gs_svm_table2"]


def _fold_frame(name, fold):
    """Synthetic records of one Table 2 job (one row per method)."""
    return pd.DataFrame([{
        "paper_dataset": name, "dataset": name.lower(), "standin": False, "n_samples": 150,
        "n_features": 4, "n_classes": 3, "split_scheme": "stratified_kfold", "split_seed": 0,
        "split_index": fold, "inner_folds": 10, "inner_seed": 1, "method": method,
        "log2_theta": -1.0, "log2_C": 3.0 if method == "SVMs" else float("nan"),
        "inner_cv_accuracy": 0.9, "test_accuracy": 0.1 + fold / 3,
        "n_fits": 171, "n_unconverged_problems": 0, "refit_unconverged_problems": 0, "seconds": 1.5}
        for method in GS.TABLE2_METHODS])


def _records_file(tmp_path, frames):
    path = tmp_path / "gs_svm_table2_records.csv"
    write_records(path, pd.concat(frames, ignore_index=True), SPEC.schema)
    return path


def test_restored_jobs_are_byte_for_byte_the_files_the_jobs_wrote(data_env, tmp_path):
    """Real jobs (two quick-profile Iris folds), their table's records file, and
    the files resume writes back from it."""
    ran = tmp_path / "ran"
    paths = [SPEC.job_files.path(ran, dataset="Iris", fold=k) for k in (0, 4)]
    for k, path in zip((0, 4), paths):
        write_job(SPEC.id, "quick", {"dataset": "Iris", "fold": str(k)}, path)
    table = tmp_path / "tables"
    outputs = type("Out", (), {"csv": table / "t.csv", "md": table / "t.md",
                               "records": table / "gs_svm_table2_records.csv"})
    write_table(SPEC.id, paths, outputs, table_run(SPEC.id, "quick"))
    written = restore_jobs(outputs.records, tmp_path / "restored")
    assert [p.relative_to(tmp_path / "restored") for p in written] == [p.relative_to(ran) for p in paths]
    for path, back in zip(paths, written):
        assert back.read_bytes() == path.read_bytes()


def test_existing_job_files_are_kept(tmp_path, capsys):
    records = _records_file(tmp_path, [_fold_frame("Page", 0), _fold_frame("Page", 1)])
    kept = SPEC.job_files.path(tmp_path / "out", dataset="Page", fold=0)
    kept.parent.mkdir(parents=True)
    kept.write_text("this machine's run\n")
    main([str(records), str(tmp_path / "out")])
    assert kept.read_text() == "this machine's run\n"
    assert SPEC.job_files.path(tmp_path / "out", dataset="Page", fold=1).exists()
    assert "wrote 1 job file(s)" in capsys.readouterr().out


def test_a_records_file_cut_mid_line_is_refused_and_nothing_written(tmp_path):
    path = _records_file(tmp_path, [_fold_frame("Page", 0), _fold_frame("Page", 1)])
    text = path.read_text()
    path.write_text(text[: len(text) - 7])  # cut inside the last row
    with pytest.raises(ValueError, match=r"line 7: the file ends mid-line"):
        restore_jobs(path, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_records_file_cut_at_a_line_boundary_is_refused_and_nothing_written(tmp_path):
    path = _records_file(tmp_path, [_fold_frame("Page", 0), _fold_frame("Page", 1)])
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]))  # the last job lost its last record
    with pytest.raises(ValueError, match=r"job \{'dataset': 'Page', 'fold': 1\} has 2 records, expected 3"):
        restore_jobs(path, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_file_that_is_not_a_per_split_table_is_refused(tmp_path):
    bad = tmp_path / "table.csv"
    bad.write_text("dataset,method,value\nIris,SVMs,0.9\n")
    with pytest.raises(ValueError, match="not a table's records file"):
        restore_jobs(bad, tmp_path / "out")
    one = tmp_path / "gs_svm_table1_records.csv"
    one.write_text("x\n1\n")
    with pytest.raises(ValueError, match="no per-split jobs"):
        restore_jobs(one, tmp_path / "out")


def test_jobs_keyed_by_a_missing_value_are_restored_too(tmp_path):
    """Table 1's GS-SVM jobs have no C (NaN): their files are named C none."""
    from repro.experiments.records import JobFiles, RecordSchema

    schema = RecordSchema({"dataset": "str", "C": "float", "value": "float"})
    jobs = JobFiles("{dataset}_C{C}.csv", {"dataset": "dataset", "C": "C"}, rows=1)
    records = pd.DataFrame({"dataset": ["a", "a"], "C": [float("nan"), 2.0], "value": [1.0, 2.0]})
    written = jobs.restore(records, tmp_path, schema)
    assert sorted(p.name for p in written) == ["a_C2.0.csv", "a_Cnone.csv"]
