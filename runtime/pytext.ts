/**
 * Python 3.11 semantics the protocol inherits (spec §8a, §8b): `str.isspace`,
 * `strip`, `repr`, `sorted`, `re.MULTILINE` anchors, `json.dumps` layout.
 * The other tools are Python scripts, so where JavaScript differs the core
 * uses these. Pure functions (decodeText raises the core's AcpError).
 * @module
 */
import { AcpError } from './errors.ts';
import { PY_NOT_PRINTABLE_RUNS } from './py-printable.ts';
import { dumpsPy, isDigitCode, isPyNumber, pyKeys, pyNumberRepr } from './pyjson.ts';
import { sha256, toHex } from './sha256.ts';
import { getBuiltin, nodeCrypto } from './util.ts';
import type { PyInstant } from './types.ts';
export type { PyInstant } from './types.ts';

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

/** `text` as a regular expression that matches it literally. */
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
  const list = [...values];
  // A replay sorts a list of one name at each proposal and review (10k of a 100k-event log): it needs no sort.
  return list.length < 2 ? list : list.sort(comparePy);
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

// datetime.fromisoformat, as Python 3.11's C implementation (the one python3
// runs) reads a string: over its UTF-8 bytes with a NUL after the end, which
// its parsers stop at (`…Z\0x` is a time), a single character of any kind
// between the date and the time, up to six fraction digits kept and the rest
// skipped, ISO week dates. Then the datetime constructor's range checks.

/** What `datetime.fromisoformat` returns: the fields, the UTC offset in microseconds (`null`: a naive time) and the instant. */
export interface PyDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  offset: number | null;
}

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DAYS_BEFORE_MONTH = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
/** `ymd_to_ord(1970, 1, 1)`. */
const EPOCH_ORDINAL = 719163;
const isLeap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysInMonth = (year: number, month: number): number => (month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month] ?? 0));
/** C's integer division (truncating): the week-date arithmetic runs unchecked on year 0 in CPython, and its result must be the same. */
const cdiv = (a: number, b: number): number => Math.trunc(a / b);

/** CPython's `ymd_to_ord` (1 = 0001-01-01). */
function ymdToOrd(year: number, month: number, day: number): number {
  const y = year - 1;
  return y * 365 + cdiv(y, 4) - cdiv(y, 100) + cdiv(y, 400) + (DAYS_BEFORE_MONTH[month] ?? 0) + (month > 2 && isLeap(year) ? 1 : 0) + day;
}

/** CPython's `ord_to_ymd`, with C's arithmetic (it is reached with ordinals below 1 for year 0000). */
function ordToYmd(ordinal: number): [number, number, number] {
  let n = ordinal - 1;
  const n400 = cdiv(n, 146097);
  n %= 146097;
  let year = n400 * 400 + 1;
  const n100 = cdiv(n, 36524);
  n %= 36524;
  const n4 = cdiv(n, 1461);
  n %= 1461;
  const n1 = cdiv(n, 365);
  n %= 365;
  year += n100 * 100 + n4 * 4 + n1;
  if (n1 === 4 || n100 === 4) return [year - 1, 12, 31];
  const leap = n1 === 3 && (n4 !== 24 || n100 === 3);
  let month = (n + 50) >> 5;
  let preceding = (DAYS_BEFORE_MONTH[month] ?? 0) + (month > 2 && leap ? 1 : 0);
  if (preceding > n) {
    month -= 1;
    preceding -= daysInMonth(year, month);
  }
  return [year, month, n - preceding + 1];
}

