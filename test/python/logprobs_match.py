"""Token logprobs from transformers (with PEFT's adapter when --lora is given) for the tokens `baton logprobs`
printed, and transformers' own tokenisation of the same text. Prints one JSON line:
{"maxDiff": largest |logprob difference|, "tokensMatch": whether the tokenizer gave Baton's ids}.

usage: python logprobs_match.py MODEL_DIR BATON_LOGPROBS_JSON TEXT [--lora ADAPTER_DIR]
"""

import argparse
import json

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def main():
    cli = argparse.ArgumentParser()
    cli.add_argument("model")
    cli.add_argument("baton_json")
    cli.add_argument("text")
    cli.add_argument("--lora")
    args = cli.parse_args()
    with open(args.baton_json) as f:
        baton = json.load(f)
    tokens = baton["tokens"]
    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.float32)
    if args.lora:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, args.lora)
    model.eval()
    ids = torch.tensor([tokens])
    with torch.no_grad():
        logits = model(ids).logits[0].double()
    ours = torch.log_softmax(logits, -1)[:-1].gather(1, ids[0, 1:, None]).squeeze(1).tolist()
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    print(
        json.dumps(
            {
                "maxDiff": max(abs(a - b) for a, b in zip(ours, baton["logprobs"], strict=True)),
                "tokensMatch": tokenizer(args.text)["input_ids"] == tokens,
            }
        )
    )


if __name__ == "__main__":
    main()
