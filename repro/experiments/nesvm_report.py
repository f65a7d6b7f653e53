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

import io

import numpy as np
import pandas as pd

from .. import published
from ..tables import compare, to_markdown
from . import TableOutput
from . import nesvm as N

FIG4_C = 1.0
# claim id -> (row label, metric); the metrics differ so that each has its own
# one-sided tolerance (repro.tolerances)
CLAIMS = {"nesvm_fastest_below_n": ("NESVM fastest below n", "n_train_nesvm_fastest_below"),
          "nesvm_pegasos_faster_above_n": ("Pegasos faster than NESVM above n",
                                           "n_train_pegasos_slower_up_to")}


def with_gaps(records: pd.DataFrame) -> pd.DataFrame:
    """Records with ``gap``: primal / reference optimum - 1 (NaN where either is missing)."""
    return records.assign(gap=records["primal"] / records["ref_primal"] - 1.0)


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
        rows.append({"claim": "nesvm_fastest_below_n", "value": value,
                     "note": (f"smallest training set where NESVM is not the fastest of {', '.join(ran)}"
                              if len(not_best) else
                              f"NESVM the fastest of {', '.join(ran)} on every set (up to this size)")})
        peg = _fastest(at_c, "Pegasos", ["NESVM", "Pegasos"])
        slower = peg[~peg]
        rows.append({"claim": "nesvm_pegasos_faster_above_n",
                     "value": float(slower.index.max()) if len(slower) else 0.0,
                     "note": ("largest training set where Pegasos is not faster than NESVM "
                              "(Pegasos faster on every larger set)" if len(slower) else
                              "Pegasos faster than NESVM on every set")})
    return pd.DataFrame(rows)


def claims_comparison(records: pd.DataFrame, table_run) -> pd.DataFrame:
    claims = published.load("claims")
    claims = claims[(claims.paper == N.PAPER) & claims.claim_id.isin(CLAIMS)]
    label = f"Adult sets 1-{max(N.ADULT_SETS)}, C={FIG4_C:g}"
    if len(claims) != len(CLAIMS):
        raise ValueError(f"claims.csv lacks {sorted(set(CLAIMS) - set(claims.claim_id))}")
    pub = pd.DataFrame({"dataset": label, "method": [CLAIMS[c][0] for c in claims.claim_id],
                        "metric": [CLAIMS[c][1] for c in claims.claim_id], "value": claims.value.values})
    ours = claim_cells(records)
    if len(ours):
        cells = ours.assign(dataset=label, method=[CLAIMS[c][0] for c in ours["claim"]],
                            metric=[CLAIMS[c][1] for c in ours["claim"]], our_dataset="",
                            standin=bool(records.loc[np.isclose(records["C"], FIG4_C), "standin"].any()))
        cells = cells.drop(columns="claim")
    else:
        cells = pd.DataFrame(columns=["dataset", "method", "metric", "value"])
    status = {} if len(ours) else {label: "not run (left out of this profile)"}
    return compare(pub, cells, N.PAPER, "nesvm_time", status=status)


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
    sensitivity = (shown[shown.runs > 0].groupby(["set", "method"])["mean_seconds"]
                   .agg(lambda t: t.max() / t.min()).unstack())
    sensitivity = sensitivity[[m for m in N.METHODS if m in sensitivity.columns]].round(2).reset_index()
    ref = shown.drop_duplicates(["set_id", "C"])[["set", "C", "ref_primal", "ref_dual", "ref_seconds",
                                                  "ref_capped"]]
    md = "\n".join([
        to_markdown(comparison.drop(columns="why").round(4),
                    title="NESVM paper, Section IV-A: the claims of Figs. 3 and 4",
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
        to_markdown(pivot("gap", lambda v: "" if v != v else f"{v:.2e}"),
                    title="What a time buys: relative gap of each model's primal to the optimum",
                    notes="primal / optimum - 1, the primal 1/2 ||w||^2 + C sum hinge with an unpenalised "
                          f"bias (repro.objectives.hinge_primal); the optimum: our SMO at tol {N.REF_TOL:g} "
                          "(table below; empty where it hit its cap). LIBLINEAR penalises its bias and "
                          "Pegasos has none, so part of their gap is the different problem."),
        to_markdown(pivot("test_accuracy", lambda v: "" if v != v else f"{100 * v:.2f}"),
                    title="Test accuracy (%) on each set's test file"),
        to_markdown(sensitivity, title="Sensitivity to C: slowest / fastest mean time over the C grid",
                    notes="The paper: NESVM and Pegasos are the least sensitive to C."),
        to_markdown(ref.round(6), title="The reference optimum per (set, C)",
                    notes="ref_dual is the SMO's dual value, a lower bound on the optimum."),
        "![time against C and set](nesvm_time.png)\n",
    ])
    csv = gaps[["set_id", "dataset", "standin", "n_train", "C", "method", "unavailable", "runs", "capped",
                "mean_seconds", "best_seconds", "n_iter", "primal", "gap", "test_accuracy"]]
    out = pd.concat([comparison, csv.assign(metric="mean_seconds")], ignore_index=True)
    return TableOutput(out, md, figures={"png": figure(shown)})


def figure(shown: pd.DataFrame) -> bytes:
    """Left: mean time against C, one line per (method) on each set (Fig. 3);
    right: mean time against set ID at FIG4_C (Fig. 4)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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
    out = io.BytesIO()
    fig.savefig(out, dpi=100, format="png", metadata={"Software": None})
    plt.close(fig)
    return out.getvalue()


def images(records: pd.DataFrame, table_run) -> TableOutput:
    """Figs. 6, 8, 10, 11 (time against C on the image sets, RBF kernel): one
    row per (set, C, method) where the set could be run; every set of the
    paper listed with its status otherwise. The paper prints no numbers for
    these figures, so nothing is compared: the page shows what was measured."""
    from .report import statuses

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
    from .. import datasets

    spec = datasets.get_spec(registry)
    return spec.source_note or spec.note or ""
