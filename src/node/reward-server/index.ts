/** The reward server an outside RL trainer calls (baton serve-reward), and the kinds of task it grades. */
export { REWARD_KINDS } from './reward-request.ts';
export { isLoopback, startRewardServer, type RewardServer } from './reward-server.ts';
