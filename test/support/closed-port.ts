/** A port on 127.0.0.1 that nothing listens on: bound, then closed (a worker "down"). */
import { createServer } from 'node:net';

export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
