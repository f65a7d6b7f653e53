"""The workflow's configuration values, read strictly (workflow/rules/common.smk).

The schema (workflow/schemas/config.schema.yaml) refuses an unknown key, a value of
the wrong kind and a scale outside its enum. What it cannot pin down is read here,
in one place: ``--config download=false`` reaches the workflow as the string
"false" (Snakemake turns only ``True`` and ``False`` into booleans), and
``bool("false")`` is True, so a value read loosely turned downloads on (issue 47).
A boolean is true or false in any case, or a real YAML boolean; anything else,
``no`` or ``flase`` included, is refused with the key and the accepted words,
before anything is planned.
"""
from __future__ import annotations

import os
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
