// The commands `acp serve`, `acp rpc` and `acp wait --server`: loaded by the
// `rpc` plugin's commands (plugins/rpc.ts) when one of them runs. Option
// values arrive as the CLI edge parsed them, by their command-line names.

import { parseHostPort, parseServerConfig, ConfigError, type ServerConfigFile } from './config.ts';
import type { AcpCore, Host, Registry } from './core.ts';
import type { CommandContext as AcpCommandContext } from '../../runtime/types.ts';
import { RpcClient, RpcResponseError, RpcConnectionError, RpcEndpointError, type SubscriptionNotification } from './client.ts';
import { RpcServer } from './server.ts';
import type { FolderWatcher } from './collab.ts';
import { RpcCode } from './jsonrpc.ts';
import * as edge from './edge.ts';
import * as nodePath from 'node:path';

/** What these commands use of the command context. */
interface CommandContext {
  core: AcpCore;
  host: Host;
  registry: Registry;
  io: { stdout(text: string): void; stderr(text: string): void };
  version: string;
  env(name: string): string | undefined;
  color: boolean;
  /** `acp serve`: the store flags it was given (`--git`): the server writes and follows through the store they choose. */
  storeFlags?: Readonly<Record<string, unknown>>;
}

/** Adapt the CLI edge's command context. */
export function rpcContext(ctx: AcpCommandContext): CommandContext {
  return {
    core: ctx.api,
    host: ctx.host,
    registry: ctx.registry,
    io: { stdout: (text) => ctx.out(text.replace(/\n$/, '')), stderr: (text) => ctx.err(text.replace(/\n$/, '')) },
    version: ctx.api.VERSION,
    env: ctx.env,
    color: ctx.color,
    storeFlags: ctx.options,
  };
}

/**
 * A watched folder's store, followed while the server watches it (git: the
 * remote polled), so subscribers hear of others' events. A folder the store
 * cannot follow is served as before (local changes only), said once.
 */
function storeWatcher(ctx: CommandContext, log: (line: string) => void): FolderWatcher {
  return (folder, changed) => {
    let stop = (): void => undefined;
    let stopped = false;
    const failed = (error: unknown): void => log(`${error instanceof Error ? error.message : String(error)}; ${folder} is served with local changes only`);
    void ctx.core
      .openStore(ctx.host, folder, ctx.registry, ctx.storeFlags)
      .then((store) => store.follow?.(folder, { changed, failed, note: log }))
      .then((following) => {
        if (following && stopped) following();
        else if (following) stop = following;
      }, failed);
    return () => {
      stopped = true;
      stop();
    };
  };
}

type Options = Record<string, unknown>;

function one(options: Options, name: string): string | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  if (values.length > 1) throw new ConfigError(`argument --${name}: expected one value`);
  const single = values[0];
  if (single === true || single === false) throw new ConfigError(`argument --${name}: expected one argument`);
  return String(single);
}

async function readText(host: Host, path: string, what: string): Promise<string> {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await host.fs.readFile(path));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ConfigError(`cannot read ${what} ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message}`);
  }
}

function fail(ctx: CommandContext, error: unknown): never {
  const { AcpError } = ctx.core;
  if (error instanceof AcpError) throw error;
  // A mistyped --server (RpcEndpointError) is the user's error too: exit 2, not an internal one.
  if (error instanceof ConfigError || error instanceof RpcConnectionError || error instanceof RpcEndpointError) throw new AcpError(error.message);
  if (error instanceof RpcResponseError) throw new AcpError(error.message);
  throw error;
}

/** `acp serve`: run the server until SIGINT/SIGTERM (or, with --stdio, until stdin closes). */
export async function serveCommand(options: Options, ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  try {
    const settings = await serveSettings(options, ctx.host);
    const server = createServer(ctx, settings);
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let signalled = false;
    const removeSignals = edge.onTerminate(() => {
      signalled = true;
      stop();
    });
    try {
      // stdout is the protocol channel with --stdio: every message goes to stderr.
      io.stderr(`acp serve: serving ${settings.root}\n`);
      await listen(server, settings, ctx, stop);
      await stopped;
    } finally {
      removeSignals();
      await server.close();
    }
    io.stderr('acp serve: stopped\n');
    // Stopped by Ctrl-C or SIGTERM: the aborted command's exit (130, or 143 for SIGTERM), without an error line.
    if (signalled) throw new ctx.core.AcpAbortError();
    return 0;
  } catch (error) {
    return fail(ctx, error);
  }
}

