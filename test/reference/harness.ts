// The differential harness of issue 40: the reference Python tool set
// (../shared/reference/acp-python, MIT) is the oracle. Each case is a folder
// (its files) and one command line; the harness writes two identical copies,
// runs the reference on one (every case of a test file in one python3, see
// driver.py) and acp on the other (in-process, runCli), and compares exit
// code, stdout, stderr and the files left behind.
//
// Where the reference and ../shared/spec/protocol.md differ, the spec wins:
// SPEC_WINS lists every such place, with the spec's sentence, and how the
// harness treats it. A case on which the reference crashes (a traceback,
// exit 1) passes when acp gives a clean `error: …`, exit 2, and leaves the
// folder as it was (the spec's "the runtime reports a clear error instead").
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../acp.ts';
import { asciiJson, python3 } from '../python/oracle.ts';
import { referenceDir, referenceMissing, sharedDir } from '../python/reference.ts';

export { referenceDir, referenceMissing, sharedDir };

const HERE = dirname(fileURLToPath(import.meta.url));

/** acp's command word → the reference script that does the same. */
export const SCRIPTS: Record<string, string> = {
  init: 'init_collaboration',
  append: 'append_event',
  next: 'next_action',
  validate: 'validate_collaboration',
  wait: 'wait_for_turn',
};

/** A file of a case: text, bytes, or a symbolic link to `link`. */
export type CaseFile = string | Uint8Array | { link: string };

/** One differential case: the folder tree (paths relative to the case's directory) and the command line. */
export interface RefCase {
  /** Where it came from (generator and seed), for the report. */
  label: string;
  files: Record<string, CaseFile>;
  /** acp's command word, then the arguments as both get them (cwd: the case's directory). */
  argv: string[];
}

/** What one side did. */
export interface Outcome {
  rc: number;
  stdout: string;
  stderr: string;
  /** Every file after the command (names starting `.acp` left out: acp's lock and checkpoint), normalised (see snapshot). */
  files: Record<string, string>;
}

/** One place where the spec wins over the reference, and how the harness keeps it out of the comparison. */
export interface SpecWins {
  /** The spec's sentence (../shared/spec/protocol.md). */
  spec: string;
  /** Whether the difference applies to this case; such cases are not sent to the reference, or their named part is not compared. */
  applies(c: RefCase): boolean;
  /** What is left out when it applies. */
  leaves: 'case' | 'init documents';
}

/** Whether argv names `option` (argparse: any prefix of at least `--` and two characters, with or without `=value`). */
function namesOption(argv: readonly string[], option: string): boolean {
  return argv.some((arg) => {
    const name = arg.split('=', 1)[0]!;
    return name.length >= 3 && option.startsWith(name);
  });
}

/** Every place where the reference and the spec differ: the spec wins. */
export const SPEC_WINS: readonly SpecWins[] = [
  {
    spec: "[beyond] exceptions stay as listed in this document; `wait`'s default timeout stays 30 minutes (the protocol's text).",
    // The reference would wait forever (its default is no timeout); acp for 30 minutes.
    applies: (c) => c.argv[0] === 'wait' && !namesOption(c.argv, '--timeout'),
    leaves: 'case',
  },
  {
    spec: '[beyond] init never overwrites a file that already exists (the common tools silently replace an existing README.md or deliverable): it stops with a clear error naming the files, and writes nothing.',
    // A regular file where init writes (directories and symbolic links are compared).
    applies: (c) => c.argv[0] === 'init' && Object.entries(c.files).some(([name, content]) => !name.endsWith('/') && !(typeof content === 'object' && 'link' in content)),
    leaves: 'case',
  },
  {
    spec: 'Files written: protocol.json, the primary deliverable template, README.md, proposal.md, review.md (heading rule + template naming the primary reference), decisions.md (…), readiness.md (…), conclusion.md (…)',
    // The spec says what each document must hold, not its words: init's documents are compared by name, protocol.json and events.jsonl by content.
    applies: (c) => c.argv[0] === 'init',
    leaves: 'init documents',
  },
];

/**
 * acp's deliberate refusals where the reference carries a command out, each
 * with its reason as docs/spec-notes.md gives it. A case agrees when acp
 * refused with this message (exit 2) and left the folder as it was.
 */
