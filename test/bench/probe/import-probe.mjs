/**
 * One B2 + B11 sample in this fresh process: imports the bundle given as argv[2] (B2: how long the
 * import took, CPU and wall, and any socket the preload saw opened meanwhile), then, when argv[3]
 * names a JSON file holding an event, invokes the handler once with it as Lambda's runtime would
 * (B11: CPU and wall from the import's start to the first answer). Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [file, eventFile] = process.argv.slice(2);
if (!file) throw new Error('usage: node --import ./no-socket.mjs import-probe.mjs <bundle.mjs> [event.json]');
const event = eventFile ? JSON.parse(readFileSync(eventFile, 'utf8')) : undefined;
const bootMs = performance.now();
const cpuBefore = process.cpuUsage();
const started = performance.now();
const module = await import(pathToFileURL(file).href);
const importMs = performance.now() - started;
// CPU time of this process (all its threads) during the import: what other processes on a busy
// machine cannot inflate, unlike the wall time.
const cpu = process.cpuUsage(cpuBefore);
const importCpuMs = (cpu.user + cpu.system) / 1000;
// Anything the import scheduled (timers, promises) runs before the import's sockets are counted.
await new Promise((done) => setTimeout(done, 25));
const sockets = globalThis.__benchSocketCalls ? [...globalThis.__benchSocketCalls] : null;
const hasHandler = typeof module.handler === 'function';

let cold = null;
if (event !== undefined && hasHandler) {
  const invokeStarted = performance.now();
  const deadline = Date.now() + 30_000;
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'bench',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:bench',
    memoryLimitInMB: '1024',
    awsRequestId: crypto.randomUUID(),
    logGroupName: '/aws/lambda/bench',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  let answer;
  let error;
  try {
    answer = await module.handler(event, context);
  } catch (thrown) {
    error = String(thrown?.stack ?? thrown).slice(0, 600);
  }
  const invokeMs = performance.now() - invokeStarted;
  const total = process.cpuUsage(cpuBefore);
  cold = {
    // From the import's start to the first answer; the 25 ms pause above costs no CPU and is left
    // out of the wall figure.
    cpuMs: (total.user + total.system) / 1000,
    ms: importMs + invokeMs,
    invokeMs,
    status: answer?.statusCode ?? null,
    failures: Array.isArray(answer?.batchItemFailures) ? answer.batchItemFailures.length : null,
    error: error ?? null,
  };
}
process.stdout.write(`${JSON.stringify({ importMs, importCpuMs, bootMs, hasHandler, sockets, cold })}\n`);
// Keep-alive sockets of the SDK would hold the process open: the sample is taken.
process.exit(0);
