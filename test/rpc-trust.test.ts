// Trust boundaries of the RPC server (issue 16, item 2), in process: reads and
// writes go through the CLI's resolved-path check (symlinks leaving the
// folder are refused), and only a running task can be cancelled.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RpcClient } from '../plugins/rpc/client.ts';
import { ALICE_TOKEN, makeRoot, snapshotFolder, startServer, tempDir } from './rpc/helpers.ts';

describe('rpc server trust boundaries', () => {
  let root: string;
  let outside: string;
  let srv: Awaited<ReturnType<typeof startServer>>;
  let alice: RpcClient;
  beforeAll(async () => {
    root = await makeRoot(['linked', 'dirlinked', 'finished']);
    outside = tempDir('acp-outside-');
    srv = await startServer(root);
    alice = await RpcClient.connect(`tcp://127.0.0.1:${srv.port}`, { token: ALICE_TOKEN, heartbeatMs: 0 });
  });
  afterAll(async () => {
    alice?.close();
    await srv?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  test('a proposal.md symlinked to a file outside the root is neither read nor written through', async () => {
    const secret = join(outside, 'secret.txt');
    writeFileSync(secret, 'top secret\n');
    rmSync(join(root, 'linked', 'proposal.md'));
    symlinkSync(secret, join(root, 'linked', 'proposal.md'));
    const read = alice.acp('read', { folder: 'linked', doc: 'proposal.md' });
    await expect(read).rejects.toMatchObject({ code: -32010, message: expect.stringContaining('resolves outside') });
    const write = alice.acp('write', { folder: 'linked', doc: 'proposal.md', content: 'overwritten\n' });
    await expect(write).rejects.toMatchObject({ code: -32010 });
    expect(readFileSync(secret, 'utf8')).toBe('top secret\n');
  });

  test('a deliverables/ symlinked to a directory outside the root is not written into', async () => {
    const folder = join(root, 'dirlinked');
    rmSync(join(folder, 'deliverables'), { recursive: true, force: true });
    mkdirSync(join(outside, 'elsewhere'));
    symlinkSync(join(outside, 'elsewhere'), join(folder, 'deliverables'));
    const write = alice.acp('write', { folder: 'dirlinked', doc: 'deliverables/adr.md', content: '# planted\n' });
    await expect(write).rejects.toMatchObject({ code: -32010, message: expect.stringContaining('resolves outside') });
    expect(existsSync(join(outside, 'elsewhere', 'adr.md'))).toBe(false);
    await expect(alice.acp('read', { folder: 'dirlinked', doc: 'deliverables/adr.md' })).rejects.toMatchObject({ code: -32010 });
  });

  test('task/cancel only cancels a running task; a finished one is refused with -32004 and left as it was', async () => {
    const cancelled = (await alice.call('task/cancel', { task: 'finished', reason: 'Priorities changed.' })) as Record<string, unknown>;
    expect(cancelled).toMatchObject({ phase: 'blocked' });
    const before = snapshotFolder(join(root, 'finished'));
    const again = alice.call('task/cancel', { task: 'finished', reason: 'Again.' });
    await expect(again).rejects.toMatchObject({ code: -32004, message: "task 'finished' is not running (phase: blocked); only a running task can be cancelled", data: { task: 'finished', phase: 'blocked' } });
    expect(snapshotFolder(join(root, 'finished'))).toEqual(before);
  });
});
