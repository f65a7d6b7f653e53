"""LDM's central claims (repro/papers/ldm/central_claims.py): their sources,
their judgements on the committed tables, and verdicts that follow the data."""
import pandas as pd

from repro.experiments.claims import FAILS, HOLDS, UNRESOLVED, Evidence
from repro.papers.ldm.central_claims import CLAIMS, rate_verdict
from claims_checks import check_judgements, check_sources, evidence_copy


def test_every_source_quotes_its_line():
    check_sources(CLAIMS)


def test_every_claim_is_judged_on_the_committed_tables():
    judged = check_judgements(CLAIMS)
    headline = judged["LDM is significantly better than SVM on 12 of 20 sets, Table 2 (linear kernel)"]
    assert headline.ours.count("/") == 2


def test_the_rate_rule():
    assert rate_verdict(1, 17, 12, 20)[0] == FAILS          # 0.00-0.29 against 0.60
    assert rate_verdict(14, 17, 17, 20)[0] == HOLDS         # 0.57-0.96 against 0.85
    assert rate_verdict(2, 4, 6, 12)[0] == UNRESOLVED       # 0.07-0.93: too wide
    assert rate_verdict(0, 3, 1, 12)[0] == UNRESOLVED       # contains 0


def test_never_worse_follows_the_records(tmp_path):
    [claim] = [c for c in CLAIMS if c.claim == "LDM is never worse than SVM, Table 3 (RBF kernel)"]
    names = ["ldm_table3.csv", "ldm_table3_records.csv"]
    assert claim.judged(Evidence(evidence_copy(tmp_path / "a", names))).verdict == HOLDS
    folder = evidence_copy(tmp_path / "b", names)
    records = pd.read_csv(folder / "ldm_table3_records.csv")
    ldm = records.method == "LDM"
    records.loc[ldm, "test_accuracy"] -= 0.05   # LDM now worse everywhere
    records.to_csv(folder / "ldm_table3_records.csv", index=False)
    assert claim.judged(Evidence(folder)).verdict == FAILS