/** CPython's `iso_to_ymd`: a week date to a calendar date, or `undefined` for a bad week or weekday. */
function isoToYmd(year: number, week: number, weekday: number): [number, number, number] | undefined {
  const firstWeekday = (ymdToOrd(year, 1, 1) + 6) % 7;
  if ((week <= 0 || week >= 53) && !(week === 53 && (firstWeekday === 3 || (firstWeekday === 2 && isLeap(year))))) return undefined;
  if (weekday <= 0 || weekday >= 8) return undefined;
  const firstDay = ymdToOrd(year, 1, 1);
  const dayOfWeek = (firstDay + 6) % 7;
  const week1Monday = firstDay - dayOfWeek + (dayOfWeek > 3 ? 7 : 0);
  return ordToYmd(week1Monday + (week - 1) * 7 + weekday - 1);
}

/** A cursor over the UTF-8 bytes of the string, 0 past the end (CPython reads its NUL terminator). */
type Bytes = { at(i: number): number };

/** `parse_digits`: `count` ASCII digits at `p`, or `undefined`. */
function digits(b: Bytes, p: number, count: number): number | undefined {
  let value = 0;
  for (let k = 0; k < count; k++) {
    const d = b.at(p + k) - 0x30;
    if (d < 0 || d > 9) return undefined;
    value = value * 10 + d;
  }
  return value;
}

/** `_find_isoformat_datetime_separator`: where the date ends (-1: nowhere). */
function dateEnd(b: Bytes, len: number): number {
  if (len === 7) return 7;
  if (b.at(4) === 0x2d) {
    if (b.at(5) !== 0x57) return 10;
    if (len > 8 && b.at(8) === 0x2d) return len === 9 ? -1 : len > 10 && isDigitCode(b.at(10)) ? 8 : 10;
    return 8;
  }
  if (b.at(4) !== 0x57) return 8;
  let idx = 7;
  while (idx < len && isDigitCode(b.at(idx))) idx++;
  return idx < 9 ? idx : idx % 2 === 0 ? 7 : 8;
}

/** `parse_isoformat_date`: [year, month, day] or `undefined`. */
function parseDate(b: Bytes, len: number): [number, number, number] | undefined {
  const year = digits(b, 0, 4);
  if (year === undefined) return undefined;
  const dash = b.at(4) === 0x2d;
  let p = dash ? 5 : 4;
  if (b.at(p) === 0x57) {
    const week = digits(b, p + 1, 2);
    if (week === undefined) return undefined;
    p += 3;
    let weekday = 1;
    if (p < len) {
      if (dash && b.at(p++) !== 0x2d) return undefined;
      const d = digits(b, p, 1);
      if (d === undefined) return undefined;
      weekday = d;
    }
    return isoToYmd(year, week, weekday);
  }
  const month = digits(b, p, 2);
  if (month === undefined) return undefined;
  p += 2;
  if (dash && b.at(p++) !== 0x2d) return undefined;
  const day = digits(b, p, 2);
  return day === undefined ? undefined : [year, month, day];
}

/** `parse_hh_mm_ss_ff` over [p, end): the fields and whether text is left (`more`), or `undefined`. */
function parseClock(b: Bytes, p: number, end: number): { fields: [number, number, number, number]; more: boolean } | undefined {
  const fields: [number, number, number, number] = [0, 0, 0, 0];
  let colons = true;
  for (let i = 0; i < 3; i++) {
    const value = digits(b, p, 2);
    if (value === undefined) return undefined;
    fields[i] = value;
    p += 2;
    const c = b.at(p++);
    if (i === 0) colons = c === 0x3a;
    if (p >= end) return { fields, more: c !== 0 };
    if (colons && c === 0x3a) continue;
    if (c === 0x2e || c === 0x2c) break;
    if (colons) return undefined;
    p--;
  }
  const count = Math.min(6, end - p);
  const fraction = digits(b, p, count);
  if (fraction === undefined) return undefined;
  fields[3] = count > 0 ? fraction * 10 ** (6 - count) : 0;
  p += count;
  while (isDigitCode(b.at(p))) p++;
  return { fields, more: b.at(p) !== 0 };
}

