/**
 * `serve --git`: the server's subscribers hear about events pushed from
 * other clones. Every collaboration folder the server watches (one a client
 * subscribed to or asked the status of) gets a remote poll: its repository
 * is fetched and fast-forwarded periodically, under the clone's git lock,
 * and a fetch that moved the branch tells the server's watcher at once (the
 * file watcher would see it too; this does not depend on it). The interval
 * is `wait --git`'s: it grows while nothing arrives and falls back when a
 * fetch brings commits. One poll per repository, however many of its
 * folders are watched. A folder that is not in a usable repository is
 * served as before (local changes only), with one line on stderr saying why.
 * @module
 */
import type { CommandContext, CommandResult } from '../../acp.ts';
import type { FolderWatcher } from '../rpc/collab.ts';
import type { GitSettings } from './config.ts';
import { openRepo, type Repo, syncToRemote } from './repo.ts';

/** One repository polled for the folders the server watches in it. */
interface RepoPoll {
  repo: Repo;
  listeners: Set<() => void>;
  intervalSeconds: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The last failure reported (reported again only when it changes). */
  failure: string | undefined;
}

/** Run `acp serve` with a remote poll for every watched folder held in a git repository. */
export async function gitServe(ctx: CommandContext, settings: GitSettings): Promise<CommandResult> {
  const poller = new RemotePoller(ctx, settings);
  // The rpc plugin's serve, given the poll as an extra change source (ctx.next() cannot pass one).
  const { serveCommand, rpcContext } = await import('../rpc/cli.ts');
  try {
    return { exitCode: await serveCommand(ctx.options, { ...rpcContext(ctx), folderWatchers: [poller.watch] }) };
  } finally {
    poller.close();
  }
}

/** The remote polls of the folders a server watches, one per repository. */
export class RemotePoller {
  private readonly polls = new Map<string, RepoPoll>();
  private closed = false;
  private readonly ctx: CommandContext;
  private readonly settings: GitSettings;

  constructor(ctx: CommandContext, settings: GitSettings) {
    this.ctx = ctx;
    this.settings = settings;
  }

  /** The server's {@link FolderWatcher}: poll the folder's repository while the folder is watched. */
  readonly watch: FolderWatcher = (folder, changed) => {
    let stopped = false;
    let release = (): void => undefined;
    void this.attach(folder, changed).then((stop) => {
      if (stopped) stop();
      else release = stop;
    });
    return () => {
      stopped = true;
      release();
    };
  };

  /** Stop every poll (the server is shutting down). */
  close(): void {
    this.closed = true;
    for (const poll of this.polls.values()) clearTimeout(poll.timer);
    this.polls.clear();
  }

  private log(line: string): void {
    this.ctx.err(`acp serve: ${line}`);
  }

  private async attach(folder: string, changed: () => void): Promise<() => void> {
    let repo: Repo;
    try {
      repo = await openRepo(this.ctx, this.settings, folder);
    } catch (error) {
      this.log(`${describe(error)}; ${folder} is served without git (local changes only)`);
      return () => undefined;
    }
    if (this.closed) return () => undefined;
    let poll = this.polls.get(repo.gitDir);
    if (!poll) {
      poll = { repo, listeners: new Set(), intervalSeconds: this.settings.intervalSeconds, timer: undefined, failure: undefined };
      this.polls.set(repo.gitDir, poll);
      this.schedule(poll);
    }
    const listener = (): void => changed();
    poll.listeners.add(listener);
    const owner = poll;
    return () => {
      owner.listeners.delete(listener);
      if (owner.listeners.size) return;
      clearTimeout(owner.timer);
      if (this.polls.get(owner.repo.gitDir) === owner) this.polls.delete(owner.repo.gitDir);
    };
  }

  private schedule(poll: RepoPoll): void {
    if (this.closed || this.polls.get(poll.repo.gitDir) !== poll) return;
    poll.timer = setTimeout(() => void this.round(poll), poll.intervalSeconds * 1000);
  }

  /** One fetch and fast-forward; a failure (network, a dirty or diverged clone) is reported once and polled again later. */
  private async round(poll: RepoPoll): Promise<void> {
    const { ctx, settings } = this;
    try {
      // Under the clone's git lock: an append --git in this clone may be mid-transaction.
      const { moved } = await ctx.api.withFolderLock(ctx.host, poll.repo.gitDir, () => syncToRemote(poll.repo), { timeoutMs: 300_000 });
      if (poll.failure !== undefined) this.log(`git: ${poll.repo.top}: following ${settings.remote}/${poll.repo.branch} again`);
      poll.failure = undefined;
      if (moved) {
        poll.intervalSeconds = settings.intervalSeconds;
        for (const listener of poll.listeners) listener();
      } else poll.intervalSeconds = Math.min(settings.maxIntervalSeconds, poll.intervalSeconds * 1.5);
    } catch (error) {
      const message = describe(error);
      if (message !== poll.failure) this.log(`${message} (${poll.repo.top}; polling again, subscribers see local changes meanwhile)`);
      poll.failure = message;
      poll.intervalSeconds = Math.min(settings.maxIntervalSeconds, poll.intervalSeconds * 1.5);
    }
    this.schedule(poll);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
