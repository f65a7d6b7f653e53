"""The pegasos paper's experiment tests (repro/papers/pegasos/, workflow/rules/pegasos.smk)."""
