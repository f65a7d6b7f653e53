"""The LDM paper's accuracy tables (repro/papers/ldm/: jobs, pages): the
grids, the scaling, one quick job per table run end to end, and the page built
from records (markers from paired t-tests, w/t/l, statuses)."""
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from repro.experiments import TableRun, run_job
from repro.papers.catalog import table_spec
from repro.papers.ldm import jobs as L
from repro.papers.ldm import pages as R
from repro.kernels import squared_distances


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


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_the_grid_warm_starts_ldm_and_scores_it_as_cold_fits_do(kernel):
    # three classes (one-vs-one warm-starts each pair); the scores of a grid
    # fitted from the previous point's beta equal those of cold fits
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 4))
    y = np.repeat([0, 1, 2], 30)
    X[:, 0] += y
    full = L.PROTOCOLS["full"]
    points = [p for p in L.grid("LDM", kernel, full) if p.get("width_factor", 1.0) in (0.5, 1.0)][::7]
    hook = L.ScoreGrid("LDM", kernel)
    fit, val = np.arange(90) % 3 != 0, np.arange(90) % 3 == 0
    warm = hook(X[fit], y[fit], X[val], y[val], points)
    cold = []
    for p in points:
        Xf, Xv = L.scale01(X[fit], X[val])
        if kernel == "rbf":
            w = p["width_factor"] * L.mean_distance(Xf)
            Xf, Xv = L.rbf(squared_distances(Xf, Xf), w), L.rbf(squared_distances(Xv, Xf), w)
        model = L.make_estimator("LDM", kernel, p, int(fit.sum()))
        cold.append(np.mean(model.fit(Xf, y[fit]).predict(Xv) == y[val]))
    np.testing.assert_array_equal(warm, cold)
    first = L.make_estimator("LDM", kernel, points[0], 60)
    second = L.make_estimator("LDM", kernel, points[1], 60)
    assert L._warm_started(second, first) is second and not second.warm_start  # nothing fitted yet
    first.fit(Xf, y[fit])  # the last point's matrix (a Gram matrix for rbf)
    assert L._warm_started(second, first).warm_start and second._warm_state is first._warm_state
    svc = L.make_estimator("SVM", kernel, {"C": 10.0}, 60)
    assert L._warm_started(svc, first) is svc  # only LDM's CD is warm-started


def test_the_two_ldm_readings_share_each_folds_eigendecompositions(monkeypatch):
    """Issue 25: Table 3's two LDM readings fit the same Gram matrices (one per
    inner fold and width); the content-keyed cache of repro.solvers.ldm pays
    each eigendecomposition once for both. (No warm start across readings:
    the double-sum reading's lambda1 m^2 lies 2^13 to 2^19 above the printed
    reading's grid for the tables' fold sizes, so no problem of one reading
    is near one of the other.)"""
    import repro.solvers.ldm as ldm_module

    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3))
    y = np.repeat([0, 1], 40)
    X[:, 0] += y
    calls = []
    eigh = np.linalg.eigh
    monkeypatch.setattr(ldm_module.np.linalg, "eigh", lambda G: calls.append(1) or eigh(G))
    full = L.PROTOCOLS["full"]
    fit, val = np.arange(80) % 4 != 0, np.arange(80) % 4 == 0
    counts = {}
    for methods in (("LDM",), ("LDM", "LDM (double-sum)")):
        ldm_module._EIGH_CACHE.clear()
        ldm_module._R_CACHE.clear()
        calls.clear()
        for method in methods:
            points = [p for p in L.grid(method, "rbf", full) if p["width_factor"] in (0.5, 1.0)][::10]
            L.ScoreGrid(method, "rbf")(X[fit], y[fit], X[val], y[val], points)
        counts[methods] = len(calls)
    assert counts[("LDM",)] == 2  # one Gram matrix per width
    assert counts[("LDM", "LDM (double-sum)")] == 2


@pytest.mark.parametrize("table, dataset", [("ldm_table2", "planning-relax"), ("ldm_table3", "heart"),
                                            ("ldm_table4", "adult-a")])
