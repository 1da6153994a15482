// Hostile input (issue 5, part 4): property-based tests (fast-check) over
// every file the runtime reads and every CLI argument. Whatever the input:
// no internal error (exit 70) or stack trace, no run longer than 5 s, only
// the command's own exit codes, `error: …` on stderr for a refused command,
// and the folder byte-identical after a refused or read-only command.
//
// Cases run in-process (the bundled runCli) inside a child "executor", whose
// watchdog turns a hang into a failure. A handful of spawned runs and
// targeted cases (10 MB lines, symlinks leaving the folder, repoRoot at `/`,
// regular-expression blow-ups) complete the picture.
//
// Quick (`npm test`): 20 generated cases per property and 1,000 texts for
// the matchers; full (ACP_FULL=1, `npm run test:all`): 60 cases and 3,000
// texts; long (ACP_LONG=1): 2,100 cases (over 10 000 in all), 50,000 texts
// and 10 MB big inputs instead of 2 MB (test/scale.ts). ACP_FUZZ_RUNS sets
// the cases per property, ACP_FUZZ_SEED the seed.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EVENT_NAMES, append, conclusionErrors, createMemoryHost, pyStrip, readReadiness, reviewHeadings } from '../acp.ts';
import { DIST_URL, LONG, REPO, cli, spawnCli } from './reliability/fixture.ts';
import { byScale } from './scale.ts';
import { budgetMs, startCostOrFloor } from './timing.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

/** Generated cases per property (five properties). */
const RUNS = Number(process.env.ACP_FUZZ_RUNS) || byScale({ quick: 20, full: 60, long: 2100 });
/** Per test: a few hundred cases take seconds, 2100 take minutes on a busy machine. */
const TIMEOUT = LONG ? 3_600_000 : 600_000;
/**
 * A run longer than this is a hang: a generous multiple of what starting
 * node costs on this machine now (timing.ts), at least 20 s. A case takes
 * well under a second on an idle machine, but a fixed 5 s was a speed
 * assumption that a loaded one breaks; a real hang (runaway backtracking, a
 * loop) outlasts any bound.
 */
const HANG_MS = budgetMs(await startCostOrFloor('node'), 1);

type FileSpec = { text: string } | { base64: string } | { symlink: string } | { dir: true } | { big: { prefix: string; unit: string; count: number; suffix: string } };
type Files = Record<string, FileSpec>;
interface Case {
  files: Files;
  argv: string[];
}
interface Result {
  rc: number | null;
  stdout: string;
  stderr: string;
  changed: string[];
  ms: number;
  hung?: boolean;
}

// ------------------------------------------------------------------ executor

class Executor {
  #child: ChildProcess | undefined;
  #ready: Promise<void> | undefined;
  #next = 0;
  #pending = new Map<number, (r: Result) => void>();
  cases = 0;
  readonly scratch: string;
  constructor(scratch: string) {
    this.scratch = scratch;
  }

  #start(): Promise<void> {
    const child = fork(join(REPO, 'test', 'reliability', 'hostile-executor.mjs'), [DIST_URL, this.scratch], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.#child = child;
    this.#ready = new Promise((resolve) => {
      child.on('message', (message: { ready?: boolean; id?: number } & Result) => {
        if (message.ready) return resolve();
        this.#pending.get(message.id!)?.(message);
        this.#pending.delete(message.id!);
      });
    });
    return this.#ready;
  }

  async run(c: Case): Promise<Result> {
    if (!this.#child) await this.#start();
    await this.#ready;
    const id = this.#next++;
    this.cases++;
    const child = this.#child!;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        child.kill('SIGKILL');
        this.#child = undefined;
        resolve({ rc: null, stdout: '', stderr: '', changed: [], ms: HANG_MS, hung: true });
      }, HANG_MS);
      this.#pending.set(id, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      child.send({ id, ...c });
    });
  }

  stop(): void {
    this.#child?.kill('SIGKILL');
  }
}

// ------------------------------------------------------------------ baselines

const text = (t: string): FileSpec => ({ text: t });
let scratch: string;
let executor: Executor;
/** Valid folders (files relative to ROOT), whose folder is ROOT/collab or ROOT/repo/.acp/run. */
const baselines: { name: string; files: Files; folder: string; participants: string[] }[] = [];

function readTree(root: string): Files {
  const files: Files = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files[relative(root, path)] = { base64: readFileSync(path).toString('base64') };
    }
  };
  walk(root);
  return files;
}

