"""The Pegasos slides' tolerances: how close each reproduced number must come to the paper's, and why.

Two qualitative statements, read as numbers (``pages.QUALITATIVE``).
"""
from ...tolerances import Tolerance, register

TOLERANCES = {  # metric -> rule, filed under "pegasos" below
    "gap_ratio_over_k": Tolerance(
        "factor", 2.0,
        "'if kT is fixed the k does not play a significant role': at a fixed kT, the largest gap "
        "above the optimum over k within a factor 2 of the smallest (published reading: ratio 1); "
        "a factor 2 is read as not significant because one last iterate's gap is a single noisy "
        "draw, while a larger factor changes the iterations needed to reach it."),
    "lowest_over_0.1pct": Tolerance(
        "below", 0.0,
        "'the lowest error on the test set is achieved much earlier': the examples processed "
        "at the lowest test error over those to the 0.1 %-accurate solution, below 1 ('much' "
        "is not quantified; the ratio is shown)."),
}

register("pegasos", TOLERANCES)
