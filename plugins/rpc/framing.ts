// LSP-style framing for the Agent Communication Protocol (rpc.md "Wire"):
//
//   Content-Length: <bytes>\r\n
//   [Other-Header: value\r\n ...]
//   \r\n
//   <exactly that many bytes of UTF-8 JSON>
//
// Works on bytes only (Uint8Array), so it behaves the same on Node, Bun and
// Deno and counts lengths in bytes, never in UTF-16 code units. The decoder is
// incremental: headers may be split across reads at any byte, one read may
// carry many messages, and a message body is copied at most once.

const CR = 13;
const LF = 10;

/** Size limits the decoder enforces. */
export interface FrameLimits {
  /** Largest header block, terminator included (default 8 KiB). */
  maxHeaderBytes: number;
  /** Largest body a peer may announce (default 4 MiB). */
  maxBodyBytes: number;
}

/** The deepest nesting of arrays and objects a message may have (see {@link jsonShapeProblem}). */
export const MAX_NESTING_DEPTH = 64;
/** The most array elements and object members a message may hold in all (see {@link jsonShapeProblem}). */
export const MAX_JSON_ITEMS = 100_000;

/**
 * Why the JSON text in `body` must not be parsed, or `undefined`: nesting
 * deeper than `maxDepth`, or more than `maxItems` array elements and object
 * members in all. One linear pass over the bytes (strings and their escapes
 * skipped), made before JSON.parse, which spends seconds on megabytes of `[`
 * (and a third of a second on a million zeros) while every other client
 * waits. A body that is not JSON at all is left to JSON.parse to refuse.
 */
export function jsonShapeProblem(body: Uint8Array, maxDepth: number, maxItems = MAX_JSON_ITEMS): string | undefined {
  let depth = 0;
  let items = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > maxDepth) return `nested deeper than ${maxDepth} levels`;
    } else if (b === 0x5d || b === 0x7d) depth--;
    else if (b === 0x2c && ++items > maxItems) return `more than ${maxItems} array elements and object members`;
  }
  return undefined;
}

/** The server's default limits. */
export const DEFAULT_FRAME_LIMITS: Readonly<FrameLimits> = Object.freeze({ maxHeaderBytes: 8 * 1024, maxBodyBytes: 4 * 1024 * 1024 });

/**
 * What the decoder found:
 * - `message`: one complete body;
 * - `skip`: a well-framed body that cannot be read (a charset other than
 *   UTF-8); its bytes were skipped and the stream continues;
 * - `fatal`: the stream cannot be resynchronised (malformed or oversized
 *   header, body over the limit); nothing more is decoded.
 */
export type FrameEvent = { type: 'message'; body: Uint8Array } | { type: 'skip'; reason: string } | { type: 'fatal'; reason: string };

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

interface ParsedHeader {
  length: number;
  /** Set when the body must be skipped. */
  skip?: string;
}

const FAST_PREFIX = [...'Content-Length: '].map((c) => c.charCodeAt(0));

