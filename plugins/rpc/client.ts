/**
 * The Agent Communication Protocol client library: one {@link RpcClient} per
 * server endpoint (authenticates, re-connects with backoff, keeps the
 * connection alive with `ping` heartbeats, re-subscribes after a reconnect
 * without losing events), and an {@link RpcPool} across endpoints that routes
 * `agent/call` by agent name or by capability, from the servers' discovery
 * documents.
 *
 * ```ts
 * import { RpcClient } from 'acp/plugins/rpc/client.ts';
 * const client = await RpcClient.connect('tcp://127.0.0.1:9001', { token: process.env.ACP_TOKEN });
 * const status = await client.call('task/status', { task: 'demo' });
 * await client.subscribe({ task: 'demo', participant: 'bob' }, (n) => console.log(n.event, n.state));
 * ```
 *
 * Runs on Node, Bun and Deno (`node:net`; Deno needs `--allow-net`, and
 * `--allow-read --allow-write` for Unix sockets).
 *
 * @module
 */

import type { FrameLimits } from './framing.ts';
import { RpcCode, RpcError, type CallInfo, type JsonRpcParams } from './jsonrpc.ts';
import { Peer, RpcConnectionError, RpcResponseError, type ByteStream } from './peer.ts';

export { RpcConnectionError, RpcResponseError } from './peer.ts';

/** Where a server listens. */
export type Endpoint = { kind: 'tcp'; host: string; port: number; tls?: boolean } | { kind: 'unix'; path: string };

/** An endpoint text that names no socket: a caller's mistake, never worth a retry. */
export class RpcEndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RpcEndpointError';
  }
}

/**
 * Parse an endpoint: `tcp://host:port`, `tls://host:port` (TCP with TLS, the
 * server's certificate verified), `host:port`, a bare port (loopback),
 * `unix:/path/acp.sock`, `unix:///path`, or a path containing `/`.
 */
export function parseEndpoint(text: string): Endpoint {
  const value = text.trim();
  if (value.startsWith('unix:')) {
    const path = value.slice(5).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new RpcEndpointError(`invalid endpoint '${text}': missing socket path`);
    return { kind: 'unix', path };
  }
  if (value.startsWith('/') || value.startsWith('./') || value.startsWith('../')) return { kind: 'unix', path: value };
  const tls = value.startsWith('tls://');
  const rest = value.startsWith('tcp://') || tls ? value.slice(6) : value;
  const v6 = /^\[([^\]]+)\]:(\d{1,5})$/.exec(rest);
  const v4 = /^([^:/\s]*):(\d{1,5})$/.exec(rest);
  const bare = /^(\d{1,5})$/.exec(rest);
  const host = v6?.[1] ?? v4?.[1] ?? '127.0.0.1';
  const port = Number(v6?.[2] ?? v4?.[2] ?? bare?.[1] ?? NaN);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RpcEndpointError(`invalid endpoint '${text}': expected tcp://host:port, host:port or unix:/path`);
  return tls ? { kind: 'tcp', host: host || '127.0.0.1', port, tls } : { kind: 'tcp', host: host || '127.0.0.1', port };
}

/** Format an endpoint back to text. */
export function formatEndpoint(endpoint: Endpoint): string {
  return endpoint.kind === 'unix' ? `unix:${endpoint.path}` : `${endpoint.tls ? 'tls' : 'tcp'}://${endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}`;
}

/** A call forwarded to this agent by the server (`agent/call` to it). */
export interface IncomingCall {
  from: string | null;
  action: string;
  args: Record<string, unknown>;
}

