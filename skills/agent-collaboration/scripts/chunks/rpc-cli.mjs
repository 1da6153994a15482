// plugins/rpc/config.ts
import * as v from "./valibot.mjs";
var positiveInt = (what) => v.pipe(v.number(`${what} must be a number`), v.integer(`${what} must be a whole number`), v.minValue(1, `${what} must be at least 1`));
var seconds = (what) => v.pipe(v.number(`${what} must be a number of seconds`), v.minValue(0, `${what} must not be negative`));
var TokenKey = v.pipe(v.string(), v.minLength(16, "a token must be at least 16 characters long"), v.regex(/^[\x21-\x7e]+$/, "a token must be printable ASCII without spaces"));
var ParticipantId = v.pipe(v.string("the participant id must be a string"), v.minLength(1, "the participant id must not be empty"), v.check((s) => s.trim() === s, "the participant id must not start or end with spaces"));
var LimitsSchema = v.strictObject({
  maxHeaderBytes: v.optional(v.pipe(positiveInt("maxHeaderBytes"), v.minValue(64, "maxHeaderBytes must be at least 64"))),
  maxBodyBytes: v.optional(positiveInt("maxBodyBytes")),
  stallTimeoutSeconds: v.optional(seconds("stallTimeoutSeconds")),
  messageTimeoutSeconds: v.optional(seconds("messageTimeoutSeconds")),
  maxRequestsPerConnection: v.optional(positiveInt("maxRequestsPerConnection")),
  maxRequests: v.optional(positiveInt("maxRequests")),
  idleTimeoutSeconds: v.optional(seconds("idleTimeoutSeconds")),
  authTimeoutSeconds: v.optional(seconds("authTimeoutSeconds")),
  maxConnections: v.optional(positiveInt("maxConnections")),
  forwardTimeoutSeconds: v.optional(seconds("forwardTimeoutSeconds"))
}, "limits must be a mapping");
var ConfigSchema = v.strictObject({
  root: v.optional(v.pipe(v.string("root must be a path"), v.minLength(1, "root must not be empty"))),
  tcp: v.optional(v.union([v.string(), v.number()], "tcp must be host:port or a port number")),
  unix: v.optional(v.pipe(v.string("unix must be a socket path"), v.minLength(1, "unix must not be empty"))),
  allowRemote: v.optional(v.boolean("allowRemote must be true or false")),
  tokens: v.optional(v.record(TokenKey, ParticipantId, "tokens must map each token to a participant id")),
  limits: v.optional(LimitsSchema),
  pollIntervalSeconds: v.optional(v.pipe(v.number("pollIntervalSeconds must be a number"), v.minValue(0.01, "pollIntervalSeconds must be at least 0.01"))),
  tls: v.optional(v.strictObject({
    cert: v.pipe(v.string("tls.cert must be a path"), v.minLength(1, "tls.cert must not be empty")),
    key: v.pipe(v.string("tls.key must be a path"), v.minLength(1, "tls.key must not be empty"))
  }, "tls must be a mapping { cert, key }")),
  crossTask: v.optional(v.boolean("crossTask must be true or false")),
  repoRoots: v.optional(v.array(v.pipe(v.string("each repoRoots entry must be a path"), v.minLength(1, "a repoRoots entry must not be empty")), "repoRoots must be a list of directories"))
}, "the configuration must be a YAML mapping (key: value lines)");

class ConfigError extends Error {
  constructor(message) {
    super(message);
    this.name = "ConfigError";
  }
}
function issueMessages(issues) {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => String(item.key)).join(".");
    let message = issue.message;
    if (issue.kind === "schema" && issue.type === "strict_object" && issue.expected === "never")
      message = "unknown key";
    return path ? `${path}: ${message}` : message;
  });
}
async function parseServerConfig(text, name) {
  const { parseDocument } = await import("./yaml.mjs");
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length) {
    const first = doc.errors[0];
    throw new ConfigError(`invalid server config ${name}: ${first.message.split(`
`)[0].replace(/:$/, "")}`);
  }
  const value = doc.toJS() ?? {};
  const result = v.safeParse(ConfigSchema, value);
  if (!result.success)
    throw new ConfigError(`invalid server config ${name}: ${issueMessages(result.issues).join("; ")}`);
  return result.output;
}
function parseHostPort(value, what = "--tcp") {
  const text = String(value).trim();
  let host = "127.0.0.1";
  let portText = text;
  const v6 = /^\[([^\]]+)\]:(\d+)$/.exec(text);
  if (v6) {
    host = v6[1];
    portText = v6[2];
  } else if (text.includes(":")) {
    const at = text.lastIndexOf(":");
    host = text.slice(0, at) || host;
    portText = text.slice(at + 1);
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    throw new ConfigError(`${what}: expected host:port or a port number, got '${text}'`);
  return { host, port: Number(portText) };
}
function isLoopback(host) {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

// plugins/rpc/jsonrpc.ts
var RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  AgentNotFound: -32000,
  AgentBusy: -32001,
  TaskNotFound: -32002,
  TaskNotCompleted: -32003,
  TaskNotRunning: -32004,
  ProtocolRefusal: -32010,
  Unauthorized: -32020,
  RequestCancelled: -32800
};
var RPC_MESSAGES = Object.freeze({
  [-32700]: "Parse error",
  [-32600]: "Invalid Request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
  [-32000]: "Agent Not Found",
  [-32001]: "Agent Busy",
  [-32002]: "Task Not Found",
  [-32003]: "Task Not Completed",
  [-32004]: "Task Not Running",
  [-32010]: "Protocol refusal",
  [-32020]: "Unauthorized",
  [-32800]: "Request cancelled"
});

class RpcError extends Error {
  code;
  data;
  constructor(code, message, data) {
    super(message ?? RPC_MESSAGES[code] ?? "Server error");
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }
  toJSON() {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isValidId(value) {
  return value === null || typeof value === "string" || typeof value === "number" && Number.isFinite(value);
}
function success(id, result) {
  return { jsonrpc: "2.0", id, result: result === undefined ? null : result };
}
function failure(id, error) {
  return { jsonrpc: "2.0", id, error: error instanceof RpcError ? error.toJSON() : error };
}
var RAW_ID = Symbol("rawId");
function withRawId(response, rawId) {
  if (rawId !== undefined)
    Object.defineProperty(response, RAW_ID, { value: rawId });
  return response;
}
var jsonTexts = new WeakMap;
function withJsonText(value, text) {
  jsonTexts.set(value, text);
  return value;
}
function resultText(result) {
  return (typeof result === "object" && result !== null ? jsonTexts.get(result) : undefined) ?? JSON.stringify(result) ?? "null";
}
function responseText(response) {
  const id = response[RAW_ID] ?? (typeof response.id === "number" ? String(response.id) : JSON.stringify(response.id));
  return "error" in response ? `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify(response.error)}}` : `{"jsonrpc":"2.0","id":${id},"result":${resultText(response.result)}}`;
}
function replyText(reply) {
  if (!Array.isArray(reply))
    return responseText(reply);
  return `[${reply.map(responseText).join(",")}]`;
}
var JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
function isCanonical(lexeme) {
  return String(Number(lexeme)) === lexeme;
}
var SUSPECT_NUMERIC_ID = /"(?:i|\\u0069)(?:d|\\u0064)"[ \t\n\r]*:[ \t\n\r]*(?:-0|-?[0-9]+[.eE]|-?[0-9]{16})/g;
function isNumberChar(c) {
  return c >= 48 && c <= 57 || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}
function hasNonCanonicalNumericId(text, ids) {
  SUSPECT_NUMERIC_ID.lastIndex = 0;
  while (SUSPECT_NUMERIC_ID.test(text)) {
    const end = SUSPECT_NUMERIC_ID.lastIndex;
    let from = end;
    while (isNumberChar(text.charCodeAt(from - 1)))
      from--;
    let to = end;
    while (isNumberChar(text.charCodeAt(to)))
      to++;
    const lexeme = text.slice(from, to);
    const n = Number(lexeme);
    if ((typeof ids === "number" ? Object.is(n, ids) : ids.has(n)) && String(n) !== lexeme) {
      SUSPECT_NUMERIC_ID.lastIndex = 0;
      return true;
    }
  }
  return false;
}
function hasNumberId(entry) {
  return typeof entry === "object" && entry !== null && typeof entry.id === "number";
}
function skipWhitespace(text, i) {
  for (;; ) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13)
      return i;
    i++;
  }
}
function skipString(text, i) {
  for (let q = text.indexOf('"', i + 1);q !== -1; q = text.indexOf('"', q + 1)) {
    let b = q - 1;
    while (text.charCodeAt(b) === 92)
      b--;
    if ((q - 1 - b) % 2 === 0)
      return q + 1;
  }
  return text.length;
}
function skipValue(text, i) {
  const c = text.charCodeAt(i);
  if (c === 34)
    return skipString(text, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let j = i;j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 34)
        j = skipString(text, j) - 1;
      else if (d === 123 || d === 91)
        depth++;
      else if ((d === 125 || d === 93) && --depth === 0)
        return j + 1;
    }
    return text.length;
  }
  let j = i + 1;
  for (;j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 44 || d === 125 || d === 93 || d === 32 || d === 9 || d === 10 || d === 13)
      break;
  }
  return j;
}
function scanObject(text, i) {
  let id;
  i = skipWhitespace(text, i + 1);
  while (text.charCodeAt(i) === 34) {
    const keyEnd = skipString(text, i);
    if (keyEnd >= text.length)
      break;
    const keyLength = keyEnd - i - 2;
    const isId = keyLength === 2 ? text.startsWith("id", i + 1) : keyLength <= 12 && text.slice(i, keyEnd).includes("\\") && JSON.parse(text.slice(i, keyEnd)) === "id";
    const start = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1);
    const end = skipValue(text, start);
    if (isId)
      id = text.slice(start, end);
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) !== 44)
      break;
    i = skipWhitespace(text, i + 1);
  }
  return { id, end: i + 1 };
}
function scanIdLexemes(text) {
  let i = skipWhitespace(text, 0);
  const c = text.charCodeAt(i);
  if (c === 123)
    return [scanObject(text, i).id];
  if (c !== 91)
    return [];
  const ids = [];
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
    if (text.charCodeAt(i) !== 44)
      break;
    i = skipWhitespace(text, i + 1);
  }
  return ids;
}
function rawIds(text, value) {
  let ids;
  if (Array.isArray(value)) {
    ids = new Set(value.filter(hasNumberId).map((entry) => entry.id));
    if (!ids.size)
      return;
  } else {
    if (!hasNumberId(value))
      return;
    ids = value.id;
  }
  if (!hasNonCanonicalNumericId(text, ids))
    return;
  const entries = Array.isArray(value) ? value : [value];
  const lexemes = scanIdLexemes(text);
  let found = false;
  const raw = entries.map((entry, k) => {
    const lexeme = lexemes[k];
    if (lexeme === undefined || !hasNumberId(entry) || !JSON_NUMBER.test(lexeme) || isCanonical(lexeme))
      return;
    if (!Object.is(Number(lexeme), entry.id))
      return;
    found = true;
    return lexeme;
  });
  return found ? raw : undefined;
}
function isResponse(value) {
  return isPlainObject(value) && !("method" in value) && "id" in value && (("result" in value) || ("error" in value));
}
function checkRequest(entry, rawId) {
  if (!isPlainObject(entry))
    return { invalid: failure(null, new RpcError(RpcCode.InvalidRequest, "Invalid Request: expected a request object")) };
  const readable = "id" in entry && (isValidId(entry.id) || rawId !== undefined && typeof entry.id === "number");
  const id = readable ? entry.id : null;
  const invalid = (why) => ({ invalid: withRawId(failure(id, new RpcError(RpcCode.InvalidRequest, `Invalid Request: ${why}`)), readable ? rawId : undefined) });
  if (entry.jsonrpc !== "2.0")
    return invalid('jsonrpc must be exactly "2.0"');
  if ("id" in entry && !readable)
    return invalid("id must be a string, a number or null");
  if (typeof entry.method !== "string")
    return invalid("method must be a string");
  if ("params" in entry && !(isPlainObject(entry.params) || Array.isArray(entry.params)))
    return invalid("params must be an object or an array");
  if ("result" in entry || "error" in entry)
    return invalid("a request must not carry result or error");
  return { request: entry };
}
function runOne(entry, handler, report, rawId) {
  const checked = checkRequest(entry, rawId);
  if ("invalid" in checked)
    return { response: checked.invalid, afters: [] };
  const { request } = checked;
  const notification = !("id" in request);
  const id = notification ? undefined : request.id;
  const afters = [];
  const info = { method: request.method, id, notification, after: (fn) => void afters.push(fn) };
  const settle = (result) => ({ response: notification ? undefined : withRawId(success(id, result), rawId), afters });
  const fail = (error) => {
    if (!(error instanceof RpcError))
      report?.(error, request.method);
    const rpcError = error instanceof RpcError ? error : new RpcError(RpcCode.InternalError);
    return { response: notification ? undefined : withRawId(failure(id, rpcError), rawId), afters };
  };
  let value;
  try {
    value = handler(request.method, request.params, info);
  } catch (error) {
    return fail(error);
  }
  if (value instanceof Promise)
    return value.then(settle, fail);
  return settle(value);
}
function handleMessage(value, handler, report, raw) {
  if (!Array.isArray(value)) {
    const one = runOne(value, handler, report, raw?.[0]);
    const wrap = (o) => ({ reply: o.response, afters: o.afters });
    return one instanceof Promise ? one.then(wrap) : wrap(one);
  }
  if (value.length === 0)
    return { reply: failure(null, new RpcError(RpcCode.InvalidRequest, "Invalid Request: empty batch")), afters: [] };
  const outcomes = value.map((entry, k) => runOne(entry, handler, report, raw?.[k]));
  const combine = (all) => {
    const replies = all.map((o) => o.response).filter((r) => r !== undefined);
    return { reply: replies.length ? replies : undefined, afters: all.flatMap((o) => o.afters) };
  };
  if (outcomes.some((o) => o instanceof Promise))
    return Promise.all(outcomes).then(combine);
  return combine(outcomes);
}
function parseErrorResponse(detail) {
  return failure(null, new RpcError(RpcCode.ParseError, `Parse error: ${detail}`));
}

