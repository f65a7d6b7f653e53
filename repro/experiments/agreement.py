"""Reproduced against published: one figure per paper, one panel per (table,
metric), x the published value, y ours, the identity line, the band the
metric's tolerance accepts (for a tolerance measured cell by cell, a vertical
segment at each cell's published value over what its own value accepts, read
from the cell's ``tolerance`` text), each cell a point coloured by its verdict.

The input is what every table's CSV holds (:func:`repro.tables.compare`'s
frame); the band is the tolerance rule itself (:func:`repro.tolerances.tolerance_for`),
not its description, so the paper's package must have been imported (it files
its rules; ``repro.papers.catalog`` imports every paper). This layer knows no
paper: the caller names the paper and passes its frames.

    from repro.experiments.agreement import agreement_figure
    png = agreement_figure({"ldm_table2": pd.read_csv("paper_tables/ldm_table2.csv"), ...},
                           "ldm", "LDM paper: reproduced against published")
"""
from __future__ import annotations

import math
import re
import textwrap

import numpy as np
import pandas as pd

from ..tables import MISS_EXPLAINED, MISS_UNEXPLAINED, OK, STANDIN
from ..tolerances import tolerance_for
from .figures import grid
from .report import png_bytes, pyplot

# verdict class -> colour; every verdict with both numbers that is not one of
# the first three (a reading of a printed row, not compared, no tolerance) is drawn grey as "other"
OTHER = "not judged (a reading of a printed row, not compared, no tolerance)"
COLOURS = {OK: "tab:green", MISS_EXPLAINED: "tab:orange", MISS_UNEXPLAINED: "tab:red", OTHER: "tab:grey"}
LOG_SPAN = 100.0   # a panel whose positive values span more than this factor is drawn on log axes


def verdict_class(verdict: str) -> str:
    """The colour class of a verdict, the stand-in qualifier aside."""
    base = verdict.removesuffix(STANDIN)
    return base if base in (OK, MISS_EXPLAINED, MISS_UNEXPLAINED) else OTHER


def drawable(comparison: pd.DataFrame) -> pd.DataFrame:
    """The rows with both a published and a reproduced number (the points)."""
    both = comparison.dropna(subset=["published", "reproduced"])
    return both[np.isfinite(both["published"].astype(float)) & np.isfinite(both["reproduced"].astype(float))]


def panels(comparisons: dict) -> list:
    """(table, metric, its drawable rows) for every (table, metric) with a point."""
    out = []
    for table, frame in comparisons.items():
        rows = drawable(frame)
        for metric, cells in rows.groupby("metric", sort=False):
            out.append((table, metric, cells))
    return out


def _log_axes(values: np.ndarray, rule) -> bool:
    """Counts and times (a factor rule, or positive values over orders of
    magnitude) on log axes; accuracies and differences linear."""
    positive = bool(len(values)) and bool((values > 0).all())
    return positive and ((rule is not None and rule.kind == "factor") or values.max() / values.min() > LOG_SPAN)


def _band(ax, rule, lo: float, hi: float, log: bool):
    """Shade what the rule accepts between the axis limits lo and hi: y = x
    within the absolute value or factor; a one-sided bound's half-plane."""
    x = np.geomspace(lo, hi, 200) if log else np.linspace(lo, hi, 200)
    style = dict(color="tab:green", alpha=0.12, lw=0, label="accepted by the tolerance")
    if rule.kind == "abs":
        ax.fill_between(x, x - rule.value, x + rule.value, **style)
    elif rule.kind == "factor":
        ax.fill_between(x, x / rule.value, x * rule.value, **style)
    elif rule.kind == "below":
        ax.fill_between(x, lo, x, **style)
    elif rule.kind in ("above", "at_least"):
        ax.fill_between(x, x, hi, **style)


