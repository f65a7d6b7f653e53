# Pegasos slides (pegasos_slides.txt): convergence to the optimum, the slides'
# CCAT experiment on a9a, w8a, ijcnn1 and a news20 stand-in (CCAT is unavailable
# offline; its cells say so). One job per (dataset, batch size k) for Pegasos'
# trace and the kT refits, one per dataset for the optimum and the baselines
# (LIBLINEAR, SGDClassifier) and one per dataset for SVM-Light, through the
# generic scripts; paths, records and the table come from repro/papers/pegasos/tables.py.
from repro.papers.pegasos.jobs import SVMLIGHT_JOB as PG_SVMLIGHT_JOB
from repro.papers.pegasos.tables import TABLES as PG_TABLES

PG_CONV = PG_TABLES["pegasos_convergence"]
PG_PROTOCOL = PG_CONV.protocol(SCALE)


# The records hold seconds: timed jobs take every core (threads: every_core, common.smk,
# read when the job is scheduled, see gs_svm_speed_record) so that no other job
# runs beside them.
rule pegasos_convergence_record:
    input:
        job_inputs(PG_CONV),
    output:
        f"{PG_CONV.folder(RESULTS)}/{PG_CONV.job_files.template}",
    log:
        log_path(SCALE, "pegasos", "convergence", "{dataset}", "{job}.log"),
    wildcard_constraints:
        job=r"pegasos_k\d+|baselines",
    conda:
        REPRO_ENV
    threads: every_core
    resources:
        **measured_resources(PG_CONV),
    params:
        table=PG_CONV.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


# SVM-Light's fits, its own job per dataset so that it resumes apart. Its input
# is the build's record (svmlight_build, baselines.smk) when SVM-Light can be
# built here; where it cannot (no compiler, no package index: the lambda asks
# repro.baselines.svmlight.why_unavailable, only when the job is planned), the
# job writes one record with the reason and the table's cells read unavailable.
rule pegasos_convergence_svmlight:
    input:
        job_inputs(PG_CONV, svmlight=True),
    output:
        f"{PG_CONV.folder(RESULTS)}/{PG_CONV.job_files.template}",
    log:
        log_path(SCALE, "pegasos", "convergence", "{dataset}", "{job}.log"),
    wildcard_constraints:
        job=PG_SVMLIGHT_JOB,
    conda:
        REPRO_ENV
    threads: every_core
    resources:
        **measured_resources(PG_CONV),
    params:
        table=PG_CONV.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule pegasos_convergence:
    input:
        unpack(table_inputs(PG_CONV, PG_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/pegasos_convergence.csv", "pegasos_convergence"),
        md=f"{TABLES}/pegasos_convergence.md",
        records=f"{TABLES}/pegasos_convergence_records.csv",
        checksum=f"{TABLES}/pegasos_convergence_records.csv.sha256",
        png=in_report(f"{TABLES}/pegasos_convergence.png", "pegasos_convergence"),
    log:
        log_path(SCALE, "pegasos", "convergence.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(PG_CONV),
    script:
        "../scripts/table.py"


rule pegasos:
    input:
        rules.pegasos_convergence.output,
    localrule: True
