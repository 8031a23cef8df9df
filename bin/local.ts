/**
 * `npm start`: the API on real local engines. Options: `--fresh` starts with empty data.
 * Environment: PORT (default 3000), ROOT_TOKEN (the admin token to accept), DATA_DIR.
 */
import { JAVA_MISSING } from './local/engines.ts';
import { startLocalRuntime } from './local/runtime.ts';

const fresh = process.argv.includes('--fresh');
const port = Number(process.env.PORT ?? 3000);

try {
  const runtime = await startLocalRuntime({
    port,
    fresh,
    dataDir: process.env.DATA_DIR,
    rootToken: process.env.ROOT_TOKEN || undefined,
  });
  process.stdout.write(
    [
      '',
      `GitLab-compatible API listening on ${runtime.apiUrl}`,
      `Admin user:  root`,
      `Admin token: ${runtime.rootToken}`,
      `Try: curl -H "PRIVATE-TOKEN: ${runtime.rootToken}" ${runtime.apiUrl}/user`,
      '',
    ].join('\n'),
  );
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGHUP', shutdown);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message === JAVA_MISSING ? JAVA_MISSING : `Could not start: ${message}`}\n`);
  process.exit(1);
}
