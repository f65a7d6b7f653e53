"""The workflow's configuration read strictly (repro.experiments.config, issue 47).

Snakemake passes ``--config download=false`` as the string "false", which
``bool()`` reads as true: on 40f4daa that planned downloads of covtype, rcv1 and
the image sets, ``download=no`` likewise, and ``reuse_records=flase`` meant true.
A mirror folder that does not exist was accepted and its sets dropped out of the
plan as unavailable. The schema declared draft-07 while Snakemake validates with
2020-12, so every run warned that the config might not be checked.
"""
import re

import jsonschema
import pytest
import yaml

from repro.experiments import config as C
from test_workflow import REPO, snakemake

SCHEMA = yaml.safe_load((REPO / "workflow" / "schemas" / "config.schema.yaml").read_text())
DEFAULTS = yaml.safe_load((REPO / "config" / "config.yaml").read_text())


@pytest.mark.parametrize("value, meaning", [
    (True, True), (False, False),  # real YAML booleans (a config file, --config x=True)
    ("true", True), ("false", False), ("TRUE", True), ("False", False), ("fAlSe", False),
])
def test_a_boolean_is_true_or_false_in_any_case(value, meaning):
    assert C.boolean("reuse_records", value) is meaning


@pytest.mark.parametrize("value", ["flase", "no", "yes", "0", "1", "off", "", 0, 1, None])
def test_any_other_boolean_is_refused_naming_the_key_and_the_words(value):
    with pytest.raises(C.ConfigError, match=re.escape(
            f"config reuse_records: {value!r} is not a boolean; accepted: true or false (any case)")):
        C.boolean("reuse_records", value)


@pytest.mark.parametrize("value, meaning", [
    ("auto", "auto"), ("false", False), ("FALSE", False), (False, False), ("True", True), (True, True),
])
def test_download_is_auto_or_a_boolean(value, meaning):
    assert C.download(value) == meaning and type(C.download(value)) is type(meaning)


@pytest.mark.parametrize("value", ["no", "flase", "Auto", "never", 0])
def test_any_other_download_is_refused_naming_the_accepted_words(value):
    with pytest.raises(C.ConfigError, match=re.escape(
            f"config download: {value!r} is not one of auto, true, false")):
        C.download(value)


def test_the_command_lines_words_mean_what_they_say():
    """What `--config download=false reuse_records=false` hands the workflow."""
    settings = C.read({**DEFAULTS, "download": "false", "reuse_records": "false",
                       "recompute": "ldm_table4", "data_cache": "null"})
    assert settings.download is False and settings.reuse_records is False
    assert settings.recompute == ["ldm_table4"] and settings.data_cache is None
    with pytest.raises(C.ConfigError, match="config reuse_records: 'flase'"):
        C.read({**DEFAULTS, "reuse_records": "flase"})


def test_a_mirror_that_is_not_a_folder_is_refused_naming_the_key_and_the_path(tmp_path):
    missing, a_file = tmp_path / "no-such-mirror", tmp_path / "MANIFEST.tsv"
    a_file.write_text("")
    for path, what in ((missing, "does not exist"), (a_file, "is not a folder")):
        settings = C.read({**DEFAULTS, "data_mirror": str(path)})
        with pytest.raises(C.ConfigError, match=re.escape(f"config data_mirror: the dataset mirror {path} {what}")):
            C.mirror(settings, environment={})
    # null: REPRO_DATA_MIRROR's, checked the same way; set empty, no mirror
    unset = C.read(DEFAULTS)
    with pytest.raises(C.ConfigError, match=re.escape(f"REPRO_DATA_MIRROR (config data_mirror is null): "
                                                      f"the dataset mirror {missing} does not exist")):
        C.mirror(unset, environment={"REPRO_DATA_MIRROR": str(missing)})
    assert C.mirror(unset, environment={"REPRO_DATA_MIRROR": ""}) is None
    assert C.mirror(unset, environment={"REPRO_DATA_MIRROR": str(tmp_path)}) == tmp_path
    assert C.mirror(C.read({**DEFAULTS, "data_mirror": str(tmp_path)}), environment={}) == tmp_path


def test_a_misspelt_key_is_refused_by_the_schema_at_every_level():
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for config in ({**DEFAULTS, "downlaod": False},
                   {**DEFAULTS, "unmeasured_resources": {"runtime": 1, "mem_mb": 1, "memmb": 1}}):
        errors = [e.message for e in validator.iter_errors(config)]
        assert any("'downlaod'" in e or "'memmb'" in e for e in errors), errors


def test_the_schema_declares_the_version_snakemake_validates_with():
    # snakemake.utils.validate validates with Draft202012Validator whatever the file
    # declares, and warns on every run when the two differ
    assert SCHEMA["$schema"] == jsonschema.Draft202012Validator.META_SCHEMA["$schema"]
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.slow
def test_download_false_plans_no_download_and_no_schema_warning(data_env, tmp_path):
    import repro.datasets as rd

    r = snakemake("-n", "--forceall", "--config", "download=false", f"results_dir={tmp_path}", "--", "data")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "No validator found" not in out, out
    planned = set(re.findall(r"wildcards: dataset=(\S+)", out))
    # what cache and mirror give (the subprocess sees this test's environment: data_env);
    # some sets need a download (covtype, rcv1, the image sets), else nothing is told apart
    offline = {n for n in rd.names() if rd.obtainable(n, download=False)}
    assert offline and offline != set(rd.names())
    assert planned == offline, (planned - offline, offline - planned)


def test_a_missing_mirror_is_refused_before_planning(data_env, tmp_path):
    missing = tmp_path / "no-such-mirror"
    r = snakemake("-n", "--config", f"data_mirror={missing}")
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert f"config data_mirror: the dataset mirror {missing} does not exist" in out, out
    assert "Building DAG" not in out
