"""Issue 46, item 4: a feature selection chosen from data (heart-f9, wdbc-f14,
colic-f13: the k features of largest ANOVA F statistic) is computed inside
each training part only: the training half of an outer partition and each
inner CV training fold, where the [0, 1] scaling is fitted. Changing a test
row's features or label must change no selected column."""
from dataclasses import replace

import numpy as np
import pytest

from repro import datasets
from repro.datasets.preprocess import impute_on
from repro.papers.ldm import jobs as L

VERSIONS = {"heart-f9": ("heart", 9), "wdbc-f14": ("wdbc", 14), "colic-f13": ("colic", 13)}


def _spy(monkeypatch):
    """Record every (rows, columns) f_columns is asked for, computing them as it does."""
    calls = []
    real = L.f_columns

    def spy(X_fit, y_fit, k):
        cols = real(X_fit, y_fit, k)
        calls.append((np.array(X_fit, copy=True), tuple(int(c) for c in cols)))
        return cols

    monkeypatch.setattr(L, "f_columns", spy)
    return calls


def _run(monkeypatch, name, X, y, kernel="linear"):
    """Partition 0 of ``name`` (the tiny grid, 2 inner folds) on the given (X, y)."""
    info = L.load(name)[2]  # colic-f13's: its missing values' strategies (filled per training part)
    monkeypatch.setattr(L, "load", lambda dataset: (X.copy(), y.copy(), info))
    calls = _spy(monkeypatch)
    protocol = replace(L.PROTOCOLS["tiny"], datasets=(name,), methods=("SVM", "LDM"))
    records = L.run_partition(protocol, kernel, name, 0)
    return records, calls


@pytest.mark.parametrize("name", list(VERSIONS))
def test_a_version_loads_every_feature_and_names_the_k_to_keep(data_env, name):
    """The registry entry is the base set whole (rows, labels, every feature)
    plus the k kept; no columns are fixed in advance."""
    base, k = VERSIONS[name]
    X, y = datasets.load(base)
    Xv, yv = datasets.load(name)
    spec = datasets.get_spec(name)
    assert spec.select_k == k == L.select_k(name) and spec.columns is None
    np.testing.assert_array_equal(Xv, X)
    np.testing.assert_array_equal(yv, y)
    assert L.select_k(base) is None


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("name", list(VERSIONS))
def test_changing_test_rows_changes_no_selected_column(data_env, monkeypatch, name, kernel):
    X, y, info = L.load(name)
    k = L.select_k(name)

    def filled(Z):  # colic-f13's missing values filled from Z's own rows, as the jobs do per part
        return impute_on(info.impute, Z)[0]

    outer = L.partitions(y, L.PROTOCOLS["tiny"], name)[0]
    train = set(outer.train.tolist())
    records, calls = _run(monkeypatch, name, X, y, kernel)
    assert (records.n_features == k).all()   # the records give the dimension the models see
    # the outer refit's selection is the training half's, and no call saw a test row
    assert calls and all(len(Xf) < len(y) for Xf, _ in calls)
    refit = [cols for Xf, cols in calls if len(Xf) == len(outer.train)]
    monkeypatch.undo()
    assert refit and set(refit) == {tuple(L.f_columns(filled(X[outer.train]), y[outer.train], k).tolist())}

    # make the test half's rows unmistakable and their labels tell a column that the
    # training half says nothing about: a selection that read them would change
    X2, y2 = X.copy(), y.copy()
    test = outer.test
    classes = np.unique(y)
    worst = [c for c in range(X.shape[1]) if c not in refit[0]][0]  # a column the training half drops
    X2[test] = 1e6
    X2[test, worst] = np.where(y[test] == classes[0], -1e6, 1e6)
    y2[test] = np.where(y[test] == classes[0], classes[1], classes[0])
    # the control: over all rows (the selection the registry used to fix) the change shows
    assert tuple(L.f_columns(filled(X2), y2, k)) != tuple(L.f_columns(filled(X), y, k))
    _, calls2 = _run(monkeypatch, name, X2, y2, kernel)
    assert [cols for _, cols in calls2] == [cols for _, cols in calls]
    for Xf, _ in calls2:  # every row a selection saw is a training-half row
        assert not (Xf == 1e6).all(axis=1).any()
        assert len(Xf) <= len(train)


def test_f_columns_takes_the_largest_f_statistics_in_column_order():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = rng.normal(size=(40, 5))
    X[:, 3] += 3 * y
    X[:, 1] += 1.5 * y
    X[:, 4] = 7.0  # constant: F undefined, never before a defined one
    assert L.f_columns(X, y, 2).tolist() == [1, 3]
    assert 4 not in L.f_columns(X, y, 4).tolist()
    with pytest.raises(ValueError):
        L.f_columns(X, y, 6)
