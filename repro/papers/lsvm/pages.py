"""LSVM paper: its tables' pages (and the convergence figure), built from records.

What is particular to this paper: the claims of Section 3 (claims.csv) as the
published cells, the per-set summary of the convergence runs with the check of
the rate bound (20) on every iterate above u*'s error, the figure, and the
scaling table. Verdicts come from the layer (repro.tables.compare with the
one-sided tolerances of repro.tolerances).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ... import published
from ...experiments import TableOutput
from ...experiments.figures import CAPPED, mark_capped
from ...experiments.report import png_bytes, pyplot
from ...tables import compare, comparison_markdown, not_run, to_markdown
from . import jobs as L

# claims.csv quantity -> the convergence record column that reproduces it
CONVERGENCE_CLAIMS = {
    "alpha_times_nu_lower_bound_exclusive": "alpha_times_nu",
    "alpha_times_nu_upper_bound_exclusive": "alpha_times_nu",
    "alpha_times_nu": "alpha_times_nu",
    "norm_I_minus_alpha_Qinv_upper_bound_exclusive": "rate_bound",
    "inverted_matrix_size_minus_n": "factored_size_minus_n",
}
SCALING_CLAIM = "n_points_order"
METHOD = "LSVM"


def claims(quantities) -> pd.DataFrame:
    """The LSVM rows of claims.csv whose quantity is in ``quantities``."""
    rows = published.load("claims")
    return rows[(rows.paper == L.PAPER) & rows.quantity.isin(list(quantities))]


def run_label(dataset: str, nu_times_m) -> str:
    """A convergence run's row label: the set and its nu."""
    return f"{dataset}, nu={int(nu_times_m)}/m"


def with_ratios(records: pd.DataFrame) -> pd.DataFrame:
    """Records with ``ratio`` = distance(i+1) / distance(i) of each run (NaN
    at its last iterate) and ``checked_ratio``: both ends above u*'s error."""
    records = records.sort_values(["dataset", "nu_times_m", "iteration"]).reset_index(drop=True)
    runs = records.groupby(["dataset", "nu_times_m"], sort=False)
    records["next_distance"] = runs["distance"].shift(-1)
    records["ratio"] = records["next_distance"] / records["distance"]
    records["checked_ratio"] = records["checked"] & runs["checked"].shift(-1, fill_value=False)
    return records


def bound_holds(r: pd.DataFrame) -> pd.Series:
    """Per iterate of ``with_ratios(records)`` (a run's last: True): (20)
    with u*'s error e allowed for. The true distances satisfy d'(i+1) <=
    rate d'(i); the measured ones are within e of them, so
    d(i+1) <= rate d(i) + (1 + rate) e must hold."""
    allowed = r.rate_bound * r.distance + (1.0 + r.rate_bound) * r.star_error
    return (r.next_distance <= allowed) | r.next_distance.isna()


def convergence_summary(records: pd.DataFrame) -> pd.DataFrame:
    """One row per run: the bound (20), the largest and median measured
    ratios where the distance is above u*'s error, whether (20) holds on every
    iterate (u*'s error allowed for: :func:`bound_holds`), and the iterations
    to reach a relative distance of 1e-6."""
    r = with_ratios(records)
    r["holds"] = bound_holds(r)
    rows = []
    for (dataset, c), g in r.groupby(["dataset", "nu_times_m"], sort=False):
        checked = g[g.checked_ratio]
        reached = g[g.relative_distance <= 1e-6]
        rows.append({
            "run": run_label(dataset, c), "our_dataset": g.our_dataset.iat[0], "m": g.m.iat[0],
            "n": g.n.iat[0], "nu": g.nu.iat[0], "alpha_times_nu": g.alpha_times_nu.iat[0],
            "rate_bound": g.rate_bound.iat[0], "ratios_checked": len(checked),
            "max_ratio": checked.ratio.max() if len(checked) else np.nan,
            "median_ratio": checked.ratio.median() if len(checked) else np.nan,
            "bound_20_holds": bool(g.holds.all()), "u_star_error": g.star_error.iat[0],
            "initial_relative_distance": g.relative_distance.iat[0],
            "iterations_to_1e-6": int(reached.iteration.iat[0]) if len(reached) else np.nan,
            "u_star_iterations": g.star_iterations.iat[0], "estimator_gap": g.estimator_gap.iat[0],
        })
    return pd.DataFrame(rows)


def convergence_cells(records: pd.DataFrame, quantities) -> pd.DataFrame:
    """The reproduced value of every claim for every run (row label: the run)."""
    first = records.drop_duplicates(["dataset", "nu_times_m"])
    rows = []
    for rec in first.itertuples(index=False):
        for quantity in quantities:
            rows.append({"dataset": run_label(rec.dataset, rec.nu_times_m), "method": METHOD,
                         "metric": quantity, "value": float(getattr(rec, CONVERGENCE_CLAIMS[quantity])),
                         "our_dataset": rec.our_dataset, "standin": bool(rec.standin)})
    return pd.DataFrame(rows)


