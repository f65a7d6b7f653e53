"""Checks on the hand-transcribed published numbers (paper_tables/published/*.csv).

Every consistency check recomputes the quantity from the CSVs and compares it with what
the paper prints elsewhere (another row, another table, the text, or a public fact such as
the LIBSVM data-set sizes). Checks that fail because the *paper* is inconsistent are marked
``xfail(strict=True)`` with the measured discrepancy in the reason, so that they document the
inconsistency and flag any later edit of the CSV that silently "fixes" it.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from decimal import Decimal

import pandas as pd
import pytest

from repro import published

TABLE_IDS = [
    "gs_svm_table1",
    "gs_svm_table2",
    "nesvm_table1",
    "ldm_table1",
    "ldm_table2",
    "ldm_table3",
    "ldm_table4",
]
PAPERS = {"gs_svm", "nesvm", "lsvm", "pegasos", "ldm"}
MARKERS = {"", "better", "worse", "best"}
LDM_METHODS = ["SVM", "MDO", "MAMC", "KM-OMD", "LDM"]
LDM_ACC_TABLES = {"ldm_table2": 20, "ldm_table3": 20, "ldm_table4": 12}
# Table 1 of the LDM paper uses shorter names than Tables 2 and 3 for two data sets.
LDM_TABLE1_ALIASES = {"planning": "planning-relax", "breast": "breast-cancer"}

# Public LIBSVM data-set sizes (training files aNa / wNa), used as external facts.
LIBSVM_SIZES = {
    "a1a": 1605, "a2a": 2265, "a3a": 3185, "a4a": 4781, "a5a": 6414, "a6a": 11220,
    "a7a": 16100, "a9a": 32561, "w1a": 2477, "w4a": 7366, "w7a": 24692,
}


# --------------------------------------------------------------------------- helpers
def _is_missing(df: pd.DataFrame) -> pd.Series:
    return df["note"].str.startswith("missing:")


def _decimals(text: str) -> int:
    exponent = Decimal(text).as_tuple().exponent
    return -exponent if exponent < 0 else 0


def _half_unit(text: str) -> float:
    return 0.5 * 10.0 ** (-_decimals(text))


def _claims() -> pd.DataFrame:
    return published.load("claims")


def _claim(claim_id: str) -> float:
    c = _claims()
    row = c[c["claim_id"] == claim_id]
    assert len(row) == 1, f"claim {claim_id!r} found {len(row)} times"
    return float(row["value"].iloc[0])


def _cell(df: pd.DataFrame, dataset: str, method: str, metric: str) -> float:
    row = df[(df["dataset"] == dataset) & (df["method"] == method) & (df["metric"] == metric)]
    assert len(row) == 1, f"cell ({dataset}, {method}, {metric}) found {len(row)} times"
    return float(row["value"].iloc[0])


def _ldm_accuracy(table_id: str) -> pd.DataFrame:
    df = published.load(table_id)
    return df[df["metric"] == "accuracy"]


def _ldm_means(table_id: str) -> pd.DataFrame:
    """dataset x method matrix of mean accuracies (NaN where the paper prints N/A)."""
    acc = _ldm_accuracy(table_id)
    wide = acc.pivot(index="dataset", columns="method", values="value")
    return wide[LDM_METHODS]


def _ldm_wtl(table_id: str, method: str) -> tuple[float, float, float]:
    df = published.load(table_id)
    return tuple(_cell(df, "LDM: w/t/l", method, m) for m in ("wins", "ties", "losses"))


def _ldm_best_count(table_id: str, ties: bool = True) -> int:
    """Data sets where LDM's printed mean is the largest printed mean (with ``ties``,
    a tie at the printed precision counts as best; without, only strict wins)."""
    wide = _ldm_means(table_id)
    others = wide.drop(columns="LDM").max(axis=1, skipna=True)
    best = wide["LDM"] >= others if ties else wide["LDM"] > others
    return int(best.sum())


# --------------------------------------------------------------------------- loader
def test_list_tables_contains_every_transcribed_table():
    assert set(TABLE_IDS) | {"claims"} <= set(published.list_tables())


def test_unknown_table_raises_keyerror_listing_known_tables():
    with pytest.raises(KeyError) as info:
        published.load("no_such_table")
    message = str(info.value)
    assert "no_such_table" in message
    assert "gs_svm_table2" in message and "claims" in message


def test_environment_override(tmp_path, monkeypatch):
    src = published.table_path("nesvm_table1")
    shutil.copy(src, tmp_path / "only_one.csv")
    monkeypatch.setenv(published.ENV_VAR, str(tmp_path))
    assert published.list_tables() == ["only_one"]
    assert len(published.load("only_one")) == len(pd.read_csv(src))
    monkeypatch.setenv(published.ENV_VAR, str(tmp_path / "absent"))
    with pytest.raises(FileNotFoundError):
        published.list_tables()


def test_load_keeps_printed_text():
    df = published.load("gs_svm_table2")
    row = df[(df["dataset"] == "German") & (df["method"] == "GS-SVMs")].iloc[0]
    assert row["value_text"] == "74.20" and row["value"] == pytest.approx(74.2)
    raw = published.load("gs_svm_table2", raw=True)
    assert (raw.dtypes == df["paper"].dtype).all()


# --------------------------------------------------------------------------- format
@pytest.mark.parametrize("table_id", TABLE_IDS)
def test_table_format(table_id):
    raw = published.load(table_id, raw=True)
    assert list(raw.columns) == published.TABLE_COLUMNS
    assert len(raw) > 0
    assert set(raw["paper"]) <= PAPERS and raw["paper"].nunique() == 1
    for col in ("ref", "dataset", "metric", "unit"):
        missing_rows = raw["note"].str.startswith("missing:")
        empty = raw[(raw[col].str.strip() == "") & ~(missing_rows & (col == "unit"))]
        assert empty.empty, f"{table_id}: empty {col!r} in rows {empty.index.tolist()}"
    assert set(raw["marker"]) <= MARKERS
    # A number is required unless the row is explicitly recorded as missing.
    missing = raw["note"].str.startswith("missing:")
    no_value = raw[(raw["value"] == "") & ~missing]
    assert no_value.empty, f"{table_id}: empty value without 'missing:' note: {no_value.index.tolist()}"
    assert (raw.loc[missing, "value"] == "").all(), "rows noted missing must have no value"
    assert (raw.loc[missing, "std"] == "").all()
    assert (raw.loc[missing, "marker"] == "").all()
    # Numeric columns parse (load raises otherwise) and no thousands separators remain.
    df = published.load(table_id)
    assert df.loc[~missing, "value"].notna().all()
    assert not raw["value"].str.contains(",").any()
    assert not raw["std"].str.contains(",").any()
    # One printed cell per (ref, dataset, method, metric).
    keys = raw[["ref", "dataset", "method", "metric"]]
    dup = keys[keys.duplicated(keep=False)]
    assert dup.empty, f"{table_id}: duplicated cells {dup.values.tolist()}"


@pytest.mark.parametrize("table_id", list(LDM_ACC_TABLES))
def test_ldm_accuracy_cells_have_std_and_are_fractions(table_id):
    acc = _ldm_accuracy(table_id)
    present = acc[~_is_missing(acc)]
    assert present["std"].notna().all(), "every printed LDM accuracy has a ± std"
    assert ((present["value"] > 0) & (present["value"] <= 1)).all()
    assert ((present["std"] >= 0) & (present["std"] < 1)).all()
    # Every (data set, method) of the printed grid is present exactly once.
    n = LDM_ACC_TABLES[table_id]
    assert acc["dataset"].nunique() == n
    assert sorted(acc["method"].unique()) == sorted(LDM_METHODS)
    assert len(acc) == n * len(LDM_METHODS)
    # Markers compare a method with SVM, so the SVM column itself carries none.
    assert (acc.loc[acc["method"] == "SVM", "marker"] == "").all()


def test_claims_format():
    raw = published.load("claims", raw=True)
    assert list(raw.columns) == published.CLAIM_COLUMNS
    assert set(raw["paper"]) == PAPERS, "every paper has at least one claim"
    for col in ("ref", "claim_id", "quantity", "value", "text"):
        assert (raw[col].str.strip() != "").all(), f"empty {col!r} in claims.csv"
    assert raw["claim_id"].is_unique
    c = published.load("claims")
    assert c["value"].notna().all()


# --------------------------------------------------------------------------- GS-SVM
@pytest.mark.parametrize("method", ["GS-SVMs", "HM-SVMs", "SVMs"])
def test_gs_svm_table2_mean_row(method):
    df = published.load("gs_svm_table2")
    cols = df[(df["method"] == method) & (df["metric"] == "accuracy_percent")]
    mean_row = df[(df["method"] == method) & (df["metric"] == "mean_accuracy_percent")]
    assert len(cols) == 15 and len(mean_row) == 1
    printed = mean_row.iloc[0]
    computed = cols["value"].mean()
    assert abs(computed - printed["value"]) <= _half_unit(printed["value_text"]), (
        f"{method}: mean of column {computed:.4f} vs printed {printed['value_text']}"
    )


def test_gs_svm_table2_counts_and_ranges():
    df = published.load("gs_svm_table2")
    acc = df[df["metric"] == "accuracy_percent"]
    assert acc["dataset"].nunique() == _claim("gs_n_uci_datasets")
    assert ((acc["value"] > 0) & (acc["value"] <= 100)).all()
    classes = df[(df["metric"] == "n_classes") & ~_is_missing(df)]
    assert (classes["value"] >= 2).all()


def test_gs_svm_ttest_claims_agree_with_table2_direction():
    df = published.load("gs_svm_table2")
    for dataset, claim_id in [("Glass", "gs_ttest_glass"), ("Liver", "gs_ttest_liver")]:
        diff = _cell(df, dataset, "GS-SVMs", "accuracy_percent") - _cell(df, dataset, "SVMs", "accuracy_percent")
        assert math.copysign(1, diff) == _claim(claim_id), f"{dataset}: GS-SVMs - SVMs = {diff:+.2f}"


def test_gs_svm_table1_sizes_are_libsvm_sizes():
    df = published.load("gs_svm_table1")
    mapping = {"Adult-1": "a1a", "Adult-4": "a4a", "Adult-7": "a7a", "Web-1": "w1a", "Web-4": "w4a", "Web-7": "w7a"}
    for dataset, libsvm in mapping.items():
        assert _cell(df, dataset, "", "n_instances") == LIBSVM_SIZES[libsvm], dataset
    dims = df[df["metric"] == "n_features"].set_index("dataset")["value"]
    assert (dims[dims.index.str.startswith("Adult")] == 123).all()
    assert (dims[dims.index.str.startswith("Web")] == 300).all()


def test_gs_svm_adult_subsets_match_nesvm_table1():
    gs = published.load("gs_svm_table1")
    ne = published.load("nesvm_table1")
    assert _cell(gs, "Adult-1", "", "n_instances") == _cell(ne, "Set 1", "", "n_train")
    assert _cell(gs, "Adult-4", "", "n_instances") == _cell(ne, "Set 4", "", "n_train")
    assert _cell(gs, "Adult-1", "", "n_features") == _claim("nesvm_adult_dim")


def _gs_speedups() -> pd.Series:
    df = published.load("gs_svm_table1")
    ev = df[df["metric"] == "kernel_evals_1e6"].pivot(index="dataset", columns="method", values="value")
    return pd.concat([ev["SMO-1"] / ev["GS-SVMs"], ev["SMO-2"] / ev["GS-SVMs"]])


@pytest.mark.xfail(
    strict=True,
    reason=(
        "paper inconsistency: text says 'speedup range from 10 to 30', but Table 1 gives "
        "SMO-1/GS-SVMs from 11.7 (Adult-7) to 50.8 (Adult-4) and SMO-2/GS-SVMs from 9.6 "
        "(Adult-7) to 34.1 (Adult-4); overall 9.57-50.80"
    ),
)
def test_gs_svm_speedup_claim_matches_table1():
    ratios = _gs_speedups()
    lo, hi = _claim("gs_speedup_min"), _claim("gs_speedup_max")
    # Generous rounding: a ratio counts as 'within 10-30' if it rounds into it.
    assert ratios.round().min() >= lo and ratios.round().max() <= hi, (
        f"speedups {ratios.min():.2f}-{ratios.max():.2f}"
    )


def test_gs_svm_speedup_measured_range():
    """Pins the measured numbers quoted in the xfail reason above."""
    ratios = _gs_speedups()
    assert ratios.min() == pytest.approx(698.864 / 73.014, abs=0.01)
    assert ratios.max() == pytest.approx(344.977 / 6.791, abs=0.01)


def test_gs_svm_number_of_trainings():
    folds = _claim("gs_cv_folds_inner")
    n_theta = (_claim("gs_svm_log2_theta_max") - _claim("gs_svm_log2_theta_min")) / _claim("gs_svm_log2_theta_step") + 1
    n_c = (_claim("gs_svm_log2_C_max") - _claim("gs_svm_log2_C_min")) / _claim("gs_svm_log2_C_step") + 1
    assert (n_theta, n_c) == (17, 12)
    assert folds * n_theta * n_c == _claim("gs_svm_trainings")
    n_theta_gs = (_claim("gs_gs_log2_theta_max") - _claim("gs_gs_log2_theta_min")) / _claim("gs_gs_log2_theta_step") + 1
    assert folds * n_theta_gs == _claim("gs_gs_trainings")


# --------------------------------------------------------------------------- NESVM
def test_nesvm_table1_train_plus_test_is_a9a():
    df = published.load("nesvm_table1")
    wide = df.pivot(index="dataset", columns="metric", values="value")
    totals = wide["n_train"] + wide["n_test"]
    assert (totals == LIBSVM_SIZES["a9a"]).all(), totals.to_dict()
    assert len(wide) == _claim("nesvm_n_adult_subsets")


def test_nesvm_table1_training_sizes_are_libsvm_aNa():
    df = published.load("nesvm_table1")
    for k in range(1, 7):
        assert _cell(df, f"Set {k}", "", "n_train") == LIBSVM_SIZES[f"a{k}a"], k
    train = [_cell(df, f"Set {k}", "", "n_train") for k in range(1, 7)]
    assert train == sorted(train), "set IDs are in increasing size"


def test_nesvm_adult_total_is_larger_than_subsets():
    """The text's 48842 Americans is the full UCI Adult; the subsets come from its 32561 part."""
    ne = published.load("nesvm_table1")
    total = _cell(ne, "Set 1", "", "n_train") + _cell(ne, "Set 1", "", "n_test")
    assert total < _claim("nesvm_adult_n")
    ldm = published.load("ldm_table1")
    assert _cell(ldm, "adult-a", "", "n_instances") == total
    assert _cell(ldm, "adult-a", "", "n_features") == _claim("nesvm_adult_dim")