export const DELIBERATE: readonly { note: string; message: RegExp }[] = [
  {
    note: 'A seq past 2^53 - 1: acp numbers events with JavaScript numbers, exact to 2^53 - 1; past it every later event would get the same seq, so acp refuses to number one (the Python tools, with unbounded ints, go on).',
    message: /^events\.jsonl holds a seq of 2\^53 - 1 or more; acp cannot number the next event exactly/,
  },
  {
    note: 'init through a dangling protocol.json symbolic link whose target is outside the folder: acp writes nothing outside the collaboration folder through a link another writer could have planted (the Python tools create the target).',
    message: /^protocol\.json is a symbolic link to .*, outside the folder: init does not create a file there/,
  },
];

/** The spec-wins entry that keeps a whole case out, if any. */
export function excludedBySpec(c: RefCase): SpecWins | undefined {
  return SPEC_WINS.find((rule) => rule.leaves === 'case' && rule.applies(c));
}

function writeTree(dir: string, files: Record<string, CaseFile>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    if (name.endsWith('/')) {
      mkdirSync(path, { recursive: true });
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    if (typeof content === 'object' && 'link' in content) symlinkSync(content.link, path);
    else writeFileSync(path, content);
  }
}

const STAMP = /"(updatedAt|createdAt)": "[^"]*"/g;

/**
 * The files under `dir`, by relative path: text as written, but
 * protocol.json's (any JSON file's) `updatedAt`/`createdAt` blanked and events.jsonl's lines
 * after `before`'s read as JSON with `at` left out (both sides stamp their
 * own clock; acp escapes U+0085/U+2028/U+2029 where the reference writes
 * them raw, spec §4 [beyond]). A symbolic link is `-> target`.
 */
function snapshot(dir: string | Buffer, before: Record<string, CaseFile>, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (!existsSync(dir)) return out;
  // Names are read as bytes: a name that is not UTF-8 (init --folder $'N\xff') is kept as its bytes.
  for (const entry of readdirSync(dir, { encoding: 'buffer' })) {
    if (entry.toString('latin1').startsWith('.acp')) continue;
    const path = Buffer.concat([Buffer.from(dir), Buffer.from('/'), entry]);
    const name = `${prefix}${nameOf(entry)}`;
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) out[name] = `-> ${readlinkSync(path, 'utf8')}`;
    else if (stat.isDirectory()) {
      out[`${name}/`] = '';
      snapshot(path, before, `${name}/`, out);
    } else out[name] = normaliseFile(name, readFileSync(path, 'latin1'), before[name]);
  }
  return out;
}

