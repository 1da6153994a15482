/**
 * The protocol's own commands — init, append, next, wait, validate, plugins
 * (alias types) — as the core's internal plugin (spec §6, §8, §9, §10). They
 * are registered first, through the same API any plugin uses, and call the
 * library through `context.api`.
 * @module
 */
import type { AcpPlugin, AppendRequest, CommandSpec, Origin, PluginContext, Registry } from '../runtime/types.ts';
import type { Json } from '../runtime/util.ts';


const FOLDER = { type: 'string', required: true, description: 'Collaboration folder (over MCP and JSON-RPC: relative to the server root)' } as const;
const JSON_FLAG = { type: 'boolean', description: 'Print one JSON object' } as const;

/** `acp init` (spec §9): made and published by the folder's store (`--git`: committed and pushed). */
const initCommand = (c: PluginContext): CommandSpec =>
  c.defineCommand({
    name: 'init',
    description: 'Create a collaboration folder (spec §9)',
    doors: { rpc: { participant: 'many', writes: true }, mcp: 'init' },
    store: true,
    // The one table (runtime/types.ts): the MCP tool, the JSON-RPC action and InitRequest read the same data.
    options: c.api.INIT_OPTIONS,
    async run(ctx) {
      const o = ctx.options;
      // Python's argparse refuses an unknown type (a choice) before anything else is read.
      ctx.api.refuseUnknownType(ctx.registry, o['primary-deliverable-type']);
      const folder = ctx.folder();
      const keys = o['register-key']?.map((entry) => {
        const at = entry.lastIndexOf('=');
        if (at <= 0) throw new ctx.api.AcpError(`argument --register-key: expected id=key, got ${ctx.api.pyRepr(entry)}`);
        return [entry.slice(0, at), entry.slice(at + 1)] as const;
      });
      const result = await ctx.api.init(ctx.host, folder, {
        participants: o.participant ?? [],
        objective: o.objective ?? '',
        completion: o.completion ?? [],
        primaryType: o['primary-deliverable-type'],
        primaryFile: o['primary-deliverable-file'],
        primaryChecks: o['primary-deliverable-check'] ?? [],
        mode: o['deliverables-mode'],
        dir: o['deliverables-dir'],
        repoRoot: o['repo-root'] === undefined ? undefined : ctx.api.expandUser(o['repo-root'], ctx.env, ctx.host),
        resume: o.resume === true,
        sign: o.sign === true,
        signingPolicy: o['signing-policy'],
        participantKeys: keys && Object.fromEntries(keys),
      }, ctx.registry, { store: await ctx.store(folder) });
      if (!ctx.json) ctx.out(result.created ? `Initialized ACP schema v2 collaboration folder: ${folder}` : `Collaboration folder already exists: ${folder}`);
      if (!ctx.json && result.store?.note) ctx.out(result.store.note);
      // A store that publishes says how (git: `{ git: { attempts, remote, branch } }`); the local folder adds nothing.
      const store = result.store?.record !== undefined ? { [result.store.name]: result.store.record } : {};
      return { exitCode: 0, json: { ok: true, exitCode: 0, created: result.created, folder, files: result.files, ...store } };
    },
  });

/** `acp append` (spec §6): through the folder's store (`--git`, or the configuration). */
const appendCommand = (c: PluginContext): CommandSpec =>
  c.defineCommand({
    name: 'append',
    description: 'Append an event (spec §6)',
    doors: { rpc: { participant: 'one', writes: true }, mcp: 'append' },
    store: true,
    // The one table (runtime/types.ts): the MCP tool, the JSON-RPC action and AppendRequest read the same data.
    options: c.api.APPEND_OPTIONS,
    async run(ctx) {
      const o = ctx.options;
      const folder = ctx.folder();
      // The Python tools add doc and sha256 when truthy: an empty value is no value.
      const request: AppendRequest = { participant: o.participant, event: o.event, summary: o.summary, doc: o.doc || undefined, replyTo: o['reply-to'], role: o.role, sha256: o.sha256 || undefined };
      if (o['new-key'] === true) request.rotateKey = true;
      const result = await ctx.api.append(ctx.host, folder, request, ctx.registry, { onLockWait: ctx.err, lockSignal: ctx.signal, onNote: (line) => ctx.err(`note: ${line}`), store: await ctx.store(folder), strict: o.strict ? true : undefined });
      for (const warning of result.warnings ?? []) ctx.err(`warning: ${warning}`);
      if (!ctx.json) ctx.out(`appended seq ${result.event.seq}: ${result.event.event}`);
      // A store that publishes says how (git: `{ git: { attempts } }`); the local folder adds nothing.
      const store = result.store && result.store.name !== 'local' ? { [result.store.name]: { attempts: result.store.attempts } } : {};
      return { exitCode: 0, json: { ok: true, exitCode: 0, event: result.event, phase: result.state.phase, waitingFor: result.state.waitingFor, ...store } };
    },
  });

