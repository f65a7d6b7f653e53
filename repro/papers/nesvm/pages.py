"""NESVM paper: the page of its time-against-C and time-against-size
experiment (Figs. 3 and 4), built from records.

What is particular to this paper: the published results are figures (no
numbers), so the cells compared are the two quantitative sentences of
Section IV-A (claims.csv): "NESVM achieves the shortest training time when
the number of training samples is less than 5000" and "Pegasos achieves
shorter training time when the number of training samples is more than
10000". Both are read at ``FIG4_C`` (the paper does not say at which C Fig. 4
was drawn) among the paper's solvers that could run here. Beside the times:
every model's relative gap to the reference optimum and its test accuracy.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ... import published
from ...experiments import TableOutput
from ...experiments.report import png_bytes, pyplot
from ...tables import compare, comparison_markdown, misses_markdown, to_markdown
from . import jobs as N

FIG4_C = 1.0
# claim id (claims.csv) -> (row label, metric, scope); the metrics differ so
# that each has its own one-sided tolerance (repro.tolerances). Scope "C" is
# read at FIG4_C; "grid" over the whole C grid on every Adult set Fig. 3
# shows ("least sensitive to C": the published value 1 is the fraction of
# sets where it holds).
SENSITIVITY = "nesvm_pegasos_least_sensitive_to_c"
CLAIMS = {"nesvm_fastest_below_n": ("NESVM fastest below n", "n_train_nesvm_fastest_below", "C"),
          "nesvm_pegasos_faster_above_n": ("Pegasos faster than NESVM above n",
                                           "n_train_pegasos_slower_up_to", "C"),
          SENSITIVITY: ("NESVM and Pegasos least sensitive to C",
                        "sets_nesvm_pegasos_least_sensitive_fraction", "grid")}


# the verdict vocabulary of repro.tables, said as a claim's outcome
HOLDS, FAILS, UNTESTABLE = "holds", "does not hold", "cannot be tested here"


def with_gaps(records: pd.DataFrame) -> pd.DataFrame:
    """Records with the reference optimum of their (set, C) and each model's
    ``gap`` to it: primal / best - 1.

    Every model's (w, b) is a point of the same objective (the unsmoothed
    primal with an unpenalised bias, which every record is evaluated in), so
    the lowest primal of any model there, our SMO's reference included, is the
    tightest upper bound on the optimum we have (``best_primal``, found by
    ``best_by``); the SMO's dual is a lower bound, so the optimum lies in
    [ref_dual, best_primal] and ``certified_gap`` = best_primal / ref_dual - 1
    says how far the reference itself can be from it. (At C = 1000 the SMO at
    its tolerance stopped above LIBSVM's and SVM-Light's primal: gaps to it
    were negative.)"""
    keys = ["set_id", "C"]
    candidates = pd.concat([records[keys].assign(value=records["primal"].fillna(np.inf), by=records["method"]),
                            records[keys].assign(value=records["ref_primal"].fillna(np.inf),
                                                 by=f"SMO (tol {N.REF_TOL:g}, reference)")])
    best = candidates.sort_values("value", kind="stable").drop_duplicates(keys).set_index(keys)
    best = best[np.isfinite(best["value"])]
    at = pd.MultiIndex.from_frame(records[keys])
    best_primal = best["value"].reindex(at).to_numpy()
    return records.assign(best_primal=best_primal, best_by=best["by"].reindex(at).to_numpy(),
                          certified_gap=best_primal / records["ref_dual"].to_numpy() - 1.0,
                          gap=records["primal"].to_numpy() / best_primal - 1.0)


def _fastest(at_c: pd.DataFrame, method: str, rivals) -> pd.Series:
    """Per set (n_train index): whether ``method`` has the lowest mean time
    among ``rivals`` that ran (a capped rival counts as slower)."""
    out = {}
    for n, g in at_c.groupby("n_train"):
        t = g.set_index("method")["mean_seconds"].where(~g.set_index("method")["capped"], np.inf)
        t = t[[m for m in rivals if m in t.index and t[m] == t[m]]]  # rivals with a time (NaN: not run)
        out[n] = method in t.index and t[method] == t.min()
    return pd.Series(out).sort_index()


def claim_cells(records: pd.DataFrame) -> pd.DataFrame:
    """Our values of the two Section IV-A claims, at FIG4_C."""
    at_c = records[np.isclose(records["C"], FIG4_C)]
    rows = []
    if len(at_c):
        ran = [m for m in N.PAPER_METHODS if m in set(at_c.loc[at_c.unavailable == "", "method"])]
        nesvm_best = _fastest(at_c, "NESVM", ran)
        not_best = nesvm_best[~nesvm_best]
        value = float(not_best.index.min()) if len(not_best) else float(nesvm_best.index.max())
        batch = [m for m in ran if m != "Pegasos"]
        batch_best = _fastest(at_c, "NESVM", batch)
        beside = (f"; without Pegasos, NESVM is the fastest of {', '.join(batch)} on "
                  f"{int(batch_best.sum())} of {len(batch_best)} sets") if "Pegasos" in ran else ""
        rows.append({"claim": "nesvm_fastest_below_n", "value": value,
                     "note": (f"smallest training set where NESVM is not the fastest of {', '.join(ran)}"
                              if len(not_best) else
                              f"NESVM the fastest of {', '.join(ran)} on every set (up to this size)")
                             + beside})
        peg = _fastest(at_c, "Pegasos", ["NESVM", "Pegasos"])
        slower = peg[~peg]
        rows.append({"claim": "nesvm_pegasos_faster_above_n",
                     "value": float(slower.index.max()) if len(slower) else 0.0,
                     "note": ("largest training set where Pegasos is not faster than NESVM "
                              "(Pegasos faster on every larger set)" if len(slower) else
                              "Pegasos faster than NESVM on every set")})
    sens = sensitivity_claim(records)
    if sens is not None:
        rows.append({"claim": SENSITIVITY, **sens})
    return pd.DataFrame(rows)


def time_ratios(records: pd.DataFrame) -> pd.DataFrame:
    """Per set (rows, n_train) and method (columns): slowest / fastest mean
    time over the C grid; infinite where a run hit its cap (its slowest time
    is unknown but beyond the cap), NaN where the method did not run or ran
    at fewer than two values of C."""
    ran = records[(records.unavailable == "") & ((records.runs > 0) | records.capped)]
    out = {}
    for (n, method), g in ran.groupby(["n_train", "method"]):
        t = g["mean_seconds"][g["mean_seconds"] == g["mean_seconds"]]
        if g["capped"].any():
            out[(n, method)] = np.inf
        elif len(t) >= 2 and t.min() > 0:
            out[(n, method)] = float(t.max() / t.min())
    if not out:
        return pd.DataFrame()
    return pd.Series(out).unstack()


def sensitivity_claim(records: pd.DataFrame):
    """"NESVM and Pegasos are least sensitive to C": per set, whether both
    have the two smallest max/min time ratios over the C grid among the
    paper's solvers that ran there (at least one rival needed); the value is
    the fraction of such sets where it holds. None where no set can test it."""
    ratios = time_ratios(records)
    pair = ["NESVM", "Pegasos"]
    held, tested = [], []
    for n, r in ratios.iterrows():
        r = r[[m for m in N.PAPER_METHODS if m in r.index]].dropna()
        rivals = r.drop(pair, errors="ignore")
        if not set(pair) <= set(r.index) or rivals.empty:
            continue
        tested.append(n)
        if max(r[pair]) < rivals.min():
            held.append(n)
    if not tested:
        return None
    return {"value": len(held) / len(tested),
            "note": (f"holds on {len(held)} of {len(tested)} sets (m = "
                     f"{', '.join(str(int(n)) for n in held) or 'none'}); ratios in the sensitivity table")}


def claim_verdict(verdict: str) -> str:
    """holds / does not hold / cannot be tested here, from a comparison verdict."""
    if verdict.startswith("ok"):
        return HOLDS
    if verdict.startswith("miss"):
        return FAILS
    return UNTESTABLE


def claims_comparison(records: pd.DataFrame, table_run) -> pd.DataFrame:
    values = published.claim_values(N.PAPER, CLAIMS)
    label = f"Adult sets 1-{max(N.ADULT_SETS)}, C={FIG4_C:g}"
    grid_label = f"Adult sets 1-{max(N.ADULT_SETS)}, C grid"
    labels = {c: (label if scope == "C" else grid_label, name, metric)
              for c, (name, metric, scope) in CLAIMS.items()}
    pub = pd.DataFrame([{"dataset": labels[c][0], "method": labels[c][1], "metric": labels[c][2],
                         "value": values[c]} for c in CLAIMS])
    ours = claim_cells(records)
    if len(ours):
        at_c = np.isclose(records["C"], FIG4_C)
        cells = ours.assign(dataset=[labels[c][0] for c in ours["claim"]],
                            method=[labels[c][1] for c in ours["claim"]],
                            metric=[labels[c][2] for c in ours["claim"]], our_dataset="",
                            standin=[bool(records.loc[at_c if CLAIMS[c][2] == "C" else slice(None),
                                                      "standin"].any())
                                     for c in ours["claim"]])
        cells = cells.drop(columns="claim")
    else:
        cells = pd.DataFrame(columns=["dataset", "method", "metric", "value"])
    status = {} if len(ours) else {label: "not run (left out of this scale)"}
    # a claim no set here can test: NESVM, Pegasos and one rival must run at two or more C
    status.setdefault(grid_label, "not compared (cannot be tested here: fewer than two C values, or "
                                  "no rival solver ran)")
    # a run cut short (config partial_datasets: the full run continues across
    # sessions) shows its values but judges no claim on part of the grid
    protocol = table_run.protocol
    wanted = {(s, float(C)) for s in protocol.sets for C in protocol.c_grid}
    have = set(zip(records["set_id"].astype(int), records["C"].astype(float)))
    at_c = {j for j in wanted if np.isclose(j[1], FIG4_C)}
    unjudged = {}
    if not at_c <= have:
        unjudged[label] = f"partial: {len(at_c & have)}/{len(at_c)} sets run at C = {FIG4_C:g}"
    if not wanted <= have:
        unjudged[grid_label] = f"partial: {len(wanted & have)}/{len(wanted)} (set, C) jobs run"
    out = compare(pub, cells, N.PAPER, "nesvm_time", status=status, not_comparable=unjudged)
    out.insert(out.columns.get_loc("verdict") + 1, "claim", out["verdict"].map(claim_verdict))
    return out


def time_vs_c_and_size(records: pd.DataFrame, table_run) -> TableOutput:
    gaps = with_gaps(records)
    comparison = claims_comparison(records, table_run)
    sets = gaps.drop_duplicates("set_id").set_index("set_id")
    set_label = {s: f"Set {s} ({r.dataset}{', stand-in' if r.standin else ''}, m={r.n_train})"
                 for s, r in sets.iterrows()}
    shown = gaps.assign(set=gaps["set_id"].map(set_label))

    def pivot(value, fmt):
        p = shown.pivot_table(index=["set", "C"], columns="method", values=value, aggfunc="first",
                              dropna=False)
        return p[[m for m in N.METHODS if m in p.columns]].map(fmt).reset_index()

    seconds = pivot("mean_seconds", lambda v: "" if v != v else f"{v:.3g}")
    capped = shown[shown.capped]
    for _, r in capped.iterrows():  # a capped method's cell says so instead of a mean
        seconds.loc[(seconds.set == r.set) & (seconds.C == r.C), r.method] = f"> {r.cap_seconds:g} (cap)"
    unavailable = {m: why for m, why in zip(shown.method, shown.unavailable) if why}
    unavailable.update(N.UNAVAILABLE_METHODS)
    gap_cells = pivot("gap", lambda v: "" if v != v else f"{v:.2e}")
    uncertified = shown[shown.certified_gap != shown.certified_gap][["set", "C"]].drop_duplicates()
    for _, r in uncertified.iterrows():  # no dual bound there: the gaps are to the best model found
        at = (gap_cells.set == r.set) & (gap_cells.C == r.C)
        methods = [m for m in N.METHODS if m in gap_cells.columns]
        gap_cells.loc[at, methods] = gap_cells.loc[at, methods].map(lambda v: f"{v} (u)" if v else v)
    ratios = time_ratios(records)
    if len(ratios):
        by_n = {r.n_train: set_label[s] for s, r in sets.iterrows()}
        ratios = ratios[[m for m in N.METHODS if m in ratios.columns]]
        sensitivity = ratios.map(lambda v: "" if v != v else ("capped" if v == np.inf else f"{v:.3g}"))
        sensitivity.insert(0, "set", [by_n.get(n, n) for n in sensitivity.index])
    else:
        sensitivity = pd.DataFrame({"set": []})
    ref = shown.drop_duplicates(["set_id", "C"])[["set", "C", "best_primal", "best_by", "certified_gap",
                                                  "ref_primal", "ref_dual", "ref_seconds", "ref_capped"]]
    md = "\n".join([
        comparison_markdown(comparison, "NESVM paper, Section IV-A: the claims of Figs. 3 and 4", 4,
                            notes=f"Read at C = {FIG4_C:g} (the paper does not say at which C Fig. 4 was drawn), "
                                  "from the mean training times below, among the paper's solvers that ran here "
                                  "(SVM-Perf cannot: " + N.UNAVAILABLE_METHODS["SVM-Perf"] + ")."),
        to_markdown(seconds, title="Mean training time (seconds) against C (Fig. 3) and set (Fig. 4)",
                    notes=f"Mean over the runs of each method (the paper: 10), the methods interleaved, each "
                          "fit in a child process pinned to one thread and stopped at the cap "
                          "(repro.experiments.timing.run_capped). All solvers stop at a tolerance of "
                          f"{N.TOL:g} (the paper's); NESVM: mu = 5, w0 = w* = 0; Pegasos: lambda = 1/(C m), "
                          "k = 1, a fixed number of epochs (no tolerance of its own; "
                          "repro.experiments.nesvm says how many). Unavailable: "
                          + "; ".join(f"{m}: {why}" for m, why in unavailable.items())
                          + ". Compare ratios within one table, and only between like machines."),
        to_markdown(gap_cells,
                    title="What a time buys: relative gap of each model's primal to the optimum",
                    notes="primal / optimum - 1, the primal 1/2 ||w||^2 + C sum hinge with an unpenalised "
                          "bias (repro.objectives.hinge_primal), every model evaluated in it; the optimum: "
                          "the lowest primal of any model at that (set, C), our SMO at tol "
                          f"{N.REF_TOL:g} included (table below: which model, and how far it can be from "
                          "the true optimum by the SMO's dual). (u): uncertified, the SMO hit its cap at "
                          "that (set, C), so no dual bounds the optimum: the gaps are to the best model "
                          "found, each at most the true gap (a 0 there is the best model, not the optimum). "
                          "LIBLINEAR penalises its bias and Pegasos has none, so part of their gap is the "
                          "different problem."),
        to_markdown(pivot("test_accuracy", lambda v: "" if v != v else f"{100 * v:.2f}"),
                    title="Test accuracy (%) on each set's test file"),
        to_markdown(sensitivity, title="Sensitivity to C: slowest / fastest mean time over the C grid",
                    notes="The paper: NESVM and Pegasos are the least sensitive to C. The claim's number: "
                          "the fraction of sets where both have the two smallest ratios among the paper's "
                          "solvers that ran (a solver capped at some C counts as the most sensitive; one "
                          "that ran at fewer than two C is left out)."),
        to_markdown(ref.round(6), title="The reference optimum per (set, C)",
                    notes="best_primal: the lowest primal of any model (best_by), the reference of every "
                          "gap; ref_primal, ref_dual: our SMO's primal and dual at tol "
                          f"{N.REF_TOL:g}; the dual bounds the optimum from below, so certified_gap = "
                          "best_primal / ref_dual - 1 bounds the reference's own distance to the optimum "
                          "(empty where the SMO hit its cap)."),
        "![time against C and set](nesvm_time.png)\n",
    ])
    csv = gaps[["set_id", "dataset", "standin", "n_train", "C", "method", "unavailable", "runs", "capped",
                "mean_seconds", "best_seconds", "n_iter", "primal", "gap", "test_accuracy"]]
    out = pd.concat([comparison, csv.assign(metric="mean_seconds")], ignore_index=True)
    return TableOutput(out, md, figures={"png": figure(shown)})


def figure(shown: pd.DataFrame) -> bytes:
    """Left: mean time against C, one line per (method) on each set (Fig. 3);
    right: mean time against set ID at FIG4_C (Fig. 4)."""
    plt = pyplot()

    sets = sorted(shown["set_id"].unique())
    fig, axes = plt.subplots(1, len(sets) + 1, figsize=(4.2 * (len(sets) + 1), 3.8), squeeze=False)
    ok = shown[(shown.runs > 0) & ~shown.capped]
    for ax, s in zip(axes[0], sets):
        for method in N.METHODS:
            h = ok[(ok.set_id == s) & (ok.method == method)].sort_values("C")
            if len(h):
                ax.plot(h["C"], h["mean_seconds"], marker="o", ms=3, label=method)
        ax.set(xscale="log", yscale="log", xlabel="C", ylabel="mean training time (s)",
               title=shown.loc[shown.set_id == s, "set"].iat[0])
    ax = axes[0][-1]
    at_c = ok[np.isclose(ok["C"], FIG4_C)]
    for method in N.METHODS:
        h = at_c[at_c.method == method].sort_values("set_id")
        if len(h):
            ax.plot(h["set_id"], h["mean_seconds"], marker="o", ms=3, label=method)
    ax.set(yscale="log", xlabel="set ID (Table I)", ylabel="mean training time (s)",
           title=f"Fig. 4: against the set, C = {FIG4_C:g}")
    ax.legend(fontsize=6)
    fig.tight_layout()
    return png_bytes(fig)


def images(records: pd.DataFrame, table_run) -> TableOutput:
    """Figs. 6, 8, 10, 11 (time against C on the image sets, RBF kernel): one
    row per (set, C, method) where the set could be run; every set of the
    paper listed with its status otherwise. The paper prints no numbers for
    these figures, so nothing is compared: the page shows what was measured."""
    from ...experiments.report import statuses

    protocol = table_run.protocol
    names = {name: registry for name, (registry, _, _) in N.IMAGE_SETS.items()}
    status = statuses(list(N.IMAGE_SETS), protocol.sets, table_run, dataset_names=names)
    sets = pd.DataFrame([{"dataset": name, "figure": fig, "registry": registry,
                          "train_fraction": frac,
                          "status": status.get(name, "" if name in set(records.get("dataset", []))
                                               else "not run (no records)"),
                          "why": _why_unavailable(registry) if name in status else ""}
                         for name, (registry, frac, fig) in N.IMAGE_SETS.items()])
    shown = records.copy()
    if len(shown):
        shown["cell"] = [f"> {c:g} (cap)" if capped else (f"{t:.3g}" if t == t else "")
                         for t, capped, c in zip(shown.mean_seconds, shown.capped, shown.cap_seconds)]
    parts = [to_markdown(sets, title="NESVM paper, Figs. 6, 8, 10, 11: the image sets",
                         notes="RBF kernel exp(-||xi - xj||^2 / p) (p: the number of features), "
                               "one-vs-one for multiclass, a random split with the paper's training "
                               "fraction, the paper's C grid; solvers NESVM, LIBSVM, SVM-Light (one-vs-one "
                               "around it) and our SMO, each timed as in nesvm_time. The features were "
                               "extracted by the NESVM authors and never published: where a set cannot be "
                               "had its row says so, and tests/test_nesvm_experiments.py runs this same "
                               "code on synthetic data of each set's dimension and class count.")]
    if len(shown):
        parts.append(to_markdown(
            shown.pivot_table(index=["dataset", "C"], columns="method", values="cell", aggfunc="first")
            .reset_index(), title="Mean training time (seconds)"))
        parts.append(to_markdown(
            shown.pivot_table(index=["dataset", "C"], columns="method", values="test_accuracy",
                              aggfunc="first").round(4).reset_index(), title="Test accuracy"))
    out = pd.concat([sets, records], ignore_index=True) if len(records) else sets
    return TableOutput(out, "\n".join(filter(None, parts)))


def _why_unavailable(registry: str) -> str:
    from ... import datasets

    spec = datasets.get_spec(registry)
    return spec.source_note or spec.note or ""


# ------------------------------------------------------------------ Theorem 4 (nesvm_convergence)
# The slope is fitted from K_MIN on (the first steps from w0 = 0 are the
# method's transient, which the bound covers but a rate does not describe)
# down to the reference's accuracy: a gap below FLOOR_REL |F_mu*|, or below
# FLOOR_FACTOR times the amount by which NESVM's trace went below the L-BFGS
# value (the reference is no better than that), is not fitted.
K_MIN = 10
FLOOR_REL = 1e-9
FLOOR_FACTOR = 100.0
LATE_K = 1000   # the slope is also shown apart before and after this k (explanations read it)
# metric -> (row label, claims.csv id): O(1/k^2) is the exponent 2; the bound
# of Eq. 43 (the proof's last line) holds at every k, no violation
THEOREM4 = {"rate_exponent": ("NESVM, Theorem 4: rate exponent p (gap ~ k^-p)", "nesvm_theorem4_rate"),
            "theorem4_bound_violations": ("NESVM, Theorem 4: k where Eq. 43 fails",
                                          "nesvm_theorem4_bound_violations")}


def slope_window(job: pd.DataFrame) -> pd.Series:
    """The points of one dataset's trace the slope is fitted on."""
    floor = max(FLOOR_REL * abs(job["f_star"].iat[0]), FLOOR_FACTOR * max(job["ref_above_trace_min"].iat[0], 0.0))
    return (job["k"] >= K_MIN) & (job["gap"] > floor)


