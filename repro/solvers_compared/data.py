"""The sets of the comparison and their train/test parts.

A set's own test file is used where it has one that can be obtained here
(a1a.t, a4a.t); otherwise one seeded, stratified 70/30 partition of its
training file (``repro.experiments.splits.random_partitions``, seed 0), and
the split column says which and, for a test file that exists but cannot be
obtained offline (w8a.t), that it could not. Features are put in [-1, 1]
(LIBSVM's svm-scale range, ``RangeScaler`` fitted on the training part) where
a set is not already scaled (german.numer's raw attributes reach 184); the
labels become +1 (the larger label) and -1.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from repro import datasets
from repro.experiments.splits import random_partitions

SIZES = {
    "full": ("heart_scale", "german.numer", "a1a", "a4a", "w8a"),
    "tiny": ("heart_scale", "a1a"),
}
# sets whose raw features are not in [-1, 1] or [0, 1]
_SCALE = ("german.numer",)
SPLIT_SEED = 0
TEST_FRACTION = 0.3


def datasets_of(size):
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(map(repr, SIZES))}; got {size!r}")
    return SIZES[size]


@dataclass
class Parts:
    """A set's training and test parts (labels +-1) and how the test part was made."""
    X: object
    y: np.ndarray
    X_test: object
    y_test: np.ndarray
    split: str


def _pm(y, positive):
    return np.where(np.asarray(y) == positive, 1.0, -1.0)


def load_split(name):
    """The training and test parts of ``name`` (see the module docstring)."""
    X, y = datasets.load(name)
    positive = np.max(y)
    spec = datasets.get_spec(name)
    missing = ""
    if "test" in spec.split_names():
        try:
            Xt, yt = datasets.load(name, split="test", download=False)
            return Parts(X, _pm(y, positive), Xt, _pm(yt, positive),
                         f"{name}.t (published test file)")
        except datasets.DatasetUnavailableError:
            missing = f" ({name}'s test file is not available offline)"
    part = random_partitions(y, 1, TEST_FRACTION, SPLIT_SEED, stratify=True)[0]
    X, Xt, y, yt = X[part.train], X[part.test], y[part.train], y[part.test]
    if name in _SCALE:
        from repro.datasets.preprocess import RangeScaler

        scaler = RangeScaler((-1.0, 1.0)).fit(X)
        X, Xt = scaler.transform(X), scaler.transform(Xt)
    return Parts(X, _pm(y, positive), Xt, _pm(yt, positive),
                 f"stratified 70/30 of the training file, seed {SPLIT_SEED}{missing}")
