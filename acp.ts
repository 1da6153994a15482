/**
 * acp — a runtime for the Agent Collaboration Protocol (ACP schema v2).
 *
 * This file is the public entry and the part of the core that every other
 * part needs: the registry of plugins and commands, the one transaction
 * (append, stores, strict mode's refusal), the library object that plugins
 * receive (`libraryApi()`), and the CLI's entry (`runCli`, `runCommand`,
 * `main`). The rest of the core lives beside it in runtime/, one module per
 * part, re-exported below in reading order: the types and constants, the event log, the
 * state machine, the folder's declaration, the hook points, the stores,
 * validation, init, next and wait, the CLI edge's helpers. Those modules
 * never import this file (test/architecture.test.ts walks the imports), so
 * whatever needs the library object, the registry's defaults or the
 * transaction stays here. Everything that touches the host (files, clock,
 * process) goes through the {@link Host} capability object, so the same
 * core runs on Node, Bun and Deno, and in-process inside a sandboxed agent
 * with an in-memory file system. Importing it has no side effects. The
 * folder format and every message are fixed by `spec/protocol.md`: other
 * tools (a Python tool set) work in the same folders at the same time.
 *
 * Contents, in reading order:
 *   1. Re-exports: the public types and the core's modules in runtime/
 *   2. Plugins and the registry (commands are data)
 *   3. Append (spec §6) and the one transaction
 *   4. The library facade (libraryApi, openCollaboration)
 *   5. The CLI entry (runCli, runCommand; the process itself is runtime/process.ts)
 * docs/architecture.md has the module map and the import graph.
 *
 * @module
 */
import * as nodePath from 'node:path';
import { argvSpecOf, checkOptionValues, commandWord, formatHelp, parseArgv, parseGlobalOptions, parsePyFloat, parsePyInt, pluginOptionConflict } from './runtime/argv.ts';
import { addSeq, CHECKPOINT_NAME, checkpointState, fingerprintOf, hasSeq, loadCheckpoint, logFacts, type LogFacts, type LogFingerprint, saveCheckpoint, stripErrors, validationChain } from './runtime/checkpoint.ts';
import { checkAnswers, describeError, expandUser, folderOption, jsonWithOutcome, reportError, runCommandChain } from './runtime/cli.ts';
import { DEFAULT_WAIT_INTERVAL_SECONDS, DEFAULT_WAIT_TIMEOUT_SECONDS, FORBIDDEN_FILES, REQUIRED_FILES, VERSION } from './runtime/constants.ts';
import { defineCommand, defineDeliverableType, definePlugin } from './runtime/define.ts';
import { CONCLUSION_SECTIONS, conclusionErrors, decisionGateErrors, markdown, type ReadinessFacts, readinessGateErrors, readReadiness } from './runtime/documents.ts';
import { AcpAbortError, AcpAppendedError, AcpError, AcpPluginError, AcpTimeoutError, UsageError } from './runtime/errors.ts';
import { formatEventLine, highestSeq, jsonErrorDetail, nextSeq, parseEventLog, readEventLog, refuseUnencodable, scanEventLog } from './runtime/event-log.ts';
import { checkedRequest, doorName, doorSchema, optionsFromDoor, serverOptions } from './runtime/doors.ts';
import { confineHost, inspectFolderLock, inspectLockLine, LOCK_BREAKER, LOCK_NAME, READ_LIMITS, readCapped, readFirstEvent, withFolderLock, writeFileAtomic } from './runtime/files.ts';
import { checkedDocumentPath, findCollaborations, defaultGates, defaultTemplate, deliverableBoundary, deliverableRef, documentFiles, isUnsafePath, participantIds, primaryRef, readDeliverable, readProtocol, readReadinessFile, readTextIfExists, resolveDeliverablePath, symlinkRefusal } from './runtime/folder.ts';
import { AcpRefusal, HOOK_NAMES, HookRunner } from './runtime/hooks.ts';
import type { Host } from './runtime/host.ts';
import { init, refuseUnknownType, signingKey } from './runtime/init.ts';
import { lineHash } from './runtime/keyring.ts';
import { createMemoryFileSystem, createMemoryHost } from './runtime/memory-host.ts';
import { followFolder, formatNext, nextAction, waitForTurn } from './runtime/next.ts';
import { createNodeHost, resolveHost } from './runtime/node-host.ts';
import { declaredRefs, documentTarget, documentWriteTarget, READ_ONLY_DOCUMENTS, readCollaborationDocument, WRITABLE_DOCUMENTS, writeCollaborationDocument } from './runtime/document-access.ts';
import { guardHost, writerHost } from './runtime/guarded-host.ts';
import type { LogScan, VerifiedLog } from './runtime/signed-append.ts';
import { dumpsPy, loadsPy } from './runtime/pyjson.ts';
import { comparePy, decodeText, formatProtocolJson, formatTimestamp, parseZonedTimestamp, purePosixPath, pyRepr, pySplitLines, pyStr, pyStrip, reviewHeadings, sha256Hex, sortedPy, zonedInstant } from './runtime/pytext.ts';
import { applyEvent, DELIVERABLE_EVENTS, emptyState, refusalCodeOf, replay, stateKeys } from './runtime/state-machine.ts';
import { TURN_HISTORY, TurnTracker, cacheEquals, decideTurn, folderTurn, readCachedTurn, staleNote, turnOf, withCachedTurn } from './runtime/turn.ts';
import { localStore, openStore } from './runtime/store.ts';
import { type PendingFiles, pendingHost, strictSetting } from './runtime/strict.ts';
import { APPEND_OPTIONS, INIT_OPTIONS, type AcpApi, type AcpEvent, type AcpHooks, type AcpPlugin, type AfterAppendContext, type AppendOptions, type AppendRequest, type AppendResult, type CliIo, type Collaboration, type CommandContext, type CommandOptionSpec, type CommandResult, type CommandSpec, type DeliverableType, type DerivedState, EVENT_NAMES, type EventLog, type HookOrder, type OpenOptions, type OptionValues, type Origin, PHASES, type PluginContext, type RegistryOptions, type RunCommandOptions, type RuntimeFacts, type StoreProvider, type StoreSession, type Transaction, type WriteIntent } from './runtime/types.ts';
import type { Registry as RegistryShape } from './runtime/types.ts';
import { errorCode, fsError, isInside, isInt, isObject, isPyIntLike, type Json, pySeqKey, realpathOfExistingAncestor, sameList, sleep, jsonWithoutRoot, withoutRoot } from './runtime/util.ts';
import { completionGateTexts, deliverableDocErrors, freezeErrors, validate, validateOutcome, validateRead, verifySignatures } from './runtime/validate.ts';
import { readingHost } from './runtime/folder-read.ts';
import { appendSeed, type CheckpointCommit, type LogVouch } from './runtime/validate-checkpoint.ts';

