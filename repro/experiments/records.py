"""Record files: one schema per table, atomic writes, validated reads, resume.

A workflow job writes the records of its part of a table (one row per fit, or
per method and split) to one CSV file; the table step reads them all back. A
record file is written whole or not at all (:func:`write_records`, atomic
rename), and every read (:func:`read_records`) checks it against the table's
:class:`RecordSchema`, so a file cut mid-line, a row with a field too many or
too few, an unknown or missing column, or a value of the wrong type is refused
with the file and the line instead of becoming a table.

Resume: a table's committed records (``paper_tables/<table>_records.csv``) are
written back as the workflow's per-job files by :meth:`JobFiles.restore`
(``python -m repro.papers resume``), so a run longer than one machine
session continues on a fresh checkout: Snakemake plans only the missing jobs.
A laid-back file carries the sha256 of what was laid back in a sidecar, and the
table step refuses one edited since (:func:`check_laid_back`).
"""
from __future__ import annotations

import csv
import hashlib
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .._io import write_text_atomic
from .provenance import COLUMN as PROVENANCE

#: value kinds of a record column; "float" may be empty (NaN), the others may not
KINDS = ("str", "int", "float", "bool")


_INT64 = (-(2 ** 63), 2 ** 63 - 1)
_INT_TEXT = re.compile(r"-?[0-9]+")


def _parse(kind: str, text: str):
    """The value of one CSV field; ValueError if it is not a valid ``kind``."""
    if kind == "str":
        return text
    if kind == "bool":
        if text not in ("True", "False"):
            raise ValueError
        return text == "True"
    if kind == "float":
        value = math.nan if text == "" else float(text)
        if math.isinf(value):  # no record holds an infinity; an overflow is refused
            raise ValueError
        return value
    if not _INT_TEXT.fullmatch(text):  # "1.0", "1e3", "": what pandas writes for an int column with NaN
        raise ValueError
    value = int(text)
    if not _INT64[0] <= value <= _INT64[1]:
        raise ValueError
    return value


def _valid(kind: str, value) -> bool:
    """Whether a value in a frame is a valid ``kind`` (what _parse would give back)."""
    if isinstance(value, (bool, np.bool_)):
        return kind == "bool"
    if kind == "str":
        return isinstance(value, str)
    if kind == "float":
        return isinstance(value, (int, float, np.integer, np.floating)) and not math.isinf(value)
    if kind == "int":
        if isinstance(value, (float, np.floating)):  # an int column read with a NaN becomes float
            return math.isfinite(value) and float(value).is_integer() and _INT64[0] <= value <= _INT64[1]
        return isinstance(value, (int, np.integer)) and _INT64[0] <= value <= _INT64[1]
    return False


@dataclass(frozen=True)
class Values:
    """What a column may hold beyond its kind: a range (``low``..``high``,
    inclusive), a set of values (``one_of``), and whether a float may be empty
    (``required``: NaN refused). A value that parses but cannot be true (an
    accuracy of 1.83, a method renamed) is refused like a malformed one."""
    low: float | None = None
    high: float | None = None
    one_of: tuple | None = None
    required: bool = False

    def problem(self, value):
        """Why ``value`` is not allowed, or None."""
        if isinstance(value, float) and math.isnan(value):
            return "is empty, and this column may not be" if self.required else None
        if self.one_of is not None and value not in self.one_of:
            return f"is not one of {list(self.one_of)}"
        if self.low is not None and value < self.low or self.high is not None and value > self.high:
            return f"is outside [{self.low}, {self.high}]"
        return None


#: what every schema's columns hold by their names, whatever the paper: a fraction
#: for an accuracy, no negative time or count (see RecordSchema.values)
CONVENTIONS = ((re.compile(r"(.*_)?accuracy(_.*)?"), Values(0.0, 1.0)),
               (re.compile(r"(.*_)?seconds"), Values(low=0.0)),
               (re.compile(r"n_.*"), Values(low=0)))


