"""Why a reproduced number misses the published one: the one registry.

Read by the table builder (:func:`repro.tables.compare` writes each miss's
reason into the table a reader opens) and by the tests (a miss without an
entry fails, and so does an entry that no longer matches a miss: a stale
explanation is as misleading as a missing one).

An entry is filed under ``(table id, dataset, method)``; ``None`` for the
dataset or the method makes it a *rule* over many cells (a cell entry wins
over a rule). Every entry has a ``when`` condition, computed from the evidence,
that must hold for its reason to hold: a rule applies only where it does, and
a cell entry whose condition fails leaves the miss ``miss (unexplained)`` with
the failed condition in its reason (a test fails on it: the entry is stale).
The reason is a template whose numbers are *computed* by ``facts`` from the
table's context (the records and the tables derived from them, see each
paper's table builder), never typed by hand, and ``evidence`` says where the
reader sees them. ``explained=False`` records what was found about a miss
that is still not explained: the verdict then reads ``miss (unexplained)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Explanation:
    reason: str                        # str.format template: {cell.<field>} and the facts' names
    evidence: str                      # where to check it: a table section, column, figure
    when: Callable                     # (cell, context) -> bool: the reason holds for this cell
    condition: str                     # what ``when`` checks, in words (said when it fails)
    explained: bool = True
    facts: Callable | None = None      # (cell, context) -> dict of computed values

    def render(self, cell, context) -> str:
        facts = self.facts(cell, context) if self.facts else {}
        return f"{self.reason.format(cell=cell, **facts).rstrip('.')}. Evidence: {self.evidence}."


@dataclass(frozen=True)
class Resolved:
    key: tuple
    text: str
    explained: bool
    holds: bool      # False: a cell entry whose condition failed (stale)


def explain(table: str, cell, context: dict) -> Resolved | None:
    """The entry covering a missed ``cell`` (a row of the comparison: dataset,
    method, metric, published, reproduced, ...) of ``table``, rendered; None
    when there is none."""
    for key in ((table, cell.dataset, cell.method), (table, None, cell.method),
                (table, cell.dataset, None), (table, None, None)):
        entry = EXPLANATIONS.get(key)
        if entry is None:
            continue
        holds = bool(entry.when(cell, context))
        if None in key[1:] and not holds:
            continue  # a rule covers only the cells where it holds
        if not holds:
            return Resolved(key, f"the registered reason does not hold here ({entry.condition} is "
                                 f"false); it read: {entry.reason}", False, False)
        return Resolved(key, entry.render(cell, context), entry.explained, True)
    return None


def entries(table: str) -> dict:
    """The registry's entries for one table id."""
    return {k: v for k, v in EXPLANATIONS.items() if k[0] == table}


# ---------------------------------------------------------------- GS-SVM paper
# Context of gs_svm_table1: records (one per fit), cells (ours), published.
# Context of gs_svm_table2: records (outer folds of complete sets), cells,
# published, ttests (GS-SVM vs SVM), params (per set and method: selected
# parameters, unconverged problems over all fits and in the refits, fits).

def _per_c(cell, ctx):
    """Our SMO counts (1e6) of the cell's set and method at every C of the grid."""
    records = ctx["records"]
    smo = records[(records.paper_dataset == cell.dataset) & (records.method == cell.method)]
    return smo.groupby("C")["n_kernel_evals"].mean() / 1e6


def _smo_c_grid_when(cell, ctx):
    per_c = _per_c(cell, ctx)
    return len(per_c) > 1 and per_c.min() <= cell.published <= per_c.max()


def _smo_c_grid_facts(cell, ctx):
    per_c = _per_c(cell, ctx)
    other = "SMO-2" if cell.method == "SMO-1" else "SMO-1"
    cells, pub = ctx["cells"].set_index(["dataset", "method"]), ctx["published"].set_index(["dataset", "method"])
    return {"ratio": cell.reproduced / cell.published, "c_low": per_c.index[0], "c_high": per_c.index[-1],
            "low": per_c.iloc[0], "high": per_c.iloc[-1], "other": other,
            "other_ratio": cells.loc[(cell.dataset, other), "value"] / pub.loc[(cell.dataset, other), "value"],
            "standin": " on a stand-in (rows drawn from a9a, not the original file)" if cell.standin else ""}


