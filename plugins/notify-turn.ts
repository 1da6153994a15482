/**
 * Plugin `notify-turn`: run a command when a participant's turn comes, so an
 * idle agent (or a human) gets woken instead of polling.
 *
 * After every successful append it compares `waitingFor` before and after
 * the event: each watched participant who was not waited for and now is has
 * a `turn`; when the collaboration becomes `completed` or `blocked`, every
 * watched participant gets that reason (the moments `acp wait` returns). For
 * each, the command runs once: an argv array, no shell. An argument that is
 * exactly one placeholder (`{participant} {reason} {folder} {phase} {event}
 * {seq} {from}`) is replaced by that value, as one argv entry; the same values
 * are in the environment (`ACP_PARTICIPANT`, `ACP_REASON`, `ACP_FOLDER`,
 * `ACP_PHASE`, `ACP_EVENT`, `ACP_SEQ`, `ACP_FROM`).
 *
 * Values never become code: participant ids come from protocol.json, which
 * anyone who can write the folder controls, and an id such as
 * `x;touch /tmp/p;#` handed to `bash -c` would run. Placeholders follow an
 * allowlist (see {@link checkPlaceholders}): whole arguments only, and only
 * where the program takes them as data (notify-send and the like; after the
 * literal code of `sh -c`, `python3 -c`, `node -e`); anything else is refused
 * when the options are read, and a script reads `"$ACP_PARTICIPANT"` from the
 * environment instead. A value beginning with `-` is never put in argv (it
 * would be an option). See docs/plugins.md.
 *
 * Options (`acp.config.yaml`):
 * - `command` (required): argv array, e.g. `[tmux, send-keys, -t, bob, "acp next …", Enter]`;
 * - `participants`: a participant id or a list (default: everyone);
 * - `on`: which reasons fire, subset of `[turn, completed, blocked]` (default all);
 * - `timeoutSeconds`: kill the command after this long (default 60);
 * - `background`: start the command and do not wait for it (default false);
 * - `failOnError`: a failing command makes `acp append` exit 2 (the event
 *   stays appended) instead of printing a warning (default false).
 *
 * Running commands is a runtime capability: Node and Bun have it; Deno needs
 * `--allow-run` (ideally `--allow-run=<command>`).
 * @module
 */
import type { AcpPlugin, AfterAppendContext, PluginContext } from '../runtime/types.ts';

const REASONS = ['turn', 'completed', 'blocked'] as const;
type Reason = (typeof REASONS)[number];

/** Checked options of the plugin. */
export interface NotifyTurnOptions {
  command: string[];
  participants?: string[];
  on: Reason[];
  timeoutSeconds: number;
  background: boolean;
  failOnError: boolean;
}

/** Check the raw options from the config file; throws with a precise message. */
export function parseNotifyTurnOptions(raw: Record<string, unknown>): NotifyTurnOptions {
  const known = ['command', 'participants', 'on', 'timeoutSeconds', 'background', 'failOnError'];
  for (const key of Object.keys(raw)) if (!known.includes(key)) throw new Error(`unknown option '${key}' (known: ${known.join(', ')})`);
  const { command, participants, on = [...REASONS], timeoutSeconds = 60, background = false, failOnError = false } = raw;
  const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
  if (!isStrings(command) || command.length === 0 || command[0]!.trim() === '') {
    throw new Error('option command must be a non-empty list of strings (argv; no shell), e.g. [notify-send, "ACP: your turn", "{participant}"]');
  }
  checkPlaceholders(command);
  let watched: string[] | undefined;
  if (typeof participants === 'string') watched = [participants];
  else if (isStrings(participants)) watched = participants;
  else if (participants !== undefined) throw new Error('option participants must be a participant id or a list of ids');
  if (!isStrings(on) || on.some((reason) => !(REASONS as readonly string[]).includes(reason))) throw new Error(`option on must be a list of ${REASONS.join(', ')}`);
  if (typeof timeoutSeconds !== 'number' || !(timeoutSeconds > 0)) throw new Error('option timeoutSeconds must be a positive number');
  if (typeof background !== 'boolean') throw new Error('option background must be true or false');
  if (typeof failOnError !== 'boolean') throw new Error('option failOnError must be true or false');
  return { command, participants: watched, on: on as Reason[], timeoutSeconds, background, failOnError };
}

