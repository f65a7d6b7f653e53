"""Issue 46, item 4: missing-value imputation chosen from data (austra, colic,
colic-f13: column mean for a continuous attribute, mode for a coded or
categorical one) is fitted inside each training part only, where the scaling
is: GS-SVM Table 2's outer training part and inner CV training folds
(Australian), LDM Tables 2-3's training half and its inner folds (colic,
colic-f13, austra). Changing the held-out rows' values must change neither the
imputed training values nor the models fitted on them; a plain load, which
imputes from all rows, does change them (the control)."""
from dataclasses import replace

import numpy as np
import pytest

from repro import datasets
from repro.datasets.preprocess import impute_on

IMPUTED = ("austra", "colic", "colic-f13")


# ------------------------------------------------------------------ the loader
@pytest.mark.parametrize("name", IMPUTED)
def test_keep_missing_load_is_the_plain_load_with_nan_where_missing(data_env, name):
    """impute=False keeps the missing cells as NaN and names each column's
    strategy; filling them over all rows with impute_on gives the plain load
    bit for bit (the same mean, and the same mode with its tie rule)."""
    X, y = datasets.load(name)
    Xn, yn, info = datasets.load(name, impute=False, return_info=True)
    assert Xn.shape == X.shape and len(info.impute) == X.shape[1]
    assert set(info.impute) == {"mean", "most_frequent"}
    np.testing.assert_array_equal(yn, y)
    missing = np.isnan(Xn)
    assert missing.any() and not np.isnan(X).any()
    np.testing.assert_array_equal(Xn[~missing], X[~missing])
    np.testing.assert_array_equal(impute_on(info.impute, Xn)[0], X)
    assert datasets.load(name, return_info=True)[2].impute == ()


@pytest.mark.parametrize("name", ["credit-a", "heart", "iris"])
def test_keep_missing_changes_nothing_for_a_set_that_imputes_nothing(data_env, name):
    X, y = datasets.load(name)
    Xn, yn, info = datasets.load(name, impute=False, return_info=True)
    assert info.impute == ()
    np.testing.assert_array_equal(Xn, X)
    np.testing.assert_array_equal(yn, y)


def test_impute_on_fills_from_the_fit_rows_only():
    rng = np.random.default_rng(0)
    X_fit = rng.integers(1, 4, size=(30, 3)).astype(float)
    X_fit[:, 1] = rng.normal(size=30)
    X_fit[rng.random((30, 3)) < 0.2] = np.nan
    X_val = np.full((10, 3), np.nan)
    X_val[:5] = 1e6  # values no fit row has: they must reach no filled cell
    strategies = ("most_frequent", "mean", "most_frequent")
    A, B = impute_on(strategies, X_fit, X_val)
    A2, _ = impute_on(strategies, X_fit, np.zeros((10, 3)))
    np.testing.assert_array_equal(A, A2)
    mean = np.nanmean(X_fit[:, 1])
    assert (B[5:, 1] == mean).all() and (A[np.isnan(X_fit[:, 1]), 1] == mean).all()
    for c in (0, 2):
        values, counts = np.unique(X_fit[~np.isnan(X_fit[:, c]), c], return_counts=True)
        assert (B[5:, c] == values[np.argmax(counts)]).all()  # a tie: the smallest value
    np.testing.assert_array_equal(B[:5], X_val[:5])
    # ties go to the smallest value; nothing to impute from is an error
    tie = np.array([[2.0], [1.0], [2.0], [1.0], [np.nan]])
    assert impute_on(("most_frequent",), tie)[0][4, 0] == 1.0
    with pytest.raises(ValueError, match="every value"):
        impute_on(("mean",), np.array([[np.nan], [np.nan]]), np.array([[1.0]]))
    # no strategies: the arrays themselves, untouched
    Z = np.ones((2, 2))
    assert impute_on((), Z, Z)[0] is Z


# ------------------------------------------------------------------ the protocols
def _perturbed_load(monkeypatch, held_out):
    """datasets.load with the held-out rows' values changed: every present value
    of a continuous column to 1e6, of a coded column to 99 (a code no row has);
    a plain load (impute=True) fills the result from all rows, as the parser does."""
    real = datasets.load

    def load(name, split="train", *, return_info=False, download=True, impute=True):
        X, y, info = real(name, split, return_info=True, download=download, impute=False)
        X = X.copy()
        if info.impute:
            rows = np.asarray(held_out)[:, None]
            for c, strategy in enumerate(info.impute):
                present = rows[~np.isnan(X[rows[:, 0], c])]
                X[present, c] = 1e6 if strategy == "mean" else 99.0
            if impute:
                X = impute_on(info.impute, X)[0]
                info = replace(info, impute=())
        return (X, y, info) if return_info else (X, y)

    monkeypatch.setattr(datasets, "load", load)