def loglog_slope(k, gap) -> float:
    """Least-squares slope of log gap against log k (NaN with fewer than 3 points)."""
    k, gap = np.asarray(k, dtype=float), np.asarray(gap, dtype=float)
    if len(k) < 3:
        return np.nan
    return float(np.polyfit(np.log(k), np.log(gap), 1)[0])


def convergence_summary(records: pd.DataFrame) -> pd.DataFrame:
    """One row per dataset: the run, its reference, the fitted slope (over
    the window, and per decade of k inside it) and the bound's check."""
    rows = []
    for name, job in records.groupby("dataset", sort=False):
        job = job.sort_values("k")
        w = slope_window(job)
        kw, gw = job.loc[w, "k"], job.loc[w, "gap"]
        decades = []
        for lo in (10, 100, 1_000, 10_000):
            d = (kw >= lo) & (kw < 10 * lo)
            if d.sum() >= 3:
                decades.append(f"[{lo:g}, {10 * lo:g}): {loglog_slope(kw[d], gw[d]):.2f}")
        first = job.iloc[0]
        early, late = kw < LATE_K, kw >= LATE_K
        rows.append({"dataset": name, "n_train": int(first.n_train), "n_features": int(first.n_features),
                     "C": first.C, "mu": first.mu, "steps": int(first.n_iter), "seconds": first.seconds,
                     "L (Eq. 48)": first.lipschitz, "d2(w*)": first.d2_wstar, "F_mu*": first.f_star,
                     "L-BFGS above trace min": first.ref_above_trace_min,
                     "L-BFGS max |grad|": first.ref_grad_inf,
                     "window k": f"{int(kw.min())}-{int(kw.max())}" if len(kw) else "",
                     "slope": loglog_slope(kw, gw), "slope per decade": "; ".join(decades),
                     f"slope k < {LATE_K}": loglog_slope(kw[early], gw[early]),
                     f"slope k >= {LATE_K}": loglog_slope(kw[late], gw[late]),
                     "violations": int(first.violations), "max gap / bound": first.max_gap_over_bound})
    return pd.DataFrame(rows)


