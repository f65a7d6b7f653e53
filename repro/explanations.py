"""Why a reproduced number misses the published one: the entry and its registry.

Each paper files its entries from its own folder (``repro/papers/<id>/explanations.py``,
imported with the paper's package) through :func:`register`. Read by the table builder (:func:`repro.tables.compare` writes each miss's
reason into the table a reader opens) and by the tests (a miss without an
entry fails, and so does an entry that no longer matches a miss: a stale
explanation is as misleading as a missing one).

An entry is filed under ``(table id, dataset, method)``; ``None`` for the
dataset or the method makes it a *rule* over many cells (a cell entry wins
over a rule, a rule naming the method over one naming neither). A rule's key
may hold a tuple of rules, tried in order: the first that holds covers the
cell (so a reason that explains and a finding that does not can share a key). Every entry has a ``when`` condition, computed from the evidence,
that must hold for its reason to hold: a rule applies only where it does, and
a cell entry whose condition fails leaves the miss ``miss (unexplained)`` with
the failed condition in its reason (a test fails on it: the entry is stale).
The reason is a template whose numbers are *computed* by ``facts`` from the
table's context (the records and the tables derived from them, see each
paper's table builder), never typed by hand, and ``evidence`` says where the
reader sees them. ``explained=False`` records what was found about a miss
that is still not explained: the verdict then reads ``miss (unexplained)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .papers import check_paper


@dataclass(frozen=True)
class Explanation:
    reason: str                        # str.format template: {cell.<field>} and the facts' names
    evidence: str                      # where to check it: a table section, column, figure
    when: Callable                     # (cell, context) -> bool: the reason holds for this cell
    condition: str                     # what ``when`` checks, in words (said when it fails)
    explained: bool = True
    facts: Callable | None = None      # (cell, context) -> dict of computed values

    def render(self, cell, context) -> str:
        facts = self.facts(cell, context) if self.facts else {}
        return f"{self.reason.format(cell=cell, **facts).rstrip('.')}. Evidence: {self.evidence}."


@dataclass(frozen=True)
class Resolved:
    key: tuple
    text: str
    explained: bool
    holds: bool      # False: a cell entry whose condition failed (stale)


def explain(table: str, cell, context: dict) -> Resolved | None:
    """The entry covering a missed ``cell`` (a row of the comparison: dataset,
    method, metric, published, reproduced, ...) of ``table``, rendered; None
    when there is none."""
    for key in ((table, cell.dataset, cell.method), (table, None, cell.method),
                (table, cell.dataset, None), (table, None, None)):
        filed = EXPLANATIONS.get(key)
        if filed is None:
            continue
        for entry in filed if isinstance(filed, tuple) else (filed,):
            holds = bool(entry.when(cell, context))
            if None in key[1:] and not holds:
                continue  # a rule covers only the cells where it holds
            if not holds:
                return Resolved(key, f"the registered reason does not hold here ({entry.condition} is "
                                     f"false); it read: {entry.reason}", False, False)
            return Resolved(key, entry.render(cell, context), entry.explained, True)
    return None


def entries(table: str) -> dict:
    """The registry's entries for one table id."""
    return {k: v for k, v in EXPLANATIONS.items() if k[0] == table}


#: (table id, dataset, method) -> entry, filled by each paper's
#: ``repro/papers/<id>/explanations.py``
EXPLANATIONS: dict[tuple, Explanation] = {}


def register(paper: str, entries_of_paper: dict) -> None:
    """File a paper's entries (key -> :class:`Explanation`); every key's table
    id is the paper's (``<paper>_<table>``), and a key filed twice is refused."""
    check_paper(paper)
    for key, entry in entries_of_paper.items():
        if not key[0].startswith(paper + "_"):
            raise ValueError(f"explanation {key} is filed under a table of another paper than {paper!r}")
        if key in EXPLANATIONS:
            raise ValueError(f"explanation {key} is registered twice")
        if isinstance(entry, tuple) and None not in key[1:]:
            raise ValueError(f"explanation {key}: only a rule's key (dataset or method None) holds a tuple")
        EXPLANATIONS[key] = entry