// The public types (one dependency-free module) and the protocol's constants
export { DEFAULT_WAIT_INTERVAL_SECONDS, DEFAULT_WAIT_TIMEOUT_SECONDS, FORBIDDEN_FILES, REQUIRED_FILES, VERSION } from './runtime/constants.ts';
export { EVENT_NAMES, PHASES, INIT_OPTIONS, APPEND_OPTIONS, type EventName, type Phase, type AcpEvent, type EventLog, type DerivedState, type RefusalCode, type Turn, type TurnState, type TurnSnapshot, type CachedTurn, type CacheAgreement, type ParticipantEntry, type CompletionGate, type DeliverableDeclaration, type DeliverablesDeclaration, type ProtocolDocument, type DeliverableCheckContext, type Findings, type DeliverableType, type InitFilesContext, type DocumentFiles, type BeforeAppendContext, type AfterAppendContext, type ValidateHookContext, type NextHookContext, type AcpHooks, type HookOrder, type CommandOptionSpec, type OptionDoors, type Door, type ServerDecisions, type JsonSchemaProperty, type JsonObjectSchema, type CamelCase, type RequestOf, type CommandSpec, type CommandDoors, type OptionValue, type OptionValuesOf, type CommandOutcome, type CommandResult, type OptionValues, type CommandContext, type AcpPlugin, type PluginContext, type RuntimeFacts, type Origin, type PluginEntry, type RegistryOptions, type AppendRequest, type AppendResult, type AppendOptions, type WriteIntent, type StoreSession, type Store, type FollowOptions, type StoreProvider, type StoreContext, type Transaction, type TransactionWriteOptions, type ValidateOptions, type ValidationResult, type FileRead, type FolderRead, type SignatureReport, type InitRequest, type InitResult, type CollaborationSearch, type CollaborationList, type DocumentScope, type DocumentTarget, type DocumentWrite, type NextResult, type WaitOptions, type WaitResult, type FolderFollower, type OpenOptions, type Collaboration, type CliIo, type RunCommandOptions, type AcpApi } from './runtime/types.ts';

// The event log (spec §4)
export { formatEventLine, jsonErrorDetail, nextSeq, parseEventLog, readEventLog, scanEventLog } from './runtime/event-log.ts';

// The derived state machine (spec §5) and whose turn it is
export { applyEvent, emptyState, refusalCodeOf, replay } from './runtime/state-machine.ts';
export { TURN_HISTORY, TurnTracker, cacheEquals, decideTurn, folderTurn, readCachedTurn, staleNote, turnOf, withCachedTurn } from './runtime/turn.ts';

// The folder's declaration: protocol.json, deliverables, their types
export { callType, checkedDocumentPath, findCollaborations, defaultGates, defaultTemplate, deliverableBoundary, deliverableRef, documentFiles, isUnsafePath, participantIds, primaryRef, readDeliverable, readProtocol, resolveDeliverablePath, symlinkRefusal } from './runtime/folder.ts';
export { CONCLUSION_SECTIONS, conclusionErrors, decisionGateErrors, markdown, readReadiness, type MarkdownHelpers, type ReadinessFacts } from './runtime/documents.ts';

// The hook points
export { DEFAULT_HOOK_TIMEOUT_MS, HOOK_NAMES, HookRunner } from './runtime/hooks.ts';

// Stores and strict mode (the transaction itself is below)
export { localStore, openStore } from './runtime/store.ts';
export { strictSetting } from './runtime/strict.ts';
export { LOCK_BREAKER, LOCK_NAME, READ_LIMITS, confineHost, inspectFolderLock, inspectLockLine, readCapped, withFolderLock, writeFileAtomic, type FolderLock, type FolderLockOptions, type FolderLockState, type LockTicket, type WriteAtomicOptions } from './runtime/files.ts';
export { CHECKPOINT_NAME } from './runtime/checkpoint.ts';

// Validation (spec §8), init (spec §9), next action and waiting (spec §10)
export { validate, validateRead, verifySignatures } from './runtime/validate.ts';
export { readingHost } from './runtime/folder-read.ts';
export { init, planInit, refuseUnknownType, signingKey } from './runtime/init.ts';
export { followFolder, formatNext, nextAction, waitForTurn } from './runtime/next.ts';

// Plugins, commands and the CLI edge
export { defineCommand, defineDeliverableType, definePlugin } from './runtime/define.ts';
export { parseArgv, parsePyFloat, parsePyInt, type ParsedArgv } from './runtime/argv.ts';
export { doorName, doorSchema, optionsFromDoor, serverOptions } from './runtime/doors.ts';
export { describeError, expandUser } from './runtime/cli.ts';
export { AcpAbortError, AcpAppendedError, AcpError, AcpPluginError, AcpTimeoutError, UsageError } from './runtime/errors.ts';

// Hosts and Python semantics
export type { FileReader, FileStat, FileSystem, Host, ProcessIdentity } from './runtime/host.ts';
export { createMemoryFileSystem, createMemoryHost, type MemoryFileSystem, type MemoryHostOptions } from './runtime/memory-host.ts';
export { createNodeHost, type NodeHostOptions } from './runtime/node-host.ts';
export { declaredRefs, documentTarget, documentWriteTarget, MAX_DOCUMENT_LENGTH, READ_ONLY_DOCUMENTS, readCollaborationDocument, WRITABLE_DOCUMENTS, writeCollaborationDocument } from './runtime/document-access.ts';
export { dumpsPy, isPyFloat, loadsPy, PyFloat, PyInt, PyJsonError, pyFloatRepr, pyKeys, type DumpOptions } from './runtime/pyjson.ts';
export { compareInstants, comparePy, decodeText, formatProtocolJson, formatTimestamp, parseZonedTimestamp, purePosixPath, pyFromIsoFormat, pyRepr, pySplitLines, pyStr, pyStrip, reviewHeadings, type ReviewHeading, sha256Hex, sortedPy, zonedInstant } from './runtime/pytext.ts';
export type { PyDateTime, PyInstant } from './runtime/pytext.ts';
export { errorCode, fsError, isInside, isObject, realpathOfExistingAncestor, sameList, sleep, withoutRoot, jsonWithoutRoot } from './runtime/util.ts';

// ---------------------------------------------------------------------------
// Plugins and the registry (commands are data: the CLI edge, `--help` and
// plugins share one description)
// ---------------------------------------------------------------------------

const TYPE_NAME_RE = /^[a-z0-9][a-z0-9._-]*$/;
const OPTION_TYPES: readonly unknown[] = ['string', 'boolean', 'int', 'seconds'] satisfies CommandOptionSpec['type'][];

/** Deliverable types and plugins known to a runtime instance. */
export class Registry {
  readonly types = new Map<string, { definition: DeliverableType; origin: Origin }>();
  readonly plugins: { plugin: AcpPlugin; origin: Origin }[] = [];
  readonly hooks: RegistryShape['hooks'] = new HookRunner();
  /** The plugins' stores, in load order (see {@link openStore}). */
  readonly stores: StoreProvider[] = [];
  /**
   * Commands by name. `chain` is the command followed by the plugins'
   * `extend` wrappers, innermost first (the CLI runs the last one).
   */
  readonly commands = new Map<string, { spec: CommandSpec; origin: Origin; chain: CommandSpec[]; owners: string[] }>();
  /**
   * The configuration file the loader read (none with `--no-config`): its
   * path and its top-level sections other than `plugins:` (e.g. `git:`),
   * for the plugins that own them.
   */
  config?: { file: string; sections: Record<string, unknown> };

  /** Register a deliverable type. A name can be registered once (built-in names are reserved). */
  addType(definition: DeliverableType, origin: Origin): void {
    checkType(this, definition, origin);
    this.types.set(definition.type, { definition, origin });
  }

  /** Look a type up. */
  type(name: string): DeliverableType | undefined {
    return this.types.get(name)?.definition;
  }