def _per_run(claim_rows: pd.DataFrame, labels) -> pd.DataFrame:
    """The claims as published cells, one copy per run (a claim holds for every run)."""
    return pd.concat([claim_rows.assign(dataset=label, method=METHOD, metric=claim_rows.quantity)
                      for label in labels], ignore_index=True)


def convergence_figure(records: pd.DataFrame) -> bytes:
    """PNG of :func:`convergence_axes`."""
    return png_bytes(convergence_axes(records), dpi=110)


def undrawable_runs(records: pd.DataFrame) -> pd.DataFrame:
    """(dataset, nu_times_m) of the runs with no positive distance at any
    iterate: u^0 = Q^{-1} e is already their solution, so their distance
    (and the bound (20) from it) is 0 throughout, off a log axis."""
    positive = records.groupby(["dataset", "nu_times_m"], sort=False)["relative_distance"].max() > 0
    return positive[~positive].reset_index()[["dataset", "nu_times_m"]]


def convergence_axes(records: pd.DataFrame):
    """Relative distance ||Q u^i - Q u*|| / ||Q u*|| against i, one line per
    run, with the bound (20) from the first iterate as a dashed line of the
    same colour; one panel per nu. A run with nothing to draw (:func:`undrawable_runs`)
    is left out of the lines and the legend, and its panel says so. A line
    that runs to the last measured iteration (the cap, with tol 0) ends in an 'x'."""
    plt = pyplot()

    scales = sorted(records.nu_times_m.unique())
    fig, axes = plt.subplots(1, len(scales), figsize=(5.5 * len(scales), 4.6), squeeze=False,
                             layout="constrained")
    colour = {d: f"C{k}" for k, d in enumerate(dict.fromkeys(records.dataset))}
    skipped = undrawable_runs(records)
    # every run is measured for the same number of iterations (tol 0): the cap where its line stops
    cap = int(records.iteration.max()) if len(records) else 0
    for ax, c in zip(axes[0], scales):
        runs = records[records.nu_times_m == c]
        flat = list(skipped.loc[skipped.nu_times_m == c, "dataset"])
        marked = False
        for dataset, g in runs.groupby("dataset", sort=False):
            if dataset in flat:
                continue
            g = g.sort_values("iteration")
            shown = g[g.relative_distance > 0]
            ax.semilogy(shown.iteration, shown.relative_distance, color=colour[dataset], label=dataset)
            if len(shown) and g.iteration.iat[-1] == cap and shown.iteration.iat[-1] == cap:
                mark_capped(ax, [cap], [shown.relative_distance.iat[-1]],  # one legend entry a panel
                            label=f"{CAPPED}: {cap} iterations measured" if not marked else "_capped")
                marked = True
            bound = g.relative_distance.iat[0] * g.rate_bound.iat[0] ** g.iteration
            ax.semilogy(g.iteration, bound, color=colour[dataset], linestyle="--", linewidth=0.8,
                        label=f"bound (20), rate {g.rate_bound.iat[0]:.4f}")
        ax.axhline(L.ROUNDING_FLOOR, color="grey", linewidth=0.6, linestyle=":")
        ax.set_title(f"nu = {c}/m, alpha = 1.9/nu")
        ax.set_xlabel("iteration i")
        ax.set_ylabel("||Q u^i - Q u*|| / ||Q u*||")
        ax.set_ylim(bottom=1e-16)
        if flat:
            ax.text(0.02, 0.02, f"not drawn: {', '.join(flat)}\n(u^0 is the solution: distance 0 throughout)",
                    transform=ax.transAxes, fontsize=7, va="bottom")
        ax.legend(fontsize=7, loc="upper right")
    fig.suptitle("LSVM paper, Section 3: convergence at the rate (20) (the paper has no figure)")
    return fig


def undrawn_sentence(records: pd.DataFrame) -> str:
    """The page's sentence on the runs the figure cannot draw (empty if none)."""
    skipped = undrawable_runs(records)
    if skipped.empty:
        return ""
    runs = "; ".join(run_label(d, c) for d, c in skipped.itertuples(index=False))
    return (f" Not drawn in the figure: {runs}, whose distance is 0 at every iterate (u^0 is the solution), "
            "which a log axis cannot show.")


