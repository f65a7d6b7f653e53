"""The estimators' docstring Examples run as doctests in the default test run
(issue 48, item 2), and every documented estimator has one.

``MODULES`` lists the modules whose docstrings are run: add an estimator's
module here when its docstring gains an Examples section. Each module's
examples run with ``doctest.testmod`` (ELLIPSIS and NORMALIZE_WHITESPACE), so
their printed outputs are part of the test: print rounded numbers that are
stable across platforms (a score to two decimals, a comparison), not raw floats
or counts that depend on rounding.
"""
import doctest
import importlib
import inspect

import pytest

MODULES = [
    "repro.solvers.smo",
    "repro.solvers.gssvm",
    "repro.solvers.pegasos",
]

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False, report=True)
    assert result.attempted > 0, f"{name}: no docstring example found"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


@pytest.mark.parametrize("name", MODULES)
def test_each_public_estimator_has_the_numpydoc_sections(name):
    """Each public estimator class of the module opens with its summary and
    has Parameters, Attributes, Notes, References and Examples (with code)."""
    from sklearn.base import BaseEstimator

    module = importlib.import_module(name)
    classes = [c for n, c in vars(module).items()
               if inspect.isclass(c) and issubclass(c, BaseEstimator) and not n.startswith("_")
               and c.__module__ == name]
    assert classes, name
    for cls in classes:
        doc = inspect.getdoc(cls)
        for section in ("Parameters", "Attributes", "Notes", "References", "Examples"):
            assert f"\n{section}\n{'-' * len(section)}\n" in doc, (cls.__name__, section)
        examples = doc.split("\nExamples\n--------\n", 1)[1]
        assert ">>> " in examples, cls.__name__
        assert not doc.startswith(("b_up", "b_low")), cls.__name__
