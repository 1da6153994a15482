// `acp serve`: the Agent Communication Protocol server (rpc.md). It serves the
// collaborations under one root folder to agents that cannot (or would rather
// not) touch the folder themselves, over stdio, TCP (loopback by default) and
// Unix sockets. Every write goes through the same core as the CLI (lock,
// atomic writes), so agents using files, the CLI and the server can share a
// collaboration; `agent/call` literally runs the CLI's operations in-process.

import * as nodePath from 'node:path';
import * as v from 'valibot';
import { Collab, type CollabUpdate, type FolderWatcher, type StateSnapshot, type TaskStatus } from './collab.ts';
import { ConfigError, isLoopback } from './config.ts';
import type { AcpCore, Host, JsonObject, Registry } from './core.ts';
import type { OptionValues } from '../../runtime/types.ts';
import type { FrameLimits } from './framing.ts';
import { RpcCode, RpcError, type CallInfo, type JsonRpcParams } from './jsonrpc.ts';
import { Peer, RpcCancelledError, RpcConnectionError, RpcResponseError, WorkGate, type ByteStream } from './peer.ts';

/** Collaboration (task) names: one path segment under the root. */
export const TASK_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The methods this server answers (rpc.md "Methods"), plus `authenticate` and `agent/unsubscribe`. */
export const RPC_METHODS = [
  'ping',
  'authenticate',
  'agent/list',
  'agent/info',
  'agent/call',
  'agent/subscribe',
  'agent/unsubscribe',
  'task/create',
  'task/status',
  'task/result',
  'task/cancel',
  'message/send',
  'message/broadcast',
] as const;

/** Methods a TCP connection may use before it authenticates. */
const OPEN_METHODS = new Set(['ping', 'authenticate']);

/** Answered outside the per-connection and total limits: the heartbeat must get through busy slots. */
const UNMETERED: ReadonlySet<string> = new Set(['ping']);
/**
 * The largest message a TCP peer may send before it authenticated (64 KiB):
 * an authenticate call is a few hundred bytes; a larger announced body is
 * refused from its header, unread, and the connection closed.
 */
export const UNTRUSTED_MAX_BODY_BYTES = 64 * 1024;

/** Longest `message/send` text (characters). */
export const MAX_MESSAGE_LENGTH = 16 * 1024;

/** How a connection reached us. */
export type Transport = 'stdio' | 'tcp' | 'unix';

/** Options of {@link RpcServer}. */
export interface RpcServerOptions {
  /** The core functions (see core.ts). */
  core: AcpCore;
  host: Host;
  registry: Registry;
  /** Folder whose sub-folders are the served collaborations (absolute). */
  root: string;
  /** Token → participant id (required before listening on TCP). */
  tokens?: Record<string, string>;
  /** Incoming message limits. */
  limits?: Partial<FrameLimits>;
  /**
   * Close a peer stalled in the middle of a message after this long, or one
   * whose queued answers have not moved for this long (default 10 s).
   */
  stallTimeoutMs?: number;
  /** Close a socket peer whose message is not whole this long after its first byte (default 30 s; 0 = never). */
  messageTimeoutMs?: number;
  /** Requests of one connection handled at once; more are read, then reading pauses (default 4). */
  maxRequestsPerConnection?: number;
  /** Requests handled at once across all connections (default 64). */
  maxRequests?: number;
  /** Close a socket peer that sent nothing for this long (default 120 s; 0 = never). Clients ping as heartbeat. */
  idleTimeoutMs?: number;
  /** Close a TCP peer that has not authenticated after this long (default 30 s; 0 = never). */
  authTimeoutMs?: number;
  /** Most simultaneous connections (default 10 000). */
  maxConnections?: number;
  /** How long a call forwarded to a connected agent may take (default 300 s). */
  forwardTimeoutMs?: number;
  /** Fallback poll period for collaboration folders (default 1 s). */
  pollIntervalMs?: number;
  /**
   * Directories (absolute) a task created over RPC may name as `repoRoot`
   * for external deliverables (default: none, so `repoRoot` is refused).
   * Never another task's folder, whatever this allows.
   */
  repoRoots?: string[];
  /**
   * Let an authenticated participant reach agents it shares no task with
   * (calls, messages, `agent/info`). Default false: isolation between tasks.
   */
  crossTask?: boolean;
  /** Extra change sources for every watched collaboration folder (a store that follows others: git's remote poll); none by default. */
  folderWatchers?: readonly FolderWatcher[];
  /**
   * The store flags the server was started with (`serve --git`): its own
   * writes go through the store they choose, like the CLI's.
   */
  storeFlags?: Readonly<Record<string, unknown>>;
  /** Reported in discovery documents. */
  version?: string;
  /** Diagnostics (connection errors …). */
  log?(line: string): void;
}

interface Subscription {
  id: string;
  conn: Conn;
  task: string;
  participant: string | undefined;
  live: boolean;
  queue: Array<[string, unknown]>;
  stop(): void;
}

interface Conn {
  id: number;
  transport: Transport;
  peer: Peer;
  identity: string | undefined;
  capabilities: string[];
  agentVersion: string | undefined;
  subscriptions: Map<string, Subscription>;
  failedAuth: number;
  busy: number;
  /** This connection's forwarded calls in flight, by request id (JSON): aborted on cancel or disconnect. */
  inflight: Map<string, AbortController>;
}

type Method = (conn: Conn, params: JsonRpcParams | undefined, info: CallInfo) => unknown;

interface ActionSpec {
  folder: boolean;
  participant: 'one' | 'many' | 'none';
  /** Whether a call with these (checked) options writes. */
  mutates(options: OptionValues): boolean;
}

/**
 * The `acp` agent's actions that are not commands: `status` (task/status
 * under another name) and document access for agents that cannot see the
 * folder. The others are the commands whose spec lists the `rpc` door
 * (CommandSpec.doors: the one table), see {@link RpcServer.actionSpec}.
 */
const DOCUMENT_ACTIONS: Record<string, ActionSpec> = {
  status: { folder: true, participant: 'none', mutates: () => false },
  read: { folder: true, participant: 'none', mutates: () => false },
  write: { folder: true, participant: 'none', mutates: () => true },
};

function issueText(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((item) => String((item as { key: unknown }).key)).join('.');
      const message = issue.kind === 'schema' && issue.expected === 'never' ? 'unknown parameter' : issue.message;
      return path ? `${path}: ${message}` : message;
    })
    .join('; ');
}

/** Check params against a schema; positional (array) params are matched to `order`. */
function parseParams<T extends v.GenericSchema>(schema: T, params: JsonRpcParams | undefined, order: string[]): v.InferOutput<T> {
  let input: unknown = params ?? {};
  if (Array.isArray(input)) {
    if (input.length > order.length) throw new RpcError(RpcCode.InvalidParams, `Invalid params: expected at most ${order.length} positional params (${order.join(', ')})`);
    input = Object.fromEntries(input.map((value, i) => [order[i]!, value]));
  }
  const result = v.safeParse(schema, input);
  if (!result.success) throw new RpcError(RpcCode.InvalidParams, `Invalid params: ${issueText(result.issues)}`);
  return result.output;
}

const str = (what: string) => v.string(`${what} must be a string`);
const nonEmpty = (what: string) => v.pipe(str(what), v.minLength(1, `${what} must not be empty`));
const TaskParam = v.pipe(
  str('task'),
  v.regex(TASK_ID_RE, "task must be a collaboration name under the server root (letters, digits, '.', '_', '-'; at most 128)"),
  v.check((s) => !s.includes('..'), "task must not contain '..'"),
);

