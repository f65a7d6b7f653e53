"""The documentation site (docs/): its gallery's scripts, its docstring handler, its build.

Fast: every gallery script (docs/examples/plot_*.py) has the title block
sphinx-gallery needs, is picked up by the gallery's pattern and is referenced from
a user-guide page; the handler that renders the package's plain-text docstrings
(docs/_ext/plain_docstrings.py) escapes what it must and nothing else.

Slow (``slow`` marker): the site built as its one command builds it, offline with
warnings as errors (``python -m sphinx -W --keep-going -b html docs ...``), on a copy
of docs/ in a temporary folder so that the checkout gets no generated files; then
the index, the API page of every estimator and every gallery page with its figure
exist, and every gallery script ran in under a minute. It skips, saying so, when
Sphinx, numpydoc or sphinx-gallery is not installed (``pip install -e '.[docs]'``)
or when there is no dataset mirror.
"""
import ast
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
SCRIPTS = sorted(EXAMPLES.glob("plot_*.py"))
DOCS_PACKAGES = ("sphinx", "numpydoc", "sphinx_gallery")


def _conf() -> dict:
    """docs/conf.py's settings, read without running it (it imports repro)."""
    tree = ast.parse((DOCS / "conf.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(getattr(t, "id", None) == "sphinx_gallery_conf" for t in targets):
                conf = {}
                for key, value in zip(node.value.keys, node.value.values):
                    try:
                        conf[key.value] = ast.literal_eval(value)
                    except ValueError:
                        conf[key.value] = None     # an expression (read from the environment)
                return conf
    raise AssertionError("docs/conf.py sets no sphinx_gallery_conf")


def test_at_least_five_gallery_scripts():
    assert len(SCRIPTS) >= 5, [p.name for p in SCRIPTS]
    assert (EXAMPLES / "GALLERY_HEADER.rst").is_file()


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_gallery_script_has_a_title_and_is_picked_up(script):
    """sphinx-gallery takes a script's title from the first lines of its module
    docstring, an RST heading; the gallery's index lists every script whose path
    matches ``filename_pattern`` (the others are not run)."""
    docstring = ast.get_docstring(ast.parse(script.read_text()), clean=False)
    assert docstring, f"{script.name}: no module docstring (sphinx-gallery needs a title)"
    lines = [line.rstrip() for line in docstring.strip("\n").splitlines()]
    title, underline = lines[0], lines[1]
    assert title.strip() and re.fullmatch(r"=+", underline), (
        f"{script.name}: the docstring must open with a title underlined by '='")
    assert len(underline) >= len(title), f"{script.name}: the title's underline is too short"
    assert len(lines) > 3 and any(line.strip() for line in lines[2:]), (
        f"{script.name}: a title and nothing to say")
    conf = _conf()
    assert re.search(conf["filename_pattern"], str(script)), (
        f"{script.name} does not match sphinx_gallery_conf['filename_pattern']: it would not run")
    assert not re.search(conf["ignore_pattern"], str(script))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_gallery_script_is_referenced_from_the_user_guide(script):
    label = f"sphx_glr_auto_examples_{script.stem}.py"
    pages = [p for p in (DOCS / "user_guide").glob("*.rst") if label in p.read_text()]
    assert pages, f"no user-guide page links to {script.name} (:ref:`{label}`)"


def test_api_page_lists_every_exported_estimator():
    """docs/api.rst's autosummary holds every name of repro.solvers.__all__ (and the
    helpers the README uses), so a new estimator cannot be left out of the reference."""
    from repro import solvers
    listed = set(re.findall(r"^   (\w+)$", (DOCS / "api.rst").read_text(), re.M))
    missing = {*solvers.__all__, "PrecomputedGram"} - listed
    assert not missing, f"docs/api.rst does not list {sorted(missing)}"


def _plain_docstrings():
    spec = importlib.util.spec_from_file_location("plain_docstrings",
                                                  DOCS / "_ext" / "plain_docstrings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("line, expected", [
    ("stop when |g'Qg| <= tol", "stop when \\|g'Qg\\| <= tol"),
    ("|PG| <= 1e-12).", "\\|PG\\| <= 1e-12)."),
    ("``converged_`` is False", "``converged_`` is False"),
    ("converged_ is False, n_iter_: int", "converged\\_ is False, n_iter\\_: int"),
    ("see :class:`~repro.solvers.SMO` and [1]_", "see :class:`~repro.solvers.SMO` and [1]_"),
    ("**support_** : ndarray", "**support_** : ndarray"),
    ("| a line block", "| a line block"),
    ("+------+------+", "+------+------+"),
    (">>> clf.n_iter_", ">>> clf.n_iter_"),
])
def test_plain_docstrings_escapes_only_stray_markup(line, expected):
    assert _plain_docstrings().escape_lines([line]) == [expected]


def test_plain_docstrings_leaves_math_and_literal_blocks_alone():
    escape = _plain_docstrings().escape_lines
    math = [".. math::", "", "   \\|w\\|_1 = |w|_1 + x_", "", "after |x|"]
    assert escape(math) == math[:-1] + ["after \\|x\\|"]
    literal = ["An example::", "", "    a|b n_", "", "back |y|"]
    assert escape(literal) == literal[:-1] + ["back \\|y\\|"]
    note = [".. note::", "", "   the |x| of converged_"]
    assert escape(note) == [".. note::", "", "   the \\|x\\| of converged\\_"]
    across = ["a step with ``|a2 - alph2| < eps_step (a2 +", "alph2 + eps_step)`` is |refused|"]
    assert escape(across) == [across[0], "alph2 + eps_step)`` is \\|refused\\|"]
    reference = ["see `LIBSVM <https://x.y/a_b_>`_ and `c_`__ then d_"]
    assert escape(reference) == ["see `LIBSVM <https://x.y/a_b_>`_ and `c_`__ then d\\_"]


def _sphinx_missing() -> str | None:
    missing = [name for name in DOCS_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        return (f"{', '.join(missing)} not installed: the docs extra "
                "(pip install -e '.[docs]') builds the site")
    return None


def _seconds(text: str) -> float:
    minutes, seconds = text.split(":")
    return 60 * int(minutes) + float(seconds)


@pytest.mark.slow
def test_site_builds_offline_with_warnings_as_errors(tmp_path, data_env):
    reason = _sphinx_missing()
    if reason:
        pytest.skip(reason)
    source = tmp_path / "docs"
    shutil.copytree(DOCS, source, ignore=shutil.ignore_patterns(
        "_build", "auto_examples", "gen_modules", "sg_execution_times.rst", "__pycache__"))
    out = tmp_path / "html"
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(source), str(out)],
        capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert run.returncode == 0, (run.stdout[-4000:] + "\n" + run.stderr[-8000:])
    assert "build succeeded" in run.stdout + run.stderr

    assert (out / "index.html").is_file()
    for page in ["getting_started", "api", "reproducing", "user_guide/index",
                 "auto_examples/index"]:
        assert (out / f"{page}.html").is_file(), page

    from repro import solvers
    for name in [*solvers.__all__, "PrecomputedGram"]:
        assert (out / "gen_modules" / f"repro.solvers.{name}.html").is_file(), name

    gallery_index = (out / "auto_examples" / "index.html").read_text()
    for script in SCRIPTS:
        assert (out / "auto_examples" / f"{script.stem}.html").is_file(), script.name
        assert f"{script.stem}.html" in gallery_index, f"{script.name} not in the gallery's index"
        assert (out / "_images" / f"sphx_glr_{script.stem}_001.png").is_file(), (
            f"{script.name} made no figure")

    # every script ran, each in under a minute (sphinx-gallery's own timing)
    times = {}
    for match in re.finditer(r"examples/(plot_\w+)\.py``\)\s*\n\s*- (\d+:\d+\.\d+)",
                             (source / "sg_execution_times.rst").read_text()):
        times[match.group(1)] = _seconds(match.group(2))
    assert set(times) == {p.stem for p in SCRIPTS}, times
    slow = {name: t for name, t in times.items() if t >= 60}
    assert not slow, f"gallery scripts over a minute: {slow}"
