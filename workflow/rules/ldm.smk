# LDM paper (ldm.txt, Section 4): accuracy of LDM beside SVM over random
# half/half partitions, linear kernel (Table 2) and RBF kernel (Table 3), with
# nested 5-fold CV and paired t-tests. One job per (set, partition) and table,
# through the generic scripts; paths, records and tables come from the
# TableSpecs of repro.experiments.ldm. Sets that cannot be obtained here have
# no jobs; their cells read 'unavailable offline'.
from repro.experiments import ldm as LD

LD_PROTOCOL = LD.PROTOCOLS[PROFILE]
LD_T2, LD_T3, LD_T4 = (LD.TABLES[t] for t in ("ldm_table2", "ldm_table3", "ldm_table4"))
LD_LARGE_PROTOCOL = LD_T4.protocol(PROFILE)


rule ldm_table2_record:
    output:
        f"{LD_T2.folder(RESULTS)}/{LD_T2.job_files.template}",
    log:
        log_path(PROFILE, "ldm", "table2", "{dataset}", "partition{partition}.log"),
    params:
        table=LD_T2.id,
        profile=PROFILE,
    wildcard_constraints:
        partition=r"\d+",
    conda:
        REPRO_ENV
    script:
        "../scripts/record.py"


rule ldm_table3_record:
    output:
        f"{LD_T3.folder(RESULTS)}/{LD_T3.job_files.template}",
    log:
        log_path(PROFILE, "ldm", "table3", "{dataset}", "partition{partition}.log"),
    params:
        table=LD_T3.id,
        profile=PROFILE,
    wildcard_constraints:
        partition=r"\d+",
    conda:
        REPRO_ENV
    script:
        "../scripts/record.py"


rule ldm_table2:
    input:
        table_inputs(LD_T2, LD_PROTOCOL),
    output:
        csv=f"{TABLES}/ldm_table2.csv",
        md=f"{TABLES}/ldm_table2.md",
        records=f"{TABLES}/ldm_table2_records.csv",
    log:
        log_path(PROFILE, "ldm", "table2.log"),
    params:
        **table_params(LD_T2),
    conda:
        REPRO_ENV
    script:
        "../scripts/table.py"


rule ldm_table3:
    input:
        table_inputs(LD_T3, LD_PROTOCOL),
    output:
        csv=f"{TABLES}/ldm_table3.csv",
        md=f"{TABLES}/ldm_table3.md",
        records=f"{TABLES}/ldm_table3_records.csv",
    log:
        log_path(PROFILE, "ldm", "table3.log"),
    params:
        **table_params(LD_T3),
    conda:
        REPRO_ENV
    script:
        "../scripts/table.py"


rule ldm_table4_record:
    output:
        f"{LD_T4.folder(RESULTS)}/{LD_T4.job_files.template}",
    log:
        log_path(PROFILE, "ldm", "table4", "{dataset}", "partition{partition}.log"),
    params:
        table=LD_T4.id,
        profile=PROFILE,
    wildcard_constraints:
        partition=r"\d+",
    conda:
        REPRO_ENV
    script:
        "../scripts/record.py"


rule ldm_table4:
    input:
        table_inputs(LD_T4, LD_LARGE_PROTOCOL),
    output:
        csv=f"{TABLES}/ldm_table4.csv",
        md=f"{TABLES}/ldm_table4.md",
        records=f"{TABLES}/ldm_table4_records.csv",
    log:
        log_path(PROFILE, "ldm", "table4.log"),
    params:
        **table_params(LD_T4),
    conda:
        REPRO_ENV
    script:
        "../scripts/table.py"


rule ldm:
    input:
        rules.ldm_table2.output,
        rules.ldm_table3.output,
        rules.ldm_table4.output,
