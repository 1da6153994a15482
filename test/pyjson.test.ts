// runtime/pyjson.ts against Python 3.11's json (issue 28): generated
// documents (valid, then mutated into invalid ones) read by json.loads and
// loadsPy must give the same value (compared through json.dumps, compact
// and as protocol.json is written) or the same error message; the
// JSON.parse fast path must agree with the slow parser.
//
// Cases per property: CASES of test/python/oracle.ts, 2,000 in quick (`npm
// test`), 50,000 in full (ACP_FULL=1, `npm run test:all`) and long.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { MAX_DEPTH, PyFloat, PyInt, dumpsPy, loadsPy, parsePython, pyFloatRepr, pyKeys } from '../runtime/pyjson.ts';
import { CASES, pythonVersion, rng, runPython } from './python/oracle.ts';

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

const CHARS = ['a', 'Z', ' ', '"', '\\', '/', '\u00e9', '\u05d0', '\u2028', '\u0085', '\u{1f600}', '\u{1fae8}', '\u0000', '\u001f', '\u007f', '\ufeff', '\ud800', '\udc00', '\t', '\n', '1', ':', ',', '{', '}', '[', ']'];
const ESCAPES = ['\\n', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\r', '\\t', '\\u00e9', '\\ud83d\\ude00', '\\ud800', '\\udc00', '\\ud800\\u0041', '\\u2028', '\\u0000'];
const KEYS = ['seq', 'from', '10', '9', '0', '01', '-1', '__proto__', 'constructor', 'toString', '4294967295', '4294967294', 'b', '2', 'a b', ''];

/** A random number token: ints of any size, floats by bits, integral floats, exponents, -0. */
function numberToken(r: Rand): string {
  switch (Math.floor(r() * 10)) {
    case 0:
      return String(Math.floor(r() * 1000) - 500);
    case 1:
      return `${r() < 0.5 ? '-' : ''}${Array.from({ length: 1 + Math.floor(r() * 40) }, (_, k) => (k === 0 ? 1 + Math.floor(r() * 9) : Math.floor(r() * 10))).join('')}`;
    case 2: {
      const view = new DataView(new ArrayBuffer(8));
      view.setUint32(0, Math.floor(r() * 2 ** 32));
      view.setUint32(4, Math.floor(r() * 2 ** 32));
      const x = view.getFloat64(0);
      return Number.isFinite(x) ? pyFloatRepr(x).replace(/^(-?)inf$/, '$11e400') : '1.5';
    }
    case 3:
      return pick(r, ['1.0', '-0.0', '-0', '0', '1e16', '1E+16', '1e-7', '1e400', '-1e400', '1e-400', '123.0', '5e-324', '1.7976931348623157e308', '9007199254740993', '-9007199254740993', '0.1', '100', '1e2', '2.50']);
    case 4:
      return `${Math.floor(r() * 100)}.${Math.floor(r() * 1000)}e${r() < 0.5 ? '-' : ''}${Math.floor(r() * 30)}`;
    case 5:
      return pick(r, ['NaN', 'Infinity', '-Infinity']);
    default:
      return String(Math.floor(r() * 2 ** 53) * (r() < 0.3 ? -1 : 1));
  }
}

function stringToken(r: Rand): string {
  let out = '"';
  const length = Math.floor(r() * 6);
  for (let k = 0; k < length; k++) {
    if (r() < 0.3) out += pick(r, ESCAPES);
    else {
      const ch = pick(r, CHARS);
      out += ch === '"' ? '\\"' : ch === '\\' ? '\\\\' : ch < ' ' && r() < 0.9 ? '\\n' : ch;
    }
  }
  return `${out}"`;
}

const ws = (r: Rand): string => (r() < 0.7 ? '' : pick(r, [' ', '\n', '\t', '\r\n', '  ', '\u00a0', '\f']));

/** A random JSON-ish text (valid most of the time). */
function documentText(r: Rand, depth = 0): string {
  const roll = r();
  if (depth < 4 && roll < 0.25) {
    const n = Math.floor(r() * 5);
    const members = Array.from({ length: n }, () => `${ws(r)}${r() < 0.8 ? JSON.stringify(pick(r, KEYS)) : stringToken(r)}${ws(r)}:${ws(r)}${documentText(r, depth + 1)}${ws(r)}`);
    return `{${members.join(',')}${ws(r)}}`;
  }
  if (depth < 4 && roll < 0.4) return `[${Array.from({ length: Math.floor(r() * 4) }, () => `${ws(r)}${documentText(r, depth + 1)}${ws(r)}`).join(',')}]`;
  if (roll < 0.7) return numberToken(r);
  if (roll < 0.9) return stringToken(r);
  return pick(r, ['true', 'false', 'null']);
}

/** Break a text the ways hand edits and torn writes do. */
function mutate(r: Rand, text: string): string {
  const at = Math.floor(r() * (text.length + 1));
  switch (Math.floor(r() * 6)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1);
    case 2:
      return text.slice(0, at) + pick(r, [',', '}', ']', '"', ':', '\\', 'x', '-', '.', 'e', '0', '\u0001', '\ufeff', 'N', ' ']) + text.slice(at);
    case 3:
      return `${text}${pick(r, [' x', ',', '}', ' 1', '\n\n', '//'])}`;
    case 4:
      return `\ufeff${text}`;
    default:
      return pick(r, ['', ' ', '-', '"', '"\\u12', '"\\ud800\\u12"', '{"a" 1}', '{"a":1,}', '[1,]', '[01]', '1.', '.5', '+1', 'nan', 'tru', '[', '{']);
  }
}