/** What `acp serve` serves and where, from its options and its config file (the options win). */
interface ServeSettings {
  config: ServerConfigFile;
  /** The directory the config file's relative paths resolve against (the working directory without one). */
  base: string;
  root: string;
  stdio: boolean;
  tcp: string | undefined;
  unix: string | undefined;
  allowRemote: boolean;
}

/** The options and the config file, checked: the root is a directory and at least one transport is chosen. */
async function serveSettings(options: Options, host: Host): Promise<ServeSettings> {
  const configPath = one(options, 'config');
  let config: ServerConfigFile = {};
  let base = host.resolvePath('.');
  if (configPath !== undefined) {
    const absolute = host.resolvePath(configPath);
    config = await parseServerConfig(await readText(host, absolute, 'server config'), configPath);
    base = nodePath.dirname(absolute);
  }
  const rootOption = one(options, 'root');
  const root = rootOption !== undefined ? host.resolvePath(rootOption) : nodePath.resolve(base, config.root ?? '.');
  const rootStat = await host.fs.stat(root);
  if (!rootStat?.isDirectory) throw new ConfigError(`--root ${root} is not a directory`);
  const stdio = Boolean(options.stdio);
  const tcp = one(options, 'tcp') ?? (config.tcp === undefined ? undefined : String(config.tcp));
  const unixOption = one(options, 'unix');
  const unix = unixOption !== undefined ? host.resolvePath(unixOption) : config.unix === undefined ? undefined : nodePath.resolve(base, config.unix);
  if (!stdio && tcp === undefined && unix === undefined) throw new ConfigError('choose a transport: --stdio, --tcp HOST:PORT or --unix PATH (or tcp:/unix: in the config)');
  return { config, base, root, stdio, tcp, unix, allowRemote: Boolean(options['allow-remote']) || config.allowRemote === true };
}

/** Seconds of the config file as the server's milliseconds. */
function millisecondsOf(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : seconds * 1000;
}

/** The server of these settings, its limits from the config file. */
function createServer(ctx: CommandContext, settings: ServeSettings): RpcServer {
  const { config, base } = settings;
  const limits = config.limits ?? {};
  const log = (line: string): void => ctx.io.stderr(`acp serve: ${line}\n`);
  return new RpcServer({
    core: ctx.core,
    host: ctx.host,
    registry: ctx.registry,
    root: settings.root,
    tokens: config.tokens,
    limits: { maxHeaderBytes: limits.maxHeaderBytes, maxBodyBytes: limits.maxBodyBytes },
    stallTimeoutMs: millisecondsOf(limits.stallTimeoutSeconds),
    messageTimeoutMs: millisecondsOf(limits.messageTimeoutSeconds),
    maxRequestsPerConnection: limits.maxRequestsPerConnection,
    maxRequests: limits.maxRequests,
    idleTimeoutMs: millisecondsOf(limits.idleTimeoutSeconds),
    authTimeoutMs: millisecondsOf(limits.authTimeoutSeconds),
    maxConnections: limits.maxConnections,
    forwardTimeoutMs: millisecondsOf(limits.forwardTimeoutSeconds),
    pollIntervalMs: millisecondsOf(config.pollIntervalSeconds),
    repoRoots: config.repoRoots?.map((dir) => nodePath.resolve(base, dir)),
    crossTask: config.crossTask,
    version: ctx.version,
    folderWatchers: [storeWatcher(ctx, log)],
    storeFlags: ctx.storeFlags,
    log,
  });
}

/** Open every transport the settings choose (TCP, then the Unix socket, then stdio), each said on stderr; stdio's end calls `stop`. */
async function listen(server: RpcServer, settings: ServeSettings, ctx: CommandContext, stop: () => void): Promise<void> {
  const { host, io } = ctx;
  const { config, base, tcp, unix, allowRemote } = settings;
  if (tcp !== undefined) {
    const { host: h, port } = parseHostPort(tcp);
    const tls = config.tls === undefined ? undefined : { cert: await readText(host, nodePath.resolve(base, config.tls.cert), 'tls.cert'), key: await readText(host, nodePath.resolve(base, config.tls.key), 'tls.key') };
    await server.listenTcp(h, port, { allowRemote, tls });
    io.stderr(`acp serve: listening on ${tls ? 'tls' : 'tcp'}://${server.endpoints.tcp}\n`);
    if (allowRemote && !tls) io.stderr('acp serve: warning: TCP without TLS sends tokens in clear text; serve other machines this way on a trusted network only (tls: {cert, key} in the config)\n');
  }
  if (unix !== undefined) {
    await server.listenUnix(unix);
    io.stderr(`acp serve: listening on unix:${server.endpoints.unix}\n`);
  }
  if (settings.stdio) {
    const peer = server.attach(edge.stdioStream(), 'stdio');
    io.stderr('acp serve: serving stdio\n');
    void peer.closed.then(() => stop());
  }
}

