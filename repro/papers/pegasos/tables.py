"""The Pegasos slides' table: its records, its jobs and its page builder."""
from ...experiments import TableSpec
from ...experiments.records import JobFiles
from . import pages
from .jobs import PAPER, PROTOCOLS, SCHEMA, jobs, run

TABLES = {spec.id: spec for spec in (
    TableSpec("pegasos_convergence", PAPER, SCHEMA,
              JobFiles("{dataset}/{job}.csv", {"dataset": "dataset", "job": "job"}),
              jobs=jobs, run=run, build=pages.convergence, protocols=PROTOCOLS,
              cost=lambda job: job["job_seconds"].iat[0]),
)}