def _spy(monkeypatch, module, name, calls):
    real = getattr(module, name)

    def spy(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append(np.array(out[0], copy=True))  # the fit part's (imputed / scaled) values
        return out

    monkeypatch.setattr(module, name, spy)


def _control(name, held_out, train):
    """A plain load (all rows) fills some training cell differently once the
    held-out rows change: the change is one an all-rows imputation would see."""
    Xn, _, info = datasets.load(name, impute=False, return_info=True)
    before = impute_on(info.impute, Xn)[0][train]
    with pytest.MonkeyPatch.context() as mp:
        _perturbed_load(mp, held_out)
        after = datasets.load(name)[0][train]
    missing = np.isnan(Xn[train])
    assert missing.any() and not np.array_equal(before[missing], after[missing])
    np.testing.assert_array_equal(before[~missing], after[~missing])


def test_gs_svm_table2_imputes_inside_each_training_part(data_env, monkeypatch):
    from repro.papers.gs_svm import jobs as J

    protocol = replace(J.PROTOCOLS["tiny"], log2_theta=(-3, 0), log2_c=(2,), inner_folds=2)
    y = J.load_dense("Australian")[1]
    outer = J.outer_splits(y, protocol)[0]
    _control("austra", outer.test, outer.train)

    def run(perturb):
        with pytest.MonkeyPatch.context() as mp:
            if perturb:
                _perturbed_load(mp, outer.test)
            imputed, kernels = [], []
            _spy(mp, J, "impute_on", imputed)
            _spy(mp, J, "scaled_sqdists", kernels)  # D_fit: what every model is trained on
            records = J.run_cv_fold(protocol, "Australian", 0, methods=["GS-SVMs", "SVMs"])
            refit = J.refit(protocol, records.iloc[-1])
        return records, imputed, kernels, refit

    records, imputed, kernels, refit = run(False)
    records2, imputed2, kernels2, refit2 = run(True)
    assert imputed and len(imputed) == len(imputed2) == len(kernels)
    assert all(len(A) < len(y) for A in imputed)  # never all rows
    assert any(len(A) == len(outer.train) for A in imputed)  # the outer refit's
    for A, A2 in zip(imputed + kernels, imputed2 + kernels2):
        np.testing.assert_array_equal(A, A2)
    same = ["log2_theta", "log2_C", "inner_cv_accuracy", "n_unconverged_problems"]
    np.testing.assert_array_equal(records[same].to_numpy(), records2[same].to_numpy())
    assert refit["refit_unconverged_problems"] == refit2["refit_unconverged_problems"]


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("name", ["colic", "colic-f13", "austra"])
def test_ldm_tables_2_3_impute_inside_each_training_part(data_env, monkeypatch, name, kernel):
    from repro.papers.ldm import jobs as L

    protocol = replace(L.PROTOCOLS["tiny"], datasets=(name,), methods=("SVM", "LDM"))
    y = L.load(name)[1]
    outer = L.partitions(y, protocol, name)[0]
    _control(L.REGULAR_SETS[name], outer.test, outer.train)

    def run(perturb):
        with pytest.MonkeyPatch.context() as mp:
            if perturb:
                _perturbed_load(mp, outer.test)
            imputed, scaled = [], []
            _spy(mp, L, "impute_on", imputed)
            _spy(mp, L, "scale01", scaled)  # the scaled fit part: what every model is trained on
            records = L.run_partition(protocol, kernel, name, 0)
        return records, imputed, scaled

    records, imputed, scaled = run(False)
    records2, imputed2, scaled2 = run(True)
    assert imputed and len(imputed) == len(imputed2) and len(scaled) == len(scaled2)
    assert all(len(A) < len(y) for A in imputed)
    assert any(len(A) == len(outer.train) for A in imputed)
    for A, A2 in zip(imputed + scaled, imputed2 + scaled2):
        np.testing.assert_array_equal(A, A2)
    same = ["log2_C", "log2_lambda1", "log2_lambda2", "log2_width_factor", "inner_cv_accuracy",
            "n_best", "n_features", "n_unconverged_fits"]
    np.testing.assert_array_equal(records[same].to_numpy(), records2[same].to_numpy())