def test_nesvm_c_grid_size():
    n = _claim("nesvm_log10_C_max") - _claim("nesvm_log10_C_min") + 1
    assert n == _claim("nesvm_n_C")


# --------------------------------------------------------------------------- LSVM / Pegasos
def test_lsvm_alpha_rule_satisfies_convergence_condition():
    assert _claim("lsvm_alpha_lower") < _claim("lsvm_alpha_rule") < _claim("lsvm_alpha_upper")


def test_pegasos_claims_are_monotone():
    assert _claim("peg_ccat_iters_0.1pct") > _claim("peg_ccat_iters_0.3pct")
    assert _claim("peg_ccat_gap_560_iters") < _claim("peg_ccat_gap_200_iters")
    assert _claim("peg_ccat_n_positive") < _claim("peg_rcv_n_articles")
    assert _claim("peg_step_power_pegasos") > _claim("peg_step_power_previous")


# --------------------------------------------------------------------------- LDM Table 1
def test_ldm_table1_counts_and_ranges_match_text():
    df = published.load("ldm_table1")
    n_inst = df[df["metric"] == "n_instances"]
    regular = n_inst[n_inst["ref"].str.contains("regular")]
    large = n_inst[n_inst["ref"].str.contains("large")]
    assert len(regular) == _claim("ldm_n_regular")
    assert len(large) == _claim("ldm_n_large")
    assert len(n_inst) + len(df[df["metric"] == "n_features"]) == len(df)
    n_feat = df[df["metric"] == "n_features"]["value"]
    assert n_inst["value"].min() == _claim("ldm_size_min")
    assert n_inst["value"].max() > _claim("ldm_size_max_lower_bound")
    assert n_feat.min() == _claim("ldm_dim_min")
    assert n_feat.max() > _claim("ldm_dim_max_lower_bound")
    # Every large data set is larger than every regular one.
    assert regular["value"].max() < large["value"].min()


