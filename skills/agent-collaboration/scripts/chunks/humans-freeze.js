globalThis[Symbol.for("acp.chunk:./chunks/humans-freeze.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// plugins/humans/context.ts
function stringOption(ctx, name) {
  const value = ctx.options[name];
  if (Array.isArray(value))
    return value.at(-1);
  return typeof value === "string" ? value : undefined;
}

// plugins/humans/freeze.ts
const { join } = __acpRequire("node:path");
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
async function runFreeze(ctx) {
  const participant = stringOption(ctx, "participant");
  if (participant === undefined)
    throw new ctx.api.UsageError("the following arguments are required: --participant");
  const result = await freeze(ctx, ctx.folder(), { participant, doc: stringOption(ctx, "doc"), summary: stringOption(ctx, "summary") });
  if (!ctx.json) {
    ctx.out(`frozen ${result.doc} (${result.role}): sha256 ${result.sha256}`);
    ctx.out(`appended seq ${result.seq}: deliverable_frozen`);
  }
  return { exitCode: 0, json: { ok: true, exitCode: 0, ...result } };
}
async function freeze(ctx, folder, request) {
  const { api, host } = ctx;
  const first = await api.readProtocol(host, folder);
  if (!api.participantIds(first).includes(request.participant))
    throw new api.AcpError(`participant '${request.participant}' is not listed in protocol.json`, 2, "unknown_participant");
  return api.withFolderLock(host, folder, async (lock) => {
    const protocol = await api.readProtocol(host, folder);
    const target = freezeTarget(ctx, protocol, request.doc);
    const log = await api.readEventLog(host, folder);
    if (log.errors.length)
      throw new api.AcpError(log.errors);
    const last = log.events.at(-1);
    if (!last)
      throw new api.AcpError("events.jsonl has no event yet: init the folder first");
    const readinessPath = join(folder, "readiness.md");
    const readinessBytes = await readIfExists(host, readinessPath);
    const readinessText = readinessBytes ? rawText(ctx, readinessBytes, "readiness.md") : "";
    preflight(ctx, protocol, log.events, api.readReadiness(api.decodeText(readinessBytes ?? new Uint8Array, "readiness.md")), request.participant, target);
    const path = api.resolveDeliverablePath(folder, protocol, target.ref);
    const original = path && await api.readDeliverable(host, folder, protocol, target.ref);
    if (!path || !original)
      throw new api.AcpError("deliverable_frozen doc does not exist");
    const frozenText = withStatusFrozen(ctx, rawText(ctx, original, target.ref), target.ref);
    const sha256 = await api.sha256Hex(new TextEncoder().encode(frozenText));
    const protocolPath = join(folder, "protocol.json");
    const protocolBytes = await host.fs.readFile(protocolPath);
    const restore = [[path, original], [readinessPath, readinessBytes], [protocolPath, protocolBytes]];
    const changed = [target.ref, "readiness.md"];
    try {
      await api.writeFileAtomic(host, path, frozenText);
      await api.writeFileAtomic(host, readinessPath, withSnapshot(readinessText, target, sha256));
      if (target.role === "supporting") {
        const declared = structuredClone(protocol);
        declared.deliverables.supporting[target.index].frozen = true;
        await api.writeFileAtomic(host, protocolPath, api.formatProtocolJson(declared));
        changed.push("protocol.json");
      }
      const summary = request.summary ?? `Froze ${target.ref} (sha256 ${sha256.slice(0, 12)}).`;
      const appended = await api.append(host, folder, { participant: request.participant, event: "deliverable_frozen", summary, doc: target.ref, role: target.role, sha256, replyTo: last.seq }, ctx.registry, { lock });
      return { seq: appended.event.seq, doc: target.ref, role: target.role, sha256, changed };
    } catch (error) {
      if (!error.appended)
        await restoreFiles(ctx, restore);
      throw error;
    }
  });
}
function freezeTarget(ctx, protocol, doc) {
  const { api } = ctx;
  const primary = api.primaryRef(protocol);
  if (doc === undefined || doc === primary) {
    if (primary === undefined)
      throw new api.AcpError("protocol.json deliverables.primary is required");
    return { ref: primary, role: "primary" };
  }
  const declared = isObject(protocol.deliverables) && Array.isArray(protocol.deliverables.supporting) ? protocol.deliverables.supporting : [];
  const index = declared.findIndex((s) => isObject(s) && typeof s.file === "string" && api.deliverableRef(protocol, s.file) === doc);
  if (index === -1)
    throw new api.AcpError("doc must reference a declared supporting deliverable");
  return { ref: doc, role: "supporting", index };
}
function preflight(ctx, protocol, events, readiness, participant, target) {
  const { api } = ctx;
  const participants = api.participantIds(protocol);
  const state = api.emptyState();
  for (const event of events)
    api.applyEvent(state, event, participants, readiness);
  if (state.errors.length)
    throw new api.AcpError(state.errors);
  if (!state.waitingFor.includes(participant)) {
    const waiting = state.waitingFor.length ? state.waitingFor.join(", ") : "nobody";
    throw new api.AcpError(`it is not ${participant}'s turn (phase ${state.phase ?? "None"}, waiting for ${waiting}): nothing was frozen`, 2, "not_your_turn");
  }
  if (target.role === "supporting") {
    const earlier = events.find((e) => e.event === "deliverable_frozen" && e.role === "supporting" && e.doc === target.ref);
    if (earlier)
      throw new api.AcpError(`${target.ref} was already frozen at seq ${api.pyStr(earlier.seq)}`);
    return;
  }
  const seq = Math.max(0, ...events.map((e) => typeof e.seq === "number" ? e.seq : 0)) + 1;
  api.applyEvent(state, { seq, from: participant, event: "deliverable_frozen", role: "primary", doc: target.ref }, participants, readiness);
  if (state.errors.length)
    throw new api.AcpError(state.errors, 2, "phase");
}
function rawText(ctx, bytes, name) {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ctx.api.AcpError(`${name} is not valid UTF-8`);
  }
}
function splitLines(text) {
  return [...text.matchAll(/([^\r\n]*)(\r\n|\r|\n|$)/g)].filter((m) => m[0] !== "" || m.index < text.length).map((m) => ({ line: m[1], end: m[2] }));
}
function newline(text) {
  return text.includes(`\r
`) ? `\r
` : `
`;
}
function withStatusFrozen(ctx, text, ref) {
  const lines = splitLines(text);
  const at = lines.findIndex(({ line }) => ctx.api.markdown.status(line) !== undefined);
  if (at === -1)
    throw new ctx.api.AcpError(`${ref} has no status line (Status: Draft, In Review, or Frozen): add one, then freeze`);
  lines[at].line = "Status: Frozen";
  return lines.map(({ line, end }) => line + end).join("");
}
function withSnapshot(text, target, sha256) {
  const nl = newline(text);
  const lines = splitLines(text);
  const heading = (line) => /^##\s/.test(line);
  const section = lines.findIndex(({ line }) => /^##\s+Deliverable Snapshot\s*$/.test(line));
  if (section === -1) {
    const tail = text === "" || text.endsWith(`
`) || text.endsWith("\r") ? "" : nl;
    return `${text}${tail}${text === "" ? "" : nl}## Deliverable Snapshot${nl}${nl}${snapshotPair(target, sha256).join(nl)}${nl}`;
  }
  let end = lines.findIndex(({ line }, i) => i > section && heading(line));
  if (end === -1)
    end = lines.length;
  const isOwner = (line) => target.role === "primary" ? /^\s*-\s*Primary:/.test(line) : /^\s*-\s*Supporting:/.test(line) && line.includes(target.ref);
  const owner = lines.findIndex(({ line }, i) => i > section && i < end && isOwner(line));
  const hashLine = `- SHA-256: ${sha256}`;
  if (owner !== -1) {
    const next = lines[owner + 1];
    if (owner + 1 < end && next && /^\s*-\s*SHA-256:/.test(next.line))
      next.line = hashLine;
    else
      lines.splice(owner + 1, 0, { line: hashLine, end: nl });
  } else {
    let at = end;
    while (at - 1 > section && lines[at - 1].line.trim() === "")
      at--;
    if (lines[at - 1] && lines[at - 1].end === "")
      lines[at - 1].end = nl;
    lines.splice(at, 0, ...snapshotPair(target, sha256).map((line) => ({ line, end: nl })));
  }
  return lines.map(({ line, end: e }) => line + e).join("");
}
function snapshotPair(target, sha256) {
  return [`- ${target.role === "primary" ? "Primary" : "Supporting"}: \`${target.ref}\``, `- SHA-256: ${sha256}`];
}
async function readIfExists(host, path) {
  try {
    return await host.fs.readFile(path);
  } catch (error) {
    if (error.code === "ENOENT")
      return;
    throw error;
  }
}
async function restoreFiles(ctx, files) {
  for (const [path, bytes] of files) {
    if (bytes === undefined)
      await ctx.host.fs.remove(path);
    else
      await ctx.api.writeFileAtomic(ctx.host, path, rawText(ctx, bytes, path));
  }
}
return { freeze, runFreeze, withSnapshot, withStatusFrozen };

};
