globalThis[Symbol.for("acp.chunk:./chunks/humans-status.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// plugins/humans/snapshot.ts
const { join } = __acpRequire("node:path");
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
async function readText(sources, folder, name) {
  try {
    return sources.api.decodeText(await sources.host.fs.readFile(join(folder, name)), name);
  } catch {
    return "";
  }
}
var OUTCOME_RE = /^\s*-\s*\[(proceed|do_not_proceed|defer|blocked)\]\s+(.+)$/gm;
async function loadSnapshot(sources, folder) {
  const { api, host } = sources;
  const protocol = await api.readProtocol(host, folder);
  const participants = api.participantIds(protocol);
  const log = await api.readEventLog(host, folder);
  const documents = {
    decisions: await readText(sources, folder, "decisions.md"),
    readiness: await readText(sources, folder, "readiness.md"),
    conclusion: await readText(sources, folder, "conclusion.md"),
    proposal: await readText(sources, folder, "proposal.md")
  };
  const readiness = api.readReadiness(documents.readiness);
  const replayed = replayTimeline(api, log.events, participants, readiness);
  const cachedWaiting = Array.isArray(protocol.waitingFor) ? protocol.waitingFor.map((v) => api.pyStr(v)) : [];
  const useLog = log.errors.length === 0 && log.events.length > 0;
  const last = new Map;
  for (const event of log.events)
    if (typeof event.from === "string")
      last.set(event.from, { seq: event.seq, event: event.event, at: event.at });
  const outcomes = [...documents.conclusion.matchAll(OUTCOME_RE)];
  const gates = (Array.isArray(protocol.completionGates) ? protocol.completionGates : []).filter(isObject).map((gate) => ({ text: api.pyStr(gate.text ?? ""), source: api.pyStr(gate.source ?? ""), checked: typeof gate.text === "string" && readiness.isGateChecked(gate.text) }));
  return {
    folder,
    now: api.formatTimestamp(host.now()),
    objective: typeof protocol.objective === "string" ? protocol.objective : api.pyStr(protocol.objective ?? ""),
    participants: participants.map((id) => ({ id, ...last.has(id) ? { last: last.get(id) } : {} })),
    phase: useLog ? replayed.phase : typeof protocol.currentPhase === "string" ? protocol.currentPhase : null,
    phaseSince: useLog ? replayed.phaseSince : undefined,
    owner: useLog ? replayed.owner : typeof protocol.proposalOwner === "string" ? protocol.proposalOwner : null,
    waitingFor: useLog ? replayed.waitingFor : cachedWaiting,
    turnSince: useLog ? replayed.turnSince : undefined,
    createdAt: typeof protocol.createdAt === "string" ? protocol.createdAt : undefined,
    updatedAt: typeof protocol.updatedAt === "string" ? protocol.updatedAt : undefined,
    timeline: replayed.timeline,
    logErrors: log.errors,
    gates,
    readiness: { blocking: readiness.blocking, unresolved: readiness.unresolved, deferredWithoutReason: readiness.deferredWithoutReason, readyToImplement: readiness.readyToImplement },
    ...await deliverableViews(sources, folder, protocol, log.events),
    ...outcomes.length === 1 ? { outcome: { status: outcomes[0][1], text: outcomes[0][2].trim() } } : {},
    documents,
    validation: await api.validate(host, folder, sources.registry)
  };
}
function replayTimeline(api, events, participants, readiness) {
  const state = api.emptyState();
  const timeline = [];
  let phaseSince;
  let turnSince;
  for (const event of events) {
    const phaseBefore = state.phase;
    const waitingBefore = state.waitingFor.join("\x00");
    api.applyEvent(state, event, participants, readiness);
    const at = typeof event.at === "string" ? event.at : undefined;
    if (state.phase !== phaseBefore)
      phaseSince = at;
    if (state.waitingFor.join("\x00") !== waitingBefore)
      turnSince = at;
    timeline.push({ event, phase: state.phase, waitingFor: [...state.waitingFor] });
  }
  return { timeline, phase: state.phase, owner: state.proposalOwner, waitingFor: state.waitingFor, phaseSince, turnSince };
}
async function deliverableViews(sources, folder, protocol, events) {
  const { api } = sources;
  const declared = isObject(protocol.deliverables) ? protocol.deliverables : {};
  const primaryRef = api.primaryRef(protocol);
  const primaryType = isObject(declared.primary) ? api.pyStr(declared.primary.pluginType ?? declared.primary.type ?? "") : "";
  const supporting = (Array.isArray(declared.supporting) ? declared.supporting : []).filter(isObject).filter((s) => typeof s.file === "string");
  const view = (ref, type, role) => deliverableView(sources, folder, protocol, events, ref, type, role);
  return {
    ...primaryRef === undefined ? {} : { primary: await view(primaryRef, primaryType, "primary") },
    supporting: await Promise.all(supporting.map((s) => view(api.deliverableRef(protocol, s.file), api.pyStr(s.type ?? ""), "supporting")))
  };
}
async function deliverableView(sources, folder, protocol, events, ref, type, role) {
  const { api, host } = sources;
  const view = { ref, type, role, exists: false };
  const freeze = events.findLast((e) => e.event === "deliverable_frozen" && e.role === role && e.doc === ref);
  if (freeze)
    view.frozen = { seq: freeze.seq, at: freeze.at, sha256: freeze.sha256, from: freeze.from };
  try {
    const bytes = await api.readDeliverable(host, folder, protocol, ref);
    if (bytes) {
      view.exists = true;
      view.sha256 = await api.sha256Hex(bytes);
      view.text = api.decodeText(bytes, ref);
      const status = api.markdown.status(view.text);
      if (status !== undefined)
        view.status = status;
    }
  } catch (error) {
    view.problem = error instanceof Error ? error.message : String(error);
  }
  if (view.frozen)
    view.matches = view.sha256 !== undefined && view.sha256 === view.frozen.sha256;
  return view;
}

// plugins/humans/text.ts
var UNSAFE_TERMINAL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
function terminalSafe(value) {
  const text = typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
  return text.replace(UNSAFE_TERMINAL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
function formatDuration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60)
    return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60)
    return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 24)
    return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}
