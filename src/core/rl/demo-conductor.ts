/**
 * The demo Conductor in public/demo-conductor is trained (src/node/make-demo-conductor.ts) to route
 * over the demo pool under this format, so the app runs it the same way: the compact prompt, the
 * lists alone, fixed subtask texts, one step (which worker answers), greedy decoding (the app's
 * engine settings). A plan of its own then depends on the question as it learnt to, where any other
 * format would be text it never saw.
 */
import { FIXED_SUBTASKS } from '../workflow/constrain/index.ts';

export const DEMO_CONDUCTOR_FORMAT = { maxSteps: 1, fixedSubtasks: FIXED_SUBTASKS } as const;
