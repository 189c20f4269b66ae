"""GRPO training of a Conductor with TRL, rewarded by a running `baton serve-reward`.

Written by `baton export trl` for TRL 1.13.0. Reads grpo_config.json (the paper's recipe, as Baton's
docs/method.md gives it) and the exported train.parquet; LoRA when the config's "lora" block is set, full
fine-tuning otherwise. Arguments are GRPOConfig fields that override grpo_config.json's, e.g.
`--max_steps 2 --use_vllm false --bf16 false` for a smoke run on a CPU. Run it through launch.sh
(accelerate; vLLM for the rollouts). Needs trl, transformers, datasets, peft (LoRA), vllm (use_vllm) and
accelerate. Writes runs/conductor/final: the adapter (or model) and trainer_state.json, the logged
metrics of every step.
"""

import json
import os
import sys

from datasets import load_dataset
from transformers import AutoTokenizer, HfArgumentParser
from trl import GRPOConfig, GRPOTrainer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from baton_reward import reward_fn  # noqa: E402


def grpo_config(config, argv):
    parser = HfArgumentParser(GRPOConfig)
    parser.set_defaults(**config)
    (args,) = parser.parse_args_into_dataclasses(args=argv)
    return args


def continue_prefill(tokenizer):
    """GRPOTrainer renders a chat prompt with add_generation_prompt=True, which closes a final assistant
    message and opens a new turn. Baton's prompt ends with the Conductor's prefill, which its own sampler
    continues, so the prompt goes to TRL as that text, the final message left open."""

    def render(row):
        text = tokenizer.apply_chat_template(row["prompt"], tokenize=False, continue_final_message=True)
        return {"prompt": text}

    return render


def main():
    with open(os.path.join(HERE, "grpo_config.json")) as f:
        config = json.load(f)
    model = os.environ.get("MODEL", config.pop("model"))
    lora = config.pop("lora", None)
    config.pop("_recipe", None)
    args = grpo_config(config, sys.argv[1:])
    tokenizer = AutoTokenizer.from_pretrained(model)
    train = load_dataset("parquet", data_files=os.path.join(HERE, "train.parquet"), split="train")
    train = train.map(continue_prefill(tokenizer))
    peft_config = None
    if lora:
        from peft import LoraConfig

        peft_config = LoraConfig(task_type="CAUSAL_LM", **lora)
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=[reward_fn],
        args=args,
        train_dataset=train,
        processing_class=tokenizer,
        peft_config=peft_config,
    )
    trainer.train()
    # LoRA: adapter_config.json + adapter_model.safetensors (PEFT layout, loads in Baton with --lora);
    # full: a Hugging Face model directory (loads in Baton with --model).
    final = os.path.join(args.output_dir, "final")
    trainer.save_model(final)
    trainer.state.save_to_json(os.path.join(final, "trainer_state.json"))


if __name__ == "__main__":
    main()