/** Options of {@link RpcClient}. */
export interface RpcClientOptions {
  /** Token the server's config maps to a participant id (required over TCP). */
  token?: string;
  /** On stdio/Unix connections without a token: the participant id to speak for. */
  participant?: string;
  /** Actions this agent answers when the server forwards calls (see `onCall`). */
  capabilities?: string[];
  /** Reported in this agent's discovery document. */
  version?: string;
  /** Answers calls forwarded to this agent; return the `data`. Throw an Error to refuse. */
  onCall?(call: IncomingCall): unknown;
  /** `message/received` notifications. */
  onMessage?(message: Record<string, unknown>): void;
  /** Re-connect when the connection drops (default true). */
  reconnect?: boolean;
  /** Backoff between connection attempts: starts at `initialMs`, doubles up to `maxMs` (default 100 ms … 5 s), with jitter. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Give up re-connecting after this many failed attempts in a row (default: never). */
  maxAttempts?: number;
  /** Heartbeat period (default 30 s; 0 disables). */
  heartbeatMs?: number;
  /** A heartbeat not answered within this long drops the connection (default 10 s). */
  heartbeatTimeoutMs?: number;
  /** Default timeout of requests (default none). */
  requestTimeoutMs?: number;
  /** Incoming message limits (default 64 MiB bodies: task/result may carry a whole deliverable). */
  limits?: Partial<FrameLimits>;
  /**
   * For `tls://` endpoints: the certificate authorities (PEM) to verify the
   * server against instead of the system's (e.g. a self-signed server
   * certificate). Verification is never switched off.
   */
  ca?: string | Uint8Array;
  /** Connection state changes (for logs). */
  onStatus?(status: 'connected' | 'disconnected' | 'reconnecting' | 'closed', detail?: string): void;
}

/** An `agent/event` or `agent/state` notification. */
export interface SubscriptionNotification {
  method: 'agent/event' | 'agent/state';
  subscription: string;
  task: string;
  event?: Record<string, unknown>;
  state: { phase: string | null; proposalOwner: string | null; waitingFor: string[] };
  reset?: boolean;
  ready?: boolean;
  reason?: string;
}

/** What {@link RpcClient.subscribe} returns. */
export interface ClientSubscription {
  /** The server's answer to agent/subscribe (current seq, state, readiness). */
  readonly initial: Record<string, unknown>;
  /** Stop receiving (and tell the server). */
  unsubscribe(): Promise<void>;
}

interface SubscriptionEntry {
  params: { task: string; participant?: string };
  listener: (n: SubscriptionNotification) => void;
  serverId: string | undefined;
  lastSeq: number;
  active: boolean;
}


/** Connection failures that retrying cannot cure (see {@link isPermissionRefusal}). */
const refusals = new WeakSet<Error>();

/**
 * Whether `error` is Deno (2) refusing a permission: `--allow-net`, or
 * `--allow-read`/`--allow-write` on a Unix socket. Such a refusal stays until
 * the program is run with other flags, so it is reported at once instead of
 * being retried with backoff (for ever, by default). Only `NotCapable`: Deno's
 * `PermissionDenied` is the operating system's EACCES, which Node and Bun
 * retry like any other connection error.
 */
function isPermissionRefusal(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'NotCapable';
}

async function openStream(endpoint: Endpoint, timeoutMs: number, ca?: string | Uint8Array): Promise<ByteStream> {
  const net = await import('node:net');
  const tls = endpoint.kind === 'tcp' && endpoint.tls ? await import('node:tls') : undefined;
  const failed = (error: unknown): RpcConnectionError => {
    const wrapped = new RpcConnectionError(`cannot connect to ${formatEndpoint(endpoint)}: ${(error as Error).message}`);
    if (isPermissionRefusal(error)) refusals.add(wrapped);
    return wrapped;
  };
  return new Promise((resolve, reject) => {
    let socket: ReturnType<typeof net.connect>;
    try {
      if (endpoint.kind === 'unix') socket = net.connect(endpoint.path);
      else if (tls) socket = tls.connect({ host: endpoint.host, port: endpoint.port, ...(ca === undefined ? {} : { ca: typeof ca === 'string' ? ca : Buffer.from(ca) }), servername: net.isIP(endpoint.host) ? undefined : endpoint.host });
      else socket = net.connect(endpoint.port, endpoint.host);
    } catch (error) {
      // Deno refuses a Unix socket without --allow-read/--allow-write by throwing here, not through 'error'.
      reject(failed(error));
      return;
    }
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new RpcConnectionError(`connect to ${formatEndpoint(endpoint)} timed out`));
    }, timeoutMs);
    // TLS: usable once the handshake (and the certificate check) succeeded.
    socket.once(tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.setNoDelay?.(true);
      resolve(socket as unknown as ByteStream);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      // Deno refuses TCP without --allow-net through here, not by throwing.
      reject(failed(error));
    });
  });
}

/**
 * A connection to one `acp serve` endpoint. Requests in flight when the
 * connection drops fail with {@link RpcConnectionError} (they are not
 * replayed: an append may or may not have happened — check with
 * task/status); subscriptions are renewed after a reconnect from the last
 * seq seen, so no event is lost.
 */
