/**
 * Reading and writing a collaboration's documents for a client that cannot
 * see the folder: the one boundary rule and the one decoding every server
 * door uses (MCP's read_document / write_document, JSON-RPC's read / write).
 * The writer runs inside the caller's transaction (`transact`), so the
 * folder's store publishes the document and the folder lock is held.
 * @module
 */
import * as nodePath from 'node:path';
import { AcpError } from './errors.ts';
import { READ_LIMITS, readCapped } from './files.ts';
import { deliverableRef, primaryRef, readProtocol, resolveDeliverablePath, supportingEntries } from './folder.ts';
import type { Host } from './host.ts';
import { decodeText, pyRepr, sha256Hex } from './pytext.ts';
import type { DocumentScope, DocumentTarget, DocumentWrite, Json, Transaction } from './types.ts';
import { errorCode, isInside, realpathOfExistingAncestor } from './util.ts';

/** The collaboration documents an agent writes (spec §1). */
export const WRITABLE_DOCUMENTS = ['proposal.md', 'review.md', 'decisions.md', 'readiness.md', 'conclusion.md', 'README.md'] as const;
/** Documents only the runtime writes: readable, never writable (rewriting the log is what the protocol forbids). */
export const READ_ONLY_DOCUMENTS = ['protocol.json', 'events.jsonl'] as const;
/** Largest document a write accepts (characters). */
export const MAX_DOCUMENT_LENGTH = 1024 * 1024;

/** The references of the declared deliverables: the primary, then the supporting ones. */
export function declaredRefs(protocol: Json): string[] {
  const refs = [primaryRef(protocol), ...supportingEntries(protocol).map((entry) => (typeof entry.file === 'string' ? deliverableRef(protocol, entry.file) : undefined))];
  return refs.filter((ref): ref is string => ref !== undefined);
}

/**
 * Where `doc` lives, or a refusal. Writable: the collaboration documents and
 * the declared deliverables. Readable: those, protocol.json, events.jsonl and
 * any other file inside the folder. Symlinks that leave the folder (or, for
 * an external deliverable, its repo root; or the server's root) are refused.
 */
export async function documentTarget(host: Host, folder: string, protocol: Json, doc: string, mode: 'read' | 'write', scope: DocumentScope): Promise<DocumentTarget> {
  const refs = declaredRefs(protocol);
  const readOnly = (READ_ONLY_DOCUMENTS as readonly string[]).includes(doc);
  let target: DocumentTarget | undefined;
  if ((WRITABLE_DOCUMENTS as readonly string[]).includes(doc) || readOnly) {
    if (mode === 'write' && readOnly) throw new AcpError(`${doc} is written by the runtime only: append events (never rewrite the log)`);
    target = { path: nodePath.join(folder, doc), boundary: folder };
  } else if (refs.includes(doc)) {
    const path = resolveDeliverablePath(folder, protocol, doc);
    const external = doc.startsWith('external:') && typeof protocol.repoRoot === 'string';
    if (path) target = { path, boundary: external ? nodePath.resolve(folder, protocol.repoRoot as string) : folder, external };
  } else if (mode === 'read' && !nodePath.isAbsolute(doc) && !doc.split(/[\\/]/).includes('..') && !doc.includes('\0') && doc !== '') {
    target = { path: nodePath.join(folder, doc), boundary: folder };
  }
  if (!target) {
    const allowed = [...WRITABLE_DOCUMENTS, ...refs].join(', ');
    throw new AcpError(`${pyRepr(doc)} is not a document of this collaboration you may ${mode} (${mode === 'read' ? 'any file inside the folder, or ' : ''}${allowed})`);
  }
  await assertContained(host, target, doc, scope);
  return target;
}

async function assertContained(host: Host, target: DocumentTarget, doc: string, scope: DocumentScope): Promise<void> {
  const real = await realpathOfExistingAncestor(host, target.path);
  let boundary: string;
  try {
    boundary = await host.fs.realpath(target.boundary);
  } catch {
    boundary = target.boundary;
  }
  if (isInside(real, boundary) && isInside(real, scope.root)) return;
  const where = !isInside(real, scope.root) ? scope.rootName : target.external ? "the collaboration's repo root" : 'the collaboration folder';
  // "symlink refused" only where a link is what leads outside: the path itself lies inside, its real path does not.
  const lexicallyInside = isInside(target.path, target.boundary) && isInside(target.path, scope.root);
  throw new AcpError(`${pyRepr(doc)} resolves outside ${where}${lexicallyInside ? ' (symlink refused)' : ''}`);
}

/** Read a document: its text (UTF-8, universal newlines, as every reader of the folder decodes it) and the SHA-256 of its bytes. */
export async function readCollaborationDocument(host: Host, folder: string, doc: string, scope: DocumentScope): Promise<{ doc: string; content: string; sha256: string }> {
  const protocol = await readProtocol(host, folder);
  const target = await documentTarget(host, folder, protocol, doc, 'read', scope);
  const stat = await host.fs.stat(target.path);
  if (!stat) throw new AcpError(`${pyRepr(doc)} does not exist`, 2, 'not_found');
  if (!stat.isFile) throw new AcpError(`${pyRepr(doc)} is not a file`);
  let bytes: Uint8Array;
  try {
    bytes = await readCapped(host, target.path, READ_LIMITS.document, doc);
  } catch (error) {
    // Removed between the stat and the read.
    if (errorCode(error) === 'ENOENT') throw new AcpError(`${pyRepr(doc)} does not exist`, 2, 'not_found');
    throw error;
  }
  return { doc, content: decodeText(bytes, doc), sha256: await sha256Hex(bytes) };
}

/**
 * Check a write before taking the lock: the target (the boundary rule) and
 * the size. Returns the target the transaction's body writes.
 */
export async function documentWriteTarget(host: Host, folder: string, write: DocumentWrite, scope: DocumentScope): Promise<DocumentTarget> {
  if (write.content.length > MAX_DOCUMENT_LENGTH) throw new AcpError(`content: at most ${MAX_DOCUMENT_LENGTH} characters`);
  return documentTarget(host, folder, await readProtocol(host, folder), write.doc, 'write', scope);
}

/**
 * The body of a document write, under the folder lock (inside `transact`):
 * the target checked again (a directory may have been swapped for a symlink
 * since), the text appended to the file's decoded text or replacing it.
 */
export async function writeCollaborationDocument(host: Host, folder: string, tx: Transaction, write: DocumentWrite, scope: DocumentScope): Promise<{ doc: string; bytes: number; sha256: string }> {
  const target = await documentTarget(host, folder, await readProtocol(host, folder), write.doc, 'write', scope);
  const stat = await host.fs.stat(target.path);
  if (stat && !stat.isFile) throw new AcpError(`${pyRepr(write.doc)} is not a file`);
  const text = write.append && stat ? decodeText(await host.fs.readFile(target.path), write.doc) + write.content : write.content;
  await host.fs.mkdir(nodePath.dirname(target.path));
  await tx.write(target.path, text, { base: target.boundary });
  tx.session.done.push(`write ${write.doc} by ${write.writer}`);
  const bytes = new TextEncoder().encode(text);
  return { doc: write.doc, bytes: bytes.length, sha256: await sha256Hex(bytes) };
}
