# Read first: the package and every module the workflow's jobs import
# (repro.preflight.JOB_MODULES) are checked once, before any job is planned, so
# that a missing baseline stops the run with one message instead of failing a
# job hours in. In the main Snakemake process only (jobs on a cluster re-read
# this file).
import sys

try:
    import repro.preflight
except ImportError as exc:
    raise WorkflowError(
        f"the repro package does not import with this Python ({sys.executable}): {exc}. "
        "Install it from the checkout: pip install -e ."
    ) from None
if workflow.is_main_process and (_missing := repro.preflight.problems()):
    raise WorkflowError(repro.preflight.message(_missing))
