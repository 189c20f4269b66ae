/**
 * What a screen reader hears of a run, one sentence per phase: waiting for the plan, the plan being
 * written, steps done so far, the result. It changes only when the phase or the count of finished steps
 * does, so a live region announces progress without reading every streamed token.
 * Tested by test/unit/app/state/run-announcement.test.ts.
 */
import type { RunStatus } from './run.svelte.ts';
import { noAnswerReason, type RunView } from './run-view.ts';

export function announceRun(status: RunStatus, view: RunView, error?: { message: string }): string {
  switch (status) {
    case 'idle':
      return '';
    case 'stopped':
      return 'Run stopped.';
    case 'error':
      return `Run failed: ${error?.message ?? 'unknown error'}`;
    case 'done':
      return announceResult(view);
    case 'running': {
      const round = view.rounds.at(-1);
      const prefix = view.rounds.length > 1 ? `Round ${view.rounds.length}: ` : '';
      if (!round || (round.conductorText === '' && !round.conductorDone)) return `${prefix}Waiting for the Conductor.`;
      if (!round.workflow) return `${prefix}The Conductor is writing its plan.`;
      const finished = round.steps.filter((s) => s?.status === 'done' || s?.status === 'failed').length;
      return `${prefix}${finished} of ${round.workflow.steps.length} steps done.`;
    }
  }
}

function announceResult(view: RunView): string {
  const episode = view.episode;
  if (!episode) return 'Run finished.';
  if (episode.final.trim() === '') return `Run finished with no answer: ${noAnswerReason(view, episode.status)}`;
  const reward = episode.reward;
  const grade = !reward ? '' : reward.infraError ? ', not graded' : reward.correct ? ', graded correct' : ', graded wrong';
  return `Run finished: answered${grade}.`;
}
