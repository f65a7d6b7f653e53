"""Atomic file output, so an interrupted run never leaves a half-written result.

Everything the package writes (fetched datasets, workflow outputs, tables)
goes to a temporary file in the target's folder and is renamed into place
only when complete; a rename within one folder is atomic on POSIX.
"""
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path


# Read once: os.umask can only be read by setting it, which is unsafe once threads run.
_UMASK = os.umask(0)
os.umask(_UMASK)


@contextmanager
def atomic_path(path):
    """Yield a temporary path beside ``path``; flush it to disk and rename it to
    ``path`` on success, delete it on error. A process killed meanwhile leaves only
    the temporary ``.<name>.*.part``, which nothing reads."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the file the usual mode
    try:
        yield Path(tmp)
        # Data first, then the name: without the fsync a crash soon after the rename can
        # leave the name on a file whose data never reached the disk (empty or partial).
        fd = os.open(tmp, os.O_RDWR)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path, text):
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_bytes_atomic(path, data: bytes):
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


@contextmanager
def log_to(path):
    """Send stdout and stderr to ``path`` for the duration of a workflow job
    (Snakemake's ``log:``), closing the file afterwards. An exception raised
    inside leaves its traceback in the log before it propagates, so a failed
    job's log says why it failed (Snakemake only points at the log)."""
    import sys
    import traceback

    with open(path, "w", encoding="utf-8") as log:
        old = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = log
        try:
            yield log
        except BaseException:
            traceback.print_exc(file=log)
            raise
        finally:
            sys.stdout, sys.stderr = old
