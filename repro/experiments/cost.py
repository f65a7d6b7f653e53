"""What a workflow run will cost, from the measured times in the committed records.

Every experiment job writes its own measured seconds into its records
(:attr:`TableSpec.cost` reads them back), and the committed records of the
full scale (``paper_tables/<table id>_records.csv``) hold them for every job
run so far. The workflow (``workflow/rules/plan.smk``) prints, before it runs,
what the jobs it plans cost in one core's time and in wall time at the given
number of cores; the quick scale, which commits no records, has its whole run
measured in ``workflow/resources/measured.yaml``.

The wall time is that of a longest-first schedule of the measured jobs on the
cores: jobs that take every core (timing jobs) run alone, the others fill the
cores. It counts the jobs' own measured seconds plus a measured start-up per
job (a new Python process importing the package), not Snakemake's own time.

On a cluster (a non-local executor: the SLURM profile) no local wall time
holds: :func:`cluster_summary` gives what a cluster user needs instead, the
jobs submitted, their CPU-hours (each job's measured seconds times the cores it
asks for), the longest job and the largest memory request.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from .progress import duration


@dataclass
class Job:
    """One planned job: its seconds as measured (None: not measured), whether it
    takes every core, and the table it belongs to (None: a table or data step).
    On a cluster: whether it runs on the submitting host (``local``: a table,
    data or build step) or is submitted, asking for ``cores``, ``runtime_min``
    and ``mem_mb`` (None: not known); ``name`` says which job it is."""
    seconds: float | None
    every_core: bool = False
    table: str | None = None
    local: bool = False
    cores: int = 1
    runtime_min: int | None = None
    mem_mb: int | None = None
    name: str = ""


@dataclass
class Cost:
    """The cost of a set of jobs: counts, measured seconds of one core, and the
    wall time of their schedule on ``cores`` cores."""
    jobs: list = field(default_factory=list)

    @property
    def measured(self) -> float:
        return sum(j.seconds for j in self.jobs if j.seconds is not None)

    @property
    def unmeasured(self) -> int:
        """Experiment jobs with no measured seconds (table and data steps have none to measure)."""
        return sum(j.seconds is None and j.table is not None for j in self.jobs)

    def cpu_seconds(self, start_s: float) -> float:
        """One core's time: the measured seconds, and ``start_s`` for every job."""
        return self.measured + start_s * len(self.jobs)

    def wall_seconds(self, cores: int, start_s: float) -> float:
        """Longest-first schedule on ``cores`` cores; every-core jobs alone."""
        cores = max(1, int(cores))
        alone = sum((j.seconds or 0.0) + start_s for j in self.jobs if j.every_core)
        shared = sorted(((j.seconds or 0.0) + start_s for j in self.jobs if not j.every_core), reverse=True)
        finish = [0.0] * min(cores, max(1, len(shared)))
        for seconds in shared:
            heapq.heapreplace(finish, finish[0] + seconds)
        return alone + max(finish)


def measured_seconds(spec, records_dir="paper_tables") -> dict:
    """Job file (relative to the table's job folder) -> its measured seconds,
    from the table's committed records; {} where none are committed."""
    from .resources import measured

    return {path: m.seconds for path, m in measured(spec, records_dir).items()}


def hours(seconds: float) -> str:
    """CPU time as the README states it: hours from 2 hours up, else minutes or seconds."""
    return f"{seconds / 3600:.1f} hours" if seconds >= 7200 else duration(seconds)


@dataclass
class ClusterSummary:
    """What a planned run asks of a cluster (:func:`cluster_summary`)."""
    submitted: int          # jobs submitted (the experiment jobs)
    local: int              # steps run on the submitting host (table, data, build: localrule)
    cpu_seconds: float      # sum of (measured seconds + start) x cores asked, measured jobs
    unmeasured: int         # submitted jobs with no measured seconds
    longest: Job | None     # the measured job of most seconds
    largest_memory: Job | None  # the job asking for the most memory


def cluster_summary(cost: Cost, start_s: float) -> ClusterSummary:
    """The submitted jobs of ``cost`` (not ``local``) as a cluster charges them:
    CPU time is each measured job's seconds and its start-up times the cores it
    asks for; unmeasured jobs are counted apart."""
    submitted = [j for j in cost.jobs if not j.local]
    measured = [j for j in submitted if j.seconds is not None]
    asking = [j for j in submitted if j.mem_mb is not None]
    return ClusterSummary(
        submitted=len(submitted),
        local=len(cost.jobs) - len(submitted),
        cpu_seconds=sum((j.seconds + start_s) * j.cores for j in measured),
        unmeasured=len(submitted) - len(measured),
        longest=max(measured, key=lambda j: j.seconds, default=None),
        largest_memory=max(asking, key=lambda j: j.mem_mb, default=None),
    )


def cpu_hours(seconds: float) -> str:
    """CPU time as a cluster charges it: CPU-hours, two decimals under 10."""
    h = seconds / 3600
    return f"{h:.1f} CPU-hours" if h >= 10 else f"{h:.2f} CPU-hours"
