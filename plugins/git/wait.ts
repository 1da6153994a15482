/**
 * `wait --git`: wait across clones. Each round fetches and fast-forwards
 * the branch, then runs the library's wait for one poll interval (so a local
 * change wakes it at once too). The interval grows while nothing new arrives
 * and falls back to the configured one when a fetch brings commits.
 * @module
 */
import type { CommandContext, CommandResult, WaitResult } from '../../acp.ts';
import type { GitSettings } from './config.ts';
import { openRepo, syncToRemote } from './repo.ts';

/** `--interval` / `--timeout` as the core `wait` reads them (seconds, non-negative). */
function seconds(ctx: CommandContext, name: 'interval' | 'timeout'): number | undefined {
  const value = ctx.options[name];
  if (typeof value !== 'string') return undefined;
  const n = ctx.api.parsePyFloat(value, name);
  if (!(n >= 0)) throw new ctx.api.UsageError(`argument --${name}: invalid non-negative number: '${value}'`);
  return n;
}

/** Run `wait` against the remote (see the module comment and docs/git.md). */
export async function gitWait(ctx: CommandContext, settings: GitSettings): Promise<CommandResult> {
  const folder = ctx.folder();
  const participant = String(ctx.options.participant);
  const timeoutSeconds = seconds(ctx, 'timeout') ?? ctx.api.DEFAULT_WAIT_TIMEOUT_SECONDS;
  const localInterval = seconds(ctx, 'interval');
  const deadline = timeoutSeconds > 0 ? Date.now() + timeoutSeconds * 1000 : Infinity;
  const repo = await openRepo(ctx, settings, folder);
  let interval = settings.intervalSeconds;
  let lastReport = '';
  const onProgress = ctx.json ? undefined : (line: string): void => {
    if (line !== lastReport) ctx.out(line);
    lastReport = line;
  };
  for (;;) {
    // Under the clone's git lock: an append --git in this clone may be mid-transaction.
    const { moved } = await ctx.api.withFolderLock(ctx.host, repo.gitDir, () => syncToRemote(repo), { timeoutMs: 300_000 });
    if (moved) interval = settings.intervalSeconds;
    const remaining = (deadline - Date.now()) / 1000;
    let result: WaitResult;
    try {
      const window = Math.max(0.01, Math.min(interval, remaining));
      result = await ctx.api.waitForTurn(ctx.host, folder, participant, { intervalSeconds: localInterval, timeoutSeconds: window, signal: ctx.signal, onProgress }, ctx.registry);
    } catch (error) {
      if (!(error instanceof ctx.api.AcpTimeoutError)) throw error;
      if (Date.now() < deadline) {
        // Idle: poll the remote less often, up to the configured ceiling.
        interval = Math.min(settings.maxIntervalSeconds, interval * 1.5);
        continue;
      }
      ctx.err(error.message);
      return { exitCode: 1, json: { ok: false, exitCode: 1, timeout: true, error: error.message } };
    }
    if (!ctx.json) ctx.out(`${result.reason}\n${ctx.api.formatNext(result.next)}`);
    return { exitCode: result.next.exitCode, json: { ok: result.next.exitCode === 0, ready: result.reason.slice('ready: '.length), ...result.next } };
  }
}