@dataclass(frozen=True)
class RecordSchema:
    """The columns of a table's records: name -> kind (``KINDS``), and what
    they may hold: ``values``, column -> :class:`Values`, beside the
    ``CONVENTIONS`` that apply by name to every schema."""
    columns: dict
    values: dict = field(default_factory=dict)

    def __post_init__(self):
        bad = {c: k for c, k in self.columns.items() if k not in KINDS}
        if bad:
            raise ValueError(f"unknown column kinds {bad}; kinds are {KINDS}")
        unknown = [c for c in self.values if c not in self.columns]
        if unknown:
            raise ValueError(f"values given for columns the schema does not have: {unknown}")

    def allowed(self, column: str):
        """The :class:`Values` of a column: its own, else the convention its name follows."""
        if column in self.values:
            return self.values[column]
        if self.columns.get(column, "str") in ("int", "float"):
            return next((v for pattern, v in CONVENTIONS if pattern.fullmatch(column)), None)
        return None

    def _check_values(self, frame: pd.DataFrame, where) -> None:
        """ValueError naming the first value a column may not hold (``where(row)``: its place)."""
        for column in frame.columns:
            allowed = self.allowed(column)
            if allowed is None:
                continue
            for row, value in enumerate(frame[column]):
                problem = allowed.problem(value)
                if problem:
                    raise ValueError(f"{where(row)}, column {column!r}: {value!r} {problem}; refused")

    def parse(self, text: str, source) -> pd.DataFrame:
        """Records from CSV text; ValueError naming ``source`` and the line."""
        if not text:
            raise ValueError(f"{source}: empty records file")
        if not text.endswith("\n"):
            line = text.count("\n") + 1
            raise ValueError(f"{source}, line {line}: the file ends mid-line (cut short?); refused")
        rows = list(csv.reader(io.StringIO(text)))
        header = rows[0]
        missing = [c for c in self.columns if c not in header]
        # the provenance stamp is a column of every schema, absent from records made before it
        unknown = [c for c in header if c not in self.columns and c != PROVENANCE]
        if missing or unknown or len(set(header)) != len(header):
            raise ValueError(f"{source}, line 1: columns do not match the schema "
                             f"(missing {missing}, unknown {unknown}, header {header})")
        kinds = [self.columns.get(c, "str") for c in header]
        values = []
        for number, row in enumerate(rows[1:], start=2):
            broken = [name for name, field in zip(header, row) if "\n" in field or "\r" in field]
            if broken:  # no record holds one: a file cut inside a quoted field
                raise ValueError(f"{source}, line {number}, column {broken[0]!r}: a line break inside "
                                 f"a field (the file is cut short or hand-edited); refused")
            if len(row) != len(header):
                raise ValueError(f"{source}, line {number}: {len(row)} fields, expected {len(header)}")
            parsed = []
            for name, kind, field in zip(header, kinds, row):
                try:
                    parsed.append(_parse(kind, field))
                except ValueError:
                    raise ValueError(f"{source}, line {number}, column {name!r}: {field!r} "
                                     f"is not a valid {kind}") from None
            values.append(parsed)
        stamped = [PROVENANCE] if PROVENANCE in header else []
        frame = self._typed(pd.DataFrame(values, columns=header))[list(self.columns) + stamped]
        self._check_values(frame, lambda row: f"{source}, line {row + 2}")
        return frame

    def _typed(self, frame: pd.DataFrame) -> pd.DataFrame:
        types = {"str": object, "int": np.int64, "float": np.float64, "bool": bool}
        return frame.astype({c: types[self.columns.get(c, "str")] for c in frame.columns})

    def check(self, frame: pd.DataFrame, source) -> pd.DataFrame:
        """``frame`` as this schema's columns and types; ValueError naming the
        column and row of the first value that does not fit."""
        missing = [c for c in self.columns if c not in frame.columns]
        unknown = [c for c in frame.columns if c not in self.columns and c != PROVENANCE]
        if missing or unknown:
            raise ValueError(f"{source}: records do not match the schema (missing {missing}, unknown {unknown})")
        for name, kind in self.columns.items():
            ok = [_valid(kind, v) for v in frame[name]]
            if not all(ok):
                row = ok.index(False)
                raise ValueError(f"{source}: row {row}, column {name!r}: {frame[name].iloc[row]!r} "
                                 f"is not a valid {kind}")
        stamped = [PROVENANCE] if PROVENANCE in frame.columns else []
        if stamped and not all(isinstance(v, str) for v in frame[PROVENANCE]):
            raise ValueError(f"{source}: column {PROVENANCE!r} holds a value that is not text")
        typed = self._typed(frame[list(self.columns) + stamped])
        self._check_values(typed, lambda row: f"{source}: row {row}")
        return typed


def read_records(path, schema: RecordSchema) -> pd.DataFrame:
    """The records of one file, checked against ``schema`` (see the module docstring)."""
    return schema.parse(Path(path).read_text(encoding="utf-8"), path)


