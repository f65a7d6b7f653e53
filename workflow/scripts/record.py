"""One job of any paper's table: run it, write its records (checked, atomic).

params: table (a table id such as gs_svm_table2), profile; the job's fields
are its wildcards (repro.experiments.TableSpec.job_files names them)."""
from repro._io import log_to
from repro.experiments import write_job

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    params = snakemake.params  # noqa: F821
    write_job(params.table, params.profile, dict(snakemake.wildcards), snakemake.output[0])  # noqa: F821
