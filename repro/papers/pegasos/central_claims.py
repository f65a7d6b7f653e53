"""The Pegasos slides' central claims, each judged by the statistic it is about
(:mod:`repro.experiments.claims`).

The slides make three measured claims on RCV1's CCAT category (iterations and
time to 0.3 % and 0.1 % above the optimum, SVM-Light's hours), which cannot
be had here, and two statements about the algorithm that our runs on other
sets can test: the lowest test error comes much earlier than an accurate
solution, and at a fixed kT the batch size k plays no significant role. The
slides make no other claim about k (in particular none that a larger batch
lowers or does not lower the objective reached); none is judged here.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments.claims import (FAILS, HOLDS, UNRESOLVED, UNTESTABLE, Judgement, PaperClaim, Source,
                                   fmt_range)
from . import jobs as PG

PAPER_FILE = "pegasos_slides.txt"


def _records(evidence) -> pd.DataFrame:
    """The convergence records with empty text cells as "" (as the page reads them)."""
    records = evidence.records("pegasos_convergence")
    return records.assign(note=records["note"].fillna(""))


# ------------------------------------------------------------------ the CCAT claims
# metric of the table -> how the claim is judged where CCAT ran: (the
# comparison, its words). The slides state neither k nor lambda, so a CCAT
# run is read at the k that does best; seconds are not judged across
# machines. "Roughly 4 hours" is read as within a factor of 2 of 4 hours.
CCAT_RULES = {
    "iterations_to_0.3pct": (lambda ours, paper: ours <= paper, "at most the slides' iterations at some k"),
    "iterations_to_0.1pct": (lambda ours, paper: ours <= paper, "at most the slides' iterations at some k"),
    "cpu_hours_to_optimum": (lambda ours, paper: paper / 2 <= ours <= 2 * paper, "within a factor of 2"),
}


def _other_data(table: pd.DataFrame, metric: str) -> str:
    """Our values of ``metric`` on the sets we have, per set (a range over k), as a phrase."""
    rows = table[(table["metric"] == metric) & (table["dataset"] != PG.CCAT) & table["reproduced"].notna()]
    scale = {"cpu_hours_to_optimum": 3600.0}.get(metric, 1.0)  # hours shown as seconds: they are tiny
    unit = " s" if metric.startswith(("seconds", "cpu_hours")) else ""
    return "; ".join(f"{d} {fmt_range(g['reproduced'] * scale)}{unit}" for d, g in rows.groupby("dataset", sort=False))


def ccat_judge(metric: str):
    """Rule (:data:`CCAT_RULES`): where the table has our value of ``metric``
    on CCAT, the claim holds when the best k's value satisfies the rule and
    does not hold otherwise; where CCAT could not be run, it is not testable
    here and our values on the other sets are given as context only."""
    def judge(evidence) -> Judgement:
        table = evidence.table("pegasos_convergence")
        rows = table[(table["dataset"] == PG.CCAT) & (table["metric"] == metric)]
        paper = float(rows["published"].iat[0]) if len(rows) else np.nan
        ours = rows["reproduced"].dropna()
        context = _other_data(table, metric)
        if ours.empty:
            why = (rows["verdict"].iat[0] if len(rows) else "not run")
            return Judgement("—", UNTESTABLE,
                             f"The claim is about RCV1's CCAT category, which could not be had here ({why}). "
                             f"On the sets we have, which are other data of other sizes, our values are: "
                             f"{context or 'none'}; they are context, not a test of the slides' numbers.")
        rule, words = CCAT_RULES[metric]
        best = float(ours.min())
        verdict = HOLDS if rule(best, paper) else FAILS
        return Judgement(f"{best:.4g} on CCAT", verdict,
                         f"On CCAT our best value over k is {best:.4g} against the slides' {paper:g}; the rule is "
                         f"{words}, so the claim {'holds' if verdict == HOLDS else 'does not hold'}.")
    return judge


def judge_seconds(evidence) -> Judgement:
    """The 9.2 CPU seconds are machine time on the slides' machine: not
    judged across machines. Not testable here where CCAT did not run; where
    it ran, not resolved (seconds of other machines are not comparable)."""
    table = evidence.table("pegasos_convergence")
    rows = table[(table["dataset"] == PG.CCAT) & (table["metric"] == "seconds_to_0.3pct")]
    context = _other_data(table, "seconds_to_0.3pct")
    if rows["reproduced"].notna().any():
        return Judgement(f"{rows['reproduced'].min():.3g} s on CCAT", UNRESOLVED,
                         "CPU seconds measured on another machine, by other code, are not comparable with the "
                         "slides' 9.2 s; the iteration counts are the claim's testable part.")
    return Judgement("—", UNTESTABLE,
                     "The claim is about RCV1's CCAT category, which could not be had here. On the sets we have, "
                     f"Pegasos reaches 0.3 % above the optimum in {context} (range over the batch sizes k), on other "
                     "data and another machine, so they are context, not a test of the slides' 9.2 s.")


# ------------------------------------------------------------------ the test error
# "Much earlier" is not quantified by the slides; it is read here as at most
# half the examples processed to the 0.1 %-accurate solution. A test error is
# taken as the lowest once it is within one binomial standard error of the
# run's lowest (a test set of n examples cannot tell smaller differences).
MUCH_EARLIER = 0.5


def test_error_runs(records: pd.DataFrame) -> pd.DataFrame:
    """Per Pegasos run (dataset, k): the examples at the first iterate whose
    test error is within one binomial standard error of the run's lowest, the
    examples to 0.1 % above the optimum (or the last iterate's, ``reached``
    False: then the ratio is an upper bound), and their ratio."""
    rows = []
    traces = PG.traces(records)
    for (dataset, k), g in traces[traces["method"] == "Pegasos"].groupby(["dataset", "batch_size"], sort=False):
        n_test = int(g["n_test"].iat[0])
        low = g["test_error"].min()
        se = np.sqrt(low * (1 - low) / n_test)
        first_low = g.loc[g["test_error"] <= low + se, "examples"].iat[0]
        accurate = g.loc[g["gap"] <= min(PG.THRESHOLDS), "examples"]
        reached = len(accurate) > 0
        denominator = accurate.iat[0] if reached else g["examples"].iat[-1]
        rows.append({"dataset": dataset, "k": int(k), "examples_at_lowest": first_low,
                     "examples_to_0.1pct": denominator, "reached": reached,
                     "ratio": first_low / denominator})
    return pd.DataFrame(rows).sort_values(["dataset", "k"], kind="stable").reset_index(drop=True)


def judge_test_error(evidence) -> Judgement:
    """Rule: a run supports the claim when its ratio (examples at the lowest
    test error, to within one standard error, over examples to 0.1 %) is at
    most MUCH_EARLIER, and contradicts it when above; a run that never reached
    0.1 % and whose bound is above MUCH_EARLIER is unresolved. The claim holds
    when every run supports it, does not hold when a run contradicts it, and is
    not resolved otherwise."""
    runs = test_error_runs(_records(evidence))
    if runs.empty:
        return Judgement("—", UNRESOLVED, "No Pegasos trace with a test error is in the records.")
    supports = runs["ratio"] <= MUCH_EARLIER
    contradicts = ~supports & runs["reached"]
    shown = "; ".join(f"{r.dataset} k={r.k} {r.ratio:.2f}{'' if r.reached else ' (bound)'}" for r in runs.itertuples())
    ours = f"ratio at most {MUCH_EARLIER:g} on {int(supports.sum())} of {len(runs)} runs"
    verdict = FAILS if contradicts.any() else HOLDS if supports.all() else UNRESOLVED
    late = runs[contradicts]
    why = (f"Per Pegasos run (dataset, batch size k), the examples processed when the test error first comes within "
           f"one binomial standard error of its lowest value, over those to the 0.1 %-accurate solution: {shown} "
           f"('bound': 0.1 % not reached, so the ratio is an upper bound). The slides do not quantify 'much "
           f"earlier'; it is read as at most {MUCH_EARLIER:g}.")
    if verdict == FAILS:
        why += (f" On {', '.join(f'{r.dataset} k={r.k}' for r in late.itertuples())} the lowest test error comes "
                "later than that, so the claim does not hold on every run.")
    elif verdict == HOLDS:
        why += " Every run reaches its lowest test error that early."
    else:
        why += " Some runs did not reach 0.1 % and their bound is above the threshold, so they cannot decide."
    why += " These are our sets (a9a, w8a, ijcnn1 and a stand-in for CCAT), not the slides' CCAT."
    return Judgement(ours, verdict, why)


# ------------------------------------------------------------------ the kT experiment
# Rule, fixed before the values were read. A cell is one (dataset, kT); its
# statistic is the largest over the smallest, across k, of the median gap
# above the optimum over every seed run at that k. What the draws alone give
# is measured by permutation: the gaps of all k pooled and dealt back at
# random to the k (PERMUTATIONS times, a fixed generator), the statistic's
# 95th percentile is the cell's noise factor. In a cell, k plays a
# significant role when the ratio exceeds both the noise factor and
# RESOLVABLE = 2 (beyond the draws, and at least twofold: "k does not play a
# significant role" must at least rule out that k doubles or halves how close
# one gets to the optimum). A cell shows no role only where its noise factor
# is below 2 and the ratio within max(noise, 2): a test that accepts a
# twofold ratio as noise cannot tell "no role" from such an effect, so a cell
# whose noise factor is 2 or more and whose ratio is within it is unresolved.
# The claim does not hold when some cell shows a role, holds when every cell
# shows none, and is not resolved otherwise. The same rule is applied, as a reading, to the page's cells (one
# seed per k, the noise factor from the other seeds: PG.kt_seed_noise).
RESOLVABLE = 2.0
PERMUTATIONS = 2000
QUANTILE = 0.95


def _median_ratio(gaps: np.ndarray, groups: np.ndarray, ks) -> float:
    medians = [np.median(gaps[groups == k]) for k in ks]
    return max(medians) / min(medians) if min(medians) > 0 else np.inf


def kt_cells(records: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, kT): the median gap per k over every seed, their ratio
    (largest / smallest), the permutation noise factor and the seeds."""
    seeds = sorted(set(records.loc[records["kT_target"].notna(), "seed"]))
    gaps = PG.kt_gaps(records, seeds)
    rng = np.random.default_rng(0)
    rows = []
    for (dataset, kt), g in gaps.groupby(["dataset", "kT_target"], sort=False):
        values, groups = g["gap"].to_numpy(), g["batch_size"].to_numpy()
        ks = sorted(set(groups))
        null = [_median_ratio(values, rng.permutation(groups), ks) for _ in range(PERMUTATIONS)]
        rows.append({"dataset": dataset, "kT": kt, "seeds": len(seeds),
                     **{f"median_gap_percent_k{int(k)}": 100 * np.median(values[groups == k]) for k in ks},
                     "ratio": _median_ratio(values, groups, ks), "noise_factor": float(np.quantile(null, QUANTILE))})
    return pd.DataFrame(rows)


