"""The LDM paper's tables and figures: for each, its records, its jobs and its page builder.

Tables 2-4 (accuracy over random partitions) run in :mod:`.jobs` and are built
by :mod:`.pages`; Table 1 (sizes) and Figures 1-3 (margins, CPU time, parameter
influence), with their own protocols and records, run in :mod:`.figure_jobs`
and are built by :mod:`.figure_pages`.
"""
from ...experiments import TableSpec
from ...experiments.records import JobFiles
from . import figure_jobs as F
from . import figure_pages
from . import jobs as L
from . import pages


def _accuracy_spec(table: str, kernel: str, build, protocols) -> TableSpec:
    """Table 4 (large sets): one job per set and partition (a minute or more
    each). Tables 2 and 3: one job per set, every partition (seconds each:
    one process per partition cost more in start-ups than most partitions
    took), with the same records, one per partition and method."""
    methods = len(protocols["full"].methods)
    if kernel == "large":
        files = JobFiles("{dataset}/partition{partition}.csv",
                         {"dataset": "paper_dataset", "partition": "split_index"}, rows=methods, unique="method")
        jobs = L.jobs

        def run(protocol, dataset, partition):
            return L.run_partition(protocol, kernel, dataset, partition)
    else:
        files = JobFiles("{dataset}.csv", {"dataset": "paper_dataset"}, rows=methods, unique="method",
                         per="split_index")
        jobs = L.set_jobs

        def run(protocol, dataset):
            return L.run_set(protocol, kernel, dataset)
    return TableSpec(f"ldm_{table}", L.PAPER, L.SCHEMA, files, jobs=jobs, run=run, build=build,
                     protocols=protocols, per_split=kernel == "large", cost=lambda job: job["seconds"].sum())


TABLES = {spec.id: spec for spec in (
    _accuracy_spec("table2", "linear", pages.table2, L.PROTOCOLS),
    _accuracy_spec("table3", "rbf", pages.table3, L.PROTOCOLS),
    _accuracy_spec("table4", "large", pages.table4, L.LARGE_PROTOCOLS),
    TableSpec("ldm_table1", L.PAPER, F.SIZE_SCHEMA,
              JobFiles("{dataset}.csv", {"dataset": "paper_dataset"}, rows=1),
              jobs=L.set_jobs, run=F.run_sizes, build=figure_pages.table1,
              cost=lambda job: job["seconds"].sum(), protocols=F.SIZE_PROTOCOLS),
    TableSpec("ldm_figure1", L.PAPER, F.FIGURE1_SCHEMA,
              JobFiles("{dataset}/{kernel}.csv", {"dataset": "paper_dataset", "kernel": "kernel"},
                       rows=len(F.FIGURE1_METHODS) * F.N_QUANTILES),
              jobs=F.per_kernel_jobs, run=F.run_margins, build=figure_pages.figure1,
              cost=lambda job: job.groupby("method")["seconds"].first().sum(),
              protocols=F.FIGURE_PROTOCOLS),
    TableSpec("ldm_figure2", L.PAPER, F.TIMING_SCHEMA,
              JobFiles("{dataset}.csv", {"dataset": "paper_dataset"}, rows=len(F.TIMING_METHODS)),
              jobs=L.set_jobs, run=F.run_timing, build=figure_pages.figure2,
              cost=lambda job: job["seconds"].sum() * job["repeat"].iloc[0],
              protocols=F.TIMING_PROTOCOLS),
    TableSpec("ldm_figure3", L.PAPER, F.FIGURE3_SCHEMA,
              JobFiles("{dataset}/{kernel}.csv", {"dataset": "paper_dataset", "kernel": "kernel"}),
              jobs=F.per_kernel_jobs, run=F.run_sensitivity, build=figure_pages.figure3,
              cost=lambda job: job["seconds"].iloc[0], protocols=F.FIGURE_PROTOCOLS),
)}
