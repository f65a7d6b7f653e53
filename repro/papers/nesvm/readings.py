"""NESVM Section IV-A at C = 1: the readings of Pegasos's iteration count
(issue 27, item 4: the claims' readings tried).

The claims compare training times (claims.py), and Pegasos, unlike the other
solvers, has no stopping tolerance: the paper does not say how many
iterations it ran. The protocol gives it 10 passes' worth (10 m iterations on
m rows, ``jobs.Protocol.pegasos_epochs``). Each reading below replaces that
count and nothing else; the other solvers run as in the protocol:

    python -m repro.papers.nesvm.readings     # writes EVIDENCE (about 3 minutes)

times, on every Adult set at C = 1 and interleaved in the same rounds (the
protocol's repeat, cap and budget; repro.experiments.timing), NESVM, LIBSVM,
SVM-Light and Pegasos under every reading, and records each model's primal.
The page (pages.py) reads the claims under each reading from it: Pegasos
under the reading takes the place of the protocol's Pegasos.

``CAUSE`` names the reading that tests the cause (chosen before the sweep
ran): the solvers compared at equal quality. Every other solver stops at the
paper's tolerance; Pegasos, which has none, is run for the fewest passes of a
doubling sequence whose model's primal is at most NESVM's on the same set.
The others are shown beside it, not taken as the cause.
"""
from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from ...experiments.readings import load_evidence as load_sweep
from ...experiments.timing import machine_record
from ...objectives import hinge_primal
from . import jobs as N
from .claims import FIG4_C, claim_cells

EVIDENCE = Path("paper_tables") / "nesvm_time_readings.csv"
# the passes tried by CAUSE, doubling from the protocol's 10
MATCH_PASSES = tuple(10 * 2 ** k for k in range(8))   # 10 .. 1280
# reading -> ("passes", p): p m iterations; ("fixed", T): T iterations whatever m;
# ("match", None): the fewest MATCH_PASSES whose primal is at most NESVM's
READINGS = {
    "10 passes (the protocol)": ("passes", 10),
    "1 pass": ("passes", 1),
    "100 passes": ("passes", 100),
    "T = 1e5 iterations whatever m": ("fixed", 100_000),
    "T = 1e6 iterations whatever m": ("fixed", 1_000_000),
    "to NESVM's primal": ("match", None),
}
CAUSE = "to NESVM's primal"
RIVALS = ("NESVM", "LIBSVM", "SVM-Light")  # the paper's other solvers that run here
TIMED_CLAIMS = ("nesvm_fastest_below_n", "nesvm_pegasos_faster_above_n")  # claims.CLAIMS read at FIG4_C


def pegasos_method(reading: str) -> str:
    """The method name of Pegasos under ``reading`` in the evidence."""
    return f"Pegasos ({reading})"


def pegasos_iterations(reading: str, X, y, C: float) -> tuple[int, bool]:
    """(iterations, reached): Pegasos's iteration count under ``reading`` on
    (X, y); ``reached`` is False only for CAUSE when no count of
    MATCH_PASSES brings its primal down to NESVM's (the largest is used)."""
    kind, value = READINGS[reading]
    m = X.shape[0]
    if kind == "passes":
        return value * m, True
    if kind == "fixed":
        return int(value), True
    w, b, _ = N._fit_nesvm(X, y, C, False)
    target = hinge_primal(w, X, y, C, b)
    for passes in MATCH_PASSES:
        w, b, _ = N._fit_pegasos(X, y, C, passes * m)
        if hinge_primal(w, X, y, C, b) <= target:
            return passes * m, True
    return MATCH_PASSES[-1] * m, False


def measure_set(set_id: int, protocol: N.Protocol, readings=tuple(READINGS), C: float = FIG4_C) -> pd.DataFrame:
    """One set's records: RIVALS and Pegasos under each reading, timed in the
    same interleaved rounds (``N.time_methods``), one row per method."""
    start = time.perf_counter()
    X, y, Xt, yt, info = N.load_set(set_id)
    iterations = {r: pegasos_iterations(r, X, y, C) for r in readings}
    fits = {m: N.fit_function(m, X, y, C, protocol) for m in RIVALS}
    for r, (n_iter, _) in iterations.items():
        fits[pegasos_method(r)] = (lambda n=n_iter: N._fit_pegasos(X, y, C, n))
    runs, last, skip = N.time_methods(fits, protocol, f"Set {set_id} C={C:g} readings")
    base = {"set_id": set_id, "dataset": info.name, "standin": bool(info.standin), "n_train": X.shape[0],
            "C": C, "tol": N.TOL, "cap_seconds": protocol.cap_seconds}
    frame = pd.DataFrame(N.method_rows(list(fits), runs, last, skip, (X, y, Xt, yt), C, base))
    reading = {pegasos_method(r): r for r in readings}
    frame["reading"] = frame["method"].map(reading).fillna("")
    frame["pegasos_target_reached"] = [iterations[r][1] if r else True for r in frame["reading"]]
    frame["job_seconds"] = time.perf_counter() - start
    for key, value in machine_record(1).items():
        frame[key] = value
    return frame


def measure(protocol: N.Protocol | None = None, readings=tuple(READINGS)) -> pd.DataFrame:
    """Every set of ``protocol`` (the full one by default), one after another."""
    protocol = protocol or N.PROTOCOLS["full"]
    return pd.concat([measure_set(s, protocol, readings) for s in protocol.sets], ignore_index=True)


def records_under(evidence: pd.DataFrame, reading: str) -> pd.DataFrame:
    """The evidence as the protocol's records with Pegasos under ``reading``:
    its rows renamed ``Pegasos``, the other readings' rows left out."""
    keep = (evidence["reading"].fillna("") == "") | (evidence["reading"] == reading)
    return evidence[keep].assign(method=lambda f: f["method"].where(f["reading"].fillna("") == "", "Pegasos"))


def claims_under(evidence: pd.DataFrame) -> pd.DataFrame:
    """One row per reading present in the evidence: the timed claims' values
    (claims.py, a column per claim id) with Pegasos under it, and Pegasos's
    iterations, mean time and primal per set (m: value), the last two as
    ratios to NESVM's."""
    rows = []
    for reading in [r for r in READINGS if r in set(evidence["reading"])]:
        records = records_under(evidence, reading)
        cells = claim_cells(records).set_index("claim")["value"]
        peg = records[records.method == "Pegasos"].set_index("n_train")
        nesvm = records[records.method == "NESVM"].set_index("n_train")

        def per_set(values):
            return "; ".join(f"{n}: {v:.3g}" for n, v in values.items())

        rows.append({"reading": reading, **{c: float(cells[c]) for c in TIMED_CLAIMS},
                     "pegasos_iterations": "; ".join(f"{n}: {int(v)}" for n, v in peg["n_iter"].items()),
                     "pegasos_over_nesvm_time": per_set(peg["mean_seconds"] / nesvm["mean_seconds"]),
                     "pegasos_over_nesvm_primal": per_set(peg["primal"] / nesvm["primal"]),
                     "target_reached": bool(peg["pegasos_target_reached"].all())})
    return pd.DataFrame(rows)


def load_evidence(path: Path = EVIDENCE) -> pd.DataFrame | None:
    """The committed measurements, or None where they were not made."""
    return load_sweep(path, text_columns=("reading", "unavailable"))


def main():
    from ..._io import write_text_atomic

    write_text_atomic(EVIDENCE, measure().to_csv(index=False))


if __name__ == "__main__":
    main()