const PLACEHOLDER = /\{(participant|reason|folder|phase|event|seq|from)\}/;

/**
 * Programs that take every argument as data (text to show, say or log):
 * a whole-argument placeholder may stand anywhere after the program.
 */
const DATA_PROGRAMS = /^(?:notify-send|terminal-notifier|say|spd-say|espeak|espeak-ng|echo)$/;
/** Shells: POSIX-style option clusters; a `c` in any of them makes the first operand the code. */
const SHELLS = /^(?:sh|bash|dash|zsh|ksh|mksh|ash|yash|posh)$/;

/**
 * Where the data begins in `args` (the arguments after the program, index 0
 * the program itself), parsed as `program` parses them: the index of the
 * first argument it hands its code as data ($0/$1, sys.argv, process.argv,
 * @ARGV), or `undefined` when nothing after the program is known to be data
 * (no code flag: a script, a module, stdin; a program acp does not know).
 * Where acp's parse and the program's could differ, the reading that puts
 * the code later wins: a placeholder is refused rather than run.
 */
function dataStart(command: readonly string[]): number | undefined {
  const program = programName(command[0]!);
  if (SHELLS.test(program)) return shellDataStart(command, 1);
  if (program === 'busybox') return SHELLS.test(command[1] ?? '') ? shellDataStart(command, 2) : undefined;
  if (program === 'env') return envDataStart(command);
  if (/^python(?:\d+(?:\.\d+)?)?$/.test(program)) return pythonDataStart(command);
  if (/^(?:node|nodejs|bun)$/.test(program)) return evalDataStart(command, NODE_SYNTAX);
  if (/^(?:perl|ruby)$/.test(program)) return evalDataStart(command, PERL_SYNTAX);
  return undefined;
}

/** The program's name as a shell would find it (`/usr/bin/bash.exe` → `bash`). */
function programName(path: string): string {
  return path.split(/[\\/]/).pop()!.replace(/\.exe$/i, '');
}

/**
 * sh, bash, dash, zsh…: options (`-ec`, `+x`, `-o name`, `-O name`,
 * bash's `--rcfile file`) up to `--`, `-` or the first operand; with a `c`
 * among them that operand is the code, and the ones after it $0, $1…
 */
function shellDataStart(command: readonly string[], from: number): number | undefined {
  let code = false;
  let i = from;
  for (; i < command.length; i++) {
    const arg = command[i]!;
    if (arg === '--' || arg === '-') {
      i++;
      break;
    }
    if (!/^[-+]./.test(arg)) break;
    if (arg.startsWith('--')) {
      if (arg === '--rcfile' || arg === '--init-file') i++;
      continue;
    }
    for (const flag of arg.slice(1)) {
      if (flag === 'c') code = true;
      // -o/-O take the next argument (one each, as bash reads `-oO a b`).
      else if (flag === 'o' || flag === 'O') i++;
    }
  }
  return code ? i + 1 : undefined;
}

/**
 * env: its own options (`-i`, `-u NAME`, `-C DIR`…) and `NAME=value`
 * assignments, then a command parsed as that program's; `-S` splits a
 * string into arguments, so nothing after it is known.
 */
