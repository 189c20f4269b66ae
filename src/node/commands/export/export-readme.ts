/** The README.md `baton export` writes beside the files: start the reward server, train, bring the result back. */
import { TRL_VERSION } from './launch-files.ts';
import { EXPORT_DEFAULTS, learningRate, PAPER_RECIPE, type TuneMode } from './recipe.ts';

export interface ReadmeFacts {
  engine: 'trl' | 'verl';
  model: string;
  mode: TuneMode;
  rewardUrl: string;
  maxSteps: number;
  tasks: string;
  train: number;
  heldOut: number;
  workers: number;
}

const R = PAPER_RECIPE;

function columns(engine: ReadmeFacts['engine']): string {
  return engine === 'trl'
    ? `  - \`prompt\`: Baton's Conductor prompt as chat messages (system, user, and the assistant prefill the Conductor
    continues; GRPOTrainer would close that last message, so train_trl.py renders the prompt with it left open)
  - \`question\`, \`answer\`, \`kind\`, \`choices\`: what the reward server grades with (TRL passes them to the reward function)`
    : `  - \`data_source\`, \`ability\` (the task kind)
  - \`prompt\`: Baton's Conductor prompt as chat messages (system, user; verl adds the generation prompt itself, so the
    assistant prefill Baton's own sampler continues is left out and the Conductor starts its reasoning on its own)
  - \`reward_model\`: \`{style: "rule", ground_truth}\`; \`extra_info\`: \`{split, index, question, kind, choices, item_id}\``;
}

function trainStep(f: ReadmeFacts): string {
  return f.engine === 'trl'
    ? `pip install trl==${TRL_VERSION} peft vllm accelerate datasets      # TRL's GRPOTrainer with vLLM rollouts
MODEL=${f.model} NUM_GPUS=${R.gpus} bash launch.sh`
    : `pip install verl vllm                              # see verl's installation guide for your CUDA
MODEL=${f.model} NUM_GPUS=${R.gpus} bash launch.sh`;
}

function comingBack(f: ReadmeFacts): string {
  const where = f.engine === 'trl' ? 'runs/conductor/final' : "the directory verl's model merger writes";
  const state = f.engine === 'trl' ? ' (beside it `trainer_state.json`: the metrics TRL logged, step by step)' : '';
  const verlMerge =
    f.engine === 'verl'
      ? `verl saves FSDP shards under runs/conductor/global_step_N/actor; turn the last one into a Hugging Face directory
(and, for LoRA, a PEFT adapter) with verl's model merger, e.g.
\`python3 -m verl.model_merger merge --backend fsdp --local_dir runs/conductor/global_step_${R.steps}/actor --target_dir merged\`
(its options differ between verl versions: see its docs).

`
      : '';
  const load =
    f.mode === 'lora'
      ? `${where} then holds \`adapter_config.json\` and \`adapter_model.safetensors\` (PEFT's layout)${state}. With the base model
downloaded to a folder (BASE):

    npx baton logprobs --model BASE --lora ${f.engine === 'trl' ? where : 'ADAPTER_DIR'} --text 'Hello'
    npx baton generate --model BASE --lora ${f.engine === 'trl' ? where : 'ADAPTER_DIR'} --prompt '...' --json

or, on the Conductor page, "a model of your own on Baton's engine" with the base folder and the adapter folder.`
      : `${where} is a Hugging Face model directory (config.json, safetensors, tokenizer):

    npx baton logprobs --model ${f.engine === 'trl' ? where : 'merged'} --text 'Hello'

or load that folder on the Conductor page.`;
  return `${verlMerge}${load} Baton reads adapters in PEFT's layout as PEFT and TRL write them (checked with the real
libraries by \`npm run verify:python\` in Baton's repository).`;
}

