// Signed collaborations (issue 30, docs/signing.md): every event provably
// from its participant, and a log no one can rewrite unseen.
//
// The tamper suite makes random signed sessions (seeded: SIGNING_SEED
// replays a run) and mutates their logs the six ways the issue names; each
// mutation must be reported with the seq where the log stops being what its
// signers wrote, and no untouched log may raise anything. 50 of each in
// quick (`npm test`), 1,000 in full (ACP_FULL=1, `npm run test:all`) and long
// (test/scale.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import * as acp from '../acp.ts';
import type { Keyring } from '../runtime/host.ts';
import type { Json } from '../runtime/types.ts';
import { fromBase64Url, keyFileName, lineHash, memoryKeyring, type PrivateJwk, toBase64Url } from '../runtime/keyring.ts';
import { SignatureVerifier, type SigningDeclaration, signBody, signingDeclaration, splitSignedLine, termsDigests } from '../runtime/signing.ts';
import { validateCheckpointPath } from '../runtime/validate-checkpoint.ts';
import { pythonValidator } from './python/reference.ts';
import { byScale } from './scale.ts';
import { rng as random } from './seeded.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const COUNT = byScale({ quick: 20, full: 1000 });
const SEED = Number(process.env.SIGNING_SEED ?? 30);
const FOLDER = '/c';
const PY_VALIDATE = pythonValidator();
const PRIMARY = 'deliverables/adr.md';
const NAMES = ['alice', 'bob', 'carol'];
const decoder = new TextDecoder();
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');


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

// The sessions of the tamper suites: one keyring, so each participant's record of the last line it signed is kept.
const keyring = memoryKeyring();
const sessions: Session[] = [];
const session = async (i: number): Promise<Session> => (sessions[i] ??= await randomSession(SEED * 100_000 + i, keyring));