/** `parse_isoformat_time` of [p, end): the clock and the offset (µs, `null` for none), or `undefined`. */
function parseTime(b: Bytes, p: number, end: number): { clock: [number, number, number, number]; offset: [number, number] | null } | undefined {
  let zone = p;
  do {
    const c = b.at(zone);
    if (c === 0x5a || c === 0x2b || c === 0x2d) break;
  } while (++zone < end);
  const clock = parseClock(b, p, zone);
  if (!clock) return undefined;
  if (zone === end) return clock.more ? undefined : { clock: clock.fields, offset: null };
  if (b.at(zone) === 0x5a) return b.at(zone + 1) !== 0 ? undefined : { clock: clock.fields, offset: [0, 0] };
  const sign = b.at(zone) === 0x2d ? -1 : 1;
  const tz = parseClock(b, zone + 1, end);
  if (!tz || tz.more) return undefined;
  const [h, m, s, us] = tz.fields;
  return { clock: clock.fields, offset: [sign * (h * 3600 + m * 60 + s), sign * us] };
}

/** Python's `repr()` of `timedelta(seconds=s, microseconds=us)`, normalised as timedelta does. */
function timedeltaRepr(seconds: number, micros: number): string {
  const total = seconds * 1_000_000 + micros;
  const us = ((total % 1_000_000) + 1_000_000) % 1_000_000;
  const wholeSeconds = (total - us) / 1_000_000;
  const days = Math.floor(wholeSeconds / 86400);
  const secs = wholeSeconds - days * 86400;
  const parts = [days ? `days=${days}` : '', secs ? `seconds=${secs}` : '', us ? `microseconds=${us}` : ''].filter(Boolean);
  return `datetime.timedelta(${parts.length ? parts.join(', ') : '0'})`;
}

/** The datetime constructor's checks, in its order: the ValueError text, or `undefined`. */
function rangeError(year: number, month: number, day: number, hour: number, minute: number, second: number): string | undefined {
  if (year < 1 || year > 9999) return `year ${year} is out of range`;
  if (month < 1 || month > 12) return 'month must be in 1..12';
  if (day < 1 || day > daysInMonth(year, month)) return 'day is out of range for month';
  if (hour > 23) return 'hour must be in 0..23';
  if (minute > 59) return 'minute must be in 0..59';
  if (second > 59) return 'second must be in 0..59';
  return undefined;
}

/**
 * Python 3.11's `datetime.fromisoformat(value)`: the datetime, or the
 * ValueError's text. Property-tested against python3 (test/pytext.test.ts).
 */
export function pyFromIsoFormat(value: string): PyDateTime | { error: string } {
  const invalid = { error: `Invalid isoformat string: ${pyRepr(value)}` };
  const points = Array.from(value);
  if (points.length < 7) return invalid;
  // A lone surrogate is allowed as the separator only (the first at 7, 8 or 10 becomes `T`).
  const at = [7, 8, 10].find((k) => k < points.length && /^[\ud800-\udfff]$/.test(points[k]!));
  if (at !== undefined) points[at] = 'T';
  const text = points.join('');
  if (/[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))) return invalid;
  const utf8 = new TextEncoder().encode(text);
  const len = utf8.length;
  const b: Bytes = { at: (i) => (i >= 0 && i < len ? utf8[i]! : 0) };
  const end = dateEnd(b, len);
  if (end < 0) return invalid;
  const date = parseDate(b, end);
  if (!date) return invalid;
  let time: ReturnType<typeof parseTime> = { clock: [0, 0, 0, 0], offset: null };
  if (len > end) {
    const lead = b.at(end);
    const start = end + ((lead & 0x80) === 0 ? 1 : (lead & 0xf0) === 0xe0 ? 3 : (lead & 0xf0) === 0xf0 ? 4 : 2);
    time = parseTime(b, start, len);
    if (!time) return invalid;
  }
  const [year, month, day] = date;
  const [hour, minute, second, microsecond] = time.clock;
  let offset: number | null = null;
  if (time.offset) {
    const [seconds, micros] = time.offset;
    // CPython makes an offset of 0 seconds UTC whatever its microseconds.
    offset = seconds === 0 ? 0 : seconds * 1_000_000 + micros;
    if (offset <= -86_400_000_000 || offset >= 86_400_000_000) {
      return { error: `offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not ${timedeltaRepr(seconds, micros)}.` };
    }
  }
  const error = rangeError(year, month, day, hour, minute, second);
  return error ? { error } : { year, month, day, hour, minute, second, microsecond, offset };
}

