"""Calls an export's baton_reward.reward_fn through TRL's own GRPOTrainer._calculate_rewards, as a training
step does: the dataset's extra columns as keyword lists, the trainer's state, and completions once as chat
messages (a conversational dataset) and once as text (train_trl.py's prompts, rendered to continue the
prefill). Prints one JSON line: {"items": [{"step", "question", "completion", "reward"}], "promptIds": the first
row's prompt as train_trl.py renders it for TRL, tokenised}.

usage: python trl_rewards.py EXPORT_DIR MODEL_DIR STEP
"""

import json
import os
import sys
import tempfile

from datasets import Dataset
from trl import GRPOConfig, GRPOTrainer

WORKFLOW = 'model_id = [%d]\nsubtasks = ["Solve the question (%s); answer in <answer></answer> tags."]\naccess_list = [[]]'


def main():
    export_dir, model, step = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sys.path.insert(0, export_dir)
    from baton_reward import reward_fn
    from train_trl import continue_prefill

    with open(os.path.join(export_dir, "train.jsonl")) as f:
        rows = [json.loads(line) for line, _ in zip(f, range(2))]
    args = GRPOConfig(
        output_dir=tempfile.mkdtemp(), use_cpu=True, bf16=False, report_to="none", num_generations=2, per_device_train_batch_size=2
    )
    trainer = GRPOTrainer(model=model, reward_funcs=[reward_fn], args=args, train_dataset=Dataset.from_list(rows))
    items = []
    for call, chat in enumerate([True, False]):
        trainer.state.global_step = step + call
        inputs = [row for row in rows for _ in range(3)]
        texts = [WORKFLOW % (w, "%s %d" % ("chat" if chat else "text", i)) for i, w in enumerate([0, 1, 2] * len(rows))]
        texts[-1] = "Not a workflow."
        completions = [[{"role": "assistant", "content": t}] for t in texts] if chat else texts
        prompts = [row["prompt"] for row in inputs]
        rewards = trainer._calculate_rewards(inputs, prompts, completions, [[0]] * len(texts))[:, 0].tolist()
        items += [
            {"step": step + call, "question": row["question"], "completion": t, "reward": r}
            for row, t, r in zip(inputs, texts, rewards, strict=True)
        ]
    prompt = continue_prefill(trainer.processing_class)(rows[0])["prompt"]
    print(json.dumps({"items": items, "promptIds": trainer.processing_class(prompt)["input_ids"]}))


if __name__ == "__main__":
    main()
