/**
 * Python 3.11's `json` for events.jsonl and protocol.json: the one reader
 * and writer of both files. The other tools read and write them with
 * `json.loads` / `json.dumps`, and JavaScript's JSON differs where a value
 * must survive a rewrite untouched (issue 28): big ints, floats with an
 * integral value (`1.0`, `-0.0`, `1e16`), NaN and Infinity, keys that look
 * like array indexes (JavaScript objects list them first), `__proto__`, and
 * the error messages (`Expecting value: line 1 column 1 (char 0)`).
 *
 * Values: a Python int is a JavaScript number when it is a safe integer,
 * else a {@link PyInt}; a Python float is a number unless JavaScript would
 * take it for an int (an integral value: `1.0`, `-0.0`, `1e300`), which is a
 * {@link PyFloat}; NaN and ±Infinity are numbers. Objects keep Python's key
 * order through {@link pyKeys}. Pure functions, no imports.
 * @module
 */
import type { DumpOptions } from './types.ts';
export type { DumpOptions } from './types.ts';

/** A Python float whose value is integral (`1.0`, `-0.0`, `1e16`): a plain number would read as an int. */
export class PyFloat {
  /** The float's value. */
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
  /** Comparisons and arithmetic see the value, as Python's would. */
  valueOf(): number {
    return this.value;
  }
  /** acp's own JSON outputs (`--json`, RPC) see the number. */
  toJSON(): number {
    return this.value;
  }
}

/** A Python int beyond JavaScript's safe integers (`123456789012345678901234567890`). */
export class PyInt {
  /** The exact value. */
  readonly value: bigint;
  constructor(value: bigint) {
    this.value = value;
  }
  /** Comparisons see the nearest number. */
  valueOf(): number {
    return Number(this.value);
  }
  /** acp's own JSON outputs see the nearest number. */
  toJSON(): number {
    return Number(this.value);
  }
}

/** Whether `value` is one of the number wrappers (not a JSON object). */
export function isPyNumber(value: unknown): value is PyFloat | PyInt {
  return value instanceof PyFloat || value instanceof PyInt;
}

/** Whether `value` is a Python float as json.loads would give it (a number that is not an int, or a PyFloat). */
export function isPyFloat(value: unknown): boolean {
  return value instanceof PyFloat || (typeof value === 'number' && !Number.isInteger(value));
}

/**
 * Objects whose Python key order JavaScript cannot keep (they hold keys that
 * look like array indexes, which objects list first in ascending order).
 */
const KEY_ORDER = new WeakMap<object, string[]>();

/**
 * An object's keys in Python's order: the order json.loads gave them (first
 * occurrence of a duplicate key) while the key set is unchanged, else
 * JavaScript's.
 */
export function pyKeys(object: object): string[] {
  const keys = Object.keys(object);
  const order = KEY_ORDER.get(object);
  if (!order || order.length !== keys.length) return keys;
  for (const key of order) if (!Object.hasOwn(object, key)) return keys;
  return order;
}

/** A JSON syntax error in Python's words: `{msg}: line {l} column {c} (char {p})`, positions in code points. */
export class PyJsonError extends Error {
  /** The message without the position (`Expecting value`). */
  readonly msg: string;
  constructor(msg: string, text?: string, pos = 0) {
    super(text === undefined ? msg : positionText(msg, text, pos));
    this.msg = msg;
  }
}

/** `JSONDecodeError.__str__`: line, column and char count code points, as Python's str indexes do. */
function positionText(msg: string, text: string, pos: number): string {
  const head = text.slice(0, pos);
  const lineStart = head.lastIndexOf('\n') + 1;
  const lineno = (head.match(/\n/g)?.length ?? 0) + 1;
  const points = (s: string): number => s.length - (s.match(/[\ud800-\udbff][\udc00-\udfff]/g)?.length ?? 0);
  return `${msg}: line ${lineno} column ${points(head.slice(lineStart)) + 1} (char ${points(head)})`;
}

/** Python's int-to-string limit (`sys.get_int_max_str_digits()`), which json.loads obeys. */
const INT_MAX_STR_DIGITS = 4300;

/**
 * Whether JSON.parse might read `text` otherwise than json.loads: a float,
 * NaN/Infinity, an int of 16 digits or more, `-0`, or a key that looks like
 * an array index. A scan of the tokens that jumps over strings with
 * indexOf: exact for valid JSON (invalid JSON fails JSON.parse and takes the
 * Python-grammar parser anyway). A regex over every character of every line
 * cost validate as much again as JSON.parse (100k events).
 */