/** Parse a header block: the first `size` bytes of `bytes` (without the final blank line). Throws a reason string on malformed input. */
function parseHeader(bytes: Uint8Array, size: number, limits: FrameLimits): ParsedHeader {
  // Fast path: the usual lone `Content-Length: <digits>` line, read in place (no view, no string).
  if (size > FAST_PREFIX.length && size <= FAST_PREFIX.length + 15) {
    let i = 0;
    while (i < FAST_PREFIX.length && bytes[i] === FAST_PREFIX[i]) i++;
    if (i === FAST_PREFIX.length) {
      let n = 0;
      for (; i < size; i++) {
        const d = bytes[i]! - 48;
        if (d < 0 || d > 9) break;
        n = n * 10 + d;
      }
      if (i === size) {
        if (n > limits.maxBodyBytes) throw `message too large: Content-Length ${n} exceeds the limit of ${limits.maxBodyBytes} bytes`;
        return { length: n };
      }
    }
  }
  let text = '';
  for (let i = 0; i < size; i++) {
    const b = bytes[i]!;
    // Headers are ASCII; tabs are allowed inside values, other controls are not.
    if (b >= 0x80 || (b < 0x20 && b !== 0x09 && b !== CR && b !== LF) || b === 0x7f) throw 'malformed header: non-ASCII or control byte';
    text += String.fromCharCode(b);
  }
  let length: number | undefined;
  let skip: string | undefined;
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw `malformed header line: ${JSON.stringify(line.slice(0, 80))}`;
    const name = line.slice(0, colon);
    if (!HEADER_NAME.test(name)) throw `malformed header name: ${JSON.stringify(name.slice(0, 80))}`;
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    const key = name.toLowerCase();
    if (key === 'content-length') {
      if (!/^[0-9]{1,15}$/.test(value)) throw `invalid Content-Length: ${JSON.stringify(value.slice(0, 40))}`;
      const n = Number(value);
      if (length !== undefined && length !== n) throw 'conflicting Content-Length headers';
      length = n;
    } else if (key === 'content-type') {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(value)?.[1];
      if (charset !== undefined && !/^utf-?8$/i.test(charset)) skip = `unsupported charset '${charset}' (only utf-8 is accepted)`;
    }
  }
  if (length === undefined) throw 'missing Content-Length header';
  if (length > limits.maxBodyBytes) throw `message too large: Content-Length ${length} exceeds the limit of ${limits.maxBodyBytes} bytes`;
  return { length, skip };
}

/**
 * Incremental frame decoder. Feed it reads with {@link FrameDecoder.push};
 * it returns the events completed by that read, in order.
 */
export class FrameDecoder {
  private readonly limits: FrameLimits;
  private header: Uint8Array;
  private headerLength = 0;
  private mode: 'header' | 'body' | 'skip' | 'dead' = 'header';
  private body: Uint8Array | undefined;
  private need = 0;
  private got = 0;
  private skipReason = '';

  constructor(limits: Partial<FrameLimits> = {}) {
    this.limits = {
      maxHeaderBytes: limits.maxHeaderBytes ?? DEFAULT_FRAME_LIMITS.maxHeaderBytes,
      maxBodyBytes: limits.maxBodyBytes ?? DEFAULT_FRAME_LIMITS.maxBodyBytes,
    };
    this.header = new Uint8Array(Math.min(this.limits.maxHeaderBytes, 256));
  }

  /** Whether part of a message has been received but not all of it (what the stall timeout watches). */
  get midMessage(): boolean {
    return this.mode === 'body' || this.mode === 'skip' || this.headerLength > 0;
  }

  /**
   * Change the largest body a peer may announce from the next header on (the
   * server lifts a small pre-authentication limit once the peer is known).
   */
  setMaxBodyBytes(bytes: number): void {
    this.limits.maxBodyBytes = bytes;
  }

  /** Whether a fatal error stopped the decoder. */
  get dead(): boolean {
    return this.mode === 'dead';
  }

