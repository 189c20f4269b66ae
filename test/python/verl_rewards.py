"""Calls an export's baton_reward.compute_score_batch and compute_score with what verl's batch and naive reward
managers pass: NumPy object arrays of data sources, decoded responses, ground truths and extra_info dicts
(their choices once as lists, as datasets reads them, once as NumPy arrays, as pandas does). Prints one JSON
line: {"items": [{"question", "completion", "reward", "infra_error"}]}.

usage: python verl_rewards.py EXPORT_DIR
"""

import json
import os
import sys

import numpy as np

WORKFLOW = 'model_id = [%d]\nsubtasks = ["Solve the question (verl %s %d); answer in <answer></answer> tags."]\naccess_list = [[]]'


def main():
    export_dir = sys.argv[1]
    sys.path.insert(0, export_dir)
    from baton_reward import compute_score, compute_score_batch

    with open(os.path.join(export_dir, "train.jsonl")) as f:
        rows = [json.loads(line) for line, _ in zip(f, range(2))]
    batch = [row for row in rows for _ in range(2)]
    texts = [WORKFLOW % (i % 2, "batch", i) for i in range(len(batch))]
    texts[-1] = "Not a workflow."
    infos = [dict(row["extra_info"], choices=np.array(row["extra_info"]["choices"], dtype=object)) if i % 2 else row["extra_info"] for i, row in enumerate(batch)]
    scores = compute_score_batch(
        data_sources=np.array([row["data_source"] for row in batch], dtype=object),
        solution_strs=np.array(texts, dtype=object),
        ground_truths=np.array([row["reward_model"]["ground_truth"] for row in batch], dtype=object),
        extra_infos=np.array(infos, dtype=object),
    )
    items = [{"question": row["extra_info"]["question"], "completion": t, **s} for row, t, s in zip(batch, texts, scores, strict=True)]
    for i, row in enumerate(rows):
        text = WORKFLOW % (2, "single", i)
        s = compute_score(row["data_source"], text, row["reward_model"]["ground_truth"], extra_info=row["extra_info"])
        items.append({"question": row["extra_info"]["question"], "completion": text, **s})
    print(json.dumps({"items": [dict(item, reward=item.pop("score")) for item in items]}))


if __name__ == "__main__":
    main()
