// Issue 12: the edges where acp parted ways with the Python tools, one test
// (or a few) per numbered item, in-process through runCli on a memory host.
// The recordings (test/conformance/scenarios-edges.jsonl.gz) replay these
// through the real CLI; here each rule is pinned on its own so a regression
// names the rule. Items 3 and 10 (--role choices, argparse) were already right
// before the issue was fixed; their tests guard them.
//
// The generated properties at the end run 15 cases each in quick (`npm
// test`) and 40 in full (ACP_FULL=1, `npm run test:all`) and long
// (test/scale.ts); ACP_FUZZ_RUNS sets the count.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type Host, createMemoryHost, expandUser, purePosixPath, pyRepr, runCli } from '../acp.ts';
import { byScale } from './scale.ts';

const F = '/w/collab';

interface Run {
  rc: number;
  stdout: string;
  stderr: string;
}

async function acp(host: Host, argv: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const rc = await runCli({ argv, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false, env: (n) => env[n] }, host);
  return { rc, stdout, stderr };
}

async function put(host: Host, path: string, text: string | Uint8Array): Promise<void> {
  const parts = posix.dirname(path).split('/').filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const dir = `/${parts.slice(0, i).join('/')}`;
    if (!(await host.fs.stat(dir))) await host.fs.mkdir(dir);
  }
  await host.fs.writeFile(path, text);
}

async function read(host: Host, path: string): Promise<string> {
  return new TextDecoder().decode(await host.fs.readFile(path));
}

/** A fresh folder: alice owns, bob reviews; extra init arguments appended. */
async function fresh(extra: string[] = [], participants = ['alice', 'bob']): Promise<Host> {
  const host = createMemoryHost({ cwd: '/w' });
  const argv = ['init', '--folder', F, '--objective', 'Pick', '--completion', 'Done', '--primary-deliverable-type', 'adr', ...participants.flatMap((p) => ['--participant', p]), ...extra];
  const r = await acp(host, argv);
  expect(r.stderr).toBe('');
  expect(r.rc).toBe(0);
  return host;
}

const errorLines = (r: Run): string[] => r.stdout.split('\n').filter((l) => l.startsWith('ERROR: '));

async function editProtocol(host: Host, change: (p: Record<string, unknown>) => void): Promise<void> {
  const p = JSON.parse(await read(host, `${F}/protocol.json`)) as Record<string, unknown>;
  change(p);
  await host.fs.writeFile(`${F}/protocol.json`, `${JSON.stringify(p, null, 2)}\n`);
}

async function writeEvents(host: Host, events: Record<string, unknown>[]): Promise<void> {
  await host.fs.writeFile(`${F}/events.jsonl`, events.map((e, i) => JSON.stringify({ seq: i + 1, at: '2026-01-01T00:00:00Z', ...e })).join('\n') + '\n');
}

