"""Paired significance tests between two methods, and win/tie/loss counts.

The papers compare methods on the same splits: GS-SVM's Table 2 says which sets
show a significant difference over the 10 outer folds; the LDM paper marks
every dataset better/worse than SVM by a paired t-test at the 95% level over
its random partitions and sums the marks into win/tie/loss counts. Both use
:func:`paired_comparison` on records with one row per (dataset, method, split).

Conventions, stated once:

* two-tailed paired t-test (``scipy.stats.ttest_rel``) on the per-split
  scores of method ``a`` and method ``b``, splits paired by their index;
* fewer than two paired splits: no test (t and p are NaN, a tie);
* all differences exactly equal: zero variance, where the t statistic is
  undefined; zero differences are a tie (p = 1), a constant non-zero
  difference is significant (p = 0) in its direction, however few the pairs
  (differences equal only up to rounding go to scipy, which gives a large t);
* outcome, from ``a``'s side: ``win`` when p < ``level`` and ``a`` scores
  higher on average, ``loss`` when p < ``level`` and lower, ``tie`` otherwise.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

WIN, TIE, LOSS = "win", "tie", "loss"


def paired_ttest(a, b) -> tuple[float, float]:
    """(t, p) of the two-tailed paired t-test of ``a`` against ``b`` (see the
    module docstring for fewer than two pairs and constant differences)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired samples differ in shape: {a.shape} vs {b.shape}")
    diff = a - b
    if len(diff) < 2:
        return np.nan, np.nan
    if np.all(diff == diff[0]):
        if diff[0] == 0.0:
            return np.nan, 1.0
        return float(np.inf * np.sign(diff[0])), 0.0
    t, p = stats.ttest_rel(a, b)
    return float(t), float(p)


def paired_comparison(records: pd.DataFrame, a: str, b: str, *, score: str, by: str = "dataset",
                      method: str = "method", pair: str = "split_index", level: float = 0.05,
                      scale: float = 1.0) -> pd.DataFrame:
    """One row per group ``by``: ``a`` against ``b`` on the splits both have.

    Columns: ``by``, ``splits`` (paired splits), ``mean_a``, ``mean_b``,
    ``mean_difference`` (a - b), ``t``, ``p``, ``significant`` (p < level),
    ``outcome`` (win / tie / loss for ``a``), ``level``. ``scale`` multiplies
    the means (100 for accuracies shown in percent); the test is unaffected.
    """
    rows = []
    for name, g in records.groupby(by, sort=False):
        wide = g.pivot(index=pair, columns=method, values=score)
        if a not in wide or b not in wide:
            continue
        wide = wide[[a, b]].dropna()
        t, p = paired_ttest(wide[a], wide[b])
        difference = float((wide[a] - wide[b]).mean()) if len(wide) else np.nan
        significant = bool(p < level)  # False for NaN
        outcome = (WIN if difference > 0 else LOSS) if significant else TIE
        rows.append({by: name, "splits": len(wide), "mean_a": scale * wide[a].mean(),
                     "mean_b": scale * wide[b].mean(), "mean_difference": scale * difference,
                     "t": t, "p": p, "significant": significant, "outcome": outcome, "level": level})
    columns = [by, "splits", "mean_a", "mean_b", "mean_difference", "t", "p", "significant", "outcome", "level"]
    return pd.DataFrame(rows, columns=columns)


def detectable_difference(a, b, level: float = 0.05) -> float:
    """The smallest mean difference the two-tailed paired t-test at ``level``
    declares significant at the spread of the observed differences:
    t_{1-level/2, n-1} * sd(a - b) / sqrt(n). A claimed difference below it
    cannot be resolved by this protocol (it would come out a tie at least half
    the time even if true); NaN with fewer than two pairs."""
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if len(diff) < 2:
        return np.nan
    return float(stats.t.ppf(1 - level / 2, len(diff) - 1) * diff.std(ddof=1) / np.sqrt(len(diff)))


def paired_differences(records: pd.DataFrame, a: str, b: str, *, score: str, by: str = "dataset",
                       method: str = "method", pair: str = "split_index") -> dict:
    """Group ``by`` -> the per-split differences ``a - b`` on the splits both have."""
    out = {}
    for name, g in records.groupby(by, sort=False):
        wide = g.pivot(index=pair, columns=method, values=score)
        if a in wide and b in wide:
            wide = wide[[a, b]].dropna()
            out[name] = (wide[a] - wide[b]).to_numpy()
    return out


def win_tie_loss(comparison: pd.DataFrame) -> dict:
    """Counts of the ``outcome`` column of :func:`paired_comparison`: the
    LDM paper's last table row, from the first method's side."""
    counts = comparison["outcome"].value_counts()
    return {k: int(counts.get(k, 0)) for k in (WIN, TIE, LOSS)}
