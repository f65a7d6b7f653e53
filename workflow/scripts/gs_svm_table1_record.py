"""One Table 1 fit of the GS-SVM paper: kernel evaluations of one method and C."""
from repro._io import log_to, write_text_atomic
from repro.experiments import gs_svm

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    w = snakemake.wildcards  # noqa: F821
    C = None if w.C == "none" else float(w.C)
    records = gs_svm.run_kernel_count(w.dataset, w.method, C)
    write_text_atomic(snakemake.output[0], records.to_csv(index=False))  # noqa: F821
