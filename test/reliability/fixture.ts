// Shared helpers of the reliability tests (races, crash, hostile, doctor):
// in-process and spawned CLI runs, and a collaboration folder on which many
// writers can append valid events at once.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCli } from '../../acp.ts';
import { atLeast } from '../scale.ts';

/** The repository root. */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The bundled CLI (`node scripts/build.mjs`; `npm test` builds it first). */
export const DIST = join(REPO, 'dist', 'acp.mjs');
/** Long mode (`npm run test:long`): the long counts of issue 5. */
export const LONG = atLeast('long');

/** What a CLI run produced. */
export interface Run {
  rc: number | null;
  stdout: string;
  stderr: string;
  signal?: NodeJS.Signals | null;
}

/** The CLI in this process (fast; the same code path as `main()` minus `process`). */
export async function cli(argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const rc = await runCli({ argv, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
  return { rc, stdout, stderr };
}

/** `node dist/acp.mjs …` (or another node script) as a child process. */
export function spawnNode(args: string[], options: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => void (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => void (stderr += t));
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
    child.on('close', (rc, signal) => {
      if (timer) clearTimeout(timer);
      done({ rc, stdout, stderr, signal });
    });
  });
}

/** Run the bundled CLI as a child process. */
export function spawnCli(argv: string[], options: { timeoutMs?: number } = {}): Promise<Run> {
  return spawnNode([DIST, ...argv], options);
}

/** The supporting deliverable every racer appends `deliverable_drafted` for. */
export const NOTES_REF = 'deliverables/notes.md';

/**
 * A fresh folder with `participants` (the first owns the proposal) and one
 * declared supporting deliverable. Supporting deliverable events have no
 * state effect (spec §5), so any participant may append
 * `deliverable_drafted --role supporting` at any time: the one event that
 * many concurrent writers can all append validly.
 */
export async function makeFolder(root: string, participants: string[]): Promise<string> {
  const folder = join(root, 'collab');
  const init = await cli([
    'init', '--folder', folder, '--objective', 'Race the log', '--completion', 'Nothing is lost',
    '--primary-deliverable-type', 'adr', ...participants.flatMap((p) => ['--participant', p]),
  ]);
  if (init.rc !== 0) throw new Error(`init failed: ${init.stderr}`);
  const path = join(folder, 'protocol.json');
  const protocol = JSON.parse(readFileSync(path, 'utf8'));
  protocol.deliverables.supporting = [{ type: 'custom', file: 'notes.md', checklist: ['Notes'] }];
  writeFileSync(path, `${JSON.stringify(protocol, null, 2)}\n`);
  mkdirSync(join(folder, 'deliverables'), { recursive: true });
  writeFileSync(join(folder, NOTES_REF), '# Notes\n\nDeliverable type: `custom`\nStatus: Draft\n\n## Notes\n\n');
  return folder;
}

/** The arguments of one racer append; `summary` identifies it. */
export function racerAppend(folder: string, participant: string, summary: string): string[] {
  return ['append', '--folder', folder, '--participant', participant, '--event', 'deliverable_drafted', '--summary', summary, '--reply-to', '1', '--role', 'supporting', '--doc', NOTES_REF, '--json'];
}

/**
 * A worker script: one process that runs the CLI (`runCli` of dist/lib.mjs,
 * exactly what `node dist/acp.mjs` runs) `count` times and prints
 * `{ok: [{summary, seq}], failed: [{summary, rc, stderr}]}`.
 */
export function writeWorker(dir: string): string {
  const path = join(dir, 'racer.mjs');
  writeFileSync(
    path,
    `const [dist, folder, participant, count] = process.argv.slice(2);
const { runCli } = await import(dist);
const ok = [];
const failed = [];
for (let i = 0; i < Number(count); i++) {
  const summary = participant + '#' + i;
  let out = '';
  let err = '';
  const argv = ['append', '--folder', folder, '--participant', participant, '--event', 'deliverable_drafted', '--summary', summary,
    '--reply-to', '1', '--role', 'supporting', '--doc', ${JSON.stringify(NOTES_REF)}, '--json'];
  const rc = await runCli({ argv, stdout: (t) => (out += t), stderr: (t) => (err += t), color: false });
  if (rc === 0) ok.push({ summary, seq: JSON.parse(out).event.seq });
  else failed.push({ summary, rc, stderr: err });
}
process.stdout.write(JSON.stringify({ ok, failed }));
`,
  );
  return path;
}

/** `file:` URL of the built library (dist/lib.mjs, which the bin runs), for worker scripts. */
export const DIST_URL = pathToFileURL(join(REPO, 'dist', 'lib.mjs')).href;

/** Parse events.jsonl strictly: every line complete and JSON. */
export function readLines(folder: string): Record<string, unknown>[] {
  const text = readFileSync(join(folder, 'events.jsonl'), 'utf8');
  if (text && !text.endsWith('\n')) throw new Error('events.jsonl ends with a partial line');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}