def convergence_comparison(records: pd.DataFrame) -> tuple:
    """(the Theorem 4 cells against the paper, with verdicts; the summary)."""
    summary = convergence_summary(records)
    values = published.claim_values(N.PAPER, [c for _, c in THEOREM4.values()])
    pub = pd.DataFrame([{"dataset": d, "method": label, "metric": metric, "value": values[c]}
                        for d in summary["dataset"] for metric, (label, c) in THEOREM4.items()])
    cells = pd.DataFrame([{"dataset": r["dataset"], "method": THEOREM4[metric][0], "metric": metric,
                           "value": value, "note": note}
                          for r in summary.to_dict("records")
                          for metric, value, note in (
                              ("rate_exponent", -r["slope"], f"slope over k = {r['window k']}"),
                              ("theorem4_bound_violations", float(r["violations"]),
                               f"at every k of {r['steps']} steps; largest gap / bound "
                               f"{r['max gap / bound']:.3g}"))],
                         columns=["dataset", "method", "metric", "value", "note"])
    if len(cells):
        cells = cells[cells["value"] == cells["value"]]  # an unfitted slope: no value
    comparison = compare(pub, cells, N.PAPER, "nesvm_convergence", context={"summary": summary})
    comparison.insert(comparison.columns.get_loc("verdict") + 1, "claim",
                      comparison["verdict"].map(claim_verdict))
    return comparison, summary


