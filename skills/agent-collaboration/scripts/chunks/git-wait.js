globalThis[Symbol.for("acp.chunk:./chunks/git-wait.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
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

// plugins/git/wait.ts
function seconds(ctx, name) {
  const value = ctx.options[name];
  if (typeof value !== "string")
    return;
  const n = ctx.api.parsePyFloat(value, name);
  if (!(n >= 0))
    throw new ctx.api.UsageError(`argument --${name}: invalid non-negative number: '${value}'`);
  return n;
}
async function gitWait(ctx, settings) {
  const folder = ctx.folder();
  const participant = String(ctx.options.participant);
  const timeoutSeconds = seconds(ctx, "timeout") ?? ctx.api.DEFAULT_WAIT_TIMEOUT_SECONDS;
  const localInterval = seconds(ctx, "interval");
  const deadline = timeoutSeconds > 0 ? Date.now() + timeoutSeconds * 1000 : Infinity;
  const repo = await openRepo(ctx, settings, folder);
  let interval = settings.intervalSeconds;
  let lastReport = "";
  const onProgress = ctx.json ? undefined : (line) => {
    if (line !== lastReport)
      ctx.out(line);
    lastReport = line;
  };
  for (;; ) {
    const { moved } = await ctx.api.withFolderLock(ctx.host, repo.gitDir, () => syncToRemote(repo), { timeoutMs: 300000 });
    if (moved)
      interval = settings.intervalSeconds;
    const remaining = (deadline - Date.now()) / 1000;
    let result;
    try {
      const window = Math.max(0.01, Math.min(interval, remaining));
      result = await ctx.api.waitForTurn(ctx.host, folder, participant, { intervalSeconds: localInterval, timeoutSeconds: window, signal: ctx.signal, onProgress }, ctx.registry);
    } catch (error) {
      if (!(error instanceof ctx.api.AcpTimeoutError))
        throw error;
      if (Date.now() < deadline) {
        interval = Math.min(settings.maxIntervalSeconds, interval * 1.5);
        continue;
      }
      ctx.err(error.message);
      return { exitCode: 1, json: { ok: false, exitCode: 1, timeout: true, error: error.message } };
    }
    if (!ctx.json)
      ctx.out(`${result.reason}
${ctx.api.formatNext(result.next)}`);
    return { exitCode: result.next.exitCode, json: { ok: result.next.exitCode === 0, ready: result.reason.slice("ready: ".length), ...result.next } };
  }
}
return { gitWait };

};
