// The commands: `acp serve` (config errors, loopback rule, runtimes), `acp
// rpc` (one-shot calls) and `acp wait --server` (waiting by subscription),
// run as real processes (`node dist/acp.mjs`; the server also under Bun and
// Deno when their binaries are installed).
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { ALICE_TOKEN, BOB_TOKEN, RawConn, bunBin, denoBin, distCli, makeRoot, runAcp, snapshotFolder, spawnServe, tempDir } from './rpc/helpers.ts';
import { runVectors } from './rpc/vectors.ts';

function config(dir: string, extra = ''): string {
  const path = join(dir, 'acp-server.yaml');
  writeFileSync(path, `root: .\ntokens:\n  ${ALICE_TOKEN}: alice\n  ${BOB_TOKEN}: bob\n${extra}`);
  return path;
}

describe('acp serve: configuration', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeRoot(['demo']);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test.each([
    ['tokens:\n  short: alice\n', 'error: invalid server config bad.yaml: tokens.short: a token must be at least 16 characters long\n'],
    ['limits:\n  maxBodyBytes: 0\n  color: red\n', 'error: invalid server config bad.yaml: limits.maxBodyBytes: maxBodyBytes must be at least 1; limits.color: unknown key\n'],
    ['tokens:\n  aaaaaaaaaaaaaaaaaaaa: [alice]\n', 'error: invalid server config bad.yaml: tokens.aaaaaaaaaaaaaaaaaaaa: the participant id must be a string\n'],
    ['tcp: [1\n', expect.stringMatching(/^error: invalid server config bad\.yaml: .+\n$/)],
  ])('invalid config %j is refused precisely (exit 2)', async (text, message) => {
    writeFileSync(join(root, 'bad.yaml'), text);
    const r = await runAcp(['serve', '--config', 'bad.yaml', '--stdio'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toEqual(message);
  });

  test('no transport, a missing config, TCP without tokens, a non-loopback address: clear errors', async () => {
    expect((await runAcp(['serve', '--root', root])).stderr).toBe('error: choose a transport: --stdio, --tcp HOST:PORT or --unix PATH (or tcp:/unix: in the config)\n');
    expect((await runAcp(['serve', '--config', join(root, 'none.yaml'), '--stdio'])).stderr).toBe(`error: cannot read server config ${join(root, 'none.yaml')}: no such file\n`);
    expect((await runAcp(['serve', '--root', root, '--tcp', '127.0.0.1:0'])).stderr).toMatch(/^acp serve: serving .*\nerror: TCP needs tokens/);
    const remote = await runAcp(['serve', '--config', config(root), '--tcp', '0.0.0.0:0']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('error: refusing to listen on 0.0.0.0: not a loopback address (pass --allow-remote');
  });
});

describe('acp rpc and acp wait --server', () => {
  let root: string;
  let served: Awaited<ReturnType<typeof spawnServe>>;
  let endpoint: string;
  beforeAll(async () => {
    root = await makeRoot(['demo']);
    served = await spawnServe(['--config', config(root), '--tcp', '127.0.0.1:0', '--unix', join(root, '.acp.sock')]);
    endpoint = `tcp://${served.tcp}`;
  });
  afterAll(async () => {
    expect(await served.stop()).toBe(0);
    rmSync(root, { recursive: true, force: true });
  });

  test('one-shot calls print one JSON line; errors print error: and exit 2', async () => {
    const ok = await runAcp(['rpc', 'task/status', '{"task":"demo"}', '--server', endpoint, '--token', ALICE_TOKEN]);
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(ok.stdout)).toMatchObject({ task: 'demo', phase: 'drafting' });

    const viaEnv = await runAcp(['rpc', 'agent/info', '["acp"]'], { env: { ACP_SERVER: `unix:${served.unix}` } });
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ agent: 'acp', endpoints: { tcp: served.tcp, unix: served.unix } });

    const tokenFile = join(root, 'token');
    writeFileSync(tokenFile, `${BOB_TOKEN}\n`);
    const refused = await runAcp(['rpc', 'agent/call', '{"agent":"acp","action":"append","args":{"folder":"demo","event":"proposal_submitted","summary":"x","replyTo":1}}', '--server', endpoint, '--token-file', tokenFile]);
    const direct = await runAcp(['append', '--folder', join(root, 'demo'), '--participant', 'bob', '--event', 'proposal_submitted', '--summary', 'x', '--reply-to', '1']);
    expect(direct.stderr).toMatch(/^error: seq 2: /);
    // The same words and exit code as the CLI itself.
    expect(refused.code).toBe(direct.code);
    expect(refused.stderr).toBe(direct.stderr);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: -32010 } });

    const unauth = await runAcp(['rpc', 'task/status', '{"task":"demo"}', '--server', endpoint]);
    expect(unauth.code).toBe(2);
    expect(unauth.stderr).toMatch(/^error: unauthorized: authenticate first.* \(-32020\)\n$/);

    expect((await runAcp(['rpc', 'ping', 'nope', '--server', endpoint])).stderr).toBe('error: params must be JSON: nope\n');
    expect((await runAcp(['rpc', 'ping', '--server', 'tcp://127.0.0.1:1'])).stderr).toMatch(/^error: cannot connect to tcp:\/\/127\.0\.0\.1:1: /);

    const draft = join(root, 'draft.md');
    writeFileSync(draft, '# Proposal\n\nÜber-cache 🎉\n');
    const upload = await runAcp(['rpc', 'agent/call', '{"agent":"acp","action":"write","args":{"folder":"demo","doc":"proposal.md"}}', '--param-file', `args.content=${draft}`, '--server', endpoint, '--token', ALICE_TOKEN]);
    expect(JSON.parse(upload.stdout)).toMatchObject({ status: 'success', data: { doc: 'proposal.md', bytes: Buffer.byteLength('# Proposal\n\nÜber-cache 🎉\n') } });
    const read = await runAcp(['rpc', 'agent/call', '{"agent":"acp","action":"read","args":{"folder":"demo","doc":"proposal.md"}}', '--server', endpoint, '--token', BOB_TOKEN]);
    expect(JSON.parse(read.stdout).data.content).toBe('# Proposal\n\nÜber-cache 🎉\n');
  });

  test('wait --server returns when the CLI makes it the participant’s turn, printing what wait prints', async () => {
    const folder = join(root, 'demo');
    const child = spawn(process.execPath, [distCli, 'wait', '--server', endpoint, '--token', BOB_TOKEN, '--folder', 'demo', '--participant', 'bob', '--timeout', '60']);
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const waiting = new Promise<{ code: number | null; stdout: string }>((resolve) => child.on('exit', (code) => resolve({ code, stdout })));
    // Its first progress line comes once it is subscribed; then make it bob's turn with the CLI (files only).
    await expect.poll(() => stdout, { timeout: 20_000 }).toMatch(/^waiting: /);
    const host = await acp.createNodeHost();
    await acp.append(host, folder, { participant: 'alice', event: 'deliverable_drafted', summary: 'draft', replyTo: 1, doc: 'deliverables/adr.md', role: 'primary' });
    await acp.append(host, folder, { participant: 'alice', event: 'proposal_submitted', summary: 'submit', replyTo: 2, doc: 'proposal.md' });
    const r = await waiting;
    expect(r.code).toBe(0);
    const direct = await runAcp(['wait', '--folder', folder, '--participant', 'bob', '--timeout', '5']);
    expect(r.stdout).toMatch(/^waiting: waiting for alice after seq 1\n/);
    // The final lines are those of `acp wait` on the folder.
    expect(r.stdout.endsWith(direct.stdout)).toBe(true);
    const json = await runAcp(['wait', '--server', endpoint, '--token', BOB_TOKEN, '--folder', 'demo', '--participant', 'bob', '--json']);
    const directJson = await runAcp(['wait', '--folder', folder, '--participant', 'bob', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(directJson.stdout));
  });

  test('wait --server times out like wait', async () => {
    const r = await runAcp(['wait', '--server', endpoint, '--token', ALICE_TOKEN, '--folder', 'demo', '--participant', 'alice', '--timeout', '0.5']);
    const direct = await runAcp(['wait', '--folder', join(root, 'demo'), '--participant', 'alice', '--timeout', '0.5']);
    expect(r.code).toBe(1);
    expect(r.code).toBe(direct.code);
    expect(r.stderr).toBe(direct.stderr);
    expect(r.stdout).toBe(direct.stdout);
  });
});

