/**
 * `acp freeze --folder F --participant P [--doc REF] [--summary TEXT]`: the
 * step agents get wrong most, as one command. Under the folder lock it
 * checks that the freeze event would be accepted (P's turn; for the primary
 * deliverable the phase machine's rules: readiness_check, the owner, once),
 * then sets `Status: Frozen` in the deliverable, records its SHA-256 in
 * readiness.md's snapshot lines (and marks a supporting deliverable
 * `frozen` in protocol.json, which validate requires), and appends
 * `deliverable_frozen` with `--role`, `--doc` and `--sha256` through the
 * library's append in the same transaction (the folder's store: under git
 * the three files and the event are one commit, pushed). A refusal changes
 * nothing: the checks run before any file is touched, and if append still
 * refuses (a plugin's hook, say) the three files are put back as they were.
 * @module
 */
import type { CommandResult, Store, Transaction } from '../../runtime/types.ts';
import type { Host } from '../../runtime/host.ts';
import type { FreezeOptions } from './options.ts';
import type { HumansContext } from './context.ts';
import { join } from 'node:path';

type Json = Record<string, unknown>;

/** What was frozen. */
export interface FreezeResult {
  seq: number;
  doc: string;
  role: 'primary' | 'supporting';
  sha256: string;
  /** Files changed besides events.jsonl and protocol.json's state. */
  changed: string[];
}

/** Run `acp freeze`: prints `frozen …` and `appended seq N: deliverable_frozen`. */
export async function runFreeze(ctx: HumansContext<FreezeOptions>): Promise<CommandResult> {
  const { participant, doc, summary } = ctx.options;
  const folder = ctx.folder();
  const strict = ctx.options.strict === true ? true : undefined;
  const result = await freeze(ctx, folder, { participant, doc, summary }, await ctx.store(folder), strict);
  if (!ctx.json) {
    ctx.out(`frozen ${result.doc} (${result.role}): sha256 ${result.sha256}`);
    ctx.out(`appended seq ${result.seq}: deliverable_frozen`);
  }
  return { exitCode: 0, json: { ok: true, exitCode: 0, ...result } };
}

/** Freeze a deliverable (see the module comment). Raises AcpError, changing nothing, when it is refused. */
export async function freeze(
  ctx: Pick<HumansContext, 'api' | 'host' | 'registry'> & Partial<Pick<HumansContext, 'signal'>>,
  folder: string,
  request: { participant: string; doc?: string; summary?: string },
  store?: Store,
  strict?: boolean,
): Promise<FreezeResult> {
  const { api, host } = ctx;
  const first = await api.readProtocol(host, folder);
  if (!api.participantIds(first).includes(request.participant)) throw new api.AcpError(`participant '${request.participant}' is not listed in protocol.json`, 2, 'unknown_participant');
  const firstTarget = freezeTarget(ctx, first, request.doc);
  const documents = [api.resolveDeliverablePath(folder, first, firstTarget.ref), join(folder, 'readiness.md')].filter((p): p is string => p !== undefined);
  const intent = { participant: request.participant, kind: 'freeze' as const, documents };
  return api.transact(host, folder, intent, (tx) => freezeUnderLock(ctx, folder, request, tx), ctx.registry, { store, strict, lockSignal: ctx.signal });
}