async function run(argv: string[]): Promise<void> {
  const r = await cli(argv);
  if (r.rc !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr}`);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'acp-hostile-'));
  executor = new Executor(scratch);
  // 1. fresh internal folder
  const fresh = join(scratch, 'base-fresh');
  await run(['init', '--folder', join(fresh, 'collab'), '--participant', 'ann', '--participant', 'bo b', '--objective', 'Fuzz me', '--completion', 'Still standing', '--primary-deliverable-type', 'adr']);
  baselines.push({ name: 'fresh', files: readTree(fresh), folder: '<ROOT>/collab', participants: ['ann', 'bo b'] });
  // 2. a folder in decision_review with a review and a supporting deliverable
  const progressed = join(scratch, 'base-progressed');
  const folder = join(progressed, 'collab');
  await run(['init', '--folder', folder, '--participant', 'ann', '--participant', 'bob', '--participant', 'cy', '--objective', 'Fuzz me more', '--completion', 'Still standing', '--primary-deliverable-type', 'design-spec']);
  const append = (p: string, e: string, ...extra: string[]): Promise<void> => run(['append', '--folder', folder, '--participant', p, '--event', e, '--summary', `${e} by ${p}`, ...extra]);
  await append('ann', 'deliverable_drafted', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/design-spec.md');
  await append('ann', 'proposal_submitted', '--reply-to', '2');
  const review = join(folder, 'review.md');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(review, `${readFileSync(review, 'utf8')}\n## 2026-01-01T00:00:00Z - bob - seq 4\n\nFine.\n\n## 2026-01-01T00:00:01Z - cy - seq 5\n\nFine.\n`);
  await append('bob', 'review_submitted', '--reply-to', '3');
  await append('cy', 'review_submitted', '--reply-to', '3');
  await append('ann', 'decision_proposed', '--reply-to', '5');
  await append('ann', 'question_classified', '--reply-to', '6');
  baselines.push({ name: 'progressed', files: readTree(progressed), folder: '<ROOT>/collab', participants: ['ann', 'bob', 'cy'] });
  // 3. external deliverables: the folder inside a repo, deliverables in repo/docs/out
  const external = join(scratch, 'base-external');
  await run([
    'init', '--folder', join(external, 'repo', '.acp', 'run'), '--participant', 'ann', '--participant', 'bob', '--objective', 'External', '--completion', 'Done',
    '--primary-deliverable-type', 'custom', '--primary-deliverable-file', 'plan.md', '--primary-deliverable-check', 'Plan', '--deliverables-mode', 'external',
    '--deliverables-dir', 'docs/out', '--repo-root', '../..',
  ]);
  baselines.push({ name: 'external', files: readTree(external), folder: '<ROOT>/repo/.acp/run', participants: ['ann', 'bob'] });
});

afterAll(() => {
  executor?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// ------------------------------------------------------------------ arbitraries

const HOSTILE_STRINGS = [
  '', ' ', '\n', 'a\nb', '"', "'", '\\', 'a"b\'c', '--folder', '-', '-1', '1.5', '1e999', 'NaN', '0x10', '007', '..', '../x', '/', '/etc/passwd',
  '<ROOT>', '<ROOT>/collab', '<ROOT>/collab/protocol.json', '<ROOT>/nope', '<ROOT>/collab/deliverables', 'x.md', '../../x.md', '\u2028', '\u0085', '\ud800',
  '\u0000', 'a\u0000b', 'é漢字', 'true', 'null', '[]', '{}', '\ufeffann', 'ann ', ' ann', 'ANN', 'A'.repeat(5000),
];
const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ maxLength: 12 }));

const weirdJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom<unknown>([], {}, '', 'x', 1.5, -1, 0, 2 ** 53 + 2, 1e308, true, false, null, '..', '/', '/abs.md', '../up.md', 'x.md', 'a\nb', 'a.md\n', [{ id: 'a\nb' }, { id: '"q\'' }], ['ann', 'bob'], 'ann', { id: 5 }),
);

const PROTOCOL_PATHS = [
  'protocol', 'schemaVersion', 'objective', 'objectiveGates', 'participants', 'participants.0', 'participants.0.id', 'participants.1', 'participants.5',
  'completionGates', 'completionGates.0', 'completionGates.0.text', 'completionGates.0.source', 'deliverables', 'deliverables.mode', 'deliverables.dir',
  'deliverables.owner', 'deliverables.primary', 'deliverables.primary.type', 'deliverables.primary.file', 'deliverables.primary.checklist',
  'deliverables.primary.pluginType', 'deliverables.supporting', 'deliverables.supporting.0', 'deliverables.attachments', 'deliverables.attachments.0',
  'repoRoot', 'currentPhase', 'proposalOwner', 'waitingFor', 'createdAt', 'updatedAt',
];

function setPath(root: unknown, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = root as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return;
    if (node[key] === undefined) node[key] = /^\d+$/.test(keys[keys.indexOf(key) + 1] ?? '') ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  if (typeof node !== 'object' || node === null) return;
  const last = keys.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
}

function decode(spec: FileSpec | undefined): string {
  if (!spec) return '';
  if ('text' in spec) return spec.text;
  if ('base64' in spec) return Buffer.from(spec.base64, 'base64').toString('utf8');
  return '';
}

/** The part of a text file before its last line, for building variants. */
function fileText(b: { files: Files }, path: string): string {
  return decode(b.files[path]);
}

/** Serialise text the way a careless tool might: with a BOM, CRLF or lone CR line ends. */
const encoding = fc.record({ bom: fc.boolean(), newline: fc.constantFrom('\n', '\n', '\n', '\r\n', '\r') });
function encode(body: string, how: { bom: boolean; newline: string }): FileSpec {
  return text((how.bom ? '\ufeff' : '') + body.replace(/\n/g, how.newline));
}

