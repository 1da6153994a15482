/**
 * The public types of acp, in one module that imports nothing but the Host
 * interfaces (runtime/host.ts, types only): the events and the state, the
 * folder's declaration, the hook contexts, commands and plugins, the store
 * and the transaction, and {@link AcpApi} (what `context.api` holds).
 * runtime/*, plugins/ and deliverable-types/ import their types from here,
 * never from acp.ts, so no module imports back the file that imports it
 * (test/architecture.test.ts walks the imports). acp.ts re-exports all of
 * it. The two name lists the event and phase types are made of live here
 * too, so that the types need no other module.
 *
 * @module
 */

import type { FileReader, FileSystem, Host, Keyring } from './host.ts';

export type { FileReader, FileStat, FileSystem, Host, Keyring, ProcessIdentity } from './host.ts';

declare global {
  /**
   * The global `AbortSignal`, as the DOM lib and @types/node declare it; this
   * empty declaration merges into theirs, and lets the shipped declarations
   * compile where neither is loaded (`lib: ["es2022"]`, no @types/node).
   */
  interface AbortSignal {}
}

/** Every event name the protocol knows, in the spec's order. */
export const EVENT_NAMES = [
  'initialized',
  'deliverable_drafted',
  'deliverable_revised',
  'deliverable_frozen',
  'proposal_submitted',
  'review_submitted',
  'proposal_revised',
  'question_classified',
  'decision_proposed',
  'decision_accepted',
  'readiness_passed',
  'completed',
  'blocked',
] as const;

/** An event name of the protocol. */
export type EventName = (typeof EVENT_NAMES)[number];

/** Every phase of the state machine. */
export const PHASES = ['blocked', 'completed', 'decision_review', 'drafting', 'readiness_check', 'reviewing', 'revising'] as const;

/** A phase of the state machine. */
export type Phase = (typeof PHASES)[number];

/** One event of events.jsonl. Unknown keys are kept. */
export interface AcpEvent {
  seq: number;
  from: string;
  event: EventName | string;
  at: string;
  summary: string;
  doc?: string;
  reply_to?: number;
  role?: 'primary' | 'supporting' | string;
  sha256?: string;
  [extra: string]: unknown;
}

/** The parsed log: events in order, and read errors (bad lines). */
export interface EventLog {
  /** Objects in the log, in order (bad lines are left out). */
  events: Json[];
  /** `events.jsonl line {n}: …` messages. */
  errors: string[];
  /** Byte length of the file read. */
  size: number;
  /** Whether the file ends in the middle of a line (no final newline). */
  tornTail: boolean;
  /** The last event line's text (after universal newlines, without its newline): a signed append hashes it. */
  lastLine?: string;
}

/** State derived by replaying the log. */
export interface DerivedState {
  phase: Phase | null;
  proposalOwner: string | null;
  waitingFor: string[];
  reviewersDue: string[];
  acceptorsDue: string[];
  latestClassification: number;
  latestDecisionInput: number;
  primaryDrafted: boolean;
  primaryFrozen: boolean;
  readinessPassed: boolean;
  /** Errors found while replaying, in order (the Python tools' messages). */
  errors: string[];
  /** The stable code of each error in {@link errors}, index for index. */
  codes: RefusalCode[];
}

/**
 * What kind of rule an event broke: `phase` (nobody may do it now),
 * `not_your_turn` (someone else may), or `invalid_event` (any other rule).
 * The state machine records it beside each message, so that other layers
 * map the code and never parse the text.
 */
export type RefusalCode = 'phase' | 'not_your_turn' | 'invalid_event';

/** A turn: what protocol.json caches and the state machine derives. */
export interface TurnState {
  phase: string | null;
  proposalOwner: string | null;
  waitingFor: string[];
}

/** protocol.json's cached turn as written (raw values), and which of its keys are present. */
export interface CachedTurn {
  phase: unknown;
  proposalOwner: unknown;
  waitingFor: unknown;
  present: { phase: boolean; proposalOwner: boolean; waitingFor: boolean };
}

/**
 * How protocol.json's cache relates to the log: `agrees` (rule 1), `no-log-turn`
 * (rule 2), `behind` (rules 3 and 4: the answer is the log's), `edited` (rule 5:
 * the answer is the cache's).
 */
export type CacheAgreement = 'agrees' | 'no-log-turn' | 'behind' | 'edited';

/** The answer to "whose turn" (runtime/turn.ts): the same for every door that reads one folder. */
export interface Turn {
  /** The phase answered (the cache's raw value under rules 2 and 5). */
  phase: unknown;
  proposalOwner: unknown;
  waitingFor: string[];
  /** The log's last event, if any. */
  lastEvent: Json | undefined;
  /** Where the answer comes from. */
  source: 'log' | 'cache';
  cache: CacheAgreement;
  /** The turn the log derives (phase null when it derives none). */
  log: TurnState;
  /** Under `behind`: the event after which the cache was written. */
  staleAt?: Json;
}

/** The turn after one event of the log. */
export interface TurnSnapshot extends TurnState {
  event: Json;
}


/** A participant entry: `{id}` (readers also accept plain strings). */
export type ParticipantEntry = { id: string } | string;

/** A completion gate. */
export interface CompletionGate {
  source: 'objective' | 'generated';
  text: string;
}

/** A deliverable declaration. */
export interface DeliverableDeclaration {
  type: string;
  file: string;
  checklist?: string[];
  frozen?: boolean;
  /** Set when the primary type is provided by a plugin (recorded as `custom` for other tools). */
  pluginType?: string;
  [extra: string]: unknown;
}

/** The deliverables block of protocol.json. */
export interface DeliverablesDeclaration {
  mode: 'internal' | 'external';
  dir: string;
  owner?: string;
  coAuthors?: string[];
  primary: DeliverableDeclaration;
  supporting?: DeliverableDeclaration[];
  attachments?: { file: string }[];
}

