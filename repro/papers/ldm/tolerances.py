"""The LDM paper's tolerances: how close each reproduced number must come to the paper's, and why."""
from ...tolerances import Tolerance, register

TOLERANCES = {  # metric -> rule, filed under "ldm" below
    "accuracy": Tolerance(
        "abs", 0.02,
        "mean test accuracy (a fraction) over 30 random half/half partitions: the partitions, "
        "the scaling and the tie rule of the CV grid are not published, and several sets differ "
        "from the authors' versions (Table 1's sizes); 0.02 is about one published standard "
        "deviation on most sets.", " (accuracy as a fraction)"),
    "n_instances": Tolerance(
        "abs", 0.0, "Table 1's #Instance is a count of the set's rows: exact, or another version of the set."),
    "n_features": Tolerance(
        "abs", 0.0, "Table 1's #Feature is a count of columns after encoding: exact, or another version "
                    "or encoding of the set."),
}

register("ldm", TOLERANCES)
