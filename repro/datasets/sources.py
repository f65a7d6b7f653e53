"""Where a dataset file comes from: cache, mirror, canonical URL; sha256 checks.

Order of lookup for every file of the registry (:class:`~repro.datasets.registry.FileSpec`):

1. the cache ``$REPRO_DATA_DIR`` (default ``pooch.os_cache("repro")``, e.g.
   ``~/.cache/repro``), laid out like the mirror (``libsvm/a1a``, ``uci/glass.data``);
2. the mirror ``$REPRO_DATA_MIRROR`` (a folder laid out like ``shared/datasets``),
   copied into the cache;
3. the canonical URL, downloaded into the cache.

Checks. A file entering the cache is hashed while it is copied or downloaded, into
a temporary ``.<name>.*.part`` beside its target, and renamed into place only when its
sha256 is right, so an interrupted fetch never leaves a corrupt file (leftover
``*.part`` files are never read). A stamp ``.stamps/<path>.json`` records the hash with
the file's size and mtime; a later load re-hashes only when size or mtime changed
(``REPRO_VERIFY=full`` re-hashes on every load).

Files whose sha256 is unknown (absent from the mirror): a copy found in the cache or
the mirror is trusted on first use (warning; its hash goes into the stamp and every
later load must match it). A download of such a file is refused, with the computed
hash in the message, unless ``REPRO_ALLOW_UNVERIFIED=1`` (then: warning and stamp).
"""
from __future__ import annotations

import hashlib
import json
import os
import socket
import urllib.parse
import urllib.request
import warnings
from pathlib import Path

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


def mirror_dir() -> Path | None:
    env = os.environ.get("REPRO_DATA_MIRROR")
    return Path(env).expanduser() if env else None


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


def sha256_file(path, chunk=1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(chunk), b""):
            h.update(block)
    return h.hexdigest()


# ---------------------------------------------------------------- stamps
def _stamp_path(rel: str) -> Path:
    return data_dir() / ".stamps" / f"{rel}.json"


def _read_stamp(rel):
    try:
        return json.loads(_stamp_path(rel).read_text())
    except (OSError, ValueError):
        return None


def _write_stamp(rel, path: Path, sha, verified: bool, origin: str):
    st = path.stat()
    stamp = dict(sha256=sha, size=st.st_size, mtime_ns=st.st_mtime_ns,
                 verified=verified, origin=origin)
    write_text_atomic(_stamp_path(rel), json.dumps(stamp, indent=1))


def _accepted_hashes(fs):
    return {h for h in (fs.sha256, fs.url_sha256) if h}


def check_cached(path: Path, fs) -> str:
    """Verify a cache file against the registry (or its trust-on-first-use stamp)."""
    st = path.stat()
    stamp = _read_stamp(fs.path)
    fresh = (stamp and stamp.get("size") == st.st_size
             and stamp.get("mtime_ns") == st.st_mtime_ns
             and os.environ.get("REPRO_VERIFY") != "full")
    actual = stamp["sha256"] if fresh else sha256_file(path)
    known = _accepted_hashes(fs)
    if actual in known:
        if not fresh:
            _write_stamp(fs.path, path, actual, True, (stamp or {}).get("origin", "cache"))
        return actual
    # Unknown-hash files (or a download whose content legitimately differs from the
    # mirror copy) are held to the hash recorded when they were first accepted.
    if stamp and stamp.get("verified") is False:
        if actual == stamp["sha256"]:
            return actual
        raise ChecksumError(path, stamp["sha256"], actual,
                            "differs from the hash recorded when it was accepted unverified")
    if not known:
        warnings.warn(f"{path}: sha256 unknown to the registry; trusting it on first use "
                      f"(sha256 {actual})", stacklevel=3)
        _write_stamp(fs.path, path, actual, False, "cache")
        return actual
    raise ChecksumError(path, " or ".join(sorted(known)), actual,
                        "delete the file to fetch it again")