def test_ldm_table1_names_match_accuracy_tables():
    df = published.load("ldm_table1")
    n_inst = df[df["metric"] == "n_instances"]
    regular = {LDM_TABLE1_ALIASES.get(d, d) for d in n_inst[n_inst["ref"].str.contains("regular")]["dataset"]}
    large = set(n_inst[n_inst["ref"].str.contains("large")]["dataset"])
    assert set(_ldm_means("ldm_table2").index) == regular
    assert set(_ldm_means("ldm_table3").index) == regular
    assert set(_ldm_means("ldm_table4").index) == large


# --------------------------------------------------------------------------- LDM accuracy tables
@pytest.mark.parametrize("table_id", list(LDM_ACC_TABLES))
def test_ldm_wtl_vs_svm_equals_ldm_marker_counts(table_id):
    acc = _ldm_accuracy(table_id)
    ldm = acc[acc["method"] == "LDM"]
    counted = (
        int((ldm["marker"] == "better").sum()),
        int((ldm["marker"] == "") .sum()),
        int((ldm["marker"] == "worse").sum()),
    )
    assert _ldm_wtl(table_id, "SVM") == counted


@pytest.mark.parametrize("table_id", list(LDM_ACC_TABLES))
@pytest.mark.parametrize("method", ["SVM", "MDO", "MAMC", "KM-OMD"])
def test_ldm_wtl_totals_equal_compared_datasets(table_id, method):
    wide = _ldm_means(table_id)
    both = int((wide[method].notna() & wide["LDM"].notna()).sum())
    df = published.load(table_id)
    cells = df[(df["dataset"] == "LDM: w/t/l") & (df["method"] == method)]
    if both == 0:
        assert _is_missing(cells).all(), "no results -> the w/t/l cell is N/A"
        return
    assert sum(_ldm_wtl(table_id, method)) == both


