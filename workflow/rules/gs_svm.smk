# GS-SVM paper (gs_svm.txt): Table 1 (kernel evaluations), Table 2 (10-fold CV
# accuracy) and the speed table. One job per (dataset, method, C) for Table 1, per
# (dataset, outer fold, method) for Table 2 and per dataset for the speed table, so
# --cores N and a cluster get parallel work. Jobs and tables run through the
# generic scripts (record.py, table.py): paths, records and tables come from the
# TableSpecs of repro/papers/gs_svm/tables.py.
from repro.papers.gs_svm.tables import TABLES as GS_TABLES

GS_T1, GS_T2, GS_SPEED = (
    GS_TABLES[t] for t in ("gs_svm_table1", "gs_svm_table2", "gs_svm_speed")
)
GS_PROTOCOL = GS_T1.protocol(SCALE)


rule gs_svm_table1_record:
    input:
        job_inputs(GS_T1),
    output:
        f"{GS_T1.folder(RESULTS)}/{GS_T1.job_files.template}",
    log:
        log_path(SCALE, "gs_svm", "table1", "{dataset}", "{method}_C{C}.log"),
    conda:
        REPRO_ENV
    resources:
        **measured_resources(GS_T1),
    params:
        table=GS_T1.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule gs_svm_table2_fold:
    input:
        job_inputs(GS_T2),
    output:
        f"{GS_T2.folder(RESULTS)}/{GS_T2.job_files.template}",
    log:
        log_path(SCALE, "gs_svm", "table2", "{dataset}", "fold{fold}_{method}.log"),
    wildcard_constraints:
        fold=r"\d+",
        method="|".join(GS_T2.schema.values["method"].one_of),
    conda:
        REPRO_ENV
    resources:
        **measured_resources(GS_T2),
    params:
        table=GS_T2.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


# One table per rule: each is rebuilt from its own records only, so a new run of
# Table 2 does not wait on (or recompute) Table 1's hours of SMO counts.
rule gs_svm_table1:
    input:
        unpack(table_inputs(GS_T1, GS_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/gs_svm_table1.csv", "gs_svm_table1"),
        md=f"{TABLES}/gs_svm_table1.md",
        records=f"{TABLES}/gs_svm_table1_records.csv",
        checksum=f"{TABLES}/gs_svm_table1_records.csv.sha256",
    log:
        log_path(SCALE, "gs_svm", "table1.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(GS_T1),
    script:
        "../scripts/table.py"


rule gs_svm_table2:
    input:
        unpack(table_inputs(GS_T2, GS_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/gs_svm_table2.csv", "gs_svm_table2"),
        md=f"{TABLES}/gs_svm_table2.md",
        records=f"{TABLES}/gs_svm_table2_records.csv",
        checksum=f"{TABLES}/gs_svm_table2_records.csv.sha256",
    log:
        log_path(SCALE, "gs_svm", "table2.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(GS_T2),
    script:
        "../scripts/table.py"


# Timing jobs take every core (threads: every_core, common.smk) so that no other job
# runs beside them; the ratios are measured side by side within the job. A
# function, read when the job is scheduled: commands run without --cores
# (`snakemake --unlock`) would fail on reading workflow.cores at parse time.
rule gs_svm_speed_record:
    input:
        job_inputs(GS_SPEED),
    output:
        f"{GS_SPEED.folder(RESULTS)}/{GS_SPEED.job_files.template}",
    log:
        log_path(SCALE, "gs_svm", "speed", "{dataset}.log"),
    conda:
        REPRO_ENV
    threads: every_core
    resources:
        **measured_resources(GS_SPEED),
    params:
        table=GS_SPEED.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule gs_svm_speed_table:
    input:
        unpack(table_inputs(GS_SPEED, GS_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/gs_svm_speed.csv", "gs_svm_speed"),
        md=f"{TABLES}/gs_svm_speed.md",
        records=f"{TABLES}/gs_svm_speed_records.csv",
        checksum=f"{TABLES}/gs_svm_speed_records.csv.sha256",
    log:
        log_path(SCALE, "gs_svm", "speed_table.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(GS_SPEED),
    script:
        "../scripts/table.py"


rule gs_svm:
    input:
        rules.gs_svm_table1.output,
        rules.gs_svm_table2.output,
        rules.gs_svm_speed_table.output,
    localrule: True