def test_a_quick_job_runs_every_method_and_records_the_evidence(data_env, table, dataset):
    # Tables 2 and 3: one job per set, every partition; Table 4: one per partition
    spec = table_spec(table)
    fields = {"dataset": dataset} if table != "ldm_table4" else {"dataset": dataset, "partition": "0"}
    records = run_job(spec, "quick", fields)
    quick = spec.protocol("quick")
    partitions = 1 if "partition" in fields else quick.n_partitions
    assert list(records.method) == list(quick.methods) * partitions
    assert list(records.split_index) == [r for r in range(partitions) for _ in quick.methods]
    spec.job_files.check_jobs(records)  # rows per partition, one of each method
    first = records[records.split_index == 0]
    assert (first.test_accuracy > 0.5).all()  # every method beats chance on these sets' first partition
    ldm = records[records.method.isin(list(L.LDM_READINGS))]
    assert ldm.agreement_with_svm_no_bias.between(0, 1).all()
    assert (records.n_best >= 1).all() and (records.n_best <= records.grid_size).all()
    assert (records.split_scheme == "random_partition").all()


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
    assert rows.loc[("german", "LDM"), "verdict"] == "not run (left out of this scale)"
    assert "1/0/1" in out.markdown  # LDM against SVM over the two sets run
    assert "Does the selected LDM differ from the bias-free SVM?" in out.markdown


def test_house_repeats_votes_data_on_its_own_partitions_and_is_counted_once(data_env):
    """Issue 27, item 2: "house" and "vote" are one dataset; house is drawn on
    other partitions (its seeds), its cells are shown, and the w/t/l row and
    the verdict count the data once."""
    X, y, _ = L.load("vote")
    Xh, yh, _ = L.load("house")
    np.testing.assert_array_equal(X, Xh)
    full = L.PROTOCOLS["full"]
    vote, house = L.partitions(y, full, "vote"), L.partitions(y, full, "house")
    assert [s.seed for s in vote[:2]] == [0, 1] and [s.seed for s in house[:2]] == [1000, 1001]
    assert all(not np.array_equal(v.test, h.test) for v, h in zip(vote, house))
    rng = np.random.default_rng(0)
    noise = rng.normal(0, 0.005, 10)
    acc = {}
    for d in ("vote", "house", "heart"):
        acc.update({(d, "SVM"): 0.80 + noise, (d, "SVM (no bias)"): 0.80 + noise,
                    (d, "LDM"): 0.85 + noise + rng.normal(0, 0.001, 10), (d, "LDM (double-sum)"): 0.80 + noise})
    protocol = full.__class__(datasets=("vote", "house", "heart"), n_partitions=10)
    out = R.table2(_records(acc), TableRun("full", protocol))
    assert ("house", "LDM") in set(zip(out.csv.dataset, out.csv.method))  # its cells are shown
    assert "| LDM | SVM | ours (2 distinct sets) | 2/0/0 |" in out.markdown
    assert "Over the 2 distinct sets complete here" in out.markdown
    assert "house: vote's data" in out.markdown


def test_a_set_with_fewer_partitions_is_partial_not_a_mean(data_env):
    acc = {("heart", m): [0.8, 0.82] for m in ("SVM", "SVM (no bias)", "LDM", "LDM (double-sum)")}
    records = _records(acc, n=4)
    protocol = L.PROTOCOLS["full"].__class__(datasets=("heart",), n_partitions=30)
    out = R.table2(records, TableRun("full", protocol))
    assert out.csv.set_index(["dataset", "method"]).loc[("heart", "LDM"), "verdict"].startswith("partial")


# ---------------------------------------------------------------- Table 1 and the explanations
from repro import published  # noqa: E402
from repro.experiments import table_run
from repro.papers.catalog import table_spec  # noqa: E402
from repro.papers.ldm import figure_jobs as F  # noqa: E402
from repro.tables import MISS_EXPLAINED, MISS_UNEXPLAINED, NO_CAUSE_TESTED, OK  # noqa: E402


def _verdicts(out):
    return out.csv.set_index(["dataset", "metric"])["verdict"]