def _cell_outcome(ratio: float, noise: float) -> str:
    if ratio > max(noise, RESOLVABLE):
        return FAILS
    return HOLDS if noise < RESOLVABLE else UNRESOLVED


def _overall(outcomes) -> str:
    outcomes = list(outcomes)
    if FAILS in outcomes:
        return FAILS
    return HOLDS if outcomes and all(o == HOLDS for o in outcomes) else UNRESOLVED


def _cell_name(r) -> str:
    return f"{r.dataset} kT={r.kT:.0e}"


def judge_kt(evidence) -> Judgement:
    records = _records(evidence)
    cells = kt_cells(records)
    if cells.empty:
        return Judgement("—", UNRESOLVED, "The records hold no kT refits.")
    cells["outcome"] = [_cell_outcome(r.ratio, r.noise_factor) for r in cells.itertuples()]
    verdict = _overall(cells["outcome"])
    page = PG.kt_spread(records).merge(PG.kt_seed_noise(records)[["dataset", "kT", "noise_factor"]],
                                       on=["dataset", "kT"])
    page["outcome"] = [_cell_outcome(r.gap_ratio_over_k, r.noise_factor) for r in page.itertuples()]
    readings = (("one seed per k (the page's cells), noise from the other seeds",
                 f"{int((page['noise_factor'] < RESOLVABLE).sum())} of {len(page)} cells resolve twofold; "
                 f"role in {int((page['outcome'] == FAILS).sum())}; noise factors "
                 f"{fmt_range(page['noise_factor'])}", _overall(page["outcome"])),)
    prefix = "median_gap_percent_k"
    ks = [int(c[len(prefix):]) for c in cells.columns if c.startswith(prefix)]
    k_list = ", ".join(map(str, ks))
    roles = cells[cells["outcome"] == FAILS]
    unresolved = cells[cells["outcome"] == UNRESOLVED]
    ours = (f"median-gap ratio over k {fmt_range(cells['ratio'])} (noise factors {fmt_range(cells['noise_factor'])}); "
            f"k plays a role in {len(roles)} of {len(cells)} cells")
    why = (f"For each dataset and kT, the gap above the optimum after T = kT / k iterations was measured with "
           f"{int(cells['seeds'].iat[0])} seeds at each k ({k_list}); the statistic is the largest median gap over the "
           f"smallest. The draws alone give ratios up to {fmt_range(cells['noise_factor'])} (95th percentile when "
           f"the gaps are dealt to the k at random); in {int((cells['noise_factor'] < RESOLVABLE).sum())} of the "
           f"{len(cells)} cells that is below 2, so there a twofold effect of k would show.")
    if len(roles):
        why += " The batch size plays a significant role in " + "; ".join(
            f"{_cell_name(r)}, where the median gaps are "
            + ", ".join(f"{r._asdict()[f'{prefix}{k}']:.3g} %" for k in ks)
            + f" for k = {k_list} (ratio {r.ratio:.3g}; the largest k runs T = {int(np.ceil(r.kT / max(ks))):,} "
            "iterations there)" for r in roles.itertuples()) + "."
        rest = cells[cells["outcome"] == HOLDS]
        why += (f" In {len(rest)} other cells the ratio is {fmt_range(rest['ratio'])}, within the twofold "
                "bound, so k plays no significant role there.") if len(rest) else ""
        why += (f" {len(unresolved)} cells cannot tell a twofold effect from the draws."
                if len(unresolved) else "")
    elif len(unresolved):
        why += (f" {len(unresolved)} of the cells cannot tell a twofold effect from the draws "
                f"({', '.join(_cell_name(r) for r in unresolved.itertuples())}); none of the others shows one.")
    else:
        why += f" In every cell the ratio is within the twofold bound ({fmt_range(cells['ratio'])})."
    why += (f" The page's own cells use one seed per k, and there the draws alone give ratios up to "
            f"{fmt_range(page['noise_factor'])} (the 95th percentile over seed triples): only "
            f"{int((page['noise_factor'] < RESOLVABLE).sum())} of its {len(page)} cells can tell a twofold effect "
            f"from the draws, and by the same rule they give '{_overall(page['outcome'])}'. These are our sets "
            "(a9a, w8a, ijcnn1 and a stand-in for CCAT), not the slides' CCAT.")
    return Judgement(ours, verdict, why, readings)