def read_all(paths, schema: RecordSchema) -> pd.DataFrame:
    """The records of several job files, in order, each checked."""
    frames = [read_records(p, schema) for p in paths]
    if not frames:
        return pd.DataFrame({c: pd.Series(dtype=object) for c in schema.columns})
    out = pd.concat(frames, ignore_index=True)
    if PROVENANCE in out:  # jobs run before the stamp beside jobs run after it
        out[PROVENANCE] = out[PROVENANCE].fillna("")
    return out


def to_csv_text(frame: pd.DataFrame, schema: RecordSchema, source) -> str:
    """CSV text of ``frame`` checked against ``schema`` (the format read back)."""
    return schema.check(frame, source).to_csv(index=False)


def write_records(path, frame: pd.DataFrame, schema: RecordSchema) -> None:
    """Check ``frame`` against ``schema`` and write it atomically to ``path``."""
    write_text_atomic(path, to_csv_text(frame, schema, path))


@dataclass(frozen=True)
class JobFiles:
    """Where the workflow's jobs of one table write their records.

    ``template`` is relative to the table's results folder, e.g.
    ``"{dataset}/fold{fold}.csv"``; ``keys`` maps each template field to the
    record column holding it (``{"dataset": "paper_dataset", "fold": "split_index"}``);
    ``rows`` is the number of records one job writes (None: not fixed), so that
    a job with records missing (a records file cut at a line boundary) is
    refused rather than restored; with ``per`` (a column, e.g. "split_index":
    a job that runs every split of a set), the number it writes for each value
    of that column. The workflow's rules and :meth:`restore` both use this one
    template.
    """
    template: str
    keys: dict
    rows: int | None = None
    unique: str | None = None   # the column naming a row within a job (e.g. "method"): no two alike
    per: str | None = None      # rows and unique count within each value of this column of a job

    def path(self, folder, **fields) -> Path:
        """The job file of ``fields``; a field without a value (None or NaN:
        GS-SVM has no C) is written ``none``."""
        def text(v):
            return "none" if v is None or (isinstance(v, float) and math.isnan(v)) else v
        return Path(folder) / self.template.format(**{k: text(v) for k, v in fields.items()})

    def check_jobs(self, records: pd.DataFrame, source="records") -> list:
        """``records`` grouped by job, ``[(key values, records), ...]``; a
        ValueError naming the first job whose number of records is not ``rows``
        (a records file cut at a line boundary, or edited), or with two rows
        alike in ``unique`` (a row duplicated in place of another; the line is
        the file's when ``records`` are one file's, in its order)."""
        within = [self.per] if self.per is not None else []
        if self.unique is not None:
            same = records.duplicated([*self.keys.values(), *within, self.unique], keep="first")
            if same.any():
                row = int(same.to_numpy().nonzero()[0][0])
                where = f" ({self.per} {records[self.per].iloc[row]})" if within else ""
                raise ValueError(f"{source}, line {row + 2}: a second {self.unique} "
                                 f"{records[self.unique].iloc[row]!r} row in job "
                                 f"{dict(zip(self.keys, (records[c].iloc[row] for c in self.keys.values())))}"
                                 f"{where} (records duplicated or edited); refused")
        jobs = list(records.groupby(list(self.keys.values()), sort=True, dropna=False))  # NaN keys too
        for values, job in jobs:
            if self.rows is None:
                continue
            counts = job.groupby(within, dropna=False).size() if within else pd.Series([len(job)])
            for value, count in counts.items():
                if count != self.rows:
                    part = f", {self.per} {value}," if within else ""
                    raise ValueError(f"job {dict(zip(self.keys, _as_tuple(values)))}{part} has {count} "
                                     f"records, expected {self.rows} (records cut short or edited)")
        return jobs

    def restore(self, records: pd.DataFrame, folder, schema: RecordSchema, source="records") -> list:
        """Write one file per job of ``records`` under ``folder``, byte for byte
        as the job writes it, unless that file exists (what this machine ran
        wins), each with the sidecar the table step checks it against
        (:func:`check_laid_back`). An existing file identical to what would be
        laid back (laid back before sidecars existed) gets its sidecar too.
        Every job is checked first (:meth:`check_jobs`): nothing is
        written from records with a job cut short. Returns the paths written."""
        jobs = self.check_jobs(records, source)
        written = []
        for values, job in jobs:
            fields = dict(zip(self.keys, _as_tuple(values)))
            path = self.path(folder, **fields)
            if not path.exists():
                write_laid_back(path, to_csv_text(job, schema, path))
                written.append(path)
            elif not laid_back_path(path).exists():
                text = to_csv_text(job, schema, path)
                if path.read_bytes() == text.encode("utf-8"):  # not rewritten: its time says it is up to date
                    mark_laid_back(path, text)
        return written