export function exportReadme(f: ReadmeFacts): string {
  const engineName = f.engine === 'trl' ? 'TRL (GRPOTrainer)' : 'verl';
  const mode =
    f.mode === 'lora'
      ? `LoRA (r ${EXPORT_DEFAULTS.lora.r}, alpha ${EXPORT_DEFAULTS.lora.alpha}, all linear layers, lr ${learningRate('lora')}: the paper fine-tuned the whole model; LoRA wants a larger rate)`
      : `full fine-tuning (the paper's: lr ${learningRate('full')})`;
  return `# Training Baton's Conductor with ${engineName}

Written by \`baton export ${f.engine}\`: ${f.train} training questions${f.heldOut ? ` and ${f.heldOut} held out` : ''} from \`${f.tasks}\`,
prompted for a pool of ${f.workers} workers (pool.json), workflows of at most ${f.maxSteps} steps; base model \`${f.model}\`, ${mode}.

The trainer samples the Conductor's workflows; **Baton's reward server** runs each one on the worker pool and
grades it: 1 right, 0.5 wrong answer, 0 when the workflow does not parse (the paper's reward, computed by the
same code as Baton's own GRPO loop), and keeps every run as an episode (\`npx baton episodes stats\`).

## Files
- \`train.parquet\`, \`train.jsonl\`${f.heldOut ? ', `test.parquet`, `test.jsonl`' : ''}: the questions, one row each, in ${engineName}'s columns:
${columns(f.engine)}
- \`baton_reward.py\`: the reward functions (Python standard library only): \`reward_fn(prompts, completions, **kwargs)\`
  for TRL, \`compute_score(data_source, solution_str, ground_truth, extra_info=None)\` and \`compute_score_batch(...)\` for verl
- ${f.engine === 'trl' ? '`grpo_config.json` (TRL GRPOConfig fields), `train_trl.py`, `launch.sh`' : '`launch.sh` (verl main_ppo overrides)'}: the paper's recipe
- \`pool.json\`: the worker pool the prompts were written for; \`baton-export.json\`: what was exported, and how

## The recipe (the paper's: Nielsen et al., ICLR 2026, arXiv 2512.04388)
G = ${R.group} rollouts for each of ${R.questionsPerStep} questions a step (batch ${R.group * R.questionsPerStep}), ${R.steps} steps, AdamW lr ${R.learningRate}
(betas ${R.adamBetas.join(', ')}, eps ${R.adamEpsilon}, weight decay ${R.weightDecay}), cosine schedule with ${R.warmupRatio * 100}% warm-up, gradient clipping ${R.gradClip},
beta ${R.beta} (no KL, no reference model), epsilon ${R.epsilon}, one update per batch, token-level mean loss, temperature
${R.temperature}, top-p ${R.topP}, ${R.maxCompletionTokens} new tokens, bf16 with gradient checkpointing, ${R.gpus} GPUs.${
    f.engine === 'trl'
      ? ` Written for TRL ${TRL_VERSION}
(its GRPOConfig fields and defaults move between releases: every recipe field is set, loss_type "dapo" is its
token-level mean over the whole accumulated batch).`
      : ` Prompts are cut at ${EXPORT_DEFAULTS.maxPromptTokens} tokens
(Baton's prompt is about 1,000). launch.sh's keys are those of verl 0.8's configuration (\`optim.warmup_style\` and
\`reward_model.reward_manager\` being its deprecated names, still read, which older releases know too).`
  }

## 1. Start the reward server
On a machine that can call the workers (their API keys in its environment) and that the trainer can reach, in a
checkout of Baton with this directory's pool.json:

    npx baton serve-reward --pool pool.json --max-steps ${f.maxSteps} --port 8400 --concurrency 64 --budget 100

It prints \`{"url": ...}\` when it listens. To serve another machine, listen beyond loopback with a token:
\`--host 0.0.0.0 --token "$BATON_REWARD_TOKEN"\`, and on the trainer set \`BATON_REWARD_URL=http://HOST:8400/v1/reward\`
and the same \`BATON_REWARD_TOKEN\` (this export's default URL is ${f.rewardUrl}). \`--budget\` caps the dollars all
worker calls may cost; past it every request is refused (402) and the trainer stops with that reason.

## 2. Run the trainer

    ${trainStep(f).split('\n').join('\n    ')}

launch.sh checks that the reward server answers before it starts.${
    f.engine === 'trl'
      ? ` Its arguments are GRPOConfig fields over grpo_config.json's,
e.g. a smoke run on a CPU: \`NUM_GPUS=1 bash launch.sh --max_steps 2 --num_generations 4 --per_device_train_batch_size 8
--gradient_accumulation_steps 1 --use_vllm false --bf16 false --use_cpu true\`.`
      : ''
  }

**A worker down.** A completion whose worker call failed (an API outage, the budget) says nothing about the plan,
so it should not be trained on. ${
    f.engine === 'trl'
      ? '`reward_fn` gives it the mean reward of the other completions of the same question in the batch'
      : "`compute_score_batch` (verl's batch reward manager, as launch.sh sets) gives it the mean reward of the other completions of the same question in the batch"
  }, so its advantage is 0 and it moves the policy neither way; no NaN or None reaches the trainer.${
    f.engine === 'verl'
      ? " verl's per-sample manager with `compute_score` cannot see the group: it scores such a completion 0 (as the paper's code did) and reports `infra_error`."
      : ''
  } The server's \`GET /health\` counts them, and each is kept as an episode with its error.

## 3. Bring the Conductor back to Baton
${comingBack(f)}
`;
}
