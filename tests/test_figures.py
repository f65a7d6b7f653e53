"""Every figure of paper_tables/, built from its committed records: no legend
entry without a point drawn, a title naming the paper's figure (or saying it
has none), and the pages' sentences on what the figure cannot show or shows
on top of another line (issue 24)."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from repro.experiments import read_all, table_run
from repro.experiments.figures import (CAPPED, assert_legend_entries_drawn, coinciding, line_style,
                                       single_x_note, undrawn_legend_entries)
from repro.experiments.report import pyplot
from repro.papers.catalog import table_spec

TABLES = Path(__file__).resolve().parents[1] / "paper_tables"
# table id -> what its figure's title must name
FIGURES = {"nesvm_time": "Figs. 3 and 4", "nesvm_convergence": "Theorem 4", "lsvm_convergence": "Section 3",
           "pegasos_convergence": "Pegasos slides", "ldm_figure1": "Figure 1", "ldm_figure2": "Figure 2",
           "ldm_figure3": "Figure 3"}


def _committed(table_id: str) -> pd.DataFrame:
    spec = table_spec(table_id)
    return read_all([TABLES / f"{table_id}_records.csv"], spec.schema)


def _built(table_id: str, monkeypatch, records=None):
    """(the page, the figures it drew), built from the committed records (or
    ``records``) as ``python -m repro.papers rebuild`` does; the figures are
    caught as they are saved, before png_bytes closes them."""
    drawn = []
    save = Figure.savefig
    monkeypatch.setattr(Figure, "savefig", lambda fig, *a, **k: (drawn.append(fig), save(fig, *a, **k))[1])
    spec = table_spec(table_id)
    out = spec.build(_committed(table_id) if records is None else records, table_run(spec, "full"))
    return out, drawn


def _titles(fig) -> str:
    return " ".join([fig._suptitle.get_text() if fig._suptitle else ""] + [ax.get_title() for ax in fig.axes])


@pytest.mark.parametrize("table_id", list(FIGURES))
@pytest.mark.slow
def test_every_figure_has_no_legend_entry_without_a_point_and_names_its_figure(table_id, monkeypatch):
    out, drawn = _built(table_id, monkeypatch)
    assert len(drawn) == 1 and out.figures["png"][:4] == b"\x89PNG"
    assert_legend_entries_drawn(drawn[0])
    assert FIGURES[table_id] in _titles(drawn[0])


def test_the_check_finds_entries_of_lines_with_nothing_on_the_axes():
    plt = pyplot()
    fig, ax = plt.subplots()
    ax.semilogy([0, 1], [1, 2], label="drawn")
    ax.semilogy([0, 1], [0, 0], label="zeros on a log axis")
    ax.plot([0, 1], [np.nan, np.nan], label="NaN")
    ax.legend()
    assert undrawn_legend_entries(fig) == ["zeros on a log axis", "NaN"]
    with pytest.raises(AssertionError, match="NaN"):
        assert_legend_entries_drawn(fig)
    plt.close(fig)


def test_the_lsvm_runs_that_start_at_their_solution_are_left_out_and_said(monkeypatch):
    out, (fig,) = _built("lsvm_convergence", monkeypatch)
    left = fig.axes[0]  # nu = 1/m: a1a and heart_scale have distance 0 at every iterate
    labels = left.get_legend_handles_labels()[1]
    assert "a1a" not in labels and "heart_scale" not in labels and "synthetic-10d" in labels
    assert any("not drawn: a1a, heart_scale" in t.get_text() for t in left.texts)
    assert "Not drawn in the figure: a1a, nu=1/m; heart_scale, nu=1/m" in out.markdown


def test_nesvm_time_is_a_grid_with_one_shared_legend(monkeypatch):
    _, (fig,) = _built("nesvm_time", monkeypatch)
    assert len(fig.axes) == 7 and len({ax.get_position().y0 for ax in fig.axes}) == 2  # two rows
    assert len(fig.legends) == 1 and not any(ax.get_legend() for ax in fig.axes)
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert len(texts) == 8  # the 7 methods and the mark of a fit killed at the time cap (a6a, C = 1000)
    assert texts[-1].startswith(CAPPED)


def _cap_marks(fig) -> list:
    """(axes index, x, y) of every 'x' that marks where a capped run stopped."""
    return [(i, x, y) for i, ax in enumerate(fig.axes) for line in ax.lines if line.get_marker() == "x"
            for x, y in line.get_xydata()]


@pytest.mark.slow
def test_capped_runs_are_marked_where_they_stop(monkeypatch):
    # NESVM time: the fits killed at the 60 s cap (a6a: LIBSVM and SMO at C = 1000), drawn at the cap
    _, (fig,) = _built("nesvm_time", monkeypatch)
    capped = _committed("nesvm_time").query("capped")
    assert sorted((x, y) for _, x, y in _cap_marks(fig)) == sorted(zip(capped.C, capped.cap_seconds))
    assert_legend_entries_drawn(fig)
    # NESVM image sets: every capped fit, in its set's panel
    _, (fig,) = _built("nesvm_images", monkeypatch)
    assert len(_cap_marks(fig)) == int(_committed("nesvm_images").capped.sum()) > 0
    assert_legend_entries_drawn(fig)
    # Pegasos: each Pegasos and SGDClassifier line ran to the budget of examples: its last point, both rows
    _, (fig,) = _built("pegasos_convergence", monkeypatch)
    records = _committed("pegasos_convergence")
    budget = records.budget_examples.max()
    assert {x >= budget for _, x, _ in _cap_marks(fig)} == {True}
    assert any(t.get_text().startswith(CAPPED) for t in fig.legends[0].get_texts())
    # LSVM: every drawn run stops at the last measured iteration; one legend entry a panel
    _, (fig,) = _built("lsvm_convergence", monkeypatch)
    cap = _committed("lsvm_convergence").iteration.max()
    assert {x for _, x, _ in _cap_marks(fig)} == {cap}
    for ax in fig.axes:
        assert sum(t.get_text().startswith(CAPPED) for t in ax.get_legend().get_texts()) == 1


def test_no_committed_figure_is_a_strip_wider_than_3_to_1():
    from PIL import Image

    for png in sorted(TABLES.glob("*.png")):
        width, height = Image.open(png).size
        assert width <= 3 * height, f"{png.name} is {width} x {height}"


def test_a_run_on_one_set_draws_points_and_says_so(monkeypatch):
    one = _committed("nesvm_time")
    one = one[one.set_id == 1]
    _, (fig,) = _built("nesvm_time", monkeypatch, one)
    fig4 = fig.axes[-1]
    assert "one set: points, no line" in fig4.get_title()
    assert all(line.get_marker() == "o" and line.get_markersize() >= 6 for line in fig4.lines)
    assert_legend_entries_drawn(fig)
    assert single_x_note([1.0, 2.0], "set") == ""


def test_ldm_figure1_shows_coinciding_lines_and_the_page_says_how_close(monkeypatch):
    from repro.papers.ldm.figure_pages import figure1_coincidences

    out, (fig,) = _built("ldm_figure1", monkeypatch)
    pairs = figure1_coincidences(_committed("ldm_figure1"))
    assert any({a, b} == {"LDM", "SVM (no bias)"} for _, a, b, _ in pairs)
    worst = max(d for _, a, b, d in pairs if {a, b} == {"LDM", "SVM (no bias)"})
    assert "the lines of SVM (no bias) and LDM coincide" in out.markdown
    assert f"differ by at most {worst:.3g}" in out.markdown
    for ax in fig.axes:  # each method its own dashes, the later ones on top
        styles = {(line.get_linestyle(), line.get_marker(), line.get_zorder()) for line in ax.lines[:3]}
        assert len(styles) == 3


def test_coinciding_pairs_are_within_the_fraction_of_the_span():
    a = pd.Series([0.0, 1.0, 2.0])
    curves = {"a": a, "b": a + 0.005, "c": a + 0.5}
    assert coinciding(curves, span=1.0) == [("a", "b", pytest.approx(0.005))]
    assert line_style(0)["zorder"] < line_style(1)["zorder"] < line_style(2)["zorder"]


def test_ldm_figure2_names_the_svms_as_the_paper_does(monkeypatch):
    _, (fig,) = _built("ldm_figure2", monkeypatch)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["SVM$_l$ (LIBLINEAR)", "SVM$_a$ (ASGD)", "LDM (ASGD)"]
