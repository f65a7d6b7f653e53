"""GS-SVM paper: one table's records -> published beside reproduced (CSV, Markdown)."""
from repro._io import log_to
from repro.experiments import gs_svm_report

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    params = snakemake.params  # noqa: F821
    gs_svm_report.write_table(params.table, snakemake.input, snakemake.output,  # noqa: F821
                              params.protocol, note=params.note)
