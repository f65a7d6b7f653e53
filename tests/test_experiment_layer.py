"""The shared experiment layer: splits, nested CV, statistics, timing, records."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.model_selection import StratifiedKFold

from repro.experiments.records import RecordSchema, read_all, read_records, write_records
from repro.experiments.selection import best_index, dataset_record, fold_record, select_and_test
from repro.experiments.splits import random_partitions, stratified_kfold
from repro.experiments.stats import paired_comparison, paired_ttest, win_tie_loss
from repro.experiments.timing import interleaved_best_of, machine_record
from repro.papers import PAPERS
from repro.papers.catalog import BY_PAPER, table_spec

Y = np.array([0] * 30 + [1] * 20 + [2] * 10)


# ------------------------------------------------------------------ splits
def test_stratified_kfold_is_sklearns_and_records_its_seed():
    splits = stratified_kfold(Y, 5, seed=7)
    reference = list(StratifiedKFold(5, shuffle=True, random_state=7).split(np.zeros(len(Y)), Y))
    for split, (train, test) in zip(splits, reference):
        np.testing.assert_array_equal(split.train, train)
        np.testing.assert_array_equal(split.test, test)
    assert splits[3].record() == {"split_scheme": "stratified_kfold", "split_seed": 7, "split_index": 3}


@pytest.mark.parametrize("stratify", [False, True])
def test_random_partitions_are_halves_redrawable_from_their_record(stratify):
    splits = random_partitions(Y, 4, test_size=0.5, seed=10, stratify=stratify)
    assert [s.seed for s in splits] == [10, 11, 12, 13]
    for s in splits:
        assert len(s.test) == 30 and len(np.intersect1d(s.train, s.test)) == 0
        assert len(np.union1d(s.train, s.test)) == len(Y)
        again = random_partitions(Y, 1, 0.5, seed=s.seed, stratify=stratify)[0]  # from its record alone
        np.testing.assert_array_equal(again.test, s.test)
    assert not np.array_equal(splits[0].test, splits[1].test)
    if stratify:
        assert np.bincount(Y[splits[0].test]).tolist() == [15, 10, 5]
    with pytest.raises(ValueError, match="test_size"):
        random_partitions(Y, 1, 1.0, seed=0)


# ------------------------------------------------------------------ nested CV
def test_ties_go_to_the_first_best_grid_point():
    assert best_index([0.5, 0.9, 0.9, 0.1]) == 1
    assert best_index([np.nan, 0.2, 0.2]) == 1
    with pytest.raises(ValueError, match="no grid point"):
        best_index([np.nan, np.nan])
    # the other reading a sweep may try: the last of the equal best
    assert best_index([0.5, 0.9, 0.9, 0.1], tie="last") == 2
    assert best_index([0.2, 0.2, np.nan], tie="last") == 1
    with pytest.raises(ValueError, match="tie must be"):
        best_index([0.1], tie="middle")


def test_nested_cv_scores_the_whole_grid_per_split_and_refits_the_choice():
    """A hook that scores point g as 1 - |g - 2| / 10 on every split: point 2 wins;
    the hook sees the whole grid once per inner split, then the choice alone."""
    X = np.arange(len(Y), dtype=float)[:, None]
    calls = []

    def hook(X_fit, y_fit, X_val, y_val, grid):
        calls.append((len(X_fit), len(X_val), len(grid)))
        return [1 - abs(p["g"] - 2) / 10 for p in grid]

    grid = [{"g": g} for g in range(5)]
    outer = stratified_kfold(Y, 4, seed=0)[1]
    chosen = select_and_test(X, Y, outer, grid, hook, inner_folds=3, inner_seed=1)
    assert chosen.index == 2 and chosen.params == {"g": 2} and chosen.test_score == 1.0
    assert chosen.n_fits == 5 * 3 + 1
    assert [c[2] for c in calls] == [5, 5, 5, 1]
    assert sum(c[1] for c in calls[:3]) == len(outer.train)  # inner folds partition the training part
    assert calls[3] == (len(outer.train), len(outer.test), 1)


def test_ties_are_counted_and_a_fold_record_has_the_shared_columns_in_order():
    """A hook scoring points 1 and 3 alike (best): the first wins, two share the
    best; the fold record is what every paper's nested-CV records begin with."""
    X = np.arange(len(Y), dtype=float)[:, None]
    grid = [{"g": g} for g in range(5)]
    outer = stratified_kfold(Y, 4, seed=0)[0]
    chosen = select_and_test(X, Y, outer, grid, lambda *a: [0.1, 0.9, 0.5, 0.9, 0.2][:len(a[4])]
                             if len(a[4]) > 1 else [0.7], inner_folds=3, inner_seed=1)
    assert chosen.index == 1 and chosen.n_best == 2
    info = type("Info", (), {"name": "registry-name", "standin": True})()
    record = fold_record(dataset_record("Paper", info), X, Y, outer, 3, 1, "M", {"log2_C": 2.0}, chosen)
    assert list(record) == ["paper_dataset", "dataset", "standin", "n_samples", "n_features",
                            "n_classes", "split_scheme", "split_seed", "split_index", "inner_folds",
                            "inner_seed", "method", "log2_C", "inner_cv_accuracy", "test_accuracy",
                            "n_fits"]
    assert record["standin"] is True and record["dataset"] == "registry-name"
    assert record["n_classes"] == len(np.unique(Y)) and record["test_accuracy"] == 0.7
    assert record["split_index"] == 0 and record["n_fits"] == 5 * 3 + 1


