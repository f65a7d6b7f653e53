"""Checks shared by the tests of the papers' central claims
(``repro/papers/<id>/central_claims.py``, :mod:`repro.experiments.claims`)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import repro
from repro.experiments.claims import VERDICTS, Evidence, Judgement

COMMITTED = Path(repro.__file__).parents[1] / "paper_tables"
PAPERS = Path(repro.__file__).parents[1].parent / "shared" / "papers"


def check_sources(claims) -> None:
    """Every claim's quote occurs on its line of the paper's text (skipped where
    the papers are not beside the checkout)."""
    if not PAPERS.is_dir():
        pytest.skip(f"{PAPERS}: the papers' text is not beside this checkout")
    for claim in claims:
        lines = (PAPERS / claim.source.file).read_text(encoding="utf-8").splitlines()
        assert 1 <= claim.source.line <= len(lines), claim.source
        assert claim.source.quote in lines[claim.source.line - 1], (claim.claim, str(claim.source))


def check_judgements(claims) -> dict:
    """Every claim judged on the committed tables gives a valid judgement with
    full sentences; returns claim text -> judgement."""
    evidence = Evidence(COMMITTED)
    out = {}
    for claim in claims:
        j = claim.judged(evidence)
        assert isinstance(j, Judgement) and j.verdict in VERDICTS, claim.claim
        assert j.ours and j.why.strip().endswith("."), (claim.claim, j.why)
        assert claim.paper and claim.statistic and claim.pages, claim.claim
        out[claim.claim] = j
    return out


def evidence_copy(tmp_path: Path, names) -> Path:
    """A folder holding copies of the committed evidence files ``names``."""
    folder = tmp_path / "paper_tables"
    folder.mkdir(parents=True)
    for name in names:
        shutil.copy(COMMITTED / name, folder / name)
    return folder


def claim_by_source(claims, line: int, quote_part: str):
    """The claim stated on ``line`` whose quote contains ``quote_part``."""
    [claim] = [c for c in claims if c.source.line == line and quote_part in c.source.quote]
    return claim
