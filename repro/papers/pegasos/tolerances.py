"""The Pegasos slides' tolerances: how close each reproduced number must come to the paper's, and why.

Two qualitative statements, read as numbers (``pages.QUALITATIVE``).
"""
from ...tolerances import Tolerance, register

TOLERANCES = {  # metric -> rule, filed under "pegasos" below
    "gap_ratio_over_k": Tolerance(
        "factor", float("nan"),
        "'if kT is fixed the k does not play a significant role': at a fixed kT, the largest gap "
        "above the optimum over k (one seed's last iterate per k) over the smallest, against 1. "
        "The factor allowed is measured for each dataset and kT, not chosen: the same iterates "
        "refitted with 20 other seeds (jobs.Protocol.kt_seeds); at each k, every choice of as "
        "many of their gaps as there are k gives a ratio max / min, the cell's quantity when k "
        "is the same for all and only the draws differ; the cell's factor is the 95th percentile "
        "of those ratios (jobs.kt_seed_noise, pooled over the k). A cell "
        "beyond it is a spread over k that the draws alone give less than 5 % of the time.",
        measured="kt_noise", measured_as="the 95th percentile of the seeds' ratios"),
    "lowest_over_0.1pct": Tolerance(
        "below", 0.0,
        "'the lowest error on the test set is achieved much earlier': the examples processed "
        "at the lowest test error over those to the 0.1 %-accurate solution, below 1 ('much' "
        "is not quantified; the ratio is shown)."),
}

register("pegasos", TOLERANCES)