_AVE_XFAIL = {
    ("ldm_table4", "LDM"): (
        "paper inconsistency: Table 4 prints LDM 'Ave. accuracy' 0.919, but the mean of the 12 "
        "printed LDM accuracies is 0.91817 (difference 0.00083 > 0.0005). Rounding of the 12 "
        "cells alone could explain it only if the unrounded values averaged 0.00033 above the "
        "printed ones"
    ),
}
_AVE_CASES = [
    pytest.param(t, m, marks=pytest.mark.xfail(strict=True, reason=_AVE_XFAIL[(t, m)]))
    if (t, m) in _AVE_XFAIL
    else pytest.param(t, m)
    for t in LDM_ACC_TABLES
    for m in LDM_METHODS
]


@pytest.mark.parametrize("table_id, method", _AVE_CASES)
def test_ldm_average_row_equals_column_mean(table_id, method):
    df = published.load(table_id)
    row = df[(df["dataset"] == "Ave. accuracy") & (df["method"] == method)]
    assert len(row) == 1
    col = _ldm_means(table_id)[method]
    if col.isna().all():
        assert _is_missing(row).all()
        return
    printed = row.iloc[0]
    computed = col.mean(skipna=True)
    assert abs(computed - printed["value"]) <= _half_unit(printed["value_text"]), (
        f"{table_id} {method}: mean {computed:.5f} over {col.notna().sum()} data sets "
        f"vs printed {printed['value_text']}"
    )


