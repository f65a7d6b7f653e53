"""Exceptions of :mod:`repro.datasets`."""


def _places(tried):
    return "\n".join(f"  - {t}" for t in tried)


class ChecksumError(ValueError):
    """A file's sha256 differs from the one the registry expects.

    The message names the file, the expected and the actual hash, what to do, and
    (``tried``) every place looked in for a good copy, so that no corrupt copy is
    accepted and the user knows where the bad ones are.
    """

    def __init__(self, path, expected, actual, hint="", tried=()):
        self.path, self.expected, self.actual = str(path), expected, actual
        self.hint, self.tried = hint, list(tried)
        msg = f"sha256 mismatch for {path}: expected {expected}, got {actual}"
        msg += f"; {hint}" if hint else ""
        if self.tried:
            msg += f"\ntried, in order:\n{_places(self.tried)}"
        super().__init__(msg)


class DatasetUnavailableError(LookupError, OSError):
    """No place could supply a dataset's file; the message lists every place tried."""

    def __init__(self, what, tried):
        self.what, self.tried = what, list(tried)
        super().__init__(f"{what} is not available; tried, in order:\n{_places(self.tried)}")

    def __str__(self):  # OSError.__str__ would drop the message when args has 1 item
        return self.args[0]


class ParseError(ValueError):
    """A file that cannot be read as its format says.

    Every parser failure is one of these, whatever the decoder or library raised
    underneath (kept as ``__cause__``), so that a corrupt cache entry or mirror copy
    can be found by hand: the message names the file and, for text formats, the line.
    """

    def __init__(self, path, msg, line=None):
        self.path, self.line = str(path), line
        where = f"{path}: line {line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {msg}")
