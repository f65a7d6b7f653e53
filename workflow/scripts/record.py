"""One job of any paper's table: run it, write its records (checked, atomic).

params: table (a table id such as gs_svm_table2), scale; the job's fields
are its wildcards (repro.experiments.TableSpec.job_files names them).
Everything but the log is imported inside the log, so an import that fails
leaves its traceback in the job's own log file."""
from repro._io import log_to

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    from repro.experiments import write_job

    params = snakemake.params  # noqa: F821
    write_job(params.table, params.scale, dict(snakemake.wildcards), snakemake.output[0])  # noqa: F821
