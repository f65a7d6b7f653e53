"""Shared scikit-learn compatible base for the papers' SVM classifiers.

A solver subclass implements one binary problem with labels in {-1, +1}:

* ``_fit_binary(X, y, history) -> dict``: solve it; ``X`` is validated
  (float64, C-contiguous or CSR), ``history`` is a :class:`History` whose
  ``record(iteration, objective)`` the solver calls as it goes. The dict holds
  whatever the solver needs later and must contain ``"n_iter"``; the base adds
  ``"rows"``, the training-set index of each row of the problem.
* ``_set_fitted(results, X)``: publish fitted attributes (``coef_``,
  ``support_``, ...) from the list of per-problem dicts (``X``: the validated
  training data, e.g. to keep support vectors).
* ``_decision_values(X) -> ndarray (n_samples, n_problems)``: the decision
  value of every problem on the validated data ``X`` (one call for all
  problems, so a solver can share work between them).

The base does everything else the same way for every paper: validation with
clear errors, label mapping, one-vs-one for more than two classes (the papers'
multiclass scheme: GS-SVM Sec. 3, NESVM Sec. IV), ``classes_``,
``n_features_in_``, ``n_iter_``, ``history_``, ``decision_function`` and
``predict``.

Conventions: in a binary problem ``classes_[1]`` is the positive class (+1),
as in scikit-learn. For k > 2 classes there is one problem per pair (i, j),
i < j, in ``problems_``, where class j is +1 and class i is -1; each problem
votes, and ties are broken by the summed confidences as scikit-learn's SVC does.
"""
from itertools import combinations
from time import perf_counter

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data


class History:
    """Trace of one fit: (iteration, seconds since start, objective) rows."""

    def __init__(self):
        self._start = perf_counter()
        self.rows = []

    def record(self, iteration, objective):
        self.rows.append((int(iteration), perf_counter() - self._start, float(objective)))

    # Solvers written in Cython receive ``history.record`` as a callback.
    __call__ = record


class BaseSVMClassifier(ClassifierMixin, BaseEstimator):
    """Base class; see the module docstring for the subclass contract."""

    _parameter_constraints: dict = {}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = not self._precomputed()
        tags.input_tags.pairwise = self._precomputed()
        return tags

    def _precomputed(self):
        """True when X is a Gram matrix (kernel='precomputed'): fit takes
        K(X_train, X_train), prediction K(X, X_train), and a one-vs-one problem
        takes the rows and columns of its samples."""
        return getattr(self, "kernel", None) == "precomputed"

    # -- fitting -------------------------------------------------------------
    def fit(self, X, y):
        """Fit one binary problem, or one per pair of classes.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), at least two classes

        Returns
        -------
        self
        """
        self._validate_params()
        precomputed = self._precomputed()
        X, y = validate_data(
            self, X, y, accept_sparse=False if precomputed else "csr", dtype=np.float64, order="C",
        )
        if precomputed and X.shape[0] != X.shape[1]:
            raise ValueError(
                f"kernel='precomputed' needs the square Gram matrix K(X_train, X_train) "
                f"in fit; got an array of shape {X.shape}."
            )
        check_classification_targets(y)
        classes, y_idx = np.unique(y, return_inverse=True)
        if len(classes) < 2:
            raise ValueError(
                f"{type(self).__name__} needs samples of at least 2 classes in y; "
                f"got 1 class: {classes[0]!r}."
            )
        self.classes_ = classes
        self.problems_ = [(0, 1)] if len(classes) == 2 else list(combinations(range(len(classes)), 2))

        results, trace = [], []
        for p, (neg, pos) in enumerate(self.problems_):
            mask = (y_idx == neg) | (y_idx == pos)
            if mask.all():
                Xp = X
            else:
                rows = np.flatnonzero(mask)
                # np.take on both axes: the fastest contiguous sub-Gram (2x np.ix_)
                Xp = np.take(np.take(X, rows, axis=0), rows, axis=1) if precomputed else X[mask]
            yp = np.where(y_idx[mask] == pos, 1.0, -1.0)
            history = History()
            result = self._fit_binary(Xp, yp, history)
            result["rows"] = np.flatnonzero(mask)  # problem row -> training row
            results.append(result)
            trace.extend((p, *row) for row in history.rows)

        trace = np.array(trace, dtype=float).reshape(-1, 4)
        self.history_ = {
            "problem": trace[:, 0].astype(int),
            "iteration": trace[:, 1].astype(int),
            "time": trace[:, 2],
            "objective": trace[:, 3],
        }
        n_iter = np.array([r["n_iter"] for r in results], dtype=int)
        self.n_iter_ = int(n_iter[0]) if len(n_iter) == 1 else n_iter
        self._set_fitted(results, X)
        return self

    def _fit_binary(self, X, y, history):  # pragma: no cover - abstract
        raise NotImplementedError

    def _set_fitted(self, results, X):  # pragma: no cover - abstract
        raise NotImplementedError

    def _decision_values(self, X):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- prediction ----------------------------------------------------------
    def decision_function(self, X):
        """Binary: shape (n_samples,), positive means ``classes_[1]``.
        Multiclass: shape (n_samples, n_classes), one-vs-one votes plus a tie
        breaker in (-1/3, 1/3) from the summed confidences."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=False if self._precomputed() else "csr",
                          dtype=np.float64, order="C", reset=False)
        n_samples = X.shape[0]
        values = self._decision_values(X)
        if len(self.classes_) == 2:
            return values[:, 0]
        n_classes = len(self.classes_)
        votes = np.zeros((n_samples, n_classes))
        confidence = np.zeros((n_samples, n_classes))
        for p, (neg, pos) in enumerate(self.problems_):
            f = values[:, p]
            votes[:, pos] += f > 0
            votes[:, neg] += f <= 0
            confidence[:, pos] += f
            confidence[:, neg] -= f
        return votes + confidence / (3 * (np.abs(confidence) + 1))

    def predict(self, X):
        """Class labels of X."""
        f = self.decision_function(X)
        if f.ndim == 1:
            return self.classes_[(f > 0).astype(int)]
        return self.classes_[np.argmax(f, axis=1)]