describe('signed collaborations: the tamper suite', () => {

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

// Verification on every core (issue 36): the parallel path (the runtime's
// thread pool, in chunks, a bounded window) must say exactly what the
// serial one (each signature on this thread as it is read) says, on clean
// and tampered logs alike, wherever the log's pieces end. Small chunks and
// windows, so that a short log crosses every boundary.
const PARALLEL_COUNT = byScale({ quick: 15, full: 1000 });

/** What validate's pass is handed (each event and its line) and what it builds its verifier from. */
async function verifierInputs(host: acp.Host): Promise<{ pairs: [Json, string][]; declared: SigningDeclaration | undefined; terms: Record<string, string> }> {
  const protocol = JSON.parse(await read(host, 'protocol.json')) as Json;
  const pairs: [Json, string][] = [];
  await acp.scanEventLog(host, FOLDER, (event, line) => void pairs.push([event, line])).catch(() => undefined);
  return { pairs, declared: signingDeclaration(protocol), terms: termsDigests(protocol) };
}

/** Feed `pairs` to `verifier`, waiting for the verdicts where a piece of the log ends; what it reports, and its state (problems in log order). */
async function verdictOf(verifier: SignatureVerifier, pairs: [Json, string][], pieceEnds: Set<number>): Promise<unknown> {
  for (const [i, [event, line]] of pairs.entries()) {
    verifier.add(event, line);
    if (pieceEnds.has(i)) await verifier.flush();
  }
  await verifier.flush();
  const state = { ...verifier.state, problems: [...verifier.state.problems].sort((a, b) => a[0] - b[0]) };
  return { finish: verifier.finish(), chain: verifier.chainErrors(), state };
}

describe('signed collaborations: verification on every core', () => {
  test(`${PARALLEL_COUNT} random signed logs, untouched or tampered, and their protocol.json with or without its head or signing: the parallel verdict is the serial one, seq for seq and word for word`, { timeout: 600_000 }, async () => {
    const r = random(SEED + 36);
    let differing = 0;
    let problems = 0;
    for (let i = 0; i < PARALLEL_COUNT; i++) {
      const s = await session(Math.floor(r() * Math.min(COUNT, 100)));
      const host = acp.createMemoryHost({ fs: acp.createMemoryFileSystem({ files: Object.fromEntries(s.host.fs.snapshot()) }) });
      if (r() < 6 / 7 && (s.lines.length > 1 || r() < 0.5)) {
        const kind = pick(r, s.lines.length > 1 ? MUTATIONS : MUTATIONS.filter((m) => m !== 'swap two lines'));
        await host.fs.writeFile(join(FOLDER, 'events.jsonl'), (await mutate(kind, r, s, await session(Math.floor(r() * Math.min(COUNT, 100))), keyring)).text);
      }
      const protocol = JSON.parse(await read(host, 'protocol.json')) as { signing?: { head?: unknown } };
      if (r() < 0.1) delete protocol.signing;
      else if (r() < 0.1) delete protocol.signing!.head;
      await host.fs.writeFile(join(FOLDER, 'protocol.json'), acp.formatProtocolJson(protocol as Json));
      const { pairs, declared, terms } = await verifierInputs(host);
      const pieceEnds = new Set(pairs.flatMap((_, k) => (r() < 0.2 ? [k] : [])));
      const serial = new SignatureVerifier(declared, lineHash, { terms, mode: 'serial' });
      const parallel = new SignatureVerifier(declared, lineHash, { terms, mode: 'parallel', parallel: { chunk: 1 + Math.floor(r() * 4), window: 1 + Math.floor(r() * 3) } });
      expect([serial.mode, parallel.mode]).toEqual(['serial', 'parallel']);
      const expected = await verdictOf(serial, pairs, new Set());
      const got = await verdictOf(parallel, pairs, pieceEnds);
      if (JSON.stringify(got) !== JSON.stringify(expected)) differing++;
      expect(got).toEqual(expected);
      problems += serial.state.problems.length ? 1 : 0;
    }
    console.log(`signing: ${PARALLEL_COUNT - differing}/${PARALLEL_COUNT} logs verified alike in parallel and serially (${problems} with problems, seed ${SEED + 36})`);
    // The comparison means something only if both clean and tampered logs were among them.
    expect(problems).toBeGreaterThan(PARALLEL_COUNT / 4);
    expect(problems).toBeLessThan(PARALLEL_COUNT);
  });

  test(`long logs (${byScale({ quick: 1, full: 10 })} of ~3,000 signed lines, a few dozen of them edited) at the default chunk and window: the parallel verdict is the serial one, past the 50 problems listed one by one`, { timeout: 600_000 }, async () => {
    const r = random(SEED + 3000);
    for (let i = 0; i < byScale({ quick: 1, full: 10 }); i++) {
      const { pairs, declared, terms } = await verifierInputs((await session(Math.floor(r() * Math.min(COUNT, 100)))).host);
      // Lines repeated over and over: each keeps its signature (a repeat breaks the chain only); some are edited after signing.
      const long = Array.from({ length: Math.ceil(3000 / pairs.length) }, () => pairs).flat().map(([event, line]): [Json, string] => (r() < 0.02 ? [{ ...event, summary: 'edited' }, line.replace('"summary":"', '"summary":"edited ')] : [event, line]));
      const pieceEnds = new Set(long.flatMap((_, k) => (r() < 0.001 ? [k] : [])));
      const expected = await verdictOf(new SignatureVerifier(declared, lineHash, { terms, mode: 'serial' }), long, new Set());
      expect(await verdictOf(new SignatureVerifier(declared, lineHash, { terms }), long, pieceEnds)).toEqual(expected);
      expect((expected as { finish: { errors: string[] } }).finish.errors.at(-1)).toMatch(/^signatures: \d+ more problems after seq \d+$/);
    }
  });

  test('the pool gets at most window × chunk signatures at once, and every verdict comes back in order', async () => {
    const s = await session(0);
    const { pairs, declared, terms } = await verifierInputs(s.host);
    // The session's lines, many times over: ~1,000 signatures, every one of them checked (a repeated line breaks the chain, not its signature).
    const many = Array.from({ length: Math.ceil(1000 / pairs.length) }, () => pairs).flat();
    const real = globalThis.crypto.subtle;
    let inFlight = 0;
    let most = 0;
    const counting = {
      importKey: real.importKey.bind(real),
      verify: async (...args: Parameters<typeof real.verify>): Promise<boolean> => {
        most = Math.max(most, ++inFlight);
        try {
          return await real.verify(...args);
        } finally {
          inFlight--;
        }
      },
    };
    vi.stubGlobal('crypto', { subtle: counting, getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) });
    let bounded: unknown;
    try {
      bounded = await verdictOf(new SignatureVerifier(declared, lineHash, { terms, parallel: { chunk: 16, window: 3 } }), many, new Set([many.length >> 1]));
    } finally {
      vi.unstubAllGlobals();
    }
    expect(most).toBe(48);
    expect(bounded).toEqual(await verdictOf(new SignatureVerifier(declared, lineHash, { terms, mode: 'serial' }), many, new Set()));
    expect((bounded as { state: { verified: number } }).state.verified).toBe(many.length);
  });

  test('base64url by table (a signature and a key decoded per event): the canonical spelling only, as the atob round trip it replaced decided', () => {
    const viaAtob = (text: string): Uint8Array | undefined => {
      let bytes: Uint8Array;
      try {
        bytes = Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (ch) => ch.charCodeAt(0));
      } catch {
        return undefined;
      }
      return Buffer.from(bytes).toString('base64url') === text ? bytes : undefined;
    };
    const r = random(SEED + 64);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= \né';
    let canonical = 0;
    const wrong: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const bytes = Uint8Array.from({ length: Math.floor(r() * 70) }, () => Math.floor(r() * 256));
      if (toBase64Url(bytes) !== Buffer.from(bytes).toString('base64url')) wrong.push(`encoded [${bytes.join()}]`);
      let text = r() < 0.5 ? toBase64Url(bytes) : Array.from({ length: Math.floor(r() * 12) }, () => pick(r, [...alphabet])).join('');
      if (r() < 0.3 && text.length) {
        const at = Math.floor(r() * text.length);
        text = text.slice(0, at) + pick(r, [...alphabet]) + text.slice(at + 1);
      }
      const [decoded, expected] = [fromBase64Url(text), viaAtob(text)];
      if (decoded?.join() !== expected?.join()) wrong.push(`decoded ${JSON.stringify(text)}`);
      if (decoded) canonical++;
    }
    expect(wrong).toEqual([]);
    expect(canonical).toBeGreaterThan(2_500);
  });

  test('bun hashes lines natively (Bun.CryptoHasher, as the binary does) and signs through WebCrypto: Node reads the same head, key file name and signature', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-sign-bun-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const folder = join(dir, 'collab');
    const bun = spawnSync(join(REPO, 'node_modules', '.bin', 'bun'), [join(REPO, 'acp.ts'), 'init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr', '--sign'], { env: { ...process.env, ACP_SIGNING_KEY_DIR: join(dir, 'keys') }, encoding: 'utf8' });
    expect(bun.stderr).toBe('');
    const first = readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\n')[0]!;
    expect(JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8')).signing.head.sha256).toBe(lineHash(first));
    expect(readdirSync(join(dir, 'keys'))).toEqual([keyFileName('alice')]);
    const node = await acp.createNodeHost({ checkpointKeyFile: null });
    expect(await acp.verifySignatures(node, folder)).toMatchObject({ errors: [], warnings: [], signing: { verified: 1 } });
  });

  test('a runtime without WebCrypto verifies serially (node:crypto), with the same verdict', async () => {
    const s = await session(1);
    const host = acp.createMemoryHost({ fs: acp.createMemoryFileSystem({ files: Object.fromEntries(s.host.fs.snapshot()) }) });
    await host.fs.writeFile(join(FOLDER, 'events.jsonl'), (await mutate('edit a byte', random(SEED), s, s, keyring)).text);
    const { pairs, declared, terms } = await verifierInputs(host);
    const expected = await verdictOf(new SignatureVerifier(declared, lineHash, { terms }), pairs, new Set());
    vi.stubGlobal('crypto', undefined);
    try {
      const fallback = new SignatureVerifier(declared, lineHash, { terms });
      expect(fallback.mode).toBe('serial');
      expect(await verdictOf(fallback, pairs, new Set())).toEqual(expected);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

/** A signed collaboration of two participants on a memory host, each with a keyring of its own (they share no key storage). */
async function signedFolder(policy: 'warn' | 'refuse' = 'warn'): Promise<{ alice: acp.Host; bob: acp.Host; registry: acp.Registry; fs: acp.MemoryFileSystem }> {
  const registry = await registryPromise;
  const fs = acp.createMemoryFileSystem();
  const alice = acp.createMemoryHost({ fs, keyring: memoryKeyring() });
  const bob = acp.createMemoryHost({ fs, keyring: memoryKeyring() });
  await acp.init(alice, FOLDER, { participants: ['alice', 'bob'], objective: 'Pick a queue', completion: ['Risks listed'], primaryType: 'adr', sign: true, signingPolicy: policy }, registry);
  await acp.append(alice, FOLDER, { participant: 'alice', event: 'deliverable_drafted', summary: 'draft', doc: PRIMARY, role: 'primary', replyTo: 1 }, registry);
  await acp.append(alice, FOLDER, { participant: 'alice', event: 'proposal_submitted', summary: 'review please', doc: 'proposal.md', replyTo: 2 }, registry);
  return { alice, bob, registry, fs };
}

const read = async (host: acp.Host, path: string): Promise<string> => decoder.decode(await host.fs.readFile(join(FOLDER, path)));

/** What the Python tools (and validate's non-signing mode) see of a signed folder, with every trace of signing removed. */
async function stripped(host: acp.Host): Promise<acp.Host> {
  const files = Object.fromEntries((host.fs as acp.MemoryFileSystem).snapshot());
  const copy = acp.createMemoryHost({ files, keyring: memoryKeyring() });
  const lines = (await read(copy, 'events.jsonl')).split('\n').slice(0, -1);
  const plain = lines.map((line) => {
    const { prev: _p, pubkey: _k, sig: _s, signing: _d, ...event } = JSON.parse(line) as Record<string, unknown>;
    return acp.formatEventLine(event);
  });
  await copy.fs.writeFile(join(FOLDER, 'events.jsonl'), plain.join(''));
  const { signing: _signing, ...protocol } = JSON.parse(await read(copy, 'protocol.json')) as Record<string, unknown>;
  await copy.fs.writeFile(join(FOLDER, 'protocol.json'), acp.formatProtocolJson(protocol));
  return copy;
}

describe('signed collaborations: interop with tools that do not sign', () => {
  test('validate --ignore-signatures gives a signed folder exactly the verdict of the same folder unsigned; verifying adds nothing to an untouched one', async () => {
    const keyring = memoryKeyring();
    for (let i = 0; i < 40; i++) {
      const s = await randomSession(7_000 + i, keyring);
      const plain = await stripped(s.host);
      const unsigned = await acp.validate(plain, FOLDER, s.registry);
      expect(unsigned.signing).toBeUndefined();
      expect(await acp.validate(s.host, FOLDER, s.registry, { signatures: false })).toEqual(unsigned);
      const verified = await acp.validate(s.host, FOLDER, s.registry);
      expect({ ...verified, signing: undefined }).toEqual({ ...unsigned, signing: undefined });
      expect(verified.signing).toMatchObject({ verified: s.lines.length, unsigned: [], problems: 0 });
    }
  });

  test.skipIf(!PY_VALIDATE)(`the Python validator gives ${byScale({ quick: 1, full: 30 })} random signed folders the verdict it gives them unsigned (it reads the signing keys as the extra keys they are)`, { timeout: 600_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-sign-py-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const keyring = memoryKeyring();
    const verdict = (host: acp.Host & { fs: acp.MemoryFileSystem }, name: string): { status: number | null; out: string } => {
      for (const [path, bytes] of host.fs.snapshot()) {
        const target = join(dir, name, path);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, bytes);
      }
      const python = spawnSync('python3', [PY_VALIDATE!, '--folder', join(dir, name, FOLDER)], { encoding: 'utf8' });
      return { status: python.status, out: python.stdout + python.stderr };
    };
    for (let i = 0; i < byScale({ quick: 1, full: 30 }); i++) {
      const s = await randomSession(9_000 + i, keyring);
      expect(verdict(s.host, `signed${i}`)).toEqual(verdict((await stripped(s.host)) as acp.Host & { fs: acp.MemoryFileSystem }, `plain${i}`));
    }
  });

  test('an event appended by a tool that does not sign is reported as unsigned (warn, or an error under refuse), and the chain goes on over it', async () => {
    for (const policy of ['warn', 'refuse'] as const) {
      const { alice, bob, registry } = await signedFolder(policy);
      // What the Python scripts write: the spec's line, protocol.json's state rewritten, its other keys kept.
      const python = acp.formatEventLine({ seq: 4, from: 'bob', event: 'review_submitted', at: '2027-01-01T00:00:00Z', summary: 'looks fine', doc: 'review.md', reply_to: 3 });
      await bob.fs.appendFile(join(FOLDER, 'events.jsonl'), python);
      const protocol = JSON.parse(await read(bob, 'protocol.json')) as Record<string, unknown>;
      await bob.fs.writeFile(join(FOLDER, 'protocol.json'), acp.formatProtocolJson({ ...protocol, currentPhase: 'revising', waitingFor: ['alice'] }));
      const report = await acp.verifySignatures(alice, FOLDER);
      const message = 'seq 4: unsigned (appended by a tool that does not sign, such as the Python scripts): who wrote it is not verified';
      if (policy === 'warn') expect(report).toMatchObject({ errors: [], warnings: [message] });
      else expect(report.errors).toEqual([`${message}, and this collaboration's signing policy refuses unsigned events`]);
      await acp.append(alice, FOLDER, { participant: 'alice', event: 'proposal_revised', summary: 'revised', doc: 'proposal.md', replyTo: 4 }, registry);
      const after = await acp.verifySignatures(alice, FOLDER);
      expect(after.signing).toMatchObject({ verified: 4, unsigned: [[4, 4]], head: { seq: 5 } });
      expect(after.errors.length + after.warnings.length).toBe(1);
    }
  });
});

describe('signed collaborations: keys', () => {
  test('a participant appending with a key that is not the registered one is refused, and nothing is written', async () => {
    const { bob, registry, fs } = await signedFolder();
    await acp.append(bob, FOLDER, { participant: 'bob', event: 'review_submitted', summary: 'ok', doc: 'review.md', replyTo: 3 }, registry);
    const before = await read(bob, 'events.jsonl');
    // mallory writes the folder too, and appends as bob with her own key storage.
    const stop = { participant: 'bob', event: 'blocked', summary: 'stop', doc: 'conclusion.md', replyTo: 4 };
    const mallory = acp.createMemoryHost({ fs, keyring: memoryKeyring() });
    await expect(acp.append(mallory, FOLDER, stop, registry)).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('no signing key for bob in memory:bob') });
    const { generateSigningKey } = await import('../runtime/signing.ts');
    const withKey = acp.createMemoryHost({ fs, keyring: memoryKeyring({ bob: await generateSigningKey() }) });
    await expect(acp.append(withKey, FOLDER, stop, registry)).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('is not the one this collaboration registered for bob') });
    expect(await read(bob, 'events.jsonl')).toBe(before);
  });

  test('key rotation: the new key is announced in an event signed by the old one; later events verify under the new key only', async () => {
    const { alice, bob, registry } = await signedFolder();
    const old = (await alice.keyring!.load('alice')) as PrivateJwk;
    await acp.append(bob, FOLDER, { participant: 'bob', event: 'review_submitted', summary: 'ok', doc: 'review.md', replyTo: 3 }, registry);
    const rotated = await acp.append(alice, FOLDER, { participant: 'alice', event: 'proposal_revised', summary: 'revised', doc: 'proposal.md', replyTo: 4, rotateKey: true }, registry);
    const fresh = (await alice.keyring!.load('alice')) as PrivateJwk;
    expect(fresh.x).not.toBe(old.x);
    expect(rotated.event.pubkey).toBe(fresh.x);
    await acp.append(alice, FOLDER, { participant: 'alice', event: 'decision_proposed', summary: 'decide', doc: 'decisions.md', replyTo: 5 }, registry);
    expect(JSON.parse(await read(alice, 'protocol.json')).signing.keys.alice).toBe(fresh.x);
    expect(await acp.verifySignatures(bob, FOLDER)).toMatchObject({ errors: [], warnings: [], signing: { verified: 6 } });
    // The old key can no longer speak for alice: an event it signs after the rotation is impersonation.
    const lines = (await read(alice, 'events.jsonl')).split('\n').slice(0, -1);
    const { body } = splitSignedLine(lines[5]!)!;
    const id = (JSON.parse(lines[0]!) as { signing: { id: string } }).signing.id;
    lines[5] = `${body.slice(0, -1)},"sig":"${await signBody(old, id, body)}"}`;
    await alice.fs.writeFile(join(FOLDER, 'events.jsonl'), lines.map((l) => `${l}\n`).join(''));
    expect((await acp.verifySignatures(bob, FOLDER)).errors[0]).toMatch(/^seq 6: the signature of alice does not verify/);
  });

  test('a rotation whose line was written but whose new key was not made current is completed at the next append', async () => {
    const { alice, bob, registry } = await signedFolder();
    await acp.append(bob, FOLDER, { participant: 'bob', event: 'review_submitted', summary: 'ok', doc: 'review.md', replyTo: 3 }, registry);
    const ring = alice.keyring!;
    const promote = ring.promote.bind(ring);
    ring.promote = async () => {
      throw new Error('killed before the new key was made current');
    };
    await expect(acp.append(alice, FOLDER, { participant: 'alice', event: 'proposal_revised', summary: 'r', doc: 'proposal.md', replyTo: 4, rotateKey: true }, registry)).rejects.toThrow('killed');
    ring.promote = promote;
    await acp.append(alice, FOLDER, { participant: 'alice', event: 'decision_proposed', summary: 'd', doc: 'decisions.md', replyTo: 5 }, registry);
    expect(await acp.verifySignatures(bob, FOLDER)).toMatchObject({ errors: [], warnings: [], signing: { verified: 6 } });
  });

  test('init --register-key registers another participant from the start: no first-use trust', async () => {
    const registry = await registryPromise;
    const fs = acp.createMemoryFileSystem();
    const alice = acp.createMemoryHost({ fs, keyring: memoryKeyring() });
    const bob = acp.createMemoryHost({ fs, keyring: memoryKeyring() });
    const bobKey = (await acp.signingKey(bob, 'bob')).publicKey;
    await acp.init(alice, FOLDER, { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr', sign: true, participantKeys: { bob: bobKey } }, registry);
    expect(JSON.parse((await read(alice, 'events.jsonl')).split('\n')[0]!).signing.keys).toEqual({ alice: expect.any(String), bob: bobKey });
    const mallory = acp.createMemoryHost({ fs, keyring: memoryKeyring() });
    await expect(acp.append(mallory, FOLDER, { participant: 'bob', event: 'blocked', summary: 'x', doc: 'conclusion.md', replyTo: 1 }, registry)).rejects.toMatchObject({ code: 'refused' });
    await acp.append(bob, FOLDER, { participant: 'bob', event: 'blocked', summary: 'x', doc: 'conclusion.md', replyTo: 1 }, registry);
    const line = JSON.parse((await read(bob, 'events.jsonl')).split('\n')[1]!);
    expect(line.pubkey).toBeUndefined();
    expect(await acp.verifySignatures(alice, FOLDER)).toMatchObject({ errors: [], signing: { verified: 2 } });
    await expect(acp.init(alice, '/d', { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr', sign: true, participantKeys: { carol: bobKey } }, registry)).rejects.toThrow("--register-key: 'carol' is not a participant");
    await expect(acp.init(alice, '/d', { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr', signingPolicy: 'refuse' }, registry)).rejects.toThrow('--signing-policy and --register-key need --sign');
    expect(await alice.fs.stat('/d/protocol.json')).toBeNull();
  });
});

describe('signed collaborations: every door signs', () => {
  test('acp freeze records the deliverable’s SHA-256 in a signed event; a changed hash in the line is detected', async () => {
    const { alice, bob } = await signedFolder();
    const registry = await acp.createRegistry({ builtIns: true });
    await acp.append(bob, FOLDER, { participant: 'bob', event: 'review_submitted', summary: 'ok', doc: 'review.md', replyTo: 3 }, registry);
    await acp.append(alice, FOLDER, { participant: 'alice', event: 'proposal_revised', summary: 'r', doc: 'proposal.md', replyTo: 4 }, registry);
    await alice.fs.writeFile(join(FOLDER, 'readiness.md'), '# Readiness\n\n- [resolved] Scope is clear.\n\n- [x] Ready to implement\n');
    await acp.append(alice, FOLDER, { participant: 'alice', event: 'question_classified', summary: 'c', doc: 'readiness.md', replyTo: 5 }, registry);
    await acp.append(alice, FOLDER, { participant: 'alice', event: 'decision_accepted', summary: 'a', doc: 'decisions.md', replyTo: 6 }, registry);
    await acp.append(bob, FOLDER, { participant: 'bob', event: 'decision_accepted', summary: 'a', doc: 'decisions.md', replyTo: 7 }, registry);
    const result = await acp.runCommand(registry, 'freeze', { options: { folder: FOLDER, participant: 'alice', json: true } }, { host: alice });
    expect(result.exitCode).toBe(0);
    const lines = (await read(alice, 'events.jsonl')).split('\n').slice(0, -1);
    const frozen = JSON.parse(lines.at(-1)!) as Record<string, string>;
    expect(frozen).toMatchObject({ event: 'deliverable_frozen', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), sig: expect.any(String) });
    expect(await acp.verifySignatures(bob, FOLDER)).toMatchObject({ errors: [], signing: { verified: 9, head: { seq: 9 } } });
    lines[8] = lines[8]!.replace(frozen.sha256!, 'f'.repeat(64));
    await alice.fs.writeFile(join(FOLDER, 'events.jsonl'), lines.map((l) => `${l}\n`).join(''));
    expect((await acp.verifySignatures(bob, FOLDER)).errors[0]).toMatch(/^seq 9: the signature of alice does not verify/);
  });

  test('the CLI: init --sign keeps keys 0600 outside the folder, validate, doctor and status report the verification, acp key prints the public key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-sign-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const host = await acp.createNodeHost({ checkpointKeyFile: null, signingKeys: { dir: join(dir, 'keys') } });
    const cli = async (...argv: string[]): Promise<{ rc: number; out: string; err: string }> => {
      let out = '';
      let err = '';
      const rc = await acp.runCli({ argv, stdout: (t) => void (out += t), stderr: (t) => void (err += t), color: false }, host);
      return { rc, out, err };
    };
    const folder = join(dir, 'collab');
    const init = await cli('init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr', '--sign', '--signing-policy', 'refuse');
    expect(init).toMatchObject({ rc: 0, err: '' });
    const keyFile = readdirSync(join(dir, 'keys'))[0]!;
    expect(keyFile).toMatch(/^alice-[0-9a-f]{12}\.jwk$/);
    expect(statSync(join(dir, 'keys', keyFile)).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder).some((name) => name.includes('jwk'))).toBe(false);
    const key = await cli('key', '--participant', 'bob', '--json');
    expect(JSON.parse(key.out)).toMatchObject({ participant: 'bob', publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    // How many signatures the verdict rests on: a note on stderr, so the output the Python tools share stays theirs.
    expect(await cli('validate', '--folder', folder)).toEqual({ rc: 0, out: 'ACP validation passed\n', err: 'note: 1 signature verified\n' });
    expect(JSON.parse((await cli('validate', '--folder', folder, '--json')).out).signing).toMatchObject({ verified: 1, events: 1 });
    expect(await cli('validate', '--folder', folder, '--ignore-signatures')).toEqual({ rc: 0, out: 'ACP validation passed\n', err: '' });
    // An edited line: validate and doctor name its seq.
    const log = readFileSync(join(folder, 'events.jsonl'), 'utf8');
    writeFileSync(join(folder, 'events.jsonl'), log.replace('Initialized', 'Initialised'));
    const validate = await cli('validate', '--folder', folder);
    expect(validate.rc).toBe(2);
    expect(validate.out).toContain('ERROR: seq 1: the signature of alice does not verify');
    expect(validate.err).toBe('note: 0 signatures verified\n');
    const doctor = await cli('doctor', '--folder', folder);
    expect(doctor.out).toContain('signatures: seq 1: the signature of alice does not verify');
    const status = await cli('status', '--folder', folder);
    expect(status.out).toMatch(/signing: +0 of 1 events verified/);
    expect((await cli('validate', '--folder', folder, '--ignore-signatures')).rc).toBe(0);
    writeFileSync(join(folder, 'events.jsonl'), log);
    // The full head hash (issue 36): the thing to publish, in status and status --json alike.
    const head = lineHash(log.split('\n')[0]!);
    expect((await cli('status', '--folder', folder)).out).toContain(`signing:      1 of 1 events verified, policy refuse, head seq 1 ${head}\n`);
    expect(JSON.parse((await cli('status', '--folder', folder, '--json')).out).validation.signing.head).toEqual({ seq: 1, sha256: head });
  });
});

describe('signed collaborations: the validation checkpoint', () => {
  test('a long signed log re-validated from the checkpoint gives the full verdict, and an edit of its prefix is still found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-sign-cp-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const registry = await registryPromise;
    const host = await acp.createNodeHost({ checkpointKeyFile: join(dir, 'checkpoint.key'), signingKeys: { dir: join(dir, 'keys') } });
    const folder = join(dir, 'collab');
    await acp.init(host, folder, { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr', sign: true }, registry);
    const long = 'x'.repeat(400);
    for (let seq = 2; seq <= 200; seq++) await acp.append(host, folder, { participant: 'alice', event: 'deliverable_drafted', summary: long, doc: PRIMARY, role: 'primary', replyTo: seq - 1 }, registry);
    const first = await acp.validate(host, folder, registry);
    expect(first.signing).toMatchObject({ verified: 200, problems: 0 });
    expect(existsSync((await validateCheckpointPath(host, folder))!)).toBe(true);
    await acp.append(host, folder, { participant: 'alice', event: 'deliverable_drafted', summary: 'one more', doc: PRIMARY, role: 'primary', replyTo: 200 }, registry);
    expect(await acp.validate(host, folder, registry)).toEqual({ ...first, signing: { ...first.signing, events: 201, verified: 201, head: expect.objectContaining({ seq: 201 }) } });
    const log = readFileSync(join(folder, 'events.jsonl'), 'utf8');
    writeFileSync(join(folder, 'events.jsonl'), log.replace('"seq":17,"from":"alice"', '"seq":17,"from":"bob"'));
    expect((await acp.validate(host, folder, registry)).errors).toContain('seq 17: bob has no registered signing key (a participant\'s first signed event must announce its pubkey)');
    // seq 1 signs the terms: an edit of protocol.json's objective is named, checkpoint or not.
    writeFileSync(join(folder, 'events.jsonl'), log);
    expect((await acp.validate(host, folder, registry)).ok).toBe(true);
    const protocol = readFileSync(join(folder, 'protocol.json'), 'utf8');
    writeFileSync(join(folder, 'protocol.json'), protocol.replace('"objective": "o"', '"objective": "p"'));
    expect((await acp.validate(host, folder, registry)).errors).toEqual([expect.stringMatching(/^seq 1: protocol\.json's objective is not what seq 1 signed/)]);
  });
});

// Issue 36's classes: what validate alone used to guard (or nothing did).
// Each attack must be refused (an append) or reported (verification) at its
// seq, and nothing may be written by a refused append. ≥ 200 of each in
// full; 3 of each in quick.
type Attack = 'cut the tail, then an honest append' | 'the last line replaced and the head rewritten, then its signer appends' | 'a key copy deleted, then an append as its owner' | 'signing removed' | 'head removed' | 'a term edited' | 'a key copy with a name missing or extra';
const ATTACKS: Attack[] = ['cut the tail, then an honest append', 'the last line replaced and the head rewritten, then its signer appends', 'a key copy deleted, then an append as its owner', 'signing removed', 'head removed', 'a term edited', 'a key copy with a name missing or extra'];
const ATTACK_COUNT = byScale({ quick: 3, full: 200 }) * ATTACKS.length;

/** A copy of a session's folder, on a host whose keyring holds the participants' keys (and, with `records`, what each signed last). */
async function copyOf(s: Session, records: boolean): Promise<acp.Host & { fs: acp.MemoryFileSystem }> {
  const keys = Object.fromEntries(await Promise.all(s.participants.map(async (p) => [p, (await keyring.load(p)) as PrivateJwk] as const)));
  const fs = acp.createMemoryFileSystem({ files: Object.fromEntries(s.host.fs.snapshot()) });
  return acp.createMemoryHost({ fs, keyring: records ? keyring : memoryKeyring(Object.fromEntries(Object.entries(keys).filter(([, k]) => k !== undefined))) });
}

const blockedBy = (participant: string): acp.AppendRequest => ({ participant, event: 'blocked', summary: 'honest', doc: 'conclusion.md', replyTo: 1 });

/** The seq an append's refusal names, after refusing to write anything. */
async function refusedAt(host: acp.Host & { fs: acp.MemoryFileSystem }, request: acp.AppendRequest, registry: acp.Registry): Promise<{ seq?: number; message: string }> {
  const before = host.fs.snapshot();
  const error = await acp.append(host, FOLDER, request, registry).then(() => undefined, (e: Error) => e);
  if (!error) return { message: 'appended' };
  expect(host.fs.snapshot()).toEqual(before);
  return { seq: Number(/seq (\d+)/.exec(error.message)?.[1] ?? NaN), message: error.message };
}

/** Carry out `attack` on a copy of `s`; returns the seq it must be named at, what named it, and the message. */
async function attack(kind: Attack, r: () => number, s: Session): Promise<{ seq: number; found?: number; message: string }> {
  const n = s.lines.length;
  const host = await copyOf(s, false);
  const protocol = JSON.parse(await read(host, 'protocol.json')) as Record<string, any>;
  const writeProtocol = (): Promise<void> => host.fs.writeFile(join(FOLDER, 'protocol.json'), acp.formatProtocolJson(protocol));
  const verified = async (): Promise<{ found?: number; message: string }> => {
    const report = await acp.verifySignatures(host, FOLDER);
    return { found: reportedSeq(report), message: report.errors.join(' | ') };
  };
  switch (kind) {
    case 'cut the tail, then an honest append': {
      const k = 1 + Math.floor(r() * Math.min(3, n - 1));
      await host.fs.writeFile(join(FOLDER, 'events.jsonl'), s.lines.slice(0, n - k).map((l) => `${l}\n`).join(''));
      const { seq: found, message } = await refusedAt(host, blockedBy(pick(r, s.participants)), s.registry);
      return { seq: n - k + 1, found, message };
    }
    case 'the last line replaced and the head rewritten, then its signer appends': {
      const last = JSON.parse(s.lines[n - 1]!) as Record<string, unknown>;
      const author = last.from as string;
      const forger = pick(r, s.participants.filter((p) => p !== author));
      const key = (await keyring.load(forger, async () => (await import('../runtime/signing.ts')).generateSigningKey())) as PrivateJwk;
      const { sig: _sig, pubkey: _pubkey, ...event } = last;
      event.from = forger;
      event.summary = `${String(event.summary)} (replaced)`;
      if (!s.lines.some((l) => (JSON.parse(l) as { from: string; pubkey?: string }).from === forger && JSON.parse(l).pubkey) && !Object.hasOwn(protocol.signing.keys, forger)) event.pubkey = key.x;
      const body = acp.formatEventLine(event).slice(0, -1);
      const forged = `${body.slice(0, -1)},"sig":"${await signBody(key, protocol.signing.id, body)}"}`;
      await host.fs.writeFile(join(FOLDER, 'events.jsonl'), [...s.lines.slice(0, -1), forged].map((l) => `${l}\n`).join(''));
      protocol.signing.head = { seq: n, sha256: lineHash(forged) };
      await writeProtocol();
      // The author's own host: its record of the line it signed.
      const own = acp.createMemoryHost({ fs: host.fs, keyring });
      const { seq: found, message } = await refusedAt(own, blockedBy(author), s.registry);
      return { seq: n, found: message.includes(`the line ${author} signed there`) ? found : undefined, message };
    }
    case 'a key copy deleted, then an append as its owner': {
      const owner = pick(r, Object.keys(protocol.signing.keys));
      const registered = protocol.signing.keys[owner] as string;
      delete protocol.signing.keys[owner];
      await writeProtocol();
      const impostor = acp.createMemoryHost({ fs: host.fs, keyring: memoryKeyring({ [owner]: await (await import('../runtime/signing.ts')).generateSigningKey() }) });
      const { message } = await refusedAt(impostor, blockedBy(owner), s.registry);
      const seq = Number(JSON.parse(s.lines.findLast((l) => (JSON.parse(l) as { from: string; pubkey?: string }).from === owner && JSON.parse(l).pubkey) ?? s.lines[0]!).seq);
      // The real owner is not locked out (unless the session ended blocked, where blocked is refused for everyone,
      // or a later session of the shared keyring rotated the owner's key).
      if (protocol.currentPhase !== 'blocked' && ((await keyring.load(owner)) as PrivateJwk).x === registered) {
        await acp.append(host, FOLDER, blockedBy(owner), s.registry);
        expect(JSON.parse(await read(host, 'protocol.json')).signing.keys).toHaveProperty(owner);
      }
      return { seq, found: message.includes(`not the one this collaboration registered for ${owner}`) ? seq : undefined, message };
    }
    case 'signing removed': {
      const original = protocol.signing;
      delete protocol.signing;
      await writeProtocol();
      const { seq: found, message } = await refusedAt(host, blockedBy(pick(r, s.participants)), s.registry);
      const report = await acp.verifySignatures(host, FOLDER);
      expect(report.rebuilt).toEqual(original);
      return { seq: 1, found: reportedSeq(report) === 1 && message.startsWith('seq 1 declares a signed collaboration') ? found : undefined, message };
    }
    case 'head removed': {
      delete protocol.signing.head;
      await writeProtocol();
      const { seq: found, message } = await refusedAt(host, blockedBy(pick(r, s.participants)), s.registry);
      const report = await verified();
      return { seq: n, found: report.found === found && message.includes('has no head') ? found : undefined, message };
    }
    case 'a term edited': {
      const field = pick(r, ['objective', 'objectiveGates', 'completionGates', 'participants', 'deliverables'] as const);
      if (field === 'objective') protocol.objective = `${protocol.objective} (edited)`;
      else if (field === 'objectiveGates') protocol.objectiveGates = [...(protocol.objectiveGates ?? []), 'one more gate'];
      else if (field === 'completionGates') protocol.completionGates[0].text += '!';
      else if (field === 'participants') protocol.participants = protocol.participants.slice(0, -1);
      else protocol.deliverables.primary.file = 'other.md';
      await writeProtocol();
      const report = await verified();
      return { seq: 1, found: report.message.includes(`protocol.json's ${field} is not what seq 1 signed`) ? report.found : undefined, message: report.message };
    }
    case 'a key copy with a name missing or extra': {
      const how = r();
      if (how < 0.67) delete protocol.signing.keys[pick(r, Object.keys(protocol.signing.keys))];
      if (how > 0.33) protocol.signing.keys.mallory = (await keyring.load('mallory', async () => (await import('../runtime/signing.ts')).generateSigningKey()) as PrivateJwk).x;
      await writeProtocol();
      const report = await acp.verifySignatures(host, FOLDER);
      const found = report.errors.length && report.rebuilt && report.errors.every((e) => /signing\.keys (has no key for|names mallory)/.test(e)) ? 1 : undefined;
      return { seq: 1, found: found && Math.min(reportedSeq(report) ?? 1, 1), message: report.errors.join(' | ') };
    }
  }
}

describe('signed collaborations: the tamper suite, part II (an append verifies what it extends; the log is the key registry)', () => {
  test(`${ATTACK_COUNT} attacks (${ATTACKS.join(', ')}): each refused or reported at its seq`, { timeout: 600_000 }, async () => {
    const r = random(SEED + 36);
    const pool = Math.min(byScale({ quick: 50, full: 1000 }), 100);
    const byKind = new Map<Attack, [number, number]>(ATTACKS.map((a) => [a, [0, 0]]));
    const misses: string[] = [];
    for (let i = 0; i < ATTACK_COUNT; i++) {
      const kind = ATTACKS[i % ATTACKS.length]!;
      let s = await session(Math.floor(r() * pool));
      // A cut or a replaced signer's line needs a line after seq 1.
      while (s.lines.length < 2) s = await session(Math.floor(r() * pool));
      const { seq, found, message } = await attack(kind, r, s);
      const tally = byKind.get(kind)!;
      tally[1]++;
      if (found === seq) tally[0]++;
      else misses.push(`${kind} #${i}: expected seq ${seq}, found ${found ?? 'nothing'}: ${message.slice(0, 300)}`);
    }
    const caught = [...byKind.values()].reduce((n, [d]) => n + d, 0);
    console.log(`signing II: ${caught}/${ATTACK_COUNT} attacks refused or reported at their seq (seed ${SEED + 36}): ${[...byKind].map(([k, [d, t]]) => `${k} ${d}/${t}`).join(', ')}`);
    expect(misses).toEqual([]);
  });
});

describe('signed collaborations: racing signers', () => {
  test(`${byScale({ quick: 3, full: 200 })} logs written by 4 racing signers (a keyring each): every append verifies what it extends without a false refusal, and every log verifies clean`, { timeout: 600_000 }, async () => {
    const registry = await registryPromise;
    const names = ['alice', 'bob', 'carol', 'dave'];
    let alarms = 0;
    for (let i = 0; i < byScale({ quick: 3, full: 200 }); i++) {
      const fs = acp.createMemoryFileSystem();
      const hosts = names.map(() => acp.createMemoryHost({ fs, keyring: memoryKeyring() }));
      await acp.init(hosts[0]!, FOLDER, { participants: names, objective: 'race', completion: ['done'], primaryType: 'adr', sign: true }, registry);
      // blocked is legal for anyone from any phase: every append races every other.
      await Promise.all(hosts.map(async (host, w) => {
        for (let k = 0; k < 3; k++) await acp.append(host, FOLDER, { participant: names[w]!, event: 'blocked', summary: `${names[w]} ${k}`, doc: 'conclusion.md', replyTo: 1 }, registry);
      }));
      const report = await acp.verifySignatures(hosts[0]!, FOLDER);
      if (report.errors.length || report.warnings.length || report.signing?.verified !== 13) {
        alarms++;
        console.error(`racing log ${i}:`, report);
      }
    }
    expect(alarms).toBe(0);
  });
});
