/**
 * One SSH connection for acp's git commands. Over SSH every `git fetch`,
 * `ls-remote` and `push` is a new connection (a key exchange, an sshd
 * process, a login), and a poll round or a transaction makes several: on a
 * loaded machine that, not the remote's work, is most of a handoff. When
 * the user has not chosen how git runs ssh, acp runs it with connection
 * sharing (ssh's ControlMaster, the master kept {@link PERSIST_SECONDS}
 * after its last use, so the next acp process of this account reuses it),
 * its socket in a directory private to this account — never in the
 * collaboration folder, which other agents can write.
 * @module
 */
import { dirname } from 'node:path';
import type { GitEnv } from './config.ts';

/** How long an idle shared connection stays open: a follower polls every 1–2 s, an agent appends every few seconds. */
const PERSIST_SECONDS = 60;

/** ssh's limit on a socket path (104 on macOS, 108 on Linux); ssh adds `.` and 16 characters to it while it sets the master up. */
const SOCKET_PATH_MAX = 104 - 17;

/** What decides whether acp may add connection sharing: the user's own settings, read once per repository. */
export interface SshChoice {
  /** `GIT_SSH_COMMAND`, `GIT_SSH` (undefined: not set; a runtime that cannot tell counts as set). */
  envCommand: string | undefined;
  /** `core.sshCommand` of the repository (undefined: not set). */
  configCommand: string | undefined;
}

/** Where an SSH URL points (`ssh://[user@]host[:port]/…` or scp-like `[user@]host:path`), for `ssh -G`; undefined for any other transport. */
export function sshTarget(url: string): { host: string; user?: string; port?: string } | undefined {
  const full = /^(?:git\+)?ssh:\/\/(?:([^@/]+)@)?(\[[^\]]+\]|[^:/]+)(?::(\d+))?\//.exec(url);
  if (full) return { host: full[2]!.replace(/^\[|\]$/g, ''), ...(full[1] ? { user: full[1] } : {}), ...(full[3] ? { port: full[3] } : {}) };
  // scp-like syntax: a colon before any slash, and not a Windows drive letter or a local path.
  const scp = /^(?:([^@/:]+)@)?([^/:]{2,}|\[[^\]]+\]):(?!\/\/)/.exec(url);
  if (scp && !url.includes('://')) return { host: scp[2]!.replace(/^\[|\]$/g, ''), ...(scp[1] ? { user: scp[1] } : {}) };
  return undefined;
}

/**
 * The ssh command acp runs git with, or undefined to leave git's choice
 * alone: a `GIT_SSH_COMMAND` or `GIT_SSH` of the user's, a command that is
 * not ssh itself (a wrapper, plink), or one that already says how to share
 * connections (`-o ControlMaster=no` is a choice too). A `core.sshCommand`
 * that runs ssh keeps all its options; the sharing options come after them.
 */
export function sharingCommand(choice: SshChoice, socketDir: string): string | undefined {
  if (choice.envCommand !== undefined) return undefined;
  const own = choice.configCommand?.trim();
  if (own !== undefined && (!/^(\S*\/)?ssh(\s|$)/.test(own) || /Control(Master|Path|Persist)/i.test(own))) return undefined;
  if (socketDir.length + '/'.length + 40 > SOCKET_PATH_MAX || /['\n]/.test(socketDir)) return undefined;
  // git runs the command through the shell: the directory is quoted, %C (a hash of host, port and user) is ssh's.
  return `${own || 'ssh'} -o ControlMaster=auto -o 'ControlPath=${socketDir}/%C' -o ControlPersist=${PERSIST_SECONDS}`;
}

/** Whether `ssh -G` (the user's ~/.ssh/config and /etc/ssh/ssh_config, resolved for this host) already shares connections. */
async function configuredSharing(env: GitEnv, target: NonNullable<ReturnType<typeof sshTarget>>): Promise<boolean> {
  const args = ['ssh', '-G', ...(target.port ? ['-p', target.port] : []), ...(target.user ? ['-l', target.user] : []), '--', target.host];
  const result = await env.runtime.run!(args, { timeoutMs: 10_000 }).catch(() => undefined);
  // An ssh that cannot say: leave it as it is.
  if (!result || result.code !== 0) return true;
  const value = (name: string): string | undefined => /^(\S+) (.*)$/m.exec(result.stdout.split('\n').find((line) => line.startsWith(`${name} `)) ?? '')?.[2];
  return (value('controlmaster') ?? 'false') !== 'false' || (value('controlpath') ?? 'none') !== 'none';
}

/**
 * This account's private directory for the sockets of one ssh command, or
 * undefined when the host has none. Per command: a master authenticated
 * with one key must never serve a clone configured with another for the
 * same host (two accounts on one forge), and ssh's `%C` names the host,
 * port and user only.
 */
async function socketDirectory(env: GitEnv, command: string): Promise<string | undefined> {
  const caches = await env.host.cacheDir?.();
  if (!caches) return undefined;
  // The caches' parent is acp's per-account state directory, made 0700 with the checkpoint key: a socket there is reachable by this account alone.
  return `${dirname(caches)}/ssh-${(await env.api.sha256Hex(new TextEncoder().encode(command))).slice(0, 8)}`;
}

/**
 * The git arguments (`-c core.sshCommand=…`) that make this repository's
 * fetches, ls-remotes and pushes over SSH share one connection, or `[]`
 * (another transport, or the user chose how ssh runs). `readConfig` runs
 * the repository's `git config --get-regexp` (the output; empty when
 * nothing matches).
 */
export async function sharedSshArgs(env: GitEnv, remote: string, readConfig: (pattern: string) => Promise<string>): Promise<string[]> {
  let envCommand: string | undefined = 'unknown';
  try {
    const read = env.runtime.env;
    if (read) envCommand = read('GIT_SSH_COMMAND') ?? read('GIT_SSH');
  } catch {
    // Not permitted (Deno without --allow-env): the user's choice cannot be told, so it is left alone.
  }
  if (envCommand !== undefined) return [];
  // git prints a key's section and name in lower case, its subsection (the remote's name) as written.
  const urlKey = `remote.${remote}.url`;
  const lines = (await readConfig(`^(core\\.sshcommand|${urlKey.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})$`)).split('\n');
  const valueOf = (key: string): string | undefined => lines.find((line) => line.toLowerCase().startsWith(`${key} `))?.slice(key.length + 1);
  const url = valueOf(urlKey);
  const target = url === undefined ? undefined : sshTarget(url);
  if (!target) return [];
  if (await configuredSharing(env, target)) return [];
  const configCommand = valueOf('core.sshcommand');
  const dir = await socketDirectory(env, configCommand?.trim() || 'ssh');
  const command = dir && sharingCommand({ envCommand, configCommand }, dir);
  if (!command) return [];
  try {
    if (!(await env.host.fs.stat(dir))) await env.host.fs.mkdir(dir);
  } catch {
    // No directory for the socket (a read-only home): git runs ssh as it would without acp.
    return [];
  }
  return ['-c', `core.sshCommand=${command}`];
}
