"""The merged table (CSV) and its page (Markdown), with a reading computed from it.

``above_best`` is the solver's objective relative to the least objective any
solver reached on the same problem, set and kernel, ``(P - P_best) /
|P_best|``: 0 for the best, and a solver within ``SAME_OPTIMUM`` (1e-3) of it
reached the optimum as far as this table can tell (each solver stops at its
own tolerance). Every sentence under "Reading" is computed from the rows.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from repro.tables import to_markdown

from .data import SPLIT_SEED
from .roster import GAMMA, PROBLEMS
from .run import CAP_SECONDS, COLUMNS, KERNEL_MEMORY_MB, NO_PUBLISHED, PROVENANCE

SAME_OPTIMUM = 1e-3
TABLE_COLUMNS = COLUMNS[:16] + ["objective", "above_best"] + COLUMNS[17:]


def merge(frames) -> pd.DataFrame:
    """One table from the datasets' rows, with ``above_best``."""
    df = pd.concat(list(frames), ignore_index=True)
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"rows without the columns {missing}: not the output of run_dataset")
    ok = df["status"] == "ok"
    best = df[ok].groupby(["dataset", "kernel", "problem"])["objective"].transform("min")
    df["above_best"] = np.nan
    df.loc[ok, "above_best"] = (df.loc[ok, "objective"] - best) / best.abs()
    return df[TABLE_COLUMNS + ([PROVENANCE] if PROVENANCE in df.columns else [])]


def provenance_section(df, last_written: str = "") -> str:
    """Where the rows were made: their stamps (:func:`repro.experiments.provenance.summary_markdown`),
    or for rows made before the stamp what they do record (CPU, threads), what
    they do not, and ``last_written`` (the commit that last wrote the CSV, from
    ``git log``; empty where unknown)."""
    from repro.experiments.provenance import summary_markdown

    stamps = df[PROVENANCE].fillna("").astype(str) if PROVENANCE in df.columns else pd.Series([""] * len(df))
    if (stamps != "").any():
        return summary_markdown(stamps)
    cpus = ", ".join(sorted(set(df["cpu_model"].astype(str))))
    threads = ", ".join(sorted(set(df["threads"].astype(str))))
    return "\n".join([
        "## Provenance of these records", "",
        f"Not recorded: the {len(df)} rows were made before the comparison's jobs stamped their provenance, "
        "so the package version, the commit the code was at, the Python, NumPy, SciPy, scikit-learn, "
        "LIBSVM and LIBLINEAR versions, the BLAS, the cores and the date of the run are not known. "
        f"What the rows do record: CPU {cpus}, {threads} thread per fit (`cpu_model`, `threads`). "
        + (f"The rows were last written by {last_written} (`git log paper_tables/solvers_compared.csv`)."
           if last_written else "Which commit wrote them: not recorded."), ""])


def _sig(x, digits=4):
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return ""
    return f"{x:.{digits}g}"


def _seconds(x):
    return "" if pd.isna(x) else (f"{x:.3g}" if x < 10 else f"{x:.1f}")


def _evals(row):
    # a solver that computes no kernel value (the linear solvers) shows none
    v = row["kernel_evals"]
    return "" if pd.isna(v) or v == 0 else f"{int(v):,}"


def _above(x):
    if pd.isna(x):
        return ""
    return "best" if x == 0 else f"+{x:.1e}"


def _solvers(df, problem):
    names = df[df["problem"] == problem].drop_duplicates(["solver", "kernel"])
    return "; ".join(f"{s} ({k})" for s, k in zip(names["solver"], names["kernel"]))


def _dataset_table(d):
    order = {k: i for i, k in enumerate(PROBLEMS)}
    d = d.assign(_p=d["problem"].map(order)).sort_values(["kernel", "_p"], kind="stable")
    # a problem that one solver alone solves on this set has no "best" to speak of
    alone = d.groupby(["kernel", "problem"])["status"].transform(lambda s: (s == "ok").sum()) == 1
    out = pd.DataFrame({
        "solver": d["solver"] + np.where(d["reference"], " (reference)", ""),
        "kernel": d["kernel"],
        "problem": d["problem"],
        "time (s)": d["train_seconds"].map(_seconds),
        "kernel evals": [_evals(r) for _, r in d.iterrows()],
        "test acc. (%)": (100 * d["test_accuracy"]).map(lambda v: "" if pd.isna(v) else f"{v:.2f}"),
        "objective": d["objective"].map(lambda v: _sig(v, 7)),
        "above best": np.where(alone & d["above_best"].notna(), "alone",
                               d["above_best"].map(_above)),
        "converged": d["converged"].fillna(""),
        "status": d["status"],
    })
    return to_markdown(out)


