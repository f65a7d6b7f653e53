"""Every ```python block of README.md runs as written, warnings as errors; so does
every ``.. code-block:: python`` of the documentation pages that moved out of the
README (DOC_PAGES).

A new user copies these blocks first, so each is executed verbatim (from a
temporary working directory, with the dataset mirror of the ``data_env``
fixture) and any warning, a ConvergenceWarning included, fails the test.

Namespaces: each block runs in a fresh namespace, as a reader pasting it into
a new interpreter would, except a block that obviously continues the previous
one: one that reads a name it neither binds nor imports nor finds among the
builtins, which the previous block binds (a README writes such a block as the
next lines of the same session). Such a block runs after the blocks it
continues, in their namespace. A block that reads a name no earlier block
binds fails with that name, rather than with a NameError halfway through.
"""
import ast
import builtins
import re
import textwrap
import warnings
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
_FENCE = re.compile(r"^```(?:python|py)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
# Pages of the documentation site whose Python blocks a reader copies as they would the
# README's (what the README held before it was cut to a five-minute read).
DOC_PAGES = [Path(__file__).resolve().parents[1] / "docs" / "estimators.rst"]
_RST_BLOCK = re.compile(r"^\.\. code-block:: python[ \t]*\n[ \t]*\n((?:(?:[ \t]+\S.*)?\n)+)", re.MULTILINE)


def _blocks(text):
    """(first line number of the code, code) of every python block."""
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in _FENCE.finditer(text)]


def _rst_blocks(text):
    """(first line number of the code, code) of every ``.. code-block:: python``."""
    return [(text.count("\n", 0, m.start(1)) + 1, textwrap.dedent(m.group(1)))
            for m in _RST_BLOCK.finditer(text)]


def _bound_and_read(code):
    """Names a block binds (assignments, imports, defs, loop and with targets)
    and the names it reads."""
    bound, read = set(), set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, (ast.Store, ast.Del)) else read).add(node.id)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound, read


def _sessions(text, blocks=_blocks):
    """Blocks grouped into sessions: a session is a block and the blocks that
    continue it (see the module docstring). Returns [(lines, [code, ...],
    unresolved names)]."""
    sessions = []
    for line, code in blocks(text):
        bound, read = _bound_and_read(code)
        free = read - bound - set(dir(builtins))
        if free and sessions and free & sessions[-1][3]:
            lines, codes, unresolved, session_bound = sessions[-1]
            sessions[-1] = (lines + [line], codes + [code],
                            unresolved | (free - session_bound), session_bound | bound)
        else:
            sessions.append(([line], [code], free, bound))
    return [(lines, codes, unresolved) for lines, codes, unresolved, _ in sessions]


SESSIONS = _sessions(README.read_text(encoding="utf-8"))


def test_readme_has_python_blocks():
    # guards the parametrisation below: a changed fence syntax would leave it empty
    assert SESSIONS, f"no ```python block found in {README}"


def test_continuation_rule():
    text = ("```python\nx = 1\n```\n\n```python\nprint(x + 1)\n```\n\n"
            "```python\nimport os\nprint(os.sep)\n```\n")
    assert [(lines, unresolved) for lines, _, unresolved in _sessions(text)] == [
        ([2, 6], set()), ([10], set())]


@pytest.mark.parametrize("lines,codes,unresolved", SESSIONS,
                         ids=["README.md:" + "+".join(map(str, s[0])) for s in SESSIONS])
def test_readme_block_runs(lines, codes, unresolved, data_env, tmp_path, monkeypatch):
    assert not unresolved, f"README.md block at line {lines[0]} reads names no block defines: {unresolved}"
    monkeypatch.chdir(tmp_path)  # whatever a block writes stays out of the repository
    namespace = {"__name__": "__readme__"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for line, code in zip(lines, codes):
            # padded so that a traceback names the README's own line numbers
            exec(compile("\n" * (line - 1) + code, str(README), "exec"), namespace)


DOC_SESSIONS = [(page, *session) for page in DOC_PAGES
                for session in _sessions(page.read_text(encoding="utf-8"), _rst_blocks)]


def test_doc_pages_have_python_blocks():
    assert {page for page, *_ in DOC_SESSIONS} == set(DOC_PAGES)


@pytest.mark.parametrize("page,lines,codes,unresolved", DOC_SESSIONS,
                         ids=[f"{s[0].name}:" + "+".join(map(str, s[1])) for s in DOC_SESSIONS])
def test_doc_page_block_runs(page, lines, codes, unresolved, data_env, tmp_path, monkeypatch):
    assert not unresolved, f"{page.name} block at line {lines[0]} reads names no block defines: {unresolved}"
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for line, code in zip(lines, codes):
            exec(compile("\n" * (line - 1) + code, str(page), "exec"), namespace)
