/**
 * Init (spec §9): plan a new folder, write it (resumably, through a
 * journal), sign its first event, and run the init:files hooks.
 * @module
 */
import * as nodePath from 'node:path';
import { initialDocuments } from './documents.ts';
import { AcpError } from './errors.ts';
import { formatEventLine } from './event-log.ts';
import { confineHost, danglingLinkTarget, writeFileAtomic } from './files.ts';
import { callType, defaultGates, defaultTemplate, isUnsafePath, participantIds, symlinkRefusal } from './folder.ts';
import { writerHost } from './guarded-host.ts';
import type { Host } from './host.ts';
import { lineHash } from './keyring.ts';
import { loadsPy } from './pyjson.ts';
import { formatProtocolJson, formatTimestamp, pyRepr, pyStrip, sortedPy } from './pytext.ts';
import { INIT_OPTIONS, type AcpEvent, type DeliverableDeclaration, type InitOptions, type InitRequest, type InitResult, type ProtocolDocument, type Registry, type UnsignedPolicy } from './types.ts';
import { checkedRequest } from './doors.ts';
import { localStore, openStore } from './store.ts';
import { errorCode, fsError } from './util.ts';
import { refuseUnencodable } from './event-log.ts';
import { isStringList, readTextIfExists, refOf } from './folder.ts';
import { validationTypes } from './validate.ts';

function uniqueTrimmed(values: string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const trimmed = pyStrip(value);
    if (trimmed && !out.includes(trimmed)) out.push(trimmed);
  }
  return out;
}

/**
 * Refuse a deliverable type the registry does not know, as the Python
 * tools' argparse refuses a choice: before every other check of init,
 * whichever door asked (the `init` command runs it before it reads another
 * option; {@link planInit} first of all).
 */
export function refuseUnknownType(registry: Registry, type: string): void {
  if (registry.type(type)) return;
  const choices = sortedPy([...registry.types.keys()]).map((name) => pyRepr(name));
  throw new AcpError(`argument --primary-deliverable-type: invalid choice: ${pyRepr(type)} (choose from ${choices.join(', ')})`);
}

