// Issue 28's examples, class by class: what the Python tools do on the same
// folder and command line, run through the CLI in-process. The property
// tests against python3 itself are test/pyjson.test.ts and test/pytext.test.ts.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runCli } from '../acp.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'acp-py28-')));
  dirs.push(dir);
  return dir;
}

async function acp(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({ argv: argv[0] ? [argv[0], '--no-config', ...argv.slice(1)] : argv, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
  return { code, stdout, stderr };
}

/** `I` of the issue: a fresh collaboration of s and r. */
async function initFolder(folder: string): Promise<void> {
  const r = await acp('init', '--folder', folder, '--participant', 's', '--participant', 'r', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr');
  expect(r.stderr).toBe('');
}

const draft = (folder: string, ...extra: string[]): string[] => ['append', '--folder', folder, '--participant', 's', '--event', 'deliverable_drafted', '--summary', 'd', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md', ...extra];

describe('class 1: protocol.json rewritten by an append keeps every value', () => {
  test('big ints, floats, Infinity, keys "10"/"9" and __proto__ stay as Python writes them', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    const path = join(folder, 'protocol.json');
    const text = readFileSync(path, 'utf8').replace(/\n}\n$/, ',\n  "x": {"big": 123456789012345678901234567890, "one": 1.0, "nz": -0.0, "e16": 1e16, "small": 1e-7, "huge": 1e400, "10": 1, "9": 2, "__proto__": {"p": 1}}\n}\n');
    writeFileSync(path, text);
    expect((await acp(...draft(folder))).code).toBe(0);
    const after = readFileSync(path, 'utf8');
    expect(after).toContain('"x": {\n    "10": 1,\n    "9": 2,\n    "__proto__": {\n      "p": 1\n    },\n    "big": 123456789012345678901234567890,\n    "e16": 1e+16,\n    "huge": Infinity,\n    "nz": -0.0,\n    "one": 1.0,\n    "small": 1e-07\n  }');
  });

  test('a protocol.json that is a symlink is written through, the link kept', async () => {
    const root = tempDir();
    const folder = join(root, 'c');
    await initFolder(folder);
    const real = join(root, 'real-protocol.json');
    writeFileSync(real, readFileSync(join(folder, 'protocol.json')));
    rmSync(join(folder, 'protocol.json'));
    symlinkSync(real, join(folder, 'protocol.json'));
    expect((await acp(...draft(folder))).code).toBe(0);
    expect(realpathSync(join(folder, 'protocol.json'))).toBe(real);
    expect(readFileSync(real, 'utf8')).toContain('"currentPhase": "drafting"');
    expect(readFileSync(real, 'utf8')).toContain('"updatedAt"');
  });
});

describe('class 2: events and protocol.json are read with json.loads', () => {
  test('NaN and Infinity are accepted in events and protocol.json', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    writeFileSync(join(folder, 'protocol.json'), readFileSync(join(folder, 'protocol.json'), 'utf8').replace(/\n}\n$/, ',\n  "n": NaN\n}\n'));
    writeFileSync(join(folder, 'events.jsonl'), readFileSync(join(folder, 'events.jsonl'), 'utf8').replace(/}\n$/, ',"score":-Infinity}\n'));
    const r = await acp(...draft(folder));
    expect(r.stderr).toBe('');
    expect(readFileSync(join(folder, 'protocol.json'), 'utf8')).toContain('"n": NaN');
  });

  test("a JSON error is reported in Python's words", async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    writeFileSync(join(folder, 'protocol.json'), '{"schemaVersion": 2, x}');
    const r = await acp('next', '--folder', folder, '--participant', 's');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: invalid protocol.json: Expecting property name enclosed in double quotes: line 1 column 22 (char 21)\n');
    writeFileSync(join(folder, 'protocol.json'), '{}');
    writeFileSync(join(folder, 'events.jsonl'), '{"seq": 1,, }\n');
    const v = await acp('validate', '--folder', join(folder));
    expect(v.stdout).toContain("ERROR: events.jsonl line 1: invalid JSON: Expecting property name enclosed in double quotes: line 1 column 11 (char 10)");
  });

  test('"seq": 1.0 is a float: next prints it as Python does', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    writeFileSync(join(folder, 'events.jsonl'), readFileSync(join(folder, 'events.jsonl'), 'utf8').replace('{"seq":1,', '{"seq":1.0,'));
    const r = await acp('next', '--folder', folder, '--participant', 's');
    expect(r.stdout).toContain('last event: seq 1.0 initialized from s');
  });
});

