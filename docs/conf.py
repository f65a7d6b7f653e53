"""Sphinx configuration of the repro documentation.

Build (offline, warnings as errors), from the repository root::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The gallery's scripts (docs/examples/plot_*.py) are run by sphinx-gallery during
the build; they load their datasets with :func:`repro.datasets.load`, so set
``REPRO_DATA_MIRROR`` (or keep ``../shared/datasets`` beside the checkout) when
the cache is empty. Nothing is fetched from the web: intersphinx is left out,
and MathJax is served from the built site itself (sphinx-mathjax-offline), so
the pages' maths render without a network too.
"""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("agg")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent / "_ext"))
# ``import repro`` must find the compiled package (``pip install -e '.[docs]'``);
# the path above only helps an unbuilt checkout fail with a clear ImportError.

import repro  # noqa: E402

project = "repro"
author = "repro contributors"
copyright = "the repro contributors"
release = getattr(repro, "__version__", "0.1.0")
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax copied into the site: the maths render offline
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "plain_docstrings",  # docs/_ext: the docstrings' plain-text |x| and name_ as written
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "examples/GALLERY_HEADER.rst"]
root_doc = "index"
default_role = "literal"

# -- autodoc / autosummary / numpydoc -----------------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"
# The estimators document their own members (fit, predict, decision_function,
# margins, ...); scikit-learn's inherited ones (get_params, set_score_request)
# are listed by name only: their docstrings cross-reference scikit-learn's
# user guide, which this site does not hold.
numpydoc_show_class_members = False
numpydoc_show_inherited_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

# -- sphinx-gallery ------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py",
    "download_all_examples": False,
    "line_numbers": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    # Each script's run time is on its page and in sg_execution_times.rst; a script
    # over a minute fails tests/test_docs.py.
    "min_reported_time": 0,
    "show_memory": False,
    "image_scrapers": ("matplotlib",),
    "reset_modules": ("matplotlib",),
    "capture_repr": ("__repr__",),
    "plot_gallery": "True",            # -D plot_gallery=0 builds without running them
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "show_signature": False,
}

# -- HTML ------------------------------------------------------------------------
html_theme = "alabaster"
html_title = f"repro {release}"
html_static_path: list[str] = []
html_theme_options = {
    "description": "Five SVM papers, reimplemented as scikit-learn estimators",
    "fixed_sidebar": True,
    "page_width": "1100px",
    "sidebar_width": "230px",
}
html_sidebars = {"**": ["about.html", "navigation.html", "searchbox.html"]}
html_show_sourcelink = False

# plt.show() in a gallery script under the agg backend: sphinx-gallery collects the
# figures itself
warnings.filterwarnings("ignore", message="Matplotlib is currently using agg")