def test_table1_sizes_match_exactly_or_a_computed_fact_says_why(data_env, monkeypatch):
    """Issues 27 and 46: a size miss is explained only by a tested cause, a
    fact that could have come out otherwise. haberman's one-hot coding gives
    the printed 14, but it was found by searching for a coding that gives 14:
    a finding, stated in the reason, not an explanation. heart's printed 9 has
    only the registry's note (heart-f9 keeps 9 features because 9 are
    selected, which explains nothing): unexplained. An encoding neither
    selected nor searched for that gave the number would explain it; one
    giving another number leaves only the registry's note."""
    records = pd.concat([run_job(table_spec("ldm_table1"), "quick", {"dataset": d})
                         for d in F.SIZE_PROTOCOLS["quick"].datasets])
    out = table_spec("ldm_table1").build(records, table_run(table_spec("ldm_table1"), "quick"))
    v = _verdicts(out)
    assert v[("planning", "n_instances")] == OK and v[("planning", "n_features")] == OK
    assert v[("heart", "n_instances")] == OK
    why = out.csv.set_index(["dataset", "metric"])["why"]
    assert v[("haberman", "n_features")] == MISS_UNEXPLAINED
    assert "what haberman-onehot gives" in why[("haberman", "n_features")]
    assert "found by searching" in why[("haberman", "n_features")]
    assert "a finding, not an explanation" in why[("haberman", "n_features")]
    assert "not chosen to fit" not in out.markdown
    assert v[("heart", "n_features")] == MISS_UNEXPLAINED
    assert "13" in why[("heart", "n_features")] and "no public version with 9" in why[("heart", "n_features")]
    sizes = R_F.encoding_sizes()
    assert [e["searched"] for e in sizes["haberman"]] == [True]
    assert all(e["selected"] and not e["searched"] for e in sizes["heart"])
    # the same coding, not found by searching, would be a tested fact: the rule keys on the search
    monkeypatch.setattr(R_F, "encoding_sizes",
                        lambda: {**sizes, "haberman": [{**e, "searched": False} for e in sizes["haberman"]]})
    unsearched = table_spec("ldm_table1").build(records, table_run(table_spec("ldm_table1"), "quick"))
    assert _verdicts(unsearched)[("haberman", "n_features")] == MISS_EXPLAINED
    # a coding giving another number: only the registry's note
    monkeypatch.setattr(R_F, "encoding_sizes",
                        lambda: {**sizes, "haberman": [{**e, "features": 13} for e in sizes["haberman"]]})
    moved = table_spec("ldm_table1").build(records, table_run(table_spec("ldm_table1"), "quick"))
    assert _verdicts(moved)[("haberman", "n_features")] == MISS_UNEXPLAINED
    assert "found by searching" not in moved.csv.set_index(["dataset", "metric"])["why"][("haberman", "n_features")]
    assert v[("german", "n_features")].startswith("not run")      # not in the quick scale
    assert v[("news20", "n_instances")].startswith("not run")   # the scale is checked before availability
    assert all(e.holds for e in out.csv.attrs["explanations_used"].values())


def _size_records(rows):
    return pd.DataFrame([{"paper_dataset": d, "dataset": F.registry_name(d), "standin": False, "n_samples": m,
                          "n_features": n, "n_classes": 2, "scale": "large", "seconds": 0.1}
                         for d, m, n in rows])


def test_ijcnn1_is_loaded_pooled_as_table_1_counts_it(data_env):
    """The LDM paper pools ijcnn1's train and test files (141,691 rows): the
    large-set loader takes the registry's split for the paper ('all'), and
    Table 1 then matches (the training file alone, 49,990 rows, would miss)."""
    X, y, info = L.load_large("ijcnn1")
    assert X.shape == (141_691, 22)
    run = TableRun("full", F.SIZE_PROTOCOLS["full"])
    pooled = R_F.table1(_size_records([("ijcnn1", 141_691, 22)]), run).csv.set_index(["dataset", "metric"])
    assert pooled.loc[("ijcnn1", "n_instances"), "verdict"] == OK
    short = R_F.table1(_size_records([("ijcnn1", 49_990, 22)]), run).csv.set_index(["dataset", "metric"])
    assert short.loc[("ijcnn1", "n_instances"), "verdict"] == MISS_UNEXPLAINED


