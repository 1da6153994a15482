// Signed collaborations (issue 30, docs/signing.md): every event provably
// from its participant, and a log no one can rewrite unseen.
//
// The tamper suite makes random signed sessions (seeded: SIGNING_SEED
// replays a run) and mutates their logs the six ways the issue names; each
// mutation must be reported with the seq where the log stops being what its
// signers wrote, and no untouched log may raise anything. 200 of each by
// default, 1,000 under ACP_FULL=1 (`npm run test:all`).
import { statSync } from 'node:fs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import type { Keyring } from '../runtime/host.ts';
import { lineHash, memoryKeyring, type PrivateJwk } from '../runtime/keyring.ts';
import { signBody, splitSignedLine } from '../runtime/signing.ts';

const FULL = process.env.ACP_FULL === '1';
const COUNT = FULL ? 1000 : 200;
const SEED = Number(process.env.SIGNING_SEED ?? 30);
const FOLDER = '/c';
const PRIMARY = 'deliverables/adr.md';
const NAMES = ['alice', 'bob', 'carol'];
const decoder = new TextDecoder();

/** mulberry32: a small seeded generator, so that a failing run can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const words = (r: () => number): string => Array.from({ length: 1 + Math.floor(r() * 12) }, () => pick(r, ['risk', 'queue', 'log', 'plan', 'fix', 'ok', '"quoted"', 'a\\b', 'naïve', '✓'])).join(' ');

/** A signed session: a random walk through the phases by 2–3 participants (some rotating their key), on a memory host. */
interface Session {
  host: acp.Host & { fs: acp.MemoryFileSystem };
  registry: acp.Registry;
  lines: string[];
  participants: string[];
}

const registryPromise = acp.createRegistry();

async function randomSession(seed: number, keyring: Keyring): Promise<Session> {
  const r = random(seed);
  const registry = await registryPromise;
  let clock = Date.UTC(2026, 0, 1) + seed * 1000;
  const host = acp.createMemoryHost({ keyring, now: () => new Date((clock += 1000)) });
  const participants = NAMES.slice(0, r() < 0.5 ? 2 : 3);
  const [owner, ...reviewers] = participants as [string, ...string[]];
  await acp.init(host, FOLDER, { participants, objective: 'Pick a queue', completion: ['Risks listed'], primaryType: 'adr', sign: true, signingPolicy: r() < 0.5 ? 'warn' : 'refuse' }, registry);
  const plan: acp.AppendRequest[] = [];
  const say = (participant: string, event: string, extra: Partial<acp.AppendRequest> = {}): void => void plan.push({ participant, event, summary: words(r), ...extra });
  for (let i = Math.floor(r() * 3); i >= 0; i--) say(owner, 'deliverable_drafted', { doc: PRIMARY, role: 'primary' });
  say(owner, 'proposal_submitted', { doc: 'proposal.md' });
  for (const reviewer of reviewers) say(reviewer, 'review_submitted', { doc: 'review.md' });
  for (let i = Math.floor(r() * 3); i > 0; i--) say(owner, 'deliverable_revised', { doc: PRIMARY, role: 'primary' });
  say(owner, r() < 0.5 ? 'proposal_revised' : 'decision_proposed', { doc: 'decisions.md' });
  for (let i = Math.floor(r() * 6); i > 0; i--) {
    if (r() < 0.5) say(owner, 'decision_proposed', { doc: 'decisions.md' });
    else say(owner, 'deliverable_revised', { doc: PRIMARY, role: 'primary' });
  }
  const length = 1 + Math.floor(r() * plan.length);
  for (const [i, request] of plan.slice(0, length).entries()) {
    if (r() < 0.08) request.rotateKey = true;
    await acp.append(host, FOLDER, { ...request, replyTo: i + 1 }, registry);
  }
  if (r() < 0.2) await acp.append(host, FOLDER, { participant: pick(r, participants), event: 'blocked', summary: words(r), doc: 'conclusion.md', replyTo: length + 1 }, registry);
  return { host, registry, lines: logLines(host), participants };
}

function logLines(host: acp.Host & { fs: acp.MemoryFileSystem }): string[] {
  const text = decoder.decode(host.fs.snapshot().get(join(FOLDER, 'events.jsonl'))!);
  return text.split('\n').slice(0, -1);
}

/** The lowest seq the verification names (`seq N: …`, `events.jsonl line N: …`), or undefined when it found nothing. */
function reportedSeq(report: acp.SignatureReport): number | undefined {
  const seqs = [...report.errors, ...report.warnings].map((m) => /^(?:seq |events\.jsonl line )(\d+)/.exec(m)?.[1]).filter((s) => s !== undefined).map(Number);
  return seqs.length ? Math.min(...seqs) : undefined;
}

type Mutation = 'edit a byte' | 'swap two lines' | 'drop a line' | 're-sign with another key' | 'replay from another collaboration' | 'truncate';
const MUTATIONS: Mutation[] = ['edit a byte', 'swap two lines', 'drop a line', 're-sign with another key', 'replay from another collaboration', 'truncate'];

