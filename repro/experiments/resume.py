"""Lay a table's committed records back as the workflow's job files.

Every table's records file in ``paper_tables/`` (``<table id>_records.csv``)
holds the per-job records the committed page was built from. Written back as
the workflow's per-job files, they are outputs Snakemake does not plan again:
the full-scale workflow does this for every table before it plans (config
``reuse_records``, on by default; ``recompute`` names the tables to run
again), so a fresh clone rebuilds the pages in minutes and a run longer than
one machine session continues where the committed records stop. By hand:

    python -m repro.papers resume ldm_table4            # or paper_tables/ldm_table4_records.csv

writes them under ``results/full/ldm/table4``, the folder the workflow reads
(``--results`` for another results folder). The records are checked first, against the sha256 their table step recorded beside
them (a hand edit is refused) and against the table's schema (a file cut short,
malformed or holding a value it cannot hold is refused with its line, and nothing
is written); a target folder that is not the table's own,
or a table with no committed records, is refused with one line. Existing
files are never overwritten (what this machine ran wins). Each file laid back
has a sidecar (``<job file>.laid-back.sha256``) with the sha256 of what was laid
back: the table step refuses a laid-back file edited since, so a hand edit never
becomes committed records (a job run again drops the sidecar; see
:func:`repro.experiments.records.check_laid_back`). Only records made
by the same code may be mixed: the git history of the records file says which
commit produced them.
"""
from pathlib import Path

from .records import read_records, verify_checksum

SUFFIX = "_records"
RECORDS_DIR = Path("paper_tables")


def records_file(table_id: str, records_dir=RECORDS_DIR) -> Path:
    """Where a table's committed records are (whether or not they exist)."""
    return Path(records_dir) / f"{table_id}{SUFFIX}.csv"


def table_id_of(table_or_records) -> str:
    """The table id of a table id or of a records file's name (``<table id>_records.csv``)."""
    text = str(table_or_records)
    if text.endswith(".csv"):
        stem = Path(text).stem
        if not stem.endswith(SUFFIX):
            raise ValueError(f"{text}: not a table's records file (<table id>{SUFFIX}.csv)")
        return stem[: -len(SUFFIX)]
    return text


def committed(spec, source) -> Path:
    """``source``, the committed records file of a table (its spec); a ValueError saying
    what to do when it does not exist (rebuild and resume both read one)."""
    if not Path(source).exists():
        raise ValueError(f"{spec.id} has no committed records ({source} does not exist): "
                         f"its jobs have to run")
    return Path(source)


def job_folder(spec, results="results", scale="full") -> Path:
    """The folder the workflow reads a table's job files from."""
    return Path(spec.folder(Path(results) / scale))


def check_folder(spec, into) -> None:
    """Refuse a folder that is not this table's (a typo would otherwise fill a
    folder the workflow never reads, and every job would run again)."""
    expected = Path(spec.paper) / spec.name
    if Path(into).parts[-2:] != expected.parts:
        raise ValueError(f"{into} is not the job folder of {spec.id} (it ends in {expected}, "
                         f"e.g. {job_folder(spec)}); nothing written")


def restore_jobs(spec, into=None, *, source=None, results="results", records_dir=RECORDS_DIR) -> list:
    """Write one file per job of a table's committed records (``source``, by
    default its records file under ``records_dir``) under its job folder
    (``into``, checked, or the full scale's under ``results``), unless that
    file exists. Returns the paths written."""
    source = committed(spec, records_file(spec.id, records_dir) if source is None else source)
    folder = job_folder(spec, results) if into is None else Path(into)
    check_folder(spec, folder)
    verify_checksum(source)
    records = read_records(source, spec.schema)
    return spec.job_files.restore(records, folder, spec.schema, source)