// plugins/rpc/framing.ts
var CR = 13;
var LF = 10;
var DEFAULT_FRAME_LIMITS = Object.freeze({ maxHeaderBytes: 8 * 1024, maxBodyBytes: 4 * 1024 * 1024 });
var HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
var FAST_PREFIX = [..."Content-Length: "].map((c) => c.charCodeAt(0));
function parseHeader(bytes, size, limits) {
  if (size > FAST_PREFIX.length && size <= FAST_PREFIX.length + 15) {
    let i = 0;
    while (i < FAST_PREFIX.length && bytes[i] === FAST_PREFIX[i])
      i++;
    if (i === FAST_PREFIX.length) {
      let n = 0;
      for (;i < size; i++) {
        const d = bytes[i] - 48;
        if (d < 0 || d > 9)
          break;
        n = n * 10 + d;
      }
      if (i === size) {
        if (n > limits.maxBodyBytes)
          throw `message too large: Content-Length ${n} exceeds the limit of ${limits.maxBodyBytes} bytes`;
        return { length: n };
      }
    }
  }
  let text = "";
  for (let i = 0;i < size; i++) {
    const b = bytes[i];
    if (b >= 128 || b < 32 && b !== 9 && b !== CR && b !== LF || b === 127)
      throw "malformed header: non-ASCII or control byte";
    text += String.fromCharCode(b);
  }
  let length;
  let skip;
  for (const line of text.split(`\r
`)) {
    const colon = line.indexOf(":");
    if (colon <= 0)
      throw `malformed header line: ${JSON.stringify(line.slice(0, 80))}`;
    const name = line.slice(0, colon);
    if (!HEADER_NAME.test(name))
      throw `malformed header name: ${JSON.stringify(name.slice(0, 80))}`;
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "");
    const key = name.toLowerCase();
    if (key === "content-length") {
      if (!/^[0-9]{1,15}$/.test(value))
        throw `invalid Content-Length: ${JSON.stringify(value.slice(0, 40))}`;
      const n = Number(value);
      if (length !== undefined && length !== n)
        throw "conflicting Content-Length headers";
      length = n;
    } else if (key === "content-type") {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(value)?.[1];
      if (charset !== undefined && !/^utf-?8$/i.test(charset))
        skip = `unsupported charset '${charset}' (only utf-8 is accepted)`;
    }
  }
  if (length === undefined)
    throw "missing Content-Length header";
  if (length > limits.maxBodyBytes)
    throw `message too large: Content-Length ${length} exceeds the limit of ${limits.maxBodyBytes} bytes`;
  return { length, skip };
}

class FrameDecoder {
  limits;
  header;
  headerLength = 0;
  mode = "header";
  body;
  need = 0;
  got = 0;
  skipReason = "";
  constructor(limits = {}) {
    this.limits = {
      maxHeaderBytes: limits.maxHeaderBytes ?? DEFAULT_FRAME_LIMITS.maxHeaderBytes,
      maxBodyBytes: limits.maxBodyBytes ?? DEFAULT_FRAME_LIMITS.maxBodyBytes
    };
    this.header = new Uint8Array(Math.min(this.limits.maxHeaderBytes, 256));
  }
  get midMessage() {
    return this.mode === "body" || this.mode === "skip" || this.headerLength > 0;
  }
  get dead() {
    return this.mode === "dead";
  }
  push(chunk) {
    const events = [];
    const n = chunk.length;
    let i = 0;
    while (i < n && this.mode !== "dead") {
      if (this.mode === "header") {
        const b = chunk[i++];
        if (this.headerLength === 0 && (b === CR || b === LF))
          continue;
        if (this.headerLength >= this.limits.maxHeaderBytes) {
          events.push(this.fail(`header too large: more than ${this.limits.maxHeaderBytes} bytes without a blank line`));
          break;
        }
        this.appendHeaderByte(b);
        if (b !== LF)
          continue;
        const h = this.header;
        const len = this.headerLength;
        if (len < 2 || h[len - 2] !== CR) {
          events.push(this.fail("malformed header: lines must end with CRLF"));
          break;
        }
        if (len < 4 || h[len - 3] !== LF || h[len - 4] !== CR)
          continue;
        let parsed;
        try {
          parsed = parseHeader(h, len - 4, this.limits);
        } catch (reason) {
          events.push(this.fail(String(reason)));
          break;
        }
        this.headerLength = 0;
        this.need = parsed.length;
        this.got = 0;
        if (parsed.skip !== undefined) {
          this.mode = "skip";
          this.skipReason = parsed.skip;
        } else
          this.mode = "body";
        if (this.need === 0) {
          if (this.mode === "skip") {
            this.mode = "header";
            events.push({ type: "skip", reason: this.skipReason });
          } else
            this.finishBody(events, new Uint8Array(0));
        }
      } else if (this.mode === "skip") {
        const take = Math.min(n - i, this.need - this.got);
        this.got += take;
        i += take;
        if (this.got === this.need) {
          this.mode = "header";
          events.push({ type: "skip", reason: this.skipReason });
        }
      } else {
        const take = Math.min(n - i, this.need - this.got);
        if (this.got === 0 && take === this.need) {
          i += take;
          this.finishBody(events, chunk.subarray(i - take, i));
          continue;
        }
        this.body ??= new Uint8Array(this.need);
        this.body.set(chunk.subarray(i, i + take), this.got);
        this.got += take;
        i += take;
        if (this.got === this.need) {
          const body = this.body;
          this.body = undefined;
          this.finishBody(events, body);
        }
      }
    }
    return events;
  }
  appendHeaderByte(b) {
    if (this.headerLength === this.header.length) {
      const bigger = new Uint8Array(Math.min(this.header.length * 2, this.limits.maxHeaderBytes));
      bigger.set(this.header);
      this.header = bigger;
    }
    this.header[this.headerLength++] = b;
  }
  finishBody(events, body) {
    this.mode = "header";
    this.need = 0;
    this.got = 0;
    events.push({ type: "message", body });
  }
  fail(reason) {
    this.mode = "dead";
    this.body = undefined;
    this.headerLength = 0;
    return { type: "fatal", reason };
  }
}
var encoder = new TextEncoder;
var HEADER_ROOM = 40;
function encodeFrame(json) {
  if (json.length > 65536) {
    const body = encoder.encode(json);
    const header = encoder.encode(`Content-Length: ${body.length}\r
\r
`);
    const out = new Uint8Array(header.length + body.length);
    out.set(header, 0);
    out.set(body, header.length);
    return out;
  }
  let out = new Uint8Array(HEADER_ROOM + json.length);
  let { read, written } = encoder.encodeInto(json, out.subarray(HEADER_ROOM));
  if (read < json.length) {
    out = new Uint8Array(HEADER_ROOM + json.length * 3);
    ({ read, written } = encoder.encodeInto(json, out.subarray(HEADER_ROOM)));
  }
  const header = `Content-Length: ${written}\r
\r
`;
  const start = HEADER_ROOM - header.length;
  for (let i = 0;i < header.length; i++)
    out[start + i] = header.charCodeAt(i);
  return out.subarray(start, HEADER_ROOM + written);
}
function utf8Length(text) {
  const native = globalThis.Buffer?.byteLength;
  return native ? native(text, "utf8") : countUtf8(text);
}
function countUtf8(text) {
  let n = text.length;
  for (let i = 0;i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128)
      continue;
    if (c < 2048)
      n += 1;
    else if (c >= 55296 && c <= 56319 && i + 1 < text.length && (text.charCodeAt(i + 1) & 64512) === 56320) {
      n += 2;
      i++;
    } else
      n += 2;
  }
  return n;
}
function frameText(json) {
  const bytes = utf8Length(json);
  return bytes === json.length ? `Content-Length: ${bytes}\r
\r
${json}` : undefined;
}
var strictDecoder = new TextDecoder("utf-8", { fatal: true });
function decodeBody(body) {
  return strictDecoder.decode(body);
}

// plugins/rpc/peer.ts
class WorkGate {
  used = 0;
  waiting = [];
  granted = new Set;
  limit;
  constructor(limit) {
    this.limit = limit;
  }
  acquire(wake) {
    if (this.granted.delete(wake))
      return true;
    if (this.used < this.limit && !this.waiting.length) {
      this.used++;
      return true;
    }
    if (!this.waiting.includes(wake))
      this.waiting.push(wake);
    return false;
  }
  release() {
    const next = this.waiting.shift();
    if (!next) {
      this.used--;
      return;
    }
    this.granted.add(next);
    queueMicrotask(next);
  }
  forget(wake) {
    const at = this.waiting.indexOf(wake);
    if (at !== -1)
      this.waiting.splice(at, 1);
    if (this.granted.delete(wake))
      this.release();
  }
}
var MAX_BATCH_ENTRIES = 64;

class RpcConnectionError extends Error {
  constructor(message) {
    super(message);
    this.name = "RpcConnectionError";
  }
}
var INBOX_PAUSE = 64;
var INBOX_LIMIT = 4096;
function oneAtATime(handler) {
  let chain;
  return (method, params, info) => {
    if (chain === undefined) {
      const out = handler(method, params, info);
      if (out instanceof Promise)
        chain = out.catch(() => {
          return;
        });
      return out;
    }
    const run = chain.then(() => handler(method, params, info));
    chain = run.catch(() => {
      return;
    });
    return run;
  };
}

class RpcResponseError extends Error {
  code;
  data;
  constructor(error) {
    super(error.message);
    this.name = "RpcResponseError";
    this.code = error.code;
    this.data = error.data;
  }
}

class RpcCancelledError extends Error {
  constructor(message) {
    super(message);
    this.name = "RpcCancelledError";
  }
}