def convergence(records: pd.DataFrame, table_run) -> TableOutput:
    comparison, summary = convergence_comparison(records)
    shown = summary.copy()
    for col in ("seconds", "L (Eq. 48)", "d2(w*)", "F_mu*", "L-BFGS above trace min", "L-BFGS max |grad|",
                "slope", f"slope k < {LATE_K}", f"slope k >= {LATE_K}", "max gap / bound"):
        shown[col] = shown[col].map(lambda v: f"{v:.4g}")
    md = "\n".join([
        comparison_markdown(comparison, "NESVM paper, Theorem 4: O(1/k^2) measured", 4,
                            notes="Algorithm 1 with Section IV's defaults (C = 1, mu = 5, w0 = w* = 0, L of Eq. 48) run "
                                  f"for a fixed number of steps (eps {1e-15:g}), F_mu(y^k) traced at every step. F_mu* "
                                  "is the optimum of the same smoothed problem from L-BFGS-B on F_mu (its own NumPy "
                                  "gradient, repro.experiments.nesvm_theory), lowered to the trace's least value if "
                                  "NESVM went below it. Eq. 43: F_mu(y^k) - F_mu* <= 4 L d2(w*) / ((k+1)(k+2)), "
                                  "d2(w*) = 1/2 ||w*||^2 with the bias. p = -slope of log gap against log k, fitted "
                                  f"from k = {K_MIN} on, above max({FLOOR_REL:g} |F_mu*|, {FLOOR_FACTOR:g} x how far the "
                                  "trace went below L-BFGS). 'claim': holds / does not hold / cannot be tested here. "
                                  "Theorem 4 itself is the bound row (Eq. 43 at every k); the exponent row is the "
                                  "'O(1/k^2)' reading of it, which a curve under the bound need not follow everywhere."),
        misses_markdown(comparison),
        to_markdown(shown, title="Runs, references and fits",
                    notes="Steps faster than k^-2 late in a run are expected: with the 1/2 ||w||^2 term F_mu "
                          "is strongly convex in w, and the per-decade slopes show the rate steepening."),
        "![gap against k, with the bound of Eq. 43](nesvm_convergence.png)\n",
    ])
    return TableOutput(pd.concat([comparison, summary.assign(metric="summary")], ignore_index=True), md,
                       figures={"png": convergence_figure(records, summary)})


