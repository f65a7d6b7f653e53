"""
NESVM on a large sparse set: the smoothing parameter and the restart scheme
===========================================================================

NESVM (:class:`repro.solvers.NESVM`) minimises a *smoothed* C-SVM primal
:math:`F_\\mu(w, b)` by Nesterov's method, two sparse matrix-vector products per
step. The smoothing :math:`\\mu` sets both the speed and the distance to the real
hinge problem

.. math::

   P(w, b) = \\tfrac12 \\|w\\|^2 + C \\sum_i \\max(0,\\ 1 - y_i (w^\\top x_i + b)).

On a9a (32,561 rows, 123 sparse features, 451,592 non-zeros) we trace
:math:`P` along three runs: the paper's Algorithm 1 at the paper's
:math:`\\mu = 5`, the same at :math:`\\mu = 0.03`, and the restart scheme
(``scheme='restart'``: FISTA with backtracking and adaptive restart on the same
:math:`F_\\mu`, beyond the paper) at :math:`\\mu = 0.03`; beside them LIBLINEAR's
dual coordinate descent (scikit-learn's ``LinearSVC(loss='hinge')``).
"""

# %%
# Fit and trace the unsmoothed primal
# -----------------------------------
import time

import matplotlib.pyplot as plt
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from repro.datasets import load
from repro.objectives import hinge_primal
from repro.solvers import NESVM

X, y = load("a9a")
X_test, y_test = load("a9a", split="test")
C = 1.0
print("a9a", X.shape, "nnz", X.nnz)

settings = {
    r"NESVM paper, $\mu$ = 5": dict(scheme="paper", mu=5.0, tol=1e-6),
    r"NESVM paper, $\mu$ = 0.03": dict(scheme="paper", mu=0.03, tol=1e-7),
    r"NESVM restart, $\mu$ = 0.03": dict(scheme="restart", mu=0.03, tol=1e-6),
}
runs = {}
with threadpool_limits(limits=1):
    for name, kwargs in settings.items():
        est = NESVM(model="C", C=C, fit_intercept=True, homotopy=False,
                    hinge_threshold="eq6", lipschitz="power", stop_rule="relative",
                    prox_center="zero", max_iter=100_000, history_every=10, **kwargs)
        start = time.perf_counter()
        est.fit(X, y)
        wall = time.perf_counter() - start
        primal = hinge_primal(est.coef_[0], X, y, C=C, intercept=est.intercept_[0])
        runs[name] = dict(time=est.history_["time"], primal=est.history_["primal"],
                          final=primal, wall=wall, steps=int(est.n_iter_),
                          accuracy=est.score(X_test, y_test))

    liblinear = LinearSVC(loss="hinge", C=C, dual=True, tol=1e-1, fit_intercept=True,
                          intercept_scaling=1.0, max_iter=1000, random_state=0)
    start = time.perf_counter()
    liblinear.fit(X, y)
    lib_wall = time.perf_counter() - start
lib_primal = hinge_primal(liblinear.coef_[0], X, y, C=C,
                          intercept=liblinear.intercept_[0])

# Every fitted model's primal is an upper bound on the optimum: P* is the least of
# them and of a reference fit, LIBLINEAR at a tight tolerance with the bias feature
# scaled by 10 (so that the bias is penalised less), as paper_tables/performance.md
# takes it.
reference = LinearSVC(loss="hinge", C=C, dual=True, tol=1e-4, fit_intercept=True,
                      intercept_scaling=10.0, max_iter=100_000, random_state=0).fit(X, y)
ref_primal = hinge_primal(reference.coef_[0], X, y, C=C,
                          intercept=reference.intercept_[0])
p_star = min([lib_primal, ref_primal] + [r["final"] for r in runs.values()]
             + [r["primal"].min() for r in runs.values()])
print(f"P* = {p_star:.4f}")
print(f"{'solver':28s} {'steps':>6s} {'fit s':>7s} {'(P - P*)/P*':>12s} {'test acc':>9s}")
for name, r in runs.items():
    print(f"{name.replace('$', '').replace(chr(92), ''):28s} {r['steps']:6d} {r['wall']:7.2f} "
          f"{(r['final'] - p_star) / p_star:12.2e} {r['accuracy']:9.4f}")
print(f"{'LinearSVC (LIBLINEAR -s 3)':28s} {'':6s} {lib_wall:7.2f} "
      f"{(lib_primal - p_star) / p_star:12.2e} {liblinear.score(X_test, y_test):9.4f}")

# %%
# The primal gap against time
# ---------------------------
fig, ax = plt.subplots(figsize=(7.5, 4.5), layout="constrained")
for name, r in runs.items():
    gap = (r["primal"] - p_star) / p_star
    ax.plot(r["time"], gap.clip(min=1e-7), label=name)
ax.plot([lib_wall], [max((lib_primal - p_star) / p_star, 1e-7)], "k*", ms=12,
        label="LinearSVC (LIBLINEAR -s 3, tol 0.1), its fit")
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("seconds (trace time)")
ax.set_ylabel(r"$(P - P^*) / P^*$, hinge primal, bias unpenalised")
ax.set_title("a9a, C = 1")
ax.legend(fontsize=8)
plt.show()

# %%
# Reading it
# ----------
# At the paper's :math:`\mu = 5` NESVM stops fast, but at the optimum of another
# problem: its hinge primal stays far above :math:`P^*`. A small :math:`\mu`
# reaches the hinge problem's optimum, in many more steps with the paper's
# constant step and in far fewer with the restart scheme. LIBLINEAR remains
# faster: to within 1e-3 of :math:`P^*`, ``paper_tables/performance.md`` ("NESVM
# beside LIBLINEAR -s 3, to the same primal accuracy") measured NESVM at 44
# (paper's scheme) and 3.53 (restart) times LIBLINEAR's time on a9a, 47 and 3.79
# on w8a.