function needsPython(text: string): boolean {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = text.indexOf('"', i + 1);
      while (j !== -1 && isEscapedQuote(text, j)) j = text.indexOf('"', j + 1);
      if (j === -1) return true;
      if (j > i + 1 && isDigits(text, i + 1, j)) {
        let k = j + 1;
        while (k < n && isJsonSpace(text.charCodeAt(k))) k++;
        if (text.charCodeAt(k) === 0x3a) return true;
      }
      i = j + 1;
    } else if (c === 0x2d || isDigitCode(c)) {
      let j = c === 0x2d ? i + 1 : i;
      if (c === 0x2d && text.charCodeAt(j) === 0x30) return true;
      const first = j;
      while (j < n && isDigitCode(text.charCodeAt(j))) j++;
      const next = text.charCodeAt(j);
      if (j - first >= 16 || next === 0x2e || next === 0x65 || next === 0x45) return true;
      i = j;
    } else if (c === 0x4e || c === 0x49) return true;
    else i++;
  }
  return false;
}

/** Whether the quote at `at` is escaped (an odd run of backslashes before it). */
function isEscapedQuote(text: string, at: number): boolean {
  let k = at - 1;
  while (text.charCodeAt(k) === 0x5c) k--;
  return (at - 1 - k) % 2 === 1;
}

/** Whether text[from, to) is ASCII digits only. */
function isDigits(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!isDigitCode(text.charCodeAt(k))) return false;
  return true;
}

/**
 * How deep containers may nest. json.loads fails with a RecursionError (a
 * crash of the Python tools) a little below 1000 levels; acp refuses beyond
 * 1000 with that error's words, so every value it reads can be written back.
 */
export const MAX_DEPTH = 1000;

/**
 * `json.loads(text)` (Python 3.11). Throws {@link PyJsonError} with
 * Python's message; the int-digits limit and nesting beyond
 * {@link MAX_DEPTH} give the words of Python's ValueError and RecursionError.
 */
export function loadsPy(text: string): unknown {
  return needsPython(text) ? parsePython(text) : loadsContainer(text);
}

/**
 * What reads each line of `text`, a run of whole lines of the log, as
 * json.loads does: {@link loadsPy} when a number of `text` may be a float
 * or an array may hold one, else {@link loadsFlatObject} (JSON.parse, and
 * loadsPy for the rare line whose value it cannot vouch for). What JSON.parse may read
 * otherwise than json.loads: a float with an integral value (`1.0` parses
 * to 1, an int to Python), -0, an int beyond 2^53, a key that looks like an
 * array index (JavaScript lists it first, Python keeps the order). Without
 * `[` every number of a line stands after a member's colon, and
 * {@link hasFloatNumber} finds each one with a fraction or an exponent; the
 * rest shows in the parsed value (loadsFlatObject). One search per piece of
 * the log stands in for a scan of every line: a regular expression over
 * every colon of the log cost a tenth of a first validate (issue 42).
 */
export function lineReader(text: string): (line: string) => unknown {
  return text.includes('[') || hasFloatNumber(text) ? loadsPy : loadsFlatObject;
}

/**
 * A member's float: a digit followed by a fraction or an exponent (where
 * every float's text has one: JSON puts a digit after `.` and after `e` and
 * its sign), then, looked at backwards from there, its other digits, a
 * minus sign, white space and a colon. In a string, `v1.5` or `1.5 words`
 * costs only the look back; a string's `: 1.5` is a false alarm.
 */
const MEMBER_FLOAT = /\d(?:\.\d|[eE][-+]?\d)(?<=:[ \t\n\r]*-?\d+(?:\.\d|[eE][-+]?\d))/;

/**
 * Whether a number after a colon in `text` has a fraction or an exponent.
 * One search by {@link MEMBER_FLOAT}: the regular expression engine looks
 * back from each candidate itself. The earlier search returned to
 * JavaScript at each candidate and walked back there, which cost a first
 * validate of 100k events whose summaries hold a `1.5` ~29 ms of CPU
 * against ~11 ms now (Node 20; Bun ~24 against ~15).
 */
function hasFloatNumber(text: string): boolean {
  return MEMBER_FLOAT.test(text);
}

/** Whether a UTF-16 code (or a byte) is an ASCII digit. */
export function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * A line of a piece {@link lineReader} found no float in (no `[`, no
 * fraction or exponent after a colon): JSON.parse, when its value is an
 * object {@link readsAsPython} vouches for; else (-0, a long int, an index
 * key, nesting beyond MAX_DEPTH) {@link loadsPy}.
 */
