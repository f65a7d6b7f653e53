"""Train/test splits of the papers' protocols, each carrying the seed that made it.

Two schemes cover the five papers:

* :func:`stratified_kfold`: k folds, stratified by class and shuffled with one
  seed (the GS-SVM paper's 10-fold cross-validation, outer and inner);
* :func:`random_partitions`: repeated random train/test partitions, one seed per
  repetition (the LDM paper: 30 or 10 random halves; NESVM's image sets: 70/30).

Every :class:`Split` turns into the columns ``split_scheme, split_seed,
split_index`` of a record (:meth:`Split.record`), so any record says which
split produced it and a split can be rebuilt from its record alone.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import ShuffleSplit, StratifiedKFold, StratifiedShuffleSplit


@dataclass(frozen=True)
class Split:
    """One train/test split: row indices, and how it was drawn."""
    scheme: str   # "stratified_kfold" or "random_partition"
    seed: int     # the seed that drew it (for k folds, the seed of all k)
    index: int    # fold number, or repetition number
    train: np.ndarray
    test: np.ndarray

    def record(self) -> dict:
        """The record columns naming this split."""
        return {"split_scheme": self.scheme, "split_seed": self.seed, "split_index": self.index}


def stratified_kfold(y, n_folds: int, seed: int) -> list[Split]:
    """``n_folds`` stratified folds of the rows of ``y``, shuffled with ``seed``
    (scikit-learn's StratifiedKFold, so the folds are those of that class)."""
    folds = StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(np.zeros(len(y)), y)
    return [Split("stratified_kfold", int(seed), k, train, test) for k, (train, test) in enumerate(folds)]


def random_partitions(y, n_repeats: int, test_size: float, seed: int,
                      stratify: bool = False) -> list[Split]:
    """``n_repeats`` random train/test partitions; repetition ``r`` is drawn with
    seed ``seed + r``, so any one of them can be redrawn alone (a job per
    repetition). ``test_size``: the fraction held out (0.5 for the LDM paper's
    halves). ``stratify``: keep the class proportions in both parts (the LDM
    paper says only "randomly selected"; the default follows it)."""
    if not 0.0 < test_size < 1.0:
        raise ValueError(f"test_size must be in (0, 1); got {test_size}")
    splits = []
    for r in range(n_repeats):
        kind = StratifiedShuffleSplit if stratify else ShuffleSplit
        splitter = kind(n_splits=1, test_size=test_size, random_state=seed + r)
        train, test = next(splitter.split(np.zeros(len(y)), y))
        splits.append(Split("random_partition" + ("_stratified" if stratify else ""),
                            int(seed + r), r, np.sort(train), np.sort(test)))
    return splits


def published_test_or_holdout(name: str):
    """Training and test data of a registry dataset: its published test file
    where this machine can have it (a4a.t); otherwise (w8a, whose w8a.t is not
    in the mirror) a stratified 80/20 split of the training file with seed 0.
    Returns ``(X, y, X_test, y_test, note)``, the note saying which, for the
    records."""
    from sklearn.model_selection import train_test_split

    from .. import datasets

    X, y = datasets.load(name)
    if "test" in datasets.get_spec(name).split_names() and datasets.availability(name, "test") != "unavailable":
        Xt, yt = datasets.load(name, split="test")
        return X, y, Xt, yt, "published test set"
    X, Xt, y, yt = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
    return X, y, Xt, yt, "80/20 stratified split of the training file (seed 0)"