def convergence_figure(records: pd.DataFrame, summary: pd.DataFrame) -> bytes:
    """log-log gap against k per dataset, Eq. 43's bound dashed, the fitted line dotted."""
    plt = pyplot()

    names = list(summary["dataset"])
    fig, axes = plt.subplots(1, max(len(names), 1), figsize=(4.4 * max(len(names), 1), 3.8), squeeze=False)
    for ax, name in zip(axes[0], names):
        job = records[records.dataset == name].sort_values("k")
        pos = job[(job.k >= 1) & (job.gap > 0)]
        ax.plot(pos.k, pos.gap, lw=1.2, label="F_mu(y^k) - F_mu*")
        ax.plot(job.k[job.k >= 1], job.bound[job.k >= 1], "--", lw=1, label="Eq. 43 bound")
        w = slope_window(job)
        if w.sum() >= 3:
            kw, gw = job.k[w].astype(float), job.gap[w]
            a, b = np.polyfit(np.log(kw), np.log(gw), 1)
            ax.plot(kw, np.exp(b) * kw ** a, ":", color="k", lw=1, label=f"fit: slope {a:.2f}")
        ax.set(xscale="log", yscale="log", xlabel="k", ylabel="gap", title=name)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return png_bytes(fig)


# ------------------------------------------------------------------ readings (nesvm_readings)
def readings_table(records: pd.DataFrame) -> pd.DataFrame:
    """One row per (ambiguity, variant), the printed reading first."""
    order = {"printed": 0, "alternative": 1}
    from .theory_jobs import READINGS

    t = records.assign(_r=records.reading.map(list(READINGS).index), _v=records.variant.map(order))
    t = t.sort_values(["_r", "mu", "_v"], ascending=[True, False, True])
    return pd.DataFrame({"ambiguity": t.reading, "mu": t.mu, "variant": t.variant, "options": t.options,
                         "steps": t.n_iter, "stages": t.n_stages, "converged": t.converged,
                         "L": t.lipschitz.map(lambda v: f"{v:.4g}"),
                         "seconds": t.seconds.map(lambda v: f"{v:.3g}"),
                         "gap to optimum": t.gap.map(lambda v: f"{v:.3e}"),
                         "test accuracy %": (100 * t.test_accuracy).round(2)})


