/**
 * The launch script and configuration `baton export` writes for each engine, from PAPER_RECIPE: TRL's
 * GRPOConfig as grpo_config.json (read by train_trl.py) and an accelerate launch; verl's main_ppo
 * overrides in launch.sh, with compute_score_batch as its reward (batch reward manager).
 */
import { EXPORT_DEFAULTS, learningRate, PAPER_RECIPE, type TuneMode } from './recipe.ts';

export interface LaunchOptions {
  model: string;
  mode: TuneMode;
  rewardUrl: string;
  /** Whether a held-out file (test.parquet) was written. */
  heldOut: boolean;
}

const R = PAPER_RECIPE;

/** The TRL release the TRL export is written and checked for (`npm run verify:python`); GRPOConfig's fields and defaults move. */
export const TRL_VERSION = '1.13.0';

/**
 * TRL GRPOConfig fields (names as TRL 1.13 spells them), plus "model" and, for LoRA, "lora" (PEFT LoraConfig).
 * Every recipe field is written out, the defaults too, so a TRL whose defaults moved still trains the recipe.
 */
export function trlConfig(o: LaunchOptions): Record<string, unknown> {
  const accumulation = (R.questionsPerStep * R.group) / (R.gpus * EXPORT_DEFAULTS.perDeviceBatch);
  return {
    _recipe: `The paper's (Nielsen et al., ICLR 2026): G=${R.group}, ${R.questionsPerStep} questions a step, lr ${R.learningRate} cosine with ${R.warmupRatio * 100}% warm-up, beta 0, epsilon 0.2, temperature 1, ${R.maxCompletionTokens} new tokens, ${R.steps} steps, ${R.gpus} GPUs.${o.mode === 'lora' ? ` LoRA (not the paper's full fine-tune): r ${EXPORT_DEFAULTS.lora.r}, alpha ${EXPORT_DEFAULTS.lora.alpha}, lr ${EXPORT_DEFAULTS.lora.learningRate}.` : ''}`,
    model: o.model,
    output_dir: 'runs/conductor',
    max_steps: R.steps,
    learning_rate: learningRate(o.mode),
    lr_scheduler_type: R.scheduler,
    // transformers 5 took warmup_ratio out: a warmup_steps below 1 is the ratio.
    warmup_steps: R.warmupRatio,
    adam_beta1: R.adamBetas[0],
    adam_beta2: R.adamBetas[1],
    adam_epsilon: R.adamEpsilon,
    weight_decay: R.weightDecay,
    max_grad_norm: R.gradClip,
    num_generations: R.group,
    // per device x GPUs x accumulation = questions x G sequences a step
    per_device_train_batch_size: EXPORT_DEFAULTS.perDeviceBatch,
    gradient_accumulation_steps: accumulation,
    num_iterations: R.updatesPerBatch,
    beta: R.beta,
    epsilon: R.epsilon,
    loss_type: 'dapo',
    scale_rewards: 'group',
    temperature: R.temperature,
    top_p: R.topP,
    max_completion_length: R.maxCompletionTokens,
    bf16: true,
    gradient_checkpointing: true,
    use_vllm: true,
    vllm_mode: 'colocate',
    logging_steps: 1,
    save_steps: 50,
    report_to: 'none',
    ...(o.mode === 'lora'
      ? { lora: { r: EXPORT_DEFAULTS.lora.r, lora_alpha: EXPORT_DEFAULTS.lora.alpha, lora_dropout: 0.0, target_modules: 'all-linear' } }
      : {}),
  };
}

const healthCheck = (rewardUrl: string) => `REWARD_URL="\${BATON_REWARD_URL:-${rewardUrl}}"
export BATON_REWARD_URL="$REWARD_URL"
# Fail early, with the reason, when the reward server is not up.
python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=10)' "\${REWARD_URL%/v1/reward}/health" \\
  || { echo "The reward server at $REWARD_URL does not answer: start it first (see README.md)." >&2; exit 1; }`;

export function trlLaunch(o: LaunchOptions): string {
  return `#!/usr/bin/env bash
# GRPO on the Conductor with TRL ${TRL_VERSION} (written by baton export trl). MODEL=... and NUM_GPUS=... override the
# defaults; arguments are GRPOConfig fields over grpo_config.json's (e.g. --max_steps 2 --use_vllm false).
set -euo pipefail
cd "$(dirname "$0")"
${healthCheck(o.rewardUrl)}
export MODEL="\${MODEL:-${o.model}}"
accelerate launch --num_processes "\${NUM_GPUS:-${R.gpus}}" train_trl.py "$@"
`;
}

/** verl's trainer.main_ppo overrides (Hydra), one a line. */
function verlOverrides(o: LaunchOptions): string[] {
  const lora =
    o.mode === 'lora'
      ? [
          `actor_rollout_ref.model.lora_rank=${EXPORT_DEFAULTS.lora.r}`,
          `actor_rollout_ref.model.lora_alpha=${EXPORT_DEFAULTS.lora.alpha}`,
          'actor_rollout_ref.model.target_modules=all-linear',
        ]
      : [];
  return [
    'algorithm.adv_estimator=grpo',
    'algorithm.norm_adv_by_std_in_grpo=True',
    'algorithm.use_kl_in_reward=False',
    'data.train_files=train.parquet',
    `data.val_files=${o.heldOut ? 'test.parquet' : 'train.parquet'}`,
    `data.train_batch_size=${R.questionsPerStep}`,
    `data.max_prompt_length=${EXPORT_DEFAULTS.maxPromptTokens}`,
    `data.max_response_length=${R.maxCompletionTokens}`,
    'data.filter_overlong_prompts=True',
    '"actor_rollout_ref.model.path=${MODEL}"',
    'actor_rollout_ref.model.enable_gradient_checkpointing=True',
    ...lora,
    `actor_rollout_ref.actor.optim.lr=${learningRate(o.mode)}`,
    `actor_rollout_ref.actor.optim.lr_warmup_steps_ratio=${R.warmupRatio}`,
    `actor_rollout_ref.actor.optim.warmup_style=${R.scheduler}`,
    `actor_rollout_ref.actor.optim.weight_decay=${R.weightDecay}`,
    `actor_rollout_ref.actor.grad_clip=${R.gradClip}`,
    `actor_rollout_ref.actor.ppo_mini_batch_size=${R.questionsPerStep}`,
    `actor_rollout_ref.actor.ppo_epochs=${R.updatesPerBatch}`,
    'actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4',
    `actor_rollout_ref.actor.clip_ratio=${R.epsilon}`,
    `actor_rollout_ref.actor.loss_agg_mode=${R.lossAggregation}`,
    'actor_rollout_ref.actor.use_kl_loss=False',
    `actor_rollout_ref.actor.kl_loss_coef=${R.beta}`,
    'actor_rollout_ref.actor.entropy_coeff=0',
    'actor_rollout_ref.rollout.name=vllm',
    `actor_rollout_ref.rollout.n=${R.group}`,
    `actor_rollout_ref.rollout.temperature=${R.temperature}`,
    `actor_rollout_ref.rollout.top_p=${R.topP}`,
    'actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8',
    'actor_rollout_ref.rollout.gpu_memory_utilization=0.5',
    'reward_model.reward_manager=batch',
    'custom_reward_function.path=baton_reward.py',
    'custom_reward_function.name=compute_score_batch',
    `trainer.total_training_steps=${R.steps}`,
    '"trainer.n_gpus_per_node=${NUM_GPUS}"',
    'trainer.nnodes=1',
    `trainer.val_before_train=${o.heldOut ? 'True' : 'False'}`,
    `trainer.test_freq=${o.heldOut ? 20 : -1}`,
    'trainer.save_freq=50',
    'trainer.logger=[console]',
    'trainer.project_name=baton-conductor',
    'trainer.experiment_name=conductor',
    'trainer.default_local_dir=runs/conductor',
  ];
}

export function verlLaunch(o: LaunchOptions): string {
  return `#!/usr/bin/env bash
# GRPO on the Conductor with verl (written by baton export verl). MODEL=... and NUM_GPUS=... override the defaults;
# extra Hydra overrides given to this script are passed on (e.g. trainer.logger=[console,wandb]).
set -euo pipefail
cd "$(dirname "$0")"
${healthCheck(o.rewardUrl)}
MODEL="\${MODEL:-${o.model}}"
NUM_GPUS="\${NUM_GPUS:-${R.gpus}}"
python3 -m verl.trainer.main_ppo \\
${verlOverrides(o)
  .map((line) => `  ${line} \\`)
  .join('\n')}
  "$@"
`;
}