  /** Decode one read. */
  push(chunk: Uint8Array): FrameEvent[] {
    const events: FrameEvent[] = [];
    const n = chunk.length;
    let i = 0;
    while (i < n && this.mode !== 'dead') {
      if (this.mode === 'header') {
        const b = chunk[i++]!;
        // Blank lines between messages are tolerated (some hand-written clients add them).
        if (this.headerLength === 0 && (b === CR || b === LF)) continue;
        if (this.headerLength >= this.limits.maxHeaderBytes) {
          events.push(this.fail(`header too large: more than ${this.limits.maxHeaderBytes} bytes without a blank line`));
          break;
        }
        this.appendHeaderByte(b);
        if (b !== LF) continue;
        const h = this.header;
        const len = this.headerLength;
        if (len < 2 || h[len - 2] !== CR) {
          events.push(this.fail('malformed header: lines must end with CRLF'));
          break;
        }
        if (len < 4 || h[len - 3] !== LF || h[len - 4] !== CR) continue;
        let parsed: ParsedHeader;
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
          this.mode = 'skip';
          this.skipReason = parsed.skip;
        } else this.mode = 'body';
        if (this.need === 0) {
          if (this.mode === 'skip') {
            this.mode = 'header';
            events.push({ type: 'skip', reason: this.skipReason });
          } else this.finishBody(events, new Uint8Array(0));
        }
      } else if (this.mode === 'skip') {
        const take = Math.min(n - i, this.need - this.got);
        this.got += take;
        i += take;
        if (this.got === this.need) {
          this.mode = 'header';
          events.push({ type: 'skip', reason: this.skipReason });
        }
      } else {
        const take = Math.min(n - i, this.need - this.got);
        if (this.got === 0 && take === this.need) {
          // The whole body is inside this read: hand out a view, no copy.
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

  private appendHeaderByte(b: number): void {
    if (this.headerLength === this.header.length) {
      const bigger = new Uint8Array(Math.min(this.header.length * 2, this.limits.maxHeaderBytes));
      bigger.set(this.header);
      this.header = bigger;
    }
    this.header[this.headerLength++] = b;
  }

  private finishBody(events: FrameEvent[], body: Uint8Array): void {
    this.mode = 'header';
    this.need = 0;
    this.got = 0;
    events.push({ type: 'message', body });
  }

  private fail(reason: string): FrameEvent {
    this.mode = 'dead';
    this.body = undefined;
    this.headerLength = 0;
    return { type: 'fatal', reason };
  }
}

const encoder = new TextEncoder();

/** Room kept in front of the body for the header (`Content-Length: ` + 15 digits + CRLFCRLF). */
const HEADER_ROOM = 40;

/** Frame one JSON text: header and body in one buffer (one write). */
export function encodeFrame(json: string): Uint8Array {
  if (json.length > 65_536) {
    const body = encoder.encode(json);
    const header = encoder.encode(`Content-Length: ${body.length}\r\n\r\n`);
    const out = new Uint8Array(header.length + body.length);
    out.set(header, 0);
    out.set(body, header.length);
    return out;
  }
  // Small messages (the common case): encode the body once, straight into its place, then put the header
  // before it. ASCII text fits in json.length bytes; anything else gets the worst case (3 bytes per unit).
  let out = new Uint8Array(HEADER_ROOM + json.length);
  let { read, written } = encoder.encodeInto(json, out.subarray(HEADER_ROOM));
  if (read < json.length) {
    out = new Uint8Array(HEADER_ROOM + json.length * 3);
    ({ read, written } = encoder.encodeInto(json, out.subarray(HEADER_ROOM)));
  }
  const header = `Content-Length: ${written}\r\n\r\n`;
  const start = HEADER_ROOM - header.length;
  for (let i = 0; i < header.length; i++) out[start + i] = header.charCodeAt(i);
  return out.subarray(start, HEADER_ROOM + written);
}

type ByteLength = (text: string, encoding: 'utf8') => number;

/** Bytes of `text` in UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD, as every encoder writes it). */
export function utf8Length(text: string): number {
  // Node's and Bun's native count when there is one; the loop elsewhere (Deno).
  const native = (globalThis as { Buffer?: { byteLength: ByteLength } }).Buffer?.byteLength;
  return native ? native(text, 'utf8') : countUtf8(text);
}

/** {@link utf8Length} without native help. */
export function countUtf8(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: 4 bytes for 2 units.
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

/**
 * Frame one JSON text as a string, for streams whose write takes strings
 * (node:net sockets): header and body in one write, encoded by the runtime
 * without a JavaScript buffer. Undefined unless `json` is ASCII, so that the
 * stream's queue (which counts a string's length, not its bytes) keeps
 * counting bytes exactly; other texts take {@link encodeFrame}.
 */
export function frameText(json: string): string | undefined {
  const bytes = utf8Length(json);
  return bytes === json.length ? `Content-Length: ${bytes}\r\n\r\n${json}` : undefined;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Decode a body as strict UTF-8 (a leading BOM is dropped); throws on invalid bytes. */
export function decodeBody(body: Uint8Array): string {
  return strictDecoder.decode(body);
}
