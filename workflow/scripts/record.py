"""One job of any paper's table: run it, write its records (checked, atomic).

params: table (a table id such as gs_svm_table2), scale; the job's fields
are its wildcards (the table's TableSpec.job_files names them; repro.papers.catalog).
Everything but the log is imported inside the log, so an import that fails
leaves its traceback in the job's own log file."""
from repro._io import log_to

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    from repro.experiments import write_job
    from repro.papers.catalog import table_spec

    params = snakemake.params  # noqa: F821
    write_job(table_spec(params.table), params.scale, dict(snakemake.wildcards), snakemake.output[0],  # noqa: F821
              threads=snakemake.threads)  # noqa: F821
