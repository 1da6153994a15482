// Issue 42's validate and append rows, measured on one generated folder of
// 100,000 events (scripts/long-log.ts: a second apart and all in the past,
// so that the Python tools' appends, stamped now, come after them; its
// documents written so that it also passes `validate --strict`), each
// command spawned as a user runs it:
//
//   first validate     the validation checkpoint deleted before; binary
//                      (dist/acp) and Node (dist/acp.mjs), × the Python tools
//   re-validate        the same folder again, × the Python tools
//   strict append      `append --strict` after a validate left its checkpoint,
//                      and on a folder never validated (its first strict
//                      append, then the next one), × a plain append
//   first append       the append checkpoint deleted, right after a validate,
//                      × the Python tools' append
//
// Every figure is a median of CPU time (user + sys, wait4's) with the wall
// time beside it, and each ratio compares runs interleaved in the same
// rounds, so the machine's load moves both sides; the load average is
// printed with the table. `benchValidateAppend()` returns the rows for
// scripts/bench.ts; run alone (node or bun):
//
//   node_modules/.bin/bun scripts/bench-append.ts [events=100000] [rounds=7] [--validate-only]
//
// `--validate-only` measures the validate rows alone (first validate and
// re-validate, binary and Node, and the Python tools' validate): a quick
// before/after of validate's speed.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeHost, createRegistry } from '../acp.ts';
import { validateCheckpointPath } from '../runtime/validate-checkpoint.ts';
import { referenceDir } from '../test/python/reference.ts';
import { median, timedRun } from './bench-start.ts';
import { writeLongLog } from './long-log.ts';

/** One row of the table: a measure, its baseline from the same rounds, their ratio and the goal. */
export interface ValidateAppendRow {
  what: string;
  runtime: string;
  /** Median CPU (user + sys) and wall time of the measure. */
  cpu: string;
  wall: string;
  /** What it is compared with, and that side's median CPU and wall time. */
  baseline: string;
  /** CPU ratio, then the wall ratio in parentheses. */
  ratio: string;
  goal: string;
  met: string;
  /** The ratios as numbers (CPU and wall), and the goal's limit (none: reported only), for tables that format their own. */
  figures: { cpuRatio: number; wallRatio: number; limit?: number };
}

/** What {@link benchValidateAppend} measured: the rows, how, and the machine's load around it. */
export interface ValidateAppendTable {
  rows: ValidateAppendRow[];
  notes: string[];
  /** The 1/5/15-minute load average before and after. */
  load: string;
}

/** Options of {@link benchValidateAppend}. */
export interface ValidateAppendOptions {
  /** Events in the generated log (default 100,000). */
  events?: number;
  /** Interleaved rounds; each figure is the median of this many runs (default 7). */
  rounds?: number;
  /** The repository whose dist/ is measured (default: this one). */
  root?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** Measure the validate rows only (first validate, re-validate), not the appends. */
  validateOnly?: boolean;
}

