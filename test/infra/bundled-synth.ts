/**
 * One synth with real bundling (the local esbuild, never Docker) shared by the infra test files
 * that need bundled assets: bundling every function takes minutes, so the first file to ask runs
 * it into the directory the tier's global setup made, and the others read the same cloud
 * assembly. A file that asks while the synth runs in another worker waits for its manifest.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { buildApp, type Json } from './support.ts';

export interface BundledSynth {
  /** The cloud assembly's directory (asset paths are relative to it). */
  directory: string;
  /** The root template first, then each nested stack's, as SAM CLI finds them. */
  templates: Json[];
  /** How long the synth took, in seconds. */
  seconds: number;
}

interface Manifest {
  directory?: string;
  /** Template files relative to the assembly directory, the root's first. */
  templateFiles?: string[];
  seconds?: number;
  /** Why the synth failed, so a waiting file fails too rather than waiting on. */
  error?: string;
}

let synth: Promise<BundledSynth> | undefined;

/** The bundled synth of the whole stack: run once per test run, read by every file that asks. */
export function bundledSynth(): Promise<BundledSynth> {
  synth ??= obtain();
  return synth;
}

async function obtain(): Promise<BundledSynth> {
  const dir = inject('bundledSynthDir');
  const manifestFile = path.join(dir, 'synth.json');
  let owner = false;
  try {
    mkdirSync(path.join(dir, 'lock'));
    owner = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (owner) writeManifest(manifestFile, run(path.join(dir, 'cdk.out')));
  const manifest = await manifestOf(manifestFile);
  if (manifest.error !== undefined) throw new Error(`the shared bundled synth failed: ${manifest.error}`);
  const directory = manifest.directory!;
  return {
    directory,
    templates: manifest.templateFiles!.map((file) =>
      JSON.parse(readFileSync(path.join(directory, file), 'utf8')),
    ),
    seconds: manifest.seconds!,
  };
}

function run(outdir: string): Manifest {
  try {
    const started = performance.now();
    const { app, stack } = buildApp({ bundle: true, outdir });
    const assembly = app.synth();
    const seconds = (performance.now() - started) / 1000;
    const root = assembly.getStackByName(stack.stackName);
    // A nested stack's template is the file its AWS::CloudFormation::Stack resource names.
    const nestedFiles = Object.values((root.template as Json).Resources as Record<string, Json>)
      .filter((resource) => resource.Type === 'AWS::CloudFormation::Stack')
      .map((resource) => {
        if (resource.Metadata['aws:asset:property'] !== 'TemplateURL')
          throw new Error('a nested stack without its template asset');
        return resource.Metadata['aws:asset:path'] as string;
      });
    return { directory: assembly.directory, templateFiles: [root.templateFile, ...nestedFiles], seconds };
  } catch (error) {
    return { error: String((error as Error)?.stack ?? error) };
  }
}

/** Written whole under another name first, so a reader never sees half of it. */
function writeManifest(file: string, manifest: Manifest): void {
  writeFileSync(`${file}.part`, JSON.stringify(manifest));
  renameSync(`${file}.part`, file);
}

/** The manifest once the synth that owns the lock has written it. */
function manifestOf(file: string): Promise<Manifest> {
  return new Promise((resolve, reject) => {
    const read = () => JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    if (existsSync(file)) return resolve(read());
    const watcher = watch(path.dirname(file), () => {
      if (!existsSync(file)) return;
      watcher.close();
      resolve(read());
    });
    watcher.on('error', (error) => {
      watcher.close();
      reject(error);
    });
    // The file may have appeared between the first look and the watch.
    if (existsSync(file)) {
      watcher.close();
      resolve(read());
    }
  });
}