def test_a_hook_returning_the_wrong_shape_is_refused():
    X = np.zeros((len(Y), 1))
    with pytest.raises(ValueError, match="score_grid returned shape"):
        select_and_test(X, Y, stratified_kfold(Y, 3, 0)[0], [{"g": 0}, {"g": 1}],
                        lambda *a: [0.5], inner_folds=2, inner_seed=0)


# ------------------------------------------------------------------ statistics
def test_paired_ttest_is_scipys_and_handles_degenerate_samples():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=10), rng.normal(size=10)
    assert paired_ttest(a, b) == pytest.approx(tuple(stats.ttest_rel(a, b)))
    assert paired_ttest(a, a)[1] == 1.0                       # equal: a tie
    k = np.arange(10.0)
    assert paired_ttest(k + 1, k) == (np.inf, 0.0)            # constant gain: significant
    with pytest.warns(RuntimeWarning, match="Precision loss"):  # scipy says so, rightly
        t, p = paired_ttest(a + 1, a)                         # equal up to rounding: scipy's large t
    assert t > 1e6 and p < 1e-12
    assert np.isnan(paired_ttest([1.0], [0.0])[1])            # one pair: no test


def test_win_tie_loss_from_paired_comparison():
    rng = np.random.default_rng(1)
    rows = []
    for name, shift in (("A", 0.2), ("B", 0.0), ("C", -0.2), ("D", 0.21)):
        base = rng.uniform(0.5, 0.7, size=30)
        noise = rng.normal(scale=0.01, size=30)
        for k in range(30):
            rows += [{"dataset": name, "method": "LDM", "split_index": k, "acc": base[k] + shift + noise[k]},
                     {"dataset": name, "method": "SVM", "split_index": k, "acc": base[k]}]
    table = paired_comparison(pd.DataFrame(rows), "LDM", "SVM", score="acc", level=0.05, scale=100)
    assert table.set_index("dataset")["outcome"].to_dict() == {"A": "win", "B": "tie", "C": "loss", "D": "win"}
    assert win_tie_loss(table) == {"win": 2, "tie": 1, "loss": 1}
    assert table.set_index("dataset").loc["A", "mean_difference"] == pytest.approx(20.0, abs=1.0)


# ------------------------------------------------------------------ timing
def test_timing_interleaves_methods_pins_threads_and_keeps_the_best():
    from threadpoolctl import threadpool_info

    order = []

    def run(name):
        order.append(name)
        return [p["num_threads"] for p in threadpool_info()]

    timings = interleaved_best_of({"a": lambda: "a", "b": lambda: "b"}, run, repeat=3, threads=1)
    assert order == ["a", "b"] * 3
    assert all(n == 1 for n in timings["a"].result)  # BLAS/OpenMP pools limited while timed
    assert len(timings["b"].seconds) == 3 and timings["b"].best == min(timings["b"].seconds)
    record = machine_record(1)
    assert record["threads"] == 1 and record["cpu_model"]


# ------------------------------------------------------------------ records
SCHEMA = RecordSchema({"name": "str", "fold": "int", "score": "float", "flag": "bool"})
FRAME = pd.DataFrame({"name": ["a", "b"], "fold": [0, 1], "score": [0.5, np.nan], "flag": [True, False]})


def test_records_round_trip_with_their_types(tmp_path):
    path = tmp_path / "r.csv"
    write_records(path, FRAME, SCHEMA)
    back = read_records(path, SCHEMA)
    pd.testing.assert_frame_equal(back, SCHEMA.check(FRAME, "frame"))
    assert back["fold"].dtype == np.int64 and back["flag"].dtype == bool
    assert read_all([path, path], SCHEMA).shape == (4, 4)


