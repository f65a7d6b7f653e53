"""The NESVM paper's tables: for each, its records, its jobs and its page builder.

The timing experiments (Figs. 3 and 4, the image sets) run in :mod:`.jobs`;
Theorem 4 and the printed readings, small jobs with their own protocols, in
:mod:`.theory_jobs`; their pages are built by :mod:`.pages` and :mod:`.theory_pages`.
"""
from ...experiments import TableSpec
from ...experiments.records import JobFiles
from . import jobs as N
from . import pages, theory_pages
from . import theory_jobs as T


def _job_cost(job):
    return job["job_seconds"].iat[0]


TABLES = {spec.id: spec for spec in (
    TableSpec("nesvm_time", N.PAPER, N.TIME_SCHEMA,
              JobFiles("set{set_id}/C{C}.csv", {"set_id": "set_id", "C": "C"}, rows=len(N.METHODS)),
              jobs=N.jobs, run=N.run, build=pages.time_vs_c_and_size, protocols=N.PROTOCOLS,
              # per set: a run longer than a session is committed set by set
              # (config partial_datasets, registry names)
              per_split=True, cost=_job_cost),
    TableSpec("nesvm_images", N.PAPER, N.IMAGE_SCHEMA,
              JobFiles("{dataset}/C{C}.csv", {"dataset": "dataset", "C": "C"}, rows=len(N.IMAGE_METHODS)),
              jobs=N.image_jobs, run=N.run_images, build=pages.images, protocols=N.IMAGE_PROTOCOLS,
              cost=_job_cost),
    # a convergence job's row count is the number of distinct log-spaced k it kept: not fixed
    TableSpec("nesvm_convergence", N.PAPER, T.CONVERGENCE_SCHEMA, JobFiles("{dataset}.csv", {"dataset": "dataset"}),
              jobs=T.convergence_jobs, run=T.run_convergence, build=theory_pages.convergence,
              protocols=T.CONVERGENCE_PROTOCOLS, cost=_job_cost),
    TableSpec("nesvm_readings", N.PAPER, T.READINGS_SCHEMA,
              JobFiles("{reading}/mu{mu}.csv", {"reading": "reading", "mu": "mu"}, rows=2),
              jobs=T.reading_jobs, run=T.run_reading, build=theory_pages.readings,
              protocols=T.READINGS_PROTOCOLS, cost=_job_cost),
)}
