"""Records -> tables for paper_tables/ (published vs reproduced, Markdown/CSV)."""
import pandas as pd


def to_markdown(df: pd.DataFrame, title: str = "", notes: str = "") -> str:
    """A GitHub-flavoured Markdown table (no extra dependency); empty cells for NaN."""
    cols = [str(c) for c in df.columns]
    def cell(v):
        if v is None or (pd.api.types.is_scalar(v) and pd.isna(v)):
            return ""
        return str(v).replace("|", "\\|")

    lines = []
    if title:
        lines += [f"# {title}", ""]
    if notes:
        lines += [notes.strip(), ""]
    lines.append("| " + " | ".join(cols) + " |")
    lines.append("|" + "|".join("---" for _ in cols) + "|")
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines) + "\n"