/** The freeze itself, inside the store's transaction: checks first, then the files, then the event. */
async function freezeUnderLock(ctx: Pick<HumansContext, 'api' | 'host' | 'registry'>, folder: string, request: { participant: string; doc?: string; summary?: string }, tx: Transaction): Promise<FreezeResult> {
  const { api, host } = ctx;
  const protocol = await api.readProtocol(host, folder);
  const target = freezeTarget(ctx, protocol, request.doc);
  const log = await api.readEventLog(host, folder);
  if (log.errors.length) throw new api.AcpError(log.errors);
  const last = log.events.at(-1);
  if (!last) throw new api.AcpError('events.jsonl has no event yet: init the folder first');
  const readinessPath = join(folder, 'readiness.md');
  const readinessBytes = await readIfExists(host, readinessPath);
  const readinessText = readinessBytes ? rawText(ctx, readinessBytes, 'readiness.md') : '';
  preflight(ctx, protocol, log.events, api.readReadiness(api.decodeText(readinessBytes ?? new Uint8Array(), 'readiness.md')), request.participant, target);

  const path = api.resolveDeliverablePath(folder, protocol, target.ref);
  const original = path && (await api.readDeliverable(host, folder, protocol, target.ref));
  if (!path || !original) throw new api.AcpError('deliverable_frozen doc does not exist');
  const frozenText = withStatusFrozen(ctx, rawText(ctx, original, target.ref), target.ref);
  const sha256 = await api.sha256Hex(new TextEncoder().encode(frozenText));
  const protocolPath = join(folder, 'protocol.json');
  const protocolBytes = await host.fs.readFile(protocolPath);
  const boundary = api.deliverableBoundary(folder, protocol, target.ref);
  const restore: Restore[] = [[path, original, boundary], [readinessPath, readinessBytes, folder], [protocolPath, protocolBytes, folder]];
  const changed = [target.ref, 'readiness.md'];
  try {
    await tx.write(path, frozenText, { base: boundary });
    await tx.write(readinessPath, withSnapshot(readinessText, target, sha256));
    if (target.role === 'supporting') {
      const declared = structuredClone(protocol);
      ((declared.deliverables as Json).supporting as Json[])[target.index!]!.frozen = true;
      await tx.write(protocolPath, api.formatProtocolJson(declared), { throughLink: true });
      changed.push('protocol.json');
    }
    const summary = request.summary ?? `Froze ${target.ref} (sha256 ${sha256.slice(0, 12)}).`;
    const appended = await tx.append({ participant: request.participant, event: 'deliverable_frozen', summary, doc: target.ref, role: target.role, sha256, replyTo: last.seq as number });
    return { seq: appended.event.seq, doc: target.ref, role: target.role, sha256, changed };
  } catch (error) {
    // Not appended (a check or a hook refused, or a write failed): put the files back.
    await restoreFiles(tx, restore);
    throw error;
  }
}

interface Target {
  ref: string;
  role: 'primary' | 'supporting';
  /** Index in deliverables.supporting. */
  index?: number;
}

/** The deliverable to freeze: the primary one, or the declared supporting one `doc` names. */
function freezeTarget(ctx: Pick<HumansContext, 'api'>, protocol: Json, doc: string | undefined): Target {
  const { api } = ctx;
  const primary = api.primaryRef(protocol);
  if (doc === undefined || doc === primary) {
    if (primary === undefined) throw new api.AcpError('protocol.json deliverables.primary is required');
    return { ref: primary, role: 'primary' };
  }
  const declared = api.isObject(protocol.deliverables) && Array.isArray(protocol.deliverables.supporting) ? protocol.deliverables.supporting : [];
  const index = declared.findIndex((s) => api.isObject(s) && typeof s.file === 'string' && api.deliverableRef(protocol, s.file) === doc);
  if (index === -1) throw new api.AcpError('doc must reference a declared supporting deliverable');
  return { ref: doc, role: 'supporting', index };
}

/**
 * The checks append will run on the freeze event, made before any file is
 * touched: replay the log plus the event (phase, owner, only once) and
 * require that it is the participant's turn.
 */
function preflight(ctx: Pick<HumansContext, 'api'>, protocol: Json, events: Json[], readiness: ReturnType<HumansContext['api']['readReadiness']>, participant: string, target: Target): void {
  const { api } = ctx;
  const participants = api.participantIds(protocol);
  const state = api.emptyState();
  for (const event of events) api.applyEvent(state, event, participants, readiness);
  if (state.errors.length) throw new api.AcpError(state.errors);
  if (!state.waitingFor.includes(participant)) {
    const waiting = state.waitingFor.length ? state.waitingFor.join(', ') : 'nobody';
    throw new api.AcpError(`it is not ${participant}'s turn (phase ${state.phase ?? 'None'}, waiting for ${waiting}): nothing was frozen`, 2, 'not_your_turn');
  }
  if (target.role === 'supporting') {
    const earlier = events.find((e) => e.event === 'deliverable_frozen' && e.role === 'supporting' && e.doc === target.ref);
    if (earlier) throw new api.AcpError(`${target.ref} was already frozen at seq ${api.pyStr(earlier.seq)}`);
    return;
  }
  const seq = Math.max(0, ...events.map((e) => (typeof e.seq === 'number' ? e.seq : 0))) + 1;
  api.applyEvent(state, { seq, from: participant, event: 'deliverable_frozen', role: 'primary', doc: target.ref }, participants, readiness);
  if (state.errors.length) throw new api.AcpError(state.errors, 2, 'phase');
}

