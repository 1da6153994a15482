globalThis[Symbol.for("acp.chunk:./chunks/humans-log.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// plugins/humans/log.ts
const { join: join2 } = __acpRequire("node:path");

// plugins/humans/context.ts
function stringOption(ctx, name) {
  const value = ctx.options[name];
  if (Array.isArray(value))
    return value.at(-1);
  return typeof value === "string" ? value : undefined;
}

// plugins/humans/snapshot.ts
const { join } = __acpRequire("node:path");
async function readText(sources, folder, name) {
  try {
    return sources.api.decodeText(await sources.host.fs.readFile(join(folder, name)), name);
  } catch {
    return "";
  }
}

// plugins/humans/text.ts
var UNSAFE_TERMINAL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
function terminalSafe(value) {
  const text = typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
  return text.replace(UNSAFE_TERMINAL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
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
function formatEvent(event, phase, p) {
  const at = terminalSafe(event.at);
  const seq = `seq ${terminalSafe(event.seq)}`;
  const from = terminalSafe(event.from).padEnd(10);
  const name = terminalSafe(event.event).padEnd(19);
  const after = `\u2192 ${phase ?? "none"}`.padEnd(17);
  return `${p.dim(at)}  ${p.bold(seq.padEnd(7))}  ${p.magenta(from)}  ${name}  ${p.cyan(after)}  ${terminalSafe(event.summary)}`;
}

// plugins/humans/log.ts
var POLL_MS = 2000;
async function runLog(ctx) {
  const { api, host } = ctx;
  const folder = ctx.folder();
  const since = sinceOption(ctx);
  const follow = ctx.options.follow === true;
  const p = await paint(ctx.color);
  const protocol = await api.readProtocol(host, folder);
  const participants = api.participantIds(protocol);
  const readiness = api.readReadiness(await readText(ctx, folder, "readiness.md"));
  const state = api.emptyState();
  let seen = 0;
  let errorsSeen = 0;
  const show = (events, errors) => {
    if (events.length < seen) {
      ctx.err(`warning: events.jsonl was rewritten (${events.length} events, ${seen} before); following from its end`);
      seen = events.length;
    }
    for (const event of events.slice(seen)) {
      api.applyEvent(state, event, participants, readiness);
      if (since !== undefined && !(typeof event.seq === "number" && event.seq > since))
        continue;
      ctx.out(ctx.json ? JSON.stringify(event) : formatEvent(event, state.phase, p));
    }
    seen = events.length;
    for (const error of errors.slice(errorsSeen))
      ctx.err(`warning: ${terminalSafe(error)}`);
    errorsSeen = Math.max(errorsSeen, errors.length);
    return state.phase === "completed" || state.phase === "blocked";
  };
  if (!follow) {
    const log = await api.readEventLog(host, folder);
    show(log.events, log.errors);
    return log.errors.length ? 1 : 0;
  }
  const follower = api.followFolder(host, folder, ctx.signal);
  try {
    for (;; ) {
      follower.settle();
      const log = await readCompleteLines(ctx, folder);
      if (show(log.events, log.errors) || ctx.signal.aborted)
        return errorsSeen ? 1 : 0;
      await follower.next(POLL_MS);
      if (ctx.signal.aborted)
        return errorsSeen ? 1 : 0;
    }
  } finally {
    follower.close();
  }
}
function sinceOption(ctx) {
  const value = stringOption(ctx, "since");
  if (value === undefined)
    return;
  if (!/^\s*[+-]?\d+\s*$/.test(value))
    throw new ctx.api.UsageError(`argument --since: invalid int value: '${value}'`);
  return Number.parseInt(value, 10);
}
async function readCompleteLines(ctx, folder) {
  let bytes;
  try {
    bytes = await ctx.host.fs.readFile(join2(folder, "events.jsonl"));
  } catch (error) {
    if (error.code === "ENOENT")
      return { events: [], errors: [] };
    throw error;
  }
  const end = bytes.lastIndexOf(10) + 1;
  const { events, errors } = ctx.api.parseEventLog(ctx.api.decodeText(bytes.subarray(0, end), "events.jsonl"));
  return { events, errors };
}
return { runLog };

};
