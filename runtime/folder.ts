/**
 * The folder's declaration: protocol.json, its participants and
 * deliverables, the paths a reference may reach, the documents read inside
 * the deliverables' boundary, and the deliverable types' defaults.
 * @module
 */
import * as nodePath from 'node:path';
import { readReadiness } from './documents.ts';
import { AcpError, AcpPluginError } from './errors.ts';
import { jsonErrorDetail } from './event-log.ts';
import { READ_LIMITS, readCapped } from './files.ts';
import type { Host } from './host.ts';
import { loadsPy } from './pyjson.ts';
import { decodeText, purePosixPath, pyRepr, pyStr } from './pytext.ts';
import type { CollaborationList, CollaborationSearch, DocumentFiles, Json, ReadinessFacts, Registry } from './types.ts';
import { errorCode, isInside, isObject, realpathOfExistingAncestor } from './util.ts';

/** Participant ids of a protocol document, accepting `{id}` objects and strings. */
export function participantIds(protocol: Json): string[] {
  const list = protocol.participants;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new AcpError('protocol.json participants must be a list');
  const ids: string[] = [];
  for (const entry of list) {
    if (typeof entry === 'string') ids.push(entry);
    else if (isObject(entry) && typeof entry.id === 'string') ids.push(entry.id);
    else if (isObject(entry) && entry.id !== undefined) ids.push(pyStr(entry.id));
  }
  return ids;
}

/** Is this path unsafe (absolute or with a `..` segment)? (spec §3) */
export function isUnsafePath(path: string): boolean {
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return true;
  return path.split(/[\\/]/).includes('..');
}

/**
 * The reference string of a deliverable file: `{dir}/{file}` or
 * `external:{file}`, in `PurePosixPath`'s normal form as the Python tools
 * build it (`docs/` and `./x.md` give `docs/x.md`; dir `.` gives `x.md`).
 */
export function deliverableRef(protocol: Json, file: string): string {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : {};
  return refOf(deliverables.mode === 'external' ? 'external' : 'internal', typeof deliverables.dir === 'string' ? deliverables.dir : 'deliverables', file);
}

/** A deliverable file's reference: `external:{file}` in external mode, else `{dir}/{file}`. */
export function refOf(mode: string, dir: string, file: string): string {
  return mode === 'external' ? `external:${purePosixPath(file)}` : purePosixPath(dir, file);
}

/** Reference of the primary deliverable, or `undefined` when not declared. */
export function primaryRef(protocol: Json): string | undefined {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : undefined;
  const primary = deliverables && isObject(deliverables.primary) ? deliverables.primary : undefined;
  if (!primary || typeof primary.file !== 'string') return undefined;
  return deliverableRef(protocol, primary.file);
}