  /** Register a plugin (its setup, then its types and hooks). Nothing is registered if it fails. */
  async addPlugin(plugin: AcpPlugin, origin: Origin, context?: PluginContext): Promise<void> {
    if (!plugin || typeof plugin !== 'object' || typeof plugin.name !== 'string' || !pyStrip(plugin.name)) {
      throw new AcpError(`plugin from ${origin.source} must have a name`);
    }
    const where = `plugin '${plugin.name}' (${origin.source})`;
    const twin = this.plugins.find((p) => p.plugin.name === plugin.name);
    if (twin) throw new AcpError(`${where} is loaded twice (first from ${twin.origin.source})`);
    if (plugin.enforce !== undefined && plugin.enforce !== 'pre' && plugin.enforce !== 'post') throw new AcpError(`${where}: enforce must be 'pre' or 'post'`);
    if (plugin.timeoutMs !== undefined && !(typeof plugin.timeoutMs === 'number' && plugin.timeoutMs > 0 && plugin.timeoutMs <= 2 ** 31 - 1)) {
      throw new AcpError(`${where}: timeoutMs must be a positive number of milliseconds`);
    }
    const hooks = Object.entries(plugin.hooks ?? {});
    for (const [name, fn] of hooks) {
      if (!(HOOK_NAMES as readonly string[]).includes(name)) throw new AcpError(`${where} has an unknown hook '${name}' (known: ${HOOK_NAMES.join(', ')})`);
      if (typeof fn !== 'function') throw new AcpError(`${where}: hook '${name}' must be a function`);
    }
    const types = plugin.deliverableTypes ?? [];
    if (!Array.isArray(types)) throw new AcpError(`${where}: deliverableTypes must be an array`);
    const commands = plugin.commands ?? [];
    if (!Array.isArray(commands)) throw new AcpError(`${where}: commands must be an array`);
    for (const command of commands) checkCommand(this, command, where);
    const stores = plugin.stores ?? [];
    if (!Array.isArray(stores) || !stores.every(isStoreProvider)) throw new AcpError(`${where}: stores must be an array of { name, open(context), flag? }`);
    const conflict = origin.kind === 'built-in' ? undefined : pluginOptionConflict(this, plugin);
    if (conflict) throw new AcpError(`${where}: ${conflict}`);
    if (plugin.optionsSchema !== undefined && context) await checkPluginOptions(plugin, context, where);
    const typeOrigin: Origin = { ...origin, plugin: plugin.name };
    types.forEach((type, index) => {
      checkType(this, type, typeOrigin);
      if (types.findIndex((t) => t.type === type.type) !== index) throw new AcpError(`${where} defines deliverable type '${type.type}' twice`);
    });
    try {
      await plugin.setup?.(context ?? pluginContext({}, undefined, { source: origin.source }));
    } catch (error) {
      throw new AcpPluginError(plugin.name, 'setup', error);
    }
    this.plugins.push({ plugin, origin: typeOrigin });
    for (const type of types) this.types.set(type.type, { definition: type, origin: typeOrigin });
    const order: HookOrder = plugin.enforce ?? 'normal';
    for (const [name, fn] of hooks) this.hooks.hook(name as keyof AcpHooks, fn as never, { order, owner: plugin.name, timeoutMs: plugin.timeoutMs });
    for (const command of commands) addCommand(this, command, typeOrigin);
    for (const store of stores) addStore(this, store);
  }

  /** Run every plugin's cleanup in reverse order; all run even if some throw. */
  async cleanup(): Promise<void> {
    const failures: string[] = [];
    const plugins = this.plugins.splice(0).reverse();
    for (const { plugin } of plugins) {
      try {
        await plugin.cleanup?.();
      } catch (error) {
        failures.push(new AcpPluginError(plugin.name, 'cleanup', error).message);
      }
    }
    if (failures.length) throw new AcpError(failures);
  }
}

function checkType(registry: Registry, definition: DeliverableType, origin: Origin): void {
  const who = origin.plugin ? `plugin '${origin.plugin}'` : origin.source;
  if (!definition || typeof definition !== 'object' || typeof definition.type !== 'string' || typeof definition.sections !== 'function') {
    throw new AcpError(`${who}: a deliverable type needs a \`type\` name and a \`sections()\` function`);
  }
  if (!TYPE_NAME_RE.test(definition.type)) throw new AcpError(`${who}: deliverable type name '${definition.type}' must match ${TYPE_NAME_RE.source}`);
  if (typeof definition.title !== 'string' || !pyStrip(definition.title)) throw new AcpError(`${who}: deliverable type '${definition.type}' needs a title`);
  const existing = registry.types.get(definition.type);
  if (existing) {
    const other = existing.origin.kind === 'built-in' ? 'built in' : `already defined by plugin '${existing.origin.plugin}' (${existing.origin.source})`;
    throw new AcpError(`${who}: deliverable type '${definition.type}' is ${other}`);
  }
}

/** A store's flag becomes an option of every command that writes or waits through the store. */
function addStore(registry: Registry, provider: StoreProvider): void {
  registry.stores.push(provider);
  if (!provider.flag) return;
  for (const [name, entry] of registry.commands) {
    if (entry.spec.store) registry.commands.set(name, { ...entry, spec: withStoreFlags(entry.spec, [provider]) });
  }
}

function checkCommand(registry: Registry, command: CommandSpec, where: string): void {
  if (!command || typeof command !== 'object' || typeof command.name !== 'string' || typeof command.run !== 'function') {
    throw new AcpError(`${where}: a command needs a \`name\` and a \`run(context)\` function`);
  }
  if (!/^[a-z][a-z0-9-]*$/.test(command.name)) throw new AcpError(`${where}: command name '${command.name}' must match ^[a-z][a-z0-9-]*$`);
  const existing = registry.commands.get(command.name);
  if (existing && !command.extend) throw new AcpError(`${where}: command '${command.name}' is already defined by ${existing.origin.plugin ? `plugin '${existing.origin.plugin}'` : existing.origin.source}`);
  if (!existing && command.extend) throw new AcpError(`${where}: extends command '${command.name}', which no plugin defines`);
  for (const [name, option] of Object.entries(command.options ?? {})) {
    if (!OPTION_TYPES.includes(option?.type)) throw new AcpError(`${where}: option --${name} of command '${command.name}' needs type ${OPTION_TYPES.map((t) => `'${t}'`).join(', ')}`);
  }
}

function addCommand(registry: Registry, command: CommandSpec, origin: Origin): void {
  const existing = registry.commands.get(command.name);
  if (!existing) {
    registry.commands.set(command.name, { spec: command.store ? withStoreFlags(command, registry.stores) : command, origin, chain: [command], owners: [origin.plugin ?? origin.source] });
    return;
  }
  // An extension adds its options to the command it wraps.
  const spec: CommandSpec = { ...existing.spec, options: { ...existing.spec.options, ...command.options } };
  registry.commands.set(command.name, { spec, origin: existing.origin, chain: [...existing.chain, command], owners: [...existing.owners, origin.plugin ?? origin.source] });
}

function isStoreProvider(value: unknown): value is StoreProvider {
  if (!isObject(value) || typeof value.name !== 'string' || typeof value.open !== 'function') return false;
  const flag = value.flag;
  return flag === undefined || (isObject(flag) && typeof flag.name === 'string' && /^[a-z][a-z0-9-]*$/.test(flag.name) && typeof flag.description === 'string');
}

