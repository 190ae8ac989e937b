#!/usr/bin/env python3
"""The guide's table of clean build times by mcp-tool's features, from
benches/results/build-features.json (written by benches/build-features.sh).

usage: benches/build_features_table.py [RESULTS]   (prints the table)"""
import json
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results" / "build-features.json"


def table(rows: list[dict]) -> str:
    base = next(row for row in rows if row["name"] == "defaults")
    lines = [
        "| mcp-tool's features | clean build | crates compiled | target folder |",
        "|---|---:|---:|---:|",
    ]
    for row in rows:
        if row["name"] == "defaults":
            features = "the defaults (`http`, `logging`)"
        elif row["defaults"]:
            features = f"the defaults and `{row['features']}`"
        elif row["features"]:
            features = f"`{row['features']}` alone"
        else:
            features = "none (`default-features = false`)"
        lines.append(
            f"| {features} | {row['seconds']:.0f} s ({row['seconds'] / base['seconds']:.2f}×) "
            f"| {row['crates']} | {row['target_bytes'] / 1e6:.0f} MB |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else RESULTS
    sys.stdout.write(table(json.loads(path.read_text())))
