"""What the workflow's jobs import comes with a plain `pip install -e .` (repro.preflight)."""
import ast
import importlib.metadata
import re
import sys
import sysconfig
import tomllib
from pathlib import Path

from repro import preflight

REPO = Path(__file__).resolve().parents[1]


def _imported_top_level(paths) -> dict:
    """Top-level module name -> files importing it (at module level or inside a function)."""
    found = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
            for name in names:
                found.setdefault(name.split(".")[0], set()).add(str(path.relative_to(REPO)))
    return found


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement string."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)).lower()


def test_every_module_the_package_imports_is_checked_before_a_run():
    files = [*(REPO / "repro").rglob("*.py"), *(REPO / "workflow" / "scripts").glob("*.py")]
    outside = {name: where for name, where in _imported_top_level(files).items()
               if name not in sys.stdlib_module_names and name != "repro"}
    checked = {module.split(".")[0] for module in preflight.JOB_MODULES}
    assert not set(outside) - checked, {n: outside[n] for n in set(outside) - checked}


def test_every_checked_module_comes_without_extras():
    """pyproject's dependencies and the installed metadata (what `pip install -e .`
    installed) both name every distribution the jobs import from."""
    declared = {_name(r) for r in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]}
    # the metadata pip installed (site-packages), not an egg-info a build left in the checkout
    site = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    installed = {_name(r) for dist in importlib.metadata.distributions(name="repro", path=site)
                 for r in dist.requires or [] if "extra ==" not in r}
    needed = {_name(d) for d in preflight.JOB_MODULES.values()}
    assert needed <= declared, needed - declared
    assert needed <= installed, f"reinstall (pip install -e .): the installed metadata lacks {needed - installed}"


def test_every_checked_module_imports_here():
    assert preflight.problems() == []


def test_a_missing_module_is_named_with_how_to_install_it(monkeypatch):
    monkeypatch.setitem(preflight.JOB_MODULES, "no_such_module_for_the_test", "no-such-dist")
    found = preflight.problems()
    assert len(found) == 1 and found[0].startswith("no_such_module_for_the_test (from no-such-dist)")
    message = preflight.message(found)
    assert "1 module(s) missing" in message and "pip install -e ." in message


def test_the_job_scripts_import_only_the_log_before_opening_it():
    """An import that fails inside a job must leave its traceback in the job's log."""
    for script in (REPO / "workflow" / "scripts").glob("*.py"):
        top = [node for node in ast.parse(script.read_text()).body if isinstance(node, (ast.Import, ast.ImportFrom))]
        assert [ast.unparse(node) for node in top] == ["from repro._io import log_to"], script.name


def test_a_failing_job_leaves_its_traceback_in_its_log(tmp_path):
    from repro._io import log_to

    log = tmp_path / "job.log"
    try:
        with log_to(log):
            print("started")
            import no_such_module_in_a_job  # noqa: F401
    except ModuleNotFoundError:
        pass
    text = log.read_text()
    assert text.startswith("started\n")
    assert "Traceback" in text and "ModuleNotFoundError: No module named 'no_such_module_in_a_job'" in text
