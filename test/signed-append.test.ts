// Signed II (issue 36, docs/signing.md): an append verifies what it extends
// and the log alone says who signed. Each case is one the issue found
// unguarded: a cut tail extended by an honest append (at every door), a
// deleted decision_accepted replaced by another's event, a deleted key copy
// then an impersonating append, a removed `signing` or `head`, edited terms,
// a key copy with missing or extra names. The tamper suite's classes of these
// (hundreds in test:all) are in test/signing.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, onTestFinished, test, vi } from 'vitest';
import * as acp from '../acp.ts';
import { lineHash, memoryKeyring, type PrivateJwk } from '../runtime/keyring.ts';
import { generateSigningKey } from '../runtime/signing.ts';
import { RpcClient } from '../plugins/rpc/client.ts';
import { createMcpServer } from '../plugins/mcp/server.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { OWNER, REVIEWER, STEPS } from './happy-path.ts';
import { pythonValidator } from './python/reference.ts';
import { BOB_TOKEN, snapshotFolder, startServer } from './rpc/helpers.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs are disk work otherwise.
tmpdirInScratch();

const FOLDER = '/c';
const PY_VALIDATE = pythonValidator();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const registryPromise = acp.createRegistry({ builtIns: true });

type MemoryHost = acp.Host & { fs: acp.MemoryFileSystem };

/** A signed collaboration on a memory host, the happy path's first `steps` appends made (alice owns, bob reviews). */
async function signedSession(steps: number, keyring = memoryKeyring()): Promise<{ host: MemoryHost; registry: acp.Registry }> {
  let clock = Date.UTC(2026, 0, 1);
  const host = acp.createMemoryHost({ keyring, now: () => new Date((clock += 1000)) }) as MemoryHost;
  const registry = await registryPromise;
  await acp.init(host, FOLDER, { participants: [OWNER, REVIEWER], objective: 'Choose the storage layer', completion: ['Tradeoffs are documented'], primaryType: 'design-spec', sign: true }, registry);
  for (const step of STEPS.slice(0, steps)) await appendStep(host, registry, step);
  return { host, registry };
}

async function appendStep(host: MemoryHost, registry: acp.Registry, step: (typeof STEPS)[number], replyTo?: number): Promise<acp.AppendResult> {
  for (const [path, text] of Object.entries(step.files)) await host.fs.writeFile(join(FOLDER, path), text);
  return acp.append(host, FOLDER, { ...step.event, ...(replyTo ? { replyTo } : {}) }, registry);
}

const text = (host: MemoryHost, name: string): string => new TextDecoder().decode(host.fs.snapshot().get(join(FOLDER, name))!);
const write = (host: MemoryHost, name: string, value: string): Promise<void> => host.fs.writeFile(join(FOLDER, name), value);
const lines = (host: MemoryHost): string[] => text(host, 'events.jsonl').split('\n').slice(0, -1);
const protocolOf = (host: MemoryHost): Record<string, any> => JSON.parse(text(host, 'protocol.json'));
const editProtocol = (host: MemoryHost, edit: (p: Record<string, any>) => void): Promise<void> => {
  const p = protocolOf(host);
  edit(p);
  return write(host, 'protocol.json', `${JSON.stringify(p, null, 2)}\n`);
};

/** Cut the log's last line (protocol.json left as the last append wrote it). */
async function cutTail(host: MemoryHost): Promise<void> {
  await write(host, 'events.jsonl', lines(host).slice(0, -1).map((l) => `${l}\n`).join(''));
}