/** A command that writes or waits through the store, with each store's flag as a boolean option. */
function withStoreFlags(spec: CommandSpec, providers: readonly StoreProvider[]): CommandSpec {
  // The CLI's only: a server's store is the one it was started with, whatever a call asks (doors: false).
  const flags = Object.fromEntries(providers.filter((p) => p.flag).map((p) => [p.flag!.name, { type: 'boolean', description: p.flag!.description, doors: false } as const]));
  return { ...spec, options: { ...spec.options, ...flags } };
}

/** Check a plugin's options against its declared valibot schema. */
async function checkPluginOptions(plugin: AcpPlugin, context: PluginContext, where: string): Promise<void> {
  const v = context.valibot ?? (await import('valibot'));
  const result = v.safeParse(plugin.optionsSchema as Parameters<typeof v.safeParse>[0], context.options);
  if (result.success) return;
  const issue = result.issues[0];
  const key = issue.path?.map((p: { key: unknown }) => String(p.key)).join('.') ?? '';
  throw new AcpError(`${where}: option ${key ? `'${key}'` : '(top level)'}: ${issue.message}`, 2, 'plugin_failed');
}

/** Build the context handed to a plugin module. */
export function pluginContext(
  options: Record<string, unknown>,
  runtime: RuntimeFacts = { name: 'unknown' },
  extra: { source?: string; warn?(message: string): void; valibot?: typeof import('valibot') } = {},
): PluginContext {
  const warn = extra.warn ?? (() => undefined);
  return { api: libraryApi(), definePlugin, defineCommand, defineDeliverableType, markdown, defaultTemplate, defaultGates, options, runtime, source: extra.source ?? 'inline', warn, valibot: extra.valibot };
}

/**
 * Load the built-in deliverable types. They are ordinary modules in
 * `deliverable-types/`, imported at run time (and embedded in bundles).
 */
export async function loadBuiltInTypes(registry: Registry): Promise<void> {
  const { builtInDeliverableTypes } = await import('./deliverable-types/index.ts');
  for (const definition of builtInDeliverableTypes) registry.addType(definition, { kind: 'built-in', source: `deliverable-types/${definition.type}.ts` });
}

/**
 * Plugins shipped in `plugins/`, loadable as `acp:{name}` (`--plugin acp:rfc`).
 * Literal imports, so bundles and the compiled binary embed them.
 */
const BUNDLED_PLUGINS: Record<string, () => Promise<unknown>> = {
  rfc: () => import('./plugins/rfc.ts'),
  'notify-turn': () => import('./plugins/notify-turn.ts'),
};

/**
 * Plugins every CLI run loads: the commands beyond the protocol's own. Each
 * module only describes its commands; their code loads when one runs.
 */
const BUILT_IN_PLUGINS: Record<string, () => Promise<{ default: unknown }>> = {
  protocol: () => import('./plugins/protocol.ts'),
  doctor: () => import('./plugins/doctor.ts'),
  rpc: () => import('./plugins/rpc.ts'),
  git: () => import('./plugins/git.ts'),
  mcp: () => import('./plugins/mcp.ts'),
  humans: () => import('./plugins/humans.ts'),
};

/**
 * A registry with the built-in deliverable types and, when asked, plugins.
 * If loading fails, the plugins already loaded are cleaned up; otherwise call
 * `registry.cleanup()` when done with it.
 */
export async function createRegistry(options: RegistryOptions = {}): Promise<Registry> {
  const registry = new Registry();
  await loadBuiltInTypes(registry);
  try {
    if (options.builtIns) await loadBuiltInPlugins(registry, options);
    await loadUserPlugins(registry, options);
  } catch (error) {
    await registry.cleanup().catch(() => undefined);
    throw error;
  }
  return registry;
}

/** Load the config file's plugins (with `options.config`) and `options.plugins` into `registry`. */
async function loadUserPlugins(registry: Registry, options: RegistryOptions): Promise<void> {
  if (!options.plugins?.length && !options.config) return;
  const { loadPlugins } = await import('./runtime/loader.ts');
  const host = options.host ?? (await createNodeHost());
  await loadPlugins(registry, { ...options, host }, libraryApi(), BUNDLED_PLUGINS);
}

/** Register the protocol's commands and the built-in plugins (see {@link BUILT_IN_PLUGINS}). */
async function loadBuiltInPlugins(registry: Registry, options: RegistryOptions): Promise<void> {
  for (const [name, load] of Object.entries(BUILT_IN_PLUGINS)) {
    const context = pluginContext({}, options.runtime, { source: `acp:${name}`, warn: options.warn });
    const exported = (await load()).default;
    const plugin = (typeof exported === 'function' ? await exported(context) : exported) as AcpPlugin;
    await registry.addPlugin(plugin, { kind: 'built-in', source: `plugins/${name}.ts` }, context);
  }
}

// ---------------------------------------------------------------------------
// Append (spec §6)
// ---------------------------------------------------------------------------

function readinessAppendErrors(readiness: ReadinessFacts, eventName: string): string[] {
  return readinessGateErrors(readiness, 'first', eventName !== 'decision_accepted');
}

// ---------------------------------------------------------------------------
// The one transaction: every door and every store ([beyond])
// ---------------------------------------------------------------------------

/**
 * The one write transaction. `body` runs inside the folder's store (under
 * the lock; for git, fetched first and pushed after, retried when another
 * clone pushed first); the events it appended get their `append:after` and
 * `phase:change` hooks once, after the store published them, with the seqs
 * that landed. Every door writes through here: `append`, `freeze`, a
 * server's document write.
 */
export async function transact<T>(guarded: Host, folder: string, intent: WriteIntent, body: (tx: Transaction) => Promise<T>, registry?: Registry, options: AppendOptions = {}): Promise<T> {
  // The one holder of the write capability: the body's own host stays guarded (runtime/guarded-host.ts).
  const host = writerHost(guarded);
  const store = options.store ?? (await openStore(host, folder, registry));
  let appended: AppendResult[] = [];
  let attempt = 1;
  const value = await store.transact(
    folder,
    intent,
    (session) => {
      // A run that is retried starts over: only the last run's events landed.
      appended = [];
      attempt = session.attempt;
      return body({
        session,
        append: async (given) => {
          // A body's request meets the check every door's does (`replyTo: '3'` is 3; `role: 'x'` is refused in argparse's words).
          const request = checkedRequest(APPEND_OPTIONS, given, { folder });
          const result = await appendUnderLock(host, folder, request, registry, session, options.strict ?? strictSetting(registry, false));
          appended.push(result);
          return result;
        },
        write: async (path, text, writeOptions = {}) => {
          const { base = folder, ...atomic } = writeOptions;
          if (path === base || !isInside(path, base)) throw new AcpError(`${path} is not inside ${base}: not written`);
          try {
            await writeFileAtomic(confineHost(host, [base]), path, text, atomic);
          } catch (error) {
            throw symlinkRefusal(error) ?? error;
          }
          session.written.add(path);
        },
        remove: async (path) => {
          if (path === folder || !isInside(path, folder)) throw new AcpError(`${path} is not inside ${folder}: not removed`);
          await confineHost(host, [folder]).fs.remove(path);
        },
      });
    },
    options,
  );
  for (const result of appended) result.store = { name: store.name, attempts: attempt };
  await afterAppend(host, folder, appended, registry);
  return value;
}

/**
 * Append an event (spec §6) through the folder's store. Raises
 * {@link AcpError} with the spec's message when a check fails; nothing is
 * written then.
 */