/** protocol.json's supporting deliverable entries (none when it declares none). */
export function supportingEntries(protocol: Json): Json[] {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : undefined;
  const list = deliverables?.supporting;
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/** Resolve a deliverable reference to an absolute path (no safety checks). */
export function resolveDeliverablePath(folder: string, protocol: Json, ref: string): string | undefined {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : {};
  const dir = typeof deliverables.dir === 'string' ? deliverables.dir : 'deliverables';
  if (ref.startsWith('external:')) {
    const repoRoot = typeof protocol.repoRoot === 'string' ? protocol.repoRoot : undefined;
    if (repoRoot === undefined) return undefined;
    return nodePath.resolve(folder, repoRoot, dir, ref.slice('external:'.length));
  }
  return nodePath.resolve(folder, ref);
}

/** Where an attachment is: in the deliverables directory, where the Python validator looks (issue 12 item 4). */
export function attachmentPath(folder: string, protocol: Json, file: string): string {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : {};
  const dir = typeof deliverables.dir === 'string' ? deliverables.dir : 'deliverables';
  if (deliverables.mode === 'external' && typeof protocol.repoRoot === 'string') return nodePath.resolve(folder, protocol.repoRoot, dir, file);
  return nodePath.resolve(folder, dir, file);
}

/**
 * The directory a deliverable must stay in: its repoRoot for an
 * `external:` reference, else the collaboration folder.
 */
export function deliverableBoundary(folder: string, protocol: Json, ref: string): string {
  if (ref.startsWith('external:') && typeof protocol.repoRoot === 'string') return nodePath.resolve(folder, protocol.repoRoot);
  return folder;
}

/**
 * Read a deliverable's bytes; `undefined` when missing. **[beyond]** refuses
 * a file whose real path (symlinks followed) leaves its boundary.
 */
export async function readDeliverable(host: Host, folder: string, protocol: Json, ref: string): Promise<Uint8Array | undefined> {
  const path = resolveDeliverablePath(folder, protocol, ref);
  if (!path) return undefined;
  const stat = await host.fs.stat(path);
  if (!stat || !stat.isFile) return undefined;
  await assertInsideBoundary(host, path, deliverableBoundary(folder, protocol, ref), ref);
  return readCapped(host, path, READ_LIMITS.document, ref);
}

/**
 * The path of a document reference, checked like the CLI checks it: a
 * declared deliverable must stay inside its boundary (the folder, or
 * repoRoot for `external:`), any other name inside the folder, with
 * symlinks followed (for a file that does not exist yet, its nearest
 * existing ancestor's). For the RPC server's read and write, so both go
 * through the same check as `validate` and hooks.
 */
export async function checkedDocumentPath(host: Host, folder: string, protocol: Json, ref: string): Promise<string> {
  if (typeof ref !== 'string' || ref === '' || ref.includes('\0')) throw new AcpError(`not a document reference: ${pyRepr(ref)}`);
  const declared = [primaryRef(protocol), ...supportingEntries(protocol).map((entry) => (typeof entry.file === 'string' ? deliverableRef(protocol, entry.file) : undefined))];
  if (declared.includes(ref)) {
    const path = resolveDeliverablePath(folder, protocol, ref);
    if (!path) throw new AcpError(`deliverable ${ref}: protocol.json has no repoRoot`);
    await assertInsideBoundary(host, path, deliverableBoundary(folder, protocol, ref), ref);
    return path;
  }
  const path = nodePath.resolve(folder, ref);
  if (!isInside(path, folder)) throw new AcpError(`document ${ref} is outside the collaboration folder`);
  await assertInsideBoundary(host, path, folder, ref);
  return path;
}

/**
 * Read access to a folder's documents, for hooks and plugins: declared
 * deliverable references go through {@link readDeliverable}; other names
 * must stay inside the folder (symlinks followed). See {@link DocumentFiles}.
 */
export function documentFiles(host: Host, folder: string, protocol: Json): DocumentFiles {
  return {
    async read(ref: string): Promise<string | undefined> {
      if (typeof ref !== 'string' || ref === '' || ref.includes('\0')) throw new AcpError(`not a document reference: ${pyRepr(ref)}`);
      const declared = [primaryRef(protocol), ...supportingEntries(protocol).map((entry) => (typeof entry.file === 'string' ? deliverableRef(protocol, entry.file) : undefined))];
      if (declared.includes(ref)) {
        const bytes = await readDeliverable(host, folder, protocol, ref);
        return bytes === undefined ? undefined : decodeText(bytes, ref);
      }
      const path = nodePath.resolve(folder, ref);
      if (!isInside(path, folder)) throw new AcpError(`document ${ref} is outside the collaboration folder`);
      const stat = await host.fs.stat(path);
      if (!stat?.isFile) return undefined;
      await assertInsideBoundary(host, path, folder, ref);
      return decodeText(await readCapped(host, path, READ_LIMITS.document, ref), ref);
    },
  };
}

/**
 * A confined file system's refusal (a symlink, or a file, where a
 * directory was expected beneath the folder) as an {@link AcpError} (exit
 * 2, the folder unchanged); `undefined` for any other error.
 */
export function symlinkRefusal(error: unknown): AcpError | undefined {
  if (errorCode(error) !== 'ELOOP' && errorCode(error) !== 'ENOTDIR') return undefined;
  return new AcpError(`refused: ${(error as Error).message} (acp never reads or writes through a symlink there)`, 2, 'invalid_folder');
}

async function assertInsideBoundary(host: Host, path: string, boundary: string, ref: string): Promise<void> {
  let real: string;
  let realBoundary: string;
  try {
    real = await host.fs.realpath(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    real = nodePath.join(await realpathOfExistingAncestor(host, nodePath.dirname(path)), nodePath.basename(path));
  }
  try {
    realBoundary = await host.fs.realpath(boundary);
  } catch {
    realBoundary = boundary;
  }
  // Everything is "inside" the filesystem root: a boundary there bounds nothing.
  if (realBoundary === nodePath.parse(realBoundary).root) throw new AcpError(`deliverable ${ref}: repoRoot must not resolve to filesystem root`);
  if (!isInside(real, realBoundary)) throw new AcpError(`deliverable ${ref} resolves outside ${realBoundary} (symlink refused)`);
}

/** The protocol's template of a new deliverable (spec §3). */
export function defaultTemplate(context: { title: string; type: string; sections: string[] }): string {
  const head = `# ${context.title}\n\nDeliverable type: \`${context.type}\`\nStatus: Draft\n\n`;
  return head + context.sections.map((section) => `## ${section}\n\n\n`).join('\n');
}

/** The protocol's six generated completion gates (spec §9). */
export function defaultGates(ref: string, type: string): string[] {
  return [
    `Primary deliverable exists: \`${ref}\``,
    `Primary deliverable has required \`${type}\` sections`,
    'Every accepted decision has `Reflected in`',
    'Every accepted decision is reflected in the primary deliverable',
    'Primary deliverable status is `Frozen`',
    'Primary deliverable SHA-256 snapshot recorded',
  ];
}

/** Read protocol.json; raises the spec's messages (§6 step 1). */
export async function readProtocol(host: Host, folder: string): Promise<Json> {
  let bytes: Uint8Array;
  try {
    bytes = await readCapped(host, nodePath.join(folder, 'protocol.json'), READ_LIMITS.protocol, 'protocol.json');
  } catch (error) {
    // A dangling or looping link, or a name too long to exist, is missing.
    if (['ENOENT', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG'].includes(errorCode(error) ?? '')) throw new AcpError(`missing protocol.json in ${folder}`, 2, 'invalid_folder');
    if (errorCode(error) === 'EISDIR') throw new AcpError('invalid protocol.json: protocol.json is a directory', 2, 'invalid_folder');
    throw error;
  }
  let text: string;
  try {
    text = decodeText(bytes, 'protocol.json');
  } catch {
    throw new AcpError('invalid protocol.json: not valid UTF-8', 2, 'invalid_folder');
  }
  // json.loads refuses a BOM; accepting it would let acp drive a folder the Python tools refuse (issue 12 item 9).
  if (text.charCodeAt(0) === 0xfeff) throw new AcpError('invalid protocol.json: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)', 2, 'invalid_folder');
  let value: unknown;
  try {
    value = loadsPy(text);
  } catch (error) {
    throw new AcpError(`invalid protocol.json: ${jsonErrorDetail(error)}`, 2, 'invalid_folder');
  }
  if (!isObject(value)) throw new AcpError('invalid protocol.json: top level must be an object', 2, 'invalid_folder');
  return value;
}

/**
 * A protocol document's text; `undefined` when missing. A directory in its
 * place is an error, never an empty document that passes (issue 12 item 9);
 * `validate` reports it once among its findings and reads it as missing.
 */
export async function readTextIfExists(host: Host, path: string, name: string, directoryIsMissing = false): Promise<string | undefined> {
  try {
    return decodeText(await readCapped(host, path, READ_LIMITS.document, name), name);
  } catch (error) {
    if (errorCode(error) === 'EISDIR' && !directoryIsMissing) throw new AcpError(`${name} is a directory, not a file`, 2, 'invalid_folder');
    if (['ENOENT', 'EISDIR', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG'].includes(errorCode(error) ?? '')) return undefined;
    throw error;
  }
}

/** readiness.md's facts (the gates the state machine checks). */
export async function readReadinessFile(host: Host, folder: string): Promise<ReadinessFacts> {
  return readReadiness((await readTextIfExists(host, nodePath.join(folder, 'readiness.md'), 'readiness.md')) ?? '');
}

/**
 * Call a deliverable type's code (sections, template, gates): a throw or a
 * result of the wrong shape becomes an {@link AcpPluginError} naming its plugin.
 */
export function callType<T>(registry: Registry, type: string, what: string, fn: () => T, valid: (value: unknown) => boolean): T {
  const origin = registry.types.get(type)?.origin;
  const fail = (cause: unknown): never => {
    throw new AcpPluginError(origin?.plugin ?? origin?.source ?? type, `${what} of deliverable type '${type}'`, cause);
  };
  let value: T;
  try {
    value = fn();
  } catch (error) {
    if (error instanceof AcpError) throw error;
    return fail(error);
  }
  if (!valid(value)) fail(`it returned ${Array.isArray(value) ? 'an array' : typeof value}, which is not what acp expects`);
  return value;
}

/** Whether a value is a list of strings (what a deliverable type's sections() and gates() return). */
export const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * The collaboration folders under `root` (each a directory holding a
 * protocol.json file), absolute, in sorted order: the one walk every door
 * lists them with (MCP resources, the JSON-RPC tasks, the dashboard).
 * Symbolic links are not followed, hidden directories and node_modules are
 * skipped, and a collaboration's own sub-folders are not searched
 * (collaborations do not nest). `stopped` says which bound ended the walk
 * before the end of the tree, so a caller can say that the list is partial.
 */
export async function findCollaborations(host: Host, root: string, limits: CollaborationSearch = {}): Promise<CollaborationList> {
  const depthLimit = limits.depth ?? 3;
  const maxFolders = limits.maxFolders ?? 500;
  const maxDirs = limits.maxDirs ?? 5000;
  const folders: string[] = [];
  let dirs = 0;
  let stopped: CollaborationList['stopped'];
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (limits.signal?.aborted || stopped) return;
    if (folders.length >= maxFolders) stopped = 'maxFolders';
    else if (++dirs > maxDirs) stopped = 'maxDirs';
    if (stopped) return;
    if ((await host.fs.stat(nodePath.join(dir, 'protocol.json')).catch(() => null))?.isFile) {
      folders.push(dir);
      return;
    }
    if (depth >= depthLimit) return;
    const names = await host.fs.readDir(dir).catch(() => [] as string[]);
    for (const name of names.sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const child = nodePath.join(dir, name);
      const stat = await host.fs.stat(child).catch(() => null);
      if (stat?.isDirectory && !stat.isSymlink) await visit(child, depth + 1);
    }
  };
  await visit(root, 0);
  return stopped ? { folders, stopped } : { folders };
}
