// A first validate at the speed of parsing (issue 42): the fast paths it
// takes read exactly as the exact ones, which the Python tools' semantics
// define.
//
// - lineReader: JSON.parse for every line of a piece of the log that no
//   pattern marks, else loadsPy; the value (or Python's error) of each line
//   must be loadsPy's, on generated pieces of event lines and of any JSON.
// - decodeText: node:buffer's isAscii/isUtf8 and decoders stand in for the
//   fatal TextDecoder; the text (or the refusal) must be the same on random
//   bytes and on the sequences Python's strict decoder refuses.
// - review headings: the plain line's shortcut and the general matcher
//   against Python's own regular expression (§7.1), line by line and over
//   whole review.md texts.
// - strict mode's review sections: a section that declares everything
//   needs no heading (the heading is looked for only where one is missing).
// - the order of the events' times: validate compares the form every tool
//   writes as its UTC second, without an instant per event; its messages
//   must be those of zonedInstant and compareInstants, on a first validate
//   and on one that resumes from the checkpoint.
//
// Cases per property: 2,000 in quick (`npm test`), 50,000 in full
// (ACP_FULL=1) and long (CASES of test/python/oracle.ts).
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createNodeHost, createRegistry, init, validate } from '../acp.ts';
import { strictReviewSections } from '../runtime/documents.ts';
import { compareInstants, decodeText, firstReviewHeading, reviewHeadings, zonedInstant } from '../runtime/pytext.ts';
import { dumpsPy, lineReader, loadsPy } from '../runtime/pyjson.ts';
import { CASES, rng, runPython } from './python/oracle.ts';

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

/** A number as an event line may carry it: plain, or in a form JSON.parse and json.loads read apart. */
function numberText(r: Rand, n: number): string {
  return r() < 0.8 ? String(n) : pick(r, [`${n}.0`, `${n}e0`, `${n}E0`, '-0', '-0.0', '12345678901234567', '9007199254740993', ` ${n}`, `\t${n}`, `${n}.5`, '1e400', 'NaN', '-Infinity', `${n}e+0`, `${n}.00E-0`, `\n -${n}.0`, `1${'0'.repeat(400)}`]);
}

/** A string value: words, and now and then what could mislead a pattern (colons, digits, brackets, escapes). */
function stringText(r: Rand): string {
  const parts = ['a sentence', ': 1.5', ':12,', '[x]', '"q"', '\\', '\u00e9', 'seq', '10:05', '2026-01-01T00:00:00Z', ':-0', '1e5', '\u2028', '{}', 'v1.', '2e', 'x: -3E+1'];
  return JSON.stringify(Array.from({ length: Math.floor(r() * 3) }, () => pick(r, parts)).join(' '));
}

/** One line of a log: mostly an event as acp or the Python tools write it, sometimes anything. */
function lineText(r: Rand, seq: number): string {
  const roll = r();
  if (roll < 0.05) return pick(r, ['', '   ', 'not json', '{"seq": 1,', '[1, 2]', '1.0', '"x"', '{"10": "a", "9": "b"}', '{"\\u0031": 1}', '{"a": {"b": 1.0}}', '{"a": {"2": 1, "1": -0}}', '{"a": {"b": 1, "c": {"d": "x", "e": null}}}', '{"a": [1.0]}', '\ufeff{}']);
  const sep = r() < 0.5 ? [':', ','] : [': ', ', '];
  const key = (name: string): string => (r() < 0.03 ? pick(r, ['"s\\u0065q"', '"0"', '"01"', '"\\u0030"']) : JSON.stringify(name));
  const members = [
    `${key('seq')}${sep[0]}${numberText(r, seq)}`,
    `"from"${sep[0]}${JSON.stringify(pick(r, ['alice', 'bob']))}`,
    `"event"${sep[0]}"deliverable_revised"`,
    `"at"${sep[0]}"2026-01-01T00:00:${String(seq % 60).padStart(2, '0')}Z"`,
    `"summary"${sep[0]}${stringText(r)}`,
    `${key('reply_to')}${sep[0]}${numberText(r, seq - 1)}`,
  ];
  if (r() < 0.1) members.push(`"extra"${sep[0]}${pick(r, ['true', 'null', '{"n": 1}', '{"n": 1.0}', '[]', '"v"'])}`);
  return `{${members.join(sep[1])}}`;
}