export async function append(host: Host, folder: string, given: AppendRequest, registry?: Registry, options: AppendOptions = {}): Promise<AppendResult> {
  // Checked as every door checks append's arguments (runtime/doors.ts), before any lock is waited for.
  const request = checkedRequest(APPEND_OPTIONS, given, { folder });
  const protocol = await readProtocol(host, folder);
  checkNames(protocol, request);
  const intent: WriteIntent = { participant: request.participant, kind: 'append', documents: eventDocuments(folder, protocol, request) };
  return transact(host, folder, intent, (tx) => tx.append(request), registry, options);
}

/** The event's name and participant, checked before waiting for any lock. */
function checkNames(protocol: Json, request: AppendRequest): string[] {
  if (!(EVENT_NAMES as readonly string[]).includes(request.event)) throw new AcpError(`unknown event '${request.event}'`, 2, 'unknown_event');
  const participants = participantIds(protocol);
  if (!participants.includes(request.participant)) throw new AcpError(`participant ${pyRepr(request.participant)} is not listed in protocol.json`, 2, 'unknown_participant');
  return participants;
}

/** Documents an event speaks for besides its `doc`: what a participant edits before appending it. */
const EVENT_DOCUMENTS: Record<string, string[]> = {
  proposal_submitted: ['proposal.md'],
  proposal_revised: ['proposal.md', 'decisions.md'],
  review_submitted: ['review.md'],
  decision_proposed: ['decisions.md'],
  question_classified: ['decisions.md', 'readiness.md'],
  decision_accepted: ['decisions.md', 'readiness.md'],
  readiness_passed: ['readiness.md'],
  completed: ['conclusion.md', 'readiness.md'],
  blocked: ['conclusion.md'],
};

/** Absolute paths of the documents an event speaks for (its `doc`, resolved as a deliverable where it is one). */
export function eventDocuments(folder: string, protocol: Json, request: Pick<AppendRequest, 'event' | 'doc'>): string[] {
  const paths = new Set((EVENT_DOCUMENTS[request.event] ?? []).map((ref) => nodePath.join(folder, ref)));
  if (request.doc !== undefined && request.doc !== '' && !isUnsafePath(request.doc)) paths.add(resolveDeliverablePath(folder, protocol, request.doc) ?? nodePath.join(folder, request.doc));
  return [...paths];
}

/** The reactions to appended events, once they are published; failures are reported with the event marked as appended. */
async function afterAppend(host: Host, folder: string, appended: AppendResult[], registry?: Registry): Promise<void> {
  if (!appended.length || !(registry?.hooks.has('append:after') || registry?.hooks.has('phase:change'))) return;
  const protocol = await readProtocol(host, folder);
  for (const result of appended) {
    const context: AfterAppendContext = { folder, files: documentFiles(host, folder, protocol), protocol, ...result };
    const failures: AcpError[] = [];
    await registry.hooks.call('append:after', context, failures);
    if (result.previousPhase !== result.state.phase) await registry.hooks.call('phase:change', context, failures);
    if (failures.length) {
      // The event is written: a caller must not append it again.
      const note = `seq ${result.event.seq} ${result.event.event} was appended and stays in the log; do not append it again`;
      throw new AcpAppendedError([...failures.map((f) => f.message), note], result);
    }
  }
}

/** What an append knows of the log: from the checkpoint when it provably describes it, else from a full read. */
interface LogView {
  checkpoint?: Awaited<ReturnType<typeof loadCheckpoint>>;
  log?: EventLog;
  events: Json[];
  count: number;
  seqExists(seq: number): boolean;
  nextSeq: number;
  /** The highest seq in the log (`nextSeq - 1` is not exact past 2^53). */
  maxSeq: number;
  /** The last event's `at` (a new event is never earlier). */
  lastAt: unknown;
}

async function viewLog(host: Host, folder: string, participants: string[], protocol: Json): Promise<LogView> {
  // The checkpoint stands in for reading and replaying the log when it
  // provably describes it (the append's own, else the validation's, seeding
  // it); the verdicts are those of a full replay.
  const checkpoint = (await loadCheckpoint(host, folder, participants, stateKeys())) ?? (await appendSeed(host, folder, participants, stateKeys(), (state) => cacheEquals(protocol, state)));
  const log = checkpoint ? undefined : await readEventLog(host, folder);
  if (log?.errors.length) throw new AcpError(log.errors, 2, 'invalid_log');
  const events = log?.events ?? [];
  return {
    checkpoint,
    log,
    events,
    count: checkpoint ? checkpoint.count : events.length,
    seqExists: (seq) => (checkpoint ? isInt(seq) && hasSeq(checkpoint.seqs, seq) : events.some((e) => isPyIntLike(e.seq) && pySeqKey(e.seq) === seq)),
    nextSeq: checkpoint ? checkpoint.maxSeq + 1 : nextSeq(events),
    maxSeq: checkpoint ? checkpoint.maxSeq : highestSeq(events),
    lastAt: checkpoint ? lastLineAt(checkpoint.log.tail) : events.at(-1)?.at,
  };
}

