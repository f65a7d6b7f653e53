# GS-SVM paper (gs_svm.txt): Table 1 (kernel evaluations) and Table 2 (10-fold CV
# accuracy). One job per (dataset, method, C) for Table 1 and per (dataset, outer
# fold) for Table 2, so --cores N and a cluster get parallel work.
from repro.experiments import gs_svm as GS
from repro.experiments.resume import FOLD_FILE, job_path

GS_PROTOCOL = GS.PROTOCOLS[PROFILE]
# Table 2's per-fold files: FOLD_FILE ({dataset}/fold{fold}.csv) under this folder,
# the layout repro.experiments.resume writes committed records back into.
GS_T2_DIR = f"{RESULTS}/gs_svm/table2"
GS_T1 = [
    f"{RESULTS}/gs_svm/table1/{d}/{m}_C{'none' if c is None else c}.csv"
    for d, m, c in GS.table1_jobs(GS_PROTOCOL)
    if d not in SKIP
]
GS_T2 = [
    path
    for d in GS_PROTOCOL.table2_datasets
    if d not in SKIP
    for path in existing_or_all(
        [str(job_path(GS_T2_DIR, d, k)) for k in range(GS_PROTOCOL.outer_folds)],
        partial=d in PARTIAL,
    )
]


rule gs_svm_table1_record:
    output:
        f"{RESULTS}/gs_svm/table1/{{dataset}}/{{method}}_C{{C}}.csv",
    log:
        log_path(PROFILE, "gs_svm", "table1", "{dataset}", "{method}_C{C}.log"),
    conda:
        REPRO_ENV
    script:
        "../scripts/gs_svm_table1_record.py"


rule gs_svm_table2_fold:
    output:
        f"{GS_T2_DIR}/{FOLD_FILE}",
    log:
        log_path(PROFILE, "gs_svm", "table2", "{dataset}", "fold{fold}.log"),
    params:
        protocol=PROFILE,
    wildcard_constraints:
        fold=r"\d+",
    conda:
        REPRO_ENV
    script:
        "../scripts/gs_svm_table2_fold.py"


# One table per rule: each is rebuilt from its own records only, so a new run of
# Table 2 does not wait on (or recompute) Table 1's hours of SMO counts.
rule gs_svm_table1:
    input:
        GS_T1,
    output:
        csv=f"{TABLES}/gs_svm_table1.csv",
        md=f"{TABLES}/gs_svm_table1.md",
        records=f"{TABLES}/gs_svm_table1_records.csv",
    log:
        log_path(PROFILE, "gs_svm", "table1.log"),
    params:
        table=1,
        protocol=PROFILE,
        note=skipped_note(GS_PROTOCOL.table1_datasets),
    conda:
        REPRO_ENV
    script:
        "../scripts/gs_svm_table.py"


rule gs_svm_table2:
    input:
        GS_T2,
    output:
        csv=f"{TABLES}/gs_svm_table2.csv",
        md=f"{TABLES}/gs_svm_table2.md",
        records=f"{TABLES}/gs_svm_table2_records.csv",
    log:
        log_path(PROFILE, "gs_svm", "table2.log"),
    params:
        table=2,
        protocol=PROFILE,
        note=" ".join(filter(None, [skipped_note(GS_PROTOCOL.table2_datasets),
                                    partial_note(GS_PROTOCOL.table2_datasets)])),
    conda:
        REPRO_ENV
    script:
        "../scripts/gs_svm_table.py"


# Timing jobs take every core (threads: workflow.cores) so that no other job
# runs beside them; the ratios are measured side by side within the job. A
# function, read when the job is scheduled: commands run without --cores
# (`snakemake --unlock`) would fail on reading workflow.cores at parse time.
rule gs_svm_speed_record:
    output:
        f"{RESULTS}/gs_svm/speed/{{dataset}}.csv",
    log:
        log_path(PROFILE, "gs_svm", "speed", "{dataset}.log"),
    params:
        repeat=GS_PROTOCOL.speed_repeat,
    threads: lambda wildcards: workflow.cores
    conda:
        REPRO_ENV
    script:
        "../scripts/gs_svm_speed_record.py"


rule gs_svm_speed_table:
    input:
        expand(f"{RESULTS}/gs_svm/speed/{{dataset}}.csv", dataset=GS_PROTOCOL.speed_datasets),
    output:
        csv=f"{TABLES}/gs_svm_speed.csv",
        md=f"{TABLES}/gs_svm_speed.md",
    log:
        log_path(PROFILE, "gs_svm", "speed_table.log"),
    conda:
        REPRO_ENV
    script:
        "../scripts/gs_svm_speed_table.py"


rule gs_svm:
    input:
        rules.gs_svm_table1.output,
        rules.gs_svm_table2.output,
        rules.gs_svm_speed_table.output,
