// What files planted in a collaboration folder cost the others (issue 38):
// for the runtimes given, the median time of one `acp append` with nothing
// planted, with one garbage ticket numbered 2^53-1, with 400 tickets of dead
// waiters, and with two unrenewed tickets naming live processes plus a
// directory, a FIFO and a symlink in the line (each as a ratio to the
// first), and with 400 fresh tickets of another machine (bounded by their
// 10 s lease); how long a waiting append takes to exit after SIGTERM; and the peak
// RSS of `acp status` on a sparse 1.5 GB decisions.md (GNU time's %M).
//
//   bun scripts/bench-planted.ts [--runs 5] [--runtime node|binary]...
//
// Build first (`node scripts/build.mjs`; the binary is dist/acp).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { middleRun as median } from './stats.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf('--runs') + 1] ?? 5) || 5;
const asked = argv.flatMap((a, i) => (argv[i - 1] === '--runtime' ? [a] : []));
const runtimes: Record<string, string[]> = { node: [process.env.NODE ?? 'node', join(repo, 'dist', 'acp.mjs')], binary: [join(repo, 'dist', 'acp')] };
const chosen = (asked.length ? asked : Object.keys(runtimes)).filter((name) => name !== 'binary' || existsSync(runtimes.binary![0]!));
const work = mkdtempSync(join(tmpdir(), 'acp-bench-planted-'));
let counter = 0;

function cli(command: string[], args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(command[0]!, [...command.slice(1), ...args, '--no-config'], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stderr: r.stderr };
}

function folderFor(command: string[]): string {
  const folder = join(work, `f${++counter}`);
  const r = cli(command, ['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr']);
  if (r.status !== 0) throw new Error(r.stderr);
  return folder;
}

const dead = JSON.stringify({ pid: 2 ** 22 + 777, hostname: hostname(), token: 't', at: 0 });
const elsewhere = JSON.stringify({ pid: 2 ** 22 + 777, hostname: 'another-machine', token: 't', at: 0 });
const PLANTS: Record<string, (folder: string) => void> = {
  nothing: () => undefined,
  'one ticket numbered 2^53-1': (folder) => writeFileSync(join(folder, '.acp.lock.wait.9007199254740991'), 'x\n'),
  '400 tickets of dead waiters': (folder) => {
    for (let n = 1; n <= 400; n++) writeFileSync(join(folder, `.acp.lock.wait.${n}`), dead);
  },
  // Another machine's waiters are judged by their lease alone: fresh ones are waited for, at most until it ends (10 s).
  '400 fresh tickets of another machine': (folder) => {
    for (let n = 1; n <= 400; n++) writeFileSync(join(folder, `.acp.lock.wait.${n}`), elsewhere);
  },
  'two unrenewed live pids, a directory, a FIFO, a symlink': (folder) => {
    for (const n of [1, 2]) {
      writeFileSync(join(folder, `.acp.lock.wait.${n}`), JSON.stringify({ pid: 1, token: 't', at: 0 }));
      utimesSync(join(folder, `.acp.lock.wait.${n}`), new Date(Date.now() - 20_000), new Date(Date.now() - 20_000));
    }
    mkdirSync(join(folder, '.acp.lock.wait.3'));
    spawnSync('mkfifo', [join(folder, '.acp.lock.wait.4')]);
    symlinkSync('/dev/zero', join(folder, '.acp.lock.wait.5'));
  },
};


async function sigtermExit(command: string[]): Promise<number> {
  const folder = folderFor(command);
  // Two fresh tickets of this process (its pid and start time, as a waiter writes them): the append waits in line.
  const lock = join(folder, '.acp.lock');
  const acp = await import(join(repo, 'dist', 'lib.mjs'));
  const record = await acp.withFolderLock(await acp.createNodeHost(), folder, async () => (await import('node:fs')).readFileSync(lock, 'utf8'));
  writeFileSync(join(folder, '.acp.lock.wait.1'), record);
  writeFileSync(join(folder, '.acp.lock.wait.2'), record);
  const child = spawn(command[0]!, [...command.slice(1), 'append', '--folder', folder, '--participant', 'alice', '--event', 'blocked', '--summary', 's', '--reply-to', '1', '--no-config'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  while (readdirSync(folder).filter((n) => n.startsWith('.acp.lock.wait.')).length < 3) await new Promise((r) => setTimeout(r, 10));
  const start = performance.now();
  child.kill('SIGTERM');
  await exited;
  return performance.now() - start;
}

for (const name of chosen) {
  const command = runtimes[name]!;
  const base: number[] = [];
  for (const [what, plant] of Object.entries(PLANTS)) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const folder = folderFor(command);
      plant(folder);
      const start = performance.now();
      const r = cli(command, ['append', '--folder', folder, '--participant', 'alice', '--event', 'blocked', '--summary', 's', '--reply-to', '1']);
      times.push(performance.now() - start);
      if (r.status !== 0) throw new Error(`${name}, ${what}: exit ${r.status}: ${r.stderr}`);
    }
    if (what === 'nothing') base.push(median(times));
    console.log(`${name}: append with ${what}: median ${median(times).toFixed(0)} ms over ${runs} (×${(median(times) / base[0]!).toFixed(2)})`);
  }
  const stops: number[] = [];
  for (let i = 0; i < runs; i++) stops.push(await sigtermExit(command));
  console.log(`${name}: a waiting append exits after SIGTERM in median ${median(stops).toFixed(0)} ms (max ${Math.max(...stops).toFixed(0)}) over ${runs}`);
  const folder = folderFor(command);
  truncateSync(join(folder, 'decisions.md'), 1.5 * 2 ** 30);
  const timed = spawnSync('/usr/bin/time', ['-f', '%M', ...command, 'status', '--folder', folder, '--no-config'], { encoding: 'utf8' });
  console.log(`${name}: status on a sparse 1.5 GB decisions.md: exit ${timed.status}, peak RSS ${(Number(timed.stderr.trim().split('\n').pop()) / 1024).toFixed(0)} MB`);
}
rmSync(work, { recursive: true, force: true });