async function paint(color) {
  if (!color) {
    const plain = (text) => text;
    return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain, magenta: plain };
  }
  const pc = (await __acpLoad("./picocolors.mjs")).default.createColors(true);
  return { bold: pc.bold, dim: pc.dim, red: pc.red, green: pc.green, yellow: pc.yellow, cyan: pc.cyan, magenta: pc.magenta };
}

// plugins/humans/status.ts
var RECENT_EVENTS = 5;
async function runStatus(ctx) {
  const snapshot = await loadSnapshot(ctx, ctx.folder());
  if (!ctx.json)
    for (const line of formatStatus(snapshot, await paint(ctx.color)))
      ctx.out(line);
  return { exitCode: 0, json: statusJson(snapshot) };
}
function statusJson(s) {
  const strip = (d) => {
    if (!d)
      return;
    const { text: _text, ...rest } = d;
    return rest;
  };
  return JSON.parse(JSON.stringify({
    ok: true,
    exitCode: 0,
    folder: s.folder,
    objective: s.objective,
    phase: s.phase,
    phaseSince: s.phaseSince ?? null,
    owner: s.owner,
    waitingFor: s.waitingFor,
    turnSince: s.turnSince ?? null,
    participants: s.participants,
    gates: s.gates,
    readiness: s.readiness,
    primary: strip(s.primary) ?? null,
    supporting: s.supporting.map(strip),
    outcome: s.outcome ?? null,
    events: s.timeline.length,
    recentEvents: s.timeline.slice(-RECENT_EVENTS).map((t) => ({ ...t.event, phase: t.phase })),
    logErrors: s.logErrors,
    validation: s.validation
  }));
}
function since(s, at) {
  const then = typeof at === "string" ? Date.parse(at) : NaN;
  return Number.isNaN(then) ? "" : formatDuration(Date.parse(s.now) - then);
}
function formatStatus(s, p) {
  const label = (name) => p.dim(`${name}:`.padEnd(14));
  const ended = s.phase === "completed" || s.phase === "blocked";
  const phaseColour = s.phase === "completed" ? p.green : s.phase === "blocked" ? p.red : p.cyan;
  const lines = [p.bold(terminalSafe(s.objective))];
  lines.push(`${label("folder")}${terminalSafe(s.folder)}`);
  lines.push(`${label("phase")}${phaseColour(s.phase ?? "none")}${s.phaseSince ? p.dim(` (for ${since(s, s.phaseSince)})`) : ""}`);
  lines.push(`${label("owner")}${terminalSafe(s.owner ?? "none")}`);
  const turn = s.waitingFor.length ? p.bold(terminalSafe(s.waitingFor.join(", "))) : ended ? `nobody (collaboration ${s.phase})` : "nobody";
  lines.push(`${label("turn")}${turn}${s.waitingFor.length && s.turnSince ? p.dim(` (for ${since(s, s.turnSince)})`) : ""}`);
  lines.push(p.dim("participants:"));
  const width = Math.max(...s.participants.map((x) => terminalSafe(x.id).length), 4);
  for (const x of s.participants) {
    const last = x.last ? `last: seq ${terminalSafe(x.last.seq)} ${terminalSafe(x.last.event)}${since(s, x.last.at) ? `, ${since(s, x.last.at)} ago` : ""}` : "no event yet";
    const mark = s.waitingFor.includes(x.id) ? p.yellow("*") : " ";
    lines.push(`  ${mark} ${terminalSafe(x.id).padEnd(width)}  ${p.dim(last)}`);
  }
  lines.push(p.dim("gates (readiness.md):"));
  for (const gate of s.gates)
    lines.push(`  ${gate.checked ? p.green("[x]") : "[ ]"} ${terminalSafe(gate.text)}`);
  lines.push(`  ${s.readiness.readyToImplement ? p.green("[x]") : "[ ]"} Ready to implement`);
  const open = [
    s.readiness.blocking.length ? `${s.readiness.blocking.length} blocking` : "",
    s.readiness.unresolved.length ? `${s.readiness.unresolved.length} unresolved` : "",
    s.readiness.deferredWithoutReason.length ? `${s.readiness.deferredWithoutReason.length} deferred without reason` : ""
  ].filter(Boolean);
  if (open.length)
    lines.push(`  ${p.yellow(`open items: ${open.join(", ")}`)}`);
  if (s.primary)
    lines.push(...formatDeliverable(s.primary, p));
  for (const d of s.supporting)
    lines.push(...formatDeliverable(d, p));
  if (s.outcome)
    lines.push(`${label(s.phase === "completed" ? "outcome" : "outcome draft")}${terminalSafe(s.outcome.status)}: ${terminalSafe(s.outcome.text)}`);
  lines.push(p.dim(`recent events (${s.timeline.length} in all):`));
  for (const entry of s.timeline.slice(-RECENT_EVENTS))
    lines.push(`  ${formatEvent(entry.event, entry.phase, p)}`);
  for (const error of s.logErrors)
    lines.push(`  ${p.red(terminalSafe(error))}`);
  lines.push(...formatVerdict(s, p));
  return lines;
}
function formatDeliverable(d, p) {
  const head = `${p.dim(`${d.role} deliverable:`)} ${terminalSafe(d.ref)}${d.type ? p.dim(` (${terminalSafe(d.type)})`) : ""}`;
  if (d.problem)
    return [head, `  ${p.red(terminalSafe(d.problem))}`];
  if (!d.exists)
    return [head, `  ${p.red("missing")}`];
  const parts = [`status ${terminalSafe(d.status ?? "none")}`];
  if (d.frozen) {
    parts.push(`frozen at seq ${terminalSafe(d.frozen.seq)}, sha256 ${terminalSafe(d.frozen.sha256)}`);
    parts.push(d.matches ? p.green("file matches") : p.red(`file changed since the freeze (now ${d.sha256})`));
  } else
    parts.push(`not frozen (sha256 now ${d.sha256})`);
  return [head, `  ${parts.join("; ")}`];
}
function formatEvent(event, phase, p) {
  const at = terminalSafe(event.at);
  const seq = `seq ${terminalSafe(event.seq)}`;
  const from = terminalSafe(event.from).padEnd(10);
  const name = terminalSafe(event.event).padEnd(19);
  const after = `\u2192 ${phase ?? "none"}`.padEnd(17);
  return `${p.dim(at)}  ${p.bold(seq.padEnd(7))}  ${p.magenta(from)}  ${name}  ${p.cyan(after)}  ${terminalSafe(event.summary)}`;
}
function formatVerdict(s, p) {
  const { errors, warnings } = s.validation;
  const head = p.dim("validate:".padEnd(14));
  if (errors.length)
    return [`${head}${p.red(`failed (${errors.length} error${errors.length === 1 ? "" : "s"})`)}`, ...errors.map((e) => `  ERROR: ${terminalSafe(e)}`), ...warnings.map((w) => `  WARNING: ${terminalSafe(w)}`)];
  if (warnings.length)
    return [`${head}${p.yellow("passed with warnings")}`, ...warnings.map((w) => `  WARNING: ${terminalSafe(w)}`)];
  return [`${head}${p.green("passed")}`];
}
return { RECENT_EVENTS, formatEvent, formatStatus, runStatus, statusJson };

};
