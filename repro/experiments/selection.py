"""Nested cross-validation: choose a grid point on the training part, score it on the test part.

A paper supplies its grid (a list of parameter dicts) and a *grid-scoring hook*

    score_grid(X_fit, y_fit, X_val, y_val, grid) -> array of len(grid)

that trains on ``(X_fit, y_fit)`` at every grid point and returns each point's
score on ``(X_val, y_val)`` (higher is better). The hook sees the whole grid at
once, so it can share work across it: the GS-SVM paper computes one distance
matrix per inner split and one Gram matrix per kernel width for all its Cs;
the LDM paper can share one factorisation per kernel width and lambda1.
Everything a paper does to its data inside a fit (scaling on the training
part, say) belongs in the hook, so that the inner and outer fits do the same.

Tie rule, the one used by every paper here: the grid point with the best mean
inner score, and among equals the first in grid order (``np.argmax``), which is
scikit-learn's GridSearchCV's rule. A paper states its grid order beside its grid.
``tie="last"`` takes the last of them instead: a reading a paper's sweep may try
where its source does not say how ties were broken.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .splits import Split, stratified_kfold

ScoreGrid = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Sequence[dict]], np.ndarray]


@dataclass(frozen=True)
class Selection:
    """What nested CV chose on one outer split, and how it scored."""
    index: int                 # position of the chosen point in the grid
    params: dict               # the chosen point
    inner_scores: np.ndarray   # mean inner score of every grid point
    inner_score: float         # the chosen point's mean inner score
    test_score: float          # the refitted model's score on the outer test part
    n_fits: int                # models trained: grid x inner folds + the refit

    @property
    def n_best(self) -> int:
        """How many grid points share the best mean inner score (1: no tie).
        The tie rule picks the first; a paper whose grid ties often (LDM, where
        many lambdas give the same folds' accuracy) reports this."""
        return int(np.sum(self.inner_scores == self.inner_score))


def dataset_record(paper_name: str, info) -> dict:
    """The record columns naming a dataset: the paper's name, the registry's
    (``info`` from ``repro.datasets.load(..., return_info=True)``) and whether it
    is a stand-in, so every table can label a stand-in's cells."""
    return {"paper_dataset": paper_name, "dataset": info.name, "standin": bool(info.standin)}


def fold_record(data: dict, X, y, outer: Split, inner_folds: int, inner_seed: int,
                method: str, params: dict, chosen: "Selection") -> dict:
    """The record of one outer fold of nested CV for one method, in the column
    order every paper's records share: the dataset (``data``, see
    :func:`dataset_record`) and its size, the outer split, the inner CV, the
    method and its chosen ``params`` (already in the paper's record form, log2
    values say), the inner and test accuracy and the fits. A paper appends its
    own columns (unconverged problems, seconds) after these."""
    return {**data, "n_samples": X.shape[0], "n_features": X.shape[1],
            "n_classes": len(np.unique(y)), **outer.record(), "inner_folds": inner_folds,
            "inner_seed": inner_seed, "method": method, **params,
            "inner_cv_accuracy": chosen.inner_score, "test_accuracy": chosen.test_score,
            "n_fits": chosen.n_fits}


def best_index(scores, tie: str = "first") -> int:
    """The first (``tie="last"``: the last) best grid point (the tie rule above)."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 1 or scores.size == 0 or np.isnan(scores).all():
        raise ValueError(f"no grid point has a score: {scores!r}")
    if tie == "first":
        return int(np.nanargmax(scores))
    if tie == "last":
        return scores.size - 1 - int(np.nanargmax(scores[::-1]))
    raise ValueError(f"tie must be 'first' or 'last'; got {tie!r}")


def inner_scores(X, y, grid: Sequence[dict], score_grid: ScoreGrid, inner: list[Split],
                 progress=None) -> np.ndarray:
    """The hook's score of every grid point on every inner split: (n_splits, len(grid)).
    ``progress``: a :class:`repro.experiments.progress.Progress` stepped after each split."""
    scores = np.empty((len(inner), len(grid)))
    for s, split in enumerate(inner):
        row = np.asarray(score_grid(X[split.train], y[split.train], X[split.test], y[split.test], grid),
                         dtype=float)
        if row.shape != (len(grid),):
            raise ValueError(f"score_grid returned shape {row.shape} for a grid of {len(grid)} points")
        scores[s] = row
        if progress is not None:
            progress.step(f"inner split {s + 1}/{len(inner)}, {len(grid)} grid points")
    return scores


def select_and_test(X, y, outer: Split, grid: Sequence[dict], score_grid: ScoreGrid,
                    inner_folds: int, inner_seed: int, progress=None, tie: str = "first") -> Selection:
    """Nested CV on one outer split: ``inner_folds`` stratified folds (seed
    ``inner_seed``) of the outer training part choose a grid point, which is
    refitted on the whole training part and scored on the outer test part.
    ``progress`` (optional) is stepped after every inner split and the refit:
    ``inner_folds + 1`` steps. ``tie``: which of equal best points (``best_index``)."""
    X_tr, y_tr = X[outer.train], y[outer.train]
    inner = stratified_kfold(y_tr, inner_folds, inner_seed)
    mean = inner_scores(X_tr, y_tr, grid, score_grid, inner, progress).mean(axis=0)
    best = best_index(mean, tie)
    test = float(np.asarray(score_grid(X_tr, y_tr, X[outer.test], y[outer.test], [grid[best]]))[0])
    if progress is not None:
        progress.step(f"refit at {grid[best]}")
    return Selection(index=best, params=dict(grid[best]), inner_scores=mean, inner_score=float(mean[best]),
                     test_score=test, n_fits=len(grid) * inner_folds + 1)