@pytest.mark.parametrize("text, message", [
    ("name,fold,score,flag\na,0,0.5,True\nb,1,0.", "line 3: the file ends mid-line"),
    ("name,fold,score,flag\na,0,0.5,True,extra\n", "line 2: 5 fields, expected 4"),
    ("name,fold,score,flag\na,0,0.5\n", "line 2: 3 fields, expected 4"),
    ("name,fold,score,flag\na,zero,0.5,True\n", "line 2, column 'fold': 'zero' is not a valid int"),
    ("name,fold,score,flag\na,1.0,0.5,True\n", "line 2, column 'fold': '1.0' is not a valid int"),
    ("name,fold,score,flag\na,0,high,True\n", "line 2, column 'score': 'high' is not a valid float"),
    ("name,fold,score,flag\na,0,0.5,yes\n", "line 2, column 'flag': 'yes' is not a valid bool"),
    ("name,fold,score,flag\na,1_000,0.5,True\n", "line 2, column 'fold': '1_000' is not a valid int"),
    ("name,fold,score,flag\na,99999999999999999999,0.5,True\n", "column 'fold': '9+' is not a valid int"),
    ("name,fold,score,flag\na,0,inf,True\n", "line 2, column 'score': 'inf' is not a valid float"),
    ('name,fold,score,flag\n"a\n', "line 2, column 'name': a line break inside a field"),
    ("name,fold,score\na,0,0.5\n", r"line 1: columns do not match the schema \(missing \['flag'\]"),
    ("name,fold,score,flag,x\na,0,0.5,True,1\n", r"unknown \['x'\]"),
    ("", "empty records file"),
])
def test_malformed_records_are_refused_with_the_line(tmp_path, text, message):
    path = tmp_path / "r.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as info:
        read_records(path, SCHEMA)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("column, values", [
    ("fold", [0.0, np.nan]), ("fold", [0, np.inf]), ("fold", [0, 1e20]), ("fold", [0, True]),
    ("score", [0.5, np.inf]), ("score", [0.5, False]), ("flag", [True, 1]), ("name", ["a", 3]),
])
def test_records_that_do_not_fit_the_schema_are_not_written(tmp_path, column, values):
    bad = FRAME.assign(**{column: values})
    with pytest.raises(ValueError, match=f"row 1, column '{column}'"):
        write_records(tmp_path / "r.csv", bad, SCHEMA)
    assert not (tmp_path / "r.csv").exists()


def test_unknown_column_kinds_are_refused():
    with pytest.raises(ValueError, match="unknown column kinds"):
        RecordSchema({"x": "complex"})


# ------------------------------------------------------------------ registry
def test_tables_are_found_by_id_and_unknown_ids_are_named():
    assert table_spec("gs_svm_table2").paper == "gs_svm"
    with pytest.raises(ValueError, match="does not start with a paper id"):
        table_spec("gs-svm_table2")
    with pytest.raises(ValueError, match="unknown table"):
        table_spec("gs_svm_table9")
    # every paper's tables are in the catalog, each filed under its own paper
    assert set(BY_PAPER) == set(PAPERS)
    assert all(spec.paper == paper for paper, tables in BY_PAPER.items() for spec in tables.values())


def test_one_paper_id_everywhere():
    """Registry, tolerances, published tables, explanations and experiments
    use the ids of repro.papers and no other spelling."""
    from repro import published
    from repro.datasets.registry import REGISTRY
    from repro.explanations import EXPLANATIONS
    from repro.tolerances import TOLERANCES

    used = {r.paper for spec in REGISTRY.values() for r in spec.papers}
    used |= {paper for paper, _ in TOLERANCES}
    # an explanation is filed under a table id, '<paper>_<table>' (gs_svm_table2,
    # pegasos_convergence): its paper is the id's prefix; an id no paper prefixes stays whole
    used |= {next((p for p in PAPERS if key[0].startswith(p + "_")), key[0]) for key in EXPLANATIONS}
    for table in published.list_tables():
        df = published.load(table, raw=True)
        used |= set(df["paper"]) - {"paper"}
    assert used <= set(PAPERS), used - set(PAPERS)
    for table in published.list_tables():
        if table != "claims":
            assert any(table.startswith(p + "_") for p in PAPERS), table


