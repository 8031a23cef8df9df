/**
 * One B2 sample: imports the bundle given as argv[2] in this fresh process and prints, as one JSON
 * line, how long the import took (wall and CPU time) and any socket the preload saw opened.
 */
import { pathToFileURL } from 'node:url';

const file = process.argv[2];
if (!file) throw new Error('usage: node --import ./no-socket.mjs import-probe.mjs <bundle.mjs>');
const bootMs = performance.now();
const cpuBefore = process.cpuUsage();
const started = performance.now();
const module = await import(pathToFileURL(file).href);
const importMs = performance.now() - started;
// CPU time of this process (all its threads) during the import: what other processes on a busy
// machine cannot inflate, unlike the wall time.
const cpu = process.cpuUsage(cpuBefore);
const importCpuMs = (cpu.user + cpu.system) / 1000;
// Let anything the import scheduled (timers, promises) run before reporting.
await new Promise((done) => setTimeout(done, 25));
process.stdout.write(
  `${JSON.stringify({
    importMs,
    importCpuMs,
    bootMs,
    hasHandler: typeof module.handler === 'function',
    sockets: globalThis.__benchSocketCalls ?? null,
  })}\n`,
);
