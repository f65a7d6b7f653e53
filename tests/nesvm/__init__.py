"""The nesvm paper's experiment tests (repro/papers/nesvm/, workflow/rules/nesvm.smk)."""
