globalThis[Symbol.for("acp.chunk:./chunks/git-doctor.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
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

// plugins/git/doctor.ts
async function gitDoctor(ctx, settings, result) {
  const findings = [];
  const add = (status, message) => void findings.push({ check: "git", status, message, fixable: false });
  try {
    const repo = await openRepo(ctx, settings, ctx.folder());
    await gitFindings(repo, add);
  } catch (error) {
    if (!(error instanceof ctx.api.AcpError))
      throw error;
    add("problem", error.message.replace(/^git: /, ""));
  }
  if (!ctx.json) {
    for (const f of findings)
      ctx.out(`${f.status === "ok" ? "ok" : f.status === "note" ? "note" : "PROBLEM"}: git: ${f.message}`);
  }
  const problems = findings.filter((f) => f.status === "problem").length;
  if (!problems)
    return result;
  if (!ctx.json)
    ctx.out(`doctor: git: ${problems} problem${problems > 1 ? "s" : ""} need${problems > 1 ? "" : "s"} a person (doctor never rewrites git history)`);
  const json = result.json ?? {};
  const previous = Array.isArray(json.findings) ? json.findings : [];
  const exitCode = Math.max(result.exitCode, 1);
  return { exitCode, json: { ...json, ok: false, healthy: false, exitCode, findings: [...previous, ...findings] } };
}
async function gitFindings(repo, add) {
  await fetch(repo);
  const { ahead, behind, remoteExists } = await divergence(repo);
  const where = `${repo.settings.remote}/${repo.branch}`;
  if (!remoteExists)
    add("problem", `the remote has no branch '${repo.branch}' yet (push the folder first)`);
  const events = ahead.filter((c) => ACP_SUBJECT_RE.test(c.subject));
  const foreign = ahead.length - events.length;
  if (ahead.length && behind)
    add("problem", `diverged from ${where}: ${ahead.length} local commit(s) (${events.length} acp event(s)) and ${behind} remote commit(s)`);
  else if (events.length)
    add("problem", `${events.length} event commit(s) not pushed to ${where} (${events.map((c) => c.subject.slice(5)).join(", ")}); the next append --git pushes them`);
  if (foreign && !behind)
    add("note", `${foreign} unpushed commit(s) that are not acp events; append --git refuses until they are pushed or removed`);
  if (remoteExists && !ahead.length && behind)
    add("note", `${behind} remote commit(s) not merged yet (the next append or wait --git fast-forwards)`);
  if (remoteExists && !ahead.length && !behind)
    add("ok", `in step with ${where}`);
  const rewrites = await logRewrites(repo, remoteExists);
  const dropped = await droppedFromRemote(repo);
  if (rewrites.length)
    add("problem", `events.jsonl history is not append-only: ${rewrites.join(", ")} changed or removed lines`);
  if (dropped.length) {
    const events = dropped.filter((c) => ACP_SUBJECT_RE.test(c.subject)).map((c) => c.subject.slice(5));
    add("problem", `${where} was rewritten (force-pushed): ${dropped.length} commit(s) it had are gone from it${events.length ? `, with the events ${events.join(", ")}` : ""}; events.jsonl history is not append-only`);
  }
  if (!rewrites.length && !dropped.length)
    add("ok", "events.jsonl history is append-only");
}
async function droppedFromRemote(repo) {
  const reflog = await repo.git(["reflog", "show", "--format=%H", "-n", "100", repo.remoteRef, "--"], true);
  const previous = [...new Set(reflog.stdout.split(`
`).filter(Boolean))];
  if (reflog.code !== 0 || previous.length < 2)
    return [];
  const gone = await repo.git(["log", "--format=%H %s", ...previous, "--not", repo.remoteRef, "--"]);
  return gone.stdout.split(`
`).filter(Boolean).map((line) => ({ hash: line.slice(0, 40), subject: line.slice(41) }));
}
async function logRewrites(repo, remoteExists) {
  const heads = ["HEAD", ...remoteExists ? [repo.remoteRef] : []];
  const log = await repo.git(["log", "--format=@%h", "--numstat", "--no-renames", ...heads, "--", `:(top,literal)${repo.prefix}events.jsonl`]);
  const bad = [];
  let commit = "";
  for (const line of log.stdout.split(`
`)) {
    if (line.startsWith("@"))
      commit = line.slice(1);
    else {
      const [, deleted] = line.split("\t");
      if (deleted !== undefined && deleted !== "0")
        bad.push(commit);
    }
  }
  return bad;
}
return { gitDoctor };

};
