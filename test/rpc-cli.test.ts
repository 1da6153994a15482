// The commands, run as real processes: `acp serve` (config errors, loopback
// rule; under Node), then `acp rpc` (one-shot calls) and `acp wait --server`
// (waiting by subscription) once per spawned runtime of ACP_RPC_RUNTIMES
// (node dist/acp.mjs, bun acp.ts, deno acp.ts — a client gets only the
// permissions README documents — and dist/acp), the server on the same
// runtime; every output is compared with what Node's CLI prints.
// Run size (test/scale.ts): `npm test` runs the spawned suites on node and
// deno (deno has a test of its own); ACP_FULL=1 on all four.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { ALICE_TOKEN, BOB_TOKEN, makeRoot, runAcp, runAcpOn, spawnAcpOn, spawnRuntimes, startServerOn, type RunOptions, type RunningServer } from './rpc/helpers.ts';

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
    ['limits:\n  authTimeoutSeconds: -1\n', 'error: invalid server config bad.yaml: limits.authTimeoutSeconds: authTimeoutSeconds must not be negative\n'],
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

for (const runtime of spawnRuntimes('node', 'deno')) {
  describe(`acp rpc and acp wait --server (${runtime}: server and clients)`, () => {
    let root: string;
    let srv: RunningServer;
    let endpoint: string;
    beforeAll(async () => {
      // `handover` is the wait test's own: it moves it past drafting, and the
      // other tests (in any order: --sequence.shuffle) rely on `demo` in drafting.
      root = await makeRoot(['demo', 'handover']);
      srv = await startServerOn(runtime, root);
      endpoint = `tcp://127.0.0.1:${srv.port}`;
    });
    afterAll(async () => {
      await srv?.close();
      rmSync(root, { recursive: true, force: true });
    });

    const run = (args: string[], options: RunOptions = {}): ReturnType<typeof runAcp> => runAcpOn(runtime, args, options);
    /** Run on this runtime, then under Node: the same exit code and output. */
    async function same(args: string[], options: RunOptions = {}): ReturnType<typeof runAcp> {
      const here = await run(args, options);
      if (runtime !== 'node') expect(here, args.join(' ')).toEqual(await runAcp(args, options));
      return here;
    }

    test('one-shot calls print one JSON line; errors print error: and exit 2', async () => {
      const ok = await same(['rpc', 'task/status', '{"task":"demo"}', '--server', endpoint, '--token', ALICE_TOKEN]);
      expect(ok.code).toBe(0);
      expect(ok.stdout.split('\n')).toHaveLength(2);
      expect(JSON.parse(ok.stdout)).toMatchObject({ task: 'demo', phase: 'drafting' });

      const viaEnv = await same(['rpc', 'agent/info', '["acp"]'], { env: { ACP_SERVER: `unix:${srv.socket}` }, deno: { socket: srv.socket } });
      expect(JSON.parse(viaEnv.stdout)).toMatchObject({ agent: 'acp', version: srv.version, endpoints: { tcp: `127.0.0.1:${srv.port}`, unix: srv.socket } });

      const tokenFile = join(root, 'token');
      writeFileSync(tokenFile, `${BOB_TOKEN}\n`);
      const refused = await same(['rpc', 'agent/call', '{"agent":"acp","action":"append","args":{"folder":"demo","event":"proposal_submitted","summary":"x","replyTo":1}}', '--server', endpoint, '--token-file', tokenFile], { deno: { files: [tokenFile] } });
      const direct = await runAcp(['append', '--folder', join(root, 'demo'), '--participant', 'bob', '--event', 'proposal_submitted', '--summary', 'x', '--reply-to', '1']);
      expect(direct.stderr).toMatch(/^error: seq 2: /);
      // The same words and exit code as the CLI itself.
      expect(refused.code).toBe(direct.code);
      expect(refused.stderr).toBe(direct.stderr);
      expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: -32010 } });

      const unauth = await same(['rpc', 'task/status', '{"task":"demo"}', '--server', endpoint]);
      expect(unauth.code).toBe(2);
      expect(unauth.stderr).toMatch(/^error: unauthorized: authenticate first.* \(-32020\)\n$/);

      expect((await same(['rpc', 'ping', 'nope', '--server', endpoint])).stderr).toBe('error: params must be JSON: nope\n');
      const badEndpoint = await same(['rpc', 'ping', '--server', 'tcp://127.0.0.1:']);
      expect(badEndpoint).toMatchObject({ code: 2, stderr: "error: invalid endpoint 'tcp://127.0.0.1:': expected tcp://host:port, host:port or unix:/path\n" });
      // The system's words for a refused connection are the runtime's own.
      const refusedConnect = await run(['rpc', 'ping', '--server', 'tcp://127.0.0.1:1']);
      expect(refusedConnect.code).toBe(2);
      expect(refusedConnect.stderr).toMatch(/^error: cannot connect to tcp:\/\/127\.0\.0\.1:1: .*\n$/);

      const draft = join(root, 'draft.md');
      writeFileSync(draft, '# Proposal\n\nÜber-cache 🎉\n');
      const upload = await same(['rpc', 'agent/call', '{"agent":"acp","action":"write","args":{"folder":"demo","doc":"proposal.md"}}', '--param-file', `args.content=${draft}`, '--server', endpoint, '--token', ALICE_TOKEN], { deno: { files: [draft] } });
      expect(JSON.parse(upload.stdout)).toMatchObject({ status: 'success', data: { doc: 'proposal.md', bytes: Buffer.byteLength('# Proposal\n\nÜber-cache 🎉\n') } });
      const read = await same(['rpc', 'agent/call', '{"agent":"acp","action":"read","args":{"folder":"demo","doc":"proposal.md"}}', '--server', endpoint, '--token', BOB_TOKEN]);
      expect(JSON.parse(read.stdout).data.content).toBe('# Proposal\n\nÜber-cache 🎉\n');
    });

    if (runtime === 'deno') {
      test('under Deno, a Unix socket the client may not open is a clear error (exit 2)', async () => {
        const r = await run(['rpc', 'ping', '--server', `unix:${srv.socket}`]);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(new RegExp(`^error: cannot connect to unix:${srv.socket.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*--allow-read`));
      });
    }

    test('wait --server returns when the CLI makes it the participant’s turn, printing what wait prints', async () => {
      const folder = join(root, 'handover');
      const child = spawnAcpOn(runtime, ['wait', '--server', endpoint, '--token', BOB_TOKEN, '--folder', 'handover', '--participant', 'bob', '--timeout', '60']);
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d) => (stdout += d));
      child.stderr!.on('data', (d) => (stderr += d));
      const waiting = new Promise<{ code: number | null; stdout: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout })));
      // Its first progress line comes once it is subscribed; then make it bob's turn with the CLI (files only).
      await expect.poll(() => stdout, { timeout: 20_000 }).toMatch(/^waiting: /);
      const host = await acp.createNodeHost();
      await acp.append(host, folder, { participant: 'alice', event: 'deliverable_drafted', summary: 'draft', replyTo: 1, doc: 'deliverables/adr.md', role: 'primary' });
      await acp.append(host, folder, { participant: 'alice', event: 'proposal_submitted', summary: 'submit', replyTo: 2, doc: 'proposal.md' });
      const r = await waiting;
      expect(r.code, stderr).toBe(0);
      const direct = await runAcp(['wait', '--folder', folder, '--participant', 'bob', '--timeout', '5']);
      expect(r.stdout).toMatch(/^waiting: waiting for alice after seq 1\n/);
      // The final lines are those of `acp wait` on the folder.
      expect(r.stdout.endsWith(direct.stdout), `wait --server printed:\n${r.stdout}\nacp wait printed:\n${direct.stdout}`).toBe(true);
      const json = await same(['wait', '--server', endpoint, '--token', BOB_TOKEN, '--folder', 'handover', '--participant', 'bob', '--json']);
      const directJson = await runAcp(['wait', '--folder', folder, '--participant', 'bob', '--json']);
      expect(JSON.parse(json.stdout)).toEqual(JSON.parse(directJson.stdout));
    });

    test('wait --server times out like wait', async () => {
      // `demo` is in drafting, waiting for alice: bob's wait times out.
      const r = await run(['wait', '--server', endpoint, '--token', BOB_TOKEN, '--folder', 'demo', '--participant', 'bob', '--timeout', '0.5']);
      const direct = await runAcp(['wait', '--folder', join(root, 'demo'), '--participant', 'bob', '--timeout', '0.5']);
      expect(r.code).toBe(1);
      expect(r.code).toBe(direct.code);
      expect(r.stderr).toBe(direct.stderr);
      expect(r.stdout).toBe(direct.stdout);
    });

    test('serve: an invalid config is refused with the same words as under Node (exit 2)', async () => {
      writeFileSync(join(root, 'bad.yaml'), 'limits:\n  authTimeoutSeconds: soon\n  color: red\n');
      const r = await same(['serve', '--config', 'bad.yaml', '--stdio'], { cwd: root, deno: { server: true } });
      expect(r).toEqual({ code: 2, stdout: '', stderr: 'error: invalid server config bad.yaml: limits.authTimeoutSeconds: authTimeoutSeconds must be a number of seconds; limits.color: unknown key\n' });
    });
  });
}
