/**
 * Python 3.11 semantics the protocol inherits (spec §8a, §8b): `str.isspace`,
 * `strip`, `repr`, `sorted`, `re.MULTILINE` anchors, `json.dumps` layout.
 * The other tools are Python scripts, so where JavaScript differs the core
 * uses these. Pure functions (decodeText raises the core's AcpError).
 * @module
 */
import { AcpError } from './errors.ts';
import { PY_NOT_PRINTABLE_RUNS } from './py-printable.ts';
import { dumpsPy, isPyNumber, pyKeys, pyNumberRepr } from './pyjson.ts';
import { sha256, toHex } from './sha256.ts';
import { nodeCrypto } from './util.ts';

/** Python's `str.isspace()` set; `\s` in the spec's patterns means this. */
export const PY_SPACE = '\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Python's `\s`. */
export const S = `[${PY_SPACE}]`;
/** `^` of Python's MULTILINE mode: start of text or just after `\n`. */
export const BOL = '(?<![^\\n])';
/** `$` of Python's MULTILINE mode: before `\n` or at the end of text. */
export const EOL = '(?=\\n|(?![\\s\\S]))';
/** Python's `.`: anything but `\n`. */
export const DOT = '[^\\n]';
/** White space but `\n`. */
export const H = `[${PY_SPACE.replace('\\n', '')}]`;
/**
 * Placed after {@link BOL} before a leading `\s*`: skip a line start whose
 * line is preceded by blank lines. The attempt from the first line start of
 * that white space gives the same result (a `\s*` greedy up to a non-space
 * token matches the same from any start inside the run), and trying every
 * line start of a long blank run costs quadratic time.
 */
export const RUN_START = `(?<!(?:^|\\n)${H}*\\n)`;

/** Whether a UTF-16 code unit is in Python's `str.isspace()` set. */
export function isPySpaceCode(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    (code >= 0x1c && code <= 0x1f) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Python's `str.strip()` (a loop: `/\s+$/` takes quadratic time on long inner white space). */
export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPySpaceCode(text.charCodeAt(start))) start++;
  while (end > start && isPySpaceCode(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Python `repr()` of a JSON value, as the common tools print it in messages. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || isPyNumber(value)) return pyNumberRepr(value)!;
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    let out = quote;
    for (const ch of value) {
      const code = ch.codePointAt(0) ?? 0;
      if (ch === '\\') out += '\\\\';
      else if (ch === quote) out += `\\${quote}`;
      else if (ch === '\n') out += '\\n';
      else if (ch === '\r') out += '\\r';
      else if (ch === '\t') out += '\\t';
      else if ((code < 0x20 || code > 0x7e) && !isPyPrintable(code)) out += pyEscape(code);
      else out += ch;
    }
    return out + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    // Python's order: a parsed `{"b": 1, "2": 2}` stays in that order.
    return `{${pyKeys(value).map((k) => `${pyRepr(k)}: ${pyRepr((value as Record<string, unknown>)[k])}`).join(', ')}}`;
  }
  return String(value);
}

/** Starts and ends of the runs of {@link PY_NOT_PRINTABLE_RUNS}, decoded on first use. */
let notPrintable: { starts: Int32Array; ends: Int32Array } | undefined;

/**
 * Python 3.11's `str.isprintable()` for one code point: the categories Other
 * (Cc, Cf, Cs, Co, Cn) and Separator (Zs, Zl, Zp) but the ASCII space are
 * refused (ZWJ, NBSP, bidi marks, U+3000), in Unicode 14 (Python's tables,
 * not the engine's: U+1FAE8 is unassigned there, so escaped).
 */
export function isPyPrintable(code: number): boolean {
  if (code >= 0x20 && code <= 0x7e) return true;
  if (!notPrintable) {
    const runs = PY_NOT_PRINTABLE_RUNS.split(' ');
    const starts = new Int32Array(runs.length);
    const ends = new Int32Array(runs.length);
    let next = 0;
    runs.forEach((run, k) => {
      const [gap, length] = run.split('.') as [string, string];
      starts[k] = next + parseInt(gap, 36);
      ends[k] = starts[k]! + parseInt(length, 36);
      next = ends[k]! + 1;
    });
    notPrintable = { starts, ends };
  }
  const { starts, ends } = notPrintable;
  const k = firstAbove(starts, code) - 1;
  return k < 0 || code > ends[k]!;
}

