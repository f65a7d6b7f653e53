# Baselines from outside the package, built on this machine and never committed.
#
# SVM-Light V6.02, the baseline of the Pegasos slides and the LSVM / NESVM papers:
# its licence forbids redistributing modified copies, so the sources are fetched
# from the package index (the svmlight 0.4 sdist, its pinned sha256 checked before
# anything of it is unpacked; pip's build hooks are never run), compiled with the system C
# compiler and deleted; only svm_learn, svm_classify and build.json (sdist sha256,
# compiler version, flags, the check's result) stay, in results/baselines/svmlight/,
# which git ignores. See repro.baselines.svmlight.
#
# Target:  snakemake --cores 1 svmlight_build
# The Pegasos experiment's SVM-Light jobs list its build.json as their input where
# SVM-Light can be built here (SVMLIGHT_BUILDABLE); on a machine where it cannot,
# their records carry repro.baselines.svmlight.why_unavailable()'s reason instead
# of the workflow failing.
import functools

import repro.baselines.svmlight

# Where the package looks for the build (repro.baselines.svmlight.default_dir: the
# checkout's results/baselines/svmlight, or $REPRO_SVMLIGHT_DIR), so that the jobs
# that use it find what this rule built; relative to the working directory when inside it.
_SVMLIGHT_ABS = repro.baselines.svmlight.default_dir().resolve()
SVMLIGHT_DIR = (
    os.path.relpath(_SVMLIGHT_ABS)
    if _SVMLIGHT_ABS.is_relative_to(os.getcwd())
    else str(_SVMLIGHT_ABS)
)
SVMLIGHT_BUILD = f"{SVMLIGHT_DIR}/build.json"
# Asked once, and only when a job that needs it is planned. Cheap facts only: a C
# compiler, and the sdist listed where pip looks (a folder or an index page is read;
# the archive is neither downloaded nor run; issue 22 item 1). The build itself
# checks the archive's sha256 before unpacking it.
SVMLIGHT_BUILDABLE = functools.lru_cache(maxsize=1)(
    lambda: repro.baselines.svmlight.why_unavailable(SVMLIGHT_DIR) is None
)


# A run: block, not shell: `python` on PATH need not be the interpreter that has
# repro (a venv not activated); the build needs nothing a conda env would add.
rule svmlight_build:
    input:
        plan_hook,
    output:
        SVMLIGHT_BUILD,
    log:
        log_path("baselines", "svmlight_build.log"),
    localrule: True
    run:
        repro.baselines.svmlight.build_logged(output[0], log[0])