/** The first and last UTC second a Python datetime holds (years 1–9999). */
const MIN_SECONDS = (1 - EPOCH_ORDINAL) * 86400;
const MAX_SECONDS = (ymdToOrd(9999, 12, 31) + 1 - EPOCH_ORDINAL) * 86400 - 1;

/** The UTC instant of a datetime with a zone, or `undefined` when it leaves years 1–9999 (where Python's conversion to UTC raises OverflowError). */
function utcInstant(d: PyDateTime & { offset: number }): PyInstant | undefined {
  const local = (ymdToOrd(d.year, d.month, d.day) - EPOCH_ORDINAL) * 86400 + d.hour * 3600 + d.minute * 60 + d.second;
  const offsetSeconds = Math.floor(d.offset / 1_000_000);
  let micros = d.microsecond - (d.offset - offsetSeconds * 1_000_000);
  let seconds = local - offsetSeconds;
  if (micros < 0) {
    micros += 1_000_000;
    seconds -= 1;
  }
  return seconds < MIN_SECONDS || seconds > MAX_SECONDS ? undefined : [seconds, micros];
}

/** The form every tool writes, a character per position: `0` stands for an ASCII digit, any other character for itself and ends a field. */
const CANONICAL_FORM = '0000-00-00T00:00:00Z';

/**
 * The UTC second of the form every tool writes, `YYYY-MM-DDTHH:MM:SSZ`,
 * read without the general parser (validate reads one per event, and
 * compares it without making an instant of it); `null` when `value` has
 * another form, `undefined` when a field is out of range. Same results as
 * the general path. One loop with one `charCodeAt`: V8 expands each call
 * site of it into a large graph, and the twenty of a written-out reading
 * took its optimising compiler 10–50 ms (against 3–6 ms for the loop),
 * during which validate ran the unoptimised code.
 */
export function canonicalSeconds(value: string): number | undefined | null {
  if (value.length !== 20) return null;
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let number = 0;
  for (let k = 0; k < 20; k++) {
    const code = value.charCodeAt(k);
    const form = CANONICAL_FORM.charCodeAt(k);
    if (form === 0x30) {
      const digit = code - 0x30;
      if (digit < 0 || digit > 9) return null;
      number = number * 10 + digit;
      continue;
    }
    if (code !== form) return null;
    // A separator ends the field before it (the last one, `Z`, the second's).
    if (k === 4) year = number;
    else if (k === 7) month = number;
    else if (k === 10) day = number;
    else if (k === 13) hour = number;
    else if (k === 16) minute = number;
    if (k !== 19) number = 0;
  }
  if (rangeError(year, month, day, hour, minute, number)) return undefined;
  return (ymdToOrd(year, month, day) - EPOCH_ORDINAL) * 86400 + hour * 3600 + minute * 60 + number;
}

/**
 * The instant of an `at` value as the Python tools read it: a string that
 * `datetime.fromisoformat` accepts, with a zone, within years 1–9999 in UTC;
 * else `undefined` (validate: `at must be an ISO-8601 timestamp`).
 */
export function zonedInstant(value: unknown): PyInstant | undefined {
  if (typeof value !== 'string') return undefined;
  const seconds = canonicalSeconds(value);
  if (seconds !== null) return seconds === undefined ? undefined : [seconds, 0];
  const parsed = pyFromIsoFormat(value);
  return 'error' in parsed || parsed.offset === null ? undefined : utcInstant(parsed as PyDateTime & { offset: number });
}