/** `repr()`'s escape of one code point: `\xhh`, `\uhhhh` or `\Uhhhhhhhh`. */
function pyEscape(code: number): string {
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** Python `str()` of a JSON value (f-string interpolation). */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

/**
 * Key-sorted, 2-space, non-ASCII-preserving JSON with a trailing newline
 * (spec §2): `json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)`,
 * so every value read from protocol.json is written back as Python would.
 */
export function formatProtocolJson(value: unknown): string {
  return `${dumpsPy(value, { indent: 2, sortKeys: true })}\n`;
}

/** Compare strings by code point, as Python's `sorted()` does. */
export function comparePy(a: string, b: string): number {
  if (a === b) return 0;
  const ai = [...a];
  const bi = [...b];
  const n = Math.min(ai.length, bi.length);
  for (let i = 0; i < n; i++) {
    const d = (ai[i]!.codePointAt(0) ?? 0) - (bi[i]!.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return ai.length - bi.length;
}

/** Sort strings as Python's `sorted()` does. */
export function sortedPy(values: Iterable<string>): string[] {
  return [...values].sort(comparePy);
}

/** UTC, second precision, `Z` suffix (spec §2). */
export function formatTimestamp(date: Date): string {
  const year = date.getUTCFullYear();
  // toISOString() has V8 load the time zone database (~0.3 ms of a cold
  // process, once per append) though its answer is UTC; the UTC getters do
  // not. Years it writes with six digits and invalid dates keep its answer.
  if (!(year >= 0 && year <= 9999)) return `${date.toISOString().slice(0, 19)}Z`;
  const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
  return `${`${year}`.padStart(4, '0')}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}Z`;
}

/**
 * Lowercase hex SHA-256 of bytes. Up to {@link SMALL_DIGEST_BYTES}, in plain
 * TypeScript: loading WebCrypto costs a fresh Node process ~4 ms, more than
 * hashing a few kilobytes in the interpreter (the deliverables of a young
 * collaboration, which `status` hashes). Larger inputs take node:crypto's
 * digest (WebCrypto where there is no node:crypto).
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  if (bytes.length <= SMALL_DIGEST_BYTES) return toHex(sha256(bytes));
  const node = await nodeCrypto();
  if (node) return node.createHash('sha256').update(bytes).digest('hex');
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return toHex(new Uint8Array(digest));
}

/** Where the native digest starts to pay for its loading (measured: ~0.6 µs per byte cold here, ~4 ms to load). */
const SMALL_DIGEST_BYTES = 4096;

// datetime.fromisoformat (Python 3.11), for `at` values (spec §4).

const ISO_RE = /^(\d{4})-?(\d{2})-?(\d{2})(?:[^\d](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?)?(Z|z|[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:[.,]\d{1,6})?)?)?)?$/u;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number of `width` ASCII digits at `at`, or -1 if one is not a digit. */
function digitsAt(value: string, at: number, width: number): number {
  let out = 0;
  for (let k = at; k < at + width; k++) {
    const d = value.charCodeAt(k) - 0x30;
    if (d < 0 || d > 9) return -1;
    out = out * 10 + d;
  }
  return out;
}

/**
 * The form every tool writes, `YYYY-MM-DDTHH:MM:SSZ`, read without the
 * general pattern (validate reads one per event); `null` when `value` has
 * another form. Same results as the general path below.
 */
function parseCanonicalTimestamp(value: string): number | undefined | null {
  if (value.length !== 20) return null;
  if (value[4] !== '-' || value[7] !== '-' || value[10] !== 'T' || value[13] !== ':' || value[16] !== ':' || value[19] !== 'Z') return null;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  // Date.UTC maps years 0-99 to 1900-1999: leave them to the general path.
  if (year < 100 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** Parse an ISO-8601 time like Python's `datetime.fromisoformat`; `undefined` if invalid or without zone. */
export function parseZonedTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const canonical = parseCanonicalTimestamp(value);
  if (canonical !== null) return canonical;
  const match = ISO_RE.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0', zone] = match;
  if (!zone) return undefined;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(/:/g, '');
    offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0')) * 60_000;
    if (Number(digits.slice(0, 2)) > 23) return undefined;
  }
  return Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s)) + Number(`0.${frac}`) * 1000 - offset;
}

