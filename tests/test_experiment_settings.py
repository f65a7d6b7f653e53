"""Every experiment names the settings of its paper's protocol (issue 48, item 1).

The estimators' defaults are a user's (SMO's second-order path with a kernel
cache, gamma='scale', no trace), not the papers' protocols (Keerthi's path in
count mode, gamma 0.05, the traces the records were made with). So that every
record stays what the code makes, an experiment may not take such a setting
from a default. This test reads the source of every module that runs an
experiment (everything under ``repro/`` except the estimators themselves, and
``workflow/scripts``) and finds every call of an estimator of
``repro.solvers`` (or of a subclass defined there). For each call:

* every parameter of ``MUST_NAME`` (the defaults changed for users, and the
  settings that pick a protocol's path) is named: as a keyword, a positional
  argument, or a key of a ``**`` dict that is a module constant
  (``**PRINTED_READINGS``) or a model's ``get_params()``; a ``**`` of anything
  else names nothing;
* every other parameter it leaves to its default is one whose default is
  frozen in ``RELIED_ON`` at the value the records were made with: changing
  such a default fails here, naming the experiment that relies on it (name
  the setting there, then drop it from ``RELIED_ON``);
* an estimator class is referenced only to be called, subclassed or tested
  with ``isinstance`` (a class passed around or wrapped in ``partial`` would
  escape the checks above).

It reads source only, so it runs in about a second; the byte-identical
rebuild of the committed pages (``python -m repro.papers rebuild``) checks the
same from the other side.
"""
from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from sklearn.base import BaseEstimator

import repro.solvers

ROOT = Path(__file__).resolve().parents[1]
ESTIMATORS = {name: getattr(repro.solvers, name) for name in repro.solvers.__all__
              if isinstance(getattr(repro.solvers, name), type)
              and issubclass(getattr(repro.solvers, name), BaseEstimator)}

# The parameters an experiment must name, whatever it wants: the defaults this
# issue changed to a user's (gamma 0.05 -> 'scale', Keerthi's path -> the
# second-order one, count mode -> the kernel cache, traces -> None), and the
# settings that choose the GS-SVM paper's SMO (modification).
MUST_NAME = {
    "SMO": {"gamma", "working_set", "kernel_cache", "modification", "history_every"},
    "HardMarginSVM": {"gamma", "working_set", "history_every"},
    "GSSVM": {"gamma", "history_every"},
    "Pegasos": {"history_every"},
    "NESVM": {"gamma", "history_every"},
    "LSVM": {"history_every"},
    "LinearSVM": {"history_every"},
}
# gamma is not read by these kernels; kernel_cache and modification only by
# Keerthi's path
NO_GAMMA_KERNELS = {"linear", "precomputed"}
KEERTHI_ONLY = {"kernel_cache", "modification"}

# The defaults experiments rely on (parameters they leave unnamed), frozen at
# the values the committed records were made with.
RELIED_ON = {
    "ASGDSVM": {"n_epochs": 5, "random_state": 0, "history_every": None},
    "BiasFreeSVM": {"coef0": 0.0, "degree": 3, "tol": 1e-3, "max_iter": 10_000, "warm_start": False,
                    "random_state": 0, "history_every": None},
    "GSSVM": {"coef0": 0.0, "degree": 3, "max_steps": None},
    "HardMarginSVM": {"kernel": "rbf", "coef0": 0.0, "degree": 3, "tol": 1e-3, "max_iter": 10_000_000,
                      "warm_start": False},
    "KMOMD": {"gamma": None, "coef0": 0.0, "degree": 3, "history_every": None},
    "LDM": {"kernel": "linear", "gamma": None, "coef0": 0.0, "degree": 3, "max_iter": 10_000, "tol": 1e-2,
            "n_epochs": 5, "asgd_variant": "paper", "variance": "normalised", "cd_order": "random",
            "shrinking": True, "warm_start": False, "random_state": 0, "history_every": None,
            "stop": "tol"},
    "LSVM": {"kernel": "linear", "gamma": None, "coef0": 0.0, "degree": 3, "alpha": None,
             "tol": 1e-5, "max_iter": 10_000, "kernel_memory": 1024},
    "LinearSVM": {"tol": 0.1, "max_iter": 1000, "fit_intercept": True, "intercept_scaling": 1.0,
                  "random_state": 0},
    "MAMC": {"gamma": None, "coef0": 0.0, "degree": 3, "history_every": None},
    "NESVM": {"model": "C", "mu": 5.0, "mu_l1": None, "tol": 1e-6, "homotopy": False, "mu0": None,
              "fit_intercept": True, "max_iter": 100_000,
              "hinge_threshold": "eq6", "lipschitz": "power", "prox_center": "zero",
              "homotopy_restart": True, "stop_rule": "relative", "scheme": "paper",
              "kernel_memory": 1024, "warm_start": False, "trace_y": False},
    "Pegasos": {"n_iter": 1_000_000, "batch_size": 1, "projection": True, "average": False,
                "variant": "slides"},
    "SMO": {"C": 1.0, "kernel": "rbf", "coef0": 0.0, "degree": 3, "tol": 1e-3, "cache_size": 200, "eps_step": 1e-12,
            "max_iter": 10_000_000, "random_state": None, "warm_start": False, "shrinking": True,
            "count_table_memory": 0.0},
    "SVM": {},
}