/** A file name: its text when it is UTF-8, else its bytes as `\xNN` (Python's surrogateescape, written out). */
function nameOf(entry: Buffer): string {
  const text = entry.toString('utf8');
  return Buffer.from(text).equals(entry) ? text : [...entry].map((b) => (b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16)}`)).join('');
}

function normaliseFile(name: string, text: string, before: CaseFile | undefined): string {
  // protocol.json, or the file a protocol.json link points to.
  if (name.endsWith('.json')) return text.replace(STAMP, '"$1": "<time>"');
  if (!name.endsWith('events.jsonl')) return text;
  const old = typeof before === 'string' ? Buffer.from(before, 'utf8').toString('latin1') : '';
  if (!text.startsWith(old)) return text;
  const added = Buffer.from(text.slice(old.length), 'latin1').toString('utf8').split('\n');
  return old + added.map((line) => {
    try {
      const { at: _at, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return `<event ${JSON.stringify(rest)}>`;
    } catch {
      return line;
    }
  }).join('\n');
}

/** The reference's driver (driver.py) of this process: started by the first case, then every case of every batch goes to it. */
interface ReferenceDriver {
  child: ChildProcessWithoutNullStreams;
  /** The cases sent and not answered yet, in the order sent (the driver answers in that order). */
  waiting: { answer: (line: string) => void; fail: (error: Error) => void }[];
}

let driver: ReferenceDriver | undefined;

/** Start the driver; it holds this process open only while a case waits for its answer. */
function startDriver(): ReferenceDriver {
  const child = spawn(python3(), [join(HERE, 'driver.py'), join(referenceDir()!, 'scripts')], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', COLUMNS: '80' } });
  const started: ReferenceDriver = { child, waiting: [] };
  let pending = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    pending += text;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      started.waiting.shift()?.answer(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
    if (!started.waiting.length) holdOpen(started, false);
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => void (stderr += text));
  child.on('close', (code) => {
    if (driver === started) driver = undefined;
    for (const { fail } of started.waiting.splice(0)) fail(new Error(`the reference driver failed (exit ${code}): ${stderr}`));
  });
  holdOpen(started, false);
  return started;
}

function holdOpen({ child }: ReferenceDriver, hold: boolean): void {
  // A child's pipes are sockets (net.Socket), which ref and unref like the child itself.
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown as { ref(): void; unref(): void }[]) {
    if (hold) handle.ref();
    else handle.unref();
  }
}

/** End the driver of this process, if one runs, and wait until it exited (a test file's afterAll: its CPU then counts as the file's). */
export async function stopReferenceDriver(): Promise<void> {
  const running = driver;
  if (!running) return;
  driver = undefined;
  const closed = new Promise((exited) => running.child.once('close', exited));
  holdOpen(running, true);
  running.child.stdin.end();
  await closed;
}

/** Run the reference on every case (the driver of this process, one python3 for the file); returns rc/stdout/stderr per case. */
async function runReference(dirs: string[], cases: readonly RefCase[]): Promise<Omit<Outcome, 'files'>[]> {
  const running = (driver ??= startDriver());
  const answers = cases.map(() => new Promise<string>((answer, fail) => running.waiting.push({ answer, fail })));
  holdOpen(running, true);
  running.child.stdin.write(cases.map((c, i) => `${asciiJson({ cwd: dirs[i], script: SCRIPTS[c.argv[0]!], args: c.argv.slice(1) })}\n`).join(''));
  return (await Promise.all(answers)).map((line) => JSON.parse(line) as Omit<Outcome, 'files'>);
}

/** Run acp in this process on one case, in `dir`. */
async function runAcp(dir: string, c: RefCase): Promise<Omit<Outcome, 'files'>> {
  let stdout = '';
  let stderr = '';
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const [word, ...args] = c.argv;
    const rc = await runCli({ argv: [word!, '--no-config', ...args], stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
    return { rc, stdout, stderr };
  } finally {
    process.chdir(cwd);
  }
}

/** A case's result: the two outcomes (paths replaced by `<DIR>`) and what differs. */
export interface Verdict {
  c: RefCase;
  reference: Outcome;
  acp: Outcome;
  /** The fields that differ, empty when they agree. */
  differs: string[];
  /** The reference crashed with a traceback and acp refused cleanly, the folder untouched. */
  referenceCrashed: boolean;
  /** The reference wrote a folder its own validate rejects, and acp refused, saying so (see confirmRefusals). */
  refusedInvalid?: boolean;
  /** The DELIBERATE refusal acp made, by its note. */
  deliberate?: string;
}

/** The message of a failed command as both print it: argparse's usage lines and prog name left out. */
export function errorText(stderr: string): string {
  const at = stderr.lastIndexOf('error: ');
  return at >= 0 ? stderr.slice(at + 'error: '.length).trim() : stderr.trim();
}

/** Run every case on both sides and compare. */
export async function runCases(cases: readonly RefCase[]): Promise<Verdict[]> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-ref-')));
  try {
    const pyDirs = cases.map((_, i) => join(root, `${i}`, 'py'));
    const acpDirs = cases.map((_, i) => join(root, `${i}`, 'acp'));
    cases.forEach((c, i) => {
      writeTree(pyDirs[i]!, c.files);
      writeTree(acpDirs[i]!, c.files);
    });
    const reference = await runReference(pyDirs, cases);
    const verdicts: Verdict[] = [];
    for (const [i, c] of cases.entries()) {
      const mine = await runAcp(acpDirs[i]!, c);
      verdicts.push(compare(c, outcome(reference[i]!, pyDirs[i]!, c), outcome(mine, acpDirs[i]!, c)));
    }
    await confirmRefusals(verdicts, pyDirs);
    return verdicts;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * acp refuses some commands the reference carries out, saying the folder it
 * would leave `does not validate: {error}` (issue 40 item 7). Such a refusal
 * agrees when the reference's own validate, run on the folder the reference
 * left, reports that error, and acp left the folder as it was.
 */
async function confirmRefusals(verdicts: Verdict[], pyDirs: string[]): Promise<void> {
  const refusals = verdicts.flatMap((v, i) => {
    const claim = / does not validate: (.*)\)$/.exec(errorText(v.acp.stderr))?.[1];
    const folder = v.c.argv[v.c.argv.lastIndexOf('--folder') + 1];
    return v.reference.rc === 0 && v.acp.rc === 2 && claim && folder ? [{ v, i, claim, folder }] : [];
  });
  if (!refusals.length) return;
  const validations = await runReference(refusals.map((r) => pyDirs[r.i]!), refusals.map((r) => ({ label: 'validate', files: {}, argv: ['validate', '--folder', r.folder] })));
  refusals.forEach(({ v, claim }, k) => {
    const rejected = validations[k]!.rc === 2 && validations[k]!.stdout.split('\n').includes(`ERROR: ${claim}`);
    if (rejected && JSON.stringify(v.acp.files) === JSON.stringify(snapshotOf(v.c))) {
      v.differs = [];
      v.refusedInvalid = true;
    }
  });
}

function outcome(run: Omit<Outcome, 'files'>, dir: string, c: RefCase): Outcome {
  const hide = (text: string): string => text.split(dir).join('<DIR>');
  return { rc: run.rc, stdout: hide(run.stdout), stderr: hide(run.stderr), files: snapshot(dir, c.files) };
}

function compare(c: RefCase, reference: Outcome, acp: Outcome): Verdict {
  const initDocs = SPEC_WINS.some((rule) => rule.leaves === 'init documents' && rule.applies(c));
  const files = (o: Outcome): string => JSON.stringify(Object.entries(o.files).map(([name, text]) => [name, initDocs && !(name in c.files) && /\.md$/.test(name) ? '<document>' : text]));
  if (reference.rc === 1 && reference.stderr.includes('Traceback (most recent call last)')) {
    // A clean error: `error: …` (or validate's verdict), exit 2, the folder as it was.
    const refused = acp.stderr.startsWith('error: ') || acp.stdout.startsWith('ACP validation failed\n');
    const clean = acp.rc === 2 && refused && JSON.stringify(acp.files) === JSON.stringify(snapshotOf(c));
    return { c, reference, acp, differs: clean ? [] : ['crash'], referenceCrashed: true };
  }
  const differs: string[] = [];
  if (reference.rc !== acp.rc) differs.push('rc');
  if (reference.stdout !== acp.stdout) differs.push('stdout');
  if (errorText(reference.stderr) !== errorText(acp.stderr)) differs.push('stderr');
  if (files(reference) !== files(acp)) differs.push('files');
  const deliberate = differs.length && acp.rc === 2 ? DELIBERATE.find((rule) => rule.message.test(errorText(acp.stderr))) : undefined;
  if (deliberate && JSON.stringify(acp.files) === JSON.stringify(snapshotOf(c))) return { c, reference, acp, differs: [], referenceCrashed: false, deliberate: deliberate.note };
  return { c, reference, acp, differs, referenceCrashed: false };
}

/** The snapshot of a case's files as written (what a refused command must leave). */
function snapshotOf(c: RefCase): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'acp-ref-before-'));
  try {
    writeTree(dir, c.files);
    return snapshot(dir, c.files);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** acp as a process: `prefix` (or a function of the case's directory, for Deno's grants) before the command line. */
export interface AcpProcess {
  name: string;
  prefix: string[] | ((dir: string) => string[]);
  env?: Record<string, string>;
}

/**
 * acp's outcome on every case, in this process (`runtime` undefined) or as
 * processes of one runtime; for comparing the runtimes with each other.
 */
export async function runAcpOnly(cases: readonly RefCase[], runtime?: AcpProcess): Promise<Outcome[]> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-ref-rt-')));
  try {
    const outcomes: Outcome[] = [];
    for (const [i, c] of cases.entries()) {
      const dir = join(root, `${i}`, 'acp');
      writeTree(dir, c.files);
      const run = runtime ? spawnAcp(dir, c, runtime) : await runAcp(dir, c);
      outcomes.push(outcome(run, dir, c));
    }
    return outcomes;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function spawnAcp(dir: string, c: RefCase, runtime: AcpProcess): Omit<Outcome, 'files'> {
  const prefix = typeof runtime.prefix === 'function' ? runtime.prefix(dir) : runtime.prefix;
  const [word, ...args] = c.argv;
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...runtime.env };
  delete env.FORCE_COLOR;
  const run = spawnSync(prefix[0]!, [...prefix.slice(1), word!, '--no-config', ...args], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
  return { rc: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
}

/** A readable account of one differing verdict (for a failing test's message). */
export function describe(v: Verdict): string {
  const show = (o: Outcome): string => `rc ${o.rc}\n  stdout ${JSON.stringify(o.stdout)}\n  stderr ${JSON.stringify(errorText(o.stderr))}`;
  const fileDiff = Object.keys({ ...v.reference.files, ...v.acp.files })
    .filter((name) => v.reference.files[name] !== v.acp.files[name])
    .map((name) => `  ${name}: reference ${JSON.stringify(v.reference.files[name])?.slice(0, 300)} / acp ${JSON.stringify(v.acp.files[name])?.slice(0, 300)}`);
  return [`${v.c.label} ${JSON.stringify(v.c.argv)} differs in ${v.differs.join(', ')}`, `reference: ${show(v.reference)}`, `acp: ${show(v.acp)}`, ...(v.differs.includes('files') ? fileDiff : [])].join('\n');
}