def readings(records: pd.DataFrame, table_run) -> TableOutput:
    """The printed reading of each ambiguity against its alternative: nothing
    published to compare (the paper does not discuss them), so the page
    shows what was measured."""
    table = readings_table(records)
    first = records.iloc[0] if len(records) else None
    where = (f"{first.dataset} (m = {first.n_train}), C = {first.C:g}, eps = 1e-3, at Section IV's mu = 5 "
             "and at mu = 0.1"
             if first is not None else "no records")
    md = to_markdown(table, title="NESVM: the paper's printed readings against the alternatives",
                     notes=f"On {where}. 'printed' is Section IV's default; 'alternative' the other "
                           "reading (repro.solvers.NESVM's docstring). options: on top of Section IV's "
                           "printed readings, passed by name (repro.solvers.nesvm.PRINTED_READINGS; "
                           "'defaults': those alone, not the estimator's defaults). prox_center and "
                           "homotopy_restart act only in Algorithm 2, so both of their variants run it "
                           "(mu0 = 10 mu). seconds: best of "
                           f"{int(records.repeat.max()) if len(records) else 0} runs, one thread. Gap: the "
                           "unsmoothed primal 1/2 ||w||^2 + C sum hinge (bias unpenalised) over the exact "
                           "optimum (our SMO at tol 1e-6) minus 1. With an intercept and features in [0, 1], "
                           "every ||[X_i, 1]||_inf is 1, so the two hinge thresholds are the same function and "
                           "their runs must agree step for step.")
    return TableOutput(records, md)
