"""The NESVM paper's central claims (repro/papers/nesvm/central_claims.py):
their sources against the paper's text, their judgements on the committed
tables, and judges that follow the data they read."""
import pandas as pd

from claims_checks import check_judgements, check_sources, claim_by_source, evidence_copy
from repro.experiments.claims import FAILS, HOLDS, UNTESTABLE, Evidence
from repro.papers.nesvm.central_claims import CLAIMS

THEOREM4 = claim_by_source(CLAIMS, 208, "convergence rate")
FASTEST = claim_by_source(CLAIMS, 329, "NESVM achieves")
OUTDOOR = claim_by_source(CLAIMS, 351, "more efficient")


def test_sources_are_on_their_lines():
    check_sources(CLAIMS)


def test_judgements_on_the_committed_tables():
    judged = check_judgements(CLAIMS)
    # the image claims are about sets that cannot be had here: never judged on a stand-in
    images = [c for c in CLAIMS if c.pages == ("nesvm_images",)]
    assert len(images) == 4
    assert all(judged[c.claim].verdict == UNTESTABLE and judged[c.claim].readings for c in images)


def test_theorem4_follows_the_gap(tmp_path):
    folder = evidence_copy(tmp_path, ["nesvm_convergence.csv", "nesvm_convergence_records.csv"])
    assert THEOREM4.judged(Evidence(folder)).verdict == HOLDS
    path = folder / "nesvm_convergence_records.csv"
    records = pd.read_csv(path)
    at = records.index[records["k"] == records["k"].max()][0]
    records.loc[at, "gap"] = 2 * records.loc[at, "bound"]  # one k over Eq. 43
    records.to_csv(path, index=False)
    assert THEOREM4.judged(Evidence(folder)).verdict == FAILS


def test_fastest_below_5000_follows_the_table(tmp_path):
    folder = evidence_copy(tmp_path, ["nesvm_time.csv", "nesvm_time_records.csv"])
    assert FASTEST.judged(Evidence(folder)).verdict == FAILS
    path = folder / "nesvm_time.csv"
    table = pd.read_csv(path)
    table.loc[table["metric"] == "n_train_nesvm_fastest_below", "reproduced"] = 6414.0
    table.to_csv(path, index=False)
    judged = FASTEST.judged(Evidence(folder))
    assert judged.verdict == HOLDS and "6,414" in judged.ours


def test_an_image_claim_is_judged_where_its_own_set_ran(tmp_path):
    folder = evidence_copy(tmp_path, ["nesvm_images.csv"])
    assert OUTDOOR.judged(Evidence(folder)).verdict == UNTESTABLE
    path = folder / "nesvm_images.csv"
    table = pd.read_csv(path)
    rows = table["dataset"] == "outdoor scene (Fig. 8)"
    table.loc[rows, "standin"] = False
    table.to_csv(path, index=False)
    assert OUTDOOR.judged(Evidence(folder)).verdict == FAILS  # 2 of 7 C on these rows
    table.loc[rows & table["reproduced"].notna(), "reproduced"] = 1.0
    table.to_csv(path, index=False)
    assert OUTDOOR.judged(Evidence(folder)).verdict == HOLDS