_SMO_C_GRID = Explanation(
    reason="SMO's published count is an average over C values the paper does not name; ours runs from "
           "{low:.4g}e6 at C = {c_low:g} to {high:.4g}e6 at C = {c_high:g}, a range that holds the "
           "published {cell.published:.4g}e6, so the paper's unnamed grid decides the average and ours "
           "is the mean over our grid: ours / paper = {ratio:.2f}{standin}; {other} on the same set: "
           "{other_ratio:.2f}",
    evidence="the table 'SMO kernel evaluations (1e6) for every C' on this page",
    when=_smo_c_grid_when, condition="the published count lies within our counts over the C grid",
    facts=_smo_c_grid_facts)


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
    from .experiments.gs_svm import HM_MAX_ITER
    from .solvers import HardMarginSVM

    p = _params(ctx, cell.dataset, cell.method)
    k = int(p.n_classes)
    return {"cap": _power_of_ten(HM_MAX_ITER), "box": _power_of_ten(HardMarginSVM().C),
            "stopped": int(p.refit_unconverged_problems),
            "problems": int(p.folds) * k * (k - 1) // 2, "folds": int(p.folds)}


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


def _claim_not_reproduced(claimed):
    """The paper's t-test claim for the set (GS-SVM vs SVM: win or loss) is not
    what our paired t-test finds."""
    return lambda cell, ctx: _ttest(ctx, cell.dataset).outcome != claimed


def _one_row_facts(cell, ctx):
    from .tolerances import tolerance_for

    records = ctx["records"]
    n = int(records.loc[records.paper_dataset == cell.dataset, "n_samples"].iat[0])
    excess = abs(cell.difference) - tolerance_for("gs_svm", cell.metric).value
    return {"n": n, "row_points": 100.0 / n, "excess": excess}


def _one_row_when(cell, ctx):
    facts = _one_row_facts(cell, ctx)
    return facts["excess"] < facts["row_points"]


def _splice_facts(cell, ctx):
    from .tolerances import tolerance_for

    cells = ctx["cells"].set_index(["dataset", "method"])["value"]
    dims = ctx["records"].groupby("paper_dataset")["n_features"].first()
    onehot = cells.get(("Splice-onehot", cell.method), np.nan)
    return {"onehot": onehot, "onehot_difference": onehot - cell.published,
            "dim": int(dims.get("Splice", 0)), "onehot_dim": int(dims.get("Splice-onehot", 0)),
            "within": tolerance_for("gs_svm", cell.metric).accepts(cell.published, onehot)}


# ---------------------------------------------------------------- Pegasos slides
# Context of pegasos_convergence: records, kt (repro.experiments.pegasos.kt_spread),
# kt_gaps (kt_gaps), test_error (test_error_course).

def _kt_row(cell, ctx):
    spread = ctx["kt"]
    kt = float(cell.method[len("Pegasos (kT="):-1])
    return spread[(spread.dataset == cell.dataset) & np.isclose(spread.kT, kt)].iloc[0], kt


def _kt_facts(cell, ctx):
    row, kt = _kt_row(cell, ctx)
    g = ctx["kt_gaps"]
    g = g[(g.dataset == cell.dataset) & np.isclose(g.kT_target, kt)]
    lam = float(ctx["records"]["lambda_"].iat[0])
    worst = g[g.batch_size == row.k_largest_gap].iloc[0]
    return {"kt": f"{kt:.0e}", "worst": int(row.k_largest_gap),
            "gaps": ", ".join(f"{100 * r.gap:.3g} % (k = {int(r.batch_size)}, T = {int(r.iteration)})"
                              for r in g.itertuples()),
            "T": int(worst.iteration), "lam_T": lam * worst.iteration}


def _kt_fewest_iterations(cell, ctx):
    """The largest gap is the largest k's: the one with the fewest iterations."""
    row, kt = _kt_row(cell, ctx)
    g = ctx["kt_gaps"]
    return row.k_largest_gap == g[(g.dataset == cell.dataset) & np.isclose(g.kT_target, kt)].batch_size.max()


_KT_FEWEST = Explanation(
    reason="at kT = {kt} the largest gap belongs to the largest k, which takes the fewest iterations: "
           "{gaps}. With the step 1/(lambda t), the slides' update makes w_(T+1) (projection aside) the "
           "average over the T iterations of (1/(lambda k)) sum of y x over the violators: its noise falls "
           "with kT, but the terms of the early, poor iterates weigh 1/T, so at a fixed kT fewer "
           "iterations leave more of that start-up error (k = {worst}: T = {T}, lambda T = {lam_T:.3g}); "
           "k matters until T is large",
    evidence="'The kT experiment' on this page (gap per k and kT) and the gap against examples in the figure",
    when=lambda cell, ctx: cell.metric == "gap_ratio_over_k" and _kt_fewest_iterations(cell, ctx),
    condition="the largest gap at this kT is the largest k's",
    facts=_kt_facts)

_KT_OTHER = Explanation(
    reason="not explained by the number of iterations: at kT = {kt} the largest gap is k = {worst}'s, not "
           "the largest k's: {gaps}. Each value is one last iterate of one seed (the slides' output), "
           "whose gap moves from one iteration to the next; how much of the spread that is, one seed "
           "cannot tell",
    evidence="'The kT experiment' on this page and the gap against examples in the figure",
    when=lambda cell, ctx: cell.metric == "gap_ratio_over_k" and not _kt_fewest_iterations(cell, ctx),
    condition="the largest gap at this kT is not the largest k's", explained=False, facts=_kt_facts)


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


# ---------------------------------------------------------------- LDM paper
# Context of ldm_table1: registry (Table 1's name -> repro.experiments.
# ldm_figures_report.registry_facts: the public file's checked size, how ours is
# built, the registry's note on the LDM paper's size).

def _ldm_size_facts(cell, ctx):
    facts = ctx["registry"].get(cell.dataset, {})
    public = facts.get("public_rows") if cell.metric == "n_instances" else facts.get("public_features")
    return {"public": public, "note": (facts.get("note") or "").rstrip("."),
            "built": facts.get("preprocessing") or "the public file as distributed"}


def _ldm_size_when(cell, ctx):
    f = _ldm_size_facts(cell, ctx)
    return bool(f["note"]) and f["public"] is not None and float(f["public"]) == float(cell.reproduced)


_LDM_OTHER_VERSION = Explanation(
    reason="ours is the public file's size ({public:g}, checked when it is loaded; built as: {built}); the "
           "paper's {cell.published:g} is another version or encoding of the set: {note}",
    evidence="the section 'How each set is built here' on this page, and `python -m repro.datasets info` "
             "for the set",
    when=_ldm_size_when,
    condition="the registry records why the LDM paper's size differs and our size is the public file's checked size",
    facts=_ldm_size_facts)


# Context of ldm_table2/3/4 (repro.experiments.ldm_report): records (complete
# sets), cells (mean and std per set and method), published (the table's
# cells with their std), n_partitions (the scale's), table1 (the published
# sizes). Two reasons, either of which may hold for a missed accuracy cell.
_LDM_PAPER_PARTITIONS = 30


def _ldm_table1_size(ctx, dataset):
    from .experiments.ldm_figures import table1_name  # Tables 2-4's names -> Table 1's

    t1 = ctx["table1"]
    rows = t1[(t1.dataset == table1_name(dataset))].set_index("metric")["value"]
    return (int(rows["n_instances"]), int(rows["n_features"])) if len(rows) == 2 else None


def _ldm_accuracy_facts(cell, ctx):
    rec = ctx["records"]
    mine = rec[(rec.paper_dataset == cell.dataset) & (rec.method == cell.method)]
    ours = (int(mine.n_samples.iloc[0]), int(mine.n_features.iloc[0])) if len(mine) else None
    paper = _ldm_table1_size(ctx, cell.dataset)
    n = int(mine.split_index.nunique()) if len(mine) else 0
    pub = ctx["published"]
    std_pub = pub[(pub.dataset == cell.dataset) & (pub.method == cell.method)]["std"]
    std_pub = float(std_pub.iloc[0]) if len(std_pub) and np.isfinite(std_pub.iloc[0]) else np.nan
    std_ours = float(mine.test_accuracy.std()) if n > 1 else np.nan
    se = float(np.sqrt(std_pub ** 2 / _LDM_PAPER_PARTITIONS + std_ours ** 2 / n)) if n > 1 else np.nan
    other_data = ours is not None and paper is not None and ours != paper
    sampling = (n < _LDM_PAPER_PARTITIONS and np.isfinite(se)
                and abs(cell.reproduced - cell.published) <= 2 * se)
    parts = []
    if other_data:
        parts.append(f"our set is {ours[0]} x {ours[1]}, the paper's {paper[0]} x {paper[1]} (Table 1): "
                     "another version of the data (ldm_table1 and its registry note say why)")
    if sampling:
        parts.append(f"this scale averages {n} partitions, not the paper's {_LDM_PAPER_PARTITIONS}: the "
                     f"difference {cell.reproduced - cell.published:+.3f} is within two standard errors of a "
                     f"difference of means ({2 * se:.3f}, from the published std {std_pub:.3f} over "
                     f"{_LDM_PAPER_PARTITIONS} and ours {std_ours:.3f} over {n})")
    return {"why": "; and ".join(parts), "other_data": other_data, "sampling": sampling}


_LDM_ACCURACY = Explanation(
    reason="{why}",
    evidence="ldm_table1 (sizes); the columns std_ours and std_published of this table",
    when=lambda cell, ctx: (lambda f: f["other_data"] or f["sampling"])(_ldm_accuracy_facts(cell, ctx)),
    condition="our set's size differs from Table 1's, or a run on fewer partitions than the paper's is "
              "within two standard errors of the published mean",
    facts=_ldm_accuracy_facts)


def _ldm_bias_free_facts(cell, ctx):
    rec = ctx["records"]
    d = rec[rec.paper_dataset == cell.dataset]
    ldm = d[d.method == cell.method]
    nob = d[d.method == "SVM (no bias)"]
    return {"agreement": float(ldm.agreement_with_svm_no_bias.mean()) if len(ldm) else np.nan,
            "no_bias": float(nob.test_accuracy.mean()) if len(nob) else np.nan,
            "n": int(ldm.split_index.nunique()), "log2_lambda1": float(ldm.log2_lambda1.median()),
            "log2_lambda2": float(ldm.log2_lambda2.median())}


def _ldm_bias_free_when(cell, ctx):
    if _LDM_ACCURACY.when(cell, ctx):
        return False  # the general reasons hold: they are the explanation
    f = _ldm_bias_free_facts(cell, ctx)
    return f["agreement"] >= 0.99 and abs(f["no_bias"] - cell.reproduced) <= 0.01


# A finding, not an explanation: where our selected LDM predicts as the
# bias-free SVM, the miss is that of the bias-free SVM; why the paper's LDM
# differs from it is not known (the notes' warning on the grid's scale).
_LDM_BIAS_FREE = Explanation(
    reason="our selected LDM predicts as the bias-free SVM at the same C on {agreement:.1%} of the test "
           "points (median log2 lambda1 {log2_lambda1:g}, lambda2 {log2_lambda2:g}, {n} partitions), and "
           "that SVM scores {no_bias:.3f}: the margin terms change nothing here, so the cell is the "
           "bias-free SVM's; why the paper's LDM does better than its SVM here is not found",
    evidence="the section 'Does the selected LDM differ from the bias-free SVM?' and the SVM (no bias) row",
    when=_ldm_bias_free_when,
    condition="the selected LDM agrees with the bias-free SVM on at least 99 % of test points and scores "
              "within 0.01 of it",
    explained=False, facts=_ldm_bias_free_facts)


# ---------------------------------------------------------------- NESVM paper
# Context of nesvm_convergence: summary (one row per dataset,
# repro.experiments.nesvm_report.convergence_summary).
def _nesvm_rate_facts(cell, ctx):
    from .experiments.nesvm_report import LATE_K

    row = ctx["summary"].set_index("dataset").loc[cell.dataset]
    return {"early": row[f"slope k < {LATE_K}"], "late": row[f"slope k >= {LATE_K}"], "late_k": LATE_K,
            "violations": int(row["violations"]), "ratio": row["max gap / bound"], "steps": int(row["steps"])}


def _nesvm_rate_when(cell, ctx):
    f = _nesvm_rate_facts(cell, ctx)
    return f["violations"] == 0 and f["late"] <= -2.0 and f["ratio"] < 1.0


_NESVM_RATE_PREASYMPTOTIC = Explanation(
    reason="Theorem 4 is a bound, not the curve's slope: Eq. 43 holds at all {steps} steps (largest gap / "
           "bound {ratio:.2f}), and the gap starts that far below the bound, so it can fall more slowly than "
           "k^-2 for a while without reaching it: log-log slope {early:.2f} for k < {late_k}, {late:.2f} "
           "from k = {late_k} on; the fit over the whole window mixes the two",
    evidence="columns 'slope k < 1000', 'slope k >= 1000', 'slope per decade' and 'max gap / bound' of "
             "'Runs, references and fits', and the figure",
    when=_nesvm_rate_when,
    condition="the bound holds at every k, the gap stays below it, and the slope from k = 1000 on is at most -2",
    facts=_nesvm_rate_facts)


EXPLANATIONS: dict[tuple, Explanation] = {
    ("gs_svm_table1", "Adult-4", "SMO-1"): _SMO_C_GRID,
    ("gs_svm_table1", "Adult-7", "SMO-1"): _SMO_C_GRID,
    # HM-SVM is SMO with a finite box stopped at a step cap: where the reported
    # models (the refits) stopped there, they are regularised classifiers.
    ("gs_svm_table2", None, "HM-SVMs"): Explanation(
        reason="HM-SVM is SMO with C = {box} stopped at {cap} steps (hard margin is infeasible with "
               "overlapping classes or conflicting duplicates); {stopped} of the {problems} one-vs-one "
               "problems of the {folds} reported models (the refits at the selected theta) stopped at the "
               "cap, where the model is a regularised classifier, not a hard-margin one, and ours lies "
               "above the paper's value",
        evidence="column refit_unconverged_problems of 'Selected parameters and time' on this page",
        when=_hm_cap_when, condition="ours above the paper's value and a refit stopped at the cap",
        facts=_hm_cap_facts),
    ("gs_svm_table2", "German", "HM-SVMs"): Explanation(
        reason="not explained: ours lies above the paper's value, but none of the {folds} reported models "
               "(the refits at the selected theta) stopped at the step cap ({stopped} of {problems} "
               "problems), so the cap does not explain it as it does elsewhere; {unconverged} problems of "
               "the inner-CV fits stopped there",
        evidence="columns refit_unconverged_problems and unconverged_problems of 'Selected parameters and "
                 "time' on this page",
        when=lambda cell, ctx: _params(ctx, cell.dataset, cell.method).refit_unconverged_problems == 0,
        condition="no German HM-SVM refit stopped at the cap",
        explained=False,
        facts=lambda cell, ctx: {**_hm_cap_facts(cell, ctx),
                                 "unconverged": int(_params(ctx, cell.dataset, cell.method).unconverged_problems)}),
    ("gs_svm_table2", "Iris", "HM-SVMs"): Explanation(
        reason="not explained: no fit stopped at the step cap (unconverged problems over all fits: "
               "{unconverged}); the inner CV picks median log2(theta) = {theta:g}, the grid's smallest, "
               "where ties go (a nearly linear kernel); the paper's folds and tie rule are not published",
        evidence="'Selected parameters and time' on this page",
        when=lambda cell, ctx: _params(ctx, cell.dataset, cell.method).unconverged_problems == 0,
        condition="no Iris HM-SVM fit stopped unconverged",
        explained=False, facts=_iris_facts),
    ("gs_svm_table2", "Glass", "GS-SVMs"): Explanation(
        reason="not explained: GS-SVM's only capacity control is theta, and on Glass ({classes} classes, "
               "some of a few rows) the inner CV picks median log2(theta) = {theta:g}; the paper's claim "
               "'GS-SVM significantly better than SVM on Glass' is not reproduced (ours: {difference:+.1f} "
               "points against SVM, p = {p:.2f}, a {outcome})",
        evidence="'Paired two-tailed t-tests' and 'Selected parameters and time' on this page",
        when=_claim_not_reproduced("win"), condition="our t-test on Glass is not a significant win",
        explained=False, facts=_claim_facts),
    ("gs_svm_table2", "Glass", "SVMs"): Explanation(
        reason="one test row moves the 10-fold mean of a set of {n} rows by 100/{n} = {row_points:.2f} "
               "points, more than the {excess:.2f} points by which the cell misses the tolerance: the miss "
               "is below the resolution of the measurement",
        evidence="column n_samples of 'Dimensions' and the difference column above",
        when=_one_row_when, condition="the excess over the tolerance is below one test row's weight",
        facts=_one_row_facts),
    ("gs_svm_table2", "Liver", "GS-SVMs"): Explanation(
        reason="not explained: ours lies above the paper's value; the paper's 'GS-SVM significantly worse "
               "than SVM on Liver' is not reproduced (ours: {difference:+.1f} points against SVM, p = "
               "{p:.2f}, a {outcome})",
        evidence="'Paired two-tailed t-tests' on this page",
        when=_claim_not_reproduced("loss"), condition="our t-test on Liver is not a significant loss",
        explained=False, facts=_claim_facts),
    **{("gs_svm_table2", "Splice", m): Explanation(
        reason="the paper's Dim ({dim}) is one number per base, its accuracy needs one indicator per "
               "base: with bases coded 1..4 (this row) this method reaches {cell.reproduced:.1f}, with the "
               "same protocol on the one-hot coding ({onehot_dim} dims, row Splice-onehot) {onehot:.1f} "
               "({onehot_difference:+.1f} points from the paper's Splice value)",
        evidence="row Splice-onehot of this table, and 'Dimensions'",
        when=lambda cell, ctx: _splice_facts(cell, ctx)["within"],
        condition="the Splice-onehot row is within the tolerance of the paper's Splice value",
        facts=_splice_facts) for m in ("GS-SVMs", "HM-SVMs", "SVMs")},
    # Pegasos: the kT rows (method 'Pegasos (kT=1e+06)', repro.experiments.pegasos.kt_label) and the
    # test-error rows (method 'Pegasos (k=8)'); rules: each covers the cells where it holds
    **{("pegasos_convergence", None, f"Pegasos (kT={kt:.0e})"): _KT_FEWEST for kt in (1e5, 1e6, 1e7)},
    **{("pegasos_convergence", None, f"Pegasos (k={k})"): _TEST_ERROR_FLAT for k in (1, 8, 64)},
    ("pegasos_convergence", None, None): _KT_OTHER,
    # LDM Table 1: a rule over the size cells, holding where the registry explains the difference
    ("ldm_table1", None, None): _LDM_OTHER_VERSION,
    # LDM Tables 2-4: rules over the accuracy cells (each holds only where its facts say so)
    **{(t, None, None): _LDM_ACCURACY for t in ("ldm_table2", "ldm_table3", "ldm_table4")},
    **{(t, None, m): _LDM_BIAS_FREE for t in ("ldm_table2", "ldm_table3", "ldm_table4")
       for m in ("LDM", "LDM (double-sum)", "LDM (code)")},
    # NESVM: a rate exponent below 2 where the bound itself holds (rule: only where it does)
    ("nesvm_convergence", None, "NESVM, Theorem 4: rate exponent p (gap ~ k^-p)"): _NESVM_RATE_PREASYMPTOTIC,
}
