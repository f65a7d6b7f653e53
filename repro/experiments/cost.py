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
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from .progress import duration


@dataclass
class Job:
    """One planned job: its seconds as measured (None: not measured), whether it
    takes every core, and the table it belongs to (None: a table or data step)."""
    seconds: float | None
    every_core: bool = False
    table: str | None = None


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
