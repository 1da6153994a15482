/**
 * What the MCP tools do, without the MCP SDK: resolving folders inside the
 * server's root, status, documents (read/write with the same boundary rules
 * as the core's deliverable checks), freezing, and the resource list. The SDK
 * glue in `server.ts` turns these into tools and resources.
 *
 * Imports only types from runtime/types.ts (the library arrives as {@link McpCore}) and
 * the shared helpers of runtime/util.ts.
 * @module
 */
import * as nodePath from 'node:path';
import type * as Acp from '../../runtime/types.ts';
import type { Json } from '../../runtime/util.ts';

/** The library as plugins receive it (`context.api`). */
export type McpCore = Acp.AcpApi;

/** Everything a tool needs: the library, file access, plugins, and the root folders must stay in. */
export interface McpEnv {
  core: McpCore;
  host: Acp.Host;
  registry: Acp.Registry;
  /** Absolute real path every collaboration folder (and external repo root) must lie in. */
  root: string;
  /** The store flags the server was started with (`acp mcp --git`): its writes and waits go through the store they choose. */
  storeFlags?: Readonly<Record<string, unknown>>;
}

/** The store that serves `folder` for this server (its flags, else the configuration, else the local folder). */
export function storeOf(env: McpEnv, folder: string): Promise<Acp.Store> {
  return env.core.openStore(env.host, folder, env.registry, env.storeFlags);
}

/**
 * The absolute folder for a tool's `folder` argument (relative to the root,
 * or absolute). Refuses a folder whose real path (symlinks followed) leaves
 * the root. The lexical path is returned, as the CLI resolves `--folder`, so
 * messages naming the folder read the same.
 */
export async function resolveFolder(env: McpEnv, folder: string): Promise<string> {
  const { AcpError, pyRepr } = env.core;
  if (folder.trim() === '') throw new AcpError('folder must not be blank');
  if (folder.includes('\0')) throw new AcpError('argument --folder: a path cannot contain a NUL character');
  const absolute = nodePath.resolve(env.root, folder);
  const real = await env.core.realpathOfExistingAncestor(env.host, absolute);
  // The root's absolute path is the server's business: a client names folders relative to it.
  if (!env.core.isInside(real, env.root)) throw new AcpError(`folder ${pyRepr(folder)} is outside the MCP server's root`);
  return absolute;
}

/**
 * Text for a client with the server's absolute root taken out: a path
 * under it becomes relative to it, the root itself `.`. For errors and the
 * results that name paths (init, validate), never for document content.
 */
export function withoutRoot(env: McpEnv, text: string): string {
  return env.core.withoutRoot(env.root, text);
}

/** Refuse an external repo root that leaves the server's root (init would create deliverables there). */
export async function checkRepoRoot(env: McpEnv, folder: string, repoRoot: string | undefined): Promise<void> {
  if (repoRoot === undefined || nodePath.isAbsolute(repoRoot.trim())) return; // init itself refuses an absolute one
  const real = await env.core.realpathOfExistingAncestor(env.host, nodePath.resolve(folder, repoRoot.trim()));
  if (!env.core.isInside(real, env.root)) throw new env.core.AcpError(`repo_root ${env.core.pyRepr(repoRoot)} is outside the MCP server's root`);
}

/** Where this server's documents must stay, and how its refusals name the root. */
function scopeOf(env: McpEnv): Acp.DocumentScope {
  return { root: env.root, rootName: "the MCP server's root" };
}

/** Read a document's text (the core's one reader: its boundary rule and decoding). */
export async function readDocument(env: McpEnv, folder: string, doc: string): Promise<{ doc: string; content: string }> {
  const { content } = await env.core.readCollaborationDocument(env.host, folder, doc, scopeOf(env));
  return { doc, content };
}

/**
 * Replace (or, with `append`, extend) a document, atomically and under the
 * folder lock, so an append never reads half a document (the core's one writer).
 */