# ---------------------------------------------------------------- obtaining files
def where(fs) -> str:
    """Cheap availability of one file: 'cached', 'mirror', 'download' or 'unavailable'."""
    if (data_dir() / fs.path).is_file():
        return "cached"
    m = mirror_dir()
    if m is not None and (m / fs.path).is_file():
        return "mirror"
    if fs.derive is not None:
        src = where(fs.derive[0])
        if src != "unavailable":
            return src
    if fs.url and (fs.url_sha256 or allow_unverified()):
        return "download"
    return "unavailable"


def ensure_file(fs, *, download=True, reason="") -> tuple[Path, str]:
    """Return ``(path in cache, origin)`` for a registry file, fetching it if needed.

    origin is 'cache', 'mirror' or 'download'. Raises :class:`ChecksumError` on a
    corrupted copy and :class:`DatasetUnavailableError` listing every place tried
    (``reason`` says why the URL was not tried when ``download`` is false).
    """
    tried: list[str] = []
    out = _ensure(fs, download, tried, reason)
    if out is None:
        raise DatasetUnavailableError(f"file {fs.path!r}", tried)
    return out


def _ensure(fs, download, tried, reason=""):
    dest = data_dir() / fs.path
    if dest.is_file():
        check_cached(dest, fs)
        return dest, "cache"
    tried.append(f"cache: {dest} (absent)")

    m = mirror_dir()
    if m is None:
        tried.append("mirror: REPRO_DATA_MIRROR not set")
    elif (m / fs.path).is_file():
        _admit(m / fs.path, dest, fs, "mirror")
        return dest, "mirror"
    else:
        tried.append(f"mirror: {m / fs.path} (absent)")

    if fs.derive is not None:  # e.g. page-blocks.data = uncompress(page-blocks.data.Z)
        src_fs, method = fs.derive
        got = _ensure(src_fs, download, tried, reason)
        if got is not None:
            _derive(got[0], dest, fs, method)
            return dest, got[1]

    if not fs.url:
        tried.append("url: no canonical URL")
    elif not download:
        tried.append(f"url: {fs.url} (not attempted{': ' + reason if reason else ''})")
    else:
        try:
            _download(fs.url, dest, fs)
            return dest, "download"
        except ChecksumError:
            raise
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
    """Copy a mirror file into the cache, verifying its sha256 on the way."""
    known = _accepted_hashes(fs)
    with atomic_path(dest) as tmp:
        with open(src, "rb") as f:
            actual = _copy_hashing(f.read, tmp)
        if known and actual not in known:
            raise ChecksumError(src, " or ".join(sorted(known)), actual,
                                "the mirror copy is corrupted")
    if not known:
        warnings.warn(f"{src}: sha256 unknown to the registry; trusting it on first use "
                      f"(sha256 {actual})", stacklevel=4)
    _write_stamp(fs.path, dest, actual, bool(known), origin)


def _download(url, dest: Path, fs):
    known = _accepted_hashes(fs)
    with atomic_path(dest) as tmp:
        with urlopen(url, timeout=DOWNLOAD_TIMEOUT) as r:
            actual = _copy_hashing(r.read, tmp)
        if actual in known:
            verified = True
        elif fs.url_sha256:  # the URL's content is known: a mismatch is corruption
            raise ChecksumError(url, fs.url_sha256, actual, "download corrupted or changed upstream")
        elif allow_unverified():
            warnings.warn(f"{url}: no recorded sha256 for this download; accepted because "
                          f"REPRO_ALLOW_UNVERIFIED=1 (sha256 {actual}, recorded)", stacklevel=4)
            verified = False
        else:
            raise UnverifiedFileError(
                f"downloaded, but no sha256 is recorded for it (computed {actual}); refused. "
                "Set REPRO_ALLOW_UNVERIFIED=1 to accept it, or record the hash in the registry")
    _write_stamp(fs.path, dest, actual, verified, "download")


def _derive(src: Path, dest: Path, fs, method):
    if method != "unlzw":
        raise ValueError(f"unknown derivation {method!r}")
    with atomic_path(dest) as tmp:
        data = unlzw(src.read_bytes())
        tmp.write_bytes(data)
        actual = hashlib.sha256(data).hexdigest()
        if fs.sha256 and actual != fs.sha256:
            raise ChecksumError(f"{dest} (uncompressed from {src})", fs.sha256, actual)
    _write_stamp(fs.path, dest, actual, bool(fs.sha256), "derived")


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