const S = {
  authenticate: v.strictObject({
    token: v.optional(str('token')),
    participant: v.optional(nonEmpty('participant')),
    capabilities: v.optional(v.pipe(v.array(v.pipe(nonEmpty('capability'), v.maxLength(64, 'a capability is at most 64 characters')), 'capabilities must be an array of strings'), v.maxLength(64, 'at most 64 capabilities'))),
    version: v.optional(v.pipe(str('version'), v.maxLength(64, 'version is at most 64 characters'))),
  }),
  agent: v.strictObject({ agent: nonEmpty('agent') }),
  call: v.strictObject({ agent: nonEmpty('agent'), action: nonEmpty('action'), args: v.optional(v.record(v.string(), v.unknown(), 'args must be an object')) }),
  subscribe: v.strictObject({
    task: TaskParam,
    participant: v.optional(nonEmpty('participant')),
    fromSeq: v.optional(v.pipe(v.number('fromSeq must be a number'), v.integer('fromSeq must be a whole number'), v.minValue(1, 'fromSeq must be at least 1'))),
  }),
  unsubscribe: v.strictObject({ subscription: nonEmpty('subscription') }),
  task: v.strictObject({ task: TaskParam }),
  result: v.strictObject({ task: TaskParam, includeContent: v.optional(v.boolean('includeContent must be true or false')) }),
  cancel: v.strictObject({ task: TaskParam, reason: nonEmpty('reason'), participant: v.optional(nonEmpty('participant')) }),
  create: v.looseObject({ task: v.optional(TaskParam) }),
  send: v.strictObject({
    to: nonEmpty('to'),
    text: v.pipe(str('text'), v.maxLength(MAX_MESSAGE_LENGTH, `text must be at most ${MAX_MESSAGE_LENGTH} characters`)),
    task: v.optional(TaskParam),
    from: v.optional(nonEmpty('from')),
  }),
  broadcast: v.strictObject({
    task: TaskParam,
    text: v.pipe(str('text'), v.maxLength(MAX_MESSAGE_LENGTH, `text must be at most ${MAX_MESSAGE_LENGTH} characters`)),
    from: v.optional(nonEmpty('from')),
  }),
};

/**
 * The task of `{task}` (or `[task]`) params that the schema would accept as
 * they are: the hot path of task/status, checked without building the
 * schema's issue machinery. Anything else (a missing or invalid task, an
 * unknown parameter) is undefined, and the schema then says precisely why.
 */
function plainTaskParam(params: JsonRpcParams | undefined): string | undefined {
  let task: unknown;
  if (Array.isArray(params)) {
    if (params.length !== 1) return undefined;
    task = params[0];
  } else if (params !== undefined) {
    // JSON.parse makes plain objects: for…in sees their own keys only (a `__proto__` key included).
    for (const key in params) if (key !== 'task') return undefined;
    task = params.task;
  }
  return typeof task === 'string' && TASK_ID_RE.test(task) && !task.includes('..') ? task : undefined;
}

function unauthorized(message: string): RpcError {
  return new RpcError(RpcCode.Unauthorized, message);
}

function readiness(participant: string | undefined, state: StateSnapshot): { ready?: boolean; reason?: string } {
  if (participant === undefined) return {};
  if (state.waitingFor.includes(participant)) return { ready: true, reason: `ready: ${participant} is listed in waitingFor` };
  if (state.phase === 'completed' || state.phase === 'blocked') return { ready: true, reason: `ready: phase is ${state.phase}` };
  return { ready: false };
}

