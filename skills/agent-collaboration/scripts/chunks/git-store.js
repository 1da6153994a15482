globalThis[Symbol.for("acp.chunk:./chunks/git-store.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// plugins/git/store.ts
const { relative: relativePath } = __acpRequire("node:path");

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
  throw new repo.ctx.api.AcpError(`git fetch from '${remote}' failed: ${message}`, 2, "git_unreachable");
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
    throw new repo.ctx.api.AcpError(message, 2, "git_diverged");
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
async function folderChanges(repo) {
  const status = await repo.git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", "."]);
  const paths = [];
  const fields = status.stdout.split("\x00");
  for (let i = 0;i < fields.length; i++) {
    const field = fields[i];
    if (field.length < 4)
      continue;
    paths.push(field.slice(3));
    if (field[0] === "R" || field[0] === "C")
      paths.push(fields[++i]);
  }
  return paths.filter((p) => !LOCAL_FILES.has(p.slice(p.lastIndexOf("/") + 1)));
}
async function push(repo) {
  const result = await repo.git(["push", "--quiet", "--porcelain", repo.settings.remote, `HEAD:refs/heads/${repo.branch}`], true);
  if (result.code === 0)
    return "ok";
  const text = `${result.stdout}
${result.stderr}`;
  if (/\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(cannot lock ref|failed to update ref)|incorrect old value/i.test(text))
    return "rejected";
  throw new repo.ctx.api.AcpError(`git push to '${repo.settings.remote}' failed (nothing was appended): ${gitMessage(result.stderr || result.stdout)}`);
}
var BACKOFF_CAP_MS = 1000;
var BACKOFF_BASE_MS = 50;
function backOff(api, attempt) {
  return api.sleep(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
}
var RETRY_BUDGET_MS = 120000;

// plugins/git/order.ts
var ACTIVE_MS = 15000;
var DEFAULT_SLOT_MS = 300;
var MIN_SLOT_MS = 20;
var MAX_SLOT_MS = 3000;
var SLOT_FILE = "acp-slot";
function rankOf(events, me, now) {
  const last = new Map;
  for (const e of events) {
    if (typeof e.from === "string" && typeof e.seq === "number")
      last.set(e.from, { seq: e.seq, at: typeof e.at === "string" ? Date.parse(e.at) : NaN });
  }
  const mine = last.get(me);
  if (!mine || !(now - mine.at < ACTIVE_MS))
    return 0;
  let rank = 0;
  for (const [who, e] of last)
    if (who !== me && e.seq < mine.seq && now - e.at < ACTIVE_MS)
      rank++;
  return rank;
}
async function waitForTurnInLine(repo, participant) {
  const { ctx } = repo;
  const events = await ctx.api.readEventLog(ctx.host, repo.folder).then((log) => log.events, () => []);
  const rank = rankOf(events, participant, Date.now());
  if (rank === 0)
    return false;
  const slot = await ctx.host.fs.readFile(`${repo.gitDir}/${SLOT_FILE}`).then((b) => Number(new TextDecoder().decode(b)), () => DEFAULT_SLOT_MS);
  const ms = Number.isFinite(slot) ? Math.min(MAX_SLOT_MS, Math.max(MIN_SLOT_MS, slot)) : DEFAULT_SLOT_MS;
  await ctx.api.sleep(rank * ms + Math.random() * ms / 4);
  return true;
}
async function recordSlot(repo, ms) {
  await repo.ctx.host.fs.writeFile(`${repo.gitDir}/${SLOT_FILE}`, String(Math.round(ms))).catch(() => {
    return;
  });
}

// plugins/git/store.ts
function gitStore(env, settings, polls) {
  return {
    name: "git",
    async transact(folder, intent, body, options = {}) {
      const repo = await openRepo(env, settings, folder);
      const named = new Set(intent.documents.map((path) => topRelative(repo, path)));
      return env.api.withFolderLock(env.host, repo.gitDir, () => transaction(repo, intent, named, (session) => env.api.withFolderLock(env.host, folder, (lock) => body({ ...session, lock }), { onWait: options.onLockWait, timeoutMs: options.lockTimeoutMs })), {
        timeoutMs: 300000
      });
    },
    async follow(folder, options) {
      const repo = await openRepo(env, settings, folder);
      return polls.follow(repo, options);
    }
  };
}
function topRelative(repo, absolute) {
  if (absolute.startsWith(`${repo.folder}/`))
    return repo.prefix + absolute.slice(repo.folder.length + 1);
  return relativePath(repo.top, absolute);
}
var top = (path) => `:(top,literal)${path}`;
async function transaction(repo, intent, named, body) {
  const { ctx, settings } = repo;
  const begun = Date.now();
  let waitedAt;
  for (let attempt = 1;; ) {
    const started = Date.now();
    const { unpushed } = await syncToRemote(repo);
    if (unpushed && await push(repo) === "rejected")
      continue;
    const base = (await repo.git(["rev-parse", "HEAD"])).stdout.trim();
    if (base !== waitedAt && Date.now() - begun < RETRY_BUDGET_MS) {
      waitedAt = base;
      if (await waitForTurnInLine(repo, intent.participant))
        continue;
    }
    const changes = await folderChanges(repo);
    const stray = changes.filter((p) => !named.has(p));
    if (stray.length)
      throw new ctx.api.AcpError(`git: the folder has changes this event does not name: ${stray.join(", ")} (commit, stash or discard them first)`);
    const edits = await saveEdits(repo, changes);
    const session = { synced: true, written: new Set, done: [], attempt };
    const value = await body(session).catch(async (error) => {
      await undo(repo, base, edits);
      throw error;
    });
    await commit(repo, session, changes, intent);
    const pushed = await push(repo).catch(async (error) => {
      await undo(repo, base, edits);
      throw error;
    });
    await recordSlot(repo, Date.now() - started);
    if (pushed === "ok")
      return value;
    await undo(repo, base, edits);
    if (attempt >= settings.attempts || Date.now() - begun > RETRY_BUDGET_MS) {
      const seconds = Math.round((Date.now() - begun) / 1000);
      throw new ctx.api.AcpError(`git: the push was rejected ${attempt} times in ${seconds} s (other clones kept pushing first); nothing was appended, your document edits are kept; try again`);
    }
    attempt++;
    await backOff(ctx.api, attempt);
  }
}
async function commit(repo, session, changes, intent) {
  const paths = [...new Set([...[...session.written].map((p) => topRelative(repo, p)), ...changes])];
  if (!paths.length)
    return;
  const what = session.done.length ? session.done.join(", ") : `${intent.kind} by ${intent.participant}`;
  await repo.git(["add", "-A", "--", ...paths.map(top)]);
  await repo.git(["commit", "--quiet", "--no-verify", "--allow-empty", "-m", `acp: ${what}`, "--", ...paths.map(top)]);
}
async function saveEdits(repo, changes) {
  const { host } = repo.ctx;
  const edits = new Map;
  for (const path of changes)
    edits.set(`${repo.top}/${path}`, await host.fs.readFile(`${repo.top}/${path}`).catch(() => null));
  return edits;
}
async function undo(repo, base, edits) {
  await repo.git(["reset", "--hard", "--quiet", base]);
  for (const [path, bytes] of edits) {
    if (bytes === null)
      await repo.ctx.host.fs.remove(path).catch(() => {
        return;
      });
    else
      await repo.ctx.host.fs.writeFile(path, bytes);
  }
}

class RemotePolls {
  #polls = new Map;
  async follow(repo, options) {
    const { ctx } = repo;
    await ctx.api.withFolderLock(ctx.host, repo.gitDir, () => syncToRemote(repo), { timeoutMs: 300000 });
    let poll = this.#polls.get(repo.gitDir);
    if (!poll) {
      poll = { repo, followers: new Set, intervalSeconds: repo.settings.intervalSeconds, timer: undefined, failure: undefined };
      this.#polls.set(repo.gitDir, poll);
      this.#schedule(poll);
    }
    poll.followers.add(options);
    const owner = poll;
    return () => {
      owner.followers.delete(options);
      if (owner.followers.size)
        return;
      clearTimeout(owner.timer);
      if (this.#polls.get(owner.repo.gitDir) === owner)
        this.#polls.delete(owner.repo.gitDir);
    };
  }
  #schedule(poll) {
    if (this.#polls.get(poll.repo.gitDir) !== poll)
      return;
    poll.timer = setTimeout(() => void this.#round(poll), poll.intervalSeconds * 1000);
    poll.timer.unref?.();
  }
  async#round(poll) {
    const { repo } = poll;
    const { settings } = repo;
    try {
      const { moved } = await repo.ctx.api.withFolderLock(repo.ctx.host, repo.gitDir, () => syncToRemote(repo), { timeoutMs: 300000 });
      if (poll.failure !== undefined)
        for (const f of poll.followers)
          f.note?.(`git: following ${settings.remote}/${repo.branch} again`);
      poll.failure = undefined;
      if (moved) {
        poll.intervalSeconds = settings.intervalSeconds;
        for (const f of poll.followers)
          f.changed();
      } else
        poll.intervalSeconds = Math.min(settings.maxIntervalSeconds, poll.intervalSeconds * 1.5);
    } catch (error) {
      const failure = error;
      if (isPermanent(failure)) {
        for (const f of poll.followers)
          f.failed(failure);
        return;
      }
      if (failure.message !== poll.failure)
        for (const f of poll.followers)
          f.note?.(`${failure.message} (retrying; local changes are seen meanwhile)`);
      poll.failure = failure.message;
      poll.intervalSeconds = Math.min(settings.maxIntervalSeconds, poll.intervalSeconds * 1.5);
    }
    this.#schedule(poll);
  }
}
function isPermanent(error) {
  return error.code === "git_diverged";
}
return { RemotePolls, gitStore };

};