def experiment_files():
    """Every module that may run an experiment: all of repro/ but the estimators."""
    files = [p for p in sorted((ROOT / "repro").rglob("*.py"))
             if (ROOT / "repro" / "solvers") not in p.parents]
    return files + sorted((ROOT / "workflow" / "scripts").glob("*.py"))


def _module_name(path: Path) -> str | None:
    rel = path.relative_to(ROOT)
    if rel.parts[0] != "repro":
        return None
    return ".".join(rel.with_suffix("").parts).removesuffix(".__init__")


def _literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        return _UNKNOWN


_UNKNOWN = object()
_EVERYTHING = object()  # a **get_params(): every parameter named


class _Module:
    """The estimator calls and stray references of one source file."""

    def __init__(self, path: Path):
        self.path = path
        self.tree = ast.parse(path.read_text(), filename=str(path))
        self.module = _module_name(path)
        self._globals = None
        # subclasses of the estimators defined here stand for their base
        self.classes = {name: name for name in ESTIMATORS}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    if isinstance(base, ast.Name) and base.id in self.classes:
                        self.classes[node.name] = self.classes[base.id]

    def where(self, node) -> str:
        return f"{self.path.relative_to(ROOT)}:{node.lineno}"

    def _constant(self, name: str):
        """A module-level dict the ``**`` names, from the imported module."""
        if self.module is None:
            return _UNKNOWN
        if self._globals is None:
            self._globals = vars(importlib.import_module(self.module))
        value = self._globals.get(name, _UNKNOWN)
        return value if isinstance(value, dict) else _UNKNOWN

    def _splat_keys(self, node):
        """The keys a ``**node`` names, and whether it may name others: ({key:
        value node or None} or ``_EVERYTHING``, bool)."""
        if isinstance(node, ast.Name):
            value = self._constant(node.id)
            if value is _UNKNOWN:
                return {}, True
            return {k: ast.Constant(v) if isinstance(v, (str, int, float, bool, type(None)))
                    else None for k, v in value.items()}, False
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get_params"):
            return _EVERYTHING, False
        if isinstance(node, ast.Dict):
            keys, unknown = {}, False
            for key, value in zip(node.keys, node.values):
                if key is None:
                    inner, inner_unknown = self._splat_keys(value)
                    if inner is _EVERYTHING:
                        return _EVERYTHING, False
                    keys.update(inner)
                    unknown |= inner_unknown
                elif isinstance(_literal(key), str):
                    keys[_literal(key)] = value
                else:
                    unknown = True
            return keys, unknown
        return {}, True

    def calls(self):
        """(node, estimator, named: {param: value node or None}, unknown splat)."""
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else None)
            if name not in self.classes:
                continue
            base = self.classes[name]
            params = [p for p in inspect.signature(ESTIMATORS[base].__init__).parameters
                      if p != "self"]
            named, unknown = {}, False
            for param, arg in zip(params, node.args):
                named[param] = arg
            for kw in node.keywords:
                if kw.arg is not None:
                    named[kw.arg] = kw.value
                    continue
                keys, may_name_others = self._splat_keys(kw.value)
                named.update(dict.fromkeys(params) if keys is _EVERYTHING else keys)
                unknown |= may_name_others
            yield node, base, named, unknown

    def stray_references(self):
        """Estimator classes used other than called, subclassed or isinstance'd."""
        allowed = set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                allowed.add(id(node.func))
                if isinstance(node.func, ast.Name) and node.func.id in ("isinstance", "issubclass"):
                    for arg in node.args[1:]:
                        allowed |= {id(n) for n in ast.walk(arg)}
            elif isinstance(node, ast.ClassDef):
                allowed |= {id(b) for b in node.bases}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name) and node.id in self.classes and id(node) not in allowed:
                yield node


MODULES = [_Module(p) for p in experiment_files()]


def _must_name(base, named, unknown):
    """The parameters of MUST_NAME this call leaves to a default."""
    must = set(MUST_NAME.get(base, ()))
    if _value(base, "kernel", named, unknown) in NO_GAMMA_KERNELS:
        must.discard("gamma")
    if "working_set" in named and _value(base, "working_set", named, unknown) == "second_order":
        must -= KEERTHI_ONLY
    return sorted(p for p in must if p not in named)