const protocolMutation = fc.oneof(
  { weight: 5, arbitrary: fc.array(fc.tuple(fc.constantFrom(...PROTOCOL_PATHS), fc.option(weirdJson, { nil: undefined })), { minLength: 1, maxLength: 3 }).map((edits) => ({ edits })) },
  { weight: 1, arbitrary: weirdJson.map((top) => ({ top })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((raw) => ({ raw })) },
);

const EVENT_FIELDS = ['seq', 'from', 'event', 'at', 'summary', 'doc', 'reply_to', 'role', 'sha256', 'extra'];
const eventEdit = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), index: fc.nat(20), field: fc.constantFrom(...EVENT_FIELDS), value: fc.option(weirdJson, { nil: undefined }) }),
  fc.record({ kind: fc.constant('insert' as const), index: fc.nat(20), line: fc.oneof(fc.constantFrom('[]', '1', 'null', '{}', '"s"', '{"seq":', '  ', '{"seq":1}', '\u2028', '{"seq":2,"from":"ann","event":"blocked","at":"2026-13-40T99:99:99Z","summary":"x","reply_to":1}'), fc.string({ maxLength: 30 }), weirdJson.map((v) => JSON.stringify(v) ?? 'undefined')) }),
  fc.record({ kind: fc.constant('duplicate' as const), index: fc.nat(20) }),
  fc.record({ kind: fc.constant('remove' as const), index: fc.nat(20) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(400) }),
);

const MD_TOKENS = [
  '\n', '\n', ' ', '  ', '\t', '##', '## ', '###', '### ', '# ', '- ', '-', '[', ']', '[x]', '[X]', '[unresolved]', '[resolved]', '[blocking]', '[deferred_nonblocking]',
  'reason:', 'TBD', 'todo', '待定', 'Status:', 'Status: Frozen', 'Status: Draft', 'Frozen', 'seq', ' - ', '5', '12', 'D1.', 'D2.', '- Decision:', '- Reflected in:',
  'Ready to implement', 'deliverables/design-spec.md', 'deliverables/adr.md', 'external:plan.md', 'Decision Outcome', 'Rationale', '[proceed]', '[blocked]',
  '\u2028', '\u00a0', '\u3000', 'é', '漢', 'Reviewed primary deliverable:', 'Review Scope:', 'Primary deliverable completeness', '\r\n', '\r', 'a', 'bob', 'Problem', 'Goals',
];
const markdownText = fc.array(fc.constantFrom(...MD_TOKENS), { maxLength: 120 }).map((tokens) => tokens.join(''));
const MD_FILES = ['proposal.md', 'review.md', 'decisions.md', 'readiness.md', 'conclusion.md', 'README.md', '<primary>'];

const RAW_TARGETS = ['protocol.json', 'events.jsonl', 'review.md', 'decisions.md', 'readiness.md', 'conclusion.md', '<primary>', '.acp.lock', '.acp.checkpoint.json', 'deliverables', 'state.log'];
const INVALID_UTF8 = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]];
const rawMutation = fc.record({
  target: fc.constantFrom(...RAW_TARGETS),
  how: fc.oneof(
    fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ bytes })),
    fc.record({ invalid: fc.constantFrom(...INVALID_UTF8), at: fc.nat(2000) }),
    fc.constant({ bom: true }),
    fc.constant({ crlf: true }),
    fc.constant({ delete: true }),
    fc.constant({ dir: true }),
    fc.constantFrom('<ROOT>/outside.md', '/etc/passwd', '/', '.', 'missing-target', '<ROOT>/loop').map((symlink) => ({ symlink })),
  ),
});

// ------------------------------------------------------------------ case building

type Baseline = (typeof baselines)[number];

function folderPrefix(b: Baseline): string {
  return b.folder === '<ROOT>/collab' ? 'collab/' : 'repo/.acp/run/';
}

function primaryPath(b: Baseline): string {
  return b.name === 'external' ? 'repo/docs/out/plan.md' : b.name === 'fresh' ? 'collab/deliverables/adr.md' : 'collab/deliverables/design-spec.md';
}

function primaryRef(b: Baseline): string {
  return b.name === 'external' ? 'external:plan.md' : b.name === 'fresh' ? 'deliverables/adr.md' : 'deliverables/design-spec.md';
}

/** A command line aimed at the folder: mostly well-formed, with hostile values mixed in. */
function commandArb(b: Baseline): fc.Arbitrary<string[]> {
  const participant = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...b.participants) }, { weight: 1, arbitrary: hostileString });
  const folder = fc.oneof({ weight: 8, arbitrary: fc.constant(b.folder) }, { weight: 1, arbitrary: hostileString });
  const seq = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 8 }).map(String) }, { weight: 1, arbitrary: hostileString });
  const event = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...EVENT_NAMES) }, { weight: 1, arbitrary: hostileString });
  const sha = fc.oneof(fc.constant('0'.repeat(64)), fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }), hostileString);
  const append = fc
    .record({
      folder,
      participant,
      event,
      summary: fc.oneof(fc.string({ maxLength: 20 }), hostileString),
      replyTo: fc.option(seq, { nil: undefined }),
      role: fc.option(fc.oneof(fc.constantFrom('primary', 'supporting'), hostileString), { nil: undefined }),
      doc: fc.option(fc.oneof(fc.constantFrom(primaryRef(b), 'conclusion.md', 'protocol.json'), hostileString), { nil: undefined }),
      sha256: fc.option(sha, { nil: undefined }),
      json: fc.boolean(),
    })
    .map((r) => [
      'append', '--folder', r.folder, '--participant', r.participant, '--event', r.event, '--summary', r.summary,
      ...(r.replyTo !== undefined ? ['--reply-to', r.replyTo] : []), ...(r.role !== undefined ? ['--role', r.role] : []),
      ...(r.doc !== undefined ? ['--doc', r.doc] : []), ...(r.sha256 !== undefined ? ['--sha256', r.sha256] : []), ...(r.json ? ['--json'] : []),
    ]);
  const next = fc.tuple(folder, participant, fc.boolean()).map(([f, p, j]) => ['next', '--folder', f, '--participant', p, ...(j ? ['--json'] : [])]);
  const wait = fc.tuple(folder, participant).map(([f, p]) => ['wait', '--folder', f, '--participant', p, '--timeout', '0.2', '--interval', '0.05']);
  const validate = fc.tuple(folder, fc.boolean()).map(([f, j]) => ['validate', '--folder', f, ...(j ? ['--json'] : [])]);
  const doctor = fc.tuple(folder, fc.boolean(), fc.boolean()).map(([f, fix, j]) => ['doctor', '--folder', f, ...(fix ? ['--fix'] : []), ...(j ? ['--json'] : [])]);
  return fc.oneof({ weight: 7, arbitrary: append }, { weight: 4, arbitrary: validate }, { weight: 3, arbitrary: next }, { weight: 3, arbitrary: doctor }, { weight: 1, arbitrary: wait });
}

