"""paper_tables/datasets.{md,csv}: every dataset of the papers and what is true of it on
every machine (repro.datasets.report); availability here is `python -m repro.datasets`.
Everything but the log is imported inside the log (see record.py)."""
from repro._io import log_to

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    from repro._io import write_text_atomic
    from repro.datasets.report import dataset_table, to_markdown

    table = dataset_table(snakemake.input)  # noqa: F821
    write_text_atomic(snakemake.output.csv, table.to_csv(index=False))  # noqa: F821
    write_text_atomic(snakemake.output.md, to_markdown(table))  # noqa: F821
