/**
 * The protocol's own commands — init, append, next, wait, validate, plugins
 * (alias types) — as the core's internal plugin (spec §6, §8, §9, §10). They
 * are registered first, through the same API any plugin uses, and call the
 * library through `context.api`.
 * @module
 */
import type { AcpApi, AcpPlugin, AppendRequest, CommandContext, CommandOptionSpec, CommandSpec, Origin, PluginContext, Registry } from '../acp.ts';
import type { Json } from '../runtime/util.ts';


const FOLDER: CommandOptionSpec = { type: 'string', required: true, description: 'Collaboration folder' };
const JSON_FLAG: CommandOptionSpec = { type: 'boolean', description: 'Print one JSON object' };
const text = (description: string, extra: Partial<CommandOptionSpec> = {}): CommandOptionSpec => ({ type: 'string', description, ...extra });
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const strs = (value: unknown): string[] => (Array.isArray(value) ? value : []);

/** `acp init` (spec §9). */
const initCommand: CommandSpec = {
  name: 'init',
  description: 'Create a collaboration folder (spec §9)',
  options: {
    folder: FOLDER,
    participant: text('Participant id (repeatable; the first owns the proposal)', { multiple: true, valueName: 'id' }),
    objective: text('What the collaboration must achieve'),
    completion: text('Objective completion gate (repeatable)', { multiple: true, valueName: 'gate' }),
    'primary-deliverable-type': text('Primary deliverable type', { required: true, valueName: 'type' }),
    'primary-deliverable-file': text('Primary deliverable file name (.md)', { valueName: 'file' }),
    'primary-deliverable-check': text('Checklist section for custom types (repeatable)', { multiple: true, valueName: 'section' }),
    'deliverables-mode': text('internal (default) or external', { valueName: 'mode' }),
    'deliverables-dir': text('Deliverables directory (default deliverables)', { valueName: 'dir' }),
    'repo-root': text('Repository root, relative to the folder (external mode)', { valueName: 'path' }),
    resume: { type: 'boolean', description: 'Succeed if the folder already exists' },
    json: JSON_FLAG,
  },
  async run(ctx) {
    const o = ctx.options;
    const folder = ctx.folder();
    const result = await ctx.api.init(ctx.host, folder, {
      participants: strs(o.participant),
      objective: str(o.objective) ?? '',
      completion: strs(o.completion),
      primaryType: str(o['primary-deliverable-type'])!,
      primaryFile: str(o['primary-deliverable-file']),
      primaryChecks: strs(o['primary-deliverable-check']),
      mode: str(o['deliverables-mode']),
      dir: str(o['deliverables-dir']),
      repoRoot: o['repo-root'] === undefined ? undefined : ctx.api.expandUser(str(o['repo-root'])!, ctx.env),
      resume: o.resume === true,
    }, ctx.registry);
    if (!ctx.json) ctx.out(result.created ? `Initialized ACP schema v2 collaboration folder: ${folder}` : `Collaboration folder already exists: ${folder}`);
    return { exitCode: 0, json: { ok: true, exitCode: 0, created: result.created, folder, files: result.files } };
  },
};

/** The library's append request from `acp append`'s options (also used by the git plugin's transaction). */
export function appendRequest(ctx: Pick<CommandContext, 'options' | 'api'>): AppendRequest {
  const o = ctx.options;
  const replyTo = str(o['reply-to']);
  return {
    participant: str(o.participant)!,
    event: str(o.event)!,
    summary: str(o.summary)!,
    // The Python tools add doc and sha256 when truthy: an empty value is no value.
    doc: str(o.doc) || undefined,
    replyTo: replyTo === undefined ? undefined : ctx.api.parsePyInt(replyTo, 'reply-to'),
    role: str(o.role),
    sha256: str(o.sha256) || undefined,
  };
}

