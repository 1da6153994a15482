globalThis[Symbol.for("acp.chunk:./chunks/git-init.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// runtime/util.ts
;
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

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
function backOff(attempt) {
  return sleep(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
}
var RETRY_BUDGET_MS = 120000;

// plugins/git/init.ts
async function gitInit(ctx, settings) {
  const folder = ctx.folder();
  const before = await openRepo(ctx, settings, await existingAncestor(ctx, folder));
  await ctx.api.withFolderLock(ctx.host, before.gitDir, () => precheck(before, folder), { timeoutMs: 300000 });
  const result = await ctx.next();
  if (result.exitCode !== 0)
    return result;
  const repo = await openRepo(ctx, settings, folder);
  await ignoreLocalFiles(repo);
  const attempts = await ctx.api.withFolderLock(ctx.host, repo.gitDir, () => commitAndPush(repo), { timeoutMs: 300000 });
  if (!ctx.json)
    ctx.out(`committed and pushed to ${settings.remote}/${repo.branch}`);
  const json = result.json ?? {};
  return { exitCode: 0, json: { ...json, git: { attempts, remote: settings.remote, branch: repo.branch } } };
}
async function existingAncestor(ctx, folder) {
  const { dirname } = await __acpLoad("node:path");
  let dir = folder;
  while (!(await ctx.host.fs.stat(dir).catch(() => {
    return;
  }))?.isDirectory && dirname(dir) !== dir)
    dir = dirname(dir);
  return dir;
}
async function precheck(repo, folder) {
  await syncToRemote(repo);
  if (repo.folder !== folder)
    return;
  const changes = await folderChanges(repo);
  if (changes.length)
    throw new repo.ctx.api.AcpError(`git: the folder already has uncommitted changes: ${changes.join(", ")} (commit, stash or discard them first)`);
}
async function ignoreLocalFiles(repo) {
  const names = [...LOCAL_FILES];
  const check = await repo.git(["check-ignore", "--quiet", "--no-index", "--", ...names], true);
  const ignored = check.code === 0 ? (await repo.git(["check-ignore", "--no-index", "--", ...names], true)).stdout.split(`
`).filter(Boolean) : [];
  const missing = names.filter((n) => !ignored.includes(n));
  if (!missing.length)
    return;
  const path = `${repo.folder}/.gitignore`;
  const old = await repo.ctx.host.fs.readFile(path).then((b) => new TextDecoder().decode(b), () => "");
  const text = `${old}${old && !old.endsWith(`
`) ? `
` : ""}# clone-local files of acp (the git plugin never commits them)
${missing.join(`
`)}
`;
  await repo.ctx.host.fs.writeFile(path, text);
}
async function commitAndPush(repo) {
  const { ctx, settings } = repo;
  const first = (await ctx.api.readEventLog(ctx.host, repo.folder)).events[0];
  const subject = `acp: seq 1 ${first?.event ?? "initialized"} by ${first?.from ?? "acp"}`;
  const begun = Date.now();
  for (let attempt = 1;; attempt++) {
    const head = await repo.git(["rev-parse", "--verify", "--quiet", "HEAD"], true);
    const base = head.code === 0 ? head.stdout.trim() : undefined;
    await repo.git(["add", "-A", "--", "."]);
    await repo.git(["commit", "--quiet", "--no-verify", "-m", subject, "--", "."]);
    let pushed;
    try {
      pushed = await push(repo);
    } catch (error) {
      if (!(error instanceof ctx.api.AcpError))
        throw error;
      throw new ctx.api.AcpError(`${error.message.replace(" (nothing was appended)", "")}; the folder is initialized and committed here, not pushed (the next append --git or git push sends it)`);
    }
    if (pushed === "ok")
      return attempt;
    if (base === undefined)
      await repo.git(["update-ref", "-d", "HEAD"]);
    else
      await repo.git(["reset", "--soft", "--quiet", base]);
    await repo.git(["reset", "--quiet", "--", "."], true);
    if (attempt >= settings.attempts || Date.now() - begun > RETRY_BUDGET_MS) {
      throw new ctx.api.AcpError(`git: the push was rejected ${attempt} times (other clones kept pushing first); the folder is initialized here but not committed; commit and push it by hand`);
    }
    await backOff(attempt);
    await syncToRemote(repo);
  }
}
return { gitInit };

};