def test_accuracy_misses_are_explained_only_where_the_computed_facts_hold(data_env):
    rng = np.random.default_rng(1)
    noise = rng.normal(0, 0.01, 30)
    pub = published.load("ldm_table2").set_index(["dataset", "method"])["value"]
    acc = {}
    for d in ("heart", "sonar"):
        acc[(d, "SVM")] = pub[(d, "SVM")] + 0.05 + noise            # 0.05 off: a miss
        acc[(d, "SVM (no bias)")] = pub[(d, "LDM")] - 0.05 + noise
        acc[(d, "LDM")] = pub[(d, "LDM")] - 0.05 + noise           # as the bias-free SVM
        acc[(d, "LDM (double-sum)")] = pub[(d, "LDM")] + noise
    records = _records(acc, n=30)
    records.loc[records.paper_dataset == "heart", "n_features"] = 13   # Table 1: 270 x 9
    records.loc[records.paper_dataset == "heart", "n_samples"] = 270
    records.loc[records.paper_dataset == "sonar", "n_features"] = 60   # Table 1: 208 x 60
    records.loc[records.paper_dataset == "sonar", "n_samples"] = 208
    protocol = L.PROTOCOLS["full"].__class__(datasets=("heart", "sonar"), n_partitions=30)
    rows = R.table2(records, TableRun("full", protocol)).csv.set_index(["dataset", "method"])
    # other data (13 vs 9) is a finding, not a tested cause (issue 27)
    assert rows.loc[("heart", "SVM"), "verdict"] == MISS_UNEXPLAINED
    assert "270 x 13" in rows.loc[("heart", "SVM"), "why"] and "Not tested" in rows.loc[("heart", "SVM"), "why"]
    # where the selected LDM is the bias-free SVM, that finding comes first, whatever the size
    assert "bias-free SVM" in rows.loc[("heart", "LDM"), "why"]
    assert rows.loc[("sonar", "SVM"), "verdict"] == MISS_UNEXPLAINED        # same data, 30 partitions
    assert rows.loc[("sonar", "SVM"), "why"] == NO_CAUSE_TESTED
    assert rows.loc[("sonar", "LDM"), "verdict"] == MISS_UNEXPLAINED        # a recorded finding
    assert "bias-free SVM" in rows.loc[("sonar", "LDM"), "why"]


def test_the_encoding_with_table1s_size_is_a_tested_cause_either_way(data_env, monkeypatch):
    """Issue 27, item 1: haberman (306 x 3 here, 306 x 14 in Table 1) is also
    run as haberman-onehot (306 x 14, the same rows, labels and partitions).
    That coding was found by searching for one with 14 features (issue 46), so
    a haberman miss whose variant cell is within the tolerance is a finding
    saying so, not an explanation (it would be one were the coding not
    searched for); where the variant misses too, a finding saying what it
    gave. The variant is compared with haberman's published cells and counted once."""
    X, y, _ = L.load("haberman")
    Xo, yo, _ = L.load("haberman-onehot")
    np.testing.assert_array_equal(y, yo)
    full = L.PROTOCOLS["full"]
    assert all(np.array_equal(a.test, b.test) for a, b in
               zip(L.partitions(y, full, "haberman"), L.partitions(yo, full, "haberman-onehot")))
    rng = np.random.default_rng(2)
    noise = rng.normal(0, 0.01, 30)
    pub = published.load("ldm_table2").set_index(["dataset", "method"])["value"]
    acc = {}
    for d, off in (("haberman", 0.08), ("haberman-onehot", 0.0)):
        acc[(d, "SVM")] = pub[("haberman", "SVM")] - off + noise       # explained by the encoding
        acc[(d, "KM-OMD")] = pub[("haberman", "KM-OMD")] - 0.08 + noise  # a miss on both
        acc[(d, "SVM (no bias)")] = pub[("haberman", "SVM")] + noise
        acc[(d, "LDM")] = pub[("haberman", "LDM")] + noise
        acc[(d, "LDM (double-sum)")] = pub[("haberman", "LDM")] + noise
    records = _records(acc, n=30)
    for d, dim in (("haberman", 3), ("haberman-onehot", 14)):
        records.loc[records.paper_dataset == d, ["n_samples", "n_features"]] = (306, dim)
    protocol = full.__class__(datasets=("haberman", "haberman-onehot"), n_partitions=30)
    out = R.table2(records, TableRun("full", protocol))
    rows = out.csv.set_index(["dataset", "method"])
    assert rows.loc[("haberman", "SVM"), "verdict"] == MISS_UNEXPLAINED
    assert "on haberman-onehot (306 x 14" in rows.loc[("haberman", "SVM"), "why"]
    assert "found by searching for it" in rows.loc[("haberman", "SVM"), "why"]
    assert "a finding, not an explanation" in rows.loc[("haberman", "SVM"), "why"]
    monkeypatch.setattr(L, "SEARCHED_ENCODINGS", ())   # were it not searched for: a tested cause
    unsearched = R.table2(records, TableRun("full", protocol)).csv.set_index(["dataset", "method"])
    assert unsearched.loc[("haberman", "SVM"), "verdict"] == MISS_EXPLAINED
    assert "haberman-onehot, 306 x 14" in unsearched.loc[("haberman", "SVM"), "why"]
    monkeypatch.undo()
    # the variant is a reading of haberman's row (issue 46): judged against that row's cell as
    # evidence on it, never a published cell of its own, and no miss of its own to explain
    assert rows.loc[("haberman-onehot", "SVM"), "verdict"] == "reading of haberman (within)"
    assert rows.loc[("haberman-onehot", "SVM"), "published"] == rows.loc[("haberman", "SVM"), "published"]
    assert rows.loc[("haberman", "KM-OMD"), "verdict"] == MISS_UNEXPLAINED
    assert "does not account for the miss" in rows.loc[("haberman", "KM-OMD"), "why"]
    assert rows.loc[("haberman-onehot", "KM-OMD"), "verdict"] == "reading of haberman (outside)"
    assert rows.loc[("haberman-onehot", "KM-OMD"), "why"] == ""
    assert "Over the 1 distinct sets complete here" in out.markdown and "haberman-onehot: haberman's rows" in out.markdown