/** `acp append` (spec §6). */
const appendCommand = (api: AcpApi): CommandSpec => ({
  name: 'append',
  description: 'Append an event (spec §6)',
  options: {
    folder: FOLDER,
    participant: text('Who appends', { required: true, valueName: 'id' }),
    event: text(`Event name (${api.EVENT_NAMES.join(', ')})`, { required: true, valueName: 'name' }),
    summary: text('One-line summary', { required: true, valueName: 'text' }),
    doc: text('Document the event refers to', { valueName: 'ref' }),
    'reply-to': text('Seq of the event this answers', { valueName: 'seq' }),
    role: text('primary or supporting (deliverable events)', { choices: ['primary', 'supporting'] }),
    sha256: text('SHA-256 of the frozen deliverable', { valueName: 'hex' }),
    json: { type: 'boolean', description: 'Print the appended event as JSON' },
  },
  async run(ctx) {
    const result = await ctx.api.append(ctx.host, ctx.folder(), appendRequest(ctx), ctx.registry, { onLockWait: ctx.err });
    for (const warning of result.warnings ?? []) ctx.err(`warning: ${warning}`);
    if (!ctx.json) ctx.out(`appended seq ${result.event.seq}: ${result.event.event}`);
    return { exitCode: 0, json: { ok: true, exitCode: 0, event: result.event, phase: result.state.phase, waitingFor: result.state.waitingFor } };
  },
});

/** `acp next` (spec §10). */
const nextCommand: CommandSpec = {
  name: 'next',
  description: 'Print the next action for a participant (spec §10)',
  options: { folder: FOLDER, participant: text('Participant id', { required: true, valueName: 'id' }), json: JSON_FLAG },
  async run(ctx) {
    const result = await ctx.api.nextAction(ctx.host, ctx.folder(), str(ctx.options.participant)!, ctx.registry);
    if (!ctx.json) ctx.out(ctx.api.formatNext(result));
    return { exitCode: result.exitCode, json: { ok: result.exitCode === 0, ...result } };
  },
};

/** `acp wait` (spec §10). */
const waitCommand = (api: AcpApi): CommandSpec => ({
  name: 'wait',
  description: 'Wait until it is a participant’s turn (spec §10)',
  options: {
    folder: FOLDER,
    participant: text('Participant id', { required: true, valueName: 'id' }),
    interval: text(`Fallback poll period (default ${api.DEFAULT_WAIT_INTERVAL_SECONDS})`, { valueName: 'seconds' }),
    timeout: text(`Give up after this long; 0 waits forever (default ${api.DEFAULT_WAIT_TIMEOUT_SECONDS})`, { valueName: 'seconds' }),
    json: JSON_FLAG,
  },
  async run(ctx) {
    const seconds = (name: 'interval' | 'timeout'): number | undefined => {
      const value = str(ctx.options[name]);
      if (value === undefined) return undefined;
      const n = ctx.api.parsePyFloat(value, name);
      if (!(n >= 0)) throw new ctx.api.UsageError(`argument --${name}: invalid non-negative number: '${value}'`);
      return n;
    };
    const options = { intervalSeconds: seconds('interval'), timeoutSeconds: seconds('timeout'), signal: ctx.signal, onProgress: ctx.json ? undefined : ctx.out };
    try {
      const result = await ctx.api.waitForTurn(ctx.host, ctx.folder(), str(ctx.options.participant)!, options, ctx.registry);
      if (!ctx.json) ctx.out(`${result.reason}\n${ctx.api.formatNext(result.next)}`);
      // The turn came: exit 0 like the Python tools, even when the next
      // action reports an invalid cached phase (issue 12 item 9).
      return { exitCode: 0, json: { ...result.next, ok: true, exitCode: 0, ready: result.reason.slice('ready: '.length) } };
    } catch (error) {
      if (!(error instanceof ctx.api.AcpTimeoutError)) throw error;
      ctx.err(error.message);
      return { exitCode: 1, json: { ok: false, exitCode: 1, timeout: true, error: error.message } };
    }
  },
});

/** `acp validate` (spec §8). */
const validateCommand: CommandSpec = {
  name: 'validate',
  description: 'Validate a collaboration folder (spec §8)',
  options: { folder: FOLDER, json: { type: 'boolean', description: 'Print {ok, errors, warnings}' } },
  async run(ctx) {
    const result = await ctx.api.validate(ctx.host, ctx.folder(), ctx.registry);
    const exitCode = result.errors.length ? 2 : result.warnings.length ? 1 : 0;
    if (!ctx.json) {
      if (result.errors.length) {
        ctx.out('ACP validation failed');
        for (const error of result.errors) ctx.out(`ERROR: ${error}`);
      } else ctx.out(result.warnings.length ? 'ACP validation passed with warnings' : 'ACP validation passed');
      for (const warning of result.warnings) ctx.out(`WARNING: ${warning}`);
    }
    // ok mirrors the exit code: warnings exit 1, so they are not ok (issue 12 item 11).
    return { exitCode, json: { ...result, ok: exitCode === 0, exitCode } };
  },
};