/** The `at` of the checkpoint's copy of the last line (undefined when it has none). */
function lastLineAt(tail: string): unknown {
  try {
    const event: unknown = JSON.parse(tail);
    return isObject(event) ? event.at : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The new event's `at`: now, or the previous event's time when the clock
 * is behind it (another clone's clock, a skewed sandbox). A log whose times
 * ran backwards fails `validate` for every participant, for good. `at` has
 * whole seconds, so a previous time with a fraction (`…:05.5Z`, written by
 * another tool) is rounded up to the next second, never down below it.
 */
function eventTime(host: Host, lastAt: unknown): string {
  const now = Math.floor(host.now().getTime() / 1000);
  const previous = zonedInstant(lastAt);
  const floor = previous ? previous[0] + (previous[1] > 0 ? 1 : 0) : now;
  return formatTimestamp(new Date(Math.max(now, floor) * 1000));
}

/** The request's own checks (spec §6 steps 2–5): reply_to, the deliverable reference, the frozen hash. */
async function checkRequest(host: Host, folder: string, protocol: Json, request: AppendRequest, view: LogView): Promise<void> {
  if (request.replyTo !== undefined && !view.seqExists(request.replyTo)) throw new AcpError('reply_to must point to an existing event');
  if (view.count && request.replyTo === undefined) throw new AcpError('reply_to is required after initialized');
  if (!DELIVERABLE_EVENTS.has(request.event)) return;
  const docErrors = deliverableDocErrors(protocol, { doc: request.doc, role: request.role });
  if (docErrors.length) throw new AcpError(docErrors);
  if (request.event !== 'deliverable_frozen') return;
  const errors = await freezeErrors(host, folder, protocol, request.doc!, request.sha256);
  if (errors.length) throw new AcpError(errors);
}

/** The event line to write, numbered `seq`. */
function eventOf(host: Host, request: AppendRequest, maxSeq: number, lastAt: unknown): AcpEvent {
  const seq = maxSeq + 1;
  const event: AcpEvent = { seq, from: request.participant, event: request.event, at: eventTime(host, lastAt), summary: request.summary };
  // As the Python tools (and so every door): an empty doc or sha256 is no value, the key is left out.
  if (request.doc) event.doc = request.doc;
  if (request.replyTo !== undefined) event.reply_to = request.replyTo;
  if (request.role !== undefined) event.role = request.role;
  if (request.sha256) event.sha256 = request.sha256;
  return event;
}

/** readiness.md and conclusion.md's gates for the events that close a stage (spec §6 steps 7–8). */
async function checkGates(host: Host, folder: string, protocol: Json, request: AppendRequest, readiness: ReadinessFacts): Promise<void> {
  if (['decision_accepted', 'readiness_passed', 'completed'].includes(request.event)) {
    const errors = readinessAppendErrors(readiness, request.event);
    if (errors.length) throw new AcpError(errors[0]!);
  }
  if (request.event !== 'completed') return;
  if (request.doc !== 'conclusion.md') throw new AcpError('completed must reference conclusion.md');
  const unchecked = completionGateTexts(protocol).filter((gate) => !readiness.isGateChecked(gate));
  if (unchecked.length) throw new AcpError(`completion gates must be checked first: ${unchecked.join(', ')}`);
  const conclusion = (await readTextIfExists(host, nodePath.join(folder, 'conclusion.md'), 'conclusion.md')) ?? '';
  const errors = conclusionErrors(conclusion, primaryRef(protocol));
  if (errors.length) throw new AcpError(errors);
}

/** Every check, the veto hooks, then the write: the part of an append that holds the folder lock. */
async function appendUnderLock(host: Host, folder: string, request: AppendRequest, registry: Registry | undefined, session: StoreSession, strict: boolean): Promise<AppendResult> {
  // Read under the lock: the copy read before it may be seconds old under
  // contention (or, through a store that syncs, from before the fetch).
  const protocol = await readProtocol(host, folder);
  const participants = checkNames(protocol, request);
  const view = await viewLog(host, folder, participants, protocol);
  const signed = await verifySignedLog(host, folder, protocol, request.participant, view);
  await checkRequest(host, folder, protocol, request, view);
  const event = eventOf(host, request, view.maxSeq, view.lastAt);
  const readiness = await readReadinessFile(host, folder);
  const before = view.checkpoint ? checkpointState(view.checkpoint, decisionGateErrors(readiness), emptyState()) : replay(view.events, participants, readiness);
  if (!view.checkpoint) await repairStaleCache(host, folder, protocol, view.events, session);
  const state = structuredClone(before);
  applyEvent(state, event, participants, readiness);
  if (state.errors.length) throw new AcpError(state.errors, 2, refusalCodeOf(state));
  await checkGates(host, folder, protocol, request, readiness);
  // Past 2^53 - 1 a JavaScript number no longer counts by one: every later
  // append would get the same seq. Checked where the Python tools would
  // write (their own refusals come first). The log's own highest seq is
  // quoted (seq - 1 would be rounded: 2^53 + 1 - 1 gives 2^53 - 1).
  if (!Number.isSafeInteger(event.seq)) throw new AcpError(`events.jsonl holds a seq of 2^53 - 1 or more; acp cannot number the next event exactly (seq ${pyStr(view.maxSeq)})`, 2, 'invalid_log');
  refuseUnencodable('the event', event);
  if (registry?.hooks.has('append:before')) {
    // Copies: a hook must not be able to change what was checked and is written.
    await registry.hooks.call('append:before', {
      folder,
      files: documentFiles(host, folder, protocol),
      protocol: structuredClone(protocol),
      event: Object.freeze({ ...event }),
      state: structuredClone(state),
      refuse: (message: string): never => {
        throw new AcpRefusal(message);
      },
    });
  }
  const afterWrite = await signed?.sign(event, formatEventLine, request.rotateKey === true);
  const chain = await validationChain(host, folder, view.checkpoint, view.checkpoint ? view.checkpoint.log.size : view.log!.size);
  // Signed first: the strict check validates the very line that will be written.
  const commit = strict ? await refuseInvalidOutcome(host, folder, pendingFiles(folder, protocol, view, event, state), registry, chain) : undefined;
  const warnings = await writeEvent(host, folder, protocol, participants, view, event, state, before, chain.validated);
  await afterWrite?.();
  await commit?.(fingerprintOf(await host.fs.stat(nodePath.join(folder, 'events.jsonl')).catch(() => null)));
  session.written.add(nodePath.join(folder, 'events.jsonl')).add(nodePath.join(folder, 'protocol.json'));
  session.done.push(`seq ${event.seq} ${event.event} by ${event.from}`);
  return { event, state, previousPhase: before.phase, previousWaitingFor: before.waitingFor, ...(warnings.length ? { warnings } : {}) };
}

/**
 * A signed collaboration's log, verified before it is extended
 * (runtime/signed-append.ts); protocol.json's `signing` (this append's copy)
 * is rebuilt from it. `undefined` for an unsigned one, which costs nothing
 * more.
 */
async function verifySignedLog(host: Host, folder: string, protocol: Json, participant: string, view: LogView): Promise<VerifiedLog | undefined> {
  let first: Json | undefined = view.events[0];
  if (protocol.signing === undefined) {
    // Without a declaration seq 1 decides; an unsigned last line acp wrote (the checkpoint's) says it is unsigned without reading it.
    if (view.checkpoint && /,"sig":"/.test(view.checkpoint.log.tail)) first = await readFirstEvent(host, folder);
    if (!isObject(first?.signing)) return undefined;
  }
  const { verifyExtension } = await import('./runtime/signed-append.ts');
  const scan: LogScan = (onEvent, resume, afterChunk) => scanEventLog(host, folder, onEvent, resume, afterChunk);
  const verified = await verifyExtension(host, folder, protocol, participant, first, scan, view.checkpoint && { tail: view.checkpoint.log.tail, size: view.checkpoint.log.size });
  if (verified) protocol.signing = verified.declaration;
  return verified;
}

/** protocol.json's `signing` after a signed line: the head moves to it, and a key it announces is recorded. */
function signedHead(protocol: Json, event: AcpEvent, line: string): Json {
  const signing = protocol.signing as Json;
  const keys = { ...(signing.keys as Json), ...(typeof event.pubkey === 'string' ? { [event.from]: event.pubkey } : {}) };
  return { ...signing, keys, head: { seq: event.seq, sha256: lineHash(line.slice(0, -1)) } };
}

/**
 * protocol.json left behind by an append that died between its line and
 * the rename (or met a full disk) is rewritten from the log before the new
 * event is checked, so the folder is whole again even if this event is
 * refused. A cache that matches no point of the log (a hand edit) is left
 * as it is: the Python tools read it as written.
 */
async function repairStaleCache(host: Host, folder: string, protocol: Json, events: Json[], session: StoreSession): Promise<void> {
  const turn = turnOf(protocol, events);
  if (turn.cache !== 'behind') return;
  const updated = withCachedTurn(protocol, turn.log, events.at(-1)!.at);
  await writeFileAtomic(host, nodePath.join(folder, 'protocol.json'), formatProtocolJson(updated), { throughLink: true });
  session.written.add(nodePath.join(folder, 'protocol.json'));
}

/** The bytes an append adds to events.jsonl: the line, after a newline that ends a torn last line. */
function appendedText(view: LogView, event: AcpEvent): string {
  // A last line without its newline but with a complete event (a hand edit,
  // another tool) must not be glued to ours: end it first.
  return (view.log?.tornTail ? '\n' : '') + formatEventLine(event);
}

/** protocol.json with the state after `event` (other keys as read under the lock: a person's or another tool's edits stay). */
function updatedProtocol(protocol: Json, state: DerivedState, event: AcpEvent, line: string): Json {
  const updated = withCachedTurn(protocol, state, event.at);
  // A signed collaboration's protocol.json records the last signed line (docs/signing.md).
  if (event.sig !== undefined) updated.signing = signedHead(protocol, event, line);
  return updated;
}

function pendingFiles(folder: string, protocol: Json, view: LogView, event: AcpEvent, state: DerivedState): PendingFiles {
  const encoder = new TextEncoder();
  return {
    log: { path: nodePath.join(folder, 'events.jsonl'), tail: encoder.encode(appendedText(view, event)) },
    protocol: { path: nodePath.join(folder, 'protocol.json'), bytes: encoder.encode(formatProtocolJson(updatedProtocol(protocol, state, event, formatEventLine(event)))) },
  };
}

/**
 * Strict mode: validate the folder as it would be after the append —
 * validate itself, run over a view of the folder in which events.jsonl
 * already ends with the new line and protocol.json holds the new state —
 * and refuse with its errors. Nothing is written before this passes. The
 * validation resumes where the log's chain (`vouch`) lets it; what it
 * returns saves its checkpoint once the line is written.
 */
async function refuseInvalidOutcome(host: Host, folder: string, pending: PendingFiles, registry: Registry | undefined, vouch: LogVouch): Promise<CheckpointCommit | undefined> {
  const own = registry ?? (await createRegistry());
  try {
    const { result, commit } = await validateOutcome(pendingHost(host, pending), folder, own, vouch);
    if (!result.ok) throw new AcpError(result.errors, 2, 'strict');
    return commit;
  } finally {
    if (!registry) await own.cleanup();
  }
}

/** Write the line, then the caches (protocol.json's state, the checkpoint); returns warnings about the caches. */
async function writeEvent(host: Host, folder: string, protocol: Json, participants: string[], view: LogView, event: AcpEvent, state: DerivedState, before: DerivedState, validated?: LogFingerprint): Promise<string[]> {
  const line = formatEventLine(event);
  const written = appendedText(view, event);
  await host.fs.appendFile(nodePath.join(folder, 'events.jsonl'), written);
  // The line is durable: the append has happened. What follows is a cache;
  // failing to write it (a full disk) is a warning, never a failed append
  // (an agent told "failed" would append the event again).
  try {
    // `protocol` was read under the lock: its other keys (edited by a person
    // or another tool) are current and must not be rolled back.
    await writeFileAtomic(host, nodePath.join(folder, 'protocol.json'), formatProtocolJson(updatedProtocol(protocol, state, event, line)), { throughLink: true });
  } catch (error) {
    await host.fs.remove(nodePath.join(folder, CHECKPOINT_NAME)).catch(() => undefined);
    const why = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
    return [`seq ${event.seq} ${event.event} is appended, but protocol.json could not be rewritten (${why}): its cached phase is stale until the next append or \`acp doctor --fix\``];
  }
  const facts = view.checkpoint ?? logFacts(view.events, before);
  const sizeBefore = view.checkpoint ? view.checkpoint.log.size : view.log!.size;
  if (!facts) {
    await host.fs.remove(nodePath.join(folder, CHECKPOINT_NAME)).catch(() => undefined);
    return [];
  }
  const next: LogFacts = {
    count: facts.count + 1,
    maxSeq: event.seq,
    seqs: addSeq(facts.seqs, event.seq),
    gateSeqs: event.event === 'decision_accepted' ? [...facts.gateSeqs, pyStr(event.seq)] : facts.gateSeqs,
    state: stripErrors(state),
  };
  await saveCheckpoint(host, folder, participants, next, line, sizeBefore + new TextEncoder().encode(written).length, validated);
  return [];
}

// ---------------------------------------------------------------------------
// The library facade
// ---------------------------------------------------------------------------

/** Bind a folder to a host and registry for in-process use. */
export async function openCollaboration(folder: string, options: OpenOptions = {}): Promise<Collaboration> {
  const host = await resolveHost(options.host);
  const registry = options.registry ?? (await createRegistry());
  const absolute = host.resolvePath(folder);
  return {
    folder: absolute,
    host,
    registry,
    init: (request) => init(host, absolute, request, registry),
    append: (request) => append(host, absolute, request, registry),
    state: async () => {
      const protocol = await readProtocol(host, absolute);
      const log = await readEventLog(host, absolute);
      if (log.errors.length) throw new AcpError(log.errors, 2, 'invalid_log');
      return replay(log.events, participantIds(protocol), await readReadinessFile(host, absolute));
    },
    validate: () => validate(host, absolute, registry),
    next: (participant) => nextAction(host, absolute, participant, registry),
    wait: (participant, options) => waitForTurn(host, absolute, participant, options, registry),
  };
}

let sharedApi: AcpApi | undefined;

/**
 * The library as one object, handed to every plugin (its `context.api`) and
 * every command. Plugins cannot import acp.ts's values: a compiled binary's
 * modules are not importable from outside, and a built-in plugin that
 * imported acp.ts would wait for acp.ts, which awaits the CLI (see
 * docs/architecture.md). Everything here is also a named export. One
 * frozen object per process: built once (a command builds a context per
 * plugin), and no plugin can swap a function another plugin calls.
 */
export function libraryApi(): AcpApi {
  return (sharedApi ??= Object.freeze(apiObject()));
}

function apiObject(): AcpApi {
  return {
    VERSION, LOCK_NAME, CHECKPOINT_NAME, LOCK_BREAKER, EVENT_NAMES, PHASES, INIT_OPTIONS, APPEND_OPTIONS, REQUIRED_FILES, FORBIDDEN_FILES, CONCLUSION_SECTIONS, DEFAULT_WAIT_TIMEOUT_SECONDS, DEFAULT_WAIT_INTERVAL_SECONDS,
    AcpError, AcpTimeoutError, AcpAbortError, AcpPluginError, AcpAppendedError, UsageError,
    createMemoryHost, createMemoryFileSystem, openCollaboration, createRegistry, pluginContext,
    init, append, transact, strictSetting, openStore, signingKey, verifySignatures, eventDocuments, turnOf, folderTurn, decideTurn, TURN_HISTORY, staleNote, TurnTracker, readCachedTurn, cacheEquals, withCachedTurn, refusalCodeOf, validate, validateRead, nextAction, formatNext, waitForTurn, followFolder,
    readProtocol, readEventLog, scanEventLog, parseEventLog, formatEventLine, jsonErrorDetail, nextSeq, emptyState, applyEvent, replay,
    participantIds, isUnsafePath, deliverableRef, primaryRef, resolveDeliverablePath, deliverableBoundary, symlinkRefusal, readDeliverable, documentFiles, checkedDocumentPath, findCollaborations,
    WRITABLE_DOCUMENTS, READ_ONLY_DOCUMENTS, declaredRefs, documentTarget, readCollaborationDocument, documentWriteTarget, writeCollaborationDocument,
    markdown, readReadiness, decisionGateErrors, conclusionErrors, defaultTemplate, defaultGates, reviewHeadings, parseZonedTimestamp,
    READ_LIMITS, readCapped, readingHost, inspectFolderLock, confineHost, ...guardedWriters(), decodeText, sha256Hex, formatTimestamp, formatProtocolJson, pyRepr, pyStr, pyStrip, purePosixPath, expandUser, loadsPy, dumpsPy, pySplitLines,
    comparePy, sortedPy, parseArgv, parsePyInt, parsePyFloat, runCommand, optionsFromDoor, serverOptions, doorName, doorSchema, refuseUnknownType, describeError,
    errorCode, fsError, isInside, isObject, realpathOfExistingAncestor, sameList, sleep, withoutRoot, jsonWithoutRoot,
  };
}

/**
 * The writers a plugin gets: `writeFileAtomic` for its own output files,
 * through the guarded host (a folder's own files refused), `withFolderLock`
 * to coordinate with writers (it takes the lock; the body's host stays
 * guarded), `inspectLockLine` (its stale tickets cleared by the lock's
 * code), `createNodeHost` that makes a guarded host, `localStore` (its
 * lock). Never the raw ones.
 */
function guardedWriters(): Pick<AcpApi, 'writeFileAtomic' | 'withFolderLock' | 'inspectLockLine' | 'createNodeHost' | 'localStore'> {
  return {
    writeFileAtomic: (host, path, text, options) => writeFileAtomic(guardHost(host), path, text, options),
    withFolderLock: (host, folder, fn, options) => withFolderLock(writerHost(host), folder, fn, options),
    // Clearing the lock's stale tickets is the lock's own judgment (as breaking an abandoned lock is).
    inspectLockLine: (host, folder, clear) => inspectLockLine(writerHost(host), folder, clear),
    createNodeHost: async (options) => guardHost(await createNodeHost(options)),
    // The local store takes the folder lock (its body gets the session, never a writer): the lock is the store's to write.
    localStore: (host) => localStore(writerHost(host)),
  };
}

// ---------------------------------------------------------------------------
// The CLI edge: argv → command → exit code (never exits; main() does)
// ---------------------------------------------------------------------------

/**
 * Run the CLI. Returns the exit code; never calls `process.exit` (the entry
 * point does). Loads the registry (built-in and configured plugins), finds
 * the command, parses its options, runs it, and always cleans up.
 */
export async function runCli(io: CliIo, hostOverride?: Host): Promise<number> {
  const host = hostOverride ?? (await createNodeHost());
  const found = commandWord(io.argv);
  const argv = io.argv.filter((_, index) => index !== found.index);
  // Until the global options are parsed, an error is reported as the words on the command line ask.
  let flags = { json: argv.includes('--json'), debug: argv.includes('--debug') };
  let registry: Registry | undefined;
  try {
    if (found.word === undefined && (argv.includes('--version') || argv.includes('-v'))) {
      io.stdout(`acp/${VERSION}\n`);
      return 0;
    }
    // In-process callers (tests, embedders) get this process's capabilities, as the entry point does.
    const runtime = io.runtime ?? (await (await import('./runtime/process.ts')).createProcessRuntime());
    const where = { host, runtime, cwd: host.resolvePath('.'), warn: (message: string) => io.stderr(`warning: ${message}\n`), env: io.env };
    registry = await createRegistry({ ...where, builtIns: true });
    // Parsed before any plugin of the user's loads: a command line that will be refused runs none (issue 35).
    const globals = parseGlobalOptions(argv, found.word === undefined ? undefined : argvSpecOf(registry, found.word));
    if (found.word === undefined && !argv.some((token) => token === '-h' || token === '--help')) throw new UsageError(`a command is required (${[...registry.commands.keys()].join(', ')})`);
    flags = globals;
    await loadUserPlugins(registry, {
      ...where,
      config: globals.config,
      plugins: globals.plugins,
      via: '--plugin',
      folder: globals.folder === undefined ? undefined : host.resolvePath(globals.folder),
      // `acp serve` serves its --root (default: the working directory); other agents write there.
      collaborationRoots: found.word === 'serve' ? [host.resolvePath(globals.root ?? '.')] : undefined,
    });
    const code = await dispatch({ ...io, runtime }, host, registry, found.word, argv);
    // Cleanup failures are errors too (exit 2); the finally below is for the error paths.
    await registry.cleanup();
    return code;
  } catch (error) {
    return reportError(io, error, flags);
  } finally {
    await registry?.cleanup().catch((error: unknown) => io.stderr(`error: ${(error as Error).message}\n`));
  }
}

/** Find and run the command `word`. */
async function dispatch(io: CliIo, host: Host, registry: Registry, word: string | undefined, argv: string[]): Promise<number> {
  const out = (text: string): void => io.stdout(`${text}\n`);
  if (word === undefined) {
    // Without a command, runCli has refused any command line but a request for help.
    io.stdout(formatHelp(registry, VERSION));
    return 0;
  }
  const entry = registry.commands.get(word);
  if (!entry) throw new UsageError(`unknown command '${word}' (commands: ${[...registry.commands.keys()].join(', ')})`);
  const spec = entry.spec;
  const parsed = parseArgv(argv, argvSpecOf(registry, word)!);
  if (parsed.options.help) {
    io.stdout(formatHelp(registry, VERSION, spec));
    return 0;
  }
  const result = await runCommand(registry, word, parsed, {
    host,
    runtime: io.runtime,
    out,
    err: (text) => io.stderr(`${text}\n`),
    color: io.color,
    signal: io.signal,
    env: io.env,
  });
  if (parsed.options.json === true && result.json) out(JSON.stringify(jsonWithOutcome(result.json, result.exitCode)));
  return result.exitCode;
}

/**
 * Run a registered command with options already parsed (no argv): the CLI
 * edge calls it after parsing, the RPC server and embedders call it with
 * typed values. Options are checked against the command's spec (types,
 * `choices`, `required`) with the CLI's words. Typed errors are thrown.
 */
export async function runCommand(registry: Registry, name: string, input: { options?: OptionValues; args?: Record<string, string | undefined> }, where: RunCommandOptions): Promise<CommandResult> {
  const entry = registry.commands.get(name);
  if (!entry) throw new UsageError(`unknown command '${name}' (commands: ${[...registry.commands.keys()].join(', ')})`);
  const options = checkOptionValues(entry.spec, input.options ?? {});
  const context: Omit<CommandContext, 'next'> = {
    name,
    args: input.args ?? {},
    options,
    api: libraryApi(),
    // Commands are plugins: their host cannot write a folder's own files; the transaction can.
    host: guardHost(where.host),
    registry,
    runtime: where.runtime ?? { name: 'unknown' },
    out: where.out ?? (() => undefined),
    err: where.err ?? (() => undefined),
    progress: where.progress ?? (options.json === true ? () => undefined : (where.out ?? (() => undefined))),
    json: options.json === true,
    color: where.color ?? false,
    signal: where.signal ?? new AbortController().signal,
    env: (variable) => where.env?.(variable),
    folder: () => folderOption(where.host, options.folder, where.env),
    store: (folder) => openStore(where.host, folder, registry, options),
  };
  checkAnswers(registry, entry, options);
  return runCommandChain(entry, context);
}

/**
 * Run the CLI as this process: argv, stdio, signals and the exit code
 * (runtime/process.ts). The bin (runtime/bin.ts, dist/acp.mjs) calls it;
 * embedders call {@link runCli} instead.
 */
export function main(): Promise<void> {
  // Once per process: in the skill's one-file runtime this module is the
  // program itself as well as the bin's library, and both would start it.
  running ??= import('./runtime/process.ts').then((process) => process.runProcess((io, host) => runCli(io, host)));
  return running;
}
let running: Promise<void> | undefined;

// Bun and Deno run the source as a program (`bun acp.ts …`), and say so in
// `import.meta.main`, a plain boolean: no await, so this module can also be
// required from CommonJS. Node runs the bin. (`import.meta` goes through a
// variable: Bun's bundler rewrites a literal `import.meta.main` for Node into
// a check that is true in any ES module.)
const meta = import.meta as ImportMeta & { main?: boolean };
if (meta.main === true) void main();