# ---------------------------------------------------------------- Figures 1-3 (quick jobs)
from repro.papers.ldm import figure_pages as R_F  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


def test_figure1_margins_are_cumulative_and_the_page_states_the_papers_reading(data_env):
    records = run_job(table_spec("ldm_figure1"), "quick", {"dataset": "heart", "kernel": "linear"})
    assert list(dict.fromkeys(records.method)) == list(F.FIGURE1_METHODS)
    for _, g in records.groupby("method"):
        assert len(g) == F.N_QUANTILES and np.all(np.diff(g.margin.to_numpy()) >= 0)
        assert g["quantile"].iloc[0] == 0 and g["quantile"].iloc[-1] == 1
    # the margins are those of the refitted model: its training margins below 0 are its errors
    out = table_spec("ldm_figure1").build(records, table_run(table_spec("ldm_figure1"), "quick"))
    assert out.figures["png"].startswith(PNG)
    assert "smaller min margin" in out.markdown and set(out.csv.method) == set(F.FIGURE1_METHODS)


def test_figure3_sweeps_each_parameter_with_the_others_at_the_cv_choice(data_env):
    records = run_job(table_spec("ldm_figure3"), "quick", {"dataset": "heart", "kernel": "rbf"})
    protocol = F.FIGURE_PROTOCOLS["quick"]
    assert records.groupby("parameter").size().to_dict() == {
        "lambda1": len(protocol.lambda_log2), "lambda2": len(protocol.lambda_log2), "C": len(protocol.c_grid)}
    assert (records.groupby("parameter").at_cv_choice.sum() == 1).all()
    # at its CV choice every sweep is the same model: one accuracy
    assert records[records.at_cv_choice].test_accuracy.nunique() == 1
    out = table_spec("ldm_figure3").build(records, table_run(table_spec("ldm_figure3"), "quick"))
    assert out.figures["png"].startswith(PNG)


def test_figure2_times_the_three_methods_at_the_stated_setting(data_env):
    records = run_job(table_spec("ldm_figure2"), "quick", {"dataset": "adult-a"})
    assert list(records.method) == list(F.TIMING_METHODS)
    assert (records.seconds > 0).all() and not records.capped.any()
    assert (records.train_accuracy > 0.8).all()   # a9a: 76 % is the majority class
    assert records.threads.eq(1).all()
    out = table_spec("ldm_figure2").build(records, table_run(table_spec("ldm_figure2"), "quick"))
    assert out.figures["png"].startswith(PNG) and "LDM / SVMa" in out.markdown


# ---------------------------------------------------------------- published values
QUICK_SETS = ("planning-relax", "heart", "breast-cancer")


@pytest.fixture(scope="module")
def quick_records(data_env):
    """The quick scale's protocol (2 partitions, 3-fold CV, thinned grid) on
    three regular sets, both kernels."""
    import dataclasses

    protocol = dataclasses.replace(L.PROTOCOLS["quick"], datasets=QUICK_SETS)
    records = {k: pd.concat([L.run_partition(protocol, k, d, r) for d in QUICK_SETS
                             for r in range(protocol.n_partitions)]) for k in ("linear", "rbf")}
    return protocol, records


