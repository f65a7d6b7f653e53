# LSVM paper (lsvm_section3.txt): convergence of the iteration (15) against the
# rate bound (20), with Section 3's claims checked on the runs (table and
# figure), time and iterations against m beside LIBLINEAR, and 10-fold CV
# accuracy beside the soft-margin SVM. One job per (dataset, nu), per m and per
# (dataset, outer fold); jobs and tables run through the generic scripts
# (record.py, table.py): paths, records and tables come from the TableSpecs of
# repro/papers/lsvm/tables.py.
from repro.papers.lsvm.tables import TABLES as LS_TABLES

LS_CONV, LS_SCALING, LS_ACC = (
    LS_TABLES[t] for t in ("lsvm_convergence", "lsvm_scaling", "lsvm_accuracy")
)
LS_PROTOCOL = LS_CONV.protocol(SCALE)


rule lsvm_convergence_record:
    input:
        job_inputs(LS_CONV),
    output:
        f"{LS_CONV.folder(RESULTS)}/{LS_CONV.job_files.template}",
    log:
        log_path(SCALE, "lsvm", "convergence", "{dataset}", "nu{nu_times_m}_over_m.log"),
    wildcard_constraints:
        nu_times_m=r"\d+",
    conda:
        REPRO_ENV
    resources:
        **measured_resources(LS_CONV),
    params:
        table=LS_CONV.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule lsvm_convergence:
    input:
        unpack(table_inputs(LS_CONV, LS_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/lsvm_convergence.csv", "lsvm_convergence"),
        md=f"{TABLES}/lsvm_convergence.md",
        records=f"{TABLES}/lsvm_convergence_records.csv",
        checksum=f"{TABLES}/lsvm_convergence_records.csv.sha256",
        png=in_report(f"{TABLES}/lsvm_convergence.png", "lsvm_convergence"),
    log:
        log_path(SCALE, "lsvm", "convergence.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(LS_CONV),
    script:
        "../scripts/table.py"


# Timing jobs take every core (threads: every_core, common.smk) so that no other job
# runs beside them (as gs_svm.smk's speed jobs; a function, read when the job
# is scheduled, so that `snakemake --unlock` needs no --cores).
rule lsvm_scaling_record:
    input:
        job_inputs(LS_SCALING),
    output:
        f"{LS_SCALING.folder(RESULTS)}/{LS_SCALING.job_files.template}",
    log:
        log_path(SCALE, "lsvm", "scaling", "m{m}.log"),
    wildcard_constraints:
        m=r"\d+",
    conda:
        REPRO_ENV
    threads: every_core
    resources:
        **measured_resources(LS_SCALING),
    params:
        table=LS_SCALING.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule lsvm_scaling:
    input:
        unpack(table_inputs(LS_SCALING, LS_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/lsvm_scaling.csv", "lsvm_scaling"),
        md=f"{TABLES}/lsvm_scaling.md",
        records=f"{TABLES}/lsvm_scaling_records.csv",
        checksum=f"{TABLES}/lsvm_scaling_records.csv.sha256",
    log:
        log_path(SCALE, "lsvm", "scaling.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(LS_SCALING),
    script:
        "../scripts/table.py"


rule lsvm_accuracy_fold:
    input:
        job_inputs(LS_ACC),
    output:
        f"{LS_ACC.folder(RESULTS)}/{LS_ACC.job_files.template}",
    log:
        log_path(SCALE, "lsvm", "accuracy", "{dataset}", "fold{fold}.log"),
    wildcard_constraints:
        fold=r"\d+",
    conda:
        REPRO_ENV
    resources:
        **measured_resources(LS_ACC),
    params:
        table=LS_ACC.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule lsvm_accuracy:
    input:
        unpack(table_inputs(LS_ACC, LS_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/lsvm_accuracy.csv", "lsvm_accuracy"),
        md=f"{TABLES}/lsvm_accuracy.md",
        records=f"{TABLES}/lsvm_accuracy_records.csv",
        checksum=f"{TABLES}/lsvm_accuracy_records.csv.sha256",
    log:
        log_path(SCALE, "lsvm", "accuracy.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(LS_ACC),
    script:
        "../scripts/table.py"


rule lsvm:
    input:
        rules.lsvm_convergence.output,
        rules.lsvm_scaling.output,
        rules.lsvm_accuracy.output,
    localrule: True