/** `acp next` (spec §10). */
const nextCommand = (c: PluginContext): CommandSpec =>
  c.defineCommand({
    name: 'next',
    description: 'Print the next action for a participant (spec §10)',
    doors: { rpc: { participant: 'one', writes: false } },
    options: { folder: FOLDER, participant: { type: 'string', required: true, valueName: 'id', description: 'Participant id' }, json: JSON_FLAG },
    async run(ctx) {
      const result = await ctx.api.nextAction(ctx.host, ctx.folder(), ctx.options.participant, ctx.registry);
      if (result.note) ctx.err(`note: ${result.note}`);
      if (!ctx.json) ctx.out(ctx.api.formatNext(result));
      return { exitCode: result.exitCode, json: { ok: result.exitCode === 0, ...result } };
    },
  });

/** `acp wait` (spec §10): woken by the folder, and by the folder's store (`--git`) when it follows others. */
const waitCommand = (c: PluginContext): CommandSpec =>
  c.defineCommand({
    name: 'wait',
    description: 'Wait until it is a participant’s turn (spec §10)',
    doors: { mcp: 'wait' },
    store: true,
    options: {
      folder: FOLDER,
      participant: { type: 'string', required: true, valueName: 'id', description: 'Participant id' },
      interval: { type: 'seconds', doors: { mcp: false }, description: `Fallback poll period (default ${c.api.DEFAULT_WAIT_INTERVAL_SECONDS})` },
      timeout: {
        type: 'seconds',
        // MCP clients time tool calls out: the tool waits 5 minutes unless asked (and says so with a heartbeat meanwhile).
        doors: { mcp: { name: 'timeout_seconds', default: 300 } },
        description: `Give up after this many seconds; 0, or an infinite value (inf, 1e309: Python's float reads both), waits forever (default ${c.api.DEFAULT_WAIT_TIMEOUT_SECONDS}; MCP: 300)`,
      },
      json: JSON_FLAG,
    },
    async run(ctx) {
      const folder = ctx.folder();
      const options = { intervalSeconds: ctx.options.interval, timeoutSeconds: ctx.options.timeout, signal: ctx.signal, onProgress: ctx.progress, store: await ctx.store(folder) };
      try {
        const result = await ctx.api.waitForTurn(ctx.host, folder, ctx.options.participant, options, ctx.registry);
        if (result.next.note) ctx.err(`note: ${result.next.note}`);
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
  doors: { rpc: { participant: 'none', writes: false }, mcp: 'validate' },
  options: {
    folder: FOLDER,
    // The MCP tool validates as its appends do: every signature, strict unless acp.config.yaml says otherwise.
    'ignore-signatures': { type: 'boolean', doors: { mcp: false }, description: 'Do not verify a signed folder’s signatures (validate as the Python tools do)' },
    strict: { type: 'boolean', doors: { mcp: false }, description: 'Also what strict appends ask: no step recorded over an empty or template document (default: the strict: key of acp.config.yaml)' },
    json: { type: 'boolean', description: 'Print {ok, errors, warnings}' },
  },
  async run(ctx) {
    const strict = ctx.options.strict === true || ctx.api.strictSetting(ctx.registry, false);
    const result = await ctx.api.validate(ctx.host, ctx.folder(), ctx.registry, { strict, signatures: ctx.options['ignore-signatures'] !== true });
    const exitCode = result.errors.length ? 2 : result.warnings.length ? 1 : 0;
    if (!ctx.json) {
      if (result.errors.length) {
        ctx.out('ACP validation failed');
        for (const error of result.errors) ctx.out(`ERROR: ${error}`);
      } else ctx.out(result.warnings.length ? 'ACP validation passed with warnings' : 'ACP validation passed');
      for (const warning of result.warnings) ctx.out(`WARNING: ${warning}`);
      for (const note of result.notes ?? []) ctx.err(`note: ${note}`);
      // A signed folder only (the Python tools make none, so no recorded output changes): what the verdict rests on.
      if (result.signing) ctx.err(`note: ${result.signing.verified} signature${result.signing.verified === 1 ? '' : 's'} verified`);
    }
    // ok mirrors the exit code: warnings exit 1, so they are not ok (issue 12 item 11).
    return { exitCode, json: { ...result, ok: exitCode === 0, exitCode } };
  },
};

/** `acp key`: a participant's public signing key on this machine, for `init --register-key`. */
const keyCommand: CommandSpec = {
  name: 'key',
  description: 'Print a participant’s public signing key, made on first use (docs/signing.md)',
  options: { participant: { type: 'string', required: true, valueName: 'id', description: 'Participant id' }, json: JSON_FLAG },
  async run(ctx) {
    const key = await ctx.api.signingKey(ctx.host, ctx.options.participant as string);
    if (!ctx.json) ctx.out(`${key.participant}=${key.publicKey}\n(private key: ${key.where})`);
    return { exitCode: 0, json: { ok: true, exitCode: 0, ...key } };
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
      initCommand(context),
      appendCommand(context),
      nextCommand(context),
      waitCommand(context),
      validateCommand,
      keyCommand,
      pluginsCommand,
      { ...pluginsCommand, name: 'types', description: 'Same as `acp plugins`', doors: { rpc: { participant: 'none', writes: false } } },
    ],
  });
