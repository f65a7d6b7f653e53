"""Rebuild a table's page from its committed records, without running a job.

    python -m repro.experiments.rebuild gs_svm_table2 [--tables paper_tables]

reads ``<tables>/<table id>_records.csv`` (checked against the table's schema)
and rewrites ``<table id>.csv`` and ``<table id>.md`` beside it, as the
workflow's table step would from the same records with the full scale:
what to run after a change to the table builder, the tolerances or the
explanations registry, which do not change a single record. A table with a
figure rewrites ``<table id>.png`` too.
"""
import argparse
from pathlib import Path
from types import SimpleNamespace

from . import table_run, write_table
from .records import verify_checksum


def rebuild(table_id: str, tables="paper_tables", scale: str = "full") -> list:
    """Rewrite the table's CSV, Markdown (and PNG, for a table with a figure)
    from its records; returns the paths written."""
    folder = Path(tables)
    records = folder / f"{table_id}_records.csv"
    verify_checksum(records)  # a records file edited by hand is refused, not built into a page
    outputs = SimpleNamespace(csv=folder / f"{table_id}.csv", md=folder / f"{table_id}.md",
                              png=folder / f"{table_id}.png")
    figures = write_table(table_id, [records], outputs, table_run(table_id, scale))
    return [outputs.csv, outputs.md, *figures]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m repro.experiments.rebuild",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("table", nargs="+", help="table ids, e.g. gs_svm_table2")
    parser.add_argument("--tables", default="paper_tables", help="folder of the records and tables")
    args = parser.parse_args(argv)
    for table_id in args.table:
        for path in rebuild(table_id, args.tables):
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
