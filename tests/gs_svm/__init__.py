"""The gs_svm paper's experiment tests (repro/papers/gs_svm/, workflow/rules/gs_svm.smk)."""