@pytest.mark.parametrize("kernel, build", [("linear", R.table2), ("rbf", R.table3)])
def test_quick_accuracy_against_the_published_tables(quick_records, kernel, build):
    protocol, records = quick_records
    out = build(records[kernel], TableRun("quick", protocol)).csv
    cells = out[out.dataset.isin(QUICK_SETS) & out.method.isin(["SVM", "LDM"])]
    assert cells.reproduced.notna().all()
    for row in cells.itertuples():
        # within the documented tolerance, or a miss with a registry entry whose computed
        # condition holds (an explanation, or a recorded finding): never a bare miss
        assert row.verdict in (OK, MISS_EXPLAINED, MISS_UNEXPLAINED), row
        if row.verdict != OK:
            assert row.why and row.why != NO_CAUSE_TESTED, row
            assert not row.why.startswith("the registered reason does not hold"), row  # not stale


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_ldm_is_never_significantly_worse_than_svm_on_what_was_run(quick_records, kernel):
    """On the quick scale's two partitions a t-test has little power: the
    full run judges the claim (test_..._in_the_full_run below)."""
    _, records = quick_records
    tests = R.ttests(records[kernel])
    ldm = tests[tests.method == "LDM"]
    assert len(ldm) == len(QUICK_SETS)
    assert not (ldm.outcome == "loss").any(), ldm


@pytest.mark.parametrize("table", ["ldm_table2", "ldm_table3", "ldm_table4"])
def test_the_full_run_tables_when_present(table):
    """The committed full-scale tables: every verdict in the vocabulary, every
    miss with its reason, and the page's w/t/l of LDM against SVM as its markers."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "paper_tables" / f"{table}.csv"
    if not path.exists():
        pytest.skip(f"{path.name}: no full run committed")
    out = pd.read_csv(path, keep_default_na=False)
    assert out.verdict.map(lambda v: v.split(" (")[0] in {
        "ok", "miss", "no tolerance", "not run", "unavailable offline", "partial", "not compared",
        "no published value"} or v.startswith("reading of ")).all()
    misses = out[out.verdict.str.startswith("miss")]
    assert (misses.why.str.len() > 0).all()
    ldm = out[(out.method == "LDM") & (out.reproduced != "")]   # the sets with a mean (complete runs)
    ldm = ldm[~ldm.dataset.isin(list(L.REPEATED_SETS) + list(L.ENCODINGS))]  # distinct data, counted once
    page = path.with_suffix(".md").read_text()
    wins, losses = int((ldm.marker_ours == "better").sum()), int((ldm.marker_ours == "worse").sum())
    if len(ldm):  # a run cut short before any set completed has no w/t/l of its own yet
        assert (f"| LDM | SVM | ours ({len(ldm)} distinct sets) | {wins}/{len(ldm) - wins - losses}/{losses} |"
                in page)


# The paper's "never worse than SVM" is judged, with its rule, among LDM's central
# claims (repro/papers/ldm/central_claims.py; tests/ldm/test_central_claims.py).


def test_the_verdict_paragraph_counts_what_the_tests_and_the_agreement_say():
    tests = pd.DataFrame({"dataset": ["a", "b", "c", "a", "b", "c"],
                          "method": ["LDM"] * 3 + ["SVM (no bias)"] * 3,
                          "outcome": ["win", "win", "tie", "win", "tie", "tie"]})
    evidence = pd.DataFrame({"dataset": ["a", "b", "c"], "method": "LDM", "agreement": [1.0, 0.95, 0.995],
                             "ties": [100.0, 20.0, 30.0], "grid": 147, "vs_no_bias": ["tie", "win", "tie"]})
    pub = pd.DataFrame({"dataset": "LDM: w/t/l", "method": "SVM", "metric": ["wins", "ties", "losses"],
                        "value": [12.0, 8.0, 0.0]})
    text = R.verdict_markdown(tests, evidence, pub)
    assert "better than SVM on 12 of 20 sets, worse on 0" in text
    assert "significantly better than SVM on 2, tied on 1, worse on 0" in text
    assert "on 1 of LDM's 2 wins it wins too" in text
    assert "better on 1, worse on 0, tied on 2" in text
    assert "at least 99 % of the test points on 2 of 3 sets" in text and "on 50 of 147 grid points" in text


def test_the_capped_fits_are_counted_per_method():
    records = pd.DataFrame({"method": ["SVM", "SVM", "LDM"], "n_fits": [16, 16, 736],
                            "n_unconverged_fits": [4, 0, 7]})
    table = R.unconverged_table(records).set_index("method")
    assert table.loc["SVM", "fits"] == 32 and table.loc["SVM", "capped"] == 4
    assert table.loc["SVM", "fraction"] == 0.125 and table.loc["LDM", "capped"] == 7


def test_every_unexplained_miss_lists_the_readings_tried(data_env):
    from repro.papers.ldm.tolerances import PAPER_PARTITIONS, partition_noise

    """Issue 27, item 4 (the readings this table runs): per unexplained cell,
    the other readings' values and whether the tolerance accepts them."""
    pub = published.load("ldm_table2").set_index(["dataset", "method"])["value"]
    noise = np.random.default_rng(3).normal(0, 0.01, 30)
    acc = {("sonar", "SVM"): pub[("sonar", "SVM")] + 0.1 + noise,
           ("sonar", "SVM (no bias)"): pub[("sonar", "SVM")] + noise,
           ("sonar", "LDM"): pub[("sonar", "LDM")] - 0.1 + noise,
           ("sonar", "LDM (double-sum)"): pub[("sonar", "LDM")] - 0.1 + noise,
           ("sonar", "KM-OMD"): pub[("sonar", "KM-OMD")] + 0.1 + noise}
    from repro.experiments.report import split_means

    records = _records(acc, n=30)
    records[["n_samples", "n_features"]] = (208, 60)  # Table 1's size: no size finding
    protocol = L.PROTOCOLS["full"].__class__(datasets=("sonar",), n_partitions=30)
    out = R.table2(records, TableRun("full", protocol))
    cells = split_means(records, "test_accuracy", "accuracy", scale=1.0, unit="partitions")
    # each cell's measured tolerance, as the page computes it
    context = {"partition_noise": partition_noise(cells, L.published_cells("ldm_table2", ("sonar",)), 30,
                                                  PAPER_PARTITIONS["ldm_table2"])}
    tried = R.readings_tried(out.csv, cells, context=context).set_index("method")
    column = "readings tried (value, tolerance)"
    assert tried.loc["SVM", column].startswith("SVM (no bias) ") and tried.loc["SVM", column].endswith("(within)")
    assert "LDM (double-sum)" in tried.loc["LDM", column] and "(outside)" in tried.loc["LDM", column]
    assert tried.loc["KM-OMD", column] == "none run"
    assert "# Readings tried for the unexplained misses" in out.markdown


