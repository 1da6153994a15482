// Issue 28's examples, class by class: what the Python tools do on the same
// folder and command line, run through the CLI in-process. The property
// tests against python3 itself are test/pyjson.test.ts and test/pytext.test.ts.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
  const code = await runCli({ argv: [...argv, '--no-config'], stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
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