export async function writeDocument(env: McpEnv, folder: string, doc: string, content: string, append = false, writer = 'acp mcp'): Promise<{ doc: string; bytes: number; sha256: string }> {
  const write = { doc, content, append, writer };
  const target = await env.core.documentWriteTarget(env.host, folder, write, scopeOf(env));
  // The one transaction: the folder's store publishes the document (git: committed and pushed).
  const intent = { participant: writer, kind: 'write' as const, documents: [target.path] };
  return env.core.transact(env.host, folder, intent, (tx) => env.core.writeCollaborationDocument(env.host, folder, tx, write, scopeOf(env)), env.registry, { store: await storeOf(env, folder) });
}

/** What the status tool reports. */
export interface StatusReport {
  phase: string;
  proposalOwner: string;
  waitingFor: string[];
  lastEvent?: { seq: unknown; event: unknown; from: unknown };
  /** For the participant asked about. */
  nextAction?: string;
  yourTurn?: boolean;
  primaryDeliverable?: { ref: string; status: string | null };
  completionGates: { source: unknown; text: string; checked: boolean }[];
  readiness: { blocking: string[]; unresolved: string[]; deferredWithoutReason: string[]; readyToImplement: boolean };
}

/** Phase, whose turn, the next action (for `participant`), gates and readiness facts. */
export async function status(env: McpEnv, folder: string, participant?: string): Promise<StatusReport> {
  const { core, host } = env;
  const protocol = await core.readProtocol(host, folder);
  let head: Pick<StatusReport, 'phase' | 'proposalOwner' | 'waitingFor' | 'lastEvent' | 'nextAction' | 'yourTurn'>;
  if (participant !== undefined) {
    const next = await core.nextAction(host, folder, participant, env.registry);
    head = { phase: next.phase, proposalOwner: next.proposalOwner, waitingFor: next.waitingFor, nextAction: next.action, yourTurn: next.waitingFor.includes(participant) };
    if (next.lastEvent) head.lastEvent = next.lastEvent;
  } else {
    const log = await core.readEventLog(host, folder);
    if (log.errors.length) throw new core.AcpError(log.errors);
    const last = log.events.at(-1);
    // The log's turn where protocol.json's cache is a stale copy of it (an append between its line and the rename).
    const turn = core.turnOf(protocol, log.events);
    head = { phase: core.pyStr(turn.phase), proposalOwner: core.pyStr(turn.proposalOwner), waitingFor: turn.waitingFor };
    if (last) head.lastEvent = { seq: last.seq, event: last.event, from: last.from };
  }
  const readinessText = await readTextOrEmpty(env, nodePath.join(folder, 'readiness.md'), 'readiness.md');
  const facts = core.readReadiness(readinessText);
  const gates = Array.isArray(protocol.completionGates) ? protocol.completionGates.filter(core.isObject) : [];
  const report: StatusReport = {
    ...head,
    completionGates: gates.map((gate) => ({ source: gate.source, text: core.pyStr(gate.text), checked: facts.isGateChecked(core.pyStr(gate.text)) })),
    readiness: { blocking: facts.blocking, unresolved: facts.unresolved, deferredWithoutReason: facts.deferredWithoutReason, readyToImplement: facts.readyToImplement },
  };
  const ref = core.primaryRef(protocol);
  if (ref) {
    const bytes = await core.readDeliverable(host, folder, protocol, ref);
    report.primaryDeliverable = { ref, status: bytes ? (core.markdown.status(core.decodeText(bytes, ref)) ?? null) : null };
  }
  return report;
}

async function readTextOrEmpty(env: McpEnv, path: string, name: string): Promise<string> {
  try {
    return env.core.decodeText(await env.host.fs.readFile(path), name);
  } catch (error) {
    if (env.core.errorCode(error) === 'ENOENT') return '';
    throw error;
  }
}