const baselineIndex = fc.nat(2);

function withEdits(b: Baseline, edits: (files: Files) => void): Files {
  const files: Files = structuredClone(b.files);
  edits(files);
  return files;
}

const protocolCase = fc.tuple(baselineIndex, protocolMutation, encoding).chain(([i, mutation, how]) =>
  commandArb(baselines[i]!).map((argv): Case => {
    const b = baselines[i]!;
    const path = `${folderPrefix(b)}protocol.json`;
    const files = withEdits(b, (f) => {
      if ('raw' in mutation) f[path] = text(mutation.raw);
      else if ('top' in mutation) f[path] = encode(JSON.stringify(mutation.top, null, 2) ?? '', how);
      else {
        const protocol = JSON.parse(decode(f[path]));
        for (const [key, value] of mutation.edits) setPath(protocol, key, value);
        f[path] = encode(`${JSON.stringify(protocol, null, 2)}\n`, how);
      }
    });
    return { files, argv };
  }),
);

const eventsCase = fc.tuple(baselineIndex, fc.array(eventEdit, { minLength: 1, maxLength: 4 }), encoding, fc.boolean()).chain(([i, edits, how, finalNewline]) =>
  commandArb(baselines[i]!).map((argv): Case => {
    const b = baselines[i]!;
    const path = `${folderPrefix(b)}events.jsonl`;
    const files = withEdits(b, (f) => {
      const lines: string[] = decode(f[path]).split('\n').filter(Boolean);
      let cut: number | undefined;
      for (const edit of edits) {
        const index = lines.length ? ('index' in edit ? edit.index % lines.length : 0) : 0;
        if (edit.kind === 'set') {
          let event: Record<string, unknown>;
          try {
            event = JSON.parse(lines[index] ?? '{}');
          } catch {
            continue;
          }
          if (typeof event !== 'object' || event === null) continue;
          if (edit.value === undefined) delete event[edit.field];
          else event[edit.field] = edit.value;
          lines[index] = JSON.stringify(event);
        } else if (edit.kind === 'insert') lines.splice(index, 0, edit.line);
        else if (edit.kind === 'duplicate' && lines.length) lines.splice(index, 0, lines[index]!);
        else if (edit.kind === 'remove') lines.splice(index, 1);
        else if (edit.kind === 'cut') cut = edit.at;
      }
      let body = lines.join('\n') + (finalNewline ? '\n' : '');
      if (cut !== undefined) body = body.slice(0, Math.max(0, body.length - 1 - cut));
      f[path] = encode(body, how);
    });
    return { files, argv };
  }),
);

const markdownCase = fc.tuple(baselineIndex, fc.array(fc.tuple(fc.constantFrom(...MD_FILES), markdownText, fc.boolean()), { minLength: 1, maxLength: 3 }), encoding).chain(([i, edits, how]) =>
  commandArb(baselines[i]!).map((argv): Case => {
    const b = baselines[i]!;
    const files = withEdits(b, (f) => {
      for (const [name, body, keep] of edits) {
        const path = name === '<primary>' ? primaryPath(b) : `${folderPrefix(b)}${name}`;
        f[path] = encode(keep ? `${decode(f[path])}${body}` : body, how);
      }
    });
    return { files, argv };
  }),
);

const rawCase = fc.tuple(baselineIndex, fc.array(rawMutation, { minLength: 1, maxLength: 2 })).chain(([i, mutations]) =>
  commandArb(baselines[i]!).map((argv): Case => {
    const b = baselines[i]!;
    const files = withEdits(b, (f) => {
      f['outside.md'] = text('# Outside\n\nStatus: Draft\n');
      for (const { target, how } of mutations) {
        const path = target === '<primary>' ? primaryPath(b) : `${folderPrefix(b)}${target}`;
        const old = f[path] && 'base64' in f[path] ? Buffer.from((f[path] as { base64: string }).base64, 'base64') : Buffer.from(decode(f[path]));
        // Whatever replaces a directory replaces its content too.
        for (const key of Object.keys(f)) if (key.startsWith(`${path}/`)) delete f[key];
        if ('bytes' in how) f[path] = { base64: Buffer.from(how.bytes).toString('base64') };
        else if ('invalid' in how) {
          const at = Math.min(how.at, old.length);
          f[path] = { base64: Buffer.concat([old.subarray(0, at), Buffer.from(how.invalid), old.subarray(at)]).toString('base64') };
        } else if ('bom' in how) f[path] = { base64: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), old]).toString('base64') };
        else if ('crlf' in how) f[path] = text(old.toString('utf8').replace(/\n/g, '\r\n'));
        else if ('delete' in how) {
          for (const key of Object.keys(f)) if (key === path || key.startsWith(`${path}/`)) delete f[key];
        } else if ('dir' in how) {
          for (const key of Object.keys(f)) if (key === path || key.startsWith(`${path}/`)) delete f[key];
          f[path] = { dir: true };
        } else {
          for (const key of Object.keys(f)) if (key === path || key.startsWith(`${path}/`)) delete f[key];
          f[path] = { symlink: how.symlink === '<ROOT>/loop' ? `<ROOT>/${path}` : how.symlink };
        }
      }
    });
    return { files, argv };
  }),
);

