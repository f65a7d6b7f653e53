"""The LDM paper's accuracy tables (repro.experiments.ldm, ldm_report): the
grids, the scaling, one quick job per table run end to end, and the page built
from records (markers from paired t-tests, w/t/l, statuses)."""
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from repro.experiments import TableRun, run_job, table_spec
from repro.experiments import ldm as L
from repro.experiments import ldm_report as R


def test_the_grids_are_the_papers_in_the_tie_rules_order():
    full = L.PROTOCOLS["full"]
    assert len(L.grid("LDM", "linear", full)) == 3 * 7 * 7
    assert len(L.grid("LDM", "rbf", full)) == 5 * 3 * 7 * 7
    assert len(L.grid("SVM", "rbf", full)) == 15 and len(L.grid("KM-OMD", "linear", full)) == 3
    assert L.grid("MAMC", "linear", full) == [{}] and len(L.grid("MAMC", "rbf", full)) == 5
    points = L.grid("LDM", "rbf", full)
    order = [(p["width_factor"], p["C"], p["lambda1"], p["lambda2"]) for p in points]
    assert order == sorted(order)  # width, C, lambda1, lambda2, each ascending
    assert {p["lambda1"] for p in points} == {2.0 ** k for k in range(-8, -1)}


def test_scaling_is_fitted_on_the_training_part_and_sparse_stays_sparse():
    X_fit = np.array([[0.0, 5.0], [2.0, 5.0]])
    X_other = np.array([[4.0, 6.0]])
    Xf, Xo = L.scale01(X_fit, X_other)
    assert Xf.min() == 0.0 and Xf.max() == 1.0
    assert Xo[0, 0] == 2.0 and Xo[0, 1] == 1.0  # the test part is not clipped or refitted
    S = sp.csr_matrix(np.array([[0.0, -4.0], [2.0, 0.0]]))
    Sf, = L.scale_sparse(S)
    assert sp.issparse(Sf) and Sf.nnz == S.nnz
    assert np.allclose(Sf.toarray(), [[0.0, -1.0], [1.0, 0.0]])


def test_delta_is_the_mean_distance_between_distinct_instances():
    X = np.array([[0.0, 0.0], [3.0, 4.0], [0.0, 0.0]])
    assert L.mean_distance(X) == pytest.approx((5 + 5 + 0) * 2 / 6)


@pytest.mark.parametrize("table, dataset", [("ldm_table2", "planning-relax"), ("ldm_table3", "heart"),
                                            ("ldm_table4", "adult-a")])
def test_a_quick_job_runs_every_method_and_records_the_evidence(data_env, table, dataset):
    records = run_job(table, "quick", {"dataset": dataset, "partition": "0"})
    spec = table_spec(table)
    assert list(records.method) == list(spec.protocol("quick").methods)
    assert (records.test_accuracy > 0.5).all()  # every method beats chance on these sets
    ldm = records[records.method.isin(list(L.LDM_READINGS))]
    assert ldm.agreement_with_svm_no_bias.between(0, 1).all()
    assert (records.n_best >= 1).all() and (records.n_best <= records.grid_size).all()
    assert (records.split_scheme == "random_partition").all() and (records.split_index == 0).all()


def _records(accuracies: dict, n=10):
    """Records of Table 2 from {(dataset, method): per-partition accuracies}."""
    rows = []
    for (dataset, method), acc in accuracies.items():
        for r, a in enumerate(np.resize(acc, n)):
            rows.append({"paper_dataset": dataset, "dataset": L.REGULAR_SETS[dataset], "standin": False,
                         "n_samples": 100, "n_features": 5, "n_classes": 2,
                         "split_scheme": "random_partition", "split_seed": r, "split_index": r,
                         "inner_folds": 5, "inner_seed": 1, "method": method, "log2_C": 3.3,
                         "log2_lambda1": -4.0, "log2_lambda2": -4.0, "log2_width_factor": np.nan,
                         "inner_cv_accuracy": a, "test_accuracy": a, "n_fits": 10, "kernel": "linear",
                         "grid_size": 147, "n_best": 3,
                         "agreement_with_svm_no_bias": 1.0 if method.startswith("LDM") else np.nan,
                         "n_unconverged_fits": 0, "seconds": 1.0})
    return pd.DataFrame(rows)


def test_the_page_marks_significant_differences_and_counts_wins(data_env):
    rng = np.random.default_rng(0)
    noise = rng.normal(0, 0.005, 10)
    acc = {("heart", "SVM"): 0.80 + noise, ("heart", "SVM (no bias)"): 0.80 + noise,
           ("heart", "LDM"): 0.85 + noise + rng.normal(0, 0.001, 10),
           ("heart", "LDM (double-sum)"): 0.80 + noise,
           ("sonar", "SVM"): 0.72 + noise, ("sonar", "SVM (no bias)"): 0.72 + noise,
           ("sonar", "LDM"): 0.70 + noise + rng.normal(0, 0.001, 10),
           ("sonar", "LDM (double-sum)"): 0.72 + noise}
    protocol = L.PROTOCOLS["full"].__class__(datasets=("heart", "sonar", "isolet"), n_partitions=10)
    out = R.table2(_records(acc), TableRun("full", protocol))
    rows = out.csv.set_index(["dataset", "method"])
    assert rows.loc[("heart", "LDM"), "marker_ours"] == "better"
    assert rows.loc[("sonar", "LDM"), "marker_ours"] == "worse"
    assert rows.loc[("heart", "LDM"), "reproduced"] == pytest.approx(0.85, abs=0.01)
    assert rows.loc[("isolet", "LDM"), "verdict"] == "unavailable offline"
    assert rows.loc[("german", "LDM"), "verdict"] == "not run (left out of this profile)"
    assert "1/0/1" in out.markdown  # LDM against SVM over the two sets run
    assert "Does the selected LDM differ from the bias-free SVM?" in out.markdown


def test_a_set_with_fewer_partitions_is_partial_not_a_mean(data_env):
    acc = {("heart", m): [0.8, 0.82] for m in ("SVM", "SVM (no bias)", "LDM", "LDM (double-sum)")}
    records = _records(acc, n=4)
    protocol = L.PROTOCOLS["full"].__class__(datasets=("heart",), n_partitions=30)
    out = R.table2(records, TableRun("full", protocol))
    assert out.csv.set_index(["dataset", "method"]).loc[("heart", "LDM"), "verdict"].startswith("partial")
