// The folder lock's fairness across processes (issue 27, item 8): W writer
// processes each append N events to one folder through the library of
// dist/acp.mjs (`append`, the CLI's own code, one process per writer), and
// every append's wait — from calling it to its return, the lock's line
// included — is recorded. Printed: appends completed and timed out, the wait's
// p50 / p99 / max over all appends, and the slowest writer's total. Run idle
// and with `--load L` (L busy-loop processes spinning meanwhile, as the
// issue's "load 40").
//
//   bun scripts/bench-lock.ts [--writers 16] [--appends 50] [--load 0] [--dist DIR]
//
// Build first (`node scripts/build.mjs --no-compile`).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { optionOf } from './options.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => optionOf(argv, name, fallback);
const writers = Number(option('writers', '16'));
const appends = Number(option('appends', '50'));
const load = Number(option('load', '0'));
const dist = option('dist', join(repo, 'dist'));

const work = mkdtempSync(join(tmpdir(), 'acp-bench-lock-'));
const folder = join(work, 'f');
const init = spawnSync('node', [join(dist, 'acp.mjs'), 'init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'Fair lock', '--completion', 'Done', '--primary-deliverable-type', 'adr', '--no-config'], { encoding: 'utf8' });
if (init.status !== 0) throw new Error(init.stderr);

// One writer: waits for "go" on stdin, appends, prints each append's wait in ms (or "timeout").
const writer = join(work, 'writer.mjs');
writeFileSync(
  writer,
  `const acp = await import(${JSON.stringify(pathToFileURL(join(dist, 'lib.mjs')).href)});
const [folder, count] = [process.argv[2], Number(process.argv[3])];
const host = await acp.createNodeHost({ syncFs: true });
const registry = await acp.createRegistry();
await new Promise((resolve) => process.stdin.once('data', resolve));
const request = { participant: 'alice', event: 'deliverable_drafted', summary: 'fair', replyTo: 1, role: 'primary', doc: 'deliverables/adr.md' };
const waits = [];
for (let i = 0; i < count; i++) {
  const started = performance.now();
  try {
    await acp.append(host, folder, request, registry);
    waits.push((performance.now() - started).toFixed(1));
  } catch (error) {
    waits.push(error.code === 'lock_timeout' ? 'timeout' : 'error:' + error.message);
  }
}
process.stdout.write(waits.join(' '));
process.exit(0);
`,
);

const spinners: ChildProcess[] = Array.from({ length: load }, () => spawn('node', ['-e', 'for(;;){}'], { stdio: 'ignore' }));
const children = Array.from({ length: writers }, () => spawn('node', [writer, folder, String(appends)], { stdio: ['pipe', 'pipe', 'inherit'] }));
const outputs = children.map(
  (child) =>
    new Promise<string>((resolve) => {
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.on('exit', () => resolve(out));
    }),
);
// Let every writer load the library first, then start them together.
await new Promise((r) => setTimeout(r, 3000 + 100 * writers));
const started = performance.now();
for (const child of children) child.stdin!.write('go\n');
const results = (await Promise.all(outputs)).map((out) => out.trim().split(' '));
const elapsed = (performance.now() - started) / 1000;
for (const spinner of spinners) spinner.kill();

const all = results.flat();
const waits = all.filter((w) => /^[\d.]+$/.test(w)).map(Number).sort((a, b) => a - b);
const timeouts = all.filter((w) => w === 'timeout').length;
const errors = all.filter((w) => w.startsWith('error:'));
const pct = (p: number): number => waits[Math.min(waits.length - 1, Math.floor((p / 100) * waits.length))] ?? NaN;
const slowest = Math.max(...results.map((r) => r.filter((w) => /^[\d.]+$/.test(w)).reduce((sum, w) => sum + Number(w), 0)));
console.log(
  `${writers} writers × ${appends} appends, load ${load}: ${waits.length} completed, ${timeouts} timed out, ${errors.length} failed in ${elapsed.toFixed(1)} s; ` +
    `wait p50 ${pct(50).toFixed(0)} ms, p99 ${pct(99).toFixed(0)} ms, max ${(waits.at(-1) ?? NaN).toFixed(0)} ms; slowest writer's total ${(slowest / 1000).toFixed(1)} s`,
);
if (errors.length) console.log(`first failure: ${errors[0]}`);
rmSync(work, { recursive: true, force: true });
process.exit(timeouts || errors.length ? 1 : 0);
