"""Reads every Parquet file in an export directory with pyarrow and compares it with its JSONL twin:
same column names in order, same rows. Prints one JSON line per file: {"file", "rows", "schema", "equal"}.

usage: python parquet_match.py EXPORT_DIR
"""

import glob
import json
import os
import sys

import pyarrow.parquet as pq


def main():
    files = sorted(glob.glob(os.path.join(sys.argv[1], "*.parquet")))
    if not files:
        raise SystemExit("no Parquet file in " + sys.argv[1])
    for file in files:
        table = pq.read_table(file)
        with open(file[: -len(".parquet")] + ".jsonl") as f:
            rows = [json.loads(line) for line in f]
        equal = table.column_names == list(rows[0].keys()) and table.to_pylist() == rows
        schema = {field.name: str(field.type) for field in table.schema}
        print(json.dumps({"file": os.path.basename(file), "rows": table.num_rows, "schema": schema, "equal": equal}))


if __name__ == "__main__":
    main()