// A review heading (spec §7.1) is the pattern
//   ^##\s+.+?\s+-\s+(.+?)\s+-\s+seq\s+([0-9]+)\s*$   (multiline; \s includes \n)
// found with Python's `finditer`. A backtracking engine needs time quadratic
// (or worse) in the length of a line for it, so a hostile review.md with a
// long line hangs every validate. reviewHeadings finds exactly the matches
// of that pattern, in the engine's priority order, in O(n log n).

/** First index of `sorted` (ascending) whose value is > `value`. */
function firstAbove(sorted: Int32Array | number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! > value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The review headings of review.md: `{participant, seq}` per match of the
 * §7.1 pattern, as Python's `re.finditer` returns them.
 */
export function reviewHeadings(body: string): { participant: string; seq: number }[] {
  const headings: { participant: string; seq: number }[] = [];
  if (!body.includes('seq') || !body.includes('##')) return headings;
  const n = body.length;
  const space = (i: number): boolean => i < n && isPySpaceCode(body.charCodeAt(i));
  const dot = (i: number): boolean => i < n && body.charCodeAt(i) !== 10;
  // wsEnd[i]: the first index ≥ i that is not white space; nl[i]: the first \n at or after i.
  const wsEnd = new Int32Array(n + 1);
  const nl = new Int32Array(n + 1);
  wsEnd[n] = n;
  nl[n] = n;
  for (let i = n - 1; i >= 0; i--) {
    const code = body.charCodeAt(i);
    // Printable ASCII (the bulk of any review.md) is never white space: skip the full test.
    wsEnd[i] = code > 32 && code < 0x7f ? i : isPySpaceCode(code) ? wsEnd[i + 1]! : i;
    nl[i] = code === 10 ? i : nl[i + 1]!;
  }
  const wsStart = (i: number): number => {
    let r = i;
    while (r > 0 && space(r - 1)) r--;
    return r;
  };
  // The tail `\s+-\s+seq\s+([0-9]+)\s*$` is deterministic: it can only start in
  // the white space run [r, a) before a "tail dash" a. Tails never overlap,
  // so finding them all is linear.
  const tailR: number[] = [];
  const tailA: number[] = [];
  const tailSeq: string[] = [];
  const tailEnd: number[] = [];
  // Separator dashes: a `-` with white space on both sides (`\s+-\s+`).
  const sepD: number[] = [];
  const sepR: number[] = [];
  for (let a = body.indexOf('-'); a !== -1; a = body.indexOf('-', a + 1)) {
    if (!space(a - 1) || !space(a + 1)) continue;
    const r = wsStart(a);
    sepD.push(a);
    sepR.push(r);
    const c = wsEnd[a + 1]!;
    if (!body.startsWith('seq', c)) continue;
    const e = wsEnd[c + 3]!;
    if (e === c + 3) continue;
    let f = e;
    while (f < n && body.charCodeAt(f) >= 48 && body.charCodeAt(f) <= 57) f++;
    if (f === e) continue;
    const g = wsEnd[f]!;
    // `\s*$`: greedy, then back to the last line end inside the white space.
    let end = g === n ? n : -1;
    for (let k = g - 1; end === -1 && k >= f; k--) if (body.charCodeAt(k) === 10) end = k;
    if (end === -1) continue;
    tailR.push(r);
    tailA.push(a);
    tailSeq.push(body.slice(e, f));
    tailEnd.push(end);
  }
  if (!tailA.length) return headings;
  // The lazy participant `(.+?)` from p0: the first p1 on p0's line where a tail starts.
  const firstTail = (p0: number): { p1: number; k: number } | undefined => {
    const k = firstAbove(tailA, p0 + 1);
    if (k === tailA.length) return undefined;
    const p1 = Math.max(tailR[k]!, p0 + 1);
    return p1 <= nl[p0]! ? { p1, k } : undefined;
  };
  // After separator dash d: `\s+` (greedy, backtracking) then the participant.
  type Found = { participant: string; seq: string; end: number };
  const afterSep = (d: number): Found | undefined => {
    for (let p0 = wsEnd[d + 1]!; p0 >= d + 2; p0--) {
      if (!dot(p0)) continue;
      const t = firstTail(p0);
      if (t) return { participant: body.slice(p0, t.p1), seq: tailSeq[t.k]!, end: tailEnd[t.k]! };
    }
    return undefined;
  };
  // okFrom(k): the first separator index ≥ k whose continuation matches,
  // computed on demand; `skip` remembers scans already done (each separator
  // is examined once).
  const results = new Map<number, Found | undefined>();
  const skip = new Int32Array(sepD.length + 1).fill(-1);
  const okFrom = (k: number): number => {
    const visited: number[] = [];
    let j = k;
    while (j < sepD.length) {
      if (skip[j] !== -1) {
        j = skip[j]!;
        break;
      }
      visited.push(j);
      if (!results.has(j)) results.set(j, afterSep(sepD[j]!));
      if (results.get(j)) break;
      j++;
    }
    for (const v of visited) skip[v] = j;
    return j;
  };
  // The lazy title `.+?` from t0: the first separator whose white space starts on t0's line.
  const fromTitle = (t0: number): Found | undefined => {
    const k = okFrom(firstAbove(sepD, t0 + 1));
    return k < sepD.length && sepR[k]! <= nl[t0]! ? results.get(k) : undefined;
  };
  let from = 0;
  for (let b = body.startsWith('##') ? 0 : body.indexOf('\n##'); b !== -1; b = body.indexOf('\n##', b + 1)) {
    const start = body.charCodeAt(b) === 10 ? b + 1 : b;
    if (start < from) continue;
    const w = wsEnd[start + 2]!;
    // `##\s+` is greedy: the title starts as late as possible first.
    for (let t0 = w; t0 >= start + 3; t0--) {
      if (!dot(t0)) continue;
      const found = fromTitle(t0);
      if (!found) continue;
      headings.push({ participant: found.participant, seq: Number(found.seq) });
      from = Math.max(found.end, start + 1);
      break;
    }
  }
  return headings;
}

/**
 * `str(PurePosixPath(*parts))`: later absolute parts restart the path, empty
 * and `.` segments vanish, `..` stays, a leading `//` (exactly two) is kept,
 * and nothing left is `.`. The Python tools build deliverable references this
 * way, so `docs/` + `./x.md` is `docs/x.md` (issue 12 item 1).
 */
export function purePosixPath(...parts: string[]): string {
  let root = '';
  let segments: string[] = [];
  for (const part of parts) {
    if (part.startsWith('/')) {
      root = part.startsWith('//') && !part.startsWith('///') ? '//' : '/';
      segments = [];
    }
    for (const segment of part.split('/')) if (segment !== '' && segment !== '.') segments.push(segment);
  }
  const path = root + segments.join('/');
  return path === '' ? '.' : path;
}

/** The line breaks of Python's `str.splitlines()` but `\n` (and `\r`, which decodeText has made `\n`). */
const OTHER_LINE_BREAKS = /[\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/**
 * Python's `str.splitlines()`: lines end at `\n`, `\r\n`, `\r`, VT, FF,
 * `\x1c`–`\x1e`, NEL, U+2028 and U+2029; a final break adds no empty line.
 * The Python tools split events.jsonl so: a raw U+2028 ends a line there.
 */
export function pySplitLines(text: string): string[] {
  const lines = OTHER_LINE_BREAKS.test(text) ? text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/) : text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Whether `text` ends with a line break of {@link pySplitLines} (its last line is complete). */
export function endsWithLineBreak(text: string): boolean {
  return text.endsWith('\n') || OTHER_LINE_BREAKS.test(text.slice(-1));
}

/** Python's strict UTF-8 decoding with universal newlines (spec §8a); raises AcpError on invalid UTF-8. */
export function decodeText(bytes: Uint8Array, name: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new AcpError(`${name} is not valid UTF-8`);
  }
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}