export class RpcClient {
  readonly endpoint: Endpoint;
  private readonly options: RpcClientOptions;
  private peer: Peer | undefined;
  private connecting: Promise<Peer> | undefined;
  private closedByUser = false;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private readonly subs = new Set<SubscriptionEntry>();
  /** Notifications for a subscription whose id we have not learnt yet (its answer is still being processed). */
  private readonly early: Array<Record<string, unknown>> = [];
  private attempts = 0;
  /** The participant the server says this connection speaks for (after authentication). */
  participant: string | undefined;

  private constructor(endpoint: Endpoint, options: RpcClientOptions) {
    this.endpoint = endpoint;
    this.options = options;
  }

  /** Connect (and authenticate when a token or participant is given). */
  static async connect(endpoint: string | Endpoint, options: RpcClientOptions = {}): Promise<RpcClient> {
    const client = new RpcClient(typeof endpoint === 'string' ? parseEndpoint(endpoint) : endpoint, options);
    await client.ensure();
    return client;
  }

  /** Attach to an already-open stream (for example a spawned `acp serve --stdio`); no reconnects. */
  static async fromStream(stream: ByteStream, options: RpcClientOptions = {}): Promise<RpcClient> {
    const client = new RpcClient({ kind: 'unix', path: '(stream)' }, { ...options, reconnect: false });
    client.connecting = client.setup(stream);
    await client.connecting;
    return client;
  }

  /** Whether a connection is currently open. */
  get connected(): boolean {
    return this.peer?.isOpen ?? false;
  }

  /** Call a method; resolves with its result, rejects with {@link RpcResponseError} for error answers. */
  async call(method: string, params?: JsonRpcParams, options: { timeoutMs?: number } = {}): Promise<unknown> {
    const peer = await this.ensure();
    return peer.request(method, params, { timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs });
  }

  /** Send a notification (no answer). */
  async notify(method: string, params?: JsonRpcParams): Promise<void> {
    (await this.ensure()).notify(method, params);
  }

  /** `agent/call` on agent `acp` (the CLI's operations); resolves with `data`. */
  async acp(action: string, args: Record<string, unknown> = {}): Promise<unknown> {
    const result = (await this.call('agent/call', { agent: 'acp', action, args })) as { data?: unknown };
    return result?.data;
  }

  /**
   * Subscribe to a collaboration (optionally as one participant, which adds
   * `ready`/`reason` to each notification). `fromSeq` replays earlier events.
   */
  async subscribe(params: { task: string; participant?: string; fromSeq?: number }, listener: (n: SubscriptionNotification) => void): Promise<ClientSubscription> {
    const entry: SubscriptionEntry = { params: { task: params.task, participant: params.participant }, listener, serverId: undefined, lastSeq: 0, active: true };
    const initial = await this.startSubscription(entry, params.fromSeq);
    return {
      initial,
      unsubscribe: async () => {
        entry.active = false;
        this.subs.delete(entry);
        if (entry.serverId && this.connected) await this.call('agent/unsubscribe', { subscription: entry.serverId }).catch(() => undefined);
      },
    };
  }

  /** Close for good (no reconnect). */
  close(): void {
    this.closedByUser = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.peer?.close('closed by client');
    this.options.onStatus?.('closed');
  }

  private async startSubscription(entry: SubscriptionEntry, fromSeq: number | undefined): Promise<Record<string, unknown>> {
    const params: Record<string, unknown> = { task: entry.params.task };
    if (entry.params.participant !== undefined) params.participant = entry.params.participant;
    if (fromSeq !== undefined) params.fromSeq = fromSeq;
    const peer = await this.ensure();
    const initial = (await peer.request('agent/subscribe', params)) as Record<string, unknown>;
    entry.serverId = String(initial.subscription);
    if (typeof initial.seq === 'number' && fromSeq === undefined) entry.lastSeq = initial.seq;
    this.subs.add(entry);
    const early = this.early.filter((n) => n.subscription === entry.serverId);
    this.early.splice(0, this.early.length, ...this.early.filter((n) => n.subscription !== entry.serverId));
    for (const n of early) this.deliver(entry, n);
    return initial;
  }

