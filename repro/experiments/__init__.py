"""The experiment layer: the machinery every paper's experiments share; it knows no paper.

Shared machinery (a paper uses it and never copies it):

* :mod:`.splits`: stratified k folds and repeated random partitions, seeded;
* :mod:`.selection`: nested cross-validation around a paper's grid-scoring hook;
* :mod:`.stats`: paired t-tests and win/tie/loss counts;
* :mod:`.timing`: the interleaved best-of-N harness, threads pinned;
* :mod:`.records`: record schemas, atomic writes, validated reads;
* :mod:`.resume`: committed records laid back as the workflow's job files;
* :mod:`.rebuild`: a table's page rewritten from its committed records;
* :mod:`.cost`: what planned jobs cost, from the records' measured times;
* :mod:`.config`: the workflow's configuration values, read strictly;
* :mod:`.report`: runs cut short or left out, and the page around a table;
* :func:`repro.tables.compare`: published vs reproduced with the verdicts.

A paper is a folder ``repro/papers/<paper id>/`` that declares its tables in
``tables.TABLES``: table id -> :class:`TableSpec`; :mod:`repro.papers.catalog`
gathers every paper's. The workflow's generic scripts (``workflow/scripts/record.py``
and ``table.py``) reach a paper only through a spec of the catalog, :func:`write_job`
and :func:`write_table`, so adding a paper adds no script. No module here imports
a paper: a spec is handed in.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import pandas as pd

from ..papers import check_paper
from .records import (JobFiles, RecordSchema, check_laid_back, forget_laid_back, read_all, write_checksum,
                      write_records)


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
    # our values of the paper's descriptive columns (a set's size, its dimension),
    # shown 'ours (paper)' in the page's opening table but not judged: columns
    # dataset, metric (the published metric), value
    shown: pd.DataFrame | None = None


@dataclass(frozen=True)
class TableSpec:
    """One table of a paper: how its jobs are named and run, what their
    records hold, and how the table is built from them.

    ``jobs(protocol)`` yields the template fields of every job of a scale;
    ``run(protocol, **fields)`` returns one job's records (fields parsed by
    the schema); ``build(records, table_run)`` returns a :class:`TableOutput`;
    ``protocols`` maps each scale to the protocol its jobs run under.
    """
    id: str                 # published table id and output file stem, e.g. "gs_svm_table2"
    paper: str
    schema: RecordSchema
    job_files: JobFiles
    jobs: Callable
    run: Callable
    build: Callable
    protocols: dict
    per_split: bool = field(default=False)   # records committed per split: resumable, partial runs
    cost: Callable | None = None   # one job's records -> its measured seconds (for estimates)

    def __post_init__(self):
        check_paper(self.paper)
        if not self.id.startswith(self.paper + "_"):
            raise ValueError(f"table id {self.id!r} does not start with its paper id {self.paper!r}")

    def protocol(self, scale: str):
        """This table's protocol under ``scale``."""
        if scale not in self.protocols:
            raise ValueError(f"{self.id}: no scale {scale!r}; choose from {sorted(self.protocols)}")
        return self.protocols[scale]

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


def run_job(spec: TableSpec, scale: str, fields: dict) -> pd.DataFrame:
    """The records of one job of a table, checked against its schema; ``fields``
    are the job's template fields as strings (a workflow job's wildcards)."""
    records = spec.run(spec.protocol(scale), **_parse_fields(spec, fields))
    return spec.schema.check(records, f"{spec.id} job {fields}")


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


def write_job(spec: TableSpec, scale: str, fields: dict, output, threads: int | None = None) -> None:
    """The workflow's record step: run one job and write its records
    atomically, each row stamped with where it was made (:mod:`.provenance`);
    a file laid back there before is computed anew, so its lay-back sidecar goes.
    The job's process keeps the memory it frees for its next arrays
    (:mod:`.memory`: fresh pages cost a fifth of Page's SVM grid)."""
    from .memory import keep_freed_memory
    from .provenance import COLUMN, stamp

    keep_freed_memory()
    # before anything is written: a job that stops midway leaves no sidecar claiming its file
    forget_laid_back(output)
    records = run_job(spec, scale, fields)
    records[COLUMN] = stamp(scale, threads)
    write_records(output, records, spec.schema)


def table_run(spec: TableSpec, scale: str, skipped=(), note: str = "") -> TableRun:
    """The :class:`TableRun` of a table under a scale (its protocol of that scale)."""
    return TableRun(scale, spec.protocol(scale), tuple(skipped), note)


def write_table(spec: TableSpec, inputs, outputs, table_run: TableRun) -> list:
    """The workflow's table step: read (and check) the job files, build the
    table, write the records (if asked) and their sha256 (``checksum``), the CSV, the Markdown and the
    table's figures (each to the output of its name) atomically; returns
    the paths of the figures written."""
    from .._io import write_bytes_atomic, write_text_atomic
    from ..tables import with_verdicts
    from .as_printed import opening
    from .report import banner

    from .provenance import COLUMN, seeds_of, summary_markdown

    check_laid_back(inputs, spec.id)  # a laid-back job file edited by hand never reaches the records
    records = read_all(inputs, spec.schema)
    spec.job_files.check_jobs(records, f"{spec.id}'s records")
    # the builders see the measured columns only; the stamps go to the page's provenance
    measured = records.drop(columns=COLUMN, errors="ignore")
    stamps = records[COLUMN] if COLUMN in records else [""] * len(records)
    out = spec.build(measured, table_run)
    table = with_verdicts(out.csv)  # one verdict column in every table's CSV
    if hasattr(outputs, "records"):
        write_records(outputs.records, records, spec.schema)
        if hasattr(outputs, "checksum"):  # what rebuild and resume check the records against
            write_checksum(outputs.records, outputs.checksum)
    write_text_atomic(outputs.csv, table.to_csv(index=False))
    provenance = summary_markdown(stamps, seeds_of(measured))
    write_text_atomic(outputs.md, banner(table_run) + opening(spec, table, out.shown) + out.markdown.rstrip("\n")
                      + "\n\n" + provenance)
    for name, data in out.figures.items():
        # a figure the rule does not declare would be lost silently: refuse
        if not hasattr(outputs, name):
            raise ValueError(f"{spec.id} makes the figure {name!r}, but the table step has no "
                             f"output of that name (add {name}=... to the rule's outputs)")
        write_bytes_atomic(getattr(outputs, name), data)
    return [getattr(outputs, name) for name in out.figures]
