"""The cross-paper table (repro.solvers_compared) at its tiny size: heart_scale and a1a.

No speed is asserted: the rows' times are whatever this machine gave. What is
checked is the table's shape, that every solver of the roster appears on
every set, that every objective is finite, and that solvers of the same
problem reach the same optimum where they should (SMO's paths against LIBSVM,
LSVM against LIBLINEAR -s 2, the bias-free solvers against LIBLINEAR -s 3).
"""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro import objectives
from repro.solvers_compared import compare, datasets_of, run_dataset
from repro.solvers_compared.page import TABLE_COLUMNS, merge
from repro.solvers_compared.roster import ENTRIES, PROBLEMS

# the tiny size's cap on one fit, to keep the test short: the slow fits (C =
# 1e6, NESVM's kernel homotopy on a1a) are then reported as stopped or not run,
# which the table must say; the solvers checked against each other below take
# well under a second here
CAP = 3.0
# every row of these solvers must have run on every set (the comparisons need them)
MUST_RUN = ("SMO (Modification 1)", "SMO (Modification 2)", "SMO (second order)", "LIBSVM (SVC)",
            "LSVM", "LIBLINEAR -s 2 -B 1", "LinearSVM", "LIBLINEAR -s 3 -B 1", "GSSVM", "Pegasos")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory, data_env):
    out = tmp_path_factory.mktemp("solvers_compared")
    table = compare("tiny", str(out), cap_seconds=CAP)
    return table, out


@pytest.mark.slow
def test_tiny_writes_the_page_and_csv_with_their_columns(tiny):
    table, out = tiny
    csv = pd.read_csv(out / "solvers_compared.csv")
    assert list(csv.columns) == TABLE_COLUMNS + ["provenance"]  # each set job's stamp
    assert csv["provenance"].str.contains("commit=").all()
    assert set(csv["verdict"]) == {"no published value"}
    assert set(csv["dataset"]) == set(datasets_of("tiny"))
    md = (out / "solvers_compared.md").read_text()
    assert md.startswith("# Every solver of the package on common sets")
    for heading in ("## Reading", "### Problems: which solvers solve the same one",
                    "## heart_scale", "## a1a", "## Provenance of these records\n\n| | |"):
        assert heading in md
    header = "| solver | kernel | problem | time (s) | kernel evals | test acc. (%) | objective |"
    assert md.count(header) == 2


@pytest.mark.slow
def test_every_solver_appears_on_every_set(tiny):
    table, _ = tiny
    expected = {(e.solver, e.kernel) for e in ENTRIES}
    for name, rows in table.groupby("dataset"):
        assert set(zip(rows["solver"], rows["kernel"])) == expected, name
    assert set(table["problem"]) <= set(PROBLEMS)


def test_objectives_are_finite_and_accuracies_fractions(tiny):
    table, _ = tiny
    ok = table[table["status"] == "ok"]
    assert (table.loc[table["solver"].isin(MUST_RUN), "status"] == "ok").all()
    assert np.isfinite(ok["objective"]).all()
    assert ok["test_accuracy"].between(0, 1).all()
    assert (ok["above_best"] >= 0).all()
    # a row that did not run says why, never blank
    assert (table.loc[table["status"] != "ok", "status"].str.len() > 10).all()


@pytest.mark.parametrize("problem, solvers", [
    ("c-svm", ["SMO (Modification 1)", "SMO (Modification 2)", "SMO (second order)",
               "LIBSVM (SVC)"]),
    ("squared-hinge", ["LSVM", "LIBLINEAR -s 2 -B 1"]),
    ("c-svm-penalised-bias", ["LinearSVM", "LIBLINEAR -s 3 -B 1"]),
])
def test_solvers_of_one_problem_reach_one_objective(tiny, problem, solvers):
    table, _ = tiny
    for (name, kernel), rows in table[table["problem"] == problem].groupby(["dataset", "kernel"]):
        values = rows.set_index("solver").loc[[s for s in solvers if s in set(rows["solver"])],
                                              "objective"]
        if len(values) < 2:
            continue
        spread = (values.max() - values.min()) / abs(values.min())
        assert spread <= 1e-3, (name, kernel, values.to_dict())


def test_kernel_objectives_from_products_equal_those_from_k():
    """The products form (used where K is too large) is the same number."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    K = np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(-1))
    y = np.where(rng.normal(size=30) > 0, 1.0, -1.0)
    beta = rng.normal(size=30)
    Kb = K @ beta
    assert objectives.kernel_hinge_primal(beta, None, y, 1.0, 0.3, Kbeta=Kb) == pytest.approx(
        objectives.kernel_hinge_primal(beta, K, y, 1.0, 0.3))
    assert objectives.kernel_dual(np.abs(beta), None, y, Kay=K @ (np.abs(beta) * y)) == \
        pytest.approx(objectives.kernel_dual(np.abs(beta), K, y))
    assert objectives.ldm_kernel_primal(beta, None, y, 1.0, 0.1, 0.1, Galpha=Kb) == pytest.approx(
        objectives.ldm_kernel_primal(beta, K, y, 1.0, 0.1, 0.1))
    # the kernel squared hinge with K = XX' is LSVM's linear primal at w = X'beta
    L = X @ X.T
    assert objectives.kernel_squared_hinge_primal(beta, L, y, 2.0, 0.4) == pytest.approx(
        objectives.squared_hinge_primal(X.T @ beta, -0.4, X, y, 2.0))
    assert objectives.nesvm_kernel_primal("LP", beta, L, y, 1.0, 0.2) == pytest.approx(
        np.abs(beta).sum() + np.maximum(0, 1 - y * (L @ beta + 0.2)).sum())
    with pytest.raises(ValueError, match="Kbeta"):
        objectives.kernel_hinge_primal(beta, None, y, 1.0)
    with pytest.raises(ValueError, match="shape"):
        objectives.kernel_hinge_primal(beta, None, y, 1.0, Kbeta=Kb[:3])


def test_bad_input_is_refused_with_a_message(data_env):
    with pytest.raises(ValueError, match="size must be one of"):
        compare("huge")
    with pytest.raises(ValueError, match="cap_seconds"):
        run_dataset("heart_scale", cap_seconds=0)
    with pytest.raises(ValueError, match="not the output of run_dataset"):
        merge([pd.DataFrame({"dataset": ["x"]})])


def test_rows_made_before_the_stamp_say_what_is_not_recorded():
    from repro.solvers_compared.page import provenance_section

    committed = pd.read_csv(Path(__file__).resolve().parents[1] / "paper_tables" / "solvers_compared.csv")
    text = provenance_section(committed, "commit abc123 (2026-11-27)")
    assert "Not recorded" in text and "AMD EPYC" in text and "commit abc123 (2026-11-27)" in text
    assert "which commit wrote them: not recorded" in provenance_section(committed).lower()
