"""Where a dataset file comes from: cache, mirror, canonical URL; sha256 checks.

Order of lookup for every file of the registry (:class:`~repro.datasets.registry.FileSpec`):

1. the cache ``$REPRO_DATA_DIR`` (default ``pooch.os_cache("repro")``, e.g.
   ``~/.cache/repro``), laid out like the mirror (``libsvm/a1a``, ``uci/glass.data``);
2. the mirror (a folder laid out like ``shared/datasets``), copied into the cache;
   found by :func:`mirror_dir`: ``$REPRO_DATA_MIRROR`` when set (set empty: no
   mirror), else ``../shared/datasets`` beside the repository checkout the package is
   imported from (``pip install -e .`` or ``PYTHONPATH``), if that folder exists;
3. the canonical URL, downloaded into the cache.

Checks. A file entering the cache is hashed while it is copied or downloaded, into
a temporary ``.<name>.*.part`` beside its target, flushed to disk and renamed into place
only when its sha256 is right, so an interrupted fetch never leaves a corrupt file
(leftover ``*.part`` files are never read).

A cache file is hashed in full on its first use in each process, then trusted for the
rest of the process while its stat signature (device, inode, size, mtime, ctime) stays
the same; ``REPRO_VERIFY=full`` hashes it on every use. Nothing trusts a file across
processes, so a file edited in place with its size and mtime put back, or rotted on
disk, is caught by the next process that uses it. A cache copy that fails is moved
aside to ``<name>.corrupt-<UTC time>`` (kept for inspection, never read) and fetched
again from the mirror or the URL, with a warning naming the refused copies; when no
good copy can be had, :class:`ChecksumError` names it, every place tried and what to
do. A copy that failed a check is never accepted by a later one, in this process or
another. :func:`forget_verified` (``repro.datasets.clear_memo``)
makes the next use hash again, as in a new process. The loader keys its parsed
arrays by the hash checked here, so they never outlive the bytes they came from.

Cost (AMD EPYC, 2 cores, files in the page cache, ``hashlib.file_digest``, best of
7): sha256 runs at about 1.85 GB/s; the largest files of the mirror take 1.9 ms
(``libsvm/w8a``, 3.48 MB), 1.8 ms (``uci/Skin_NonSkin.txt``, 3.40 MB) and 1.4 ms
(``libsvm/ijcnn1.tst.tick.bz2``, 2.60 MB), the whole mirror (109 files, 39.7 MB)
26 ms; hashing adds 0.4-1.6 % to a first load (w8a 2.0 of 126 ms, a9a 1.4 of 92 ms,
skin 2.0 of 466 ms, parsers already imported). After the first
use a file costs one ``stat`` and a dict lookup: :func:`ensure_file` 8.7 us (24 us
before, when it read a size + mtime stamp), a memoised ``load("heart_scale")`` 12 us
(43 us before). The fsync before each rename adds about 0.2 ms per file written.

Files whose sha256 is unknown (absent from the mirror): a copy found in the cache or
the mirror is trusted on first use (warning; its hash goes into a stamp
``.stamps/<path>.json`` and every later copy, fetched again or not, must match it:
delete the stamp to accept another). A download of such a file is refused, with the
computed hash in the message, unless ``REPRO_ALLOW_UNVERIFIED=1`` (then: warning and
stamp), or unless the registry marks the file ``record_first_hash`` (the NESVM image
archives, whose hash nobody could establish before downloading them): then the first
download is accepted and its hash recorded in the stamp, and every later download or
cache copy is held to it (a different one is refused with :class:`ChecksumError`);
the dataset table says "sha256 recorded at first download" for such files.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import socket
import time
import urllib.parse
import urllib.request
import warnings
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from .._io import atomic_path, write_text_atomic
from .errors import ChecksumError, DatasetUnavailableError

# Indirection so that tests can replace the network with a local file or a fake.
urlopen = urllib.request.urlopen
DOWNLOAD_TIMEOUT = 60


class UnverifiedFileError(OSError):
    """A download whose sha256 nobody has recorded; refused by default."""


def data_dir() -> Path:
    env = os.environ.get("REPRO_DATA_DIR")
    if env:
        return Path(env).expanduser()
    try:
        import pooch

        return Path(pooch.os_cache("repro"))
    except ImportError:  # pooch is a dependency, but the cache path should not need it
        return Path.home() / ".cache" / "repro"


class Mirror(NamedTuple):
    """The mirror folder (None: no mirror) and how it was found, in words."""
    path: Path | None
    how: str


def checkout_of(package_dir: Path) -> Path | None:
    """The repository checkout that holds the package folder ``package_dir``, or None
    when the package is an installed copy (site-packages holds no pyproject.toml)."""
    root = Path(package_dir).parent
    return root if (root / "pyproject.toml").is_file() else None


@lru_cache(maxsize=1)
def _checkout() -> Path | None:
    # where this very package was imported from: it does not move within a process
    return checkout_of(Path(__file__).resolve().parents[1])


def mirror_dir() -> Mirror:
    """Where the offline mirror is: the one rule of the library, the command line, the
    workflow and the tests.

    1. ``REPRO_DATA_MIRROR`` when set (to the empty string: no mirror);
    2. else ``<checkout>/../shared/datasets`` when the package is imported from a
       repository checkout and that folder exists (the layout the mirror is shipped in);
    3. else none: an installed package has no checkout to look beside.
    """
    env = os.environ.get("REPRO_DATA_MIRROR")
    if env is not None:
        if env:
            return Mirror(Path(env).expanduser(), "set by REPRO_DATA_MIRROR")
        return Mirror(None, "REPRO_DATA_MIRROR set empty: no mirror")
    root = _checkout()
    if root is None:
        return Mirror(None, "REPRO_DATA_MIRROR not set; the package is installed, not "
                            "imported from a checkout, so there is no ../shared/datasets beside it")
    beside = root.parent / "shared" / "datasets"
    if beside.is_dir():
        return Mirror(beside, f"REPRO_DATA_MIRROR not set; found beside the checkout {root}")
    return Mirror(None, f"REPRO_DATA_MIRROR not set and no {beside} beside the checkout")


def configure(mirror=None, cache=None):
    """Set the mirror and/or cache for this process and the processes it starts
    (the workflow calls this once, so every job sees the same locations).
    ``None`` leaves a setting as it is."""
    if mirror is not None:
        os.environ["REPRO_DATA_MIRROR"] = str(Path(mirror).expanduser().resolve())
    if cache is not None:
        os.environ["REPRO_DATA_DIR"] = str(Path(cache).expanduser().resolve())


def allow_unverified() -> bool:
    return os.environ.get("REPRO_ALLOW_UNVERIFIED", "") == "1"


def sha256_file(path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


# ---------------------------------------------------------------- stamps
def _stamp_path(rel: str) -> Path:
    return data_dir() / ".stamps" / f"{rel}.json"


def _read_stamp(rel):
    try:
        return json.loads(_stamp_path(rel).read_text())
    except (OSError, ValueError):
        return None


def _write_stamp(rel, sha, verified: bool, origin: str):
    write_text_atomic(_stamp_path(rel), json.dumps(
        dict(sha256=sha, verified=verified, origin=origin), indent=1))


def _judge(actual, fs, where, hint):
    """Is a copy of ``fs`` whose sha256 is ``actual`` acceptable?

    True: it has a hash the registry records. False: it has the hash recorded in its
    stamp when a copy was first accepted unverified. None: nobody knows the hash (the
    caller decides whether to trust it on first use). Raises :class:`ChecksumError`.
    """
    known = {h for h in (fs.sha256, fs.url_sha256) if h}
    if actual in known:
        return True
    stamp = _read_stamp(fs.path)
    # A download whose content legitimately differs from the mirror copy, or a file the
    # registry has no hash for, is held to the hash recorded when it was first accepted.
    tofu = stamp["sha256"] if stamp and stamp.get("verified") is False else None
    if actual == tofu:
        return False
    if tofu:
        hint = (f"{hint}; the hash expected is the one recorded when a copy was first accepted "
                f"unverified: delete {_stamp_path(fs.path)} to accept a different copy")
    expected = sorted(known | ({tofu} if tofu else set()))
    if expected:
        raise ChecksumError(where, " or ".join(expected), actual, hint)
    return None


# ---------------------------------------------------------------- verification in a process
# Trust never crosses processes: a size + mtime stamp did, and served a file edited in
# place with its mtime put back (os.utime), or rotted on disk, as good.
_VERIFIED: dict = {}  # str(path) -> (signature, sha256, verified)
_REJECTED: dict = {}  # str(path) -> signature of the copy that failed its check


def _signature(st):
    # ctime as well: os.utime can put an edited file's mtime back, but sets its ctime
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def forget_verified():
    """Forget which cache files this process has verified (and refused), so that the next
    use of each file hashes it again, as the first use in a new process does."""
    _VERIFIED.clear()
    _REJECTED.clear()


def verified_hash(path) -> tuple[str, bool]:
    """``(sha256, verified)`` of a cache file that :func:`ensure_file` returned in this
    process; ``verified`` is False for a file accepted without a registry hash."""
    _sig, sha, verified = _VERIFIED[str(path)]
    return sha, verified


def _trust(path: Path, sha, verified):
    _VERIFIED[str(path)] = (_signature(path.stat()), sha, verified)
    _REJECTED.pop(str(path), None)


def check_cached(path: Path, fs) -> str:
    """Verify a cache file against the registry (or its trust-on-first-use stamp):
    hashed on its first use in this process (every use with ``REPRO_VERIFY=full``)."""
    key = str(path)
    memo = _VERIFIED.get(key)
    if (memo and memo[0] == _signature(path.stat())
            and os.environ.get("REPRO_VERIFY") != "full"):
        return memo[1]
    _VERIFIED.pop(key, None)
    with open(path, "rb") as f:
        # the signature of the bytes hashed: a write during hashing changes the file's
        # ctime, so the next use hashes again
        sig = _signature(os.fstat(f.fileno()))
        actual = hashlib.file_digest(f, "sha256").hexdigest()
    try:
        verified = _judge(actual, fs, path, "the cache copy is corrupted")
    except ChecksumError:
        _REJECTED[key] = sig
        raise
    if verified is None:
        warnings.warn(f"{path}: sha256 unknown to the registry; trusting it on first use "
                      f"(sha256 {actual})", stacklevel=3)
        _write_stamp(fs.path, actual, False, "cache")
        verified = False
    _VERIFIED[key] = (sig, actual, verified)
    return actual


def _move_aside(path: Path) -> Path | None:
    """Rename a cache copy that failed its check to ``<name>.corrupt-<UTC time>``, kept for
    inspection; None when the file is no longer the copy that failed (another process
    has replaced it meanwhile)."""
    try:
        if _REJECTED.get(str(path)) != _signature(path.stat()):
            return None
        when = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        aside, n = path.with_name(f"{path.name}.corrupt-{when}"), 1
        while aside.exists():
            aside, n = path.with_name(f"{path.name}.corrupt-{when}-{n}"), n + 1
        os.replace(path, aside)
    except FileNotFoundError:  # another process moved it first
        return None
    _REJECTED.pop(str(path), None)
    return aside


# ---------------------------------------------------------------- obtaining files
def package_path(fs) -> Path | None:
    """Where the installed package of ``fs.package`` keeps the file (None: no such
    package, or the file is not in it). The package is located, not imported."""
    if fs.package is None:
        return None
    _, module, inside = fs.package
    found = importlib.util.find_spec(module)
    if found is None or not found.submodule_search_locations:
        return None
    path = Path(list(found.submodule_search_locations)[0]) / inside
    return path if path.is_file() else None


def where(fs) -> str:
    """Cheap availability of one file: 'cached', 'mirror', 'package', 'download' or
    'unavailable'."""
    if (data_dir() / fs.path).is_file():
        return "cached"
    m = mirror_dir().path
    if m is not None and (m / fs.path).is_file():
        return "mirror"
    if package_path(fs) is not None:
        return "package"
    if fs.derive is not None:
        src = where(fs.derive[0])
        if src != "unavailable":
            return src
    if fs.url and (fs.url_sha256 or fs.record_first_hash or allow_unverified()):
        return "download"
    return "unavailable"


def ensure_file(fs, *, download=True, reason="") -> tuple[Path, str]:
    """Return ``(path in cache, origin)`` for a registry file, fetching it if needed.

    origin is 'cache', 'mirror' or 'download'. A cache copy that fails its check is
    moved aside (``<name>.corrupt-<time>``) and fetched again, with a warning naming
    every copy refused. Raises :class:`ChecksumError` when copies were found but none
    good, :class:`DatasetUnavailableError` when none was found; both list every place
    tried (``reason`` says why the URL was not tried when ``download`` is false).
    """
    tried: list[str] = []
    bad: list[ChecksumError] = []
    out = _ensure(fs, download, tried, bad, reason)
    if out is not None:
        if bad:
            lines = "\n".join(f"  - {t}" for t in tried)
            warnings.warn(f"{fs.path}: copies refused (sha256 mismatch) before a good one "
                          f"came from the {out[1]}:\n{lines}", stacklevel=2)
        return out
    if bad:
        b = bad[0]
        raise ChecksumError(
            b.path, b.expected, b.actual,
            (f"{b.hint}; " if b.hint else "") + "no good copy could be had (refused copies are kept: the cache's moved aside "
            "as *.corrupt-*, the mirror's left in place); put a good copy in the mirror "
            "(REPRO_DATA_MIRROR) or let the file be downloaded, then load again", tried)
    raise DatasetUnavailableError(f"file {fs.path!r}", tried)


def _refused(e: ChecksumError) -> str:
    return f"sha256 {e.actual}, expected {e.expected}"


def _ensure(fs, download, tried, bad, reason=""):
    dest = data_dir() / fs.path
    if dest.is_file():
        try:
            check_cached(dest, fs)
            return dest, "cache"
        except ChecksumError as e:
            try:
                aside = _move_aside(dest)
            except OSError as err:
                raise ChecksumError(dest, e.expected, e.actual,
                                    f"could not move it aside ({err}); delete it") from err
            if aside is None:  # replaced by another process since it failed: judge that one
                return _ensure(fs, download, tried, bad, reason)
            tried.append(f"cache: {dest} ({_refused(e)}; moved aside to {aside.name})")
            bad.append(e)
    else:
        tried.append(f"cache: {dest} (absent)")

    m, how = mirror_dir()
    if m is None:
        tried.append(f"mirror: none ({how})")
    elif (m / fs.path).is_file():
        try:
            _admit(m / fs.path, dest, fs, "mirror")
            return dest, "mirror"
        except ChecksumError as e:
            tried.append(f"mirror: {m / fs.path} ({_refused(e)})")
            bad.append(e)
    else:
        tried.append(f"mirror: {m / fs.path} (absent)")

    if fs.package is not None:  # a copy an installed package ships
        src = package_path(fs)
        if src is None:
            tried.append(f"package: {fs.package[1]}/{fs.package[2]} (absent)")
        else:
            try:
                _admit(src, dest, fs, "package")
                return dest, "package"
            except ChecksumError as e:
                tried.append(f"package: {src} ({_refused(e)})")
                bad.append(e)

    if fs.derive is not None:  # e.g. page-blocks.data = uncompress(page-blocks.data.Z)
        src_fs, method = fs.derive
        got = _ensure(src_fs, download, tried, bad, reason)
        if got is not None:
            try:
                _derive(got[0], dest, fs, method)
                return dest, got[1]
            except ChecksumError as e:
                tried.append(f"derived: {e.path} ({_refused(e)})")
                bad.append(e)

    if not fs.url:
        tried.append("url: no canonical URL")
    elif not download:
        tried.append(f"url: {fs.url} (not attempted{': ' + reason if reason else ''})")
    else:
        try:
            _download(fs.url, dest, fs)
            return dest, "download"
        except ChecksumError as e:
            tried.append(f"url: {fs.url} ({_refused(e)})")
            bad.append(e)
        except Exception as e:  # noqa: BLE001 - every failure is reported, none hidden
            tried.append(f"url: {fs.url} ({type(e).__name__}: {e})")
    return None


def _copy_hashing(read, tmp: Path) -> str:
    h = hashlib.sha256()
    with open(tmp, "wb") as out:
        for block in iter(lambda: read(1 << 20), b""):
            out.write(block)
            h.update(block)
    return h.hexdigest()


def _admit(src: Path, dest: Path, fs, origin):
    """Copy a mirror (or installed package's) file into the cache, verifying its
    sha256 on the way."""
    with atomic_path(dest) as tmp:
        with open(src, "rb") as f:
            actual = _copy_hashing(f.read, tmp)
        verified = _judge(actual, fs, src, "the mirror copy is corrupted")
    if verified is None:
        warnings.warn(f"{src}: sha256 unknown to the registry; trusting it on first use "
                      f"(sha256 {actual})", stacklevel=4)
    _write_stamp(fs.path, actual, bool(verified), origin)
    _trust(dest, actual, bool(verified))


def _download(url, dest: Path, fs):
    with atomic_path(dest) as tmp:
        with urlopen(url, timeout=DOWNLOAD_TIMEOUT) as r:
            actual = _copy_hashing(r.read, tmp)
        verified = _judge(actual, fs, url, "download corrupted or changed upstream")
        if verified is None and not (allow_unverified() or fs.record_first_hash):
            raise UnverifiedFileError(
                f"downloaded, but no sha256 is recorded for it (computed {actual}); refused. "
                "Set REPRO_ALLOW_UNVERIFIED=1 to accept it, or record the hash in the registry")
    if verified is None:
        why = ("it is the file's first download (its hash is recorded; later copies must match it)"
               if fs.record_first_hash else "REPRO_ALLOW_UNVERIFIED=1")
        warnings.warn(f"{url}: no recorded sha256 for this download; accepted because {why} "
                      f"(sha256 {actual}, recorded in {_stamp_path(fs.path)})", stacklevel=4)
    _write_stamp(fs.path, actual, bool(verified), "download")
    _trust(dest, actual, bool(verified))


def _derive(src: Path, dest: Path, fs, method):
    if method != "unlzw":
        raise ValueError(f"unknown derivation {method!r}")
    with atomic_path(dest) as tmp:
        data = unlzw(src.read_bytes())
        tmp.write_bytes(data)
        actual = hashlib.sha256(data).hexdigest()
        verified = _judge(actual, fs, f"{dest} (uncompressed from {src})",
                          "the compressed file decodes to other data")
    _write_stamp(fs.path, actual, bool(verified), "derived")
    _trust(dest, actual, bool(verified))


def network_reachable(url: str, timeout=3.0) -> tuple[bool, str]:
    """Can we open a TCP connection to the URL's host? A cheap probe, so that the
    scikit-learn fetchers (which retry) are not attempted on an offline machine."""
    p = urllib.parse.urlparse(url)
    port = p.port or (443 if p.scheme == "https" else 80)
    try:
        socket.create_connection((p.hostname, port), timeout=timeout).close()
        return True, ""
    except OSError as e:
        return False, f"{p.hostname}:{port} unreachable ({e})"


# ---------------------------------------------------------------- unix compress (.Z)
def unlzw(buf: bytes) -> bytes:
    """Decompress a unix ``compress`` (.Z, LZW) file; the stdlib has no decoder.

    Follows ncompress: codes are LSB-first, 9 bits growing to ``maxbits``; on every
    width change or CLEAR the reader skips to the end of the current group of eight
    codes (the format's alignment quirk).
    """
    if buf[:2] != b"\x1f\x9d":
        raise ValueError("not a .Z (compress) file")
    maxbits, block_mode = buf[2] & 0x1F, bool(buf[2] & 0x80)
    data = buf[3:] + b"\0\0\0"
    total = (len(buf) - 3) * 8
    table = [bytes([i]) for i in range(256)] + ([b""] if block_mode else [])
    n_bits, pos, seg = 9, 0, 0
    prev = None
    out = []

    def align(pos, seg, n_bits):
        g = n_bits * 8
        return seg + -(-(pos - seg) // g) * g

    while pos + n_bits <= total:
        if len(table) > (1 << n_bits) - 1 and n_bits < maxbits:
            pos = seg = align(pos, seg, n_bits)
            n_bits += 1
            continue
        i = pos >> 3
        code = (int.from_bytes(data[i:i + 3], "little") >> (pos & 7)) & ((1 << n_bits) - 1)
        pos += n_bits
        if prev is None:
            prev = table[code]
            out.append(prev)
            continue
        if code == 256 and block_mode:
            pos = seg = align(pos, seg, n_bits)
            n_bits = 9
            del table[256:]
            continue
        if code < len(table):
            entry = table[code]
        elif code == len(table):
            entry = prev + prev[:1]
        else:
            raise ValueError("corrupt .Z data")
        out.append(entry)
        if len(table) < (1 << maxbits):
            table.append(prev + entry[:1])
        prev = entry
    return b"".join(out)
