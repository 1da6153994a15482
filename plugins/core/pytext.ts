/**
 * Python 3.11 semantics the protocol inherits (spec §8a, §8b): `str.isspace`,
 * `strip`, `repr`, `sorted`, `re.MULTILINE` anchors, `json.dumps` layout.
 * The other tools are Python scripts, so where JavaScript differs the core
 * uses these. Pure functions; no imports.
 * @module
 */
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
  if (typeof value === 'number') return pyNumber(value);
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
      else if (ch !== ' ' && NOT_PRINTABLE.test(ch)) out += pyEscape(code);
      else out += ch;
    }
    return out + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
  return String(value);
}

/**
 * What Python's `str.isprintable()` refuses, so `repr()` escapes it: the
 * categories Other (Cc, Cf, Cs, Co, Cn) and Separator (Zs, Zl, Zp) but the
 * ASCII space. ZWJ, NBSP, bidi marks and U+3000 are among them.
 */
const NOT_PRINTABLE = /^[\p{C}\p{Z}]$/u;

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

function pyNumber(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return String(value);
}

/** Key-sorted, 2-space, non-ASCII-preserving JSON with a trailing newline (spec §2). */
export function formatProtocolJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(comparePy)) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
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
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** Lowercase hex SHA-256 of bytes. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
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
