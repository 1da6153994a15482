// Reliability IV (issue 38): a folder anyone can write must never stop the
// others, and no crash may poison a signed log. Items 1, 2 (the lock's line),
// 3 (rotation killed at every step), 5 (documents read with a cap), 8
// (signing faults); item 7 (notify-turn) is in test/plugins.test.ts.
//
// The CLI cases run on this machine's Node (dist/acp.mjs) and the binary
// dist/acp; the ticket fuzz runs in process (its count: test/scale.ts).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import * as acp from '../acp.ts';
import { createMcpServer } from '../plugins/mcp/server.ts';
import type { Keyring } from '../runtime/host.ts';
import { fileKeyring, keyFileName, memoryKeyring, type KeyringFs } from '../runtime/keyring.ts';
import { runtimesOfRun } from './runtime-matrix.ts';
import { atLeast, byScale } from './scale.ts';
import { rng } from './seeded.ts';

const REPO = join(__dirname, '..');
const work = realpathSync(mkdtempSync(join(tmpdir(), 'acp-rel4-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let counter = 0;
const registryPromise = acp.createRegistry();

/** The command lines of the runtimes the CLI cases run on: Node and the binary (when built); bun and deno too in full (test/runtime-matrix.ts). */
const BIN = join(REPO, 'node_modules', '.bin');
const RUNTIMES: [string, string[]][] = runtimesOfRun(
  ['node', 'binary', 'bun', 'deno'] as const,
  ['node', 'binary'],
).flatMap((runtime): [string, string[]][] => {
  if (runtime === 'node') return [['node', [process.execPath, join(REPO, 'dist', 'acp.mjs')]]];
  if (runtime === 'binary') return existsSync(join(REPO, 'dist', 'acp')) ? [['binary', [join(REPO, 'dist', 'acp')]]] : [];
  if (runtime === 'bun') return [['bun', [join(BIN, 'bun'), join(REPO, 'dist', 'acp.mjs')]]];
  return [['deno', [join(BIN, 'deno'), 'run', '-A', '--quiet', join(REPO, 'dist', 'acp.mjs')]]];
});

/** A fresh collaboration folder (alice and bob, an ADR). */
async function collaboration(): Promise<string> {
  const folder = join(work, `c-${++counter}`);
  await acp.init(await acp.createNodeHost(), folder, { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr' }, await registryPromise);
  return folder;
}

/** Run the CLI; a hang fails the test (spawnSync's own bound, far above what an append takes). */
function run(argv: string[], args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(argv[0]!, [...argv.slice(1), ...args, '--no-config'], { encoding: 'utf8', timeout: 90_000, env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const blocked = (folder: string): string[] => ['append', '--folder', folder, '--participant', 'alice', '--event', 'blocked', '--summary', 's', '--reply-to', '1'];
const ticketsIn = (folder: string): string[] => readdirSync(folder).filter((name) => name.startsWith('.acp.lock.wait.')).sort();

describe('item 1: one planted ticket cannot hang every writer', () => {
  for (const [runtime, argv] of RUNTIMES) {
    test(`${runtime}: a ticket numbered 2^53-1 is stepped over: append exits 0, doctor names it, --fix clears it`, () => {
      const folder = join(work, `one-${runtime}`);
      run(argv, ['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr']);
      writeFileSync(join(folder, '.acp.lock.wait.9007199254740991'), 'x\n');
      expect(run(argv, blocked(folder))).toMatchObject({ status: 0, stdout: 'appended seq 2: blocked\n', stderr: '' });
      const doctor = run(argv, ['doctor', '--folder', folder]);
      expect(doctor.status).toBe(1);
      expect(doctor.stdout).toContain("PROBLEM: lock-line: '.acp.lock.wait.9007199254740991': not a ticket of the lock's line (does not hold a waiter's identity)");
      expect(run(argv, ['doctor', '--folder', folder, '--fix'])).toMatchObject({ status: 0 });
      expect(ticketsIn(folder)).toEqual([]);
    });
  }
});

test('item 1 through MCP: append answers with a ticket numbered 2^53-1 in the folder', async () => {
  const root = join(work, 'mcp-root');
  await acp.init(await acp.createNodeHost(), join(root, 't'), { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr' }, await registryPromise);
  writeFileSync(join(root, 't', '.acp.lock.wait.9007199254740991'), 'x\n');
  const server = createMcpServer({ core: acp, host: await acp.createNodeHost(), registry: await acp.createRegistry({ builtIns: true }), root, version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'rel4', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    // Before, the server's append never answered: the wait for a ticket number looped at 2^53.
    const result = (await client.callTool({ name: 'append', arguments: { folder: 't', participant: 'alice', event: 'blocked', summary: 's', reply_to: 1, doc: 'conclusion.md' } })) as { isError?: boolean; content: { text: string }[] };
    expect(result.content[0]?.text).toContain('seq 2');
  } finally {
    await client.close();
    await server.close();
  }
});

/** The record a live waiter of this process writes (its pid, start time, a fresh lease): what a participant could copy. */
async function liveRecord(folder: string): Promise<string> {
  return acp.withFolderLock(await acp.createNodeHost(), folder, async () => readFileSync(join(folder, '.acp.lock'), 'utf8'));
}

describe('item 2: files in the line that are not live tickets are never waited on', () => {
  const NAMES = ['1', '2', '3', '7', '9007199254740991', '9007199254740992', '99999999999999999999', '01', '1e3', ' 7', '+5', '0', '-1', '1.0', '0x10', 'abc', '', '７', '5 '];
  const KINDS = ['file', 'directory', 'fifo', 'symlink-file', 'symlink-fifo', 'symlink-dangling', 'oversized', 'sparse-2g', 'empty'] as const;
  const OWNERS = ['dead pid', 'live pid without start time', 'live record not renewed', 'live record dated in the future', 'another machine, not renewed', 'torn', 'text'] as const;

  /** The text of a planted ticket by owner. */
  function ownerText(owner: (typeof OWNERS)[number], live: string): string {
    const record = JSON.parse(live) as Record<string, unknown>;
    if (owner === 'dead pid') return JSON.stringify({ ...record, pid: 2 ** 22 + 4321 });
    if (owner === 'live pid without start time') return JSON.stringify({ pid: process.pid, hostname: record.hostname, token: 'x', at: Date.now() });
    if (owner === 'another machine, not renewed') return JSON.stringify({ ...record, hostname: 'elsewhere' });
    if (owner === 'torn') return live.slice(0, 20);
    if (owner === 'text') return 'x\n';
    return live;
  }

  /** Plant one file of the line; returns its name. */
  function plant(folder: string, name: string, kind: (typeof KINDS)[number], owner: (typeof OWNERS)[number], live: string): string {
    const file = `.acp.lock.wait.${name}`;
    const path = join(folder, file);
    const target = join(folder, `target-${name.replace(/\W/g, '_')}-${kind}`);
    if (kind === 'directory') mkdirSync(path);
    else if (kind === 'fifo') spawnSync('mkfifo', [path]);
    else if (kind === 'symlink-file' || kind === 'symlink-fifo') {
      if (kind === 'symlink-file') writeFileSync(target, ownerText(owner, live));
      else spawnSync('mkfifo', [target]);
      symlinkSync(target, path);
    } else if (kind === 'symlink-dangling') symlinkSync(join(folder, 'nowhere'), path);
    else if (kind === 'oversized') writeFileSync(path, `${ownerText(owner, live)}${' '.repeat(70_000)}`);
    else if (kind === 'sparse-2g') {
      writeFileSync(path, ownerText(owner, live));
      truncateSync(path, 2 ** 31);
    } else writeFileSync(path, kind === 'empty' ? '' : ownerText(owner, live));
    if (kind === 'file' && owner === 'live record not renewed') utimesSync(path, new Date(Date.now() - 20_000), new Date(Date.now() - 20_000));
    if (kind === 'file' && owner === 'another machine, not renewed') utimesSync(path, new Date(Date.now() - 20_000), new Date(Date.now() - 20_000));
    if (kind === 'file' && owner === 'live record dated in the future') utimesSync(path, new Date(Date.now() + 3_600_000), new Date(Date.now() + 3_600_000));
    return file;
  }

  const TRIALS = byScale({ quick: 15, full: 300 });
  test(`ticket fuzz over names, kinds, sizes and owners (${TRIALS} folders): every append lands at once, doctor names every planted file, --fix leaves none`, async () => {
    const r = rng(38);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
    const registry = await registryPromise;
    const host = await acp.createNodeHost();
    for (let trial = 0; trial < TRIALS; trial++) {
      const folder = await collaboration();
      const live = await liveRecord(folder);
      const planted = new Set<string>();
      for (let i = 1 + Math.floor(r() * 5); i > 0; i--) {
        const name = pick(NAMES);
        const kind = pick(KINDS);
        let owner = pick(OWNERS);
        // A fresh record of a live process, renewed by nobody, is live until its lease ends (10 s): the bound case, not this fuzz's.
        if (kind !== 'file' && owner.startsWith('live record')) owner = 'dead pid';
        if (!planted.has(`.acp.lock.wait.${name}`)) planted.add(plant(folder, name, kind, owner, live));
      }
      const what = `trial ${trial}: ${[...planted].join(', ')}`;
      // A short bound: nothing planted here may be waited on.
      const result = await acp.append(host, folder, { participant: 'alice', event: 'blocked', summary: 's', replyTo: 1 }, registry, { lockTimeoutMs: 5_000 });
      expect(result.event.seq, what).toBe(2);
      const report = await acp.validate(host, folder, registry);
      expect(report.errors, what).toEqual([]);
      const doctor = await doctorText(folder, false);
      for (const name of planted) expect(doctor, what).toContain(name);
      await doctorText(folder, true);
      // What --fix leaves: the directories (for a person) and nothing else.
      for (const name of ticketsIn(folder)) expect(readdirSync(folder, { withFileTypes: true }).find((e) => e.name === name)?.isDirectory(), `${what}: ${name}`).toBe(true);
    }
  }, 120_000);

  test('400 stale tickets cost one append about one read each (O(N) once), not one per attempt', async () => {
    const start = Date.now();
    // The clock runs 60 s ahead of the tickets' writing: every one is past its lease.
    let skew = 0;
    const host = acp.createMemoryHost({ now: () => new Date(Date.now() - start + skew + Date.UTC(2026, 0, 1)) });
    const registry = await registryPromise;
    await acp.init(host, '/c', { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr' }, registry);
    const record = JSON.stringify({ pid: 7, hostname: 'h', token: 't', at: 0 });
    for (let n = 1; n <= 400; n++) await host.fs.writeFile(`/c/.acp.lock.wait.${n}`, record);
    skew = 60_000;
    let reads = 0;
    const readFile = host.fs.readFile.bind(host.fs);
    host.fs.readFile = async (path, options) => {
      if (path.includes('.acp.lock.wait.')) reads++;
      return readFile(path, options);
    };
    const result = await acp.append(host, '/c', { participant: 'alice', event: 'blocked', summary: 's', replyTo: 1 }, registry);
    expect(result.event.seq).toBe(2);
    expect(reads).toBeLessThanOrEqual(400 + 10);
  }, 60_000);
});

/** `acp doctor` (or `--fix`) on `folder`, in process: its report's text. */
async function doctorText(folder: string, fix: boolean): Promise<string> {
  const { doctor, formatDoctorReport } = await import('../plugins/doctor/diagnose.ts');
  const report = await doctor(acp.libraryApi(), await acp.createNodeHost(), folder, { fix, registry: await registryPromise });
  return formatDoctorReport(report, fix);
}

describe('items 1 and 2: a waiting command ends at once on SIGTERM/SIGINT, leaving no ticket of its own', () => {
  const COMMANDS: [string, (folder: string) => string[]][] = [
    ['append', blocked],
    ['freeze', (folder) => ['freeze', '--folder', folder, '--participant', 'alice']],
    ['doctor --fix', (folder) => ['doctor', '--folder', folder, '--fix']],
  ];
  for (const [runtime, argv] of RUNTIMES) {
    const combos = [['SIGTERM', 143], ['SIGINT', 130]].flatMap((s) => COMMANDS.map((c) => [s, c] as const)) as [[string, number], (typeof COMMANDS)[number]][];
    // Quick: append on every runtime, freeze and doctor --fix at SIGTERM on Node; full: every combination.
    const chosen = atLeast('full') ? combos : combos.filter(([[signal], [command]]) => command === 'append' || (signal === 'SIGTERM' && runtime === 'node'));
    for (const [[signal, code], [command, args]] of chosen) {
      test(`${runtime}: ${command}, ${signal} → ${code}`, async () => {
        const folder = await collaboration();
        // doctor --fix takes the lock only when it has something to repair: a cached turn that disagrees with the log.
        if (command === 'doctor --fix') {
          const cached = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
          writeFileSync(join(folder, 'protocol.json'), JSON.stringify({ ...cached, waitingFor: ['nobody'] }, null, 2));
        }
        // Two live waiters ahead (records of this process, fresh): the command waits in line.
        const live = await liveRecord(folder);
        writeFileSync(join(folder, '.acp.lock.wait.1'), live);
        writeFileSync(join(folder, '.acp.lock.wait.2'), live);
        const child = spawn(argv[0]!, [...argv.slice(1), ...args(folder), '--no-config'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        const exited = new Promise<number | null>((resolve) => child.on('exit', (status) => resolve(status)));
        // In line once its own ticket is there.
        while (ticketsIn(folder).length < 3) await new Promise((r) => setTimeout(r, 20));
        child.kill(signal as NodeJS.Signals);
        expect(await exited).toBe(code);
        expect(stderr).not.toContain('internal error');
        expect(ticketsIn(folder)).toEqual(['.acp.lock.wait.1', '.acp.lock.wait.2']);
      }, 30_000);
    }
  }
});

describe('item 3: a key rotation killed at any step leaves a log that verifies', () => {
  const FOLDER = '/c';
  const PRIMARY = 'deliverables/adr.md';

  /** A key directory in memory for the file keyring (modes kept), with the dying host's step counter. */
  function memoryKeyFiles(files: Map<string, { data: string; mode: number }>, step: () => void): KeyringFs {
    const missing = (path: string): Error => Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    const get = (path: string): { data: string; mode: number } => files.get(path) ?? (() => { throw missing(path); })();
    const open = new Map<number, { data: Uint8Array; mode: number }>();
    let fds = 2;
    return {
      statSync: (path) => (step(), path === '/keys' ? { mode: 0o40700 } : { mode: get(path).mode | 0o100000 }),
      openSync: (path) => {
        step();
        const data = new TextEncoder().encode(get(path).data);
        open.set(++fds, { data, mode: get(path).mode });
        return fds;
      },
      fstatSync: (fd) => (step(), { mode: open.get(fd)!.mode | 0o100000, size: open.get(fd)!.data.length, isFile: () => true }),
      readSync: (fd, buffer, offset, length, position) => {
        step();
        const piece = open.get(fd)!.data.subarray(position, position + length);
        buffer.set(piece, offset);
        return piece.length;
      },
      closeSync: (fd) => void open.delete(fd),
      constants: { O_RDONLY: 0 },
      mkdirSync: () => step(),
      writeFileSync: (path, data, options) => {
        step();
        if (options.flag === 'wx' && files.has(path)) throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
        files.set(path, { data, mode: options.mode });
      },
      linkSync: (from, to) => {
        step();
        if (files.has(to)) throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
        files.set(to, { ...get(from) });
      },
      renameSync: (from, to) => {
        step();
        files.set(to, get(from));
        files.delete(from);
      },
      rmSync: (path) => void (step(), files.delete(path)),
      existsSync: (path) => (step(), files.has(path)),
      copyFileSync: (from, to) => void (step(), files.set(to, { ...get(from) })),
      chmodSync: (path, mode) => void (step(), (get(path).mode = mode)),
    };
  }

  /** `fs` whose every call past the `killAt`-th throws, as a killed process does nothing more (beneath() too). */
  function dyingFs(fs: acp.FileSystem, step: () => void): acp.FileSystem {
    const wrapped: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(fs)) {
      if (typeof value !== 'function') continue;
      wrapped[name] = name === 'beneath' ? (bases: string[]) => dyingFs(value.call(fs, bases), step) : (...args: unknown[]) => {
        step();
        return value.apply(fs, args);
      };
    }
    return wrapped as unknown as acp.FileSystem;
  }

  test('kill append --new-key at every file-system and key-file step (memory host and file keyring): the next append finishes the rotation with the right key, and the log verifies', async () => {
    const registry = await registryPromise;
    const keyFiles = new Map<string, { data: string; mode: number }>();
    let clock = Date.UTC(2026, 0, 1);
    const now = (): Date => new Date((clock += 1000));
    const fs = acp.createMemoryFileSystem({ now: () => clock });
    const aliceRing = (files: Map<string, { data: string; mode: number }>, step = (): void => undefined): Keyring => fileKeyring(memoryKeyFiles(files, step), { dir: '/keys' });
    const alice = acp.createMemoryHost({ fs, keyring: aliceRing(keyFiles), now });
    const bob = acp.createMemoryHost({ fs, keyring: memoryKeyring(), now });
    await acp.init(alice, FOLDER, { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr', sign: true }, registry);
    await acp.append(alice, FOLDER, { participant: 'alice', event: 'deliverable_drafted', summary: 'd', doc: PRIMARY, role: 'primary', replyTo: 1 }, registry);
    await acp.append(alice, FOLDER, { participant: 'alice', event: 'proposal_submitted', summary: 'p', doc: 'proposal.md', replyTo: 2 }, registry);
    await acp.append(bob, FOLDER, { participant: 'bob', event: 'review_submitted', summary: 'r', doc: 'review.md', replyTo: 3 }, registry);
    const folderFiles = Object.fromEntries(fs.snapshot());
    const rotate = { participant: 'alice', event: 'proposal_revised', summary: 'rotated', doc: 'proposal.md', replyTo: 4, rotateKey: true };
    let completed = false;
    let killAt = 1;
    for (; !completed; killAt++) {
      const files = new Map([...keyFiles].map(([k, v]) => [k, { ...v }]));
      const disk = acp.createMemoryFileSystem({ files: folderFiles, now: () => clock });
      let calls = 0;
      const step = (): void => {
        if (++calls >= killAt) throw Object.assign(new Error(`killed at step ${killAt}`), { code: 'EKILLED' });
      };
      const dying: acp.Host = { ...acp.createMemoryHost({ fs: disk, keyring: aliceRing(files, step), now }), fs: dyingFs(disk, step) };
      try {
        await acp.append(dying, FOLDER, rotate, registry);
        completed = true;
      } catch (error) {
        expect((error as Error).message, `step ${killAt}`).toContain('killed at step');
      }
      // Later: the dead process's lock is past its lease; alice appends again with the same key files.
      clock += 60_000;
      const after = acp.createMemoryHost({ fs: disk, keyring: aliceRing(files), now });
      // Half the time a person ran `acp doctor --fix` first (which rewrites protocol.json's phase, not its keys).
      if (killAt % 2 === 0) await (await import('../plugins/doctor/diagnose.ts')).doctor(acp.libraryApi(), after, FOLDER, { fix: true, registry });
      const lines = new TextDecoder().decode(await disk.readFile(`${FOLDER}/events.jsonl`)).split('\n').filter(Boolean);
      const next = lines.length === 5 ? { participant: 'alice', event: 'decision_proposed', summary: 'd', doc: 'decisions.md', replyTo: 5 } : { ...rotate, rotateKey: false };
      await acp.append(after, FOLDER, next, registry);
      const verdict = await acp.verifySignatures(acp.createMemoryHost({ fs: disk, now }), FOLDER);
      expect({ step: killAt, errors: verdict.errors }).toEqual({ step: killAt, errors: [] });
      expect(verdict.warnings, `step ${killAt}`).toEqual([]);
    }
    // Every step of the rotation was a kill point before it ran whole.
    expect(killAt).toBeGreaterThan(20);
  }, 120_000);
});

describe('item 8: signing faults exit 2 with the reason on every runtime; key files are opened as what they are', () => {
  /** A signed collaboration whose alice key lives in `keys` (made by init); returns the folder and alice's key file. */
  function signedFolder(argv: string[], name: string): { folder: string; keys: string; keyFile: string } {
    const folder = join(work, `signed-${name}`);
    const keys = join(work, `keys-${name}`);
    const r = spawnSync(argv[0]!, [...argv.slice(1), 'init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr', '--sign', '--no-config'], { encoding: 'utf8', env: { ...process.env, ACP_SIGNING_KEY_DIR: keys } });
    expect(r.status, r.stderr).toBe(0);
    return { folder, keys, keyFile: join(keys, keyFileName('alice')) };
  }
  const appendWith = (argv: string[], folder: string, env: Record<string, string>): ReturnType<typeof run> => {
    const r = spawnSync(argv[0]!, [...argv.slice(1), ...blocked(folder), '--no-config'], { encoding: 'utf8', timeout: 90_000, env: { ...process.env, ...env } });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  for (const [runtime, argv] of RUNTIMES) {
    test(`${runtime}: a missing key, another participant's key, a FIFO, a sparse 2 GB file, a symlink, a 0777 key directory`, () => {
      const { folder, keys, keyFile } = signedFolder(argv, runtime);
      const key = readFileSync(keyFile, 'utf8');
      const cases: [string, () => Record<string, string>, string][] = [
        ['missing key', () => ({ ACP_SIGNING_KEY_DIR: join(work, `empty-${runtime}`) }), 'no signing key for alice in '],
        ['another participant\'s key', () => {
          const other = join(work, `other-${runtime}`);
          mkdirSync(other, { mode: 0o700 });
          // A key that is not alice's registered one, in alice's place.
          writeFileSync(join(other, keyFileName('alice')), `${JSON.stringify({ ...JSON.parse(key), x: 'A'.repeat(43), d: 'B'.repeat(43) })}\n`, { mode: 0o600 });
          return { ACP_SIGNING_KEY_DIR: other };
        }, 'is not the one this collaboration registered for alice'],
        ['FIFO', () => {
          const file = join(work, `fifo-${runtime}`, 'key.jwk');
          mkdirSync(join(work, `fifo-${runtime}`), { mode: 0o700 });
          spawnSync('mkfifo', ['-m', '600', file]);
          return { ACP_SIGNING_KEY_FILE: file };
        }, 'is not a regular file'],
        ['sparse 2 GB', () => {
          const file = join(work, `sparse-${runtime}`, 'key.jwk');
          mkdirSync(join(work, `sparse-${runtime}`), { mode: 0o700 });
          writeFileSync(file, key, { mode: 0o600 });
          truncateSync(file, 2 ** 31);
          return { ACP_SIGNING_KEY_FILE: file };
        }, 'is larger than 16 KiB'],
        ['symlink', () => {
          const file = join(work, `link-${runtime}`, 'key.jwk');
          mkdirSync(join(work, `link-${runtime}`), { mode: 0o700 });
          symlinkSync(keyFile, file);
          return { ACP_SIGNING_KEY_FILE: file };
        }, 'is a symbolic link'],
        ['0777 key directory', () => {
          chmodSync(keys, 0o777);
          return { ACP_SIGNING_KEY_DIR: keys };
        }, `signing key directory ${keys} is readable or writable by others (mode 777)`],
      ];
      const before = readFileSync(join(folder, 'events.jsonl'), 'utf8');
      // Under Deno acp checks no key mode, of a file or its directory (runtime/node-host.ts: posixModes).
      for (const [what, env, message] of runtime === 'deno' ? cases.filter(([what]) => what !== '0777 key directory') : cases) {
        const r = appendWith(argv, folder, env());
        expect({ what, status: r.status, internal: r.stderr.includes('internal error') }).toEqual({ what, status: 2, internal: false });
        expect(r.stderr, what).toContain(message);
      }
      expect(readFileSync(join(folder, 'events.jsonl'), 'utf8')).toBe(before);
      chmodSync(keys, 0o700);
      expect(appendWith(argv, folder, { ACP_SIGNING_KEY_DIR: keys })).toMatchObject({ status: 0, stderr: '' });
    }, 120_000);
  }
});

describe('item 5: status and report read the documents with append\'s cap (64 MiB), and say so', () => {
  const SIZE = Number(process.env.ACP_REL4_DOCUMENT_BYTES ?? 1.5 * 2 ** 30);
  for (const [runtime, argv] of RUNTIMES) {
    test(`${runtime}: a sparse 1.5 GB decisions.md is not read: status shows the collaboration with a note, report too`, async () => {
      const folder = await collaboration();
      truncateSync(join(folder, 'decisions.md'), SIZE);
      const note = 'decisions.md is larger than 64 MiB, more than it can legitimately hold; refusing to read it (shown as empty)';
      const status = run(argv, ['status', '--folder', folder]);
      expect(status).toMatchObject({ status: 0, stderr: '' });
      expect(status.stdout).toContain(`note:         ${note}`);
      expect(status.stdout).toContain('validate:     failed (1 error)');
      const json = JSON.parse(run(argv, ['status', '--folder', folder, '--json']).stdout) as { documentNotes: string[] };
      expect(json.documentNotes).toEqual([note]);
      const out = join(folder, '..', `report-${runtime}-${counter}.html`);
      expect(run(argv, ['report', '--folder', folder, '--out', out])).toMatchObject({ status: 0 });
      expect(readFileSync(out, 'utf8')).toContain(note);
    });
  }
});

describe('item 3 on the binary: append --new-key killed (SIGKILL, strace fault injection) at every write, rename, link, unlink, flush and open', () => {
  const binary = join(REPO, 'dist', 'acp');
  const strace = spawnSync('strace', ['-V']).status === 0;
  const why = !existsSync(binary) ? 'dist/acp was not built' : !strace ? 'strace is not installed (apt-get install strace)' : '';
  // Dozens of runs of the binary under strace: full (ACP_FULL=1) only, where strace is required.
  const runIt = atLeast('full') || process.env.ACP_REL4_STRACE === '1';
  test.skipIf(!runIt)(`every kill point leaves a log that verifies after the next append (some 85 runs under strace: ACP_FULL=1 only, where strace is required${why ? `; ${why}` : ''})`, async () => {
    expect(why).toBe('');
    const SYSCALLS = ['rename', 'renameat', 'renameat2', 'link', 'linkat', 'unlink', 'unlinkat', 'write', 'pwrite64', 'fsync', 'fdatasync', 'ftruncate', 'mkdir', 'chmod', 'fchmod', 'fchmodat', 'copy_file_range', 'sendfile', 'openat'];
    const template = join(work, 'strace-template');
    const env = (dir: string): NodeJS.ProcessEnv => ({ ...process.env, ACP_SIGNING_KEY_DIR: join(dir, 'keys') });
    const acpIn = (dir: string, args: string[]): ReturnType<typeof spawnSync> => spawnSync(binary, [...args, '--no-config'], { encoding: 'utf8', env: env(dir), timeout: 60_000 });
    expect(acpIn(template, ['init', '--folder', join(template, 'c'), '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr', '--sign']).status).toBe(0);
    const rotate = ['append', '--folder', 'c', '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'd', '--doc', 'deliverables/adr.md', '--role', 'primary', '--reply-to', '1'];
    let runs = 0;
    for (const syscall of SYSCALLS) {
      for (let n = 1; ; n++) {
        const dir = join(work, `strace-${syscall}-${n}`);
        cpSync(template, dir, { recursive: true });
        chmodSync(join(dir, 'keys'), 0o700);
        const killed = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', '-e', `trace=${syscall}`, '-e', `inject=${syscall}:signal=KILL:when=${n}`, binary, ...rotate, '--new-key', '--no-config'], { cwd: dir, encoding: 'utf8', env: env(dir), timeout: 60_000 });
        runs++;
        const landed = readFileSync(join(dir, 'c', 'events.jsonl'), 'utf8').split('\n').filter(Boolean).length === 2;
        const next = landed ? ['append', '--folder', join(dir, 'c'), '--participant', 'alice', '--event', 'proposal_submitted', '--summary', 'p', '--doc', 'proposal.md', '--reply-to', '2'] : [...rotate.slice(0, 2), join(dir, 'c'), ...rotate.slice(3)];
        const after = acpIn(dir, next);
        expect({ syscall, n, status: after.status, stderr: after.stderr }).toEqual({ syscall, n, status: 0, stderr: '' });
        const verdict = await acp.verifySignatures(await acp.createNodeHost(), join(dir, 'c'));
        expect({ syscall, n, errors: verdict.errors, warnings: verdict.warnings }).toEqual({ syscall, n, errors: [], warnings: [] });
        rmSync(dir, { recursive: true, force: true });
        // The run that was not killed: every call of this kind was a kill point.
        if (killed.status === 0) break;
      }
    }
    expect(runs).toBeGreaterThan(SYSCALLS.length);
  }, 600_000);
});
