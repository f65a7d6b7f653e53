# Fetch and verify every dataset obtainable here; list all of them with their status.


# A NESVM image set's feature matrix, built from its published archive(s) (download,
# verify, seeded draw, Gist / bag of words) into the data cache, progress in the log;
# the record says what was built (repro.datasets.image_features.build_summary).
rule image_features:
    input:
        plan_hook,
    output:
        image_features_record("{dataset}"),
    log:
        log_path("data", "features", "{dataset}.log"),
    wildcard_constraints:
        dataset=(
            "|".join(map(re.escape, IMAGE_FEATURE_SETS))
            if IMAGE_FEATURE_SETS
            else "$^"
        ),
    # on the submitting host: it downloads (a compute node may have no network)
    localrule: True
    conda:
        REPRO_ENV
    params:
        download=DOWNLOAD,
    script:
        "../scripts/image_features.py"


rule fetch_dataset:
    input:
        fetch_inputs,
    output:
        f"{DATA_RECORDS}/{{dataset}}.json",
    log:
        log_path("data", "{dataset}.log"),
    wildcard_constraints:
        dataset="|".join(map(re.escape, ALL_DATASETS)) if ALL_DATASETS else "$^",
    localrule: True
    conda:
        REPRO_ENV
    params:
        download=DOWNLOAD,
    script:
        "../scripts/fetch_dataset.py"


rule data:
    input:
        expand(f"{DATA_RECORDS}/{{dataset}}.json", dataset=OBTAINABLE),
    localrule: True


rule dataset_table:
    input:
        rules.data.input,
    output:
        md="paper_tables/datasets.md",
        csv="paper_tables/datasets.csv",
    log:
        log_path("data", "dataset_table.log"),
    localrule: True
    conda:
        REPRO_ENV
    script:
        "../scripts/dataset_table.py"