/**
 * The endpoint and credentials. With `identifiesBy` (the participant given
 * on the command line as the connection's identity, `acp rpc --participant`)
 * ACP_TOKEN from the environment is not used: an explicit flag wins over the
 * environment, and a token of someone else would make the server refuse.
 */
async function clientOptions(options: Options, ctx: CommandContext, identifiesBy?: string): Promise<{ endpoint: string; token?: string; ca?: string }> {
  const endpoint = one(options, 'server') ?? ctx.env('ACP_SERVER');
  if (endpoint === undefined) throw new ConfigError('the following arguments are required: --server (or set ACP_SERVER)');
  let token = one(options, 'token');
  const tokenFile = one(options, 'token-file');
  if (token === undefined && tokenFile !== undefined) token = (await readText(ctx.host, ctx.host.resolvePath(tokenFile), 'token file')).trim();
  if (identifiesBy === undefined) token ??= ctx.env('ACP_TOKEN');
  const caFile = one(options, 'ca');
  const ca = caFile === undefined ? undefined : await readText(ctx.host, ctx.host.resolvePath(caFile), 'CA file');
  return { endpoint, token, ca };
}

function describe(error: RpcResponseError): string {
  // A protocol refusal prints exactly what the CLI would print.
  if (error.code === RpcCode.ProtocolRefusal) return error.message;
  return `${error.message} (${error.code})`;
}