# ------------------------------------------------------------------ a new paper on the layer
def test_a_new_papers_experiment_is_grids_a_hook_and_table_specs(tmp_path, monkeypatch):
    """What a paper adds (here an LDM-like Table: random halves, nested CV over
    C, paired t-tests against a baseline, win/tie/loss) is its grid, its hook,
    its record schema and its table builder; splitting, selection, statistics,
    records, verdicts and the workflow's generic job and table steps are the layer's."""
    from types import SimpleNamespace

    import repro.experiments as E
    from repro.experiments.records import JobFiles
    from repro.experiments.report import split_means
    from repro.experiments.selection import select_and_test
    from repro.solvers import LinearSVM
    from repro.tables import compare, to_markdown

    rng = np.random.default_rng(0)
    data = {"easy": rng.normal(size=(80, 4))}
    labels = {"easy": np.where(data["easy"][:, 0] > 0, 1, -1)}
    grid = [{"C": c} for c in (0.1, 1.0)]

    def hook(X_fit, y_fit, X_val, y_val, grid, fit_intercept=True):
        return [LinearSVM(C=p["C"], fit_intercept=fit_intercept).fit(X_fit, y_fit).score(X_val, y_val)
                for p in grid]

    def jobs(protocol):
        for name in data:
            for r in range(protocol["repeats"]):
                yield {"dataset": name, "repeat": r}

    def run(protocol, dataset, repeat):
        X, y = data[dataset], labels[dataset]
        split = random_partitions(y, protocol["repeats"], 0.5, seed=100)[repeat]
        rows = []
        for method, bias in (("LDM", False), ("SVM", True)):
            chosen = select_and_test(X, y, split, grid, lambda *a: hook(*a, fit_intercept=bias), 3, 0)
            rows.append({"dataset": dataset, "method": method, **split.record(),
                         "log2_C": float(np.log2(chosen.params["C"])), "accuracy": chosen.test_score})
        return pd.DataFrame(rows)

    def build(records, table_run):
        cells = split_means(records.rename(columns={"dataset": "paper_dataset"}).assign(
            dataset="ours", standin=False), "accuracy", "accuracy_percent")
        pub = cells.assign(value=cells.value + 1.0)  # what a published table would hold
        comparison = compare(pub, cells, "ldm", "ldm_table2")
        tests = paired_comparison(records, "LDM", "SVM", score="accuracy", scale=100)
        md = to_markdown(comparison) + to_markdown(tests) + str(win_tie_loss(tests))
        return E.TableOutput(comparison, md)

    schema = RecordSchema({"dataset": "str", "method": "str", "split_scheme": "str", "split_seed": "int",
                           "split_index": "int", "log2_C": "float", "accuracy": "float"})
    spec = E.TableSpec("ldm_table2", "ldm", schema,
                       JobFiles("{dataset}/repeat{repeat}.csv", {"dataset": "dataset", "repeat": "split_index"}),
                       jobs=jobs, run=run, build=build, protocols={"quick": {"repeats": 3}}, per_split=True)

    paths = spec.job_paths(tmp_path, spec.protocol("quick"))
    for path, fields in zip(paths, jobs(spec.protocol("quick"))):
        E.write_job(spec, "quick", {k: str(v) for k, v in fields.items()}, path)  # as the workflow's record.py
    out = SimpleNamespace(csv=tmp_path / "t.csv", md=tmp_path / "t.md", records=tmp_path / "r.csv")
    E.write_table(spec, paths, out, E.table_run(spec, "quick"))  # as table.py
    table = pd.read_csv(out.csv)
    assert set(table.verdict) == {"no tolerance"}  # the paper has not declared its tolerances yet
    from repro import tolerances
    monkeypatch.setitem(tolerances.TOLERANCES, ("ldm", "accuracy_percent"), tolerances.Tolerance("abs", 2.0, "test"))
    E.write_table(spec, paths, out, E.table_run(spec, "quick"))
    assert set(pd.read_csv(out.csv).verdict) == {"ok"}  # ours = published - 1, within 2 points
    records = read_records(out.records, schema)
    assert len(records) == 6 and set(records.split_seed) == {100, 101, 102}
    md = out.md.read_text()
    assert "Scale: quick." in md and "'win':" in md


def test_a_table_writes_the_figures_its_rule_declares_and_refuses_others(tmp_path):
    from types import SimpleNamespace

    import repro.experiments as E

    schema = RecordSchema({"x": "int"})
    spec = E.TableSpec("ldm_table9", "ldm", schema, E.records.JobFiles("{x}.csv", {"x": "x"}),
                       jobs=lambda p: [], run=None,
                       build=lambda r, t: E.TableOutput(pd.DataFrame({"a": [1]}), "page\n",
                                                        figures={"png": b"\x89PNG bytes"}), protocols={})
    records = tmp_path / "r.csv"
    write_records(records, pd.DataFrame({"x": [1]}), schema)
    run = E.TableRun("full", None)
    out = SimpleNamespace(csv=tmp_path / "t.csv", md=tmp_path / "t.md", png=tmp_path / "t.png")
    assert E.write_table(spec, [records], out, run) == [out.png]
    assert out.png.read_bytes() == b"\x89PNG bytes"
    no_png = SimpleNamespace(csv=tmp_path / "u.csv", md=tmp_path / "u.md")
    with pytest.raises(ValueError, match="no output of that name"):
        E.write_table(spec, [records], no_png, run)


