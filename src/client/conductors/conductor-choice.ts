/** Which Conductor writes the workflows: the app stores this choice; the client builds the Conductor. */
export type ConductorChoice =
  | { kind: 'demo' }
  | { kind: 'worker'; workerId: string }
  | { kind: 'remote'; baseUrl: string; model: string };
