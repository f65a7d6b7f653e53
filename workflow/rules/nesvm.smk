# NESVM paper (nesvm.txt, Section IV-A): training time of linear C-SVM solvers
# against C (Fig. 3) and against the Adult set (Fig. 4), with each model's gap
# to the optimum and its test accuracy. One job per (set, C), through the
# generic scripts; paths, records and the table come from
# repro/papers/nesvm/tables.py. SVM-Light comes from the svmlight_build rule
# (baselines.smk); where it cannot be built its cells say why.
from repro.papers.nesvm.tables import TABLES as NE_TABLES

# an image set's paper name -> its registry name, training fraction, figure
from repro.papers.nesvm.jobs import IMAGE_SETS as NE_IMAGE_SETS

NE_TIME, NE_IMAGES = NE_TABLES["nesvm_time"], NE_TABLES["nesvm_images"]
NE_PROTOCOL = NE_TIME.protocol(SCALE)
NE_IMAGE_PROTOCOL = NE_IMAGES.protocol(SCALE)
NE_CONV, NE_READINGS = NE_TABLES["nesvm_convergence"], NE_TABLES["nesvm_readings"]
NE_CONV_PROTOCOL, NE_READINGS_PROTOCOL = NE_CONV.protocol(SCALE), NE_READINGS.protocol(
    SCALE
)


# Timing jobs take every core (threads: every_core, common.smk, read when the job is
# scheduled, as gs_svm.smk's speed jobs) so that no other job runs beside them.
rule nesvm_time_record:
    input:
        job_inputs(NE_TIME, svmlight=True),
    output:
        f"{NE_TIME.folder(RESULTS)}/{NE_TIME.job_files.template}",
    log:
        log_path(SCALE, "nesvm", "time", "set{set_id}", "C{C}.log"),
    wildcard_constraints:
        set_id=r"\d+",
        C=r"[0-9.e+-]+",
    conda:
        REPRO_ENV
    threads: every_core
    resources:
        **measured_resources(NE_TIME),
    params:
        table=NE_TIME.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule nesvm_time:
    input:
        unpack(table_inputs(NE_TIME, NE_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/nesvm_time.csv", "nesvm_time"),
        md=f"{TABLES}/nesvm_time.md",
        records=f"{TABLES}/nesvm_time_records.csv",
        checksum=f"{TABLES}/nesvm_time_records.csv.sha256",
        png=in_report(f"{TABLES}/nesvm_time.png", "nesvm_time"),
    log:
        log_path(SCALE, "nesvm", "time.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(NE_TIME),
    script:
        "../scripts/table.py"


# The image sets of Section IV-B..E: jobs for the sets obtainable here (offline,
# each figure's stand-in: the paper's features were never published); the page
# lists every set with its status.
rule nesvm_images_record:
    input:
        job_inputs(NE_IMAGES, svmlight=True),
        # a paper's image set: the step that builds its features (data.smk)
        image_features_input(NE_IMAGES, lambda w: NE_IMAGE_SETS[w.dataset][0]),
    output:
        f"{NE_IMAGES.folder(RESULTS)}/{NE_IMAGES.job_files.template}",
    log:
        log_path(SCALE, "nesvm", "images", "{dataset}", "C{C}.log"),
    wildcard_constraints:
        C=r"[0-9.e+-]+",
    conda:
        REPRO_ENV
    threads: every_core
    resources:
        **measured_resources(NE_IMAGES),
    params:
        table=NE_IMAGES.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule nesvm_images:
    input:
        unpack(table_inputs(NE_IMAGES, NE_IMAGE_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/nesvm_images.csv", "nesvm_images"),
        md=f"{TABLES}/nesvm_images.md",
        records=f"{TABLES}/nesvm_images_records.csv",
        checksum=f"{TABLES}/nesvm_images_records.csv.sha256",
        png=in_report(f"{TABLES}/nesvm_images.png", "nesvm_images"),
    log:
        log_path(SCALE, "nesvm", "images.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(NE_IMAGES),
    script:
        "../scripts/table.py"


# Theorem 4 (one traced run and its L-BFGS reference per dataset) and the
# readings (printed vs alternative, per ambiguity and mu). The readings time
# their fits, so they take every core like the timing jobs above.
rule nesvm_convergence_record:
    input:
        job_inputs(NE_CONV),
    output:
        f"{NE_CONV.folder(RESULTS)}/{NE_CONV.job_files.template}",
    log:
        log_path(SCALE, "nesvm", "convergence", "{dataset}.log"),
    conda:
        REPRO_ENV
    resources:
        **measured_resources(NE_CONV),
    params:
        table=NE_CONV.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule nesvm_convergence:
    input:
        unpack(table_inputs(NE_CONV, NE_CONV_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/nesvm_convergence.csv", "nesvm_convergence"),
        md=f"{TABLES}/nesvm_convergence.md",
        records=f"{TABLES}/nesvm_convergence_records.csv",
        checksum=f"{TABLES}/nesvm_convergence_records.csv.sha256",
        png=in_report(f"{TABLES}/nesvm_convergence.png", "nesvm_convergence"),
    log:
        log_path(SCALE, "nesvm", "convergence.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(NE_CONV),
    script:
        "../scripts/table.py"


rule nesvm_readings_record:
    input:
        job_inputs(NE_READINGS),
    output:
        f"{NE_READINGS.folder(RESULTS)}/{NE_READINGS.job_files.template}",
    log:
        log_path(SCALE, "nesvm", "readings", "{reading}", "mu{mu}.log"),
    wildcard_constraints:
        mu=r"[0-9.e+-]+",
    conda:
        REPRO_ENV
    threads: every_core
    resources:
        **measured_resources(NE_READINGS),
    params:
        table=NE_READINGS.id,
        scale=SCALE,
    script:
        "../scripts/record.py"


rule nesvm_readings:
    input:
        unpack(table_inputs(NE_READINGS, NE_READINGS_PROTOCOL)),
    output:
        csv=in_report(f"{TABLES}/nesvm_readings.csv", "nesvm_readings"),
        md=f"{TABLES}/nesvm_readings.md",
        records=f"{TABLES}/nesvm_readings_records.csv",
        checksum=f"{TABLES}/nesvm_readings_records.csv.sha256",
    log:
        log_path(SCALE, "nesvm", "readings.log"),
    localrule: True
    conda:
        REPRO_ENV
    params:
        **table_params(NE_READINGS),
    script:
        "../scripts/table.py"


rule nesvm:
    input:
        rules.nesvm_time.output,
        rules.nesvm_images.output,
        rules.nesvm_convergence.output,
        rules.nesvm_readings.output,
    localrule: True
