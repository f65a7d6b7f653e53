"""What a cluster must grant each experiment job, from what the job measured.

Every committed record holds its job's measured seconds (:attr:`TableSpec.cost`)
and, since jobs stamp their provenance (:mod:`.provenance`), the job's peak
resident memory. A cluster job asks for those times a stated margin
(:data:`TIME_MARGIN`, :data:`MEMORY_MARGIN`: a cluster node may be slower than
the machine that measured, and a job's memory varies a little with its
libraries), so the requests stay true when records are recomputed: they are
read from the committed records whenever Snakemake plans
(``workflow/rules/common.smk``, ``measured_resources``). A job with no
measurement (records not committed yet, or made before the memory stamp) gets
the workflow's stated defaults for unmeasured jobs (``config/config.yaml``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from . import provenance

TIME_MARGIN = 2.0      # runtime requested = 2 x the job's measured seconds ...
MIN_RUNTIME_MIN = 5    # ... and never under 5 minutes (start-up, a slow node's imports)
MEMORY_MARGIN = 1.5    # mem_mb requested = 1.5 x the job's measured peak ...
MIN_MEM_MB = 1000      # ... and never under 1 GB


@dataclass(frozen=True)
class Measured:
    """One job's measured cost: seconds (one core) and peak memory in MB (None: not stamped)."""
    seconds: float
    peak_mb: float | None


def committed_jobs(spec, records_dir="paper_tables"):
    """(job file relative to the table's job folder, the job's records) for
    every job of the table's committed records; nothing where none are committed."""
    from .records import read_records

    committed = Path(records_dir) / f"{spec.id}_records.csv"
    if not committed.exists():
        return
    for values, job in spec.job_files.check_jobs(read_records(committed, spec.schema)):
        fields = dict(zip(spec.job_files.keys, values if isinstance(values, tuple) else (values,)))
        yield spec.job_files.path("", **fields), job


#: (table id, records file, its mtime) -> measured(): the plan's cost lines and
#: every job's resources read one table's records once per planning
_READ: dict = {}


def measured(spec, records_dir="paper_tables") -> dict:
    """Job file -> :class:`Measured`, from the committed records; {} where the
    table has no cost function or no committed records."""
    if spec.cost is None:
        return {}
    committed = Path(records_dir) / f"{spec.id}_records.csv"
    key = (spec.id, str(committed), committed.stat().st_mtime_ns if committed.exists() else None)
    if key not in _READ:
        _READ[key] = _measure(spec, records_dir)
    return _READ[key]


def _measure(spec, records_dir) -> dict:
    out = {}
    for path, job in committed_jobs(spec, records_dir):
        peaks = [provenance.parse(s).get("peak_rss_mb") for s in job.get(provenance.COLUMN, [])]
        peaks = [float(p) for p in peaks if p]
        out[path] = Measured(float(spec.cost(job)), max(peaks) if peaks else None)
    return out


def runtime_minutes(seconds: float) -> int:
    """The runtime to request for a job measured at ``seconds``."""
    return max(MIN_RUNTIME_MIN, math.ceil(TIME_MARGIN * seconds / 60.0))


def mem_mb(peak_mb: float) -> int:
    """The memory to request for a job whose peak was ``peak_mb``."""
    return max(MIN_MEM_MB, math.ceil(MEMORY_MARGIN * peak_mb))


def table(specs, records_dir="paper_tables") -> pd.DataFrame:
    """Per table: jobs, how many are measured (time, memory), the longest
    measured job and the runtime and memory its requests range over."""
    rows = []
    for spec in specs:
        jobs = measured(spec, records_dir)
        seconds = [m.seconds for m in jobs.values()]
        peaks = [m.peak_mb for m in jobs.values() if m.peak_mb is not None]
        rows.append({"table": spec.id, "jobs measured": len(jobs), "with peak memory": len(peaks),
                     "longest job (s)": round(max(seconds), 1) if seconds else None,
                     "runtime requested (min)": (f"{runtime_minutes(min(seconds))} to "
                                                 f"{runtime_minutes(max(seconds))}") if seconds else "",
                     "mem_mb requested": f"{mem_mb(min(peaks))} to {mem_mb(max(peaks))}" if peaks else ""})
    return pd.DataFrame(rows)
