// JSON-RPC 2.0 message rules (rpc.md "Wire"), independent of any transport.
//
// The rules implemented here are the ones people most often get wrong:
// an empty batch is one -32600 error object; a batch of only notifications
// gets no reply at all; each invalid batch entry gets its own error;
// notifications (no `id` member) are never answered, even when they fail; a
// request with `"id": null` is answered; parse errors and unreadable requests
// are answered with `"id": null`; ids are echoed exactly (`"1"` is not `1`);
// `params` must be an object or an array; a response carries `result` or
// `error`, never both.

/** A request or notification id. */
export type JsonRpcId = string | number | null;

/** Structured params. */
export type JsonRpcParams = Record<string, unknown> | unknown[];

/** A request (with `id`) or a notification (without). */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  method: string;
  params?: JsonRpcParams;
  id?: JsonRpcId;
}

/** The error member of a response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A response: `result` or `error`, never both. */
export type JsonRpcResponse = { jsonrpc: '2.0'; id: JsonRpcId; result: unknown } | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcErrorObject };

/**
 * Error codes: JSON-RPC's own, the seed protocol's (-32000…-32002) and ours
 * (-32003, -32010, -32020), as documented in rpc.md.
 */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  AgentNotFound: -32000,
  AgentBusy: -32001,
  TaskNotFound: -32002,
  TaskNotCompleted: -32003,
  ProtocolRefusal: -32010,
  Unauthorized: -32020,
} as const;

/** The standard message of each code. */
export const RPC_MESSAGES: Readonly<Record<number, string>> = Object.freeze({
  [-32700]: 'Parse error',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
  [-32000]: 'Agent Not Found',
  [-32001]: 'Agent Busy',
  [-32002]: 'Task Not Found',
  [-32003]: 'Task Not Completed',
  [-32010]: 'Protocol refusal',
  [-32020]: 'Unauthorized',
});

/** An error a method raises to answer with a JSON-RPC error object. */
export class RpcError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** Optional structured detail (`error.data`). */
  readonly data: unknown;
  constructor(code: number, message?: string, data?: unknown) {
    super(message ?? RPC_MESSAGES[code] ?? 'Server error');
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }

  /** The wire form. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value may be used as an id. */
export function isValidId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Build a success response. */
export function success(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
}

/** Build an error response. */
export function failure(id: JsonRpcId, error: RpcError | JsonRpcErrorObject): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: error instanceof RpcError ? error.toJSON() : error };
}

/** Whether a parsed value is a response (to a request we sent), not a request. */
export function isResponse(value: unknown): value is JsonRpcResponse {
  return isPlainObject(value) && !('method' in value) && 'id' in value && ('result' in value || 'error' in value);
}

/** What a handler learns about the call besides its params. */
export interface CallInfo {
  method: string;
  id: JsonRpcId | undefined;
  /** No `id` member: the outcome is never sent back. */
  notification: boolean;
  /** Run `fn` right after this call's response has been written (or at once for notifications). */
  after(fn: () => void): void;
}

/** Runs a valid request or notification; throw {@link RpcError} to answer with an error. */
export type RpcHandler = (method: string, params: JsonRpcParams | undefined, info: CallInfo) => unknown;

/** Reports unexpected (non-RpcError) exceptions; the client only sees -32603. */
export type InternalErrorReporter = (error: unknown, method: string) => void;

/**
 * Classify one parsed entry. Returns the request, or the error response an
 * invalid entry gets (answered even without an id, as in the JSON-RPC
 * specification's examples, with the id echoed only when it is readable).
 */
export function checkRequest(entry: unknown): { request: JsonRpcRequest } | { invalid: JsonRpcResponse } {
  if (!isPlainObject(entry)) return { invalid: failure(null, new RpcError(RpcCode.InvalidRequest, 'Invalid Request: expected a request object')) };
  const id = 'id' in entry && isValidId(entry.id) ? entry.id : null;
  const invalid = (why: string): { invalid: JsonRpcResponse } => ({ invalid: failure(id, new RpcError(RpcCode.InvalidRequest, `Invalid Request: ${why}`)) });
  if (entry.jsonrpc !== '2.0') return invalid('jsonrpc must be exactly "2.0"');
  if ('id' in entry && !isValidId(entry.id)) return invalid('id must be a string, a number or null');
  if (typeof entry.method !== 'string') return invalid('method must be a string');
  if ('params' in entry && !(isPlainObject(entry.params) || Array.isArray(entry.params))) return invalid('params must be an object or an array');
  if ('result' in entry || 'error' in entry) return invalid('a request must not carry result or error');
  return { request: entry as unknown as JsonRpcRequest };
}

interface Outcome {
  response: JsonRpcResponse | undefined;
  afters: Array<() => void>;
}

function runOne(entry: unknown, handler: RpcHandler, report: InternalErrorReporter | undefined): Outcome | Promise<Outcome> {
  const checked = checkRequest(entry);
  if ('invalid' in checked) return { response: checked.invalid, afters: [] };
  const { request } = checked;
  const notification = !('id' in request);
  const id = notification ? undefined : (request.id as JsonRpcId);
  const afters: Array<() => void> = [];
  const info: CallInfo = { method: request.method, id, notification, after: (fn) => void afters.push(fn) };
  const settle = (result: unknown): Outcome => ({ response: notification ? undefined : success(id!, result), afters });
  const fail = (error: unknown): Outcome => {
    if (!(error instanceof RpcError)) report?.(error, request.method);
    const rpcError = error instanceof RpcError ? error : new RpcError(RpcCode.InternalError);
    return { response: notification ? undefined : failure(id!, rpcError), afters };
  };
  let value: unknown;
  try {
    value = handler(request.method, request.params, info);
  } catch (error) {
    return fail(error);
  }
  // Synchronous results stay synchronous (the hot path of ping/status answers without extra ticks).
  if (value instanceof Promise) return value.then(settle, fail);
  return settle(value);
}

/** What handling one incoming message produced: the reply to write (if any) and callbacks to run after writing it. */
export interface Handled {
  reply: JsonRpcResponse | JsonRpcResponse[] | undefined;
  afters: Array<() => void>;
}

/**
 * Handle one parsed message (a request, a notification or a batch).
 * Handlers start in message order, synchronously; batch entries run
 * concurrently and their answers keep the batch's order.
 */
export function handleMessage(value: unknown, handler: RpcHandler, report?: InternalErrorReporter): Handled | Promise<Handled> {
  if (!Array.isArray(value)) {
    const one = runOne(value, handler, report);
    const wrap = (o: Outcome): Handled => ({ reply: o.response, afters: o.afters });
    return one instanceof Promise ? one.then(wrap) : wrap(one);
  }
  if (value.length === 0) return { reply: failure(null, new RpcError(RpcCode.InvalidRequest, 'Invalid Request: empty batch')), afters: [] };
  const outcomes = value.map((entry) => runOne(entry, handler, report));
  const combine = (all: Outcome[]): Handled => {
    const replies = all.map((o) => o.response).filter((r): r is JsonRpcResponse => r !== undefined);
    return { reply: replies.length ? replies : undefined, afters: all.flatMap((o) => o.afters) };
  };
  if (outcomes.some((o) => o instanceof Promise)) return Promise.all(outcomes).then(combine);
  return combine(outcomes as Outcome[]);
}

/** The answer to a body that is not JSON (or not UTF-8). */
export function parseErrorResponse(detail: string): JsonRpcResponse {
  return failure(null, new RpcError(RpcCode.ParseError, `Parse error: ${detail}`));
}
