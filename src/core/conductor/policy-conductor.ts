/**
 * A Conductor from any core/rl Policy (Baton's engine, EnginePolicy, in the tab and under Node): one
 * completion of the Conductor prompt, continuing its prefill, sampled from the run's seed, its text
 * streamed as it decodes. Calls are taken one at a time, since a model on one GPU samples one sequence
 * group at a time.
 */
import type { ConductorInfo } from '../episodes/index.ts';
import { isRecursionRound, type Conductor } from '../orchestra/index.ts';
import type { ChatMessage } from '../providers/index.ts';
import type { ConstraintForPool, Policy } from '../rl/index.ts';

interface PolicyConductorOptions {
  info: ConductorInfo;
  workers: number;
  maxNewTokens: number;
  temperature: number;
  seed: number;
  /** Sample only plans that parse (the lists alone). */
  constraint?: ConstraintForPool;
  /** The first round's messages in place of the request's (the prompt a trained Conductor expects: its conductor.json). */
  firstRoundMessages?: ChatMessage[];
}

/** The last call queued on each policy: concurrent runs take turns on it. */
const queues = new WeakMap<Policy, Promise<unknown>>();

function inTurn<T>(policy: Policy, f: () => Promise<T>): Promise<T> {
  const next = (queues.get(policy) ?? Promise.resolve()).then(f, f);
  queues.set(
    policy,
    next.catch(() => {}),
  );
  return next;
}

export function createPolicyConductor(policy: Policy, options: PolicyConductorOptions): Conductor {
  return {
    info: { ...options.info, sampling: { temperature: options.temperature, maxNewTokens: options.maxNewTokens, seed: options.seed } },
    async generate(req) {
      const recursion = isRecursionRound(req.messages);
      const messages = !recursion && options.firstRoundMessages ? options.firstRoundMessages : req.messages;
      const constrained = options.constraint?.(options.workers, recursion);
      const [completion] = await inTurn(policy, () =>
        policy.generateGroup(messages, {
          n: 1,
          maxNewTokens: options.maxNewTokens,
          sampling: { temperature: options.temperature, seed: options.seed },
          continueFinal: messages.at(-1)?.role === 'assistant',
          ...(constrained ? { constraint: constrained.constraint, stopTokens: constrained.eosIds } : {}),
          ...(req.signal ? { signal: req.signal } : {}),
          ...(req.onDelta ? { onText: (_: number, delta: string) => req.onDelta!(delta) } : {}),
        }),
      );
      return { text: completion.text, tokenIds: completion.tokens, logprobs: completion.logprobs, ...(messages !== req.messages ? { prompt: messages } : {}) };
    },
  };
}
