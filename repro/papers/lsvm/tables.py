"""The LSVM paper's tables: for each, its records, its jobs and its page builder."""
from ...experiments import TableSpec
from ...experiments.records import JobFiles
from . import pages
from .jobs import (ACCURACY_METHODS, ACCURACY_SCHEMA, CONVERGENCE_SCHEMA, PAPER, PROTOCOLS, SCALING_METHODS,
                   SCALING_SCHEMA, accuracy_jobs, convergence_jobs, run_accuracy_fold, run_convergence,
                   run_scaling, scaling_jobs)

TABLES = {spec.id: spec for spec in (
    TableSpec("lsvm_convergence", PAPER, CONVERGENCE_SCHEMA,
              JobFiles("{dataset}/nu{nu_times_m}_over_m.csv", {"dataset": "dataset", "nu_times_m": "nu_times_m"},
                       rows=None),
              jobs=convergence_jobs, run=run_convergence, build=pages.convergence, protocols=PROTOCOLS,
              cost=lambda job: job["seconds"].iat[0]),
    TableSpec("lsvm_scaling", PAPER, SCALING_SCHEMA,
              JobFiles("m{m}.csv", {"m": "m"}, rows=len(SCALING_METHODS)),
              jobs=scaling_jobs, run=run_scaling, build=pages.scaling, protocols=PROTOCOLS,
              # the whole job: the fits are a fraction of it (data, LIBLINEAR's problem)
              cost=lambda job: job["job_seconds"].iat[0]),
    TableSpec("lsvm_accuracy", PAPER, ACCURACY_SCHEMA,
              JobFiles("{dataset}/fold{fold}.csv", {"dataset": "paper_dataset", "fold": "split_index"},
                       rows=len(ACCURACY_METHODS), unique="method"),
              jobs=accuracy_jobs, run=run_accuracy_fold, build=pages.accuracy, protocols=PROTOCOLS,
              per_split=True, cost=lambda job: job["seconds"].sum()),
)}