/** `acp plugins` (alias `types`): what is loaded and where each piece came from. */
const pluginsCommand: CommandSpec = {
  name: 'plugins',
  description: 'List the deliverable types, plugins and commands loaded, and where each came from',
  options: { json: JSON_FLAG },
  run(ctx) {
    const json = { ok: true, exitCode: 0, ...describeRegistry(ctx.registry) };
    if (ctx.json) return { exitCode: 0, json };
    const where = (origin: Origin): string => (origin.kind === 'built-in' ? `built-in (${origin.source})` : `${origin.source}${origin.via ? ` (via ${origin.via})` : ''}`);
    ctx.out('Deliverable types:');
    for (const { definition, origin } of ctx.registry.types.values()) {
      ctx.out(`  ${definition.type.padEnd(20)} ${definition.title.padEnd(30)} ${origin.plugin ? `plugin '${origin.plugin}': ` : ''}${where(origin)}`);
    }
    const loaded = ctx.registry.plugins.filter(({ origin }) => origin.kind === 'plugin');
    ctx.out(loaded.length ? 'Plugins:' : 'Plugins: none (load with --plugin <file> or the plugins: list of acp.config.yaml)');
    for (const { plugin, origin } of loaded) ctx.out(`  ${plugin.name.padEnd(20)} ${where(origin)}; ${plugin.enforce ? `enforce ${plugin.enforce}; ` : ''}provides ${provides(plugin)}`);
    ctx.out('Commands:');
    for (const { spec, origin } of ctx.registry.commands.values()) ctx.out(`  ${spec.name.padEnd(20)} ${origin.plugin ?? 'core'}`);
    return { exitCode: 0, json };
  },
};

/** What a plugin contributes, in one line. */
function provides(plugin: AcpPlugin): string {
  const parts = [
    ...(plugin.deliverableTypes ?? []).map((t) => `type ${t.type}`),
    ...Object.keys(plugin.hooks ?? {}).map((h) => `hook ${h}`),
    ...(plugin.commands ?? []).map((c) => `command ${c.name}`),
  ];
  return parts.join(', ') || 'nothing';
}

/** The registry's contents as JSON (`acp plugins --json`). */
function describeRegistry(registry: Registry): Json {
  const types = [...registry.types.values()].map(({ definition, origin }) => ({
    type: definition.type,
    title: definition.title,
    origin: origin.kind,
    source: origin.source,
    ...(origin.plugin ? { plugin: origin.plugin } : {}),
    ...(origin.via ? { via: origin.via } : {}),
    recordedAs: origin.kind === 'built-in' || definition.recordAsCustom === false ? definition.type : 'custom',
  }));
  const plugins = registry.plugins.filter(({ origin }) => origin.kind === 'plugin').map(({ plugin, origin }) => ({
    name: plugin.name,
    source: origin.source,
    ...(origin.via ? { via: origin.via } : {}),
    enforce: plugin.enforce ?? 'normal',
    hooks: Object.keys(plugin.hooks ?? {}),
    types: (plugin.deliverableTypes ?? []).map((t) => t.type),
    commands: (plugin.commands ?? []).map((c) => c.name),
  }));
  const commands = [...registry.commands.values()].map(({ spec, origin }) => ({ name: spec.name, description: spec.description, plugin: origin.plugin ?? null, source: origin.source }));
  return { types, plugins, commands };
}

/** The protocol's own commands, registered like any plugin's (vite-style internal plugin). */
export default (context: PluginContext): AcpPlugin =>
  context.definePlugin({
    name: 'protocol',
    commands: [
      initCommand,
      appendCommand(context.api),
      nextCommand,
      waitCommand(context.api),
      validateCommand,
      pluginsCommand,
      { ...pluginsCommand, name: 'types', description: 'Same as `acp plugins`' },
    ],
  });