/** Build the protocol document and the files of a new folder (no I/O). */
export function planInit(folder: string, request: InitRequest, registry: Registry, now: Date): { protocol: ProtocolDocument; files: Map<string, string> } {
  refuseUnknownType(registry, request.primaryType);
  const objective = pyStrip(request.objective ?? '');
  if (!objective) throw new AcpError('--objective must not be blank');
  const participants = uniqueTrimmed(request.participants ?? []);
  if (participants.length < 2) throw new AcpError('at least two non-blank --participant values are required');
  const completion = (request.completion ?? []).map(pyStrip).filter(Boolean);
  if (!completion.length) throw new AcpError('at least one non-blank --completion is required');
  const typeName = request.primaryType;
  const definition = registry.type(typeName)!;
  const checks = (request.primaryChecks ?? []).map(pyStrip).filter(Boolean);
  const custom = typeName === 'custom';
  // The file and the directory are taken as given, not trimmed, as the Python tools take them (`--primary-deliverable-file ''` is none).
  const file = request.primaryFile || definition.defaultFile;
  if (!file || (custom && !request.primaryFile)) throw new AcpError(custom ? 'custom deliverables require --primary-deliverable-file' : `deliverable type '${typeName}' requires --primary-deliverable-file`);
  if (custom && !checks.length) throw new AcpError('custom deliverables require at least one --primary-deliverable-check');
  if (!file.endsWith('.md')) throw new AcpError('primary deliverable file must end with .md');
  if (isUnsafePath(file)) throw new AcpError('primary deliverable file must be relative and must not contain ..');
  // A blank --deliverables-dir is refused where the Python tools would write (initFolder).
  const dir = request.dir ?? 'deliverables';
  if (isUnsafePath(dir)) throw new AcpError('--deliverables-dir must be relative and must not contain ..');
  const mode = pyStrip(request.mode ?? 'internal') || 'internal';
  if (mode !== 'internal' && mode !== 'external') throw new AcpError("--deliverables-mode must be 'internal' or 'external'");
  // `--repo-root ''` is no --repo-root, as the Python tools' truthiness test reads it.
  const repoRoot = request.repoRoot === undefined || request.repoRoot === '' ? undefined : pyStrip(request.repoRoot);
  if (mode === 'external' && !repoRoot) throw new AcpError('--repo-root is required when --deliverables-mode external');
  if (mode === 'external' && nodePath.isAbsolute(repoRoot!)) throw new AcpError('--repo-root must be relative to the collaboration folder');
  if (mode === 'internal' && repoRoot !== undefined) throw new AcpError('--repo-root is only allowed when --deliverables-mode external');

  const sections = callType(registry, typeName, 'sections()', () => definition.sections(checks), isStringList);
  // Plugin types are recorded as custom (+ pluginType) unless they opt out: interoperability (issue 4).
  const recordAsCustom = !custom && (definition.recordAsCustom ?? !validationTypes.has(typeName));
  const primary: DeliverableDeclaration = { type: recordAsCustom ? 'custom' : typeName, file, checklist: custom ? checks : recordAsCustom ? sections : [] };
  if (recordAsCustom) primary.pluginType = typeName;
  const ref = refOf(mode, dir, file);
  const defaults = defaultGates(ref, primary.type);
  const gates = definition.gates?.bind(definition);
  const generated = gates ? callType(registry, typeName, 'gates()', () => gates({ ref, type: primary.type, defaults: [...defaults] }), isStringList) : defaults;
  const stamp = formatTimestamp(now);
  const protocol: ProtocolDocument = {
    protocol: 'acp',
    schemaVersion: 2,
    objective,
    objectiveGates: completion,
    participants: participants.map((id) => ({ id })),
    completionGates: [...completion.map((text) => ({ source: 'objective' as const, text })), ...generated.map((text) => ({ source: 'generated' as const, text }))],
    deliverables: { mode, dir, owner: participants[0]!, coAuthors: [], primary, supporting: [], attachments: [] },
    currentPhase: 'drafting',
    proposalOwner: participants[0]!,
    waitingFor: [participants[0]!],
    createdAt: stamp,
    updatedAt: stamp,
  };
  if (mode === 'external') protocol.repoRoot = repoRoot;
  const render = definition.template?.bind(definition) ?? defaultTemplate;
  const template = callType(registry, typeName, 'template()', () => render({ title: definition.title, type: typeName, sections: [...sections] }), (t) => typeof t === 'string');
  const deliverablePath = mode === 'external' ? nodePath.join(repoRoot!, dir, file) : nodePath.join(dir, file);
  const files = new Map<string, string>([
    ...Object.entries(initialDocuments({ objective, owner: participants[0]!, participants, ref, title: definition.title, gates: protocol.completionGates.map((gate) => gate.text) })),
    [deliverablePath, template],
  ]);
  return { protocol, files };
}

/**
 * Initialise a collaboration folder (spec §9). **[beyond]** never
 * overwrites an existing file: if any target exists, nothing is written.
 */
export async function init(guarded: Host, folder: string, given: InitRequest, registry: Registry, options: InitOptions = {}): Promise<InitResult> {
  // Checked as every door checks init's arguments (runtime/doors.ts): a key the table does not know is refused by name, never ignored.
  const request = checkedRequest(INIT_OPTIONS, given, { folder }, ['participantKeys']);
  const host = writerHost(guarded);
  try {
    // Usage errors come first, before a store is asked anything (git: a fetch).
    const owner = planInit(folder, request, registry, host.now()).protocol.proposalOwner ?? 'acp';
    const store = options.store ?? (await openStore(host, folder, registry));
    const creator = store.create ? store : localStore(host);
    const made = await creator.create!(folder, { participant: owner, kind: 'init', documents: [] }, (underLock) => initFolder(host, folder, request, registry, underLock), options);
    return creator.name === 'local' ? made.value : { ...made.value, store: { name: creator.name, record: made.record, note: made.note } };
  } catch (error) {
    if (errorCode(error) === 'EROFS') throw new AcpError(`cannot create the collaboration in ${folder}: the file system is read-only (EROFS)`, 2, 'file_system');
    throw symlinkRefusal(error) ?? error;
  }
}

/**
 * {@link init}, its files written beneath the folder (and an external
 * repoRoot) without following a symlink: a `deliverables` planted as a
 * symlink out of the folder is refused, never written through.
 */