/** UTF-8 text exactly as stored (line endings kept: only the lines we change change). */
function rawText(ctx: Pick<HumansContext, 'api'>, bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ctx.api.AcpError(`${name} is not valid UTF-8`);
  }
}

/** Lines with their endings (`\n`, `\r\n` or a lone `\r`). */
function splitLines(text: string): { line: string; end: string }[] {
  return [...text.matchAll(/([^\r\n]*)(\r\n|\r|\n|$)/g)].filter((m) => m[0] !== '' || m.index! < text.length).map((m) => ({ line: m[1]!, end: m[2]! }));
}

function newline(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** The deliverable with its status line set to `Status: Frozen` (the line the protocol reads as the status). */
export function withStatusFrozen(ctx: Pick<HumansContext, 'api'>, text: string, ref: string): string {
  const lines = splitLines(text);
  const at = lines.findIndex(({ line }) => ctx.api.markdown.status(line) !== undefined);
  if (at === -1) throw new ctx.api.AcpError(`${ref} has no status line (Status: Draft, In Review, or Frozen): add one, then freeze`);
  lines[at]!.line = 'Status: Frozen';
  return lines.map(({ line, end }) => line + end).join('');
}

/**
 * readiness.md with the deliverable's hash in its snapshot lines (spec §9:
 * `## Deliverable Snapshot`, `- Primary: \`{ref}\``, `- SHA-256: {hash}`).
 * A supporting deliverable gets the same pair, `- Supporting: \`{ref}\``.
 * Missing lines or section are added; nothing else changes.
 */
export function withSnapshot(text: string, target: { ref: string; role: 'primary' | 'supporting' }, sha256: string): string {
  const nl = newline(text);
  const lines = splitLines(text);
  const heading = (line: string): boolean => /^##\s/.test(line);
  const section = lines.findIndex(({ line }) => /^##\s+Deliverable Snapshot\s*$/.test(line));
  if (section === -1) {
    const tail = text === '' || text.endsWith('\n') || text.endsWith('\r') ? '' : nl;
    return `${text}${tail}${text === '' ? '' : nl}## Deliverable Snapshot${nl}${nl}${snapshotPair(target, sha256).join(nl)}${nl}`;
  }
  let end = lines.findIndex(({ line }, i) => i > section && heading(line));
  if (end === -1) end = lines.length;
  const isOwner = (line: string): boolean => (target.role === 'primary' ? /^\s*-\s*Primary:/.test(line) : /^\s*-\s*Supporting:/.test(line) && line.includes(target.ref));
  const owner = lines.findIndex(({ line }, i) => i > section && i < end && isOwner(line));
  const hashLine = `- SHA-256: ${sha256}`;
  if (owner !== -1) {
    const next = lines[owner + 1];
    if (owner + 1 < end && next && /^\s*-\s*SHA-256:/.test(next.line)) next.line = hashLine;
    else lines.splice(owner + 1, 0, { line: hashLine, end: nl });
  } else {
    // After the section's last non-blank line.
    let at = end;
    while (at - 1 > section && lines[at - 1]!.line.trim() === '') at--;
    if (lines[at - 1] && lines[at - 1]!.end === '') lines[at - 1]!.end = nl;
    lines.splice(at, 0, ...snapshotPair(target, sha256).map((line) => ({ line, end: nl })));
  }
  return lines.map(({ line, end: e }) => line + e).join('');
}

function snapshotPair(target: { ref: string; role: 'primary' | 'supporting' }, sha256: string): string[] {
  return [`- ${target.role === 'primary' ? 'Primary' : 'Supporting'}: \`${target.ref}\``, `- SHA-256: ${sha256}`];
}

async function readIfExists(host: Host, path: string): Promise<Uint8Array | undefined> {
  try {
    return await host.fs.readFile(path);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A file to put back: its path, its bytes before (`undefined`: it did not exist), the directory it stays beneath. */
type Restore = [string, Uint8Array | undefined, string];

/** Put files back as they were, through the transaction (the only writer of protocol.json). */
async function restoreFiles(tx: Transaction, files: Restore[]): Promise<void> {
  for (const [path, bytes, base] of files) {
    if (bytes === undefined) await tx.remove(path);
    else await tx.write(path, bytes, { base, throughLink: path.endsWith('/protocol.json') });
  }
}
