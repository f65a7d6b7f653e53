"""Pegasos slides: the convergence table's page and figure, built from records.

What is particular to this paper: the slides' claims are on CCAT, which is not
available offline, so they are listed with that verdict, one row per published
cell, and our values on a9a, w8a, ijcnn1 and the news20 stand-in are shown
beside them, ``not compared (other data)`` (repro.tables.OTHER_DATA; the
stand-in's rows say so); the times to 1 %, 0.3 % and 0.1 % above the optimum
of Pegasos, LIBLINEAR, SGDClassifier and SVM-Light; the kT experiment and the
test error against iterations, whose two qualitative claims are judged on our
data (QUALITATIVE, repro.tolerances, repro.explanations); the figure (gap and
test error against examples processed). Verdicts and the page's banner come
from the layer.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ... import datasets, published
from ...experiments import TableOutput
from ...experiments.figures import CAPPED, mark_capped, shared_legend
from ...experiments.report import png_bytes, pyplot
from ...tables import OTHER_DATA, UNAVAILABLE, compare, comparison_markdown, not_run, to_markdown
from . import jobs as PG

# claim id (paper_tables/published/claims.csv) -> (method, metric) of its cell.
# "200 iterations took 9.2 CPU seconds, the objective value was 0.3% higher":
# 9.2 s is the time to 0.3 %.
CLAIMS = {
    "peg_ccat_iters_0.3pct": ("Pegasos", "iterations_to_0.3pct"),
    "peg_ccat_cpu_200_iters": ("Pegasos", "seconds_to_0.3pct"),
    "peg_ccat_iters_0.1pct": ("Pegasos", "iterations_to_0.1pct"),
    "peg_svmlight_cpu_hours": (PG.SVMLIGHT, "cpu_hours_to_optimum"),
}
CLAIM_METHOD = "Pegasos (k not stated)"  # the slides give neither k nor lambda
# SVM-Light's "roughly 4 hours of CPU time" is read as its fit at its default
# stopping tolerance -e 0.001 (the slides state none)
SVMLIGHT_DEFAULT_TOL = 1e-3

# The slides' two qualitative statements, judged on every dataset we run (they
# are statements about the algorithm, not measurements on CCAT): metric ->
# (slide and words, the number that reads them; tolerance: repro.tolerances).
QUALITATIVE = {
    "gap_ratio_over_k": ("Slide 'Parameters k and T': \"If kT is fixed the k does not play a "
                         "significant role\" (read: the gap above the optimum at a fixed kT is the "
                         "same for every k, largest / smallest = 1)", 1.0),
    "lowest_over_0.1pct": ("Slide 'Test set error': \"The lowest error on the test set is achieved "
                           "much earlier\" (read: examples at the lowest test error / examples to the "
                           "0.1 %-accurate solution, below 1)", 1.0),
}


def published_claims() -> pd.DataFrame:
    """The slides' CCAT claims as table cells (dataset, method, metric, value):
    one row per published cell."""
    return pd.DataFrame([{"dataset": PG.CCAT,
                          "method": CLAIM_METHOD if CLAIMS[c][0] == "Pegasos" else CLAIMS[c][0],
                          "metric": CLAIMS[c][1], "value": v, "claim_id": c}
                         for c, v in published.claim_values(PG.PAPER, CLAIMS).items()])


def paper_name(dataset: str) -> str:
    return PG.CCAT if dataset == PG.CCAT_REGISTRY else dataset


def _status(table_run) -> dict:
    """Verdicts of cells without a value; unavailability first, because CCAT
    cannot be run here whatever the scale (repro.datasets.obtainable: a
    'download' set only where its host answers), while the layer's statuses()
    would say 'not run' first where the scale leaves it out)."""
    protocol = table_run.protocol
    out = {}
    for name in protocol.datasets + (PG.CCAT_REGISTRY,):
        if not datasets.obtainable(name):
            out[paper_name(name)] = UNAVAILABLE
        elif name in table_run.skipped:
            out[paper_name(name)] = not_run("config")
        elif name not in protocol.datasets:
            out[paper_name(name)] = not_run("scale")
    return out


def svmlight_fits(records: pd.DataFrame) -> pd.DataFrame:
    """Every SVM-Light record with its gap: one per -e, or one saying why
    there is none (unavailable here, or killed at the cap)."""
    sl = PG.with_gaps(records)
    sl = sl[sl.method == PG.SVMLIGHT]
    return sl[["dataset", "tol", "iteration", "seconds", "objective", "gap", "test_error", "note"]] \
        .assign(gap_percent=lambda d: 100 * d.gap, test_error_percent=lambda d: 100 * d.test_error) \
        .drop(columns=["gap", "test_error"]).astype({"iteration": "Int64"}).reset_index(drop=True)


def _our_cells(times: pd.DataFrame, records: pd.DataFrame, metrics) -> pd.DataFrame:
    """Our values of the CCAT claims' metrics: Pegasos per (dataset, k), and
    SVM-Light's hours at its default -e per dataset (NaN with the reason in
    ``note`` where it has none)."""
    peg = times[times.method.str.startswith("Pegasos")]
    cells = peg.melt(id_vars=["dataset", "method"], value_vars=[m for m in metrics if m in peg],
                     var_name="metric")
    budget = peg.groupby("dataset")["last_examples"].max()
    cells["note"] = [f"not reached in {budget[d]:.3g} examples" if pd.isna(v) else ""
                     for d, v in zip(cells["dataset"], cells["value"])]
    rows = []
    sl = records[records.method == PG.SVMLIGHT]
    for dataset, g in sl.groupby("dataset", sort=False):
        default = g[np.isclose(g.tol, SVMLIGHT_DEFAULT_TOL, rtol=1e-9, atol=0.0) & g.objective.notna()]
        note = "" if len(default) else (g.note.iat[0] if g.tol.isna().all() else
                                        f"no fit at -e {SVMLIGHT_DEFAULT_TOL:g}")
        rows.append({"dataset": dataset, "method": PG.SVMLIGHT, "metric": "cpu_hours_to_optimum",
                     "value": default.seconds.iat[0] / 3600 if len(default) else np.nan, "note": note})
    cells = pd.concat([cells, pd.DataFrame(rows, columns=["dataset", "method", "metric", "value", "note"])],
                      ignore_index=True)
    # rows by dataset and method as run (times' order), then the claims' metrics in their order
    rank = {key: i for i, key in enumerate(zip(times.dataset, times.method))}
    cells = cells.assign(_r=[rank.get((d, m), len(rank)) for d, m in zip(cells.dataset, cells.method)],
                         _m=[list(metrics).index(x) if x in metrics else -1 for x in cells.metric])
    cells = cells.sort_values(["_r", "_m"], kind="stable").drop(columns=["_r", "_m"])
    cells["our_dataset"] = cells["dataset"]
    cells["standin"] = cells["dataset"].isin(list(PG.STANDINS))
    cells["dataset"] = cells["dataset"].map(paper_name)
    return cells.reset_index(drop=True)


def claims_comparison(times: pd.DataFrame, records: pd.DataFrame, table_run) -> pd.DataFrame:
    """The slides' CCAT claims, one row per published cell; beside them our
    values per (dataset, k) on the data we have, each shown with the claim's
    published value but not compared (other data; the stand-in's labelled so)."""
    pub = published_claims()
    ours = _our_cells(times, records, list(dict.fromkeys(pub.metric)))
    # the published value beside each of our cells (the slides name no k: a
    # claim of "Pegasos (k not stated)" stands beside every k)
    value = {(("Pegasos" if m == CLAIM_METHOD else m), metric): v
             for m, metric, v in zip(pub.method, pub.metric, pub.value)}
    beside = ours[ours.dataset != PG.CCAT].assign(
        value=[value[("Pegasos" if m.startswith("Pegasos") else m, metric)]
               for m, metric in zip(ours.method[ours.dataset != PG.CCAT], ours.metric[ours.dataset != PG.CCAT])])
    beside = beside[["dataset", "method", "metric", "value"]]
    if datasets.obtainable(PG.CCAT_REGISTRY):  # our CCAT runs, per k, beside the one claim
        per_k = ours[(ours.dataset == PG.CCAT) & ours.method.str.startswith("Pegasos (k=")]
        beside = pd.concat([beside, per_k[["dataset", "method", "metric"]].assign(
            value=[value[("Pegasos", m)] for m in per_k.metric])], ignore_index=True)
    other = {paper_name(d): OTHER_DATA for d in table_run.protocol.datasets if d != PG.CCAT_REGISTRY}
    return compare(pd.concat([pub, beside], ignore_index=True), ours, PG.PAPER, "pegasos_convergence",
                   status=_status(table_run), not_comparable=other)


def qualitative_comparison(records: pd.DataFrame, context: dict) -> pd.DataFrame:
    """The two qualitative claims judged on every dataset we ran (the kT rows
    per kT, the test-error rows per k), verdicts by repro.tolerances and the
    explanations registry (context: ``kt``, ``kt_gaps``, ``test_error``)."""
    spread, course = context["kt"], context["test_error"]
    cells = [{"dataset": r.dataset, "method": PG.kt_label(r.kT), "metric": "gap_ratio_over_k",
              "value": r.gap_ratio_over_k} for r in spread.itertuples()]
    for r in course[course.method.str.startswith("Pegasos")].to_dict("records"):
        ratio = r["lowest_over_0.1pct"]
        cells.append({"dataset": r["dataset"], "method": r["method"], "metric": "lowest_over_0.1pct",
                      "value": ratio, "note": "" if r["reached_0.1pct"] else
                      "0.1 % not reached: over the budget's examples (an upper bound)"})
    cells = pd.DataFrame(cells, columns=["dataset", "method", "metric", "value", "note"]).fillna({"note": ""})
    cells["our_dataset"] = cells["dataset"]
    cells["standin"] = cells["dataset"].isin(list(PG.STANDINS))
    pub = cells[["dataset", "method", "metric"]].assign(value=[QUALITATIVE[m][1] for m in cells.metric])
    return compare(pub, cells, PG.PAPER, "pegasos_convergence", context=context)


def claims_context(records: pd.DataFrame) -> dict:
    """What the qualitative claims' verdicts and explanations read: the kT
    spread and gaps, the seeds' spread with the gap-ratio claim's tolerance per
    cell (``kt_noise``, tolerances.py), the test-error course."""
    noise = PG.kt_seed_noise(records)
    return {"records": records, "kt": PG.kt_spread(records), "kt_gaps": PG.kt_gaps(records),
            "test_error": PG.test_error_course(records), "kt_seed_noise": noise,
            "kt_noise": {(r.dataset, PG.kt_label(r.kT)): r.noise_factor for r in noise.itertuples()}}


def records_budget(times: pd.DataFrame) -> pd.Series:
    """dataset -> examples processed by the last kept point of Pegasos (its budget)."""
    peg = times[times.method.str.startswith("Pegasos")]
    return peg.groupby("dataset")["last_examples"].max()


def convergence(records: pd.DataFrame, table_run) -> TableOutput:
    protocol = table_run.protocol
    times = PG.times_to_gap(records)
    gaps = PG.traces(records)
    context = claims_context(records)
    noise = context["kt_seed_noise"]
    claims = claims_comparison(times, records, table_run)
    judged = qualitative_comparison(records, context)
    comparison = pd.concat([claims, judged], ignore_index=True)
    comparison.attrs["explanations_used"] = {**claims.attrs.get("explanations_used", {}),
                                             **judged.attrs.get("explanations_used", {})}
    peg = gaps[gaps.method == "Pegasos"]
    # the refit iterate is the long run's iterate (same draws): both objectives agree
    prefix = (peg["objective"] - peg["solver_objective"]).abs().div(peg["objective"]).max()
    optimum = (gaps[PG.is_optimum(gaps)]
               [["dataset", "n_train", "n_test", "n_features", "test_set", "objective", "iteration",
                 "seconds", "test_error"]]
               .rename(columns={"objective": "optimum", "iteration": "liblinear_passes",
                                "seconds": "liblinear_seconds"})
               .astype({"liblinear_passes": "Int64"}))
    lowest = gaps.groupby("dataset")["gap"].min().rename("lowest_gap_of_all_runs")
    optimum = optimum.merge(lowest, left_on="dataset", right_index=True)
    ks = ", ".join(str(k) for k in protocol.batch_sizes)
    counts = [c for c in times.columns if c.startswith(("iterations_to_", "examples_to_"))]
    shown = (times.assign(dataset=times.dataset.map(_labelled))
             .astype({c: "Int64" for c in counts + ["last_examples"]})
             .rename(columns=lambda c: c.replace("_to_", " to ")))
    standins = "; ".join(f"{d} is a stand-in for {p} (repro.datasets.registry: 20 Newsgroups' "
                         "topics 1-10 against 11-20)" for d, p in PG.STANDINS.items()
                         if d in protocol.datasets)
    kt = context["kt"]
    course = context["test_error"]
    md = "\n".join([
        comparison_markdown(comparison, "Pegasos slides: convergence to the optimum", 4,
                            notes="The slides' CCAT claims (lambda and k not stated) are on RCV1 CCAT, which "
                                  "scikit-learn's fetch_rcv1 downloads: not available offline; one row per "
                                  "published cell. Our values on "
                                  f"{', '.join(paper_name(d) for d in protocol.datasets if d != PG.CCAT_REGISTRY)} "
                                  "are listed beside them per k, not compared (other data). "
                                  f"{standins + '. ' if standins else ''}"
                                  "One iteration is one mini-batch step of size k. The last rows judge the "
                                  "slides' two qualitative statements on our data: "
                                  + " ".join(f"{m}: {text}." for m, (text, _) in QUALITATIVE.items())),
        to_markdown(shown.round(4),
                    title="Iterations, examples processed and seconds to 1 %, 0.3 % and 0.1 % above the optimum",
                    notes=f"lambda = {PG.LAMBDA:g}, no bias; Pegasos (variant 'slides', last iterate, "
                          f"seed {PG.SEED}) with k in {{{ks}}}, {protocol.examples:.3g} examples "
                          "processed per k; its seconds are the fit's own time up to that iteration "
                          "(trace objectives left out). LIBLINEAR (LinearSVC, dual CD, hinge): one fit "
                          f"per tol in {', '.join(f'{t:g}' for t in protocol.liblinear_tols)}, its "
                          "iterations are its outer iterations (passes of dual CD over the examples not "
                          "shrunk away), so examples = passes x m is an upper bound. SGDClassifier (hinge, "
                          "alpha = lambda, default 'optimal' rate, not tuned): one fit per number of "
                          "epochs (iterations = epochs). SVM-Light (svm_learn -t 0 -b 0, C = 1/(lambda m)): "
                          f"one fit per -e in {', '.join(f'{t:g}' for t in protocol.svmlight_tols)}, "
                          "its iterations are its working-set iterations, its seconds the wall time of "
                          "the svm_learn process (reading its input file included), no examples count; "
                          "its points are taken from the loosest -e to the tightest. Each value is that "
                          "of the first point, in order of work, within the threshold; empty: not reached. "
                          "One thread, one run each (repro.papers.pegasos.jobs)."),
        to_markdown(svmlight_fits(records).assign(dataset=lambda d: d.dataset.map(_labelled)).round(6),
                    title="SVM-Light fits",
                    notes="One fit per stopping tolerance -e (svm_learn -t 0 -b 0: linear kernel, no "
                          f"bias; C = 1/(lambda m)), each killed after {protocol.svmlight_cap_s:g} s (the "
                          "note then says 'not reached in the cap'); where SVM-Light cannot be built "
                          "here, one row with the reason (repro.baselines.svmlight.why_unavailable). "
                          "Objective computed by repro.objectives from the weight vector read back "
                          "from its model file; seconds: wall time of svm_learn (its own "
                          "optimisation CPU time in the note)."),
        to_markdown(_kt_table(context["kt_gaps"], kt).round(4),
                    title="The kT experiment: gap at a fixed number of examples processed kT",
                    notes="The slides: 'the product of kT determines how close to the optimal value we "
                          "get; if kT is fixed the k does not play a significant role'. For each kT and "
                          "k, the iterate after T = ceil(kT / k) iterations (the same seed as the traces; "
                          "a refit timed alone): its gap above the optimum (%) and test error (%); "
                          "gap_ratio_over_k = largest gap over smallest at that kT (the claim rows above "
                          "judge it against 1, within the factor of the next table)."),
        to_markdown(_noise_table(noise).round(4),
                    title="The kT experiment's tolerance: the gap ratio when only the draws differ",
                    notes=f"The same kT iterates refitted with {len(protocol.kt_seeds)} other seeds "
                          f"({_seed_range(protocol.kt_seeds)}; the claim rows use seed {PG.SEED}). At "
                          "each k, every choice of as many of these seeds' gaps as there are k gives a "
                          "ratio max / min: what gap_ratio_over_k reads when k is the same for all and "
                          "only the random draws differ (ratios: how many, pooled over the k). "
                          f"noise_factor: their {PG.NOISE_QUANTILE:.0%} quantile, the claim row's "
                          "tolerance (a ratio above it is a spread over k that draws alone give less "
                          f"than {1 - PG.NOISE_QUANTILE:.0%} of the time). median gap % per k: over "
                          "these seeds, whether the k differ beyond the draws. A cell whose factor is "
                          "not below 2 cannot tell a twofold effect of k from the draws: its 'ok' "
                          "confirms nothing about the claim, which the index judges by the median gaps "
                          "over every seed (repro/papers/pegasos/central_claims.py)."),
        to_markdown(course.assign(dataset=course.dataset.map(_labelled))
                    .astype({"iteration_at_lowest": "Int64", "examples_at_lowest": "Int64"}).round(4),
                    title="Test error against iterations",
                    notes="The slides: 'the lowest error on the test set is achieved much earlier' (than "
                          "a highly accurate solution). Per method: the first point (in order of work) "
                          "where the test error is lowest, and the test error at the first point within "
                          "1 %, 0.3 % and 0.1 % of the optimum and at the end; lowest_over_0.1pct = "
                          "examples at the lowest test error / examples to 0.1 % (Pegasos; the claim rows "
                          "judge it below 1). Test error against examples processed: the figure's lower "
                          "panels."),
        to_markdown(optimum.assign(dataset=optimum.dataset.map(_labelled)).round(6),
                    title="The optimum (LIBLINEAR at tol "
                          f"{PG.OPT_TOL:g}) and the test data",
                    notes="lowest_gap_of_all_runs: the lowest objective of every record relative to "
                          "the optimum, minus 1 (>= 0 when the optimum is the lowest found). Objectives "
                          "are computed from the coefficients by repro.objectives. The kept Pegasos "
                          "iterates are refitted with the same seed; their objectives match the long "
                          f"run's own trace to a relative {prefix:.1e} at most."),
        "![gap and test error against examples processed](pegasos_convergence.png)\n",
    ])
    return TableOutput(comparison, md, figures={"png": figure(gaps, records)})


def _labelled(dataset: str) -> str:
    """A dataset's name in the sections, the stand-in's marked."""
    return f"{dataset} (stand-in for {PG.STANDINS[dataset]})" if dataset in PG.STANDINS else paper_name(dataset)


def _kt_table(kt_gaps: pd.DataFrame, spread: pd.DataFrame) -> pd.DataFrame:
    """One row per (dataset, kT): gap and test error per k, and the ratio."""
    wide = kt_gaps.assign(gap=100 * kt_gaps.gap, test_error=100 * kt_gaps.test_error,
                          k=kt_gaps.batch_size.astype(int))
    wide = wide.pivot_table(index=["dataset", "kT_target"], columns="k", values=["gap", "test_error"],
                            sort=False)
    wide.columns = [f"{'gap %' if v == 'gap' else 'test error %'} k={k}" for v, k in wide.columns]
    wide = wide.reset_index().rename(columns={"kT_target": "kT"})
    out = wide.merge(spread[["dataset", "kT", "k_largest_gap", "k_smallest_gap", "gap_ratio_over_k"]],
                     on=["dataset", "kT"])
    out["dataset"] = out["dataset"].map(_labelled)
    out["kT"] = out["kT"].map(lambda v: f"{v:.0e}")
    return out


def _noise_table(noise: pd.DataFrame) -> pd.DataFrame:
    """The kT cells' tolerance, with whether it can resolve a twofold effect
    of k (the claim's rule: central_claims.RESOLVABLE)."""
    from .central_claims import RESOLVABLE

    out = noise.assign(dataset=noise.dataset.map(_labelled), kT=noise.kT.map(lambda v: f"{v:.0e}"))
    if "noise_factor" in out:
        out[f"resolves a {RESOLVABLE:g}-fold effect"] = out["noise_factor"] < RESOLVABLE
    return out.rename(columns=lambda c: c.replace("median_gap_percent_k", "median gap % k="))


def _seed_range(seeds) -> str:
    seeds = sorted(seeds)
    if not seeds:
        return "none"
    contiguous = seeds == list(range(seeds[0], seeds[-1] + 1)) if seeds else False
    return f"seeds {seeds[0]} to {seeds[-1]}" if contiguous and len(seeds) > 2 else \
        "seeds " + ", ".join(map(str, seeds))


def figure(gaps: pd.DataFrame, records: pd.DataFrame) -> bytes:
    """One column per dataset: above, the objective gap (log) against examples
    processed (log); below, the test error against examples processed. Pegasos
    per k and SGDClassifier as lines, LIBLINEAR's fits as points (SVM-Light
    counts no examples: its fits are in the table only). Datasets and methods
    in the records' order, so that each method keeps its colour. A line that
    ran to the budget of examples (the cap of every stochastic run) ends in
    an 'x'."""
    return png_bytes(convergence_axes(gaps, records))


def convergence_axes(gaps: pd.DataFrame, records: pd.DataFrame):
    """The figure of :func:`figure`, unsaved (tests read its legend); one
    legend below the panels."""
    plt = pyplot()

    gaps = gaps[gaps.examples.notna()]
    names = [d for d in dict.fromkeys(records["dataset"]) if d in set(gaps["dataset"])]
    methods = list(dict.fromkeys(PG.method_label(m, k) for m, k in
                                 zip(records["method"], records["batch_size"]) if m != PG.SVMLIGHT))
    colour = {m: f"C{i}" for i, m in enumerate(methods)}
    n = max(1, len(names))
    fig, axes = plt.subplots(2, n, figsize=(5.0 * n, 8.2), squeeze=False, layout="constrained")
    style = {"LIBLINEAR": dict(ls="none", marker="s", ms=4), "SGDClassifier": dict(marker="o", ms=3)}
    # the lines stop at the budget of examples (the cap of every stochastic run), not at convergence
    budget = float(records["budget_examples"].max()) if "budget_examples" in records and len(records) else 0.0
    cap_label = f"{CAPPED}: the budget of {budget:,.0f} examples"
    for col, name in enumerate(names):
        top, bottom = axes[0][col], axes[1][col]
        g = gaps[gaps.dataset == name]
        groups = {PG.method_label(m, k): h for (m, k), h in
                  g.groupby(["method", "batch_size"], sort=False, dropna=False)}
        for label in [m for m in methods if m in groups]:
            h = groups[label].sort_values("examples")
            method = h["method"].iat[0]
            pos = h[h.gap > 0]  # a log axis shows positive gaps only
            top.plot(pos["examples"], 100 * pos["gap"], label=label, color=colour[label],
                     **style.get(method, {}))
            bottom.plot(h["examples"], 100 * h["test_error"], label=label, color=colour[label],
                        **style.get(method, {}))
            if budget and method != "LIBLINEAR" and h["examples"].iat[-1] >= budget:  # ran to the budget
                end = h.iloc[-1]
                if end["gap"] > 0:
                    mark_capped(top, [end["examples"]], [100 * end["gap"]], label=cap_label)
                mark_capped(bottom, [end["examples"]], [100 * end["test_error"]], label=cap_label)
        for thr in PG.THRESHOLDS:
            top.axhline(100 * thr, color="grey", lw=0.6, ls=":")
        title = _labelled(name)
        top.set(xscale="log", yscale="log", xlabel="examples processed",
                ylabel="% above the optimum", title=f"{title}, lambda = {PG.LAMBDA:g}")
        bottom.set(xscale="log", xlabel="examples processed", ylabel="test error %",
                   title=f"{title}: test error")
        lo = 100 * g["test_error"].min()
        bottom.set_ylim(lo * 0.95, lo + max(3.0, 0.5 * lo))  # the early iterates' errors run off the top
    for ax in axes.ravel():  # the stand-in's long name fits its panel
        ax.title.set_fontsize(10)
    shared_legend(fig, axes, ncol=len(methods))
    fig.suptitle("Pegasos slides, 'Quick convergence to suboptimal solutions' (top) and 'Test set error' "
                 "(bottom): the slides' plots, which carry no figure numbers")
    return fig
