"""Render the package's plain-text docstrings as the text they are.

Many docstrings of ``repro`` are plain text within numpydoc sections, not
reStructuredText: ``|g'Qg|`` is an absolute value, not a substitution, and
``converged_`` is an attribute, not a hyperlink reference. Read as
reStructuredText, such text is an error (and fails a ``-W`` build). This handler
runs after numpydoc has turned the sections into reStructuredText and escapes,
outside inline literals (````...````, also across lines), interpreted text and
roles (```...```, ``:role:`...```), and directive or literal blocks whose content
is not text (``.. math::``, ``.. code-block::``, a paragraph ending in ``::``):

* a ``|``, except on a line of a grid table or a line block (``| `` or ``+-``
  opening it),
* the trailing ``_`` of a word (``n_iter_`` -> ``n_iter\\_``).

Escaped text renders as written, so a docstring already written as
reStructuredText renders the same.
"""
from __future__ import annotations

import re

_OPENER = re.compile(r"``|(?::[\w.+-]+:)?`")
_TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?=[\s,.;:)\]}'\"]|$)")
_DIRECTIVE = re.compile(r"^\s*\.\. [\w:-]+::")
# directives whose content is not reStructuredText text: kept verbatim
_VERBATIM = re.compile(
    r"^\s*\.\. (math|code-block|code|sourcecode|doctest|testcode|testoutput|raw|"
    r"literalinclude|plot|ipython|parsed-literal)::"
)
_KEPT_LINES = ("| ", "+-", "+=", ">>>", "...")


def _escape_plain(piece: str) -> str:
    piece = piece.replace("\\|", "\0").replace("|", "\\|").replace("\0", "\\|")
    return _TRAILING_UNDERSCORE.sub(r"\\_", piece)


def _escape_text(text: str, open_markup: str | None) -> tuple[str, str | None]:
    """Escape one line; ``open_markup`` is the inline markup (```` or `) left open
    by the line before, the return's second item the one this line leaves open."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if open_markup:
            j = text.find(open_markup, i)
            if j < 0:
                out.append(text[i:])
                return "".join(out), open_markup
            end = j + len(open_markup)
            if open_markup == "`":                   # `target`_ and `anonymous`__
                while end < len(text) and end - j <= 2 and text[end] == "_":
                    end += 1
            out.append(text[i:end])
            i, open_markup = end, None
            continue
        match = _OPENER.search(text, i)
        if match is None:
            out.append(_escape_plain(text[i:]))
            break
        out.append(_escape_plain(text[i:match.start()]))
        out.append(match.group())
        i = match.end()
        open_markup = "``" if match.group() == "``" else "`"
    return "".join(out), open_markup


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def escape_lines(lines: list[str]) -> list[str]:
    """The docstring's lines with stray ``|`` and trailing ``_`` escaped."""
    out: list[str] = []
    block_indent: int | None = None            # inside a verbatim block
    open_markup: str | None = None             # inline markup open across lines
    for line in lines:
        stripped = line.strip()
        if not stripped:
            open_markup = None                 # inline markup ends with its paragraph
        if block_indent is not None:
            if stripped and _indent(line) <= block_indent:
                block_indent = None
            else:
                out.append(line)
                continue
        if _VERBATIM.match(line):
            block_indent, open_markup = _indent(line), None
            out.append(line)
            continue
        if _DIRECTIVE.match(line) or stripped.startswith(_KEPT_LINES) or stripped == "|":
            out.append(line)
            continue
        escaped, open_markup = _escape_text(line, open_markup)
        out.append(escaped)
        if stripped.endswith("::") and open_markup is None:
            block_indent = _indent(line)
    return out


def _process(app, what, name, obj, options, lines):  # noqa: ARG001 (Sphinx's signature)
    lines[:] = escape_lines(lines)


def setup(app):
    # numpydoc mangles the docstring at the default priority (500); run after it
    app.connect("autodoc-process-docstring", _process, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