async function initFolder(plainHost: Host, folder: string, request: InitRequest, registry: Registry, underLock: <U>(fn: () => Promise<U>) => Promise<U>): Promise<InitResult> {
  const protocolPath = nodePath.join(folder, 'protocol.json');
  // Usage errors come first, as in the common tools.
  const planned = planInit(folder, request, registry, plainHost.now());
  const repoRoot = planned.protocol.repoRoot;
  const host = confineHost(plainHost, [folder, ...(repoRoot === undefined ? [] : [nodePath.resolve(folder, repoRoot)])]);
  const protocolTarget = await danglingLinkTarget(plainHost, folder, protocolPath);
  if (!protocolTarget && (await host.fs.stat(protocolPath))) {
    if (request.resume) return { created: false, files: [] };
    throw new AcpError('collaboration folder already contains protocol.json; use --resume to acknowledge it');
  }
  // The Python tools would write `"dir": ""` here, which their own validate rejects.
  if (!pyStrip(planned.protocol.deliverables.dir)) throw new AcpError('--deliverables-dir must not be blank (a folder without deliverables.dir does not validate: deliverables.dir is required)');
  const unfinished = await readInitJournal(host, folder);
  if (unfinished) {
    if (!request.resume) throw new AcpError(`an interrupted init left files in ${folder}; run init again with --resume to complete it`);
    await underLock(() => writeInitFiles(host, folder, unfinished.files, true));
    return { created: true, protocol: loadsPy(unfinished.files.find(([name]) => name === 'protocol.json')![1]) as ProtocolDocument, files: unfinished.files.map(([name]) => name) };
  }
  const { protocol, files } = planned;
  if (registry.hooks.has('init:files')) await registry.hooks.call('init:files', { folder, protocol, files });
  const event: AcpEvent = { seq: 1, from: protocol.proposalOwner!, event: 'initialized', at: protocol.createdAt, summary: INIT_SUMMARY, doc: 'protocol.json' };
  refuseUnencodable('the new folder', [protocol, files]);
  if (request.sign) await signInit(host, protocol, event, request);
  else if (request.signingPolicy !== undefined || request.participantKeys !== undefined) throw new AcpError('--signing-policy and --register-key need --sign');
  const all = new Map<string, string>([['protocol.json', formatProtocolJson(protocol)], ...files, ['events.jsonl', formatEventLine(event)]]);
  const existing: string[] = [];
  for (const relative of all.keys()) {
    if (isUnsafePath(relative) && !relative.startsWith(protocol.repoRoot ?? '\0')) throw new AcpError(`refusing to write outside the folder: ${relative}`);
    const path = relative === 'protocol.json' ? (protocolTarget ?? protocolPath) : nodePath.resolve(folder, relative);
    if (await host.fs.stat(path)) existing.push(relative);
  }
  if (existing.length) {
    throw new AcpError(`refusing to overwrite existing files in ${folder}: ${existing.join(', ')} (init never replaces files; move them away or use another folder)`);
  }
  if (protocol.repoRoot !== undefined) {
    const root = nodePath.resolve(folder, protocol.repoRoot);
    if (root === nodePath.parse(root).root) throw new AcpError('--repo-root must not resolve to the filesystem root');
  }
  await host.fs.mkdir(folder);
  await underLock(() => writeInitFiles(host, folder, [...all], false, protocolTarget));
  return { created: true, protocol, files: [...all.keys()] };
}

/**
 * Declare a signed collaboration (docs/signing.md): seq 1 carries the
 * declaration (a fresh id, the policy, the keys known now: the initializer's
 * and those given) and is signed by the first participant's key, made on
 * first use; protocol.json records the declaration and its head. seq 1
 * also signs the digests of the collaboration's terms (objective, gates,
 * participants, deliverables).
 */
async function signInit(host: Host, protocol: ProtocolDocument, event: AcpEvent, request: InitRequest): Promise<void> {
  const signing = await import('./signing.ts');
  const policy = request.signingPolicy ?? 'warn';
  const known = (value: string): value is UnsignedPolicy => (signing.UNSIGNED_POLICIES as readonly string[]).includes(value);
  if (!known(policy)) throw new AcpError(`--signing-policy must be 'warn' or 'refuse', not ${pyRepr(policy)}`);
  const given = request.participantKeys ?? {};
  const participants = participantIds(protocol);
  for (const [who, key] of Object.entries(given)) {
    if (!participants.includes(who)) throw new AcpError(`--register-key: ${pyRepr(who)} is not a participant`);
    if (!signing.isPublicKey(key)) throw new AcpError(`--register-key ${who}: not an Ed25519 public key (43 base64url characters, as \`acp key\` prints it)`);
  }
  const owner = event.from;
  const { key } = await signing.keyForAppend(host.keyring, owner, Object.hasOwn(given, owner) ? given[owner] : undefined, false);
  const declaration = signing.newDeclaration(policy, { ...given, [owner]: key.x });
  // The terms are signed with the declaration: validate names one edited later.
  event.signing = { version: declaration.version, id: declaration.id, policy, keys: declaration.keys, terms: signing.termsDigests(protocol) };
  event.prev = signing.GENESIS_PREV;
  event.sig = await signing.signBody(key, declaration.id, formatEventLine(event).slice(0, -1));
  protocol.signing = { ...declaration, head: { seq: 1, sha256: lineHash(formatEventLine(event).slice(0, -1)) } };
}

