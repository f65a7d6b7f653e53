"""What every paper's figures share beyond pyplot and PNG bytes (:mod:`.report`):
line styles that keep coinciding lines apart, one legend for a grid of panels,
the check that no legend entry names a line nobody can see, and the sentence
a page prints where two lines coincide.

Figures are drawn with pyplot (``report.pyplot()``) and stay figure objects
until ``report.png_bytes`` turns them into a file, so tests can inspect them
(:func:`undrawn_legend_entries`) before they are closed.
"""
from __future__ import annotations

import math

import numpy as np

# Line styles in drawing order: the first is a wide, pale solid line drawn
# underneath, every next one thinner, dashed, marked and on top, so a line
# hidden under another's stays visible (the marks every ``MARK_EVERY`` of the
# points: a mark per point would cover a 100-point curve).
_DASHES = ["-", "--", ":", "-.", (0, (5, 1, 1, 1))]
_MARKERS = [None, "o", "s", "^", "D"]
MARK_EVERY = 0.1   # a fraction of the line's length (matplotlib's float markevery)


def line_style(i: int) -> dict:
    """Keyword arguments of ``ax.plot`` for the ``i``-th line of a panel."""
    if i == 0:
        return {"ls": "-", "lw": 2.6, "alpha": 0.55, "zorder": 2}
    k = i % len(_DASHES) or 1
    # the marks of successive lines start half a step apart: coinciding lines' marks do not overlap
    return {"ls": _DASHES[k], "lw": 1.3, "marker": _MARKERS[k], "ms": 4,
            "markevery": ((i - 1) * MARK_EVERY / 2 % MARK_EVERY, MARK_EVERY),
            "mfc": "none", "zorder": 2 + i}


def shared_legend(fig, axes, ncol: int | None = None, fontsize: int = 9):
    """One legend for all ``axes`` below them, outside every panel (the
    figure must use the constrained layout, which makes room for it): each
    label once, in the order first drawn."""
    seen = {}
    for ax in np.ravel(axes):
        for handle, label in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(label, handle)
    if not seen:
        return None
    return fig.legend(list(seen.values()), list(seen), loc="outside lower center",
                      ncol=ncol or min(len(seen), 4), fontsize=fontsize, frameon=False)


