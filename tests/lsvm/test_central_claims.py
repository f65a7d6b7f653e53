"""The central claims of LSVM's Section 3 (repro/papers/lsvm/central_claims.py):
their sources against the section's text, their judgements on the committed
tables, and judges that follow the data they read."""
import pandas as pd

from claims_checks import check_judgements, check_sources, claim_by_source, evidence_copy
from repro.experiments.claims import FAILS, HOLDS, UNRESOLVED, Evidence
from repro.papers.lsvm.central_claims import CLAIMS

RATE = claim_by_source(CLAIMS, 66, "converge")
MILLIONS = claim_by_source(CLAIMS, 95, "millions")


def test_sources_are_on_their_lines():
    check_sources(CLAIMS)


def test_judgements_on_the_committed_tables():
    judged = check_judgements(CLAIMS)
    assert judged[RATE.claim].verdict == HOLDS
    assert "trivial" in judged[RATE.claim].why  # the runs that start at their solution are left out


def test_rate_follows_the_iterates(tmp_path):
    folder = evidence_copy(tmp_path, ["lsvm_convergence.csv", "lsvm_convergence_records.csv"])
    path = folder / "lsvm_convergence_records.csv"
    records = pd.read_csv(path)
    run = (records["dataset"] == "synthetic-10d") & (records["nu_times_m"] == 1) & records["checked"]
    step = records[run].sort_values("iteration").index[5]
    records.loc[step, "distance"] *= 3.0  # one step that grows the distance: (20) fails next to it
    records.to_csv(path, index=False)
    assert RATE.judged(Evidence(folder)).verdict == FAILS
    # with every run at its solution from the start, (20) cannot be tested
    records["checked"] = False
    records.to_csv(path, index=False)
    assert RATE.judged(Evidence(folder)).verdict == UNRESOLVED


def test_millions_follows_the_runs(tmp_path):
    folder = evidence_copy(tmp_path, ["lsvm_scaling.csv", "lsvm_scaling_records.csv"])
    assert MILLIONS.judged(Evidence(folder)).verdict == HOLDS
    path = folder / "lsvm_scaling_records.csv"
    records = pd.read_csv(path)
    big = (records["method"] == "LSVM") & (records["m"] >= 1_000_000)
    records.loc[big, "primal"] *= 1.01  # stopped, but 1 % above the optimum: not solved
    records.to_csv(path, index=False)
    judged = MILLIONS.judged(Evidence(folder))
    assert judged.verdict == FAILS, judged.why
