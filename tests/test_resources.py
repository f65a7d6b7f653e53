"""A cluster job's requests come from what the job measured (issue 26)."""
import math
from pathlib import Path

from repro.experiments import resources as R
from repro.papers.catalog import TABLES

README = Path(__file__).resolve().parents[1] / "README.md"


def test_requests_are_the_measured_time_and_memory_with_their_margins(tmp_path):
    jobs = R.measured(TABLES["gs_svm_table2"])
    assert len(jobs) == 480  # one job per (set, outer fold, method)
    longest = max(m.seconds for m in jobs.values())
    assert R.runtime_minutes(longest) == math.ceil(2 * longest / 60) > R.MIN_RUNTIME_MIN  # a Page job
    assert R.runtime_minutes(0.1) == R.MIN_RUNTIME_MIN
    stamped = R.measured(TABLES["ldm_table1"])  # records stamped with their peak memory
    assert all(m.peak_mb is not None and m.peak_mb > 0 for m in stamped.values())
    peak = max(m.peak_mb for m in stamped.values())
    assert R.mem_mb(peak) == max(R.MIN_MEM_MB, math.ceil(1.5 * peak))
    # records made before the stamp (every committed table is stamped now): their memory unmeasured
    import pandas as pd
    records = pd.read_csv("paper_tables/nesvm_readings_records.csv").drop(columns="provenance")
    records.to_csv(tmp_path / "nesvm_readings_records.csv", index=False)
    older = R.measured(TABLES["nesvm_readings"], tmp_path)
    assert older and all(m.peak_mb is None for m in older.values())


def test_the_summary_names_every_table():
    summary = R.table(TABLES.values())
    assert list(summary["table"]) == list(TABLES)


def test_the_readmes_longest_job_is_what_the_records_measured():
    readme = " ".join(README.read_text(encoding="utf-8").split())
    # the longest job of all the records, and of GS-SVM's Table 2 (the accuracy tables' longest)
    for tables in (TABLES.values(), [TABLES["gs_svm_table2"]]):
        longest = max(m.seconds for spec in tables for m in R.measured(spec).values())
        stated = f"{longest:,.0f} s measured, {R.runtime_minutes(longest)} minutes asked"
        assert stated in readme, stated