def grid(plt, n: int, ncols: int, panel=(4.2, 3.4), **kw):
    """A figure of ``n`` panels in rows of ``ncols`` (the constrained layout,
    so a :func:`shared_legend` fits below); the unused slots of the last row
    removed. Returns (figure, the ``n`` axes in reading order)."""
    ncols = max(1, min(ncols, n))
    nrows = max(1, math.ceil(n / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(panel[0] * ncols, panel[1] * nrows + 0.6),
                             squeeze=False, layout="constrained", **kw)
    flat = list(axes.ravel())
    for ax in flat[n:]:
        ax.remove()
    return fig, flat[:n]


CAPPED = "stopped at the cap"


def mark_capped(ax, x, y, label: str = CAPPED, **kw):
    """Mark where capped runs stopped: a black 'x' at each (x, y), the last
    point of a curve cut off by an iteration, example or time cap (or, for a
    fit killed at a time cap, the cap itself); one legend entry, ``label``
    (it should start with :data:`CAPPED`). Nothing drawn when there is no point."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if not len(x):
        return None
    return ax.plot(x, y, ls="none", marker="x", ms=kw.pop("ms", 7), mew=kw.pop("mew", 1.6),
                   color=kw.pop("color", "k"), zorder=kw.pop("zorder", 6), label=label, **kw)[0]


def single_x_note(xs, what: str) -> str:
    """A panel title's addition where its lines have one x value each (e.g. a
    run on one set): the markers are all there is, and the title says so."""
    values = np.unique(np.asarray(xs, dtype=float)[np.isfinite(np.asarray(xs, dtype=float))])
    return f" (one {what}: points, no line)" if len(values) == 1 else ""


# ------------------------------------------------------------------ the legend check
def _shown(values, ax_scale: str) -> np.ndarray:
    """Which of ``values`` an axis of that scale can show: finite, and positive on a log axis."""
    v = np.asarray(values, dtype=float)
    ok = np.isfinite(v)
    return ok & (v > 0) if ax_scale == "log" else ok


def drawn_points(artist, ax) -> int:
    """How many of an artist's points the axes can show (finite, positive on a
    log axis): lines, scatter collections, bars and bar containers."""
    from matplotlib.collections import Collection
    from matplotlib.container import Container
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    if isinstance(artist, Container):
        return sum(drawn_points(child, ax) for child in artist if child is not None)
    if isinstance(artist, Line2D):
        xy = np.asarray(artist.get_xydata(), dtype=float).reshape(-1, 2)
    elif isinstance(artist, Collection):
        xy = np.asarray(artist.get_offsets(), dtype=float).reshape(-1, 2)
    elif isinstance(artist, Rectangle):
        x, h = artist.get_x() + artist.get_width() / 2, artist.get_y() + artist.get_height()
        return int(_shown([x], ax.get_xscale())[0] and _shown([h], ax.get_yscale())[0] and h != 0)
    else:  # a patch of another shape, text: counts as drawn
        return 1
    return int((_shown(xy[:, 0], ax.get_xscale()) & _shown(xy[:, 1], ax.get_yscale())).sum())


def _labelled_artists(fig) -> dict:
    """label -> [(artist, its axes)] of every labelled artist of the figure."""
    out = {}
    for ax in fig.axes:
        for artist in [*ax.lines, *ax.collections, *ax.patches, *ax.containers]:
            label = artist.get_label()
            if label and not label.startswith("_"):
                out.setdefault(label, []).append((artist, ax))
    return out


def undrawn_legend_entries(fig) -> list:
    """The labels of every legend of ``fig`` (the figure's and each panel's)
    that no artist with at least one point the axes can show carries: a legend
    entry for a line that is not there. Empty when every entry is drawn."""
    artists = _labelled_artists(fig)
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes)]
    missing = []
    for legend in filter(None, legends):
        for text in legend.get_texts():
            label = text.get_text()
            if not any(drawn_points(a, ax) for a, ax in artists.get(label, [])):
                missing.append(label)
    return missing


def assert_legend_entries_drawn(fig) -> None:
    """Fail, naming them, when a legend of ``fig`` lists something not drawn."""
    missing = undrawn_legend_entries(fig)
    assert not missing, f"legend entries with no point drawn: {missing}"


# ------------------------------------------------------------------ coinciding lines
def coinciding(curves: dict, span: float, fraction: float = 0.01) -> list:
    """The pairs of lines of one panel that coincide: (label a, label b, the
    largest difference between them) where that difference is at most
    ``fraction`` of the panel's ``span`` (the width of a drawn line, at the
    figures' sizes). ``curves``: label -> values on a common index (a
    pandas Series; compared where both have a value)."""
    labels = list(curves)
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            diff = (curves[a] - curves[b]).abs().dropna()
            if len(diff) and diff.max() <= fraction * span:
                out.append((a, b, float(diff.max())))
    return out


def coincidence_sentence(found: list, what: str, fraction: float = 0.01) -> str:
    """The page's sentence on coinciding lines, from :func:`coinciding`'s
    pairs per panel (``found``: (panel, a, b, largest difference)); empty
    when no lines coincide."""
    if not found:
        return ""
    by_pair = {}
    for panel, a, b, diff in found:
        by_pair.setdefault((a, b), []).append((panel, diff))
    parts = [f"the lines of {a} and {b} coincide on {', '.join(p for p, _ in where)} (their {what} differ by "
             f"at most {max(d for _, d in where):.3g})" for (a, b), where in by_pair.items()]
    return ("In the figure, " + "; ".join(parts) + f": within {fraction:.0%} of the panel's range, the width "
            "of a line. Each line has its own dashes and markers and is drawn over the first, wide and pale "
            "one, so every line shows.")
