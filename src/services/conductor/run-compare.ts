/**
 * A comparison in the Conductor's web worker, on one AskSession: several plans sampled for one question and run
 * side by side as a group of episodes; one plan edited by hand and run again into the group; and a worker that
 * fuses the group's answers into one. Each run is an Ask run (its checks, its per-run dollar cap, stored as it
 * goes); only the Conductor differs. Test: test/unit/services/conductor/run-compare.test.ts.
 */
import { COMPARE_TAG, EDITED_TAG, FUSE_TAG, type Episode } from '../../core/episodes/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import { createFixedConductor, distinctPlans, type RunEvent } from '../../core/orchestra/index.ts';
import { parseWorkflow, renderWorkflow, type Workflow } from '../../core/workflow/index.ts';
import { COMPARE_RUNS, type CompareRequest, type EditedRunRequest, type FuseRequest } from './api.ts';
import { openAskSession } from './run-ask.ts';

type SessionContext = Parameters<typeof openAskSession>[1];

const refuse = (message: string) => new BatonError({ code: 'run/config', message });

/** The comparison's runs at once (a model Conductor writes their plans in turn); their episodes in the order asked. */
export async function runCompare(request: CompareRequest, run: SessionContext & { onEvent: (run: number, event: RunEvent) => void }): Promise<Episode[]> {
  const n = request.episodeIds.length;
  if (!(n >= COMPARE_RUNS.min && n <= COMPARE_RUNS.max)) throw refuse(`A comparison runs ${COMPARE_RUNS.min} to ${COMPARE_RUNS.max} workflows, not ${n}.`);
  const session = await openAskSession(request, run);
  const distinct = distinctPlans({ workers: session.pool.length, maxSteps: request.options.maxSteps, access: request.options.access });
  const another = () => session.conductor(true);
  return Promise.all(
    request.episodeIds.map(async (id, i) =>
      session.run({ id, conductor: distinct(await another(), another), tags: [COMPARE_TAG], group: request.group, onEvent: (e) => run.onEvent(i, e) }),
    ),
  );
}

/** The runs a fixed plan makes: one round, since the plan is the user's and has nothing to rethink. */
const oneRound = <R extends { options: CompareRequest['options'] }>(request: R): R => ({ ...request, options: { ...request.options, recursionDepth: 0 } });

/** An edited plan run as a new episode of the group, under the prompt of the run it came from. */
export async function runEdited(request: EditedRunRequest, run: SessionContext & { onEvent: (event: RunEvent) => void }): Promise<Episode> {
  const text = renderWorkflow(request.workflow);
  const parsed = parseWorkflow(text, { workers: request.pool.length, maxSteps: request.options.maxSteps, access: request.options.access });
  if (!parsed.ok) throw refuse(`The edited plan cannot run: ${parsed.error}`);
  const session = await openAskSession(oneRound(request), run);
  return session.run({
    id: request.episodeId,
    conductor: createFixedConductor(text, 'plan edited by hand'),
    prompt: request.prompt,
    tags: [COMPARE_TAG, EDITED_TAG],
    group: request.group,
    onEvent: run.onEvent,
  });
}

/** The subtask of the worker that fuses the answers. */
export function fuseSubtask(answers: readonly string[]): string {
  const shown = answers.map((a, i) => `<answer_${i + 1}>\n${a.trim()}\n</answer_${i + 1}>`).join('\n\n');
  return (
    `${answers.length} workflows answered the task on their own; their answers follow. Write the one best answer to the task: ` +
    'keep what they get right, mend what they get wrong, and where they disagree, work out which is right instead of counting votes. ' +
    'Answer the task directly, without mentioning the separate answers, and put the final answer inside <answer></answer> tags.\n\n' +
    shown
  );
}

/** The fused answer: one step of the chosen worker, stored in the group without a reward (it is no plan of the Conductor's to train on). */
export async function runFuse(request: FuseRequest, run: SessionContext & { onEvent: (event: RunEvent) => void }): Promise<Episode> {
  if (request.answers.length < 2) throw refuse('Fusing needs at least two answers: wait for the runs to finish.');
  if (!(Number.isInteger(request.worker) && request.worker >= 0 && request.worker < request.pool.length))
    throw refuse('Choose a worker of the pool to fuse the answers.');
  const plan: Workflow = { steps: [{ worker: request.worker, subtask: fuseSubtask(request.answers), access: [] }] };
  const session = await openAskSession(oneRound(request), run);
  return session.run({
    id: request.episodeId,
    conductor: createFixedConductor(renderWorkflow(plan), 'fuse the answers'),
    tags: [FUSE_TAG],
    group: request.group,
    ungraded: true,
    onEvent: run.onEvent,
  });
}
