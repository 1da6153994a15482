// One JSON-RPC connection over a byte stream, used by both ends: it frames
// and unframes messages, answers requests through a handler, sends requests
// and matches their responses, and enforces the robustness rules of rpc.md
// (size limits, a stalled-peer timeout, an idle timeout, slow readers).

import { DEFAULT_FRAME_LIMITS, FrameDecoder, MAX_NESTING_DEPTH, decodeBody, encodeFrame, frameText, jsonShapeProblem, type FrameLimits } from './framing.ts';
import {
  RpcCode,
  RpcError,
  failure,
  handleMessage,
  isResponse,
  parseErrorResponse,
  rawIds,
  replyText,
  type Handled,
  type InternalErrorReporter,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcResponse,
  type RpcHandler,
} from './jsonrpc.ts';

/**
 * The byte stream a peer talks over. `node:net` sockets (Node, Bun and Deno
 * all provide them) satisfy it as they are; stdio is adapted by the CLI edge.
 */
export interface ByteStream {
  write(bytes: Uint8Array): unknown;
  end(): unknown;
  destroy(): unknown;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Output queue emptied (after `writableLength` went over the stream's own mark); optional. */
  on(event: 'drain', listener: () => void): unknown;
  /** Bytes queued but not yet written (slow-reader protection); optional. */
  readonly writableLength?: number;
  /** Stop / restart reading (backpressure on a peer that does not read its answers); optional. */
  pause?(): unknown;
  resume?(): unknown;
}

/**
 * Requests being handled at once, across every connection that shares it
 * (the server's total). A connection that finds it full waits its turn:
 * woken, first come first served, when a slot frees.
 */
export class WorkGate {
  private used = 0;
  private readonly waiting: Array<() => void> = [];
  /** Waiters a freed slot was handed to, not yet claimed (no one barges past them). */
  private readonly granted = new Set<() => void>();
  /** At most this many requests in flight. */
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Take a slot, or queue `wake` (once) to be called when one is handed over. */
  acquire(wake: () => void): boolean {
    if (this.granted.delete(wake)) return true;
    if (this.used < this.limit && !this.waiting.length) {
      this.used++;
      return true;
    }
    if (!this.waiting.includes(wake)) this.waiting.push(wake);
    return false;
  }

  /** Give a slot back: it passes to the longest waiter, if any. */
  release(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.used--;
      return;
    }
    this.granted.add(next);
    queueMicrotask(next);
  }

  /** Forget a waiter (its connection closed); a slot handed to it passes on. */
  forget(wake: () => void): void {
    const at = this.waiting.indexOf(wake);
    if (at !== -1) this.waiting.splice(at, 1);
    if (this.granted.delete(wake)) this.release();
  }
}

/** Most entries of one batch: they run one after another, and their answers travel as one message. */
export const MAX_BATCH_ENTRIES = 64;

