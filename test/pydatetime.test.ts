// datetime.fromisoformat (Python 3.11) against python3 itself (issue 28
// class 9): runtime/pytext.ts pyFromIsoFormat on generated strings near the
// forms it accepts (week dates, any separator, long fractions, offsets with
// seconds and microseconds, years below 100 and 0000, surrogates, NUL), and
// zonedInstant, the `at` the Python tools compare, including where their
// conversion to UTC overflows.
//
// Cases per property: CASES of test/python/oracle.ts, 2,000 in quick (`npm
// test`), 50,000 in full (ACP_FULL=1, `npm run test:all`) and long.
import { describe, expect, test } from 'vitest';
import { compareInstants, parseZonedTimestamp, pyFromIsoFormat, zonedInstant } from '../runtime/pytext.ts';
import { CASES, rng, runPython } from './python/oracle.ts';

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const num = (r: Rand, width: number, max = 10 ** width): string => String(Math.floor(r() * max)).padStart(width, '0');

/** A date in one of fromisoformat's forms, or close to one. */
function datePart(r: Rand): string {
  const year = pick(r, [num(r, 4), '2026', '0050', '0001', '0000', '9999', '1949', '0099', '2020', '2015', '2004', '1970', '2024']);
  const dash = r() < 0.7 ? '-' : '';
  if (r() < 0.3) {
    const week = pick(r, [num(r, 2, 54), '01', '52', '53', '00', '5']);
    return r() < 0.3 ? `${year}${dash}W${week}` : `${year}${dash}W${week}${r() < 0.9 ? dash : pick(r, ['-', ''])}${pick(r, ['1', '7', '0', '8', num(r, 1)])}`;
  }
  const month = pick(r, [...Array(6).fill(String(1 + Math.floor(r() * 12)).padStart(2, '0')), num(r, 2, 13), '01', '02', '12', '13', '00']);
  const day = pick(r, [...Array(6).fill(String(1 + Math.floor(r() * 28)).padStart(2, '0')), num(r, 2, 32), '28', '29', '30', '31', '00']);
  return `${year}${dash}${month}${r() < 0.9 ? dash : pick(r, ['-', ''])}${day}`;
}

/** A clock time, a fraction, a zone: each part optional, each in several spellings. */
function timePart(r: Rand): string {
  const colon = r() < 0.75 ? ':' : '';
  const hh = pick(r, [...Array(6).fill(num(r, 2, 24)), num(r, 2, 25), '00', '23', '24']);
  const mm = pick(r, [...Array(6).fill(num(r, 2, 60)), num(r, 2, 61), '00', '59', '60']);
  const ss = pick(r, [...Array(6).fill(num(r, 2, 60)), num(r, 2, 61), '00', '59', '60']);
  let out = pick(r, [hh, `${hh}${colon}${mm}`, `${hh}${colon}${mm}${colon}${ss}`, `${hh}${colon}${mm}${colon}${ss}`]);
  if (r() < 0.4) out += `${pick(r, ['.', ',', ':'])}${Array.from({ length: Math.floor(r() * 12) }, () => num(r, 1)).join('')}`;
  if (r() < 0.85) {
    const sign = pick(r, ['+', '-']);
    const zone = pick(r, ['Z', 'z', 'Z', 'Z', `${sign}05:00`, `${sign}${num(r, 2, 24)}:${num(r, 2, 60)}`, `${sign}0530`, `${sign}${num(r, 2, 30)}`, `${sign}${num(r, 2, 25)}:${num(r, 2, 60)}`, `${sign}23:59:59.999999`, `${sign}24:00`, `${sign}00:00:00.5`, `${sign}05:00:01.25`, `${sign}0500${num(r, 2)}`, `${sign}00:00`]);
    out += r() < 0.1 ? ` ${zone}` : zone;
  }
  return out;
}

