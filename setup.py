"""Build every ``pyx/<name>.pyx`` into the extension ``repro._kernels.<name>``.

Metadata lives in pyproject.toml; this file only declares the extensions.
Set ``REPRO_CYTHON_DEBUG=1`` at build time to switch bounds checking and
wraparound back on (slow, but turns an out-of-range index into an IndexError).
"""
import os
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

PUBLISHED = Path("paper_tables") / "published"


class build_py_with_published(build_py):
    """Also ship the published-value CSVs (paper_tables/published/, kept at the
    top level for readers of the repository) inside the package as
    repro/_published/, so a non-editable install can load them."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "repro" / "_published"
        target.mkdir(parents=True, exist_ok=True)
        for path in sorted(PUBLISHED.glob("*.csv")):
            self.copy_file(str(path), str(target / path.name))

DEBUG = os.environ.get("REPRO_CYTHON_DEBUG", "") not in ("", "0")

extensions = [
    Extension(
        f"repro._kernels.{pyx.stem}",
        [str(pyx)],
        include_dirs=[np.get_include(), "pyx"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
        # Link libm by name: an extension that leaves exp() unversioned binds to
        # glibc's oldest exp@GLIBC_2.2.5, a wrapper that re-checks errno around
        # every call (a quarter of exp's time in GS-SVM's profile); linked, it
        # gets the current exp (glibc >= 2.29), the same function without it.
        libraries=["m"],
    )
    for pyx in sorted(Path("pyx").glob("*.pyx"))
]

setup(
    cmdclass={"build_py": build_py_with_published},
    ext_modules=cythonize(
        extensions,
        include_path=["pyx"],
        build_dir="build/cython",
        compiler_directives={
            "language_level": 3,
            "boundscheck": DEBUG,
            "wraparound": DEBUG,
            "cdivision": not DEBUG,
            "initializedcheck": DEBUG,
        },
    ),
)