def reading(df) -> list[str]:
    """Sentences computed from the table."""
    lines = []
    ok = df[df["status"] == "ok"]
    # 1. who reached the C-SVM optimum, and how fast against LIBSVM
    for (name, kernel), g in ok[ok["problem"] == "c-svm"].groupby(["dataset", "kernel"], sort=False):
        reached = g[g["above_best"] <= SAME_OPTIMUM]
        ref = g[g["solver"] == "LIBSVM (SVC)"]
        fastest = reached.loc[reached["train_seconds"].idxmin()]
        far = g[g["above_best"] > SAME_OPTIMUM]
        s = (f"{name}, {kernel} C-SVM: {len(reached)} of {len(g)} solvers within "
             f"{SAME_OPTIMUM:g} of the least hinge primal ({', '.join(reached['solver'])}); "
             f"the fastest of them {fastest['solver']} in {_seconds(fastest['train_seconds'])} s")
        if len(ref) and fastest["solver"] != "LIBSVM (SVC)":
            s += f" (LIBSVM {_seconds(ref['train_seconds'].iloc[0])} s)"
        if len(far):
            s += "; above it: " + ", ".join(f"{r.solver} {_above(r.above_best)}"
                                            for r in far.itertuples())
        lines.append(s + ".")
    # 1b. NESVM minimises a smoothed hinge: how far its C-SVM rows are from the hinge optimum
    nes = ok[ok["solver"].str.startswith("NESVM C-SVM")]
    for solver, g in nes.groupby("solver", sort=False):
        lines.append(f"{solver} ({g['setting'].iloc[0]}) ended {_above(g['above_best'].min())} "
                     f"to {_above(g['above_best'].max())} above the least hinge primal over "
                     f"{len(g)} runs: it minimises the smoothed hinge at its last mu, not the "
                     "hinge itself.")
    # 2. the fixed-iteration methods
    fixed = ok[ok["solver"].isin(["Pegasos", "ASGDSVM (LDM paper)", "LDM (ASGD)"])]
    if len(fixed):
        for solver, g in fixed.groupby("solver", sort=False):
            lines.append(f"{solver} (a fixed number of steps, no stopping rule) ended "
                         f"{_above(g['above_best'].min())} to {_above(g['above_best'].max())} "
                         f"above the best objective of its problem over {len(g)} sets.")
    # 3. the references of the linear problems
    for problem, ref in (("c-svm-penalised-bias", "LIBLINEAR -s 3 -B 1"),
                         ("squared-hinge", "LIBLINEAR -s 2 -B 1")):
        g = ok[(ok["problem"] == problem) & (ok["kernel"] == "linear")]
        pairs = g[g["solver"] != ref].merge(g[g["solver"] == ref], on="dataset",
                                            suffixes=("", "_ref"))
        if len(pairs):
            diff = (pairs["objective"] - pairs["objective_ref"]) / pairs["objective_ref"].abs()
            lines.append(f"{', '.join(sorted(set(pairs['solver'])))} against {ref} "
                         f"({PROBLEMS[problem].title}): objective differences from "
                         f"{diff.min():+.1e} to {diff.max():+.1e} relative over {len(pairs)} "
                         "sets (negative: ours lower).")
    # 4. accuracy spread among the solvers of a set
    for name, g in ok.groupby("dataset", sort=False):
        acc = 100 * g["test_accuracy"]
        lo, hi = g.loc[acc.idxmin()], g.loc[acc.idxmax()]
        lines.append(f"{name}: test accuracy from {100 * lo['test_accuracy']:.2f} % "
                     f"({lo['solver']}, {lo['kernel']}) to {100 * hi['test_accuracy']:.2f} % "
                     f"({hi['solver']}, {hi['kernel']}).")
    # 5. kernel evaluations of the SMO paths
    smo = ok[ok["solver"].str.startswith("SMO") & (ok["kernel"] == "rbf")]
    for name, g in smo.groupby("dataset", sort=False):
        counts = dict(zip(g["solver"], g["kernel_evals"]))
        if "SMO (second order)" in counts and "SMO (Modification 2)" in counts:
            lines.append(f"{name}, rbf: SMO's second-order path computed "
                         f"{counts['SMO (second order)'] / counts['SMO (Modification 2)']:.2f} "
                         f"times the kernel values of Keerthi's Modification 2 (both with a "
                         f"200 MB cache).")
    # 6. what was not run
    notrun = df[df["status"] != "ok"]
    if len(notrun):
        by = notrun.groupby("dataset", sort=False).size()
        per_set = df.groupby("dataset").size().iloc[0]
        lines.append("Not run or stopped: " + ", ".join(f"{k} {v}" for k, v in by.items())
                     + f" of {per_set} rows per set (the status column says why).")
    return lines