const RUNTIMES = [
  { name: 'bun' as const, bin: bunBin },
  { name: 'deno' as const, bin: denoBin },
];

for (const runtime of RUNTIMES) {
  describe.skipIf(!existsSync(runtime.bin))(`the server under ${runtime.name}`, () => {
    test('vectors over TCP and a Unix socket, a subscription seeing a CLI append, a clean stop', async () => {
      const root = await makeRoot(['demo']);
      const folder = join(root, 'demo');
      const before = snapshotFolder(folder);
      const socket = join(tempDir('acp-sock-'), 'acp.sock');
      const served = await spawnServe(['--config', config(root), '--tcp', '127.0.0.1:0', '--unix', socket], { runtime: runtime.name });
      try {
        const [host, port] = [served.tcp!.split(':')[0]!, Number(served.tcp!.split(':')[1])];
        expect(host).toBe('127.0.0.1');
        const tcp = await RawConn.tcp(port);
        expect(await tcp.request('authenticate', { token: ALICE_TOKEN }, 'a')).toMatchObject({ result: { participant: 'alice' } });
        await runVectors(tcp);
        const unix = await RawConn.unix(served.unix!);
        await runVectors(unix);
        expect(snapshotFolder(folder)).toEqual(before);

        const sub = await tcp.request('agent/subscribe', { task: 'demo', participant: 'alice' }, 's');
        expect(sub).toMatchObject({ result: { seq: 1, ready: true } });
        const r = await runAcp(['append', '--folder', folder, '--participant', 'alice', '--event', 'blocked', '--summary', 'über 🎉', '--reply-to', '1']);
        expect(r.code).toBe(0);
        const note = (await tcp.waitFor((m) => (m as { method?: string }).method === 'agent/event')) as { params: Record<string, unknown> };
        expect(note.params).toMatchObject({ task: 'demo', event: { seq: 2, event: 'blocked', summary: 'über 🎉' }, state: { phase: 'blocked' }, ready: true, reason: 'ready: phase is blocked' });
        tcp.close();
        unix.close();
      } finally {
        expect(await served.stop()).toBe(0);
        rmSync(root, { recursive: true, force: true });
      }
      expect(existsSync(socket)).toBe(false);
    }, 120_000);
  });
}