function envDataStart(command: readonly string[]): number | undefined {
  let i = 1;
  for (; i < command.length; i++) {
    const arg = command[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    if (/^(?:-[a-zA-Z0-9]*S|--split-string)/.test(arg)) return undefined;
    if (/^(?:-[a-zA-Z0-9]*[uC]|--unset|--chdir)$/.test(arg)) i++;
    else if (!arg.startsWith('-') && !/^[^=]+=/.test(arg)) break;
  }
  if (i >= command.length) return undefined;
  const inner = dataStart(command.slice(i));
  return inner === undefined ? undefined : inner + i;
}

/**
 * python: option clusters up to the first operand; `-c` ends the options
 * (its code the rest of the cluster or the next argument) and what follows
 * is sys.argv; `-m`, a script or `-` leaves nothing known as data.
 */
function pythonDataStart(command: readonly string[]): number | undefined {
  for (let i = 1; i < command.length; i++) {
    const arg = command[i]!;
    if (!arg.startsWith('-') || arg === '-' || arg === '--') return undefined;
    if (arg.startsWith('--')) {
      if (arg === '--check-hash-based-pycs') i++;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const flag = arg[j]!;
      if (flag === 'c') return j + 1 < arg.length ? i + 1 : i + 2;
      if (flag === 'm') return undefined;
      if (flag === 'W' || flag === 'X') {
        if (j + 1 === arg.length) i++;
        break;
      }
    }
  }
  return undefined;
}

/** How node/bun and perl/ruby take code on their command line (see {@link evalDataStart}). */
interface EvalSyntax {
  /** An option whose next argument is code. */
  codeFlag: RegExp;
  /** An option carrying its code (`--eval=code`). */
  attachedCode?: RegExp;
  /** Known options whose next argument is their value. */
  takesValue?: RegExp;
}

const NODE_SYNTAX: EvalSyntax = {
  codeFlag: /^(?:-e|--eval|-p|--print|-pe|-ep)$/,
  attachedCode: /^--(?:eval|print)=/,
  takesValue: /^(?:-r|--require|--import|--loader|--experimental-loader|-C|--conditions|--title|--input-type|--env-file|--inspect-port|--cpu-prof-dir|--heap-prof-dir|--diagnostic-dir|--redirect-warnings)$/,
};
/** perl and ruby: `-e code`, also at the end of a cluster (`-le`), as many as given. */
const PERL_SYNTAX: EvalSyntax = { codeFlag: /^-[a-zA-Z0-9]*e$/ };

/**
 * node, bun, perl, ruby: options go on until the first operand or `--`,
 * which begin process.argv/@ARGV; a code flag takes the next argument as
 * code (not an option: node refuses `-e -e …`, so a later option is not
 * code, and the code comes later still). Without a code flag the first
 * operand is a script: nothing is known as data.
 */
function evalDataStart(command: readonly string[], syntax: EvalSyntax): number | undefined {
  let code = false;
  let i = 1;
  for (; i < command.length; i++) {
    const arg = command[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    if (syntax.codeFlag.test(arg)) {
      code = true;
      if (!command[i + 1]?.startsWith('-')) i++;
    } else if (syntax.attachedCode?.test(arg)) code = true;
    else if (syntax.takesValue?.test(arg)) i++;
  }
  return code ? i : undefined;
}

/**
 * An allowlist, not a denylist of shells: a placeholder may be a whole
 * argument only where the program is known to take it as data — any
 * argument of a {@link DATA_PROGRAMS} program, or an argument the program
 * hands its literal code as data, as {@link dataStart} parses the argument
 * list (a `-c` anywhere among a shell's options makes its next operand
 * code). Anywhere else (a wrapper such as `sudo`, `ssh` or `tmux
 * send-keys`, a program acp does not know, an interpreter's script, code or
 * options) it is refused when the options are read: values then come from
 * the environment.
 */
function checkPlaceholders(command: string[]): void {
  const advice = 'pass values through the environment ("$ACP_PARTICIPANT" in a script: [sh, -c, \'wake "$ACP_PARTICIPANT"\']), or as whole arguments after the literal code of sh -c / python3 -c / node -e, or to notify-send';
  const program = programName(command[0]!);
  const dataAt = DATA_PROGRAMS.test(program) ? 1 : dataStart(command);
  command.forEach((arg, index) => {
    if (!PLACEHOLDER.test(arg)) return;
    if (arg.replace(PLACEHOLDER, '') !== '') {
      throw new Error(`option command: argument ${JSON.stringify(arg)} embeds a placeholder in a longer string; values (participant ids come from protocol.json) are never spliced into a string that may be run as code: ${advice}`);
    }
    if (index === 0) throw new Error(`option command: the program must not be a placeholder (${arg}); ${advice}`);
    if (dataAt !== undefined && index >= dataAt) return;
    const where = dataAt !== undefined && index === dataAt - 1 ? `${arg} would be the code ${program} runs` : `${arg} may be read as code or options by ${program} (acp knows which arguments are data only for notify-send and the like, and after the code of sh -c, python3 -c, node -e, perl -e)`;
    throw new Error(`option command: ${where}; ${advice}`);
  });
}

/**
 * The argv of one notification: each placeholder replaced by its value, or
 * a refusal when a value begins with `-` (a program would read it as an
 * option: a participant id `-f/etc/shadow`); the environment carries it.
 */
export function notificationArgv(command: readonly string[], values: Readonly<Record<string, string>>): string[] {
  return command.map((arg) => {
    if (!PLACEHOLDER.test(arg)) return arg;
    const value = values[arg.slice(1, -1)]!;
    if (value.startsWith('-')) throw new Error(`${arg} is ${JSON.stringify(value)}, which begins with '-' and would be read as an option: not run (read ACP_${arg.slice(1, -1).toUpperCase()} from the environment instead)`);
    return value;
  });
}

/** Who should be woken by this append, and why. */
export function dueNotifications(context: AfterAppendContext, options: Pick<NotifyTurnOptions, 'participants' | 'on'>): { participant: string; reason: Reason }[] {
  const { state, previousPhase, previousWaitingFor } = context;
  const everyone = (context.protocol.participants as unknown[] | undefined ?? []).map((p) => (typeof p === 'object' && p !== null ? String((p as { id?: unknown }).id) : String(p)));
  const watched = options.participants ?? everyone;
  const due: { participant: string; reason: Reason }[] = [];
  const ended = state.phase !== previousPhase && (state.phase === 'completed' || state.phase === 'blocked') ? state.phase : undefined;
  for (const participant of watched) {
    if (ended) {
      if (options.on.includes(ended)) due.push({ participant, reason: ended });
    } else if (options.on.includes('turn') && state.waitingFor.includes(participant) && !previousWaitingFor.includes(participant)) {
      due.push({ participant, reason: 'turn' });
    }
  }
  return due;
}

/** The plugin factory: acp calls it with the plugin API. */
export default function notifyTurn(context: PluginContext): AcpPlugin {
  const options = parseNotifyTurnOptions(context.options);
  const run = context.runtime.run;
  if (!run) throw new Error(`this runtime (${context.runtime.name}) cannot run commands`);
  return context.definePlugin({
    name: 'notify-turn',
    // After other reactions (a commit, a log line): wake people last.
    enforce: 'post',
    // The hook waits for the command, which has its own timeout: the hook's
    // deadline must not cut it short (one command per hook call, plus a margin).
    timeoutMs: options.timeoutSeconds * 1000 + 5000,
    hooks: {
      async 'append:after'(event) {
        const failures: string[] = [];
        for (const { participant, reason } of dueNotifications(event, options)) {
          const values: Record<string, string> = {
            participant,
            reason,
            folder: event.folder,
            phase: String(event.state.phase),
            event: event.event.event,
            seq: String(event.event.seq),
            from: event.event.from,
          };
          const env = Object.fromEntries(Object.entries(values).map(([key, value]) => [`ACP_${key.toUpperCase()}`, value]));
          let problem: string | undefined;
          try {
            // Whole-argument placeholders where data goes only (checkPlaceholders): a value is always exactly one argv entry.
            const argv = notificationArgv(options.command, values);
            const result = await run(argv, { cwd: event.folder, env, timeoutMs: options.timeoutSeconds * 1000, detached: options.background });
            if (result.code !== 0) {
              const detail = result.stderr.trim().split('\n')[0];
              problem = `${options.command[0]} ${result.code === null ? `was killed after ${options.timeoutSeconds}s` : `exited with ${result.code}`}${detail ? `: ${detail}` : ''}`;
            }
          } catch (error) {
            problem = error instanceof Error ? error.message : String(error);
          }
          if (problem === undefined) continue;
          const message = `could not notify ${participant} (${reason}): ${problem}`;
          if (options.failOnError) failures.push(message);
          else context.warn(message);
        }
        if (failures.length) throw new Error(failures.join('; '));
      },
    },
  });
}