interface Sample {
  cpu: number;
  wall: number;
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const loadAverage = (): string => os.loadavg().map((value) => value.toFixed(2)).join(' / ');

/**
 * Generate the folder, measure every row of issue 42's validate and append
 * measures, and return the table (nothing is written to docs/).
 */
export async function benchValidateAppend(options: ValidateAppendOptions = {}): Promise<ValidateAppendTable> {
  const events = options.events ?? 100_000;
  const rounds = options.rounds ?? 7;
  const root = options.root ?? resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const reference = referenceDir();
  if (!reference) throw new Error('the Python tool set (shared/reference/acp-python) is not on this machine: it is the baseline of every row');
  const work = mkdtempSync(join(os.tmpdir(), 'acp-bench-append-'));
  const loadBefore = loadAverage();
  try {
    const bench = await Bench.create(work, root, reference, events, options.log ?? (() => undefined));
    const samples = bench.measure(rounds, options.validateOnly ?? false);
    return { rows: bench.rows(samples), notes: bench.notes(rounds), load: `before ${loadBefore}; after ${loadAverage()}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The measured folder and the commands run on it. */
class Bench {
  readonly #work: string;
  readonly #root: string;
  readonly #reference: string;
  readonly #folder: string;
  readonly #env: Record<string, string | undefined>;
  readonly #validateCache: string;
  readonly #events: number;
  readonly #log: (line: string) => void;
  #seq: number;

  private constructor(work: string, root: string, reference: string, folder: string, validateCache: string, events: number, log: (line: string) => void) {
    this.#work = work;
    this.#root = root;
    this.#reference = reference;
    this.#folder = folder;
    this.#validateCache = validateCache;
    this.#events = events;
    this.#seq = events;
    this.#log = log;
    // A scratch state directory (checkpoint key, validation checkpoints), and no CA bundle read at Node's start.
    const { NODE_EXTRA_CA_CERTS: _ca, ...env } = process.env;
    this.#env = { ...env, XDG_STATE_HOME: join(work, 'state') };
  }

  static async create(work: string, root: string, reference: string, events: number, log: (line: string) => void): Promise<Bench> {
    const state = join(work, 'state');
    const previous = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = state;
    try {
      const host = await createNodeHost();
      const folder = join(work, 'collab');
      const bytes = await writeLongLog(host, await createRegistry(), folder, events, { strict: true, past: true, summary: (event, seq) => `${event} #${seq}: a sentence, with punctuation; 1.5 words.` });
      log(`generated ${events} events (${(bytes / 1e6).toFixed(1)} MB) in ${folder}`);
      const bench = new Bench(work, root, reference, folder, (await validateCheckpointPath(host, folder))!, events, log);
      const check = bench.#run(['binary', 'validate', '--strict']);
      if (check.rc !== 0) throw new Error(`the generated folder does not pass validate --strict:\n${check.output.slice(0, 2000)}`);
      return bench;
    } finally {
      if (previous === undefined) delete process.env.XDG_STATE_HOME;
      else process.env.XDG_STATE_HOME = previous;
    }
  }

  /** Spawn one command: its CPU and wall time, exit code and output. */
  #run(command: string[]): Sample & { rc: number; output: string } {
    const [who, word, ...rest] = command;
    const run = timedRun(this.#argv(who!, word!, rest), this.#env, 'any');
    return { rc: run.exitCode, output: `${run.stdout}${run.stderr}`, cpu: run.cpu, wall: run.wall };
  }

  #argv(who: string, word: string, rest: string[]): string[] {
    const folder = ['--folder', this.#folder];
    if (who === 'python') {
      const script = { validate: 'validate_collaboration', append: 'append_event' }[word]!;
      return ['python3', join(this.#reference, 'scripts', `${script}.py`), ...folder, ...rest];
    }
    const acp = who === 'binary' ? [join(this.#root, 'dist', 'acp')] : ['node', join(this.#root, 'dist', 'acp.mjs')];
    return [...acp, word, ...folder, ...rest];
  }

  /** Time one command, which must succeed. */
  #timed(command: string[]): Sample {
    const run = this.#run(command);
    if (run.rc !== 0) throw new Error(`${command.join(' ')} exited ${run.rc}:\n${run.output.slice(0, 2000)}`);
    return run;
  }

  /** An append that keeps the folder valid (and strict-valid): a supporting revision by alice, whose turn it stays. */
  #append(who: string, ...flags: string[]): Sample {
    const reply = String(this.#seq);
    this.#seq++;
    return this.#timed([who, 'append', '--participant', 'alice', '--event', 'deliverable_revised', '--summary', `revision ${this.#seq}`, '--doc', 'deliverables/test-plan.md', '--role', 'supporting', '--reply-to', reply, ...flags]);
  }

  #dropValidateCheckpoint(): void {
    rmSync(this.#validateCache, { force: true });
  }

  #dropAppendCheckpoint(): void {
    rmSync(join(this.#folder, '.acp.checkpoint.json'), { force: true });
  }

  /** `rounds` interleaved rounds of every measure (`validateOnly`: of the validate measures); samples by measure. */
  measure(rounds: number, validateOnly: boolean): Map<string, Sample[]> {
    const samples = new Map<string, Sample[]>();
    const add = (key: string, sample: Sample): void => void (samples.get(key) ?? samples.set(key, []).get(key)!).push(sample);
    for (let round = 0; round < rounds; round++) {
      this.#log(`round ${round + 1} of ${rounds} (load ${loadAverage()})`);
      add('python validate', this.#timed(['python', 'validate']));
      for (const runtime of ['binary', 'node']) {
        this.#dropValidateCheckpoint();
        add(`${runtime} first validate`, this.#timed([runtime, 'validate']));
        add(`${runtime} re-validate`, this.#timed([runtime, 'validate']));
      }
      if (validateOnly) continue;
      // The first append after a validate: no append checkpoint, the validation checkpoint current.
      this.#dropAppendCheckpoint();
      add('binary first append', this.#append('binary'));
      add('python append', this.#append('python'));
      this.#dropAppendCheckpoint();
      this.#timed(['node', 'validate']);
      add('node first append', this.#append('node'));
      for (const runtime of ['binary', 'node']) {
        add(`${runtime} plain append`, this.#append(runtime));
        this.#timed([runtime, 'validate']);
        add(`${runtime} strict append after a validate`, this.#append(runtime, '--strict'));
        add(`${runtime} plain append`, this.#append(runtime));
        this.#dropValidateCheckpoint();
        add(`${runtime} first strict append, never validated`, this.#append(runtime, '--strict'));
        add(`${runtime} strict append, never validated`, this.#append(runtime, '--strict'));
      }
    }
    return samples;
  }

  /** The table's rows from the samples. */
  rows(samples: Map<string, Sample[]>): ValidateAppendRow[] {
    const rows: ValidateAppendRow[] = [];
    const k = `${this.#events / 1000}k`;
    const row = (what: string, runtime: string, measure: string, baseline: string, label: string, goal: string, limit: number | undefined): void => {
      const a = samples.get(measure);
      const b = samples.get(baseline);
      if (!a || !b) return; // not measured (--validate-only)
      const [cpu, wall, baseCpu, baseWall] = [median(a.map((s) => s.cpu)), median(a.map((s) => s.wall)), median(b.map((s) => s.cpu)), median(b.map((s) => s.wall))];
      const ratio = cpu / baseCpu;
      const figures = { cpuRatio: ratio, wallRatio: wall / baseWall, ...(limit === undefined ? {} : { limit }) };
      rows.push({ what, runtime, cpu: ms(cpu), wall: ms(wall), baseline: `${label}: CPU ${ms(baseCpu)}, wall ${ms(baseWall)}`, ratio: `${ratio.toFixed(2)}× (wall ${(wall / baseWall).toFixed(2)}×)`, goal, met: limit === undefined ? '' : ratio <= limit ? 'yes' : 'NO', figures });
    };
    for (const runtime of ['binary', 'node']) {
      row(`first validate, ${k} events`, runtime, `${runtime} first validate`, 'python validate', 'Python tools validate', '≤ 0.2× Python', 0.2);
      row(`re-validate, ${k} events`, runtime, `${runtime} re-validate`, 'python validate', 'Python tools validate', 'keep (0.05×)', undefined);
    }
    for (const runtime of ['binary', 'node']) {
      row(`strict append, ${k} events, after a validate`, runtime, `${runtime} strict append after a validate`, `${runtime} plain append`, 'plain append', '≤ 1.3× a plain append', 1.3);
      row(`strict append, ${k} events, never validated (after the first)`, runtime, `${runtime} strict append, never validated`, `${runtime} plain append`, 'plain append', '≤ 1.3× a plain append', 1.3);
      row(`first strict append, ${k} events, never validated`, runtime, `${runtime} first strict append, never validated`, `${runtime} plain append`, 'plain append', 'reported (a whole validate)', undefined);
    }
    for (const runtime of ['binary', 'node']) {
      row(`first append, ${k} events, right after a validate`, runtime, `${runtime} first append`, 'python append', 'Python tools append', '≤ 0.1× Python', 0.1);
      row(`append, ${k} events, checkpoint current`, runtime, `${runtime} plain append`, 'python append', 'Python tools append', '≤ 0.1× Python', 0.1);
    }
    return rows;
  }

  notes(rounds: number): string[] {
    return [
      `Validate and append at ${this.#events / 1000}k events: one generated folder (scripts/long-log.ts, strict-valid documents), ${rounds} interleaved rounds, every command spawned; medians of CPU time (user + sys, from wait4), wall time beside; ratios of CPU medians, wall ratios in parentheses. The Python tools are shared/reference/acp-python, run with python3 on the same folder in the same rounds. The appends are supporting revisions by alice (the turn stays hers), so the folder stays valid throughout.`,
      '"first validate": the validation checkpoint deleted before; "re-validate": the same folder again. "first append": the append checkpoint deleted, right after a validate. "strict append, after a validate": `append --strict` after `validate` left its checkpoint; "never validated": the validation checkpoint deleted, then two strict appends (the first pays a whole validate: nothing yet vouches for the folder; the second is measured).',
    ];
  }
}

/** Print the table (run as a script). */
async function main(): Promise<void> {
  const validateOnly = process.argv.includes('--validate-only');
  const [events, rounds] = process.argv.slice(2).filter((arg) => arg !== '--validate-only').map(Number);
  if (!existsSync(join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'dist', 'acp'))) throw new Error('build first: npm run build');
  const table = await benchValidateAppend({ events: events ?? 100_000, rounds: rounds ?? 7, validateOnly, log: (line) => console.error(line) });
  console.log('| Measure | Runtime | CPU | Wall | Baseline (same rounds) | Ratio | Goal | Met |\n| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of table.rows) console.log(`| ${r.what} | ${r.runtime} | ${r.cpu} | ${r.wall} | ${r.baseline} | ${r.ratio} | ${r.goal} | ${r.met} |`);
  console.log(`\nLoad average (1/5/15 min): ${table.load}\n`);
  for (const note of table.notes) console.log(`- ${note}`);
}

if (import.meta.main ?? process.argv[1] === fileURLToPath(import.meta.url)) await main();
