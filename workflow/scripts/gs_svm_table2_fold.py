"""One outer fold of the GS-SVM paper's Table 2 protocol, every method."""
from repro._io import log_to, write_text_atomic
from repro.experiments import gs_svm

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    protocol = gs_svm.PROTOCOLS[snakemake.params.protocol]  # noqa: F821
    w = snakemake.wildcards  # noqa: F821
    records = gs_svm.run_cv_fold(w.dataset, int(w.fold), protocol)
    write_text_atomic(snakemake.output[0], records.to_csv(index=False))  # noqa: F821
