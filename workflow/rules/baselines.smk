# Baselines from outside the package, built on this machine and never committed.
#
# SVM-Light V6.02, the baseline of the Pegasos slides and the LSVM / NESVM papers:
# its licence forbids redistributing modified copies, so the sources are fetched
# from the package index (the svmlight 0.4 sdist), compiled with the system C
# compiler and deleted; only svm_learn, svm_classify and build.json (sdist sha256,
# compiler version, flags, the check's result) stay, in results/baselines/svmlight/,
# which git ignores. See repro.baselines.svmlight.
#
# Target:  snakemake --cores 1 svmlight_build
# Not part of the default target yet: the experiments that use SVM-Light will list
# its build.json as an input, and an offline machine will print 'unavailable' with
# repro.baselines.svmlight.why_unavailable() instead of failing.
import repro.baselines.svmlight

SVMLIGHT_DIR = os.path.join(config["results_dir"], "baselines", "svmlight")


# A run: block, not shell: `python` on PATH need not be the interpreter that has
# repro (a venv not activated); the build needs nothing a conda env would add.
rule svmlight_build:
    output:
        f"{SVMLIGHT_DIR}/build.json",
    log:
        log_path("baselines", "svmlight_build.log"),
    run:
        repro.baselines.svmlight.build_logged(output[0], log[0])