def convergence(records: pd.DataFrame, table_run) -> TableOutput:
    """The convergence table: the claims per run (compared), the per-run check
    of (20), and the figure."""
    quantities = list(CONVERGENCE_CLAIMS)
    labels = [run_label(d, c) for d, c in
              records.drop_duplicates(["dataset", "nu_times_m"])[["dataset", "nu_times_m"]].itertuples(index=False)]
    pub = _per_run(claims(quantities), labels)
    cells = convergence_cells(records, quantities)
    summary = convergence_summary(records)
    comparison = compare(pub, cells, L.PAPER, "lsvm_convergence",
                         context={"records": records, "cells": cells, "summary": summary})
    holds = int(summary.bound_20_holds.sum())
    md = "\n".join([
        comparison_markdown(comparison, "LSVM paper, Section 3: the claims on the measured runs", 6,
                            notes="Each claim of Section 3 (paper_tables/published/claims.csv) for every run: "
                                  "alpha*nu is the step of the measured run, LSVM's default, whose fit matches "
                                  "the run exactly (estimator_gap below), the operator norm ||I - alpha Q^{-1}|| "
                                  "is computed from the eigenvalues of H'H (repro.papers.lsvm.jobs.rate_bound), "
                                  "the size is that of the Cholesky factor the solver forms. Runs at nu = 1/m "
                                  "(the authors' code's default) and 10/m."),
        to_markdown(summary.round({c: 6 for c in ("nu", "alpha_times_nu", "rate_bound", "max_ratio",
                                                  "median_ratio", "initial_relative_distance")}),
                    title="Rate (20) on the iterates",
                    notes=f"ratio = ||Q u^(i+1) - Q u*|| / ||Q u^i - Q u*||, u* from a run to tol "
                          f"{L.STAR_TOL:g}; max and median over the iterates whose distances are both above "
                          f"{L.ROUNDING_FLOOR:g} ||Q u*||. (20) is checked on every iterate with u*'s error "
                          "(u_star_error, in the norm of (20)) allowed for: d(i+1) <= rate d(i) + (1 + rate) "
                          f"u_star_error; it holds on every iterate in {holds} of {len(summary)} runs. "
                          "The measured ratio approaches the bound: with alpha = 1.9/nu the directions "
                          "in the null space of H' contract by exactly |1 - alpha nu| = 0.9. "
                          "A run with 0 ratios checked starts at its solution: u^0 = Q^{-1} e is "
                          "already optimal (every multiplier positive). estimator_gap: max |u| "
                          "difference between LSVM's fit and the measured iteration at the default "
                          "stopping rule. Figure: lsvm_convergence.png." + undrawn_sentence(records)),
    ])
    return TableOutput(comparison, md, figures={"png": convergence_figure(records)})


def scaling(records: pd.DataFrame, table_run) -> TableOutput:
    """The scaling table: time, iterations, objective and accuracy against m,
    LSVM beside LIBLINEAR; the 'millions of points' claim compared."""
    r = records.copy()
    base = r[r.method == "LIBLINEAR -s 2 -B 1"].set_index("m")
    r["time_ratio_vs_liblinear"] = r.fit_seconds.to_numpy() / base.fit_seconds.reindex(r.m).to_numpy()
    r["primal_rel_diff_vs_liblinear"] = (r.primal.to_numpy() / base.primal.reindex(r.m).to_numpy()) - 1.0
    pub = claims([SCALING_CLAIM])
    pub = pub.assign(dataset=L.SYNTHETIC, method=METHOD, metric=pub.quantity)
    claimed = float(pub.value.iat[0])
    solved = r[(r.method == METHOD) & r.converged]
    status = {}
    if max(table_run.protocol.scaling_sizes) < claimed:  # this scale cannot reach the claim
        cells = pd.DataFrame(columns=["dataset", "method", "metric", "value"])
        status[L.SYNTHETIC] = not_run("scale")
    else:
        cells = pd.DataFrame([{"dataset": L.SYNTHETIC, "method": METHOD, "metric": SCALING_CLAIM,
                               "value": float(solved.m.max()) if len(solved) else 0.0,
                               "note": "largest m solved (converged)"}])
    comparison = compare(pub, cells, L.PAPER, "lsvm_scaling", status=status,
                         context={"records": r})
    shown = r.drop(columns=["dataset", "cpu_count", "thread_pools", "job_seconds"])
    shown["n_iter"] = shown.n_iter.astype("Int64").where(shown.n_iter >= 0)  # -1: not exposed
    # nu and the objective gap span orders of magnitude: significant digits, not decimals
    for column in ("nu", "primal_rel_diff_vs_liblinear"):
        shown[column] = shown[column].map(lambda v: f"{v:.3g}")
    largest = r[r.method == METHOD].sort_values("m").iloc[-1]
    md = "\n".join([
        comparison_markdown(comparison, "LSVM paper: millions of points",
                            notes="Largest m of the synthetic set (repro.papers.lsvm.jobs.make_data) that "
                                  "LSVM solved within its stopping rule (tol 1e-5, 100 iterations)."),
        to_markdown(shown.round(4), title="LSVM, LIBLINEAR and Pegasos against m (10 dimensions, nu = 1/m)",
                    notes="Best of `repeat` fits, methods interleaved in one process, BLAS/OpenMP pinned "
                          "to `threads` (repro.experiments.timing). LIBLINEAR: liblinear-official "
                          "-s 2 -B 1 -c nu/2, the same primal (7) (primal: "
                          "repro.objectives.squared_hinge_primal of each model), its problem built "
                          "outside the timing; n_iter empty: its Python API does not expose the "
                          "count. Pegasos: lambda = 2/(nu m) (the hinge analogue of -c nu/2), one pass of "
                          "examples (m iterations, k = 1), no bias; its primal (7) at gamma = 0 is of a "
                          "nearby problem (hinge, no bias), shown, not a target. Compare ratios, not "
                          "seconds, and only between like machines. "
                          f"At the largest m ({largest.m:,}) LSVM stopped after {largest.n_iter} "
                          f"iteration(s) in {largest.fit_seconds:.3g} s: its rule ||u^(i+1) - u^i|| <= 1e-5 "
                          "is absolute and u = nu * slack, so with nu = 1/m it loosens as m grows "
                          "(primal_rel_diff_vs_liblinear shows what that costs in the objective)."),
    ])
    return TableOutput(comparison, md)


