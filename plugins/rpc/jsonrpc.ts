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
//
// "Exactly" includes numbers JSON.parse cannot represent: `1.0`, `1e2`, `-0`
// or `12345678901234567890` would come back as `1`, `100`, `0` and
// `12345678901234567000` after a round trip through a double. So the peer
// hands {@link rawIds} the message text; on the rare message that needs it, the
// id's lexeme rides along with the response and {@link replyText} writes it
// back verbatim.

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
 * (-32003, -32004, -32010, -32020, and LSP's -32800), as documented in rpc.md.
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
  /** task/cancel on a task that is no longer running (completed or blocked). */
  TaskNotRunning: -32004,
  ProtocolRefusal: -32010,
  Unauthorized: -32020,
  /** The caller cancelled its forwarded call (`$/cancelRequest` / `notifications/cancelled`); LSP's code. */
  RequestCancelled: -32800,
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
  [-32004]: 'Task Not Running',
  [-32010]: 'Protocol refusal',
  [-32020]: 'Unauthorized',
  [-32800]: 'Request cancelled',
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

/**
 * The raw lexeme a response echoes instead of its `id` value. A symbol, so that
 * JSON.stringify, equality checks and handlers never see it; only
 * {@link replyText} does.
 */
const RAW_ID: unique symbol = Symbol('rawId');

type RawCarrier = JsonRpcResponse & { [RAW_ID]?: string };

function withRawId(response: JsonRpcResponse, rawId: string | undefined): JsonRpcResponse {
  // Non-enumerable as well: test matchers that walk own symbols stay unaffected.
  if (rawId !== undefined) Object.defineProperty(response, RAW_ID, { value: rawId });
  return response;
}

/**
 * Results whose JSON text is already known (a cached answer served many
 * times): {@link replyText} writes the text instead of serialising the
 * object again. Keyed by the object, so the handler still returns a plain
 * value that in-process callers and tests can read.
 */
const jsonTexts = new WeakMap<object, string>();

/**
 * Give `value` its JSON text, written verbatim whenever `value` is a reply's
 * `result`. `text` must be what JSON.stringify(value) writes, and `value`
 * must not change afterwards (callers freeze it).
 */
export function withJsonText<T extends object>(value: T, text: string): T {
  jsonTexts.set(value, text);
  return value;
}

/** JSON.stringify(result), or the text registered with {@link withJsonText}. */
function resultText(result: unknown): string {
  return (typeof result === 'object' && result !== null ? jsonTexts.get(result) : undefined) ?? JSON.stringify(result) ?? 'null';
}

/** One response's text: the (fixed) envelope written by hand around the id (raw lexeme or JSON) and the result or error. */
function responseText(response: RawCarrier): string {
  // A number id without a raw lexeme is finite (isValidId): String writes it as JSON.stringify does.
  const id = response[RAW_ID] ?? (typeof response.id === 'number' ? String(response.id) : JSON.stringify(response.id));
  return 'error' in response ? `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify(response.error)}}` : `{"jsonrpc":"2.0","id":${id},"result":${resultText(response.result)}}`;
}

/**
 * The JSON text of a reply: JSON.stringify's, except that ids whose spelling
 * a double loses are written as they were received, and results given a text
 * by {@link withJsonText} are written as that text.
 */
export function replyText(reply: JsonRpcResponse | JsonRpcResponse[]): string {
  if (!Array.isArray(reply)) return responseText(reply);
  return `[${reply.map(responseText).join(',')}]`;
}

const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** Whether JSON.stringify writes the number a lexeme denotes with that very lexeme. */
function isCanonical(lexeme: string): boolean {
  return String(Number(lexeme)) === lexeme;
}

/**
 * A member named `id`, at any depth, whose number may be spelt other than
 * JSON.stringify spells it: `-0…`, a fraction or exponent, or 16 digits and
 * more (integers of up to 15 digits are below 2^53, hence exact and
 * canonical). The key may be spelt plainly or with `\u0069`/`\u0064`
 * escapes (hex digits without case variants). Inside a string an unescaped
 * quote cannot follow `d`, so every real `id` key is seen; a false alarm only
 * costs a scan.
 */
const SUSPECT_NUMERIC_ID = /"(?:i|\\u0069)(?:d|\\u0064)"[ \t\n\r]*:[ \t\n\r]*(?:-0|-?[0-9]+[.eE]|-?[0-9]{16})/g;

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

/**
 * Whether some numeric `id` member of the text, at any depth, is spelt
 * differently from what JSON.stringify writes and denotes one of `ids`, the
 * message's parsed top-level ids (a nested `"id": 1.0` in params cannot be
 * the request's `"id": 7`). Then a scan is due. It runs on
 * every request with a numeric id, so it is one native regular expression
 * pass without allocation; only suspects (`2.5` is one, and canonical) get a
 * closer look.
 */
function hasNonCanonicalNumericId(text: string, ids: number | Set<number>): boolean {
  SUSPECT_NUMERIC_ID.lastIndex = 0;
  while (SUSPECT_NUMERIC_ID.test(text)) {
    // The match ends inside the number: widen it to the whole lexeme.
    const end = SUSPECT_NUMERIC_ID.lastIndex;
    let from = end;
    while (isNumberChar(text.charCodeAt(from - 1))) from--;
    let to = end;
    while (isNumberChar(text.charCodeAt(to))) to++;
    // Compare values first: in a big body most suspects are nested ids of other values.
    const lexeme = text.slice(from, to);
    const n = Number(lexeme);
    if ((typeof ids === 'number' ? Object.is(n, ids) : ids.has(n)) && String(n) !== lexeme) {
      SUSPECT_NUMERIC_ID.lastIndex = 0;
      return true;
    }
  }
  return false;
}

function hasNumberId(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && typeof (entry as { id?: unknown }).id === 'number';
}

function skipWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
    i++;
  }
}

