/**
 * The scalar reward of one Conductor rollout. The paper's scheme: 0 when the workflow does not
 * parse, 0.5 when it parses but the final answer is wrong, 1 when correct; the authors' code
 * uses 0 / 0.5 / 1.5 (correctness plus a format bonus). Same order, so after group
 * normalisation only the spacing differs. A failed worker call is an infrastructure error: it
 * says nothing about the Conductor's choice, so it is flagged and kept out of training.
 */
/** An episode's reward, as stored with it. */
export interface Reward {
  value: number;
  correct: boolean;
  format: boolean;
  /** A worker call failed: the run says nothing about the Conductor's choice; kept out of training. */
  infraError?: boolean;
  details?: Record<string, unknown>;
}

export interface RewardScheme {
  /** The workflow did not parse. */
  formatError: number;
  /** Parsed, final answer wrong. */
  wrong: number;
  /** Parsed, final answer correct. */
  correct: number;
  /** Subtracted per dollar spent on workers (0 in the paper). */
  costWeight?: number;
}

export const PAPER_REWARD: Readonly<RewardScheme> = Object.freeze({ formatError: 0, wrong: 0.5, correct: 1 });
export const CODE_REWARD: Readonly<RewardScheme> = Object.freeze({ formatError: 0, wrong: 0.5, correct: 1.5 });

/**
 * A parsed plan's cost-aware reward is wrong + (correct - wrong) x [right] - costWeight x dollars: it ranks plans as
 * [right] - lambda x dollars does for lambda = costWeight / (correct - wrong). That accuracy-scale lambda is the one
 * `baton eval`'s hindsight rows and core/bench's cost routing weigh dollars with; costWeightFor goes back.
 */
export const accuracyLambda = (costWeight: number, scheme: Readonly<RewardScheme> = PAPER_REWARD): number => costWeight / (scheme.correct - scheme.wrong);
export const costWeightFor = (lambda: number, scheme: Readonly<RewardScheme> = PAPER_REWARD): number => lambda * (scheme.correct - scheme.wrong);

interface RolloutOutcome {
  /** The Conductor's workflow parsed and validated. */
  parsed: boolean;
  /** The final answer was graded correct. */
  correct: boolean;
  /** A worker call failed for reasons outside the Conductor's control. */
  infraError?: boolean;
  /** Dollars spent on workers, for a scheme with a cost weight. */
  costUsd?: number | null;
  /** Kept on the Reward record as they are (e.g. the extracted and gold answers). */
  details?: Record<string, unknown>;
}

export function computeReward(outcome: RolloutOutcome, scheme: Readonly<RewardScheme> = PAPER_REWARD): Reward {
  const details = outcome.details ? { details: outcome.details } : {};
  if (outcome.infraError) {
    return { value: 0, correct: false, format: outcome.parsed, infraError: true, ...details };
  }
  if (!outcome.parsed) return { value: scheme.formatError, correct: false, format: false, ...details };
  const base = outcome.correct ? scheme.correct : scheme.wrong;
  const cost = (scheme.costWeight ?? 0) * (outcome.costUsd ?? 0);
  return { value: base - cost, correct: outcome.correct, format: true, ...details };
}
