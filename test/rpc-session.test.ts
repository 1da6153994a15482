// Runs the "A complete session" block of docs/rpc.md verbatim (only the port is
// changed, to a free one): a server, alice over TCP only, bob with files and
// the CLI, finishing a collaboration together; then checks the folder.
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { distCli, repo, tempDir } from './rpc/helpers.ts';

function docsSession(): string {
  const page = readFileSync(join(repo, 'docs', 'rpc.md'), 'utf8');
  const section = page.slice(page.indexOf('## A complete session'));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('docs/rpc.md: no sh block after "## A complete session"');
  return match[1]!;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('the docs/rpc.md session completes a collaboration with one agent over TCP and one via files', async () => {
  const work = tempDir('acp-session-');
  dirs.push(work);
  const bin = join(work, '.bin');
  mkdirSync(bin);
  // `acp` on PATH, as after `npm link`; exec keeps $! the server's own pid.
  writeFileSync(join(bin, 'acp'), `#!/bin/sh\nexec "${process.execPath}" "${distCli}" "$@"\n`);
  chmodSync(join(bin, 'acp'), 0o755);
  const port = await freePort();
  const script = docsSession().replaceAll('127.0.0.1:9001', `127.0.0.1:${port}`);
  expect(script).toContain('acp serve --config');
  writeFileSync(join(work, 'session.sh'), script);

  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    // Its own process group, so that whatever the session leaves running (after a failure) can be ended with it.
    const child = spawn('bash', ['-eu', 'session.sh'], { cwd: work, detached: true, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, stdio: ['ignore', 'pipe', 'pipe'] });
    const killGroup = (): void => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    let out = '';
    let err = '';
    const timer = setTimeout(killGroup, 150_000);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    let exitCode: number | null = null;
    child.on('exit', (code) => {
      exitCode = code;
      clearTimeout(timer);
      killGroup();
    });
    // 'close' comes once every holder of the pipes is gone: all output has been read.
    child.on('close', () => resolve({ code: exitCode, stdout: out, stderr: err }));
  });
  expect(code, `stdout:\n${stdout}\nstderr:\n${stderr}`).toBe(0);
  expect(stdout).toContain('ACP validation passed');
  const result = JSON.parse(stdout.split('\n').find((line) => line.startsWith('{"task":"cache","phase":"completed"'))!);
  expect(result).toMatchObject({ outcome: { status: 'proceed' }, deliverable: { ref: 'deliverables/decision-memo.md', intact: true }, decisions: [{ id: 'D1' }] });

  // The folder: a complete, valid collaboration written by both, in the usual format.
  const folder = join(work, 'collabs', 'cache');
  const host = await acp.createNodeHost();
  const validation = await acp.validate(host, folder, await acp.createRegistry());
  expect(validation).toEqual({ ok: true, errors: [], warnings: [] });
  const lines = readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\n').filter(Boolean);
  const events = lines.map((line) => JSON.parse(line) as { seq: number; from: string; event: string });
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)).toMatchObject({ event: 'completed', from: 'alice' });
  expect(events.filter((e) => e.from === 'bob').map((e) => e.event)).toEqual(['review_submitted', 'decision_accepted']);
  for (const line of lines) expect(`${line}\n`).toBe(acp.formatEventLine(JSON.parse(line)));
  const protocolText = readFileSync(join(folder, 'protocol.json'), 'utf8');
  expect(protocolText).toBe(acp.formatProtocolJson(JSON.parse(protocolText)));
  // Nothing of the server's is left in the folder (locks, temporary files, sockets); core caches (dotfiles) aside.
  const names = readdirSync(folder).sort();
  expect(names.filter((n) => !n.startsWith('.'))).toEqual(['README.md', 'conclusion.md', 'decisions.md', 'deliverables', 'events.jsonl', 'proposal.md', 'protocol.json', 'readiness.md', 'review.md']);
  expect(names.filter((n) => n.startsWith('.acp.lock') || n.endsWith('.tmp') || n.startsWith('.acp-'))).toEqual([]);
}, 180_000);