/** `i` at an opening quote; returns the index after the closing one. */
function skipString(text: string, i: number): number {
  for (let q = text.indexOf('"', i + 1); q !== -1; q = text.indexOf('"', q + 1)) {
    let b = q - 1;
    while (text.charCodeAt(b) === 92) b--;
    // An even run of backslashes escapes itself, not the quote.
    if ((q - 1 - b) % 2 === 0) return q + 1;
  }
  return text.length;
}

/** `i` at the first character of a value; returns the index after it. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return skipString(text, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 34) j = skipString(text, j) - 1;
      else if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) return j + 1;
    }
    return text.length;
  }
  // A number or a literal: up to the next delimiter.
  let j = i + 1;
  for (; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 44 || d === 125 || d === 93 || d === 32 || d === 9 || d === 10 || d === 13) break;
  }
  return j;
}

/** `i` at `{`; the raw value of the object's own `id` member (the last one, as JSON.parse keeps) and the index after the object. */
function scanObject(text: string, i: number): { id: string | undefined; end: number } {
  let id: string | undefined;
  i = skipWhitespace(text, i + 1);
  while (text.charCodeAt(i) === 34) {
    const keyEnd = skipString(text, i);
    if (keyEnd >= text.length) break; // not JSON after all: stop rather than guess
    // Any spelling of "id" is at most 12 characters (`\u0069\u0064`); only escaped ones need decoding.
    const keyLength = keyEnd - i - 2;
    const isId = keyLength === 2 ? text.startsWith('id', i + 1) : keyLength <= 12 && text.slice(i, keyEnd).includes('\\') && JSON.parse(text.slice(i, keyEnd)) === 'id';
    const start = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1);
    const end = skipValue(text, start);
    if (isId) id = text.slice(start, end);
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) !== 44) break;
    i = skipWhitespace(text, i + 1);
  }
  return { id, end: i + 1 };
}

/**
 * The raw text of the top-level `id` member in a JSON text that JSON.parse
 * accepted: `[lexeme]` for an object, one entry per element for an array
 * (undefined where an element is not an object or has no `id`), `[]` for any
 * other value. Nested `id` members (in params, say) are skipped; as with
 * JSON.parse, the last of duplicate keys wins and escaped spellings of the
 * key count.
 */
export function scanIdLexemes(text: string): Array<string | undefined> {
  let i = skipWhitespace(text, 0);
  const c = text.charCodeAt(i);
  if (c === 123) return [scanObject(text, i).id];
  if (c !== 91) return [];
  const ids: Array<string | undefined> = [];
  i = skipWhitespace(text, i + 1);
  while (i < text.length && text.charCodeAt(i) !== 93) {
    if (text.charCodeAt(i) === 123) {
      const { id, end } = scanObject(text, i);
      ids.push(id);
      i = end;
    } else {
      ids.push(undefined);
      i = skipValue(text, i);
    }
    i = skipWhitespace(text, i);
    if (text.charCodeAt(i) !== 44) break;
    i = skipWhitespace(text, i + 1);
  }
  return ids;
}

/**
 * The id lexemes a reply must echo verbatim, for the message `value` that
 * JSON.parse made of `text`: one slot per request (one for a lone request, one
 * per batch entry), set only where the id is a number that JSON.stringify
 * would spell differently (`1.0`, `1e2`, `-0`, digits beyond a double's
 * precision, `1e400`). Undefined when there is none, which is found without
 * a search for messages with string or null ids, and with one regular
 * expression pass when no numeric `id` in the text is both spelt
 * non-canonically and equal to a top-level id.
 */
