"""The index of the tables (paper_tables/README.md), counted from their CSVs.

input: every table's outputs (CSV, Markdown, figures); output: md.
Everything but the log is imported inside the log (see record.py)."""
from repro._io import log_to

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    from pathlib import Path

    from repro.experiments.index import write_index
    from repro.papers.catalog import SUMMARIES

    output = Path(snakemake.output.md)  # noqa: F821
    figures = sorted(str(f) for f in snakemake.input if str(f).endswith(".png"))  # noqa: F821
    # the agreement figures are this step's own outputs, drawn in write_index
    # below the full scale the index says it judges nothing against the papers
    write_index(output.parent, SUMMARIES, output, figures=figures, scale=snakemake.config["scale"])  # noqa: F821