/** Compare two instants: negative when `a` is earlier, as Python compares aware datetimes. */
export function compareInstants(a: PyInstant, b: PyInstant): number {
  return a[0] - b[0] || a[1] - b[1];
}

/** {@link zonedInstant} in epoch milliseconds (the microseconds below a millisecond dropped), for a JavaScript Date. */
export function parseZonedTimestamp(value: unknown): number | undefined {
  const instant = zonedInstant(value);
  return instant && instant[0] * 1000 + Math.floor(instant[1] / 1000);
}

/** The value of a Unicode decimal digit (`\p{Nd}` comes in runs of ten, 0 to 9). */
export function unicodeDigitValue(ch: string): number {
  const code = ch.codePointAt(0)!;
  // The mathematical digits are five runs of ten back to back.
  if (code >= 0x1d7ce && code <= 0x1d7ff) return (code - 0x1d7ce) % 10;
  let zero = code;
  while (zero > code - 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
  return code - zero;
}

// A review heading (spec §7.1) is a line (of `str.splitlines()`) that
// matches
//   ^##\s+.+?\s+-\s+(.+?)\s+-\s+seq\s+(\d+)\s*$
// (`\d`: any Unicode decimal digit, read with `int()`), as the Python tools
// find it. A backtracking engine needs time quadratic (or worse) in the
// length of a line for it, so a hostile review.md with a long line hangs
// every validate. headingsOf finds exactly the matches of that pattern, in
// the engine's priority order, in O(n log n).

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

/** A review heading of review.md: the participant and the seq (`int()` of its digits: a bigint beyond 2^53). */
export interface ReviewHeading {
  participant: string;
  seq: number | bigint;
}

/**
 * The review headings of review.md, as the Python tools' dict of them holds
 * them: one per seq, in the order each seq first appears, with the
 * participant of its last heading.
 */
export function reviewHeadings(body: string): ReviewHeading[] {
  if (!body.includes('seq') || !body.includes('##')) return [];
  const bySeq = new Map<number | bigint, string>();
  const note = (line: string): void => {
    if (!line.startsWith('##') || !line.includes('seq')) return;
    const plain = plainHeading(line);
    if (plain) bySeq.set(plain.seq, plain.participant);
    else if (plain === undefined) for (const found of headingsOf(line)) bySeq.set(pyIntOfDigits(found.seq), found.participant);
  };
  if (hasOtherLineBreak(body)) for (const line of pySplitLines(body)) note(line);
  else {
    // Only \n breaks lines: the lines that start `##` are found by searching, not by splitting them all.
    let start = body.startsWith('##') ? 0 : body.indexOf('\n##') + 1 || -1;
    while (start >= 0) {
      const end = body.indexOf('\n', start);
      note(end < 0 ? body.slice(start) : body.slice(start, end));
      start = end < 0 ? -1 : body.indexOf('\n##', end) + 1 || -1;
    }
  }
  // forEach, not a spread of [seq, participant] pairs destructured one by one: a
  // first validate runs this once, cold, where each destructuring walks an iterator.
  const headings: ReviewHeading[] = [];
  bySeq.forEach((participant, seq) => void headings.push({ participant, seq }));
  return headings;
}

/** The heading {@link reviewHeadings} finds first in `line` (one of review.md's section heading lines), as cheaply as that line allows. */
export function firstReviewHeading(line: string): ReviewHeading | undefined {
  if (hasOtherLineBreak(line)) return reviewHeadings(line)[0];
  if (!line.startsWith('##') || !line.includes('seq')) return undefined;
  const plain = plainHeading(line);
  if (plain !== undefined) return plain ?? undefined;
  const found = headingsOf(line)[0];
  return found && { participant: found.participant, seq: pyIntOfDigits(found.seq) };
}

/** Printable ASCII words separated by single spaces, at most one space at the end. */
const PLAIN_LINE = /^[!-~]+(?: [!-~]+)* ?$/;

/**
 * {@link headingsOf} for the heading line almost every review.md holds
 * (`## <time> - <participant> - seq <n>`), without the general matcher's
 * tables: a line of printable ASCII with single spaces that starts `## `
 * and a non-space. There the pattern's `\s` can only be one space, `\d` an
 * ASCII digit and `.` any character, so its backtracking has one way to go:
 * the tail is the line's end, ` - seq <digits>` and at most one space; the
 * lazy title ends at the first ` - ` after it; the participant runs from
 * there to the tail, and there is no match when that leaves it empty.
 * `null`: no match; `undefined`: not such a line (the general matcher decides).
 */
function plainHeading(line: string): ReviewHeading | null | undefined {
  // (A regular expression checks the characters: JavaScriptCore runs a loop over them several times slower.)
  const n = line.length;
  if (n < 4 || line.charCodeAt(2) !== 32 || !PLAIN_LINE.test(line)) return undefined;
  const end = line.charCodeAt(n - 1) === 32 ? n - 1 : n;
  let digits = end;
  while (digits > 0 && isDigitCode(line.charCodeAt(digits - 1))) digits--;
  if (digits === end || digits < 7 || !line.startsWith(' - seq ', digits - 7)) return null;
  const tailDash = digits - 6;
  const first = line.indexOf(' - ', 4) + 1;
  if (first === 0 || first + 2 > tailDash - 2) return null;
  const seq = line.slice(digits, end);
  return { participant: line.slice(first + 2, tailDash - 1), seq: seq.length < 16 ? Number(seq) : pyIntOfDigits(seq) };
}

/** Python's `int()` of a run of Unicode decimal digits: a number when exact, else a bigint. */
function pyIntOfDigits(digits: string): number | bigint {
  let ascii = '';
  for (const ch of digits) ascii += ch >= '0' && ch <= '9' ? ch : String(unicodeDigitValue(ch));
  const value = BigInt(ascii);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** The length in code units of the Unicode decimal digit (`\d`) at `i` of `text`, or 0. */
function digitLength(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code >= 48 && code <= 57) return 1;
  if (code < 0x660 || Number.isNaN(code)) return 0;
  const point = text.codePointAt(i)!;
  return /\p{Nd}/u.test(String.fromCodePoint(point)) ? (point > 0xffff ? 2 : 1) : 0;
}

/**
 * Every match of the §7.1 pattern in `body` (multiline; `\s` includes
 * `\n`), as Python's `re.finditer` returns them, the seq as written.
 */
function headingsOf(body: string): { participant: string; seq: string }[] {
  const headings: { participant: string; seq: string }[] = [];
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
    for (let step = digitLength(body, f); step; step = digitLength(body, f)) f += step;
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
      headings.push({ participant: found.participant, seq: found.seq });
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
const OTHER_LINE_BREAK_CHARS = ['\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029'];

/**
 * Whether `text` holds a line break of {@link OTHER_LINE_BREAKS}: an
 * indexOf per character (a memory scan each) goes through a megabyte of
 * the log four or five times faster than the character class does.
 */
function hasOtherLineBreak(text: string): boolean {
  for (const ch of OTHER_LINE_BREAK_CHARS) if (text.indexOf(ch) !== -1) return true;
  return false;
}

/**
 * Python's `str.splitlines()`: lines end at `\n`, `\r\n`, `\r`, VT, FF,
 * `\x1c`–`\x1e`, NEL, U+2028 and U+2029; a final break adds no empty line.
 * The Python tools split events.jsonl so: a raw U+2028 ends a line there.
 */
export function pySplitLines(text: string): string[] {
  const lines = hasOtherLineBreak(text) ? text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/) : text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Whether `text` ends with a line break of {@link pySplitLines} (its last line is complete). */
export function endsWithLineBreak(text: string): boolean {
  return text.endsWith('\n') || OTHER_LINE_BREAKS.test(text.slice(-1));
}

/** Python's strict UTF-8 decoding with universal newlines (spec §8a); raises AcpError on invalid UTF-8. */
export function decodeText(bytes: Uint8Array, name: string): string {
  const text = strictUtf8(bytes);
  if (text === undefined) throw new AcpError(`${name} is not valid UTF-8`);
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** The part of node:buffer {@link strictUtf8} uses. */
interface BufferModule {
  Buffer: { from(buffer: ArrayBufferLike, offset: number, length: number): { toString(encoding: 'latin1' | 'utf8'): string } };
  isAscii(bytes: Uint8Array): boolean;
  isUtf8(bytes: Uint8Array): boolean;
}

let bufferModule: BufferModule | null | undefined;

/**
 * `bytes` as strict UTF-8 (a BOM kept as U+FEFF; overlongs, surrogates and
 * code points past U+10FFFF refused, as Python's decoder refuses them), or
 * `undefined`. node:buffer's isAscii and isUtf8 (Node, Bun and Deno: simdutf)
 * check a megabyte of the log in a fraction of a millisecond, and an ASCII
 * text is decoded as Latin-1, a copy: Bun's fatal TextDecoder spent as long
 * on a 100k-event log as JSON.parse. Without node:buffer, TextDecoder.
 */
function strictUtf8(bytes: Uint8Array): string | undefined {
  if (bufferModule === undefined) {
    const found = getBuiltin('node:buffer') as Partial<BufferModule> | undefined;
    bufferModule = found && typeof found.isAscii === 'function' && typeof found.isUtf8 === 'function' && found.Buffer ? (found as BufferModule) : null;
  }
  if (bufferModule) {
    const view = bufferModule.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    if (bufferModule.isAscii(bytes)) return view.toString('latin1');
    return bufferModule.isUtf8(bytes) ? view.toString('utf8') : undefined;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

// Bytes that are not UTF-8: Python decodes argv and file names with the
// file system encoding's `surrogateescape` handler (each undecodable byte b
// becomes U+DC00 + b) and encodes them back to the same bytes.

/** Whether `text` holds a lone surrogate (a code unit of a pair alone). */
export function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udfff]/.test(text) && /(?:[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/.test(text);
}

/** The length of the well-formed UTF-8 sequence at `i`, or 0 (Python's strict decoder: no overlongs, no surrogates, nothing past U+10FFFF). */
function utf8Sequence(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [lo, hi] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [lo, hi] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** `bytes.decode('utf-8', 'surrogateescape')`: as Python reads argv and file names. */
export function decodeSurrogateEscape(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // not UTF-8: byte by byte below
  }
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let out = '';
  let start = 0;
  for (let i = 0; i < bytes.length; ) {
    const n = utf8Sequence(bytes, i);
    if (n) {
      i += n;
      continue;
    }
    out += decoder.decode(bytes.subarray(start, i)) + String.fromCharCode(0xdc00 + bytes[i]!);
    start = ++i;
  }
  return out + decoder.decode(bytes.subarray(start));
}

/**
 * `text.encode('utf-8', 'surrogateescape')`: U+DC80–U+DCFF become the bytes
 * they stand for; `undefined` when another lone surrogate makes the text
 * unencodable (Python raises UnicodeEncodeError).
 */
export function encodeSurrogateEscape(text: string): Uint8Array | undefined {
  if (!hasLoneSurrogate(text)) return new TextEncoder().encode(text);
  const parts: number[] = [];
  const encoder = new TextEncoder();
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      if (code < 0xdc80 || code > 0xdcff) return undefined;
      parts.push(code - 0xdc00);
    } else for (const b of encoder.encode(ch)) parts.push(b);
  }
  return Uint8Array.from(parts);
}

/**
 * Text for a stream the way Python's `sys.stdout` (`surrogateescape`: the
 * bytes a name came in as) or `sys.stderr` (`backslashreplace`: `\udcff`)
 * writes it. A lone surrogate that surrogateescape cannot encode is written
 * as the backslash escape (Python would fail).
 */
export function encodeForStream(text: string, stream: 'stdout' | 'stderr'): Uint8Array {
  if (!hasLoneSurrogate(text)) return new TextEncoder().encode(text);
  const parts: Uint8Array[] = [];
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    const lone = ch.length === 1 && code >= 0xd800 && code <= 0xdfff;
    if (!lone) parts.push(new TextEncoder().encode(ch));
    else if (stream === 'stdout' && code >= 0xdc80 && code <= 0xdcff) parts.push(Uint8Array.of(code - 0xdc00));
    else parts.push(new TextEncoder().encode(`\\u${code.toString(16)}`));
  }
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// Paths as pathlib resolves them: `Path(p).resolve()` is
// `os.path.realpath(p)` (Python 3.11, not strict): symbolic links resolved
// one component at a time, so `L/../X` with a link `L` -> `sub/in` is
// `sub/X` (the OS's reading), a missing component kept as written, and a
// loop left unresolved (pathlib then reports it).

/** `posixpath.join`. */
function posixJoin(base: string, ...parts: string[]): string {
  let path = base;
  for (const part of parts) path = part.startsWith('/') ? part : !path || path.endsWith('/') ? path + part : `${path}/${part}`;
  return path;
}

/** `posixpath.normpath`. */
export function posixNormpath(path: string): string {
  if (path === '') return '.';
  const slashes = path.startsWith('//') && !path.startsWith('///') ? '//' : path.startsWith('/') ? '/' : '';
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..' || (!slashes && !out.length) || out.at(-1) === '..') out.push(part);
    else if (out.length) out.pop();
  }
  return slashes + out.join('/') || '.';
}

/** What {@link pyRealpath} asks of the file system: whether a path is a symbolic link (false when it cannot be read), and its target. */
export interface LinkReader {
  isLink(path: string): boolean;
  readlink(path: string): string;
}

/** `posixpath._joinrealpath`: `[path, true]`, or `[path, false]` at a loop. */
function joinRealpath(start: string, rest: string, fs: LinkReader, seen: Map<string, string | null>): [string, boolean] {
  let path = start;
  if (rest.startsWith('/')) {
    rest = rest.slice(1);
    path = '/';
  }
  while (rest) {
    const cut = rest.indexOf('/');
    const name = cut < 0 ? rest : rest.slice(0, cut);
    rest = cut < 0 ? '' : rest.slice(cut + 1);
    if (!name || name === '.') continue;
    if (name === '..') {
      if (!path) path = '..';
      else {
        // posixpath.split: the head without its trailing slashes (unless all slashes).
        const i = path.lastIndexOf('/') + 1;
        let head = path.slice(0, i);
        if (head && !/^\/+$/.test(head)) head = head.replace(/\/+$/, '');
        path = path.slice(i) === '..' ? posixJoin(head, '..', '..') : head;
      }
      continue;
    }
    const next = posixJoin(path, name);
    if (!fs.isLink(next)) {
      path = next;
      continue;
    }
    if (seen.has(next)) {
      const known = seen.get(next);
      if (known != null) {
        path = known;
        continue;
      }
      return [posixJoin(next, rest), false];
    }
    seen.set(next, null);
    const [resolved, ok] = joinRealpath(path, fs.readlink(next), fs, seen);
    if (!ok) return [posixJoin(resolved, rest), false];
    path = resolved;
    seen.set(next, path);
  }
  return [path, true];
}

/** Python 3.11's `os.path.realpath(path)` (not strict) against `cwd`: absolute and normalised. */
export function pyRealpath(path: string, cwd: string, fs: LinkReader): string {
  const [resolved] = joinRealpath('', path, fs, new Map());
  return posixNormpath(resolved.startsWith('/') ? resolved : posixJoin(cwd, resolved));
}
