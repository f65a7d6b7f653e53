"""What the workflow's jobs import, checked once before the first job runs.

A job that cannot import LIBLINEAR should not be found out hours into a run,
at step 155 of 181. The workflow (``workflow/rules/preflight.smk``) calls
:func:`problems` while it plans, in its main process, and stops with one
message naming everything missing and how to install it.

:data:`JOB_MODULES` is every module from outside the standard library that the
package imports (at the top of a module or inside a function), with the
distribution that provides it. ``tests/test_preflight.py`` keeps the two in
step: it reads every import of ``repro/`` and ``workflow/scripts/`` and
requires each to be listed here, and each distribution listed here to be a
dependency of a plain ``pip install -e .`` (no extras).
"""
import importlib

#: import name -> distribution on the package index (pyproject.toml's dependencies)
JOB_MODULES = {
    "numpy": "numpy",
    "scipy": "scipy",
    "pandas": "pandas",
    "sklearn": "scikit-learn",
    "threadpoolctl": "threadpoolctl",
    "matplotlib": "matplotlib",
    "pooch": "pooch",
    "libsvm.svmutil": "libsvm-official",        # NESVM's baselines and its reference optimum
    "liblinear.liblinearutil": "liblinear-official",  # LSVM's scaling, NESVM's baselines
    "skimage": "scikit-image",                  # the NESVM image sets' Gist and bag-of-words features
    "libarchive": "libarchive-c",               # the NESVM image sets' RAR archives
}

#: modules that load a shared library of the system when imported, and the Debian
#: package that has it; a missing library stops only the step that needs it
SYSTEM_LIBRARIES = {"libarchive": "libarchive13 (apt-get install libarchive13)"}

#: the package's compiled kernels (pyx/*.pyx), loaded by the solvers
KERNELS = "repro.solvers"

INSTALL = "pip install -e .   (in the checkout, with the interpreter that runs snakemake)"


def problems() -> list:
    """One line per module the jobs need that does not import here; empty when all do."""
    found = []
    for module, dist in JOB_MODULES.items():
        try:
            importlib.import_module(module)
        except ImportError as exc:
            found.append(f"{module} (from {dist}): {exc}")
        except (OSError, AttributeError) as exc:  # ctypes found no usable shared library
            if module in SYSTEM_LIBRARIES:
                # only the step that reads the image sets' RAR archives loads it, and
                # it says what to install (repro.datasets.image_archives): the rest of
                # the workflow runs without it
                continue
            found.append(f"{module} (from {dist}): its shared library is missing or broken: {exc}")
    try:
        importlib.import_module(KERNELS)
    except ImportError as exc:
        found.append(f"the package's compiled kernels (repro._kernels, built by the install): {exc}")
    return found


def message(found) -> str:
    """The one message the workflow stops with."""
    lines = "\n".join(f"  - {line}" for line in found)
    return (f"The workflow's jobs cannot run with this Python: {len(found)} module(s) missing or broken:\n"
            f"{lines}\nInstall the package with its dependencies:\n  {INSTALL}")