/** One mutation: a character removed, doubled or replaced by one from the awkward set. */
function mutate(r: Rand, text: string): string {
  const chars = Array.from(text);
  const k = Math.floor(r() * (chars.length + 1));
  const odd = pick(r, ['T', 't', ' ', '-', ':', 'W', 'Z', '+', '.', '\0', '\udcff', '\ud800', 'é', '中', '😀', '٣', '\x85', '1', '0']);
  const roll = r();
  if (roll < 0.33) chars.splice(k, 1);
  else if (roll < 0.66) chars.splice(k, 0, odd);
  else chars[k] = odd;
  return chars.join('');
}

function isoCase(r: Rand): string {
  const separator = pick(r, ['T', 'T', 'T', ' ', 't', 'x', '1', '-', '\udcff', '\ud83d', 'é', '中', '😀', ':', '\0']);
  let text = r() < 0.1 ? datePart(r) : `${datePart(r)}${separator}${timePart(r)}`;
  if (r() < 0.2) text = mutate(r, text);
  if (r() < 0.05) text = mutate(r, text);
  return text;
}

/** What python3 answers: the fields and offset, the UTC instant (or 'overflow'), or the ValueError's text. */
const ORACLE = [
  'd = datetime.fromisoformat(x)',
  'off = d.utcoffset()',
  'out = [d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond, None if off is None else off // timedelta(microseconds=1)]',
  'if off is not None:',
  '    try:',
  '        d.astimezone(timezone.utc)',
  '        t = d - datetime(1970, 1, 1, tzinfo=timezone.utc)',
  '        out.append([t.days * 86400 + t.seconds, t.microseconds])',
  '    except OverflowError:',
  '        out.append("overflow")',
].join('\n');

function ours(text: string): unknown {
  const parsed = pyFromIsoFormat(text);
  if ('error' in parsed) return { exc: 'ValueError', msg: parsed.error };
  const fields: unknown[] = [parsed.year, parsed.month, parsed.day, parsed.hour, parsed.minute, parsed.second, parsed.microsecond, parsed.offset];
  if (parsed.offset !== null) fields.push(zonedInstant(text) ?? 'overflow');
  return { ok: fields };
}

