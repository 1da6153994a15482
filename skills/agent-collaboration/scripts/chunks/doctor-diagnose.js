globalThis[Symbol.for("acp.chunk:./chunks/doctor-diagnose.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// runtime/util.ts
;
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function errorCode(error) {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}
function sameList(a, b) {
  return Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);
}

// plugins/doctor/diagnose.ts
var TEMP_RE = /^\.(.+)\.(\d+)\.([a-z0-9]*)\.(tmp|stale)$/;
var TEMP_STALE_MS = 60000;
var SETTLE_MS = 2000;
function join2(folder, name) {
  return folder.endsWith("/") || folder.endsWith("\\") ? folder + name : `${folder}/${name}`;
}
async function readIfExists(host, path) {
  try {
    return await host.fs.readFile(path);
  } catch (error) {
    if (["ENOENT", "ENOTDIR", "EISDIR"].includes(errorCode(error) ?? ""))
      return;
    throw error;
  }
}
async function readLogBytes(host, folder, add) {
  try {
    return await host.fs.readFile(join2(folder, "events.jsonl"));
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR")
      return;
    const what = code === "EISDIR" ? "a directory" : code === "ELOOP" ? "a symbolic link loop" : undefined;
    if (!what)
      throw error;
    add("events.jsonl", "problem", `events.jsonl is ${what}, not the event log (needs a person: put the log back)`);
    return;
  }
}
function preview(bytes) {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 60));
  return JSON.stringify(text + (bytes.length > 60 ? "\u2026" : ""));
}
function seconds(ms) {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}
async function readLogFacts(core, bytes) {
  const completeEnd = Math.max(bytes.lastIndexOf(10), bytes.lastIndexOf(13)) + 1;
  const tail = bytes.subarray(completeEnd);
  let events = [];
  let errors = [];
  let undecodable = false;
  try {
    const parsed = core.parseEventLog(core.decodeText(bytes.subarray(0, completeEnd), "events.jsonl"));
    events = parsed.events;
    errors = parsed.errors;
  } catch {
    undecodable = true;
  }
  let tailIsEvent = false;
  let tailBlank = false;
  if (tail.length) {
    try {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(tail);
      tailBlank = text.trim() === "";
      const value = tailBlank ? undefined : JSON.parse(text);
      if (isObject(value)) {
        tailIsEvent = true;
        events = [...events, value];
      }
    } catch {
      tailIsEvent = false;
    }
  }
  return { bytes, completeEnd, tail, tailIsEvent, tailBlank, events, errors, undecodable };
}
async function diagnose(core, host, folder, underLock) {
  const findings = [];
  const add = (check, status, message, fixable = false) => {
    findings.push({ check, status, message, fixable });
  };
  const diagnosis = { findings, staleTemps: [], lockAbandoned: false, breakerAbandoned: false };
  const now = host.now().getTime();
  if (underLock)
    add("lock", "ok", "taken by doctor for the repair");
  else {
    try {
      const lock = await core.inspectFolderLock(host, folder);
      const who = `pid ${lock.pid ?? "?"}${lock.hostname ? ` on ${lock.hostname}` : ""}`;
      const alive = lock.alive === true ? "alive" : lock.alive === false ? "gone" : "cannot be checked from here";
      if (lock.status === "free")
        add("lock", "ok", "free");
      else if (lock.status === "held")
        add("lock", "note", `held by ${who} (${alive}) for ${seconds(lock.ageMs ?? 0)}: a writer is at work`);
      else {
        diagnosis.lockAbandoned = true;
        const torn = lock.pid === undefined ? " (the lock file is torn: its writer died while taking it)" : "";
        add("lock", "problem", `abandoned by ${who} (${alive}), ${seconds(lock.ageMs ?? 0)} old${torn}; the next writer breaks it`, true);
      }
      if (lock.breaker?.abandoned) {
        diagnosis.breakerAbandoned = true;
        add("lock", "problem", `.acp.lock.break left by a process killed while breaking a lock, ${seconds(lock.breaker.ageMs)} old`, true);
      }
    } catch (error) {
      if (!(error instanceof core.AcpError))
        throw error;
      add("lock", "problem", error.message);
    }
  }
  let names = [];
  try {
    names = await host.fs.readDir(folder);
  } catch {
    names = [];
  }
  for (const name of names) {
    const match = TEMP_RE.exec(name);
    if (!match)
      continue;
    const stat = await host.fs.stat(join2(folder, name));
    if (!stat?.isFile)
      continue;
    const pid = Number(match[2]);
    const alive = pid === host.pid ? true : host.isProcessAlive(pid);
    const age = now - stat.mtimeMs;
    if (alive === false || age > TEMP_STALE_MS || underLock && alive !== true) {
      diagnosis.staleTemps.push(name);
      add("temp-files", "problem", `${name}: a temporary file left by an interrupted write (pid ${pid}, ${alive === false ? "gone" : `${seconds(age)} old`})`, true);
    } else
      add("temp-files", "note", `${name}: a write in progress (pid ${pid})`);
  }
  const present = new Set(names);
  const missing = core.REQUIRED_FILES.filter((name) => !present.has(name));
  if (missing.length)
    add("files", "problem", `missing required file${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
  for (const name of core.FORBIDDEN_FILES) {
    if (present.has(name))
      add("files", "problem", `${name} is not part of the protocol: move what it says into events.jsonl/readiness.md, then remove it (doctor never deletes it)`);
  }
  try {
    diagnosis.protocol = await core.readProtocol(host, folder);
    add("protocol.json", "ok", "readable");
  } catch (error) {
    if (!(error instanceof core.AcpError))
      throw error;
    add("protocol.json", "problem", `${error.message} (doctor cannot rebuild the declaration; restore it from a copy)`);
  }
  const bytes = await readLogBytes(host, folder, add);
  if (bytes) {
    const log = await readLogFacts(core, bytes);
    diagnosis.log = log;
    if (log.undecodable)
      add("events.jsonl", "problem", "events.jsonl is not valid UTF-8 before its last line (needs a person: find the damaged line)");
    for (const message of log.errors)
      add("events.jsonl", "problem", message);
    if (log.tail.length && !log.tailIsEvent && !log.tailBlank) {
      add("events.jsonl", "problem", `the last line is incomplete (${log.tail.length} bytes after the last newline: ${preview(log.tail)}): a writer was interrupted mid-append`, true);
    } else if (log.tailIsEvent) {
      add("events.jsonl", "note", "the last line is a complete event without its final newline (readers accept it; the next append ends it)", true);
    } else if (log.tail.length) {
      add("events.jsonl", "note", "events.jsonl ends with white space after its last newline (readers skip it)");
    }
    let expected = 1;
    const seen = new Map;
    for (const event of log.events)
      seen.set(event.seq, (seen.get(event.seq) ?? 0) + 1);
    const duplicates = [...seen].filter(([, n]) => n > 1).map(([seq]) => core.pyRepr(seq));
    if (duplicates.length)
      add("events.jsonl", "problem", `duplicate seq${duplicates.length > 1 ? "s" : ""} ${duplicates.slice(0, 10).join(", ")}${duplicates.length > 10 ? ", \u2026" : ""} (concurrent writers without a lock?)`);
    for (const event of log.events) {
      if (event.seq !== expected) {
        add("events.jsonl", "problem", `seq numbering breaks at event ${expected}: found ${core.pyRepr(event.seq)}`);
        break;
      }
      expected++;
    }
    if (!findings.some((f) => f.check === "events.jsonl"))
      add("events.jsonl", "ok", `${log.events.length} event${log.events.length === 1 ? "" : "s"}, every line complete`);
  }
  const protocol = diagnosis.protocol;
  const log = diagnosis.log;
  if (protocol && log && !log.undecodable && !log.errors.length) {
    let participants;
    try {
      participants = core.participantIds(protocol);
    } catch (error) {
      if (!(error instanceof core.AcpError))
        throw error;
      add("state", "problem", error.message);
    }
    if (participants) {
      let readinessText = "";
      try {
        readinessText = core.decodeText(await readIfExists(host, join2(folder, "readiness.md")) ?? new Uint8Array, "readiness.md");
      } catch {
        readinessText = "";
      }
      const state = core.replay(log.events, participants, core.readReadiness(readinessText));
      const last = log.events.at(-1);
      diagnosis.derived = { phase: state.phase, proposalOwner: state.proposalOwner, waitingFor: state.waitingFor, lastAt: typeof last?.at === "string" ? last.at : undefined };
      const cached = `phase ${core.pyRepr(protocol.currentPhase)}, owner ${core.pyRepr(protocol.proposalOwner)}, waitingFor ${core.pyRepr(protocol.waitingFor)}`;
      const derived = `phase ${core.pyRepr(state.phase)}, owner ${core.pyRepr(state.proposalOwner)}, waitingFor ${core.pyRepr(state.waitingFor)}`;
      if (!log.events.length)
        add("state", "problem", "events.jsonl holds no event: there is no state to derive");
      else if (protocol.currentPhase !== state.phase || protocol.proposalOwner !== state.proposalOwner || !sameList(protocol.waitingFor, state.waitingFor)) {
        add("state", "problem", `protocol.json caches ${cached}; the log gives ${derived} (a writer stopped between the log and protocol.json?)`, true);
      } else
        add("state", "ok", `protocol.json matches the log (${derived})`);
      if (state.errors.length)
        add("state", "note", `replaying the log reports ${state.errors.length} protocol error${state.errors.length > 1 ? "s" : ""}; \`acp validate\` lists them`);
    }
  }
  if (protocol && log) {
    const seen = new Set;
    for (const event of log.events) {
      if (event.event !== "deliverable_frozen" || typeof event.doc !== "string" || typeof event.sha256 !== "string")
        continue;
      const key = JSON.stringify([event.doc, event.sha256, event.seq]);
      if (seen.has(key))
        continue;
      seen.add(key);
      let current;
      try {
        current = await core.readDeliverable(host, folder, protocol, event.doc);
      } catch (error) {
        if (!(error instanceof core.AcpError))
          throw error;
        add("deliverables", "problem", error.message);
        continue;
      }
      const seq = core.pyRepr(event.seq);
      if (!current)
        add("deliverables", "problem", `${event.doc} (frozen at seq ${seq}) is missing`);
      else {
        const hash = await core.sha256Hex(current);
        if (hash !== event.sha256)
          add("deliverables", "problem", `${event.doc} changed since it was frozen at seq ${seq} (sha256 then ${event.sha256.slice(0, 12)}\u2026, now ${hash.slice(0, 12)}\u2026); restore the frozen text`);
        else
          add("deliverables", "ok", `${event.doc} unchanged since its freeze at seq ${seq}`);
      }
    }
  }
  return diagnosis;
}
async function backupName(host, folder, stamp) {
  for (let n = 1;; n++) {
    const name = `events.jsonl.torn-${stamp}${n > 1 ? `-${n}` : ""}.bak`;
    if (!await host.fs.stat(join2(folder, name)))
      return name;
  }
}
async function repair(core, host, folder, before, changes) {
  const d = await diagnose(core, host, folder, true);
  for (const name of d.staleTemps) {
    await host.fs.remove(join2(folder, name));
    changes.push(`removed ${name} (a temporary file left by an interrupted write; its content is derived and was never the live file)`);
  }
  if (before.breakerAbandoned && await host.fs.stat(join2(folder, ".acp.lock.break"))) {
    await host.fs.remove(join2(folder, ".acp.lock.break"));
    changes.push("removed .acp.lock.break left by a process killed while breaking a lock");
  }
  const log = d.log;
  if (log && log.tail.length) {
    const path = join2(folder, "events.jsonl");
    const now = await host.fs.readFile(path);
    if (now.length !== log.bytes.length)
      throw new core.AcpError("events.jsonl changed while doctor was repairing it (a writer that does not take the lock?); run doctor again");
    if (log.tailBlank) {} else if (log.tailIsEvent) {
      await host.fs.appendFile(path, `
`);
      changes.push("ended the last line of events.jsonl (a complete event) with its missing newline");
    } else {
      const stamp = core.formatTimestamp(host.now()).replace(/[-:]/g, "");
      const backup = await backupName(host, folder, stamp);
      await host.fs.writeFile(join2(folder, backup), log.bytes, { exclusive: true });
      await host.fs.truncate(path, log.completeEnd);
      changes.push(`kept a copy of events.jsonl (${log.bytes.length} bytes) as ${backup}`);
      changes.push(`cut the incomplete last line from events.jsonl (${log.tail.length} bytes: ${preview(log.tail)}); it now ends after its last complete line`);
    }
  }
  const after = await diagnose(core, host, folder, true);
  if (after.protocol && after.derived && after.log?.events.length && after.findings.some((f) => f.check === "state" && f.fixable)) {
    const { phase, proposalOwner, waitingFor, lastAt } = after.derived;
    const updated = { ...after.protocol, currentPhase: phase, proposalOwner, waitingFor };
    if (lastAt !== undefined)
      updated.updatedAt = lastAt;
    await core.writeFileAtomic(host, join2(folder, "protocol.json"), core.formatProtocolJson(updated));
    changes.push(`rewrote protocol.json's cached state from the log: currentPhase ${core.pyRepr(phase)}, proposalOwner ${core.pyRepr(proposalOwner)}, waitingFor ${core.pyRepr(waitingFor)}${lastAt !== undefined ? `, updatedAt ${lastAt}` : ""}`);
  }
}
async function doctor(core, host, folder, options = {}) {
  const stat = await host.fs.stat(folder);
  if (!stat?.isDirectory)
    throw new core.AcpError(`missing protocol.json in ${folder}`);
  if (!await host.fs.stat(join2(folder, "protocol.json")) && !await host.fs.stat(join2(folder, "events.jsonl"))) {
    throw new core.AcpError(`missing protocol.json in ${folder} (not a collaboration folder)`);
  }
  const changes = [];
  if (!options.fix) {
    const deadline = host.now().getTime() + SETTLE_MS;
    while ((await core.inspectFolderLock(host, folder).catch(() => {
      return;
    }))?.status === "held" && host.now().getTime() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { findings } = await diagnose(core, host, folder, false);
    return { folder, healthy: !findings.some((f) => f.status === "problem"), findings, changes };
  }
  const before = await diagnose(core, host, folder, false);
  const lockFinding = before.findings.find((f) => f.check === "lock" && f.status === "problem" && !f.fixable);
  if (lockFinding)
    return { folder, healthy: false, findings: before.findings, changes };
  let findings;
  try {
    findings = await core.withFolderLock(host, folder, async () => {
      if (before.lockAbandoned)
        changes.push(`broke the abandoned lock (${before.findings.find((f) => f.check === "lock" && f.status === "problem")?.message ?? ""})`);
      await repair(core, host, folder, before, changes);
      return (await diagnose(core, host, folder, true)).findings;
    }, { timeoutMs: options.lockTimeoutMs ?? 1e4 });
  } catch (error) {
    if (!(error instanceof core.AcpError) || changes.length)
      throw error;
    const findings2 = [...before.findings, { check: "lock", status: "problem", message: `${error.message}; nothing was changed`, fixable: false }];
    return { folder, healthy: false, findings: findings2, changes };
  }
  findings = findings.map((f) => f.check === "lock" ? { ...f, message: "free" } : f);
  return { folder, healthy: !findings.some((f) => f.status === "problem"), findings, changes };
}
function formatDoctorReport(report, fix) {
  const lines = [`acp doctor: ${report.folder}`];
  for (const f of report.findings) {
    const label = f.status === "ok" ? "ok" : f.status === "note" ? "note" : "PROBLEM";
    lines.push(`${label}: ${f.check}: ${f.message}${f.status === "problem" && f.fixable && !fix ? " [--fix repairs this]" : ""}`);
  }
  for (const change of report.changes)
    lines.push(`fixed: ${change}`);
  const problems = report.findings.filter((f) => f.status === "problem");
  const fixable = problems.filter((f) => f.fixable).length;
  if (!problems.length)
    lines.push(fix && report.changes.length ? "doctor: healthy now" : "doctor: healthy");
  else if (!fix && fixable)
    lines.push(`doctor: ${problems.length} problem${problems.length > 1 ? "s" : ""}; \`acp doctor --fix\` repairs ${fixable} of them`);
  else
    lines.push(`doctor: ${problems.length} problem${problems.length > 1 ? "s" : ""} need${problems.length > 1 ? "" : "s"} a person (doctor does not touch user content)`);
  return lines.join(`
`);
}
return { doctor, formatDoctorReport };

};
