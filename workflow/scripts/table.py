"""Any paper's table: its job files -> records, published beside reproduced (CSV, Markdown).

input: jobs (the job files; the other input is the recompute stamp);
params: table (a table id), scale, skipped (config skip_datasets), note.
Everything but the log is imported inside the log (see record.py)."""
from repro._io import log_to

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    from repro.experiments import table_run, write_table

    params = snakemake.params  # noqa: F821
    run = table_run(params.table, params.scale, params.skipped, params.note)
    write_table(params.table, snakemake.input.jobs, snakemake.output, run)  # noqa: F821
