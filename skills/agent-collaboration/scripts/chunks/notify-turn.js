globalThis[Symbol.for("acp.chunk:./chunks/notify-turn.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// plugins/notify-turn.ts
var REASONS = ["turn", "completed", "blocked"];
function parseNotifyTurnOptions(raw) {
  const known = ["command", "participants", "on", "timeoutSeconds", "background", "failOnError"];
  for (const key of Object.keys(raw))
    if (!known.includes(key))
      throw new Error(`unknown option '${key}' (known: ${known.join(", ")})`);
  const { command, participants, on = [...REASONS], timeoutSeconds = 60, background = false, failOnError = false } = raw;
  const isStrings = (value) => Array.isArray(value) && value.every((v) => typeof v === "string");
  if (!isStrings(command) || command.length === 0 || command[0].trim() === "") {
    throw new Error('option command must be a non-empty list of strings (argv; no shell), e.g. [notify-send, "ACP: your turn", "{participant}"]');
  }
  checkPlaceholders(command);
  let watched;
  if (typeof participants === "string")
    watched = [participants];
  else if (isStrings(participants))
    watched = participants;
  else if (participants !== undefined)
    throw new Error("option participants must be a participant id or a list of ids");
  if (!isStrings(on) || on.some((reason) => !REASONS.includes(reason)))
    throw new Error(`option on must be a list of ${REASONS.join(", ")}`);
  if (typeof timeoutSeconds !== "number" || !(timeoutSeconds > 0))
    throw new Error("option timeoutSeconds must be a positive number");
  if (typeof background !== "boolean")
    throw new Error("option background must be true or false");
  if (typeof failOnError !== "boolean")
    throw new Error("option failOnError must be true or false");
  return { command, participants: watched, on, timeoutSeconds, background, failOnError };
}
var PLACEHOLDER = /\{(participant|reason|folder|phase|event|seq|from)\}/;
var SHELLS = /^(?:.*[\\/])?(?:sh|bash|dash|zsh|ksh|mksh|fish|csh|tcsh|ash|busybox|cmd|cmd\.exe|powershell|pwsh)$/i;
function checkPlaceholders(command) {
  const shell = SHELLS.test(command[0]);
  command.forEach((arg, index) => {
    if (!PLACEHOLDER.test(arg))
      return;
    const advice = 'pass values as whole arguments ([prog, --who, "{participant}"]) or read them from the environment ("$ACP_PARTICIPANT" in a script)';
    if (arg.replace(PLACEHOLDER, "") !== "") {
      throw new Error(`option command: argument ${JSON.stringify(arg)} embeds a placeholder in a longer string; values (participant ids come from protocol.json) are never spliced into a string that may be run as code: ${advice}`);
    }
    if (index === 0)
      throw new Error(`option command: the program must not be a placeholder (${arg}); ${advice}`);
    if (shell && /^[-/]\w*c$/i.test(command[index - 1]))
      throw new Error(`option command: ${arg} would be the script ${command[0]} runs; ${advice}`);
  });
}
function dueNotifications(context, options) {
  const { state, previousPhase, previousWaitingFor } = context;
  const everyone = (context.protocol.participants ?? []).map((p) => typeof p === "object" && p !== null ? String(p.id) : String(p));
  const watched = options.participants ?? everyone;
  const due = [];
  const ended = state.phase !== previousPhase && (state.phase === "completed" || state.phase === "blocked") ? state.phase : undefined;
  for (const participant of watched) {
    if (ended) {
      if (options.on.includes(ended))
        due.push({ participant, reason: ended });
    } else if (options.on.includes("turn") && state.waitingFor.includes(participant) && !previousWaitingFor.includes(participant)) {
      due.push({ participant, reason: "turn" });
    }
  }
  return due;
}
function notifyTurn(context) {
  const options = parseNotifyTurnOptions(context.options);
  const run = context.runtime.run;
  if (!run)
    throw new Error(`this runtime (${context.runtime.name}) cannot run commands`);
  return context.definePlugin({
    name: "notify-turn",
    enforce: "post",
    timeoutMs: options.timeoutSeconds * 1000 + 5000,
    hooks: {
      async "append:after"(event) {
        const failures = [];
        for (const { participant, reason } of dueNotifications(event, options)) {
          const values = {
            participant,
            reason,
            folder: event.folder,
            phase: String(event.state.phase),
            event: event.event.event,
            seq: String(event.event.seq),
            from: event.event.from
          };
          const argv = options.command.map((arg) => PLACEHOLDER.test(arg) ? values[arg.slice(1, -1)] : arg);
          const env = Object.fromEntries(Object.entries(values).map(([key, value]) => [`ACP_${key.toUpperCase()}`, value]));
          let problem;
          try {
            const result = await run(argv, { cwd: event.folder, env, timeoutMs: options.timeoutSeconds * 1000, detached: options.background });
            if (result.code !== 0) {
              const detail = result.stderr.trim().split(`
`)[0];
              problem = `${argv[0]} ${result.code === null ? `was killed after ${options.timeoutSeconds}s` : `exited with ${result.code}`}${detail ? `: ${detail}` : ""}`;
            }
          } catch (error) {
            problem = error instanceof Error ? error.message : String(error);
          }
          if (problem === undefined)
            continue;
          const message = `could not notify ${participant} (${reason}): ${problem}`;
          if (options.failOnError)
            failures.push(message);
          else
            context.warn(message);
        }
        if (failures.length)
          throw new Error(failures.join("; "));
      }
    }
  });
}
return { "default": notifyTurn, dueNotifications, parseNotifyTurnOptions };

};
