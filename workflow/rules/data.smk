# Fetch and verify every dataset obtainable here; list all of them with their status.


rule fetch_dataset:
    input:
        plan_hook,
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
