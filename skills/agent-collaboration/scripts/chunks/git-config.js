globalThis[Symbol.for("acp.chunk:./chunks/git-config.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// plugins/git/config.ts
var DEFAULTS = { remote: "origin", intervalSeconds: 3, maxIntervalSeconds: 30, attempts: 60 };
async function gitSettings(ctx) {
  const section = ctx.options["no-config"] === true ? undefined : await configSection(ctx);
  if (ctx.options.git !== true && section === undefined)
    return;
  return { ...DEFAULTS, ...section?.settings };
}
async function configSection(ctx) {
  const config = ctx.registry.config;
  if (config === undefined)
    return;
  const file = config.file;
  const data = config.sections;
  const v = await __acpLoad("./valibot.mjs");
  if (!data || typeof data !== "object" || !Object.hasOwn(data, "git"))
    return;
  const seconds = v.pipe(v.number("must be a number of seconds"), v.minValue(0.05, "must be at least 0.05"));
  const Section = v.strictObject({
    remote: v.optional(v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"))),
    branch: v.optional(v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"))),
    interval: v.optional(seconds),
    "max-interval": v.optional(seconds),
    attempts: v.optional(v.pipe(v.number("must be a number"), v.integer("must be an integer"), v.minValue(1, "must be at least 1")))
  }, "unknown key (allowed: remote, branch, interval, max-interval, attempts)");
  const result = v.safeParse(Section, data.git ?? {});
  if (!result.success) {
    const issue = result.issues[0];
    const key = issue.path?.map((p) => String(p.key)).join(".");
    throw new ctx.api.AcpError(`${file}: git${key ? `.${key}` : ""}: ${issue.message}`);
  }
  const o = result.output;
  const settings = {};
  if (o.remote !== undefined)
    settings.remote = o.remote;
  if (o.branch !== undefined)
    settings.branch = o.branch;
  if (o.interval !== undefined)
    settings.intervalSeconds = o.interval;
  if (o["max-interval"] !== undefined)
    settings.maxIntervalSeconds = o["max-interval"];
  if (o.attempts !== undefined)
    settings.attempts = o.attempts;
  return { settings };
}
return { gitSettings };

};
