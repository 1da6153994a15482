// Seeded case generators for the differential harness (harness.ts): one per
// class of issue 40 and one per thing the Python tools parse (arguments,
// JSON lines, Markdown documents, timestamps, paths). Every case starts from
// a folder at one of the eleven points of the happy path (test/happy-path.ts,
// built once with acp in-process) and changes it the way a hand edit or
// another tool would.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../../acp.ts';
import { appendArgs, initArgs, OWNER, PRIMARY, REVIEWER, STEPS } from '../happy-path.ts';
import { rng } from '../seeded.ts';
import type { CaseFile, RefCase } from './harness.ts';

/** The folder's name inside each case's directory. */
const F = 'F';

type Files = Record<string, string>;

function readTree(dir: string, root = dir, out: Files = {}): Files {
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('.acp')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) readTree(path, root, out);
    else out[`${F}/${path.slice(root.length + 1)}`] = readFileSync(path, 'utf8');
  }
  return out;
}

/** The folder after init (stage 0) and after each of the happy path's ten events (stages 1–10), built with acp in-process. */
export async function buildStages(): Promise<Files[]> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-ref-stages-')));
  const folder = join(root, F);
  const quiet = { stdout: () => undefined, stderr: (t: string) => void process.stderr.write(t), color: false };
  try {
    await runCli({ ...quiet, argv: [...initArgs(folder).slice(0, 1), '--no-config', ...initArgs(folder).slice(1)] });
    const stages = [readTree(folder)];
    for (const step of STEPS) {
      for (const [name, text] of Object.entries(step.files)) {
        mkdirSync(dirname(join(folder, name)), { recursive: true });
        writeFileSync(join(folder, name), text);
      }
      const [word, ...args] = appendArgs(folder, step.event);
      await runCli({ ...quiet, argv: [word!, '--no-config', ...args] });
      stages.push(readTree(folder));
    }
    return stages;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const int = (r: Rand, below: number): number => Math.floor(r() * below);

/** Decimal digits of several scripts: ASCII, Arabic-Indic, Devanagari, fullwidth, mathematical bold (astral). */
const DIGIT_ZEROS = [0x30, 0x660, 0x966, 0xff10, 0x1d7ce];
/** `n` written with the zero of one script. */
function digitsOf(n: string, zero: number): string {
  return [...n].map((d) => String.fromCodePoint(zero + Number(d))).join('');
}
/** A seq as someone might write it: mostly ASCII, sometimes another script, leading zeros or a huge number. */
function seqText(r: Rand, seq: number): string {
  const n = pick(r, [String(seq), String(seq), `0${seq}`, '99999999999999999999', String(seq + 1), '4'.repeat(25)]);
  return r() < 0.5 ? n : digitsOf(n, pick(r, DIGIT_ZEROS));
}

/** Line ends Python's splitlines() knows, and look-alikes it does not. */
const LINE_ENDS = ['\n', '\r', '\r\n', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029', '\x1f', '\t', '\xa0'];
/** White space of every kind Python's `\s` takes (`\x1f` and NEL too), and `\u200b`, which it does not. */
const SPACES = [' ', '\t', '\xa0', '\u3000', '\x1f', '\x85', '\u2003', '\u200b', '  '];

function reviewHeading(r: Rand, seq: number, who = REVIEWER): string {
  const sp = (): string => pick(r, SPACES.slice(0, r() < 0.7 ? 1 : SPACES.length));
  return `##${sp()}2026-01-01T00:00:00Z${sp()}-${sp()}${who}${sp()}-${sp()}seq${sp()}${seqText(r, seq)}${r() < 0.3 ? pick(r, LINE_ENDS) + 'x' : ''}`;
}

/** Class 1–3: review.md headings and decisions.md ids in other digits, big numbers, other line ends. */
function documents(r: Rand, stages: Files[]): RefCase {
  const stage = 4 + int(r, 7);
  const files: Files = { ...stages[stage]! };
  const review = files[`${F}/review.md`]!;
  if (r() < 0.6) files[`${F}/review.md`] = review.replace(/^## 2026-01-01T00:00:00Z - bob - seq 4$/m, reviewHeading(r, 4, pick(r, [REVIEWER, REVIEWER, OWNER])));
  if (r() < 0.3) files[`${F}/review.md`] += `\n${reviewHeading(r, int(r, 12), pick(r, [REVIEWER, OWNER]))}\n`;
  if (r() < 0.5) {
    const id = pick(r, ['1', '1', '01', '2', '١', '１', '𝟏', '99999999999999999999']);
    const space = pick(r, SPACES);
    files[`${F}/decisions.md`] = files[`${F}/decisions.md`]!.replace(/^### D1\. /m, `###${pick(r, [' ', ' ', '\t', '  '])}D${id}.${space}`);
  }
  if (r() < 0.4) files[`${F}/readiness.md`] = files[`${F}/readiness.md`]!.replace(/\n/g, () => (r() < 0.05 ? pick(r, LINE_ENDS) : '\n'));
  if (r() < 0.3) files[`${F}/conclusion.md`] = files[`${F}/conclusion.md`]!.replace(/\n/g, () => (r() < 0.05 ? pick(r, LINE_ENDS) : '\n'));
  return { label: `documents stage ${stage}`, files, argv: pick(r, [['validate', '--folder', F], ['validate', '--folder', F], ['next', '--folder', F, '--participant', pick(r, [OWNER, REVIEWER])]]) };
}

/** An `append` of the next happy-path event of `stage` (or a blocked), its `--reply-to` replaced by `replyTo` when given. */
function appendAt(stage: number, replyTo?: string): string[] {
  const step = STEPS[Math.min(stage, STEPS.length - 1)]!;
  const args = appendArgs(F, stage < STEPS.length ? step.event : { participant: OWNER, event: 'blocked', summary: 'stop', replyTo: stage });
  if (replyTo === undefined) return args;
  const at = args.indexOf('--reply-to');
  return at < 0 ? [...args, '--reply-to', replyTo] : [...args.slice(0, at + 1), replyTo, ...args.slice(at + 2)];
}

/** Class 4: `--reply-to` values int() reads (or refuses). */
function replyTo(r: Rand, stages: Files[]): RefCase {
  const stage = int(r, 11);
  const value = pick(r, ['1'.repeat(40), '0'.repeat(39) + '1', String(stage), ` ${stage} `, `+${stage}`, `-${stage}`, '1_0', '0x1', '1.0', '', '١', '１', `${stage}\u3000`, '99999999999999999999', '-1'.repeat(1), '−1', '1e3', 'nan']);
  const files = { ...stages[stage]! };
  const argv = appendAt(stage, value);
  if (r() < 0.3) argv.splice(argv.indexOf('--reply-to'), 2, `--reply-to=${value}`);
  return { label: `reply-to stage ${stage}`, files, argv };
}

/** The log of a stage with line `index` (0-based) changed by `edit`. */
function editLine(files: Files, index: number, edit: (line: string) => string): Files {
  const lines = files[`${F}/events.jsonl`]!.split('\n');
  lines[index] = edit(lines[index]!);
  return { ...files, [`${F}/events.jsonl`]: lines.join('\n') };
}

/** Class 5, 6 and the JSON lines: seqs that are floats or bools, raw line-end characters inside strings, NaN, big numbers, duplicate keys, a BOM. */
function jsonLines(r: Rand, stages: Files[]): RefCase {
  const stage = 1 + int(r, 10);
  const count = stage + 1;
  const index = int(r, count);
  const edits: ((line: string) => string)[] = [
    (line) => line.replace(/"seq":(\d+)/, (_, n: string) => `"seq":${pick(r, [`${n}.0`, `${n}e0`, 'true', `"${n}"`, `${n}.5`, '-0', `${n}0000000000000000000000`])}`),
    (line) => line.replace(/"summary":"/, `"summary":"${pick(r, ['\x85', '\u2028', '\u2029', '\x1c', '\x1e', '\x1f', '\v', '\f', '\\u0085', '\x7f'])}`),
    (line) => line.replace(/}$/, pick(r, [',"score":NaN}', ',"n":-Infinity}', ',"big":123456789012345678901234567890}', ',"seq":99}', ',"x":1e400}', ',"from":"bob"}'])),
    (line) => line.replace(/"reply_to":(\d+)/, (_, n: string) => `"reply_to":${pick(r, [`${n}.0`, 'true', `"${n}"`, '0', String(Number(n) + 5)])}`),
    (line) => pick(r, ['\ufeff', ' ', '\t']) + line,
    (line) => line + pick(r, ['\r', ' ', '\x85', '\u2028{}', '\n\n', '\x1c']),
  ];
  const files = editLine(stages[stage]!, index, pick(r, edits));
  const argv = pick(r, [appendAt(stage), appendAt(stage, String(1 + int(r, count))), ['validate', '--folder', F], ['next', '--folder', F, '--participant', OWNER]]);
  return { label: `json-lines stage ${stage} line ${index + 1}`, files, argv };
}

/** Class 10: two lines with one seq, as a writer without the lock leaves them. */
function duplicateSeqs(r: Rand, stages: Files[]): RefCase {
  const stage = 1 + int(r, 9);
  const lines = stages[stage]![`${F}/events.jsonl`]!.split('\n').filter(Boolean);
  const dup = int(r, lines.length);
  const copy = lines[dup]!.replace(/"summary":"[^"]*"/, '"summary":"twin"');
  const withTwin = [...lines.slice(0, dup + 1), copy, ...lines.slice(dup + 1)];
  const files = { ...stages[stage]!, [`${F}/events.jsonl`]: `${withTwin.join('\n')}\n` };
  const argv = pick(r, [appendAt(stage), appendAt(stage, String(1 + int(r, lines.length))), ['validate', '--folder', F], ['next', '--folder', F, '--participant', pick(r, [OWNER, REVIEWER])]]);
  return { label: `duplicate seq ${dup + 1} at stage ${stage}`, files, argv };
}

/** Class 8 and the timestamps: `at` values `datetime.fromisoformat` reads or refuses. */
function timestamps(r: Rand, stages: Files[]): RefCase {
  const stage = 1 + int(r, 10);
  const at = pick(r, [
    '0001-01-01T00:00:00+01:00', '0001-01-01T00:59:59+01:00', '0001-01-01T01:00:00+01:00', '9999-12-31T23:59:59-01:00', '9999-12-31T23:00:00-00:59',
    '0001-01-01T00:00:00Z', '2026-W01-1T00:00:00Z', '2026-01-01 00:00:00+00:00', '2026-01-01T00:00:00.1234567Z', '2026-01-01T00:00:00z', '2026-0101T00:00:00Z',
    '2026-01-01T24:00:00Z', '2026-01-01T00:00:00+05:00:30', '2026-01-01T00:00:00', '2026-01-01', '0000-01-01T00:00:00Z', '2026-01-01T00:00:00+00:00:00.5',
    '2025-12-31T23:59:59-00:00', '2100-01-01T00:00:00Z', '2026-01-01T00:00Z', '2026-01-01T00Z',
  ]);
  const files = editLine(stages[stage]!, int(r, stage + 1), (line) => line.replace(/"at":"[^"]*"/, `"at":"${at}"`));
  const argv = pick(r, [['validate', '--folder', F], appendAt(stage), ['next', '--folder', F, '--participant', OWNER]]);
  return { label: `timestamp ${at} stage ${stage}`, files, argv };
}

/** The arguments: option prefixes, `=` forms, repetition, unknown options, `--`, values that look like options. */
function args(r: Rand, stages: Files[]): RefCase {
  const stage = int(r, 11);
  const base = pick(r, [appendAt(stage), ['next', '--folder', F, '--participant', pick(r, [OWNER, REVIEWER, 'carol'])], ['validate', '--folder', F], ['wait', '--folder', F, '--participant', pick(r, [OWNER, REVIEWER]), '--timeout', '0.001', '--interval', '0']]);
  const argv = [...base];
  const moves = 1 + int(r, 3);
  for (let k = 0; k < moves && argv.length > 1; k++) {
    const i = 1 + int(r, argv.length - 1);
    const token = argv[i]!;
    const move = int(r, 6);
    if (move === 0 && token.startsWith('--')) argv[i] = token.slice(0, Math.max(3, int(r, token.length) + 1));
    else if (move === 1 && token.startsWith('--') && i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) argv.splice(i, 2, `${token}=${argv[i + 1]}`);
    else if (move === 2) argv.push(pick(r, ['--folder', '--participant', '--summary', '--event', '--role']), pick(r, [F, OWNER, 'x', 'primary', '-x']));
    else if (move === 3) argv.splice(i, 0, pick(r, ['--unknown', '-x', '--', '--folder=', 'extra', '--summary=-s']));
    else if (move === 4) argv.splice(i, 1);
    else argv[i] = pick(r, ['-1', '--', '-', '--=x', `${token}${pick(r, ['\u200b', ' ', 'é'])}`]);
  }
  return { label: `args stage ${stage}`, files: { ...stages[stage]! }, argv };
}

/** Paths: the folder spelled other ways, through a symbolic link, missing or a file. */
function paths(r: Rand, stages: Files[]): RefCase {
  const stage = int(r, 11);
  const files: Record<string, CaseFile> = { ...stages[stage]! };
  const spelling = pick(r, [`${F}/`, `./${F}`, `${F}/../${F}`, `${F}//`, 'L', 'L/', 'M', `${F}/proposal.md`, 'nope', '.', `${F}/.`, 'D/..']);
  files.L = { link: F };
  files['D/'] = '';
  return { label: `path ${spelling} stage ${stage}`, files, argv: pick(r, [['validate', '--folder', spelling], ['next', '--folder', spelling, '--participant', OWNER], appendAt(stage).map((a) => (a === F ? spelling : a))]) };
}

/** Class 7 and init's arguments. */
function init(r: Rand): RefCase {
  const files: Record<string, CaseFile> = {};
  const folder = pick(r, ['N', 'N/', 'a/b/N', './N', 'N\udcff', 'L']);
  if (folder === 'L') files.L = { link: 'N' };
  if (r() < 0.15) {
    files['N/'] = '';
    files['N/protocol.json'] = { link: pick(r, ['missing.json', '../elsewhere.json']) };
  }
  const argv = ['init', '--folder', folder];
  for (const p of pick(r, [[OWNER, REVIEWER], [OWNER, OWNER], [OWNER, ' ', REVIEWER], [OWNER], [' a ', 'b']])) argv.push('--participant', p);
  argv.push('--objective', pick(r, ['o', ' o ', '', 'ö\u2028x']), '--completion', pick(r, ['g', ' ', 'state.log ok']));
  const type = pick(r, ['adr', 'design-spec', 'custom', 'nope']);
  argv.push('--primary-deliverable-type', type);
  if (type === 'custom' || r() < 0.2) argv.push('--primary-deliverable-file', pick(r, ['x.md', 'x.txt', '../x.md', '/x.md', 'sub/x.md', '']));
  if (type === 'custom' && r() < 0.7) argv.push('--primary-deliverable-check', pick(r, ['Scope', ' ', 'A']));
  if (r() < 0.4) argv.push('--deliverables-dir', pick(r, ['', ' ', 'out', 'a/../b', '/abs', '..', 'd\x85']));
  if (r() < 0.3) argv.push('--deliverables-mode', pick(r, ['internal', 'external']));
  if (r() < 0.3) argv.push('--repo-root', pick(r, ['', '.', '..', '/', 'x']));
  if (r() < 0.1) argv.push('--resume');
  return { label: 'init', files, argv };
}

/** Every generator, by name. */
export const GENERATORS: Record<string, (r: Rand, stages: Files[]) => RefCase> = {
  documents,
  'reply-to': replyTo,
  'json-lines': jsonLines,
  'duplicate-seqs': duplicateSeqs,
  timestamps,
  args,
  paths,
  init,
};

/** `count` cases of each generator, seeded by `seed` (the same seed gives the same cases). */
export function generate(stages: Files[], count: number, seed: number): RefCase[] {
  return Object.entries(GENERATORS).flatMap(([name, gen], k) => {
    const r = rng(seed * 101 + k);
    return Array.from({ length: count }, (_, i) => {
      const c = gen(r, stages);
      return { ...c, label: `${name}#${i} (seed ${seed}): ${c.label}` };
    });
  });
}