def _limits(cells: pd.DataFrame, log: bool) -> tuple:
    """Square axis limits around every point (x and y share them)."""
    v = np.concatenate([cells["published"].astype(float), cells["reproduced"].astype(float)])
    lo, hi = float(v.min()), float(v.max())
    if log:
        return lo / 1.5, hi * 1.5
    if hi - lo <= 1e-6 * max(abs(lo), abs(hi), 1.0):  # one value (up to rounding): a window around it
        pad = 0.1 * abs(lo) or 1.0
    else:
        pad = 0.06 * (hi - lo)
    return lo - pad, hi + pad


def _points(ax, cells: pd.DataFrame) -> int:
    """One scatter per (verdict class, stand-in): filled, or hollow on a
    stand-in; returns the number of points drawn."""
    cls = cells["verdict"].map(verdict_class)
    standin = cells["verdict"].str.endswith(STANDIN)
    drawn = 0
    for name, colour in COLOURS.items():
        for hollow in (False, True):
            at = (cls == name) & (standin == hollow)
            if at.any():
                ax.scatter(cells.loc[at, "published"], cells.loc[at, "reproduced"], s=28, zorder=3,
                           facecolors="none" if hollow else colour, edgecolors=colour, linewidths=1.2,
                           label=name + (STANDIN if hollow else ""))
                drawn += int(at.sum())
    return drawn


TITLE_WIDTH = 48   # characters a panel title's line holds at its size without reaching the next panel
CELL_BAND = "accepted by the cell's own tolerance"
_WITHIN = re.compile(r"^within (?:a factor of )?([-+0-9.eE]+)")


def cell_values(rule, cells: pd.DataFrame) -> np.ndarray:
    """A measured rule's value for each cell, read from the cell's
    ``tolerance`` text (:meth:`Tolerance.describe` of the cell's rule, as the
    table's CSV holds it, to its 3 significant digits); NaN where the cell has
    none (no tolerance column, or nothing measured for that cell)."""
    if "tolerance" not in cells:
        return np.full(len(cells), np.nan)
    out = []
    for text in cells["tolerance"].fillna("").astype(str):
        found = _WITHIN.match(text)
        out.append(float(found.group(1)) if found else np.nan)
    return np.asarray(out, dtype=float)


def _cell_bands(ax, rule, cells: pd.DataFrame, values: np.ndarray) -> int:
    """A measured rule differs cell by cell: at each cell's published value a
    vertical segment over what that cell's own tolerance accepts (ours within
    the value, or within the factor, of the published one), all one line with
    breaks between the cells; returns the number of segments drawn."""
    xs, ys = [], []
    for published, value in zip(cells["published"].astype(float), values):
        if not math.isfinite(value):
            continue
        if rule.kind == "abs":
            lo, hi = published - value, published + value
        elif rule.kind == "factor" and published > 0 and value > 0:
            lo, hi = published / value, published * value
        else:
            continue
        xs += [published, published, np.nan]
        ys += [lo, hi, np.nan]
    if xs:
        ax.plot(xs, ys, color="tab:green", alpha=0.35, lw=3.5, solid_capstyle="butt", zorder=1,
                label=CELL_BAND)
    return len(xs) // 3


def _rule_text(rule, values: np.ndarray) -> str:
    """The panel's tolerance in words: the rule, or for a measured one the
    range of its cells' values (never the rule's unused NaN)."""
    if rule is None:
        return "no tolerance"
    if not rule.measured:
        return rule.describe()
    finite = values[np.isfinite(values)]
    if not len(finite):
        return f"measured per cell, none here ({rule.measured_as})"
    lo, hi = float(finite.min()), float(finite.max())
    span = f"{lo:.3g}" if f"{lo:.3g}" == f"{hi:.3g}" else f"{lo:.3g} to {hi:.3g}"
    what = f"a factor of {span}" if rule.kind == "factor" else f"{span}{rule.unit}"
    return f"within {what}, per cell ({rule.measured_as})"