class Peer {
  stream;
  decoder;
  options;
  pending = new Map;
  nextId = 1;
  isClosed = false;
  closeReason = "closed";
  lastMessageAt = Date.now();
  lastByteAt = Date.now();
  timer;
  messageStartedAt;
  inbox = [];
  inFlight = 0;
  readingPaused = false;
  outputMovedAt = Date.now();
  lastQueued = 0;
  wake = () => this.pump();
  closeListeners = [];
  closed;
  constructor(stream, options = {}) {
    this.stream = stream;
    this.options = options;
    this.decoder = new FrameDecoder(options.limits);
    let done;
    this.closed = new Promise((resolve) => done = resolve);
    this.closeListeners.push((reason) => done(reason));
    stream.on("data", (chunk) => this.receive(chunk));
    stream.on("error", (error) => this.finish(`error: ${error.message}`));
    stream.on("close", () => this.finish(this.closeReason));
    stream.on("drain", this.wake);
    this.armTimer();
  }
  get isOpen() {
    return !this.isClosed;
  }
  onClose(listener) {
    if (this.isClosed)
      listener(this.closeReason);
    else
      this.closeListeners.push(listener);
  }
  request(method, params, options = {}) {
    if (this.isClosed)
      return Promise.reject(new RpcConnectionError(`connection closed (${this.closeReason})`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const { signal } = options;
      const onAbort = () => {
        const entry = this.pending.get(id);
        if (!entry)
          return;
        if (entry.timer)
          clearTimeout(entry.timer);
        this.pending.delete(id);
        this.notify("$/cancelRequest", { id });
        this.notify("notifications/cancelled", { requestId: id, reason: String(signal?.reason ?? "cancelled") });
        reject(new RpcCancelledError(`${method} was cancelled`));
      };
      const settle = (fn) => (value) => {
        signal?.removeEventListener("abort", onAbort);
        fn(value);
      };
      const entry = { resolve: settle(resolve), reject: settle(reject) };
      if (signal?.aborted) {
        reject(new RpcCancelledError(`${method} was cancelled`));
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      if (options.timeoutMs && options.timeoutMs > 0) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          entry.reject(new RpcConnectionError(`no answer to ${method} within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
      }
      this.pending.set(id, entry);
      this.sendValue(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    });
  }
  notify(method, params) {
    if (this.isClosed)
      return;
    this.sendValue(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }
  sendValue(value) {
    this.sendRaw(JSON.stringify(value));
  }
  sendRaw(json) {
    if (this.isClosed)
      return;
    const text = this.options.textWrites ? frameText(json) : undefined;
    if (text === undefined)
      this.stream.write(encodeFrame(json));
    else
      this.stream.write(text);
    const queued = this.stream.writableLength;
    if (queued !== undefined && queued > (this.options.maxQueuedBytes ?? 16 * 1024 * 1024))
      this.destroy("peer is not reading its answers");
  }
  close(reason = "closed") {
    if (this.isClosed)
      return;
    this.closeReason = reason;
    try {
      this.stream.end();
    } catch {}
    const force = setTimeout(() => this.destroy(reason), 2000);
    force.unref?.();
    this.finish(reason);
  }
  destroy(reason = "closed") {
    this.closeReason = this.isClosed ? this.closeReason : reason;
    try {
      this.stream.destroy();
    } catch {}
    this.finish(reason);
  }
  finish(reason) {
    if (this.isClosed)
      return;
    this.isClosed = true;
    this.closeReason = reason;
    if (this.timer)
      clearTimeout(this.timer);
    for (const [, entry] of this.pending) {
      if (entry.timer)
        clearTimeout(entry.timer);
      entry.reject(new RpcConnectionError(`connection closed (${reason})`));
    }
    this.pending.clear();
    this.inbox.length = 0;
    this.options.gate?.forget(this.wake);
    for (const listener of this.closeListeners.splice(0))
      listener(reason);
  }
  armTimer() {
    const stall = this.options.stallTimeoutMs ?? 1e4;
    const whole = this.options.messageTimeoutMs ?? 0;
    const idle = this.options.idleTimeoutMs ?? 0;
    const periods = [stall, whole, idle].filter((ms) => ms > 0);
    if (!periods.length || this.isClosed)
      return;
    const period = Math.max(10, Math.min(...periods) / 4);
    this.timer = setTimeout(() => {
      const now = Date.now();
      if (stall > 0 && this.decoder.midMessage && now - this.lastByteAt >= stall) {
        this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: incomplete message, nothing received for ${stall} ms`)));
        this.close("stalled in the middle of a message");
        return;
      }
      if (whole > 0 && this.messageStartedAt !== undefined && now - this.messageStartedAt >= whole) {
        this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: incomplete message, not complete within ${whole} ms of its first byte`)));
        this.close("too slow to send a message");
        return;
      }
      if (idle > 0 && now - this.lastMessageAt >= idle) {
        this.close("idle");
        return;
      }
      if (stall > 0 && this.outputStalled(now, stall)) {
        this.destroy("peer is not reading its answers");
        return;
      }
      this.pump();
      this.armTimer();
    }, period);
    this.timer.unref?.();
  }
  outputStalled(now, stall) {
    const queued = this.stream.writableLength ?? 0;
    if (!this.congested() || queued < this.lastQueued)
      this.outputMovedAt = now;
    this.lastQueued = queued;
    return now - this.outputMovedAt >= stall;
  }
  congested() {
    return (this.stream.writableLength ?? 0) > (this.options.highWaterBytes ?? 1024 * 1024);
  }
  receive(chunk) {
    if (this.isClosed)
      return;
    this.lastByteAt = Date.now();
    const events = this.decoder.push(chunk);
    if (!this.decoder.midMessage)
      this.messageStartedAt = undefined;
    else if (events.length || this.messageStartedAt === undefined)
      this.messageStartedAt = this.lastByteAt;
    for (const event of events) {
      if (event.type === "fatal") {
        this.options.onProtocolError?.(event.reason);
        this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: ${event.reason}`)));
        this.close(event.reason);
        return;
      }
      this.lastMessageAt = this.lastByteAt;
      if (event.type === "skip") {
        this.sendValue(parseErrorResponse(event.reason));
        continue;
      }
      let text;
      let value;
      try {
        text = decodeBody(event.body);
        value = JSON.parse(text);
      } catch (error) {
        this.sendValue(parseErrorResponse(error instanceof TypeError ? "body is not valid UTF-8" : "body is not valid JSON"));
        continue;
      }
      if (isResponse(value))
        this.settle(value);
      else if (Array.isArray(value) && value.length > 0 && value.every(isResponse))
        for (const response of value)
          this.settle(response);
      else if (this.isUnmetered(value)) {
        this.inFlight++;
        this.dispatch(value, text, false);
      } else
        this.inbox.push({ value, text });
      if (this.isClosed)
        return;
    }
    if (this.inbox.length > INBOX_LIMIT) {
      this.destroy(`more than ${INBOX_LIMIT} requests waiting`);
      return;
    }
    this.pump();
  }
  pump() {
    const max = this.options.maxInFlight ?? 8;
    while (!this.isClosed && this.inbox.length && this.inFlight < max && !this.congested()) {
      if (this.options.gate && !this.options.gate.acquire(this.wake))
        break;
      const { value, text } = this.inbox.shift();
      this.inFlight++;
      this.dispatch(value, text);
    }
    const hold = !this.isClosed && (this.congested() || this.inbox.length >= INBOX_PAUSE);
    if (hold !== this.readingPaused) {
      this.readingPaused = hold;
      if (hold)
        this.stream.pause?.();
      else
        this.stream.resume?.();
    }
  }
  isUnmetered(value) {
    const method = typeof value === "object" && value !== null && !Array.isArray(value) ? value.method : undefined;
    return typeof method === "string" && this.options.unmetered?.has(method) === true;
  }
  finished(gated = true) {
    this.inFlight--;
    if (gated)
      this.options.gate?.release();
  }
  dispatch(value, text, gated = true) {
    const base = this.options.handler ?? ((method) => {
      throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
    });
    if (Array.isArray(value) && value.length > MAX_BATCH_ENTRIES) {
      this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: a batch holds at most ${MAX_BATCH_ENTRIES} entries`)));
      this.finished(gated);
      return;
    }
    const handler = Array.isArray(value) ? oneAtATime(base) : base;
    let handled;
    try {
      handled = handleMessage(value, handler, this.options.onInternalError, rawIds(text, value));
    } catch (error) {
      this.finished(gated);
      throw error;
    }
    if (handled instanceof Promise) {
      handled.then((h) => this.reply(h), () => {
        return;
      }).finally(() => {
        this.finished(gated);
        this.pump();
      });
    } else {
      this.reply(handled);
      this.finished(gated);
    }
  }
  reply(handled) {
    if (handled.reply !== undefined)
      this.sendRaw(replyText(handled.reply));
    for (const fn of handled.afters)
      fn();
  }
  settle(response) {
    const entry = this.pending.get(response.id);
    if (!entry)
      return;
    this.pending.delete(response.id);
    if (entry.timer)
      clearTimeout(entry.timer);
    if ("error" in response)
      entry.reject(new RpcResponseError(response.error));
    else
      entry.resolve(response.result);
  }
}

// runtime/util.ts
import * as nodePath from "node:path";
function errorCode(error) {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
function isInside(child, parent) {
  const rel = nodePath.relative(parent, child);
  return rel === "" || !rel.startsWith("..") && !nodePath.isAbsolute(rel);
}
async function realpathOfExistingAncestor(host, path) {
  const parts = [];
  let current = path;
  for (;; ) {
    try {
      return nodePath.join(await host.fs.realpath(current), ...parts.reverse());
    } catch (error) {
      if (errorCode(error) !== "ENOENT" && errorCode(error) !== "ENOTDIR")
        throw error;
      const parent = nodePath.dirname(current);
      if (parent === current)
        return path;
      parts.push(nodePath.basename(current));
      current = parent;
    }
  }
}

// plugins/rpc/client.ts
class RpcEndpointError extends Error {
  constructor(message) {
    super(message);
    this.name = "RpcEndpointError";
  }
}
function parseEndpoint(text) {
  const value = text.trim();
  if (value.startsWith("unix:")) {
    const path = value.slice(5).replace(/^\/\/(?=\/)/, "");
    if (!path)
      throw new RpcEndpointError(`invalid endpoint '${text}': missing socket path`);
    return { kind: "unix", path };
  }
  if (value.startsWith("/") || value.startsWith("./") || value.startsWith("../"))
    return { kind: "unix", path: value };
  const tls = value.startsWith("tls://");
  const rest = value.startsWith("tcp://") || tls ? value.slice(6) : value;
  const v6 = /^\[([^\]]+)\]:(\d{1,5})$/.exec(rest);
  const v4 = /^([^:/\s]*):(\d{1,5})$/.exec(rest);
  const bare = /^(\d{1,5})$/.exec(rest);
  const host = v6?.[1] ?? v4?.[1] ?? "127.0.0.1";
  const port = Number(v6?.[2] ?? v4?.[2] ?? bare?.[1] ?? NaN);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new RpcEndpointError(`invalid endpoint '${text}': expected tcp://host:port, host:port or unix:/path`);
  return tls ? { kind: "tcp", host: host || "127.0.0.1", port, tls } : { kind: "tcp", host: host || "127.0.0.1", port };
}
function formatEndpoint(endpoint) {
  return endpoint.kind === "unix" ? `unix:${endpoint.path}` : `${endpoint.tls ? "tls" : "tcp"}://${endpoint.host.includes(":") ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}`;
}
var refusals = new WeakSet;
function isPermissionRefusal(error) {
  return error?.name === "NotCapable";
}
async function openStream(endpoint, timeoutMs, ca) {
  const net = await import("node:net");
  const tls = endpoint.kind === "tcp" && endpoint.tls ? await import("node:tls") : undefined;
  const failed = (error) => {
    const wrapped = new RpcConnectionError(`cannot connect to ${formatEndpoint(endpoint)}: ${error.message}`);
    if (isPermissionRefusal(error))
      refusals.add(wrapped);
    return wrapped;
  };
  return new Promise((resolve, reject) => {
    let socket;
    try {
      if (endpoint.kind === "unix")
        socket = net.connect(endpoint.path);
      else if (tls)
        socket = tls.connect({ host: endpoint.host, port: endpoint.port, ...ca === undefined ? {} : { ca: typeof ca === "string" ? ca : Buffer.from(ca) }, servername: net.isIP(endpoint.host) ? undefined : endpoint.host });
      else
        socket = net.connect(endpoint.port, endpoint.host);
    } catch (error) {
      reject(failed(error));
      return;
    }
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new RpcConnectionError(`connect to ${formatEndpoint(endpoint)} timed out`));
    }, timeoutMs);
    socket.once(tls ? "secureConnect" : "connect", () => {
      clearTimeout(timer);
      socket.setNoDelay?.(true);
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(failed(error));
    });
  });
}

class RpcClient {
  endpoint;
  options;
  peer;
  connecting;
  closedByUser = false;
  heartbeat;
  subs = new Set;
  early = [];
  attempts = 0;
  participant;
  constructor(endpoint, options) {
    this.endpoint = endpoint;
    this.options = options;
  }
  static async connect(endpoint, options = {}) {
    const client = new RpcClient(typeof endpoint === "string" ? parseEndpoint(endpoint) : endpoint, options);
    await client.ensure();
    return client;
  }
  static async fromStream(stream, options = {}) {
    const client = new RpcClient({ kind: "unix", path: "(stream)" }, { ...options, reconnect: false });
    client.connecting = client.setup(stream);
    await client.connecting;
    return client;
  }
  get connected() {
    return this.peer?.isOpen ?? false;
  }
  async call(method, params, options = {}) {
    const peer = await this.ensure();
    return peer.request(method, params, { timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs });
  }
  async notify(method, params) {
    (await this.ensure()).notify(method, params);
  }
  async acp(action, args = {}) {
    const result = await this.call("agent/call", { agent: "acp", action, args });
    return result?.data;
  }
  async subscribe(params, listener) {
    const entry = { params: { task: params.task, participant: params.participant }, listener, serverId: undefined, lastSeq: 0, active: true };
    const initial = await this.startSubscription(entry, params.fromSeq);
    return {
      initial,
      unsubscribe: async () => {
        entry.active = false;
        this.subs.delete(entry);
        if (entry.serverId && this.connected)
          await this.call("agent/unsubscribe", { subscription: entry.serverId }).catch(() => {
            return;
          });
      }
    };
  }
  close() {
    this.closedByUser = true;
    if (this.heartbeat)
      clearInterval(this.heartbeat);
    this.peer?.close("closed by client");
    this.options.onStatus?.("closed");
  }
  async startSubscription(entry, fromSeq) {
    const params = { task: entry.params.task };
    if (entry.params.participant !== undefined)
      params.participant = entry.params.participant;
    if (fromSeq !== undefined)
      params.fromSeq = fromSeq;
    const peer = await this.ensure();
    const initial = await peer.request("agent/subscribe", params);
    entry.serverId = String(initial.subscription);
    if (typeof initial.seq === "number" && fromSeq === undefined)
      entry.lastSeq = initial.seq;
    this.subs.add(entry);
    const early = this.early.filter((n) => n.subscription === entry.serverId);
    this.early.splice(0, this.early.length, ...this.early.filter((n) => n.subscription !== entry.serverId));
    for (const n of early)
      this.deliver(entry, n);
    return initial;
  }
  ensure() {
    if (this.peer?.isOpen)
      return Promise.resolve(this.peer);
    if (this.closedByUser)
      return Promise.reject(new RpcConnectionError("client closed"));
    this.connecting ??= this.connectLoop().finally(() => this.connecting = undefined);
    return this.connecting;
  }
  async connectLoop() {
    const initial = this.options.backoff?.initialMs ?? 100;
    const max = this.options.backoff?.maxMs ?? 5000;
    for (;; ) {
      try {
        const stream = await openStream(this.endpoint, 1e4, this.options.ca);
        const peer = await this.setup(stream);
        this.attempts = 0;
        return peer;
      } catch (error) {
        this.attempts++;
        if (error instanceof RpcResponseError || refusals.has(error) || this.options.reconnect === false || this.closedByUser)
          throw error;
        if (this.options.maxAttempts !== undefined && this.attempts >= this.options.maxAttempts)
          throw error;
        const delay = Math.min(max, initial * 2 ** (this.attempts - 1));
        this.options.onStatus?.("reconnecting", `${error.message}; retrying in ${delay} ms`);
        await sleep(delay / 2 + Math.random() * (delay / 2));
      }
    }
  }
  async setup(stream) {
    const peer = new Peer(stream, {
      limits: { maxBodyBytes: 67108864, ...this.options.limits },
      stallTimeoutMs: 60000,
      handler: (method, params, info) => this.handle(method, params, info)
    });
    try {
      if (this.options.token !== undefined || this.options.participant !== undefined) {
        const auth = {};
        if (this.options.token !== undefined)
          auth.token = this.options.token;
        if (this.options.participant !== undefined)
          auth.participant = this.options.participant;
        if (this.options.capabilities?.length)
          auth.capabilities = this.options.capabilities;
        if (this.options.version !== undefined)
          auth.version = this.options.version;
        const answer = await peer.request("authenticate", auth, { timeoutMs: 1e4 });
        this.participant = answer.participant;
      }
    } catch (error) {
      peer.destroy("authentication failed");
      throw error;
    }
    this.peer = peer;
    this.options.onStatus?.("connected", formatEndpoint(this.endpoint));
    peer.onClose((reason) => this.dropped(peer, reason));
    this.startHeartbeat(peer);
    for (const entry of this.subs) {
      if (!entry.active)
        continue;
      this.startSubscription(entry, entry.lastSeq + 1).catch(() => {
        return;
      });
    }
    return peer;
  }
  startHeartbeat(peer) {
    if (this.heartbeat)
      clearInterval(this.heartbeat);
    const period = this.options.heartbeatMs ?? 30000;
    if (period <= 0)
      return;
    this.heartbeat = setInterval(() => {
      if (!peer.isOpen)
        return;
      peer.request("ping", undefined, { timeoutMs: this.options.heartbeatTimeoutMs ?? 1e4 }).catch(() => peer.destroy("heartbeat not answered"));
    }, period);
    this.heartbeat.unref?.();
  }
  dropped(peer, reason) {
    if (this.peer !== peer)
      return;
    this.peer = undefined;
    this.early.length = 0;
    if (this.heartbeat)
      clearInterval(this.heartbeat);
    if (this.closedByUser)
      return;
    this.options.onStatus?.("disconnected", reason);
    if (this.options.reconnect !== false && this.subs.size > 0)
      this.ensure().catch(() => {
        return;
      });
  }
  deliver(entry, n) {
    if (!entry.active)
      return;
    const event = n.event;
    if (event && typeof event.seq === "number") {
      if (event.seq <= entry.lastSeq)
        return;
      entry.lastSeq = event.seq;
    }
    entry.listener(n);
  }
  handle(method, params, _info) {
    const p = params ?? {};
    if (method === "agent/event" || method === "agent/state") {
      const entry = [...this.subs].find((e) => e.active && e.serverId === p.subscription);
      if (entry)
        this.deliver(entry, { ...p, method });
      else if (this.early.length < 1e4)
        this.early.push({ ...p, method });
      return;
    }
    if (method === "message/received") {
      this.options.onMessage?.(p);
      return;
    }
    if (method === "agent/call" && this.options.onCall) {
      return Promise.resolve(this.options.onCall({ from: p.from ?? null, action: String(p.action), args: p.args ?? {} })).then((data) => ({ status: "success", data: data ?? null }), (error) => {
        if (error instanceof RpcError)
          throw error;
        throw new RpcError(RpcCode.InternalError, error instanceof Error ? error.message : String(error));
      });
    }
    if (method === "ping")
      return { pong: true };
    throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
  }
}

