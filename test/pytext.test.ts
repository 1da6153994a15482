// runtime/pytext.ts and runtime/argv.ts against Python 3.11 itself (issue
// 28): repr() with Python's Unicode 14 tables, str.splitlines(), int() and
// float() on command-line values, each on generated inputs (seeded), each
// batch in one python3 process.
//
// Cases per property: CASES of test/python/oracle.ts, 2,000 in quick (`npm
// test`), 50,000 in full (ACP_FULL=1, `npm run test:all`) and long.
import { describe, expect, test } from 'vitest';
import { parsePyFloat, parsePyInt } from '../runtime/argv.ts';
import { loadsPy, pyFloatRepr } from '../runtime/pyjson.ts';
import { pyRepr, pySplitLines } from '../runtime/pytext.ts';
import { CASES, rng, runPython } from './python/oracle.ts';

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

/** A code point from everywhere: ASCII, quotes, controls, Unicode white space and digits, any BMP or astral point, lone surrogates. */
function codePoint(r: Rand): string {
  const roll = r();
  if (roll < 0.3) return String.fromCharCode(0x20 + Math.floor(r() * 95));
  if (roll < 0.45) return pick(r, ["'", '"', '\\', '\n', '\r', '\t', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x1f', '\x85', '\xa0', '\u2003', '\u2028', '\u2029', '\u200d', '\u3000', '\ufeff', '\u{1fae8}', '\u{31350}', '\u2ffc', '_', '-', '+', '.', 'e', 'E']);
  if (roll < 0.55) return pick(r, ['٣', '١', '۵', '१', '１', '𝟘', '𝟙', '߀', '᠑', '꘠', '٫']);
  if (roll < 0.7) return String.fromCharCode(Math.floor(r() * 0x10000));
  if (roll < 0.95) return String.fromCodePoint(0x10000 + Math.floor(r() * 0x100000));
  return String.fromCharCode(0xd800 + Math.floor(r() * 0x800));
}

const randomText = (r: Rand, max: number): string => Array.from({ length: Math.floor(r() * max) }, () => codePoint(r)).join('');

describe('repr() against Python 3.11', () => {
  test(`${CASES} generated strings (every plane, lone surrogates)`, () => {
    const r = rng(8);
    const texts = Array.from({ length: CASES }, () => randomText(r, 8));
    const expected = runPython('out = repr(x)', texts);
    texts.forEach((text, k) => expect(pyRepr(text), JSON.stringify(text)).toBe((expected[k] as { ok: string }).ok));
  });

  test(`${CASES / 10} generated JSON values: dicts keep their order, floats print as Python prints them`, () => {
    const r = rng(12);
    const numbers = ['1.0', '-0.0', '1e16', '1e-7', '123456789012345678901234567890', '1e400', 'NaN', '0.1', '2.5e-5', '1e22', '-7'];
    const texts = Array.from({ length: CASES / 10 }, () => {
      const keys = Array.from({ length: Math.floor(r() * 4) }, () => pick(r, ['b', '2', '10', '__proto__', 'a\u200d']));
      return `{${keys.map((key) => `"${key}":[${pick(r, numbers)},true,null,"${randomText(r, 3).replace(/[\\"\u0000-\u001f\ud800-\udfff]/g, '')}"]`).join(',')}}`;
    });
    const expected = runPython('out = repr(json.loads(x))', texts);
    texts.forEach((text, k) => expect(pyRepr(loadsPy(text)), text).toBe((expected[k] as { ok: string }).ok));
  });

  test('Unicode 14: U+1FAE8, U+31350 and U+2FFC are escaped', () => {
    expect(pyRepr('\u{1fae8}\u{31350}\u2ffc')).toBe("'\\U0001fae8\\U00031350\\u2ffc'");
  });
});

describe('str.splitlines() against Python', () => {
  test(`${CASES} generated texts heavy in line breaks`, () => {
    const r = rng(3);
    const breaks = ['\n', '\r', '\r\n', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x1f', '\x85', '\u2028', '\u2029', '\n\n', 'a', 'b', ' ', '{}'];
    const texts = Array.from({ length: CASES }, () => Array.from({ length: Math.floor(r() * 10) }, () => pick(r, breaks)).join(''));
    const expected = runPython('out = x.splitlines()', texts);
    texts.forEach((text, k) => expect(pySplitLines(text), JSON.stringify(text)).toEqual((expected[k] as { ok: string[] }).ok));
  });
});

/** A command-line number: signs, underscores, Unicode digits and white space, exponents, junk. */
function numberText(r: Rand): string {
  const parts = ['1', '2', '0', '9', '_', '.', 'e', 'E', '-', '+', ' ', '\u2003', '\x85', '\xa0', '\x1c', '\x1f', '\t', '٣', '١', '１', '𝟙', 'inf', 'nan', 'Infinity', 'x', '٫'];
  return Array.from({ length: 1 + Math.floor(r() * 7) }, () => pick(r, parts)).join('');
}

describe('int() and float() on command-line values against Python', () => {
  test(`${CASES} generated values through int()`, () => {
    const r = rng(5);
    const texts = Array.from({ length: CASES }, () => numberText(r));
    const expected = runPython('out = str(int(x))', texts);
    texts.forEach((text, k) => {
      const want = expected[k] as { ok?: string };
      let got: string;
      try {
        got = String(parsePyInt(text, 'reply-to'));
      } catch (error) {
        expect((error as Error).message).toBe(`argument --reply-to: invalid int value: ${pyRepr(text)}`);
        got = 'error';
      }
      // Values beyond 2**53 are beyond any seq; their text is not compared.
      if (want.ok && want.ok.replace('-', '').length > 15) expect(got).not.toBe('error');
      else expect(got, JSON.stringify(text)).toBe(want.ok ?? 'error');
    });
  });

  test(`${CASES} generated values through float()`, () => {
    const r = rng(6);
    const texts = Array.from({ length: CASES }, () => numberText(r));
    const expected = runPython('out = repr(float(x))', texts);
    texts.forEach((text, k) => {
      let got: string;
      try {
        got = pyFloatRepr(parsePyFloat(text, 'timeout'));
      } catch {
        got = 'error';
      }
      expect(got, JSON.stringify(text)).toBe((expected[k] as { ok?: string }).ok ?? 'error');
    });
  });
});
