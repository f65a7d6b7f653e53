"""GS-SVM paper: speed records -> paper_tables/gs_svm_speed.{csv,md}."""
import sys

from repro.experiments import gs_svm_report

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (the snakemake object)
gs_svm_report.write_speed_table(snakemake.input, snakemake.output)  # noqa: F821
