"""The ldm paper's experiment tests (repro/papers/ldm/, workflow/rules/ldm.smk)."""
