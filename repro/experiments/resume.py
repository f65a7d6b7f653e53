"""Resume a long workflow run on another machine from its committed records.

A per-split table's records file in ``paper_tables/`` (``<table id>_records.csv``,
e.g. the GS-SVM paper's ``gs_svm_table2_records.csv``) holds every per-job
record the table was built from, one job per (dataset, split). A run longer
than one machine session (the GS-SVM paper's Page set alone is about 12
CPU-hours) continues on a fresh checkout by writing those records back as the
workflow's per-job files, so Snakemake plans only the jobs still missing:

    python -m repro.experiments.resume paper_tables/gs_svm_table2_records.csv \\
        results/full/gs_svm/table2

The records are checked against the table's schema first (a file cut short or
malformed is refused with its line, and nothing is written). Existing files
are never overwritten (what this machine ran wins). Only records made by the
same code may be mixed: the git history of the records file says which
commit produced them.
"""
import argparse
from pathlib import Path

from . import table_spec
from .records import read_records

SUFFIX = "_records"


def spec_of(records_csv):
    """The table spec a records file belongs to, from its name (``<table id>_records.csv``)."""
    stem = Path(records_csv).stem
    if not stem.endswith(SUFFIX):
        raise ValueError(f"{records_csv}: not a table's records file (<table id>{SUFFIX}.csv)")
    spec = table_spec(stem[: -len(SUFFIX)])
    if not spec.per_split:
        raise ValueError(f"{records_csv}: table {spec.id} has no per-split jobs to resume")
    return spec


def restore_jobs(records_csv, into) -> list:
    """Write one file per job of ``records_csv`` under ``into``, as the job would
    have written it, unless that file exists. Returns the paths written."""
    spec = spec_of(records_csv)
    records = read_records(records_csv, spec.schema)
    return spec.job_files.restore(records, into, spec.schema)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m repro.experiments.resume",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="a per-split table's records CSV from paper_tables/")
    parser.add_argument("into", help="the workflow's folder of per-job files, "
                                     "e.g. results/full/gs_svm/table2")
    args = parser.parse_args(argv)
    written = restore_jobs(args.records, args.into)
    print(f"wrote {len(written)} job file(s) under {args.into}")
    for path in written:
        print(f"  {path}")


if __name__ == "__main__":
    main()
