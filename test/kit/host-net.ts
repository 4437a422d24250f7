/** Ports on 127.0.0.1 for integration and e2e tests (a unit test may not listen: test/kit/unit-guard.ts). */
import { createServer } from 'node:net';

/** A local port nothing listens on: bound, then released (free for a server to take, or closed for a client to fail on). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', () => ok()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((ok) => srv.close(() => ok()));
  return port;
}