def page(df, last_written: str = "") -> str:
    """The Markdown page of the merged table, its provenance last
    (:func:`provenance_section`; ``last_written``: for rows without stamps, the
    commit that last wrote them)."""
    sets = df.drop_duplicates("dataset")
    set_lines = [f"- **{r.dataset}**: {r.n_train:,} training rows, {r.n_test:,} test rows, "
                 f"{r.n_features} features; test part: {r.split}." for r in sets.itertuples()]
    prob_rows = pd.DataFrame([{"problem": k, "what": p.title, "objective (repro.objectives)": p.objective,
                               "solved by": _solvers(df, k)}
                              for k, p in PROBLEMS.items() if (df["problem"] == k).any()])
    parts = [
        "# Every solver of the package on common sets",
        "",
        "The table none of the five papers could print: every solver of `repro.solvers` beside "
        "LIBSVM (scikit-learn's SVC) and LIBLINEAR (liblinear-official) on the same sets, "
        "with training time, kernel evaluations, test accuracy and the objective of the problem "
        f"it solves. No paper publishes these numbers: every row's verdict is `{NO_PUBLISHED}`. "
        "Built by `repro.solvers_compared` (`snakemake --cores 2 solvers_compared`); the "
        "rows are in `solvers_compared.csv`.",
        "",
        "## How it was measured",
        "",
        f"- One setting per (solver, kernel), the `setting` column of the CSV: C = 1 for every "
        f"hinge and squared-hinge model, RBF gamma = {GAMMA} (the GS-SVM paper's theta and "
        "SMO's default), Pegasos' lambda = 1/(C n), LSVM's nu = 2 C (its (7) is LIBLINEAR "
        "`-s 2 -B 1` at C = nu/2), NESVM at Section IV's mu = 5 and, as a second row, by "
        "homotopy from mu = 1 to 0.01; each solver's own stopping rule and tolerance otherwise.",
        "- Time: one fit in a forked child with BLAS/OpenMP pinned to one thread "
        "(`repro.experiments.timing.run_capped`; a fit under a second is run twice and the "
        "warm run timed), LIBLINEAR's problem built outside the clock. Fits are stopped at "
        f"{CAP_SECONDS:.0f} s; a solver that reached the cap, or whose time on the previous "
        "(smaller) set times the ratio of training rows exceeds it, is not run on the next set, "
        "and a kernel solver that would form an n x n matrix above "
        f"{KERNEL_MEMORY_MB} MB is not run: the status column says which. The sets run one "
        "after another, on a machine shared with other work: compare times within a set.",
        "- Kernel evaluations: the solver's own count (`n_kernel_evals_`; the SMO paths with "
        "their 200 MB cache count only the values they computed). LIBSVM does not report one; "
        "the linear solvers compute none (blank).",
        "- Objective: computed from the returned coefficients by `repro.objectives`, the same "
        "function for every solver of a problem and its reference, on the training part. "
        "`above best` is (P - P_best) / |P_best| against the least value any solver reached "
        f"on the same problem, set and kernel; within {SAME_OPTIMUM:g} a solver reached the "
        "optimum as far as this table can tell. Solvers of different problems are not "
        "compared by objective.",
        f"- Measured on {', '.join(sorted(set(df['cpu_model'].astype(str))))}, "
        f"{', '.join(sorted(set(df['threads'].astype(str))))} thread per fit (the rows' "
        "`cpu_model` and `threads`).",
        "- Test accuracy: on the set's own test file where one is available offline, else on "
        f"a stratified 70/30 split of the training file (seed {SPLIT_SEED}).",
        "",
        "### Sets",
        "",
        *set_lines,
        "- german.numer's features are scaled to [-1, 1] on the training part (LIBSVM's "
        "svm-scale range; the raw attributes reach 184).",
        "",
        "### Problems: which solvers solve the same one",
        "",
        to_markdown(prob_rows).rstrip(),
        "",
        "## Reading",
        "",
        *[f"- {s}" for s in reading(df)],
        "",
    ]
    for name, d in df.groupby("dataset", sort=False):
        first = d.iloc[0]
        parts += [f"## {name} ({first['n_train']:,} train / {first['n_test']:,} test)", "",
                  _dataset_table(d).rstrip(), ""]
    parts.append(provenance_section(df, last_written))
    return "\n".join(parts)