/** protocol.json as written by init (unknown extra keys are tolerated). */
export interface ProtocolDocument {
  protocol: 'acp';
  schemaVersion: 2;
  objective: string;
  objectiveGates: string[];
  participants: ParticipantEntry[];
  completionGates: CompletionGate[];
  deliverables: DeliverablesDeclaration;
  repoRoot?: string;
  currentPhase: Phase | null;
  proposalOwner: string | null;
  waitingFor: string[];
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

/** What a deliverable type's `check` receives. */
export interface DeliverableCheckContext {
  /** The deliverable's text (UTF-8, universal newlines). */
  text: string;
  /** Its reference, e.g. `deliverables/rfc.md`. */
  ref: string;
  /** The required sections (from {@link DeliverableType.sections}). */
  sections: string[];
  /** Whether frozen content is required (a freeze, readiness_passed or completed exists). */
  frozenRequired: boolean;
  /** Helpers for Markdown sections. */
  markdown: MarkdownHelpers;
}

/** Findings a check returns. */
export interface Findings {
  errors: string[];
  warnings: string[];
}

/**
 * A deliverable type: its template, its generated completion gates and its
 * checks. Built-in types and plugin types use this same shape.
 */
export interface DeliverableType {
  /** The type name written to protocol.json (`adr`, `rfc`, …). */
  type: string;
  /** Human title, used in the template heading. */
  title: string;
  /** Default file name (required for types other than `custom`). */
  defaultFile?: string;
  /** Short description for `acp types`. */
  description?: string;
  /** Required sections, in order. `checklist` is the declared checklist (custom types). */
  sections(checklist: string[]): string[];
  /** Template text of a new deliverable. Defaults to the protocol's template. */
  template?(context: { title: string; type: string; sections: string[] }): string;
  /**
   * Generated completion gates. Defaults to the protocol's six generated
   * gates; a type may add its own after them.
   */
  gates?(context: { ref: string; type: string; defaults: string[] }): string[];
  /** Extra checks beyond section presence/content (plugin types). */
  check?(context: DeliverableCheckContext): Findings | Promise<Findings>;
  /**
   * Record a folder of this type in protocol.json as `type: "custom"` with the
   * sections as its `checklist` and `pluginType: "{type}"`, so tools that do
   * not know this type (the Python tool set, acp without the plugin) still
   * validate it. Default: true for plugin types. `false` records the type's
   * own name, which only runtimes that load the plugin accept.
   */
  recordAsCustom?: boolean;
}

/** Context of the `init:files` hook. */
export interface InitFilesContext {
  /** The folder being created (absolute). */
  folder: string;
  /**
   * protocol.json as it will be written. Hooks may add extra keys (readers
   * ignore unknown keys, spec §2) but must not change the protocol's own.
   */
  protocol: ProtocolDocument;
  /**
   * Files to write besides protocol.json and events.jsonl: path relative to
   * the folder → text. Hooks may add, change or delete entries; paths must
   * stay inside the folder and must not exist yet (init never overwrites).
   */
  files: Map<string, string>;
}

/**
 * Read access to a collaboration's documents through the host, so a hook's
 * document check works on any host (the in-memory one included).
 */
export interface DocumentFiles {
  /**
   * Text of a document (UTF-8, universal newlines): a file of the folder
   * (`proposal.md`) or a declared deliverable reference
   * (`deliverables/adr.md`, `external:adr.md`). `undefined` when missing.
   * Paths that leave the folder or the deliverables' boundary are refused.
   */
  read(ref: string): Promise<string | undefined>;
}

/** Context of the `append:before` hook. */
export interface BeforeAppendContext {
  folder: string;
  /** The folder's documents (see {@link DocumentFiles}). */
  files: DocumentFiles;
  /** protocol.json as read before the append (a copy: changes are ignored). */
  protocol: Json;
  /** The event about to be written (frozen: a hook cannot alter it, only refuse it). */
  event: AcpEvent;
  /** State derived with the event applied (a copy). */
  state: DerivedState;
  /**
   * Veto the event: nothing is written and the CLI exits 2 with
   * `plugin '{name}' refused {event}: {message}`.
   */
  refuse(message: string): never;
}

/** Context of the `append:after` and `phase:change` hooks. */
export interface AfterAppendContext {
  folder: string;
  /** The folder's documents (see {@link DocumentFiles}). */
  files: DocumentFiles;
  /** protocol.json as read before the append. */
  protocol: Json;
  /** The event that was written. */
  event: AcpEvent;
  /** State after the event (what protocol.json now caches). */
  state: DerivedState;
  /** Phase before the event. */
  previousPhase: Phase | null;
  /** waitingFor before the event (to tell whose turn just came). */
  previousWaitingFor: string[];
}

/** Context of the `validate` hook. */
export interface ValidateHookContext {
  folder: string;
  /** The folder's documents (see {@link DocumentFiles}). */
  files: DocumentFiles;
  protocol: Json;
  events: Json[];
  /** The protocol's errors so far; push more (validate then exits 2). */
  errors: string[];
  /** The protocol's warnings so far; push more (exit 1 when no errors). */
  warnings: string[];
}

/** Context of the `next` hook. */
export interface NextHookContext {
  folder: string;
  /** The folder's documents (see {@link DocumentFiles}). */
  files: DocumentFiles;
  participant: string;
  /** The computed next action (do not mutate: other tools print the same). */
  result: NextResult;
  /** Extra lines printed after `next action:` as `hint: …` (`hints` in JSON). */
  hints: string[];
}

/**
 * The hook points. For each point, hooks run one after another (each awaited)
 * in plugin order: plugins with `enforce: 'pre'`, then normal ones, then
 * `'post'`; within a group, in load order (config file entries, then
 * `--plugin` options). A hook that throws stops the operation with an
 * {@link AcpPluginError} naming its plugin (exit 2), except where noted.
 */
export interface AcpHooks {
  /**
   * init, after the files are planned and the usage checks passed, before
   * anything is written. May add or change files (and add extra keys to
   * protocol.json). Throwing (or any refusal) writes nothing at all.
   */
  'init:files': (context: InitFilesContext) => void | Promise<void>;
  /**
   * append, under the folder lock, after every protocol check passed, before
   * the line is written. May veto with `refuse(message)`. Throwing or refusing
   * writes nothing; later hooks do not run.
   */
  'append:before': (context: BeforeAppendContext) => void | Promise<void>;
  /**
   * append, after the line and protocol.json were written and the lock was
   * released. The event stays written whatever happens here: every
   * `append:after` and `phase:change` hook runs even if an earlier one threw,
   * then the failures are reported (exit 2, saying the event was appended).
   */
  'append:after': (context: AfterAppendContext) => void | Promise<void>;
  /** Like `append:after`, after it, only when the event changed the phase. */
  'phase:change': (context: AfterAppendContext) => void | Promise<void>;
  /**
   * validate, after every protocol check (and the deliverable types' own
   * `check`) when protocol.json was readable. May push errors or warnings;
   * must not remove the protocol's.
   */
  validate: (context: ValidateHookContext) => void | Promise<void>;
  /** next and wait, after the next action is computed. May add hints. */
  next: (context: NextHookContext) => void | Promise<void>;
}

/** Hook ordering, as in vite. */
export type HookOrder = 'pre' | 'normal' | 'post';

/** One `--option` of a command. */
export interface CommandOptionSpec {
  /**
   * `boolean` is a flag; the others take a value: `string` as given, `int`
   * through Python's `int()`, `seconds` through Python's `float()` and
   * non-negative. Each type has one parser (runtime/argv.ts), whatever the door.
   */
  type: 'string' | 'boolean' | 'int' | 'seconds';
  /** One line for `--help`. */
  description: string;
  /** Repeatable: the value is a `string[]` (argparse's `action='append'`). */
  multiple?: boolean;
  /** Listed in argparse's `the following arguments are required: …` when absent. */
  required?: boolean;
  /** Allowed values, refused with argparse's `invalid choice` wording. */
  choices?: readonly string[];
  /** Placeholder in `--help` (default: the option name). */
  valueName?: string;
  /**
   * The doors besides the CLI that take the option, and under which name
   * (see {@link OptionDoors}); `false`: the CLI's only (`--strict`, which a
   * server decides for its calls; a store's flag, which a server is started
   * with). Absent: every door, under its usual spelling. `--json` is never a
   * door's argument: the doors answer JSON anyway.
   */
  doors?: false | OptionDoors;
}

/**
 * How the doors besides the CLI name one option (the one table,
 * runtime/doors.ts): JSON-RPC takes it camel-cased (`replyTo`) or as the
 * CLI spells it, MCP snake-cased (`reply_to`), the library's request
 * objects camel-cased; a door set to `false` does not take it.
 */
export interface OptionDoors {
  /**
   * The MCP tool's argument: `name` where MCP's published name is not the
   * snake-cased option (init's `participants`), `default` where MCP takes
   * another default than the command (wait's 300 s: MCP clients time calls out).
   */
  mcp?: false | { name?: string; default?: string | number | boolean };
  /** The key in the library's request object ({@link InitRequest}, {@link AppendRequest}) when it is not the camel-cased option. */
  library?: false | string;
  rpc?: false;
}

/**
 * A command: `acp {name} [args] [--options]`. The protocol's own commands are
 * the core's internal plugin; every other command (doctor, serve, rpc, …) is
 * contributed by a plugin the same way a user plugin contributes one.
 */
export interface CommandSpec<O extends Record<string, CommandOptionSpec> = Record<string, CommandOptionSpec>> {
  /** The word after `acp`. */
  name: string;
  /** One line for `acp --help`. */
  description: string;
  /** Positional arguments in order; a trailing `?` makes one optional (`'params?'`). */
  args?: readonly string[];
  /** Options by the name typed after `--` (`folder`, `reply-to`). */
  options?: Readonly<O>;
  /**
   * The command writes or waits through the folder's store ({@link Store}):
   * each store's flag (`--git`) is one of its options, and
   * {@link CommandContext.store} opens the store they choose.
   */
  store?: boolean;
  /**
   * An extension's options under which it answers the command itself,
   * without calling `next()` (`wait --server` waits on a server, not the
   * folder). Given together with an option another plugin added to the
   * command (a store's flag included), the command is refused before it
   * runs, in argparse's words (`argument --git: not allowed with argument
   * --server`). Without one of them given, an extension must call `next()`:
   * two extensions never silently drop each other.
   */
  answers?: readonly string[];
  /**
   * The doors besides the CLI that expose the command, declared with it (the
   * one table): the JSON-RPC server's agent `acp` derives its actions from
   * these, and test/doors.test.ts holds every door to them.
   */
  doors?: CommandDoors;
  /**
   * Extend the command of this name instead of adding one: the options are
   * merged into it and `run` wraps it (call `context.next()` to run the
   * wrapped command). Used by `wait --server` (plugin `rpc`).
   */
  extend?: boolean;
  /**
   * Run the command. Return the exit code (default 0), or a
   * {@link CommandResult} whose `json` the CLI prints under `--json` and the
   * RPC server returns as the call's result. Text output goes through
   * `context.out` (commands print no text when `context.json` is set).
   */
  run(context: CommandContext<OptionValuesOf<O>>): Promise<CommandOutcome> | CommandOutcome;
}

/** Which doors besides the CLI expose a command ({@link CommandSpec.doors}). */
export interface CommandDoors {
  /**
   * An action of the JSON-RPC server's agent `acp`: which participant a call
   * speaks for (`one`: the connection's, `many`: init's list, which must
   * include it; `none`) and whether it writes (a write is serialised with the
   * server's other writes to the folder), given the call's options.
   */
  rpc?: { participant: 'one' | 'many' | 'none'; writes: boolean | ((options: OptionValues) => boolean) };
  /** The MCP server's tool for the command (its name there). */
  mcp?: string;
}

/** A door besides the CLI: the MCP server, the JSON-RPC server, the library's request objects (runtime/doors.ts). */
export type Door = 'mcp' | 'rpc' | 'library';

/** What a server decides itself about a command it runs for a client ({@link AcpApi.serverOptions}). */
export interface ServerDecisions {
  /** The folder, as the server resolved it (JSON-RPC: the task's); absent: the client's `folder`, checked as the others. */
  folder?: string;
  /** The store flags the server was started with (`--git`): its writes and waits go through the store they choose. */
  storeFlags?: Readonly<Record<string, unknown>>;
  /** Ask the command for JSON only (`--json`: the JSON-RPC server's answer is the command's JSON). */
  json?: boolean;
}


/** One property of a JSON Schema, as MCP lists a tool's inputSchema. */
export interface JsonSchemaProperty {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array';
  description?: string;
  enum?: readonly string[];
  items?: JsonSchemaProperty;
  minimum?: number;
  default?: string | number | boolean;
}

/** A tool's inputSchema: an object whose properties are the options a door takes. */
export interface JsonObjectSchema {
  type: 'object';
  properties: Record<string, JsonSchemaProperty>;
  required?: string[];
  additionalProperties: false;
}

/** The value `run` gets for one option (see {@link CommandOptionSpec.type}). */
export type OptionValue<O extends CommandOptionSpec> = O extends { type: 'boolean' }
  ? boolean
  : O extends { type: 'int' | 'seconds' }
    ? O extends { multiple: true }
      ? number[]
      : number
    : O extends { multiple: true }
      ? string[]
      : string;

/** `primary-deliverable-type` → `primaryDeliverableType`. */
export type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The key option `K` has in a library request: {@link OptionDoors.library}, else `K` camel-cased; `never` where the library does not take it. */
type RequestKey<K extends string, O> = K extends 'json'
  ? never
  : O extends { doors: false } | { doors: { library: false } }
    ? never
    : O extends { doors: { library: infer N extends string } }
      ? N
      : CamelCase<K>;

/**
 * A library request object derived from a command's option table: each
 * option the library takes, under its key there, typed as `run` gets it,
 * required where the option is, and where it is one of `Needed` (options
 * the command cannot do without but refuses in its own words, after the
 * parser's checks: init's `--objective must not be blank`).
 * {@link InitRequest} and {@link AppendRequest} are made this way from
 * {@link INIT_OPTIONS} and {@link APPEND_OPTIONS}, so the table and the
 * library cannot drift: an option renamed in the table renames (or, in
 * `Needed`, breaks) the request type.
 */
export type RequestOf<O extends Record<string, CommandOptionSpec>, Needed extends keyof O = never> = {
  -readonly [K in keyof O & string as O[K] extends { required: true } ? RequestKey<K, O[K]> : K extends Needed ? RequestKey<K, O[K]> : never]: OptionValue<O[K]>;
} & {
  -readonly [K in keyof O & string as O[K] extends { required: true } ? never : K extends Needed ? never : RequestKey<K, O[K]>]?: OptionValue<O[K]>;
};

/** The options `run` gets, typed from their data: a required option is always there. */
export type OptionValuesOf<O extends Record<string, CommandOptionSpec>> = string extends keyof O
  ? OptionValues
  : { [K in keyof O]: O[K] extends { required: true } ? OptionValue<O[K]> : OptionValue<O[K]> | undefined };

/** What a command returns: an exit code, or a typed result. */
export type CommandOutcome = number | void | CommandResult;

/** A command's typed result. */
export interface CommandResult {
  exitCode: number;
  /** The result as JSON (what `--json` prints); by convention it carries `ok` and `exitCode`. */
  json?: Json;
}

/** Parsed option values: a string or number, a list (`multiple`), `true` (flags), or undefined when absent. */
export type OptionValues = Record<string, string | string[] | number | number[] | boolean | undefined>;

/** What a command's `run` gets. Output goes through `out`/`err`; only the CLI edge touches the process. */
export interface CommandContext<V = OptionValues> {
  /** The command's name. */
  name: string;
  /** Positional arguments by name. */
  args: Record<string, string | undefined>;
  /**
   * Options by name, typed from the command's option data (an extension
   * also sees the options of the command it wraps, untyped).
   */
  options: V & OptionValues;
  /** The library: every function a plugin may call (see {@link libraryApi}). */
  api: AcpApi;
  host: Host;
  registry: Registry;
  runtime: RuntimeFacts;
  /** Print one line on stdout. */
  out(text: string): void;
  /** Print one line on stderr. */
  err(text: string): void;
  /**
   * Say how a long command goes (wait's `waiting: …` lines): the CLI prints
   * it on stdout (nothing under `--json`), the MCP server sends it as
   * `notifications/progress`. Not part of the command's answer.
   */
  progress(text: string): void;
  /** `--json` was given: print one JSON object instead of text. */
  json: boolean;
  /** Colour is allowed (a TTY, and NO_COLOR/FORCE_COLOR say so; decided at the edge). */
  color: boolean;
  /** Aborted when the process is asked to stop (SIGINT/SIGTERM). */
  signal: AbortSignal;
  /** Read an environment variable through the edge (`undefined` when absent or not permitted). */
  env(name: string): string | undefined;
  /** `--folder`, resolved against the working directory (a usage error when missing). */
  folder(): string;
  /** The store that serves `folder` in this run: the stores' flags given to the command, else the configuration, else the local folder. */
  store(folder: string): Promise<Store>;
  /** The wrapped command, inside an `extend` command's `run`. */
  next(): Promise<CommandResult>;
}

/** A plugin: hooks, deliverable types, commands, and cleanup. */
export interface AcpPlugin {
  /** Unique name, used in error messages and `acp types`. */
  name: string;
  /** Ordering of this plugin's hooks: `pre` run first, `post` last. */
  enforce?: 'pre' | 'post';
  /** Hooks by name (see {@link AcpHooks} for when each runs). */
  hooks?: Partial<AcpHooks>;
  /**
   * Deadline of each of this plugin's hook calls, in milliseconds (default
   * {@link DEFAULT_HOOK_TIMEOUT_MS}): past it the command fails, exit 2,
   * nothing written, the lock released.
   */
  timeoutMs?: number;
  /** Deliverable types this plugin provides. */
  deliverableTypes?: DeliverableType[];
  /** Commands this plugin adds (or extends, see {@link CommandSpec.extend}). */
  commands?: CommandSpec[];
  /** Stores this plugin provides: where a folder's writes go and how its waiters hear of others' (see {@link StoreProvider}). */
  stores?: StoreProvider[];
  /**
   * A valibot schema (built with `context.valibot`) for this plugin's options
   * from acp.config.yaml; options it refuses (an unknown key, a wrong type)
   * stop the run with an error naming the plugin.
   */
  optionsSchema?: unknown;
  /** Runs once when the plugin is loaded, before its hooks are registered. */
  setup?(context: PluginContext): void | Promise<void>;
  /** Runs when the command is done (always, in reverse load order). */
  cleanup?(): void | Promise<void>;
}

/**
 * The API handed to plugin modules. Plugins get everything through this
 * argument, so they work from a compiled binary whose bundled packages they
 * cannot import.
 */
export interface PluginContext {
  /** The library: the same functions acp.ts exports (see {@link libraryApi}). */
  api: AcpApi;
  definePlugin: (definition: AcpPlugin) => AcpPlugin;
  defineCommand: <const O extends Record<string, CommandOptionSpec>>(spec: CommandSpec<O>) => CommandSpec;
  defineDeliverableType: <T extends DeliverableType>(definition: T) => T;
  markdown: MarkdownHelpers;
  defaultTemplate: AcpApi['defaultTemplate'];
  defaultGates: AcpApi['defaultGates'];
  /** Options from the config file for this plugin (`{}` when none). */
  options: Record<string, unknown>;
  /** The runtime this plugin runs in (for running commands etc.). */
  runtime: RuntimeFacts;
  /** Where the plugin came from (file path, `acp:{name}` or `inline`). */
  source: string;
  /** Print `warning: {message}` on stderr (never changes the exit code). */
  warn(message: string): void;
  /** The valibot module, for {@link AcpPlugin.optionsSchema} (present for plugins loaded from files or config). */
  valibot?: typeof import('valibot');
}

/** What a plugin may know about the runtime. */
export interface RuntimeFacts {
  name: 'node' | 'bun' | 'deno' | 'unknown';
  /**
   * Run a command: an argv array, no shell. Resolves with its exit code
   * (`null` when killed, e.g. on timeout) and output; rejects when it cannot
   * start (not found, or Deno without `--allow-run`). With `detached` it
   * resolves as soon as the command started and does not wait for it;
   * `input` is written to its standard input (else it has none).
   * Undefined where the host cannot run commands.
   */
  run?(
    command: string[],
    options?: { cwd?: string; env?: Record<string, string>; timeoutMs?: number; detached?: boolean; input?: string },
  ): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Whether a path may be read without asking (Deno permissions); undefined = yes. */
  mayRead?(path: string): boolean;
  /** This process's user id, when the runtime may know it (undefined on Windows and under Deno without `--allow-sys=uid`). */
  uid?: number;
  /** An environment variable as the commands {@link run} starts will see it (undefined: not set); absent where the runtime cannot tell. */
  env?(name: string): string | undefined;
}

/** Where a registered thing came from (for `acp types` and error messages). */
export interface Origin {
  kind: 'built-in' | 'plugin';
  /** The module: `deliverable-types/adr.ts`, a plugin file path, `acp:rfc` or `inline`. */
  source: string;
  /** How it was asked for: `--plugin`, the config file's path, or `createRegistry`. */
  via?: string;
  /** The plugin that provided it. */
  plugin?: string;
}

/** A plugin to load: a file path or `acp:{name}`, with options, or a plugin/type object. */
export type PluginEntry = string | { path: string; options?: Record<string, unknown> } | AcpPlugin | DeliverableType;

/** Options of {@link createRegistry}. */
export interface RegistryOptions {
  /** Plugins to load after the config file's; paths resolve against `cwd`. */
  plugins?: PluginEntry[];
  /** Also load the `plugins:` of the nearest `acp.config.yaml` in `cwd` or its ancestors. */
  config?: boolean;
  /** Working directory (default: the host's). */
  cwd?: string;
  /** The collaboration folder worked on: plugin code inside it is refused. */
  folder?: string;
  host?: Host;
  runtime?: RuntimeFacts;
  /** Where plugins print warnings (default: nowhere). */
  warn?(message: string): void;
  /** How `plugins` entries were asked for, shown by `acp types` (default `createRegistry`). */
  via?: string;
  /** Also register the commands: the protocol's own and the built-in plugins' (the CLI does). */
  builtIns?: boolean;
  /** Directories holding collaborations (`acp serve`'s root): the config search never looks in them. */
  collaborationRoots?: string[];
  /** Environment access (`ACP_TRUSTED_CONFIG`, `HOME` for the config search); default: none. */
  env?(name: string): string | undefined;
}

/** `--folder` of init and append: an argument of the library's functions, not a key of their requests. */
const FOLDER_OPTION = { type: 'string', required: true, description: 'Collaboration folder (over MCP and JSON-RPC: relative to the server root)', doors: { library: false } } as const;

/**
 * The options of `acp init` (spec §9), the one table of every door: the
 * CLI's argv and `--help`, the MCP tool's inputSchema, the JSON-RPC
 * action's args and {@link InitRequest} are all read from it
 * (runtime/doors.ts). `--participant`, `--objective` and `--completion`,
 * which the Python tools' argparse requires, are refused by init's own
 * check instead (`--objective must not be blank`), after the deliverable
 * type's: an unknown type is what the reference names first.
 */
export const INIT_OPTIONS = {
  folder: FOLDER_OPTION,
  participant: {
    type: 'string', multiple: true, valueName: 'id', doors: { mcp: { name: 'participants' }, library: 'participants' },
    description: 'Participant id (repeatable; at least two; the first owns the proposal)',
  },
  objective: { type: 'string', description: 'What the collaboration must achieve (one sentence)' },
  completion: { type: 'string', multiple: true, valueName: 'gate', description: 'Objective completion gate, checked in readiness.md before completing (repeatable; at least one)' },
  'primary-deliverable-type': {
    type: 'string', required: true, valueName: 'type', doors: { library: 'primaryType' },
    description: "Primary deliverable type: adr, design-spec, implementation-plan, decision-memo, review-report, test-plan, custom, or a plugin's",
  },
  'primary-deliverable-file': { type: 'string', valueName: 'file', doors: { library: 'primaryFile' }, description: "Primary deliverable file name (.md); required for custom, else the type's default" },
  'primary-deliverable-check': {
    type: 'string', multiple: true, valueName: 'section', doors: { mcp: { name: 'primary_deliverable_checks' }, library: 'primaryChecks' },
    description: 'Required section of a custom deliverable (repeatable)',
  },
  'deliverables-mode': { type: 'string', choices: ['internal', 'external'], valueName: 'mode', doors: { library: 'mode' }, description: 'internal (in the folder, default) or external (in a repository around it)' },
  'deliverables-dir': { type: 'string', valueName: 'dir', doors: { library: 'dir' }, description: 'Deliverables directory (default deliverables)' },
  'repo-root': { type: 'string', valueName: 'path', description: 'Repository root, relative to the folder (external mode)' },
  resume: { type: 'boolean', description: 'Succeed if the folder already exists' },
  sign: { type: 'boolean', description: 'Sign every event with its participant’s Ed25519 key (docs/signing.md)' },
  'signing-policy': { type: 'string', choices: ['warn', 'refuse'], description: 'What validate makes of an unsigned event: warn (default) or refuse' },
  // The library takes the keys as a record (participantKeys), MCP not at all: a key is registered where its participant runs.
  'register-key': {
    type: 'string', multiple: true, valueName: 'id=key', doors: { mcp: false, library: false },
    description: 'Register a participant’s public key, as `acp key` prints it (repeatable)',
  },
  json: { type: 'boolean', description: 'Print one JSON object' },
} as const satisfies Record<string, CommandOptionSpec>;

/**
 * The options of `acp append` (spec §6), the one table of every door (see
 * {@link INIT_OPTIONS}); {@link AppendRequest} is derived from it.
 */
export const APPEND_OPTIONS = {
  folder: FOLDER_OPTION,
  participant: { type: 'string', required: true, valueName: 'id', description: 'Who appends (a participant id listed in protocol.json)' },
  // Python's `choices=sorted(EVENTS)`: an unknown name is an argparse error (spec §6 step 2 allows it).
  event: { type: 'string', required: true, choices: [...EVENT_NAMES].sort(), valueName: 'name', description: `Event name (${EVENT_NAMES.join(', ')})` },
  summary: { type: 'string', required: true, valueName: 'text', description: 'One-line summary of what you did' },
  doc: { type: 'string', valueName: 'ref', description: 'Document the event refers to (the deliverable reference for deliverable_* events, conclusion.md for completed)' },
  'reply-to': { type: 'int', valueName: 'seq', description: 'Seq of the event this answers (usually the latest; required after initialized)' },
  role: { type: 'string', choices: ['primary', 'supporting'], description: 'primary or supporting (deliverable events)' },
  sha256: { type: 'string', valueName: 'hex', description: 'SHA-256 of the frozen deliverable (deliverable_frozen; freeze computes it)' },
  // Key rotation needs the participant's key on the machine that appends: not an MCP argument.
  'new-key': {
    type: 'boolean', doors: { mcp: false, library: 'rotateKey' },
    description: 'Signed collaborations: announce a new key in this event, signed by the current one, and sign with it from then on (docs/signing.md)',
  },
  strict: {
    type: 'boolean', doors: false,
    description: 'Refuse, in validate’s words, an event after which the folder would fail `validate --strict` (default: the strict: key of acp.config.yaml, else off)',
  },
  json: { type: 'boolean', description: 'Print the appended event as JSON' },
} as const satisfies Record<string, CommandOptionSpec>;

/** What an append asks for: {@link APPEND_OPTIONS} as the library names them (`replyTo`, `rotateKey`). */
export interface AppendRequest extends RequestOf<typeof APPEND_OPTIONS> {}

/** What an append did. */
export interface AppendResult {
  event: AcpEvent;
  state: DerivedState;
  previousPhase: Phase | null;
  /** waitingFor before the event. */
  previousWaitingFor: string[];
  /**
   * What went wrong after the event line was durable (a full disk while
   * rewriting protocol.json): the append happened; the cached state is stale
   * until the next append or `acp doctor --fix`.
   */
  warnings?: string[];
  /** The store that published it, and how many runs of the transaction that took (git: rejected pushes + 1). */
  store?: { name: string; attempts: number };
}

/** Options of {@link append} and {@link transact}. */
export interface AppendOptions {
  /** Told once what a held lock waits for (see {@link FolderLockOptions.onWait}). */
  onLockWait?: (message: string) => void;
  /** Give up when the lock has not changed hands (nor the line ahead moved) for this long (default 60 s); a line that keeps moving is waited out. */
  lockTimeoutMs?: number;
  /** Stop waiting for the lock when this aborts (SIGINT/SIGTERM; see {@link FolderLockOptions.signal}). */
  lockSignal?: AbortSignal;
  /** Told what a store found and settled on the way (git: an earlier run's event that did or did not land). */
  onNote?: (line: string) => void;
  /** The store to write through (default: the one {@link openStore} chooses for the folder). */
  store?: Store;
  /**
   * [beyond] Strict mode: refuse, in validate's words, an event after which
   * the folder would fail `validate --strict` (see {@link strictSetting}).
   * Default: the configuration's `strict:` key, else off (the Python tools'
   * behaviour).
   */
  strict?: boolean;
}

/** What a write is about, so that a store can publish exactly that. */
export interface WriteIntent {
  /** Who writes. */
  participant: string;
  /** `append` (one event), `freeze` (a deliverable frozen and its event), `write` (a document written through a server), `repair` (`doctor --fix`), `init` (a new folder). */
  kind: 'append' | 'freeze' | 'write' | 'repair' | 'init';
  /**
   * Absolute paths of the documents the write speaks for besides
   * events.jsonl and protocol.json (what a participant edits before the
   * event): a store that publishes takes their changes along.
   */
  documents: string[];
}

/** What a store's transaction body gets: the held lock, and a record of what it wrote. */
export interface StoreSession {
  /** The folder lock, held for the whole body. */
  readonly lock: FolderLock;
  /** The store brought the folder up to date before this run: anything read before the transaction may be stale. */
  readonly synced: boolean;
  /** Absolute paths the body wrote (the log and protocol.json included). */
  readonly written: Set<string>;
  /** One line per thing done (`seq 3 review_submitted by bob`), for the store's record (a commit message). */
  readonly done: string[];
  /** 1 for the first run of the body; more when the store ran it again (git: a rejected push). */
  readonly attempt: number;
}

/**
 * Where a folder's writes become durable and reach the other participants:
 * the local folder (the default), or a plugin's (git). Every door — the CLI,
 * the library, the JSON-RPC and MCP servers, `freeze` — writes through
 * {@link transact}, which runs the body inside the folder's store.
 */
export interface Store {
  /** Its name, for messages and `--json` (`local`, `git`). */
  readonly name: string;
  /**
   * Run `body` under the folder lock and resolve once what it wrote is
   * durable where the others read it. The body may run more than once (git:
   * another clone pushed first; the folder is brought up to date and every
   * check runs again), so it keeps no state between runs. A refusal thrown
   * by the body is passed on and nothing is published.
   */
  transact<T>(folder: string, intent: WriteIntent, body: (session: StoreSession) => Promise<T>, options?: Pick<AppendOptions, 'onLockWait' | 'lockTimeoutMs' | 'lockSignal' | 'onNote'>): Promise<T>;
  /**
   * Make a new folder and publish it (`init`; git: committed on top of the
   * remote's branch and pushed). `body` writes the folder and calls
   * `underLock` around its writes once the folder exists (the lock lives
   * in it). A store without `create` leaves the new folder local; its
   * first transaction publishes it.
   */
  create?<T>(folder: string, intent: WriteIntent, body: (underLock: <U>(fn: () => Promise<U>) => Promise<U>) => Promise<T>, options?: Pick<AppendOptions, 'onLockWait' | 'lockTimeoutMs' | 'onNote'>): Promise<Published<T>>;
  /**
   * Keep the local folder up to date while someone waits on it (git: fetch
   * and fast-forward now, then in the background with back-off). Resolves
   * once the folder is current; `failed` ends the wait with an error that no
   * retry can fix. Returns the function that stops following.
   */
  follow?(folder: string, options: FollowOptions): Promise<() => void>;
}

/** What {@link Store.create} made: the body's value, and the store's record of the publication. */
export interface Published<T> {
  value: T;
  /** The store's own facts for `--json` (git: `{attempts, remote, branch}`), under its name. */
  record?: Json;
  /** One line for a person (`committed and pushed to origin/main`). */
  note?: string;
}

/** Options of {@link Store.follow}. */
export interface FollowOptions {
  signal?: AbortSignal;
  /** The store changed the folder (a waiter reads it again at once). */
  changed(): void;
  /** Following cannot go on: the wait fails with this error. */
  failed(error: AcpError): void;
  /** A line for a person watching (a transient failure, retried). */
  note?(line: string): void;
}

/** A store a plugin provides (see {@link AcpPlugin.stores}). */
export interface StoreProvider {
  /** Its name (`git`). */
  name: string;
  /**
   * The flag that turns it on for one run (`git` → `--git`), added to every
   * command that writes or waits (`append`, `wait`, `freeze`, `serve`…).
   */
  flag?: { name: string; description: string };
  /**
   * The store for `folder`, or undefined when this provider does not serve
   * it in this run (its flag absent and its configuration silent). Errors
   * (not a git work tree, a malformed configuration) are thrown.
   */
  open(context: StoreContext): Promise<Store | undefined> | Store | undefined;
}

/** What a {@link StoreProvider} is asked with. */
export interface StoreContext {
  folder: string;
  host: Host;
  /** The provider's flag was given. */
  requested: boolean;
  /** The configuration file's sections (none with `--no-config`). */
  config?: Registry['config'];
}

/** Inside {@link transact}: the session, and the writes a door may make. */
export interface Transaction {
  readonly session: StoreSession;
  /** Append an event with every check of spec §6 and the `append:before` hooks; its `append:after` hooks run once the store published it. */
  append(request: AppendRequest): Promise<AppendResult>;
  /**
   * Replace a file atomically; the store publishes it with the transaction.
   * `path` (absolute) must lie beneath `options.base` (default: the folder;
   * an external deliverable's is its repoRoot, see
   * {@link deliverableBoundary}), and is written without following any
   * symlink below the base: a directory swapped for a symlink after the
   * caller's checks is refused, never written through. `throughLink`: see
   * {@link WriteAtomicOptions} (protocol.json, which a user may have linked
   * on purpose, as the Python tools write it).
   */
  write(path: string, text: string | Uint8Array, options?: TransactionWriteOptions): Promise<void>;
  /** Remove a clone-local leftover inside the folder (an interrupted write's temporary, a lock breaker's file): never published, as it never was. */
  remove(path: string): Promise<void>;
}

/** Options of {@link Transaction.write}. */
export interface TransactionWriteOptions extends WriteAtomicOptions {
  /** The directory the path must stay beneath (default: the collaboration folder). */
  base?: string;
}

/** Options of {@link validate}. */
export interface ValidateOptions {
  /**
   * [beyond] Also what strict mode asks (see {@link checkStrict}): no step
   * recorded over an empty or template document. A strict append refuses an
   * event after which this validation would fail.
   */
  strict?: boolean;
}

/** The outcome of validation. */
export interface ValidationResult {
  ok: boolean;
  errors: string[];
  warnings: string[];
  /** A signed folder's verification (docs/signing.md): absent for an unsigned folder or `signatures: false`. */
  signing?: SigningSummary;
  /** What validate could not keep outside the folder (its checkpoint, in a read-only home): for the user, not a finding. */
  notes?: string[];
}

/** One whole-file read ({@link FileSystem.readFile}): the cap it was read under, and the bytes it gave or the error it raised. */
export type FileRead = { maxBytes: number | undefined } & ({ bytes: Uint8Array } | { error: unknown });

/**
 * What one validate read of a folder ({@link AcpApi.validateRead}), for a
 * caller that shows the same folder (the humans' `status`): through
 * {@link AcpApi.readingHost} it reads what validate read from here, so a
 * command reads each file once and shows the very files validate judged.
 */
export interface FolderRead {
  /** Each whole file validate read, by path. */
  files: Map<string, FileRead>;
  /**
   * The log's events in order and what its scan said, when validate parsed
   * every line from the first and the log is short (under the validation
   * checkpoint's threshold, 64 kB: a longer one is resumed from the
   * checkpoint, and its events are never all held); else absent.
   */
  log?: { events: Json[]; errors: string[]; size: number; lines: number; tornTail: boolean };
}

/** Options of {@link validate}. */
export interface ValidateOptions {
  /**
   * Verify a signed folder's chain and signatures (default `true`); `false`
   * validates exactly as the spec's tools do, which ignore the extra keys
   * signing adds (spec §2: "unknown extra keys are tolerated everywhere").
   */
  signatures?: boolean;
}

/** What {@link verifySignatures} found. */
export interface SignatureReport {
  errors: string[];
  warnings: string[];
  /** Absent when the folder declares no signing. */
  signing?: SigningSummary;
  /**
   * protocol.json's `signing` rebuilt from the log, when protocol.json's
   * copy (removed, without its head, keys that are not the log's) is all
   * that is wrong: `doctor --fix` writes it.
   */
  rebuilt?: SigningDeclaration;
}

/**
 * What `init` asks for: {@link INIT_OPTIONS} as the library names them
 * (`participants`, `primaryType`, `mode`, …), and the registered keys as a record.
 */
export interface InitRequest extends RequestOf<typeof INIT_OPTIONS, 'participant' | 'objective' | 'completion'> {
  /** Public keys of participants registered at init (participant → key, as `acp key` prints it), instead of at their first append. */
  participantKeys?: Record<string, string>;
}

/** What `init` did. */
export interface InitResult {
  /** `false` when `resume` found an existing folder. */
  created: boolean;
  protocol?: ProtocolDocument;
  files: string[];
  /** A store that published the new folder (not the local one): its name, record and note (see {@link Published}). */
  store?: { name: string; record?: Json; note?: string };
}

/** Options of {@link init}. */
export interface InitOptions extends Pick<AppendOptions, 'onLockWait' | 'lockTimeoutMs'> {
  /** The store that makes and publishes the folder (default: the one {@link openStore} finds for it). */
  store?: Store;
}

/** The next action for a participant. */
export interface NextResult {
  phase: string;
  proposalOwner: string;
  waitingFor: string[];
  lastEvent?: { seq: unknown; event: unknown; from: unknown };
  action: string;
  /** 0, or 1 when the cached phase is invalid. */
  exitCode: number;
  /** Why the answer comes from the log rather than protocol.json's cache (a stale cache); the CLI prints it on stderr. */
  note?: string;
}

/** Bounds of `findCollaborations`: a huge tree costs a bounded walk, never a stall. */
export interface CollaborationSearch {
  /** How many levels below the root a collaboration folder may sit (0: the root only; default 3, what the dashboard and the MCP resources list). */
  depth?: number;
  /** Stop after this many collaborations (default 500). */
  maxFolders?: number;
  /** Stop after looking into this many directories (default 5,000). */
  maxDirs?: number;
  /** Stops the walk (what was found so far is returned). */
  signal?: AbortSignal;
}

/** What `findCollaborations` found. */
export interface CollaborationList {
  /** The collaboration folders, absolute, in sorted order. */
  folders: string[];
  /** The bound that ended the walk before the end of the tree, if one did: the list is partial. */
  stopped?: 'maxFolders' | 'maxDirs';
}

/** Where a server's documents must stay besides their folder, and how its refusals name that place. */
export interface DocumentScope {
  /** The server's root (a real path): nothing outside it is read or written. */
  root: string;
  /** The root as refusals name it (`the MCP server's root`): never by its absolute path. */
  rootName: string;
}

/** A document a client may touch: where it is and the folder its real path must stay in. */
export interface DocumentTarget {
  path: string;
  boundary: string;
  /** The boundary is an external deliverable's repo root. */
  external?: boolean;
}

/** What `writeCollaborationDocument` writes: a document, its text, and who writes it. */
export interface DocumentWrite {
  doc: string;
  content: string;
  /** Add to the end instead of replacing (reviews). */
  append?: boolean;
  /** Named in the store's record of the write (`acp mcp`, a participant). */
  writer: string;
}

/** Options of {@link waitForTurn}. */
export interface WaitOptions {
  /** Fallback poll period, seconds (default 2). */
  intervalSeconds?: number;
  /** Give up after this many seconds; 0 waits forever (default 1800). */
  timeoutSeconds?: number;
  /** Stop waiting. */
  signal?: AbortSignal;
  /** Called with `waiting: …` lines whenever the state changes. */
  onProgress?(line: string): void;
  /** The store to follow (default: the one {@link openStore} chooses for the folder). */
  store?: Store;
}

/** What {@link waitForTurn} returns. */
export interface WaitResult {
  /** `ready: …` line. */
  reason: string;
  next: NextResult;
}

/** Wake-ups for a reader that follows a folder (see {@link followFolder}). */
export interface FolderFollower {
  /**
   * Forget the changes seen so far: call it just before reading the folder,
   * so that only a change made after the read makes {@link next} return at once.
   */
  settle(): void;
  /**
   * Resolve at the next change of the folder, when the signal aborts, or
   * after `ms` at the latest (the polling fallback); at once when a change
   * came since {@link settle}. `true` when a change notification (or the
   * abort) ended the wait, `false` when the time ran out.
   */
  next(ms: number): Promise<boolean>;
  /** Count as a change now (another source, such as a store that fetched, changed the folder). */
  wake(): void;
  /** Stop watching. */
  close(): void;
}

/** Options of {@link openCollaboration}. */
export interface OpenOptions {
  /** Host capabilities; defaults to the host runtime's files. A Promise of one (`createNodeHost()`, which is async) is awaited. */
  host?: Host | Promise<Host>;
  /** Registry with deliverable types and plugins; defaults to the built-ins. */
  registry?: Registry;
}

/** A collaboration folder bound to a host and a registry. */
export interface Collaboration {
  readonly folder: string;
  readonly host: Host;
  readonly registry: Registry;
  init(request: InitRequest): Promise<InitResult>;
  append(request: AppendRequest): Promise<AppendResult>;
  state(): Promise<DerivedState>;
  validate(): Promise<ValidationResult>;
  next(participant: string): Promise<NextResult>;
  wait(participant: string, options?: WaitOptions): Promise<WaitResult>;
}

/** Where the CLI writes and what it reads from the process. */
export interface CliIo {
  argv: string[];
  stdout(text: string): void;
  stderr(text: string): void;
  /** Colour output allowed? */
  color: boolean;
  /** Process capabilities for plugins (running commands); default: none. */
  runtime?: RuntimeFacts;
  /** Environment access (default: none). */
  env?(name: string): string | undefined;
  /** Aborted when the process should stop. */
  signal?: AbortSignal;
}

/** Where a command runs: the host, and where its output goes (default: nowhere). */
export interface RunCommandOptions {
  host: Host;
  runtime?: RuntimeFacts;
  out?(text: string): void;
  err?(text: string): void;
  /** Where {@link CommandContext.progress} goes (default: `out`, unless the options ask for JSON). */
  progress?(text: string): void;
  color?: boolean;
  signal?: AbortSignal;
  env?(name: string): string | undefined;
}

/** What {@link inspectFolderLock} finds. */
export interface FolderLockState {
  /** `free`: no lock file; `held`: its holder is alive or cannot be judged yet; `abandoned`: the next writer will break it. */
  status: 'free' | 'held' | 'abandoned';
  /** The holder, as recorded in the lock file (absent when the file is torn). */
  pid?: number;
  hostname?: string;
  /** Whether the holder is alive on this machine (`undefined`: cannot tell, e.g. another machine). */
  alive?: boolean;
  /** Age of the lock file. */
  ageMs?: number;
  /** The lock file's text. */
  raw?: string;
  /** A breaker file (`.acp.lock.break`) and whether it is abandoned. */
  breaker?: { ageMs: number; abandoned: boolean; raw: string };
}

/** Options of {@link withFolderLock}. */
export interface FolderLockOptions {
  /**
   * Give up waiting for the lock when it has not changed hands (nor the
   * line ahead moved) for this long (default 60 s): `lock_timeout`. A line
   * that keeps moving is waited out, however long.
   */
  timeoutMs?: number;
  /**
   * Told once, after a second of waiting, what the wait is for (holder pid,
   * host, age). The library prints nothing itself; the CLI passes stderr.
   */
  onWait?: (message: string) => void;
  /** The handle of a lock the caller already holds on this folder (see {@link FolderLock}). */
  held?: FolderLock;
  /**
   * Stop waiting when this aborts (SIGINT/SIGTERM): the wait ends with an
   * `AcpAbortError` and withdraws its ticket. A lock already taken is held
   * until `fn` ends.
   */
  signal?: AbortSignal;
}

/**
 * What a file of the waiting line is: `live`, a waiter that renews its
 * ticket (the only kind anyone waits for); `stale`, a waiter that is gone
 * or stopped renewing (cleared by the next writer); `garbage`, not a
 * waiter's ticket at all (a name that is not a ticket's, a directory, FIFO
 * or symlink, an oversized or unreadable file): ignored by writers, removed
 * by `acp doctor --fix`.
 */
export interface LockTicket {
  name: string;
  /** The ticket's number (absent when the name is not a ticket's). */
  number?: number;
  kind: 'live' | 'stale' | 'garbage';
  /** Why it is that kind, for a person (doctor). */
  why: string;
  /** The recorded waiter and its raw text (live and stale tickets). */
  pid?: number;
  hostname?: string;
  raw?: string;
  ageMs?: number;
  /** A live ticket: when its lease ends unless renewed (host clock, ms); judged again then. */
  liveUntil?: number;
}

/**
 * Proof that the caller holds a folder's lock: what {@link withFolderLock}
 * hands its function, for passing to calls made under that lock (an append
 * inside `acp freeze`), which would otherwise wait for the lock forever.
 */
export interface FolderLock {
  readonly folder: string;
  readonly token: string;
}

/** Options of {@link writeFileAtomic}. */
export interface WriteAtomicOptions {
  /** Replace what a symbolic link resolves to and keep the link (protocol.json, as the Python tools write it). */
  throughLink?: boolean;
}

/** Helpers over Markdown text, shared with plugins. */
export interface MarkdownHelpers {
  /** The status of a deliverable (`Draft`, `In Review`, `Frozen`) or undefined. */
  status(text: string): string | undefined;
  /** Whether a `## {section}` heading exists. */
  hasSection(text: string, section: string): boolean;
  /** The body of a section (to the next `## ` heading), or undefined when absent. */
  sectionBody(text: string, section: string): string | undefined;
  /** Python's `str.strip()`. */
  strip(text: string): string;
}

/** Facts read from readiness.md (spec §7.3). */
export interface ReadinessFacts {
  blocking: string[];
  unresolved: string[];
  deferredWithoutReason: string[];
  readyToImplement: boolean;
  /** Whether a completion gate text is checked. */
  isGateChecked(text: string): boolean;
}

/** What validate makes of an event without a signature in a signed folder. */
export type UnsignedPolicy = 'warn' | 'refuse';

/** protocol.json's `signing` (and, without `head`, seq 1's): docs/signing.md. */
export interface SigningDeclaration {
  version: number;
  id: string;
  policy: UnsignedPolicy;
  /** Participant → current public key (base64url, 32 bytes). */
  keys: Record<string, string>;
  /** The last line acp signed: its seq and the SHA-256 of its text. */
  head?: { seq: number; sha256: string };
  /** seq 1 only: SHA-256 of each of the collaboration's fixed terms (signing.ts termsDigests). */
  terms?: Record<string, string>;
}

/** What a signed folder's verification found, besides its messages (status and the report show it). */
export interface SigningSummary {
  /** Events in the log. */
  events: number;
  /** What an unsigned event is in this collaboration (seq 1's declaration). */
  policy: UnsignedPolicy;
  /** Signed events whose signature verified. */
  verified: number;
  /** Seqs of the events without a signature, as `[first, last]` ranges. */
  unsigned: [number, number][];
  /** The log's last signed line, as protocol.json's `head` should record it. */
  head: { seq: number; sha256: string } | null;
  /** How many problems (errors) the verification found. */
  problems: number;
}

/** Where a scan of events.jsonl resumes, and what the skipped prefix said. */
export interface ResumePoint {
  /** Byte offset just after the prefix's last `\n`. */
  offset: number;
  /** Lines in the prefix (later line numbers continue from here). */
  lines: number;
  /** The messages of the prefix's unreadable lines, in order. */
  errors: string[];
  /** Shown every piece of the log the scan reads (`position`: where it starts), for the whole log's digest. */
  seen?(piece: Uint8Array, position: number): void;
}

/** The parsed command line of one command. */
export interface ParsedArgv {
  options: OptionValues;
  args: Record<string, string | undefined>;
}

/** Options of {@link createNodeHost}. */
export interface NodeHostOptions {
  /**
   * Do the file operations synchronously (inside the async API). The CLI
   * does: the promise API costs ~0.5 ms of CPU per call in a fresh Bun
   * process and starts a thread pool, a quarter of a small command, while
   * the calls take microseconds. A library host stays asynchronous: an
   * embedder's loop over `await host.fs…` must still yield to timers and I/O.
   */
  syncFs?: boolean;
  /**
   * The file holding the secret that authenticates `.acp.checkpoint.json`
   * (created 0600 on first use), or `null` for none (every append replays
   * the log). Default: `$XDG_STATE_HOME/acp/checkpoint.key`, else
   * `~/.local/state/acp/checkpoint.key`: outside every collaboration folder,
   * so a writer of the folder alone cannot forge a checkpoint.
   */
  checkpointKeyFile?: string | null;
  /**
   * Where the participants' private signing keys live (docs/signing.md):
   * `{ dir }` (one key file per participant), `{ file }` (one key for
   * whoever appends), or `null` for none. Default: the file named by
   * `$ACP_SIGNING_KEY_FILE`, else the directory `$ACP_SIGNING_KEY_DIR`, else
   * `$XDG_STATE_HOME/acp/keys/` (`~/.local/state/acp/keys/`).
   */
  signingKeys?: { dir: string } | { file: string } | null;
}

/** An in-memory {@link FileSystem} (see {@link createMemoryFileSystem}). */
export interface MemoryFileSystem extends FileSystem {
  /** Create a symbolic link at `path` to `target` (absolute, or relative to the link's directory). */
  symlink(target: string, path: string): Promise<void>;
  /** A copy of every regular file's bytes, by absolute path. */
  snapshot(): Map<string, Uint8Array>;
  /** Always available here: `onChange` runs synchronously after each change in the directory. */
  watch(path: string, onChange: () => void): () => void;
}

/** Options of {@link createMemoryHost}. */
export interface MemoryHostOptions {
  /** Share one file system between several hosts (several agents, one sandbox). */
  fs?: MemoryFileSystem;
  /** Initial files for a new file system: absolute path → contents (parents are created). */
  files?: Record<string, string | Uint8Array>;
  /** Directory relative paths resolve against (default `/`). */
  cwd?: string;
  /** Clock (default: the system clock). */
  now?: () => Date;
  /** Process id recorded in locks (default 1). */
  pid?: number;
  /** The append checkpoint's key (default: 32 random bytes, this host's own). */
  checkpointKey?: Uint8Array;
  /** The signing keys (default: an empty keyring of this host's own, in memory). */
  keyring?: Keyring;
}

/** Options of {@link dumpsPy}: json.dumps' `indent` and `sort_keys` (separators follow them). */
export interface DumpOptions {
  /** Pretty-print with this many spaces (separators `,` and `: `); compact (`,` and `:`) without. */
  indent?: number;
  /** Keys in code point order (Python's `sorted`). */
  sortKeys?: boolean;
}

/** A UTC instant as Python's datetime holds it, exactly: whole seconds since 1970-01-01 and microseconds (0–999999). */
export type PyInstant = readonly [seconds: number, micros: number];

/** A JSON object (as parsed from protocol.json or an event line). */
export type Json = Record<string, unknown>;

/**
 * An error acp raises on purpose: runtime/errors.ts's `AcpError` and its
 * kin are classes of exactly this shape (acp.ts exports the classes).
 */
export interface AcpError extends Error {
  /** Process exit code the CLI uses for this error. */
  readonly exitCode: number;
  /** Individual messages when several checks failed at once (joined by `; ` in `message`). */
  readonly messages: string[];
  /** What kind of refusal this is, stable across versions and wording (see runtime/errors.ts). */
  readonly code: string;
}

/** A hook's registration options (see {@link HookRunner.hook}). */
export interface HookOptions {
  order?: HookOrder;
  owner?: string;
  timeoutMs?: number;
}

/** The hooks of a registry: acp.ts's `HookRunner` class has this shape. */
export interface HookRunner {
  /** Register a hook; returns a function that unregisters it. */
  hook<K extends keyof AcpHooks>(name: K, fn: AcpHooks[K], options?: HookOptions): () => void;
  /** Whether any hook is registered under `name`. */
  has(name: keyof AcpHooks): boolean;
  /**
   * Run the hooks of `name` in order (`pre`, normal, `post`; registration
   * order within each), one after another. The first failure stops the run
   * and is thrown, unless `failures` is given: then every hook runs and the
   * failures are collected there (used after an append, which cannot be undone).
   */
  call<K extends keyof AcpHooks>(name: K, context: Parameters<AcpHooks[K]>[0], failures?: AcpError[]): Promise<void>;
}

/** Deliverable types and plugins known to a runtime instance: acp.ts's `Registry` class has this shape. */
export interface Registry {
  readonly types: Map<string, { definition: DeliverableType; origin: Origin }>;
  readonly plugins: { plugin: AcpPlugin; origin: Origin }[];
  readonly hooks: HookRunner;
  /** The plugins' stores, in load order (see `openStore`). */
  readonly stores: StoreProvider[];
  /**
   * Commands by name. `chain` is the command followed by the plugins'
   * `extend` wrappers, innermost first (the CLI runs the last one).
   */
  readonly commands: Map<string, { spec: CommandSpec; origin: Origin; chain: CommandSpec[]; owners: string[] }>;
  /**
   * The configuration file the loader read (none with `--no-config`): its
   * path and its top-level sections other than `plugins:` (e.g. `git:`),
   * for the plugins that own them.
   */
  config?: { file: string; sections: Record<string, unknown> };
  /** Register a deliverable type. A name can be registered once (built-in names are reserved). */
  addType(definition: DeliverableType, origin: Origin): void;
  /** Look a type up. */
  type(name: string): DeliverableType | undefined;
  /** Register a plugin (its setup, then its types and hooks). Nothing is registered if it fails. */
  addPlugin(plugin: AcpPlugin, origin: Origin, context?: PluginContext): Promise<void>;
  /** Run every plugin's cleanup in reverse order; all run even if some throw. */
  cleanup(): Promise<void>;
}

/** Follows a log event by event and tells whose turn it is: runtime/turn.ts's `TurnTracker` class has this shape. */
export interface TurnTracker {
  readonly state: DerivedState;
  /** The next event of the log. */
  add(event: Json): void;
  /** The turn, given protocol.json as read now. */
  turn(protocol: Json): Turn;
}

/**
 * The library as one object: what `libraryApi()` returns and every plugin
 * and command receives as `context.api`. Everything here is also a named
 * export of acp.ts (the functions' own documentation is there).
 */
export interface AcpApi {
  /** This runtime's version (package.json's, inlined by the bundler). */
  readonly VERSION: string;
  /** The folder lock's file name; other readers (the RPC server) wait while it exists. */
  readonly LOCK_NAME: '.acp.lock';
  /** The append checkpoint's file name (a cache, local to one machine). */
  readonly CHECKPOINT_NAME: '.acp.checkpoint.json';
  /** The breaker lock's file name (taken while breaking an abandoned lock). */
  readonly LOCK_BREAKER: '.acp.lock.break';
  /** Every event name the protocol knows, in the spec's order. */
  readonly EVENT_NAMES: typeof EVENT_NAMES;
  /** Every phase of the state machine. */
  readonly PHASES: typeof PHASES;
  /** The options of `acp init`: the one table its doors and {@link InitRequest} are read from. */
  readonly INIT_OPTIONS: typeof INIT_OPTIONS;
  /** The options of `acp append`: the one table its doors and {@link AppendRequest} are read from. */
  readonly APPEND_OPTIONS: typeof APPEND_OPTIONS;
  /** Files a collaboration folder must hold (spec §1). */
  readonly REQUIRED_FILES: readonly ['protocol.json', 'events.jsonl', 'proposal.md', 'review.md', 'decisions.md', 'readiness.md', 'conclusion.md'];
  /** Files whose presence is an error (spec §1). */
  readonly FORBIDDEN_FILES: readonly ['state.log', 'discussion.md', 'opinions.md'];
  /** Required `## ` headings of conclusion.md (spec §7.4). */
  readonly CONCLUSION_SECTIONS: readonly ['Decision Outcome', 'Rationale', 'Deliverable Receipt', 'Accepted Decisions Summary', 'Readiness Result', 'Assumptions', 'Deferred Follow-ups', 'Implementation Blockers', 'Next Action'];
  /** Default `wait` timeout: 30 minutes (spec §10). */
  readonly DEFAULT_WAIT_TIMEOUT_SECONDS: 1800;
  /** Default `wait` fallback poll period in seconds. */
  readonly DEFAULT_WAIT_INTERVAL_SECONDS: 2;
  /**
   * A refusal the protocol defines: the message is the exact text other tools
   * print, and the CLI maps it to `error: {message}` with exit code 2.
   */
  readonly AcpError: new (message: string | string[], exitCode?: number, code?: string) => AcpError;
  /** Raised when `wait` runs out of time. */
  readonly AcpTimeoutError: new (message: string) => AcpError;
  /** Raised when an operation is aborted through its `AbortSignal`. */
  readonly AcpAbortError: new () => AcpError;
  /** Raised when a plugin's code throws; names the plugin (exit 2). */
  readonly AcpPluginError: new (plugin: string, hook: string, cause: unknown) => AcpError & { readonly plugin: string };
  /**
   * Raised when an `append:after` or `phase:change` hook failed: the event
   * *was* appended (`appended`) and must not be appended again.
   */
  readonly AcpAppendedError: new (messages: string[], appended: AppendResult) => AcpError & { readonly appended: AppendResult };
  /** A mistake on the command line: `error: …`, exit 2 (argparse's wording). */
  readonly UsageError: new (message: string) => AcpError;
  /**
   * The default host: files through `node:fs`, which Node, Bun and Deno all
   * provide (Deno maps it onto its permission system, so only the folders
   * granted are reachable). The host a plugin makes here is guarded
   * (runtime/guarded-host.ts): a folder's own files refused.
   */
  createNodeHost(options?: NodeHostOptions): Promise<Host>;
  /**
   * A host whose files live in memory: nothing touches disk, no permission is
   * needed. `openCollaboration(folder, { host: createMemoryHost() })` runs a
   * whole collaboration in-process.
   */
  createMemoryHost(options?: MemoryHostOptions): Host & {
      fs: MemoryFileSystem;
  };
  /**
   * A file system that lives in a `Map`: for tests, and for sandboxes that
   * mediate file access themselves. POSIX-like semantics (missing parents →
   * ENOENT, exclusive create → EEXIST, atomic rename, symlinks); paths must be
   * absolute. Watchers of a directory are called synchronously after every
   * change to it or to one of its entries, so `waitForTurn` wakes at once.
   */
  createMemoryFileSystem(options?: {
      files?: Record<string, string | Uint8Array>;
      now?: () => number;
  }): MemoryFileSystem;
  /** Bind a folder to a host and registry for in-process use. */
  openCollaboration(folder: string, options?: OpenOptions): Promise<Collaboration>;
  /**
   * A registry with the built-in deliverable types and, when asked, plugins.
   * If loading fails, the plugins already loaded are cleaned up; otherwise call
   * `registry.cleanup()` when done with it.
   */
  createRegistry(options?: RegistryOptions): Promise<Registry>;
  /** Build the context handed to a plugin module. */
  pluginContext(options: Record<string, unknown>, runtime?: RuntimeFacts, extra?: {
      source?: string;
      warn?(message: string): void;
      valibot?: typeof import('valibot');
  }): PluginContext;
  /**
   * Initialise a collaboration folder (spec §9). **[beyond]** never
   * overwrites an existing file: if any target exists, nothing is written.
   */
  init(host: Host, folder: string, request: InitRequest, registry: Registry, options?: InitOptions): Promise<InitResult>;
  /**
   * Append an event (spec §6) through the folder's store. Raises
   * {@link AcpError} with the spec's message when a check fails; nothing is
   * written then.
   */
  append(host: Host, folder: string, request: AppendRequest, registry?: Registry, options?: AppendOptions): Promise<AppendResult>;
  /**
   * The one write transaction. `body` runs inside the folder's store (under
   * the lock; for git, fetched first and pushed after, retried when another
   * clone pushed first); the events it appended get their `append:after` and
   * `phase:change` hooks once, after the store published them, with the seqs
   * that landed. Every door writes through here: `append`, `freeze`, a
   * server's document write.
   */
  transact<T>(host: Host, folder: string, intent: WriteIntent, body: (tx: Transaction) => Promise<T>, registry?: Registry, options?: AppendOptions): Promise<T>;
  /**
   * Whether appends are strict: `strict: true|false` in acp.config.yaml,
   * else the door's default (`false` for the CLI and the library, `true` for
   * the MCP and JSON-RPC servers, whose callers are agents).
   */
  strictSetting(registry: Registry | undefined, doorDefault: boolean): boolean;
  /**
   * The store that serves `folder`: the one a plugin's provider claims (its
   * flag in `flags`, or its configuration), else the local folder. Two
   * providers claiming one folder is an error: nothing would say which wins.
   */
  openStore(host: Host, folder: string, registry?: Registry, flags?: Readonly<Record<string, unknown>>): Promise<Store>;
  /**
   * `participant`'s public signing key on this host (made on first use), and
   * where its private key lives: what a participant hands the initializer of
   * a signed collaboration (`init --register-key`) to be registered from
   * the start (docs/signing.md).
   */
  signingKey(host: Host, participant: string): Promise<{
      participant: string;
      publicKey: string;
      where: string;
  }>;
  /**
   * Verify a folder's chain and signatures alone, without the rest of
   * validate (doctor; a quick check after a sync): the same messages as
   * validate's signature checks, and the log's unreadable lines. A folder
   * that declares no signing and whose events carry none reports nothing.
   */
  verifySignatures(host: Host, folder: string): Promise<SignatureReport>;
  /** The local folder as a store: the folder lock (taken for a guarded host too: its body gets the session, never a writer), and atomic writes inside it. */
  localStore(host: Host): Store;
  /** Absolute paths of the documents an event speaks for (its `doc`, resolved as a deliverable where it is one). */
  eventDocuments(folder: string, protocol: Json, request: Pick<AppendRequest, 'event' | 'doc'>): string[];
  /** The turn of a folder whose log is read whole: the one answer of every door (runtime/turn.ts; the rule is in docs/spec-notes.md). */
  turnOf(protocol: Json, events: Json[]): Turn;
  /** Whose turn it is in `folder` (protocol.json as read, or `protocol`): {@link turnOf} after reading the log, without its replay where the append checkpoint vouches for it. */
  folderTurn(host: Host, folder: string, protocol?: Json): Promise<Turn>;
  /** The rule, given the turn after each of the log's last {@link TURN_HISTORY} events, oldest first (for a follower that keeps its own, such as the JSON-RPC server's). */
  decideTurn(protocol: Json, recent: readonly TurnSnapshot[]): Turn;
  /** How many of the log's last turns {@link decideTurn} reads. */
  readonly TURN_HISTORY: number;
  /** Words for a cache left behind (`cache: 'behind'`), on stderr of the command that answered from the log. */
  staleNote(turn: Turn): string | undefined;
  /** Follows a log event by event and answers whose turn it is against protocol.json as read now (the rule of {@link turnOf}). */
  readonly TurnTracker: new (participants: string[]) => TurnTracker;
  /** protocol.json's cached turn as written: the one reader of its `currentPhase`, `proposalOwner` and `waitingFor`. */
  readCachedTurn(protocol: Json): CachedTurn;
  /** Whether protocol.json caches exactly `turn` (phase, owner and waitingFor). */
  cacheEquals(protocol: Json, turn: TurnState): boolean;
  /** protocol.json caching `turn` (its other keys kept), written at `updatedAt`. */
  withCachedTurn(protocol: Json, turn: TurnState, updatedAt: unknown): Json;
  /** The code of a refused event: a wrong phase outranks a wrong actor (nobody may do it now). */
  refusalCodeOf(state: DerivedState): RefusalCode;
  /**
   * Validate a collaboration folder (spec §8). Never throws for folder content
   * problems: they are reported as errors, in the order of the spec's steps;
   * a signed folder's chain and signatures after them (docs/signing.md).
   */
  validate(host: Host, folder: string, registry: Registry, options?: ValidateOptions): Promise<ValidationResult>;
  /** {@link AcpApi.validate}, and what it read of the folder: for a view of the same folder that reads each file once ({@link FolderRead}). */
  validateRead(host: Host, folder: string, registry: Registry, options?: ValidateOptions): Promise<{ result: ValidationResult; read: FolderRead }>;
  /**
   * `host`, whose whole-file reads ({@link FileSystem.readFile}) of a path
   * in `files` read under the same cap give what that read gave (its bytes,
   * or its error again), and whose other reads are made and added to
   * `files`; everything else is `host`'s.
   */
  readingHost(host: Host, files: Map<string, FileRead>): Host;
  /** Compute the next action for `participant` (spec §10). */
  nextAction(host: Host, folder: string, participant: string, registry?: Registry): Promise<NextResult>;
  /** Format a {@link NextResult} as the CLI prints it. */
  formatNext(result: NextResult & {
      hints?: string[];
  }): string;
  /**
   * Wait until `participant` is listed in waitingFor or the phase is
   * completed/blocked (spec §10). Woken by file-system notifications, with a
   * poll every `intervalSeconds` as the fallback; a store that follows others
   * (git) keeps the folder up to date meanwhile. The turn is every door's
   * (runtime/turn.ts): the log's when protocol.json was left behind by an append.
   */
  waitForTurn(host: Host, folder: string, participant: string, options?: WaitOptions, registry?: Registry): Promise<WaitResult>;
  /**
   * Follow a folder's changes: file-system notifications where the host has
   * them, a poll every `ms` of {@link FolderFollower.next} otherwise. `wait`
   * and `acp log --follow` use it, so an idle follower uses no CPU and a
   * handoff is seen within milliseconds.
   */
  followFolder(host: Host, folder: string, signal?: AbortSignal): FolderFollower;
  /** Read protocol.json; raises the spec's messages (§6 step 1). */
  readProtocol(host: Host, folder: string): Promise<Json>;
  /** Read and parse events.jsonl; a missing file is `error: missing events.jsonl`. */
  readEventLog(host: Host, folder: string): Promise<EventLog>;
  /**
   * Read events.jsonl and hand its events to `onEvent` in order, a megabyte of
   * whole lines at a time (never the whole log at once); returns the errors of
   * bad lines (as {@link readEventLog}). Throws what readEventLog throws, maybe
   * after some events: the consumer then starts afresh. `resume` (the
   * validation checkpoint) may vouch for a prefix; `afterChunk` runs after
   * each piece's events (validate checks their signatures there).
   */
  scanEventLog(host: Host, folder: string, onEvent: (event: Json, line: string) => void, resume?: (file: FileReader) => Promise<ResumePoint | undefined>, afterChunk?: () => Promise<void>): Promise<Omit<EventLog, 'events'> & {
      lines: number;
  }>;
  /** Parse events.jsonl text (spec §4). */
  parseEventLog(text: string): Omit<EventLog, 'size'>;
  /** Serialise an event as one compact line (spec §4) as json.dumps does, with U+0085/U+2028/U+2029 escaped. */
  formatEventLine(event: Json): string;
  /**
   * A JSON parser's complaint, made engine-neutral: V8 quotes the whole input
   * ("…" is not valid JSON) and JavaScriptCore prefixes "JSON Parse error: ";
   * either would leak file content (or a second `error: `) into our message.
   */
  jsonErrorDetail(error: unknown): string;
  /** Next seq: largest integer seq + 1, or 1 (spec §4). */
  nextSeq(events: Json[]): number;
  /** The initial (empty) derived state. */
  emptyState(): DerivedState;
  /**
   * Apply one event to the derived state (mutates `state`), recording errors.
   * `readiness` is the *current* readiness.md (decision gates, spec §5).
   */
  applyEvent(state: DerivedState, event: Json, participants: string[], readiness: ReadinessFacts): void;
  /** Replay a whole log (spec §5). */
  replay(events: Json[], participants: string[], readiness: ReadinessFacts): DerivedState;
  /** Participant ids of a protocol document, accepting `{id}` objects and strings. */
  participantIds(protocol: Json): string[];
  /** Is this path unsafe (absolute or with a `..` segment)? (spec §3) */
  isUnsafePath(path: string): boolean;
  /**
   * The reference string of a deliverable file: `{dir}/{file}` or
   * `external:{file}`, in `PurePosixPath`'s normal form as the Python tools
   * build it (`docs/` and `./x.md` give `docs/x.md`; dir `.` gives `x.md`).
   */
  deliverableRef(protocol: Json, file: string): string;
  /** Reference of the primary deliverable, or `undefined` when not declared. */
  primaryRef(protocol: Json): string | undefined;
  /** Resolve a deliverable reference to an absolute path (no safety checks). */
  resolveDeliverablePath(folder: string, protocol: Json, ref: string): string | undefined;
  /**
   * The directory a deliverable must stay in: its repoRoot for an
   * `external:` reference, else the collaboration folder.
   */
  deliverableBoundary(folder: string, protocol: Json, ref: string): string;
  /**
   * A confined file system's refusal (a symlink, or a file, where a
   * directory was expected beneath the folder) as an {@link AcpError} (exit
   * 2, the folder unchanged); `undefined` for any other error.
   */
  symlinkRefusal(error: unknown): AcpError | undefined;
  /**
   * Read a deliverable's bytes; `undefined` when missing. **[beyond]** refuses
   * a file whose real path (symlinks followed) leaves its boundary.
   */
  readDeliverable(host: Host, folder: string, protocol: Json, ref: string): Promise<Uint8Array | undefined>;
  /**
   * Read access to a folder's documents, for hooks and plugins: declared
   * deliverable references go through {@link readDeliverable}; other names
   * must stay inside the folder (symlinks followed). See {@link DocumentFiles}.
   */
  documentFiles(host: Host, folder: string, protocol: Json): DocumentFiles;
  /**
   * The path of a document reference, checked like the CLI checks it: a
   * declared deliverable must stay inside its boundary (the folder, or
   * repoRoot for `external:`), any other name inside the folder, with
   * symlinks followed (for a file that does not exist yet, its nearest
   * existing ancestor's). For the RPC server's read and write, so both go
   * through the same check as `validate` and hooks.
   */
  checkedDocumentPath(host: Host, folder: string, protocol: Json, ref: string): Promise<string>;
  /** Markdown helpers (spec §3, §7). */
  readonly markdown: MarkdownHelpers;
  /** Parse readiness.md (missing file → empty text). */
  readReadiness(text: string): ReadinessFacts;
  /** The decision-gate messages for a decision_accepted (spec §7.3). */
  decisionGateErrors(readiness: ReadinessFacts): string[];
  /** Errors of conclusion.md before completed (spec §7.4). */
  conclusionErrors(text: string, ref: string | undefined): string[];
  /** The protocol's template of a new deliverable (spec §3). */
  defaultTemplate(context: {
      title: string;
      type: string;
      sections: string[];
  }): string;
  /** The protocol's six generated completion gates (spec §9). */
  defaultGates(ref: string, type: string): string[];
  /**
   * The review headings of review.md, as the Python tools' dict of them
   * holds them: one per seq (a bigint beyond 2^53), in the order each seq
   * first appears, with the participant of its last heading.
   */
  reviewHeadings(body: string): {
      participant: string;
      seq: number | bigint;
  }[];
  /** {@link zonedInstant} in epoch milliseconds (the microseconds below a millisecond dropped), for a JavaScript Date. */
  parseZonedTimestamp(value: unknown): number | undefined;
  /**
   * Look at a folder's lock without taking it (for `acp doctor`). Raises an
   * {@link AcpError} when `.acp.lock` is not a regular file.
   */
  inspectFolderLock(host: Host, folder: string): Promise<FolderLockState>;
  /**
   * Every file of a folder's waiting line, judged (for `acp doctor`); with
   * `clear`, remove what is not live (a directory stays, and is reported).
   */
  inspectLockLine(host: Host, folder: string, clear?: boolean): Promise<{ tickets: LockTicket[]; cleared: LockTicket[] }>;
  /** The most each kind of file can legitimately hold (bytes): a larger one is refused unread. */
  readonly READ_LIMITS: { readonly protocol: number; readonly log: number; readonly document: number; readonly checkpoint: number };
  /**
   * Read a regular file of at most `maxBytes`; a FIFO, device or socket, or a
   * larger file, is refused with an {@link AcpError} naming it (exit 2).
   */
  readCapped(host: Host, path: string, maxBytes: number, name: string): Promise<Uint8Array>;
  /**
   * Hold the folder's exclusive lock while `fn` runs, renewing its lease. A
   * lock whose holder is gone is broken under a second "breaker" lock, so two
   * processes never both break it and steal a live holder's lock. With
   * `options.held` (the handle of a lock the caller holds on this folder), `fn`
   * runs at once: the lock is not taken twice. It coordinates, and grants
   * no write: a guarded host stays guarded inside it.
   */
  withFolderLock<T>(host: Host, folder: string, fn: (lock: FolderLock) => Promise<T>, options?: FolderLockOptions): Promise<T>;
  /**
   * Replace a file atomically: write a temporary sibling, then rename it over.
   * `throughLink`: when `path` is a symbolic link, replace what it resolves to
   * and keep the link, as Python's `write_text` (which the other tools rewrite
   * protocol.json with) writes through it. Through the guarded host
   * whatever host is given: a plugin's own files only.
   */
  writeFileAtomic(host: Host, path: string, text: string | Uint8Array, options?: WriteAtomicOptions): Promise<void>;
  /**
   * The host with its file system confined beneath `bases` (see
   * {@link FileSystem.beneath}): below them no symlink is followed, so a path
   * checked there cannot be redirected out between the check and the use.
   * The same host object for the same host and bases (the in-process lock
   * queue is kept per host). A host without `beneath` is returned as it is:
   * its callers' checks are all it has. With `readOnly` (the dashboard's
   * view): nothing outside the bases is read either, and nothing is written.
   */
  confineHost(host: Host, bases: readonly string[], options?: { readOnly?: boolean }): Host;
  /** Python's strict UTF-8 decoding with universal newlines (spec §8a); raises AcpError on invalid UTF-8. */
  decodeText(bytes: Uint8Array, name: string): string;
  /**
   * Lowercase hex SHA-256 of bytes. Up to {@link SMALL_DIGEST_BYTES}, in plain
   * TypeScript: loading WebCrypto costs a fresh Node process ~4 ms, more than
   * hashing a few kilobytes in the interpreter (the deliverables of a young
   * collaboration, which `status` hashes). Larger inputs take node:crypto's
   * digest (WebCrypto where there is no node:crypto).
   */
  sha256Hex(bytes: Uint8Array): Promise<string>;
  /** UTC, second precision, `Z` suffix (spec §2). */
  formatTimestamp(date: Date): string;
  /**
   * Key-sorted, 2-space, non-ASCII-preserving JSON with a trailing newline
   * (spec §2): `json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)`,
   * so every value read from protocol.json is written back as Python would.
   */
  formatProtocolJson(value: unknown): string;
  /** Python `repr()` of a JSON value, as the common tools print it in messages. */
  pyRepr(value: unknown): string;
  /** Python `str()` of a JSON value (f-string interpolation). */
  pyStr(value: unknown): string;
  /** Python's `str.strip()` (a loop: `/\s+$/` takes quadratic time on long inner white space). */
  pyStrip(text: string): string;
  /**
   * `str(PurePosixPath(*parts))`: later absolute parts restart the path, empty
   * and `.` segments vanish, `..` stays, a leading `//` (exactly two) is kept,
   * and nothing left is `.`. The Python tools build deliverable references this
   * way, so `docs/` + `./x.md` is `docs/x.md` (issue 12 item 1).
   */
  purePosixPath(...parts: string[]): string;
  /**
   * `Path.expanduser()` (Python 3.11): a first component `~` is HOME (`/`
   * when HOME is empty; without HOME, the current user's home from the
   * password database), `~name` is that user's home, so `--folder=~/G` (no
   * shell to expand it) means what it means to the Python tools rather than
   * a directory named `~` (issue 12 item 2). Users are looked up through
   * `host.userHome` (/etc/passwd); an unknown one is Python's RuntimeError,
   * here a clean error.
   */
  expandUser(path: string, env?: (name: string) => string | undefined, host?: Pick<Host, 'userHome'>): string;
  /**
   * `json.loads(text)` (Python 3.11). Throws {@link PyJsonError} with
   * Python's message; the int-digits limit and nesting beyond
   * {@link MAX_DEPTH} give the words of Python's ValueError and RecursionError.
   */
  loadsPy(text: string): unknown;
  /**
   * `json.dumps(value, ensure_ascii=False, …)`: non-ASCII kept, the float and
   * int texts of Python, keys in Python order. Lone surrogates are written as
   * `\udxxx` escapes (Python writes them raw and then fails to encode the
   * file). `undefined` members are left out, as JSON.stringify does.
   */
  dumpsPy(value: unknown, options?: DumpOptions): string;
  /**
   * Python's `str.splitlines()`: lines end at `\n`, `\r\n`, `\r`, VT, FF,
   * `\x1c`–`\x1e`, NEL, U+2028 and U+2029; a final break adds no empty line.
   * The Python tools split events.jsonl so: a raw U+2028 ends a line there.
   */
  pySplitLines(text: string): string[];
  /** Compare strings by code point, as Python's `sorted()` does. */
  comparePy(a: string, b: string): number;
  /** Sort strings as Python's `sorted()` does. */
  sortedPy(values: Iterable<string>): string[];
  /**
   * Parse argv the way Python's argparse parses the other tools' command lines
   * (spec §8b): `--name value` and `--name=value`, unambiguous prefixes (the
   * Python tools' options first), the last of a repeated single-value option
   * wins but every occurrence is converted, a value may start with `-` when it
   * is a negative number or holds a space, `--` ends the options. Errors carry
   * argparse's wording. cac cannot express prefixes or these value rules, so
   * this is the one parser (cac's would be a second).
   */
  parseArgv(argv: readonly string[], spec: Pick<CommandSpec, 'options' | 'args'> & {
      name?: string;
  }, globals?: Record<string, CommandOptionSpec>): ParsedArgv;
  /**
   * Python's `int()` on a command-line value: surrounding white space, a sign,
   * `_` between digits and any Unicode decimal digit are accepted.
   */
  parsePyInt(text: string, name: string): number;
  /** Python's `float()` on a command-line value (also `inf`, `1e3`, `1_0`, Unicode digits). */
  parsePyFloat(text: string, name: string): number;
  /**
   * Run a registered command with options already parsed (no argv): the CLI
   * edge calls it after parsing, the RPC server and embedders call it with
   * typed values. Options are checked against the command's spec (types,
   * `choices`, `required`) with the CLI's words. Typed errors are thrown.
   */
  runCommand(registry: Registry, name: string, input: {
      options?: OptionValues;
      args?: Record<string, string | undefined>;
  }, where: RunCommandOptions): Promise<CommandResult>;
  /**
   * The one check of a door's arguments (runtime/doors.ts): JSON values,
   * named as `door` names the options, become the values `run` gets (keyed
   * by option name), or a usage error in the CLI's words; `decided` are the
   * values the door sets itself.
   */
  optionsFromDoor(options: Readonly<Record<string, CommandOptionSpec>> | undefined, args: Readonly<Record<string, unknown>>, door: Door, decided?: OptionValues): OptionValues;
  /** Refuse a deliverable type the registry does not know, in argparse's words for a choice (init's first check, at every door). */
  refuseUnknownType(registry: Registry, type: string): void;
  /**
   * A command's options for a call to a server: the client's `args` checked
   * as {@link AcpApi.optionsFromDoor} checks them, and what the server
   * decides itself (the folder, its store flags, strictness, JSON output).
   */
  serverOptions(registry: Registry, spec: CommandSpec, args: Readonly<Record<string, unknown>>, door: 'mcp' | 'rpc', given?: ServerDecisions): OptionValues;
  /** What `door` calls option `name` (`reply_to` at MCP, `replyTo` over JSON-RPC), or undefined where it does not take it. */
  doorName(name: string, option: CommandOptionSpec, door: Door): string | undefined;
  /** The JSON Schema of the options `door` takes: MCP's inputSchema of a command's tool. */
  doorSchema(options: Readonly<Record<string, CommandOptionSpec>> | undefined, door: Door): JsonObjectSchema;
  /**
   * The user-facing side of a failure: an {@link AcpError}'s message, exit code
   * and stable code, or a file system failure nobody foresaw (a file replaced
   * by a directory, a disk error…), which is the environment's, not a bug
   * (`file system error: …`, exit 2). `undefined` for anything else: a bug.
   */
  describeError(error: unknown): {
      message: string;
      exitCode: number;
      code: string;
  } | undefined;
  /** The errno-like `code` of a thrown value (`'ENOENT'`…), if it has one. */
  errorCode(error: unknown): string | undefined;
  /** Build an error carrying an errno-like code (used by file systems). */
  fsError(code: string, message: string): Error & {
      code: string;
  };
  /** Whether path `child` is `parent` or lies below it (lexically; resolve symlinks first). */
  isInside(child: string, parent: string): boolean;
  /** Whether a value is a JSON object (not an array, not null, not a number kept as a PyFloat or PyInt). */
  isObject(value: unknown): value is Json;
  /**
   * Real path of `path`, or of its nearest existing ancestor joined with the
   * rest (for paths that do not exist yet, such as the folder `init` creates).
   */
  realpathOfExistingAncestor(host: Host, path: string): Promise<string>;
  /** Whether `a` is a list equal, item by item, to `b`. */
  sameList(a: unknown, b: readonly string[]): boolean;
  /** Resolve after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
  /** The collaboration folders under `root`, bounded (see runtime/folder.ts): the one walk every door lists them with. */
  findCollaborations(host: Host, root: string, limits?: CollaborationSearch): Promise<CollaborationList>;
  /** The collaboration documents an agent writes (spec §1). */
  readonly WRITABLE_DOCUMENTS: readonly string[];
  /** Documents only the runtime writes: readable, never writable. */
  readonly READ_ONLY_DOCUMENTS: readonly string[];
  /** The references of the declared deliverables: the primary, then the supporting ones. */
  declaredRefs(protocol: Json): string[];
  /** Where a server door's `doc` lives, or a refusal: the one boundary rule of document reads and writes (runtime/document-access.ts). */
  documentTarget(host: Host, folder: string, protocol: Json, doc: string, mode: 'read' | 'write', scope: DocumentScope): Promise<DocumentTarget>;
  /** Read a document for a server's client: its decoded text and the SHA-256 of its bytes. */
  readCollaborationDocument(host: Host, folder: string, doc: string, scope: DocumentScope): Promise<{ doc: string; content: string; sha256: string }>;
  /** Check a document write before the lock is taken (target and size); returns the target. */
  documentWriteTarget(host: Host, folder: string, write: DocumentWrite, scope: DocumentScope): Promise<DocumentTarget>;
  /** The body of a document write, inside `transact`. */
  writeCollaborationDocument(host: Host, folder: string, tx: Transaction, write: DocumentWrite, scope: DocumentScope): Promise<{ doc: string; bytes: number; sha256: string }>;
  /** Text for a server's client: paths under the server's `root` made relative to it (the root itself `.`); see runtime/util.ts. */
  withoutRoot(root: string, text: string): string;
  /** {@link AcpApi.withoutRoot} on every string of a JSON value. */
  jsonWithoutRoot<T>(root: string, value: T): T;
}
