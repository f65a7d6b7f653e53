"""The lsvm paper's experiment tests (repro/papers/lsvm/, workflow/rules/lsvm.smk)."""
