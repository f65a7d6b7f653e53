"""Resume a long workflow run on another machine from its committed records.

A per-fold table's records file in ``paper_tables/`` (today the GS-SVM paper's
Table 2, ``gs_svm_table2_records.csv``) holds every per-job record the table
was built from, one job per (dataset, fold). A run longer than one machine
session (the GS-SVM paper's Page set alone is 10-12 CPU-hours) continues on a
fresh checkout by writing those records back as the workflow's per-job files,
so Snakemake plans only the jobs still missing:

    python -m repro.experiments.resume paper_tables/gs_svm_table2_records.csv \\
        results/full/gs_svm/table2

Existing files are never overwritten (what this machine ran wins). Only records
made by the same code may be mixed: the git history of the records file says
which commit produced them.
"""
import argparse
from pathlib import Path

import pandas as pd

from .._io import write_text_atomic

#: The record columns that name a job, and the job's file under its table's
#: folder; the workflow's per-fold rules use the same template (gs_svm.smk).
JOB_KEYS = ("paper_dataset", "fold")
FOLD_FILE = "{dataset}/fold{fold}.csv"


def job_path(into, paper_dataset: str, fold: int) -> Path:
    return Path(into) / FOLD_FILE.format(dataset=paper_dataset, fold=int(fold))


def restore_jobs(records_csv, into) -> list:
    """Write one file per (dataset, fold) of ``records_csv`` under ``into``,
    as the job would have written it, unless that file exists. Returns the
    paths written."""
    records = pd.read_csv(records_csv)
    missing = [k for k in JOB_KEYS if k not in records.columns]
    if missing:
        raise ValueError(f"{records_csv}: no column {missing}; not a per-fold records file")
    written = []
    for (name, fold), job in records.groupby(list(JOB_KEYS), sort=True):
        path = job_path(into, name, fold)
        if path.exists():
            continue
        write_text_atomic(path, job.to_csv(index=False))
        written.append(path)
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m repro.experiments.resume",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="a per-fold records CSV from paper_tables/")
    parser.add_argument("into", help="the workflow's folder of per-fold files, "
                                     "e.g. results/full/gs_svm/table2")
    args = parser.parse_args(argv)
    written = restore_jobs(args.records, args.into)
    print(f"wrote {len(written)} job file(s) under {args.into}")
    for path in written:
        print(f"  {path}")


if __name__ == "__main__":
    main()
