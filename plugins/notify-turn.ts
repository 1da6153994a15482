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
 * Values never become part of a larger string: participant ids come from
 * protocol.json, which anyone who can write the folder controls, and an id
 * such as `x;touch /tmp/p;#` spliced into `bash -c "… {participant}"` would
 * run as code. So a placeholder inside a longer argument, as the program, or
 * as a shell's `-c` script is refused when the options are read; a shell
 * script reads `"$ACP_PARTICIPANT"` instead (see docs/plugins.md).
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
import type { AcpPlugin, AfterAppendContext, PluginContext } from '../acp.ts';

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
const SHELLS = /^(?:.*[\\/])?(?:sh|bash|dash|zsh|ksh|mksh|fish|csh|tcsh|ash|busybox|cmd|cmd\.exe|powershell|pwsh)$/i;

/**
 * Refuse command templates that would splice a value into code: a
 * placeholder inside a longer argument (it could be a shell string, a
 * `tmux send-keys` line, an `ssh` command), as the program, or as the script
 * a shell runs (`sh -c {participant}`).
 */
function checkPlaceholders(command: string[]): void {
  const shell = SHELLS.test(command[0]!);
  command.forEach((arg, index) => {
    if (!PLACEHOLDER.test(arg)) return;
    const advice = 'pass values as whole arguments ([prog, --who, "{participant}"]) or read them from the environment ("$ACP_PARTICIPANT" in a script)';
    if (arg.replace(PLACEHOLDER, '') !== '') {
      throw new Error(`option command: argument ${JSON.stringify(arg)} embeds a placeholder in a longer string; values (participant ids come from protocol.json) are never spliced into a string that may be run as code: ${advice}`);
    }
    if (index === 0) throw new Error(`option command: the program must not be a placeholder (${arg}); ${advice}`);
    if (shell && /^[-/]\w*c$/i.test(command[index - 1]!)) throw new Error(`option command: ${arg} would be the script ${command[0]} runs; ${advice}`);
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
          // Whole-argument placeholders only (checkPlaceholders): a value is always exactly one argv entry.
          const argv = options.command.map((arg) => (PLACEHOLDER.test(arg) ? values[arg.slice(1, -1)]! : arg));
          const env = Object.fromEntries(Object.entries(values).map(([key, value]) => [`ACP_${key.toUpperCase()}`, value]));
          let problem: string | undefined;
          try {
            const result = await run(argv, { cwd: event.folder, env, timeoutMs: options.timeoutSeconds * 1000, detached: options.background });
            if (result.code !== 0) {
              const detail = result.stderr.trim().split('\n')[0];
              problem = `${argv[0]} ${result.code === null ? `was killed after ${options.timeoutSeconds}s` : `exited with ${result.code}`}${detail ? `: ${detail}` : ''}`;
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
