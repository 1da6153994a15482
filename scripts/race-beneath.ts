// The check-then-use race of the servers' document access (issue 27, item 1),
// measured: while a separate process flips a collaboration's `deliverables/`
// between a directory and a symlink to a directory outside the server's root
// (rename the directory aside, plant the symlink, remove it, rename the
// directory back: two flips), clients keep writing and reading
// `deliverables/adr.md` through a server. Counted: writes that landed outside
// the root (the outside adr.md changed), reads that returned the outside
// secret, and what the server answered (done / refused).
//
//   bun scripts/race-beneath.ts [--door mcp|rpc|both] [--runtime node|binary|both] [--flips N] [--dist DIR]
//
// Defaults: both doors, both runtimes, 1 000 flips. `--dist` runs another
// build (a checkout's dist/, e.g. to see the race on the code before the fix).
// The server runs in its own process (`node DIST/acp.mjs` or `DIST/acp`): MCP
// over stdio, JSON-RPC over a Unix socket. Prints one line per run, and exits
// 1 when any read or write went outside the root.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RpcClient } from '../plugins/rpc/client.ts';
import { optionOf } from './options.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => optionOf(argv, name, fallback);
const flips = Number(option('flips', '1000'));
const dist = option('dist', join(repo, 'dist'));
const doors = option('door', 'both') === 'both' ? ['mcp', 'rpc'] : [option('door', 'both')];
const runtimes = option('runtime', 'both') === 'both' ? ['node', 'binary'] : [option('runtime', 'both')];
const SECRET = 'outside secret\n';

/** How to run the CLI of `runtime`. */
function command(runtime: string): [string, string[]] {
  return runtime === 'binary' ? [join(dist, 'acp'), []] : [process.platform === 'win32' ? 'node.exe' : 'node', [join(dist, 'acp.mjs')]];
}

/** A root with one collaboration `t`, and an outside directory holding the secret adr.md. */
function setUp(runtime: string): { root: string; outside: string; deliverables: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-race-root-')));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'acp-race-outside-')));
  writeFileSync(join(outside, 'adr.md'), SECRET);
  const [cmd, pre] = command(runtime);
  const init = spawnSync(cmd, [...pre, 'init', '--folder', join(root, 't'), '--participant', 'alice', '--participant', 'bob', '--objective', 'Race', '--completion', 'Done', '--primary-deliverable-type', 'adr', '--no-config'], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);
  return { root, outside, deliverables: join(root, 't', 'deliverables') };
}

