"""GRPO training of a Conductor with TRL, rewarded by a running `baton serve-reward`.

Written by `baton export trl`. Reads grpo_config.json (the paper's recipe, as Baton's docs/method.md gives it)
and the exported train.parquet; LoRA when the config's "lora" block is set, full fine-tuning otherwise.
Run it through launch.sh (accelerate, vLLM for the rollouts). Needs trl, transformers, datasets,
peft (LoRA), vllm (use_vllm) and accelerate.
"""

import json
import os
import sys

from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from baton_reward import reward_fn  # noqa: E402


def main():
    with open(os.path.join(HERE, "grpo_config.json")) as f:
        config = json.load(f)
    model = os.environ.get("MODEL", config.pop("model"))
    lora = config.pop("lora", None)
    config.pop("_recipe", None)
    train = load_dataset("parquet", data_files=os.path.join(HERE, "train.parquet"), split="train")
    peft_config = None
    if lora:
        from peft import LoraConfig

        peft_config = LoraConfig(task_type="CAUSAL_LM", **lora)
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=[reward_fn],
        args=GRPOConfig(**config),
        train_dataset=train,
        peft_config=peft_config,
    )
    trainer.train()
    # LoRA: adapter_config.json + adapter_model.safetensors (PEFT layout, loads in Baton with --lora);
    # full: a Hugging Face model directory (loads in Baton with --model).
    trainer.save_model(os.path.join(config["output_dir"], "final"))


if __name__ == "__main__":
    main()
