import { toBatonError } from '../../core/errors/index.ts';

/** A page's state that says on the page why its last action failed (a refused start, an export with nothing to export). */
interface ActionErrorHolder {
  actionError: string | undefined;
}

/** Runs one of the page's actions (Start, Stop, Resume…): the error's message if it fails, cleared when the next one starts. */
export async function runAction(page: ActionErrorHolder, action: () => Promise<void>): Promise<void> {
  page.actionError = undefined;
  try {
    await action();
  } catch (e) {
    page.actionError = toBatonError(e).message;
  }
}