/**
 * `participant`'s public signing key on this host (made on first use), and
 * where its private key lives: what a participant hands the initializer of
 * a signed collaboration (`init --register-key`) to be registered from
 * the start (docs/signing.md).
 */
export async function signingKey(guarded: Host, participant: string): Promise<{ participant: string; publicKey: string; where: string }> {
  const host = writerHost(guarded);
  const signing = await import('./signing.ts');
  if (pyStrip(participant) === '') throw new AcpError('--participant must not be blank');
  const { key } = await signing.keyForAppend(host.keyring, participant, undefined, false);
  return { participant, publicKey: key.x, where: host.keyring!.where(participant) };
}

/**
 * Written before the first file of an init and removed after protocol.json:
 * what the interrupted init was writing, so `init --resume` completes it
 * with the same text instead of refusing the files it finds.
 */
const INIT_JOURNAL = '.acp.init.json';

async function readInitJournal(host: Host, folder: string): Promise<{ files: [string, string][] } | undefined> {
  let text: string | undefined;
  try {
    text = await readTextIfExists(host, nodePath.join(folder, INIT_JOURNAL), INIT_JOURNAL);
  } catch {
    text = undefined;
  }
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as { files?: unknown };
    const files = value.files;
    const entries = Array.isArray(files) && files.every((f) => Array.isArray(f) && f.length === 2 && typeof f[0] === 'string' && typeof f[1] === 'string') ? (files as [string, string][]) : [];
    const protocolText = entries.find(([name]) => name === 'protocol.json')?.[1];
    const repoRoot = protocolText === undefined ? undefined : (loadsPy(protocolText) as { repoRoot?: unknown }).repoRoot;
    // The same boundary as a fresh init: inside the folder or under --repo-root.
    const safe = entries.every(([name]) => !isUnsafePath(name) || (typeof repoRoot === 'string' && name.startsWith(repoRoot)));
    if (protocolText !== undefined && safe) return { files: entries };
  } catch {
    // a torn journal: its writer died before writing any file
  }
  throw new AcpError(`${nodePath.join(folder, INIT_JOURNAL)} is not an init journal acp wrote; remove it and the files of the interrupted init`);
}

/**
 * Write an init's files, protocol.json last and atomically (a folder with a
 * protocol.json is complete). A failure removes what this call wrote and the
 * journal; `resume` rewrites files a killed init may have left half-written.
 */
async function writeInitFiles(host: Host, folder: string, all: [string, string][], resume: boolean, protocolTarget?: string): Promise<void> {
  const journal = nodePath.join(folder, INIT_JOURNAL);
  const written: string[] = [];
  try {
    if (!resume) await writeFileAtomic(host, journal, JSON.stringify({ files: all }));
    for (const [relative, text] of all) {
      if (relative === 'protocol.json') continue;
      const path = nodePath.resolve(folder, relative);
      await host.fs.mkdir(nodePath.dirname(path));
      if (resume) await writeFileAtomic(host, path, text);
      else await host.fs.writeFile(path, text, { exclusive: true });
      written.push(relative);
    }
    const protocolPath = protocolTarget ?? nodePath.join(folder, 'protocol.json');
    if (await host.fs.stat(protocolPath)) throw fsError('EEXIST', protocolPath);
    await writeFileAtomic(host, protocolPath, all.find(([name]) => name === 'protocol.json')![1]);
  } catch (error) {
    if (!resume) {
      for (const relative of written) await host.fs.remove(nodePath.resolve(folder, relative)).catch(() => undefined);
      await host.fs.remove(journal).catch(() => undefined);
    }
    if (errorCode(error) === 'EEXIST') throw new AcpError(`refusing to overwrite a file created while initialising ${folder}; nothing was kept`);
    throw error;
  }
  await host.fs.remove(journal).catch(() => undefined);
}

/** The summary of seq 1, the `initialized` event (the Python tools write the same). */
export const INIT_SUMMARY = 'Initialized ACP schema v2 collaboration workspace.';
