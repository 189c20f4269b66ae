/**
 * A workflow step in words, for those who cannot see the graph: who does what, which earlier steps it
 * sees, and how it stands. Pure; tested by test/unit/app/components/workflow-graph/describe-step.test.ts.
 */
import { outcomeText } from '../../../core/episodes/index.ts';
import type { Access, Step } from '../../../core/workflow/index.ts';
import type { StepView } from '../../state/index.ts';

function listOf(numbers: number[]): string {
  return numbers.length === 1 ? String(numbers[0]) : `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

function seen(access: Access): string {
  if (access === 'all') return 'Sees every earlier step.';
  if (access.length === 0) return 'Sees only the task.';
  return `Sees step${access.length === 1 ? '' : 's'} ${listOf(access.map((i) => i + 1))}.`;
}

const STATUS: Record<StepView['status'], string> = {
  queued: 'Waiting.',
  running: 'Running.',
  done: 'Done.',
  failed: 'Failed.',
  stopped: 'Stopped.',
  'not-started': 'Not started.',
};

const sentence = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

export function describeStep(index: number, step: Step, workerLabel: string, view: StepView | undefined): string {
  const status = view?.outcome
    ? sentence(outcomeText(view.outcome))
    : view?.record?.error
      ? `Failed: ${view.record.error.message}`
      : STATUS[view?.status ?? 'queued'];
  return `Step ${index + 1}, ${workerLabel}: ${step.subtask} ${seen(step.access)} ${status}`;
}
