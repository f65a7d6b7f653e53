"""
LDM's margin distribution beside the SVM's
==========================================

The Large margin Distribution Machine (:class:`repro.solvers.LDM`) adds to the
bias-free soft-margin SVM two terms on the margins :math:`\\gamma_i = y_i w^\\top
x_i` of the training set: it pays :math:`\\lambda_1` times their variance and is
paid :math:`\\lambda_2` times their mean. With :math:`\\lambda_1 = \\lambda_2 = 0`
it *is* the bias-free SVM.

Here, on the UCI heart set (270 rows, 13 features) split in halves as the LDM
paper does and scaled to [0, 1] on the training half, we fit the bias-free linear
SVM (LIBLINEAR, ``SVM(fit_intercept=False)``) and LDM at several
:math:`\\lambda_1`, and look at the training margins: their distribution, mean and
variance, and the test accuracy.
"""

# %%
# Fit the SVM and LDM along lambda1
# ---------------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MinMaxScaler

from repro.datasets import load
from repro.solvers import LDM, SVM

X, y = load("heart")
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.5, random_state=0, stratify=y)
scaler = MinMaxScaler().fit(X_train)
X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)

C = 1.0
svm = SVM(C=C, kernel="linear", fit_intercept=False, tol=1e-3, max_iter=10_000,
          random_state=0).fit(X_train, y_train)
sign = np.where(y_train == svm.classes_[1], 1.0, -1.0)
svm_margins = sign * svm.decision_function(X_train)


def fit_ldm(lambda1, lambda2):
    """LDM by dual coordinate descent (Algorithm 1), every setting named."""
    return LDM(C=C, lambda1=lambda1, lambda2=lambda2, kernel="linear", solver="cd",
               tol=1e-2, max_iter=10_000, stop="tol", variance="normalised",
               cd_order="random", shrinking=True, random_state=0,
               history_every=None).fit(X_train, y_train)


LAMBDA2 = 2.0**-2
lambda1_grid = 2.0 ** np.arange(-6, 5)
path = []
for lambda1 in lambda1_grid:
    ldm = fit_ldm(lambda1, LAMBDA2)
    margins = ldm.margins(X_train, y_train)   # y_i f(x_i), +1 for classes_[1]
    path.append((lambda1, margins.mean(), margins.var(), ldm.score(X_test, y_test),
                 ldm.converged_))

print(f"SVM (no bias): margin mean {svm_margins.mean():.3f}, "
      f"variance {svm_margins.var():.3f}, test accuracy {svm.score(X_test, y_test):.3f}")
print(f"{'lambda1':>8s} {'mean':>7s} {'variance':>9s} {'test acc':>9s} converged")
for lambda1, mean, var, acc, converged in path:
    print(f"{lambda1:8.4g} {mean:7.3f} {var:9.3f} {acc:9.3f} {converged}")

# %%
# The margins' distribution, and its mean and variance along lambda1
# ------------------------------------------------------------------
ldm_small = fit_ldm(2.0**-6, LAMBDA2)
ldm_large = fit_ldm(2.0**4, LAMBDA2)

fig, (ax_h, ax_p) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
bins = np.linspace(-2.5, 3.5, 41)
for margins, label, color in [
    (svm_margins, "SVM (no bias)", "tab:orange"),
    (ldm_small.margins(X_train, y_train), r"LDM, $\lambda_1 = 2^{-6}$", "tab:blue"),
    (ldm_large.margins(X_train, y_train), r"LDM, $\lambda_1 = 2^{4}$", "tab:green"),
]:
    ax_h.hist(margins, bins=bins, histtype="step", lw=2, color=color,
              label=f"{label}: mean {margins.mean():.2f}, var {margins.var():.2f}")
ax_h.axvline(1.0, color="k", lw=0.8, ls=":")
ax_h.set_xlabel(r"training margin $y_i f(x_i)$")
ax_h.set_ylabel("rows")
ax_h.set_title(rf"heart, linear kernel, C = 1, $\lambda_2 = 2^{{-2}}$")
ax_h.legend(fontsize=8, loc="upper left")

lam = [p[0] for p in path]
ax_p.plot(lam, [p[1] for p in path], "o-", label="margin mean")
ax_p.plot(lam, [p[2] for p in path], "s-", label="margin variance")
ax_p.axhline(svm_margins.mean(), color="tab:blue", ls=":", lw=1)
ax_p.axhline(svm_margins.var(), color="tab:orange", ls=":", lw=1,
             label="SVM's (dotted)")
ax_p.set_xscale("log", base=2)
ax_p.set_xlabel(r"$\lambda_1$ (weight of the margin variance)")
ax_acc = ax_p.twinx()
ax_acc.plot(lam, [p[3] for p in path], "k^--", label="test accuracy")
ax_acc.set_ylabel("test accuracy (other half)")
lines = ax_p.get_legend_handles_labels()
lines2 = ax_acc.get_legend_handles_labels()
ax_p.legend(lines[0] + lines2[0], lines[1] + lines2[1], fontsize=8, loc="center left")
plt.show()

# %%
# Reading it
# ----------
# Raising :math:`\lambda_1` narrows the margins' distribution, as the objective
# says it should; on this one split the test accuracy moves by a few rows. One
# split proves nothing about accuracy: the LDM paper's claim that LDM is
# significantly better than the SVM on 12 of 20 sets (Table 2, linear kernel)
# **does not hold** in the committed reproduction, where LDM wins, ties and loses
# 1/12/4 against the SVM over 30 partitions per set, and its claim that LDM's
# margin distribution "lies to the right" of the SVM's (Figure 1) does not hold
# either (``paper_tables/README.md``; ``paper_tables/ldm_table2.md``,
# ``paper_tables/ldm_figure1.md``).