  private ensure(): Promise<Peer> {
    if (this.peer?.isOpen) return Promise.resolve(this.peer);
    if (this.closedByUser) return Promise.reject(new RpcConnectionError('client closed'));
    this.connecting ??= this.connectLoop().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connectLoop(): Promise<Peer> {
    const initial = this.options.backoff?.initialMs ?? 100;
    const max = this.options.backoff?.maxMs ?? 5000;
    for (;;) {
      try {
        const stream = await openStream(this.endpoint, 10_000, this.options.ca);
        const peer = await this.setup(stream);
        this.attempts = 0;
        return peer;
      } catch (error) {
        this.attempts++;
        // Authentication refusals and refused permissions do not get better by retrying.
        if (error instanceof RpcResponseError || refusals.has(error as Error) || this.options.reconnect === false || this.closedByUser) throw error;
        if (this.options.maxAttempts !== undefined && this.attempts >= this.options.maxAttempts) throw error;
        const delay = Math.min(max, initial * 2 ** (this.attempts - 1));
        this.options.onStatus?.('reconnecting', `${(error as Error).message}; retrying in ${delay} ms`);
        await new Promise((resolve) => setTimeout(resolve, delay / 2 + Math.random() * (delay / 2)));
      }
    }
  }

  private async setup(stream: ByteStream): Promise<Peer> {
    const peer = new Peer(stream, {
      limits: { maxBodyBytes: 64 * 1024 * 1024, ...this.options.limits },
      stallTimeoutMs: 60_000,
      handler: (method, params, info) => this.handle(method, params, info),
    });
    try {
      if (this.options.token !== undefined || this.options.participant !== undefined) {
        const auth: Record<string, unknown> = {};
        if (this.options.token !== undefined) auth.token = this.options.token;
        if (this.options.participant !== undefined) auth.participant = this.options.participant;
        if (this.options.capabilities?.length) auth.capabilities = this.options.capabilities;
        if (this.options.version !== undefined) auth.version = this.options.version;
        const answer = (await peer.request('authenticate', auth, { timeoutMs: 10_000 })) as { participant?: string };
        this.participant = answer.participant;
      }
    } catch (error) {
      peer.destroy('authentication failed');
      throw error;
    }
    this.peer = peer;
    this.options.onStatus?.('connected', formatEndpoint(this.endpoint));
    peer.onClose((reason) => this.dropped(peer, reason));
    this.startHeartbeat(peer);
    // Renew subscriptions, replaying what was missed while disconnected.
    for (const entry of this.subs) {
      if (!entry.active) continue;
      void this.startSubscription(entry, entry.lastSeq + 1).catch(() => undefined);
    }
    return peer;
  }

  private startHeartbeat(peer: Peer): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    const period = this.options.heartbeatMs ?? 30_000;
    if (period <= 0) return;
    this.heartbeat = setInterval(() => {
      if (!peer.isOpen) return;
      peer.request('ping', undefined, { timeoutMs: this.options.heartbeatTimeoutMs ?? 10_000 }).catch(() => peer.destroy('heartbeat not answered'));
    }, period);
    (this.heartbeat as { unref?(): void }).unref?.();
  }

  private dropped(peer: Peer, reason: string): void {
    if (this.peer !== peer) return;
    this.peer = undefined;
    this.early.length = 0;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.closedByUser) return;
    this.options.onStatus?.('disconnected', reason);
    if (this.options.reconnect !== false && this.subs.size > 0) void this.ensure().catch(() => undefined);
  }

  private deliver(entry: SubscriptionEntry, n: Record<string, unknown>): void {
    if (!entry.active) return;
    const event = n.event as Record<string, unknown> | undefined;
    if (event && typeof event.seq === 'number') {
      // A replay after reconnecting may repeat what was seen: drop duplicates.
      if (event.seq <= entry.lastSeq) return;
      entry.lastSeq = event.seq;
    }
    entry.listener(n as unknown as SubscriptionNotification);
  }

  private handle(method: string, params: JsonRpcParams | undefined, _info: CallInfo): unknown {
    const p = (params ?? {}) as Record<string, unknown>;
    if (method === 'agent/event' || method === 'agent/state') {
      const entry = [...this.subs].find((e) => e.active && e.serverId === p.subscription);
      if (entry) this.deliver(entry, { ...p, method });
      else if (this.early.length < 10_000) this.early.push({ ...p, method });
      return undefined;
    }
    if (method === 'message/received') {
      this.options.onMessage?.(p);
      return undefined;
    }
    if (method === 'agent/call' && this.options.onCall) {
      return Promise.resolve(this.options.onCall({ from: (p.from as string | null) ?? null, action: String(p.action), args: (p.args as Record<string, unknown>) ?? {} })).then(
        (data) => ({ status: 'success', data: data ?? null }),
        (error: unknown) => {
          if (error instanceof RpcError) throw error;
          throw new RpcError(RpcCode.InternalError, error instanceof Error ? error.message : String(error));
        },
      );
    }
    if (method === 'ping') return { pong: true };
    throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
  }
}