@pytest.mark.parametrize("table_id", list(LDM_ACC_TABLES))
def test_ldm_markers_point_the_right_way(table_id):
    """A bullet (better than SVM) needs a larger printed mean than SVM; a circle a smaller one."""
    wide = _ldm_means(table_id)
    acc = _ldm_accuracy(table_id)
    bad = []
    for _, r in acc[acc["marker"] != ""].iterrows():
        svm = wide.loc[r["dataset"], "SVM"]
        if (r["marker"] == "better" and not r["value"] > svm) or (r["marker"] == "worse" and not r["value"] < svm):
            bad.append((r["dataset"], r["method"], r["marker"], r["value"], svm))
    assert not bad, bad


@pytest.mark.parametrize(
    "table_id, prefix, methods",
    [
        ("ldm_table2", "ldm_linear", ["SVM", "MDO", "MAMC", "KM-OMD"]),
        ("ldm_table3", "ldm_rbf", ["SVM", "MAMC", "KM-OMD"]),
        ("ldm_table4", "ldm_large", ["SVM", "MDO", "MAMC"]),
    ],
)
def test_ldm_text_win_counts_equal_table_wtl(table_id, prefix, methods):
    for method in methods:
        assert _ldm_wtl(table_id, method)[0] == _claim(f"{prefix}_wins_vs_{method}"), method