def panel_title(table: str, metric: str, rule_text: str, n: int) -> str:
    """The panel's title, every line at most :data:`TITLE_WIDTH` characters:
    table and metric (a long metric wraps at its underscores), then the
    tolerance and the number of cells."""
    head = [f"{table}:"]
    for word in metric.split("_"):  # a long metric (a claim) wraps at its underscores
        joiner = " " if head[-1].endswith(":") else "_"
        if len(head[-1]) + 1 + len(word) <= TITLE_WIDTH:
            head[-1] += joiner + word
        else:
            head[-1] += "_" if joiner == "_" else ""
            head.append(word)
    body = textwrap.wrap(f"{rule_text}; {n} cell{'' if n == 1 else 's'}", TITLE_WIDTH)
    return "\n".join(head + body)


def _panel(ax, paper: str, table: str, metric: str, cells: pd.DataFrame):
    rule = tolerance_for(paper, metric)
    values = np.concatenate([cells["published"].astype(float), cells["reproduced"].astype(float)])
    log = _log_axes(values, rule)
    lo, hi = _limits(cells, log)
    per_cell = cell_values(rule, cells) if rule is not None and rule.measured else np.full(len(cells), np.nan)
    if rule is not None and not rule.measured:
        _band(ax, rule, lo, hi, log)
    elif rule is not None:  # a measured rule's band differs cell by cell: one segment per cell
        _cell_bands(ax, rule, cells, per_cell)
    ax.plot([lo, hi], [lo, hi], color="k", lw=0.8, label="ours = published")
    _points(ax, cells)
    ax.set(xlim=(lo, hi), ylim=(lo, hi), xlabel="published", ylabel="ours")
    if log:
        from matplotlib.ticker import NullFormatter

        ax.set(xscale="log", yscale="log")
        for axis in (ax.xaxis, ax.yaxis):  # within a decade the minor labels overprint each other
            axis.set_minor_formatter(NullFormatter())
    ax.set_title(panel_title(table, metric, _rule_text(rule, per_cell), len(cells)), fontsize=8.5)


def _legend(fig, axes):
    """One legend below the panels: the verdict classes drawn (a stand-in's
    hollow, as "<verdict> (stand-in)"), the band and the identity line, each once."""
    seen = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(label, handle)
    order = [label for name in COLOURS for label in (name, name + STANDIN)]
    labels = [label for label in [*order, "accepted by the tolerance", CELL_BAND, "ours = published"]
              if label in seen]
    fig.legend([seen[label] for label in labels], labels, loc="outside lower center",
               ncol=min(len(labels), 4), fontsize=8, frameon=False)


def agreement_axes(comparisons: dict, paper: str, title: str):
    """The figure of :func:`agreement_figure`, unsaved (tests count its points)."""
    plt = pyplot()
    found = panels(comparisons)
    if not found:
        fig, ax = plt.subplots(figsize=(5, 2), layout="constrained")
        ax.set_axis_off()
        ax.text(0.5, 0.5, "no cell with both a published and a reproduced value", ha="center")
        fig.suptitle(title)
        return fig
    fig, axes = grid(plt, len(found), ncols=min(3, math.ceil(math.sqrt(len(found)))), panel=(4.0, 4.4))
    for ax, (table, metric, cells) in zip(axes, found):
        _panel(ax, paper, table, metric, cells)
    _legend(fig, axes)
    fig.suptitle(title)
    return fig


def agreement_figure(comparisons: dict[str, pd.DataFrame], paper: str, title: str) -> bytes:
    """PNG of reproduced against published for one paper: ``comparisons`` maps
    a table id to its comparison frame (the table's CSV as written, or
    :func:`repro.tables.compare`'s output; rows without both numbers, and a
    CSV's extra rows such as records, are left out); ``paper`` is the id its
    tolerances are filed under."""
    return png_bytes(agreement_axes(comparisons, paper, title))
