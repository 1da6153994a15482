// task/status's cached verdict follows edits of the documents themselves,
// not only new events: a deliverable edited (or broken) under deliverables/
// changes validate's answer, and the served status must say so without
// waiting for the cache's one-second safety net to expire. The test stops
// Date.now (the cache's clock) instead of racing that second: then the
// safety net never expires and only the watch can refresh the answer.
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import * as acp from '../acp.ts';
import { Collab } from '../plugins/rpc/collab.ts';
import { ALICE_TOKEN, BOB_TOKEN, RawConn, makeRoot, startServer } from './rpc/helpers.ts';

const MEMO = 'deliverables/adr.md';

describe('task/status cache', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const fn of cleanup.splice(0)) fn();
  });

  test('an edit under deliverables/ changes the verdict before the safety net would', async () => {
    const root = await makeRoot(['demo']);
    const folder = join(root, 'demo');
    const host = await acp.createNodeHost();
    const registry = await acp.createRegistry();
    // Declare the primary deliverable: from then on validate checks its sections.
    await acp.append(host, folder, { participant: 'alice', event: 'deliverable_drafted', summary: 'draft', replyTo: 1, doc: MEMO, role: 'primary' }, registry);
    // A one-hour poll: only change notifications can invalidate the cache early.
    const collab = new Collab(acp, host, registry, 'demo', folder, 3_600_000);
    cleanup.push(() => collab.close(), () => rmSync(root, { recursive: true, force: true }));
    await collab.ready;
    // From here Date.now stands still (timers still run): a cached status
    // never ages past the safety net, so only the watch on deliverables/
    // can make the next status differ.
    vi.useFakeTimers({ toFake: ['Date'] });
    cleanup.push(() => vi.useRealTimers());
    const before = await collab.status();
    expect(before.validation).toEqual({ ok: true, errors: [], warnings: [] });

    writeFileSync(join(folder, MEMO), '# Not an ADR any more\n');
    await expect
      .poll(async () => (await collab.status()).validation.errors.includes('primary deliverable missing required section: Decision'), { interval: 20 })
      .toBe(true);
  });
});

describe('reading a growing log', () => {
  /** A node host that counts whole-file reads of events.jsonl and can run a hook just before each tail read. */
  async function countingHost(): Promise<{ host: acp.Host; wholeReads: () => number; tailBytes: () => number; beforeTail: { fn?: () => void } }> {
    const base = await acp.createNodeHost();
    let whole = 0;
    let tail = 0;
    const beforeTail: { fn?: () => void } = {};
    const fs: acp.FileSystem = {
      ...base.fs,
      readFile: async (path) => {
        if (path.endsWith('events.jsonl')) whole++;
        return base.fs.readFile(path);
      },
      readTail: async (path, length) => {
        beforeTail.fn?.();
        const read = await base.fs.readTail!(path, length);
        if (read && path.endsWith('events.jsonl')) tail += read.bytes.length;
        return read;
      },
    };
    return { host: { ...base, fs }, wholeReads: () => whole, tailBytes: () => tail, beforeTail };
  }

  test('after the first read only the new bytes are read; a log that grew mid-read or shrank is read whole', async () => {
    const root = await makeRoot(['demo']);
    const folder = join(root, 'demo');
    const writer = await acp.createNodeHost();
    const { host, wholeReads, tailBytes, beforeTail } = await countingHost();
    const collab = new Collab(acp, host, await acp.createRegistry(), 'demo', folder, 3_600_000);
    const seen: number[] = [];
    collab.listen((u) => {
      if (u.kind === 'event' && typeof u.event.seq === 'number') seen.push(u.event.seq);
    });
    await collab.ready;
    expect(wholeReads()).toBe(1);
    const before = (await writer.fs.stat(join(folder, 'events.jsonl')))!.size;
    await acp.append(writer, folder, { participant: 'alice', event: 'deliverable_drafted', summary: 'draft', replyTo: 1, doc: MEMO, role: 'primary' });
    await expect.poll(() => seen).toEqual([2]);
    const after = (await writer.fs.stat(join(folder, 'events.jsonl')))!.size;
    // Only the appended line was read (the notifications of one append may cause several scans).
    expect(wholeReads()).toBe(1);
    expect(tailBytes()).toBe(after - before);

    // A line lands between the scan's stat and its tail read: the offsets disagree, so the log is read whole.
    let once = true;
    beforeTail.fn = () => {
      if (!once) return;
      once = false;
      appendFileSync(join(folder, 'events.jsonl'), `${acp.formatEventLine({ seq: 3, from: 'alice', event: 'blocked', at: '2026-01-01T00:00:00Z', summary: 'grew', reply_to: 2 })}`);
    };
    collab.touch();
    await expect.poll(() => seen).toEqual([2, 3]);
    expect(wholeReads()).toBe(2);

    // A shorter log (a repair cut it): read whole, announced as a reset.
    const states: boolean[] = [];
    collab.listen((u) => void (u.kind === 'state' && states.push(u.reset)));
    const lines = readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\n');
    writeFileSync(join(folder, 'events.jsonl'), `${lines[0]}\n`);
    collab.touch();
    await expect.poll(() => states).toContain(true);
    expect(wholeReads()).toBeGreaterThanOrEqual(3);
    collab.close();
    rmSync(root, { recursive: true, force: true });
  });
});