# ------------------------------------------------------------------ capped runs
def test_a_capped_run_returns_the_value_and_its_own_time():
    from repro.experiments.timing import run_capped

    out = run_capped(lambda: np.arange(5).sum(), cap_seconds=30)
    assert out.value == 10 and not out.capped and 0 <= out.seconds < 30


def test_a_fast_run_is_timed_warm_and_a_slow_one_once(tmp_path):
    """Under ``warm_below`` the child runs the function twice and times the
    second run (the first pays the fork's copy-on-write faults)."""
    from repro.experiments.timing import run_capped

    calls = tmp_path / "calls"
    run_capped(lambda: calls.open("a").write("x"), cap_seconds=30, warm_below=1.0)
    assert calls.read_text() == "xx"
    calls.write_text("")
    run_capped(lambda: calls.open("a").write("x"), cap_seconds=30, warm_below=0.0)
    assert calls.read_text() == "x"


def test_a_run_past_its_cap_is_stopped_with_the_programs_it_started(tmp_path):
    """The child and an external program it runs are stopped at the cap: the
    program never gets to write its file."""
    import subprocess
    import time as _time

    from repro.experiments.timing import run_capped

    marker = tmp_path / "finished"
    start = _time.perf_counter()
    out = run_capped(lambda: subprocess.run(["sh", "-c", f"sleep 3; touch {marker}"]), cap_seconds=0.5)
    assert out.capped and out.value is None and out.seconds == 0.5
    assert _time.perf_counter() - start < 2.5
    _time.sleep(3.5)
    assert not marker.exists()


def test_an_error_in_a_capped_run_is_raised_with_its_name():
    from repro.experiments.timing import run_capped

    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        run_capped(lambda: 1 / 0, cap_seconds=30)
    with pytest.raises(ValueError, match="cap_seconds"):
        run_capped(lambda: 1, cap_seconds=0)


def test_an_interrupted_readings_sweep_resumes_without_rerunning_what_finished(tmp_path):
    """The sweep writes each finished row at once; run again on the same
    progress file, it runs only the tasks missing there and returns the rows
    in the tasks' order (issue 27: LDM Table 3's sweep runs for hours)."""
    from repro.experiments import readings as R
    from repro.tolerances import Tolerance

    cells = pd.DataFrame({"dataset": ["a", "b"], "method": ["M", "M"], "published": [0.5, 0.9],
                          "reproduced": [0.6, 0.7]}).set_index(["dataset", "method"])
    tasks = [("a", "M", "r1"), ("b", "M", "r1"), ("a", "M", "r2")]
    values = {("a", "M", "r1"): 0.51, ("b", "M", "r1"): 0.7, ("a", "M", "r2"): 0.8}
    ran, stop_at_last = [], [True]

    class Stopped(Exception):
        pass

    def run(dataset, method, reading):
        ran.append((dataset, method, reading))
        if ran == tasks and stop_at_last:  # the first sweep is stopped at its last task
            stop_at_last.clear()
            raise Stopped
        return values[(dataset, method, reading)]

    rule = Tolerance("abs", 0.02, "a test's")
    progress = R.partial_path(tmp_path / "evidence.csv")
    with pytest.raises(Stopped):
        R.sweep(tasks, run, cells, rule, "accuracy", extra={"partitions": 3}, progress=progress)
    assert len(pd.read_csv(progress)) == 2
    got = R.sweep(tasks, run, cells, rule, "accuracy", extra={"partitions": 3}, progress=progress)
    assert ran == tasks + [("a", "M", "r2")]  # only the unfinished task ran again
    assert [tuple(t) for t in got[["dataset", "method", "reading"]].itertuples(index=False)] == tasks
    assert got.accuracy.tolist() == [0.51, 0.7, 0.8]
    assert got.within_tolerance.tolist() == [True, False, False]
    # rows of another profile are not taken for this one's
    ran.clear()
    R.sweep(tasks, run, cells, rule, "accuracy", extra={"partitions": 30}, progress=progress)
    assert ran == tasks
