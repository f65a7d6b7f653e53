"""Why the Pegasos slides' claims, read as numbers, miss (the convergence page).

Registered with the layer's registry (:mod:`repro.explanations`, which says what an
entry is) when the paper's package is imported (``__init__.py``).
"""
from __future__ import annotations

import numpy as np

from ...explanations import Explanation, register

# Context of pegasos_convergence: records, kt (jobs.kt_spread),
# kt_gaps (jobs.kt_gaps), test_error (jobs.test_error_course).


def _kt_row(cell, ctx):
    spread = ctx["kt"]
    kt = float(cell.method[len("Pegasos (kT="):-1])
    return spread[(spread.dataset == cell.dataset) & np.isclose(spread.kT, kt)].iloc[0], kt


def _noise_row(cell, ctx):
    """The kT row's measurement over the other seeds (jobs.kt_seed_noise)."""
    noise = ctx["kt_seed_noise"]
    kt = float(cell.method[len("Pegasos (kT="):-1])
    return noise[(noise.dataset == cell.dataset) & np.isclose(noise.kT, kt)].iloc[0]


def _medians(row) -> dict:
    """k -> the median gap (%) over the other seeds."""
    prefix = "median_gap_percent_k"
    return {int(c[len(prefix):]): row[c] for c in row.index if c.startswith(prefix) and np.isfinite(row[c])}


def _kt_facts(cell, ctx):
    row, kt = _kt_row(cell, ctx)
    g = ctx["kt_gaps"]
    g = g[(g.dataset == cell.dataset) & np.isclose(g.kT_target, kt)]
    lam = float(ctx["records"]["lambda_"].iat[0])
    worst = g[g.batch_size == row.k_largest_gap].iloc[0]
    noise = _noise_row(cell, ctx)
    return {"kt": f"{kt:.0e}", "worst": int(row.k_largest_gap),
            "gaps": ", ".join(f"{100 * r.gap:.3g} % (k = {int(r.batch_size)}, T = {int(r.iteration)})"
                              for r in g.itertuples()),
            "T": int(worst.iteration), "lam_T": lam * worst.iteration,
            "seeds": int(noise.seeds), "noise": noise.noise_factor,
            "medians": ", ".join(f"{v:.3g} % (k = {k})" for k, v in _medians(noise).items())}


def _kt_fewest_iterations(cell, ctx):
    """The largest gap is the largest k's, the one with the fewest iterations,
    both for the claim's seed and in the median over the other seeds (so not a
    draw of one seed)."""
    row, kt = _kt_row(cell, ctx)
    g = ctx["kt_gaps"]
    largest_k = g[(g.dataset == cell.dataset) & np.isclose(g.kT_target, kt)].batch_size.max()
    medians = _medians(_noise_row(cell, ctx))
    return row.k_largest_gap == largest_k and bool(medians) and max(medians, key=medians.get) == largest_k


def _kt_rule(fewest: bool, reason: str, evidence: str) -> Explanation:
    """The rule over a kT row's gap ratio for one answer to "is the largest gap
    the largest k's?": ``fewest`` (explained by the number of iterations) or not
    (a finding that does not explain the miss)."""
    return Explanation(
        reason=reason, evidence=evidence, facts=_kt_facts, explained=fewest,
        when=lambda cell, ctx: cell.metric == "gap_ratio_over_k" and _kt_fewest_iterations(cell, ctx) == fewest,
        condition=f"the largest gap at this kT is {'' if fewest else 'not '}the largest k's, for the "
                  f"claim's seed and in the median over the other seeds")


_KT_FEWEST = _kt_rule(
    True,
    "at kT = {kt} the largest gap belongs to the largest k, which takes the fewest iterations: "
    "{gaps}. With the step 1/(lambda t), the slides' update makes w_(T+1) (projection aside) the "
    "average over the T iterations of (1/(lambda k)) sum of y x over the violators: its noise falls "
    "with kT, but the terms of the early, poor iterates weigh 1/T, so at a fixed kT fewer "
    "iterations leave more of that start-up error (k = {worst}: T = {T}, lambda T = {lam_T:.3g}); "
    "k matters until T is large. Not a draw of one seed: over {seeds} other seeds the median gap "
    "is {medians}, and the draws alone give ratios up to {noise:.3g} (the tolerance)",
    "'The kT experiment' on this page (gap per k and kT) and the gap against examples in the figure")

_KT_OTHER = _kt_rule(
    False,
    "not explained by the number of iterations: at kT = {kt} the largest gap is k = {worst}'s, not "
    "the largest k's, for the claim's seed or in the median over {seeds} other seeds: {gaps}; "
    "over those seeds the median gap is {medians}. The draws alone give ratios up to {noise:.3g} "
    "(the tolerance), so the spread over k is more than the draws, and which k it favours is "
    "not the number of iterations",
    "'The kT experiment' on this page and the gap against examples in the figure")


def _test_error_facts(cell, ctx):
    course = ctx["test_error"].set_index(["dataset", "method"]).loc[(cell.dataset, cell.method)]
    rec = ctx["records"]
    n_test = int(rec.loc[rec.dataset == cell.dataset, "n_test"].iat[0])
    p = course.lowest_test_error_percent / 100
    at = course["test_error_percent_at_1pct"]
    return {"lowest": course.lowest_test_error_percent, "at_lowest": int(course.examples_at_lowest),
            "at_1pct": at, "n_test": n_test, "se": 100 * np.sqrt(p * (1 - p) / n_test),
            "rows": (at - course.lowest_test_error_percent) / 100 * n_test}


def _test_error_flat(cell, ctx):
    """From the first point within 1 % on, the test error is within one binomial
    standard error of its lowest value."""
    f = _test_error_facts(cell, ctx)
    return bool(np.isfinite(f["at_1pct"]) and f["at_1pct"] - f["lowest"] <= f["se"])


_TEST_ERROR_FLAT = Explanation(
    reason="the test error is flat once the objective is within 1 % of the optimum: there it is "
           "{at_1pct:.3f} %, {rows:.0f} of {n_test} test examples above its lowest value {lowest:.3f} % "
           "(reached at {at_lowest} examples), less than one binomial standard error of a test set of "
           "that size ({se:.2f} points); where along the flat part the lowest value falls is noise, so "
           "the lowest error is reached early in the sense that matters, though not by this ratio",
    evidence="'Test error against iterations' on this page and the figure's lower panels",
    when=lambda cell, ctx: cell.metric == "lowest_over_0.1pct" and _test_error_flat(cell, ctx),
    condition="the test error at the first point within 1 % is within one standard error of the lowest",
    facts=_test_error_facts)


EXPLANATIONS = {
    # Pegasos: the kT rows (method 'Pegasos (kT=1e+06)', jobs.kt_label) and the
    # test-error rows (method 'Pegasos (k=8)'); rules: each covers the cells where it holds
    **{("pegasos_convergence", None, f"Pegasos (kT={kt:.0e})"): _KT_FEWEST for kt in (1e5, 1e6, 1e7)},
    **{("pegasos_convergence", None, f"Pegasos (k={k})"): _TEST_ERROR_FLAT for k in (1, 8, 64)},
    ("pegasos_convergence", None, None): _KT_OTHER,
}

register("pegasos", EXPLANATIONS)
