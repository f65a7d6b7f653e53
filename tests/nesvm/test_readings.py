"""The readings of Pegasos's iteration count behind the NESVM time claims
(repro/papers/nesvm/readings.py): the iteration counts, the claims read with
Pegasos under each reading, and a timing run on the smallest set."""
import numpy as np
import pandas as pd
import pytest

from repro.objectives import hinge_primal
from repro.papers.nesvm import jobs as N
from repro.papers.nesvm import readings as NR

SIZES = {1: 1605, 2: 2265, 5: 6414}


def _evidence(times: dict) -> pd.DataFrame:
    """Evidence rows: times = {set_id: {method or reading: seconds}}, where a
    key that is a reading names Pegasos under it."""
    rows = []
    for set_id, per in times.items():
        for key, t in per.items():
            reading = key if key in NR.READINGS else ""
            rows.append({"set_id": set_id, "n_train": SIZES[set_id], "C": 1.0, "unavailable": "",
                         "method": NR.pegasos_method(key) if reading else key, "reading": reading,
                         "runs": 10, "capped": False, "mean_seconds": t, "n_iter": 7, "primal": 2.0 if reading else 1.0,
                         "pegasos_target_reached": True})
    return pd.DataFrame(rows)


def test_each_reading_puts_its_pegasos_in_the_protocols_place():
    """The claims under a reading use that reading's Pegasos times only:
    a Pegasos slower than NESVM on the two small sets moves 'NESVM fastest
    below n' from the first set to the third."""
    protocol, slow = "10 passes (the protocol)", "100 passes"
    times = {s: {"NESVM": 1.0, "LIBSVM": 5.0, "SVM-Light": 5.0, protocol: 0.5, slow: 2.0 if s < 5 else 0.5}
             for s in SIZES}
    got = NR.claims_under(_evidence(times)).set_index("reading")
    assert list(got.index) == [protocol, slow]  # in READINGS' order
    assert got.loc[protocol, "nesvm_fastest_below_n"] == 1605
    assert got.loc[slow, "nesvm_fastest_below_n"] == 6414
    assert got.loc[slow, "nesvm_pegasos_faster_above_n"] == 2265
    assert got.loc[slow, "pegasos_over_nesvm_time"] == "1605: 2; 2265: 2; 6414: 0.5"
    assert got.loc[slow, "pegasos_over_nesvm_primal"] == "1605: 2; 2265: 2; 6414: 2"
    under = NR.records_under(_evidence(times), slow)
    assert sorted(set(under.method)) == ["LIBSVM", "NESVM", "Pegasos", "SVM-Light"]
    assert (under.loc[under.method == "Pegasos", "mean_seconds"] == [2.0, 2.0, 0.5]).all()


@pytest.mark.usefixtures("data_env")
def test_iteration_counts_and_the_equal_primal_reading():
    """Passes scale with m, a fixed T does not, and the cause's reading takes
    the fewest doubled passes whose primal is at most NESVM's (the previous
    count does not reach it)."""
    X, y, *_ = N.load_set(1)
    m = X.shape[0]
    assert NR.pegasos_iterations("1 pass", X, y, 1.0) == (m, True)
    assert NR.pegasos_iterations("T = 1e5 iterations whatever m", X, y, 1.0) == (100_000, True)
    n_iter, reached = NR.pegasos_iterations(NR.CAUSE, X, y, 1.0)
    w, b, _ = N._fit_nesvm(X, y, 1.0, False)
    target = hinge_primal(w, X, y, 1.0, b)
    assert reached and n_iter // m in NR.MATCH_PASSES

    def primal(iterations):
        w, b, _ = N._fit_pegasos(X, y, 1.0, iterations)
        return hinge_primal(w, X, y, 1.0, b)

    assert primal(n_iter) <= target
    if n_iter // m > NR.MATCH_PASSES[0]:
        assert primal(n_iter // 2) > target


@pytest.mark.usefixtures("data_env")
def test_a_set_is_timed_with_every_reading_in_the_same_rounds(tmp_path):
    protocol = N.PROTOCOLS["tiny"]
    readings = ("10 passes (the protocol)", "1 pass")
    got = NR.measure_set(1, protocol, readings)
    assert list(got.method) == list(NR.RIVALS) + [NR.pegasos_method(r) for r in readings]
    assert list(got.reading) == ["", "", ""] + list(readings)
    m = int(got.n_train.iloc[0])
    assert got.set_index("reading").loc[list(readings), "n_iter"].tolist() == [10 * m, m]
    ran = got[got.unavailable == ""]
    assert (ran.runs == protocol.repeat).all() and np.isfinite(ran.primal).all()
    # what the page reads back from the committed file
    path = tmp_path / "readings.csv"
    got.to_csv(path, index=False)
    back = NR.load_evidence(path)
    assert list(back.reading) == list(got.reading) and list(back.unavailable) == list(got.unavailable)
    assert list(NR.claims_under(back).reading) == list(readings)