def accuracy(records: pd.DataFrame, table_run) -> TableOutput:
    """10-fold CV accuracy of LSVM and the soft-margin SVM (both linear) with
    paired t-tests over the outer folds. The paper's Section 3 prints no
    accuracy for these sets: nothing is compared; every set of the table has a
    row, those without all folds with their status (repro.experiments.report)."""
    from ...experiments.report import split_by_completeness, split_means, statuses
    from ...experiments.stats import paired_comparison

    n_folds = table_run.protocol.outer_folds
    complete, _, short = split_by_completeness(records, n_folds)
    cells = split_means(complete, "test_accuracy", "accuracy_percent", unit="outer folds")
    cells["status"] = ""  # a value: nothing to say (the status words are repro.tables' vocabulary)
    status = statuses(L.ACCURACY_DATASETS, table_run.protocol.accuracy_datasets, table_run, short,
                      n_folds)
    for name in L.ACCURACY_DATASETS:  # in the scale, yet no records (statuses leaves them out)
        if name not in status and name not in set(complete.paper_dataset):
            status[name] = not_run("records")
    missing = pd.DataFrame([{"dataset": name, "method": method, "metric": "accuracy_percent",
                             "status": why} for name, why in status.items() for method in L.ACCURACY_METHODS])
    table = pd.concat([cells, missing], ignore_index=True) if len(missing) else cells
    table = table[["dataset", "method", "metric", "value", "std", "status", "our_dataset", "standin", "note"]]
    ttests = paired_comparison(complete, "LSVM", "SVM", score="test_accuracy", by="paper_dataset",
                               scale=100.0).rename(columns={"paper_dataset": "dataset"})
    params = (complete.groupby(["paper_dataset", "method"], sort=False)
              .agg(median_log2_param=("log2_param", "median"), folds=("split_index", "nunique"),
                   unconverged_problems=("n_unconverged_problems", "sum"), fits=("n_fits", "sum"),
                   seconds=("seconds", "sum")).reset_index())
    grid = table_run.protocol.accuracy_log2_grid
    wins = ttests.outcome.value_counts()
    md = "\n".join([
        to_markdown(table.round(2), title="LSVM and the soft-margin SVM (linear): 10-fold CV accuracy (%)",
                    notes="Binary UCI sets of the GS-SVM paper's Table 2, with its loaders, scaling to "
                          "[-1, 1] on each training part and its outer folds (repro.papers.lsvm.jobs, "
                          f"run_accuracy_fold). Inner {table_run.protocol.inner_folds}-fold CV chooses "
                          f"log2 nu (LSVM) or log2 C (SVM: our SMO, linear kernel, bias) in {list(grid)}. "
                          "Section 3 prints no accuracy: nothing published to compare. LSVM runs with the "
                          "authors' tol 1e-5 and 100-iteration cap: at large nu the rate (20) nears 1 and "
                          "fits stop at the cap (unconverged_problems below), used as they are."),
        to_markdown(ttests.round(4), title="Paired two-tailed t-tests, LSVM vs SVM over the outer folds",
                    notes=f"mean_a: LSVM, mean_b: SVM (percent); outcome from LSVM's side at the 5% level "
                          f"(repro.experiments.stats): {int(wins.get('win', 0))} wins, "
                          f"{int(wins.get('tie', 0))} ties, {int(wins.get('loss', 0))} losses."),
        to_markdown(params.round(2), title="Selected parameters and time"),
    ])
    return TableOutput(table, md)
