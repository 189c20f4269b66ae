/** Which stored key each pool worker uses and where that key may go (no storage here: see src/client/keys). */
export { callsRemoteApi, keyDestination, keySlot } from './key-slot.ts';
