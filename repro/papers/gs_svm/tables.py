"""The GS-SVM paper's tables: for each, its records, its jobs and its page builder."""
from ...experiments import TableSpec
from ...experiments.records import JobFiles
from . import pages
from .jobs import (PAPER, PROTOCOLS, SPEED_METHODS, SPEED_SCHEMA, TABLE1_SCHEMA, TABLE2_SCHEMA,
                   run_kernel_count, run_speed, run_table2_job, speed_jobs, table1_jobs, table2_jobs)

TABLES = {spec.id: spec for spec in (
    TableSpec("gs_svm_table1", PAPER, TABLE1_SCHEMA,
              JobFiles("{dataset}/{method}_C{C}.csv", {"dataset": "paper_dataset", "method": "method", "C": "C"},
                       rows=1),
              jobs=table1_jobs, run=run_kernel_count, build=pages.table1, protocols=PROTOCOLS,
              cost=lambda job: job["fit_seconds"].sum()),
    TableSpec("gs_svm_table2", PAPER, TABLE2_SCHEMA,
              JobFiles("{dataset}/fold{fold}_{method}.csv",
                       {"dataset": "paper_dataset", "fold": "split_index", "method": "method"}, rows=1),
              jobs=table2_jobs, run=run_table2_job, build=pages.table2, protocols=PROTOCOLS, per_split=True,
              cost=lambda job: job["seconds"].sum()),
    TableSpec("gs_svm_speed", PAPER, SPEED_SCHEMA, JobFiles("{dataset}.csv", {"dataset": "dataset"}, rows=len(SPEED_METHODS),
                                                        unique="method"),
              jobs=speed_jobs, run=run_speed, build=pages.speed, protocols=PROTOCOLS,
              cost=lambda job: (job["fit_seconds"] * job["repeat"]).sum()),  # best-of: a lower bound
)}
