"""Speed of GS-SVM and SMO beside LIBSVM on one dataset (one process, interleaved)."""
import sys

from repro._io import write_text_atomic
from repro.experiments import gs_svm

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (the snakemake object)
records = gs_svm.run_speed(snakemake.wildcards.dataset, repeat=snakemake.params.repeat)  # noqa: F821
write_text_atomic(snakemake.output[0], records.to_csv(index=False))  # noqa: F821