function loadsFlatObject(text: string): unknown {
  const value = parsedByJson(text);
  if (value === REFUSED) return parsePython(text);
  return typeof value === 'object' && value !== null && readsAsPython(value, 1) ? value : loadsPy(text);
}

/**
 * Whether JSON.parse gave `value` (an object at nesting `depth`, parsed
 * from a line without `[` or a float) as json.loads would: its first key
 * does not start with a digit (JavaScript lists array-index keys first,
 * Python keeps their order), its numbers are safe ints other than -0, and
 * so are the objects it holds, to {@link MAX_DEPTH} levels.
 */
function readsAsPython(value: object, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  let first = true;
  for (const key in value) {
    if (first && isDigitCode(key.charCodeAt(0))) return false;
    first = false;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'number' ? !Number.isSafeInteger(item) || Object.is(item, -0) : typeof item === 'object' && item !== null && !readsAsPython(item, depth + 1)) return false;
  }
  return true;
}

/** What {@link parsedByJson} gives for a text JSON.parse refuses. */
const REFUSED: unique symbol = Symbol('refused by JSON.parse');

/** JSON.parse of `text`, or {@link REFUSED}: then the exact parser reads it (NaN and Infinity) or says, in Python's words, why not. */
function parsedByJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return REFUSED;
  }
}

/** `text` read by JSON.parse, when it is a container JSON.parse reads as json.loads does (the caller has made sure of its numbers and keys); else the exact parser's reading. */
function loadsContainer(text: string): unknown {
  const value = parsedByJson(text);
  if (value === REFUSED) return parsePython(text);
  // A scalar document (`1.0`) is left to the parser below (the tests look after separators only);
  // nesting deeper than MAX_DEPTH takes two characters a level.
  if (typeof value === 'object' && value !== null && (text.length <= 2 * MAX_DEPTH || depthOf(value) <= MAX_DEPTH)) return value;
  return parsePython(text);
}

/** How deep a parsed value nests (a scalar is 0), without recursion. */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    max = Math.max(max, depth + 1);
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return max;
}

/** JSON white space as json's scanner skips it. */
function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** A container being filled by {@link parsePython}. */
type Frame = { array: unknown[]; object?: undefined; key?: undefined } | { array?: undefined; object: Record<string, unknown>; key: string; keys: string[]; indexLike: boolean };