CLAIMS: tuple[PaperClaim, ...] = (
    PaperClaim("200 iterations reach an objective 0.3 % above the optimum on CCAT",
               Source(PAPER_FILE, 174, "200 iterations took"),
               "iterations to 0.3 % above the optimum on CCAT (best k)", "200",
               ("pegasos_convergence",), ccat_judge("iterations_to_0.3pct")),
    PaperClaim("Those 200 iterations took 9.2 CPU seconds",
               Source(PAPER_FILE, 174, "took **9.2 CPU seconds**"),
               "CPU seconds to 0.3 % above the optimum on CCAT", "9.2 s",
               ("pegasos_convergence",), judge_seconds),
    PaperClaim("560 iterations to get a 0.1 % accurate solution (CCAT)",
               Source(PAPER_FILE, 176, "560 iterations to get a 0.1% accurate solution"),
               "iterations to 0.1 % above the optimum on CCAT (best k)", "560",
               ("pegasos_convergence",), ccat_judge("iterations_to_0.1pct")),
    PaperClaim("SVM Light takes roughly 4 hours of CPU time (CCAT)",
               Source(PAPER_FILE, 178, "SVM Light takes roughly"),
               "SVM-Light's CPU hours to its solution on CCAT", "about 4 h",
               ("pegasos_convergence",), ccat_judge("cpu_hours_to_optimum")),
    PaperClaim("The lowest error on the test set is achieved much earlier (than a highly precise optimum)",
               Source(PAPER_FILE, 185, "The lowest error on the test set is achieved much earlier"),
               "per Pegasos run: examples at the lowest test error (within one standard error) / examples "
               "to the 0.1 %-accurate solution", "'much earlier' (not quantified)",
               ("pegasos_convergence",), judge_test_error),
    PaperClaim("The product kT determines how close to the optimal value we get; if kT is fixed the k does "
               "not play a significant role",
               Source(PAPER_FILE, 193, "If kT is fixed the k does not play a significant role"),
               "per (dataset, kT): largest / smallest median gap over the batch sizes k (every seed), against "
               "the ratio the draws alone give", "no significant role of k",
               ("pegasos_convergence",), judge_kt),
)
