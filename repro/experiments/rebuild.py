"""Rebuild a table's page from its committed records, without running a job.

:func:`rebuild` (the command ``python -m repro.papers rebuild gs_svm_table2
[--tables paper_tables]``) reads ``<tables>/<table id>_records.csv`` (checked
against the sha256 recorded beside it and the table's schema) and rewrites ``<table id>.csv`` and ``<table id>.md`` beside it, as the
workflow's table step would from the same records with the full scale:
what to run after a change to the table builder, the tolerances or the
explanations registry, which do not change a single record. A table with a
figure rewrites ``<table id>.png`` too.
"""
from pathlib import Path
from types import SimpleNamespace

from . import table_run, write_table
from .records import verify_checksum
from .resume import committed, records_file


def rebuild(spec, tables="paper_tables", scale: str = "full") -> list:
    """Rewrite the CSV, Markdown (and PNG, for a table with a figure) of a
    table (its :class:`~repro.experiments.TableSpec`) from its records;
    returns the paths written."""
    folder = Path(tables)
    records = committed(spec, records_file(spec.id, folder))
    verify_checksum(records)  # a records file edited by hand is refused, not built into a page
    outputs = SimpleNamespace(csv=folder / f"{spec.id}.csv", md=folder / f"{spec.id}.md",
                              png=folder / f"{spec.id}.png")
    figures = write_table(spec, [records], outputs, table_run(spec, scale))
    return [outputs.csv, outputs.md, *figures]