/** The status report as lines of text (the `next` lines first, as the CLI prints them). */
export function formatStatus(core: McpCore, report: StatusReport): string {
  const lines = [`phase: ${report.phase}`, `proposal owner: ${report.proposalOwner}`, `waiting for: ${report.waitingFor.length ? report.waitingFor.join(', ') : 'none'}`];
  if (report.lastEvent) lines.push(`last event: seq ${core.pyStr(report.lastEvent.seq)} ${core.pyStr(report.lastEvent.event)} from ${core.pyStr(report.lastEvent.from)}`);
  if (report.nextAction !== undefined) lines.push(`next action: ${report.nextAction}`, `your turn: ${report.yourTurn ? 'yes' : 'no'}`);
  if (report.primaryDeliverable) lines.push(`primary deliverable: ${report.primaryDeliverable.ref} (Status: ${report.primaryDeliverable.status ?? 'missing'})`);
  lines.push('completion gates (readiness.md):');
  for (const gate of report.completionGates) lines.push(`- [${gate.checked ? 'x' : ' '}] ${gate.text}`);
  const r = report.readiness;
  lines.push(
    `readiness: ${r.blocking.length} blocking, ${r.unresolved.length} unresolved, ${r.deferredWithoutReason.length} deferred without reason; Ready to implement ${r.readyToImplement ? 'checked' : 'unchecked'}`,
  );
  return lines.join('\n');
}

/** One readable resource: a document of a collaboration under the root. */
export interface DocumentResource {
  uri: string;
  name: string;
  mimeType: string;
}

/** URI prefix of the resources: `acp://collab/{folder relative to the root}/{doc}`. */
export const RESOURCE_PREFIX = 'acp://collab/';

/** Collaboration folders under the root: the core's one walk, with the limits the dashboard lists them with. */
export async function findCollaborations(env: McpEnv): Promise<string[]> {
  return (await env.core.findCollaborations(env.host, env.root)).folders;
}

/** The existing documents of one collaboration, as resources. */
export async function collaborationResources(env: McpEnv, folder: string): Promise<DocumentResource[]> {
  const protocol = await env.core.readProtocol(env.host, folder).catch(() => undefined);
  if (!protocol) return [];
  const relative = nodePath.relative(env.root, folder).split(nodePath.sep).join('/');
  const resources: DocumentResource[] = [];
  const { core } = env;
  for (const doc of [...core.READ_ONLY_DOCUMENTS, ...core.WRITABLE_DOCUMENTS, ...core.declaredRefs(protocol)]) {
    const target = await core.documentTarget(env.host, folder, protocol, doc, 'read', scopeOf(env)).catch(() => undefined);
    if (!target || !(await env.host.fs.stat(target.path))?.isFile) continue;
    const path = relative ? `${relative}/${doc}` : doc;
    const mimeType = doc.endsWith('.json') ? 'application/json' : doc.endsWith('.jsonl') ? 'application/jsonl' : 'text/markdown';
    resources.push({ uri: RESOURCE_PREFIX + path.split('/').map(encodeURIComponent).join('/'), name: path, mimeType });
  }
  return resources;
}

/**
 * The folder and document a resource URI names: the nearest ancestor of the
 * path that holds protocol.json is the folder, the rest is the document.
 */
export async function resolveResource(env: McpEnv, uri: string): Promise<{ folder: string; doc: string }> {
  const { AcpError } = env.core;
  if (!uri.startsWith(RESOURCE_PREFIX)) throw new AcpError(`unknown resource ${uri}`);
  const path = uri.slice(RESOURCE_PREFIX.length).split('/').map(decodeURIComponent).join('/');
  const segments = path.split('/');
  for (let cut = segments.length - 1; cut >= 0; cut--) {
    const folder = await resolveFolder(env, segments.slice(0, cut).join('/') || '.');
    if (await env.host.fs.stat(nodePath.join(folder, 'protocol.json'))) return { folder, doc: segments.slice(cut).join('/') };
  }
  throw new AcpError(`resource ${uri} is not inside a collaboration folder`);
}
