"""The LDM paper's jobs for Table 1 (sizes) and Figures 1-3 (ldm.txt, Section 4),
beside Tables 2-4's (``jobs``); the pages and PNGs are built by ``figure_pages``.

* ``ldm_table1``: rows and features of every set as the experiments load it
  (ldm.load / ldm.load_large), beside Table 1's. One job per obtainable set.
* ``ldm_figure1``: cumulative margin distributions y_i f(x_i) on the training
  half of partition 0 (Tables 2/3's partition 0) of SVM, the bias-free SVM and
  LDM, each at its parameters chosen by Tables 2/3's inner 5-fold CV over the
  full grid; linear and RBF kernels. The paper names no set ("some
  representative regular scale data sets"; the figure's panels are not in our
  text): we take four sets whose size matches Table 1's and that span its range
  of sizes and dimensions (FIGURE_SETS).
* ``ldm_figure2``: CPU time of one fit of SVMl (LIBLINEAR), SVMa (ASGD SVM,
  repro.solvers.ASGDSVM) and LDM (ASGD) on the large sets obtainable here, on
  the whole set scaled as Table 4 scales, at one fixed setting (TIMING_SETTING:
  the paper gives none), best of ``repeat`` interleaved runs on one thread,
  each run in a child process stopped at ``cap_seconds``.
* ``ldm_figure3``: test accuracy of LDM on partition 0 as lambda1, lambda2 and
  C each run over the paper's grid with the other two at the CV choice
  (Section 4.6), linear and RBF (the RBF width stays at its CV choice).
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning

from ... import datasets
from ...experiments.records import JobFiles, RecordSchema
from ...experiments.selection import select_and_test
from . import jobs as L

# Table 1's names that differ from Tables 2-3's (ldm.REGULAR_SETS keys)
TABLE1_NAMES = {"planning": "planning-relax", "breast": "breast-cancer"}
TABLE1_SETS = tuple(TABLE1_NAMES.get(n, n) for n in ("promoters", "planning", "colic", "parkinsons",
                                                       "colic.ORIG", "sonar", "vote", "house", "heart",
                                                       "breast", "haberman", "vehicle", "clean1", "wdbc",
                                                       "isolet", "credit-a", "austra", "australian",
                                                       "fourclass", "german"))


def table1_name(name: str) -> str:
    """Tables 2-4's name of a set -> Table 1's."""
    back = {v: k for k, v in TABLE1_NAMES.items()}
    return back.get(name, name)


def registry_name(name: str) -> str:
    """Tables 2-4's name -> the registry's."""
    return {**L.REGULAR_SETS, **L.LARGE_SETS}[name]


@dataclass(frozen=True)
class SizeProtocol:
    datasets: tuple


SIZE_PROTOCOLS = {"full": SizeProtocol(TABLE1_SETS + tuple(L.LARGE_SETS)),
                  "quick": SizeProtocol(("planning-relax", "heart", "haberman")),
                  "tiny": SizeProtocol(("heart",))}


SIZE_SCHEMA = RecordSchema({"paper_dataset": "str", "dataset": "str", "standin": "bool",
                            "n_samples": "int", "n_features": "int", "n_classes": "int",
                            "scale": "str", "seconds": "float"})


def run_sizes(protocol, dataset: str) -> pd.DataFrame:
    """The size of a set as the experiments load it (the large sets with
    Table 4's split: ijcnn1's train + test)."""
    start = time.perf_counter()
    large = dataset in L.LARGE_SETS
    X, y, info = L.load_large(dataset) if large else L.load(dataset)
    return pd.DataFrame([{"paper_dataset": dataset, "dataset": info.name, "standin": bool(info.standin),
                          "n_samples": X.shape[0], "n_features": X.shape[1],
                          "n_classes": len(np.unique(y)), "scale": "large" if large else "regular",
                          "seconds": time.perf_counter() - start}])


# ------------------------------------------------------------------ Figures 1 and 3
FIGURE_SETS = ("planning-relax", "sonar", "breast-cancer", "credit-a")
FIGURE_KERNELS = ("linear", "rbf")
FIGURE_PARTITION = 0
FIGURE1_METHODS = ("SVM", "SVM (no bias)", "LDM")
N_QUANTILES = 101   # margins at the quantiles 0, 0.01, ..., 1 of the training half

FIGURE_PROTOCOLS = {
    # Tables 2/3's full grid and inner CV; n_partitions only fixes partition 0's draw
    "full": L.Protocol(datasets=FIGURE_SETS, n_partitions=30),
    "quick": L.Protocol(datasets=("heart",), n_partitions=30, inner_folds=3, c_grid=(10.0, 100.0),
                        lambda_log2=(-8, -2), width_log2=(0,)),
}
FIGURE_PROTOCOLS["tiny"] = replace(FIGURE_PROTOCOLS["quick"], inner_folds=2, c_grid=(10.0,), lambda_log2=(-8,))


def per_kernel_jobs(protocol):
    for name in protocol.datasets:
        if datasets.obtainable(registry_name(name)):
            for kernel in FIGURE_KERNELS:
                yield {"dataset": name, "kernel": kernel}


def _select(protocol, X, y, outer, method, kernel):
    """The CV choice of ``method`` on the partition's training half (Tables 2/3's selection)."""
    hook = L.ScoreGrid(method, kernel)
    return select_and_test(X, y, outer, L.grid(method, kernel, protocol), hook, protocol.inner_folds,
                           L.INNER_SEED)


def _features(kernel, params, X_train, X_test):
    """What the estimators of ldm.make_estimator take: scaled features, or the
    RBF Gram matrices (training x training, test x training)."""
    Xf, Xt = L.scale01(X_train, X_test)
    if kernel != "rbf":
        return Xf, Xt
    from ...kernels import squared_distances

    w = params["width_factor"] * L.mean_distance(Xf)
    return L.rbf(squared_distances(Xf, Xf), w), L.rbf(squared_distances(Xt, Xf), w)


def _fit(method, kernel, params, F, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return L.make_estimator(method, kernel, params, len(y)).fit(F, y)


def _signed(y, classes):
    return np.where(y == classes[1], 1.0, -1.0)


def _params_record(params):
    return {f"log2_{k}": L._log2(params, k) for k in ("C", "lambda1", "lambda2", "width_factor")}


FIGURE1_SCHEMA = RecordSchema({
    "paper_dataset": "str", "dataset": "str", "standin": "bool", "kernel": "str", "method": "str",
    "split_index": "int", "n_train": "int", "quantile": "float", "margin": "float",
    "log2_C": "float", "log2_lambda1": "float", "log2_lambda2": "float", "log2_width_factor": "float",
    "test_accuracy": "float", "seconds": "float"})


def run_margins(protocol, dataset: str, kernel: str) -> pd.DataFrame:
    """Figure 1's job: each method's margins on the training half at its CV choice."""
    X, y, info = L.load(dataset)
    outer = L.partitions(y, protocol)[FIGURE_PARTITION]
    rows = []
    for method in FIGURE1_METHODS:
        start = time.perf_counter()
        chosen = _select(protocol, X, y, outer, method, kernel)
        F, T = _features(kernel, chosen.params, X[outer.train], X[outer.test])
        model = _fit(method, kernel, chosen.params, F, y[outer.train])
        margins = _signed(y[outer.train], model.classes_) * model.decision_function(F)
        q = np.linspace(0.0, 1.0, N_QUANTILES)
        values = np.quantile(margins, q)
        seconds = time.perf_counter() - start
        for qi, v in zip(q, values):
            rows.append({"paper_dataset": dataset, "dataset": info.name, "standin": bool(info.standin),
                         "kernel": kernel, "method": method, "split_index": FIGURE_PARTITION,
                         "n_train": len(outer.train), "quantile": qi, "margin": v,
                         **_params_record(chosen.params), "test_accuracy": chosen.test_score,
                         "seconds": seconds})
    return pd.DataFrame(rows)


FIGURE3_SCHEMA = RecordSchema({
    "paper_dataset": "str", "dataset": "str", "standin": "bool", "kernel": "str", "split_index": "int",
    "parameter": "str", "log2_value": "float", "at_cv_choice": "bool", "test_accuracy": "float",
    "svm_test_accuracy": "float", "log2_C": "float", "log2_lambda1": "float", "log2_lambda2": "float",
    "log2_width_factor": "float", "seconds": "float"})


def sweeps(protocol, params: dict):
    """(parameter, value, point) of Figure 3: each of lambda1, lambda2 and C
    over the grid, the other two (and the width) at ``params``."""
    values = {"lambda1": [2.0 ** k for k in protocol.lambda_log2],
              "lambda2": [2.0 ** k for k in protocol.lambda_log2], "C": list(protocol.c_grid)}
    for name, grid in values.items():
        for v in grid:
            yield name, v, {**params, name: v}


def run_sensitivity(protocol, dataset: str, kernel: str) -> pd.DataFrame:
    """Figure 3's job: LDM's test accuracy along each parameter, the others at the CV choice."""
    X, y, info = L.load(dataset)
    outer = L.partitions(y, protocol)[FIGURE_PARTITION]
    start = time.perf_counter()
    chosen = _select(protocol, X, y, outer, "LDM", kernel)
    svm = _select(protocol, X, y, outer, "SVM", kernel)
    F, T = _features(kernel, chosen.params, X[outer.train], X[outer.test])
    rows = []
    for name, value, point in sweeps(protocol, chosen.params):
        model = _fit("LDM", kernel, point, F, y[outer.train])
        rows.append({"paper_dataset": dataset, "dataset": info.name, "standin": bool(info.standin),
                     "kernel": kernel, "split_index": FIGURE_PARTITION, "parameter": name,
                     "log2_value": float(np.log2(value)), "at_cv_choice": bool(value == chosen.params[name]),
                     "test_accuracy": float(np.mean(model.predict(T) == y[outer.test])),
                     "svm_test_accuracy": svm.test_score, **_params_record(chosen.params)})
    seconds = time.perf_counter() - start
    return pd.DataFrame(rows).assign(seconds=seconds)


# ------------------------------------------------------------------ Figure 2
# The paper gives no setting for its timings; we take the middle of its
# lambda grid and the smallest C of its grid (LIBLINEAR's time grows with C,
# so this favours SVMl), 5 epochs for both ASGD methods (the T).
TIMING_SETTING = {"C": 10.0, "lambda1": 2.0 ** -5, "lambda2": 2.0 ** -5}
TIMING_METHODS = ("SVMl", "SVMa", "LDM")


@dataclass(frozen=True)
class TimingProtocol:
    datasets: tuple
    repeat: int = 3
    cap_seconds: float = 120.0
    threads: int = 1


TIMING_PROTOCOLS = {"full": TimingProtocol(("adult-a", "w8a", "ijcnn1", "skin")),
                    "quick": TimingProtocol(("adult-a",), repeat=1, cap_seconds=60.0),
                    "tiny": TimingProtocol(("adult-a",), repeat=1, cap_seconds=10.0)}

TIMING_SCHEMA = RecordSchema({
    "paper_dataset": "str", "dataset": "str", "standin": "bool", "n_samples": "int", "n_features": "int",
    "method": "str", "log2_C": "float", "log2_lambda1": "float", "log2_lambda2": "float",
    "seconds": "float", "capped": "bool", "repeat": "int", "train_accuracy": "float",
    "cpu_model": "str", "cpu_count": "int", "threads": "int", "thread_pools": "str"})


def timing_estimator(method: str, setting: dict = TIMING_SETTING):
    from ...solvers import ASGDSVM

    if method == "SVMl":
        return L.make_estimator("SVM", "large", setting, 0)
    if method == "SVMa":
        return ASGDSVM(C=setting["C"], n_epochs=5, random_state=0)
    if method == "LDM":
        return L.make_estimator("LDM", "large", setting, 0)
    raise ValueError(f"method must be one of {TIMING_METHODS}; got {method!r}")


def run_timing(protocol, dataset: str) -> pd.DataFrame:
    """Figure 2's job: best of ``repeat`` interleaved fits of each method on
    the whole set (scaled as Table 4), one thread, each capped."""
    from ...experiments.timing import machine_record, run_capped

    X, y, info = L.load_large(dataset)
    X, = L.scale_sparse(X)
    X = X.tocsr() if hasattr(X, "tocsr") else X

    def fit_and_score(method):
        def fn():  # in the capped child; the fit's own time (not the score's) is kept
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                model = timing_estimator(method)
                start = time.perf_counter()
                model.fit(X, y)
                seconds = time.perf_counter() - start
            return seconds, float(np.mean(model.predict(X) == y))
        return fn

    runs = {m: [] for m in TIMING_METHODS}
    for _ in range(protocol.repeat):
        for method in TIMING_METHODS:  # interleaved: a drift of the machine hits all alike
            runs[method].append(run_capped(fit_and_score(method), protocol.cap_seconds, protocol.threads))
    best = {}
    for method, done in runs.items():
        finished = [r for r in done if not r.capped]
        b = min(finished, key=lambda r: r.value[0]) if finished else None
        best[method] = (b.value[0], False, b.value[1]) if b else (float(protocol.cap_seconds), True, np.nan)
    machine = machine_record(protocol.threads)
    return pd.DataFrame([{"paper_dataset": dataset, "dataset": info.name, "standin": bool(info.standin),
                          "n_samples": X.shape[0], "n_features": X.shape[1], "method": m,
                          "log2_C": np.log2(TIMING_SETTING["C"]),
                          "log2_lambda1": np.log2(TIMING_SETTING["lambda1"]) if m == "LDM" else np.nan,
                          "log2_lambda2": np.log2(TIMING_SETTING["lambda2"]) if m == "LDM" else np.nan,
                          "seconds": best[m][0], "capped": best[m][1], "repeat": protocol.repeat,
                          "train_accuracy": best[m][2], **machine} for m in TIMING_METHODS])
