"""The workflow's configuration values, read strictly (workflow/rules/common.smk).

The schema (workflow/schemas/config.schema.yaml) refuses an unknown key, a value of
the wrong kind and a scale outside its enum. What it cannot pin down is read here,
in one place: ``--config download=false`` reaches the workflow as the string
"false" (Snakemake turns only ``True`` and ``False`` into booleans), and
``bool("false")`` is True, so a value read loosely turned downloads on (issue 47).
A boolean is true or false in any case, or a real YAML boolean; anything else,
``no`` or ``flase`` included, is refused with the key and the accepted words,
before anything is planned. Under a cluster executor, :func:`shared_storage`
refuses a data cache or mirror that the jobs on the compute nodes could not
reach (on the submitting machine's own storage, or a cache that cannot be made).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

BOOLEAN_WORDS = ("true", "false")
DOWNLOAD_WORDS = ("auto", *BOOLEAN_WORDS)


class ConfigError(ValueError):
    """A configuration value the workflow does not accept; the message names the
    key, the value and what is accepted."""


class Settings(NamedTuple):
    """The values of the keys the schema leaves loose, read."""

    reuse_records: bool
    download: bool | str  # True, False or "auto"
    data_mirror: Path | None  # None: the package's own rule (REPRO_DATA_MIRROR, ...)
    data_cache: Path | None
    recompute: list  # table ids, or ["all"]


def boolean(key: str, value) -> bool:
    """``value`` of config ``key`` as a boolean: a YAML boolean, or the word true
    or false in any case (``--config reuse_records=FALSE``); nothing else, so that
    a misspelling is not read as true."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in BOOLEAN_WORDS:
        return value.lower() == "true"
    raise ConfigError(
        f"config {key}: {value!r} is not a boolean; accepted: true or false (any case)"
    )


def download(value) -> bool | str:
    """config download: "auto" (only when the canonical hosts answer, decided by
    the workflow), or a boolean as :func:`boolean` reads it."""
    if value == "auto":
        return value
    try:
        return boolean("download", value)
    except ConfigError:
        raise ConfigError(
            f"config download: {value!r} is not one of {', '.join(DOWNLOAD_WORDS)} "
            "(true and false in any case)"
        ) from None


# YAML's words for null: what --config data_mirror=null passes (Snakemake reads the
# command line's values with YAML's base loader, which leaves them strings)
NULL_WORDS = ("", "null", "~")


def optional_path(key: str, value) -> Path | None:
    """A folder setting: None (null, or empty: ``--config data_mirror=``) means unset."""
    if value is None or (isinstance(value, str) and value.lower() in NULL_WORDS):
        return None
    if not isinstance(value, str):
        raise ConfigError(f"config {key}: {value!r} is not a path")
    return Path(value).expanduser()


def existing_folder(name: str, path: Path, otherwise: str) -> Path:
    """``path``, refused unless it is a folder. ``name`` says where the path came
    from (``config data_mirror``, ``REPRO_DATA_MIRROR``), ``otherwise`` what else
    it may be: a mirror that is not there would make its datasets "unavailable"
    and quietly shrink the plan (issue 47: 178 steps planned instead of 245)."""
    if path.is_dir():
        return path
    what = "is not a folder" if path.exists() else "does not exist"
    raise ConfigError(
        f"{name}: the dataset mirror {path} {what}; give the mirror's folder "
        f"(laid out like ../shared/datasets), {otherwise}"
    )


def names(value) -> list:
    """A list of names, or one name given alone (``--config recompute=ldm_table4``)."""
    if not value:
        return []
    return [value] if isinstance(value, str) else list(value)


def read(config: dict) -> Settings:
    """The loose values of ``config`` (after the schema's check), read strictly."""
    return Settings(
        reuse_records=boolean("reuse_records", config["reuse_records"]),
        download=download(config["download"]),
        data_mirror=optional_path("data_mirror", config.get("data_mirror")),
        data_cache=optional_path("data_cache", config.get("data_cache")),
        recompute=names(config.get("recompute")),
    )


def mirror(settings: Settings, environment=os.environ) -> Path | None:
    """The mirror folder given for this run, checked: config data_mirror, else
    REPRO_DATA_MIRROR when set (empty: no mirror). None: none given (the package's
    own rule then looks beside the checkout, for a folder that exists). A folder
    that does not exist is refused, naming where it was given."""
    if settings.data_mirror is not None:
        return existing_folder(
            "config data_mirror",
            settings.data_mirror,
            "or null for REPRO_DATA_MIRROR's (else ../shared/datasets beside the checkout)",
        )
    env = environment.get("REPRO_DATA_MIRROR")
    if env:
        return existing_folder(
            "REPRO_DATA_MIRROR (config data_mirror is null)",
            Path(env).expanduser(),
            "or set it empty for no mirror",
        )
    return None


