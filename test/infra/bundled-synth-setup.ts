/**
 * The infra tier's global setup: a directory for the one bundled synth its test files share
 * (test/infra/bundled-synth.ts), removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    bundledSynthDir: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'gitlab-api-bundled-'));
  project.provide('bundledSynthDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
