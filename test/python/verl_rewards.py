"""Calls an export's baton_reward.compute_score_batch and compute_score as verl's batch and naive reward managers
call them (verl 0.8's BatchRewardManager: data sources and extra_info dicts as NumPy object arrays, each dict
given rollout_reward_scores; decoded responses and ground truths as lists; the dicts' choices once as lists, as
datasets reads them, once as NumPy arrays, as pandas does). Prints one JSON line:
{"items": [{"question", "completion", "reward", "infra_error"}]}.

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
    infos = [dict(row["extra_info"], rollout_reward_scores={}) for row in batch]
    for info in infos[1::2]:
        info["choices"] = np.array(info["choices"], dtype=object)
    scores = compute_score_batch(
        data_sources=np.array([row["data_source"] for row in batch], dtype=object),
        solution_strs=texts,
        ground_truths=[row["reward_model"]["ground_truth"] for row in batch],
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