def test_the_accuracy_tolerance_is_the_partitions_noise_of_each_cell():
    """Issue 27: the tolerance is measured per cell, 1.96 standard errors of the
    difference of two means over independent partitions (our spread over our
    partitions, the paper's printed std over its own) plus half a unit of the
    printed mean's last digit; a cell is judged by its own value."""
    from types import SimpleNamespace

    from repro.papers.ldm.tolerances import partition_noise, printed_half_unit
    from repro.tolerances import tolerance_for

    assert printed_half_unit("0.723") == pytest.approx(0.0005) and printed_half_unit("0.9") == 0.05
    ours = pd.DataFrame({"dataset": ["a", "b"], "method": ["SVM", "SVM"], "std": [0.05, float("nan")]})
    paper = pd.DataFrame({"dataset": ["a", "b"], "method": ["SVM", "SVM"], "std": [0.03, 0.01],
                          "value_text": ["0.800", "0.70"]})
    noise = partition_noise(ours, paper, 30, 10)
    assert noise == {("a", "SVM"): pytest.approx(1.959963984540054 * np.sqrt(0.05 ** 2 / 30 + 0.03 ** 2 / 10)
                                                 + 0.0005)}
    rule = tolerance_for("ldm", "accuracy")
    cell = SimpleNamespace(dataset="a", method="SVM")
    at = rule.at(cell, {"partition_noise": noise})
    assert at.accepts(0.8, 0.8 + 0.99 * at.value) and not at.accepts(0.8, 0.8 + 1.01 * at.value)
    assert rule.at(SimpleNamespace(dataset="b", method="SVM"), {"partition_noise": noise}) is None
    assert "1.96 standard errors" in at.describe()
