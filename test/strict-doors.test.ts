// Strict append at each door (issue 26): `--strict` on the CLI (append and
// freeze), `strict: true` in acp.config.yaml (which makes `validate` strict
// too), and the JSON-RPC server, strict by default unless the configuration
// says `strict: false`. The core's check itself: test/strict.test.ts.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, onTestFinished, test } from 'vitest';
import * as acp from '../acp.ts';
import { RpcClient } from '../plugins/rpc/client.ts';
import { ALICE_TOKEN, makeRoot, runAcp, snapshotFolder, startServer } from './rpc/helpers.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const DRAFT = ['--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'draft', '--doc', 'deliverables/adr.md', '--role', 'primary', '--reply-to', '1'];
const EMPTY = ['Status', 'Context', 'Decision', 'Alternatives Considered', 'Consequences', 'Follow-ups'].map((s) => `error: primary deliverable section must not be empty once drafted: ${s}`);

async function folder(): Promise<{ root: string; folder: string }> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-strict-doors-')));
  dirs.push(root);
  const host = await acp.createNodeHost();
  await acp.init(host, join(root, 'collab'), { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr' }, await acp.createRegistry());
  return { root, folder: join(root, 'collab') };
}

describe('strict at every door', () => {
  test('CLI: append --strict refuses a template draft in validate --strict\'s words and writes nothing; the plain append keeps the Python behaviour', async () => {
    const { root, folder: dir } = await folder();
    const before = snapshotFolder(dir);
    const strict = await runAcp(['append', '--folder', dir, '--strict', ...DRAFT], { cwd: root });
    expect({ code: strict.code, out: strict.stdout, err: strict.stderr.trimEnd().split('\n') }).toEqual({ code: 2, out: '', err: EMPTY });
    expect(snapshotFolder(dir)).toEqual(before);
    const json = await runAcp(['append', '--folder', dir, '--strict', '--json', ...DRAFT], { cwd: root });
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, code: 'strict', exitCode: 2 });
    const plain = await runAcp(['append', '--folder', dir, ...DRAFT], { cwd: root });
    expect({ code: plain.code, out: plain.stdout }).toEqual({ code: 0, out: 'appended seq 2: deliverable_drafted\n' });
    // validate --strict now says what the strict append said.
    const validate = await runAcp(['validate', '--folder', dir, '--strict'], { cwd: root });
    expect(validate.stdout.split('\n').filter((l) => l.startsWith('ERROR: '))).toEqual(EMPTY.map((e) => e.replace('error: ', 'ERROR: ')));
    expect((await runAcp(['validate', '--folder', dir], { cwd: root })).stdout).toBe('ACP validation passed\n');
  });

  test('CLI: strict: true in acp.config.yaml makes append and validate strict; strict: maybe is refused', async () => {
    const { root, folder: dir } = await folder();
    writeFileSync(join(root, 'acp.config.yaml'), 'strict: true\n');
    const env = { ...process.env, ACP_TRUSTED_CONFIG: join(root, 'acp.config.yaml') };
    const refused = await runAcp(['append', '--folder', dir, ...DRAFT], { cwd: root, env });
    expect({ code: refused.code, err: refused.stderr.trimEnd().split('\n') }).toEqual({ code: 2, err: EMPTY });
    writeFileSync(join(root, 'acp.config.yaml'), 'strict: false\n');
    expect((await runAcp(['append', '--folder', dir, ...DRAFT], { cwd: root, env })).code).toBe(0);
    writeFileSync(join(root, 'acp.config.yaml'), 'strict: true\n');
    expect((await runAcp(['validate', '--folder', dir], { cwd: root, env })).stdout).toMatch(/^ACP validation failed\nERROR: primary deliverable section must not be empty once drafted: Status\n/);
    writeFileSync(join(root, 'acp.config.yaml'), 'strict: maybe\n');
    const bad = await runAcp(['validate', '--folder', dir], { cwd: root, env });
    expect({ code: bad.code, err: bad.stderr }).toEqual({ code: 2, err: `error: ${join(root, 'acp.config.yaml')}: strict: must be true or false\n` });
  });

  test('JSON-RPC: the server\'s appends are strict by default; strict: false in the configuration turns it off', async () => {
    const root = await makeRoot(['demo']);
    dirs.push(root);
    const adr = join(root, 'demo', 'deliverables', 'adr.md');
    // Back to the template (makeRoot writes the ADR).
    writeFileSync(adr, readFileSync(adr, 'utf8').replace(/^(## .+\n\n)The .* of this ADR\.\n\n/gm, '$1'));
    const before = snapshotFolder(join(root, 'demo'));
    const args = { folder: 'demo', event: 'deliverable_drafted', summary: 'draft', replyTo: 1, doc: 'deliverables/adr.md', role: 'primary' };
    const strictServer = await startServer(root);
    onTestFinished(() => strictServer.close());
    const alice = await RpcClient.connect(`tcp://127.0.0.1:${strictServer.port}`, { token: ALICE_TOKEN, heartbeatMs: 0 });
    onTestFinished(() => alice.close());
    // A call cannot turn it off: strict is the server's to decide, not an argument of the action (runtime/doors.ts).
    const unasked = await alice.acp('append', { ...args, strict: false }).catch((e: Error) => e);
    expect((unasked as Error).message).toBe('unrecognized arguments: strict');
    const refused = await alice.acp('append', args).catch((e: Error) => e);
    expect((refused as Error).message).toBe(EMPTY.map((e) => e.slice('error: '.length)).join('; '));
    expect(snapshotFolder(join(root, 'demo'))).toEqual(before);
    await strictServer.close();
    const registry = await acp.createRegistry({ builtIns: true });
    registry.config = { file: join(root, 'acp.config.yaml'), sections: { strict: false } };
    const lenient = await startServer(root, { registry });
    onTestFinished(() => lenient.close());
    const bob = await RpcClient.connect(`tcp://127.0.0.1:${lenient.port}`, { token: ALICE_TOKEN, heartbeatMs: 0 });
    onTestFinished(() => bob.close());
    expect(await bob.acp('append', args)).toMatchObject({ event: { seq: 2, event: 'deliverable_drafted' } });
  });
});