/** The slow path of {@link loadsPy}: the C scanner's grammar and errors, iteratively (no recursion limit). */
export function parsePython(text: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) throw new PyJsonError('Unexpected UTF-8 BOM (decode using utf-8-sig)', text, 0);
  const n = text.length;
  let i = 0;
  const skip = (): void => {
    while (i < n && isJsonSpace(text.charCodeAt(i))) i++;
  };
  const stack: Frame[] = [];
  let result: unknown;
  skip();
  let value: unknown;
  // Each turn reads one value at i (opening containers as it goes), then closes what it can.
  for (;;) {
    const code = text.charCodeAt(i);
    if (code === 0x7b || code === 0x5b) {
      if (stack.length >= MAX_DEPTH) throw new PyJsonError(`maximum recursion depth exceeded while decoding a JSON ${code === 0x5b ? 'array' : 'object'} from a unicode string`);
      i++;
      skip();
      if (code === 0x5b) {
        if (text.charCodeAt(i) === 0x5d) {
          i++;
          value = [];
        } else {
          stack.push({ array: [] });
          continue;
        }
      } else if (text.charCodeAt(i) === 0x7d) {
        i++;
        value = {};
      } else {
        stack.push({ object: {}, key: readKey(), keys: [], indexLike: false });
        continue;
      }
    } else value = scalar();
    // Close containers while the value completes them.
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) {
        result = value;
        break;
      }
      if (top.array) top.array.push(value);
      else setKey(top, value);
      skip();
      const next = text.charCodeAt(i);
      const close = top.array ? 0x5d : 0x7d;
      if (i < n && next === close) {
        i++;
        stack.pop();
        value = top.array ?? finishObject(top);
        continue;
      }
      if (i >= n || next !== 0x2c) throw new PyJsonError("Expecting ',' delimiter", text, i);
      i++;
      skip();
      if (top.object) top.key = readKey();
      break;
    }
    if (!stack.length) break;
  }
  skip();
  if (i !== n) throw new PyJsonError('Extra data', text, i);
  return result;

  /** `"key"` then `:` and white space, leaving i at the value. */
  function readKey(): string {
    if (i >= n || text.charCodeAt(i) !== 0x22) throw new PyJsonError('Expecting property name enclosed in double quotes', text, i);
    const key = readString();
    skip();
    if (i >= n || text.charCodeAt(i) !== 0x3a) throw new PyJsonError("Expecting ':' delimiter", text, i);
    i++;
    skip();
    return key;
  }

  /** A string, number or constant at i; "Expecting value" where none starts. */
  function scalar(): unknown {
    const code = text.charCodeAt(i);
    if (code === 0x22) return readString();
    if (code === 0x6e && text.startsWith('null', i)) return (i += 4), null;
    if (code === 0x74 && text.startsWith('true', i)) return (i += 4), true;
    if (code === 0x66 && text.startsWith('false', i)) return (i += 5), false;
    if (code === 0x4e && text.startsWith('NaN', i)) return (i += 3), Number.NaN;
    if (code === 0x49 && text.startsWith('Infinity', i)) return (i += 8), Infinity;
    if (code === 0x2d && text.startsWith('-Infinity', i)) return (i += 9), -Infinity;
    return readNumber();
  }

  /** `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`, ASCII digits only (the C scanner's). */
  function readNumber(): unknown {
    const start = i;
    let j = i;
    const digit = (k: number): boolean => isDigitCode(text.charCodeAt(k));
    if (text.charCodeAt(j) === 0x2d) j++;
    if (j < n && text.charCodeAt(j) >= 0x31 && text.charCodeAt(j) <= 0x39) {
      j++;
      while (j < n && digit(j)) j++;
    } else if (j < n && text.charCodeAt(j) === 0x30) j++;
    else throw new PyJsonError('Expecting value', text, start);
    let float = false;
    if (text.charCodeAt(j) === 0x2e && digit(j + 1)) {
      j += 2;
      while (j < n && digit(j)) j++;
      float = true;
    }
    const e = text.charCodeAt(j);
    if (e === 0x65 || e === 0x45) {
      let k = j + 1;
      if (text.charCodeAt(k) === 0x2b || text.charCodeAt(k) === 0x2d) k++;
      if (digit(k)) {
        while (k < n && digit(k)) k++;
        j = k;
        float = true;
      }
    }
    i = j;
    const token = text.slice(start, j);
    return float ? pyFloatOf(Number(token)) : pyIntOf(token);
  }

  /** A string whose opening quote is at i (the C scanner's scanstring, strict). */
  function readString(): string {
    const begin = i + 1;
    let j = begin;
    let out = '';
    let chunk = begin;
    for (;;) {
      let c = 0;
      while (j < n) {
        c = text.charCodeAt(j);
        if (c === 0x22 || c === 0x5c) break;
        if (c <= 0x1f) throw new PyJsonError('Invalid control character at', text, j);
        j++;
      }
      if (j >= n) throw new PyJsonError('Unterminated string starting at', text, begin - 1);
      out += text.slice(chunk, j);
      if (c === 0x22) {
        i = j + 1;
        return out;
      }
      j++;
      if (j >= n) throw new PyJsonError('Unterminated string starting at', text, begin - 1);
      const esc = text[j]!;
      if (esc !== 'u') {
        const simple = SIMPLE_ESCAPES[esc];
        if (simple === undefined) throw new PyJsonError('Invalid \\escape', text, j - 1);
        out += simple;
        j++;
      } else {
        let unit = hex4(j + 1);
        j += 5;
        if (unit >= 0xd800 && unit <= 0xdbff && text.charCodeAt(j) === 0x5c && text.charCodeAt(j + 1) === 0x75) {
          const low = hex4(j + 2);
          if (low >= 0xdc00 && low <= 0xdfff) {
            out += String.fromCharCode(unit);
            unit = low;
            j += 6;
          }
        }
        out += String.fromCharCode(unit);
      }
      chunk = j;
    }
  }

  /** Four hex digits at k; `Invalid \\uXXXX escape` at the `u` otherwise, or when nothing follows them (the C scanner's test). */
  function hex4(k: number): number {
    if (k + 4 >= n) throw new PyJsonError('Invalid \\uXXXX escape', text, k - 1);
    let out = 0;
    for (let m = k; m < k + 4; m++) {
      const d = HEX.indexOf(text[m]!);
      if (d === -1) throw new PyJsonError('Invalid \\uXXXX escape', text, k - 1);
      out = out * 16 + (d > 15 ? d - 6 : d);
    }
    return out;
  }
}