/** `acp rpc <method> [params]`: one call, the result printed (indented on a terminal, one JSON line otherwise). */
export async function rpcCommand(method: string, paramsText: string | undefined, options: Options, ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  let params: unknown;
  if (paramsText !== undefined) {
    try {
      params = JSON.parse(paramsText);
    } catch {
      throw new ctx.core.AcpError(`params must be JSON: ${paramsText.length > 60 ? `${paramsText.slice(0, 60)}…` : paramsText}`);
    }
    if (typeof params !== 'object' || params === null) throw new ctx.core.AcpError('params must be a JSON object or array');
  }
  const paramFiles = options['param-file'] === undefined ? [] : (Array.isArray(options['param-file']) ? options['param-file'] : [options['param-file']]).map(String);
  for (const spec of paramFiles) {
    // --param-file args.content=draft.md: documents travel as files, not as JSON escaped by hand.
    const eq = spec.indexOf('=');
    const path = eq > 0 ? spec.slice(0, eq).split('.') : [];
    if (eq <= 0 || eq === spec.length - 1 || path.some((k) => k === '' || k === '__proto__' || k === 'constructor' || k === 'prototype')) {
      throw new ctx.core.AcpError(`argument --param-file: expected key=file (for example args.content=draft.md), got '${spec}'`);
    }
    if (Array.isArray(params)) throw new ctx.core.AcpError('argument --param-file: needs params given by name (a JSON object)');
    params ??= {};
    let node = params as Record<string, unknown>;
    for (const key of path.slice(0, -1)) {
      const child = node[key];
      if (child === undefined) node = node[key] = {};
      else if (typeof child === 'object' && child !== null && !Array.isArray(child)) node = child as Record<string, unknown>;
      else throw new ctx.core.AcpError(`argument --param-file: ${path.join('.')}: ${key} is not an object`);
    }
    try {
      node[path.at(-1)!] = await readText(ctx.host, ctx.host.resolvePath(spec.slice(eq + 1)), 'param file');
    } catch (error) {
      throw new ctx.core.AcpError((error as Error).message);
    }
  }
  const pretty = !options.json && ctx.color;
  let client: RpcClient | undefined;
  try {
    const participant = one(options, 'participant');
    const { endpoint, token, ca } = await clientOptions(options, ctx, participant);
    const timeout = typeof options.timeout === 'number' ? options.timeout : undefined;
    client = await RpcClient.connect(endpoint, { token, participant, ca, reconnect: false, heartbeatMs: 0 });
    const result = await client.call(method, params as Record<string, unknown> | undefined, { timeoutMs: timeout === undefined ? undefined : timeout * 1000 });
    io.stdout(`${pretty ? JSON.stringify(result, null, 2) : JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof RpcResponseError) {
      const body = { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
      if (!pretty) io.stdout(`${JSON.stringify({ error: body })}\n`);
      io.stderr(`error: ${describe(error)}\n`);
      return 2;
    }
    return fail(ctx, error);
  } finally {
    client?.close();
  }
}

/** `acp wait --server`: wait by subscription; prints what `acp wait` prints. */
export async function waitViaServer(options: Options, ctx: CommandContext): Promise<number> {
  const { io, core } = ctx;
  const out = (text: string): void => io.stdout(`${text}\n`);
  const json = Boolean(options.json);
  const task = one(options, 'folder');
  const participant = one(options, 'participant');
  if (task === undefined) throw new core.AcpError('the following arguments are required: --folder');
  if (participant === undefined) throw new core.AcpError('the following arguments are required: --participant');
  // Parsed once, by the command line's parser (a `seconds` option): a number here.
  const timeoutSeconds = typeof options.timeout === 'number' ? options.timeout : core.DEFAULT_WAIT_TIMEOUT_SECONDS;
  let client: RpcClient | undefined;
  let lastReport = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The deadline runs from the start: connecting (and its retries) counts against it.
  const timedOut = new Promise<undefined>((resolve) => {
    if (timeoutSeconds > 0) timer = setTimeout(() => resolve(undefined), timeoutSeconds * 1000);
  });
  try {
    const { endpoint, token, ca } = await clientOptions(options, ctx);
    const report = (state: { waitingFor: string[] }, seq: unknown): void => {
      const line = `waiting for ${state.waitingFor.length ? state.waitingFor.join(', ') : 'none'}${seq === null || seq === undefined ? '' : ` after seq ${core.pyStr(seq)}`}`;
      if (line !== lastReport && !json) out(`waiting: ${line}`);
      lastReport = line;
    };
    const subscribed = (async (): Promise<string> => {
      client = await RpcClient.connect(endpoint, { token, participant: token === undefined ? participant : undefined, ca, heartbeatMs: 15_000, maxAttempts: 10 });
      return turnBySubscription(client, task, participant, report);
    })();
    const reason = await Promise.race([subscribed, timedOut]);
    if (reason === undefined) {
      // Still connecting (retries): close whatever it reaches.
      subscribed.then(() => client?.close(), () => client?.close());
      const message = `timeout: ${lastReport || `no answer from ${one(options, 'server') ?? ctx.env('ACP_SERVER') ?? 'the server'}`}`;
      // The same object as the local wait's timeout: ok, exitCode and error (issue 12 item 11).
      if (json) out(JSON.stringify({ ok: false, exitCode: 1, timeout: true, error: message }));
      io.stderr(`${message}\n`);
      return 1;
    }
    const next = (await client!.acp('next', { folder: task, participant })) as Record<string, unknown> & { exitCode: number };
    const { ok: _ok, ...rest } = next;
    // The turn came: exit 0 like the local wait (and the Python tools), whatever the phase.
    if (json) out(JSON.stringify({ ...rest, ok: true, exitCode: 0, ready: reason.slice('ready: '.length) }));
    else out(`${reason}\n${core.formatNext(rest as unknown as Parameters<AcpCore['formatNext']>[0])}`);
    return 0;
  } catch (error) {
    if (error instanceof RpcResponseError) throw new core.AcpError(describe(error));
    return fail(ctx, error);
  } finally {
    clearTimeout(timer);
    (client as RpcClient | undefined)?.close();
  }
}

/** Subscribe to the task and resolve with the `ready: …` reason once it is the participant's turn; progress goes to `report`. */
async function turnBySubscription(client: RpcClient, task: string, participant: string, report: (state: { waitingFor: string[] }, seq: unknown) => void): Promise<string> {
  let settle!: (reason: string) => void;
  const ready = new Promise<string>((resolve) => (settle = resolve));
  let lastSeq: unknown = null;
  const onUpdate = (n: SubscriptionNotification): void => {
    if (n.event) lastSeq = n.event.seq;
    if (n.ready) settle(n.reason ?? 'ready');
    else report(n.state, lastSeq);
  };
  const subscription = await client.subscribe({ task, participant }, onUpdate);
  const initial = subscription.initial as { ready?: boolean; reason?: string; state: { waitingFor: string[] }; seq: unknown };
  lastSeq = initial.seq;
  if (initial.ready) settle(initial.reason ?? 'ready');
  else report(initial.state, initial.seq);
  return ready;
}