/** Options of {@link RpcPool}. */
export interface RpcPoolOptions extends RpcClientOptions {
  /** Re-read discovery documents this often (default 30 s; 0 = only on demand). */
  refreshMs?: number;
}

interface Route {
  client: RpcClient;
  agent: string;
  capabilities: string[];
  connected: boolean;
}

/**
 * Clients across several servers, routing `agent/call` by agent name or by
 * capability. Routes come from each server's `agent/list` (which carries the
 * discovery documents' capabilities); an agent connected to a server is
 * preferred over one that is not.
 */
export class RpcPool {
  private readonly endpoints: string[];
  private readonly options: RpcPoolOptions;
  private readonly clients = new Map<string, RpcClient>();
  private routes: Route[] = [];
  private refreshTimer: ReturnType<typeof setInterval> | undefined;

  constructor(endpoints: string[], options: RpcPoolOptions = {}) {
    this.endpoints = endpoints;
    this.options = options;
  }

  /** Connect to every endpoint that answers and read the routes. */
  async start(): Promise<void> {
    await Promise.all(
      this.endpoints.map(async (endpoint) => {
        try {
          this.clients.set(endpoint, await RpcClient.connect(endpoint, this.options));
        } catch (error) {
          this.options.onStatus?.('disconnected', `${endpoint}: ${(error as Error).message}`);
        }
      }),
    );
    if (this.clients.size === 0) throw new RpcConnectionError(`no endpoint answered (${this.endpoints.join(', ')})`);
    await this.refresh();
    const period = this.options.refreshMs ?? 30_000;
    if (period > 0) {
      this.refreshTimer = setInterval(() => void this.refresh().catch(() => undefined), period);
      (this.refreshTimer as { unref?(): void }).unref?.();
    }
  }

  /** Re-read every server's agents and capabilities. */
  async refresh(): Promise<void> {
    const routes: Route[] = [];
    for (const client of this.clients.values()) {
      try {
        const list = (await client.call('agent/list')) as { agents: Array<{ agent: string; capabilities?: string[]; connected?: boolean }> };
        for (const a of list.agents) routes.push({ client, agent: a.agent, capabilities: a.capabilities ?? [], connected: Boolean(a.connected) });
      } catch {
        // a server that is down keeps no routes until it is back
      }
    }
    this.routes = routes;
  }

  /** Agents known, with the endpoint serving each. */
  agents(): Array<{ agent: string; endpoint: string; capabilities: string[]; connected: boolean }> {
    return this.routes.map((r) => ({ agent: r.agent, endpoint: formatEndpoint(r.client.endpoint), capabilities: r.capabilities, connected: r.connected }));
  }

  /** The client serving an agent (by name) or a capability; throws -32000 when none does. */
  route(target: { agent?: string; capability?: string }): { client: RpcClient; agent: string } {
    const candidates = this.routes
      .filter((r) => (target.agent === undefined || r.agent === target.agent) && (target.capability === undefined || r.capabilities.includes(target.capability)))
      .sort((a, b) => Number(b.connected) - Number(a.connected));
    const chosen = candidates[0];
    if (!chosen) throw new RpcResponseError({ code: RpcCode.AgentNotFound, message: `no agent for ${target.agent !== undefined ? `name '${target.agent}'` : `capability '${target.capability}'`}` });
    return { client: chosen.client, agent: chosen.agent };
  }

  /** `agent/call` routed by agent name or capability (the action defaults to the capability). */
  async call(target: { agent?: string; capability?: string; action?: string; args?: Record<string, unknown> }): Promise<unknown> {
    let route: { client: RpcClient; agent: string };
    try {
      route = this.route(target);
    } catch (error) {
      await this.refresh();
      route = this.route(target);
      void error;
    }
    const action = target.action ?? target.capability;
    if (action === undefined) throw new Error('pool.call needs an action (or a capability to use as the action)');
    return route.client.call('agent/call', { agent: route.agent, action, args: target.args ?? {} });
  }

  /** A client by endpoint (as given to the constructor). */
  client(endpoint: string): RpcClient | undefined {
    return this.clients.get(endpoint);
  }

  /** Close every client. */
  close(): void {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
