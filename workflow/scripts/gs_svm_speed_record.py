"""Speed of GS-SVM and SMO beside LIBSVM on one dataset (one process, interleaved)."""
from repro._io import log_to, write_text_atomic
from repro.experiments import gs_svm

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    records = gs_svm.run_speed(snakemake.wildcards.dataset, repeat=snakemake.params.repeat)  # noqa: F821
    write_text_atomic(snakemake.output[0], records.to_csv(index=False))  # noqa: F821