/** Mutate `lines` (a signed log); returns the new text and the seq the verification must name. */
async function mutate(kind: Mutation, r: () => number, session: Session, other: Session, keyring: Keyring): Promise<{ text: string; seq: number }> {
  const lines = [...session.lines];
  const n = lines.length;
  const join_ = (list: string[]): string => list.map((l) => `${l}\n`).join('');
  switch (kind) {
    case 'edit a byte': {
      const k = Math.floor(r() * n);
      const line = lines[k]!;
      const at = Math.floor(r() * line.length);
      let byte: string;
      do byte = String.fromCharCode(0x20 + Math.floor(r() * 95));
      while (byte === line[at]);
      lines[k] = line.slice(0, at) + byte + line.slice(at + 1);
      return { text: join_(lines), seq: k + 1 };
    }
    case 'swap two lines': {
      const i = Math.floor(r() * (n - 1));
      const j = i + 1 + Math.floor(r() * (n - i - 1));
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      return { text: join_(lines), seq: i + 1 };
    }
    case 'drop a line': {
      const k = Math.floor(r() * n);
      lines.splice(k, 1);
      return { text: join_(lines), seq: k + 1 };
    }
    case 're-sign with another key': {
      // Another participant (a real one, with its own key) rewrites an event
      // of someone else, or appends one in their name, and signs it.
      const forgeNew = r() < 0.3;
      const k = forgeNew ? n : Math.floor(r() * n);
      const base = JSON.parse(lines[forgeNew ? n - 1 : k]!) as Record<string, unknown>;
      const author = base.from as string;
      const forger = pick(r, session.participants.filter((p) => p !== author));
      const key = (await keyring.load(forger, async () => (await import('../runtime/signing.ts')).generateSigningKey())) as PrivateJwk;
      const { sig: _sig, ...event } = base;
      if (forgeNew) Object.assign(event, { seq: n + 1, reply_to: n, prev: lineHash(lines[n - 1]!), summary: 'forged' });
      else if (r() < 0.5) event.summary = `${String(event.summary)} (edited)`;
      const declared = (JSON.parse(lines[0]!) as { signing: { id: string } }).signing.id;
      const body = acp.formatEventLine(event).slice(0, -1);
      const forged = `${body.slice(0, -1)},"sig":"${await signBody(key, declared, body)}"}`;
      lines.splice(k, forgeNew ? 0 : 1, forged);
      return { text: join_(lines), seq: k + 1 };
    }
    case 'replay from another collaboration': {
      const replayed = other.lines[Math.floor(r() * other.lines.length)]!;
      const k = Math.floor(r() * (n + 1));
      lines.splice(k, 0, replayed);
      return { text: join_(lines), seq: k + 1 };
    }
    case 'truncate': {
      // Anywhere before the last newline: a cut line, or whole lines gone.
      const text = join_(lines);
      const cut = Math.floor(r() * (text.length - 1));
      const kept = text.slice(0, cut);
      const whole = kept.split('\n').length - 1;
      // A cut right before a newline leaves a whole last line (no newline): the next one is the first missing.
      const lastComplete = !kept.endsWith('\n') && lines[whole] === kept.slice(kept.lastIndexOf('\n') + 1);
      return { text: kept, seq: whole + 1 + (lastComplete ? 1 : 0) };
    }
  }
}

describe('signed collaborations: the tamper suite', () => {
  const keyring = memoryKeyring();
  const sessions: Session[] = [];
  const session = async (i: number): Promise<Session> => (sessions[i] ??= await randomSession(SEED * 100_000 + i, keyring));

  test(`${COUNT} untouched signed logs from random sessions: no false alarm`, { timeout: 600_000 }, async () => {
    let alarms = 0;
    let events = 0;
    for (let i = 0; i < COUNT; i++) {
      const s = await session(i);
      const report = await acp.verifySignatures(s.host, FOLDER);
      events += s.lines.length;
      if (report.errors.length || report.warnings.length || report.signing?.verified !== s.lines.length) {
        alarms++;
        console.error(`seed ${SEED * 100_000 + i}:`, report);
      }
    }
    console.log(`signing: ${COUNT - alarms}/${COUNT} untouched signed logs verified clean (${events} events, seed ${SEED})`);
    expect(alarms).toBe(0);
  });

  test(`${COUNT} random mutations (edit, swap, drop, re-sign, replay, truncate): each detected at its seq`, { timeout: 600_000 }, async () => {
    const r = random(SEED);
    const pool = Math.min(COUNT, 100);
    const byKind = new Map<Mutation, [number, number]>(MUTATIONS.map((m) => [m, [0, 0]]));
    const misses: string[] = [];
    for (let i = 0; i < COUNT; i++) {
      const kind = MUTATIONS[i % MUTATIONS.length]!;
      let s = await session(Math.floor(r() * pool));
      // Swapping needs two lines; the others any log.
      while (kind === 'swap two lines' && s.lines.length < 2) s = await session(Math.floor(r() * pool));
      const other = await session((sessions.indexOf(s) + 1 + Math.floor(r() * (pool - 1))) % pool);
      const { text, seq } = await mutate(kind, r, s, other, keyring);
      const host = acp.createMemoryHost({ fs: acp.createMemoryFileSystem({ files: Object.fromEntries(s.host.fs.snapshot()) }) });
      await host.fs.writeFile(join(FOLDER, 'events.jsonl'), text);
      const report = await acp.verifySignatures(host, FOLDER);
      const found = reportedSeq(report);
      const tally = byKind.get(kind)!;
      tally[1]++;
      if (found === seq && report.errors.length > 0) tally[0]++;
      else misses.push(`${kind} #${i}: expected seq ${seq}, reported ${found ?? 'nothing'}: ${JSON.stringify(report.errors.slice(0, 3))}`);
    }
    const detected = [...byKind.values()].reduce((n, [d]) => n + d, 0);
    console.log(`signing: ${detected}/${COUNT} mutations detected at the right seq (seed ${SEED}): ${[...byKind].map(([k, [d, t]]) => `${k} ${d}/${t}`).join(', ')}`);
    expect(misses).toEqual([]);
  });
});