/** Any argv at all, on a valid folder. */
const OPTION_NAMES = [
  '--folder', '--participant', '--objective', '--completion', '--primary-deliverable-type', '--primary-deliverable-file', '--primary-deliverable-check',
  '--deliverables-mode', '--deliverables-dir', '--repo-root', '--event', '--summary', '--doc', '--reply-to', '--role', '--sha256', '--interval', '--timeout',
  '--json', '--fix', '--resume', '--bogus', '-x', '--', '--help', '-h', '--version', '--no-config', '--plugin', '--folder=<ROOT>/collab', '--reply-to=2',
];
const argvCase = fc
  .tuple(
    baselineIndex,
    fc.oneof(fc.constantFrom('init', 'append', 'next', 'validate', 'doctor', 'types', 'frobnicate', ''), hostileString),
    fc.array(fc.oneof(fc.constantFrom(...OPTION_NAMES), hostileString, fc.constantFrom('<ROOT>/collab', '<ROOT>/fresh', 'ann', 'adr', 'blocked', '1')), { maxLength: 12 }),
  )
  .map(([i, command, rest]): Case => {
    // `wait` is left out: without its own --timeout it would wait 30 minutes, as it should.
    const argv = [command, ...rest].filter((a, k, all) => !(a === '--timeout' || all[k - 1] === '--timeout'));
    return { files: structuredClone(baselines[i]!.files), argv: argv[0] === 'wait' ? ['next', ...argv.slice(1)] : argv };
  });

// ------------------------------------------------------------------ the properties

