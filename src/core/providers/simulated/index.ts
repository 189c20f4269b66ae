export { createSimulatedWorker } from './simulated-chat-model.ts';
export { planSimulatedCall } from './plan-simulated-call.ts';
export { DEMO_POOL } from './demo-pool.ts';
export { choiceLetters, goldAnswer, goldLetter } from './gold.ts';
export { EXPERTS_POOL } from './experts-pool.ts';