// plugins/rpc/server.ts
import * as nodePath3 from "node:path";
import * as v2 from "./valibot.mjs";

// plugins/rpc/collab.ts
import * as nodePath2 from "node:path";
var STATUS_MAX_AGE_MS = 1000;
var LOCK_GRACE_MS = 1000;
function snapshot(state) {
  return { phase: state.phase, proposalOwner: state.proposalOwner, waitingFor: [...state.waitingFor] };
}

class Collab {
  task;
  folder;
  events = [];
  states = [];
  state;
  size = 0;
  protocolKey = "";
  cachedState = { phase: null, proposalOwner: null, waitingFor: [] };
  protocol;
  lastProtocol;
  version = 0;
  statusCache;
  statusInflight;
  scanning = false;
  dirty = false;
  lockSeenAt;
  retryTimer;
  follower;
  stopWatchers;
  docWatches = new Map;
  pollKey = "";
  listeners = new Set;
  deleted = false;
  closed = false;
  ready;
  core;
  host;
  registry;
  constructor(core, host, registry, task, folder, pollIntervalMs, watchers = []) {
    this.core = core;
    this.host = host;
    this.registry = registry;
    this.task = task;
    this.folder = folder;
    this.state = core.emptyState();
    this.follower = core.followFolder(host, folder);
    this.stopWatchers = watchers.map((watch) => watch(folder, () => this.touch()));
    this.watchDocumentDir("deliverables");
    this.ready = this.poll().then(() => this.runScans());
    this.follow(pollIntervalMs);
  }
  async follow(pollIntervalMs) {
    while (!this.closed) {
      const changed = await this.follower.next(pollIntervalMs);
      this.follower.settle();
      if (this.closed)
        return;
      if (changed)
        this.touch();
      else
        await this.poll();
    }
  }
  listen(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  get listenerCount() {
    return this.listeners.size;
  }
  get cached() {
    return this.cachedState;
  }
  get derived() {
    return snapshot(this.state);
  }
  touch() {
    if (this.closed)
      return;
    this.version++;
    this.runScans();
  }
  async watchDocumentDir(dir) {
    if (!this.host.fs.watch || this.docWatches.has(dir) || this.closed)
      return;
    const path = nodePath2.join(this.folder, dir);
    if (!(await this.host.fs.stat(path).catch(() => {
      return;
    }))?.isDirectory || this.docWatches.has(dir) || this.closed)
      return;
    this.docWatches.set(dir, this.host.fs.watch(path, () => {
      this.version++;
    }));
  }
  watchDocumentDirs(events) {
    for (const event of events) {
      if (typeof event.doc !== "string")
        continue;
      const dir = nodePath2.normalize(nodePath2.dirname(event.doc));
      if (dir === "." || dir === ".." || dir.startsWith(`..${nodePath2.sep}`) || nodePath2.isAbsolute(dir))
        continue;
      this.watchDocumentDir(dir);
    }
  }
  close() {
    this.closed = true;
    this.follower.close();
    for (const stop of this.stopWatchers)
      stop();
    for (const stop of this.docWatches.values())
      stop();
    this.docWatches.clear();
    if (this.retryTimer)
      clearTimeout(this.retryTimer);
    this.listeners.clear();
  }
  async poll() {
    try {
      const [events, protocol] = await Promise.all([
        this.host.fs.stat(nodePath2.join(this.folder, "events.jsonl")),
        this.host.fs.stat(nodePath2.join(this.folder, "protocol.json"))
      ]);
      const key = `${events?.size}:${events?.mtimeMs}:${protocol?.size}:${protocol?.mtimeMs}`;
      if (key !== this.pollKey) {
        const first = this.pollKey === "";
        this.pollKey = key;
        if (!first)
          this.touch();
      }
    } catch {}
  }
  async runScans() {
    if (this.scanning) {
      this.dirty = true;
      return;
    }
    this.scanning = true;
    try {
      do {
        this.dirty = false;
        await this.scan().catch(() => {
          return;
        });
      } while (this.dirty && !this.closed);
    } finally {
      this.scanning = false;
    }
  }
  retrySoon() {
    if (this.retryTimer)
      return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.touch();
    }, 25);
    this.retryTimer.unref?.();
  }
  async readNewBytes() {
    const { host } = this;
    const path = nodePath2.join(this.folder, "events.jsonl");
    if (host.fs.readTail && this.size > 0) {
      const stat = await host.fs.stat(path);
      if (stat?.isFile && stat.size >= this.size) {
        const read = await host.fs.readTail(path, stat.size - this.size);
        if (read && read.stat.size - read.bytes.length === this.size)
          return { offset: this.size, bytes: read.bytes };
      }
    }
    try {
      return { offset: 0, bytes: await host.fs.readFile(path) };
    } catch (error) {
      if (errorCode(error) !== "ENOENT")
        throw error;
      return { offset: 0, bytes: new Uint8Array(0) };
    }
  }
  async scan() {
    const { core, host } = this;
    if (await host.fs.stat(nodePath2.join(this.folder, core.LOCK_NAME))) {
      const now = Date.now();
      this.lockSeenAt ??= now;
      if (now - this.lockSeenAt < LOCK_GRACE_MS) {
        this.retrySoon();
        return;
      }
    } else
      this.lockSeenAt = undefined;
    if (await this.wasDeleted())
      return;
    const log = await this.readNewBytes();
    let protocol;
    try {
      protocol = await core.readProtocol(host, this.folder);
    } catch {
      protocol = undefined;
    }
    this.protocol = protocol;
    const effective = protocol ?? this.lastProtocol;
    if (protocol)
      this.lastProtocol = protocol;
    const participants = effective ? core.participantIds(effective) : [];
    const bytes = log.bytes;
    const end = log.offset + bytes.lastIndexOf(10) + 1;
    let reset = false;
    if (log.offset === 0 && end < this.size) {
      reset = this.size > 0;
      this.size = 0;
      this.events.length = 0;
      this.states.length = 0;
      this.state = core.emptyState();
    }
    const fresh = [];
    if (end > this.size) {
      let text = "";
      try {
        text = core.decodeText(bytes.subarray(this.size - log.offset, end - log.offset), "events.jsonl");
      } catch {
        text = "";
      }
      this.size = end;
      const empty = core.readReadiness("");
      for (const event of core.parseEventLog(text).events) {
        core.applyEvent(this.state, event, participants, empty);
        this.events.push(event);
        this.states.push(snapshot(this.state));
        fresh.push(event);
      }
    }
    this.watchDocumentDirs(fresh);
    const cached = effective ? {
      phase: typeof effective.currentPhase === "string" ? effective.currentPhase : null,
      proposalOwner: typeof effective.proposalOwner === "string" ? effective.proposalOwner : null,
      waitingFor: Array.isArray(effective.waitingFor) ? effective.waitingFor.map((w) => core.pyStr(w)) : []
    } : { phase: null, proposalOwner: null, waitingFor: [] };
    const key = JSON.stringify(cached);
    const stateChanged = key !== this.protocolKey;
    const initial = this.protocolKey === "";
    this.protocolKey = key;
    this.cachedState = cached;
    if (initial && !reset)
      return;
    const first = this.events.length - fresh.length;
    for (let i = 0;i < fresh.length; i++)
      this.emit({ kind: "event", event: fresh[i], state: this.states[first + i] });
    if (reset || stateChanged && fresh.length === 0)
      this.emit({ kind: "state", state: cached, reset });
  }
  async wasDeleted() {
    const { host } = this;
    const [protocol, log] = await Promise.all(["protocol.json", "events.jsonl"].map((name) => host.fs.stat(nodePath2.join(this.folder, name))));
    if (protocol || log) {
      this.deleted = false;
      return false;
    }
    if (this.protocolKey === "" || this.deleted)
      return true;
    this.deleted = true;
    this.emit({ kind: "deleted" });
    return true;
  }
  emit(update) {
    for (const listener of this.listeners) {
      try {
        listener(update);
      } catch {}
    }
  }
  freshCache() {
    const cache = this.statusCache;
    return cache && cache.version === this.version && Date.now() - cache.at < STATUS_MAX_AGE_MS ? cache : undefined;
  }
  status() {
    const version = this.version;
    const cache = this.freshCache();
    if (cache)
      return Promise.resolve(cache.value);
    if (this.statusInflight && this.statusInflight.version === version)
      return this.statusInflight.promise;
    const promise = this.computeStatus().then((value) => {
      if (this.statusInflight?.promise === promise)
        this.statusInflight = undefined;
      this.statusCache = { version, at: Date.now(), value };
      return value;
    }, (error) => {
      if (this.statusInflight?.promise === promise)
        this.statusInflight = undefined;
      throw error;
    });
    this.statusInflight = { version, promise };
    return promise;
  }
  statusResult() {
    const cache = this.freshCache();
    if (!cache)
      return;
    if (!cache.result) {
      const result = Object.freeze({ task: this.task, ...cache.value });
      cache.result = withJsonText(result, JSON.stringify(result));
    }
    return cache.result;
  }
  async computeStatus() {
    const { core, host } = this;
    const protocol = await core.readProtocol(host, this.folder);
    const log = await core.readEventLog(host, this.folder);
    const last = log.events.at(-1);
    const validation = await core.validate(host, this.folder, this.registry);
    return {
      phase: protocol.currentPhase ?? null,
      proposalOwner: protocol.proposalOwner ?? null,
      waitingFor: protocol.waitingFor ?? [],
      lastEvent: last ? { seq: last.seq, event: last.event, from: last.from, at: last.at, summary: last.summary } : null,
      validation: { ok: validation.ok, errors: validation.errors, warnings: validation.warnings }
    };
  }
}