# -- Storage a cluster's jobs must share -------------------------------------------------
# Folders that are each machine's own: a data cache (or mirror) there is seen by the
# submitting host's steps but not by the jobs on the compute nodes.
NODE_LOCAL_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run")
# Environment variables naming one machine's (or one job's) own scratch folder
NODE_LOCAL_VARIABLES = ("TMPDIR", "XDG_RUNTIME_DIR")
# Filesystems held in one machine's memory
MEMORY_FILESYSTEMS = ("tmpfs", "ramfs")


def _mount_type(path: Path, mounts: Path) -> str | None:
    """The filesystem type of the mount that holds ``path`` (from /proc/mounts), or
    None where that cannot be read."""
    try:
        lines = mounts.read_text().splitlines()
    except OSError:
        return None
    best, kind = "", None
    for line in lines:
        fields = line.split()
        if len(fields) < 3:
            continue
        # /proc/mounts writes a space in a mount point as \040 (octal escapes)
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[1])
        inside = str(path) == point or str(path).startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, fields[2]
    return kind


def node_local(path: Path, environment=os.environ, mounts=Path("/proc/mounts")) -> str | None:
    """Why ``path`` is on one machine's own storage, in words, or None where
    nothing says so: under /tmp, /var/tmp, /dev/shm or /run, under $TMPDIR or
    $XDG_RUNTIME_DIR (unless that folder holds your home), or on a filesystem in
    memory (tmpfs). Paths are compared resolved (symbolic links followed)."""
    path = Path(path).expanduser().resolve()
    home = Path.home().resolve()

    def under(folder: Path) -> bool:
        return path == folder or folder in path.parents

    for folder in NODE_LOCAL_FOLDERS:
        if under(Path(folder).resolve()):
            return f"under {folder}"
    for name in NODE_LOCAL_VARIABLES:
        value = environment.get(name)
        if not value:
            continue
        folder = Path(value).expanduser().resolve()
        if folder != Path(folder.anchor) and not (home == folder or folder in home.parents) \
                and under(folder):
            return f"under ${name} ({folder})"
    kind = _mount_type(path, Path(mounts))
    if kind in MEMORY_FILESYSTEMS:
        return f"on a {kind} filesystem (in one machine's memory)"
    return None


def _creatable(path: Path) -> str | None:
    """Why the folder ``path`` cannot be used (not a folder, not writable, cannot be
    created), or None; nothing is created."""
    path = Path(path).expanduser()
    if path.exists():
        if not path.is_dir():
            return "is not a folder"
        return None if os.access(path, os.W_OK | os.X_OK) else "is not writable"
    parent = next((p for p in path.parents if p.exists()), None)
    if parent is None or not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        return f"does not exist and cannot be created (no writable folder {parent} above it)"
    return None


def data_cache(settings: Settings, environment=os.environ) -> tuple:
    """The data cache this run uses and where it was set, in words: config
    data_cache, else REPRO_DATA_DIR, else the package's per-user default
    (repro.datasets.sources.data_dir)."""
    if settings.data_cache is not None:
        return settings.data_cache, "config data_cache"
    if environment.get("REPRO_DATA_DIR"):
        return Path(environment["REPRO_DATA_DIR"]).expanduser(), "REPRO_DATA_DIR (config data_cache is null)"
    from repro.datasets.sources import data_dir

    return data_dir(), "the per-user default (config data_cache and REPRO_DATA_DIR unset)"


def shared_storage(settings: Settings, mirror: Path | None, executor: str,
                   environment=os.environ, mounts=Path("/proc/mounts")) -> None:
    """Refuse, under a cluster executor (``executor``: its name), a data cache or
    mirror the cluster's jobs could not reach where this machine can tell: on its
    own storage (:func:`node_local`), or a cache that does not exist and cannot be
    created. One line each, naming the setting and what to do."""
    cache, given = data_cache(settings, environment)
    why = node_local(cache, environment, mounts)
    if why is not None:
        raise ConfigError(
            f"{given}: the data cache {cache} is {why}, which the {executor} jobs on other "
            "nodes do not see; set config data_cache (--config data_cache=DIR) or "
            "REPRO_DATA_DIR to a folder on storage every compute node mounts (your home "
            "or project space)"
        )
    cannot = _creatable(cache)
    if cannot is not None:
        raise ConfigError(
            f"{given}: the data cache {cache} {cannot}; set config data_cache "
            "(--config data_cache=DIR) or REPRO_DATA_DIR to a folder you can write on "
            "storage every compute node mounts"
        )
    why = None if mirror is None else node_local(mirror, environment, mounts)
    if why is not None:
        given = ("config data_mirror" if settings.data_mirror is not None
                 else "REPRO_DATA_MIRROR" if environment.get("REPRO_DATA_MIRROR")
                 else "the mirror found beside the checkout (REPRO_DATA_MIRROR unset)")
        raise ConfigError(
            f"{given}: the dataset mirror {mirror} is {why}, which the {executor} jobs on "
            "other nodes do not see; set config data_mirror or REPRO_DATA_MIRROR to a copy on "
            "storage every compute node mounts, or REPRO_DATA_MIRROR empty for none"
        )
