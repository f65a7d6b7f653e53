"""Why the GS-SVM paper's reproduced numbers miss the published ones (Tables 1 and 2).

Registered with the layer's registry (:mod:`repro.explanations`, which says what an
entry is) when the paper's package is imported (``__init__.py``).
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ...explanations import Explanation, register
from ...tolerances import tolerance_for
from .jobs import HM_C, HM_MAX_ITER

# Context of gs_svm_table1: records (one per fit), cells (ours), published.
# Context of gs_svm_table2: records (outer folds of complete sets), cells,
# published, ttests (GS-SVM vs SVM), params (per set and method: selected
# parameters, unconverged problems over all fits and in the refits, fits).

MIN_GRID = 3  # the fewest Cs of a grid "the average over C values" can mean


def _fitted_grid(ctx):
    """The C grid that fits the paper's SMO averages on the original sets.

    Among the runs of at least ``MIN_GRID`` consecutive Cs of our grid, the one
    whose SMO means come nearest the published counts of the cells on original
    data (Adult-1, Adult-4: SMO-1 and SMO-2), least squares of the log ratios;
    returns (grid, {(dataset, method): mean over it}, original cells). One grid
    for all cells, as the paper ran one; on the stand-in sets it is a test, not
    a fit."""
    records = ctx["records"]
    smo = records[records.method != "GS-SVMs"]
    per_c = smo.groupby(["paper_dataset", "method", "C"])["n_kernel_evals"].mean() / 1e6
    pub = ctx["published"].set_index(["dataset", "method"])["value"]
    original = sorted({(d, m) for d, m, s in zip(smo.paper_dataset, smo.method, smo.standin) if not s})
    cs = sorted(smo.C.unique())
    runs = [tuple(cs[i:j]) for i in range(len(cs)) for j in range(i + MIN_GRID, len(cs) + 1)]

    def means(grid):
        return {key: float(per_c.loc[key].loc[list(grid)].mean()) for key in per_c.index.droplevel("C").unique()}

    def misfit(grid):
        m = means(grid)
        return sum(np.log(m[key] / pub[key]) ** 2 for key in original if key in pub.index)

    grid = min(runs, key=misfit) if runs and original else ()
    return grid, (means(grid) if grid else {}), original


def _rule(metric, key, ctx):
    """The tolerance of the cell ``key`` = (dataset, method), or None where none
    was measured for it (Table 1's factor: ctx['order_noise'], order_spread.py;
    Table 2's difference: ctx['split_noise'], split_spread.py)."""
    return tolerance_for("gs_svm", metric).at(SimpleNamespace(dataset=key[0], method=key[1]), ctx)


def _accepts(metric, key, published, value, ctx) -> bool:
    """Whether the cell's tolerance (``_rule``) accepts ``value``; a cell
    without one accepts nothing."""
    rule = _rule(metric, key, ctx)
    return rule is not None and rule.accepts(published, value)


def _fitted_grid_facts(cell, ctx):
    grid, means, original = _fitted_grid(ctx)
    pub = ctx["published"].set_index(["dataset", "method"])["value"]
    mine = means.get((cell.dataset, cell.method), np.nan)
    fitted = [k for k in original if k in means and k in pub.index]
    joint = bool(fitted) and all(_accepts(cell.metric, k, pub[k], means[k], ctx) for k in fitted)
    return {"grid": ", ".join(f"{c:g}" for c in grid) or f"none: our grid has fewer than {MIN_GRID} Cs",
            "fitted": mine, "fit_ratio": mine / cell.published, "ratio": cell.reproduced / cell.published,
            "originals": ", ".join(f"{d} {m} {means[(d, m)] / pub[(d, m)]:.2f}" for d, m in fitted) or "none",
            "joint": joint, "joint_text": "all within the tolerance" if joint else "not all within the tolerance",
            "within": bool(np.isfinite(mine)) and _accepts(cell.metric, (cell.dataset, cell.method),
                                                           cell.published, mine, ctx),
            "kind": "a test (a stand-in: the grid was fitted on the original sets)" if cell.standin
                    else "a fit to this cell and the other original ones"}


def _grid_closes(cell, ctx):
    """The fitted grid brings the original cells and this one within the tolerance."""
    facts = _fitted_grid_facts(cell, ctx)
    return facts["joint"] and facts["within"]


_FITTED_GRID_REASON = (
    "SMO's published count is an average over C values the paper does not name (ours: the mean over "
    "our grid, ours / paper = {ratio:.2f}). Tested: the run of at least 3 of our grid's Cs that comes "
    "nearest the paper's averages on the original sets (least squares of the log ratios), C in "
    "{{{grid}}}, gives {fitted:.4g}e6 here, ours / paper = {fit_ratio:.2f}: {kind}; on it the original "
    "cells read {originals}")

# A tested cause (issue 27): one C grid for every cell, fitted on the original
# sets, brings all of them and this cell within the tolerance (it could fail:
# no run of our grid may fit the four original cells at once, and the grid
# fitted there may miss a stand-in).
_SMO_C_GRID = Explanation(
    reason=_FITTED_GRID_REASON + ", all within the tolerance, so the grid accounts for the miss",
    evidence="the table 'SMO kernel evaluations (1e6) for every C' on this page",
    when=lambda cell, ctx: _grid_closes(cell, ctx),
    condition="the C grid fitted on the original sets brings them and this cell within the tolerance",
    facts=_fitted_grid_facts)

_SMO_C_GRID_TESTED = Explanation(
    reason=_FITTED_GRID_REASON + " ({joint_text}); this cell stays outside the tolerance on it, so the "
           "grid does not account for the miss",
    evidence="the table 'SMO kernel evaluations (1e6) for every C' on this page",
    when=lambda cell, ctx: not _grid_closes(cell, ctx),
    condition="the C grid fitted on the original sets leaves this cell (or an original one) outside the tolerance",
    explained=False, facts=_fitted_grid_facts)


def _params(ctx, dataset, method):
    p = ctx["params"]
    rows = p[(p.paper_dataset == dataset) & (p.method == method)]
    return rows.iloc[0] if len(rows) else None  # none for a derived cell (the Mean row)


def _ttest(ctx, dataset):
    t = ctx["ttests"]
    return t[t.dataset == dataset].iloc[0]


def _hm_cap_when(cell, ctx):
    p = _params(ctx, cell.dataset, cell.method)
    return p is not None and cell.reproduced > cell.published and p.refit_unconverged_problems > 0


def _hm_cap_facts(cell, ctx):
    p = _params(ctx, cell.dataset, cell.method)
    k = int(p.n_classes)
    return {"cap": _power_of_ten(HM_MAX_ITER), "box": _power_of_ten(HM_C),
            "stopped": int(p.refit_unconverged_problems),
            "problems": int(p.folds) * k * (k - 1) // 2, "folds": int(p.folds)}


def _uncapped(cell, ctx):
    """The refits of ``cell``'s set without the step cap (repro.papers.gs_svm.uncapped), or None."""
    ev = ctx.get("uncapped")
    if ev is None:
        return None
    rows = ev[ev.paper_dataset == cell.dataset]
    return rows if len(rows) else None


def _whole_uncapped(cell, ctx):
    """The cell's mean accuracy over the whole protocol without the step cap
    (inner CV and refits; the readings sweep's UNCAPPED reading), or None."""
    from .readings import UNCAPPED

    ev = ctx.get("readings")
    if ev is None:
        return None
    rows = ev[(ev.dataset == cell.dataset) & (ev.method == cell.method) & (ev.reading == UNCAPPED)]
    return float(rows.accuracy_percent.iloc[0]) if len(rows) else None


def _hm_cap_tested_facts(cell, ctx):
    """The test of the cap: the whole protocol without it where the sweep ran
    it (the inner CV may then choose another theta), else the refits at the
    selected theta without it (uncapped.py)."""
    facts = _hm_cap_facts(cell, ctx)
    rows = _uncapped(cell, ctx)
    whole = _whole_uncapped(cell, ctx)
    refits = ("refits without the cap: not run (python -m repro.papers.gs_svm.uncapped)" if rows is None else
              f"refitted at the same theta with max_iter {_power_of_ten(int(rows.max_iter.iloc[0]))} "
              f"({int(rows.refit_unconverged_problems.sum())} problems still stopped), the cell is "
              f"{100 * float(rows.test_accuracy.mean()):.2f}")
    if whole is not None:
        value = whole
        from .readings import READINGS, UNCAPPED

        tried = (f"the whole protocol without the cap (inner CV and refits, max_iter "
                 f"{_power_of_ten(READINGS[UNCAPPED]['hm_max_iter'])}) gives {whole:.2f}; {refits}")
        scope = "the cap"
    elif rows is not None:
        value = 100 * float(rows.test_accuracy.mean())
        tried = refits
        scope = ("the cap on the refits (the inner-CV fits that chose theta stopped at the cap too; the whole "
                 "protocol without it is not run)")
    else:
        return {**facts, "tested": False, "nearer": "untested", "tried": refits, "scope": "the cap"}
    within = _accepts(cell.metric, (cell.dataset, cell.method), cell.published, value, ctx)
    nearer = abs(value - cell.published) < abs(cell.reproduced - cell.published)
    return {**facts, "tested": True, "uncapped": value, "within": within, "tried": tried, "scope": scope,
            "nearer": "nearer the paper's but beyond the tolerance" if nearer else "no nearer the paper's"}


_HM_CAP_EVIDENCE = ("column refit_unconverged_problems of 'Selected parameters and time' on this page; "
                     "paper_tables/gs_svm_table2_uncapped_refits.csv (repro.papers.gs_svm.uncapped) and "
                     "'Readings tried for the unexplained misses' (repro.papers.gs_svm.readings --costly)")

_HM_CAP_TESTED = Explanation(
    reason="HM-SVM is SMO with C = {box} stopped at {cap} steps; {stopped} of the {problems} one-vs-one "
           "problems of the {folds} reported models (the refits at the selected theta) stopped at the cap, "
           "and {tried}: within the tolerance of the paper's, so the cap accounts for the miss",
    evidence=_HM_CAP_EVIDENCE,
    when=lambda cell, ctx: _hm_cap_when(cell, ctx) and (lambda f: f["tested"] and f["within"])(
        _hm_cap_tested_facts(cell, ctx)),
    condition="a refit stopped at the cap and the refits without it bring the cell within the tolerance",
    facts=_hm_cap_tested_facts)

_HM_CAP_FINDING = Explanation(
    reason="not explained: HM-SVM is SMO with C = {box} stopped at {cap} steps, and {stopped} of the "
           "{problems} one-vs-one problems of the {folds} reported models (the refits at the selected "
           "theta) stopped at the cap; {tried}: {nearer}, so {scope} does not explain the miss",
    evidence=_HM_CAP_EVIDENCE,
    when=_hm_cap_when, condition="ours above the paper's value and a refit stopped at the cap",
    explained=False, facts=_hm_cap_tested_facts)


def _hm_without_cap(dataset: str) -> Explanation:
    """An HM-SVM miss on a set where none of the reported models stopped at the cap."""
    return Explanation(
        reason="not explained: ours lies above the paper's value, but none of the {folds} reported models "
               "(the refits at the selected theta) stopped at the step cap ({stopped} of {problems} "
               "problems), so the cap does not explain it as it does elsewhere; {unconverged} problems of "
               "the inner-CV fits stopped there",
        evidence="columns refit_unconverged_problems and unconverged_problems of 'Selected parameters and "
                 "time' on this page",
        when=lambda cell, ctx: _params(ctx, cell.dataset, cell.method).refit_unconverged_problems == 0,
        condition=f"no {dataset} HM-SVM refit stopped at the cap",
        explained=False,
        facts=lambda cell, ctx: {**_hm_cap_facts(cell, ctx),
                                 "unconverged": int(_params(ctx, cell.dataset, cell.method).unconverged_problems)})


def _power_of_ten(x) -> str:
    """1000000 -> '1e6' (other numbers as %g)."""
    exponent = np.log10(x)
    return f"1e{int(exponent)}" if exponent == int(exponent) else f"{x:g}"


def _iris_facts(cell, ctx):
    p = _params(ctx, cell.dataset, cell.method)
    return {"unconverged": int(p.unconverged_problems), "theta": p.median_log2_theta}


def _claim_facts(cell, ctx):
    t = _ttest(ctx, cell.dataset)
    records = ctx["records"]
    return {"difference": t.mean_difference, "p": t.p, "outcome": t.outcome,
            "theta": _params(ctx, cell.dataset, cell.method).median_log2_theta,
            "classes": int(records.loc[records.paper_dataset == cell.dataset, "n_classes"].iat[0])}


def _unreproduced_claim(dataset: str, claimed: str, finding: str, evidence: str) -> Explanation:
    """What was found on a set where the paper's t-test claim (GS-SVM against
    SVM: a significant 'win' or 'loss') is not what our paired t-test finds: the
    miss stays unexplained. ``finding`` ends with the paper's claim, quoted."""
    return Explanation(
        reason=finding + " is not reproduced (ours: {difference:+.1f} points against SVM, p = {p:.2f}, a {outcome})",
        evidence=evidence, explained=False, facts=_claim_facts,
        when=lambda cell, ctx: _ttest(ctx, cell.dataset).outcome != claimed,
        condition=f"our t-test on {dataset} is not a significant {claimed}")


def _splice_facts(cell, ctx):
    cells = ctx["cells"].set_index(["dataset", "method"])["value"]
    dims = ctx["records"].groupby("paper_dataset")["n_features"].first()
    onehot = cells.get(("Splice-onehot", cell.method), np.nan)
    return {"onehot": onehot, "onehot_difference": onehot - cell.published,
            "dim": int(dims.get("Splice", 0)), "onehot_dim": int(dims.get("Splice-onehot", 0)),
            "within": _accepts(cell.metric, (cell.dataset, cell.method), cell.published, onehot, ctx)}


def _gs_count_facts(cell, ctx):
    """GS-SVM's count against the paper's: the ratio, what row orders alone
    give (order_spread.py, in the context), and the count with the diagonal
    (one kernel value per training row) counted too."""
    from . import order_spread

    records = ctx["records"]
    n = int(records.loc[(records.paper_dataset == cell.dataset) & (records.method == cell.method),
                        "n_train"].iat[0])
    factor = ctx.get("order_noise", {}).get((cell.dataset, cell.method), np.nan)
    spread = ctx.get("order_spread")
    largest = (float(spread.loc[spread.method == cell.method, "largest_ratio"].max())
               if spread is not None and len(spread) else np.nan)
    with_diagonal = cell.reproduced + n / 1e6
    return {"ratio": cell.reproduced / cell.published, "factor": factor, "largest": largest,
            "sets": ", ".join(sorted(set(spread.paper_dataset))) if spread is not None else "none",
            "orders": len(order_spread.SEEDS) + 1,  # the seeds' and the file's
            "diagonal_ratio": with_diagonal / cell.published,
            "diagonal_within": "within" if _accepts(cell.metric, (cell.dataset, cell.method),
                                                    cell.published, with_diagonal, ctx) else "outside",
            "data": " (a stand-in: other rows than the paper's)" if cell.standin else ""}


_GS_COUNT = Explanation(
    reason="not explained: ours / paper = {ratio:.3f}{data}; row orders alone move GS-SVM's count by a "
           "factor of at most {largest:.3f} ({sets}, {orders} orders each; the tolerance {factor:.3f} is the 95th "
           "percentile of their pairwise ratios). Counting the diagonal too (one kernel value per training "
           "row, which the count leaves out) gives ours / paper = {diagonal_ratio:.3f}, "
           "{diagonal_within} the tolerance; no other counting convention was run",
    evidence="'The tolerance: the counts over row orders' on this page; "
             "paper_tables/gs_svm_table1_order_spread.csv (repro.papers.gs_svm.order_spread)",
    when=lambda cell, ctx: True, condition="always (a finding)", explained=False, facts=_gs_count_facts)


def _split_facts(cell, ctx):
    """The cell's tolerance (split_spread.py) and by how much the miss exceeds it."""
    rule = _rule(cell.metric, (cell.dataset, cell.method), ctx)
    tolerance = rule.value if rule is not None else np.nan
    return {"tolerance": tolerance, "difference": abs(cell.difference), "excess": abs(cell.difference) - tolerance}


# Any other miss of Table 2 (the cells beyond the measured tolerance that no
# entry above covers): what was measured, unexplained, with the readings tried
# on the page.
_BEYOND_THE_DRAWS = Explanation(
    reason="not explained: ours differs from the paper's by {difference:.2f} points, {excess:.2f} beyond what two "
           "draws of the outer folds give 95 % of the time (tolerance {tolerance:.2f} points, from the set's "
           "spread over 5 draws); the readings tried, or why none was, are listed under 'Readings tried for the "
           "unexplained misses' on this page",
    evidence="'The tolerance: the cells over other draws of the outer folds' and 'Readings tried for the "
             "unexplained misses' on this page; paper_tables/gs_svm_table2_split_spread.csv",
    when=lambda cell, ctx: True, condition="always (a finding)", explained=False, facts=_split_facts)


_MEAN_BEYOND_THE_DRAWS = Explanation(
    reason="not explained: the mean over the 15 sets differs from the paper's by {difference:.2f} points, "
           "{excess:.2f} beyond what two draws of the outer folds give 95 % of the time (tolerance "
           "{tolerance:.2f} points, from the 15 sets' spreads); it follows the sets' cells, whose misses are listed above",
    evidence="'The tolerance: the cells over other draws of the outer folds' on this page",
    when=lambda cell, ctx: True, condition="always (a finding)", explained=False, facts=_split_facts)


_SPLICE_CODING = ("the paper's Dim ({dim}) is one number per base, its accuracy needs one indicator per base: "
                  "with bases coded 1..4 (this row) this method reaches {cell.reproduced:.1f}, with the same "
                  "protocol on the one-hot coding ({onehot_dim} dims, row Splice-onehot) {onehot:.2f} "
                  "({onehot_difference:+.2f} points from the paper's Splice value")
_SPLICE_ONEHOT = Explanation(
    reason=_SPLICE_CODING + ")",
    evidence="row Splice-onehot of this table, and 'Dimensions'",
    when=lambda cell, ctx: _splice_facts(cell, ctx)["within"],
    condition="the Splice-onehot row is within the tolerance of the paper's Splice value",
    facts=_splice_facts)
_SPLICE_ONEHOT_NEARER = Explanation(
    reason="not explained: " + _SPLICE_CODING + ", beyond the tolerance of {tolerance:.2f} points): the coding "
           "accounts for most of the miss, not all of it",
    evidence="row Splice-onehot of this table, 'Dimensions' and 'The tolerance: the cells over other draws of "
             "the outer folds'",
    when=lambda cell, ctx: not _splice_facts(cell, ctx)["within"],
    condition="the Splice-onehot row is beyond the tolerance of the paper's Splice value",
    explained=False, facts=lambda cell, ctx: {**_splice_facts(cell, ctx), **_split_facts(cell, ctx)})


EXPLANATIONS = {
    # SMO's averages over an unnamed C grid: explained only where the one grid
    # fitted on the original sets brings the cell within the tolerance
    ("gs_svm_table1", None, "SMO-1"): (_SMO_C_GRID, _SMO_C_GRID_TESTED),
    ("gs_svm_table1", None, "SMO-2"): (_SMO_C_GRID, _SMO_C_GRID_TESTED),
    # GS-SVM's count beyond what row orders give: what was computed, unexplained
    ("gs_svm_table1", None, "GS-SVMs"): _GS_COUNT,
    # HM-SVM is SMO with a finite box stopped at a step cap: where the reported
    # models (the refits) stopped there, the cap explains the miss only where the
    # refits without it (repro.papers.gs_svm.uncapped) bring the cell within the
    # tolerance; otherwise the cap is a finding that explains nothing.
    ("gs_svm_table2", None, "HM-SVMs"): (_HM_CAP_TESTED, _HM_CAP_FINDING),
    # where no reported model stopped at the cap, the cap explains nothing
    ("gs_svm_table2", "German", "HM-SVMs"): _hm_without_cap("German"),
    ("gs_svm_table2", "Iris", "HM-SVMs"): Explanation(
        reason="not explained: no fit stopped at the step cap (unconverged problems over all fits: "
               "{unconverged}); the inner CV picks median log2(theta) = {theta:g}, the grid's smallest, "
               "where ties go (a nearly linear kernel); the paper's folds and tie rule are not published",
        evidence="'Selected parameters and time' on this page",
        when=lambda cell, ctx: _params(ctx, cell.dataset, cell.method).unconverged_problems == 0,
        condition="no Iris HM-SVM fit stopped unconverged",
        explained=False, facts=_iris_facts),
    ("gs_svm_table2", "Glass", "GS-SVMs"): _unreproduced_claim(
        "Glass", "win",
        "not explained: GS-SVM's only capacity control is theta, and on Glass ({classes} classes, some of "
        "a few rows) the inner CV picks median log2(theta) = {theta:g}; the paper's claim 'GS-SVM "
        "significantly better than SVM on Glass'",
        "'Paired two-tailed t-tests' and 'Selected parameters and time' on this page"),
    ("gs_svm_table2", "Liver", "GS-SVMs"): _unreproduced_claim(
        "Liver", "loss",
        "not explained: ours lies above the paper's value; the paper's 'GS-SVM significantly worse than "
        "SVM on Liver'",
        "'Paired two-tailed t-tests' on this page"),
    # Splice's coding: explained where the one-hot row brings the cell within
    # the tolerance, a finding where it only comes nearer
    ("gs_svm_table2", "Splice", None): (_SPLICE_ONEHOT, _SPLICE_ONEHOT_NEARER),
    ("gs_svm_table2", "Mean", None): _MEAN_BEYOND_THE_DRAWS,
    ("gs_svm_table2", None, None): _BEYOND_THE_DRAWS,
}

register("gs_svm", EXPLANATIONS)