/** Options of a {@link Peer}. */
export interface PeerOptions {
  /** Header/body limits for incoming messages. */
  limits?: Partial<FrameLimits>;
  /**
   * The largest body until {@link Peer.lift} is called (a peer that has not
   * authenticated sends a few hundred bytes; megabytes from it are refused
   * before they are read). Default: `limits.maxBodyBytes`.
   */
  untrustedMaxBodyBytes?: number;
  /** The deepest nesting of arrays and objects a message may have; deeper ones are refused unparsed. Default 64. */
  maxNestingDepth?: number;
  /** Close a peer that sent part of a message and then nothing for this long (ms; 0 = never). Default 10 000. */
  stallTimeoutMs?: number;
  /**
   * Close a peer whose message is not complete this long after its first
   * byte (ms; 0 = never), however steadily the bytes trickle in (the stall
   * timeout only sees silence). Default 0.
   */
  messageTimeoutMs?: number;
  /** Close a peer that sent no complete message for this long (ms; 0 = never). Default 0. */
  idleTimeoutMs?: number;
  /** Close a peer that does not read its answers: more than this many bytes queued. Default 16 MiB. */
  maxQueuedBytes?: number;
  /**
   * With more output than this queued, no request of this peer is started
   * and reading from it pauses until the queue drains; if the queue does not
   * move for the stall timeout, the peer is closed. Default 1 MiB.
   */
  highWaterBytes?: number;
  /** Requests of this connection handled at once (the rest wait, read but not started). Default 8. */
  maxInFlight?: number;
  /** The budget shared with other connections (the server's total). */
  gate?: WorkGate;
  /**
   * Methods answered at once, outside `maxInFlight` and the gate: cheap
   * ones a peer must get through while its slots are busy with slow calls
   * (a heartbeat `ping` left waiting would make the client drop the
   * connection).
   */
  unmetered?: ReadonlySet<string>;
  /**
   * The stream's write also takes strings, written as UTF-8 (node:net and
   * node:tls sockets): ASCII frames then go out as one string, which the
   * runtime encodes natively (no JavaScript buffer, view or copy per message).
   */
  textWrites?: boolean;
  /** Answers incoming requests and notifications; without it every method is -32601. */
  handler?: RpcHandler;
  /** Told about unexpected handler exceptions. */
  onInternalError?: InternalErrorReporter;
  /** Told about a fatal framing problem before the connection closes. */
  onProtocolError?(reason: string): void;
}

/** Why a request we sent failed without an answer. */
export class RpcConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RpcConnectionError';
  }
}

/** Requests read but not started past which reading pauses, and past which the peer is closed. */
const INBOX_PAUSE = 64;
const INBOX_LIMIT = 4096;

/**
 * `handler` with calls run one after another (the entries of a batch):
 * synchronous answers stay synchronous; after the first pending one, each
 * call waits for the one before.
 */
function oneAtATime(handler: RpcHandler): RpcHandler {
  let chain: Promise<unknown> | undefined;
  return (method, params, info) => {
    if (chain === undefined) {
      const out = handler(method, params, info);
      if (out instanceof Promise) chain = out.catch(() => undefined);
      return out;
    }
    const run = chain.then(() => handler(method, params, info));
    chain = run.catch(() => undefined);
    return run;
  };
}

/** An error response to a request we sent. */
export class RpcResponseError extends Error {
  /** JSON-RPC error code. */
  readonly code: number;
  /** `error.data`. */
  readonly data: unknown;
  constructor(error: JsonRpcErrorObject) {
    super(error.message);
    this.name = 'RpcResponseError';
    this.code = error.code;
    this.data = error.data;
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

/** A request we sent was cancelled (its `signal` aborted) before the answer came. */
export class RpcCancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RpcCancelledError';
  }
}

/** A JSON-RPC connection. */
export class Peer {
  private readonly stream: ByteStream;
  private readonly decoder: FrameDecoder;
  private readonly options: PeerOptions;
  private readonly pending = new Map<JsonRpcId, Pending>();
  private nextId = 1;
  private isClosed = false;
  private closeReason = 'closed';
  private lastMessageAt = Date.now();
  private lastByteAt = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the message being received began (`undefined` between messages). */
  private messageStartedAt: number | undefined;
  /** Requests read but not started yet (bounded: reading pauses, see pump). */
  private readonly inbox: Array<{ value: unknown; text: string }> = [];
  private inFlight = 0;
  private readingPaused = false;
  private outputMovedAt = Date.now();
  private lastQueued = 0;
  private readonly wake = (): void => this.pump();
  private readonly closeListeners: Array<(reason: string) => void> = [];
  /** Resolves once the connection is closed. */
  readonly closed: Promise<string>;

