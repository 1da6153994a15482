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
/**
 * Interpreters whose code comes as the literal argument after a flag
 * (`sh -c 'script' name "$1"`, `python3 -c 'code' arg`, `node -e 'code'
 * arg`): a placeholder may stand only after that literal code, where the
 * program hands it to the code as data ($1, sys.argv, process.argv).
 */
const CODE_FLAGS: [RegExp, RegExp][] = [
  [/^(?:sh|bash|dash|zsh|ksh|mksh|ash|busybox)$/, /^-[a-zA-Z]*c[a-zA-Z]*$/],
  [/^python(?:\d+(?:\.\d+)?)?$/, /^-c$/],
  [/^(?:node|nodejs|bun)$/, /^(?:-e|--eval|-p|--print)$/],
  [/^(?:perl|ruby)$/, /^-[a-zA-Z]*e$/],
];

/**
 * An allowlist, not a denylist of shells: a placeholder may be a whole
 * argument only where the program is known to take it as data — any
 * argument of a {@link DATA_PROGRAMS} program, or an argument after the
 * literal code of an interpreter's `-c`/`-e` ({@link CODE_FLAGS}). Anywhere
 * else (a wrapper such as `env`, `sudo`, `ssh` or `tmux send-keys`, a
 * program acp does not know, an interpreter's script or options) it is
 * refused when the options are read: values then come from the environment.
 */
function checkPlaceholders(command: string[]): void {
  const advice = 'pass values through the environment ("$ACP_PARTICIPANT" in a script: [sh, -c, \'wake "$ACP_PARTICIPANT"\']), or as whole arguments after the literal code of sh -c / python3 -c / node -e, or to notify-send';
  const program = command[0]!.split(/[\\/]/).pop()!.replace(/\.exe$/i, '');
  const codeFlag = CODE_FLAGS.find(([name]) => name.test(program))?.[1];
  const codeAt = codeFlag ? command.findIndex((arg, index) => index > 0 && codeFlag.test(arg)) + 1 : 0;
  command.forEach((arg, index) => {
    if (!PLACEHOLDER.test(arg)) return;
    if (arg.replace(PLACEHOLDER, '') !== '') {
      throw new Error(`option command: argument ${JSON.stringify(arg)} embeds a placeholder in a longer string; values (participant ids come from protocol.json) are never spliced into a string that may be run as code: ${advice}`);
    }
    if (index === 0) throw new Error(`option command: the program must not be a placeholder (${arg}); ${advice}`);
    if (DATA_PROGRAMS.test(program)) return;
    if (codeAt > 0 && index > codeAt) return;
    const where = codeAt > 0 && index === codeAt ? `${arg} would be the code ${program} runs` : `${arg} may be read as code or options by ${program} (acp knows which arguments are data only for notify-send and the like, and after the code of sh -c, python3 -c, node -e)`;
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
