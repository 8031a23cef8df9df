/** Structured JSON logs, one line per event. Tokens never reach a log line: callers pass ids only. */
import { config } from '#config/env.ts';

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, 'silent'>;

const SECRET_KEYS = /token|password|secret|authorization/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const safe: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) safe[key] = SECRET_KEYS.test(key) ? '[redacted]' : value;
  return safe;
}

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (levels[level] < levels[config.logLevel]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...redact(fields) });
  if (level === 'error' || level === 'warn') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}
