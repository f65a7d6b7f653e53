"""Why the NESVM paper's reproduced numbers miss the published ones (Theorem 4's rate).

Registered with the layer's registry (:mod:`repro.explanations`, which says what an
entry is) when the paper's package is imported (``__init__.py``).
"""
from __future__ import annotations

from ...explanations import Explanation, register
from .claims import IMAGE_CLAIMS
from .theory_pages import LATE_K

# Context of nesvm_convergence: summary (one row per dataset,
# theory_pages.convergence_summary).


def _nesvm_rate_facts(cell, ctx):
    row = ctx["summary"].set_index("dataset").loc[cell.dataset]
    return {"early": row[f"slope k < {LATE_K}"], "late": row[f"slope k >= {LATE_K}"], "late_k": LATE_K,
            "violations": int(row["violations"]), "ratio": row["max gap / bound"], "steps": int(row["steps"])}


def _nesvm_rate_when(cell, ctx):
    f = _nesvm_rate_facts(cell, ctx)
    return f["violations"] == 0 and f["late"] <= -2.0 and f["ratio"] < 1.0


_NESVM_RATE_PREASYMPTOTIC = Explanation(
    reason="Theorem 4 is a bound, not the curve's slope: Eq. 43 holds at all {steps} steps (largest gap / "
           "bound {ratio:.2f}), and the gap starts that far below the bound, so it can fall more slowly than "
           "k^-2 for a while without reaching it: log-log slope {early:.2f} for k < {late_k}, {late:.2f} "
           "from k = {late_k} on; the fit over the whole window mixes the two",
    evidence="columns 'slope k < 1000', 'slope k >= 1000', 'slope per decade' and 'max gap / bound' of "
             "'Runs, references and fits', and the figure",
    when=_nesvm_rate_when,
    condition="the bound holds at every k, the gap stays below it, and the slope from k = 1000 on is at most -2",
    facts=_nesvm_rate_facts)


# Context of nesvm_time: readings (readings.claims_under of the committed
# sweep, or None where it was not run).


def _pegasos_readings_facts(cell, ctx):
    from ...tolerances import tolerance_for
    from . import jobs as N
    from .readings import CAUSE

    tried = ctx["readings"].set_index("reading")
    claim = "nesvm_fastest_below_n"
    rule = tolerance_for("nesvm", cell.metric)

    def judged(value):
        return "within" if rule.accepts(cell.published, value) else "outside"

    cause = tried.loc[CAUSE]
    others = "; ".join(f"{r} {v[claim]:g} ({judged(v[claim])})" for r, v in tried.iterrows() if r != CAUSE)
    return {"value": cause[claim], "judged": judged(cause[claim]), "iterations": cause["pegasos_iterations"],
            "protocol_passes": N.PROTOCOLS["full"].pegasos_epochs,
            "time_ratio": cause["pegasos_over_nesvm_time"], "others": others}


def _pegasos_cause_closes(cell, ctx):
    from ...tolerances import tolerance_for
    from .readings import CAUSE

    tried = ctx.get("readings")
    if tried is None or CAUSE not in set(tried["reading"]):
        return False
    row = tried.set_index("reading").loc[CAUSE]
    return bool(row["target_reached"]) and tolerance_for("nesvm", cell.metric).accepts(
        cell.published, row["nesvm_fastest_below_n"])


_PEGASOS_READINGS = (
    "Pegasos has no stopping tolerance and the paper does not say how many iterations it ran (the "
    "protocol: {protocol_passes} passes). Tested: run for the fewest passes whose primal reaches NESVM's on each set "
    "(the solvers at equal quality; iterations per set {iterations}), and timed again beside the "
    "others, Pegasos / NESVM mean time {time_ratio}: the claim's value is {value:g} ({judged} the "
    "tolerance)")

_PEGASOS_EVIDENCE = ("'The timed claims under readings of Pegasos's iteration count' on this page; "
                     "paper_tables/nesvm_time_readings.csv (repro.papers.nesvm.readings)")

def _tested_cause(tested: str, cause: str, evidence: str, closes, swept, facts, holds: str, fails: str):
    """The two entries of a cause that a readings sweep tests: explained where
    the reading named as the cause (before the sweep ran) makes the claim hold,
    else not explained, with the readings tried. ``tested``: what was run and
    what the cause's reading gave (a template over ``facts``); ``closes`` and
    ``swept``: (cell, context) -> bool; ``holds``, ``fails``: their conditions."""
    return (Explanation(reason=f"{tested}, so {cause} accounts for the miss; other readings: {{others}}",
                        evidence=evidence, when=closes, condition=holds, facts=facts),
            Explanation(reason=f"not explained: {tested}, so {cause} does not account for the miss; "
                               "other readings: {others}",
                        evidence=evidence, when=lambda cell, ctx: swept(cell, ctx) and not closes(cell, ctx),
                        condition=fails, explained=False, facts=facts))