describe('an append verifies the log it extends', () => {
  test('a cut tail then an honest append is refused in validate\'s words, with the seq and the way to recover; nothing is written', async () => {
    const keyring = memoryKeyring();
    const { host, registry } = await signedSession(3, keyring);
    await cutTail(host);
    const before = host.fs.snapshot();
    // bob on a machine of his own: his key, and no record of what he signed.
    const bob = acp.createMemoryHost({ fs: host.fs, keyring: memoryKeyring({ bob: (await keyring.load('bob')) as PrivateJwk }) }) as MemoryHost;
    const refused = await appendStep(bob, registry, STEPS[2]!).catch((e: acp.AcpError) => e);
    expect(refused).toMatchObject({ code: 'invalid_log', exitCode: 2 });
    expect((refused as Error).message).toMatch(/^the log this append would extend is not what its signers wrote, so nothing was appended: seq 4: missing: events\.jsonl ends at seq 3, but protocol\.json's signed head is seq 4 \(seq 4 was removed\); find out with `acp validate` and `acp doctor`, and restore events\.jsonl from a known-good copy or its git history/);
    expect(host.fs.snapshot()).toEqual(before);
    // Where bob keeps his record, the line he signed is what is missing.
    await expect(appendStep(host, registry, STEPS[2]!)).rejects.toThrow(/: seq 4: the line bob signed there \(sha256 [0-9a-f]{12}…\) is no longer in events\.jsonl/);
    expect(host.fs.snapshot()).toEqual(before);
  });

  test('a deleted decision_accepted replaced by another\'s event is refused; with the head rewritten too, its signer\'s next append names the line it signed', async () => {
    const { host, registry } = await signedSession(6);
    // seq 7: alice's decision_accepted; bob cuts it and accepts in its place.
    const cut = text(host, 'events.jsonl');
    await cutTail(host);
    await expect(appendStep(host, registry, STEPS[6]!, 6)).rejects.toThrow(/seq 7: missing: events\.jsonl ends at seq 6/);
    // bob also rewrites protocol.json's head to the shorter log: his append goes through (he can sign what he likes) ...
    const six = lines(host)[5]!;
    await editProtocol(host, (p) => void (p.signing.head = { seq: 6, sha256: lineHash(six) }));
    await appendStep(host, registry, STEPS[6]!, 6);
    expect(JSON.parse(lines(host)[6]!)).toMatchObject({ seq: 7, from: REVIEWER, event: 'decision_accepted' });
    // ... but alice's next append finds that the line she signed at seq 7 is gone.
    await expect(appendStep(host, registry, STEPS[5]!, 7)).rejects.toThrow(/seq 7: the line alice signed there \(sha256 [0-9a-f]{12}…\) is no longer in events\.jsonl: the log was cut or rewritten after alice's last append/);
    expect(cut.split('\n')[6]).toContain('"from":"alice","event":"decision_accepted"');
  });

  test('a deleted key copy then an impersonating append is refused (the key is the log\'s), and the real participant is not locked out', async () => {
    const { host, registry } = await signedSession(5); // bob's key is in the log (seq 4); both may accept now
    await editProtocol(host, (p) => delete p.signing.keys.bob);
    const before = host.fs.snapshot();
    // carol's machine: a keyring of her own, which makes a "bob" key on first use.
    const mallory = acp.createMemoryHost({ fs: host.fs, keyring: memoryKeyring({ bob: await generateSigningKey() }), now: () => new Date(Date.UTC(2026, 0, 2)) });
    await expect(acp.append(mallory, FOLDER, { ...STEPS[6]!.event, replyTo: 6 }, registry)).rejects.toThrow(/not the one this collaboration registered for bob/);
    expect(host.fs.snapshot()).toEqual(before);
    // The real bob appends; protocol.json's copy is rebuilt from the log.
    await appendStep(host, registry, STEPS[6]!, 6);
    expect(Object.keys(protocolOf(host).signing.keys).sort()).toEqual(['alice', 'bob']);
    expect(await acp.validate(host, FOLDER, registry)).toMatchObject({ ok: true });
  });

  test('`signing` removed from protocol.json: append refused, doctor not healthy, doctor --fix restores it from the log', async () => {
    const { host, registry } = await signedSession(2);
    const signing = protocolOf(host).signing;
    await editProtocol(host, (p) => delete p.signing);
    await expect(appendStep(host, registry, STEPS[2]!)).rejects.toThrow(/^seq 1 declares a signed collaboration, but protocol\.json has no signing declaration \(removed\?\).*`acp doctor --fix` restores/);
    const doctor = await import('../plugins/doctor/diagnose.ts');
    const sick = await doctor.doctor(acp, host, FOLDER);
    expect(sick.healthy).toBe(false);
    expect(sick.findings).toContainEqual(expect.objectContaining({ check: 'signatures', status: 'problem', fixable: true, message: expect.stringContaining('seq 1: declares a signed collaboration, but protocol.json has no signing declaration') }));
    const fixed = await doctor.doctor(acp, host, FOLDER, { fix: true });
    expect(fixed.changes).toContainEqual(expect.stringContaining("restored protocol.json's signing from the log"));
    expect(protocolOf(host).signing).toEqual(signing);
    await appendStep(host, registry, STEPS[2]!);
    expect(await acp.validate(host, FOLDER, registry)).toMatchObject({ ok: true, errors: [] });
  });

  test('protocol.json\'s signing id altered (to hide a participant\'s record): the append verifies from seq 1 and refuses; doctor --fix restores it', async () => {
    const { host, registry } = await signedSession(2);
    const id = protocolOf(host).signing.id as string;
    await cutTail(host);
    await editProtocol(host, (p) => {
      p.signing.id = 'A'.repeat(22);
      p.signing.head = { seq: 2, sha256: lineHash(lines(host)[1]!) };
    });
    await expect(appendStep(host, registry, STEPS[1]!, 2)).rejects.toThrow(`seq 1: declares collaboration ${id}, but protocol.json's signing names ${'A'.repeat(22)} (altered?)`);
    const doctor = await import('../plugins/doctor/diagnose.ts');
    await doctor.doctor(acp, host, FOLDER, { fix: true });
    expect(protocolOf(host).signing.id).toBe(id);
    // Back under its id, the record of alice's seq 3 names the cut.
    await expect(appendStep(host, registry, STEPS[1]!, 2)).rejects.toThrow(/seq 3: the line alice signed there/);
  });

  test('`head` removed: validate and doctor report it, append refuses, doctor --fix restores it', async () => {
    const { host, registry } = await signedSession(2);
    const head = protocolOf(host).signing.head;
    await editProtocol(host, (p) => delete p.signing.head);
    const message = "seq 3: protocol.json's signing has no head (removed?): a cut tail of the log cannot be told from an honest end; `acp doctor --fix` restores it from the log";
    expect((await acp.validate(host, FOLDER, registry)).errors).toEqual([message]);
    await expect(appendStep(host, registry, STEPS[2]!)).rejects.toThrow(message);
    const doctor = await import('../plugins/doctor/diagnose.ts');
    expect((await doctor.doctor(acp, host, FOLDER)).findings).toContainEqual(expect.objectContaining({ check: 'signatures', message, fixable: true }));
    await doctor.doctor(acp, host, FOLDER, { fix: true });
    expect(protocolOf(host).signing.head).toEqual(head);
  });

  test('the terms are signed: an edit of the objective, a completion gate or the participants is named by validate', async () => {
    const { host, registry } = await signedSession(1);
    expect(await acp.validate(host, FOLDER, registry)).toMatchObject({ ok: true });
    const original = text(host, 'protocol.json');
    await editProtocol(host, (p) => void (p.objective = 'Choose nothing'));
    expect((await acp.validate(host, FOLDER, registry)).errors).toEqual([expect.stringMatching(/^seq 1: protocol\.json's objective is not what seq 1 signed: the collaboration's terms were edited after it started/)]);
    await editProtocol(host, (p) => void (p.completionGates[0].text = 'Nothing'));
    expect((await acp.validate(host, FOLDER, registry)).errors).toEqual([expect.stringMatching(/^seq 1: protocol\.json's objective, completionGates are not what seq 1 signed/)]);
    await write(host, 'protocol.json', original);
    // Key order and formatting are not terms: a rewrite by another tool (json.dumps) is no edit.
    await write(host, 'protocol.json', `${JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(original)).reverse()))}\n`);
    expect(await acp.validate(host, FOLDER, registry)).toMatchObject({ ok: true });
  });

  test('protocol.json\'s key copy is checked both ways: a missing name and an extra one are reported, and doctor --fix rebuilds the copy', async () => {
    const { host, registry } = await signedSession(1);
    await editProtocol(host, (p) => {
      delete p.signing.keys.alice;
      p.signing.keys.mallory = p.signing.keys.bob ?? 'A'.repeat(43);
    });
    const { errors } = await acp.validate(host, FOLDER, registry);
    expect(errors).toEqual([
      expect.stringMatching(/^seq 1: protocol\.json signing\.keys has no key for alice, whose key the log registers \(at seq 1\)/),
      expect.stringMatching(/^seq 2: protocol\.json signing\.keys names mallory, whose key the log never registers/),
    ]);
    const doctor = await import('../plugins/doctor/diagnose.ts');
    await doctor.doctor(acp, host, FOLDER, { fix: true });
    expect(Object.keys(protocolOf(host).signing.keys)).toEqual(['alice']);
    expect(await acp.validate(host, FOLDER, registry)).toMatchObject({ ok: true });
  });
});

/** A signed collaboration on disk (keys in the tests' state directory), seq 2 and 3 by alice; returns its folder. */
async function signedOnDisk(root: string, name: string): Promise<string> {
  const host = await acp.createNodeHost();
  const registry = await registryPromise;
  const folder = join(root, name);
  await acp.init(host, folder, { participants: [OWNER, REVIEWER], objective: 'Choose the storage layer', completion: ['Tradeoffs are documented'], primaryType: 'adr', sign: true }, registry);
  for (const [seq, event] of [[2, 'deliverable_drafted'], [3, 'blocked']] as const) {
    await acp.append(host, folder, { participant: OWNER, event, summary: `seq ${seq}`, replyTo: seq - 1, ...(event === 'blocked' ? { doc: 'conclusion.md' } : { doc: 'deliverables/adr.md', role: 'primary' }) }, registry);
  }
  return folder;
}

/** Cut a folder's last log line; returns a snapshot to compare with after the refused append. */
function cutOnDisk(folder: string): ReturnType<typeof snapshotFolder> {
  const log = readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\n').slice(0, -1);
  writeFileSync(join(folder, 'events.jsonl'), log.slice(0, -1).map((l) => `${l}\n`).join(''));
  return snapshotFolder(folder);
}

/** What every door must say: the cut line's seq, and that nothing was appended. */
const REFUSED_CUT = /the log this append would extend is not what its signers wrote, so nothing was appended: seq 3: /;

describe('a cut tail is refused at every door', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-signed-doors-')));
  dirs.push(root);
  // bob (blocked is legal for anyone from any phase) appends honestly after alice's seq 3 was cut.
  const BOB_BLOCKED = ['--participant', REVIEWER, '--event', 'blocked', '--summary', 'honest', '--doc', 'conclusion.md', '--reply-to', '2'];

  test('the CLI', async () => {
    const folder = await signedOnDisk(root, 'cli');
    const before = cutOnDisk(folder);
    let err = '';
    const code = await acp.runCli({ argv: ['append', '--folder', folder, ...BOB_BLOCKED], stdout: () => undefined, stderr: (t) => void (err += t), color: false });
    expect({ code, err }).toEqual({ code: 2, err: expect.stringMatching(new RegExp(`^error: ${REFUSED_CUT.source}missing: events\\.jsonl ends at seq 2`)) });
    expect(snapshotFolder(folder)).toEqual(before);
  });

  test('MCP', async () => {
    const folder = await signedOnDisk(root, 'mcp');
    const before = cutOnDisk(folder);
    const server = createMcpServer({ core: acp, host: await acp.createNodeHost(), registry: await registryPromise, root, version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'signed', version: '1.0.0' });
    await client.connect(clientSide);
    onTestFinished(async () => {
      await client.close();
      await server.close();
    });
    const result = (await client.callTool({ name: 'append', arguments: { folder: 'mcp', participant: REVIEWER, event: 'blocked', summary: 'honest', doc: 'conclusion.md', reply_to: 2 } })) as { isError?: boolean; content: { type: string; text?: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content.map((c) => c.text ?? '').join('')).toMatch(REFUSED_CUT);
    expect(snapshotFolder(folder)).toEqual(before);
  });

  test('JSON-RPC', async () => {
    const folder = await signedOnDisk(root, 'rpc');
    const before = cutOnDisk(folder);
    const running = await startServer(root);
    onTestFinished(() => running.close());
    const bob = await RpcClient.connect(`tcp://127.0.0.1:${running.port}`, { token: BOB_TOKEN, heartbeatMs: 0 });
    onTestFinished(() => bob.close());
    const refused = await bob.acp('append', { folder: 'rpc', event: 'blocked', summary: 'honest', doc: 'conclusion.md', replyTo: 2 }).catch((e: Error) => e);
    expect((refused as Error).message).toMatch(REFUSED_CUT);
    expect(snapshotFolder(folder)).toEqual(before);
  });
});

describe('the Python validator accepts a signed folder (extra keys only)', () => {
  test.skipIf(!PY_VALIDATE)('a complete signed collaboration: python3 validate_collaboration.py passes it, and so does acp', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-signed-py-')));
    dirs.push(root);
    const host = await acp.createNodeHost();
    const registry = await registryPromise;
    const folder = join(root, 'collab');
    await acp.init(host, folder, { participants: [OWNER, REVIEWER], objective: 'Choose the storage layer', completion: ['Tradeoffs are documented'], primaryType: 'design-spec', sign: true }, registry);
    for (const step of STEPS) {
      for (const [path, body] of Object.entries(step.files)) writeFileSync(join(folder, path), body);
      await acp.append(host, folder, step.event, registry);
    }
    expect(JSON.parse(readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\n')[0]!).signing.terms).toMatchObject({ objective: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const python = spawnSync('python3', [PY_VALIDATE!, '--folder', folder], { encoding: 'utf8' });
    expect({ status: python.status, out: python.stdout, err: python.stderr }).toEqual({ status: 0, out: 'ACP validation passed\n', err: '' });
    expect(await acp.validate(host, folder, registry)).toMatchObject({ ok: true, errors: [], warnings: [] });
  });
});

describe('a participant with no record of its own starts from the validation checkpoint', () => {
  // A Node host: the validation checkpoint lives beside its checkpoint key (validate/), named by the folder's path and MACed with that key.
  async function longSignedFolder(events = 120): Promise<{ host: acp.Host; registry: acp.Registry; folder: string; keys: string; cache: string }> {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'acp-sign-append-cp-')));
    dirs.push(dir);
    const [keys, cache] = [join(dir, 'keys'), join(dir, 'validate')];
    const host = await acp.createNodeHost({ checkpointKeyFile: join(dir, 'checkpoint.key'), signingKeys: { dir: keys } });
    const registry = await registryPromise;
    const folder = join(dir, 'collab');
    await acp.init(host, folder, { participants: [OWNER, REVIEWER], objective: 'o', completion: ['g'], primaryType: 'adr', sign: true }, registry);
    // 120 lines of ~650 bytes: past MIN_LOG_BYTES, below which no checkpoint is kept.
    for (let seq = 2; seq <= events; seq++) await acp.append(host, folder, { participant: OWNER, event: 'deliverable_drafted', summary: 'x'.repeat(400), doc: 'deliverables/adr.md', role: 'primary', replyTo: seq - 1 }, registry);
    return { host, registry, folder, keys, cache };
  }
  /** Forget every participant's record of what it signed (a first append on this machine). */
  const forgetRecords = (keys: string): void => {
    for (const name of readdirSync(keys)) if (name.endsWith('.head')) rmSync(join(keys, name));
  };
  /** How many Ed25519 signatures `run` verifies. */
  async function verifications(run: () => Promise<unknown>): Promise<number> {
    const spy = vi.spyOn(globalThis.crypto.subtle, 'verify');
    try {
      await run();
      return spy.mock.calls.filter(([algorithm]) => algorithm === 'Ed25519').length;
    } finally {
      spy.mockRestore();
    }
  }
  const draft = (seq: number) => ({ participant: OWNER, event: 'deliverable_drafted', summary: 'again', doc: 'deliverables/adr.md', role: 'primary', replyTo: seq });

  test('after a validate, the first append verifies only the lines after the checkpoint; without one, the whole log', async () => {
    const { host, registry, folder, keys, cache } = await longSignedFolder();
    expect(await acp.validate(host, folder, registry)).toMatchObject({ ok: true, signing: { verified: 120 } });
    forgetRecords(keys);
    expect(await verifications(() => acp.append(host, folder, draft(120), registry))).toBe(0);
    // One line past the checkpoint: that one is verified.
    forgetRecords(keys);
    expect(await verifications(() => acp.append(host, folder, draft(121), registry))).toBe(1);
    // No checkpoint: from seq 1.
    forgetRecords(keys);
    rmSync(cache, { recursive: true });
    expect(await verifications(() => acp.append(host, folder, draft(122), registry))).toBe(122);
    expect(await acp.validate(host, folder, registry)).toMatchObject({ ok: true, signing: { verified: 123 } });
  });

  test('a checkpoint cannot launder a cut tail: one made before the cut, one made after it, and a forged one are all refused', async () => {
    const { host, registry, folder, keys, cache } = await longSignedFolder();
    expect((await acp.validate(host, folder, registry)).ok).toBe(true);
    forgetRecords(keys);
    const log = join(folder, 'events.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').split('\n').slice(0, -2).map((l) => `${l}\n`).join(''));
    const cutTailRefused = /: seq 120: missing: events\.jsonl ends at seq 119, but protocol\.json's signed head is seq 120/;
    // The checkpoint vouches for a longer log than there is: not used.
    await expect(acp.append(host, folder, draft(119), registry)).rejects.toThrow(cutTailRefused);
    // A validate of the cut log (which fails) checkpoints it: the head still refuses.
    expect((await acp.validate(host, folder, registry)).errors).toContainEqual(expect.stringMatching(/^seq 120: missing/));
    await expect(acp.append(host, folder, draft(119), registry)).rejects.toThrow(cutTailRefused);
    // Forged without the host's key: the state edited to reach the head, MACed with another key. Not used (a full verification refuses).
    const [path] = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.json')).map((e) => join(e.parentPath, e.name));
    const stored = JSON.parse(readFileSync(path!, 'utf8').split('\n')[1]!);
    const head = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8')).signing.head;
    Object.assign(stored.pass.signing, { position: 120, lastSigned: head, lastHash: head.sha256 });
    const json = JSON.stringify(stored);
    const { hmacHex } = await import('../runtime/checkpoint.ts');
    writeFileSync(path!, `${await hmacHex(new Uint8Array(32), `acp validate checkpoint\n${folder}\n${json}`)}\n${json}\n`);
    expect(await verifications(() => expect(acp.append(host, folder, draft(119), registry)).rejects.toThrow(cutTailRefused))).toBe(119);
  });

  test('the head record is read as a key file is: a symbolic link, a FIFO, a directory or an oversized file is no record (the log is verified from seq 1), and nothing waits', async () => {
    const { host, registry, folder, keys } = await longSignedFolder(4);
    const [name] = readdirSync(keys).filter((n) => n.endsWith('.head'));
    const record = join(keys, name!);
    const saved = readFileSync(record, 'utf8');
    const elsewhere = join(keys, '..', 'record-copy');
    const plant: Record<string, () => void> = {
      'a symbolic link to a copy of the record': () => {
        writeFileSync(elsewhere, saved);
        symlinkSync(elsewhere, record);
      },
      'an oversized (but parsable) record': () => writeFileSync(record, saved + ' '.repeat(70 * 1024)),
      'a directory': () => mkdirSync(record),
      'a FIFO': () => expect(spawnSync('mkfifo', [record]).status).toBe(0),
    };
    // The record as written: the append verifies nothing (its own line is still the last one).
    expect(await verifications(() => acp.append(host, folder, draft(4), registry))).toBe(0);
    let seq = 5;
    for (const [what, make] of Object.entries(plant)) {
      rmSync(record, { recursive: true, force: true });
      make();
      expect(await verifications(() => acp.append(host, folder, draft(seq), registry)), what).toBe(seq);
      seq++;
    }
    expect(await acp.validate(host, folder, registry)).toMatchObject({ ok: true, signing: { verified: seq } });
  });
});
