"""Per-fold records written back from a table's records file (repro.experiments.resume)."""
import pandas as pd
import pytest

from repro.experiments.resume import job_path, main, restore_jobs


def _fold_frame(name, fold):
    return pd.DataFrame({"paper_dataset": [name, name], "fold": [fold, fold],
                         "method": ["GS-SVMs", "SVMs"], "log2_C": [float("nan"), 3.0],
                         "test_accuracy": [0.1 + fold / 3, 2 / 3], "standin": [False, False]})


def test_restored_jobs_are_the_files_the_jobs_wrote(tmp_path):
    jobs = {(n, k): _fold_frame(n, k) for n in ("Iris", "Page") for k in (0, 3)}
    records = tmp_path / "records.csv"
    records.write_text(pd.concat(jobs.values()).to_csv(index=False))
    written = restore_jobs(records, tmp_path / "out")
    assert sorted(written) == sorted(job_path(tmp_path / "out", n, k) for n, k in jobs)
    for (n, k), frame in jobs.items():  # byte for byte what the fold job writes
        assert job_path(tmp_path / "out", n, k).read_text() == frame.to_csv(index=False)


def test_existing_job_files_are_kept(tmp_path, capsys):
    records = tmp_path / "records.csv"
    records.write_text(pd.concat([_fold_frame("Page", 0), _fold_frame("Page", 1)]).to_csv(index=False))
    kept = job_path(tmp_path / "out", "Page", 0)
    kept.parent.mkdir(parents=True)
    kept.write_text("this machine's run\n")
    main([str(records), str(tmp_path / "out")])
    assert kept.read_text() == "this machine's run\n"
    assert job_path(tmp_path / "out", "Page", 1).exists()
    assert "wrote 1 job file(s)" in capsys.readouterr().out


def test_a_file_without_fold_records_is_refused(tmp_path):
    bad = tmp_path / "table.csv"
    bad.write_text("dataset,method,value\nIris,SVMs,0.9\n")
    with pytest.raises(ValueError, match="not a per-fold records file"):
        restore_jobs(bad, tmp_path / "out")
