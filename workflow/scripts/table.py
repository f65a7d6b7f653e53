"""Any paper's table: its job files -> records, published beside reproduced (CSV, Markdown).

input: jobs (the job files; the other input is the recompute stamp);
params: table (a table id), scale, skipped (config skip_datasets), note.
Everything but the log is imported inside the log (see record.py)."""
from repro._io import log_to

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    from repro.experiments import table_run, write_table
    from repro.papers.catalog import table_spec

    params = snakemake.params  # noqa: F821
    spec = table_spec(params.table)
    run = table_run(spec, params.scale, params.skipped, params.note)
    write_table(spec, snakemake.input.jobs, snakemake.output, run)  # noqa: F821
