"""Size-matched stand-ins for LIBSVM subsets that are not in the mirror.

Every aNa training file is a subset of a9a's 32,561 rows (aNa + aNa.t = a9a) and every
wNa training file a subset of the 49,749-row pool w8a trains on (wNa + wNa.t = pool).
A stand-in draws a training part of the published size from that pool and takes the
complement as its test part. Choices, fixed so that results are repeatable:

* seed: ``zlib.crc32(name)`` (a6a 100513982, a7a 484870655, w1a 1377300923,
  w4a 794822142, w7a 72177213), recorded in the registry;
* stratified by label, class sizes by largest remainder, because the LIBSVM subsets
  keep the pool's class ratio (a1a..a5a, a8a: 24.1-24.6 % positives vs 24.1 % in a9a);
* rows keep the pool's order (the LIBSVM subsets are ordered subsequences of a9a);
* ``numpy.random.Generator(PCG64(seed)).permutation`` per class, in sorted label order.

A stand-in is not the published file: results built on it must say "stand-in"
(``load(..., return_info=True)`` and :func:`repro.datasets.is_standin` tell).
"""
from __future__ import annotations

import numpy as np


def allocate(counts: np.ndarray, n: int) -> np.ndarray:
    """Split ``n`` draws over classes proportionally to ``counts`` (largest remainder)."""
    exact = counts * (n / counts.sum())
    k = np.floor(exact).astype(np.int64)
    rest = n - k.sum()
    # ties broken by class order, so the result is deterministic
    order = np.argsort(-(exact - k), kind="stable")
    k[order[:rest]] += 1
    return k


def standin_indices(y, n_train: int, seed: int, stratified: bool = True):
    """Row indices ``(train, test)`` of a stand-in: sorted, disjoint, covering the pool."""
    y = np.asarray(y)
    n = len(y)
    if not 0 < n_train < n:
        raise ValueError(f"cannot draw {n_train} training rows from a pool of {n}")
    rng = np.random.Generator(np.random.PCG64(seed))
    if stratified:
        labels, inv = np.unique(y, return_inverse=True)
        counts = np.bincount(inv, minlength=len(labels))
        take = allocate(counts, n_train)
        parts = [rng.permutation(np.flatnonzero(inv == c))[:take[c]] for c in range(len(labels))]
        train = np.sort(np.concatenate(parts))
    else:
        train = np.sort(rng.permutation(n)[:n_train])
    mask = np.ones(n, bool)
    mask[train] = False
    return train, np.flatnonzero(mask)