export function rawIds(text: string, value: unknown): Array<string | undefined> | undefined {
  // The common cases leave early: string or null ids (no search at all), canonical numbers (one search).
  let ids: number | Set<number>;
  if (Array.isArray(value)) {
    ids = new Set(value.filter(hasNumberId).map((entry) => (entry as { id: number }).id));
    if (!ids.size) return undefined;
  } else {
    if (!hasNumberId(value)) return undefined;
    ids = (value as { id: number }).id;
  }
  if (!hasNonCanonicalNumericId(text, ids)) return undefined;
  const entries: unknown[] = Array.isArray(value) ? value : [value];
  const lexemes = scanIdLexemes(text);
  let found = false;
  const raw = entries.map((entry, k) => {
    const lexeme = lexemes[k];
    if (lexeme === undefined || !hasNumberId(entry) || !JSON_NUMBER.test(lexeme) || isCanonical(lexeme)) return undefined;
    // Belt and braces: a lexeme is only ever echoed for the number JSON.parse read from it.
    if (!Object.is(Number(lexeme), (entry as { id: number }).id)) return undefined;
    found = true;
    return lexeme;
  });
  return found ? raw : undefined;
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
 * `rawId` is the entry's id lexeme from {@link rawIds}: it is echoed in place
 * of the id, and makes a number too large for a double (`1e400`) a valid id.
 */
export function checkRequest(entry: unknown, rawId?: string): { request: JsonRpcRequest } | { invalid: JsonRpcResponse } {
  if (!isPlainObject(entry)) return { invalid: failure(null, new RpcError(RpcCode.InvalidRequest, 'Invalid Request: expected a request object')) };
  // JSON allows any number as an id; only without its lexeme can an infinite one not be echoed.
  const readable = 'id' in entry && (isValidId(entry.id) || (rawId !== undefined && typeof entry.id === 'number'));
  const id = readable ? (entry.id as JsonRpcId) : null;
  const invalid = (why: string): { invalid: JsonRpcResponse } => ({ invalid: withRawId(failure(id, new RpcError(RpcCode.InvalidRequest, `Invalid Request: ${why}`)), readable ? rawId : undefined) });
  if (entry.jsonrpc !== '2.0') return invalid('jsonrpc must be exactly "2.0"');
  if ('id' in entry && !readable) return invalid('id must be a string, a number or null');
  if (typeof entry.method !== 'string') return invalid('method must be a string');
  if ('params' in entry && !(isPlainObject(entry.params) || Array.isArray(entry.params))) return invalid('params must be an object or an array');
  if ('result' in entry || 'error' in entry) return invalid('a request must not carry result or error');
  return { request: entry as unknown as JsonRpcRequest };
}

interface Outcome {
  response: JsonRpcResponse | undefined;
  afters: Array<() => void>;
}

function runOne(entry: unknown, handler: RpcHandler, report: InternalErrorReporter | undefined, rawId: string | undefined): Outcome | Promise<Outcome> {
  const checked = checkRequest(entry, rawId);
  if ('invalid' in checked) return { response: checked.invalid, afters: [] };
  const { request } = checked;
  const notification = !('id' in request);
  const id = notification ? undefined : (request.id as JsonRpcId);
  const afters: Array<() => void> = [];
  const info: CallInfo = { method: request.method, id, notification, after: (fn) => void afters.push(fn) };
  const settle = (result: unknown): Outcome => ({ response: notification ? undefined : withRawId(success(id!, result), rawId), afters });
  const fail = (error: unknown): Outcome => {
    if (!(error instanceof RpcError)) report?.(error, request.method);
    const rpcError = error instanceof RpcError ? error : new RpcError(RpcCode.InternalError);
    return { response: notification ? undefined : withRawId(failure(id!, rpcError), rawId), afters };
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
 * concurrently and their answers keep the batch's order. `raw` is what
 * {@link rawIds} found for the message; serialize the reply with
 * {@link replyText} so that those lexemes are echoed.
 */
export function handleMessage(value: unknown, handler: RpcHandler, report?: InternalErrorReporter, raw?: ReadonlyArray<string | undefined>): Handled | Promise<Handled> {
  if (!Array.isArray(value)) {
    const one = runOne(value, handler, report, raw?.[0]);
    const wrap = (o: Outcome): Handled => ({ reply: o.response, afters: o.afters });
    return one instanceof Promise ? one.then(wrap) : wrap(one);
  }
  if (value.length === 0) return { reply: failure(null, new RpcError(RpcCode.InvalidRequest, 'Invalid Request: empty batch')), afters: [] };
  const outcomes = value.map((entry, k) => runOne(entry, handler, report, raw?.[k]));
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