# A tested cause (issue 27): the reading named before the sweep ran, the
# solvers compared at equal primal, brings the claim within its tolerance. It
# could fail: Pegasos at NESVM's primal may still be the faster.
_PEGASOS_ENTRIES = _tested_cause(
    _PEGASOS_READINGS, "the iteration count", _PEGASOS_EVIDENCE, _pegasos_cause_closes,
    lambda cell, ctx: ctx.get("readings") is not None, _pegasos_readings_facts,
    holds="Pegasos run to NESVM's primal makes the claim hold",
    fails="the readings were run and Pegasos at NESVM's primal leaves the claim failing")


# Context of nesvm_images: image_readings (image_readings.claims_under of the
# committed sweep, or None where it was not run), image_full (the same of the
# full protocol's run under image_readings.CONFIRMING, or None) and
# image_full_shortfalls (image_readings.shortfalls of that run).


def _image_full_value(cell, ctx):
    """The claim's value on the full protocol with NESVM under CONFIRMING (its
    stand-in, every C, 10 runs), and its note; (None, why) where not run."""
    full = ctx.get("image_full")
    if full is None:
        return None, "not run"
    rows = full[(full["set"] == cell.dataset.split(" (Fig.")[0]) & (full["row"] == cell.method)]
    if not len(rows):
        return None, "not run on this stand-in"
    return rows["value"].iat[0], rows["note"].iat[0]


def _image_full_shortfall(cell, ctx):
    """Where NESVM's models under CONFIRMING fall below the protocol's on this
    claim's stand-in (image_readings.shortfalls), or None."""
    full = ctx.get("image_full")
    if full is None:
        return None
    rows = full[(full["set"] == cell.dataset.split(" (Fig.")[0]) & (full["row"] == cell.method)]
    standin = rows["standin"].iat[0] if len(rows) else None
    return (ctx.get("image_full_shortfalls") or {}).get(standin)


def _image_full_shown(cell, ctx):
    from ...tolerances import tolerance_for
    from .image_readings import CONFIRMING

    value, note = _image_full_value(cell, ctx)
    if value is None or value != value:
        return f"the full protocol (10 runs, 600 s cap) with NESVM under the {CONFIRMING}: not read ({note})"
    within = tolerance_for("nesvm", cell.metric).accepts(cell.published, value)
    text = f"{value:.3g} ({'within' if within else 'outside'})"
    short = _image_full_shortfall(cell, ctx)
    models = ("its models as accurate as the protocol's NESVM (within two standard errors of the test set "
              "at every C)" if short is None else
              f"but its models are not the protocol's: test accuracy {short['reading']:.3f} against the "
              f"protocol's NESVM {short['protocol']:.3f} at C = {short['C']:g}, more than two standard "
              f"errors ({short['two_se']:.3f}) of {short['n_test']:,} test rows below (the largest "
              "shortfall): it stops before it learns")
    return f"the full protocol (10 runs, 600 s cap) with NESVM under the {CONFIRMING}: {text}, {models}"


def _image_full_closes(cell, ctx):
    """The claim holds on the full protocol's run under CONFIRMING, with NESVM's
    models there as accurate as the protocol's (a reading that is fast by
    stopping early explains no timing claim)."""
    from ...tolerances import tolerance_for

    value, _ = _image_full_value(cell, ctx)
    return value is not None and value == value and _image_full_shortfall(cell, ctx) is None and \
        tolerance_for("nesvm", cell.metric).accepts(cell.published, value)


def _image_tried(cell, ctx):
    """The sweep's rows of this claim (reading, value, ...), empty where its set was not swept."""
    tried = ctx.get("image_readings")
    if tried is None:
        return None
    return tried[(tried["set"] == cell.dataset.split(" (Fig.")[0]) & (tried["row"] == cell.method)]


def _image_readings_facts(cell, ctx):
    from ...tolerances import tolerance_for
    from .image_readings import CAUSE

    rule = tolerance_for("nesvm", cell.metric)
    rows = _image_tried(cell, ctx).set_index("reading")

    def shown(reading):
        value = rows.loc[reading, "value"]
        if value != value:  # NaN: the claim could not be read (a solver it names did not run)
            return f"not read ({rows.loc[reading, 'note']})"
        return f"{value:.3g} ({'within' if rule.accepts(cell.published, value) else 'outside'})"

    return {"cause": shown(CAUSE), "standin": rows["standin"].iat[0],
            "others": "; ".join([f"{r} {shown(r)}" for r in rows.index if r != CAUSE]
                                + [_image_full_shown(cell, ctx)])}