describe('datetime.fromisoformat against Python 3.11', () => {
  test(`${CASES} generated strings: the fields, the offset, the UTC instant or the ValueError's text`, () => {
    const r = rng(91);
    const texts = Array.from({ length: CASES }, () => isoCase(r));
    const expected = runPython(ORACLE, texts, 'from datetime import datetime, timedelta, timezone');
    let accepted = 0;
    texts.forEach((text, k) => {
      const want = expected[k] as { ok?: unknown[]; exc?: string; msg?: string };
      if (want.ok) accepted++;
      expect(ours(text), JSON.stringify(text)).toEqual(want.ok ? { ok: want.ok.map((v) => (Array.isArray(v) ? [...v] : v)) } : { exc: want.exc, msg: want.msg });
    });
    // The generator is near enough to the accepted forms to test both sides.
    expect(accepted).toBeGreaterThan(CASES / 5);
    expect(accepted).toBeLessThan(CASES * 0.8);
  });

  test(`${CASES} generated pairs compare as Python compares aware datetimes`, () => {
    const r = rng(17);
    const pairs: [string, string][] = [];
    const valid = (): string => {
      for (;;) {
        const text = isoCase(r);
        if (zonedInstant(text)) return text;
      }
    };
    while (pairs.length < CASES) {
      const a = valid();
      // Near pairs too: the same text with one digit changed (a microsecond, a second, an offset apart).
      const b = r() < 0.5 ? valid() : a.replace(/\d(?=\D*$)/, (d) => String((Number(d) + 1) % 10));
      if (zonedInstant(b)) pairs.push([a, b]);
    }
    const expected = runPython('a, b = (datetime.fromisoformat(v) for v in x)\nout = (a > b) - (a < b)', pairs, 'from datetime import datetime');
    pairs.forEach(([a, b], k) => expect(Math.sign(compareInstants(zonedInstant(a)!, zonedInstant(b)!)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe((expected[k] as { ok: number }).ok));
  });
});

describe("the issue's examples (class 9)", () => {
  test('week dates, a space before the offset and long fractions are times; 2026-0101, a lowercase z and year 0000 are not', () => {
    expect(zonedInstant('2026-W01-1T00:00:00Z')).toEqual(zonedInstant('2025-12-29T00:00:00Z'));
    expect(zonedInstant('2026-01-01T00:00:00 +05:00')).toEqual(zonedInstant('2025-12-31T19:00:00Z'));
    expect(zonedInstant('2026-01-01T00:00:00.1234567891Z')).toEqual([zonedInstant('2026-01-01T00:00:00Z')![0], 123456]);
    for (const refused of ['2026-0101T00:00:00Z', '2026-01-01T00:00:00z', '0000-01-01T00:00:00Z', '2026-01-01T00:00:00']) expect(zonedInstant(refused), refused).toBeUndefined();
  });

  test('years below 100 are years below 100: 0050-01-01 is before 1949-01-01', () => {
    expect(compareInstants(zonedInstant('0050-01-01T00:00:00Z')!, zonedInstant('1949-01-01T00:00:00Z')!)).toBeLessThan(0);
    expect(parseZonedTimestamp('0050-01-01T00:00:00Z')).toBe(new Date(0).setUTCFullYear(50, 0, 1));
    expect(new Date(parseZonedTimestamp('0050-01-01T00:00:00Z')!).getUTCFullYear()).toBe(50);
  });

  test('a time whose UTC falls outside years 1-9999 (Python: OverflowError) is no timestamp', () => {
    expect(zonedInstant('0001-01-01T00:00:00+05:00')).toBeUndefined();
    expect(zonedInstant('9999-12-31T23:00:00-05:00')).toBeUndefined();
    expect(zonedInstant('0001-01-01T05:00:00+05:00')).toEqual([-62135596800, 0]);
  });
});

/** The instant pyFromIsoFormat's fields name (Date's calendar, not pytext's): what zonedInstant must give, or undefined. */
function instantOfFields(text: string): [number, number] | undefined {
  const parsed = pyFromIsoFormat(text);
  if ('error' in parsed || parsed.offset === null) return undefined;
  const ms = new Date(0).setUTCFullYear(parsed.year, parsed.month - 1, parsed.day) + ((parsed.hour * 60 + parsed.minute) * 60 + parsed.second) * 1000;
  const micros = parsed.microsecond - parsed.offset;
  const seconds = ms / 1000 + Math.floor(micros / 1_000_000);
  return seconds < -62135596800 || seconds > 253402300799 ? undefined : [seconds, micros - Math.floor(micros / 1_000_000) * 1_000_000];
}

describe('the canonical form (`YYYY-MM-DDTHH:MM:SSZ`, read without the general parser)', () => {
  test('each character of it changed, and every month and day near the edges, read as the general parser reads them', () => {
    const bases = ['2026-12-02T08:16:56Z', '2024-02-29T23:59:59Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '0050-06-15T12:30:45Z', '1900-02-28T00:00:00Z'];
    // Around the digits (`/` and `:` are the codes next to `0` and `9`), other separators, wide and NUL characters.
    const replacements = ['/', ':', '0', '5', '9', 'a', ' ', '-', 'T', 'Z', '\0', '\u0663', '\uff11', '+'];
    const texts: string[] = [];
    for (const base of bases) for (let at = 0; at < base.length; at++) for (const ch of replacements) texts.push(base.slice(0, at) + ch + base.slice(at + 1));
    for (const year of ['2023', '2024', '1900', '2000', '0004']) {
      for (let month = 0; month <= 13; month++) for (const day of [0, 1, 28, 29, 30, 31, 32]) texts.push(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T00:00:00Z`);
    }
    for (const time of ['23:59:59', '24:00:00', '00:60:00', '00:00:60', '99:99:99']) texts.push(`2026-01-01T${time}Z`);
    let valid = 0;
    for (const text of texts) {
      const expected = instantOfFields(text);
      if (expected) valid++;
      expect(zonedInstant(text), JSON.stringify(text)).toEqual(expected);
    }
    expect(valid).toBeGreaterThan(texts.length / 4);
    expect(valid).toBeLessThan(texts.length * 0.9);
  });
});