/** An int token's value; past Python's int-digits limit, the ValueError json.loads raises (no position). */
function pyIntOf(token: string): number | PyInt {
  const digits = token.length - (token.charCodeAt(0) === 0x2d ? 1 : 0);
  if (digits <= 15) return token === '-0' ? 0 : Number(token);
  if (digits > INT_MAX_STR_DIGITS) {
    throw new PyJsonError(`Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`);
  }
  const big = BigInt(token);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : new PyInt(big);
}

/** `0-9a-fA-F` with the upper case after the lower (index 16-21 → 10-15). */
const HEX = '0123456789abcdefABCDEF';

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** A float value as json.loads gives it: a PyFloat when a number would read as an int. */
function pyFloatOf(value: number): number | PyFloat {
  return Number.isInteger(value) ? new PyFloat(value) : value;
}

/** Whether `key` is one JavaScript objects list first (an array index). */
function isIndexKey(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}

/** Set a key as a dict does (last value wins, first position kept); `__proto__` is an ordinary key. */
function setKey(frame: Extract<Frame, { keys: string[] }>, value: unknown): void {
  const { object, key } = frame;
  if (!Object.hasOwn(object, key)) {
    frame.keys.push(key);
    if (isIndexKey(key)) frame.indexLike = true;
  }
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

function finishObject(frame: Extract<Frame, { keys: string[] }>): Record<string, unknown> {
  if (frame.indexLike) KEY_ORDER.set(frame.object, frame.keys);
  return frame.object;
}

/**
 * Python's `repr(float)`: the shortest digits that read back, fixed
 * notation for exponents -4 to 15 (with `.0` when integral), else
 * `1e+16` / `1e-07`.
 */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = value.toExponential().split('e') as [string, string];
  const e = Number(exp);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  if (e < -4 || e >= 16) {
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${head}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  if (digits.length <= e + 1) return `${sign}${digits}${'0'.repeat(e + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
}

/** A number's text in Python: ints as ints, floats by {@link pyFloatRepr}; `undefined` for a non-number. */
export function pyNumberRepr(value: unknown): string | undefined {
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (value instanceof PyInt) return value.value.toString();
  if (typeof value !== 'number') return undefined;
  return Number.isInteger(value) && !Object.is(value, -0) ? String(value) : pyFloatRepr(value);
}

/** A number as json.dumps writes it (`NaN`, `Infinity` for the non-finite). */
function jsonNumber(value: number | PyFloat | PyInt): string {
  const plain = typeof value === 'number' ? value : value instanceof PyFloat ? value.value : undefined;
  if (plain !== undefined && !Number.isFinite(plain)) return Number.isNaN(plain) ? 'NaN' : plain > 0 ? 'Infinity' : '-Infinity';
  return pyNumberRepr(value)!;
}

/**
 * `json.dumps(value, ensure_ascii=False, …)`: non-ASCII kept, the float and
 * int texts of Python, keys in Python order. Lone surrogates are written as
 * `\udxxx` escapes (Python writes them raw and then fails to encode the
 * file). `undefined` members are left out, as JSON.stringify does.
 */
export function dumpsPy(value: unknown, options: DumpOptions = {}): string {
  const indent = options.indent;
  const colon = indent === undefined ? ':' : ': ';
  const write = (v: unknown, depth: number): string | undefined => {
    if (v === null) return 'null';
    if (v === true) return 'true';
    if (v === false) return 'false';
    if (typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'number' || isPyNumber(v)) return jsonNumber(v);
    if (typeof v === 'bigint') return v.toString();
    if (typeof v !== 'object') return undefined;
    const inner = indent === undefined ? '' : `\n${' '.repeat(indent * (depth + 1))}`;
    const outer = indent === undefined ? '' : `\n${' '.repeat(indent * depth)}`;
    if (Array.isArray(v)) {
      if (!v.length) return '[]';
      return `[${inner}${v.map((item) => write(item, depth + 1) ?? 'null').join(`,${inner}`)}${outer}]`;
    }
    const keys = pyKeys(v);
    if (options.sortKeys) keys.sort(compareCodePoints);
    const parts: string[] = [];
    for (const key of keys) {
      const text = write((v as Record<string, unknown>)[key], depth + 1);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}${colon}${text}`);
    }
    return parts.length ? `{${inner}${parts.join(`,${inner}`)}${outer}}` : '{}';
  };
  return write(value, 0) ?? 'null';
}

/** Code point order (Python's string comparison); UTF-16 order differs only past U+FFFF against U+E000–U+FFFF. */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const x = a.charCodeAt(k);
    const y = b.charCodeAt(k);
    if (x === y) continue;
    const ax = a.codePointAt(k)!;
    const by = b.codePointAt(k)!;
    return ax - by;
  }
  return a.length - b.length;
}