describe('class 3: the log is split with str.splitlines()', () => {
  test('a line ending in \\x0c is a line; a raw U+2028 inside a string splits it', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    const log = join(folder, 'events.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').replace(/\n$/, '\x0c\n'));
    let v = await acp('validate', '--folder', folder);
    expect(v.stdout).not.toContain('invalid JSON');
    writeFileSync(log, readFileSync(log, 'utf8').replace('"summary":"', '"summary":"a\u2028b'));
    v = await acp('validate', '--folder', folder);
    expect(v.stdout).toContain('ERROR: events.jsonl line 1: invalid JSON: Unterminated string starting at');
    expect(v.stdout).toContain('ERROR: events.jsonl line 2: invalid JSON: Expecting value: line 1 column 1 (char 0)');
  });

  test('append still escapes U+2028 and friends', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    expect((await acp(...draft(folder).map((a) => (a === 'd' ? 'x\u2028y\u0085z' : a)))).code).toBe(0);
    expect(readFileSync(join(folder, 'events.jsonl'), 'utf8')).toContain('"summary":"x\\u2028y\\u0085z"');
  });
});

describe('class 12: Python text for non-string values in messages', () => {
  test('a dict keeps its insertion order; floats print as Python prints them', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    const log = join(folder, 'events.jsonl');
    writeFileSync(log, `${readFileSync(log, 'utf8')}{"seq":2,"from":"s","event":{"b":1,"2":2},"at":"2099-01-01T00:00:00Z","summary":"x","reply_to":1}\n{"seq":3,"from":"s","event":[1.0,1e16,-0.0],"at":"2099-01-01T00:00:00Z","summary":"x","reply_to":1}\n`);
    const v = await acp('validate', '--folder', folder);
    expect(v.stdout).toContain("ERROR: seq 2: unknown event {'b': 1, '2': 2}");
    expect(v.stdout).toContain('ERROR: seq 3: unknown event [1.0, 1e+16, -0.0]');
  });
});

describe('class 4: argparse converts every occurrence, and its words', () => {
  const usage = async (...argv: string[]): Promise<string> => {
    const r = await acp(...argv);
    expect(r.code).toBe(2);
    return r.stderr.trim().replace(/^error: /, '');
  };

  test('--reply-to x --reply-to 1 is refused at the first, as int() refuses it', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    expect(await usage(...draft(folder, '--reply-to', 'x', '--reply-to', '1'))).toBe("argument --reply-to: invalid int value: 'x'");
    expect(readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\n').length).toBe(2);
  });

  test('a negative number in Unicode digits is a value, not an option', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    expect(await usage(...draft(folder, '--reply-to', '-١'))).toBe('reply_to must point to an existing event');
  });

  test('unrecognized arguments in command-line order; -- kept; ambiguous prefixes echo the token; -hx and --help=x', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    expect(await usage('validate', '--folder', folder, 'stray', '--bogus')).toBe('unrecognized arguments: stray --bogus');
    expect(await usage(...draft(folder, '--', 'y'))).toBe('unrecognized arguments: -- y');
    expect(await usage('append', '--folder', folder, '--participant', 's', '--event', 'blocked', '--s=b')).toBe('ambiguous option: --s=b could match --summary, --sha256');
    expect(await usage('next', '--folder', folder, '--participant', 's', '--=x')).toBe('ambiguous option: --=x could match --help, --folder, --participant');
    expect(await usage('next', '--folder', folder, '-hx')).toBe("argument -h/--help: ignored explicit argument 'x'");
    expect(await usage('next', '--folder', folder, '--help=x')).toBe("argument -h/--help: ignored explicit argument 'x'");
  });
});