describe('1. path normal forms (PurePosixPath)', () => {
  test('purePosixPath joins and normalises like Python', () => {
    expect(purePosixPath('docs/', 'adr.md')).toBe('docs/adr.md');
    expect(purePosixPath('./docs', './x.md')).toBe('docs/x.md');
    expect(purePosixPath('docs//x', 'sub//y.md')).toBe('docs/x/sub/y.md');
    expect(purePosixPath('.', 'adr.md')).toBe('adr.md');
    expect(purePosixPath('.')).toBe('.');
    expect(purePosixPath('')).toBe('.');
    expect(purePosixPath('a', '/b')).toBe('/b');
    expect(purePosixPath('//a//b')).toBe('//a/b');
    expect(purePosixPath('///a')).toBe('/a');
    expect(purePosixPath('a/../b')).toBe('a/../b');
  });

  test.each([
    [['--deliverables-dir', 'docs/'], 'docs/adr.md'],
    [['--deliverables-dir', './docs'], 'docs/adr.md'],
    [['--deliverables-dir', 'docs//x'], 'docs/x/adr.md'],
    [['--deliverables-dir', '.'], 'adr.md'],
    [['--primary-deliverable-file', './x.md'], 'deliverables/x.md'],
    [['--deliverables-dir', 'docs/', '--primary-deliverable-file', './sub//x.md'], 'docs/sub/x.md'],
  ])('init %j: the primary is %s and appending it is accepted', async (extra, ref) => {
    const host = await fresh(extra);
    const protocol = await read(host, `${F}/protocol.json`);
    expect(protocol).toContain(`Primary deliverable exists: \`${ref}\``);
    const r = await acp(host, ['append', '--folder', F, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 's', '--reply-to', '1', '--doc', ref, '--role', 'primary']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('appended seq 2: deliverable_drafted');
  });
});

describe('2. ~ in --folder and --repo-root', () => {
  test('--folder=~/G is the home folder, not ./~', async () => {
    const host = createMemoryHost({ cwd: '/w' });
    await host.fs.mkdir('/home');
    await host.fs.mkdir('/home/u');
    const r = await acp(host, ['init', '--folder=~/G', '--objective', 'o', '--completion', 'c', '--primary-deliverable-type', 'adr', '--participant', 'a', '--participant', 'b'], { HOME: '/home/u' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('Initialized ACP schema v2 collaboration folder: /home/u/G');
    expect(await host.fs.stat('/home/u/G/protocol.json')).not.toBeNull();
    expect(await host.fs.stat('/w/~')).toBeNull();
  });

  test('--repo-root ~/r expands and is then refused as absolute', async () => {
    const host = createMemoryHost({ cwd: '/w' });
    const r = await acp(host, ['init', '--folder', F, '--objective', 'o', '--completion', 'c', '--primary-deliverable-type', 'adr', '--participant', 'a', '--participant', 'b', '--deliverables-mode', 'external', '--repo-root', '~/r'], { HOME: '/home/u' });
    expect(r.rc).toBe(2);
    expect(r.stderr).toBe('error: --repo-root must be relative to the collaboration folder\n');
  });

  test('expandUser leaves other tildes alone; ~user is looked up (Path.expanduser, issue 28 class 10)', () => {
    const env = (n: string) => (n === 'HOME' ? '/h/' : undefined);
    expect(expandUser('~', env)).toBe('/h');
    expect(expandUser('~/x', env)).toBe('/h/x');
    expect(expandUser('a/~', env)).toBe('a/~');
    expect(expandUser('~user/x', env, { userHome: (name) => (name === 'user' ? '/u' : undefined) })).toBe('/u/x');
    expect(() => expandUser('~user/x', env)).toThrow('Could not determine home directory.');
  });
});

describe('3. --role choices', () => {
  test.each(['PRIMARY', 'bogus', 'primary '])('--role %j is refused with argparse wording', async (role) => {
    const host = await fresh();
    const before = await read(host, `${F}/events.jsonl`);
    const r = await acp(host, ['append', '--folder', F, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 's', '--reply-to', '1', '--doc', 'deliverables/adr.md', '--role', role]);
    expect(r.rc).toBe(2);
    expect(r.stderr).toBe(`error: argument --role: invalid choice: ${pyRepr(role)} (choose from 'primary', 'supporting')\n`);
    expect(await read(host, `${F}/events.jsonl`)).toBe(before);
  });
});

describe('4. attachments live in the deliverables directory', () => {
  test('found there, missing when only in the folder', async () => {
    const host = await fresh(['--deliverables-dir', 'docs/']);
    await editProtocol(host, (p) => ((p.deliverables as { attachments: unknown[] }).attachments = [{ file: 'sub/data.csv' }]));
    await put(host, `${F}/sub/data.csv`, 'x');
    let r = await acp(host, ['validate', '--folder', F]);
    expect(errorLines(r)).toContain('ERROR: attachment missing: sub/data.csv');
    await put(host, `${F}/docs/sub/data.csv`, 'x');
    r = await acp(host, ['validate', '--folder', F]);
    expect(errorLines(r).filter((l) => l.includes('attachment'))).toEqual([]);
  });
});

describe('5. missing events.jsonl', () => {
  test.each([
    ['next', ['--participant', 'alice']],
    ['append', ['--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 's', '--doc', 'deliverables/adr.md', '--role', 'primary']],
    ['wait', ['--participant', 'alice', '--timeout', '1']],
  ])('%s stops with error: missing events.jsonl and writes nothing', async (cmd, args) => {
    const host = await fresh();
    await host.fs.remove(`${F}/events.jsonl`);
    const protocol = await read(host, `${F}/protocol.json`);
    const r = await acp(host, [cmd, '--folder', F, ...args]);
    expect(r.rc).toBe(2);
    expect(r.stderr).toBe('error: missing events.jsonl\n');
    expect(await host.fs.stat(`${F}/events.jsonl`)).toBeNull();
    expect(await read(host, `${F}/protocol.json`)).toBe(protocol);
  });

  test('validate reports it twice, as the Python tools do (a missing file, an unreadable log)', async () => {
    const host = await fresh();
    await host.fs.remove(`${F}/events.jsonl`);
    const r = await acp(host, ['validate', '--folder', F]);
    expect(errorLines(r).filter((l) => l === 'ERROR: missing events.jsonl')).toHaveLength(2);
  });
});

describe('6. empty or unreadable log', () => {
  test.each(['empty', 'missing'])('%s log: only waitingFor is compared', async (how) => {
    const host = await fresh();
    if (how === 'empty') await host.fs.writeFile(`${F}/events.jsonl`, '');
    else await host.fs.remove(`${F}/events.jsonl`);
    const r = await acp(host, ['validate', '--folder', F]);
    const cached = errorLines(r).filter((l) => l.startsWith('ERROR: protocol.json'));
    expect(cached).toEqual(["ERROR: protocol.json waitingFor is ['alice'], expected []"]);
  });
});

describe('7. repr() quoting', () => {
  test.each([
    ["o'neil", `"o'neil"`],
    [`o'n"x`, `'o\\'n"x'`],
    ['👩\u200d💻', "'👩\\u200d💻'"],
    ['a\u200cb', "'a\\u200cb'"],
    ['x\u00a0y', "'x\\xa0y'"],
    ['\u200fא', "'\\u200fא'"],
    ['a\u3000b', "'a\\u3000b'"],
    ['\u{f0000}', "'\\U000f0000'"],
    ['a b', "'a b'"],
    ['אב', "'אב'"],
  ])('pyRepr(%j) is %s', (value, expected) => {
    expect(pyRepr(value)).toBe(expected);
  });

  test('an unknown participant is quoted with repr', async () => {
    const host = await fresh();
    const r = await acp(host, ['next', '--folder', F, '--participant', "o'neil"]);
    expect(r.stderr).toBe(`error: participant "o'neil" is not listed in protocol.json\n`);
    const zwj = await acp(host, ['next', '--folder', F, '--participant', 'x\u200dy']);
    expect(zwj.stderr).toBe("error: participant 'x\\u200dy' is not listed in protocol.json\n");
  });

  test('cached waitingFor with an NBSP id is escaped', async () => {
    const host = await fresh([], ['x\u00a0y', 'bob']);
    await host.fs.writeFile(`${F}/events.jsonl`, '');
    const r = await acp(host, ['validate', '--folder', F]);
    expect(errorLines(r)).toContain("ERROR: protocol.json waitingFor is ['x\\xa0y'], expected []");
  });
});

describe('8. missing error lines', () => {
  const ADR = (status: string | undefined) =>
    `# ADR\n\n${status === undefined ? '' : `Status: ${status}\n\n`}## Context\n\nc\n\n## Decision\n\nd\n\n## Consequences\n\nx\n\n## Alternatives Considered\n\na\n`;

  test('no Status line where frozen content is required: both errors', async () => {
    const host = await fresh();
    const text = ADR(undefined);
    await put(host, `${F}/deliverables/adr.md`, text);
    const sha = createHash('sha256').update(text).digest('hex');
    await writeEvents(host, [
      { event: 'initialized', from: 'alice', summary: 's' },
      { event: 'deliverable_frozen', from: 'alice', summary: 's', reply_to: 1, doc: 'deliverables/adr.md', role: 'primary', sha256: sha },
    ]);
    const lines = errorLines(await acp(host, ['validate', '--folder', F]));
    expect(lines).toContain('ERROR: primary deliverable must include Status: Draft, In Review, or Frozen');
    expect(lines).toContain('ERROR: primary deliverable status must be Frozen');
  });

  test('a supporting deliverable frozen by an event but not marked frozen gets the frozen checks', async () => {
    const host = await fresh();
    await editProtocol(host, (p) => ((p.deliverables as { supporting: unknown[] }).supporting = [{ type: 'adr', file: 's.md' }]));
    const text = ADR('Draft').replace('## Decision\n\nd\n', '## Decision\n\n');
    await put(host, `${F}/deliverables/s.md`, text);
    const sha = createHash('sha256').update(text).digest('hex');
    await writeEvents(host, [
      { event: 'initialized', from: 'alice', summary: 's' },
      { event: 'deliverable_frozen', from: 'alice', summary: 's', reply_to: 1, doc: 'deliverables/s.md', role: 'supporting', sha256: sha },
    ]);
    const lines = errorLines(await acp(host, ['validate', '--folder', F]));
    expect(lines).toContain('ERROR: supporting deliverable has freeze event but is not marked frozen: deliverables/s.md');
    expect(lines).toContain('ERROR: supporting deliverable deliverables/s.md status must be Frozen');
    expect(lines).toContain('ERROR: supporting deliverable deliverables/s.md section must not be empty when frozen: Decision');
  });
});

describe('9. small ones', () => {
  test('wait on an invalid cached phase exits 0 once the participant is listed', async () => {
    const host = await fresh();
    await editProtocol(host, (p) => (p.currentPhase = 'bogus'));
    const r = await acp(host, ['wait', '--folder', F, '--participant', 'alice', '--timeout', '1']);
    expect(r.rc).toBe(0);
    expect(r.stdout).toContain('action: run validate_collaboration.py; current phase is invalid.');
    const json = await acp(host, ['wait', '--folder', F, '--participant', 'alice', '--timeout', '1', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, exitCode: 0, phase: 'bogus' });
  });

  test('next with a cached reviewing phase but no proposal event does not ask for a review', async () => {
    const host = await fresh();
    await editProtocol(host, (p) => ((p.currentPhase = 'reviewing'), (p.waitingFor = ['bob'])));
    const r = await acp(host, ['next', '--folder', F, '--participant', 'bob']);
    expect(r.rc).toBe(0);
    expect(r.stdout).toContain('wait for the listed reviewer(s) to submit review_submitted or blocked.');
  });

  test('a BOM in protocol.json is refused with json.loads wording', async () => {
    const host = await fresh();
    await host.fs.writeFile(`${F}/protocol.json`, `\ufeff${await read(host, `${F}/protocol.json`)}`);
    const message = 'invalid protocol.json: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)';
    const next = await acp(host, ['next', '--folder', F, '--participant', 'alice']);
    expect(next.rc).toBe(2);
    expect(next.stderr).toBe(`error: ${message}\n`);
    expect(errorLines(await acp(host, ['validate', '--folder', F]))).toContain(`ERROR: ${message}`);
  });

  test.each(['readiness.md', 'review.md', 'decisions.md', 'conclusion.md', 'proposal.md'])('%s being a directory is an error, never a pass', async (name) => {
    const host = await fresh();
    await host.fs.remove(`${F}/${name}`);
    await host.fs.mkdir(`${F}/${name}`);
    const r = await acp(host, ['validate', '--folder', F]);
    expect(r.rc).toBe(2);
    expect(errorLines(r)).toContain(`ERROR: ${name} is a directory, not a file`);
  });

  test('next in readiness_check with readiness.md a directory stops with an error', async () => {
    const host = await fresh();
    await editProtocol(host, (p) => (p.currentPhase = 'readiness_check'));
    await host.fs.remove(`${F}/readiness.md`);
    await host.fs.mkdir(`${F}/readiness.md`);
    const r = await acp(host, ['next', '--folder', F, '--participant', 'alice']);
    expect(r.rc).toBe(2);
    expect(r.stderr).toBe('error: readiness.md is a directory, not a file\n');
  });
});

describe('10. argparse behaviour', () => {
  const base = ['append', '--folder', F, '--participant', 'alice', '--event', 'deliverable_drafted', '--doc', 'deliverables/adr.md', '--role', 'primary'];

  test('unambiguous prefixes and last-wins', async () => {
    const host = await fresh();
    const r = await acp(host, [...base, '--summ', 'first', '--summary', 'second', '--reply', '1', '--json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, exitCode: 0, event: { seq: 2, summary: 'second', reply_to: 1 } });
  });

  test('int() parsing: underscores and non-ASCII digits', async () => {
    const host = await fresh();
    const r = await acp(host, [...base, '--summary', 's', '--reply-to', '\u0661', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ event: { reply_to: 1 } });
    const bad = await acp(host, [...base, '--summary', 's', '--reply-to', '1_']);
    expect(bad.stderr).toBe("error: argument --reply-to: invalid int value: '1_'\n");
  });

  test('a negative number is a value: a negative --timeout is over at once, as in Python (issue 40)', async () => {
    const host = await fresh();
    const r = await acp(host, ['wait', '--folder', F, '--participant', 'bob', '--timeout', '-1']);
    expect(r.rc).toBe(1);
    expect(r.stderr).toMatch(/^timeout: waiting for /);
    const nan = await acp(host, ['wait', '--folder', F, '--participant', 'bob', '--interval', 'nan']);
    expect(nan.stderr).toBe("error: argument --interval: invalid non-negative number: 'nan'\n");
  });
});

describe('11. --json consistency', () => {
  test('validate with warnings only: exit 1, ok false', async () => {
    const host = await fresh();
    await host.fs.writeFile(`${F}/readiness.md`, '# Readiness\n\n- [deferred_nonblocking] later\n');
    const r = await acp(host, ['validate', '--folder', F, '--json']);
    const json = JSON.parse(r.stdout) as { ok: boolean; exitCode: number; errors: string[]; warnings: string[] };
    expect(json.errors).toEqual([]);
    expect(json.warnings.length).toBeGreaterThan(0);
    expect(r.rc).toBe(1);
    expect(json).toMatchObject({ ok: false, exitCode: 1 });
  });

  test('wait timeout: ok false, exitCode 1, error (not reason)', async () => {
    const host = await fresh();
    const r = await acp(host, ['wait', '--folder', F, '--participant', 'bob', '--timeout', '0.05', '--json']);
    expect(r.rc).toBe(1);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ ok: false, exitCode: 1, timeout: true });
    expect(typeof json.error).toBe('string');
    expect(json).not.toHaveProperty('reason');
  });

  test.each([
    ['init', ['--folder', '/w/other', '--objective', 'o', '--completion', 'c', '--primary-deliverable-type', 'adr', '--participant', 'a', '--participant', 'b']],
    ['next', ['--folder', F, '--participant', 'alice']],
    ['validate', ['--folder', F]],
    ['next', ['--folder', F, '--participant', 'nobody']],
    ['plugins', []],
  ])('%s %j: the object carries ok and exitCode, ok false iff exit ≠ 0', async (cmd, args) => {
    const host = await fresh();
    const r = await acp(host, [cmd, ...args, '--json']);
    const json = JSON.parse(r.stdout) as { ok: unknown; exitCode: unknown };
    expect(json.exitCode).toBe(r.rc);
    expect(json.ok).toBe(r.rc === 0);
  });
});

// ------------------------------------------------------------ properties
// Generated collaborations along the issue's axes. There is no Python here,
// so the oracle is a set of invariants the Python tools also keep:
// - spellings that are the same PurePosixPath give the same folder (same
//   protocol.json gates, same references) and appending the normal-form
//   reference is accepted; validate passes before and after that append;
// - a declared attachment placed in the deliverables directory is found;
// - any id: next works for it, and an unknown id is refused with a repr that
//   decodes back to the id and holds nothing str.isprintable refuses;
// - any role spelling other than primary/supporting is refused, log untouched;
// - a missing log stops next/append/wait with `missing events.jsonl`, nothing
//   written; an empty one makes validate compare only waitingFor.
describe('issue 12 axes, generated (fast-check)', () => {
  const RUNS = Number(process.env.ACP_FUZZ_RUNS) || byScale({ quick: 15, full: 40 });
  const segment = fc.constantFrom('docs', 'out', 'x', 'sub', 'd-1');
  /** A relative spelling of `segments`: `./` prefixes, doubled and trailing slashes, `.` segments. */
  const spelling = (segments: string[]) =>
    fc.tuple(fc.boolean(), fc.array(fc.constantFrom('/', '//', '/./'), { minLength: segments.length, maxLength: segments.length }), fc.boolean()).map(([dot, seps, trail]) => {
      const body = segments.map((s, i) => (i === 0 ? s : `${seps[i]!}${s}`)).join('');
      return `${dot ? './' : ''}${body}${trail ? '/' : ''}`;
    });
  const dirAndSpellings = fc.array(segment, { minLength: 1, maxLength: 3 }).chain((segs) => fc.tuple(fc.constant(segs), spelling(segs), spelling(segs)));

  const validateErrors = async (host: Host): Promise<string[]> => errorLines(await acp(host, ['validate', '--folder', F]));

  test('directory and file spellings: same PurePosixPath, same folder; the normal form appends and validates', async () => {
    await fc.assert(
      fc.asyncProperty(dirAndSpellings, fc.boolean(), fc.constantFrom('.', ''), async ([segs, a, b], dotFile, dirDot) => {
        const file = `${dotFile ? './' : ''}adr.md`;
        const dirA = dirDot === '.' ? '.' : a;
        const dirB = dirDot === '.' ? './' : b;
        const hostA = await fresh(['--deliverables-dir', dirA, '--primary-deliverable-file', file]);
        const hostB = await fresh(['--deliverables-dir', dirB, '--primary-deliverable-file', 'adr.md']);
        const gates = async (h: Host) => (JSON.parse(await read(h, `${F}/protocol.json`)) as { completionGates: unknown }).completionGates;
        expect(await gates(hostA)).toEqual(await gates(hostB));
        const ref = dirDot === '.' ? 'adr.md' : `${segs.join('/')}/adr.md`;
        expect(purePosixPath(dirA, file)).toBe(ref);
        expect(await validateErrors(hostA)).toEqual([]);
        const r = await acp(hostA, ['append', '--folder', F, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 's', '--reply-to', '1', '--doc', ref, '--role', 'primary']);
        expect(r.stderr).toBe('');
        expect(await validateErrors(hostA)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  test('attachments: found in the deliverables directory under any spelling of it', async () => {
    await fc.assert(
      fc.asyncProperty(dirAndSpellings, fc.constantFrom('a.csv', 'sub/a.csv', './a.csv'), async ([segs, spelled], attachment) => {
        const host = await fresh(['--deliverables-dir', spelled]);
        await editProtocol(host, (p) => ((p.deliverables as { attachments: unknown[] }).attachments = [{ file: attachment }]));
        expect(await validateErrors(host)).toEqual([`ERROR: attachment missing: ${attachment}`]);
        await put(host, `${F}/${segs.join('/')}/${purePosixPath(attachment)}`, 'x');
        expect(await validateErrors(host)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  /** Ids as agents type them: quotes, ZWJ emoji, NBSP, bidi marks, Hebrew, CJK spaces. */
  const oddId = fc
    .array(fc.constantFrom('a', 'o', "'", '"', '\\', ' ', '\u00a0', '\u200d', '\u200c', '\u200f', '\u3000', 'א', '👩', '💻', '\u{f0000}', '\t'), { minLength: 1, maxLength: 6 })
    .map((chars) => `x${chars.join('')}y`);

  /** Undo Python's repr of a str (the escapes pyRepr produces). */
  const unrepr = (text: string): string => {
    const body = text.slice(1, -1);
    return body.replace(/\\(x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|.)/g, (_, e: string) =>
      e.length > 1 ? String.fromCodePoint(Number.parseInt(e.slice(1), 16)) : ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e] ?? e,
    );
  };

  test('odd participant ids: next works for them; unknown ones are refused with a decodable, printable repr', async () => {
    await fc.assert(
      fc.asyncProperty(oddId, async (id) => {
        const host = await fresh([], [id, 'bob']);
        const ok = await acp(host, ['next', '--folder', F, '--participant', id]);
        expect(ok.stderr).toBe('');
        expect(ok.rc).toBe(0);
        const stranger = `${id}!`;
        const r = await acp(host, ['next', '--folder', F, '--participant', stranger]);
        expect(r.rc).toBe(2);
        const quoted = /^error: participant (.*) is not listed in protocol\.json\n$/s.exec(r.stderr)?.[1];
        expect(quoted).toBeDefined();
        expect(unrepr(quoted!)).toBe(stranger);
        expect(quoted).not.toMatch(/(?! )[\p{C}\p{Z}]/u);
        expect(quoted!.startsWith('"')).toBe(stranger.includes("'") && !stranger.includes('"'));
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  test('role spellings: anything but primary/supporting is refused and nothing is written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom('PRIMARY', 'Primary', 'primary ', ' supporting', 'Supporting', 'bogus', ''), fc.string({ maxLength: 8 })), async (role) => {
        fc.pre(role !== 'primary' && role !== 'supporting');
        const host = await fresh();
        const before = await read(host, `${F}/events.jsonl`);
        const r = await acp(host, ['append', '--folder', F, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 's', '--reply-to', '1', '--doc', 'deliverables/adr.md', `--role=${role}`]);
        expect(r.rc).toBe(2);
        expect(r.stderr).toBe(`error: argument --role: invalid choice: ${pyRepr(role)} (choose from 'primary', 'supporting')\n`);
        expect(await read(host, `${F}/events.jsonl`)).toBe(before);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  test('missing or empty log, at any point of a short run', async () => {
    const steps = ['deliverable_drafted', 'proposal_submitted'] as const;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: steps.length }), fc.boolean(), fc.constantFrom('next', 'append', 'wait'), async (done, empty, cmd) => {
        const host = await fresh();
        for (const [i, event] of steps.slice(0, done).entries()) {
          const doc = event === 'deliverable_drafted' ? ['--doc', 'deliverables/adr.md', '--role', 'primary'] : [];
          const r = await acp(host, ['append', '--folder', F, '--participant', 'alice', '--event', event, '--summary', 's', '--reply-to', String(i + 1), ...doc]);
          expect(r.stderr).toBe('');
        }
        const protocol = await read(host, `${F}/protocol.json`);
        const waiting = (JSON.parse(protocol) as { waitingFor: string[] }).waitingFor;
        if (empty) await host.fs.writeFile(`${F}/events.jsonl`, '');
        else await host.fs.remove(`${F}/events.jsonl`);
        const cached = (await validateErrors(host)).filter((l) => l.startsWith('ERROR: protocol.json'));
        expect(cached).toEqual([`ERROR: protocol.json waitingFor is ${pyRepr(waiting)}, expected []`]);
        if (empty) return;
        const args = cmd === 'append' ? ['--event', 'blocked', '--summary', 's', '--reply-to', '1'] : cmd === 'wait' ? ['--timeout', '0.05'] : [];
        const r = await acp(host, [cmd, '--folder', F, '--participant', 'alice', ...args]);
        expect([r.rc, r.stderr]).toEqual([2, 'error: missing events.jsonl\n']);
        expect(await host.fs.stat(`${F}/events.jsonl`)).toBeNull();
        expect(await read(host, `${F}/protocol.json`)).toBe(protocol);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