@pytest.mark.parametrize(
    "table_id, claim_id",
    [("ldm_table2", "ldm_linear_best"), ("ldm_table3", "ldm_rbf_best"), ("ldm_table4", "ldm_large_best")],
)
def test_ldm_text_best_counts_agree_with_table(table_id, claim_id):
    """The bolding was decided on unrounded accuracies, so a tie at the printed three
    decimals may have gone either way: the stated count must lie between the strict
    wins and the wins-or-ties of the printed means (Table 2: 10..13 for a stated 13, Table 3: 14..16 for a stated 15,
    Table 4: 7..11 for a stated 8)."""
    low, high = _ldm_best_count(table_id, ties=False), _ldm_best_count(table_id, ties=True)
    assert low <= _claim(claim_id) <= high


def test_ldm_best_count_measured_values():
    """Pins the counts quoted above: (strict wins, wins or ties) per LDM table."""
    assert [(_ldm_best_count(t, False), _ldm_best_count(t)) for t in LDM_ACC_TABLES] == [(10, 13), (14, 16), (7, 11)]


def test_built_package_carries_the_published_tables(tmp_path, monkeypatch):
    """A non-editable install reads repro/_published/ (copied by setup.py's build_py)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
                       cwd=root, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    shipped = tmp_path / "repro" / "_published"
    assert sorted(p.name for p in shipped.glob("*.csv")) == sorted(
        p.name for p in (root / "paper_tables" / "published").glob("*.csv"))
    from_checkout = published.load("gs_svm_table2")
    monkeypatch.setenv(published.ENV_VAR, str(shipped))
    pd.testing.assert_frame_equal(published.load("gs_svm_table2"), from_checkout)
