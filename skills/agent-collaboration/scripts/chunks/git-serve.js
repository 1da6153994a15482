globalThis[Symbol.for("acp.chunk:./chunks/git-serve.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// runtime/util.ts
;

// plugins/git/repo.ts
var ACP_SUBJECT_RE = /^acp: seq \d+ \S+ by .+$/;
var LOCAL_FILES = new Set([".acp.lock", ".acp.lock.break", ".acp.checkpoint.json"]);
var GIT_ENV = { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", GIT_ASKPASS: "", SSH_ASKPASS: "" };
async function openRepo(ctx, settings, folder) {
  const run = ctx.runtime.run;
  const fail = (message) => {
    throw new ctx.api.AcpError(message);
  };
  if (!run)
    return fail("git: this runtime cannot run commands (Deno needs --allow-run=git)");
  const git = async (args, allowFail = false) => {
    let result;
    try {
      result = await run(["git", ...args], { cwd: folder, env: GIT_ENV, timeoutMs: 120000 });
    } catch (error) {
      return fail(`git: ${error.message}`);
    }
    if (result.code !== 0 && !allowFail)
      fail(`git ${args[0]} failed: ${gitMessage(result.stderr || result.stdout)}`);
    return result;
  };
  const where = await git(["rev-parse", "--show-toplevel", "--show-prefix", "--absolute-git-dir"], true);
  if (where.code !== 0)
    fail(`git: ${folder} is not inside a git work tree (${gitMessage(where.stderr)})`);
  const [top = "", prefix = "", gitDir = ""] = where.stdout.split(`
`);
  const head = await git(["symbolic-ref", "--quiet", "--short", "HEAD"], true);
  if (head.code !== 0)
    fail("git: HEAD is detached; check out the collaboration branch first");
  const branch = head.stdout.trim();
  if (settings.branch !== undefined && settings.branch !== branch)
    fail(`git: the folder is on branch '${branch}', but the config says '${settings.branch}'`);
  const remotes = (await git(["remote"])).stdout.split(`
`).filter(Boolean);
  if (!remotes.includes(settings.remote))
    fail(`git: no remote '${settings.remote}' in this repository (remotes: ${remotes.join(", ") || "none"})`);
  return { ctx, settings, folder, top, prefix, gitDir, branch, remoteRef: `refs/remotes/${settings.remote}/${branch}`, git };
}
function gitMessage(text) {
  const lines = text.split(`
`).map((l) => l.trim()).filter((l) => l && !l.startsWith("hint:"));
  return lines.join("; ") || "no message";
}
async function fetch(repo) {
  const { remote } = repo.settings;
  const result = await repo.git(["fetch", "--quiet", "--no-tags", remote, `+refs/heads/${repo.branch}:${repo.remoteRef}`], true);
  if (result.code === 0)
    return;
  const message = gitMessage(result.stderr);
  if (/couldn't find remote ref/i.test(message))
    return;
  throw new repo.ctx.api.AcpError(`git fetch from '${remote}' failed: ${message}`);
}
async function divergence(repo) {
  const exists = (await repo.git(["rev-parse", "--verify", "--quiet", repo.remoteRef], true)).code === 0;
  if (!exists)
    return { ahead: [], behind: 0, remoteExists: false };
  const log = await repo.git(["log", "--format=%H %s", `${repo.remoteRef}..HEAD`]);
  const ahead = log.stdout.split(`
`).filter(Boolean).map((line) => ({ hash: line.slice(0, 40), subject: line.slice(41) }));
  const behind = Number((await repo.git(["rev-list", "--count", `HEAD..${repo.remoteRef}`])).stdout.trim());
  return { ahead, behind, remoteExists: true };
}
async function syncToRemote(repo) {
  await fetch(repo);
  const { ahead, behind, remoteExists } = await divergence(repo);
  const foreign = ahead.filter((c) => !ACP_SUBJECT_RE.test(c.subject));
  const fail = (message) => {
    throw new repo.ctx.api.AcpError(message);
  };
  if (foreign.length) {
    const list = foreign.map((c) => `${c.hash.slice(0, 8)} ${c.subject}`).join(", ");
    if (behind)
      fail(`git: the local branch '${repo.branch}' has diverged from ${repo.settings.remote}/${repo.branch}: ${foreign.length} unpushed commit(s) that are not acp events (${list}) and ${behind} remote commit(s); merge or rebase them yourself, then run the command again`);
    fail(`git: the local branch '${repo.branch}' has ${foreign.length} unpushed commit(s) that are not acp events (${list}); push or remove them first`);
  }
  if (ahead.length && behind) {
    fail(`git: the local branch '${repo.branch}' has diverged from ${repo.settings.remote}: ${ahead.length} unpushed acp event commit(s) and ${behind} remote commit(s); run acp doctor --git`);
  }
  if (!remoteExists || !behind)
    return { moved: false, unpushed: ahead.length };
  const merge = await repo.git(["merge", "--ff-only", "--quiet", repo.remoteRef], true);
  if (merge.code !== 0)
    fail(`git: cannot fast-forward to ${repo.settings.remote}/${repo.branch}: ${gitMessage(merge.stderr || merge.stdout)}`);
  return { moved: true, unpushed: 0 };
}

// plugins/git/serve.ts
async function gitServe(ctx, settings) {
  const poller = new RemotePoller(ctx, settings);
  const { serveCommand, rpcContext } = await __acpLoad("./rpc-cli.mjs");
  try {
    return { exitCode: await serveCommand(ctx.options, { ...rpcContext(ctx), folderWatchers: [poller.watch] }) };
  } finally {
    poller.close();
  }
}

class RemotePoller {
  polls = new Map;
  closed = false;
  ctx;
  settings;
  constructor(ctx, settings) {
    this.ctx = ctx;
    this.settings = settings;
  }
  watch = (folder, changed) => {
    let stopped = false;
    let release = () => {
      return;
    };
    this.attach(folder, changed).then((stop) => {
      if (stopped)
        stop();
      else
        release = stop;
    });
    return () => {
      stopped = true;
      release();
    };
  };
  close() {
    this.closed = true;
    for (const poll of this.polls.values())
      clearTimeout(poll.timer);
    this.polls.clear();
  }
  log(line) {
    this.ctx.err(`acp serve: ${line}`);
  }
  async attach(folder, changed) {
    let repo;
    try {
      repo = await openRepo(this.ctx, this.settings, folder);
    } catch (error) {
      this.log(`${describe(error)}; ${folder} is served without git (local changes only)`);
      return () => {
        return;
      };
    }
    if (this.closed)
      return () => {
        return;
      };
    let poll = this.polls.get(repo.gitDir);
    if (!poll) {
      poll = { repo, listeners: new Set, intervalSeconds: this.settings.intervalSeconds, timer: undefined, failure: undefined };
      this.polls.set(repo.gitDir, poll);
      this.schedule(poll);
    }
    const listener = () => changed();
    poll.listeners.add(listener);
    const owner = poll;
    return () => {
      owner.listeners.delete(listener);
      if (owner.listeners.size)
        return;
      clearTimeout(owner.timer);
      if (this.polls.get(owner.repo.gitDir) === owner)
        this.polls.delete(owner.repo.gitDir);
    };
  }
  schedule(poll) {
    if (this.closed || this.polls.get(poll.repo.gitDir) !== poll)
      return;
    poll.timer = setTimeout(() => void this.round(poll), poll.intervalSeconds * 1000);
  }
  async round(poll) {
    const { ctx, settings } = this;
    try {
      const { moved } = await ctx.api.withFolderLock(ctx.host, poll.repo.gitDir, () => syncToRemote(poll.repo), { timeoutMs: 300000 });
      if (poll.failure !== undefined)
        this.log(`git: ${poll.repo.top}: following ${settings.remote}/${poll.repo.branch} again`);
      poll.failure = undefined;
      if (moved) {
        poll.intervalSeconds = settings.intervalSeconds;
        for (const listener of poll.listeners)
          listener();
      } else
        poll.intervalSeconds = Math.min(settings.maxIntervalSeconds, poll.intervalSeconds * 1.5);
    } catch (error) {
      const message = describe(error);
      if (message !== poll.failure)
        this.log(`${message} (${poll.repo.top}; polling again, subscribers see local changes meanwhile)`);
      poll.failure = message;
      poll.intervalSeconds = Math.min(settings.maxIntervalSeconds, poll.intervalSeconds * 1.5);
    }
    this.schedule(poll);
  }
}
function describe(error) {
  return error instanceof Error ? error.message : String(error);
}
return { RemotePoller, gitServe };

};