// plugins/rpc/server.ts
var TASK_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
var RPC_METHODS = [
  "ping",
  "authenticate",
  "agent/list",
  "agent/info",
  "agent/call",
  "agent/subscribe",
  "agent/unsubscribe",
  "task/create",
  "task/status",
  "task/result",
  "task/cancel",
  "message/send",
  "message/broadcast"
];
var OPEN_METHODS = new Set(["ping", "authenticate"]);
var UNMETERED = new Set(["ping"]);
var MAX_MESSAGE_LENGTH = 16 * 1024;
var ACTIONS = {
  init: { folder: true, participant: "many", mutates: () => true },
  append: { folder: true, participant: "one", mutates: () => true },
  next: { folder: true, participant: "one", mutates: () => false },
  validate: { folder: true, participant: "none", mutates: () => false },
  status: { folder: true, participant: "none", mutates: () => false },
  types: { folder: false, participant: "none", mutates: () => false },
  doctor: { folder: true, participant: "none", mutates: (args) => Boolean(args.fix) },
  read: { folder: true, participant: "none", mutates: () => false },
  write: { folder: true, participant: "none", mutates: () => true }
};
var DOCUMENTS = ["proposal.md", "review.md", "decisions.md", "readiness.md", "conclusion.md"];
var MAX_DOCUMENT_LENGTH = 1024 * 1024;
var FORBIDDEN_ARGS = new Set(["json", "help", "h", "version", "v", "debug", "plugin", "config", "no-config"]);
function issueText(issues) {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => String(item.key)).join(".");
    const message = issue.kind === "schema" && issue.expected === "never" ? "unknown parameter" : issue.message;
    return path ? `${path}: ${message}` : message;
  }).join("; ");
}
function parseParams(schema, params, order) {
  let input = params ?? {};
  if (Array.isArray(input)) {
    if (input.length > order.length)
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: expected at most ${order.length} positional params (${order.join(", ")})`);
    input = Object.fromEntries(input.map((value, i) => [order[i], value]));
  }
  const result = v2.safeParse(schema, input);
  if (!result.success)
    throw new RpcError(RpcCode.InvalidParams, `Invalid params: ${issueText(result.issues)}`);
  return result.output;
}
var str = (what) => v2.string(`${what} must be a string`);
var nonEmpty = (what) => v2.pipe(str(what), v2.minLength(1, `${what} must not be empty`));
var TaskParam = v2.pipe(str("task"), v2.regex(TASK_ID_RE, "task must be a collaboration name under the server root (letters, digits, '.', '_', '-'; at most 128)"), v2.check((s) => !s.includes(".."), "task must not contain '..'"));
var S = {
  authenticate: v2.strictObject({
    token: v2.optional(str("token")),
    participant: v2.optional(nonEmpty("participant")),
    capabilities: v2.optional(v2.pipe(v2.array(v2.pipe(nonEmpty("capability"), v2.maxLength(64, "a capability is at most 64 characters")), "capabilities must be an array of strings"), v2.maxLength(64, "at most 64 capabilities"))),
    version: v2.optional(v2.pipe(str("version"), v2.maxLength(64, "version is at most 64 characters")))
  }),
  agent: v2.strictObject({ agent: nonEmpty("agent") }),
  call: v2.strictObject({ agent: nonEmpty("agent"), action: nonEmpty("action"), args: v2.optional(v2.record(v2.string(), v2.unknown(), "args must be an object")) }),
  subscribe: v2.strictObject({
    task: TaskParam,
    participant: v2.optional(nonEmpty("participant")),
    fromSeq: v2.optional(v2.pipe(v2.number("fromSeq must be a number"), v2.integer("fromSeq must be a whole number"), v2.minValue(1, "fromSeq must be at least 1")))
  }),
  unsubscribe: v2.strictObject({ subscription: nonEmpty("subscription") }),
  task: v2.strictObject({ task: TaskParam }),
  result: v2.strictObject({ task: TaskParam, includeContent: v2.optional(v2.boolean("includeContent must be true or false")) }),
  cancel: v2.strictObject({ task: TaskParam, reason: nonEmpty("reason"), participant: v2.optional(nonEmpty("participant")) }),
  create: v2.looseObject({ task: v2.optional(TaskParam) }),
  send: v2.strictObject({
    to: nonEmpty("to"),
    text: v2.pipe(str("text"), v2.maxLength(MAX_MESSAGE_LENGTH, `text must be at most ${MAX_MESSAGE_LENGTH} characters`)),
    task: v2.optional(TaskParam),
    from: v2.optional(nonEmpty("from"))
  }),
  broadcast: v2.strictObject({
    task: TaskParam,
    text: v2.pipe(str("text"), v2.maxLength(MAX_MESSAGE_LENGTH, `text must be at most ${MAX_MESSAGE_LENGTH} characters`)),
    from: v2.optional(nonEmpty("from"))
  })
};
function plainTaskParam(params) {
  let task;
  if (Array.isArray(params)) {
    if (params.length !== 1)
      return;
    task = params[0];
  } else if (params !== undefined) {
    for (const key in params)
      if (key !== "task")
        return;
    task = params.task;
  }
  return typeof task === "string" && TASK_ID_RE.test(task) && !task.includes("..") ? task : undefined;
}
function unauthorized(message) {
  return new RpcError(RpcCode.Unauthorized, message);
}
function kebab(name) {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
function argsToOptions(args, spec) {
  const options = {};
  for (const [key, value] of Object.entries(args)) {
    const name = kebab(key);
    if (!/^[a-z][a-z0-9-]*$/.test(name) || FORBIDDEN_ARGS.has(name))
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.${key}: not an option agents may pass`);
    const items = [];
    let flag = false;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null || item === false)
        continue;
      if (item === true)
        flag = true;
      else if (typeof item === "string" || typeof item === "number")
        items.push(String(item));
      else
        throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.${key}: expected a string, a number, a boolean or an array of them`);
    }
    const option = spec?.options?.[name];
    if (option?.type === "boolean" || option === undefined && flag && !items.length) {
      if (flag)
        options[name] = true;
    } else if (items.length)
      options[name] = option?.multiple ? items : items.at(-1);
    else if (flag)
      options[name] = true;
  }
  return options;
}
function readiness(participant, state) {
  if (participant === undefined)
    return {};
  if (state.waitingFor.includes(participant))
    return { ready: true, reason: `ready: ${participant} is listed in waitingFor` };
  if (state.phase === "completed" || state.phase === "blocked")
    return { ready: true, reason: `ready: phase is ${state.phase}` };
  return { ready: false };
}
async function tokenKey(token) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

class RpcServer {
  options;
  core;
  host;
  root;
  tokens = new Map;
  tokensReady;
  conns = new Set;
  gate;
  byAgent = new Map;
  collabs = new Map;
  queues = new Map;
  sharedJson = new WeakMap;
  participantSets = new WeakMap;
  servers = [];
  unixPath;
  nextConn = 1;
  nextSub = 1;
  methods;
  closing = false;
  endpoints = {};
  constructor(options) {
    this.gate = new WorkGate(options.maxRequests ?? 64);
    this.options = options;
    this.core = options.core;
    this.host = options.host;
    this.root = options.root;
    this.tokensReady = this.setTokens(options.tokens ?? {});
    this.methods = {
      ping: () => ({ pong: true, at: this.core.formatTimestamp(this.host.now()) }),
      authenticate: (conn, params) => this.authenticate(conn, params),
      "agent/list": (conn) => this.agentList(conn),
      "agent/info": (conn, params) => this.agentInfo(conn, parseParams(S.agent, params, ["agent"]).agent),
      "agent/call": (conn, params, info) => this.agentCall(conn, params, info),
      "$/cancelRequest": (conn, params) => this.cancelInflight(conn, params, "id"),
      "notifications/cancelled": (conn, params) => this.cancelInflight(conn, params, "requestId"),
      "agent/subscribe": (conn, params, info) => this.subscribe(conn, params, info),
      "agent/unsubscribe": (conn, params) => this.unsubscribe(conn, params),
      "task/create": (conn, params) => this.taskCreate(conn, params),
      "task/status": (conn, params) => this.taskStatus(conn, plainTaskParam(params) ?? parseParams(S.task, params, ["task"]).task),
      "task/result": (conn, params) => this.taskResult(conn, params),
      "task/cancel": (conn, params) => this.taskCancel(conn, params),
      "message/send": (conn, params) => this.messageSend(conn, params),
      "message/broadcast": (conn, params) => this.messageBroadcast(conn, params)
    };
  }
  async setTokens(tokens) {
    for (const [token, participant] of Object.entries(tokens))
      this.tokens.set(await tokenKey(token), participant);
  }
  get connectionCount() {
    return this.conns.size;
  }
  get subscriptionCount() {
    let n = 0;
    for (const conn of this.conns)
      n += conn.subscriptions.size;
    return n;
  }
  attach(stream, transport, options = {}) {
    const conn = {
      id: this.nextConn++,
      transport,
      peer: undefined,
      identity: undefined,
      capabilities: [],
      agentVersion: undefined,
      subscriptions: new Map,
      failedAuth: 0,
      busy: 0,
      inflight: new Map
    };
    conn.peer = new Peer(stream, {
      limits: this.options.limits,
      stallTimeoutMs: this.options.stallTimeoutMs ?? 1e4,
      messageTimeoutMs: transport === "stdio" ? 0 : this.options.messageTimeoutMs ?? 30000,
      maxInFlight: this.options.maxRequestsPerConnection ?? 4,
      gate: this.gate,
      unmetered: UNMETERED,
      textWrites: options.textWrites,
      idleTimeoutMs: transport === "stdio" ? 0 : this.options.idleTimeoutMs ?? 120000,
      handler: (method, params, info) => this.dispatch(conn, method, params, info),
      onInternalError: (error, method) => this.options.log?.(`internal error in ${method}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`)
    });
    this.conns.add(conn);
    conn.peer.onClose(() => this.forget(conn));
    const authTimeoutMs = this.options.authTimeoutMs ?? 30000;
    if (transport === "tcp" && authTimeoutMs > 0) {
      const timer = setTimeout(() => {
        if (!conn.identity)
          conn.peer.close("did not authenticate in time");
      }, authTimeoutMs);
      timer.unref?.();
      conn.peer.onClose(() => clearTimeout(timer));
    }
    return conn.peer;
  }
  accept(socket, transport) {
    if (this.closing || this.conns.size >= (this.options.maxConnections ?? 1e4)) {
      socket.on("error", () => {
        return;
      });
      socket.destroy();
      return;
    }
    socket.setNoDelay?.(true);
    this.attach(socket, transport, { textWrites: true });
  }
  async listenTcp(host, port, options = {}) {
    if (!isLoopback(host) && !options.allowRemote) {
      throw new ConfigError(`refusing to listen on ${host}: not a loopback address (pass --allow-remote, or allowRemote: true in the config, to serve other machines)`);
    }
    await this.tokensReady;
    if (this.tokens.size === 0)
      throw new ConfigError("TCP needs tokens: map each token to a participant id under `tokens:` in the server config (--config)");
    const onSocket = (socket) => void this.accept(socket, "tcp");
    let server;
    if (options.tls) {
      const tls = await import("node:tls");
      const pem = (value) => typeof value === "string" ? value : Buffer.from(value);
      server = tls.createServer({ cert: pem(options.tls.cert), key: pem(options.tls.key) }, onSocket);
      server.on("tlsClientError", (error) => this.options.log?.(`tls: ${error.message}`));
    } else {
      server = (await import("node:net")).createServer(onSocket);
    }
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    server.on("error", (error) => this.options.log?.(`tcp listener: ${error.message}`));
    this.servers.push(server);
    const address = server.address();
    const shown = address.address.includes(":") ? `[${address.address}]` : address.address;
    this.endpoints.tcp = `${shown}:${address.port}`;
    if (options.tls)
      this.endpoints.tls = true;
    return { host: address.address, port: address.port };
  }
  async listenUnix(path) {
    const net = await import("node:net");
    const fs = await import("node:fs");
    const target = nodePath3.resolve(path);
    const existing = await fs.promises.lstat(target).catch(() => null);
    if (existing) {
      if (!existing.isSocket())
        throw new ConfigError(`refusing to replace ${target}: it exists and is not a socket`);
      const live = await new Promise((resolve) => {
        const probe = net.connect(target, () => {
          probe.destroy();
          resolve(true);
        });
        probe.on("error", () => resolve(false));
      });
      if (live)
        throw new ConfigError(`another server is listening on ${target}`);
      await fs.promises.rm(target, { force: true });
    }
    const dir = await fs.promises.mkdtemp(nodePath3.join(nodePath3.dirname(target), ".acp-"));
    const temp = nodePath3.join(dir, "s");
    const server = net.createServer((socket) => this.accept(socket, "unix"));
    try {
      await fs.promises.chmod(dir, 448);
      await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(temp, () => {
          server.off("error", reject);
          resolve();
        });
      });
      await fs.promises.chmod(temp, 384);
      await fs.promises.rename(temp, target);
    } catch (error) {
      server.close();
      throw error;
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => {
        return;
      });
    }
    server.on("error", (error) => this.options.log?.(`unix listener: ${error.message}`));
    this.servers.push(server);
    this.unixPath = target;
    this.endpoints.unix = target;
    return target;
  }
  async close() {
    if (this.closing)
      return;
    this.closing = true;
    const closing = this.servers.map((server) => new Promise((resolve) => server.close(() => resolve())));
    for (const conn of [...this.conns])
      conn.peer.destroy("server shutting down");
    for (const collab of this.collabs.values())
      collab.close();
    this.collabs.clear();
    await Promise.all(closing);
    if (this.unixPath) {
      const fs = await import("node:fs");
      await fs.promises.rm(this.unixPath, { force: true }).catch(() => {
        return;
      });
    }
  }
  cancelInflight(conn, params, key) {
    const id = params && !Array.isArray(params) ? params[key] : undefined;
    if (typeof id === "string" || typeof id === "number")
      conn.inflight.get(JSON.stringify(id))?.abort("cancelled by the caller");
    return null;
  }
  forget(conn) {
    for (const controller of conn.inflight.values())
      controller.abort("the caller disconnected");
    conn.inflight.clear();
    this.conns.delete(conn);
    for (const sub of conn.subscriptions.values())
      sub.stop();
    conn.subscriptions.clear();
    if (conn.identity) {
      const set = this.byAgent.get(conn.identity);
      set?.delete(conn);
      if (set && set.size === 0)
        this.byAgent.delete(conn.identity);
    }
  }
  dispatch(conn, method, params, info) {
    const fn = Object.hasOwn(this.methods, method) ? this.methods[method] : undefined;
    if (!fn)
      throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
    if (conn.transport === "tcp" && !conn.identity && !OPEN_METHODS.has(method)) {
      throw unauthorized("unauthorized: authenticate first (method authenticate with the token the server config maps to your participant id)");
    }
    return fn(conn, params, info);
  }
  async authenticate(conn, params) {
    const p = parseParams(S.authenticate, params, ["token", "participant", "capabilities", "version"]);
    let participant;
    if (p.token !== undefined) {
      await this.tokensReady;
      const mapped = this.tokens.get(await tokenKey(p.token));
      if (mapped === undefined) {
        conn.failedAuth++;
        if (conn.failedAuth >= 5)
          setTimeout(() => conn.peer.close("too many failed authentications"), 0);
        throw unauthorized("unauthorized: unknown token");
      }
      if (p.participant !== undefined && p.participant !== mapped)
        throw unauthorized(`unauthorized: this token belongs to another participant, not '${p.participant}'`);
      participant = mapped;
    } else {
      if (conn.transport === "tcp")
        throw unauthorized("unauthorized: a token is required over TCP");
      if (p.participant === undefined)
        throw new RpcError(RpcCode.InvalidParams, "Invalid params: give a token, or (on stdio and Unix sockets) the participant id this connection speaks for");
      participant = p.participant;
    }
    if (conn.identity !== undefined && conn.identity !== participant)
      throw unauthorized(`unauthorized: this connection already speaks for '${conn.identity}'`);
    conn.identity = participant;
    if (p.capabilities)
      conn.capabilities = [...new Set(p.capabilities)];
    if (p.version !== undefined)
      conn.agentVersion = p.version;
    let set = this.byAgent.get(participant);
    if (!set)
      this.byAgent.set(participant, set = new Set);
    set.add(conn);
    return { participant, capabilities: conn.capabilities, server: { agent: "acp", version: this.options.version ?? null } };
  }
  speaker(conn, given) {
    if (conn.identity !== undefined) {
      if (given !== undefined && given !== conn.identity) {
        throw unauthorized(`unauthorized: this connection speaks for '${conn.identity}' only, not for '${typeof given === "string" ? given : JSON.stringify(given)}'`);
      }
      return conn.identity;
    }
    if (given === undefined)
      return;
    if (typeof given !== "string")
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: participant must be a string");
    return given;
  }
  requireMember(conn, protocol, task) {
    if (conn.identity === undefined)
      return;
    if (!this.participantSet(protocol).has(conn.identity))
      throw unauthorized(`unauthorized: '${conn.identity}' is not a participant of task '${task}'`);
  }
  participantSet(protocol) {
    let set = this.participantSets.get(protocol);
    if (!set)
      this.participantSets.set(protocol, set = new Set(this.core.participantIds(protocol)));
    return set;
  }
  taskFolder(task) {
    return nodePath3.join(this.root, task);
  }
  async openTask(conn, task, fresh = false) {
    const cached = fresh ? undefined : this.collabs.get(task)?.protocol;
    if (cached) {
      this.requireMember(conn, cached, task);
      return { folder: this.taskFolder(task), protocol: cached };
    }
    const folder = this.taskFolder(task);
    let protocol;
    try {
      protocol = await this.core.readProtocol(this.host, folder);
    } catch (error) {
      if (!await this.host.fs.stat(nodePath3.join(folder, "protocol.json")))
        throw new RpcError(RpcCode.TaskNotFound, `task '${task}' not found`, { task });
      throw new RpcError(RpcCode.ProtocolRefusal, error.message, { message: error.message });
    }
    this.requireMember(conn, protocol, task);
    return { folder, protocol };
  }
  collab(task) {
    let collab = this.collabs.get(task);
    if (!collab) {
      collab = new Collab(this.core, this.host, this.options.registry, task, this.taskFolder(task), this.options.pollIntervalMs ?? 1000, this.options.folderWatchers);
      this.collabs.set(task, collab);
    }
    return collab;
  }
  serial(key, fn) {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.then(() => {
      return;
    }, () => {
      return;
    });
    this.queues.set(key, tail);
    tail.then(() => {
      if (this.queues.get(key) === tail)
        this.queues.delete(key);
    });
    return run;
  }
  async listTasks() {
    let names;
    try {
      names = await this.host.fs.readDir(this.root);
    } catch {
      return [];
    }
    const tasks = [];
    for (const name of names.filter((n) => TASK_ID_RE.test(n)).sort()) {
      try {
        tasks.push({ task: name, protocol: await this.core.readProtocol(this.host, this.taskFolder(name)) });
      } catch {}
    }
    return tasks;
  }
  async actionNames() {
    return Object.keys(ACTIONS).filter((name) => name === "read" || name === "write" || name === "status" || this.options.registry.commands.has(name));
  }
  async agentList(conn) {
    const tasks = (await this.listTasks()).filter(({ protocol }) => conn.identity === undefined || this.core.participantIds(protocol).includes(conn.identity));
    const agents = new Map;
    for (const { task, protocol } of tasks) {
      const waiting = Array.isArray(protocol.waitingFor) ? protocol.waitingFor : [];
      for (const id of this.core.participantIds(protocol)) {
        let list = agents.get(id);
        if (!list)
          agents.set(id, list = []);
        list.push({ task, phase: protocol.currentPhase ?? null, turn: waiting.includes(id) });
      }
    }
    const list = [{ agent: "acp", kind: "runtime", connected: true, version: this.options.version ?? null, capabilities: await this.actionNames() }];
    for (const id of [...agents.keys()].sort()) {
      const conns = this.byAgent.get(id);
      list.push({ agent: id, kind: "participant", connected: Boolean(conns?.size), capabilities: this.capabilitiesOf(id), collaborations: agents.get(id) });
    }
    return { agents: list };
  }
  capabilitiesOf(agent) {
    const set = new Set;
    for (const conn of this.byAgent.get(agent) ?? [])
      for (const c of conn.capabilities)
        set.add(c);
    return [...set].sort();
  }
  async reachable(conn, agent) {
    const me = conn.identity;
    if (me === undefined || this.options.crossTask)
      return this.byAgent.has(agent) || (await this.listTasks()).some(({ protocol }) => this.core.participantIds(protocol).includes(agent));
    if (agent === me)
      return true;
    return (await this.listTasks()).some(({ protocol }) => {
      const ids = this.core.participantIds(protocol);
      return ids.includes(agent) && ids.includes(me);
    });
  }
  async requireReachable(conn, agent) {
    if (!await this.reachable(conn, agent))
      throw new RpcError(RpcCode.AgentNotFound, `agent '${agent}' not found`, { agent });
  }
  async agentInfo(conn, agent) {
    const endpoints = { ...this.endpoints };
    if (agent === "acp") {
      return { agent: "acp", kind: "runtime", version: this.options.version ?? null, capabilities: await this.actionNames(), methods: [...RPC_METHODS], endpoints };
    }
    await this.requireReachable(conn, agent);
    const conns = [...this.byAgent.get(agent) ?? []];
    const version = conns.find((c) => c.agentVersion !== undefined)?.agentVersion ?? null;
    return { agent, kind: "participant", version, connected: conns.length > 0, capabilities: this.capabilitiesOf(agent), endpoints };
  }
  async agentCall(conn, params, info) {
    const p = parseParams(S.call, params, ["agent", "action", "args"]);
    if (p.agent === "acp")
      return { status: "success", data: await this.runAction(conn, p.action, p.args ?? {}) };
    const key = info.id === undefined || info.id === null ? undefined : JSON.stringify(info.id);
    const controller = new AbortController;
    if (key !== undefined)
      conn.inflight.set(key, controller);
    try {
      return await this.forward(conn, p.agent, p.action, p.args ?? {}, controller.signal);
    } finally {
      if (key !== undefined && conn.inflight.get(key) === controller)
        conn.inflight.delete(key);
    }
  }
  async runAction(conn, action, rawArgs) {
    const spec = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    const names = await this.actionNames();
    if (!spec || !names.includes(action))
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: agent 'acp' has no action '${action}' (actions: ${names.join(", ")})`);
    const args = { ...rawArgs };
    let task;
    if (spec.folder) {
      const given = args.folder ?? args.task;
      delete args.folder;
      delete args.task;
      const checked = v2.safeParse(TaskParam, given);
      if (!checked.success)
        throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.folder: ${given === undefined ? "required (the task name)" : issueText(checked.issues)}`);
      task = checked.output;
    }
    if (spec.participant === "one") {
      const given = Array.isArray(args.participant) && args.participant.length === 1 ? args.participant[0] : args.participant;
      const who = this.speaker(conn, given);
      if (who === undefined)
        delete args.participant;
      else
        args.participant = who;
    } else if (spec.participant === "many" && conn.identity !== undefined) {
      const listed = (Array.isArray(args.participant) ? args.participant : [args.participant]).map((p) => typeof p === "string" ? p.trim() : p);
      if (!listed.includes(conn.identity))
        throw unauthorized(`unauthorized: '${conn.identity}' may only create collaborations it takes part in`);
    }
    if (task !== undefined && action !== "init")
      await this.openTask(conn, task);
    if (action === "status")
      return { task, ...await this.statusOf(task) };
    if (action === "read" || action === "write") {
      const run = () => this.document(action, task, args);
      if (action === "read")
        return run();
      try {
        return await this.serial(this.taskFolder(task), run);
      } finally {
        this.collabs.get(task)?.touch();
      }
    }
    if (action === "init")
      await this.checkInitPaths(task, args);
    const folder = task === undefined ? undefined : this.taskFolder(task);
    const options = { ...argsToOptions(args, this.options.registry.commands.get(action)?.spec), ...folder === undefined ? {} : { folder }, json: true };
    const run = () => this.runJson(action, options);
    if (!spec.mutates(args) || folder === undefined)
      return run();
    try {
      return await this.serial(folder, run);
    } finally {
      this.collabs.get(task)?.touch();
    }
  }
  async document(action, task, args) {
    const { core, host } = this;
    const folder = this.taskFolder(task);
    const allowedKeys = action === "read" ? ["doc"] : ["doc", "content", "append"];
    for (const key of Object.keys(args))
      if (!allowedKeys.includes(key))
        throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.${key}: unknown for action '${action}'`);
    const doc = args.doc;
    if (typeof doc !== "string" || doc === "")
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: args.doc: required (a document name or a deliverable reference)");
    const protocol = await core.readProtocol(host, folder);
    const deliverables = protocol.deliverables ?? {};
    const supporting = Array.isArray(deliverables.supporting) ? deliverables.supporting : [];
    const refs = [core.primaryRef(protocol), ...supporting.map((s) => s && typeof s.file === "string" ? core.deliverableRef(protocol, s.file) : undefined)].filter((r) => r !== undefined);
    let path;
    if (DOCUMENTS.includes(doc) || action === "read" && ["protocol.json", "events.jsonl", "README.md"].includes(doc))
      path = nodePath3.join(folder, doc);
    else if (refs.includes(doc))
      path = core.resolveDeliverablePath(folder, protocol, doc);
    if (path === undefined)
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.doc: '${doc}' is not a document of task '${task}' (documents: ${[...DOCUMENTS, ...refs].join(", ")})`);
    const target = await this.checkedPath(folder, protocol, doc);
    if (action === "read") {
      let bytes;
      try {
        bytes = await host.fs.readFile(target);
      } catch (error) {
        if (errorCode(error) === "ENOENT")
          throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.doc: '${doc}' does not exist yet`);
        throw error;
      }
      return { doc, content: core.decodeText(bytes, doc), sha256: await core.sha256Hex(bytes) };
    }
    if (typeof args.content !== "string")
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: args.content: required (the text to write)");
    if (args.content.length > MAX_DOCUMENT_LENGTH)
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.content: at most ${MAX_DOCUMENT_LENGTH} characters`);
    const content = args.content;
    const append = args.append === true;
    return core.withFolderLock(host, folder, async () => {
      let text = content;
      if (append) {
        try {
          text = new TextDecoder().decode(await host.fs.readFile(target)) + content;
        } catch (error) {
          if (errorCode(error) !== "ENOENT")
            throw error;
        }
      }
      await host.fs.mkdir(nodePath3.dirname(target));
      await this.checkedPath(folder, protocol, doc);
      await core.writeFileAtomic(host, target, text);
      const bytes = new TextEncoder().encode(text);
      return { doc, bytes: bytes.length, sha256: await core.sha256Hex(bytes) };
    });
  }
  async checkedPath(folder, protocol, doc) {
    try {
      return await this.core.checkedDocumentPath(this.host, folder, protocol, doc);
    } catch (error) {
      if (!(error instanceof this.core.AcpError))
        throw error;
      throw new RpcError(RpcCode.ProtocolRefusal, error.message, { message: error.message });
    }
  }
  async checkInitPaths(task, args) {
    const repoRoot = args.repoRoot ?? args["repo-root"];
    if (typeof repoRoot !== "string")
      return;
    const dirArg = args.deliverablesDir ?? args["deliverables-dir"];
    const own = this.taskFolder(task);
    const real = (path) => realpathOfExistingAncestor(this.host, path);
    const resolvedRoot = nodePath3.resolve(own, repoRoot.trim());
    const targets = [resolvedRoot, ...typeof dirArg === "string" ? [nodePath3.resolve(resolvedRoot, dirArg.trim())] : []];
    const [realRoot, realOwn] = [await real(this.root), await real(own)];
    const allowed = await Promise.all((this.options.repoRoots ?? []).map(real));
    for (const target of await Promise.all(targets.map(real))) {
      if (isInside(target, realRoot) && !isInside(target, realOwn)) {
        throw new RpcError(RpcCode.InvalidParams, "Invalid params: args.repoRoot must not lead into the server root outside this task (another task's folder)");
      }
      if (!allowed.some((dir) => isInside(target, dir))) {
        const where = allowed.length ? `inside ${allowed.join(", ")} (the server config's repoRoots)` : "inside a directory the server config's repoRoots allows (none configured)";
        throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.repoRoot must resolve ${where}`);
      }
    }
  }
  async runJson(action, options) {
    try {
      const result = await this.core.runCommand(this.options.registry, action, { options }, { host: this.host });
      return result.json ?? { ok: result.exitCode === 0, exitCode: result.exitCode };
    } catch (error) {
      const described = this.core.describeError(error);
      if (!described)
        throw new RpcError(RpcCode.InternalError, "Internal error", { exitCode: 70 });
      const { message, exitCode, code } = described;
      throw new RpcError(RpcCode.ProtocolRefusal, message, { message, exitCode, code, stderr: `error: ${message}` });
    }
  }
  async forward(conn, agent, action, args, signal) {
    await this.requireReachable(conn, agent);
    const conns = [...this.byAgent.get(agent) ?? []].filter((c) => c.capabilities.length > 0);
    if (!conns.length) {
      const known = this.byAgent.has(agent) || (await this.listTasks()).some(({ protocol }) => this.core.participantIds(protocol).includes(agent));
      throw new RpcError(RpcCode.AgentNotFound, known ? `agent '${agent}' is not connected (or takes no calls)` : `agent '${agent}' not found`, { agent, connected: this.byAgent.has(agent) });
    }
    const able = conns.filter((c) => c.capabilities.includes(action));
    if (!able.length)
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: agent '${agent}' has no action '${action}' (actions: ${this.capabilitiesOf(agent).join(", ")})`);
    const target = able.find((c) => c.busy === 0);
    if (!target)
      throw new RpcError(RpcCode.AgentBusy, `agent '${agent}' is busy with another call`, { agent });
    target.busy++;
    try {
      const result = await target.peer.request("agent/call", { from: conn.identity ?? null, action, args }, { timeoutMs: this.options.forwardTimeoutMs ?? 300000, signal });
      if (result && typeof result === "object" && result.status === "success" && "data" in result)
        return result;
      return { status: "success", data: result ?? null };
    } catch (error) {
      if (error instanceof RpcResponseError)
        throw new RpcError(error.code, error.message, error.data);
      if (error instanceof RpcConnectionError)
        throw new RpcError(RpcCode.AgentNotFound, `agent '${agent}' went away: ${error.message}`, { agent });
      if (error instanceof RpcCancelledError)
        throw new RpcError(RpcCode.RequestCancelled, `the call to agent '${agent}' was cancelled`, { agent });
      throw error;
    } finally {
      target.busy--;
    }
  }
  async subscribe(conn, params, info) {
    const p = parseParams(S.subscribe, params, ["task", "participant", "fromSeq"]);
    const { protocol } = await this.openTask(conn, p.task);
    const participant = p.participant === undefined ? undefined : this.speaker(conn, p.participant);
    if (participant !== undefined && !this.core.participantIds(protocol).includes(participant)) {
      const message = `participant '${participant}' is not listed in protocol.json`;
      throw new RpcError(RpcCode.ProtocolRefusal, message, { message });
    }
    const collab = this.collab(p.task);
    await collab.ready;
    if (!conn.peer.isOpen)
      throw new RpcError(RpcCode.InternalError, "connection closed");
    const id = `sub-${this.nextSub++}`;
    const sub = { id, conn, task: p.task, participant, live: false, queue: [], stop: () => {
      return;
    } };
    const deliver = (method, payload) => {
      if (sub.live)
        conn.peer.notify(method, payload);
      else
        sub.queue.push([method, payload]);
    };
    const unlisten = collab.listen((update) => {
      if (update.kind === "deleted") {
        deliver("task/deleted", { subscription: id, task: p.task, deleted: true });
        sub.stop();
        return;
      }
      if (sub.live)
        conn.peer.sendRaw(this.notificationJson(sub, update));
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
    const state = collab.cached;
    info.after(() => {
      if (p.fromSeq !== undefined) {
        for (let i = 0;i < seen; i++) {
          const event = collab.events[i];
          if (typeof event.seq === "number" && event.seq >= p.fromSeq)
            conn.peer.notify(...this.notification(sub, { kind: "event", event, state: collab.states[i] }));
        }
      }
      for (const [method, payload] of sub.queue.splice(0))
        conn.peer.notify(method, payload);
      sub.live = true;
    });
    return { subscription: id, task: p.task, seq: collab.events.at(-1)?.seq ?? null, state, ...readiness(participant, state) };
  }
  notificationJson(sub, update) {
    let shared = this.sharedJson.get(update);
    if (shared === undefined) {
      const body = update.kind === "event" ? { task: sub.task, event: update.event, state: update.state } : { task: sub.task, state: update.state, reset: update.reset };
      shared = JSON.stringify(body).slice(1);
      this.sharedJson.set(update, shared);
    }
    const method = update.kind === "event" ? "agent/event" : "agent/state";
    const ready = readiness(sub.participant, update.state);
    const extra = ready.ready === undefined ? "" : `"ready":${ready.ready},${ready.reason === undefined ? "" : `"reason":${JSON.stringify(ready.reason)},`}`;
    return `{"jsonrpc":"2.0","method":"${method}","params":{"subscription":${JSON.stringify(sub.id)},${extra}${shared}}`;
  }
  notification(sub, update) {
    if (update.kind === "event") {
      return ["agent/event", { subscription: sub.id, task: sub.task, event: update.event, state: update.state, ...readiness(sub.participant, update.state) }];
    }
    return ["agent/state", { subscription: sub.id, task: sub.task, state: update.state, reset: update.reset, ...readiness(sub.participant, update.state) }];
  }
  unsubscribe(conn, params) {
    const p = parseParams(S.unsubscribe, params, ["subscription"]);
    const sub = conn.subscriptions.get(p.subscription);
    if (!sub)
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: no subscription '${p.subscription}' on this connection`);
    sub.stop();
    return { unsubscribed: p.subscription };
  }
  async taskCreate(conn, params) {
    if (Array.isArray(params))
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: task/create takes named params (init's options)");
    const p = parseParams(S.create, params, []);
    const { task: given, ...options } = p;
    const task = given ?? this.newTaskId();
    const data = await this.runAction(conn, "init", { ...options, folder: task });
    return { task, ...data };
  }
  newTaskId() {
    const stamp = this.core.formatTimestamp(this.host.now()).replace(/[-:]/g, "").replace(/[^0-9TZ]/g, "");
    return `task-${stamp}-${Math.random().toString(36).slice(2, 8)}`;
  }
  taskStatus(conn, task) {
    const collab = this.collabs.get(task);
    const protocol = collab?.protocol;
    if (protocol) {
      this.requireMember(conn, protocol, task);
      const result = collab.statusResult();
      if (result)
        return result;
    }
    return this.taskStatusComputed(conn, task);
  }
  async taskStatusComputed(conn, task) {
    await this.openTask(conn, task);
    const status = await this.statusOf(task);
    return this.collabs.get(task)?.statusResult() ?? { task, ...status };
  }
  async statusOf(task) {
    try {
      return await this.collab(task).status();
    } catch (error) {
      if (error instanceof RpcError)
        throw error;
      if (!await this.host.fs.stat(nodePath3.join(this.taskFolder(task), "protocol.json")))
        throw new RpcError(RpcCode.TaskNotFound, `task '${task}' not found`, { task });
      const message = error instanceof Error ? error.message : String(error);
      throw new RpcError(RpcCode.ProtocolRefusal, message, { message });
    }
  }
  async taskCancel(conn, params) {
    const p = parseParams(S.cancel, params, ["task", "reason", "participant"]);
    const who = this.speaker(conn, p.participant);
    if (who === undefined)
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: participant is required (or authenticate as one)");
    const { folder, protocol } = await this.openTask(conn, p.task);
    const phase = protocol.currentPhase ?? null;
    if (phase === "completed" || phase === "blocked") {
      throw new RpcError(RpcCode.TaskNotRunning, `task '${p.task}' is not running (phase: ${this.core.pyStr(phase)}); only a running task can be cancelled`, { task: p.task, phase });
    }
    const log = await this.core.readEventLog(this.host, folder);
    const last = log.events.at(-1);
    const args = { folder: p.task, participant: who, event: "blocked", summary: p.reason };
    if (last && typeof last.seq === "number")
      args.replyTo = last.seq;
    return this.runAction(conn, "append", args);
  }
  async taskResult(conn, params) {
    const p = parseParams(S.result, params, ["task", "includeContent"]);
    const { folder, protocol } = await this.openTask(conn, p.task, true);
    const { core, host } = this;
    if (protocol.currentPhase !== "completed") {
      throw new RpcError(RpcCode.TaskNotCompleted, `task '${p.task}' is not completed (phase: ${core.pyStr(protocol.currentPhase ?? null)})`, { task: p.task, phase: protocol.currentPhase ?? null });
    }
    const log = await core.readEventLog(host, folder);
    const readText = async (name) => {
      try {
        return core.decodeText(await host.fs.readFile(nodePath3.join(folder, name)), name);
      } catch (error) {
        if (errorCode(error) === "ENOENT")
          return "";
        throw error;
      }
    };
    const conclusion = await readText("conclusion.md");
    let outcome = null;
    for (const match of conclusion.matchAll(/^[ \t]*-[ \t]*\[([A-Za-z_]+)\][ \t]+(.+)$/gm)) {
      if (["proceed", "do_not_proceed", "defer", "blocked"].includes(match[1])) {
        outcome = { status: match[1], text: match[2].trim() };
        break;
      }
    }
    const section = (name) => {
      const body = core.markdown.sectionBody(conclusion, name);
      return body === undefined ? null : core.markdown.strip(body);
    };
    const ref = core.primaryRef(protocol);
    const deliverables = protocol.deliverables ?? {};
    const primary = deliverables.primary ?? {};
    const frozen = [...log.events].reverse().find((e) => e.event === "deliverable_frozen" && e.role === "primary");
    const bytes = ref === undefined ? undefined : await core.readDeliverable(host, folder, protocol, ref);
    const currentSha256 = bytes ? await core.sha256Hex(bytes) : null;
    const deliverable = {
      ref: ref ?? null,
      type: primary.pluginType ?? primary.type ?? null,
      sha256: frozen?.sha256 ?? null,
      frozenAtSeq: frozen?.seq ?? null,
      currentSha256,
      intact: frozen?.sha256 !== undefined && currentSha256 === frozen.sha256
    };
    if (p.includeContent)
      deliverable.content = bytes ? core.decodeText(bytes, String(ref)) : null;
    const decisionsText = await readText("decisions.md");
    const decisions = [];
    const blocks = decisionsText.split(/^### /m).slice(1);
    for (const block of blocks) {
      const [heading = "", ...rest] = block.split(`
`);
      const body = rest.join(`
`);
      const m = /^(D\d+)\.\s+(.+)$/.exec(heading.trim());
      decisions.push({
        id: m?.[1] ?? null,
        title: (m?.[2] ?? heading).trim(),
        decision: /^\s*-\s*Decision:\s*(.*)$/m.exec(body)?.[1]?.trim() ?? null,
        reflectedIn: /^\s*-\s*Reflected in:\s*(.*)$/m.exec(body)?.[1]?.trim() ?? null
      });
    }
    const completed = [...log.events].reverse().find((e) => e.event === "completed");
    return {
      task: p.task,
      phase: "completed",
      completed: completed ? { seq: completed.seq, from: completed.from, at: completed.at, summary: completed.summary } : null,
      outcome,
      rationale: section("Rationale"),
      nextAction: section("Next Action"),
      deliverable,
      decisions
    };
  }
  sender(conn, from) {
    if (conn.identity !== undefined) {
      if (from !== undefined && from !== conn.identity)
        throw unauthorized(`unauthorized: this connection speaks for '${conn.identity}' only, not for '${from}'`);
      return conn.identity;
    }
    if (from === undefined)
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: from is required (or authenticate as a participant)");
    return from;
  }
  async messageSend(conn, params) {
    const p = parseParams(S.send, params, ["to", "text", "task", "from"]);
    const from = this.sender(conn, p.from);
    if (p.task !== undefined)
      await this.openTask(conn, p.task);
    if (p.to !== "acp")
      await this.requireReachable(conn, p.to);
    const targets = [...this.byAgent.get(p.to) ?? []];
    if (!targets.length) {
      const known = p.to === "acp" || (await this.listTasks()).some(({ protocol }) => this.core.participantIds(protocol).includes(p.to));
      throw new RpcError(RpcCode.AgentNotFound, known ? `agent '${p.to}' is not connected` : `agent '${p.to}' not found`, { agent: p.to, connected: false });
    }
    const message = { from, to: p.to, text: p.text, at: this.core.formatTimestamp(this.host.now()) };
    if (p.task !== undefined)
      message.task = p.task;
    for (const target of targets)
      target.peer.notify("message/received", message);
    return { delivered: targets.length };
  }
  async messageBroadcast(conn, params) {
    const p = parseParams(S.broadcast, params, ["task", "text", "from"]);
    const from = this.sender(conn, p.from);
    const { protocol } = await this.openTask(conn, p.task);
    const participants = new Set(this.core.participantIds(protocol));
    const message = { from, task: p.task, text: p.text, at: this.core.formatTimestamp(this.host.now()), broadcast: true };
    let delivered = 0;
    for (const target of this.conns) {
      if (target === conn)
        continue;
      const member = target.identity !== undefined && participants.has(target.identity);
      const watching = [...target.subscriptions.values()].some((s) => s.task === p.task);
      if (member || watching) {
        target.peer.notify("message/received", message);
        delivered++;
      }
    }
    return { delivered };
  }
}

// plugins/rpc/edge.ts
function proc() {
  return globalThis.process;
}
function stdioStream() {
  const p = proc();
  const closeListeners = [];
  let closed = false;
  const close = () => {
    if (closed)
      return;
    closed = true;
    for (const listener of closeListeners)
      listener();
  };
  p.stdin.on("end", close);
  p.stdin.on("close", close);
  return {
    write: (bytes) => p.stdout.write(bytes),
    end: () => {
      p.stdin.destroy?.();
      close();
    },
    destroy: () => {
      p.stdin.destroy?.();
      close();
    },
    get writableLength() {
      return p.stdout.writableLength;
    },
    on(event, listener) {
      if (event === "close")
        closeListeners.push(listener);
      else if (event === "drain")
        p.stdout.on?.("drain", listener);
      else
        p.stdin.on(event, listener);
      return this;
    },
    pause: () => p.stdin.pause?.(),
    resume: () => p.stdin.resume?.()
  };
}
function onTerminate(fn) {
  const p = proc();
  const handler = () => fn();
  p.on("SIGINT", handler);
  p.on("SIGTERM", handler);
  return () => {
    p.off?.("SIGINT", handler);
    p.off?.("SIGTERM", handler);
  };
}

// plugins/rpc/cli.ts
import * as nodePath4 from "node:path";
function rpcContext(ctx) {
  return {
    core: ctx.api,
    host: ctx.host,
    registry: ctx.registry,
    io: { stdout: (text) => ctx.out(text.replace(/\n$/, "")), stderr: (text) => ctx.err(text.replace(/\n$/, "")) },
    version: ctx.api.VERSION,
    env: ctx.env,
    color: ctx.color
  };
}
function one(options, name) {
  const value = options[name];
  if (value === undefined)
    return;
  const values = Array.isArray(value) ? value : [value];
  if (values.length > 1)
    throw new ConfigError(`argument --${name}: expected one value`);
  const single = values[0];
  if (single === true || single === false)
    throw new ConfigError(`argument --${name}: expected one argument`);
  return String(single);
}
async function readText(host, path, what) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await host.fs.readFile(path));
  } catch (error) {
    const code = error.code;
    throw new ConfigError(`cannot read ${what} ${path}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : error.message}`);
  }
}
function fail(ctx, error) {
  const { AcpError } = ctx.core;
  if (error instanceof AcpError)
    throw error;
  if (error instanceof ConfigError || error instanceof RpcConnectionError || error instanceof RpcEndpointError)
    throw new AcpError(error.message);
  if (error instanceof RpcResponseError)
    throw new AcpError(error.message);
  throw error;
}
async function serveCommand(options, ctx) {
  const { host, io } = ctx;
  try {
    const configPath = one(options, "config");
    let config = {};
    let base = host.resolvePath(".");
    if (configPath !== undefined) {
      const absolute = host.resolvePath(configPath);
      config = await parseServerConfig(await readText(host, absolute, "server config"), configPath);
      base = nodePath4.dirname(absolute);
    }
    const rootOption = one(options, "root");
    const root = rootOption !== undefined ? host.resolvePath(rootOption) : nodePath4.resolve(base, config.root ?? ".");
    const rootStat = await host.fs.stat(root);
    if (!rootStat?.isDirectory)
      throw new ConfigError(`--root ${root} is not a directory`);
    const stdio = Boolean(options.stdio);
    const tcp = one(options, "tcp") ?? (config.tcp === undefined ? undefined : String(config.tcp));
    const unixOption = one(options, "unix");
    const unix = unixOption !== undefined ? host.resolvePath(unixOption) : config.unix === undefined ? undefined : nodePath4.resolve(base, config.unix);
    if (!stdio && tcp === undefined && unix === undefined)
      throw new ConfigError("choose a transport: --stdio, --tcp HOST:PORT or --unix PATH (or tcp:/unix: in the config)");
    const limits = config.limits ?? {};
    const server = new RpcServer({
      core: ctx.core,
      host,
      registry: ctx.registry,
      root,
      tokens: config.tokens,
      limits: { maxHeaderBytes: limits.maxHeaderBytes, maxBodyBytes: limits.maxBodyBytes },
      stallTimeoutMs: limits.stallTimeoutSeconds === undefined ? undefined : limits.stallTimeoutSeconds * 1000,
      messageTimeoutMs: limits.messageTimeoutSeconds === undefined ? undefined : limits.messageTimeoutSeconds * 1000,
      maxRequestsPerConnection: limits.maxRequestsPerConnection,
      maxRequests: limits.maxRequests,
      idleTimeoutMs: limits.idleTimeoutSeconds === undefined ? undefined : limits.idleTimeoutSeconds * 1000,
      authTimeoutMs: limits.authTimeoutSeconds === undefined ? undefined : limits.authTimeoutSeconds * 1000,
      maxConnections: limits.maxConnections,
      forwardTimeoutMs: limits.forwardTimeoutSeconds === undefined ? undefined : limits.forwardTimeoutSeconds * 1000,
      pollIntervalMs: config.pollIntervalSeconds === undefined ? undefined : config.pollIntervalSeconds * 1000,
      repoRoots: config.repoRoots?.map((dir) => nodePath4.resolve(base, dir)),
      crossTask: config.crossTask,
      version: ctx.version,
      folderWatchers: ctx.folderWatchers,
      log: (line) => io.stderr(`acp serve: ${line}
`)
    });
    let stop;
    const stopped = new Promise((resolve) => stop = resolve);
    const removeSignals = onTerminate(() => stop());
    try {
      io.stderr(`acp serve: serving ${root}
`);
      if (tcp !== undefined) {
        const { host: h, port } = parseHostPort(tcp);
        const allowRemote = Boolean(options["allow-remote"]) || config.allowRemote === true;
        const tls = config.tls === undefined ? undefined : { cert: await readText(host, nodePath4.resolve(base, config.tls.cert), "tls.cert"), key: await readText(host, nodePath4.resolve(base, config.tls.key), "tls.key") };
        await server.listenTcp(h, port, { allowRemote, tls });
        io.stderr(`acp serve: listening on ${tls ? "tls" : "tcp"}://${server.endpoints.tcp}
`);
        if (allowRemote && !tls)
          io.stderr(`acp serve: warning: TCP without TLS sends tokens in clear text; serve other machines this way on a trusted network only (tls: {cert, key} in the config)
`);
      }
      if (unix !== undefined) {
        await server.listenUnix(unix);
        io.stderr(`acp serve: listening on unix:${server.endpoints.unix}
`);
      }
      if (stdio) {
        const peer = server.attach(stdioStream(), "stdio");
        io.stderr(`acp serve: serving stdio
`);
        peer.closed.then(() => stop());
      }
      await stopped;
    } finally {
      removeSignals();
      await server.close();
    }
    io.stderr(`acp serve: stopped
`);
    return 0;
  } catch (error) {
    return fail(ctx, error);
  }
}
async function clientOptions(options, ctx, identifiesBy) {
  const endpoint = one(options, "server") ?? ctx.env("ACP_SERVER");
  if (endpoint === undefined)
    throw new ConfigError("the following arguments are required: --server (or set ACP_SERVER)");
  let token = one(options, "token");
  const tokenFile = one(options, "token-file");
  if (token === undefined && tokenFile !== undefined)
    token = (await readText(ctx.host, ctx.host.resolvePath(tokenFile), "token file")).trim();
  if (identifiesBy === undefined)
    token ??= ctx.env("ACP_TOKEN");
  const caFile = one(options, "ca");
  const ca = caFile === undefined ? undefined : await readText(ctx.host, ctx.host.resolvePath(caFile), "CA file");
  return { endpoint, token, ca };
}
function describe(error) {
  if (error.code === RpcCode.ProtocolRefusal)
    return error.message;
  return `${error.message} (${error.code})`;
}
async function rpcCommand(method, paramsText, options, ctx) {
  const { io } = ctx;
  let params;
  if (paramsText !== undefined) {
    try {
      params = JSON.parse(paramsText);
    } catch {
      throw new ctx.core.AcpError(`params must be JSON: ${paramsText.length > 60 ? `${paramsText.slice(0, 60)}…` : paramsText}`);
    }
    if (typeof params !== "object" || params === null)
      throw new ctx.core.AcpError("params must be a JSON object or array");
  }
  const paramFiles = options["param-file"] === undefined ? [] : (Array.isArray(options["param-file"]) ? options["param-file"] : [options["param-file"]]).map(String);
  for (const spec of paramFiles) {
    const eq = spec.indexOf("=");
    const path = eq > 0 ? spec.slice(0, eq).split(".") : [];
    if (eq <= 0 || eq === spec.length - 1 || path.some((k) => k === "" || k === "__proto__" || k === "constructor" || k === "prototype")) {
      throw new ctx.core.AcpError(`argument --param-file: expected key=file (for example args.content=draft.md), got '${spec}'`);
    }
    if (Array.isArray(params))
      throw new ctx.core.AcpError("argument --param-file: needs params given by name (a JSON object)");
    params ??= {};
    let node = params;
    for (const key of path.slice(0, -1)) {
      const child = node[key];
      if (child === undefined)
        node = node[key] = {};
      else if (typeof child === "object" && child !== null && !Array.isArray(child))
        node = child;
      else
        throw new ctx.core.AcpError(`argument --param-file: ${path.join(".")}: ${key} is not an object`);
    }
    try {
      node[path.at(-1)] = await readText(ctx.host, ctx.host.resolvePath(spec.slice(eq + 1)), "param file");
    } catch (error) {
      throw new ctx.core.AcpError(error.message);
    }
  }
  const pretty = !options.json && ctx.color;
  let client;
  try {
    const participant = one(options, "participant");
    const { endpoint, token, ca } = await clientOptions(options, ctx, participant);
    const timeout = one(options, "timeout");
    client = await RpcClient.connect(endpoint, { token, participant, ca, reconnect: false, heartbeatMs: 0 });
    const result = await client.call(method, params, { timeoutMs: timeout === undefined ? undefined : Number(timeout) * 1000 });
    io.stdout(`${pretty ? JSON.stringify(result, null, 2) : JSON.stringify(result)}
`);
    return 0;
  } catch (error) {
    if (error instanceof RpcResponseError) {
      const body = { code: error.code, message: error.message, ...error.data === undefined ? {} : { data: error.data } };
      if (!pretty)
        io.stdout(`${JSON.stringify({ error: body })}
`);
      io.stderr(`error: ${describe(error)}
`);
      return 2;
    }
    return fail(ctx, error);
  } finally {
    client?.close();
  }
}
async function waitViaServer(options, ctx) {
  const { io, core } = ctx;
  const out = (text) => io.stdout(`${text}
`);
  const json = Boolean(options.json);
  const task = one(options, "folder");
  const participant = one(options, "participant");
  if (task === undefined)
    throw new core.AcpError("the following arguments are required: --folder");
  if (participant === undefined)
    throw new core.AcpError("the following arguments are required: --participant");
  const timeoutText = one(options, "timeout");
  const timeoutSeconds = timeoutText === undefined ? 1800 : Number(timeoutText);
  if (timeoutText !== undefined && (timeoutText.trim() === "" || Number.isNaN(timeoutSeconds) || timeoutSeconds < 0)) {
    throw new core.AcpError(`argument --timeout: invalid non-negative number: '${timeoutText}'`);
  }
  let client;
  try {
    const { endpoint, token, ca } = await clientOptions(options, ctx);
    let lastReport = "";
    let settle;
    const ready = new Promise((resolve) => settle = resolve);
    const report = (state, seq) => {
      const line = `waiting for ${state.waitingFor.length ? state.waitingFor.join(", ") : "none"}${seq === null || seq === undefined ? "" : ` after seq ${core.pyStr(seq)}`}`;
      if (line !== lastReport && !json)
        out(`waiting: ${line}`);
      lastReport = line;
      return line;
    };
    let lastSeq = null;
    const onUpdate = (n) => {
      if (n.event)
        lastSeq = n.event.seq;
      if (n.ready)
        settle(n.reason ?? "ready");
      else
        report(n.state, lastSeq);
    };
    client = await RpcClient.connect(endpoint, { token, participant: token === undefined ? participant : undefined, ca, heartbeatMs: 15000, maxAttempts: 10 });
    const subscription = await client.subscribe({ task, participant }, onUpdate);
    const initial = subscription.initial;
    lastSeq = initial.seq;
    if (initial.ready)
      settle(initial.reason ?? "ready");
    else
      report(initial.state, initial.seq);
    let timer;
    const timedOut = new Promise((resolve) => {
      if (timeoutSeconds > 0)
        timer = setTimeout(() => resolve(undefined), timeoutSeconds * 1000);
    });
    const reason = await Promise.race([ready, timedOut]);
    if (timer)
      clearTimeout(timer);
    if (reason === undefined) {
      const message = `timeout: ${lastReport}`;
      if (json)
        out(JSON.stringify({ ok: false, exitCode: 1, timeout: true, error: message }));
      io.stderr(`${message}
`);
      return 1;
    }
    const next = await client.acp("next", { folder: task, participant });
    const { ok: _ok, ...rest } = next;
    if (json)
      out(JSON.stringify({ ...rest, ok: true, exitCode: 0, ready: reason.slice("ready: ".length) }));
    else
      out(`${reason}
${core.formatNext(rest)}`);
    return 0;
  } catch (error) {
    if (error instanceof RpcResponseError)
      throw new core.AcpError(describe(error));
    return fail(ctx, error);
  } finally {
    client?.close();
  }
}
export {
  rpcCommand,
  rpcContext,
  serveCommand,
  waitViaServer
};
