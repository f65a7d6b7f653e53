"""Any paper's table: its job files -> records, published beside reproduced (CSV, Markdown).

params: table (a table id), profile, skipped (config skip_datasets), note."""
from repro._io import log_to
from repro.experiments import table_run, write_table

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    params = snakemake.params  # noqa: F821
    run = table_run(params.table, params.profile, params.skipped, params.note)
    write_table(params.table, snakemake.input, snakemake.output, run)  # noqa: F821