  constructor(stream: ByteStream, options: PeerOptions = {}) {
    this.stream = stream;
    this.options = options;
    this.decoder = new FrameDecoder(options.limits);
    if (options.untrustedMaxBodyBytes !== undefined) this.decoder.setMaxBodyBytes(Math.min(options.untrustedMaxBodyBytes, options.limits?.maxBodyBytes ?? DEFAULT_FRAME_LIMITS.maxBodyBytes));
    let done!: (reason: string) => void;
    this.closed = new Promise((resolve) => (done = resolve));
    this.closeListeners.push((reason) => done(reason));
    stream.on('data', (chunk) => this.receive(chunk));
    stream.on('error', (error) => this.finish(`error: ${error.message}`));
    stream.on('close', () => this.finish(this.closeReason));
    stream.on('drain', this.wake);
    this.armTimer();
  }

  /** Whether the connection is closed. */
  get isOpen(): boolean {
    return !this.isClosed;
  }

  /** Run `listener` when the connection closes (at once if it already has). */
  onClose(listener: (reason: string) => void): void {
    if (this.isClosed) listener(this.closeReason);
    else this.closeListeners.push(listener);
  }

  /**
   * Send a request and wait for its response. When `signal` aborts first, the
   * other side is told (`$/cancelRequest {id}` and `notifications/cancelled
   * {requestId}`, the LSP and MCP spellings) and the promise rejects with
   * {@link RpcCancelledError}; a late answer is dropped.
   */
  request(method: string, params?: unknown, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<unknown> {
    if (this.isClosed) return Promise.reject(new RpcConnectionError(`connection closed (${this.closeReason})`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const { signal } = options;
      const onAbort = (): void => {
        const entry = this.pending.get(id);
        if (!entry) return;
        if (entry.timer) clearTimeout(entry.timer);
        this.pending.delete(id);
        this.notify('$/cancelRequest', { id });
        this.notify('notifications/cancelled', { requestId: id, reason: String(signal?.reason ?? 'cancelled') });
        reject(new RpcCancelledError(`${method} was cancelled`));
      };
      const settle = <T>(fn: (value: T) => void) => (value: T): void => {
        signal?.removeEventListener('abort', onAbort);
        fn(value);
      };
      const entry: Pending = { resolve: settle(resolve), reject: settle(reject) };
      if (signal?.aborted) {
        reject(new RpcCancelledError(`${method} was cancelled`));
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMs && options.timeoutMs > 0) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          entry.reject(new RpcConnectionError(`no answer to ${method} within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
      }
      this.pending.set(id, entry);
      this.sendValue(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  }

  /** Send a notification (never answered). */
  notify(method: string, params?: unknown): void {
    if (this.isClosed) return;
    this.sendValue(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Write one already-built message (a response, a batch …). */
  sendValue(value: unknown): void {
    this.sendRaw(JSON.stringify(value));
  }

  /** Write one JSON text, framed. */
  sendRaw(json: string): void {
    if (this.isClosed) return;
    const text = this.options.textWrites ? frameText(json) : undefined;
    if (text === undefined) this.stream.write(encodeFrame(json));
    else (this.stream as unknown as { write(data: string): unknown }).write(text);
    const queued = this.stream.writableLength;
    if (queued !== undefined && queued > (this.options.maxQueuedBytes ?? 16 * 1024 * 1024)) this.destroy('peer is not reading its answers');
  }

  /** Close gracefully: queued bytes are flushed first. */
  /** The peer is trusted now (it authenticated): its messages may be as large as `limits.maxBodyBytes`. */
  lift(): void {
    this.decoder.setMaxBodyBytes(this.options.limits?.maxBodyBytes ?? DEFAULT_FRAME_LIMITS.maxBodyBytes);
  }

  close(reason = 'closed'): void {
    if (this.isClosed) return;
    this.closeReason = reason;
    try {
      this.stream.end();
    } catch {
      // already gone
    }
    // A peer that never reads would keep a half-closed socket alive: give it a moment.
    const force = setTimeout(() => this.destroy(reason), 2000);
    (force as { unref?(): void }).unref?.();
    this.finish(reason);
  }

  /** Close at once. */
  destroy(reason = 'closed'): void {
    this.closeReason = this.isClosed ? this.closeReason : reason;
    try {
      this.stream.destroy();
    } catch {
      // already gone
    }
    this.finish(reason);
  }

  private finish(reason: string): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closeReason = reason;
    if (this.timer) clearTimeout(this.timer);
    for (const [, entry] of this.pending) {
      if (entry.timer) clearTimeout(entry.timer);
      entry.reject(new RpcConnectionError(`connection closed (${reason})`));
    }
    this.pending.clear();
    this.inbox.length = 0;
    this.options.gate?.forget(this.wake);
    for (const listener of this.closeListeners.splice(0)) listener(reason);
  }

  /** One timer per connection, re-armed lazily instead of on every message. */
  private armTimer(): void {
    const stall = this.options.stallTimeoutMs ?? 10_000;
    const whole = this.options.messageTimeoutMs ?? 0;
    const idle = this.options.idleTimeoutMs ?? 0;
    const periods = [stall, whole, idle].filter((ms) => ms > 0);
    if (!periods.length || this.isClosed) return;
    const period = Math.max(10, Math.min(...periods) / 4);
    this.timer = setTimeout(() => {
      const now = Date.now();
      if (stall > 0 && this.decoder.midMessage && now - this.lastByteAt >= stall) {
        this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: incomplete message, nothing received for ${stall} ms`)));
        this.close('stalled in the middle of a message');
        return;
      }
      if (whole > 0 && this.messageStartedAt !== undefined && now - this.messageStartedAt >= whole) {
        this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: incomplete message, not complete within ${whole} ms of its first byte`)));
        this.close('too slow to send a message');
        return;
      }
      if (idle > 0 && now - this.lastMessageAt >= idle) {
        this.close('idle');
        return;
      }
      if (stall > 0 && this.outputStalled(now, stall)) {
        this.destroy('peer is not reading its answers');
        return;
      }
      this.pump();
      this.armTimer();
    }, period);
    (this.timer as { unref?(): void }).unref?.();
  }

  /** Whether output has been over the high-water mark without moving for `stall` ms. */
  private outputStalled(now: number, stall: number): boolean {
    const queued = this.stream.writableLength ?? 0;
    if (!this.congested() || queued < this.lastQueued) this.outputMovedAt = now;
    this.lastQueued = queued;
    return now - this.outputMovedAt >= stall;
  }

  /** More output queued than the high-water mark: start nothing, read nothing. */
  private congested(): boolean {
    return (this.stream.writableLength ?? 0) > (this.options.highWaterBytes ?? 1024 * 1024);
  }

  private receive(chunk: Uint8Array): void {
    if (this.isClosed) return;
    this.lastByteAt = Date.now();
    const events = this.decoder.push(chunk);
    // The message in progress began in this chunk if one ended here (or none was in progress).
    if (!this.decoder.midMessage) this.messageStartedAt = undefined;
    else if (events.length || this.messageStartedAt === undefined) this.messageStartedAt = this.lastByteAt;
    for (const event of events) {
      if (event.type === 'fatal') {
        this.options.onProtocolError?.(event.reason);
        // The stream cannot be resynchronised: say why (id null), then close.
        this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: ${event.reason}`)));
        this.close(event.reason);
        return;
      }
      this.lastMessageAt = this.lastByteAt;
      if (event.type === 'skip') {
        this.sendValue(parseErrorResponse(event.reason));
        continue;
      }
      const shape = jsonShapeProblem(event.body, this.options.maxNestingDepth ?? MAX_NESTING_DEPTH);
      if (shape !== undefined) {
        this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: ${shape}`)));
        continue;
      }
      let text: string;
      let value: unknown;
      try {
        text = decodeBody(event.body);
        value = JSON.parse(text);
      } catch (error) {
        this.sendValue(parseErrorResponse(error instanceof TypeError ? 'body is not valid UTF-8' : 'body is not valid JSON'));
        continue;
      }
      // Answers to our requests settle at once (a forwarded call must not
      // wait behind the peer's own requests); requests queue for pump.
      if (isResponse(value)) this.settle(value);
      else if (Array.isArray(value) && value.length > 0 && value.every(isResponse)) for (const response of value) this.settle(response);
      else if (this.isUnmetered(value)) {
        // Counted as in flight only for the moment it runs (finished() gives no gate slot back).
        this.inFlight++;
        this.dispatch(value, text, false);
      } else this.inbox.push({ value, text });
      if (this.isClosed) return;
    }
    if (this.inbox.length > INBOX_LIMIT) {
      this.destroy(`more than ${INBOX_LIMIT} requests waiting`);
      return;
    }
    this.pump();
  }

  /**
   * Start waiting requests while this connection has fewer than
   * `maxInFlight` running, the shared gate has room and its output is below
   * the high-water mark; pause reading while output is congested or many
   * requests wait (the kernel's buffers then push back on the sender).
   */
  private pump(): void {
    const max = this.options.maxInFlight ?? 8;
    while (!this.isClosed && this.inbox.length && this.inFlight < max && !this.congested()) {
      if (this.options.gate && !this.options.gate.acquire(this.wake)) break;
      const { value, text } = this.inbox.shift()!;
      this.inFlight++;
      this.dispatch(value, text);
    }
    const hold = !this.isClosed && (this.congested() || this.inbox.length >= INBOX_PAUSE);
    if (hold !== this.readingPaused) {
      this.readingPaused = hold;
      if (hold) this.stream.pause?.();
      else this.stream.resume?.();
    }
  }

  /** A single request for one of the `unmetered` methods. */
  private isUnmetered(value: unknown): boolean {
    const method = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { method?: unknown }).method : undefined;
    return typeof method === 'string' && this.options.unmetered?.has(method) === true;
  }

  /** A started request is answered (or failed): its slots are free. */
  private finished(gated = true): void {
    this.inFlight--;
    if (gated) this.options.gate?.release();
  }

  /** `text` is what `value` was parsed from: the source of id lexemes a double cannot hold. */
  private dispatch(value: unknown, text: string, gated = true): void {
    const base: RpcHandler =
      this.options.handler ??
      ((method) => {
        throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
      });
    if (Array.isArray(value) && value.length > MAX_BATCH_ENTRIES) {
      this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: a batch holds at most ${MAX_BATCH_ENTRIES} entries`)));
      this.finished(gated);
      return;
    }
    // A batch's entries run one after another: one batch is one request's worth of work at a time.
    const handler = Array.isArray(value) ? oneAtATime(base) : base;
    // Responses were settled in receive: they need no lexemes (our own request ids are small integers).
    let handled: Handled | Promise<Handled>;
    try {
      handled = handleMessage(value, handler, this.options.onInternalError, rawIds(text, value));
    } catch (error) {
      this.finished(gated);
      throw error;
    }
    if (handled instanceof Promise) {
      handled.then(
        (h) => this.reply(h),
        () => undefined,
      ).finally(() => {
        this.finished(gated);
        this.pump();
      });
    } else {
      this.reply(handled);
      this.finished(gated);
    }
  }

  private reply(handled: Handled): void {
    if (handled.reply !== undefined) this.sendRaw(replyText(handled.reply));
    for (const fn of handled.afters) fn();
  }

  private settle(response: JsonRpcResponse): void {
    const entry = this.pending.get(response.id);
    if (!entry) return; // not ours (or timed out): responses are never answered
    this.pending.delete(response.id);
    if (entry.timer) clearTimeout(entry.timer);
    if ('error' in response) entry.reject(new RpcResponseError(response.error));
    else entry.resolve(response.result);
  }
}
