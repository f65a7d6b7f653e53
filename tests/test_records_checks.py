"""Records that parse but cannot be true, or were edited by hand, are refused
(repro.experiments.records: Values, JobFiles.unique, the committed checksum)."""
import shutil
from pathlib import Path

import pytest

from repro.papers.catalog import table_spec
from repro.experiments.rebuild import rebuild
from repro.experiments.records import read_records, verify_checksum, write_checksum
from repro.experiments.resume import restore_jobs

REPO = Path(__file__).resolve().parents[1]
TABLE = "ldm_table2"
SPEC = table_spec(TABLE)


@pytest.fixture
def committed(tmp_path):
    """A copy of the committed LDM Table 2 records with their checksum."""
    folder = tmp_path / "paper_tables"
    folder.mkdir()
    for name in (f"{TABLE}_records.csv", f"{TABLE}_records.csv.sha256"):
        shutil.copy(REPO / "paper_tables" / name, folder / name)
    return folder / f"{TABLE}_records.csv"


def _edit(path, line_number, old, new, rechecksum=True):
    """Replace the first ``old`` on a line of the file (1-based), as a hand edit would;
    ``rechecksum``: record the edited file's sha256 too, so the value checks are what refuses."""
    lines = path.read_text().splitlines(keepends=True)
    assert old in lines[line_number - 1], lines[line_number - 1]
    lines[line_number - 1] = lines[line_number - 1].replace(old, new, 1)
    path.write_text("".join(lines))
    if rechecksum:
        write_checksum(path)


def _column(path, name):
    return path.read_text().splitlines()[0].split(",").index(name)


def _set_field(path, line_number, name, value):
    lines = path.read_text().splitlines(keepends=True)
    fields = lines[line_number - 1].rstrip("\n").split(",")
    assert "\"" not in lines[line_number - 1]  # a plain row: commas split fields
    fields[_column(path, name)] = value
    lines[line_number - 1] = ",".join(fields) + "\n"
    path.write_text("".join(lines))
    write_checksum(path)


def test_the_committed_records_read_and_match_their_checksums():
    for records in sorted((REPO / "paper_tables").glob("*_records.csv")):
        spec = table_spec(records.name[: -len("_records.csv")])
        verify_checksum(records)
        spec.job_files.check_jobs(read_records(records, spec.schema), records)


@pytest.mark.parametrize("value, problem", [("1.83", r"is outside \[0.0, 1.0\]"), ("-0.5", r"is outside \[0.0, 1.0\]"),
                                            ("", "is empty"), ("nan", "is empty")])
def test_an_accuracy_that_cannot_be_is_refused_with_its_line(committed, value, problem):
    _set_field(committed, 7, "test_accuracy", value)
    with pytest.raises(ValueError, match=rf"{TABLE}_records.csv, line 7, column 'test_accuracy': .*{problem}"):
        restore_jobs(SPEC, committed.parent.parent / "results" / "full" / "ldm" / "table2", source=committed)


def test_a_renamed_method_is_refused(committed):
    _edit(committed, 2, ",SVM,", ",SVMM,")
    with pytest.raises(ValueError, match=r"line 2, column 'method': 'SVMM' is not one of"):
        read_records(committed, SPEC.schema)


def test_a_row_duplicated_in_place_of_another_is_refused_with_its_line(committed):
    lines = committed.read_text().splitlines(keepends=True)
    lines[3] = lines[2]  # line 4 becomes a copy of line 3
    committed.write_text("".join(lines))
    write_checksum(committed)
    records = read_records(committed, SPEC.schema)
    with pytest.raises(ValueError, match=r"line 4: a second method .* row in job .*records duplicated or edited"):
        SPEC.job_files.check_jobs(records, committed)


def test_a_flipped_digit_is_refused_by_the_checksum(committed, tmp_path):
    _set_field(committed, 9, "test_accuracy", "0.5")   # parses, in range: only the checksum can tell
    write_checksum_was = committed.with_name(committed.name + ".sha256").read_text()
    shutil.copy(REPO / "paper_tables" / f"{TABLE}_records.csv.sha256", committed.parent)  # the recorded one
    assert committed.with_name(committed.name + ".sha256").read_text() != write_checksum_was
    with pytest.raises(ValueError, match="its sha256 is not the one its table step recorded"):
        restore_jobs(SPEC, tmp_path / "results" / "full" / "ldm" / "table2", source=committed)
    with pytest.raises(ValueError, match="its sha256 is not the one its table step recorded"):
        rebuild(SPEC, committed.parent)
    assert not (tmp_path / "results").exists() and not (committed.parent / f"{TABLE}.md").exists()


def test_records_without_a_checksum_are_refused(committed):
    committed.with_name(committed.name + ".sha256").unlink()
    with pytest.raises(ValueError, match="no checksum beside it"):
        rebuild(SPEC, committed.parent)


def test_a_partition_missing_a_method_is_refused_in_a_job_of_every_partition(committed):
    # LDM Table 2's job runs every partition of a set (JobFiles per="split_index"):
    # each partition must hold one record per method, wherever in the file the cut is
    lines = committed.read_text().splitlines(keepends=True)
    del lines[9]  # the 9th record: partition 1 of the first set loses one method
    committed.write_text("".join(lines))
    write_checksum(committed)
    records = read_records(committed, SPEC.schema)
    with pytest.raises(ValueError, match=r"job \{'dataset': '\w[\w-]*'\}, split_index 1, has 5 records, expected 6 "
                                         r"\(records cut short or edited\)"):
        SPEC.job_files.check_jobs(records, committed)


@pytest.mark.parametrize("damage, message", [
    (lambda records: records.unlink(), "ldm_table2 has no committed records ({records} does not exist): "
                                       "its jobs have to run"),
    (lambda records: records.with_name(records.name + ".sha256").unlink(), "{records}: no checksum beside it"),
    (lambda records: records.write_bytes(records.read_bytes().replace(b"\n", b"\n\n", 1)),
     "{records}: its sha256 is not the one its table step recorded"),
])
def test_rebuild_refuses_records_in_one_line_naming_the_file_and_what_to_do(committed, damage, message):
    """Issue 47 item 8: ``rebuild`` printed a traceback where ``resume`` prints one line."""
    from repro.papers.__main__ import main

    damage(committed)
    with pytest.raises(SystemExit) as stop:
        main(["rebuild", TABLE, "--tables", str(committed.parent)])
    text = str(stop.value.code)
    assert text.startswith("rebuild: " + message.format(records=committed)) and "\n" not in text
    assert "its jobs have to run" in text or "git checkout -- " in text
    assert not (committed.parent / f"{TABLE}.md").exists()