describe('the served task/status reply', () => {
  /** task/status's answer computed from the folder, with no cache involved: what the reply must hold, field order included. */
  async function uncached(host: acp.Host, registry: acp.Registry, folder: string, task: string): Promise<string> {
    const protocol = await acp.readProtocol(host, folder);
    const last = (await acp.readEventLog(host, folder)).events.at(-1);
    const validation = await acp.validate(host, folder, registry);
    return JSON.stringify({
      task,
      phase: protocol.currentPhase ?? null,
      proposalOwner: protocol.proposalOwner ?? null,
      waitingFor: protocol.waitingFor ?? [],
      lastEvent: last ? { seq: last.seq, event: last.event, from: last.from, at: last.at, summary: last.summary } : null,
      validation: { ok: validation.ok, errors: validation.errors, warnings: validation.warnings },
    });
  }

  test('is, byte for byte, the uncached computation after every kind of change, on the first call and on cached ones', async () => {
    const root = await makeRoot(['demo']);
    const folder = join(root, 'demo');
    const host = await acp.createNodeHost();
    const registry = await acp.createRegistry();
    const srv = await startServer(root);
    const alice = await RawConn.tcp(srv.port);
    onTestFinished(async () => {
      alice.close();
      await srv.close();
      rmSync(root, { recursive: true, force: true });
    });
    expect(await alice.request('authenticate', { token: ALICE_TOKEN })).toHaveProperty('result');
    let n = 0;
    /** The raw body of one task/status reply. */
    const served = async (): Promise<string> => {
      const id = `s${++n}`;
      return alice.rawOf(await alice.request('task/status', { task: 'demo' }, id))!.replace(`{"jsonrpc":"2.0","id":"${id}","result":`, '').slice(0, -1);
    };
    const agree = async (): Promise<void> => {
      // The change reaches the server through its watch: bounded wait until the served reply is the truth...
      await expect.poll(async () => (await served()) === (await uncached(host, registry, folder, 'demo')), { timeout: 10_000, interval: 20 }).toBe(true);
      // ...and the calls answered from the cache (pre-serialised) keep saying exactly that.
      const truth = await uncached(host, registry, folder, 'demo');
      for (let i = 0; i < 3; i++) expect(await served()).toBe(truth);
    };

    await agree();
    // A new event naming a deliverable that does not exist yet: the verdict changes.
    await acp.append(host, folder, { participant: 'alice', event: 'deliverable_drafted', summary: 'draft', replyTo: 1, doc: MEMO, role: 'primary' }, registry);
    await agree();
    // The deliverable written (no new event): only the verdict changes.
    writeFileSync(join(folder, MEMO), '# Not an ADR yet\n');
    await agree();
    // Non-ASCII text in the reply (the framing's byte path) and a new turn.
    await acp.append(host, folder, { participant: 'alice', event: 'blocked', summary: 'prêt ☕ 𝄞 — à vous', replyTo: 2 }, registry);
    await agree();
    expect(await served()).toContain('☕ 𝄞');
    // protocol.json rewritten by hand (no new event).
    const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
    writeFileSync(join(folder, 'protocol.json'), `${JSON.stringify({ ...protocol, waitingFor: ['bob', 'alice'] }, null, 2)}\n`);
    await agree();
  });

  test('a cached status is never served to a connection whose participant is not in the task', async () => {
    const root = await makeRoot(['demo']);
    const folder = join(root, 'demo');
    const srv = await startServer(root);
    const alice = await RawConn.tcp(srv.port);
    const bob = await RawConn.tcp(srv.port);
    onTestFinished(async () => {
      alice.close();
      bob.close();
      await srv.close();
      rmSync(root, { recursive: true, force: true });
    });
    await alice.request('authenticate', { token: ALICE_TOKEN });
    await bob.request('authenticate', { token: BOB_TOKEN });
    // bob warms the cache; then he is taken off the participant list (by hand).
    expect(await bob.request('task/status', { task: 'demo' })).toHaveProperty('result.task', 'demo');
    expect(await bob.request('task/status', ['demo'])).toHaveProperty('result.task', 'demo');
    const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
    writeFileSync(join(folder, 'protocol.json'), `${JSON.stringify({ ...protocol, participants: protocol.participants.filter((p: unknown) => JSON.stringify(p).includes('alice')) }, null, 2)}\n`);
    await expect.poll(async () => ((await bob.request('task/status', { task: 'demo' })) as { error?: { code: number } }).error?.code, { timeout: 10_000, interval: 20 }).toBe(-32020);
    // alice, still a participant, is answered from the cache; bob stays refused on every call.
    expect(await alice.request('task/status', { task: 'demo' })).toHaveProperty('result.task', 'demo');
    for (let i = 0; i < 3; i++) expect(await bob.request('task/status', { task: 'demo' })).toHaveProperty('error.code', -32020);
  });
});
