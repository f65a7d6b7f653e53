# LDM paper (ldm.txt, Section 4): accuracy of LDM beside SVM over random
# half/half partitions, linear kernel (Table 2) and RBF kernel (Table 3), with
# nested 5-fold CV and paired t-tests. One job per set and table (every
# partition of the set: they take seconds each) for Tables 2 and 3, one per
# (set, partition) for Table 4 (the large sets), through the generic scripts;
# paths, records and tables come from the TableSpecs of
# repro/papers/ldm/tables.py. Table 1 (sizes) and Figures 1-3 (margins, CPU
# time, parameter influence) run in repro/papers/ldm/figure_jobs.py, one job
# per set (and kernel). Sets that cannot be obtained here have no jobs;
# their cells read 'unavailable offline'.
from repro.papers.ldm.tables import TABLES as LD_TABLES

LD_T2, LD_T3, LD_T4 = (LD_TABLES[t] for t in ("ldm_table2", "ldm_table3", "ldm_table4"))
LD_PROTOCOL = LD_T2.protocol(SCALE)
LD_LARGE_PROTOCOL = LD_T4.protocol(SCALE)
# Table 1 and Figures 1-3 (figure_jobs.py): their own protocols
LD_FIGS = {
    t: LD_TABLES[t] for t in ("ldm_table1", "ldm_figure1", "ldm_figure2", "ldm_figure3")
}


