/**
 * B6's load generator, run in its own process so it does not share the gateway's event loop:
 * autocannon against one URL on loopback for a bounded time and count. Every response's latency
 * is kept (autocannon's own histogram has millisecond resolution) and summarised as one JSON line.
 *
 * argv: one JSON object {url, headers, connections, durationSec, maxRequests}
 */
import autocannon from 'autocannon';
import { summarize } from './latency.ts';

interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSec: number;
  maxRequests: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
if (!options.url?.startsWith('http://127.0.0.1:')) throw new Error('load goes to 127.0.0.1 only');

const latencies: number[] = [];
const statuses: Record<string, number> = {};
const instance = autocannon(
  {
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    duration: options.durationSec,
    maxOverallRequests: options.maxRequests,
    timeout: 10,
  },
  (error, result) => {
    if (error) {
      process.stderr.write(`${error.stack ?? error.message}\n`);
      process.exit(1);
    }
    process.stdout.write(
      `${JSON.stringify({
        ...summarize(latencies, result.duration * 1000),
        statuses,
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        durationSec: result.duration,
      })}\n`,
    );
  },
);
instance.on('response', (_client, statusCode, _bytes, ms) => {
  latencies.push(ms);
  statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
});
