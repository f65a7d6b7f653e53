"""The experiment layer shared by the five papers, and one module per paper.

Shared machinery (a paper module uses it and never copies it):

* :mod:`.splits`: stratified k folds and repeated random partitions, seeded;
* :mod:`.selection`: nested cross-validation around a paper's grid-scoring hook;
* :mod:`.stats`: paired t-tests and win/tie/loss counts;
* :mod:`.timing`: the interleaved best-of-N harness, threads pinned;
* :mod:`.records`: record schemas, atomic writes, validated reads;
* :mod:`.resume`: committed records laid back as the workflow's job files;
* :mod:`.cost`: what planned jobs cost, from the records' measured times;
* :mod:`.report`: runs cut short or left out, and the page around a table;
* :func:`repro.tables.compare`: published vs reproduced with the verdicts.

A paper module ``repro.experiments.<paper id>`` (ids in :mod:`repro.papers`)
holds its grids, methods, constants and hooks, and declares its tables in
``TABLES``: table id -> :class:`TableSpec`. The workflow's generic scripts
(``workflow/scripts/record.py`` and ``table.py``) reach a paper only through
:func:`run_job` and :func:`write_table`, so adding a paper adds no script.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

import pandas as pd

from ..papers import PAPERS, check_paper
from .records import JobFiles, RecordSchema, read_all, write_checksum, write_records


@dataclass(frozen=True)
class TableRun:
    """What a table step knows about the run that made its records."""
    scale: str
    protocol: object
    skipped: tuple = ()        # datasets left out by config (skip_datasets)
    note: str = ""             # the workflow's note (e.g. which sets were skipped)


@dataclass
class TableOutput:
    """A built table: the CSV frame (the comparison, or the records of a
    table with nothing published to compare), the Markdown page, and its
    figures: output name (the rule's named output, e.g. ``png``) -> file bytes."""
    csv: pd.DataFrame
    markdown: str
    figures: dict = field(default_factory=dict)


@dataclass(frozen=True)
class TableSpec:
    """One table of a paper: how its jobs are named and run, what their
    records hold, and how the table is built from them.

    ``jobs(protocol)`` yields the template fields of every job of a scale;
    ``run(protocol, **fields)`` returns one job's records (fields parsed by
    the schema); ``build(records, table_run)`` returns a :class:`TableOutput`.
    """
    id: str                 # published table id and output file stem, e.g. "gs_svm_table2"
    paper: str
    schema: RecordSchema
    job_files: JobFiles
    jobs: Callable
    run: Callable
    build: Callable
    per_split: bool = field(default=False)   # records committed per split: resumable, partial runs
    cost: Callable | None = None   # one job's records -> its measured seconds (for estimates)
    # scale -> protocol, for a table whose protocol is not its paper module's
    # PROTOCOLS (NESVM's image experiment has its own knobs)
    protocols: dict | None = None

    def protocol(self, scale: str):
        """This table's protocol under ``scale``."""
        protocols = self.protocols if self.protocols is not None else paper_module(self.paper).PROTOCOLS
        if scale not in protocols:
            raise ValueError(f"{self.id}: no scale {scale!r}; choose from {sorted(protocols)}")
        return protocols[scale]

    @property
    def name(self) -> str:
        """The part after the paper id (``table2``): the results sub-folder."""
        return self.id[len(self.paper) + 1:]

    def folder(self, results) -> str:
        """The folder of this table's job files under a scale's results folder."""
        return f"{results}/{self.paper}/{self.name}"

    def job_paths(self, results, protocol, exclude=(), partial=()) -> list:
        """Every job file of a scale, without those of datasets in ``exclude``
        (config ``skip_datasets``); for a per-split table, datasets in
        ``partial`` (config ``partial_datasets``: a run still in progress) keep
        only the files on disk, so the table is built from the splits run so far."""
        partial = partial if self.per_split else ()
        paths = []
        for fields in self.jobs(protocol):
            dataset = fields.get("dataset")
            path = self.job_files.path(self.folder(results), **fields)
            if dataset in exclude or (dataset in partial and not path.exists()):
                continue
            paths.append(str(path))
        return paths


def report_builder(module: str, function: str) -> Callable:
    """A ``TableSpec.build`` that imports ``repro.experiments.<module>`` when
    the table is built and calls its ``function``: a paper's report module
    reads the paper module's constants, so the paper module cannot import it
    at load time."""
    def build(records, table_run):
        return getattr(importlib.import_module(f"{__name__}.{module}"), function)(records, table_run)
    return build


def paper_module(paper: str):
    """The experiment module of a paper (ValueError if it has none yet)."""
    check_paper(paper)
    try:
        return importlib.import_module(f"{__name__}.{paper}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{paper}":
            raise
        raise ValueError(f"paper {paper!r} has no experiments yet (repro/experiments/{paper}.py)") from None


def table_spec(table_id: str) -> TableSpec:
    """The :class:`TableSpec` of a table id such as ``"gs_svm_table2"``."""
    paper = next((p for p in PAPERS if table_id.startswith(p + "_")), None)
    if paper is None:
        raise ValueError(f"table id {table_id!r} does not start with a paper id ({', '.join(PAPERS)})")
    tables = paper_module(paper).TABLES
    if table_id not in tables:
        raise ValueError(f"unknown table {table_id!r}; {paper} has {', '.join(tables)}")
    return tables[table_id]


def run_job(table_id: str, scale: str, fields: dict) -> pd.DataFrame:
    """The records of one job, checked against the table's schema; ``fields``
    are the job's template fields as strings (a workflow job's wildcards)."""
    spec = table_spec(table_id)
    records = spec.run(spec.protocol(scale), **_parse_fields(spec, fields))
    return spec.schema.check(records, f"{table_id} job {fields}")


def _parse_fields(spec: TableSpec, fields: dict) -> dict:
    """Template fields (strings) -> values of their record columns' kinds;
    ``none`` for a float field means no value (e.g. GS-SVM has no C)."""
    parsed = {}
    for name, text in fields.items():
        kind = spec.schema.columns.get(spec.job_files.keys.get(name), "str")
        if kind == "int":
            parsed[name] = int(text)
        elif kind == "float":
            parsed[name] = None if text == "none" else float(text)
        else:
            parsed[name] = text
    return parsed


def write_job(table_id: str, scale: str, fields: dict, output) -> None:
    """The workflow's record step: run one job and write its records atomically."""
    write_records(output, run_job(table_id, scale, fields), table_spec(table_id).schema)


def table_run(table_id: str, scale: str, skipped=(), note: str = "") -> TableRun:
    """The :class:`TableRun` of a table under a scale (its paper's protocol)."""
    return TableRun(scale, table_spec(table_id).protocol(scale), tuple(skipped), note)


def build_table(table_id: str, records: pd.DataFrame, table_run: TableRun) -> TableOutput:
    return table_spec(table_id).build(records, table_run)


def write_table(table_id: str, inputs, outputs, table_run: TableRun) -> list:
    """The workflow's table step: read (and check) the job files, build the
    table, write the records (if asked) and their sha256 (``checksum``), the CSV, the Markdown and the
    table's figures (each to the output of its name) atomically; returns
    the paths of the figures written."""
    from .._io import write_bytes_atomic, write_text_atomic
    from .report import banner

    spec = table_spec(table_id)
    records = read_all(inputs, spec.schema)
    spec.job_files.check_jobs(records, f"{table_id}'s records")
    out = build_table(table_id, records, table_run)
    if hasattr(outputs, "records"):
        write_records(outputs.records, records, spec.schema)
        if hasattr(outputs, "checksum"):  # what rebuild and resume check the records against
            write_checksum(outputs.records, outputs.checksum)
    write_text_atomic(outputs.csv, out.csv.to_csv(index=False))
    write_text_atomic(outputs.md, banner(table_run) + out.markdown)
    for name, data in out.figures.items():
        # a figure the rule does not declare would be lost silently: refuse
        if not hasattr(outputs, name):
            raise ValueError(f"{table_id} makes the figure {name!r}, but the table step has no "
                             f"output of that name (add {name}=... to the rule's outputs)")
        write_bytes_atomic(getattr(outputs, name), data)
    return [getattr(outputs, name) for name in out.figures]
