/**
 * `proofpr serve`: start the App server (webhooks + queue + workers) and run until SIGINT/SIGTERM.
 * Resolves to the exit code: 0 after a clean shutdown, 2 for a configuration error.
 */
import { startServer, type StartServerOptions } from '../probot/server.js';
import { ServerEnvError } from '../probot/server-env.js';
import { SqliteUnavailableError } from '../../jobs/db.js';

export async function serveCommand(opts: StartServerOptions = {}): Promise<number> {
  let server;
  try {
    server = await startServer(opts);
  } catch (e) {
    if (e instanceof ServerEnvError || e instanceof SqliteUnavailableError) {
      process.stderr.write(`proofpr serve: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  process.stderr.write(`proofpr serve: listening on port ${server.port} (webhooks at ${server.env.webhookPath}, state in ${server.env.home})\n`);
  const running = server;
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void running.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}
