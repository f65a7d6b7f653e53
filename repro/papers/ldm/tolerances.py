"""The LDM paper's tolerances: how close each reproduced number must come to the paper's, and why."""
import math

import pandas as pd

from ...tolerances import Tolerance, register

# Sec. 4.1: "Experiments are repeated for 30 times with random data partitions"
# (regular sets), "10 times" for the large ones: the paper's means are over so many
PAPER_PARTITIONS = {"ldm_table2": 30, "ldm_table3": 30, "ldm_table4": 10}
Z95 = 1.959963984540054  # the two-sided 95 % point of the standard normal

TOLERANCES = {  # metric -> rule, filed under "ldm" below
    "accuracy": Tolerance(
        "abs", float("nan"),
        "mean test accuracy (a fraction) over random half/half partitions, which the paper does not "
        "publish. The difference allowed is measured for each cell, not chosen: the partitions of one "
        "set are independent draws, so two means over different partitions differ by the partitions "
        "alone with standard error sqrt(sd_ours^2 / n_ours + sd_paper^2 / n_paper), from the spread of "
        "our partitions (this table's records) and the paper's printed std over its own (30 partitions, "
        "10 on the large sets, Sec. 4.1); the cell's tolerance is 1.96 of those standard errors plus "
        "half a unit of the printed mean's last digit (tolerances.partition_noise). A cell beyond it "
        "differs by more than other partitions give 5 % of the time: the scaling, the tie rule of "
        "the CV grid, the solvers or the data (Table 1's sizes) then differ, which the readings test.",
        " (accuracy as a fraction)", measured="partition_noise",
        measured_as="1.96 standard errors of the two means over partitions, plus the printed rounding"),
    "n_instances": Tolerance(
        "abs", 0.0, "Table 1's #Instance is a count of the set's rows: exact, or another version of the set."),
    "n_features": Tolerance(
        "abs", 0.0, "Table 1's #Feature is a count of columns after encoding: exact, or another version "
                    "or encoding of the set."),
}


def printed_half_unit(text) -> float:
    """Half a unit of the last printed digit of a number as printed ('0.723' -> 0.0005)."""
    text = str(text).strip()
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10.0 ** -decimals


def partition_noise(ours: pd.DataFrame, paper: pd.DataFrame, n_ours: int, n_paper: int) -> dict:
    """(dataset, method) -> the accuracy tolerance of that cell (the rule above):
    ``ours`` has dataset, method and std (over our ``n_ours`` partitions),
    ``paper`` dataset, method, std and value_text (the printed mean, over its
    ``n_paper`` partitions). Cells without both spreads get none (no judgement)."""
    sd = {(d, m): s for d, m, s in zip(ours["dataset"], ours["method"], ours["std"])}
    out = {}
    for d, m, s, text in zip(paper["dataset"], paper["method"], paper["std"], paper["value_text"]):
        mine = sd.get((d, m))
        if mine is None or not (math.isfinite(mine) and math.isfinite(s)):
            continue
        out[(d, m)] = Z95 * math.sqrt(mine ** 2 / n_ours + s ** 2 / n_paper) + printed_half_unit(text)
    return out


register("ldm", TOLERANCES)