/** What Python gives for one text: the value written both ways, or the error. */
const PY_BODY = `try:
    v = json.loads(x)
except json.JSONDecodeError as e:
    out = {"err": str(e)}
else:
    out = {"compact": json.dumps(v, ensure_ascii=False, separators=(",", ":")), "pretty": json.dumps(v, ensure_ascii=False, indent=2, sort_keys=True)}`;

function ours(text: string): unknown {
  let value: unknown;
  try {
    value = loadsPy(text);
  } catch (error) {
    return { err: (error as Error).message };
  }
  return { compact: dumpsPy(value), pretty: dumpsPy(value, { indent: 2, sortKeys: true }) };
}

/** Python writes a lone surrogate raw where dumpsPy escapes it (deliberately: see docs/spec-notes.md). */
const escapeLone = (text: string): string => text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16)}`);

describe('loadsPy / dumpsPy against Python json', () => {
  test('python3 is Python 3.11', () => {
    expect(pythonVersion()).toBe('3.11');
  });

  test(`${CASES} generated documents (seeded), valid and broken, read and written alike`, () => {
    const r = rng(2028);
    const texts = Array.from({ length: CASES }, () => {
      const text = documentText(r);
      return r() < 0.35 ? mutate(r, text) : text;
    });
    const expected = runPython(PY_BODY, texts);
    let errors = 0;
    texts.forEach((text, k) => {
      const python = (expected[k] as { ok: Record<string, string> }).ok;
      if (python.err) errors++;
      const want = python.err ? python : { compact: escapeLone(python.compact!), pretty: escapeLone(python.pretty!) };
      expect(ours(text), `case ${k}: ${JSON.stringify(text)}`).toEqual(want);
    });
    // Both halves are exercised.
    expect(errors).toBeGreaterThan(CASES / 10);
    expect(errors).toBeLessThan(CASES * 0.9);
  });

  test('the JSON.parse fast path gives what the Python-grammar parser gives', () => {
    const r = rng(77);
    for (let k = 0; k < CASES; k++) {
      const text = documentText(r);
      let slow: unknown;
      try {
        slow = parsePython(text);
      } catch (error) {
        expect(() => loadsPy(text)).toThrow((error as Error).message);
        continue;
      }
      const fast = loadsPy(text);
      expect(dumpsPy(fast), text).toBe(dumpsPy(slow));
      expect(isDeepStrictEqual(fast, slow), text).toBe(true);
    }
  });
});

describe('issue 28 class 1 and 2 examples', () => {
  test('values a protocol.json rewrite must keep', () => {
    const text = '{"big":123456789012345678901234567890,"one":1.0,"nz":-0.0,"e16":1e16,"small":1e-7,"huge":1e400,"10":"a","9":"b","__proto__":{"x":1},"n":NaN}';
    const value = loadsPy(text) as Record<string, unknown>;
    expect(value.big).toEqual(new PyInt(123456789012345678901234567890n));
    expect(value.one).toEqual(new PyFloat(1));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(pyKeys(value)).toEqual(['big', 'one', 'nz', 'e16', 'small', 'huge', '10', '9', '__proto__', 'n']);
    expect(dumpsPy(value)).toBe('{"big":123456789012345678901234567890,"one":1.0,"nz":-0.0,"e16":1e+16,"small":1e-07,"huge":Infinity,"10":"a","9":"b","__proto__":{"x":1},"n":NaN}');
    expect(dumpsPy(value, { indent: 2, sortKeys: true })).toBe(
      '{\n  "10": "a",\n  "9": "b",\n  "__proto__": {\n    "x": 1\n  },\n  "big": 123456789012345678901234567890,\n  "e16": 1e+16,\n  "huge": Infinity,\n  "n": NaN,\n  "nz": -0.0,\n  "one": 1.0,\n  "small": 1e-07\n}',
    );
  });

  test("Python's error text", () => {
    expect(() => loadsPy('{"a": 1, x}')).toThrow('Expecting property name enclosed in double quotes: line 1 column 10 (char 9)');
    expect(() => loadsPy('{"seq": 1,\n "x" 2}')).toThrow("Expecting ':' delimiter: line 2 column 6 (char 16)");
    expect(() => loadsPy('{"s": "\u{1f600}", x}')).toThrow('Expecting property name enclosed in double quotes: line 1 column 12 (char 11)');
    expect(() => loadsPy('\ufeff{}')).toThrow('Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)');
  });

  test('duplicate keys: the last value at the first position', () => {
    const value = loadsPy('{"a":1,"10":2,"b":3,"a":4,"10":5}') as Record<string, unknown>;
    expect(pyKeys(value)).toEqual(['a', '10', 'b']);
    expect(dumpsPy(value)).toBe('{"a":4,"10":5,"b":3}');
  });

  test('nesting: 1000 levels are read and written back, deeper is refused in the words of Python\'s RecursionError', () => {
    for (const inner of ['1', '1.0']) {
      const ok = `${'['.repeat(MAX_DEPTH)}${inner}${']'.repeat(MAX_DEPTH)}`;
      expect(dumpsPy(loadsPy(ok))).toBe(ok);
      expect(() => loadsPy(`[${ok}]`)).toThrow(/^maximum recursion depth exceeded while decoding a JSON array from a unicode string$/);
      expect(() => loadsPy(`${'{"a":'.repeat(100_000)}${inner}${'}'.repeat(100_000)}`)).toThrow(/^maximum recursion depth exceeded while decoding a JSON object from a unicode string$/);
    }
  });
});