/** What reading one line gave: its value as dumpsPy writes it (and the value itself), or the error's words. */
function reading(read: (line: string) => unknown, line: string): { value?: unknown; written?: string; error?: string } {
  try {
    const value = read(line);
    return { value, written: dumpsPy(value) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('lineReader: JSON.parse for a whole piece of the log reads every line as loadsPy does', () => {
  test(`${CASES} generated pieces of the log, event lines and any JSON`, () => {
    const r = rng(4242);
    let fast = 0;
    for (let k = 0; k < CASES; k++) {
      const lines = Array.from({ length: 1 + Math.floor(r() * 6) }, (_, i) => lineText(r, k * 10 + i + 1));
      const text = `${lines.join('\n')}\n`;
      const read = lineReader(text);
      if (read !== loadsPy) fast++;
      for (const line of lines) {
        const got = reading(read, line);
        const want = reading(loadsPy, line);
        expect(got.error ?? got.written, `${JSON.stringify(text)}: ${JSON.stringify(line)}`).toBe(want.error ?? want.written);
        expect(isDeepStrictEqual(got.value, want.value), JSON.stringify(line)).toBe(true);
      }
    }
    // Both readers are exercised.
    expect(fast).toBeGreaterThan(CASES / 10);
    expect(fast).toBeLessThan(CASES * 0.9);
  });

  test('the lines acp writes take JSON.parse; a float or an array anywhere in the piece does not', () => {
    const acp = '{"seq":2,"from":"alice","event":"deliverable_revised","at":"2026-01-01T00:00:00Z","summary":"Step 2, 1.5 words","reply_to":1}\n';
    expect(lineReader(acp)).not.toBe(loadsPy);
    for (const marked of ['{"seq":1.0}', '{"seq": 1.0}', '{"seq":\n -1.5}', '{"seq":1e0}', '{"seq":10E+2}', '{"seq":7e-1}', '{"a":"x1.","b":12.5}', '{"a":[1]}']) expect(lineReader(`${acp}${marked}\n`), marked).toBe(loadsPy);
    // A string's colon before a number, or a bracket, costs a false alarm only.
    expect(lineReader(acp.replace('Step 2,', 'Step: 2.5'))).toBe(loadsPy);
    expect(lineReader(acp.replace('Step 2,', 'Step: 2.'))).not.toBe(loadsPy);
  });

  test('-0, a long int, an index key or nesting beyond MAX_DEPTH leave the piece to JSON.parse, and their own line to loadsPy', () => {
    const acp = '{"seq":2,"from":"alice","event":"deliverable_revised","at":"2026-01-01T00:00:00Z","summary":"v1.5e3: 1 in 2.0","reply_to":1}\n';
    const deep = (levels: number): string => `${'{"a":'.repeat(levels - 1)}{"b":1}${'}'.repeat(levels - 1)}`;
    expect(isDeepStrictEqual(lineReader(`${acp}${deep(1000)}\n`)(deep(1000)), loadsPy(deep(1000)))).toBe(true);
    const lines = [deep(1001), '{"seq": -0}', '{"seq":12345678901234567}', '{"seq":9007199254740993}', '{"b":1,"10":1,"9":2}', '{"\\u0031":1}', '{"a":{"2":1,"1":-0}}', '{"__proto__":1}', '{}', `{"seq":1${'0'.repeat(400)}}`, `${'{"a":'.repeat(999)}{"b":-0}${'}'.repeat(999)}}`, `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`];
    for (const line of lines) {
      const read = lineReader(`${acp}${line}\n`);
      expect(read, line).not.toBe(loadsPy);
      const [got, want] = [reading(read, line), reading(loadsPy, line)];
      expect(got.error ?? got.written, line).toBe(want.error ?? want.written);
      expect(isDeepStrictEqual(got.value, want.value), line).toBe(true);
    }
  });
});

describe('decodeText: node:buffer stands in for the fatal TextDecoder', () => {
  /** The reference: TextDecoder's strict UTF-8, BOM kept, with universal newlines. */
  function reference(bytes: Uint8Array): string | undefined {
    try {
      const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      return text.replace(/\r\n?/g, '\n');
    } catch {
      return undefined;
    }
  }
  const attempt = (bytes: Uint8Array): string | undefined => {
    try {
      return decodeText(bytes, 'x');
    } catch {
      return undefined;
    }
  };

  test(`${CASES} random byte strings, and the sequences a strict decoder refuses`, () => {
    const r = rng(91);
    const pieces = [[0xef, 0xbb, 0xbf], [0xed, 0xa0, 0x80], [0xed, 0x9f, 0xbf], [0xc0, 0x80], [0xc2, 0x85], [0xe2, 0x80, 0xa8], [0xf4, 0x8f, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x9f, 0x98, 0x80], [0x0d, 0x0a], [0x0d], [0x80], [0xff], [0x41], [0x7b, 0x22]];
    let refused = 0;
    for (let k = 0; k < CASES; k++) {
      const bytes: number[] = [];
      for (let n = Math.floor(r() * 12); n > 0; n--) bytes.push(...(r() < 0.5 ? pick(r, pieces) : [Math.floor(r() * (r() < 0.7 ? 0x80 : 0x100))]));
      const input = Uint8Array.from(bytes);
      const want = reference(input);
      if (want === undefined) refused++;
      expect(attempt(input), JSON.stringify(bytes)).toBe(want);
    }
    expect(refused).toBeGreaterThan(CASES / 10);
  });

  test('a view into a larger buffer decodes its own bytes only', () => {
    const whole = new TextEncoder().encode('xx{"a":"é"}\nyy');
    expect(decodeText(whole.subarray(2, 13), 'x')).toBe('{"a":"é"}\n');
  });
});

describe('review headings: the plain line and the general matcher against Python', () => {
  const PATTERN = `import re
pattern = re.compile(r"^##\\s+.+?\\s+-\\s+(.+?)\\s+-\\s+seq\\s+(\\d+)\\s*$")`;
  const TOKENS = ['##', '#', ' ', ' ', ' ', '  ', '\t', '\u00a0', '-', ' - ', ' - ', 'seq', 'seq ', '1', '23', '٣', 'bob', 'alice smith', '2026-01-01T00:00:00Z', 'x', '-seq', ' -  seq', ' - seq 5'];

  test(`${CASES} heading-like lines: the seq and participant Python's pattern gives (or none)`, () => {
    const r = rng(515);
    const some = (): string => Array.from({ length: Math.floor(r() * 3) }, () => pick(r, TOKENS)).join('');
    const space = (): string => (r() < 0.85 ? ' ' : pick(r, ['', '  ', '\t', '\u00a0', ' \t']));
    const lines = Array.from({ length: CASES }, () => {
      const head = r() < 0.85 ? '##' : pick(r, ['#', '###', ' ##']);
      const title = r() < 0.8 ? '2026-01-01T00:00:00Z' : some();
      const who = r() < 0.7 ? pick(r, ['bob', 'alice smith', 'a-b', 'x - y']) : some();
      const seq = r() < 0.9 ? String(1 + Math.floor(r() * 99)) : pick(r, ['', '٣', '12345678901234567890', '1a']);
      return `${head}${space()}${title}${space()}-${space()}${who}${space()}-${space()}${r() < 0.9 ? 'seq' : some()}${space()}${seq}${r() < 0.8 ? '' : space()}`;
    });
    // The group as matched: the Python tools strip it afterwards and acp does not, a difference left to a change of its own.
    const python = runPython('m = pattern.match(x)\nout = [m.group(1), str(int(m.group(2)))] if m else None', lines, PATTERN) as { ok: [string, string] | null }[];
    let matched = 0;
    lines.forEach((line, k) => {
      const want = python[k]!.ok;
      if (want) matched++;
      const first = firstReviewHeading(line);
      expect(first && [first.participant, String(first.seq)], JSON.stringify(line)).toEqual(want ?? undefined);
    });
    expect(matched).toBeGreaterThan(CASES / 10);
  });

  test('whole review.md texts: every heading, one per seq in the order seqs first appear, the last participant of each', () => {
    const r = rng(616);
    const texts = Array.from({ length: Math.ceil(CASES / 20) }, () => {
      const lines = Array.from({ length: Math.floor(r() * 12) }, () => (r() < 0.6 ? `## 2026-01-01T00:00:00Z - ${pick(r, ['alice', 'bob', 'b  c'])} - seq ${1 + Math.floor(r() * 5)}${pick(r, ['', ' ', '  '])}` : pick(r, ['', 'Position:', '- Accept.', '##', '## x - y - seq', '### h - a - seq 2'])));
      return lines.join(pick(r, ['\n', '\n', '\r\n', '\u2028', '\f']));
    });
    const python = runPython('headings = {}\nfor line in x.splitlines():\n    m = pattern.match(line)\n    if m:\n        headings[int(m.group(2))] = m.group(1)\nout = [[p, str(s)] for s, p in headings.items()]', texts, PATTERN) as { ok: [string, string][] }[];
    texts.forEach((text, k) => {
      expect(reviewHeadings(text).map((h) => [h.participant, String(h.seq)]), JSON.stringify(text)).toEqual(python[k]!.ok);
    });
  });
});

describe("strict mode's review sections: a heading is looked for only where a declaration is missing", () => {
  test('the findings of a review.md whose sections mostly declare everything, and the headings asked for', () => {
    const declared = 'Context:\n- Reviewed primary deliverable: `d.md`\n\nReview Scope:\n- Primary deliverable completeness\n';
    const sections = [`## t - bob - seq 4\n\n${declared}`, '## t - bob - seq 14\n\nReview Scope:\n', `## no heading here\n\nx\n`, `## t - al - seq 24\n\n${declared}<!-- Review Scope: -->\n`, '## t - al - seq 34\n\n<!-- Reviewed primary deliverable: Review Scope: Primary deliverable completeness -->\n'];
    const asked: string[] = [];
    const heading = (line: string): { seq: number | bigint }[] => {
      asked.push(line);
      const found = firstReviewHeading(line);
      return found ? [found] : [];
    };
    const findings = strictReviewSections(`# Review\n\n${sections.join('\n')}`, heading);
    expect(findings).toEqual([
      { seq: 14, errors: ['review.md review of seq 14 must declare Reviewed primary deliverable', 'review.md review of seq 14 Review Scope must include Primary deliverable completeness'] },
      { seq: 34, errors: ['review.md review of seq 34 must declare Reviewed primary deliverable', 'review.md review of seq 34 must declare Review Scope', 'review.md review of seq 34 Review Scope must include Primary deliverable completeness'] },
    ]);
    expect(asked).toEqual(['## t - bob - seq 14', '## no heading here', '## t - al - seq 34']);
  });
});

/** An event's `at`: mostly the canonical form a second or two apart, and what else the tools may meet (the same instant spelled otherwise, fractions, invalid dates, no string). */
function atValue(r: Rand, second: number): unknown {
  const canonical = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString().replace('.000', '');
  if (r() < 0.7) return canonical(second + Math.floor(r() * 3) - 1);
  const base = canonical(second).slice(0, 19);
  return pick(r, [`${base}.000001Z`, `${base}+00:00`, `${base}.5+00:00`, `${canonical(second + 3600).slice(0, 19)}+01:00`, `${base}z`, `${base.slice(0, 5)}13${base.slice(7)}Z`, `${base.slice(0, 8)}32${base.slice(10)}Z`, `${base.slice(0, 17)}6${base.slice(18)}Z`, '2026-W01-4T00:00:00Z', '', 5, null]);
}

/** The time messages validate must give for these `at` values (seq 2 on), by zonedInstant and compareInstants. */
function expectedTimeMessages(ats: unknown[]): string[] {
  const messages: string[] = [];
  let last: ReturnType<typeof zonedInstant>;
  ats.forEach((at, k) => {
    const instant = zonedInstant(at);
    if (!instant) messages.push(`seq ${k + 2}: at must be an ISO-8601 timestamp`);
    else {
      if (last && compareInstants(instant, last) < 0) messages.push(`seq ${k + 2}: at must not be earlier than the previous event`);
      last = instant;
    }
  });
  return messages;
}

describe("the order of the events' times", () => {
  test('the messages zonedInstant and compareInstants give, on a first validate and after resuming from the checkpoint', async () => {
    const root = mkdtempSync(join(tmpdir(), 'acp-vfast-'));
    try {
      const host = await createNodeHost({ checkpointKeyFile: join(root, 'key') });
      const registry = await createRegistry();
      for (let seed = 1; seed <= 4; seed++) {
        const r = rng(seed);
        const folder = join(root, `f${seed}`);
        await init(host, folder, { participants: ['alice', 'bob'], objective: 'o', completion: ['c'], primaryType: 'adr' }, registry);
        // Long enough for a checkpoint (MIN_LOG_BYTES): the second half is appended after a first validate.
        const ats = Array.from({ length: 600 }, (_, k) => atValue(r, 2 * k));
        // Across the checkpoint's prefix: half a second into a second, then that second (earlier by its fraction).
        ats[299] = '2026-01-01T00:20:00.5+00:00';
        ats[300] = '2026-01-01T00:20:00Z';
        const lines = ats.map((at, k) => `${JSON.stringify({ seq: k + 2, from: 'alice', event: 'deliverable_revised', at, summary: 'x'.repeat(150), doc: 'deliverables/adr.md', reply_to: k + 1, role: 'primary' })}\n`);
        const log = join(folder, 'events.jsonl');
        // The initialized event before 1970 (a negative second): every time after it is later.
        writeFileSync(log, `${JSON.stringify({ seq: 1, from: 'alice', event: 'initialized', at: '1900-01-01T00:00:00Z', summary: 's', doc: 'protocol.json' })}\n${lines.slice(0, 300).join('')}`);
        const times = async (): Promise<string[]> => (await validate(host, folder, registry)).errors.filter((message) => / at must /.test(message));
        expect(await times(), `seed ${seed}, first half`).toEqual(expectedTimeMessages(ats.slice(0, 300)));
        appendFileSync(log, lines.slice(300).join(''));
        const expected = expectedTimeMessages(ats);
        expect(expected.length, 'the generator gives both messages').toBeGreaterThan(20);
        expect(await times(), `seed ${seed}, resumed`).toEqual(expected);
        expect(await times(), `seed ${seed}, again`).toEqual(expected);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
