globalThis[Symbol.for("acp.chunk:./chunks/git-append.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// plugins/git/append.ts
const { relative: relativePath } = __acpRequire("node:path");

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
  await sleep(rank * ms + Math.random() * ms / 4);
  return true;
}
async function recordSlot(repo, ms) {
  await repo.ctx.host.fs.writeFile(`${repo.gitDir}/${SLOT_FILE}`, String(Math.round(ms))).catch(() => {
    return;
  });
}

// plugins/protocol.ts
var FOLDER = { type: "string", required: true, description: "Collaboration folder" };
var JSON_FLAG = { type: "boolean", description: "Print one JSON object" };
var text = (description, extra = {}) => ({ type: "string", description, ...extra });
var str = (value) => typeof value === "string" ? value : undefined;
var strs = (value) => Array.isArray(value) ? value : [];
var initCommand = {
  name: "init",
  description: "Create a collaboration folder (spec \u00a79)",
  options: {
    folder: FOLDER,
    participant: text("Participant id (repeatable; the first owns the proposal)", { multiple: true, valueName: "id" }),
    objective: text("What the collaboration must achieve"),
    completion: text("Objective completion gate (repeatable)", { multiple: true, valueName: "gate" }),
    "primary-deliverable-type": text("Primary deliverable type", { required: true, valueName: "type" }),
    "primary-deliverable-file": text("Primary deliverable file name (.md)", { valueName: "file" }),
    "primary-deliverable-check": text("Checklist section for custom types (repeatable)", { multiple: true, valueName: "section" }),
    "deliverables-mode": text("internal (default) or external", { valueName: "mode" }),
    "deliverables-dir": text("Deliverables directory (default deliverables)", { valueName: "dir" }),
    "repo-root": text("Repository root, relative to the folder (external mode)", { valueName: "path" }),
    resume: { type: "boolean", description: "Succeed if the folder already exists" },
    json: JSON_FLAG
  },
  async run(ctx) {
    const o = ctx.options;
    const folder = ctx.folder();
    const result = await ctx.api.init(ctx.host, folder, {
      participants: strs(o.participant),
      objective: str(o.objective) ?? "",
      completion: strs(o.completion),
      primaryType: str(o["primary-deliverable-type"]),
      primaryFile: str(o["primary-deliverable-file"]),
      primaryChecks: strs(o["primary-deliverable-check"]),
      mode: str(o["deliverables-mode"]),
      dir: str(o["deliverables-dir"]),
      repoRoot: o["repo-root"] === undefined ? undefined : ctx.api.expandUser(str(o["repo-root"]), ctx.env),
      resume: o.resume === true
    }, ctx.registry);
    if (!ctx.json)
      ctx.out(result.created ? `Initialized ACP schema v2 collaboration folder: ${folder}` : `Collaboration folder already exists: ${folder}`);
    return { exitCode: 0, json: { ok: true, exitCode: 0, created: result.created, folder, files: result.files } };
  }
};
function appendRequest(ctx) {
  const o = ctx.options;
  const replyTo = str(o["reply-to"]);
  return {
    participant: str(o.participant),
    event: str(o.event),
    summary: str(o.summary),
    doc: str(o.doc),
    replyTo: replyTo === undefined ? undefined : ctx.api.parsePyInt(replyTo, "reply-to"),
    role: str(o.role),
    sha256: str(o.sha256)
  };
}
var nextCommand = {
  name: "next",
  description: "Print the next action for a participant (spec \u00a710)",
  options: { folder: FOLDER, participant: text("Participant id", { required: true, valueName: "id" }), json: JSON_FLAG },
  async run(ctx) {
    const result = await ctx.api.nextAction(ctx.host, ctx.folder(), str(ctx.options.participant), ctx.registry);
    if (!ctx.json)
      ctx.out(ctx.api.formatNext(result));
    return { exitCode: result.exitCode, json: { ok: result.exitCode === 0, ...result } };
  }
};

// plugins/git/append.ts
var EVENT_DOCUMENTS = {
  proposal_submitted: ["proposal.md"],
  proposal_revised: ["proposal.md", "decisions.md"],
  review_submitted: ["review.md"],
  decision_proposed: ["decisions.md"],
  question_classified: ["decisions.md", "readiness.md"],
  decision_accepted: ["decisions.md", "readiness.md"],
  readiness_passed: ["readiness.md"],
  completed: ["conclusion.md", "readiness.md"],
  blocked: ["conclusion.md"]
};
async function gitAppend(ctx, settings) {
  const folder = ctx.folder();
  const request = appendRequest(ctx);
  const repo = await openRepo(ctx, settings, folder);
  const protocol = await ctx.api.readProtocol(ctx.host, folder);
  const named = namedDocuments(ctx, repo, protocol, request);
  const { result, attempts } = await ctx.api.withFolderLock(ctx.host, repo.gitDir, () => transaction(repo, request, named), { timeoutMs: 300000 });
  const { event, state } = result;
  if (!ctx.json)
    ctx.out(`appended seq ${event.seq}: ${event.event}`);
  return { exitCode: 0, json: { ok: true, exitCode: 0, event, phase: state.phase, waitingFor: state.waitingFor, git: { attempts } } };
}
function namedDocuments(ctx, repo, protocol, request) {
  const refs = [...EVENT_DOCUMENTS[request.event] ?? []];
  const named = new Set(refs.map((ref) => repo.prefix + ref));
  if (request.doc !== undefined && !ctx.api.isUnsafePath(request.doc)) {
    const resolved = ctx.api.resolveDeliverablePath(repo.folder, protocol, request.doc) ?? `${repo.folder}/${request.doc}`;
    named.add(topRelative(repo, resolved));
  }
  return named;
}
function topRelative(repo, absolute) {
  if (absolute.startsWith(`${repo.folder}/`))
    return repo.prefix + absolute.slice(repo.folder.length + 1);
  return relativePath(repo.top, absolute);
}
async function transaction(repo, request, named) {
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
      if (await waitForTurnInLine(repo, request.participant))
        continue;
    }
    const changes = await folderChanges(repo);
    const stray = changes.filter((p) => !named.has(p));
    if (stray.length)
      throw new ctx.api.AcpError(`git: the folder has changes this event does not name: ${stray.join(", ")} (commit, stash or discard them first)`);
    const edits = await saveEdits(repo, changes);
    const { result, afterFailure } = await appendAndCommit(repo, request, changes);
    const pushed = await push(repo).catch(async (error) => {
      await undo(repo, base, edits);
      throw error;
    });
    await recordSlot(repo, Date.now() - started);
    if (pushed === "ok") {
      if (afterFailure)
        throw afterFailure;
      return { result, attempts: attempt };
    }
    await undo(repo, base, edits);
    if (attempt >= settings.attempts || Date.now() - begun > RETRY_BUDGET_MS) {
      const seconds = Math.round((Date.now() - begun) / 1000);
      throw new ctx.api.AcpError(`git: the push was rejected ${attempt} times in ${seconds} s (other clones kept pushing first); nothing was appended, your document edits are kept; try again`);
    }
    attempt++;
    await backOff(attempt);
  }
}
async function appendAndCommit(repo, request, changes) {
  const { ctx } = repo;
  let result;
  let afterFailure;
  try {
    result = await ctx.api.append(ctx.host, repo.folder, request, ctx.registry);
  } catch (error) {
    if (!(error instanceof ctx.api.AcpAppendedError))
      throw error;
    result = error.appended;
    afterFailure = error;
  }
  const paths = [`${repo.prefix}events.jsonl`, `${repo.prefix}protocol.json`, ...changes];
  await repo.git(["add", "-A", "--", ...paths.map(top)]);
  await repo.git(["commit", "--quiet", "--no-verify", "-m", `acp: seq ${result.event.seq} ${result.event.event} by ${result.event.from}`, "--", ...paths.map(top)]);
  return { result, afterFailure };
}
var top = (path) => `:(top,literal)${path}`;
async function saveEdits(repo, changes) {
  const { host } = repo.ctx;
  const root = repo.top;
  const edits = new Map;
  for (const path of changes)
    edits.set(`${root}/${path}`, await host.fs.readFile(`${root}/${path}`).catch(() => null));
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
return { gitAppend };

};