def _value(base, param, named, unknown):
    """The value a call gives ``param`` when the source says it (a literal, or
    the default of a parameter left unnamed with no unknown ``**``), else _UNKNOWN."""
    if param in named:
        return _UNKNOWN if named[param] is None else _literal(named[param])
    spec = inspect.signature(ESTIMATORS[base].__init__).parameters.get(param)
    return _UNKNOWN if unknown or spec is None else spec.default


def test_the_scan_finds_every_papers_estimators():
    """Guards the scan itself: it sees the calls of each paper's jobs, the
    benchmarks and the roster (a scan that found nothing would pass)."""
    found = {}
    for module in MODULES:
        for _node, base, _named, _unknown in module.calls():
            folder = module.path.relative_to(ROOT).parent.as_posix()
            found.setdefault(folder, set()).add(base)
    assert {"SMO", "GSSVM", "HardMarginSVM"} <= found["repro/papers/gs_svm"]
    assert {"LDM", "MAMC", "KMOMD"} <= found["repro/papers/ldm"]
    assert {"LSVM", "Pegasos", "SMO"} <= found["repro/papers/lsvm"]
    assert {"NESVM", "SMO", "Pegasos"} <= found["repro/papers/nesvm"]
    assert {"Pegasos"} <= found["repro/papers/pegasos"]
    assert {"SMO", "GSSVM", "HardMarginSVM", "NESVM", "LSVM", "LinearSVM", "Pegasos"} <= \
        found["repro/bench"]
    assert set(MUST_NAME) <= found["repro/solvers_compared"]


def test_every_experiment_names_the_settings_whose_defaults_are_a_users():
    missing = [f"{module.where(node)}: {base}(...) leaves {', '.join(params)} to the default"
               for module in MODULES
               for node, base, named, unknown in module.calls()
               if (params := _must_name(base, named, unknown))]
    assert not missing, ("name these settings in the experiment (the estimators' defaults are a "
                         "user's, not the protocol's):\n" + "\n".join(missing))


def test_the_defaults_experiments_rely_on_are_unchanged():
    changed = []
    for module in MODULES:
        for node, base, named, unknown in module.calls():
            signature = inspect.signature(ESTIMATORS[base].__init__).parameters
            for param, spec in signature.items():
                if param == "self" or param in named or param in MUST_NAME.get(base, ()):
                    continue
                frozen = RELIED_ON.get(base, {})
                if param not in frozen:
                    changed.append(f"{module.where(node)}: {base}(...) relies on the default "
                                   f"{param}={spec.default!r}, not in RELIED_ON")
                elif spec.default != frozen[param] or type(spec.default) is not type(frozen[param]):
                    changed.append(f"{module.where(node)}: {base}(...) relies on {param}, whose "
                                   f"default changed from {frozen[param]!r} to {spec.default!r}")
    assert not changed, ("an experiment relies on these defaults: name the setting there (the "
                         "value its records were made with):\n" + "\n".join(changed))


def test_estimator_classes_are_only_called_where_experiments_use_them():
    stray = [f"{module.where(node)}: {node.id}" for module in MODULES
             for node in module.stray_references()]
    assert not stray, ("an estimator class used other than by a call (the checks above would not "
                       "see its settings):\n" + "\n".join(stray))


@pytest.mark.parametrize("source, missing", [
    ("SMO(C=1.0, kernel='rbf', gamma=0.05)", ["history_every", "kernel_cache", "modification",
                                             "working_set"]),
    ("SMO(C=1.0, kernel='linear', working_set='second_order', history_every=None)", []),
    ("SMO(kernel='precomputed', working_set=ws, modification=2, kernel_cache=True, "
     "history_every=None)", []),
    ("NESVM(C=1.0, history_every=None, **options)", ["gamma"]),
    ("NESVM(C=1.0, history_every=None, **{**options, 'kernel': 'linear'})", []),
    ("NESVM(C=1.0, history_every=None)", []),
    ("NESVM(C=1.0, kernel=k, history_every=None)", ["gamma"]),
    ("Pegasos(1e-4, 10, 1, True, False, 'slides', 0, None)", []),
    ("HardMarginSVM()", ["gamma", "history_every", "working_set"]),
])
def test_the_rule_on_examples(tmp_path, source, missing):
    path = tmp_path / "example.py"
    path.write_text(f"x = {source}\n")
    module = _Module.__new__(_Module)
    module.path, module.module, module._globals = path, None, None
    module.tree = ast.parse(path.read_text())
    module.classes = {name: name for name in ESTIMATORS}
    [(node, base, named, unknown)] = list(module.calls())
    assert _must_name(base, named, unknown) == missing
