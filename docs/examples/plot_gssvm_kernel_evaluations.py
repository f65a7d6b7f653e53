"""
GS-SVM's kernel evaluations against SMO's
=========================================

The GS-SVM paper's claim (its Table 1) is about cost in kernel evaluations: the
greedy stagewise algorithm, which adds one training example per step and never
revisits earlier coefficients, needs 10 to 30 times fewer kernel values than SMO.
Both estimators count the values they compute in ``n_kernel_evals_``.

SMO is run in *count mode* (``kernel_cache=False``: no cache, every kernel value
it needs is computed and counted, the paper's setting), with Keerthi's
Modifications 1 and 2, over a few values of C; GS-SVM has no C (it is a
hard-margin method whose early stop is its capacity control). LIBSVM's
second-order path (``working_set='second_order'``, with its column cache) is shown
beside them: there ``n_kernel_evals_`` counts the values it computed, cached ones
only once.

``count_table_memory=400`` lets count mode compute a problem's kernel matrix once
(a4a's takes 183 MB) and read every value from it while still counting each read
as an evaluation: the same steps and the same ``n_kernel_evals_``, in less time.
"""

# %%
# Count the kernel evaluations on a1a and a4a
# -------------------------------------------
import time

import matplotlib.pyplot as plt
import numpy as np

from repro.datasets import load
from repro.solvers import GSSVM, SMO

C_GRID = [1.0, 8.0, 64.0]
DATASETS = ["a1a", "a4a"]  # 1,605 and 4,781 rows of Adult; 123 binary features

counts = {}   # (dataset, method, C) -> (evaluations, seconds)
for name in DATASETS:
    X, y = load(name)
    start = time.perf_counter()
    gs = GSSVM(kernel="rbf", gamma=0.05, max_steps=None, history_every=None).fit(X, y)
    counts[name, "GS-SVM", None] = (gs.n_kernel_evals_, time.perf_counter() - start)
    for C in C_GRID:
        for label, kwargs in [
            ("SMO-1 (count mode)", dict(working_set="keerthi", modification=1,
                                        kernel_cache=False, count_table_memory=400)),
            ("SMO-2 (count mode)", dict(working_set="keerthi", modification=2,
                                        kernel_cache=False, count_table_memory=400)),
            ("SMO second order", dict(working_set="second_order", cache_size=200,
                                      shrinking=True)),
        ]:
            smo = SMO(C=C, kernel="rbf", gamma=0.05, tol=1e-3, random_state=None,
                      history_every=None, **kwargs)
            start = time.perf_counter()
            smo.fit(X, y)
            counts[name, label, C] = (smo.n_kernel_evals_, time.perf_counter() - start)

print(f"{'set':5s} {'method':20s} {'C':>4s} {'evals (1e6)':>12s} {'fit s':>7s}")
for (name, label, C), (evals, seconds) in counts.items():
    c_text = "-" if C is None else f"{C:g}"
    print(f"{name:5s} {label:20s} {c_text:>4s} {evals / 1e6:12.3f} {seconds:7.2f}")

# %%
# The ratio SMO / GS-SVM
# ----------------------
for name in DATASETS:
    gs_evals = counts[name, "GS-SVM", None][0]
    for C in C_GRID:
        r1 = counts[name, "SMO-1 (count mode)", C][0] / gs_evals
        r2 = counts[name, "SMO-2 (count mode)", C][0] / gs_evals
        print(f"{name} C={C:g}: SMO-1 / GS-SVM = {r1:.1f}, SMO-2 / GS-SVM = {r2:.1f}")

# %%
# Kernel evaluations per method (log scale)
# -----------------------------------------
methods = ["SMO-1 (count mode)", "SMO-2 (count mode)", "SMO second order"]
fig, axes = plt.subplots(1, len(DATASETS), figsize=(10, 4), layout="constrained",
                         sharey=True)
width = 0.25
for ax, name in zip(axes, DATASETS):
    x = np.arange(len(C_GRID))
    for k, label in enumerate(methods):
        values = [counts[name, label, C][0] for C in C_GRID]
        ax.bar(x + (k - 1) * width, values, width, label=label)
    ax.axhline(counts[name, "GS-SVM", None][0], color="k", ls="--",
               label="GS-SVM (no C)")
    ax.set_xticks(x, [f"C = {C:g}" for C in C_GRID])
    ax.set_yscale("log")
    ax.set_title(f"{name}: RBF gamma 0.05")
axes[0].set_ylabel("kernel evaluations in training")
axes[0].legend(fontsize=8, loc="upper left")
plt.show()

# %%
# Reading it
# ----------
# GS-SVM computes one kernel row over the still-unused examples per step, so its
# count is fixed by the number of steps; SMO in count mode recomputes kernel
# values at every step and its count grows with C, so the ratio depends on the C
# one compares at: small at C = 1, larger at C = 64. The paper averages SMO over C
# values it does not name; the committed reproduction
# (``paper_tables/gs_svm_table1.md``, SMO averaged over C from 0.5 to 64) gives
# ratios of 18.3 to 31.4, and the claim "10 to 30" **holds** there
# (``paper_tables/README.md``). A kernel cache changes the picture: LIBSVM's
# second-order path computes far fewer values than count mode, and with it SMO
# fits a4a in 0.181 of SVC's time where GS-SVM takes 0.114
# (``paper_tables/performance.md``; GS-SVM solves another problem, so only its
# accuracy is comparable).
