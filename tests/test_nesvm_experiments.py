"""The NESVM paper's time experiment (repro.experiments.nesvm, nesvm_report):
the claims' reading from records, the table built from records, and a quick
job run end to end."""
import numpy as np
import pandas as pd
import pytest

from repro.experiments import TableRun
from repro.experiments import nesvm as N
from repro.experiments import nesvm_report as R


def _records(times: dict, C=R.FIG4_C, capped=()):
    """Records of one C: times = {set_id: {method: seconds}}."""
    rows = []
    for set_id, per_method in times.items():
        for method in N.METHODS:
            t = per_method.get(method, np.nan)
            rows.append({"set_id": set_id, "dataset": N.ADULT_SETS[set_id], "standin": set_id == 6,
                         "n_train": {1: 1605, 2: 2265, 3: 3185, 4: 4781, 5: 6414, 6: 11220}[set_id],
                         "n_test": 100, "n_features": 123, "C": C, "tol": N.TOL, "ref_tol": N.REF_TOL,
                         "ref_primal": 10.0, "ref_dual": 9.99, "ref_seconds": 1.0, "ref_capped": False,
                         "cap_seconds": 60.0, "method": method,
                         "unavailable": "" if method in per_method else "not here",
                         "runs": 0 if t != t else 10, "capped": (set_id, method) in capped,
                         "mean_seconds": t, "best_seconds": t, "n_iter": 5, "primal": 10.5 if t == t else np.nan,
                         "test_accuracy": 0.8 if t == t else np.nan, "job_seconds": 3.0, "cpu_model": "x",
                         "cpu_count": 2, "threads": 1, "thread_pools": "openblas"})
    return pd.DataFrame(rows)


def _times(nesvm, pegasos, others=1.0):
    return {"NESVM": nesvm, "Pegasos": pegasos, "LIBSVM": others, "SVM-Light": others}


def test_the_claims_hold_when_nesvm_is_fastest_on_small_sets_and_pegasos_on_large_ones():
    records = _records({1: _times(0.1, 0.2), 2: _times(0.2, 0.3), 3: _times(0.3, 0.4), 4: _times(0.4, 0.5),
                        5: _times(0.9, 0.8), 6: _times(2.0, 0.9)})
    cells = R.claim_cells(records).set_index("claim")["value"]
    assert cells["nesvm_fastest_below_n"] == 6414   # first set where NESVM is not the fastest
    assert cells["nesvm_pegasos_faster_above_n"] == 4781  # Pegasos faster from set 5 on
    verdicts = R.claims_comparison(records, TableRun("full", N.PROTOCOLS["full"])).set_index("method")["verdict"]
    assert (verdicts == "ok (stand-in)").all()  # Set 6 is a stand-in: the cells say so


def test_the_claims_miss_when_a_baseline_is_faster_on_a_small_set_or_pegasos_slower_on_set_6():
    records = _records({1: _times(0.5, 0.2, others=0.3), 2: _times(0.2, 0.3), 6: _times(0.5, 0.9)})
    cells = R.claim_cells(records).set_index("claim")["value"]
    assert cells["nesvm_fastest_below_n"] == 1605
    assert cells["nesvm_pegasos_faster_above_n"] == 11220
    comparison = R.claims_comparison(records, TableRun("full", N.PROTOCOLS["full"]))
    assert comparison["verdict"].str.startswith("miss").all()


def test_a_capped_rival_counts_as_slower_and_an_unavailable_one_is_left_out():
    times = {1: {"NESVM": 5.0, "Pegasos": 9.0, "LIBSVM": 1.0}}  # SVM-Light unavailable
    records = _records(times, capped={(1, "LIBSVM")})
    assert R.claim_cells(records).set_index("claim").loc["nesvm_fastest_below_n", "value"] == 1605  # only set
    note = R.claim_cells(records).set_index("claim").loc["nesvm_fastest_below_n", "note"]
    assert "SVM-Light" not in note and "every set" in note


def test_the_page_is_built_from_records_with_capped_and_unavailable_cells_said():
    records = pd.concat([_records({1: _times(0.1, 0.2), 6: _times(2.0, 0.9)}, C=c) for c in (0.01, 1.0)],
                        ignore_index=True)
    records.loc[(records.method == "LIBSVM") & (records.C == 0.01) & (records.set_id == 6), "capped"] = True
    out = R.time_vs_c_and_size(records, TableRun("quick", N.PROTOCOLS["quick"]))
    assert "> 60 (cap)" in out.markdown
    assert "SVM-Perf" in out.markdown and "no build on the package index" in out.markdown
    assert "a6a, stand-in" in out.markdown
    assert out.figures["png"][:4] == b"\x89PNG"


def test_jobs_and_their_files_cover_the_grid():
    jobs = list(N.jobs(N.PROTOCOLS["full"]))
    assert len(jobs) == 6 * 7 and {j["C"] for j in jobs} == set(N.C_GRID)
    spec = N.TABLES["nesvm_time"]
    assert spec.job_files.path("r", **jobs[0]).as_posix() == "r/set1/C0.001.csv"


@pytest.mark.parametrize("name", list(N.IMAGE_SETS))
def test_the_image_experiment_runs_on_synthetic_data_of_each_sets_shape(name):
    """The image sets' features were never published: the same job code runs
    on synthetic data of the set's dimension and class count (small), and
    the page is built from its records."""
    from sklearn.datasets import make_classification

    from repro.datasets import get_spec

    ref = get_spec(N.IMAGE_SETS[name][0]).papers[0]
    n_classes = {"indoor scene": 5, "outdoor scene": 13, "event recognition": 8}.get(name, 2)
    assert ref.dim in (544, 352, 300, 500)

    def loader(_):
        X, y = make_classification(n_samples=30 * n_classes, n_features=ref.dim, n_informative=8,
                                   n_redundant=0, n_classes=n_classes, n_clusters_per_class=1,
                                   class_sep=2.0, random_state=0)
        return X, y

    protocol = N.IMAGE_PROTOCOLS["quick"]
    records = N.run_images(protocol, name, 1.0, loader=loader)
    records = N.TABLES["nesvm_images"].schema.check(records, "synthetic")
    assert list(records.method) == list(N.IMAGE_METHODS)
    assert (records.n_features == ref.dim).all() and (records.n_classes == n_classes).all()
    ran = records[records.unavailable == ""]
    assert {"NESVM", "LIBSVM", "SMO"} <= set(ran.method)
    assert (ran.runs >= 1).all() and (ran.mean_seconds > 0).all()
    assert (ran.test_accuracy > 1.5 / n_classes).all()  # well above chance on separable data
    out = R.images(records.assign(dataset=name), TableRun("quick", protocol))
    assert "Mean training time" in out.markdown
