"""GS-SVM paper: Table 1's records -> published beside reproduced (CSV, Markdown)."""
from repro._io import log_to
from repro.experiments import gs_svm_report

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    gs_svm_report.write_table1(snakemake.input, snakemake.output, snakemake.params.protocol,  # noqa: F821
                                note=snakemake.params.note)  # noqa: F821