rule ldm_table2_record:
    input:
        job_inputs(LD_T2),
    output:
        f"{LD_T2.folder(RESULTS)}/{LD_T2.job_files.template}",
    log:
        log_path(SCALE, "ldm", "table2", "{dataset}.log"),
    conda:
        REPRO_ENV
    resources:
        **measured_resources(LD_T2),
    params:
        table=LD_T2.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule ldm_table3_record:
    input:
        job_inputs(LD_T3),
    output:
        f"{LD_T3.folder(RESULTS)}/{LD_T3.job_files.template}",
    log:
        log_path(SCALE, "ldm", "table3", "{dataset}.log"),
    conda:
        REPRO_ENV
    resources:
        **measured_resources(LD_T3),
    params:
        table=LD_T3.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule ldm_table2:
    input:
        unpack(table_inputs(LD_T2, LD_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/ldm_table2.csv", "ldm_table2"),
        md=f"{TABLES}/ldm_table2.md",
        records=f"{TABLES}/ldm_table2_records.csv",
        checksum=f"{TABLES}/ldm_table2_records.csv.sha256",
    log:
        log_path(SCALE, "ldm", "table2.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(LD_T2),
    script:
        "../scripts/table.py"


rule ldm_table3:
    input:
        unpack(table_inputs(LD_T3, LD_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/ldm_table3.csv", "ldm_table3"),
        md=f"{TABLES}/ldm_table3.md",
        records=f"{TABLES}/ldm_table3_records.csv",
        checksum=f"{TABLES}/ldm_table3_records.csv.sha256",
    log:
        log_path(SCALE, "ldm", "table3.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(LD_T3),
    script:
        "../scripts/table.py"


rule ldm_table4_record:
    input:
        job_inputs(LD_T4),
    output:
        f"{LD_T4.folder(RESULTS)}/{LD_T4.job_files.template}",
    log:
        log_path(SCALE, "ldm", "table4", "{dataset}", "partition{partition}.log"),
    wildcard_constraints:
        partition=r"\d+",
    conda:
        REPRO_ENV
    resources:
        **measured_resources(LD_T4),
    params:
        table=LD_T4.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule ldm_table4:
    input:
        unpack(table_inputs(LD_T4, LD_LARGE_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/ldm_table4.csv", "ldm_table4"),
        md=f"{TABLES}/ldm_table4.md",
        records=f"{TABLES}/ldm_table4_records.csv",
        checksum=f"{TABLES}/ldm_table4_records.csv.sha256",
    log:
        log_path(SCALE, "ldm", "table4.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(LD_T4),
    script:
        "../scripts/table.py"


rule ldm_table1_record:
    input:
        job_inputs(LD_FIGS["ldm_table1"]),
    output:
        f"{LD_FIGS['ldm_table1'].folder(RESULTS)}/{LD_FIGS['ldm_table1'].job_files.template}",
    log:
        log_path(SCALE, "ldm", "table1", "{dataset}.log"),
    conda:
        REPRO_ENV
    resources:
        **measured_resources(LD_FIGS["ldm_table1"]),
    params:
        table="ldm_table1",
        scale=SCALE,
    script:
        "../scripts/record.py"


rule ldm_table1:
    input:
        unpack(
            table_inputs(LD_FIGS["ldm_table1"], LD_FIGS["ldm_table1"].protocol(SCALE))
        ),
    output:
        csv=in_report(f"{TABLES}/ldm_table1.csv", "ldm_table1"),
        md=f"{TABLES}/ldm_table1.md",
        records=f"{TABLES}/ldm_table1_records.csv",
        checksum=f"{TABLES}/ldm_table1_records.csv.sha256",
    log:
        log_path(SCALE, "ldm", "table1.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(LD_FIGS["ldm_table1"]),
    script:
        "../scripts/table.py"


rule ldm_figure1_record:
    input:
        job_inputs(LD_FIGS["ldm_figure1"]),
    output:
        f"{LD_FIGS['ldm_figure1'].folder(RESULTS)}/{LD_FIGS['ldm_figure1'].job_files.template}",
    log:
        log_path(SCALE, "ldm", "figure1", "{dataset}", "{kernel}.log"),
    wildcard_constraints:
        kernel="linear|rbf",
    conda:
        REPRO_ENV
    resources:
        **measured_resources(LD_FIGS["ldm_figure1"]),
    params:
        table="ldm_figure1",
        scale=SCALE,
    script:
        "../scripts/record.py"


rule ldm_figure1:
    input:
        unpack(
            table_inputs(
                LD_FIGS["ldm_figure1"], LD_FIGS["ldm_figure1"].protocol(SCALE)
            )
        ),
    output:
        csv=in_report(f"{TABLES}/ldm_figure1.csv", "ldm_figure1"),
        md=f"{TABLES}/ldm_figure1.md",
        records=f"{TABLES}/ldm_figure1_records.csv",
        checksum=f"{TABLES}/ldm_figure1_records.csv.sha256",
        png=in_report(f"{TABLES}/ldm_figure1.png", "ldm_figure1"),
    log:
        log_path(SCALE, "ldm", "figure1.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(LD_FIGS["ldm_figure1"]),
    script:
        "../scripts/table.py"


# Timing jobs take every core (threads: every_core, common.smk) so that no other job
# runs beside them (as the other papers' speed jobs; a function, read when the
# job is scheduled, so that `snakemake --unlock` needs no --cores).
rule ldm_figure2_record:
    input:
        job_inputs(LD_FIGS["ldm_figure2"]),
    output:
        f"{LD_FIGS['ldm_figure2'].folder(RESULTS)}/{LD_FIGS['ldm_figure2'].job_files.template}",
    log:
        log_path(SCALE, "ldm", "figure2", "{dataset}.log"),
    conda:
        REPRO_ENV
    threads: every_core
    resources:
        **measured_resources(LD_FIGS["ldm_figure2"]),
    params:
        table="ldm_figure2",
        scale=SCALE,
    script:
        "../scripts/record.py"


rule ldm_figure2:
    input:
        unpack(
            table_inputs(
                LD_FIGS["ldm_figure2"], LD_FIGS["ldm_figure2"].protocol(SCALE)
            )
        ),
    output:
        csv=in_report(f"{TABLES}/ldm_figure2.csv", "ldm_figure2"),
        md=f"{TABLES}/ldm_figure2.md",
        records=f"{TABLES}/ldm_figure2_records.csv",
        checksum=f"{TABLES}/ldm_figure2_records.csv.sha256",
        png=in_report(f"{TABLES}/ldm_figure2.png", "ldm_figure2"),
    log:
        log_path(SCALE, "ldm", "figure2.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(LD_FIGS["ldm_figure2"]),
    script:
        "../scripts/table.py"


rule ldm_figure3_record:
    input:
        job_inputs(LD_FIGS["ldm_figure3"]),
    output:
        f"{LD_FIGS['ldm_figure3'].folder(RESULTS)}/{LD_FIGS['ldm_figure3'].job_files.template}",
    log:
        log_path(SCALE, "ldm", "figure3", "{dataset}", "{kernel}.log"),
    wildcard_constraints:
        kernel="linear|rbf",
    conda:
        REPRO_ENV
    resources:
        **measured_resources(LD_FIGS["ldm_figure3"]),
    params:
        table="ldm_figure3",
        scale=SCALE,
    script:
        "../scripts/record.py"


rule ldm_figure3:
    input:
        unpack(
            table_inputs(
                LD_FIGS["ldm_figure3"], LD_FIGS["ldm_figure3"].protocol(SCALE)
            )
        ),
    output:
        csv=in_report(f"{TABLES}/ldm_figure3.csv", "ldm_figure3"),
        md=f"{TABLES}/ldm_figure3.md",
        records=f"{TABLES}/ldm_figure3_records.csv",
        checksum=f"{TABLES}/ldm_figure3_records.csv.sha256",
        png=in_report(f"{TABLES}/ldm_figure3.png", "ldm_figure3"),
    log:
        log_path(SCALE, "ldm", "figure3.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(LD_FIGS["ldm_figure3"]),
    script:
        "../scripts/table.py"


rule ldm:
    input:
        rules.ldm_table1.output,
        rules.ldm_table2.output,
        rules.ldm_table3.output,
        rules.ldm_table4.output,
        rules.ldm_figure1.output,
        rules.ldm_figure2.output,
        rules.ldm_figure3.output,
    localrule: True