/** Hash a token so lookups never compare secrets byte by byte. */
async function tokenKey(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The Agent Communication Protocol server. */
export class RpcServer {
  private readonly options: RpcServerOptions;
  private readonly core: AcpCore;
  private readonly host: Host;
  private readonly root: string;
  private readonly tokens = new Map<string, string>();
  private tokensReady: Promise<void>;
  private readonly conns = new Set<Conn>();
  /** The total budget of requests in flight (RpcServerOptions.maxRequests). */
  private readonly gate: WorkGate;
  private readonly byAgent = new Map<string, Set<Conn>>();
  private readonly collabs = new Map<string, Collab>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly sharedJson = new WeakMap<CollabUpdate, string>();
  private readonly participantSets = new WeakMap<JsonObject, ReadonlySet<string>>();
  private readonly servers: Array<{ close(cb?: (err?: Error) => void): unknown }> = [];
  private unixPath: string | undefined;
  private nextConn = 1;
  private nextSub = 1;
  private readonly methods: Record<string, Method>;
  private closing = false;
  /** Where this server listens (discovery documents). */
  readonly endpoints: { tcp?: string; unix?: string; tls?: boolean } = {};

  constructor(options: RpcServerOptions) {
    this.gate = new WorkGate(options.maxRequests ?? 64);
    this.options = options;
    this.core = options.core;
    // Beneath the root (and the repoRoots init may use) no symlink is
    // followed: every path the server checked, and every command it runs,
    // opens what was checked (a task folder or deliverables/ swapped for a
    // symlink out of the root is refused, never followed).
    this.host = options.core.confineHost(options.host, [options.root, ...(options.repoRoots ?? [])]);
    this.root = options.root;
    this.tokensReady = this.setTokens(options.tokens ?? {});
    this.methods = {
      ping: () => ({ pong: true, at: this.core.formatTimestamp(this.host.now()) }),
      authenticate: (conn, params) => this.authenticate(conn, params),
      'agent/list': (conn) => this.agentList(conn),
      'agent/info': (conn, params) => this.agentInfo(conn, parseParams(S.agent, params, ['agent']).agent),
      'agent/call': (conn, params, info) => this.agentCall(conn, params, info),
      // Cancelling a forwarded call, in LSP's and MCP's spelling.
      '$/cancelRequest': (conn, params) => this.cancelInflight(conn, params, 'id'),
      'notifications/cancelled': (conn, params) => this.cancelInflight(conn, params, 'requestId'),
      'agent/subscribe': (conn, params, info) => this.subscribe(conn, params, info),
      'agent/unsubscribe': (conn, params) => this.unsubscribe(conn, params),
      'task/create': (conn, params) => this.taskCreate(conn, params),
      'task/status': (conn, params) => this.taskStatus(conn, plainTaskParam(params) ?? parseParams(S.task, params, ['task']).task),
      'task/result': (conn, params) => this.taskResult(conn, params),
      'task/cancel': (conn, params) => this.taskCancel(conn, params),
      'message/send': (conn, params) => this.messageSend(conn, params),
      'message/broadcast': (conn, params) => this.messageBroadcast(conn, params),
    };
  }

  private async setTokens(tokens: Record<string, string>): Promise<void> {
    for (const [token, participant] of Object.entries(tokens)) this.tokens.set(await tokenKey(token), participant);
  }

  /** Number of open connections. */
  get connectionCount(): number {
    return this.conns.size;
  }

  /** Number of live subscriptions. */
  get subscriptionCount(): number {
    let n = 0;
    for (const conn of this.conns) n += conn.subscriptions.size;
    return n;
  }

  // -------------------------------------------------------------------------
  // Transports
  // -------------------------------------------------------------------------

  /**
   * Serve one already-open byte stream (stdio, or a socket accepted
   * elsewhere). `textWrites`: the stream's write also takes strings, as a
   * node:net or node:tls socket's does (see PeerOptions.textWrites).
   */
  attach(stream: ByteStream, transport: Transport, options: { textWrites?: boolean } = {}): Peer {
    const conn: Conn = {
      id: this.nextConn++,
      transport,
      peer: undefined as unknown as Peer,
      identity: undefined,
      capabilities: [],
      agentVersion: undefined,
      subscriptions: new Map(),
      failedAuth: 0,
      busy: 0,
      inflight: new Map(),
    };
    conn.peer = new Peer(stream, {
      limits: this.options.limits,
      // Before authenticating, a TCP peer sends an authenticate call: a few hundred bytes, never megabytes.
      untrustedMaxBodyBytes: transport === 'tcp' ? UNTRUSTED_MAX_BODY_BYTES : undefined,
      stallTimeoutMs: this.options.stallTimeoutMs ?? 10_000,
      messageTimeoutMs: transport === 'stdio' ? 0 : (this.options.messageTimeoutMs ?? 30_000),
      maxInFlight: this.options.maxRequestsPerConnection ?? 4,
      gate: this.gate,
      unmetered: UNMETERED,
      textWrites: options.textWrites,
      // The process that spawned a stdio server is trusted and may stay quiet.
      idleTimeoutMs: transport === 'stdio' ? 0 : (this.options.idleTimeoutMs ?? 120_000),
      handler: (method, params, info) => this.dispatch(conn, method, params, info),
      onInternalError: (error, method) => this.options.log?.(`internal error in ${method}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    });
    this.conns.add(conn);
    conn.peer.onClose(() => this.forget(conn));
    const authTimeoutMs = this.options.authTimeoutMs ?? 30_000;
    // 0 means never, as for the other timeouts (a setTimeout of 0 would close every TCP peer at once).
    if (transport === 'tcp' && authTimeoutMs > 0) {
      const timer = setTimeout(() => {
        if (!conn.identity) conn.peer.close('did not authenticate in time');
      }, authTimeoutMs);
      (timer as { unref?(): void }).unref?.();
      conn.peer.onClose(() => clearTimeout(timer));
    }
    return conn.peer;
  }

  private accept(socket: ByteStream & { setNoDelay?(on: boolean): unknown }, transport: Transport): void {
    if (this.closing || this.conns.size >= (this.options.maxConnections ?? 10_000)) {
      socket.on('error', () => undefined);
      socket.destroy();
      return;
    }
    socket.setNoDelay?.(true);
    // node:net and node:tls sockets (every runtime's) write strings as UTF-8.
    this.attach(socket, transport, { textWrites: true });
  }

  /** Listen on TCP. Only loopback addresses unless `allowRemote`. Resolves with the bound address. */
  /**
   * Listen on TCP; with `tls` (PEM certificate and key) every connection is
   * TLS. Without TLS tokens cross the network in clear text: remote use is
   * for trusted networks only.
   */
  async listenTcp(host: string, port: number, options: { allowRemote?: boolean; tls?: { cert: string | Uint8Array; key: string | Uint8Array } } = {}): Promise<{ host: string; port: number }> {
    if (!isLoopback(host) && !options.allowRemote) {
      throw new ConfigError(`refusing to listen on ${host}: not a loopback address (pass --allow-remote, or allowRemote: true in the config, to serve other machines)`);
    }
    await this.tokensReady;
    if (this.tokens.size === 0) throw new ConfigError('TCP needs tokens: map each token to a participant id under `tokens:` in the server config (--config)');
    const onSocket = (socket: unknown): void => void this.accept(socket as ByteStream, 'tcp');
    let server: import('node:net').Server;
    if (options.tls) {
      const tls = await import('node:tls');
      const pem = (value: string | Uint8Array): string | Buffer => (typeof value === 'string' ? value : Buffer.from(value));
      // A peer that never completes its handshake is closed like one that never authenticates (the auth timer starts after it).
      const authTimeoutMs = this.options.authTimeoutMs ?? 30_000;
      try {
        server = tls.createServer({ cert: pem(options.tls.cert), key: pem(options.tls.key), ...(authTimeoutMs > 0 ? { handshakeTimeout: authTimeoutMs } : {}) }, onSocket);
      } catch (error) {
        // A key that does not match the certificate, or PEM that is neither: the config's mistake.
        const message = (error as Error).message;
        throw new ConfigError(/mismatch/i.test(message) ? `tls: the key does not match the certificate (tls.key must be the certificate's private key): ${message}` : `tls: cannot use the certificate and key: ${message}`);
      }
      // A failed handshake (a plain-TCP client, a bad certificate, the handshake timeout) concerns that
      // peer only, and ends it: the runtimes report a timed-out handshake without closing the socket.
      server.on('tlsClientError', (error, socket) => {
        this.options.log?.(`tls: ${error.message}`);
        socket?.destroy();
      });
    } else {
      server = (await import('node:net')).createServer(onSocket);
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.options.log?.(`tcp listener: ${error.message}`));
    this.servers.push(server);
    const address = server.address() as { address: string; port: number };
    const shown = address.address.includes(':') ? `[${address.address}]` : address.address;
    this.endpoints.tcp = `${shown}:${address.port}`;
    if (options.tls) this.endpoints.tls = true;
    return { host: address.address, port: address.port };
  }

  /**
   * Listen on a Unix socket created owner-only (0600): it is bound inside a
   * fresh 0700 directory, restricted, then renamed into place, so it is never
   * reachable by others even for a moment. A stale socket file is replaced;
   * a live one (another server) is an error.
   */
  async listenUnix(path: string): Promise<string> {
    const net = await import('node:net');
    const fs = await import('node:fs');
    const target = nodePath.resolve(path);
    const existing = await fs.promises.lstat(target).catch(() => null);
    if (existing) {
      if (!existing.isSocket()) throw new ConfigError(`refusing to replace ${target}: it exists and is not a socket`);
      const live = await new Promise<boolean>((resolve) => {
        const probe = net.connect(target, () => {
          probe.destroy();
          resolve(true);
        });
        probe.on('error', () => resolve(false));
      });
      if (live) throw new ConfigError(`another server is listening on ${target}`);
      await fs.promises.rm(target, { force: true });
    }
    const dir = await fs.promises.mkdtemp(nodePath.join(nodePath.dirname(target), '.acp-'));
    const temp = nodePath.join(dir, 's');
    const server = net.createServer((socket) => this.accept(socket as unknown as ByteStream, 'unix'));
    try {
      await fs.promises.chmod(dir, 0o700);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(temp, () => {
          server.off('error', reject);
          resolve();
        });
      });
      await fs.promises.chmod(temp, 0o600);
      await fs.promises.rename(temp, target);
    } catch (error) {
      server.close();
      throw error;
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
    server.on('error', (error) => this.options.log?.(`unix listener: ${error.message}`));
    this.servers.push(server);
    this.unixPath = target;
    this.endpoints.unix = target;
    return target;
  }

  /** Stop listening, close every connection and stop watching folders. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const closing = this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const conn of [...this.conns]) conn.peer.destroy('server shutting down');
    for (const collab of this.collabs.values()) collab.close();
    this.collabs.clear();
    await Promise.all(closing);
    if (this.unixPath) {
      const fs = await import('node:fs');
      await fs.promises.rm(this.unixPath, { force: true }).catch(() => undefined);
    }
  }

  /** Abort this connection's forwarded call named by `params[key]` (unknown ids are ignored, as LSP asks). */
  private cancelInflight(conn: Conn, params: JsonRpcParams | undefined, key: 'id' | 'requestId'): null {
    const id = params && !Array.isArray(params) ? (params as JsonObject)[key] : undefined;
    if (typeof id === 'string' || typeof id === 'number') conn.inflight.get(JSON.stringify(id))?.abort('cancelled by the caller');
    return null;
  }

  private forget(conn: Conn): void {
    // The caller went away: its forwarded calls are cancelled, freeing the callees.
    for (const controller of conn.inflight.values()) controller.abort('the caller disconnected');
    conn.inflight.clear();
    this.conns.delete(conn);
    for (const sub of conn.subscriptions.values()) sub.stop();
    conn.subscriptions.clear();
    if (conn.identity) {
      const set = this.byAgent.get(conn.identity);
      set?.delete(conn);
      if (set && set.size === 0) this.byAgent.delete(conn.identity);
    }
  }

  // -------------------------------------------------------------------------
  // Dispatch, identity
  // -------------------------------------------------------------------------

  private dispatch(conn: Conn, method: string, params: JsonRpcParams | undefined, info: CallInfo): unknown {
    const fn = Object.hasOwn(this.methods, method) ? this.methods[method] : undefined;
    if (!fn) throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
    if (conn.transport === 'tcp' && !conn.identity && !OPEN_METHODS.has(method)) {
      throw unauthorized('unauthorized: authenticate first (method authenticate with the token the server config maps to your participant id)');
    }
    const result = fn(conn, params, info);
    // Errors name folders relative to the root, as results do (runAction): the server's absolute paths stay with it.
    return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(this.errorWithoutRoot(error))) : result;
  }

  /** An RpcError with the root taken out of its message and data; anything else as it is. */
  private errorWithoutRoot(error: unknown): unknown {
    if (!(error instanceof RpcError)) return error;
    const message = this.core.withoutRoot(this.root, error.message);
    const data = this.core.jsonWithoutRoot(this.root, error.data);
    return message === error.message && data === error.data ? error : new RpcError(error.code, message, data);
  }

  private async authenticate(conn: Conn, params: JsonRpcParams | undefined): Promise<unknown> {
    const p = parseParams(S.authenticate, params, ['token', 'participant', 'capabilities', 'version']);
    let participant: string;
    if (p.token !== undefined) {
      await this.tokensReady;
      const mapped = this.tokens.get(await tokenKey(p.token));
      if (mapped === undefined) {
        conn.failedAuth++;
        // Guessing tokens on one connection is cut short.
        if (conn.failedAuth >= 5) setTimeout(() => conn.peer.close('too many failed authentications'), 0);
        throw unauthorized('unauthorized: unknown token');
      }
      if (p.participant !== undefined && p.participant !== mapped) throw unauthorized(`unauthorized: this token belongs to another participant, not '${p.participant}'`);
      participant = mapped;
    } else {
      if (conn.transport === 'tcp') throw unauthorized('unauthorized: a token is required over TCP');
      if (p.participant === undefined) throw new RpcError(RpcCode.InvalidParams, 'Invalid params: give a token, or (on stdio and Unix sockets) the participant id this connection speaks for');
      participant = p.participant;
    }
    if (conn.identity !== undefined && conn.identity !== participant) throw unauthorized(`unauthorized: this connection already speaks for '${conn.identity}'`);
    conn.identity = participant;
    conn.peer.lift();
    if (p.capabilities) conn.capabilities = [...new Set(p.capabilities)];
    if (p.version !== undefined) conn.agentVersion = p.version;
    let set = this.byAgent.get(participant);
    if (!set) this.byAgent.set(participant, (set = new Set()));
    set.add(conn);
    return { participant, capabilities: conn.capabilities, server: { agent: 'acp', version: this.options.version ?? null } };
  }

  /** The participant a call acts as: the connection's identity; a different explicit one is refused. */
  private speaker(conn: Conn, given: unknown): string | undefined {
    if (conn.identity !== undefined) {
      if (given !== undefined && given !== conn.identity) {
        throw unauthorized(`unauthorized: this connection speaks for '${conn.identity}' only, not for '${typeof given === 'string' ? given : JSON.stringify(given)}'`);
      }
      return conn.identity;
    }
    if (given === undefined) return undefined;
    if (typeof given !== 'string') throw new RpcError(RpcCode.InvalidParams, 'Invalid params: participant must be a string');
    return given;
  }

  private requireMember(conn: Conn, protocol: JsonObject, task: string): void {
    if (conn.identity === undefined) return;
    if (!this.participantSet(protocol).has(conn.identity)) throw unauthorized(`unauthorized: '${conn.identity}' is not a participant of task '${task}'`);
  }

  /** A protocol.json's participant ids, computed once per object read (a watched task's is replaced on every change, never edited). */
  private participantSet(protocol: JsonObject): ReadonlySet<string> {
    let set = this.participantSets.get(protocol);
    if (!set) this.participantSets.set(protocol, (set = new Set(this.core.participantIds(protocol))));
    return set;
  }

  private taskFolder(task: string): string {
    return nodePath.join(this.root, task);
  }

  private async openTask(conn: Conn, task: string, fresh = false): Promise<{ folder: string; protocol: JsonObject }> {
    // A watched task's protocol.json is re-read on every change: the hot path (task/status) reads no file.
    const cached = fresh ? undefined : this.collabs.get(task)?.protocol;
    if (cached) {
      this.requireMember(conn, cached, task);
      return { folder: this.taskFolder(task), protocol: cached };
    }
    const folder = this.taskFolder(task);
    let protocol: JsonObject;
    try {
      protocol = await this.core.readProtocol(this.host, folder);
    } catch (error) {
      if (!(await this.host.fs.stat(nodePath.join(folder, 'protocol.json')))) throw new RpcError(RpcCode.TaskNotFound, `task '${task}' not found`, { task });
      throw new RpcError(RpcCode.ProtocolRefusal, (error as Error).message, { message: (error as Error).message });
    }
    this.requireMember(conn, protocol, task);
    return { folder, protocol };
  }

  private collab(task: string): Collab {
    let collab = this.collabs.get(task);
    if (!collab) {
      collab = new Collab(this.core, this.host, this.options.registry, task, this.taskFolder(task), this.options.pollIntervalMs ?? 1000, this.options.folderWatchers);
      this.collabs.set(task, collab);
    }
    return collab;
  }

  /** Serialise the server's own writes per folder, in arrival order (the folder lock alone does not keep order). */
  private serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }

  private async listTasks(): Promise<Array<{ task: string; protocol: JsonObject }>> {
    // The core's one walk, one level down: a task is a collaboration folder directly under the root.
    const { folders } = await this.core.findCollaborations(this.host, this.root, { depth: 1 });
    const names = folders.map((folder) => nodePath.relative(this.root, folder)).filter((name) => TASK_ID_RE.test(name) && !name.includes('..'));
    const tasks: Array<{ task: string; protocol: JsonObject }> = [];
    for (const name of names) {
      try {
        tasks.push({ task: name, protocol: await this.core.readProtocol(this.host, this.taskFolder(name)) });
      } catch {
        // not a collaboration (or unreadable): not listed
      }
    }
    return tasks;
  }

  // -------------------------------------------------------------------------
  // agent/*
  // -------------------------------------------------------------------------

  /** The actions of agent `acp`: the commands of this registry that list the `rpc` door (`doctor` is a plugin's), then status, read and write. */
  private async actionNames(): Promise<string[]> {
    const commands = [...this.options.registry.commands.values()].filter((command) => command.spec.doors?.rpc).map((command) => command.spec.name);
    return [...commands, ...Object.keys(DOCUMENT_ACTIONS)];
  }

  /** How the server runs an action: from the command's `doors.rpc` (the one table), or a document action. */
  private actionSpec(action: string): ActionSpec | undefined {
    if (Object.hasOwn(DOCUMENT_ACTIONS, action)) return DOCUMENT_ACTIONS[action];
    const spec = this.options.registry.commands.get(action)?.spec;
    const rpc = spec?.doors?.rpc;
    if (!spec || !rpc) return undefined;
    const { writes } = rpc;
    return { folder: Boolean(spec.options?.folder), participant: rpc.participant, mutates: (options) => (typeof writes === 'function' ? writes(options) : writes) };
  }

  private async agentList(conn: Conn): Promise<unknown> {
    const tasks = (await this.listTasks()).filter(({ protocol }) => conn.identity === undefined || this.core.participantIds(protocol).includes(conn.identity));
    const agents = new Map<string, Array<{ task: string; phase: unknown; turn: boolean }>>();
    for (const { task, protocol } of tasks) {
      // Whose turn: the one rule of every door (the log, or protocol.json where the Python tools would read it).
      const turn = await this.core.folderTurn(this.host, this.taskFolder(task), protocol);
      for (const id of this.core.participantIds(protocol)) {
        let list = agents.get(id);
        if (!list) agents.set(id, (list = []));
        list.push({ task, phase: turn.phase ?? null, turn: turn.waitingFor.includes(id) });
      }
    }
    const list: unknown[] = [{ agent: 'acp', kind: 'runtime', connected: true, version: this.options.version ?? null, capabilities: await this.actionNames() }];
    for (const id of [...agents.keys()].sort()) {
      const conns = this.byAgent.get(id);
      list.push({ agent: id, kind: 'participant', connected: Boolean(conns?.size), capabilities: this.capabilitiesOf(id), collaborations: agents.get(id) });
    }
    return { agents: list };
  }

  private capabilitiesOf(agent: string): string[] {
    const set = new Set<string>();
    for (const conn of this.byAgent.get(agent) ?? []) for (const c of conn.capabilities) set.add(c);
    return [...set].sort();
  }

  /**
   * Whether `conn` may reach `agent`: isolation between tasks. An
   * authenticated participant reaches itself and the agents sharing a task
   * with it (unless the config sets crossTask); an unauthenticated stdio or
   * Unix connection is the trusted local side and reaches every agent.
   */
  private async reachable(conn: Conn, agent: string): Promise<boolean> {
    const me = conn.identity;
    if (me === undefined || this.options.crossTask) return this.byAgent.has(agent) || (await this.listTasks()).some(({ protocol }) => this.core.participantIds(protocol).includes(agent));
    if (agent === me) return true;
    return (await this.listTasks()).some(({ protocol }) => {
      const ids = this.core.participantIds(protocol);
      return ids.includes(agent) && ids.includes(me);
    });
  }

  /** -32000 for an agent `conn` may not reach, worded as if it did not exist. */
  private async requireReachable(conn: Conn, agent: string): Promise<void> {
    if (!(await this.reachable(conn, agent))) throw new RpcError(RpcCode.AgentNotFound, `agent '${agent}' not found`, { agent });
  }

  private async agentInfo(conn: Conn, agent: string): Promise<unknown> {
    const endpoints = { ...this.endpoints };
    if (agent === 'acp') {
      return { agent: 'acp', kind: 'runtime', version: this.options.version ?? null, capabilities: await this.actionNames(), methods: [...RPC_METHODS], endpoints };
    }
    await this.requireReachable(conn, agent);
    const conns = [...(this.byAgent.get(agent) ?? [])];
    const version = conns.find((c) => c.agentVersion !== undefined)?.agentVersion ?? null;
    return { agent, kind: 'participant', version, connected: conns.length > 0, capabilities: this.capabilitiesOf(agent), endpoints };
  }

  private async agentCall(conn: Conn, params: JsonRpcParams | undefined, info: CallInfo): Promise<unknown> {
    const p = parseParams(S.call, params, ['agent', 'action', 'args']);
    if (p.agent === 'acp') return { status: 'success', data: await this.runAction(conn, p.action, p.args ?? {}) };
    const key = info.id === undefined || info.id === null ? undefined : JSON.stringify(info.id);
    const controller = new AbortController();
    if (key !== undefined) conn.inflight.set(key, controller);
    try {
      return await this.forward(conn, p.agent, p.action, p.args ?? {}, controller.signal);
    } finally {
      if (key !== undefined && conn.inflight.get(key) === controller) conn.inflight.delete(key);
    }
  }

  /**
   * Run one of the `acp` agent's actions: the CLI operation itself, in-process, with `--json`.
   * Its result names folders relative to the root (a document's content is returned as it is).
   */
  private async runAction(conn: Conn, action: string, rawArgs: JsonObject): Promise<unknown> {
    const result = await this.runActionWithRoot(conn, action, rawArgs);
    // `read` returns the document as it is (its name is the one the client gave).
    return action === 'read' ? result : this.core.jsonWithoutRoot(this.root, result);
  }

  private async runActionWithRoot(conn: Conn, action: string, rawArgs: JsonObject): Promise<unknown> {
    const spec = this.actionSpec(action);
    const names = await this.actionNames();
    if (!spec || !names.includes(action)) throw new RpcError(RpcCode.InvalidParams, `Invalid params: agent 'acp' has no action '${action}' (actions: ${names.join(', ')})`);
    const args: JsonObject = { ...rawArgs };
    let task: string | undefined;
    if (spec.folder) {
      const given = args.folder ?? args.task;
      delete args.folder;
      delete args.task;
      const checked = v.safeParse(TaskParam, given);
      if (!checked.success) throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.folder: ${given === undefined ? 'required (the task name)' : issueText(checked.issues)}`);
      task = checked.output;
    }
    if (spec.participant === 'one') {
      const given = Array.isArray(args.participant) && args.participant.length === 1 ? args.participant[0] : args.participant;
      const who = this.speaker(conn, given);
      if (who === undefined) delete args.participant;
      else args.participant = who;
    } else if (spec.participant === 'many' && conn.identity !== undefined) {
      const listed = (Array.isArray(args.participant) ? args.participant : [args.participant]).map((p) => (typeof p === 'string' ? p.trim() : p));
      if (!listed.includes(conn.identity)) throw unauthorized(`unauthorized: '${conn.identity}' may only create collaborations it takes part in`);
    }
    if (task !== undefined && action !== 'init') await this.openTask(conn, task);
    if (action === 'status') return { task, ...(await this.statusOf(task!)) };
    if (action === 'read' || action === 'write') {
      const run = (): Promise<unknown> => this.document(action, task!, args, conn.identity ?? 'acp serve').catch((error) => Promise.reject(this.documentRefusal(error)));
      if (action === 'read') return run();
      try {
        return await this.serial(this.taskFolder(task!), run);
      } finally {
        this.collabs.get(task!)?.touch();
      }
    }
    if (action === 'init') await this.checkInitPaths(task!, args);
    const folder = task === undefined ? undefined : this.taskFolder(task);
    const options = this.actionOptions(action, args, folder);
    const run = (): Promise<unknown> => this.runJson(action, options);
    if (!spec.mutates(options) || folder === undefined) return run();
    try {
      return await this.serial(folder, run);
    } finally {
      // Subscribers hear about our own writes without waiting for the file watcher.
      this.collabs.get(task!)?.touch();
    }
  }

  /**
   * `read` / `write` a collaboration document: proposal.md, review.md,
   * decisions.md, readiness.md, conclusion.md or a declared deliverable (by
   * its reference, e.g. `deliverables/adr.md`). Writes are atomic and hold the
   * folder lock, so an append never sees half a document; `append: true`
   * adds to the end (reviews).
   */
  private async document(action: 'read' | 'write', task: string, args: JsonObject, writer: string): Promise<unknown> {
    const { core, host } = this;
    const folder = this.taskFolder(task);
    const allowedKeys = action === 'read' ? ['doc'] : ['doc', 'content', 'append'];
    for (const key of Object.keys(args)) if (!allowedKeys.includes(key)) throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.${key}: unknown for action '${action}'`);
    const doc = args.doc;
    if (typeof doc !== 'string' || doc === '') throw new RpcError(RpcCode.InvalidParams, 'Invalid params: args.doc: required (a document name or a deliverable reference)');
    // The core's one reader and writer: the same boundary rule and decoding as the MCP server's.
    const scope = { root: this.root, rootName: 'the server root' };
    if (action === 'read') return core.readCollaborationDocument(host, folder, doc, scope);
    if (typeof args.content !== 'string') throw new RpcError(RpcCode.InvalidParams, 'Invalid params: args.content: required (the text to write)');
    const write = { doc, content: args.content, append: args.append === true, writer };
    const target = await core.documentWriteTarget(host, folder, write, scope);
    // The one transaction: the folder's store publishes the document (git: committed and pushed).
    const store = await core.openStore(host, folder, this.options.registry, this.options.storeFlags);
    const intent = { participant: writer, kind: 'write' as const, documents: [target.path] };
    return core.transact(host, folder, intent, (tx) => core.writeCollaborationDocument(host, folder, tx, write, scope), this.options.registry, { store });
  }

  /**
   * A refusal of read/write as -32010 with its text: the core's, or the
   * confined file system's (a symlink met on the way: the folder changed
   * after the checks). Anything else is passed on.
   */
  private documentRefusal(error: unknown): unknown {
    if (error instanceof RpcError) return error;
    // A directory on the way removed meanwhile (ENOENT after the checks): the folder changed under the write, nothing was written.
    const vanished = this.core.errorCode(error) === 'ENOENT' ? new this.core.AcpError(`the folder changed while the document was opened (${(error as Error).message}); nothing was written, try again`) : undefined;
    const refusal = this.core.symlinkRefusal(error) ?? vanished ?? (error instanceof this.core.AcpError ? error : undefined);
    return refusal ? new RpcError(RpcCode.ProtocolRefusal, refusal.message, { message: refusal.message }) : error;
  }

  /**
   * Init over RPC: `repoRoot` (and the deliverables directory under it),
   * symlinks resolved, must lie inside a directory of the server config's
   * `repoRoots`, and never in another task's folder (the server root outside
   * this task's own folder). Otherwise a participant of one task could point
   * its external deliverables into another task and rewrite its files.
   */
  private async checkInitPaths(task: string, args: JsonObject): Promise<void> {
    const repoRoot = args.repoRoot ?? args['repo-root'];
    if (typeof repoRoot !== 'string') return;
    const dirArg = args.deliverablesDir ?? args['deliverables-dir'];
    const own = this.taskFolder(task);
    const real = (path: string): Promise<string> => this.core.realpathOfExistingAncestor(this.host, path);
    const resolvedRoot = nodePath.resolve(own, repoRoot.trim());
    const targets = [resolvedRoot, ...(typeof dirArg === 'string' ? [nodePath.resolve(resolvedRoot, dirArg.trim())] : [])];
    const [realRoot, realOwn] = [await real(this.root), await real(own)];
    const allowed = await Promise.all((this.options.repoRoots ?? []).map(real));
    for (const target of await Promise.all(targets.map(real))) {
      if (this.core.isInside(target, realRoot) && !this.core.isInside(target, realOwn)) {
        throw new RpcError(RpcCode.InvalidParams, 'Invalid params: args.repoRoot must not lead into the server root outside this task (another task\'s folder)');
      }
      if (!allowed.some((dir) => this.core.isInside(target, dir))) {
        const where = allowed.length ? `inside ${allowed.join(', ')} (the server config's repoRoots)` : "inside a directory the server config's repoRoots allows (none configured)";
        throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.repoRoot must resolve ${where}`);
      }
    }
  }

  /**
   * An action's `args` as the command's options: the one check every door
   * makes (runtime/doors.ts, the CLI's words), with what the server decides
   * itself (the folder, JSON output, its store, strict appends and freezes).
   * A refusal is ProtocolRefusal, as a command's.
   */
  private actionOptions(action: string, args: JsonObject, folder: string | undefined): OptionValues {
    const spec = this.options.registry.commands.get(action)!.spec;
    try {
      return this.core.serverOptions(this.options.registry, spec, args, 'rpc', { folder, storeFlags: this.options.storeFlags, json: true });
    } catch (error) {
      throw this.refusal(error);
    }
  }

  /** Run a command through the library (typed options, typed result); a refusal becomes ProtocolRefusal. */
  private async runJson(action: string, options: OptionValues): Promise<unknown> {
    try {
      const result = await this.core.runCommand(this.options.registry, action, { options }, { host: this.host });
      return result.json ?? { ok: result.exitCode === 0, exitCode: result.exitCode };
    } catch (error) {
      throw this.refusal(error);
    }
  }

  /** A command's refusal as ProtocolRefusal carrying the CLI's message, exit code and the error's stable `code`; a bug as InternalError. */
  private refusal(error: unknown): RpcError {
    const described = this.core.describeError(error);
    if (!described) return new RpcError(RpcCode.InternalError, 'Internal error', { exitCode: 70 });
    const { message, exitCode, code } = described;
    return new RpcError(RpcCode.ProtocolRefusal, message, { message, exitCode, code, stderr: `error: ${message}` });
  }

  /** agent/call to a participant agent: forwarded to its connection, one call at a time. */
  private async forward(conn: Conn, agent: string, action: string, args: JsonObject, signal?: AbortSignal): Promise<unknown> {
    await this.requireReachable(conn, agent);
    const conns = [...(this.byAgent.get(agent) ?? [])].filter((c) => c.capabilities.length > 0);
    if (!conns.length) {
      const known = this.byAgent.has(agent) || (await this.listTasks()).some(({ protocol }) => this.core.participantIds(protocol).includes(agent));
      throw new RpcError(RpcCode.AgentNotFound, known ? `agent '${agent}' is not connected (or takes no calls)` : `agent '${agent}' not found`, { agent, connected: this.byAgent.has(agent) });
    }
    const able = conns.filter((c) => c.capabilities.includes(action));
    if (!able.length) throw new RpcError(RpcCode.InvalidParams, `Invalid params: agent '${agent}' has no action '${action}' (actions: ${this.capabilitiesOf(agent).join(', ')})`);
    const target = able.find((c) => c.busy === 0);
    if (!target) throw new RpcError(RpcCode.AgentBusy, `agent '${agent}' is busy with another call`, { agent });
    target.busy++;
    try {
      const result = await target.peer.request('agent/call', { from: conn.identity ?? null, action, args }, { timeoutMs: this.options.forwardTimeoutMs ?? 300_000, signal });
      if (result && typeof result === 'object' && (result as JsonObject).status === 'success' && 'data' in (result as JsonObject)) return result;
      return { status: 'success', data: result ?? null };
    } catch (error) {
      if (error instanceof RpcResponseError) throw new RpcError(error.code, error.message, error.data);
      if (error instanceof RpcConnectionError) throw new RpcError(RpcCode.AgentNotFound, `agent '${agent}' went away: ${error.message}`, { agent });
      if (error instanceof RpcCancelledError) throw new RpcError(RpcCode.RequestCancelled, `the call to agent '${agent}' was cancelled`, { agent });
      throw error;
    } finally {
      target.busy--;
    }
  }

  private async subscribe(conn: Conn, params: JsonRpcParams | undefined, info: CallInfo): Promise<unknown> {
    const p = parseParams(S.subscribe, params, ['task', 'participant', 'fromSeq']);
    const { protocol } = await this.openTask(conn, p.task);
    const participant = p.participant === undefined ? undefined : this.speaker(conn, p.participant);
    if (participant !== undefined && !this.core.participantIds(protocol).includes(participant)) {
      const message = `participant '${participant}' is not listed in protocol.json`;
      throw new RpcError(RpcCode.ProtocolRefusal, message, { message });
    }
    const collab = this.collab(p.task);
    await collab.ready;
    if (!conn.peer.isOpen) throw new RpcError(RpcCode.InternalError, 'connection closed');
    const id = `sub-${this.nextSub++}`;
    const sub: Subscription = { id, conn, task: p.task, participant, live: false, queue: [], stop: () => undefined };
    const deliver = (method: string, payload: unknown): void => {
      if (sub.live) conn.peer.notify(method, payload);
      else sub.queue.push([method, payload]);
    };
    const unlisten = collab.listen((update) => {
      if (update.kind === 'deleted') {
        // Said once, then the subscription ends: there is nothing left to follow.
        deliver('task/deleted', { subscription: id, task: p.task, deleted: true });
        sub.stop();
        return;
      }
      if (sub.live) conn.peer.sendRaw(this.notificationJson(sub, update));
      else {
        const [method, payload] = this.notification(sub, update);
        deliver(method, payload);
      }
    });
    sub.stop = () => {
      unlisten();
      conn.subscriptions.delete(id);
    };
    conn.subscriptions.set(id, sub);
    const seen = collab.events.length;
    const state = collab.turn;
    // Missed events (fromSeq) and what arrives meanwhile go out only after the answer.
    info.after(() => {
      if (p.fromSeq !== undefined) {
        for (let i = 0; i < seen; i++) {
          const event = collab.events[i]!;
          if (typeof event.seq === 'number' && event.seq >= p.fromSeq) conn.peer.notify(...this.notification(sub, { kind: 'event', event, state: collab.states[i]! }));
        }
      }
      for (const [method, payload] of sub.queue.splice(0)) conn.peer.notify(method, payload);
      sub.live = true;
    });
    return { subscription: id, task: p.task, seq: collab.events.at(-1)?.seq ?? null, state, ...readiness(participant, state) };
  }

  /**
   * The notification as JSON text. The part shared by every subscriber of an
   * update is serialised once (an update may go to a thousand connections).
   */
  private notificationJson(sub: Subscription, update: Exclude<CollabUpdate, { kind: 'deleted' }>): string {
    let shared = this.sharedJson.get(update);
    if (shared === undefined) {
      const body = update.kind === 'event' ? { task: sub.task, event: update.event, state: update.state } : { task: sub.task, state: update.state, reset: update.reset };
      shared = JSON.stringify(body).slice(1);
      this.sharedJson.set(update, shared);
    }
    const method = update.kind === 'event' ? 'agent/event' : 'agent/state';
    const ready = readiness(sub.participant, update.state);
    const extra = ready.ready === undefined ? '' : `"ready":${ready.ready},${ready.reason === undefined ? '' : `"reason":${JSON.stringify(ready.reason)},`}`;
    return `{"jsonrpc":"2.0","method":"${method}","params":{"subscription":${JSON.stringify(sub.id)},${extra}${shared}}`;
  }

  private notification(sub: Subscription, update: Exclude<CollabUpdate, { kind: 'deleted' }>): [string, unknown] {
    if (update.kind === 'event') {
      return ['agent/event', { subscription: sub.id, task: sub.task, event: update.event, state: update.state, ...readiness(sub.participant, update.state) }];
    }
    return ['agent/state', { subscription: sub.id, task: sub.task, state: update.state, reset: update.reset, ...readiness(sub.participant, update.state) }];
  }

  private unsubscribe(conn: Conn, params: JsonRpcParams | undefined): unknown {
    const p = parseParams(S.unsubscribe, params, ['subscription']);
    const sub = conn.subscriptions.get(p.subscription);
    if (!sub) throw new RpcError(RpcCode.InvalidParams, `Invalid params: no subscription '${p.subscription}' on this connection`);
    sub.stop();
    return { unsubscribed: p.subscription };
  }

  // -------------------------------------------------------------------------
  // task/*
  // -------------------------------------------------------------------------

  private async taskCreate(conn: Conn, params: JsonRpcParams | undefined): Promise<unknown> {
    if (Array.isArray(params)) throw new RpcError(RpcCode.InvalidParams, "Invalid params: task/create takes named params (init's options)");
    const p = parseParams(S.create, params, []);
    const { task: given, ...options } = p as JsonObject & { task?: string };
    const task = given ?? this.newTaskId();
    const data = await this.runAction(conn, 'init', { ...options, folder: task });
    return { task, ...(data as JsonObject) };
  }

  private newTaskId(): string {
    const stamp = this.core.formatTimestamp(this.host.now()).replace(/[-:]/g, '').replace(/[^0-9TZ]/g, '');
    return `task-${stamp}-${Math.random().toString(36).slice(2, 8)}`;
  }

  /**
   * task/status. While the task is watched and its cached status is fresh,
   * the answer is synchronous (no promise, no file read) and pre-serialised
   * (Collab.statusResult); otherwise the task is opened and the status
   * computed. Both paths check membership against the same protocol.json.
   */
  private taskStatus(conn: Conn, task: string): unknown {
    const collab = this.collabs.get(task);
    const protocol = collab?.protocol;
    if (protocol) {
      this.requireMember(conn, protocol, task);
      const result = collab!.statusResult();
      if (result) return result;
    }
    return this.taskStatusComputed(conn, task);
  }

  private async taskStatusComputed(conn: Conn, task: string): Promise<unknown> {
    await this.openTask(conn, task);
    const status = await this.statusOf(task);
    // The answer just computed is the one the cache now holds (unless the folder changed meanwhile): serve its frozen,
    // pre-serialised form so that the next calls and this one agree byte for byte.
    return this.collabs.get(task)?.statusResult() ?? { task, ...status };
  }

  private async statusOf(task: string): Promise<TaskStatus> {
    try {
      return await this.collab(task).status();
    } catch (error) {
      if (error instanceof RpcError) throw error;
      // The folder went away (or broke) since it was opened.
      if (!(await this.host.fs.stat(nodePath.join(this.taskFolder(task), 'protocol.json')))) throw new RpcError(RpcCode.TaskNotFound, `task '${task}' not found`, { task });
      const message = error instanceof Error ? error.message : String(error);
      throw new RpcError(RpcCode.ProtocolRefusal, message, { message });
    }
  }

  private async taskCancel(conn: Conn, params: JsonRpcParams | undefined): Promise<unknown> {
    const p = parseParams(S.cancel, params, ['task', 'reason', 'participant']);
    const who = this.speaker(conn, p.participant);
    if (who === undefined) throw new RpcError(RpcCode.InvalidParams, 'Invalid params: participant is required (or authenticate as one)');
    const { folder, protocol } = await this.openTask(conn, p.task);
    // A finished collaboration stays finished: blocking a completed one would erase its result.
    const phase = (await this.core.folderTurn(this.host, folder, protocol)).phase ?? null;
    if (phase === 'completed' || phase === 'blocked') {
      throw new RpcError(RpcCode.TaskNotRunning, `task '${p.task}' is not running (phase: ${this.core.pyStr(phase)}); only a running task can be cancelled`, { task: p.task, phase });
    }
    const log = await this.core.readEventLog(this.host, folder);
    const last = log.events.at(-1);
    const args: JsonObject = { folder: p.task, participant: who, event: 'blocked', summary: p.reason };
    if (last && typeof last.seq === 'number') args.replyTo = last.seq;
    return this.runAction(conn, 'append', args);
  }

  private async taskResult(conn: Conn, params: JsonRpcParams | undefined): Promise<unknown> {
    const p = parseParams(S.result, params, ['task', 'includeContent']);
    const { folder, protocol } = await this.openTask(conn, p.task, true);
    const { core, host } = this;
    const phase = (await core.folderTurn(host, folder, protocol)).phase ?? null;
    if (phase !== 'completed') throw new RpcError(RpcCode.TaskNotCompleted, `task '${p.task}' is not completed (phase: ${core.pyStr(phase)})`, { task: p.task, phase });
    const log = await core.readEventLog(host, folder);
    const readText = async (name: string): Promise<string> => {
      try {
        return core.decodeText(await host.fs.readFile(nodePath.join(folder, name)), name);
      } catch (error) {
        if (this.core.errorCode(error) === 'ENOENT') return '';
        throw error;
      }
    };
    // Outcome: the one `- [status] text` item of conclusion.md (spec §7.4).
    const conclusion = await readText('conclusion.md');
    let outcome: { status: string; text: string } | null = null;
    for (const match of conclusion.matchAll(/^[ \t]*-[ \t]*\[([A-Za-z_]+)\][ \t]+(.+)$/gm)) {
      if (['proceed', 'do_not_proceed', 'defer', 'blocked'].includes(match[1]!)) {
        outcome = { status: match[1]!, text: match[2]!.trim() };
        break;
      }
    }
    const section = (name: string): string | null => {
      const body = core.markdown.sectionBody(conclusion, name);
      return body === undefined ? null : core.markdown.strip(body);
    };
    // The frozen primary deliverable.
    const ref = core.primaryRef(protocol);
    const deliverables = (protocol.deliverables ?? {}) as JsonObject;
    const primary = (deliverables.primary ?? {}) as JsonObject;
    const frozen = [...log.events].reverse().find((e) => e.event === 'deliverable_frozen' && e.role === 'primary');
    const bytes = ref === undefined ? undefined : await core.readDeliverable(host, folder, protocol, ref);
    const currentSha256 = bytes ? await core.sha256Hex(bytes) : null;
    const deliverable: JsonObject = {
      ref: ref ?? null,
      type: primary.pluginType ?? primary.type ?? null,
      sha256: frozen?.sha256 ?? null,
      frozenAtSeq: frozen?.seq ?? null,
      currentSha256,
      intact: frozen?.sha256 !== undefined && currentSha256 === frozen.sha256,
    };
    if (p.includeContent) deliverable.content = bytes ? core.decodeText(bytes, String(ref)) : null;
    // Accepted decisions: `### D<n>. title` blocks of decisions.md (spec §7.2).
    const decisionsText = await readText('decisions.md');
    const decisions: JsonObject[] = [];
    const blocks = decisionsText.split(/^### /m).slice(1);
    for (const block of blocks) {
      const [heading = '', ...rest] = block.split('\n');
      const body = rest.join('\n');
      const m = /^(D\d+)\.\s+(.+)$/.exec(heading.trim());
      decisions.push({
        id: m?.[1] ?? null,
        title: (m?.[2] ?? heading).trim(),
        decision: /^\s*-\s*Decision:\s*(.*)$/m.exec(body)?.[1]?.trim() ?? null,
        reflectedIn: /^\s*-\s*Reflected in:\s*(.*)$/m.exec(body)?.[1]?.trim() ?? null,
      });
    }
    const completed = [...log.events].reverse().find((e) => e.event === 'completed');
    return {
      task: p.task,
      phase: 'completed',
      completed: completed ? { seq: completed.seq, from: completed.from, at: completed.at, summary: completed.summary } : null,
      outcome,
      rationale: section('Rationale'),
      nextAction: section('Next Action'),
      deliverable,
      decisions,
    };
  }

  // -------------------------------------------------------------------------
  // message/*
  // -------------------------------------------------------------------------

  private sender(conn: Conn, from: string | undefined): string {
    if (conn.identity !== undefined) {
      if (from !== undefined && from !== conn.identity) throw unauthorized(`unauthorized: this connection speaks for '${conn.identity}' only, not for '${from}'`);
      return conn.identity;
    }
    if (from === undefined) throw new RpcError(RpcCode.InvalidParams, 'Invalid params: from is required (or authenticate as a participant)');
    return from;
  }

  private async messageSend(conn: Conn, params: JsonRpcParams | undefined): Promise<unknown> {
    const p = parseParams(S.send, params, ['to', 'text', 'task', 'from']);
    const from = this.sender(conn, p.from);
    if (p.task !== undefined) await this.openTask(conn, p.task);
    if (p.to !== 'acp') await this.requireReachable(conn, p.to);
    const targets = [...(this.byAgent.get(p.to) ?? [])];
    if (!targets.length) {
      const known = p.to === 'acp' || (await this.listTasks()).some(({ protocol }) => this.core.participantIds(protocol).includes(p.to));
      throw new RpcError(RpcCode.AgentNotFound, known ? `agent '${p.to}' is not connected` : `agent '${p.to}' not found`, { agent: p.to, connected: false });
    }
    const message: JsonObject = { from, to: p.to, text: p.text, at: this.core.formatTimestamp(this.host.now()) };
    if (p.task !== undefined) message.task = p.task;
    for (const target of targets) target.peer.notify('message/received', message);
    return { delivered: targets.length };
  }

  private async messageBroadcast(conn: Conn, params: JsonRpcParams | undefined): Promise<unknown> {
    const p = parseParams(S.broadcast, params, ['task', 'text', 'from']);
    const from = this.sender(conn, p.from);
    const { protocol } = await this.openTask(conn, p.task);
    const participants = new Set(this.core.participantIds(protocol));
    const message = { from, task: p.task, text: p.text, at: this.core.formatTimestamp(this.host.now()), broadcast: true };
    let delivered = 0;
    for (const target of this.conns) {
      if (target === conn) continue;
      const member = target.identity !== undefined && participants.has(target.identity);
      const watching = [...target.subscriptions.values()].some((s) => s.task === p.task);
      if (member || watching) {
        target.peer.notify('message/received', message);
        delivered++;
      }
    }
    return { delivered };
  }
}
