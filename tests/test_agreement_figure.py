"""The reproduced-against-published figure (repro.experiments.agreement), drawn
from the committed comparison CSVs of two tables."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro.papers.catalog import SUMMARIES  # noqa: F401  (imports every paper: files its tolerances)
from repro.experiments.agreement import (COLOURS, agreement_axes, agreement_figure, drawable,
                                         verdict_class)
from repro.experiments.figures import assert_legend_entries_drawn
from repro.tables import MISS_UNEXPLAINED, OK

TABLES = Path(__file__).resolve().parents[1] / "paper_tables"


def _points(fig) -> int:
    """Points drawn as verdicts (the band and the identity line are not points)."""
    return sum(len(c.get_offsets()) for ax in fig.axes for c in ax.collections
               if c.get_label().removesuffix(" (stand-in)") in COLOURS)


@pytest.mark.parametrize("paper, table", [("gs_svm", "gs_svm_table2"), ("ldm", "ldm_table2")])
def test_one_point_per_row_with_both_numbers_and_no_empty_legend_entry(paper, table):
    frame = pd.read_csv(TABLES / f"{table}.csv")
    both = frame.dropna(subset=["published", "reproduced"])
    assert 0 < len(both) < len(frame) or paper == "gs_svm"  # ldm_table2 has cells without a value
    fig = agreement_axes({table: frame}, paper, f"{table}: reproduced against published")
    assert _points(fig) == len(both)
    assert len(fig.axes) == both.metric.nunique()  # one panel per (table, metric)
    assert_legend_entries_drawn(fig)
    legend = {t.get_text() for t in fig.legends[0].get_texts()}
    assert {verdict_class(v) + (" (stand-in)" if v.endswith(" (stand-in)") else "")
            for v in both.verdict} <= legend


def test_the_band_is_the_tolerance_rule_and_one_sided_rules_shade_a_half_plane(monkeypatch):
    from repro.tolerances import TOLERANCES, Tolerance

    # a constant absolute rule (LSVM's alpha * nu had one until issue 46 left the code's settings unjudged)
    monkeypatch.setitem(TOLERANCES, ("lsvm", "alpha_times_nu"), Tolerance("abs", 1e-12, "equal up to rounding"))
    frame = pd.DataFrame({"dataset": ["a", "b"], "method": ["m", "m"], "metric": ["alpha_times_nu"] * 2,
                          "published": [1.9, 1.9], "reproduced": [1.9, np.nan], "verdict": [OK, "not run"]})
    fig = agreement_axes({"t": frame}, "lsvm", "t")
    band = next(c for c in fig.axes[0].collections if c.get_label() == "accepted by the tolerance")
    ys = band.get_paths()[0].vertices[:, 1]
    xs = band.get_paths()[0].vertices[:, 0]
    assert np.nanmax(ys - xs) == pytest.approx(1e-12, rel=1e-3, abs=0)  # the rule's "within 1e-12"
    # a measured rule differs cell by cell (gs_svm's accuracy): no band
    frame = frame.assign(metric="accuracy_percent", published=[80.0, 90.0], reproduced=[81.0, np.nan])
    fig = agreement_axes({"t": frame}, "gs_svm", "t")
    assert not [c for c in fig.axes[0].collections if c.get_label() == "accepted by the tolerance"]
    claim = pd.DataFrame({"dataset": ["s"], "method": ["NESVM"], "metric": ["n_train_pegasos_slower_up_to"],
                          "published": [10000.0], "reproduced": [0.0], "verdict": [MISS_UNEXPLAINED]})
    fig = agreement_axes({"nesvm_time": claim}, "nesvm", "t")
    band = next(c for c in fig.axes[0].collections if c.get_label() == "accepted by the tolerance")
    v = band.get_paths()[0].vertices
    assert (v[:, 1] <= v[:, 0] + 1e-9).all()  # "below": ours < published, under the identity line


def test_the_png_is_deterministic_and_skips_rows_without_both_numbers():
    frame = pd.read_csv(TABLES / "ldm_table2.csv")
    a = agreement_figure({"ldm_table2": frame}, "ldm", "LDM")
    assert a[:4] == b"\x89PNG" and a == agreement_figure({"ldm_table2": frame}, "ldm", "LDM")
    assert len(drawable(frame)) == frame.dropna(subset=["published", "reproduced"]).shape[0]


@pytest.mark.parametrize("paper, table", [("gs_svm", "gs_svm_table2"), ("ldm", "ldm_table3")])
def test_a_measured_rule_draws_a_segment_per_cell_and_its_titles_fit_and_never_say_nan(paper, table):
    from repro.experiments.agreement import CELL_BAND, TITLE_WIDTH, cell_values
    from repro.tolerances import tolerance_for

    frame = pd.read_csv(TABLES / f"{table}.csv")
    fig = agreement_axes({table: frame}, paper, table)
    for ax, (metric, cells) in zip(fig.axes, drawable(frame).groupby("metric", sort=False)):
        title = ax.get_title()
        assert "nan" not in title and max(map(len, title.splitlines())) <= TITLE_WIDTH
        rule = tolerance_for(paper, metric)
        assert rule.measured
        values = cell_values(rule, cells)
        line = next(l for l in ax.lines if l.get_label() == CELL_BAND)
        xy = line.get_xydata().reshape(-1, 3, 2)  # (bottom, top, break) per cell
        assert len(xy) == np.isfinite(values).sum() > 0
        published = cells["published"].astype(float).to_numpy()[np.isfinite(values)]
        assert np.allclose(xy[:, 0, 0], published) and np.allclose(xy[:, 1, 0], published)
        width = values[np.isfinite(values)]
        if rule.kind == "abs":
            assert np.allclose(xy[:, 1, 1] - xy[:, 0, 1], 2 * width)
        else:
            assert np.allclose(xy[:, 1, 1] / xy[:, 0, 1], width ** 2)
    assert_legend_entries_drawn(fig)
    assert CELL_BAND in {t.get_text() for t in fig.legends[0].get_texts()}
