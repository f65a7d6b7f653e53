"""The package's import graph, read from the source: no circle anywhere, and no
layer module that depends on a paper.

Every ``import`` and ``from ... import`` of every module of ``repro/`` counts,
at the top of a module or inside a function (a function-local import is a
dependency that is only deferred). A paper is ``repro/papers/<id>/``; the
catalog of all papers (``repro.papers.catalog``) and the commands over them
(``repro.papers.__main__``) sit on top, and so does the bench (``repro.bench``,
which times the solvers on the papers' data). ``repro.papers`` itself holds only the
paper ids and imports nothing, so any module may read them.
"""
import ast
from pathlib import Path

from repro.papers import PAPERS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "repro"
TOP = {"repro.papers.catalog", "repro.papers.__main__"}


def _on_top(module: str) -> bool:
    return module in TOP or module == "repro.bench" or module.startswith("repro.bench.")


def _module_names() -> dict:
    """Module name -> source path, for every .py file of the package."""
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


MODULES = _module_names()


def _target(name: str) -> str | None:
    """The package module an imported name is: itself, or the closest enclosing
    module (``repro.tables.compare`` -> ``repro.tables``); None outside the package."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path) -> set:
    """The package modules ``module`` imports, anywhere in its source."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {_target(alias.name) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:  # `from pkg import mod` imports the module pkg.mod
                found.add(_target(f"{base}.{alias.name}") if f"{base}.{alias.name}" in MODULES else _target(base))
        elif _imports_by_name(node) and isinstance(node.args[0], ast.Constant):  # a lazy import: an edge too
            name = node.args[0].value
            found.add(_target(package + name if name.startswith(".") else name))
    found.discard(None)
    found.discard(module)
    return found


def _imports_by_name(node) -> bool:
    """Whether ``node`` is a call of ``importlib.import_module`` or ``__import__``."""
    return isinstance(node, ast.Call) and bool(node.args) and getattr(
        node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")


GRAPH = {module: _imports(module, path) for module, path in MODULES.items()}


def _paper_of(module: str) -> str | None:
    """The paper id a module belongs to (``repro.papers.<id>`` and below); None otherwise."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["repro", "papers"] and parts[2] in PAPERS else None


def _cycles(graph: dict) -> list:
    """Every strongly connected component of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_is_read():
    """The reader sees the edges it must: top-level, function-local and relative imports."""
    assert "repro.experiments.records" in GRAPH["repro.experiments"]
    assert "repro.papers.gs_svm.jobs" in GRAPH["repro.papers.gs_svm.pages"]
    assert "repro.papers.gs_svm.jobs" in GRAPH["repro.papers.lsvm.jobs"]  # inside run_accuracy_fold
    assert {"repro.papers.gs_svm.tables", "repro.papers.ldm.tables"} <= GRAPH["repro.papers.catalog"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle_in_the_package():
    assert _cycles(GRAPH) == []


def test_no_layer_module_imports_a_paper():
    """Below the papers (solvers, datasets, the experiment layer, tables,
    tolerances, explanations, ...) nothing imports a paper or the catalog;
    the paper ids (``repro.papers``) import nothing."""
    wrong = {module: sorted(t for t in targets if _paper_of(t) or _on_top(t))
             for module, targets in GRAPH.items() if not _paper_of(module) and not _on_top(module)}
    assert {m: t for m, t in wrong.items() if t} == {}
    assert GRAPH["repro.papers"] == set()


def test_a_paper_never_imports_the_catalog():
    """A paper depends on the layer (and may use another paper's jobs), never on
    the assembly of all papers above it."""
    wrong = {m: sorted(filter(_on_top, GRAPH[m])) for m in GRAPH if _paper_of(m) and any(map(_on_top, GRAPH[m]))}
    assert wrong == {}


def test_no_module_imports_a_computed_name():
    """An import of a name computed at run time would hide an edge from this
    graph: only the preflight does it, for the names it checks and prints
    (third-party modules and ``repro.solvers``, :data:`repro.preflight.JOB_MODULES`)."""
    hidden = sorted(module for module, path in MODULES.items() for node in ast.walk(ast.parse(path.read_text()))
                    if _imports_by_name(node) and not isinstance(node.args[0], ast.Constant))
    assert set(hidden) <= {"repro.preflight"}, hidden
