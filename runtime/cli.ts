/**
 * The CLI edge's helpers: running a command's chain of extensions, the
 * --folder option, and turning any failure into `error: …` and an exit code.
 * @module
 */
import { AcpAbortError, AcpAppendedError, AcpError, AcpPluginError, UsageError } from './errors.ts';
import type { Host } from './host.ts';
import { purePosixPath } from './pytext.ts';
import type { CliIo, CommandContext, CommandResult, CommandSpec, Json, OptionValues, Registry } from './types.ts';
import { errorCode, isObject } from './util.ts';

/**
 * Every `--json` object carries `ok` and `exitCode`, and `ok` is false
 * whenever the exit code is not 0 (issue 12 item 11), whatever a command or
 * plugin put there: a script can rely on either field.
 */
export function jsonWithOutcome(json: Json, exitCode: number): Json {
  if (!isObject(json)) return json;
  return { ...json, ok: exitCode === 0 ? json.ok !== false : false, exitCode };
}

/** An extension that answers the command itself excludes the options the rest of the chain would have used (see {@link CommandSpec.answers}). */
export function checkAnswers(registry: Registry, entry: { spec: CommandSpec; chain: CommandSpec[] }, options: OptionValues): void {
  const given = (name: string): boolean => options[name] !== undefined && options[name] !== false;
  const base = entry.chain[0]!;
  entry.chain.forEach((extension, index) => {
    const answer = extension.answers?.find(given);
    if (answer === undefined) return;
    const theirs = [
      ...entry.chain.filter((_, i) => i > 0 && i !== index).flatMap((other) => Object.keys(other.options ?? {})),
      ...(base.store ? registry.stores.flatMap((store) => (store.flag ? [store.flag.name] : [])) : []),
    ].filter((name) => !Object.hasOwn(extension.options ?? {}, name) && !Object.hasOwn(base.options ?? {}, name));
    const clash = theirs.find(given);
    if (clash !== undefined) throw new UsageError(`argument --${clash}: not allowed with argument --${answer}`);
  });
}

/** Run a command and the `extend` wrappers around it, outermost first; a wrapper that neither answers nor calls `next()` is a plugin error. */
export async function runCommandChain(entry: { chain: readonly CommandSpec[]; owners: readonly string[] }, context: Omit<CommandContext, 'next'>, index = entry.chain.length - 1): Promise<CommandResult> {
  const spec = entry.chain[index]!;
  let passedOn = index === 0;
  const next = (): Promise<CommandResult> => {
    passedOn = true;
    return index > 0 ? runCommandChain(entry, context, index - 1) : Promise.resolve({ exitCode: 0 });
  };
  const outcome = await spec.run({ ...context, next });
  const answered = spec.answers?.some((name) => context.options[name] !== undefined && context.options[name] !== false);
  if (!passedOn && !answered) throw new AcpPluginError(entry.owners[index] ?? 'unknown', `command '${spec.name}'`, new Error('it extends the command but neither ran it (ctx.next()) nor declared the options under which it answers it (answers)'));
  return typeof outcome === 'object' ? outcome : { exitCode: outcome ?? 0 };
}

/** `--folder`, resolved; a usage error when absent. */
export function folderOption(host: Host, value: unknown, env?: (name: string) => string | undefined): string {
  if (typeof value !== 'string') throw new UsageError('the following arguments are required: --folder');
  if (value.includes('\0')) throw new UsageError('argument --folder: a path cannot contain a NUL character');
  return host.resolvePath(expandUser(value, env, host));
}

/**
 * `Path.expanduser()` (Python 3.11): a first component `~` is HOME (`/`
 * when HOME is empty; without HOME, the current user's home from the
 * password database), `~name` is that user's home, so `--folder=~/G` (no
 * shell to expand it) means what it means to the Python tools rather than
 * a directory named `~` (issue 12 item 2). Users are looked up through
 * `host.userHome` (/etc/passwd); an unknown one is Python's RuntimeError,
 * here a clean error.
 */
export function expandUser(path: string, env?: (name: string) => string | undefined, host?: Pick<Host, 'userHome'>): string {
  if (!path.startsWith('~')) return path;
  const cut = path.indexOf('/');
  const first = cut < 0 ? path : path.slice(0, cut);
  const rest = cut < 0 ? '' : path.slice(cut);
  const home = first === '~' ? (env?.('HOME') ?? host?.userHome?.()) : host?.userHome?.(first.slice(1));
  const dir = home === undefined ? undefined : home.replace(/\/+$/, '') || '/';
  if (dir === undefined || dir.startsWith('~')) throw new AcpError('Could not determine home directory.');
  return purePosixPath(dir, rest.replace(/^\/+/, ''));
}

/** Print a failure as `error: …` (and the JSON object under `--json`); returns the exit code (70: a bug). */
export function reportError(io: CliIo, error: unknown, { json: wantsJson, debug }: { json: boolean; debug: boolean }): number {
  const described = describeError(error);
  if (!described) {
    io.stderr(`error: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    return 70;
  }
  const { message, exitCode, code } = described;
  const appended = error instanceof AcpAppendedError ? error.appended : undefined;
  if (wantsJson) io.stdout(`${JSON.stringify({ ok: false, error: message, exitCode, code, ...(appended ? { appended: appended.event } : {}) })}\n`);
  else if (appended) io.stdout(`appended seq ${appended.event.seq}: ${appended.event.event}\n`);
  // A strict refusal lists validate's errors, one line each as validate prints them (the Python tools' own refusals keep their one line).
  // Ctrl-C or SIGTERM is how one ends a follower, a wait or a server: the exit code (130/143) says it, no error line.
  if (error instanceof AcpAbortError && io.signal?.aborted) return exitCode;
  const lines = error instanceof AcpError && code === 'strict' ? error.messages : [message];
  io.stderr(lines.map((line) => `error: ${line}\n`).join(''));
  return exitCode;
}

/**
 * The user-facing side of a failure: an {@link AcpError}'s message, exit code
 * and stable code, or a file system failure nobody foresaw (a file replaced
 * by a directory, a disk error…), which is the environment's, not a bug
 * (`file system error: …`, exit 2). `undefined` for anything else: a bug.
 */
export function describeError(error: unknown): { message: string; exitCode: number; code: string } | undefined {
  if (error instanceof AcpError) return { message: error.message, exitCode: error.exitCode, code: error.code };
  const errno = errorCode(error);
  // A FIFO, device or oversized file met by a reader other than the core's
  // own (a plugin's, doctor's): the host's refusal, said plainly.
  if (errno === 'EFTYPE' || errno === 'EFBIG') return { message: (error as Error).message.replace(/^E[A-Z]+: /, ''), exitCode: 2, code: 'invalid_folder' };
  if (errno !== undefined && /^E[A-Z0-9]+$/.test(errno)) return { message: `file system error: ${(error as Error).message}`, exitCode: 2, code: 'file_system' };
  return undefined;
}
