"""GS-SVM paper: speed records -> paper_tables/gs_svm_speed.{csv,md}."""
from repro._io import log_to
from repro.experiments import gs_svm_report

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    gs_svm_report.write_speed_table(snakemake.input, snakemake.output)  # noqa: F821
