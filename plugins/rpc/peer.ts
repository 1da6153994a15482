// One JSON-RPC connection over a byte stream, used by both ends: it frames
// and unframes messages, answers requests through a handler, sends requests
// and matches their responses, and enforces the robustness rules of rpc.md
// (size limits, a stalled-peer timeout, an idle timeout, slow readers).

import { FrameDecoder, decodeBody, encodeFrame, type FrameLimits } from './framing.ts';
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
  /** Bytes queued but not yet written (slow-reader protection); optional. */
  readonly writableLength?: number;
}

/** Options of a {@link Peer}. */
export interface PeerOptions {
  /** Header/body limits for incoming messages. */
  limits?: Partial<FrameLimits>;
  /** Close a peer that sent part of a message and then nothing for this long (ms; 0 = never). Default 10 000. */
  stallTimeoutMs?: number;
  /** Close a peer that sent no complete message for this long (ms; 0 = never). Default 0. */
  idleTimeoutMs?: number;
  /** Close a peer that does not read its answers: more than this many bytes queued. Default 16 MiB. */
  maxQueuedBytes?: number;
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
  private readonly closeListeners: Array<(reason: string) => void> = [];
  /** Resolves once the connection is closed. */
  readonly closed: Promise<string>;

  constructor(stream: ByteStream, options: PeerOptions = {}) {
    this.stream = stream;
    this.options = options;
    this.decoder = new FrameDecoder(options.limits);
    let done!: (reason: string) => void;
    this.closed = new Promise((resolve) => (done = resolve));
    this.closeListeners.push((reason) => done(reason));
    stream.on('data', (chunk) => this.receive(chunk));
    stream.on('error', (error) => this.finish(`error: ${error.message}`));
    stream.on('close', () => this.finish(this.closeReason));
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
    this.stream.write(encodeFrame(json));
    const queued = this.stream.writableLength;
    if (queued !== undefined && queued > (this.options.maxQueuedBytes ?? 16 * 1024 * 1024)) this.destroy('peer is not reading its answers');
  }

  /** Close gracefully: queued bytes are flushed first. */
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
    for (const listener of this.closeListeners.splice(0)) listener(reason);
  }

  /** One timer per connection, re-armed lazily instead of on every message. */
  private armTimer(): void {
    const stall = this.options.stallTimeoutMs ?? 10_000;
    const idle = this.options.idleTimeoutMs ?? 0;
    const periods = [stall, idle].filter((ms) => ms > 0);
    if (!periods.length || this.isClosed) return;
    const period = Math.max(10, Math.min(...periods) / 4);
    this.timer = setTimeout(() => {
      const now = Date.now();
      if (stall > 0 && this.decoder.midMessage && now - this.lastByteAt >= stall) {
        this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: incomplete message, nothing received for ${stall} ms`)));
        this.close('stalled in the middle of a message');
        return;
      }
      if (idle > 0 && now - this.lastMessageAt >= idle) {
        this.close('idle');
        return;
      }
      this.armTimer();
    }, period);
    (this.timer as { unref?(): void }).unref?.();
  }

  private receive(chunk: Uint8Array): void {
    if (this.isClosed) return;
    this.lastByteAt = Date.now();
    for (const event of this.decoder.push(chunk)) {
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
      let text: string;
      let value: unknown;
      try {
        text = decodeBody(event.body);
        value = JSON.parse(text);
      } catch (error) {
        this.sendValue(parseErrorResponse(error instanceof TypeError ? 'body is not valid UTF-8' : 'body is not valid JSON'));
        continue;
      }
      this.dispatch(value, text);
      if (this.isClosed) return;
    }
  }

  /** `text` is what `value` was parsed from: the source of id lexemes a double cannot hold. */
  private dispatch(value: unknown, text: string): void {
    if (isResponse(value)) {
      this.settle(value);
      return;
    }
    if (Array.isArray(value) && value.length > 0 && value.every(isResponse)) {
      for (const response of value) this.settle(response);
      return;
    }
    const handler: RpcHandler =
      this.options.handler ??
      ((method) => {
        throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
      });
    // Responses (above) need no lexemes: our own request ids are small integers, which survive a double.
    const handled = handleMessage(value, handler, this.options.onInternalError, rawIds(text, value));
    if (handled instanceof Promise) handled.then((h) => this.reply(h), () => undefined);
    else this.reply(handled);
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