def _as_tuple(values):
    return values if isinstance(values, tuple) else (values,)


# The committed records' checksum: the table step writes the sha256 of every
# records file it writes beside it (``<records>.sha256``), and what reads
# committed records back (rebuild, resume, the workflow laying them back) checks
# it first, so a records file edited by hand (a flipped digit that still parses)
# is refused with its name.

def checksum_path(records_path) -> Path:
    return Path(f"{records_path}.sha256")


def checksum_text(records_path) -> str:
    """What the checksum file of ``records_path`` holds (sha256sum's format)."""
    return f"{_digest(Path(records_path).read_bytes())}  {Path(records_path).name}\n"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_checksum(records_path, checksum=None) -> None:
    """Record the sha256 of a records file (atomically) beside it, or in ``checksum``."""
    write_text_atomic(checksum or checksum_path(records_path), checksum_text(records_path))


def verify_checksum(records_path) -> None:
    """ValueError unless ``records_path`` has the sha256 its table step recorded; the
    message says what to do (restore the committed files, or run the table's jobs)."""
    recorded = checksum_path(records_path)
    if not recorded.exists():
        raise ValueError(f"{records_path}: no checksum beside it ({recorded.name}, written by the table "
                         "step): refused, as a file nobody can tell from a hand edit; restore both "
                         f"(git checkout -- {records_path} {recorded}) or run the table's jobs again")
    if recorded.read_text(encoding="utf-8") != checksum_text(records_path):
        raise ValueError(f"{records_path}: its sha256 is not the one its table step recorded in "
                         f"{recorded.name}: the file was edited after the table was built; refused; "
                         f"restore it (git checkout -- {records_path}) or run the table's jobs again")


# Job files laid back from committed records (JobFiles.restore) are the committed
# numbers; the table step writes whatever its job files hold into the records and a fresh
# checksum. So a laid-back file edited by hand would pass into the committed records as
# if measured. Each one gets a sidecar, ``<job file>.laid-back.sha256``, holding the sha256
# of the bytes laid back (written before the file, so that no laid-back file is ever
# without one); the table step refuses a job file whose sidecar does not match it
# (check_laid_back; the workflow checks too while it plans, before Snakemake removes the
# table's committed records to run its step). A job that runs writes its file anew and
# drops the sidecar (forget_laid_back), so a recomputed file is never mistaken for an
# edited one. Files laid back before sidecars existed have none: laying the records back
# again (resume, or the workflow when one of the table's files is missing) gives each one
# still identical to the committed records its sidecar; an edit made before that cannot
# be told from a run here.

LAID_BACK = ".laid-back.sha256"


def laid_back_path(job_path) -> Path:
    """The sidecar recording what was laid back as ``job_path``."""
    return Path(f"{job_path}{LAID_BACK}")


def mark_laid_back(job_path, text: str) -> None:
    """Record ``text`` as what is laid back as ``job_path`` (its sidecar, sha256sum's format)."""
    write_text_atomic(laid_back_path(job_path), f"{_digest(text.encode('utf-8'))}  {Path(job_path).name}\n")


def write_laid_back(job_path, text: str) -> None:
    """Lay ``text`` back as ``job_path``: its sidecar first, then the file (both atomically)."""
    mark_laid_back(job_path, text)
    write_text_atomic(job_path, text)


def forget_laid_back(job_path) -> None:
    """``job_path`` is about to be computed here: it is no longer a laid-back file."""
    laid_back_path(job_path).unlink(missing_ok=True)


def check_laid_back(paths, table_id) -> None:
    """ValueError naming the first of the job files ``paths`` that was laid back from
    the committed records of ``table_id`` and edited since, and what to do."""
    for path in paths:
        sidecar = laid_back_path(path)
        if not sidecar.exists() or not Path(path).exists():
            continue  # computed here (or laid back before sidecars existed), or still to come
        recorded = sidecar.read_text(encoding="utf-8").split(" ", 1)[0]
        if _digest(Path(path).read_bytes()) != recorded:
            raise ValueError(
                f"{path}: laid back from the committed records of {table_id}, and edited since (its "
                f"sha256 is not the one in {sidecar.name}); refused, not written into the records: "
                f"delete it to have it laid back again (or rerun with config recompute={table_id}), "
                "or restore it")
