"""A paper's central claims, each judged by the statistic it is about.

Cells agreeing with the paper's cells confirm no effect smaller than their
tolerance; a paper's claim ("GS-SVM needs far fewer kernel evaluations than
SMO", "LDM is significantly better than SVM on 12 of 20 sets and never
worse") is about a ratio, a paired test, a win/tie/loss count or a bound.
This module is the mechanism that states such a claim beside the paper's
value of its statistic and ours, with a verdict; it knows no paper. Each
paper declares its claims in ``repro/papers/<id>/central_claims.py`` as
:class:`PaperClaim` objects whose ``judge`` reads the tables a run wrote (the
table CSVs and their records, :class:`Evidence`) and returns a
:class:`Judgement`.

The verdict vocabulary, defined once:

* ``holds``: our statistic satisfies the claim as the paper states it;
* ``does not hold``: it does not, and the protocol could have shown it (the
  effect claimed is larger than what our protocol resolves);
* ``not resolved``: the effect claimed is smaller than what our protocol can
  resolve (e.g. the claimed difference is below the smallest difference our
  paired test detects), so neither verdict is warranted;
* ``not testable here``: the data or the run the claim needs are not
  available (``why`` says which).

A claim's ``source`` names the file of ``shared/papers/`` and the line where
the paper says so, with words of that line (a test checks them against the
text where the papers are beside the checkout).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

HOLDS = "holds"
FAILS = "does not hold"
UNRESOLVED = "not resolved"
UNTESTABLE = "not testable here"
VERDICTS = (HOLDS, FAILS, UNRESOLVED, UNTESTABLE)


@dataclass(frozen=True)
class Source:
    """Where a paper states a claim: its text file in ``shared/papers/``, the
    line (1-based) and words found on that line."""
    file: str
    line: int
    quote: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Judgement:
    """Our value of a claim's statistic and the verdict it gives.

    ``ours``: the statistic as shown (a count, a range of ratios, w/t/l);
    ``verdict``: one of ``VERDICTS``; ``why``: full sentences saying how the
    verdict follows from the statistic (and, for ``not resolved``, the
    smallest effect the protocol resolves); ``readings``: the same statistic
    under other readings the paper leaves open, as (name, ours, verdict)."""
    ours: str
    verdict: str
    why: str
    readings: tuple = ()

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"claim verdict {self.verdict!r} is not one of {VERDICTS}")
        for reading in self.readings:
            if len(reading) != 3 or reading[2] not in VERDICTS:
                raise ValueError(f"a reading is (name, ours, verdict in {VERDICTS}); got {reading!r}")


@dataclass(frozen=True)
class PaperClaim:
    """One central claim of a paper as the paper states it.

    ``claim``: the claim in the paper's words (or a faithful short form);
    ``source``: where it says so; ``statistic``: what is computed to judge
    it; ``paper``: the paper's value of that statistic as shown; ``pages``:
    the table ids whose pages show the evidence (the first is linked);
    ``judge``: :class:`Evidence` -> :class:`Judgement`."""
    claim: str
    source: Source
    statistic: str
    paper: str
    pages: tuple
    judge: Callable = field(repr=False, compare=False)

    def judged(self, evidence: "Evidence") -> Judgement:
        """The judgement on ``evidence``; ``not testable here`` when a page the
        claim reads is not in the folder (a run that left its table out)."""
        missing = [t for t in self.pages if not evidence.has(t)]
        if missing:
            return Judgement("—", UNTESTABLE, f"Not run here: {', '.join(missing)} is not in this folder.")
        return self.judge(evidence)


class Evidence:
    """What a claim's judge reads: the tables' CSVs and records in one
    folder (``paper_tables/``, or a scale's ``results/<scale>/paper_tables``)."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self._cache: dict = {}

    def has(self, table_id: str) -> bool:
        return (self.folder / f"{table_id}.csv").exists()

    def _read(self, name: str) -> pd.DataFrame:
        if name not in self._cache:
            path = self.folder / name
            if not path.exists():
                raise FileNotFoundError(f"{path}: a claim's evidence is missing")
            self._cache[name] = pd.read_csv(path, keep_default_na=False, na_values=[""])
        return self._cache[name]

    def table(self, table_id: str) -> pd.DataFrame:
        """The table's CSV (the comparison: published, reproduced, verdict, ...)."""
        return self._read(f"{table_id}.csv")

    def records(self, table_id: str) -> pd.DataFrame:
        """The table's records (one row per job and split)."""
        return self._read(f"{table_id}_records.csv")

    def extra(self, name: str) -> pd.DataFrame | None:
        """A committed evidence file beside the tables (e.g. a readings sweep),
        or None where this folder has none."""
        return self._read(name) if (self.folder / name).exists() else None


def judge_all(claims, folder, full: bool = True) -> list:
    """[(claim, judgement)] for ``claims`` on the tables in ``folder``.

    Below the full scale (``full`` False) a run has only some sets of a
    table (a Glass the claim names may not be there): a judge that finds its
    data missing gives ``not testable here`` saying so. At the full scale such
    an error is a fault and is raised."""
    evidence = Evidence(folder)
    out = []
    for claim in claims:
        try:
            judgement = claim.judged(evidence)
        except (KeyError, IndexError, ValueError, ZeroDivisionError) as exc:
            if full:
                raise
            judgement = Judgement("—", UNTESTABLE, f"Not computable from this scale's tables ({type(exc).__name__}: "
                                                  f"{exc}): the small protocols leave out sets the claim needs.")
        out.append((claim, judgement))
    return out


def fmt_range(values, digits: int = 3) -> str:
    """``a-b`` of a series of numbers (``a`` alone when they are one value)."""
    lo, hi = float(min(values)), float(max(values))
    return f"{lo:.{digits}g}" if f"{lo:.{digits}g}" == f"{hi:.{digits}g}" else f"{lo:.{digits}g}-{hi:.{digits}g}"


def wtl(counts: dict) -> str:
    """``w/t/l`` of a :func:`repro.experiments.stats.win_tie_loss` count."""
    return f"{counts['win']}/{counts['tie']}/{counts['loss']}"
