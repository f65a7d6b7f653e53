"""The estimator base: validation errors, label mapping, one-vs-one."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris

from repro.solvers import LinearSVM

X2 = np.array([[0.0, 1.0], [1.0, 0.0], [0.2, 0.9], [0.9, 0.1]])
Y2 = np.array(["a", "b", "a", "b"])


@pytest.mark.parametrize("bad, message", [(np.nan, "NaN"), (np.inf, "infinity")])
def test_non_finite_input_is_rejected_by_name(bad, message):
    X = X2.copy()
    X[1, 1] = bad
    with pytest.raises(ValueError, match=message):
        LinearSVM().fit(X, Y2)
    with pytest.raises(ValueError, match=message):
        LinearSVM().fit(sp.csr_matrix(X), Y2)


def test_single_class_is_rejected():
    with pytest.raises(ValueError, match="at least 2 classes"):
        LinearSVM().fit(X2, np.ones(4))


def test_shape_mismatch_and_empty_input():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        LinearSVM().fit(X2, Y2[:3])
    with pytest.raises(ValueError, match="0 sample"):
        LinearSVM().fit(np.empty((0, 2)), np.empty(0))
    m = LinearSVM().fit(X2, Y2)
    with pytest.raises(ValueError, match="features"):
        m.predict(np.ones((2, 3)))


def test_continuous_target_is_rejected():
    with pytest.raises(ValueError, match="Unknown label type"):
        LinearSVM().fit(X2, np.array([0.1, 0.2, 0.3, 0.4]))


def test_binary_labels_map_to_pm1_and_back():
    m = LinearSVM(C=10.0).fit(X2, Y2)
    assert list(m.classes_) == ["a", "b"]
    f = m.decision_function(X2)
    assert f.shape == (4,)
    assert np.all((f > 0) == (Y2 == "b"))  # classes_[1] is the positive class
    assert list(m.predict(X2)) == list(Y2)


def test_one_vs_one_on_iris():
    X, y = load_iris(return_X_y=True)
    m = LinearSVM(C=1.0).fit(X, y)
    assert m.problems_ == [(0, 1), (0, 2), (1, 2)]
    assert m.coef_.shape == (3, 4)
    assert m.n_iter_.shape == (3,)
    assert set(np.unique(m.history_["problem"])) == {0, 1, 2}
    assert m.decision_function(X).shape == (150, 3)
    assert (m.predict(X) == y).mean() > 0.9
    # each pairwise problem was fitted only on its two classes
    assert len(m.dual_coef_[0]) == 100