const EXIT_CODES: Record<string, number[]> = {
  init: [0, 2],
  append: [0, 2],
  next: [0, 1, 2],
  wait: [0, 1, 2],
  validate: [0, 1, 2],
  doctor: [0, 1, 2],
  types: [0, 2],
};
const STACK_RE = /\n\s+at .+[:(]\d+:\d+|\bat (?:async )?\S+ \(/;

function describeCase(c: Case, r: Result): string {
  return `${(c as Case & { [fc.toStringMethod]?: () => string })[fc.toStringMethod]?.() ?? JSON.stringify(c.argv)}\n→ ${JSON.stringify(r)}`.slice(0, 6000);
}

/** The contract every run must keep, whatever the input. */
function check(c: Case, r: Result): void {
  const what = (): string => describeCase(c, r);
  expect(r.hung, `hang over ${HANG_MS} ms: ${what()}`).toBeFalsy();
  expect(r.rc, `executor failure: ${what()}`).not.toBe(-1);
  expect(r.rc, `internal error: ${what()}`).not.toBe(70);
  expect(r.stderr, `internal error: ${what()}`).not.toMatch(/internal error|file system error/);
  expect(r.stderr + r.stdout, `stack trace: ${what()}`).not.toMatch(STACK_RE);
  const command = c.argv[0] ?? '';
  const known = Object.hasOwn(EXIT_CODES, command) ? EXIT_CODES[command] : undefined;
  const help = c.argv.some((a) => ['--help', '-h', '--version', '-v'].includes(a));
  if (known && !help) expect(known, `exit code ${r.rc}: ${what()}`).toContain(r.rc);
  else expect([0, 2], `exit code ${r.rc}: ${what()}`).toContain(r.rc);
  const validationVerdict = command === 'validate' && /^(ACP validation failed|\{"ok":false,"errors")/.test(r.stdout);
  if (r.rc === 2 && !validationVerdict) expect(r.stderr, `refusal without error: ${what()}`).toMatch(/^error: \S/);
  const fixing = command === 'doctor' && c.argv.includes('--fix');
  const writes = command === 'init' || command === 'append' || fixing;
  if (!fixing && (!writes || r.rc !== 0)) expect(r.changed, `a refused or read-only command changed the folder: ${what()}`).toEqual([]);
}

const stats = { cases: 0, byCode: new Map<string, number>() };

/** Counterexamples print as the command line and the files that differ from the baselines. */
function readable(c: Case): Case {
  const changed = Object.entries(c.files).filter(([path, spec]) => !baselines.some((b) => JSON.stringify(b.files[path]) === JSON.stringify(spec)));
  const shown = Object.fromEntries(changed.map(([path, spec]) => [path, 'base64' in spec ? Buffer.from(spec.base64, 'base64').toString('utf8').slice(0, 500) : spec]));
  const clip = (v: unknown): unknown => (typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}…(${v.length} chars)` : v);
  return Object.assign(c, { [fc.toStringMethod]: () => JSON.stringify({ argv: c.argv.map(clip), files: Object.fromEntries(Object.entries(shown).map(([k, v]) => [k, clip(v)])) }) });
}

async function property(arb: fc.Arbitrary<Case>, runs: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arb.map(readable), async (c) => {
      const r = await executor.run(c);
      stats.cases++;
      const key = `${Object.hasOwn(EXIT_CODES, c.argv[0] ?? '') ? c.argv[0] : '(other)'} ${r.rc}`;
      stats.byCode.set(key, (stats.byCode.get(key) ?? 0) + 1);
      check(c, r);
    }),
    { numRuns: runs, seed: Number(process.env.ACP_FUZZ_SEED ?? Date.now() % 2 ** 31), verbose: 0 },
  );
}

describe('hostile input, generated (fast-check)', () => {
  test(`protocol.json of any shape (${RUNS} cases)`, () => property(protocolCase, RUNS), TIMEOUT);
  test(`events.jsonl of any shape (${RUNS} cases)`, () => property(eventsCase, RUNS), TIMEOUT);
  test(`Markdown files of any content (${RUNS} cases)`, () => property(markdownCase, RUNS), TIMEOUT);
  test(`raw bytes, invalid UTF-8, BOMs, CRLF, directories and symlinks in place of files (${RUNS} cases)`, () => property(rawCase, RUNS), TIMEOUT);
  test(`any command line (${RUNS} cases)`, () => property(argvCase, RUNS), TIMEOUT);
  afterAll(() => {
    console.log(`hostile: ${stats.cases} generated cases run in-process; exit codes by command: ${JSON.stringify(Object.fromEntries([...stats.byCode].sort()))}`);
  });
});

// ------------------------------------------------------------------ targeted cases

/** The spec's patterns, verbatim (Python semantics), as the oracle for the linear matchers. */
const PY_SPACE = '\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const S = `[${PY_SPACE}]`;
const BOL = '(?<![^\\n])';
const EOL = '(?=\\n|(?![\\s\\S]))';
const DOT = '[^\\n]';
const SPEC = {
  review: new RegExp(`${BOL}##${S}+${DOT}+?${S}+-${S}+(${DOT}+?)${S}+-${S}+seq${S}+([0-9]+)${S}*${EOL}`, 'g'),
  item: new RegExp(`${BOL}${S}*-${S}*\\[([A-Za-z_]+)\\]${S}*(${DOT}*)${EOL}`, 'g'),
  ready: new RegExp(`${BOL}${S}*-${S}*\\[[xX]\\]${S}*Ready to implement`),
  gate: (gate: string) => new RegExp(`${BOL}${S}*-${S}*\\[[xX]\\]${S}*${gate}${S}*${EOL}`, 'u'),
  heading: new RegExp(`${BOL}##${S}+(${DOT}+?)${S}*${EOL}`, 'g'),
  outcome: new RegExp(`${BOL}${S}*-${S}*\\[([A-Za-z_]+)\\]${S}+(${DOT}+)${EOL}`, 'g'),
  strip: new RegExp(`^${S}+|${S}+$`, 'g'),
};
const SECTIONS = ['Decision Outcome', 'Rationale', 'Deliverable Receipt', 'Accepted Decisions Summary', 'Readiness Result', 'Assumptions', 'Deferred Follow-ups', 'Implementation Blockers', 'Next Action'];

describe('hostile input, targeted', () => {
  // The spec's patterns take quadratic time (or worse) on long lines and long
  // blank runs in a backtracking engine (Python's too). acp matches them with
  // linear-time code; this checks it finds exactly the same on short texts.
  test('the linear Markdown matchers agree with the spec patterns', () => {
    const tokens = ['#', '##', ' ', ' ', '\n', '\n', '\t', '\r', '\u00a0', '-', ' - ', 'seq', 's', '1', '23', 'a', 'b', '[', ']', '[x]', '[X]', '[blocked]', '[proceed]',
      '[blocking]', '[resolved]', '[deferred_nonblocking]', '[unresolved]', 'reason:', 'TBD', 'Ready to implement', 'Rationale', 'Decision Outcome', 'G1', 'x'];
    const text = fc.array(fc.constantFrom(...tokens), { maxLength: 60 }).map((t) => t.join(''));
    fc.assert(
      fc.property(text, (t) => {
        expect(reviewHeadings(t)).toEqual([...t.matchAll(SPEC.review)].map((m) => ({ participant: m[1], seq: Number(m[2]) })));
        const items = [...t.matchAll(SPEC.item)].map((m) => [m[1]!, m[2]!] as const);
        const r = readReadiness(t);
        expect(r.blocking).toEqual(items.filter(([s]) => s === 'blocking').map(([, b]) => b));
        expect(r.unresolved).toEqual(items.filter(([s, b]) => s === 'unresolved' || (['resolved', 'deferred_nonblocking', 'blocking'].includes(s) && b.includes('TBD'))).map(([, b]) => b));
        expect(r.deferredWithoutReason).toEqual(items.filter(([s, b]) => s === 'deferred_nonblocking' && !b.toLowerCase().includes('reason:')).map(([, b]) => b));
        expect(r.readyToImplement).toBe(SPEC.ready.test(t));
        for (const gate of ['G1', 'a', ' a']) expect(r.isGateChecked(gate)).toBe(SPEC.gate(gate).test(t));
        const headings = new Set([...t.matchAll(SPEC.heading)].map((m) => m[1]));
        const outcomes = [...t.matchAll(SPEC.outcome)].map((m) => m[1]!).filter((s) => ['proceed', 'do_not_proceed', 'defer', 'blocked'].includes(s));
        const errors = conclusionErrors(t, 'x');
        const missing = SECTIONS.filter((s) => !headings.has(s));
        expect(errors.includes(`conclusion.md is missing required sections: ${missing.join(', ')}`)).toBe(missing.length > 0);
        expect(errors.includes('conclusion.md must declare exactly one final outcome')).toBe(outcomes.length !== 1);
        expect(errors.includes('conclusion.md outcome cannot be completed while blocked')).toBe(outcomes.length === 1 && outcomes[0] === 'blocked');
        expect(pyStrip(t)).toBe(t.replace(SPEC.strip, ''));
      }),
      { numRuns: byScale({ quick: 1000, full: 3000, long: 50_000 }) },
    );
  }, TIMEOUT);

  /** Big inputs: each shape is built in the executor (not sent). */
  const MB = LONG ? 10 : 2;
  const big = (prefix: string, unit: string, bytes: number, suffix = ''): FileSpec => ({ big: { prefix, unit, count: Math.floor(bytes / unit.length), suffix } });
  const size = MB * 1024 * 1024;
  const shapes: [string, string, FileSpec][] = [
    ['events.jsonl', 'a valid event with a huge summary', big('{"seq":1,"from":"ann","event":"initialized","at":"2026-01-01T00:00:00Z","summary":"', 'é', size / 2, '","doc":"protocol.json"}\n')],
    ['events.jsonl', 'a summary of white space (strip)', big('{"seq":1,"from":"ann","event":"initialized","at":"2026-01-01T00:00:00Z","summary":"a', ' ', size, 'b","doc":"protocol.json"}\n')],
    ['events.jsonl', 'a huge line that is not JSON', big('{"seq":1,', 'x', size, '\n')],
    ['events.jsonl', 'a huge torn last line', big('{"seq":1,"from":"ann","event":"initialized","at":"2026-01-01T00:00:00Z","summary":"x"}\n{"summary":"', 'y', size, '')],
    ['events.jsonl', 'blank lines', big('{"seq":1,"from":"ann","event":"initialized","at":"2026-01-01T00:00:00Z","summary":"x"}\n', ' \n', size)],
    ['protocol.json', 'a huge objective', big('{"protocol":"acp","schemaVersion":2,"participants":[{"id":"ann"},{"id":"bo b"}],"objective":"', 'o', size, '"}')],
    ['protocol.json', 'deeply nested arrays', big('{"protocol":"acp","participants":', '[', 200_000, '')],
    ['review.md', 'a long heading line', big('## a', ' ', size, 'b')],
    ['review.md', 'a heading with many separators', big('## t - ', 'x - ', size, 'seq 1\n')],
    ['review.md', 'a heading after a long blank', big('##', ' ', size / 2, '\n- seq 1')],
    ['readiness.md', 'a long blank run', big('', '\n', size, '- [x] Ready to implement')],
    ['readiness.md', 'blank lines with spaces', big('', ' \n', size, '- [unresolved] x')],
    ['conclusion.md', 'a long heading line', big('## Decision Outcome', ' ', size, 'x\n')],
    ['conclusion.md', 'a long blank run before an outcome', big('', '\n', size, '- [proceed] go')],
    ['decisions.md', 'a long decision heading', big('### D1.', ' ', size, '\n- Decision: x\n')],
    ['<primary>', 'a huge deliverable', big('# ADR\n\nStatus: Draft\n\n## Context\n', 'c', size, '\n')],
    ['<primary>', 'a long status line', big('Status:', ' ', size, 'x')],
  ];
  const commands = (folder: string): string[][] => [
    ['validate', '--folder', folder],
    ['append', '--folder', folder, '--participant', 'ann', '--event', 'deliverable_drafted', '--summary', 's', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md'],
    ['next', '--folder', folder, '--participant', 'ann'],
    ['doctor', '--folder', folder],
  ];
  test.each(shapes)(`${MB} MB in %s (%s): no hang, no crash`, async (file, _what, spec) => {
    const b = baselines[0]!;
    const path = file === '<primary>' ? primaryPath(b) : `collab/${file}`;
    for (const argv of commands(b.folder)) {
      const c: Case = { files: { ...structuredClone(b.files), [path]: spec }, argv };
      const r = await executor.run(c);
      check(c, { ...r, stdout: r.stdout.slice(0, 2000) });
    }
  });

  test('deliverables that are symlinks leaving the folder or the repo root are refused', async () => {
    const outside = '# Outside\n\nDeliverable type: `adr`\nStatus: Draft\n\n## Status\n\nx\n';
    const sha = (await import('node:crypto')).createHash('sha256').update(outside).digest('hex');
    const internal = baselines[0]!;
    const external = baselines[2]!;
    const cases: [typeof internal, string, string, string][] = [
      [internal, 'collab/deliverables/adr.md', '<ROOT>/outside.md', 'deliverables/adr.md'],
      [internal, 'collab/deliverables', '<ROOT>/elsewhere', 'deliverables/adr.md'],
      [external, 'repo/docs/out/plan.md', '<ROOT>/outside.md', 'external:plan.md'],
      [external, 'repo/docs', '<ROOT>/elsewhere', 'external:plan.md'],
    ];
    for (const [b, link, target, ref] of cases) {
      const files: Files = structuredClone(b.files);
      for (const key of Object.keys(files)) if (key === link || key.startsWith(`${link}/`)) delete files[key];
      files['outside.md'] = text(outside);
      files['elsewhere/adr.md'] = text(outside);
      files['elsewhere/out/plan.md'] = text(outside);
      files[link] = { symlink: target };
      const validation = await executor.run({ files, argv: ['validate', '--folder', b.folder] });
      expect(validation.stdout, `${link} → ${target}`).toMatch(new RegExp(`ERROR: deliverable ${ref.replace('.', '\\.')} resolves outside .* \\(symlink refused\\)`));
      const owner = b.participants[0]!;
      const freeze = { files, argv: ['append', '--folder', b.folder, '--participant', owner, '--event', 'deliverable_frozen', '--summary', 'f', '--reply-to', '1', '--role', 'primary', '--doc', ref, '--sha256', sha] };
      const r = await executor.run(freeze);
      check(freeze, r);
      expect(r.rc).toBe(2);
      expect(r.stderr).toMatch(/^error: deliverable .* resolves outside .* \(symlink refused\)/);
    }
  });

  test('a repoRoot that resolves to / is refused', async () => {
    const b = baselines[2]!;
    const files: Files = structuredClone(b.files);
    const path = 'repo/.acp/run/protocol.json';
    const protocol = JSON.parse(decode(files[path]));
    protocol.repoRoot = '../'.repeat(40).slice(0, -1);
    files[path] = text(`${JSON.stringify(protocol, null, 2)}\n`);
    const validation = await executor.run({ files, argv: ['validate', '--folder', b.folder] });
    expect(validation.stdout).toContain('ERROR: repoRoot must not resolve to filesystem root');
    // A freeze through such a repoRoot: on a disk the file would be /docs/out/plan.md,
    // so this runs on an in-memory host.
    const host = createMemoryHost({
      files: Object.fromEntries([
        ...Object.entries(files).filter(([p]) => p.startsWith('repo/.acp/run/')).map(([p, spec]) => [`/r/${p.slice('repo/'.length)}`, decode(spec)]),
        ['/docs/out/plan.md', '# Plan\n'],
      ]),
    });
    const sha = (await import('node:crypto')).createHash('sha256').update('# Plan\n').digest('hex');
    await expect(append(host, '/r/.acp/run', { participant: 'ann', event: 'deliverable_frozen', summary: 'f', replyTo: 1, role: 'primary', doc: 'external:plan.md', sha256: sha })).rejects.toThrow(
      'deliverable external:plan.md: repoRoot must not resolve to filesystem root',
    );
    const init = { files: {}, argv: ['init', '--folder', '<ROOT>/a/b', '--participant', 'x', '--participant', 'y', '--objective', 'o', '--completion', 'c', '--primary-deliverable-type', 'adr', '--deliverables-mode', 'external', '--repo-root', '../'.repeat(40).slice(0, -1)] };
    const refused = await executor.run(init);
    check(init, refused);
    expect(refused.stderr).toBe('error: --repo-root must not resolve to the filesystem root\n');
  });

  // Where the common tools crash with a stack trace (spec §8a), the real CLI
  // process gives a clear error and exit 2.
  test('spawned: the §8a crashes of the common tools are clear errors', async () => {
    const root = mkdtempSync(join(scratch, 'spawned-'));
    const folder = join(root, 'collab');
    const { cpSync, writeFileSync } = await import('node:fs');
    cpSync(join(scratch, 'base-fresh', 'collab'), folder, { recursive: true });
    const protocolText = readFileSync(join(folder, 'protocol.json'), 'utf8');
    const eventsText = readFileSync(join(folder, 'events.jsonl'), 'utf8');
    const append = ['append', '--folder', folder, '--participant', 'ann', '--event', 'blocked', '--summary', 's', '--reply-to', '1'];
    const cases: [string, () => void, string[], RegExp][] = [
      ['protocol.json is an array', () => writeFileSync(join(folder, 'protocol.json'), '[1, 2]\n'), append, /^error: invalid protocol\.json: top level must be an object\n$/],
      ['protocol.json is not UTF-8', () => writeFileSync(join(folder, 'protocol.json'), Buffer.from([0x7b, 0xff, 0x7d])), append, /^error: invalid protocol\.json: not valid UTF-8\n$/],
      ['participants is a string', () => writeFileSync(join(folder, 'protocol.json'), protocolText.replace(/"participants": \[[^\]]*\]/, '"participants": "ann"')), append, /^error: protocol\.json participants must be a list\n$/],
      ['events.jsonl is not UTF-8', () => writeFileSync(join(folder, 'events.jsonl'), Buffer.concat([Buffer.from(eventsText), Buffer.from([0xc3, 0x28, 0x0a])])), ['next', '--folder', folder, '--participant', 'ann'], /^error: events\.jsonl is not valid UTF-8\n$/],
      ['readiness.md is not UTF-8', () => writeFileSync(join(folder, 'readiness.md'), Buffer.from([0xed, 0xa0, 0x80])), append, /^error: readiness\.md is not valid UTF-8\n$/],
      ['--folder is a file', () => undefined, ['validate', '--folder', join(folder, 'protocol.json')], /^$/],
    ];
    for (const [what, setup, argv, stderr] of cases) {
      cpSync(join(scratch, 'base-fresh', 'collab'), folder, { recursive: true, force: true });
      setup();
      const before = readTree(root);
      const r = await spawnCli(argv, { timeoutMs: HANG_MS });
      expect(r.stderr, what).toMatch(stderr);
      expect(r.stderr + r.stdout, what).not.toMatch(STACK_RE);
      expect(r.rc, what).toBe(2);
      expect(readTree(root), what).toEqual(before);
    }
  });
});
