"""GS-SVM paper: records -> Tables 1 and 2, published beside reproduced."""
import sys

from repro.experiments import gs_svm_report

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (the snakemake object)
gs_svm_report.write_tables(snakemake.input, snakemake.output, snakemake.params.protocol)  # noqa: F821
