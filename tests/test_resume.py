"""Per-split records written back from a table's records file (repro.experiments.resume)."""
import pandas as pd
import pytest

from repro.experiments import gs_svm as GS
from repro.experiments.records import write_records
from repro.experiments.resume import main, restore_jobs

SPEC = GS.TABLES["gs_svm_table2"]


def _fold_frame(name, fold):
    """Records of one Table 2 job, as the job writes them."""
    return pd.DataFrame([{
        "paper_dataset": name, "dataset": name.lower(), "standin": False, "n_samples": 150,
        "n_features": 4, "n_classes": 3, "split_scheme": "stratified_kfold", "split_seed": 0,
        "split_index": fold, "inner_folds": 10, "inner_seed": 1, "method": method,
        "log2_theta": -1.0, "log2_C": log2_c, "inner_cv_accuracy": 0.9, "test_accuracy": 0.1 + fold / 3,
        "n_fits": 171, "n_unconverged_problems": 0, "seconds": 1.5}
        for method, log2_c in (("GS-SVMs", float("nan")), ("SVMs", 3.0))])


def _records_file(tmp_path, frames):
    path = tmp_path / "gs_svm_table2_records.csv"
    write_records(path, pd.concat(frames, ignore_index=True), SPEC.schema)
    return path


def test_restored_jobs_are_the_files_the_jobs_wrote(tmp_path):
    jobs = {(n, k): _fold_frame(n, k) for n in ("Iris", "Page") for k in (0, 3)}
    written = restore_jobs(_records_file(tmp_path, jobs.values()), tmp_path / "out")
    paths = {(n, k): SPEC.job_files.path(tmp_path / "out", dataset=n, fold=k) for n, k in jobs}
    assert sorted(written) == sorted(paths.values())
    for key, frame in jobs.items():  # byte for byte what the job writes
        job = tmp_path / "job.csv"
        write_records(job, frame, SPEC.schema)
        assert paths[key].read_text() == job.read_text()


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
    with pytest.raises(ValueError, match=r"line 5: the file ends mid-line"):
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