describe('class 5: an option acp adds never steals a Python prefix', () => {
  test('wait --t 5 is --timeout 5 (the Python tools have no --token)', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    const r = await acp('wait', '--folder', folder, '--participant', 's', '--t', '5');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('class 6: int() and float() as Python reads command-line numbers', () => {
  test("Unicode digits are numbers; \\x1c-\\x1f are not stripped", async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    expect((await acp('wait', '--folder', folder, '--participant', 's', '--timeout', '١.٥')).code).toBe(0);
    expect((await acp('wait', '--folder', folder, '--participant', 's', '--timeout', '１', '--interval', '٢')).code).toBe(0);
    const r = await acp('wait', '--folder', folder, '--participant', 's', '--timeout', '1\x1c');
    expect(r.stderr).toBe("error: argument --timeout: invalid float value: '1\\x1c'\n");
    const a = await acp(...draft(folder, '--reply-to', '1\x1f'));
    expect(a.stderr).toBe("error: argument --reply-to: invalid int value: '1\\x1f'\n");
  });
});

describe('class 11: empty strings are falsy, as in the Python tools', () => {
  test("append --doc '' --sha256 '' leaves both out of the event", async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    const r = await acp('append', '--folder', folder, '--participant', 's', '--event', 'blocked', '--summary', 'b', '--reply-to', '1', '--doc', '', '--sha256', '');
    expect(r.stderr).toBe('');
    const last = readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n').pop()!;
    expect(last).not.toContain('"doc"');
    expect(last).not.toContain('"sha256"');
  });
});

describe("class 11, init's half: empty --repo-root and --deliverables-dir", () => {
  const I = ['--participant', 's', '--participant', 'r', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr'];
  test("--repo-root '' is no --repo-root (internal: accepted, nothing recorded; external: required)", async () => {
    const folder = join(tempDir(), 'c');
    const r = await acp('init', '--folder', folder, ...I, '--repo-root', '');
    expect(r.stderr).toBe('');
    expect(readFileSync(join(folder, 'protocol.json'), 'utf8')).not.toContain('repoRoot');
    expect((await acp('validate', '--folder', folder)).code).toBe(0);
    const external = await acp('init', '--folder', join(tempDir(), 'e'), ...I, '--deliverables-mode', 'external', '--repo-root', '');
    expect(external.stderr).toBe('error: --repo-root is required when --deliverables-mode external\n');
  });

  test("--deliverables-dir '' is refused (Python writes a dir its own validate rejects), nothing written", async () => {
    const root = tempDir();
    const r = await acp('init', '--folder', join(root, 'c'), ...I, '--deliverables-dir', '');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --deliverables-dir must not be blank (a folder without deliverables.dir does not validate: deliverables.dir is required)\n');
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('class 9: at is read with datetime.fromisoformat (3.11)', () => {
  /** Replace the `at` of the log's events, in order. */
  function setTimes(folder: string, ...times: string[]): void {
    const path = join(folder, 'events.jsonl');
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    writeFileSync(path, lines.map((line, k) => (times[k] === undefined ? line : line.replace(/"at":"[^"]*"/, `"at":${JSON.stringify(times[k])}`))).join('\n') + '\n');
  }

  test('week dates, a space before the offset, long fractions; years below 100 are before 1949', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    expect((await acp(...draft(folder))).code).toBe(0);
    for (const [first, second] of [['0050-01-01T00:00:00Z', '1949-01-01T00:00:00Z'], ['2026-W01-1T00:00:00Z', '2025-12-29T00:00:00.0000001+00:00'], ['2026-01-01T05:00:00 +05:00', '2026-01-01T00:00:00.1234567Z']]) {
      setTimes(folder, first!, second!);
      const r = await acp('validate', '--folder', folder);
      expect(r.stdout, `${first} then ${second}`).not.toMatch(/at must/);
    }
    setTimes(folder, '1949-01-01T00:00:00Z', '0050-01-01T00:00:00Z');
    expect((await acp('validate', '--folder', folder)).stdout).toContain('ERROR: seq 2: at must not be earlier than the previous event');
  });

  test('2026-0101, a lowercase z and year 0000 are no timestamps; nor is a time whose UTC leaves years 1-9999 (Python: OverflowError)', async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    for (const at of ['2026-0101T00:00:00Z', '2026-01-01T00:00:00z', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00+05:00']) {
      setTimes(folder, at);
      const r = await acp('validate', '--folder', folder);
      expect(r.stdout, at).toContain('ERROR: seq 1: at must be an ISO-8601 timestamp');
      expect(r.code).not.toBe(0);
    }
  });

  test("a new event's at is never before the previous one, even with a fraction (rounded up to the second)", async () => {
    const folder = join(tempDir(), 'c');
    await initFolder(folder);
    setTimes(folder, '2999-01-01T00:00:00.5Z');
    expect((await acp(...draft(folder))).code).toBe(0);
    const last = JSON.parse(readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n').pop()!) as { at: string };
    expect(last.at).toBe('2999-01-01T00:00:01Z');
    expect((await acp('validate', '--folder', folder)).stdout).not.toMatch(/at must/);
  });
});

describe('class 10: paths resolve as pathlib resolves them', () => {
  test('through a symlinked folder, messages name the resolved path', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'E'));
    symlinkSync(join(root, 'E'), join(root, 'link'));
    const r = await acp('next', '--folder', join(root, 'link'), '--participant', 's');
    expect(r.stderr).toBe(`error: missing protocol.json in ${join(root, 'E')}\n`);
  });

  test('init --folder L/../X with a symlink L -> sub/in creates sub/X, as the OS resolves it', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'sub', 'in'), { recursive: true });
    symlinkSync('sub/in', join(root, 'L'));
    const r = await acp('init', '--folder', `${root}/L/../X`, '--participant', 's', '--participant', 'r', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr');
    expect(r.stdout).toBe(`Initialized ACP schema v2 collaboration folder: ${join(root, 'sub', 'X')}\n`);
    expect(readdirSync(join(root, 'sub')).sort()).toEqual(['X', 'in']);
  });

  test('~root/x is that user\'s home; ~nosuchuser is a clean error', async () => {
    const rootHome = readFileSync('/etc/passwd', 'utf8').split('\n').find((line) => line.startsWith('root:'))!.split(':')[5]!;
    const missing = `acp-py28-missing-${process.pid}`;
    const r = await acp('next', '--folder', `~root/${missing}`, '--participant', 's');
    expect(r.stderr).toBe(`error: missing protocol.json in ${join(realpathSync(rootHome), missing)}\n`);
    const unknown = await acp('next', '--folder', '~nosuchuser-acp/x', '--participant', 's');
    expect(unknown.stderr).toBe('error: Could not determine home directory.\n');
    expect(unknown.code).toBe(2);
  });

  test('init through a dangling protocol.json symlink out of the folder is refused, nothing written (issue 40: one inside is followed, test/conformance-iv.test.ts)', async () => {
    const folder = join(tempDir(), 'c');
    mkdirSync(folder);
    symlinkSync('/nonexistent/acp-target.json', join(folder, 'protocol.json'));
    const r = await acp('init', '--folder', folder, '--participant', 's', '--participant', 'r', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr');
    expect(r.stderr).toBe('error: protocol.json is a symbolic link to /nonexistent/acp-target.json, outside the folder: init does not create a file there (the Python tools would)\n');
    expect(readdirSync(folder)).toEqual(['protocol.json']);
  });
});

describe('class 7: arguments that were bytes not UTF-8 (surrogate escapes, as Python decodes argv)', () => {
  test("next names 's\\udcff'; append --summary 'x\\udcffy' writes nothing; init --folder 'F\\udcff' creates the byte name F\\xff", async () => {
    const root = tempDir();
    const folder = join(root, 'F\udcff');
    const made = await acp('init', '--folder', folder, '--participant', 's', '--participant', 'r', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr');
    expect(made.stderr).toBe('');
    expect(readdirSync(root, { encoding: 'buffer' }).map((name) => [...name])).toEqual([[0x46, 0xff]]);
    const next = await acp('next', '--folder', folder, '--participant', 's\udcff');
    expect(next.stderr).toBe("error: participant 's\\udcff' is not listed in protocol.json\n");
    const log = () => readFileSync(Buffer.concat([Buffer.from(`${root}/F`), Buffer.of(0xff), Buffer.from('/events.jsonl')]), 'utf8');
    const before = log();
    const append = await acp('append', '--folder', folder, '--participant', 's', '--event', 'deliverable_drafted', '--summary', 'x\udcffy', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md');
    expect(append.code).toBe(2);
    expect(append.stderr).toContain("error: cannot write the event: 'x\\udcffy' holds '\\udcff'");
    expect(log()).toBe(before);
    const objective = await acp('init', '--folder', join(root, 'G'), '--participant', 's', '--participant', 'r', '--objective', 'o\udcff', '--completion', 'g', '--primary-deliverable-type', 'adr');
    expect(objective.code).toBe(2);
    expect(objective.stderr).toContain("error: cannot write the new folder: 'o\\udcff' holds '\\udcff'");
    expect(readdirSync(root)).toHaveLength(1);
  });
});