def _image_cause_closes(cell, ctx):
    from ...tolerances import tolerance_for
    from .image_readings import CAUSE

    rows = _image_tried(cell, ctx)
    if rows is None or CAUSE not in set(rows["reading"]):
        return False
    value = rows.set_index("reading").loc[CAUSE, "value"]
    return tolerance_for("nesvm", cell.metric).accepts(cell.published, value)


def _image_swept(cell, ctx):
    rows = _image_tried(cell, ctx)
    return rows is not None and len(rows) > 0


_IMAGE_READINGS = (
    "NESVM runs with the paper's printed readings, whose Eq. 48 bounds the kernel loss's curvature by n "
    "times its largest row term. Tested on the stand-in ({standin}), NESVM timed again beside the others "
    "under each reading: with L by power iteration (the largest eigenvalue, named as the cause's test "
    "before the sweep) the claim's value is {cause}")
_IMAGE_EVIDENCE = ("'The image claims under readings of NESVM's printed settings (stand-ins)' on this "
                   "page; paper_tables/nesvm_images_readings.csv (repro.papers.nesvm.image_readings)")
_IMAGE_FULL_EVIDENCE = (_IMAGE_EVIDENCE + "; 'NESVM's test accuracy under the relative stopping rule' on "
                        "this page and paper_tables/nesvm_images_relative_stop.csv (image_readings --full)")

# A tested cause (issue 27): the reading named before the sweep ran brings the
# claim within its tolerance on the stand-in. It could fail: a tighter L
# shortens NESVM's runs but need not make it the fastest.
_IMAGE_STEP_LENGTH, _IMAGE_READINGS_TRIED = _tested_cause(
    _IMAGE_READINGS, "Eq. 48's step length", _IMAGE_FULL_EVIDENCE, _image_cause_closes, _image_swept,
    _image_readings_facts, holds="NESVM with L by power iteration makes the claim hold on the stand-in",
    fails="the readings were run on the claim's stand-in and L by power iteration leaves it failing")


# The stopping rule as printed, |F_mu(w_k+1) - F_mu(w_k)| < eps, is absolute
# while F_mu grows with C n (../shared/notes/papers.md lists it as open). The
# relative reading was not named as the cause before the sweep; it made one
# claim hold there, and the full protocol was then run under it (issue 27: an
# alternative that closes a gap is run on the full protocol). It explains a
# claim only where that run makes it hold with NESVM's models as accurate as
# the protocol's (image_readings.shortfalls): a reading that is fast because
# NESVM stops before it learns explains no timing claim.
_IMAGE_STOP_RULE = Explanation(
    reason="NESVM's stopping rule as printed, |F_mu(w_k+1) - F_mu(w_k)| < eps = 1e-3, is absolute while "
           "F_mu grows with C n, so it asks ever more of NESVM as C grows; with the rule relative to F_mu "
           "(a reading the sweep of NESVM's settings pointed to, then run on {full}), so the stopping "
           "rule's reading accounts for the miss",
    evidence=_IMAGE_FULL_EVIDENCE,
    when=_image_full_closes,
    condition="the full protocol's run with NESVM under the relative stopping rule makes the claim hold, "
              "its models as accurate as the protocol's",
    facts=lambda cell, ctx: {"full": _image_full_shown(cell, ctx)})

_IMAGE_NOT_SWEPT = Explanation(
    reason="not explained: the readings of NESVM's settings were not swept on this stand-in (skin: its "
           "NESVM fits take 23 s to beyond the 600 s cap in the protocol's run, hours a sweep); "
           "{full}",
    evidence=_IMAGE_FULL_EVIDENCE,
    when=lambda cell, ctx: ctx.get("image_readings") is not None and not _image_swept(cell, ctx),
    condition="the sweep ran but not on this claim's stand-in", explained=False,
    facts=lambda cell, ctx: {"full": _image_full_shown(cell, ctx)})

_IMAGE_ENTRIES = (_IMAGE_STEP_LENGTH, _IMAGE_STOP_RULE, _IMAGE_READINGS_TRIED, _IMAGE_NOT_SWEPT)


EXPLANATIONS = {
    # NESVM fastest below 5000: Pegasos's iteration count, tested at equal primal
    ("nesvm_time", None, "NESVM fastest below n"): _PEGASOS_ENTRIES,
    # NESVM: a rate exponent below 2 where the bound itself holds (rule: only where it does)
    ("nesvm_convergence", None, "NESVM, Theorem 4: rate exponent p (gap ~ k^-p)"): _NESVM_RATE_PREASYMPTOTIC,
    # the image figures' claims (stand-ins): NESVM's printed step length, tested by the readings sweep
    **{("nesvm_images", None, name): _IMAGE_ENTRIES
       for name in dict.fromkeys(row for _, row, *_ in IMAGE_CLAIMS.values())},
}

register("nesvm", EXPLANATIONS)