/** The flipper: a separate process, so its flips interleave with the server's system calls. */
function startFlipper(deliverables: string, outside: string, count: number): Promise<number> {
  const code = `const fs = require('node:fs');
const [dir, out, n] = [process.argv[1], process.argv[2], Number(process.argv[3])];
let flips = 0;
// A pause of 0-2 ms after each flip: about as often as the server's requests, so both states are met.
const pause = new Int32Array(new SharedArrayBuffer(4));
const spin = () => Atomics.wait(pause, 0, 0, Math.random() * 2);
// The server may make deliverables/ while it is missing (a write's mkdir): that one is removed.
const clear = () => { try { fs.rmSync(dir, { recursive: true, force: true }); } catch {} };
const retry = (step) => { for (;;) { try { return step(); } catch (e) { if (!['EEXIST', 'ENOTEMPTY'].includes(e.code)) throw e; clear(); } } };
while (flips < n) {
  fs.renameSync(dir, dir + '.real'); retry(() => fs.symlinkSync(out, dir)); flips++; spin();
  fs.unlinkSync(dir); retry(() => fs.renameSync(dir + '.real', dir)); flips++; spin();
}
process.stdout.write(String(flips));`;
  const child = spawn('node', ['-e', code, deliverables, outside, String(count)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => child.on('exit', (rc) => (rc === 0 ? resolve(Number(out)) : reject(new Error(`flipper exited ${rc}`)))));
}

interface Tally {
  writes: number;
  writesRefused: number;
  writesOutside: number;
  reads: number;
  readsRefused: number;
  readsOutside: number;
}

/** Write and read adr.md through `door` until `done`, counting what went outside. */
async function hammer(door: { write(text: string): Promise<void>; read(): Promise<string> }, outside: string, done: () => boolean): Promise<Tally> {
  const tally: Tally = { writes: 0, writesRefused: 0, writesOutside: 0, reads: 0, readsRefused: 0, readsOutside: 0 };
  const secretPath = join(outside, 'adr.md');
  for (let i = 0; !done(); i++) {
    const text = `# written ${i}\n`;
    try {
      await door.write(text);
      tally.writes++;
    } catch {
      tally.writesRefused++;
    }
    // Whatever replaced the outside file came through the server (nothing else writes there).
    if (readFileSync(secretPath, 'utf8') !== SECRET) {
      tally.writesOutside++;
      writeFileSync(secretPath, SECRET);
    }
    for (let r = 0; r < 3; r++) {
      try {
        const content = await door.read();
        tally.reads++;
        if (content.includes('outside secret')) tally.readsOutside++;
      } catch {
        tally.readsRefused++;
      }
    }
  }
  return tally;
}

async function mcpDoor(runtime: string, root: string): Promise<{ write(text: string): Promise<void>; read(): Promise<string>; close(): Promise<void> }> {
  const [cmd, pre] = command(runtime);
  const client = new Client({ name: 'race', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: cmd, args: [...pre, 'mcp', '--root', root, '--no-config'], cwd: root, stderr: 'ignore' }));
  const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    if (result.isError) throw new Error(result.content[0]?.text);
    return result.content.map((c) => c.text).join('');
  };
  return {
    write: async (text) => void (await call('write_document', { folder: 't', doc: 'deliverables/adr.md', content: text })),
    read: () => call('read_document', { folder: 't', doc: 'deliverables/adr.md' }),
    close: () => client.close(),
  };
}

async function rpcDoor(runtime: string, root: string): Promise<{ write(text: string): Promise<void>; read(): Promise<string>; close(): Promise<void> }> {
  const [cmd, pre] = command(runtime);
  const socket = join(root, '..', `${root.split('/').pop()}.sock`);
  const server = spawn(cmd, [...pre, 'serve', '--root', root, '--unix', socket, '--no-config'], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
  const client = await RpcClient.connect(`unix:${socket}`, { participant: 'alice', heartbeatMs: 0 });
  return {
    write: async (text) => void (await client.acp('write', { folder: 't', doc: 'deliverables/adr.md', content: text })),
    read: async () => ((await client.acp('read', { folder: 't', doc: 'deliverables/adr.md' })) as { content: string }).content,
    close: async () => {
      client.close();
      server.kill();
      rmSync(socket, { force: true });
    },
  };
}

let failed = false;
for (const runtime of runtimes) {
  for (const doorName of doors) {
    const { root, outside, deliverables } = setUp(runtime);
    const door = doorName === 'mcp' ? await mcpDoor(runtime, root) : await rpcDoor(runtime, root);
    let finished = false;
    const flipped = startFlipper(deliverables, outside, flips).finally(() => (finished = true));
    // Four clients' worth of requests in flight at once (one connection: the server serialises writes per folder anyway).
    const [done, ...tallies] = await Promise.all([flipped, ...[0, 1, 2, 3].map(() => hammer(door, outside, () => finished))]);
    const tally = tallies.reduce((sum, t) => Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, v + t[k as keyof Tally]])) as unknown as Tally);
    await door.close();
    if (tally.writesOutside || tally.readsOutside) failed = true;
    console.log(
      `${doorName} on ${runtime}: ${done} flips; writes ${tally.writes} done, ${tally.writesRefused} refused, ${tally.writesOutside} outside the root; ` +
        `reads ${tally.reads} done, ${tally.readsRefused} refused, ${tally.readsOutside} of the outside secret`,
    );
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
