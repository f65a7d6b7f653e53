"""How close a reproduced number must be to the published one: the rule and its registry.

Each rule says what kind of agreement a metric can be expected to reach and why.
Each paper files its rules from its own folder (``repro/papers/<id>/tolerances.py``,
imported with the paper's package) through :func:`register`; the verdict of every
cell in paper_tables/ is decided by the rule :func:`tolerance_for` finds, and
tests import these rules rather than restating numbers.
"""
from dataclasses import dataclass, replace
import math

from .papers import check_paper


@dataclass(frozen=True)
class Tolerance:
    # "abs": |ours - paper| <= value; "factor": max(ours/paper, paper/ours) <= value;
    # one-sided, for a published bound (value unused, 0): "below": ours < paper,
    # "above": ours > paper (strict: the claims' bounds are exclusive), "at_least": ours >= paper
    kind: str
    value: float
    why: str
    unit: str = ""   # of an "abs" value in the page's words, e.g. " points" for percentages
    # A rule whose value is measured per cell by the table's own run (e.g. the
    # seed-to-seed spread of the same quantity), not a constant: the name of the
    # comparison context's entry that maps (dataset, method) to the value
    # (``value`` unused, NaN), and what was measured, in the page's words.
    measured: str = ""
    measured_as: str = ""

    def at(self, cell, context: dict | None) -> "Tolerance | None":
        """The rule of one cell: this rule, or for a measured one this rule
        with the cell's measured value; None where none was measured for it
        (the cell is then reported without a judgement). A measured entry
        may be (value, note): the note (e.g. that the value is borrowed from
        another method's measurement, and from which) joins ``measured_as``."""
        if not self.measured:
            return self
        value = (context or {}).get(self.measured, {}).get((cell.dataset, cell.method))
        note = ""
        if isinstance(value, tuple):
            value, note = value
        if value is None or not math.isfinite(value):
            return None
        return replace(self, value=float(value), measured_as=f"{self.measured_as}; {note}" if note else self.measured_as)

    def accepts(self, published: float, reproduced: float) -> bool:
        if math.isnan(published) or math.isnan(reproduced):
            return False
        if self.kind == "abs":
            return abs(reproduced - published) <= self.value
        if self.kind == "factor":
            if published <= 0 or reproduced <= 0:
                return False
            return max(reproduced / published, published / reproduced) <= self.value
        if self.kind == "below":
            return reproduced < published
        if self.kind == "above":
            return reproduced > published
        if self.kind == "at_least":
            return reproduced >= published
        raise ValueError(f"unknown tolerance kind {self.kind!r}")

    def describe(self) -> str:
        one_sided = {"below": "below the published bound", "above": "above the published bound",
                     "at_least": "at least the published value"}
        if self.kind in one_sided:
            return one_sided[self.kind]
        if self.kind == "abs" and self.measured:
            return f"within {self.value:.3g}{self.unit} ({self.measured_as})"
        if self.kind == "abs":
            return "exact" if self.value == 0 else f"within {self.value:g}{self.unit}"
        if self.measured:
            return f"within a factor of {self.value:.3g} ({self.measured_as})"
        return f"within a factor of {self.value:g}"


#: (paper, metric) -> rule, filled by each paper's ``repro/papers/<id>/tolerances.py``
TOLERANCES: dict = {}


def register(paper: str, rules: dict) -> None:
    """File a paper's rules (metric -> :class:`Tolerance`) under its id; a rule
    filed twice is refused, so one metric has one rule."""
    check_paper(paper)
    for metric, rule in rules.items():
        if (paper, metric) in TOLERANCES:
            raise ValueError(f"tolerance ({paper!r}, {metric!r}) is registered twice")
        TOLERANCES[(paper, metric)] = rule


def tolerance_for(paper: str, metric: str) -> Tolerance | None:
    """The rule of a paper's metric; None: the metric is reported without a
    judgement. A paper that has filed no rule at all is refused: its package was
    not imported, and every cell would read 'no tolerance' instead of its verdict."""
    if not any(key[0] == paper for key in TOLERANCES):
        raise LookupError(f"no tolerances filed for {paper!r}: importing its package "
                          f"(repro.papers.{paper}) files them")
    return TOLERANCES.get((paper, metric))
