globalThis[Symbol.for("acp.core")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
;
var __defProp = Object.defineProperty;
var __returnValue = (v) => v;
function __exportSetter(name, newValue) {
  this[name] = __returnValue.bind(null, newValue);
}
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, {
      get: all[name],
      enumerable: true,
      configurable: true,
      set: __exportSetter.bind(all, name)
    });
};
var __esm = (fn, res, err) => () => {
  if (fn)
    try {
      res = fn(fn = 0);
    } catch (e) {
      err = [e];
    }
  if (err)
    throw err[0];
  return res;
};

// runtime/util.ts
const nodePath = __acpRequire("node:path");
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isInt(value) {
  return typeof value === "number" && Number.isInteger(value);
}
function errorCode(error) {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}
function fsError(code, message) {
  const error = new Error(`${code}: ${message}`);
  error.code = code;
  return error;
}
async function builtinModule(name, load) {
  return getBuiltin(name) ?? load();
}
function getBuiltin(name) {
  const get = globalThis.process?.getBuiltinModule;
  return typeof get === "function" ? get(name) : undefined;
}
async function nodeCrypto() {
  try {
    const crypto2 = await builtinModule("node:crypto", () => __acpLoad("node:crypto"));
    return typeof crypto2.createHash === "function" && typeof crypto2.createHmac === "function" ? crypto2 : undefined;
  } catch {
    return;
  }
}
function joinBytes(parts) {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
}
function sameList(a, b) {
  return Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);
}
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
function isInside(child, parent) {
  const rel = nodePath.relative(parent, child);
  return rel === "" || !rel.startsWith("..") && !nodePath.isAbsolute(rel);
}
async function realpathOfExistingAncestor(host, path) {
  const parts = [];
  let current = path;
  for (;; ) {
    try {
      return nodePath.join(await host.fs.realpath(current), ...parts.reverse());
    } catch (error) {
      if (errorCode(error) !== "ENOENT" && errorCode(error) !== "ENOTDIR")
        throw error;
      const parent = nodePath.dirname(current);
      if (parent === current)
        return path;
      parts.push(nodePath.basename(current));
      current = parent;
    }
  }
}
var init_util = () => {};

// runtime/define.ts
function defineDeliverableType(definition) {
  return definition;
}
function definePlugin(definition) {
  return definition;
}

// runtime/node-host.ts
const nodePath6 = __acpRequire("node:path");
async function createNodeHost(options = {}) {
  const fs = await builtinModule("node:fs", () => __acpLoad("node:fs"));
  const fsp = () => fs.promises;
  const sync = options.syncFs === true;
  const proc = globalThis.process;
  const callback = (run) => new Promise((resolve, reject) => run((error, value) => error ? reject(error) : resolve(value)));
  const fd = sync ? {
    open: async (path, flags) => fs.openSync(path, flags, 438),
    fstat: async (fd) => fs.fstatSync(fd),
    write: async (fd, bytes, offset) => fs.writeSync(fd, bytes, offset),
    read: async (fd, bytes, length, position) => fs.readSync(fd, bytes, 0, length, position),
    datasync: async (fd) => fs.fdatasyncSync(fd),
    truncate: async (fd, size) => fs.ftruncateSync(fd, size),
    close: async (fd) => fs.closeSync(fd)
  } : {
    open: (path, flags) => callback((done) => fs.open(path, flags, 438, done)),
    fstat: (fd) => callback((done) => fs.fstat(fd, done)),
    write: (fd, bytes, offset) => callback((done) => fs.write(fd, bytes, offset, bytes.length - offset, null, done)),
    read: (fd, bytes, length, position) => callback((done) => fs.read(fd, bytes, 0, length, position, done)),
    datasync: (fd) => callback((done) => fs.fdatasync(fd, done)),
    truncate: (fd, size) => callback((done) => fs.ftruncate(fd, size, done)),
    close: (fd) => callback((done) => fs.close(fd, done))
  };
  const c = fs.constants;
  const NONBLOCK = c.O_NONBLOCK ?? 0;
  const openRegular = async (path, flags) => {
    const handle = await fd.open(path, flags | NONBLOCK);
    try {
      const st = await fd.fstat(handle);
      if (st.isDirectory())
        throw fsError("EISDIR", `${path} is a directory`);
      if (!st.isFile())
        throw fsError("EFTYPE", `${path} is not a regular file (a FIFO, device or socket); acp reads only regular files`);
      return handle;
    } catch (error) {
      await fd.close(handle);
      throw error;
    }
  };
  const writeNew = async (path, bytes) => {
    const handle = await fd.open(path, c.O_WRONLY | c.O_CREAT | c.O_EXCL);
    try {
      for (let written = 0;written < bytes.length; ) {
        const n = await fd.write(handle, bytes, written);
        if (n <= 0)
          throw fsError("EIO", `short write to ${path}`);
        written += n;
      }
    } finally {
      await fd.close(handle);
    }
  };
  const removeFile = async (path) => {
    try {
      if (sync)
        fs.unlinkSync(path);
      else
        await fsp().unlink(path);
    } catch (error) {
      if (errorCode(error) !== "ENOENT")
        throw error;
    }
  };
  const createExclusive = async (path, bytes) => {
    const temp = nodePath6.join(nodePath6.dirname(path), `${nodePath6.basename(path)}.${proc?.pid ?? 0}.${Math.random().toString(36).slice(2, 10)}.tmp`);
    await writeNew(temp, bytes);
    try {
      if (sync)
        fs.linkSync(temp, path);
      else
        await fsp().link(temp, path);
    } catch (error) {
      if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"].includes(errorCode(error) ?? ""))
        throw error;
      await writeNew(path, bytes);
    } finally {
      await removeFile(temp);
    }
  };
  const nodeFs = {
    readFile: async (path, options) => {
      const max = options?.maxBytes ?? Number.MAX_SAFE_INTEGER;
      const handle = await openRegular(path, c.O_RDONLY);
      try {
        const size = (await fd.fstat(handle)).size;
        if (size > max)
          throw fsError("EFBIG", `${path} holds ${size} bytes, more than ${max}`);
        const bytes = new Uint8Array(size);
        let length = 0;
        while (length < size) {
          const n = await fd.read(handle, bytes.subarray(length), size - length, length);
          if (n <= 0)
            break;
          length += n;
        }
        return bytes.subarray(0, length);
      } finally {
        await fd.close(handle);
      }
    },
    openRead: async (path, options) => {
      const handle = await openRegular(path, c.O_RDONLY);
      let size;
      try {
        size = (await fd.fstat(handle)).size;
        if (size > (options?.maxBytes ?? Number.MAX_SAFE_INTEGER))
          throw fsError("EFBIG", `${path} holds ${size} bytes, more than ${options?.maxBytes}`);
      } catch (error) {
        await fd.close(handle);
        throw error;
      }
      let buffer = new Uint8Array(0);
      return {
        size,
        read: async (position, length) => {
          const want = Math.max(0, Math.min(length, size - position));
          if (buffer.length < want)
            buffer = new Uint8Array(want);
          const n = want ? await fd.read(handle, buffer, want, position) : 0;
          return buffer.subarray(0, Math.max(0, n));
        },
        close: () => fd.close(handle)
      };
    },
    writeFile: async (path, data, options) => {
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
      if (options?.exclusive)
        return options.temporary ? writeNew(path, bytes) : createExclusive(path, bytes);
      const handle = await openRegular(path, c.O_WRONLY | c.O_CREAT);
      try {
        await fd.truncate(handle, 0);
        let written = 0;
        while (written < bytes.length) {
          const n = await fd.write(handle, bytes, written);
          if (n <= 0)
            throw fsError("EIO", `short write to ${path}`);
          written += n;
        }
      } finally {
        await fd.close(handle);
      }
    },
    appendFile: async (path, data) => {
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
      const handle = await openRegular(path, c.O_WRONLY | c.O_APPEND | c.O_CREAT);
      try {
        const start = (await fd.fstat(handle)).size;
        let written = 0;
        try {
          while (written < bytes.length) {
            const bytesWritten = await fd.write(handle, bytes, written);
            if (bytesWritten <= 0)
              throw fsError("EIO", `short write to ${path}`);
            written += bytesWritten;
          }
          await fd.datasync(handle);
        } catch (error) {
          try {
            if (written > 0 && (await fd.fstat(handle)).size === start + written)
              await fd.truncate(handle, start);
          } catch {}
          throw error;
        }
      } finally {
        await fd.close(handle);
      }
    },
    rename: async (from, to) => sync ? fs.renameSync(from, to) : fsp().rename(from, to),
    remove: removeFile,
    mkdir: async (path) => {
      if (sync)
        fs.mkdirSync(path, { recursive: true });
      else
        await fsp().mkdir(path, { recursive: true });
    },
    stat: async (path) => {
      try {
        const link = sync ? fs.lstatSync(path, { throwIfNoEntry: false }) : await fsp().lstat(path);
        if (link === undefined)
          return null;
        let target = link;
        if (link.isSymbolicLink()) {
          try {
            target = sync ? fs.statSync(path, { throwIfNoEntry: false }) ?? null : await fsp().stat(path);
          } catch {
            target = null;
          }
        }
        if (!target)
          return { isFile: false, isDirectory: false, isSymlink: true, size: 0, mtimeMs: link.mtimeMs };
        return {
          isFile: target.isFile(),
          isDirectory: target.isDirectory(),
          isSymlink: link.isSymbolicLink(),
          size: target.size,
          mtimeMs: target.mtimeMs,
          ctimeMs: target.ctimeMs,
          ino: target.ino,
          ...nodePath6.sep === "/" ? { uid: target.uid, mode: target.mode & 4095 } : {}
        };
      } catch (error) {
        if (["ENOENT", "ENOTDIR", "ENAMETOOLONG", "ELOOP"].includes(errorCode(error) ?? ""))
          return null;
        throw error;
      }
    },
    readTail: async (path, length) => {
      let handle;
      try {
        handle = await openRegular(path, c.O_RDONLY);
      } catch (error) {
        if (["ENOENT", "ENOTDIR", "EISDIR", "EFTYPE"].includes(errorCode(error) ?? ""))
          return null;
        throw error;
      }
      try {
        const st = await fd.fstat(handle);
        if (!st.isFile())
          return null;
        const want = Math.max(0, Math.min(length, st.size));
        const bytes = new Uint8Array(want);
        const bytesRead = want ? await fd.read(handle, bytes, want, st.size - want) : 0;
        const stat = { isFile: st.isFile(), isDirectory: st.isDirectory(), isSymlink: false, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
        return { stat, bytes: bytes.subarray(0, bytesRead) };
      } finally {
        await fd.close(handle);
      }
    },
    realpath: async (path) => sync ? (fs.realpathSync.native ?? fs.realpathSync)(path) : fsp().realpath(path),
    readDir: async (path) => sync ? fs.readdirSync(path) : fsp().readdir(path),
    truncate: async (path, size) => sync ? fs.truncateSync(path, size) : fsp().truncate(path, size),
    watch: (path, onChange) => {
      try {
        const watcher = fs.watch(path, { persistent: true }, () => onChange());
        watcher.on("error", () => {
          return;
        });
        return () => watcher.close();
      } catch {
        return () => {
          return;
        };
      }
    }
  };
  for (const key of Object.keys(nodeFs)) {
    const fn = nodeFs[key];
    nodeFs[key] = (...args) => {
      const paths = key === "rename" ? args.slice(0, 2) : args.slice(0, 1);
      if (!paths.some((p) => typeof p === "string" && p.includes("\x00")))
        return fn(...args);
      if (key === "stat" || key === "readTail")
        return Promise.resolve(null);
      if (key === "remove")
        return Promise.resolve();
      if (key === "watch")
        return () => {
          return;
        };
      return Promise.reject(fsError("ENOENT", `no file name holds a NUL character: ${JSON.stringify(paths.join(" "))}`));
    };
  }
  const deno = globalThis.Deno;
  const granted = (descriptor) => {
    if (!deno)
      return true;
    try {
      return deno.permissions?.querySync?.(descriptor).state === "granted";
    } catch {
      return false;
    }
  };
  let hostname = null;
  const readHostname = () => {
    if (hostname === null) {
      try {
        const os = granted({ name: "sys", kind: "hostname" }) ? () => getBuiltin("node:os") : undefined;
        hostname = os ? readProc("/proc/sys/kernel/hostname") || os()?.hostname() || undefined : undefined;
      } catch {
        hostname = undefined;
      }
    }
    return hostname;
  };
  const mayKill = granted({ name: "run" });
  const mayReadProc = granted({ name: "read", path: "/proc" });
  const readProc = (path) => {
    if (!mayReadProc)
      return;
    try {
      return fs.readFileSync(path, "utf8").trim() || undefined;
    } catch {
      return;
    }
  };
  const startTime = (pid) => {
    const stat = readProc(`/proc/${pid}/stat`);
    const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields?.[19];
  };
  let identity;
  const readIdentity = () => {
    if (identity === undefined) {
      let pidNamespace;
      try {
        pidNamespace = mayReadProc ? String(fs.statSync("/proc/self/ns/pid").ino) : undefined;
      } catch {
        pidNamespace = undefined;
      }
      identity = { bootId: readProc("/proc/sys/kernel/random/boot_id"), pidNamespace, startTime: startTime("self") };
    }
    return identity;
  };
  let key;
  const keyFile = () => options.checkpointKeyFile === undefined ? defaultKeyFile(proc?.env, granted) : options.checkpointKeyFile ?? undefined;
  const mayUse = (path) => granted({ name: "read", path }) && granted({ name: "write", path });
  const checkpointKey = () => {
    key ??= (async () => {
      const path = keyFile();
      return path && mayUse(path) ? loadOrCreateKey(fs, path) : undefined;
    })().catch(() => {
      return;
    });
    return key;
  };
  let caches;
  const cacheDir = () => {
    caches ??= (async () => {
      const path = keyFile();
      const dir = path && nodePath6.join(nodePath6.dirname(path), "validate");
      if (!dir || !mayUse(dir) || !await checkpointKey())
        return;
      fs.mkdirSync(dir, { recursive: true, mode: 448 });
      return dir;
    })().catch(() => {
      return;
    });
    return caches;
  };
  return {
    fs: nodeFs,
    now: () => new Date,
    pid: proc?.pid ?? 0,
    get hostname() {
      return readHostname();
    },
    isProcessAlive: (pid) => {
      if (!proc?.kill || !mayKill || !Number.isSafeInteger(pid) || pid <= 0)
        return;
      try {
        proc.kill(pid, 0);
        return true;
      } catch (error) {
        if (errorCode(error) === "ESRCH")
          return false;
        if (errorCode(error) === "EPERM")
          return true;
        return;
      }
    },
    get identity() {
      return readIdentity();
    },
    processStartTime: (pid) => Number.isSafeInteger(pid) && pid > 0 ? startTime(pid) : undefined,
    checkpointKey,
    cacheDir,
    resolvePath: (path) => nodePath6.resolve(path)
  };
}
function defaultKeyFile(env, granted) {
  if (!env || !granted({ name: "env", variable: "XDG_STATE_HOME" }) || !granted({ name: "env", variable: "HOME" }))
    return;
  const state = env.XDG_STATE_HOME;
  if (state && nodePath6.isAbsolute(state))
    return nodePath6.join(state, "acp", "checkpoint.key");
  return env.HOME && nodePath6.isAbsolute(env.HOME) ? nodePath6.join(env.HOME, ".local", "state", "acp", "checkpoint.key") : undefined;
}
async function loadOrCreateKey(fs, path) {
  const parse = (text) => {
    const hex = text.trim();
    if (!/^[0-9a-f]{64}$/.test(hex))
      return;
    return Uint8Array.from(hex.match(/../g), (byte) => Number.parseInt(byte, 16));
  };
  try {
    return parse(fs.readFileSync(path, "utf8"));
  } catch (error) {
    if (errorCode(error) !== "ENOENT")
      return;
  }
  fs.mkdirSync(nodePath6.dirname(path), { recursive: true, mode: 448 });
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const hex = (b) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  const temp = `${path}.${hex(crypto.getRandomValues(new Uint8Array(6)))}.tmp`;
  fs.writeFileSync(temp, `${hex(bytes)}
`, { mode: 384, flag: "wx" });
  try {
    fs.linkSync(temp, path);
  } catch (error) {
    if (errorCode(error) !== "EEXIST")
      throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return parse(fs.readFileSync(path, "utf8"));
}
var init_node_host = __esm(() => {
  init_util();
});

// deliverable-types/adr.ts
var SECTIONS, adr, adr_default;
var init_adr = __esm(() => {
  SECTIONS = [
    "Status",
    "Context",
    "Decision",
    "Alternatives Considered",
    "Consequences",
    "Follow-ups"
  ];
  adr = defineDeliverableType({
    type: "adr",
    title: "Architecture Decision Record",
    defaultFile: "adr.md",
    description: "Records one architectural decision: its context, the choice, the alternatives weighed and the consequences.",
    sections: () => [...SECTIONS]
  });
  adr_default = adr;
});

// deliverable-types/custom.ts
var custom, custom_default;
var init_custom = __esm(() => {
  custom = defineDeliverableType({
    type: "custom",
    title: "Custom Deliverable",
    description: "Any Markdown deliverable whose required sections are the declared checklist.",
    sections: (checklist) => checklist.map((item) => item.trim()).filter((item) => item !== "")
  });
  custom_default = custom;
});

// deliverable-types/decision-memo.ts
var SECTIONS2, decisionmemo, decision_memo_default;
var init_decision_memo = __esm(() => {
  SECTIONS2 = [
    "Question",
    "Recommendation",
    "Options",
    "Tradeoffs",
    "Decision",
    "Next Action"
  ];
  decisionmemo = defineDeliverableType({
    type: "decision-memo",
    title: "Decision Memo",
    defaultFile: "decision-memo.md",
    description: "Answers one question: the options and trade-offs, the recommendation and the decision taken.",
    sections: () => [...SECTIONS2]
  });
  decision_memo_default = decisionmemo;
});

// deliverable-types/design-spec.ts
var SECTIONS3, designspec, design_spec_default;
var init_design_spec = __esm(() => {
  SECTIONS3 = [
    "Problem",
    "Goals",
    "Non-goals",
    "Proposed Design",
    "Interfaces / Contracts",
    "Failure Modes",
    "Validation Plan",
    "Open Questions"
  ];
  designspec = defineDeliverableType({
    type: "design-spec",
    title: "Design Spec",
    defaultFile: "design-spec.md",
    description: "Specifies a design: the problem, goals, the proposed design, its contracts, failure modes and how it is validated.",
    sections: () => [...SECTIONS3]
  });
  design_spec_default = designspec;
});

// deliverable-types/implementation-plan.ts
var SECTIONS4, implementationplan, implementation_plan_default;
var init_implementation_plan = __esm(() => {
  SECTIONS4 = [
    "Scope",
    "Phases",
    "Tasks",
    "Dependencies",
    "Rollout / Migration",
    "Tests",
    "Risks",
    "Exit Criteria"
  ];
  implementationplan = defineDeliverableType({
    type: "implementation-plan",
    title: "Implementation Plan",
    defaultFile: "implementation-plan.md",
    description: "Plans an implementation: phases, tasks, dependencies, rollout, tests, risks and exit criteria.",
    sections: () => [...SECTIONS4]
  });
  implementation_plan_default = implementationplan;
});

// deliverable-types/review-report.ts
var SECTIONS5, reviewreport, review_report_default;
var init_review_report = __esm(() => {
  SECTIONS5 = [
    "Scope",
    "Findings",
    "Risks",
    "Required Changes",
    "Open Questions",
    "Recommendation"
  ];
  reviewreport = defineDeliverableType({
    type: "review-report",
    title: "Review Report",
    defaultFile: "review-report.md",
    description: "Reports a review: scope, findings, risks, required changes and a recommendation.",
    sections: () => [...SECTIONS5]
  });
  review_report_default = reviewreport;
});

// deliverable-types/test-plan.ts
var SECTIONS6, testplan, test_plan_default;
var init_test_plan = __esm(() => {
  SECTIONS6 = [
    "Scope",
    "Test Matrix",
    "Fixtures",
    "Automation",
    "Manual Tests",
    "Exit Criteria"
  ];
  testplan = defineDeliverableType({
    type: "test-plan",
    title: "Test Plan",
    defaultFile: "test-plan.md",
    description: "Plans testing: the matrix, fixtures, automation, manual tests and exit criteria.",
    sections: () => [...SECTIONS6]
  });
  test_plan_default = testplan;
});

// deliverable-types/index.ts
var builtInDeliverableTypes;
var init_deliverable_types = __esm(() => {
  init_adr();
  init_custom();
  init_decision_memo();
  init_design_spec();
  init_implementation_plan();
  init_review_report();
  init_test_plan();
  builtInDeliverableTypes = [adr_default, design_spec_default, implementation_plan_default, decision_memo_default, review_report_default, test_plan_default, custom_default];
});

// plugins/protocol.ts
var exports_protocol = {};
__export(exports_protocol, {
  appendRequest: () => appendRequest,
  default: () => protocol_default
});
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
function provides(plugin) {
  const parts = [
    ...(plugin.deliverableTypes ?? []).map((t) => `type ${t.type}`),
    ...Object.keys(plugin.hooks ?? {}).map((h) => `hook ${h}`),
    ...(plugin.commands ?? []).map((c) => `command ${c.name}`)
  ];
  return parts.join(", ") || "nothing";
}
function describeRegistry(registry) {
  const types = [...registry.types.values()].map(({ definition, origin }) => ({
    type: definition.type,
    title: definition.title,
    origin: origin.kind,
    source: origin.source,
    ...origin.plugin ? { plugin: origin.plugin } : {},
    ...origin.via ? { via: origin.via } : {},
    recordedAs: origin.kind === "built-in" || definition.recordAsCustom === false ? definition.type : "custom"
  }));
  const plugins = registry.plugins.filter(({ origin }) => origin.kind === "plugin").map(({ plugin, origin }) => ({
    name: plugin.name,
    source: origin.source,
    ...origin.via ? { via: origin.via } : {},
    enforce: plugin.enforce ?? "normal",
    hooks: Object.keys(plugin.hooks ?? {}),
    types: (plugin.deliverableTypes ?? []).map((t) => t.type),
    commands: (plugin.commands ?? []).map((c) => c.name)
  }));
  const commands = [...registry.commands.values()].map(({ spec, origin }) => ({ name: spec.name, description: spec.description, plugin: origin.plugin ?? null, source: origin.source }));
  return { types, plugins, commands };
}
var FOLDER, JSON_FLAG, text = (description, extra = {}) => ({ type: "string", description, ...extra }), str = (value) => typeof value === "string" ? value : undefined, strs = (value) => Array.isArray(value) ? value : [], initCommand, appendCommand = (api) => ({
  name: "append",
  description: "Append an event (spec \u00a76)",
  options: {
    folder: FOLDER,
    participant: text("Who appends", { required: true, valueName: "id" }),
    event: text(`Event name (${api.EVENT_NAMES.join(", ")})`, { required: true, valueName: "name" }),
    summary: text("One-line summary", { required: true, valueName: "text" }),
    doc: text("Document the event refers to", { valueName: "ref" }),
    "reply-to": text("Seq of the event this answers", { valueName: "seq" }),
    role: text("primary or supporting (deliverable events)", { choices: ["primary", "supporting"] }),
    sha256: text("SHA-256 of the frozen deliverable", { valueName: "hex" }),
    json: { type: "boolean", description: "Print the appended event as JSON" }
  },
  async run(ctx) {
    const result = await ctx.api.append(ctx.host, ctx.folder(), appendRequest(ctx), ctx.registry, { onLockWait: ctx.err });
    for (const warning of result.warnings ?? [])
      ctx.err(`warning: ${warning}`);
    if (!ctx.json)
      ctx.out(`appended seq ${result.event.seq}: ${result.event.event}`);
    return { exitCode: 0, json: { ok: true, exitCode: 0, event: result.event, phase: result.state.phase, waitingFor: result.state.waitingFor } };
  }
}), nextCommand, waitCommand = (api) => ({
  name: "wait",
  description: "Wait until it is a participant\u2019s turn (spec \u00a710)",
  options: {
    folder: FOLDER,
    participant: text("Participant id", { required: true, valueName: "id" }),
    interval: text(`Fallback poll period (default ${api.DEFAULT_WAIT_INTERVAL_SECONDS})`, { valueName: "seconds" }),
    timeout: text(`Give up after this long; 0 waits forever (default ${api.DEFAULT_WAIT_TIMEOUT_SECONDS})`, { valueName: "seconds" }),
    json: JSON_FLAG
  },
  async run(ctx) {
    const seconds = (name) => {
      const value = str(ctx.options[name]);
      if (value === undefined)
        return;
      const n = ctx.api.parsePyFloat(value, name);
      if (!(n >= 0))
        throw new ctx.api.UsageError(`argument --${name}: invalid non-negative number: '${value}'`);
      return n;
    };
    const options = { intervalSeconds: seconds("interval"), timeoutSeconds: seconds("timeout"), signal: ctx.signal, onProgress: ctx.json ? undefined : ctx.out };
    try {
      const result = await ctx.api.waitForTurn(ctx.host, ctx.folder(), str(ctx.options.participant), options, ctx.registry);
      if (!ctx.json)
        ctx.out(`${result.reason}
${ctx.api.formatNext(result.next)}`);
      return { exitCode: 0, json: { ...result.next, ok: true, exitCode: 0, ready: result.reason.slice("ready: ".length) } };
    } catch (error) {
      if (!(error instanceof ctx.api.AcpTimeoutError))
        throw error;
      ctx.err(error.message);
      return { exitCode: 1, json: { ok: false, exitCode: 1, timeout: true, error: error.message } };
    }
  }
}), validateCommand, pluginsCommand, protocol_default = (context) => context.definePlugin({
  name: "protocol",
  commands: [
    initCommand,
    appendCommand(context.api),
    nextCommand,
    waitCommand(context.api),
    validateCommand,
    pluginsCommand,
    { ...pluginsCommand, name: "types", description: "Same as `acp plugins`" }
  ]
});
var init_protocol = __esm(() => {
  FOLDER = { type: "string", required: true, description: "Collaboration folder" };
  JSON_FLAG = { type: "boolean", description: "Print one JSON object" };
  initCommand = {
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
  nextCommand = {
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
  validateCommand = {
    name: "validate",
    description: "Validate a collaboration folder (spec \u00a78)",
    options: { folder: FOLDER, json: { type: "boolean", description: "Print {ok, errors, warnings}" } },
    async run(ctx) {
      const result = await ctx.api.validate(ctx.host, ctx.folder(), ctx.registry);
      const exitCode = result.errors.length ? 2 : result.warnings.length ? 1 : 0;
      if (!ctx.json) {
        if (result.errors.length) {
          ctx.out("ACP validation failed");
          for (const error of result.errors)
            ctx.out(`ERROR: ${error}`);
        } else
          ctx.out(result.warnings.length ? "ACP validation passed with warnings" : "ACP validation passed");
        for (const warning of result.warnings)
          ctx.out(`WARNING: ${warning}`);
      }
      return { exitCode, json: { ...result, ok: exitCode === 0, exitCode } };
    }
  };
  pluginsCommand = {
    name: "plugins",
    description: "List the deliverable types, plugins and commands loaded, and where each came from",
    options: { json: JSON_FLAG },
    run(ctx) {
      const json = { ok: true, exitCode: 0, ...describeRegistry(ctx.registry) };
      if (ctx.json)
        return { exitCode: 0, json };
      const where = (origin) => origin.kind === "built-in" ? `built-in (${origin.source})` : `${origin.source}${origin.via ? ` (via ${origin.via})` : ""}`;
      ctx.out("Deliverable types:");
      for (const { definition, origin } of ctx.registry.types.values()) {
        ctx.out(`  ${definition.type.padEnd(20)} ${definition.title.padEnd(30)} ${origin.plugin ? `plugin '${origin.plugin}': ` : ""}${where(origin)}`);
      }
      const loaded = ctx.registry.plugins.filter(({ origin }) => origin.kind === "plugin");
      ctx.out(loaded.length ? "Plugins:" : "Plugins: none (load with --plugin <file> or the plugins: list of acp.config.yaml)");
      for (const { plugin, origin } of loaded)
        ctx.out(`  ${plugin.name.padEnd(20)} ${where(origin)}; ${plugin.enforce ? `enforce ${plugin.enforce}; ` : ""}provides ${provides(plugin)}`);
      ctx.out("Commands:");
      for (const { spec, origin } of ctx.registry.commands.values())
        ctx.out(`  ${spec.name.padEnd(20)} ${origin.plugin ?? "core"}`);
      return { exitCode: 0, json };
    }
  };
});

// plugins/doctor.ts
var exports_doctor = {};
__export(exports_doctor, {
  default: () => doctor_default
});
var doctorCommand, doctor_default = (context) => context.definePlugin({ name: "doctor", commands: [doctorCommand] });
var init_doctor = __esm(() => {
  doctorCommand = {
    name: "doctor",
    description: "Diagnose a folder (lock, torn log line, cached state, files, frozen deliverables); --fix repairs what is safe",
    options: {
      folder: { type: "string", required: true, description: "Collaboration folder" },
      fix: { type: "boolean", description: "Repair what loses nothing (keeps a copy of events.jsonl before cutting a torn line)" },
      json: { type: "boolean", description: "Print {ok, folder, findings, changes}" }
    },
    async run(ctx) {
      const { doctor, formatDoctorReport } = await __acpLoad("./chunks/doctor-diagnose.mjs");
      const fix = ctx.options.fix === true;
      const report = await doctor(ctx.api, ctx.host, ctx.folder(), { fix });
      const exitCode = report.healthy ? 0 : 1;
      if (!ctx.json)
        ctx.out(formatDoctorReport(report, fix));
      return { exitCode, json: { ok: report.healthy, exitCode, ...report } };
    }
  };
});

// plugins/rpc.ts
var exports_rpc = {};
__export(exports_rpc, {
  default: () => rpc_default
});
var str2 = (description, valueName) => ({ type: "string", description, valueName }), flag = (description) => ({ type: "boolean", description }), serveCommand, rpcCommand, waitExtension, rpc_default = (context) => context.definePlugin({ name: "rpc", commands: [serveCommand, rpcCommand, waitExtension] });
var init_rpc = __esm(() => {
  serveCommand = {
    name: "serve",
    description: "Serve the collaborations under a folder over JSON-RPC 2.0 (Agent Communication Protocol)",
    options: {
      root: str2("Folder whose sub-folders are the collaborations (default: the config's root, else the working directory)", "dir"),
      config: str2("Server config (YAML): tokens, limits, transports", "file"),
      stdio: flag("Serve on stdin/stdout (the spawning process is trusted)"),
      tcp: str2("Serve on TCP host:port (loopback unless --allow-remote; clients authenticate with a token)", "address"),
      unix: str2("Serve on a Unix socket (created owner-only)", "path"),
      "allow-remote": flag("Allow a non-loopback --tcp address")
    },
    async run(ctx) {
      const { serveCommand: serve, rpcContext } = await __acpLoad("./chunks/rpc-cli.mjs");
      return serve(ctx.options, rpcContext(ctx));
    }
  };
  rpcCommand = {
    name: "rpc",
    description: "Call one JSON-RPC method of an `acp serve` endpoint; params are JSON",
    args: ["method", "params?"],
    options: {
      server: str2("tcp://host:port, tls://host:port, host:port or unix:/path (or ACP_SERVER)", "endpoint"),
      ca: str2("With a tls:// server: verify its certificate against these CAs (PEM) instead of the system ones", "file"),
      token: str2("Token the server maps to your participant id (or ACP_TOKEN)"),
      "token-file": str2("Read the token from this file", "file"),
      participant: str2("On a Unix socket without a token: the participant this call speaks for", "id"),
      timeout: str2("Give up waiting for the answer after this long", "seconds"),
      "param-file": { type: "string", multiple: true, valueName: "key=file", description: "Set a param (dotted path, e.g. args.content) to a file's text (repeatable)" },
      json: flag("Print one JSON line even on a terminal")
    },
    async run(ctx) {
      const { rpcCommand: call, rpcContext } = await __acpLoad("./chunks/rpc-cli.mjs");
      return call(ctx.args.method, ctx.args.params, ctx.options, rpcContext(ctx));
    }
  };
  waitExtension = {
    name: "wait",
    extend: true,
    description: "Wait by subscription to an `acp serve` endpoint",
    options: {
      server: str2("Wait by subscription to an `acp serve` endpoint (tcp://host:port or unix:/path); --folder is then the task name", "endpoint"),
      token: str2("With --server: the token the server maps to --participant (or ACP_TOKEN)"),
      "token-file": str2("With --server: read the token from this file", "file"),
      ca: str2("With a tls:// --server: verify its certificate against these CAs (PEM)", "file")
    },
    async run(ctx) {
      if (ctx.options.server === undefined) {
        for (const name of ["token", "token-file", "ca"])
          if (ctx.options[name] !== undefined)
            throw new ctx.api.UsageError(`argument --${name}: only with --server`);
        return ctx.next();
      }
      const { waitViaServer, rpcContext } = await __acpLoad("./chunks/rpc-cli.mjs");
      return waitViaServer(ctx.options, rpcContext(ctx));
    }
  };
});

// plugins/git.ts
var exports_git = {};
__export(exports_git, {
  default: () => git_default
});
async function enabled(ctx) {
  const sections = ctx.options["no-config"] === true ? undefined : ctx.registry.config?.sections;
  const hasSection = typeof sections === "object" && sections !== null && Object.hasOwn(sections, "git");
  if (ctx.options.git !== true && !hasSection)
    return;
  const { gitSettings } = await __acpLoad("./chunks/git-config.mjs");
  return gitSettings(ctx);
}
var GIT_FLAG, appendExtension, waitExtension2, doctorExtension, initExtension, serveExtension, git_default = (context) => context.definePlugin({ name: "git", commands: [initExtension, appendExtension, waitExtension2, doctorExtension, serveExtension] });
var init_git = __esm(() => {
  GIT_FLAG = { type: "boolean", description: "Drive the folder through git (also enabled by a git: section in acp.config.yaml); see docs/git.md" };
  appendExtension = {
    name: "append",
    extend: true,
    description: "Append as a git transaction (fetch, append, commit, push)",
    options: { git: GIT_FLAG },
    async run(ctx) {
      const settings = await enabled(ctx);
      if (!settings)
        return ctx.next();
      const { gitAppend } = await __acpLoad("./chunks/git-append.mjs");
      return gitAppend(ctx, settings);
    }
  };
  waitExtension2 = {
    name: "wait",
    extend: true,
    description: "Wait across clones by polling the remote with git fetch",
    options: { git: GIT_FLAG },
    async run(ctx) {
      const settings = await enabled(ctx);
      if (!settings)
        return ctx.next();
      const { gitWait } = await __acpLoad("./chunks/git-wait.mjs");
      return gitWait(ctx, settings);
    }
  };
  doctorExtension = {
    name: "doctor",
    extend: true,
    description: "Also check the folder's git state",
    options: { git: GIT_FLAG },
    async run(ctx) {
      const settings = await enabled(ctx);
      const result = await ctx.next();
      if (!settings)
        return result;
      const { gitDoctor } = await __acpLoad("./chunks/git-doctor.mjs");
      return gitDoctor(ctx, settings, result);
    }
  };
  initExtension = {
    name: "init",
    extend: true,
    description: "Also commit and push the new folder",
    options: { git: GIT_FLAG },
    async run(ctx) {
      const settings = await enabled(ctx);
      if (!settings)
        return ctx.next();
      const { gitInit } = await __acpLoad("./chunks/git-init.mjs");
      return gitInit(ctx, settings);
    }
  };
  serveExtension = {
    name: "serve",
    extend: true,
    description: "Poll the remote of each watched folder's repository for the subscribers",
    options: { git: GIT_FLAG },
    async run(ctx) {
      const settings = await enabled(ctx);
      if (!settings)
        return ctx.next();
      const { gitServe } = await __acpLoad("./chunks/git-serve.mjs");
      return gitServe(ctx, settings);
    }
  };
});

// plugins/mcp.ts
var exports_mcp = {};
__export(exports_mcp, {
  default: () => mcp_default
});
async function resolveRoot(ctx) {
  const given = typeof ctx.options.root === "string" ? ctx.options.root : ".";
  const root = ctx.host.resolvePath(given);
  const stat = await ctx.host.fs.stat(root);
  if (!stat?.isDirectory)
    throw new ctx.api.UsageError(`--root ${root} is not a directory`);
  return ctx.host.fs.realpath(root);
}
async function loadServer(api) {
  try {
    return await __acpLoad("./acp-mcp.mjs");
  } catch (error) {
    if (errorCode(error) !== "ERR_MODULE_NOT_FOUND" && !/Cannot find module|Module not found/.test(String(error)))
      throw error;
    throw new api.AcpError("the MCP server (acp-mcp.mjs) is not beside this acp.mjs; run `npx -y acp-collab mcp` or a release binary instead");
  }
}
var mcpCommand, mcp_default = (context) => context.definePlugin({ name: "mcp", commands: [mcpCommand] });
var init_mcp = __esm(() => {
  init_util();
  mcpCommand = {
    name: "mcp",
    description: "Serve the protocol as MCP tools (init, status, wait, append, validate, read_document, write_document, freeze) over stdio",
    options: {
      root: { type: "string", valueName: "dir", description: "Folder the collaborations live in; tools refuse folders outside it (default: the working directory)" }
    },
    async run(ctx) {
      const root = await resolveRoot(ctx);
      const { serveMcp } = await loadServer(ctx.api);
      await serveMcp({ core: ctx.api, host: ctx.host, registry: ctx.registry, root, version: ctx.api.VERSION, signal: ctx.signal });
      return 0;
    }
  };
});

// plugins/humans.ts
var exports_humans = {};
__export(exports_humans, {
  default: () => humans_default,
  humansCommands: () => humansCommands
});
var folder, humansCommands, humans_default = (context) => context.definePlugin({ name: "humans", commands: humansCommands });
var init_humans = __esm(() => {
  folder = { type: "string", required: true, description: "Collaboration folder" };
  humansCommands = [
    {
      name: "status",
      description: "The collaboration at a glance: phase, whose turn, gates, deliverables, recent events, what validate says",
      options: { folder, json: { type: "boolean", description: "Print one JSON object" } },
      run: async (ctx) => (await __acpLoad("./chunks/humans-status.mjs")).runStatus(ctx)
    },
    {
      name: "log",
      description: "The timeline, one line per event; --follow prints new events as they land",
      options: {
        folder,
        follow: { type: "boolean", description: "Keep printing new events (until the collaboration is completed or blocked, or Ctrl-C)" },
        since: { type: "string", description: "Only the events after this seq", valueName: "seq" },
        json: { type: "boolean", description: "Print the events as JSON lines" }
      },
      run: async (ctx) => (await __acpLoad("./chunks/humans-log.mjs")).runLog(ctx)
    },
    {
      name: "report",
      description: "Write a self-contained HTML report: phase diagram, timeline, decisions, gates, deliverable, verdict",
      options: {
        folder,
        out: { type: "string", description: "Output file (default report.html; - for stdout)", valueName: "file" },
        json: { type: "boolean", description: "Print {ok, path, bytes}" }
      },
      run: async (ctx) => (await __acpLoad("./chunks/humans-report.mjs")).runReport(ctx)
    },
    {
      name: "freeze",
      description: "Freeze a deliverable: Status: Frozen, its SHA-256 in readiness.md, deliverable_frozen appended, under the folder lock",
      options: {
        folder,
        participant: { type: "string", required: true, description: "Who freezes (it must be their turn)", valueName: "id" },
        doc: { type: "string", description: "A declared supporting deliverable (default: the primary one)", valueName: "ref" },
        summary: { type: "string", description: "Summary of the event (default: names the file and hash)", valueName: "text" },
        json: { type: "boolean", description: "Print one JSON object" }
      },
      run: async (ctx) => (await __acpLoad("./chunks/humans-freeze.mjs")).runFreeze(ctx)
    }
  ];
});

// runtime/loader.ts
async function loadPlugins(registry, options, api, bundled) {
  const { host } = options;
  const path = await builtinModule("node:path", () => __acpLoad("node:path"));
  const fail = (message) => {
    throw new api.AcpError(message);
  };
  const runtime = options.runtime ?? { name: "unknown" };
  const cwd = options.cwd ?? host.resolvePath(".");
  const given = options.folder === undefined ? undefined : path.resolve(cwd, options.folder);
  const folder = given === undefined ? undefined : await realpathOfExistingAncestor(host, given).catch(() => given);
  const collaborationOf = async (file) => {
    if (folder !== undefined && isInside(file, folder))
      return folder;
    for (let dir = path.dirname(file);; dir = path.dirname(dir)) {
      const marker = path.join(dir, "protocol.json");
      if (runtime.mayRead?.(marker) !== false && (await host.fs.stat(marker).catch(() => null))?.isFile)
        return dir;
      if (path.dirname(dir) === dir)
        return;
    }
  };
  const refuseInside = async (file, what) => {
    const real = await host.fs.realpath(file);
    const inside = await collaborationOf(file) ?? await collaborationOf(real);
    if (inside === undefined)
      return real;
    return fail(`refusing to load ${what} ${file}: it is inside the collaboration folder ${inside}. acp never runs code from a collaboration ` + "folder, because anyone who can write that shared folder would gain code execution on every participant; keep plugins and " + `${CONFIG_FILE} outside it (e.g. in the repository or your home directory)`);
  };
  const trusted = (options.env?.("ACP_TRUSTED_CONFIG") ?? "").split(path.delimiter).filter((p) => p !== "").map((p) => path.resolve(cwd, p));
  const checkOwner = (file, real, what) => refuseUntrusted(host, runtime, { file, real, what, trusted, fail }, path);
  const requests = [];
  if (options.config) {
    const holding = (options.collaborationRoots ?? []).map((dir) => path.resolve(cwd, dir));
    const home = options.env?.("HOME");
    const file = await findConfigFile(host, runtime, cwd, path, { home: home ? path.resolve(home) : undefined, skip: holding, fail });
    if (file !== undefined) {
      const real = await refuseInside(file, "the config file");
      await checkOwner(file, real, "the config file");
      const { entries, sections } = await readConfigFile(host, real, fail);
      registry.config = { file, sections };
      for (const entry of entries)
        requests.push({ entry, base: path.dirname(real), via: file });
    }
  }
  for (const entry of options.plugins ?? [])
    requests.push({ entry, base: cwd, via: options.via ?? "createRegistry" });
  for (const request of requests) {
    const { entry } = request;
    let source;
    let pluginOptions = {};
    let load;
    if (typeof entry === "object" && entry !== null && !(("path" in entry) && typeof entry.path === "string")) {
      source = "inline";
      load = async () => ({ default: entry });
    } else {
      const spec = typeof entry === "string" ? entry : entry.path;
      if (typeof entry === "object")
        pluginOptions = entry.options ?? {};
      if (spec.startsWith(BUNDLED_PREFIX)) {
        const name = spec.slice(BUNDLED_PREFIX.length);
        const loader = Object.hasOwn(bundled, name) ? bundled[name] : undefined;
        if (!loader)
          fail(`unknown bundled plugin '${spec}' (from ${request.via}; bundled: ${Object.keys(bundled).map((n) => BUNDLED_PREFIX + n).join(", ")})`);
        source = spec;
        load = loader;
      } else {
        const file = path.resolve(request.base, spec);
        if (!EXTENSIONS.includes(path.extname(file)))
          fail(`plugin ${file} (from ${request.via}) must be a ${EXTENSIONS.join(", ")} file`);
        const stat = runtime.mayRead?.(file) === false ? null : await host.fs.stat(file).catch(() => null);
        if (!stat?.isFile)
          fail(`plugin file not found: ${file} (from ${request.via})${runtime.name === "deno" ? "; under Deno, grant --allow-read to its folder" : ""}`);
        const real = await refuseInside(file, "plugin");
        await checkOwner(file, real, "plugin");
        source = file;
        load = () => importFile(real, runtime, fail);
      }
    }
    await loadOne(registry, { source, via: request.via, options: pluginOptions, load, runtime, warn: options.warn }, api);
  }
}
async function loadOne(registry, spec, api) {
  const fail = (message) => {
    throw new api.AcpError(message);
  };
  const module = await spec.load();
  let label = spec.source;
  const valibot = await __acpLoad("./chunks/valibot.mjs");
  const context = api.pluginContext(spec.options, spec.runtime, { source: spec.source, warn: (message) => spec.warn?.(`plugin ${label}: ${message}`), valibot });
  let value = module.default;
  if (value === undefined)
    fail(`plugin ${spec.source} has no default export (export default a plugin, a deliverable type, or a function (context) => plugin)`);
  if (typeof value === "function") {
    try {
      value = await value(context);
    } catch (error) {
      if (error instanceof api.AcpError)
        throw error;
      throw new api.AcpPluginError(spec.source, "its default export function", error);
    }
  }
  let plugin;
  if (isDeliverableType(value))
    plugin = { name: value.type, deliverableTypes: [value] };
  else if (isPlugin(value))
    plugin = value;
  else {
    return fail(`plugin ${spec.source}: the default export must be a plugin ({ name, hooks?, deliverableTypes? }), a deliverable type ({ type, title, sections() }) or a function (context) => one of these; got ${describe(value)}`);
  }
  label = `'${plugin.name}'`;
  const origin = { kind: "plugin", source: spec.source, via: spec.via };
  await registry.addPlugin(plugin, origin, context);
}
function isDeliverableType(value) {
  return typeof value === "object" && value !== null && typeof value.type === "string" && typeof value.sections === "function";
}
function isPlugin(value) {
  return typeof value === "object" && value !== null && typeof value.name === "string";
}
function describe(value) {
  if (value === null)
    return "null";
  if (Array.isArray(value))
    return "an array";
  if (typeof value === "object")
    return `an object with keys ${Object.keys(value).join(", ") || "(none)"}`;
  return typeof value;
}
async function importFile(file, runtime, fail) {
  const { pathToFileURL } = await builtinModule("node:url", () => __acpLoad("node:url"));
  try {
    return await __acpLoad(pathToFileURL(file).href);
  } catch (error) {
    const code = error.code;
    if (code === "ERR_UNKNOWN_FILE_EXTENSION" && file.endsWith(".ts")) {
      return fail(`cannot load plugin ${file}: this Node.js cannot import TypeScript (Node >= 22.18 strips types natively). Write the plugin as .mjs, or run acp with bun, deno or the compiled binary`);
    }
    const message = error instanceof Error ? error.message : String(error);
    const hint = runtime.name === "deno" && /Requires read access|NotCapable|PermissionDenied/.test(message) ? " (under Deno, grant --allow-read to the plugin folder)" : "";
    return fail(`cannot load plugin ${file}: ${message.split(`
`)[0]}${hint}`);
  }
}
async function findConfigFile(host, runtime, cwd, path, search) {
  const exists = async (file) => await host.fs.stat(file).catch(() => null) !== null;
  const skip = new Set(search.skip ?? []);
  for (let dir = cwd;; dir = path.dirname(dir)) {
    const file = path.join(dir, CONFIG_FILE);
    if (runtime.mayRead?.(file) === false) {
      search.fail(`cannot look for ${file}: this runtime may not read it. A config there could hold plugins your team relies on; grant read access to it (Deno: --allow-read=${file}) or pass --no-config`);
    }
    const markers = await Promise.all(["protocol.json", "events.jsonl"].map((name) => runtime.mayRead?.(path.join(dir, name)) !== false && exists(path.join(dir, name))));
    if (!markers.some(Boolean) && !skip.has(dir)) {
      const stat = await host.fs.stat(file).catch((error) => search.fail(`cannot read ${file}: ${error.message}`));
      if (stat !== null && !stat.isFile)
        search.fail(`${file} is not a regular file`);
      if (stat?.isFile)
        return file;
    }
    const isRepoRoot = runtime.mayRead?.(path.join(dir, ".git")) !== false && await exists(path.join(dir, ".git"));
    if (isRepoRoot || dir === search.home || path.dirname(dir) === dir)
      return;
  }
}
async function refuseUntrusted(host, runtime, target, path) {
  const { file, real, what, trusted, fail } = target;
  if (trusted.some((entry) => isInside(file, entry) || isInside(real, entry)))
    return;
  const hint = `; if this shared setup is deliberate, set ACP_TRUSTED_CONFIG=${real}`;
  for (const [subject, isDirectory] of [[real, false], [path.dirname(real), true]]) {
    const stat = await host.fs.stat(subject).catch(() => null);
    if (stat?.uid === undefined || stat.mode === undefined)
      continue;
    const named = subject === real ? `${what} ${file}` : `${what} ${file}: its directory ${subject}`;
    if (stat.uid !== 0 && stat.uid !== runtime.uid) {
      const owner = await userName(host, runtime, stat.uid);
      const me = runtime.uid === undefined ? "the current user is unknown (Deno: grant --allow-sys=uid)" : `you are uid ${runtime.uid}`;
      fail(`refusing to load ${named} is owned by ${owner}, and ${me}: another user's file could run code as you${hint}`);
    }
    const sticky = isDirectory && (stat.mode & 512) !== 0;
    if ((stat.mode & 18) !== 0 && !sticky) {
      fail(`refusing to load ${named} is writable by ${stat.mode & 2 ? "everyone" : "its group"} (mode ${(stat.mode & 511).toString(8)}): another user could change the code run as you${hint}`);
    }
  }
}
async function userName(host, runtime, uid) {
  const passwd = "/etc/passwd";
  if (runtime.mayRead?.(passwd) === false)
    return `uid ${uid}`;
  const text = await host.fs.readFile(passwd).then((bytes) => new TextDecoder().decode(bytes), () => "");
  const name = text.split(`
`).map((line) => line.split(":")).find((fields) => fields[2] === String(uid))?.[0];
  return name ? `uid ${uid} (${name})` : `uid ${uid}`;
}
async function readConfigFile(host, file, fail) {
  const [YAML, v] = await Promise.all([__acpLoad("./chunks/yaml.mjs"), __acpLoad("./chunks/valibot.mjs")]);
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await host.fs.readFile(file));
  } catch (error) {
    return fail(`${file}: cannot read: ${error instanceof TypeError ? "not valid UTF-8" : error.message}`);
  }
  const document = YAML.parseDocument(text);
  const yamlError = document.errors[0];
  if (yamlError) {
    const at = yamlError.linePos?.[0];
    return fail(`${file}${at ? `:${at.line}:${at.col}` : ""}: invalid YAML: ${yamlError.message.split(`
`)[0].replace(/ at line \d+, column \d+:?$/, "")}`);
  }
  const data = document.toJS() ?? {};
  const unknownKey = "unknown key";
  const Path = v.pipe(v.string("must be a path (a string)"), v.check((s) => s.trim() !== "", "must not be blank"));
  const Mapping = v.custom((x) => typeof x === "object" && x !== null && !Array.isArray(x), "must be a mapping (key: value)");
  const Entry = v.union([Path, v.strictObject({ path: Path, options: v.optional(Mapping) }, unknownKey)], "must be a plugin path (a string) or a mapping { path, options }");
  const Config = v.strictObject({ plugins: v.optional(v.nullable(v.array(Entry, "must be a list"))), git: v.optional(v.nullable(Mapping)) }, unknownKey);
  if (typeof data !== "object" || Array.isArray(data) || data === null)
    return fail(`${file}: the top level must be a mapping with a plugins: list`);
  const result = v.safeParse(Config, data);
  if (!result.success) {
    const issue = deepestIssue(result.issues[0]);
    const key = formatKey(issue.path);
    const message = issue.message.startsWith("unknown key") ? `unknown key (allowed: ${key.includes("[") ? "path, options" : "plugins, git"})` : issue.message;
    return fail(`${file}: ${key || "(top level)"}: ${message}`);
  }
  const entries = (result.output.plugins ?? []).map((entry) => typeof entry === "string" ? entry.trim() : { path: entry.path.trim(), options: entry.options ?? {} });
  const { plugins: _plugins, ...sections } = data;
  return { entries, sections };
}
function deepestIssue(issue) {
  const deeper = (issue.issues ?? []).filter((sub) => (sub.path?.length ?? 0) > 0);
  if (!deeper.length)
    return issue;
  const best = deeper.reduce((a, b) => (b.path?.length ?? 0) > (a.path?.length ?? 0) ? b : a);
  return deepestIssue({ ...best, path: [...issue.path ?? [], ...best.path ?? []] });
}
function formatKey(path) {
  return (path ?? []).map(({ key }, index) => typeof key === "number" ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`).join("");
}
var CONFIG_FILE = "acp.config.yaml", EXTENSIONS, BUNDLED_PREFIX = "acp:";
var init_loader = __esm(() => {
  init_util();
  EXTENSIONS = [".ts", ".mjs", ".js"];
});

// runtime/process.ts
var exports_process = {};
__export(exports_process, {
  createProcessRuntime: () => createProcessRuntime,
  runProcess: () => runProcess
});
function envReader(proc) {
  const deno = globalThis.Deno;
  return (name) => {
    if (deno && deno.permissions.querySync({ name: "env", variable: name }).state !== "granted")
      return;
    return proc.env[name];
  };
}
function colorAllowed(proc, env) {
  const deno = globalThis.Deno;
  if (deno && deno.permissions.querySync({ name: "env" }).state !== "granted")
    return false;
  if (env("NO_COLOR") !== undefined && env("NO_COLOR") !== "")
    return false;
  const force = env("FORCE_COLOR");
  if (force !== undefined)
    return force !== "0" && force !== "false";
  return env("TERM") !== "dumb" && mayBeTerminal(1) && proc.stdout.isTTY === true;
}
function mayBeTerminal(fd) {
  const get = globalThis.process?.getBuiltinModule;
  const fs = typeof get === "function" ? get("node:fs") : undefined;
  try {
    if (!fs)
      return true;
    const stat = fs.fstatSync(fd);
    return stat.isCharacterDevice() && stat.rdev !== fs.statSync("/dev/null").rdev;
  } catch {
    return true;
  }
}
async function fdWriter(fd, stream) {
  const { writeSync } = await builtinModule("node:fs", () => __acpLoad("node:fs"));
  let fallback;
  const write = (text) => {
    let bytes = new TextEncoder().encode(text);
    if (fallback)
      return fallback(bytes);
    while (bytes.length) {
      try {
        bytes = bytes.subarray(writeSync(fd, bytes));
      } catch (error) {
        if (error.code !== "EAGAIN")
          return;
        const target = stream();
        write.streamed = true;
        target.on?.("error", () => {
          return;
        });
        fallback = (chunk) => {
          try {
            target.write(chunk);
          } catch {}
        };
        return fallback(bytes);
      }
    }
  };
  return write;
}
function enableCompileCache(proc, env) {
  const versions = proc.versions;
  const [major = 0, minor = 0] = (versions?.node ?? "").split(".").map(Number);
  const g = globalThis;
  if (g.Deno || g.Bun || major < 22 || major === 22 && minor < 1)
    return;
  const get = proc.getBuiltinModule;
  const cacheHome = env("XDG_CACHE_HOME") || (env("HOME") ? `${env("HOME")}/.cache` : undefined);
  if (typeof get !== "function" || !cacheHome?.startsWith("/"))
    return;
  const module = get("node:module");
  try {
    module?.enableCompileCache?.(`${cacheHome}/acp/node-compile-cache`);
  } catch {}
}
async function runProcess(run) {
  const proc = globalThis.process;
  const env = envReader(proc);
  enableCompileCache(proc, env);
  const controller = new AbortController;
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]]) {
    proc.on?.(signal, () => {
      controller.abort();
      setTimeout(() => proc.exit(code), SIGNAL_GRACE_MS).unref?.();
    });
  }
  const stdout = await fdWriter(1, () => proc.stdout);
  const stderr = await fdWriter(2, () => proc.stderr);
  const io = {
    argv: proc.argv.slice(2),
    stdout,
    stderr,
    color: colorAllowed(proc, env),
    runtime: await createProcessRuntime(),
    env,
    signal: controller.signal
  };
  proc.exitCode = await run(io, await createNodeHost({ syncFs: true }));
  if (!stdout.streamed && !stderr.streamed)
    proc.exit(proc.exitCode);
}
async function createProcessRuntime() {
  const g = globalThis;
  const deno = g.Deno;
  const name = deno ? "deno" : g.Bun ? "bun" : g.process ? "node" : "unknown";
  const run = async (command, options = {}) => {
    const { spawn } = await __acpLoad("node:child_process");
    const [file, ...args] = command;
    if (!file)
      throw new Error("run: empty command");
    const env = { ...g.process?.env, ...options.env };
    return new Promise((resolve, reject) => {
      let child;
      try {
        child = spawn(file, args, { cwd: options.cwd, env, shell: false, detached: options.detached, stdio: options.detached ? "ignore" : ["ignore", "pipe", "pipe"] });
      } catch (error) {
        reject(new Error(`cannot run ${file}: ${error.message}${name === "deno" ? " (Deno needs --allow-run)" : ""}`));
        return;
      }
      const output = { stdout: "", stderr: "" };
      const limit = 65536;
      child.stdout?.on("data", (chunk) => void (output.stdout = (output.stdout + chunk).slice(-limit)));
      child.stderr?.on("data", (chunk) => void (output.stderr = (output.stderr + chunk).slice(-limit)));
      const timer = options.timeoutMs && !options.detached ? setTimeout(() => child.kill("SIGKILL"), options.timeoutMs) : undefined;
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(new Error(error.code === "ENOENT" ? `command not found: ${file}` : `cannot run ${file}: ${error.message}`));
      });
      if (options.detached) {
        child.on("spawn", () => {
          child.unref();
          resolve({ code: 0, ...output });
        });
        return;
      }
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, ...output });
      });
    });
  };
  const mayRead = deno ? (path) => deno.permissions.querySync({ name: "read", path }).state === "granted" : undefined;
  const uid = currentUid(g);
  const facts = mayRead ? { name, run, mayRead } : { name, run };
  if (uid !== undefined)
    facts.uid = uid;
  return facts;
}
function currentUid(g) {
  const deno = g.Deno;
  if (deno)
    return deno.permissions.querySync({ name: "sys", kind: "uid" }).state === "granted" ? deno.uid?.() ?? undefined : undefined;
  return g.process?.getuid?.();
}
var SIGNAL_GRACE_MS = 3000;
var init_process = __esm(() => {
  init_node_host();
  init_util();
});

// acp.ts
const nodePath7 = __acpRequire("node:path");
// package.json
var package_default = {
  version: "0.1.0"
};

// runtime/errors.ts
class AcpError extends Error {
  exitCode;
  messages;
  code;
  constructor(message, exitCode = 2, code = "refused") {
    const messages = Array.isArray(message) ? message : [message];
    super(messages.join("; "));
    this.name = "AcpError";
    this.exitCode = exitCode;
    this.messages = messages;
    this.code = code;
  }
}

class AcpAppendedError extends AcpError {
  appended;
  constructor(messages, appended) {
    super(messages, 2, "after_append");
    this.name = "AcpAppendedError";
    this.appended = appended;
  }
}

class AcpTimeoutError extends AcpError {
  constructor(message) {
    super(message, 1, "timeout");
    this.name = "AcpTimeoutError";
  }
}

class AcpAbortError extends AcpError {
  constructor() {
    super("aborted", 130, "aborted");
    this.name = "AcpAbortError";
  }
}

class AcpPluginError extends AcpError {
  plugin;
  constructor(plugin, hook, cause) {
    super(`plugin '${plugin}' failed in ${hook}: ${cause instanceof Error ? cause.message : String(cause)}`, 2, "plugin_failed");
    this.name = "AcpPluginError";
    this.plugin = plugin;
  }
}

class UsageError extends AcpError {
  constructor(message) {
    super(message, 2, "usage");
    this.name = "UsageError";
  }
}

// runtime/sha256.ts
var K = new Int32Array([
  1116352408,
  1899447441,
  3049323471,
  3921009573,
  961987163,
  1508970993,
  2453635748,
  2870763221,
  3624381080,
  310598401,
  607225278,
  1426881987,
  1925078388,
  2162078206,
  2614888103,
  3248222580,
  3835390401,
  4022224774,
  264347078,
  604807628,
  770255983,
  1249150122,
  1555081692,
  1996064986,
  2554220882,
  2821834349,
  2952996808,
  3210313671,
  3336571891,
  3584528711,
  113926993,
  338241895,
  666307205,
  773529912,
  1294757372,
  1396182291,
  1695183700,
  1986661051,
  2177026350,
  2456956037,
  2730485921,
  2820302411,
  3259730800,
  3345764771,
  3516065817,
  3600352804,
  4094571909,
  275423344,
  430227734,
  506948616,
  659060556,
  883997877,
  958139571,
  1322822218,
  1537002063,
  1747873779,
  1955562222,
  2024104815,
  2227730452,
  2361852424,
  2428436474,
  2756734187,
  3204031479,
  3329325298
]);
function sha256(bytes) {
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(bytes);
  padded[bytes.length] = 128;
  const bits = bytes.length * 8;
  for (let i = 1, rest = bits;i <= 8; i++, rest = Math.floor(rest / 256))
    padded[padded.length - i] = rest % 256;
  const h = new Int32Array([1779033703, 3144134277, 1013904242, 2773480762, 1359893119, 2600822924, 528734635, 1541459225]);
  const w = new Int32Array(64);
  for (let at = 0;at < padded.length; at += 64)
    compress(h, w, padded, at);
  const out = new Uint8Array(32);
  for (let i = 0;i < 8; i++) {
    out[i * 4] = h[i] >>> 24;
    out[i * 4 + 1] = h[i] >>> 16;
    out[i * 4 + 2] = h[i] >>> 8;
    out[i * 4 + 3] = h[i];
  }
  return out;
}
function compress(h, w, m, at) {
  for (let i = 0;i < 16; i++) {
    const j = at + i * 4;
    w[i] = m[j] << 24 | m[j + 1] << 16 | m[j + 2] << 8 | m[j + 3];
  }
  for (let i = 16;i < 64; i++) {
    const x = w[i - 15];
    const y = w[i - 2];
    const s0 = (x >>> 7 | x << 25) ^ (x >>> 18 | x << 14) ^ x >>> 3;
    const s1 = (y >>> 17 | y << 15) ^ (y >>> 19 | y << 13) ^ y >>> 10;
    w[i] = w[i - 16] + s0 + w[i - 7] + s1 | 0;
  }
  let a = h[0];
  let b = h[1];
  let c = h[2];
  let d = h[3];
  let e = h[4];
  let f = h[5];
  let g = h[6];
  let k = h[7];
  for (let i = 0;i < 64; i++) {
    const t1 = k + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (e & f ^ ~e & g) + K[i] + w[i] | 0;
    const t2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b ^ a & c ^ b & c) | 0;
    k = g;
    g = f;
    f = e;
    e = d + t1 | 0;
    d = c;
    c = b;
    b = a;
    a = t1 + t2 | 0;
  }
  h[0] = h[0] + a | 0;
  h[1] = h[1] + b | 0;
  h[2] = h[2] + c | 0;
  h[3] = h[3] + d | 0;
  h[4] = h[4] + e | 0;
  h[5] = h[5] + f | 0;
  h[6] = h[6] + g | 0;
  h[7] = h[7] + k | 0;
}
function hmacSha256(key, data) {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + data.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0;i < 64; i++) {
    inner[i] = block[i] ^ 54;
    outer[i] = block[i] ^ 92;
  }
  inner.set(data, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}
function toHex(bytes) {
  let hex = "";
  for (const byte of bytes)
    hex += (byte < 16 ? "0" : "") + byte.toString(16);
  return hex;
}

// runtime/pytext.ts
init_util();
var PY_SPACE = "\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
var S = `[${PY_SPACE}]`;
var BOL = "(?<![^\\n])";
var EOL = "(?=\\n|(?![\\s\\S]))";
var DOT = "[^\\n]";
var H = `[${PY_SPACE.replace("\\n", "")}]`;
var RUN_START = `(?<!(?:^|\\n)${H}*\\n)`;
function isPySpaceCode(code) {
  return code >= 9 && code <= 13 || code === 32 || code >= 28 && code <= 31 || code === 133 || code === 160 || code === 5760 || code >= 8192 && code <= 8202 || code === 8232 || code === 8233 || code === 8239 || code === 8287 || code === 12288;
}
function pyStrip(text) {
  let start = 0;
  let end = text.length;
  while (start < end && isPySpaceCode(text.charCodeAt(start)))
    start++;
  while (end > start && isPySpaceCode(text.charCodeAt(end - 1)))
    end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
function pyRepr(value) {
  if (value === null || value === undefined)
    return "None";
  if (value === true)
    return "True";
  if (value === false)
    return "False";
  if (typeof value === "number")
    return pyNumber(value);
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    let out = quote;
    for (const ch of value) {
      const code = ch.codePointAt(0) ?? 0;
      if (ch === "\\")
        out += "\\\\";
      else if (ch === quote)
        out += `\\${quote}`;
      else if (ch === `
`)
        out += "\\n";
      else if (ch === "\r")
        out += "\\r";
      else if (ch === "\t")
        out += "\\t";
      else if (ch !== " " && NOT_PRINTABLE.test(ch))
        out += pyEscape(code);
      else
        out += ch;
    }
    return out + quote;
  }
  if (Array.isArray(value))
    return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  }
  return String(value);
}
var NOT_PRINTABLE = /^[\p{C}\p{Z}]$/u;
function pyEscape(code) {
  if (code <= 255)
    return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code <= 65535)
    return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\U${code.toString(16).padStart(8, "0")}`;
}
function pyStr(value) {
  return typeof value === "string" ? value : pyRepr(value);
}
function pyNumber(value) {
  if (Number.isNaN(value))
    return "nan";
  if (!Number.isFinite(value))
    return value > 0 ? "inf" : "-inf";
  return String(value);
}
function formatProtocolJson(value) {
  return `${JSON.stringify(sortKeys(value), null, 2)}
`;
}
function sortKeys(value) {
  if (Array.isArray(value))
    return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out = {};
    for (const key of Object.keys(value).sort(comparePy))
      out[key] = sortKeys(value[key]);
    return out;
  }
  return value;
}
function comparePy(a, b) {
  if (a === b)
    return 0;
  const ai = [...a];
  const bi = [...b];
  const n = Math.min(ai.length, bi.length);
  for (let i = 0;i < n; i++) {
    const d = (ai[i].codePointAt(0) ?? 0) - (bi[i].codePointAt(0) ?? 0);
    if (d !== 0)
      return d;
  }
  return ai.length - bi.length;
}
function sortedPy(values) {
  return [...values].sort(comparePy);
}
function formatTimestamp(date) {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999))
    return `${date.toISOString().slice(0, 19)}Z`;
  const two = (n) => n < 10 ? `0${n}` : `${n}`;
  return `${`${year}`.padStart(4, "0")}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}Z`;
}
async function sha256Hex(bytes) {
  if (bytes.length <= SMALL_DIGEST_BYTES)
    return toHex(sha256(bytes));
  const node = await nodeCrypto();
  if (node)
    return node.createHash("sha256").update(bytes).digest("hex");
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return toHex(new Uint8Array(digest));
}
var SMALL_DIGEST_BYTES = 4096;
var ISO_RE = /^(\d{4})-?(\d{2})-?(\d{2})(?:[^\d](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?)?(Z|z|[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:[.,]\d{1,6})?)?)?)?$/u;
var DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function digitsAt(value, at, width) {
  let out = 0;
  for (let k = at;k < at + width; k++) {
    const d = value.charCodeAt(k) - 48;
    if (d < 0 || d > 9)
      return -1;
    out = out * 10 + d;
  }
  return out;
}
function parseCanonicalTimestamp(value) {
  if (value.length !== 20)
    return null;
  if (value[4] !== "-" || value[7] !== "-" || value[10] !== "T" || value[13] !== ":" || value[16] !== ":" || value[19] !== "Z")
    return null;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  if (year < 100 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0)
    return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]))
    return;
  if (hour > 23 || minute > 59 || second > 59)
    return;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}
function parseZonedTimestamp(value) {
  if (typeof value !== "string")
    return;
  const canonical = parseCanonicalTimestamp(value);
  if (canonical !== null)
    return canonical;
  const match = ISO_RE.exec(value);
  if (!match)
    return;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "0", zone] = match;
  if (!zone)
    return;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate())
    return;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)
    return;
  let offset = 0;
  if (zone !== "Z" && zone !== "z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(/:/g, "");
    offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || "0")) * 60000;
    if (Number(digits.slice(0, 2)) > 23)
      return;
  }
  return Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s)) + Number(`0.${frac}`) * 1000 - offset;
}
function firstAbove(sorted, value) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = lo + hi >> 1;
    if (sorted[mid] > value)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}
function reviewHeadings(body) {
  const headings = [];
  if (!body.includes("seq") || !body.includes("##"))
    return headings;
  const n = body.length;
  const space = (i) => i < n && isPySpaceCode(body.charCodeAt(i));
  const dot = (i) => i < n && body.charCodeAt(i) !== 10;
  const wsEnd = new Int32Array(n + 1);
  const nl = new Int32Array(n + 1);
  wsEnd[n] = n;
  nl[n] = n;
  for (let i = n - 1;i >= 0; i--) {
    const code = body.charCodeAt(i);
    wsEnd[i] = code > 32 && code < 127 ? i : isPySpaceCode(code) ? wsEnd[i + 1] : i;
    nl[i] = code === 10 ? i : nl[i + 1];
  }
  const wsStart = (i) => {
    let r = i;
    while (r > 0 && space(r - 1))
      r--;
    return r;
  };
  const tailR = [];
  const tailA = [];
  const tailSeq = [];
  const tailEnd = [];
  const sepD = [];
  const sepR = [];
  for (let a = body.indexOf("-");a !== -1; a = body.indexOf("-", a + 1)) {
    if (!space(a - 1) || !space(a + 1))
      continue;
    const r = wsStart(a);
    sepD.push(a);
    sepR.push(r);
    const c = wsEnd[a + 1];
    if (!body.startsWith("seq", c))
      continue;
    const e = wsEnd[c + 3];
    if (e === c + 3)
      continue;
    let f = e;
    while (f < n && body.charCodeAt(f) >= 48 && body.charCodeAt(f) <= 57)
      f++;
    if (f === e)
      continue;
    const g = wsEnd[f];
    let end = g === n ? n : -1;
    for (let k = g - 1;end === -1 && k >= f; k--)
      if (body.charCodeAt(k) === 10)
        end = k;
    if (end === -1)
      continue;
    tailR.push(r);
    tailA.push(a);
    tailSeq.push(body.slice(e, f));
    tailEnd.push(end);
  }
  if (!tailA.length)
    return headings;
  const firstTail = (p0) => {
    const k = firstAbove(tailA, p0 + 1);
    if (k === tailA.length)
      return;
    const p1 = Math.max(tailR[k], p0 + 1);
    return p1 <= nl[p0] ? { p1, k } : undefined;
  };
  const afterSep = (d) => {
    for (let p0 = wsEnd[d + 1];p0 >= d + 2; p0--) {
      if (!dot(p0))
        continue;
      const t = firstTail(p0);
      if (t)
        return { participant: body.slice(p0, t.p1), seq: tailSeq[t.k], end: tailEnd[t.k] };
    }
    return;
  };
  const results = new Map;
  const skip = new Int32Array(sepD.length + 1).fill(-1);
  const okFrom = (k) => {
    const visited = [];
    let j = k;
    while (j < sepD.length) {
      if (skip[j] !== -1) {
        j = skip[j];
        break;
      }
      visited.push(j);
      if (!results.has(j))
        results.set(j, afterSep(sepD[j]));
      if (results.get(j))
        break;
      j++;
    }
    for (const v of visited)
      skip[v] = j;
    return j;
  };
  const fromTitle = (t0) => {
    const k = okFrom(firstAbove(sepD, t0 + 1));
    return k < sepD.length && sepR[k] <= nl[t0] ? results.get(k) : undefined;
  };
  let from = 0;
  for (let b = body.startsWith("##") ? 0 : body.indexOf(`
##`);b !== -1; b = body.indexOf(`
##`, b + 1)) {
    const start = body.charCodeAt(b) === 10 ? b + 1 : b;
    if (start < from)
      continue;
    const w = wsEnd[start + 2];
    for (let t0 = w;t0 >= start + 3; t0--) {
      if (!dot(t0))
        continue;
      const found = fromTitle(t0);
      if (!found)
        continue;
      headings.push({ participant: found.participant, seq: Number(found.seq) });
      from = Math.max(found.end, start + 1);
      break;
    }
  }
  return headings;
}
function purePosixPath(...parts) {
  let root = "";
  let segments = [];
  for (const part of parts) {
    if (part.startsWith("/")) {
      root = part.startsWith("//") && !part.startsWith("///") ? "//" : "/";
      segments = [];
    }
    for (const segment of part.split("/"))
      if (segment !== "" && segment !== ".")
        segments.push(segment);
  }
  const path = root + segments.join("/");
  return path === "" ? "." : path;
}
function decodeText(bytes, name) {
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new AcpError(`${name} is not valid UTF-8`);
  }
  return text.includes("\r") ? text.replace(/\r\n?/g, `
`) : text;
}

// runtime/argv.ts
var GLOBAL_OPTIONS = {
  plugin: { type: "string", multiple: true, valueName: "path", description: "Load a plugin: a .ts/.mjs/.js file or a bundled acp:{name} (repeatable)" },
  "no-config": { type: "boolean", description: "Ignore acp.config.yaml (found in the working directory or its ancestors)" },
  help: { type: "boolean", description: "Show help" },
  debug: { type: "boolean", description: "On an internal error, print the stack trace" }
};
var NEGATIVE_NUMBER_RE = /^-\d+$|^-\d*\.\d+$/;
function parseArgv(argv, spec, globals = GLOBAL_OPTIONS) {
  const own = spec.options ?? {};
  const known = { ...globals, ...own };
  const options = {};
  const positionals = [];
  const extras = [];
  const lookup = (token) => optionOf(token, own, globals);
  for (let i = 0;i < argv.length; i++) {
    const token = argv[i];
    if (token === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const match = looksLikeOption(token) ? lookup(token) : undefined;
    if (!match) {
      (looksLikeOption(token) ? extras : positionals).push(token);
      continue;
    }
    const option = known[match.name];
    if (option.type === "boolean") {
      if (match.value !== undefined)
        throw new UsageError(`argument --${match.name}: ignored explicit argument ${pyRepr(match.value)}`);
      options[match.name] = true;
      continue;
    }
    let value = match.value;
    if (value === undefined) {
      const following = argv[i + 1];
      if (following === undefined || following === "--" || looksLikeOption(following) && (lookup(following) || !isValueLike(following))) {
        throw new UsageError(`argument --${match.name}: expected one argument`);
      }
      value = following;
      i++;
    }
    if (option.choices && !option.choices.includes(value)) {
      throw new UsageError(`argument --${match.name}: invalid choice: ${pyRepr(value)} (choose from ${option.choices.map((c) => pyRepr(c)).join(", ")})`);
    }
    options[match.name] = option.multiple ? [...options[match.name] ?? [], value] : value;
  }
  return { options, args: bindPositionals(positionals, extras, own, options, spec.args ?? []) };
}
function looksLikeOption(token) {
  return token.length > 1 && token.startsWith("-");
}
function isValueLike(token) {
  return NEGATIVE_NUMBER_RE.test(token) || token.includes(" ");
}
function optionOf(token, own, globals) {
  if (token === "-h")
    return { name: "help" };
  if (!token.startsWith("--"))
    return;
  const eq = token.indexOf("=");
  const name = token.slice(2, eq === -1 ? undefined : eq);
  const value = eq === -1 ? undefined : token.slice(eq + 1);
  for (const table of [own, globals]) {
    if (Object.hasOwn(table, name))
      return { name, value };
  }
  for (const table of [own, globals]) {
    const matches = Object.keys(table).filter((candidate) => candidate.startsWith(name));
    if (matches.length > 1 && name !== "")
      throw new UsageError(`ambiguous option: --${name} could match ${matches.map((m) => `--${m}`).join(", ")}`);
    if (matches.length === 1 && name !== "")
      return { name: matches[0], value };
  }
  return;
}
function bindPositionals(positionals, extras, own, options, names) {
  const args = {};
  const missing = [];
  names.forEach((raw, index) => {
    const name = raw.replace(/\?$/, "");
    args[name] = positionals[index];
    if (positionals[index] === undefined && !raw.endsWith("?"))
      missing.push(name);
  });
  const unused = [...extras, ...positionals.slice(names.length)];
  if (options.help)
    return args;
  for (const [name, option] of Object.entries(own))
    if (option.required && options[name] === undefined)
      missing.push(`--${name}`);
  if (missing.length)
    throw new UsageError(`the following arguments are required: ${missing.join(", ")}`);
  if (unused.length)
    throw new UsageError(`unrecognized arguments: ${unused.join(" ")}`);
  return args;
}
function parsePyInt(text, name) {
  if (/^[0-9]{1,15}$/.test(text))
    return Number(text);
  const body = pyStrip(text);
  const match = /^([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)$/u.exec(body);
  if (!match)
    throw new UsageError(`argument --${name}: invalid int value: ${pyRepr(text)}`);
  let value = 0;
  for (const ch of match[2].replaceAll("_", ""))
    value = value * 10 + unicodeDigitValue(ch);
  return match[1] === "-" ? -value : value;
}
function unicodeDigitValue(ch) {
  const code = ch.codePointAt(0);
  if (code >= 120782 && code <= 120831)
    return (code - 120782) % 10;
  let zero = code;
  while (zero > code - 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1)))
    zero--;
  return code - zero;
}
function parsePyFloat(text, name) {
  const body = pyStrip(text).replaceAll(/(?<=\d)_(?=\d)/g, "");
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(body);
  const value = special ? special[2].toLowerCase() === "nan" ? Number.NaN : special[1] === "-" ? -Infinity : Infinity : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(body) ? Number(body) : undefined;
  if (value === undefined)
    throw new UsageError(`argument --${name}: invalid float value: ${pyRepr(text)}`);
  return value;
}
function formatHelp(registry, version, command) {
  if (!command) {
    const rows = [...registry.commands.values()].map(({ spec, origin }) => `  ${spec.name.padEnd(10)} ${spec.description}${origin.plugin && origin.plugin !== "protocol" ? ` (${origin.plugin})` : ""}`);
    return [`acp/${version}`, "", "Usage: acp <command> [options]", "", "Commands:", ...rows, "", "Run `acp <command> --help` for its options.", ""].join(`
`);
  }
  const args = (command.args ?? []).map((a) => a.endsWith("?") ? `[${a.slice(0, -1)}]` : `<${a}>`).join(" ");
  const optionRows = Object.entries({ ...command.options ?? {}, ...GLOBAL_OPTIONS }).map(([name, option]) => {
    const flag = option.type === "string" ? `--${name} <${option.valueName ?? name}>` : `--${name}`;
    return `  ${flag.padEnd(38)} ${option.description}${option.required ? " (required)" : ""}`;
  });
  return [`acp/${version}`, "", `Usage: acp ${command.name}${args ? ` ${args}` : ""} [options]`, "", command.description, "", "Options:", ...optionRows, ""].join(`
`);
}
function commandWord(argv) {
  for (let i = 0;i < argv.length; i++) {
    const token = argv[i];
    if (token === "--plugin")
      i++;
    else if (!token.startsWith("-"))
      return { index: i, word: token };
  }
  return { index: -1 };
}
function parsePartial(argv) {
  const plugins = [];
  let folder;
  let root;
  for (let i = 0;i < argv.length; i++) {
    const token = argv[i];
    const [name, inline] = token.startsWith("--") && token.includes("=") ? [token.slice(0, token.indexOf("=")), token.slice(token.indexOf("=") + 1)] : [token, undefined];
    const value = inline ?? argv[i + 1];
    if ((name === "--plugin" || name === "--folder" || name === "--root") && value !== undefined) {
      if (name === "--plugin")
        plugins.push(value);
      else if (name === "--root")
        root = value;
      else
        folder = value;
      if (inline === undefined)
        i++;
    }
  }
  return { plugins, config: !argv.includes("--no-config"), folder, root };
}
function checkOptionValues(spec, options) {
  const known = { ...spec.options, ...GLOBAL_OPTIONS };
  const missing = [];
  for (const [name, value] of Object.entries(options)) {
    const option = Object.hasOwn(known, name) ? known[name] : undefined;
    if (!option)
      throw new UsageError(`unrecognized arguments: --${name}`);
    if (value === undefined)
      continue;
    const ok = option.type === "boolean" ? typeof value === "boolean" : option.multiple ? Array.isArray(value) && value.every((v) => typeof v === "string") : typeof value === "string";
    if (!ok)
      throw new UsageError(`argument --${name}: expected ${option.type === "boolean" ? "a flag (true or false)" : option.multiple ? "a list of strings" : "one argument"}`);
    for (const item of typeof value === "string" ? [value] : Array.isArray(value) ? value : []) {
      if (option.choices && !option.choices.includes(item))
        throw new UsageError(`argument --${name}: invalid choice: ${pyRepr(item)} (choose from ${option.choices.map((c) => pyRepr(c)).join(", ")})`);
    }
  }
  for (const [name, option] of Object.entries(spec.options ?? {}))
    if (option.required && options[name] === undefined)
      missing.push(`--${name}`);
  if (missing.length)
    throw new UsageError(`the following arguments are required: ${missing.join(", ")}`);
}

// runtime/validate-checkpoint.ts
const nodePath4 = __acpRequire("node:path");

// runtime/checkpoint.ts
const nodePath3 = __acpRequire("node:path");

// runtime/files.ts
const nodePath2 = __acpRequire("node:path");
init_util();
var MiB = 1 << 20;
var READ_LIMITS = { protocol: 16 * MiB, log: 512 * MiB, document: 64 * MiB, checkpoint: 256 * MiB };
var LOCK_MAX_BYTES = 64 * 1024;
async function readCapped(host, path, maxBytes, name) {
  try {
    return await host.fs.readFile(path, { maxBytes });
  } catch (error) {
    throw cappedReadError(error, maxBytes, name);
  }
}
async function openCapped(host, path, maxBytes, name) {
  if (!host.fs.openRead) {
    const bytes = await readCapped(host, path, maxBytes, name);
    return { size: bytes.length, read: async (position, length) => bytes.subarray(position, position + length), close: async () => {
      return;
    } };
  }
  try {
    return await host.fs.openRead(path, { maxBytes });
  } catch (error) {
    throw cappedReadError(error, maxBytes, name);
  }
}
async function readWholeLines(file, start, pieceBytes, onLines, seen) {
  const pending = [];
  let position = start;
  for (let last = false;!last; ) {
    const piece = await file.read(position, pieceBytes);
    seen?.(piece, position);
    position += piece.length;
    last = piece.length === 0 || position >= file.size;
    const cut = last ? piece.length : piece.lastIndexOf(10) + 1;
    if (!cut && !last) {
      pending.push(piece.slice());
      continue;
    }
    const head = pending.length ? Math.min(cut, piece.indexOf(10) + 1 || cut) : 0;
    if (pending.length)
      await onLines(joinBytes([...pending.splice(0), piece.subarray(0, head)]), last && head === cut);
    if (head < cut)
      await onLines(piece.subarray(head, cut), last);
    if (cut < piece.length)
      pending.push(piece.slice(cut));
  }
  return position;
}
function cappedReadError(error, maxBytes, name) {
  if (errorCode(error) === "EFTYPE")
    return new AcpError(`${name} is not a regular file (a FIFO, device or socket); acp reads only regular files`, 2, "invalid_folder");
  if (errorCode(error) === "EFBIG")
    return new AcpError(`${name} is larger than ${maxBytes / MiB >= 1 ? `${maxBytes / MiB} MiB` : `${maxBytes / 1024} KiB`}, more than it can legitimately hold; refusing to read it`, 2, "invalid_folder");
  return error;
}
var LOCK_NAME = ".acp.lock";
var LOCK_BREAKER = ".acp.lock.break";
var LOCK_LEASE_MS = 1e4;
var LOCK_ABANDON_MS = LOCK_LEASE_MS;
var LOCK_MAX_HOLD_MS = 10 * 60000;
var LOCK_BREAKER_STALE_MS = 2000;
function lockContent(host, token, at = host.now().getTime()) {
  const id = host.identity;
  return JSON.stringify({ pid: host.pid, hostname: host.hostname, token, at, bootId: id?.bootId, pidNs: id?.pidNamespace, start: id?.startTime, leaseMs: LOCK_LEASE_MS });
}
async function readLockInfo(host, path) {
  const stat = await host.fs.stat(path);
  if (!stat)
    return;
  if (!stat.isFile)
    throw new AcpError(`${path} is not a lock file (a ${stat.isDirectory ? "directory" : "special file"}); remove it`);
  let raw = "";
  try {
    raw = new TextDecoder().decode(await readCapped(host, path, LOCK_MAX_BYTES, nodePath2.basename(path)));
  } catch (error) {
    if (errorCode(error) === "ENOENT")
      return;
    throw error;
  }
  let info;
  try {
    const parsed = JSON.parse(raw);
    if (isObject(parsed) && typeof parsed.pid === "number")
      info = parsed;
  } catch {
    info = undefined;
  }
  return { info, raw, mtimeMs: stat.mtimeMs };
}
function holderVisible(host, info) {
  if (info.hostname !== undefined && info.hostname !== host.hostname)
    return false;
  const id = host.identity;
  if (info.bootId !== undefined && info.bootId !== id?.bootId)
    return false;
  if (info.pidNs !== undefined && info.pidNs !== id?.pidNamespace)
    return false;
  if (info.leaseMs !== undefined && info.pidNs === undefined !== (id?.pidNamespace === undefined))
    return false;
  return true;
}
function isLockAbandoned(host, lock, abandonMs = LOCK_ABANDON_MS) {
  const age = host.now().getTime() - lock.mtimeMs;
  if (!lock.info)
    return age > Math.min(1000, abandonMs);
  const lease = Math.min(abandonMs, typeof lock.info.leaseMs === "number" && lock.info.leaseMs > 0 ? lock.info.leaseMs : abandonMs);
  if (!holderVisible(host, lock.info))
    return age > lease;
  const alive = host.isProcessAlive(lock.info.pid);
  if (alive === false)
    return true;
  if (alive === undefined)
    return age > lease;
  const start = typeof lock.info.start === "string" ? host.processStartTime?.(lock.info.pid) : undefined;
  if (start !== undefined)
    return start !== lock.info.start || age > LOCK_MAX_HOLD_MS;
  return age > lease;
}
async function inspectFolderLock(host, folder) {
  const lock = await readLockInfo(host, nodePath2.join(folder, LOCK_NAME));
  const breaker = await readLockInfo(host, nodePath2.join(folder, LOCK_BREAKER)).catch(() => {
    return;
  });
  const now = host.now().getTime();
  const state = { status: "free" };
  if (breaker)
    state.breaker = { ageMs: now - breaker.mtimeMs, abandoned: isLockAbandoned(host, breaker, LOCK_BREAKER_STALE_MS), raw: breaker.raw };
  if (!lock)
    return state;
  state.status = isLockAbandoned(host, lock) ? "abandoned" : "held";
  state.ageMs = now - lock.mtimeMs;
  state.raw = lock.raw;
  if (lock.info) {
    state.pid = lock.info.pid;
    if (typeof lock.info.hostname === "string")
      state.hostname = lock.info.hostname;
    if (holderVisible(host, lock.info))
      state.alive = host.isProcessAlive(lock.info.pid);
  }
  return state;
}
function describeHolder(host, lock) {
  if (!lock)
    return "a holder that just left";
  if (!lock.info)
    return `a torn lock file (${JSON.stringify(lock.raw.slice(0, 80))})`;
  const info = lock.info;
  const where = info.hostname ? ` on ${info.hostname}` : "";
  const hidden = holderVisible(host, info) ? "" : " (another machine, boot or PID namespace: judged by its lease)";
  const age = Math.max(0, Math.round((host.now().getTime() - (typeof info.at === "number" ? info.at : lock.mtimeMs)) / 1000));
  return `pid ${info.pid}${where}${hidden}, held ${age} s`;
}
async function withFolderLock(host, folder, fn, options = {}) {
  const lockPath = nodePath2.join(folder, LOCK_NAME);
  if (options.held) {
    const current = await readLockInfo(host, lockPath);
    if (options.held.folder !== folder || current?.info?.token !== options.held.token)
      throw new AcpError(`the lock on ${folder} passed in is not held`);
    return fn(options.held);
  }
  const token = `${host.pid}-${Math.random().toString(36).slice(2)}`;
  const started = host.now().getTime();
  const deadline = started + (options.timeoutMs ?? 60000);
  let told = false;
  const leaveQueue = await localTurn(host, lockPath, deadline, async () => {
    told = true;
    options.onWait?.(`waiting for the lock on ${folder}: held by ${describeHolder(host, await readLockInfo(host, lockPath).catch(() => {
      return;
    }))}`);
  });
  try {
    return await holdFolderLock(host, folder, fn, { ...options, onWait: told ? undefined : options.onWait, token, started, deadline });
  } finally {
    leaveQueue();
  }
}
var localQueues = new WeakMap;
async function localTurn(host, lockPath, deadline, tell) {
  let queues = localQueues.get(host);
  if (!queues)
    localQueues.set(host, queues = new Map);
  const before = queues.get(lockPath);
  let release;
  const mine = new Promise((resolve) => release = resolve);
  const tail = (before ?? Promise.resolve()).then(() => mine);
  queues.set(lockPath, tail);
  const leave = () => {
    release();
    if (queues.get(lockPath) === tail)
      queues.delete(lockPath);
  };
  if (before) {
    const waitUntil = async (until) => {
      let timer;
      const expired = new Promise((resolve) => timer = setTimeout(() => resolve(false), Math.max(0, until - host.now().getTime())));
      return Promise.race([before.then(() => true), expired]).finally(() => clearTimeout(timer));
    };
    if (!await waitUntil(Math.min(deadline, host.now().getTime() + 1000))) {
      await tell().catch(() => {
        return;
      });
      await waitUntil(deadline);
    }
  }
  return leave;
}
async function holdFolderLock(host, folder, fn, options) {
  const { token, started, deadline } = options;
  const lockPath = nodePath2.join(folder, LOCK_NAME);
  let told = !options.onWait;
  let delay = 1;
  for (;; ) {
    try {
      await host.fs.writeFile(lockPath, lockContent(host, token), { exclusive: true });
      break;
    } catch (error) {
      if (errorCode(error) !== "EEXIST") {
        if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR")
          throw new AcpError(`missing protocol.json in ${folder}`, 2, "invalid_folder");
        if (["EACCES", "EPERM", "EROFS"].includes(errorCode(error) ?? "")) {
          throw new AcpError(`cannot write in ${folder} (${errorCode(error)}): appending needs write access to the folder`);
        }
        throw error;
      }
    }
    const lock = await readLockInfo(host, lockPath);
    if (lock && isLockAbandoned(host, lock))
      await breakLock(host, folder, lock.raw);
    else {
      const now = host.now().getTime();
      if (now > deadline)
        throw new AcpError(`timed out waiting for the lock on ${folder} after ${Math.round((now - started) / 1000)} s (held by ${describeHolder(host, lock)})`, 2, "lock_timeout");
      if (!told && now - started >= 1000) {
        told = true;
        options.onWait(`waiting for the lock on ${folder}: held by ${describeHolder(host, lock)}`);
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 25);
    }
  }
  const lease = renewLease(host, lockPath, token);
  try {
    return await fn({ folder, token });
  } finally {
    await lease.stop();
    const current = await readLockInfo(host, lockPath).catch(() => {
      return;
    });
    if (current?.info?.token === token)
      await host.fs.remove(lockPath);
  }
}
function renewLease(host, lockPath, token) {
  let pending = Promise.resolve();
  let stopped = false;
  let timer;
  const renew = () => {
    pending = pending.then(async () => {
      if (stopped)
        return;
      const current = await readLockInfo(host, lockPath).catch(() => {
        return;
      });
      if (current?.info?.token === token && !stopped)
        await writeFileAtomic(host, lockPath, lockContent(host, token, current.info.at));
    }).catch(() => {
      return;
    });
  };
  const later = globalThis.setImmediate ?? ((fn) => setTimeout(fn, 0));
  const cancel = globalThis.clearImmediate ?? clearTimeout;
  const arming = later(() => {
    if (!stopped)
      timer = setInterval(renew, LOCK_LEASE_MS / 4);
  });
  return {
    async stop() {
      stopped = true;
      cancel(arming);
      clearInterval(timer);
      await pending;
    }
  };
}
async function breakLock(host, folder, staleRaw) {
  const lockPath = nodePath2.join(folder, LOCK_NAME);
  const breakerPath = nodePath2.join(folder, LOCK_BREAKER);
  const mine = lockContent(host, Math.random().toString(36).slice(2));
  try {
    await host.fs.writeFile(breakerPath, mine, { exclusive: true });
  } catch (error) {
    if (errorCode(error) !== "EEXIST")
      throw error;
    const breaker = await readLockInfo(host, breakerPath).catch(() => {
      return;
    });
    if (breaker && isLockAbandoned(host, breaker, LOCK_BREAKER_STALE_MS))
      await removeIfUnchanged(host, breakerPath, breaker.raw);
    await sleep(2);
    return;
  }
  try {
    const again = await readLockInfo(host, lockPath);
    if (again && again.raw === staleRaw)
      await host.fs.remove(lockPath);
  } finally {
    await host.fs.remove(breakerPath);
  }
}
async function removeIfUnchanged(host, path, raw) {
  const aside = `${path}.${host.pid}.${Math.random().toString(36).slice(2)}.stale`;
  try {
    await host.fs.rename(path, aside);
  } catch (error) {
    if (errorCode(error) === "ENOENT")
      return;
    throw error;
  }
  const moved = await readLockInfo(host, aside).catch(() => {
    return;
  });
  if (moved && moved.raw !== raw)
    await host.fs.writeFile(path, moved.raw, { exclusive: true }).catch(() => {
      return;
    });
  await host.fs.remove(aside);
}
async function writeFileAtomic(host, path, text) {
  const temp = `${nodePath2.join(nodePath2.dirname(path), `.${nodePath2.basename(path)}.${host.pid}.${Math.random().toString(36).slice(2)}.tmp`)}`;
  try {
    await host.fs.writeFile(temp, text, { exclusive: true, temporary: true });
    await host.fs.rename(temp, path);
  } catch (error) {
    await host.fs.remove(temp).catch(() => {
      return;
    });
    throw error;
  }
}
function logDecodeError(bytes, error) {
  const end = Math.max(bytes.lastIndexOf(10), bytes.lastIndexOf(13)) + 1;
  let headValid = false;
  try {
    headValid = end < bytes.length && new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, end)) !== undefined;
  } catch {
    headValid = false;
  }
  if (headValid)
    return new AcpError("events.jsonl is not valid UTF-8 (the last line is incomplete: a writer was interrupted; `acp doctor --fix` repairs it)");
  return error;
}

// runtime/checkpoint.ts
init_util();
var CHECKPOINT_NAME = ".acp.checkpoint.json";
var CHECKPOINT_VERSION = 3;
var SMALL_MAC_BYTES = 4096;
function checkpointMac(key, folder, body) {
  return hmacHex(key, `acp checkpoint
${folder}
${JSON.stringify(body)}`);
}
async function hmacHex(key, text) {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= SMALL_MAC_BYTES)
    return toHex(hmacSha256(key, bytes));
  const node = await nodeCrypto();
  if (node)
    return node.createHmac("sha256", key).update(bytes).digest("hex");
  const hmac = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", hmac, bytes)));
}
function seqsAreLineNumbers(facts) {
  const [range, ...more] = facts.seqs;
  return facts.count > 0 && facts.maxSeq === facts.count && !more.length && range?.[0] === 1 && range[1] === facts.count;
}
function isLastLineOf(tail, seq) {
  try {
    const event = JSON.parse(tail);
    return tail.endsWith(`
`) && tail.indexOf(`
`) === tail.length - 1 && isObject(event) && event.seq === seq;
  } catch {
    return false;
  }
}
function hasSeq(ranges, seq) {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = lo + hi >> 1;
    const [first, last] = ranges[mid];
    if (seq < first)
      hi = mid - 1;
    else if (seq > last)
      lo = mid + 1;
    else
      return true;
  }
  return false;
}
function addSeq(ranges, seq) {
  if (hasSeq(ranges, seq))
    return ranges;
  const out = ranges.map((r) => [r[0], r[1]]);
  const last = out.at(-1);
  if (last && last[1] + 1 === seq)
    last[1] = seq;
  else if (!last || last[1] < seq)
    out.push([seq, seq]);
  else {
    out.push([seq, seq]);
    out.sort((a, b) => a[0] - b[0]);
  }
  return out;
}
function logFacts(events, state) {
  const gateSeqs = events.filter((e) => e.event === "decision_accepted").map((e) => pyStr(e.seq));
  if (seqsAreIndexes(events))
    return { count: events.length, maxSeq: events.length, seqs: events.length ? [[1, events.length]] : [], gateSeqs, state: stripErrors(state) };
  if (events.some((e) => typeof e.seq === "number" && !Number.isInteger(e.seq)))
    return;
  const ints = events.map((e) => e.seq).filter(isInt);
  ints.sort((a, b) => a - b);
  const seqs = [];
  for (const seq of ints) {
    const last = seqs.at(-1);
    if (last && seq <= last[1] + 1)
      last[1] = Math.max(last[1], seq);
    else
      seqs.push([seq, seq]);
  }
  return { count: events.length, maxSeq: ints.reduce((max, seq) => Math.max(max, seq), 0), seqs, gateSeqs, state: stripErrors(state) };
}
function seqsAreIndexes(events) {
  for (let i = 0;i < events.length; i++)
    if (events[i].seq !== i + 1)
      return false;
  return true;
}
function stripErrors(state) {
  const { errors: _errors, ...rest } = state;
  return structuredClone(rest);
}
function checkpointState(facts, gates, empty) {
  const errors = gates.length ? facts.gateSeqs.flatMap((seq) => gates.map((message) => `seq ${seq}: ${message}`)) : [];
  return { ...empty, ...structuredClone(facts.state), errors };
}
async function loadCheckpoint(host, folder, participants, keys) {
  const key = await host.checkpointKey?.();
  if (!key)
    return;
  let cp;
  try {
    cp = JSON.parse(new TextDecoder().decode(await readCapped(host, nodePath3.join(folder, CHECKPOINT_NAME), READ_LIMITS.checkpoint, CHECKPOINT_NAME)));
  } catch {
    return;
  }
  if (!isObject(cp) || cp.version !== CHECKPOINT_VERSION || typeof cp.mac !== "string")
    return;
  const { mac, ...body } = cp;
  if (!sameText(mac, await checkpointMac(key, folder, body)))
    return;
  if (!sameList(cp.participants, participants) || !isObject(cp.state) || !sameList(Object.keys(cp.state).sort(), [...keys]))
    return;
  const validShape = isObject(cp.log) && typeof cp.log.tail === "string" && isObject(cp.state) && isInt(cp.count) && isInt(cp.maxSeq) && Array.isArray(cp.seqs) && cp.seqs.every((r) => Array.isArray(r) && r.length === 2 && isInt(r[0]) && isInt(r[1])) && Array.isArray(cp.gateSeqs) && cp.gateSeqs.every((g) => typeof g === "string");
  if (!validShape || !seqsAreLineNumbers(cp) || !isLastLineOf(cp.log.tail, cp.maxSeq))
    return;
  return await fingerprintMatches(host, folder, cp.log) ? cp : undefined;
}
function sameText(a, b) {
  let diff = a.length ^ b.length;
  for (let i = 0;i < Math.min(a.length, b.length); i++)
    diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
async function fingerprintMatches(host, folder, log) {
  const tail = new TextEncoder().encode(log.tail);
  const want = Math.min(log.size, tail.length + 1);
  const logPath = nodePath3.join(folder, "events.jsonl");
  let stat;
  let bytes;
  if (host.fs.readTail) {
    const read = await host.fs.readTail(logPath, want);
    if (!read)
      return false;
    ({ stat, bytes } = read);
  } else {
    stat = await host.fs.stat(logPath);
    if (!stat || stat.size !== log.size)
      return false;
    bytes = (await readCapped(host, logPath, READ_LIMITS.log, "events.jsonl")).subarray(-want);
  }
  if (stat?.ino === undefined || stat.ctimeMs === undefined)
    return false;
  if (stat.size !== log.size || stat.mtimeMs !== log.mtimeMs || stat.ctimeMs !== log.ctimeMs || stat.ino !== log.ino)
    return false;
  if (bytes.length !== want || want > tail.length && bytes[0] !== 10)
    return false;
  const end = bytes.subarray(want - tail.length);
  return end.every((b, i) => b === tail[i]);
}
async function saveCheckpoint(host, folder, participants, facts, line, expectedSize) {
  const path = nodePath3.join(folder, CHECKPOINT_NAME);
  try {
    const key = await host.checkpointKey?.();
    const stat = await host.fs.stat(nodePath3.join(folder, "events.jsonl"));
    if (!key || !seqsAreLineNumbers(facts) || !stat || stat.size !== expectedSize || stat.ino === undefined || stat.ctimeMs === undefined) {
      await host.fs.remove(path);
      return;
    }
    const body = {
      version: CHECKPOINT_VERSION,
      participants,
      ...facts,
      log: { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino, tail: line }
    };
    await host.fs.writeFile(path, `${JSON.stringify({ ...body, mac: await checkpointMac(key, folder, body) })}
`);
  } catch {
    await host.fs.remove(path).catch(() => {
      return;
    });
  }
}
function duplicateSeqError(events) {
  if (seqsAreIndexes(events))
    return;
  const seen = new Set;
  let twice;
  for (const event of events) {
    if (!isInt(event.seq))
      continue;
    if (seen.has(event.seq)) {
      twice = event.seq;
      break;
    }
    seen.add(event.seq);
  }
  if (twice === undefined)
    return;
  const index = events.findIndex((event, i) => event.seq !== i + 1);
  const validator = `events.jsonl: expected seq ${index + 1}, found ${pyStr(events[index].seq)}`;
  return `${validator} (seq ${twice} occurs more than once: another tool appended without the folder lock; acp appends nothing more to this log until it is repaired)`;
}

// runtime/validate-checkpoint.ts
init_util();
var VERSION = 2;
var MIN_LOG_BYTES = 64 * 1024;
var PIECE_BYTES = 1 << 20;
async function validateCheckpointPath(host, folder) {
  const dir = await host.cacheDir?.();
  const crypto2 = await nodeCrypto();
  return dir && crypto2 && nodePath4.join(dir, `${crypto2.createHash("sha256").update(folder).digest("hex")}.json`);
}
function wellFormed(stored) {
  const { inputs, log, pass, review } = stored;
  if (review !== undefined && !(isObject(review) && Array.isArray(review.seqs) && Array.isArray(review.participants)))
    return false;
  const lists = [stored.scanErrors, pass?.shapeErrors, pass?.stateErrors, pass?.reviews?.seqs, pass?.reviews?.from, pass?.items, pass?.frozenSupporting, pass?.eventNames];
  return isObject(inputs) && isObject(log) && isInt(log.lines) && typeof log.sha256 === "string" && isObject(pass) && isObject(pass.state) && isInt(pass.count) && lists.every(Array.isArray);
}
function savePass(pass) {
  if (pass.seenSeqs || pass.lastAt !== undefined && !Number.isFinite(pass.lastAt))
    return;
  const reviews = { seqs: [], from: [] };
  for (const event of pass.reviewEvents) {
    if (!isInt(event.seq) || typeof event.from !== "string")
      return;
    reviews.seqs.push(event.seq);
    reviews.from.push(event.from);
  }
  const items = [];
  for (const { event, docErrors, freeze } of pass.deliverableItems) {
    if (!isInt(event.seq) || typeof event.doc !== "string")
      return;
    items.push({ seq: event.seq, doc: event.doc, ...typeof event.sha256 === "string" ? { sha256: event.sha256 } : {}, docErrors, freeze });
  }
  const { errors, ...state } = pass.state;
  if (!survivesJson(state))
    return;
  return {
    count: pass.count,
    lastAt: pass.lastAt ?? null,
    shapeErrors: pass.shapeErrors,
    stateErrors: errors,
    state,
    reviews,
    items,
    primaryFreezes: pass.primaryFreezes,
    frozenSupporting: [...pass.frozenSupporting],
    eventNames: [...pass.eventNames].filter((name) => typeof name === "string"),
    anyPrimaryFreeze: pass.anyPrimaryFreeze
  };
}
function survivesJson(value) {
  if (value === undefined)
    return false;
  if (typeof value === "number")
    return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value))
    return value.every(survivesJson);
  return isObject(value) ? Object.values(value).every(survivesJson) : true;
}
function restorePass(pass, saved) {
  const { seqs, from } = saved.reviews;
  const reviewSeqs = new Set(seqs);
  for (const seq of pass.headingSeqs)
    if (seq >= 1 && seq <= saved.count && !reviewSeqs.has(seq))
      return false;
  for (let i = 0;i < seqs.length; i++) {
    const event = { seq: seqs[i], from: from[i], event: "review_submitted" };
    pass.reviewEvents.push(event);
    if (pass.headingSeqs.has(seqs[i]))
      pass.firstBySeq.set(seqs[i], event);
  }
  pass.shapeErrors.push(...saved.shapeErrors);
  for (const { seq, doc, sha256, docErrors, freeze } of saved.items)
    pass.deliverableItems.push({ event: { seq, doc, sha256 }, docErrors, freeze });
  pass.primaryFreezes = saved.primaryFreezes;
  for (const doc of saved.frozenSupporting)
    pass.frozenSupporting.add(doc);
  Object.assign(pass.state, structuredClone(saved.state), { errors: [...saved.stateErrors] });
  for (const name of saved.eventNames)
    pass.eventNames.add(name);
  pass.anyPrimaryFreeze = saved.anyPrimaryFreeze;
  pass.count = saved.count;
  pass.lastAt = saved.lastAt ?? undefined;
  return true;
}

class ValidateCheckpoint {
  #host;
  #folder;
  #path;
  #key;
  #inputs;
  #stored;
  #review;
  #crypto;
  #hash;
  #hashed = 0;
  #lastByte = -1;
  #size = 0;
  #current = false;
  constructor(host, folder, path, key, inputs, crypto2) {
    this.#crypto = crypto2;
    this.#host = host;
    this.#folder = folder;
    this.#path = path;
    this.#key = key;
    this.#inputs = inputs;
  }
  static async open(host, folder, inputs) {
    const log = await host.fs.stat(nodePath4.join(folder, "events.jsonl")).catch(() => null);
    if (!log || log.size < MIN_LOG_BYTES)
      return;
    const key = await host.checkpointKey?.();
    const path = key && await validateCheckpointPath(host, folder);
    const crypto2 = await nodeCrypto();
    if (!key || !path || !crypto2)
      return;
    const checkpoint = new ValidateCheckpoint(host, folder, path, key, inputs, crypto2);
    checkpoint.#stored = await checkpoint.#load();
    return checkpoint;
  }
  async reviewHeadings(text) {
    const sha256 = this.#crypto.createHash("sha256").update(text).digest("hex");
    const stored = this.#stored?.review;
    if (stored?.sha256 === sha256) {
      this.#review = stored;
      const headings = [];
      for (let i = 0;i < stored.seqs.length; i++)
        headings.push({ participant: stored.participants[i], seq: stored.seqs[i] });
      return headings;
    }
    const headings = reviewHeadings(text);
    const exact = headings.every((h) => Number.isFinite(h.seq));
    this.#review = exact ? { sha256, participants: headings.map((h) => h.participant), seqs: headings.map((h) => h.seq) } : undefined;
    return headings;
  }
  #mac(json) {
    return hmacHex(this.#key, `acp validate checkpoint
${this.#folder}
${json}`);
  }
  async#load() {
    let stored;
    try {
      const text = new TextDecoder().decode(await this.#host.fs.readFile(this.#path, { maxBytes: READ_LIMITS.checkpoint }));
      const newline = text.indexOf(`
`);
      const json = text.slice(newline + 1, text.endsWith(`
`) ? -1 : undefined);
      if (newline < 0 || !sameText(text.slice(0, newline), await this.#mac(json)))
        return;
      stored = JSON.parse(json);
    } catch {
      return;
    }
    const inputs = this.#inputs;
    const same = isObject(stored) && stored.version === VERSION && wellFormed(stored) && stored.inputs.acp === inputs.acp && sameList(stored.inputs.participants, inputs.participants) && stored.inputs.primary === inputs.primary && sameList(stored.inputs.supporting, inputs.supporting) && (stored.inputs.gates === null || sameList(stored.inputs.gates, inputs.gates));
    return same ? stored : undefined;
  }
  async resume(file, pass) {
    const hash = this.#hash = this.#crypto.createHash("sha256");
    this.#size = file.size;
    const seen = (piece, position) => {
      const skip = this.#hashed - position;
      if (skip >= piece.length || skip < 0)
        return;
      hash.update(skip ? piece.subarray(skip) : piece);
      this.#hashed = position + piece.length;
      if (piece.length)
        this.#lastByte = piece[piece.length - 1];
    };
    const start = { offset: 0, lines: 0, errors: [], seen };
    const stored = this.#stored;
    const offset = stored?.log.offset;
    if (!stored || !isInt(offset) || offset <= 0 || offset > file.size)
      return start;
    while (this.#hashed < offset) {
      const piece = await file.read(this.#hashed, Math.min(PIECE_BYTES, offset - this.#hashed));
      if (!piece.length)
        return start;
      seen(piece, this.#hashed);
    }
    if (this.#lastByte !== 10 || hash.copy().digest("hex") !== stored.log.sha256 || !restorePass(pass, stored.pass))
      return start;
    this.#current = offset === file.size;
    return { offset, lines: stored.log.lines, errors: [...stored.scanErrors], seen };
  }
  async save(lines, scanErrors, pass) {
    const size = this.#hashed;
    if (this.#current && this.#review === this.#stored?.review || !this.#hash || size !== this.#size || size < MIN_LOG_BYTES || this.#lastByte !== 10)
      return;
    const saved = savePass(pass);
    if (!saved)
      return;
    try {
      const sha256 = this.#hash.digest("hex");
      const { gates, ...inputs } = this.#inputs;
      const stored = { version: VERSION, review: this.#review, inputs: { ...inputs, gates: pass.eventNames.has("decision_accepted") ? gates : null }, log: { offset: size, sha256, lines }, scanErrors, pass: saved };
      const json = JSON.stringify(stored);
      const temporary = `${this.#path}.${this.#host.pid}.tmp`;
      await this.#host.fs.mkdir(nodePath4.dirname(this.#path));
      await this.#host.fs.writeFile(temporary, `${await this.#mac(json)}
${json}
`);
      await this.#host.fs.rename(temporary, this.#path);
    } catch {}
  }
}
// runtime/documents.ts
var CONCLUSION_SECTIONS = [
  "Decision Outcome",
  "Rationale",
  "Deliverable Receipt",
  "Accepted Decisions Summary",
  "Readiness Result",
  "Assumptions",
  "Deferred Follow-ups",
  "Implementation Blockers",
  "Next Action"
];
var CONCLUSION_OUTCOMES = new Set(["proceed", "do_not_proceed", "defer", "blocked"]);
var STATUS_RE = new RegExp(`${BOL}Status:${S}*(Draft|In Review|Frozen)${S}*${EOL}`);
var NEXT_H2_RE = new RegExp(`${BOL}## `);
function sectionMatch(text, section) {
  return new RegExp(`${BOL}##${S}+${escapeRegExp(section)}${S}*${EOL}`, "u").exec(text);
}
var markdown = {
  status(text) {
    return STATUS_RE.exec(text)?.[1];
  },
  hasSection(text, section) {
    return sectionMatch(text, section) !== null;
  },
  sectionBody(text, section) {
    const match = sectionMatch(text, section);
    if (!match)
      return;
    const rest = text.slice(match.index + match[0].length);
    const next = NEXT_H2_RE.exec(rest);
    return next ? rest.slice(0, next.index) : rest;
  },
  strip: pyStrip
};
var READINESS_ITEM_RE = new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[([A-Za-z_]+)\\]${S}*(${DOT}*)${EOL}`, "g");
var READY_RE = new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[[xX]\\]${S}*Ready to implement`);
function readReadiness(text) {
  const blocking = [];
  const unresolved = [];
  const deferredWithoutReason = [];
  for (const match of text.matchAll(READINESS_ITEM_RE)) {
    const status = match[1];
    const body = match[2];
    if (status === "blocking")
      blocking.push(body);
    if (status === "unresolved")
      unresolved.push(body);
    else if ((status === "resolved" || status === "deferred_nonblocking" || status === "blocking") && body.includes("TBD"))
      unresolved.push(body);
    if (status === "deferred_nonblocking" && !body.toLowerCase().includes("reason:"))
      deferredWithoutReason.push(body);
  }
  const anyChecked = /\[[xX]\]/.test(text);
  return {
    blocking,
    unresolved,
    deferredWithoutReason,
    readyToImplement: READY_RE.test(text),
    isGateChecked: (gate) => anyChecked && text.includes(gate) && new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[[xX]\\]${S}*${escapeRegExp(gate)}${S}*${EOL}`, "u").test(text)
  };
}
function decisionGateErrors(readiness) {
  return readinessGateErrors(readiness, "before decision_accepted", false);
}
function readinessGateErrors(readiness, when, ready) {
  const errors = [];
  if (readiness.blocking.length)
    errors.push(`blocking readiness items must be cleared ${when}`);
  if (readiness.unresolved.length)
    errors.push(`unresolved readiness questions must be classified ${when}`);
  if (readiness.deferredWithoutReason.length)
    errors.push(`deferred_nonblocking readiness items require a reason${when === "before decision_accepted" ? ` ${when}` : ""}`);
  if (ready && !readiness.readyToImplement)
    errors.push(`readiness.md must check 'Ready to implement' ${when}`);
  return errors;
}
var CONCLUSION_HEADING_RE = new RegExp(`${BOL}##${S}+([^${PY_SPACE}](?:${DOT}*[^${PY_SPACE}])?)${S}*${EOL}`, "g");
var OUTCOME_RE = new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[([A-Za-z_]+)\\]${S}+(${DOT}+)${EOL}`, "g");
var PLACEHOLDER_RE = /(?<![\p{L}\p{N}_])(?:tbd|todo|unresolved|\u5f85\u5b9a)(?![\p{L}\p{N}_])/iu;
function conclusionErrors(text, ref) {
  const errors = [];
  const headings = new Set;
  for (const match of text.matchAll(CONCLUSION_HEADING_RE))
    headings.add(match[1]);
  const missing = CONCLUSION_SECTIONS.filter((section) => !headings.has(section));
  if (missing.length)
    errors.push(`conclusion.md is missing required sections: ${missing.join(", ")}`);
  const outcomes = [...text.matchAll(OUTCOME_RE)].map((m) => m[1]).filter((status) => CONCLUSION_OUTCOMES.has(status));
  if (outcomes.length !== 1)
    errors.push("conclusion.md must declare exactly one final outcome");
  else if (outcomes[0] === "blocked")
    errors.push("conclusion.md outcome cannot be completed while blocked");
  if (PLACEHOLDER_RE.test(text))
    errors.push("conclusion.md must not contain unresolved placeholders before completed");
  if (ref !== undefined && !text.includes(ref))
    errors.push("conclusion.md must reference the primary deliverable");
  return errors;
}
var DECISION_ID_RE = /^(D[0-9]+)\.[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+[^\n]+/u;
function checkDecisions(text, refs, errors) {
  if (text === undefined) {
    errors.push("missing decisions.md");
    return;
  }
  const parts = text.split(new RegExp(`${BOL}### `));
  parts.shift();
  const seen = new Set;
  parts.forEach((block, index) => {
    const position = `D${index + 1}`;
    const heading = block.split(`
`, 1)[0];
    const match = DECISION_ID_RE.exec(heading);
    const id = match ? match[1] : position;
    if (!match)
      errors.push("accepted decision headings must use D<number>");
    else {
      if (seen.has(id))
        errors.push(`duplicate accepted decision id ${id}`);
      seen.add(id);
      if (id !== position)
        errors.push("accepted decision ids must be sequential");
    }
    if (!block.includes("- Decision:"))
      errors.push(`accepted decision ${id} requires Decision`);
    if (!block.includes("- Reflected in:"))
      errors.push(`accepted decision ${id} requires Reflected in`);
    else if (!refs.some((ref) => block.includes(ref)))
      errors.push(`accepted decision ${id} Reflected in must point to declared deliverable`);
  });
}
function initialDocuments(facts) {
  const { objective, owner, participants, ref, title: typeTitle } = facts;
  const gateLines = facts.gates.map((gate) => `- [ ] ${gate}`).join(`
`);
  const readme = `# ACP collaboration

Objective: ${objective}

Participants: ${participants.join(", ")} (proposal owner: ${owner}).

Primary deliverable: \`${ref}\`.

This folder follows the Agent Collaboration Protocol, schema v2. State lives in
\`protocol.json\`; \`events.jsonl\` is the append-only event log. Check whose turn it is
with \`acp next --folder . --participant <id>\`, append events with \`acp append\`, and
validate with \`acp validate --folder .\`.
`;
  return Object.fromEntries([
    ["README.md", readme],
    ["proposal.md", `# Proposal

Objective: ${objective}

Owner: ${owner}

Primary deliverable: \`${ref}\`

## Summary

Describe the proposal here, then append \`proposal_submitted\`.
`],
    [
      "review.md",
      `# Review

Each review starts with a heading \`## <UTC time> - <participant> - seq <event seq>\` naming the review_submitted event it belongs to.

<!--
Template:

## 2026-01-01T00:00:00Z - participant - seq N

Context:
- Read \`proposal.md\` after event seq \`N\`.
- Reviewed primary deliverable: \`${ref}\`
- Reviewed supporting deliverables: none.

Review Scope:
- Proposal coherence
- Primary deliverable completeness
- Accepted decision traceability
- Implementation readiness

Position:
- Accept.

Concerns:
- None.

Required Changes:
- None.

Questions:
- None.
-->
`
    ],
    [
      "decisions.md",
      `# Decisions

## Accepted Decisions

### D1. Record the primary deliverable

- Decision: the collaboration produces a ${typeTitle} at \`${ref}\`.
- Rationale: one primary deliverable keeps the outcome reviewable.
- Reflected in: \`${ref}\`
`
    ],
    [
      "readiness.md",
      `# Readiness

## Open Question Classification

- [unresolved] Which open questions block implementation? Classify each as resolved, deferred_nonblocking (with a reason:) or blocking.

## Blocking Issues

- None.

## Gates

${gateLines}

## Deliverable Snapshot

- Primary: \`${ref}\`
- SHA-256:

## Ready to Implement

- [ ] Ready to implement
`
    ],
    [
      "conclusion.md",
      `# Conclusion

## Decision Outcome

- [blocked] The collaboration has not concluded yet.

## Rationale

Written when the collaboration concludes.

## Deliverable Receipt

- Primary: \`${ref}\`
- SHA-256: recorded at freeze.

## Accepted Decisions Summary

See \`decisions.md\`.

## Readiness Result

See \`readiness.md\`.

## Assumptions

None recorded.

## Deferred Follow-ups

None recorded.

## Implementation Blockers

None recorded.

## Next Action

Finish the collaboration.
`
    ]
  ]);
}

// runtime/memory-host.ts
init_util();
const nodePath5 = __acpRequire("node:path");
function createMemoryFileSystem(options = {}) {
  const now = options.now ?? (() => Date.now());
  const nodes = new Map;
  const watchers = new Map;
  const isRoot = (p) => nodePath5.dirname(p) === p;
  const norm = (p) => {
    if (!nodePath5.isAbsolute(p))
      throw fsError("EINVAL", `path must be absolute: ${p}`);
    const n = nodePath5.normalize(p);
    return isRoot(n) ? n : n.replace(/[\\/]+$/, "");
  };
  const get = (p) => isRoot(p) ? { kind: "dir", mtimeMs: 0 } : nodes.get(p);
  const real = (path, followLast = true, hops = 0) => {
    const p = norm(path);
    if (isRoot(p))
      return p;
    const parent = real(nodePath5.dirname(p), true, hops);
    const here = nodePath5.join(parent, nodePath5.basename(p));
    const node = nodes.get(here);
    if (node?.kind !== "link" || !followLast)
      return here;
    if (hops >= 40)
      throw fsError("ELOOP", path);
    return real(nodePath5.resolve(parent, node.target), true, hops + 1);
  };
  const changed = (p) => {
    for (const dir of new Set([p, nodePath5.dirname(p)])) {
      for (const fn of [...watchers.get(dir) ?? []]) {
        try {
          fn();
        } catch {}
      }
    }
  };
  const parentDir = (p, path) => {
    const parent = get(nodePath5.dirname(p));
    if (!parent)
      throw fsError("ENOENT", path);
    if (parent.kind !== "dir")
      throw fsError("ENOTDIR", path);
  };
  const fileAt = (path) => {
    const p = real(path);
    const node = get(p);
    if (!node)
      throw fsError("ENOENT", path);
    if (node.kind !== "file")
      throw fsError("EISDIR", path);
    return { p, node };
  };
  const put = (path, data, mode) => {
    if (mode === "wx" && get(real(path, false)))
      throw fsError("EEXIST", path);
    const p = real(path);
    parentDir(p, path);
    const old = get(p);
    if (old?.kind === "dir")
      throw fsError("EISDIR", path);
    const add = typeof data === "string" ? new TextEncoder().encode(data) : data;
    const base = mode === "a" && old?.kind === "file" ? old.data : new Uint8Array;
    const next = new Uint8Array(base.length + add.length);
    next.set(base);
    next.set(add, base.length);
    nodes.set(p, { kind: "file", data: next, mtimeMs: now() });
    changed(p);
  };
  const mkdirs = (path) => {
    const p = real(path);
    const node = get(p);
    if (node) {
      if (node.kind !== "dir")
        throw fsError("EEXIST", path);
      return;
    }
    mkdirs(nodePath5.dirname(p));
    nodes.set(p, { kind: "dir", mtimeMs: now() });
    changed(p);
  };
  const inside = (key, dir) => key === dir || key.startsWith(dir.endsWith(nodePath5.sep) ? dir : dir + nodePath5.sep);
  for (const [path, text] of Object.entries(options.files ?? {})) {
    mkdirs(nodePath5.dirname(norm(path)));
    put(path, text, "w");
  }
  return {
    readFile: async (path, opts) => {
      const data = fileAt(path).node.data;
      if (opts?.maxBytes !== undefined && data.length > opts.maxBytes)
        throw fsError("EFBIG", `${path} holds ${data.length} bytes, more than ${opts.maxBytes}`);
      return data.slice();
    },
    writeFile: async (path, data, opts) => put(path, data, opts?.exclusive ? "wx" : "w"),
    appendFile: async (path, data) => put(path, data, "a"),
    rename: async (from, to) => {
      const src = real(from, false);
      const dst = real(to, false);
      const node = get(src);
      if (!node)
        throw fsError("ENOENT", from);
      parentDir(dst, to);
      if (src === dst)
        return;
      if (inside(dst, src))
        throw fsError("EINVAL", `cannot move ${from} into itself`);
      const target = get(dst);
      if (target?.kind === "dir") {
        if (node.kind !== "dir")
          throw fsError("EISDIR", to);
        if ([...nodes.keys()].some((k) => k !== dst && inside(k, dst)))
          throw fsError("ENOTEMPTY", to);
      } else if (target && node.kind === "dir")
        throw fsError("ENOTDIR", to);
      for (const [key, value] of [...nodes]) {
        if (!inside(key, src))
          continue;
        nodes.delete(key);
        nodes.set(dst + key.slice(src.length), value);
      }
      changed(src);
      changed(dst);
    },
    remove: async (path) => {
      const p = real(path, false);
      const node = get(p);
      if (!node)
        return;
      if (node.kind === "dir")
        throw fsError("EISDIR", path);
      nodes.delete(p);
      changed(p);
    },
    mkdir: async (path) => mkdirs(path),
    stat: async (path) => {
      let link;
      let target;
      try {
        link = get(real(path, false));
        target = link?.kind === "link" ? get(real(path)) : link;
      } catch (error) {
        if (errorCode(error) !== "ELOOP")
          throw error;
      }
      if (!link)
        return null;
      const size = target?.kind === "file" ? target.data.length : 0;
      return { isFile: target?.kind === "file", isDirectory: target?.kind === "dir", isSymlink: link.kind === "link", size, mtimeMs: (target ?? link).mtimeMs };
    },
    realpath: async (path) => {
      const p = real(path);
      if (!get(p))
        throw fsError("ENOENT", path);
      return p;
    },
    readDir: async (path) => {
      const p = real(path);
      const node = get(p);
      if (!node)
        throw fsError("ENOENT", path);
      if (node.kind !== "dir")
        throw fsError("ENOTDIR", path);
      return [...nodes.keys()].filter((k) => k !== p && nodePath5.dirname(k) === p).map((k) => nodePath5.basename(k)).sort();
    },
    truncate: async (path, size) => {
      const { p, node } = fileAt(path);
      const data = new Uint8Array(size);
      data.set(node.data.subarray(0, size));
      nodes.set(p, { kind: "file", data, mtimeMs: now() });
      changed(p);
    },
    symlink: async (target, path) => {
      const p = real(path, false);
      parentDir(p, path);
      if (get(p))
        throw fsError("EEXIST", path);
      nodes.set(p, { kind: "link", target, mtimeMs: now() });
      changed(p);
    },
    snapshot: () => new Map([...nodes].flatMap(([k, v]) => v.kind === "file" ? [[k, v.data.slice()]] : [])),
    watch: (path, onChange) => {
      let key;
      try {
        key = real(path);
      } catch {
        key = path;
      }
      const set = watchers.get(key) ?? new Set;
      watchers.set(key, set);
      const fn = () => onChange();
      set.add(fn);
      return () => void set.delete(fn);
    }
  };
}
function createMemoryHost(options = {}) {
  const now = options.now ?? (() => new Date);
  const cwd = options.cwd ?? "/";
  const key = options.checkpointKey ?? crypto.getRandomValues(new Uint8Array(32));
  return {
    fs: options.fs ?? createMemoryFileSystem({ files: options.files, now: () => now().getTime() }),
    now,
    pid: options.pid ?? 1,
    checkpointKey: async () => key,
    isProcessAlive: () => {
      return;
    },
    resolvePath: (path) => nodePath5.resolve(cwd, path)
  };
}

// acp.ts
init_node_host();
init_util();
init_node_host();
init_util();
var EVENT_NAMES = [
  "initialized",
  "deliverable_drafted",
  "deliverable_revised",
  "deliverable_frozen",
  "proposal_submitted",
  "review_submitted",
  "proposal_revised",
  "question_classified",
  "decision_proposed",
  "decision_accepted",
  "readiness_passed",
  "completed",
  "blocked"
];
var PHASES = ["blocked", "completed", "decision_review", "drafting", "readiness_check", "reviewing", "revising"];
var REQUIRED_FILES = ["protocol.json", "events.jsonl", "proposal.md", "review.md", "decisions.md", "readiness.md", "conclusion.md"];
var FORBIDDEN_FILES = ["state.log", "discussion.md", "opinions.md"];
var DELIVERABLE_EVENTS = new Set(["deliverable_drafted", "deliverable_revised", "deliverable_frozen"]);
var SHA256_HEX = /^[0-9a-f]{64}$/;
var INIT_SUMMARY = "Initialized ACP schema v2 collaboration workspace.";
var VERSION2 = package_default.version;
var DEFAULT_WAIT_TIMEOUT_SECONDS = 1800;
var DEFAULT_WAIT_INTERVAL_SECONDS = 2;
function parseEventLog(text) {
  const events = [];
  const errors = [];
  const { tornTail } = parseEventLines(text, 0, true, (event) => void events.push(event), errors);
  return { events, errors, tornTail };
}
function parseEventLines(text, before, last, onEvent, errors) {
  const lines = text.split(`
`);
  const tornTail = last && text.length > 0 && !text.endsWith(`
`);
  if (!tornTail)
    lines.pop();
  for (let i = 0;i < lines.length; i++) {
    const line = lines[i];
    if (line.charCodeAt(0) !== 123 && pyStrip(line) === "")
      continue;
    let value;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const torn = tornTail && i === lines.length - 1 ? ` (the last line is incomplete: a writer was interrupted; \`acp doctor --fix\` repairs it)` : "";
      errors.push(`events.jsonl line ${before + i + 1}: invalid JSON: ${jsonErrorDetail(error)}${torn}`);
      continue;
    }
    if (!isObject(value)) {
      errors.push(`events.jsonl line ${before + i + 1}: event must be an object`);
      continue;
    }
    onEvent(value);
  }
  return { lines: lines.length, tornTail };
}
async function readEventLogSettled(host, folder) {
  try {
    const log = await readEventLog(host, folder);
    if (!log.tornTail || !log.errors.length)
      return log;
  } catch (error) {
    if (!(error instanceof AcpError))
      throw error;
  }
  await sleep(25);
  return readEventLog(host, folder);
}
async function readEventLog(host, folder) {
  const events = [];
  const rest = await scanEventLog(host, folder, (event) => void events.push(event));
  return { events, ...rest };
}
var LOG_CHUNK_BYTES = 1 << 20;
async function scanEventLog(host, folder, onEvent, resume) {
  const path = nodePath7.join(folder, "events.jsonl");
  let file;
  try {
    file = await openCapped(host, path, READ_LIMITS.log, "events.jsonl");
  } catch (error) {
    if (errorCode(error) === "ENOENT")
      throw new AcpError("missing events.jsonl", 2, "invalid_log");
    if (errorCode(error) === "EISDIR")
      throw new AcpError("events.jsonl is a directory, not the event log");
    if (errorCode(error) === "ELOOP")
      throw new AcpError("events.jsonl is a symbolic link loop, not the event log");
    throw error;
  }
  try {
    const from = await resume?.(file);
    const errors = from?.errors ?? [];
    let before = from?.lines ?? 0;
    let tornTail = false;
    const scan = async (lines, end) => {
      let text;
      try {
        text = decodeText(lines, "events.jsonl");
      } catch (error) {
        throw logDecodeError(await readCapped(host, path, READ_LIMITS.log, "events.jsonl"), error);
      }
      const run = parseEventLines(text, before, end, onEvent, errors);
      before += run.lines;
      tornTail = run.tornTail;
    };
    const position = await readWholeLines(file, from?.offset ?? 0, LOG_CHUNK_BYTES, scan, from?.seen);
    return { errors, size: position, tornTail, lines: before };
  } finally {
    await file.close();
  }
}
function formatEventLine(event) {
  const ordered = {};
  for (const key of ["seq", "from", "event", "at", "summary", "doc", "reply_to", "role", "sha256"]) {
    if (event[key] !== undefined)
      ordered[key] = event[key];
  }
  for (const key of Object.keys(event))
    if (!(key in ordered) && event[key] !== undefined)
      ordered[key] = event[key];
  return `${JSON.stringify(ordered).replace(/[\u0085\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`)}
`;
}
function jsonErrorDetail(error) {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^JSON Parse error:\s*/, "").replace(/,\s*".*" is not valid JSON$/s, "").replace(/\berror:\s*/gi, "").split(`
`, 1)[0] || "invalid JSON";
}
function nextSeq(events) {
  let max = 0;
  for (const event of events)
    if (isInt(event.seq) && event.seq > max)
      max = event.seq;
  return max + 1;
}
function emptyState() {
  return {
    phase: null,
    proposalOwner: null,
    waitingFor: [],
    reviewersDue: [],
    acceptorsDue: [],
    latestClassification: 0,
    latestDecisionInput: 0,
    primaryDrafted: false,
    primaryFrozen: false,
    readinessPassed: false,
    errors: []
  };
}
var PHASE_RULES = {
  deliverable_drafted: { phases: ["drafting", "revising", "decision_review"], action: "deliverable draft" },
  deliverable_revised: { phases: ["revising", "decision_review"], action: "deliverable revision" },
  deliverable_frozen: { phases: ["readiness_check"], action: "deliverable freeze" },
  proposal_submitted: { phases: ["drafting", "revising"], action: "proposal submission" },
  review_submitted: { phases: ["reviewing"], action: "review submission" },
  proposal_revised: { phases: ["revising"], action: "proposal revision" },
  decision_proposed: { phases: ["revising", "decision_review"], action: "decision proposal" },
  question_classified: { phases: ["decision_review"], action: "question classification" },
  decision_accepted: { phases: ["decision_review"], action: "decision acceptance" },
  readiness_passed: { phases: ["readiness_check"], action: "readiness pass" },
  completed: { phases: ["readiness_check"], action: "completion" }
};
function seqText(event) {
  return pyStr(event.seq);
}
function requirePhase(state, event, allowed) {
  if (!state.phase || !allowed.includes(state.phase))
    state.errors.push(`seq ${seqText(event)}: ${pyStr(event.event)} is not allowed from phase ${state.phase ?? "None"}`);
}
function requireActor(state, event, allowed, action) {
  const actor = event.from;
  if (typeof actor === "string" && allowed.includes(actor))
    return;
  const who = allowed.length ? sortedPy(allowed).join(", ") : "no participant";
  state.errors.push(`seq ${seqText(event)}: ${action} is reserved for ${who}; got ${pyStr(actor)}`);
}
function requireOwner(state, event, action) {
  if (state.proposalOwner !== null)
    requireActor(state, event, [state.proposalOwner], action);
}
function ownerList(state) {
  return state.proposalOwner === null ? [] : [state.proposalOwner];
}
function applyEvent(state, event, participants, readiness) {
  const name = event.event;
  if (event.role !== "primary" && DELIVERABLE_EVENTS.has(name))
    return;
  switch (name) {
    case "initialized":
      return applyInitialized(state, event, participants);
    case "blocked":
      state.phase = "blocked";
      state.waitingFor = [];
      return;
    case "deliverable_drafted":
    case "deliverable_revised":
    case "deliverable_frozen":
      return applyPrimaryDeliverable(state, event, name);
    case "proposal_submitted":
      return applyProposalSubmitted(state, event, participants);
    case "review_submitted":
      return applyReviewSubmitted(state, event);
    case "proposal_revised":
    case "decision_proposed":
      return applyDecisionInput(state, event, name);
    case "question_classified":
      return applyQuestionClassified(state, event, participants);
    case "decision_accepted":
      return applyDecisionAccepted(state, event, readiness);
    case "readiness_passed":
      return applyReadinessPassed(state, event);
    case "completed":
      return applyCompleted(state, event);
    default:
      return;
  }
}
function applyInitialized(state, event, participants) {
  const actor = event.from;
  if (event.seq !== 1)
    state.errors.push("initialized must be seq 1");
  if (typeof actor !== "string" || !participants.includes(actor))
    state.errors.push(`seq ${seqText(event)}: initialized participant is not listed in protocol.json`);
  state.proposalOwner = typeof actor === "string" ? actor : pyStr(actor);
  state.phase = "drafting";
  state.waitingFor = [state.proposalOwner];
}
function applyPrimaryDeliverable(state, event, name) {
  const rule = PHASE_RULES[name];
  if (name === "deliverable_revised" && state.primaryFrozen)
    state.errors.push(`seq ${seqText(event)}: deliverable_revised is not allowed after deliverable_frozen`);
  if (name === "deliverable_frozen" && state.primaryFrozen)
    state.errors.push(`seq ${seqText(event)}: primary deliverable can be frozen only once`);
  requirePhase(state, event, rule.phases);
  requireOwner(state, event, rule.action);
  if (name === "deliverable_frozen")
    state.primaryFrozen = true;
  else
    state.primaryDrafted = true;
}
function applyProposalSubmitted(state, event, participants) {
  const actor = event.from;
  requirePhase(state, event, PHASE_RULES.proposal_submitted.phases);
  if (!state.primaryDrafted)
    state.errors.push(`seq ${seqText(event)}: proposal_submitted requires prior primary deliverable_drafted`);
  requireActor(state, event, state.proposalOwner === null ? [pyStr(actor)] : [state.proposalOwner], "proposal submission");
  state.proposalOwner = pyStr(actor);
  state.reviewersDue = participants.filter((p) => p !== state.proposalOwner);
  if (!state.reviewersDue.length)
    state.errors.push(`seq ${seqText(event)}: proposal_submitted requires at least one reviewer`);
  state.phase = "reviewing";
  state.waitingFor = sortedPy(new Set(state.reviewersDue));
}
function applyReviewSubmitted(state, event) {
  const actor = event.from;
  requirePhase(state, event, PHASE_RULES.review_submitted.phases);
  requireActor(state, event, state.reviewersDue, "review submission");
  state.reviewersDue = state.reviewersDue.filter((p) => p !== actor);
  if (state.reviewersDue.length)
    state.waitingFor = sortedPy(new Set(state.reviewersDue));
  else {
    state.phase = "revising";
    state.waitingFor = ownerList(state);
  }
}
function applyDecisionInput(state, event, name) {
  const rule = PHASE_RULES[name];
  requirePhase(state, event, rule.phases);
  requireOwner(state, event, rule.action);
  state.latestDecisionInput = isInt(event.seq) ? event.seq : 0;
  state.latestClassification = 0;
  state.phase = "decision_review";
  state.waitingFor = ownerList(state);
}
function applyQuestionClassified(state, event, participants) {
  requirePhase(state, event, PHASE_RULES.question_classified.phases);
  requireOwner(state, event, "question classification");
  state.latestClassification = isInt(event.seq) ? event.seq : 0;
  state.acceptorsDue = [...participants];
  state.waitingFor = sortedPy(new Set(state.acceptorsDue));
}
function applyDecisionAccepted(state, event, readiness) {
  const actor = event.from;
  requirePhase(state, event, PHASE_RULES.decision_accepted.phases);
  if (state.latestDecisionInput && state.latestClassification <= state.latestDecisionInput) {
    state.errors.push(`seq ${seqText(event)}: decision_accepted requires question_classified after the latest proposal or decision`);
  }
  requireActor(state, event, state.acceptorsDue, "decision acceptance");
  for (const message of decisionGateErrors(readiness))
    state.errors.push(`seq ${seqText(event)}: ${message}`);
  state.acceptorsDue = state.acceptorsDue.filter((p) => p !== actor);
  if (state.acceptorsDue.length)
    state.waitingFor = sortedPy(new Set(state.acceptorsDue));
  else {
    state.phase = "readiness_check";
    state.waitingFor = ownerList(state);
  }
}
function applyReadinessPassed(state, event) {
  requirePhase(state, event, PHASE_RULES.readiness_passed.phases);
  if (!state.primaryFrozen)
    state.errors.push(`seq ${seqText(event)}: readiness_passed requires primary deliverable_frozen`);
  requireOwner(state, event, "readiness pass");
  state.readinessPassed = true;
  state.waitingFor = ownerList(state);
}
function applyCompleted(state, event) {
  if (state.phase !== "readiness_check" || !state.readinessPassed)
    state.errors.push(`seq ${seqText(event)}: completed requires a prior readiness_passed event`);
  if (event.doc !== "conclusion.md")
    state.errors.push(`seq ${seqText(event)}: completed must reference conclusion.md`);
  requireOwner(state, event, "completion");
  state.phase = "completed";
  state.waitingFor = [];
}
function replay(events, participants, readiness) {
  const state = emptyState();
  for (const event of events)
    applyEvent(state, event, participants, readiness);
  return state;
}
function participantIds(protocol) {
  const list = protocol.participants;
  if (list === undefined || list === null)
    return [];
  if (!Array.isArray(list))
    throw new AcpError("protocol.json participants must be a list");
  const ids = [];
  for (const entry of list) {
    if (typeof entry === "string")
      ids.push(entry);
    else if (isObject(entry) && typeof entry.id === "string")
      ids.push(entry.id);
    else if (isObject(entry) && entry.id !== undefined)
      ids.push(pyStr(entry.id));
  }
  return ids;
}
function isUnsafePath(path) {
  if (path.startsWith("/") || path.startsWith("\\") || /^[A-Za-z]:/.test(path))
    return true;
  return path.split(/[\\/]/).includes("..");
}
function deliverableRef(protocol, file) {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : {};
  return refOf(deliverables.mode === "external" ? "external" : "internal", typeof deliverables.dir === "string" ? deliverables.dir : "deliverables", file);
}
function refOf(mode, dir, file) {
  return mode === "external" ? `external:${purePosixPath(file)}` : purePosixPath(dir, file);
}
function primaryRef(protocol) {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : undefined;
  const primary = deliverables && isObject(deliverables.primary) ? deliverables.primary : undefined;
  if (!primary || typeof primary.file !== "string")
    return;
  return deliverableRef(protocol, primary.file);
}
function supportingEntries(protocol) {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : undefined;
  const list = deliverables?.supporting;
  return Array.isArray(list) ? list.filter(isObject) : [];
}
function resolveDeliverablePath(folder, protocol, ref) {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : {};
  const dir = typeof deliverables.dir === "string" ? deliverables.dir : "deliverables";
  if (ref.startsWith("external:")) {
    const repoRoot = typeof protocol.repoRoot === "string" ? protocol.repoRoot : undefined;
    if (repoRoot === undefined)
      return;
    return nodePath7.resolve(folder, repoRoot, dir, ref.slice("external:".length));
  }
  return nodePath7.resolve(folder, ref);
}
function attachmentPath(folder, protocol, file) {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : {};
  const dir = typeof deliverables.dir === "string" ? deliverables.dir : "deliverables";
  if (deliverables.mode === "external" && typeof protocol.repoRoot === "string")
    return nodePath7.resolve(folder, protocol.repoRoot, dir, file);
  return nodePath7.resolve(folder, dir, file);
}
function deliverableBoundary(folder, protocol, ref) {
  if (ref.startsWith("external:") && typeof protocol.repoRoot === "string")
    return nodePath7.resolve(folder, protocol.repoRoot);
  return folder;
}
async function readDeliverable(host, folder, protocol, ref) {
  const path = resolveDeliverablePath(folder, protocol, ref);
  if (!path)
    return;
  const stat = await host.fs.stat(path);
  if (!stat || !stat.isFile)
    return;
  await assertInsideBoundary(host, path, deliverableBoundary(folder, protocol, ref), ref);
  return readCapped(host, path, READ_LIMITS.document, ref);
}
async function checkedDocumentPath(host, folder, protocol, ref) {
  if (typeof ref !== "string" || ref === "" || ref.includes("\x00"))
    throw new AcpError(`not a document reference: ${pyRepr(ref)}`);
  const declared = [primaryRef(protocol), ...supportingEntries(protocol).map((entry) => typeof entry.file === "string" ? deliverableRef(protocol, entry.file) : undefined)];
  if (declared.includes(ref)) {
    const path = resolveDeliverablePath(folder, protocol, ref);
    if (!path)
      throw new AcpError(`deliverable ${ref}: protocol.json has no repoRoot`);
    await assertInsideBoundary(host, path, deliverableBoundary(folder, protocol, ref), ref);
    return path;
  }
  const path = nodePath7.resolve(folder, ref);
  if (!isInside(path, folder))
    throw new AcpError(`document ${ref} is outside the collaboration folder`);
  await assertInsideBoundary(host, path, folder, ref);
  return path;
}
function documentFiles(host, folder, protocol) {
  return {
    async read(ref) {
      if (typeof ref !== "string" || ref === "" || ref.includes("\x00"))
        throw new AcpError(`not a document reference: ${pyRepr(ref)}`);
      const declared = [primaryRef(protocol), ...supportingEntries(protocol).map((entry) => typeof entry.file === "string" ? deliverableRef(protocol, entry.file) : undefined)];
      if (declared.includes(ref)) {
        const bytes = await readDeliverable(host, folder, protocol, ref);
        return bytes === undefined ? undefined : decodeText(bytes, ref);
      }
      const path = nodePath7.resolve(folder, ref);
      if (!isInside(path, folder))
        throw new AcpError(`document ${ref} is outside the collaboration folder`);
      const stat = await host.fs.stat(path);
      if (!stat?.isFile)
        return;
      await assertInsideBoundary(host, path, folder, ref);
      return decodeText(await readCapped(host, path, READ_LIMITS.document, ref), ref);
    }
  };
}
async function assertInsideBoundary(host, path, boundary, ref) {
  let real;
  let realBoundary;
  try {
    real = await host.fs.realpath(path);
  } catch (error) {
    if (errorCode(error) !== "ENOENT")
      throw error;
    real = nodePath7.join(await realpathOfExistingAncestor(host, nodePath7.dirname(path)), nodePath7.basename(path));
  }
  try {
    realBoundary = await host.fs.realpath(boundary);
  } catch {
    realBoundary = boundary;
  }
  if (realBoundary === nodePath7.parse(realBoundary).root)
    throw new AcpError(`deliverable ${ref}: repoRoot must not resolve to filesystem root`);
  if (!isInside(real, realBoundary))
    throw new AcpError(`deliverable ${ref} resolves outside ${realBoundary} (symlink refused)`);
}
function defaultTemplate(context) {
  const head = `# ${context.title}

Deliverable type: \`${context.type}\`
Status: Draft

`;
  return head + context.sections.map((section) => `## ${section}


`).join(`
`);
}
function defaultGates(ref, type) {
  return [
    `Primary deliverable exists: \`${ref}\``,
    `Primary deliverable has required \`${type}\` sections`,
    "Every accepted decision has `Reflected in`",
    "Every accepted decision is reflected in the primary deliverable",
    "Primary deliverable status is `Frozen`",
    "Primary deliverable SHA-256 snapshot recorded"
  ];
}
async function readProtocol(host, folder) {
  let bytes;
  try {
    bytes = await readCapped(host, nodePath7.join(folder, "protocol.json"), READ_LIMITS.protocol, "protocol.json");
  } catch (error) {
    if (["ENOENT", "ENOTDIR", "ELOOP", "ENAMETOOLONG"].includes(errorCode(error) ?? ""))
      throw new AcpError(`missing protocol.json in ${folder}`, 2, "invalid_folder");
    if (errorCode(error) === "EISDIR")
      throw new AcpError("invalid protocol.json: protocol.json is a directory", 2, "invalid_folder");
    throw error;
  }
  let text;
  try {
    text = decodeText(bytes, "protocol.json");
  } catch {
    throw new AcpError("invalid protocol.json: not valid UTF-8", 2, "invalid_folder");
  }
  if (text.charCodeAt(0) === 65279)
    throw new AcpError("invalid protocol.json: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)", 2, "invalid_folder");
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AcpError(`invalid protocol.json: ${jsonErrorDetail(error)}`, 2, "invalid_folder");
  }
  if (!isObject(value))
    throw new AcpError("invalid protocol.json: top level must be an object", 2, "invalid_folder");
  return value;
}
async function readTextIfExists(host, path, name, directoryIsMissing = false) {
  try {
    return decodeText(await readCapped(host, path, READ_LIMITS.document, name), name);
  } catch (error) {
    if (errorCode(error) === "EISDIR" && !directoryIsMissing)
      throw new AcpError(`${name} is a directory, not a file`, 2, "invalid_folder");
    if (["ENOENT", "EISDIR", "ENOTDIR", "ELOOP", "ENAMETOOLONG"].includes(errorCode(error) ?? ""))
      return;
    throw error;
  }
}
async function readReadinessFile(host, folder) {
  return readReadiness(await readTextIfExists(host, nodePath7.join(folder, "readiness.md"), "readiness.md") ?? "");
}
var HOOK_NAMES = ["init:files", "append:before", "append:after", "phase:change", "validate", "next"];
var DEFAULT_HOOK_TIMEOUT_MS = 1e4;
async function callWithDeadline(hook, name, context) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const seconds = hook.timeoutMs / 1000;
      reject(new AcpError(`plugin '${hook.owner}' timed out in ${name} after ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`, 2, "plugin_timeout"));
    }, hook.timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => hook.fn(context)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

class AcpRefusal extends Error {
}
var ORDER_RANK = { pre: 0, normal: 1, post: 2 };

class HookRunner {
  #hooks = [];
  hook(name, fn, options = {}) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
    const entry = { name, fn, order: options.order ?? "normal", owner: options.owner ?? "anonymous", timeoutMs };
    this.#hooks.push(entry);
    return () => {
      this.#hooks = this.#hooks.filter((h) => h !== entry);
    };
  }
  has(name) {
    return this.#hooks.some((h) => h.name === name);
  }
  async call(name, context, failures) {
    const hooks = this.#hooks.filter((h) => h.name === name).sort((a, b) => ORDER_RANK[a.order] - ORDER_RANK[b.order]);
    for (const hook of hooks) {
      try {
        const result = await callWithDeadline(hook, name, context);
        checkHookOutcome(name, result, context);
      } catch (error) {
        let failure;
        if (error instanceof AcpRefusal) {
          const event = context.event?.event;
          failure = new AcpError(`plugin '${hook.owner}' refused ${event === undefined ? "the event" : pyStr(event)}: ${error.message}`, 2, "plugin_refused");
        } else if (error instanceof AcpError && error.code === "plugin_timeout")
          failure = error;
        else
          failure = error instanceof AcpPluginError ? error : new AcpPluginError(hook.owner, name, error);
        if (!failures)
          throw failure;
        failures.push(failure);
      }
    }
  }
}
function checkHookOutcome(name, result, context) {
  if (result !== undefined) {
    const hint = name === "append:before" ? "; to veto the event call refuse(message)" : "";
    throw new Error(`the hook returned ${result === null ? "null" : typeof result} where nothing is expected (hooks answer through their context${hint})`);
  }
  const lists = name === "validate" ? ["errors", "warnings"] : name === "next" ? ["hints"] : [];
  for (const key of lists) {
    const list = context[key];
    if (Array.isArray(list) && list.some((item) => typeof item !== "string")) {
      const index = list.findIndex((item) => typeof item !== "string");
      list.splice(index);
      throw new Error(`${key}[${index}] is not a string (push messages as strings)`);
    }
  }
}
var TYPE_NAME_RE = /^[a-z0-9][a-z0-9._-]*$/;

class Registry {
  types = new Map;
  plugins = [];
  hooks = new HookRunner;
  commands = new Map;
  config;
  addType(definition, origin) {
    this.#checkType(definition, origin);
    this.types.set(definition.type, { definition, origin });
  }
  #checkType(definition, origin) {
    const who = origin.plugin ? `plugin '${origin.plugin}'` : origin.source;
    if (!definition || typeof definition !== "object" || typeof definition.type !== "string" || typeof definition.sections !== "function") {
      throw new AcpError(`${who}: a deliverable type needs a \`type\` name and a \`sections()\` function`);
    }
    if (!TYPE_NAME_RE.test(definition.type))
      throw new AcpError(`${who}: deliverable type name '${definition.type}' must match ${TYPE_NAME_RE.source}`);
    if (typeof definition.title !== "string" || !pyStrip(definition.title))
      throw new AcpError(`${who}: deliverable type '${definition.type}' needs a title`);
    const existing = this.types.get(definition.type);
    if (existing) {
      const other = existing.origin.kind === "built-in" ? "built in" : `already defined by plugin '${existing.origin.plugin}' (${existing.origin.source})`;
      throw new AcpError(`${who}: deliverable type '${definition.type}' is ${other}`);
    }
  }
  type(name) {
    return this.types.get(name)?.definition;
  }
  async addPlugin(plugin, origin, context) {
    if (!plugin || typeof plugin !== "object" || typeof plugin.name !== "string" || !pyStrip(plugin.name)) {
      throw new AcpError(`plugin from ${origin.source} must have a name`);
    }
    const where = `plugin '${plugin.name}' (${origin.source})`;
    const twin = this.plugins.find((p) => p.plugin.name === plugin.name);
    if (twin)
      throw new AcpError(`${where} is loaded twice (first from ${twin.origin.source})`);
    if (plugin.enforce !== undefined && plugin.enforce !== "pre" && plugin.enforce !== "post")
      throw new AcpError(`${where}: enforce must be 'pre' or 'post'`);
    if (plugin.timeoutMs !== undefined && !(typeof plugin.timeoutMs === "number" && plugin.timeoutMs > 0 && plugin.timeoutMs <= 2 ** 31 - 1)) {
      throw new AcpError(`${where}: timeoutMs must be a positive number of milliseconds`);
    }
    const hooks = Object.entries(plugin.hooks ?? {});
    for (const [name, fn] of hooks) {
      if (!HOOK_NAMES.includes(name))
        throw new AcpError(`${where} has an unknown hook '${name}' (known: ${HOOK_NAMES.join(", ")})`);
      if (typeof fn !== "function")
        throw new AcpError(`${where}: hook '${name}' must be a function`);
    }
    const types = plugin.deliverableTypes ?? [];
    if (!Array.isArray(types))
      throw new AcpError(`${where}: deliverableTypes must be an array`);
    const commands = plugin.commands ?? [];
    if (!Array.isArray(commands))
      throw new AcpError(`${where}: commands must be an array`);
    for (const command of commands)
      this.#checkCommand(command, where);
    if (plugin.optionsSchema !== undefined && context)
      await checkPluginOptions(plugin, context, where);
    const typeOrigin = { ...origin, plugin: plugin.name };
    types.forEach((type, index) => {
      this.#checkType(type, typeOrigin);
      if (types.findIndex((t) => t.type === type.type) !== index)
        throw new AcpError(`${where} defines deliverable type '${type.type}' twice`);
    });
    try {
      await plugin.setup?.(context ?? pluginContext({}, undefined, { source: origin.source }));
    } catch (error) {
      throw new AcpPluginError(plugin.name, "setup", error);
    }
    this.plugins.push({ plugin, origin: typeOrigin });
    for (const type of types)
      this.types.set(type.type, { definition: type, origin: typeOrigin });
    const order = plugin.enforce ?? "normal";
    for (const [name, fn] of hooks)
      this.hooks.hook(name, fn, { order, owner: plugin.name, timeoutMs: plugin.timeoutMs });
    for (const command of commands)
      this.#addCommand(command, typeOrigin);
  }
  #checkCommand(command, where) {
    if (!command || typeof command !== "object" || typeof command.name !== "string" || typeof command.run !== "function") {
      throw new AcpError(`${where}: a command needs a \`name\` and a \`run(context)\` function`);
    }
    if (!/^[a-z][a-z0-9-]*$/.test(command.name))
      throw new AcpError(`${where}: command name '${command.name}' must match ^[a-z][a-z0-9-]*$`);
    const existing = this.commands.get(command.name);
    if (existing && !command.extend)
      throw new AcpError(`${where}: command '${command.name}' is already defined by ${existing.origin.plugin ? `plugin '${existing.origin.plugin}'` : existing.origin.source}`);
    if (!existing && command.extend)
      throw new AcpError(`${where}: extends command '${command.name}', which no plugin defines`);
    for (const [name, option] of Object.entries(command.options ?? {})) {
      if (option?.type !== "string" && option?.type !== "boolean")
        throw new AcpError(`${where}: option --${name} of command '${command.name}' needs type 'string' or 'boolean'`);
    }
  }
  #addCommand(command, origin) {
    const existing = this.commands.get(command.name);
    if (!existing) {
      this.commands.set(command.name, { spec: command, origin, chain: [command] });
      return;
    }
    const spec = { ...existing.spec, options: { ...existing.spec.options, ...command.options } };
    this.commands.set(command.name, { spec, origin: existing.origin, chain: [...existing.chain, command] });
  }
  async cleanup() {
    const failures = [];
    const plugins = this.plugins.splice(0).reverse();
    for (const { plugin } of plugins) {
      try {
        await plugin.cleanup?.();
      } catch (error) {
        failures.push(new AcpPluginError(plugin.name, "cleanup", error).message);
      }
    }
    if (failures.length)
      throw new AcpError(failures);
  }
}
async function checkPluginOptions(plugin, context, where) {
  const v = context.valibot ?? await __acpLoad("./chunks/valibot.mjs");
  const result = v.safeParse(plugin.optionsSchema, context.options);
  if (result.success)
    return;
  const issue = result.issues[0];
  const key = issue.path?.map((p) => String(p.key)).join(".") ?? "";
  throw new AcpError(`${where}: option ${key ? `'${key}'` : "(top level)"}: ${issue.message}`, 2, "plugin_failed");
}
var isStringList = (value) => Array.isArray(value) && value.every((item) => typeof item === "string");
function callType(registry, type, what, fn, valid) {
  const origin = registry.types.get(type)?.origin;
  const fail = (cause) => {
    throw new AcpPluginError(origin?.plugin ?? origin?.source ?? type, `${what} of deliverable type '${type}'`, cause);
  };
  let value;
  try {
    value = fn();
  } catch (error) {
    if (error instanceof AcpError)
      throw error;
    return fail(error);
  }
  if (!valid(value))
    fail(`it returned ${Array.isArray(value) ? "an array" : typeof value}, which is not what acp expects`);
  return value;
}
function pluginContext(options, runtime = { name: "unknown" }, extra = {}) {
  const warn = extra.warn ?? (() => {
    return;
  });
  return { api: libraryApi(), definePlugin, defineDeliverableType, markdown, defaultTemplate, defaultGates, options, runtime, source: extra.source ?? "inline", warn, valibot: extra.valibot };
}
async function loadBuiltInTypes(registry) {
  await Promise.resolve().then(() => init_deliverable_types());
  for (const definition of builtInDeliverableTypes)
    registry.addType(definition, { kind: "built-in", source: `deliverable-types/${definition.type}.ts` });
}
var BUNDLED_PLUGINS = {
  rfc: () => __acpLoad("./chunks/rfc.mjs"),
  "notify-turn": () => __acpLoad("./chunks/notify-turn.mjs")
};
var BUILT_IN_PLUGINS = {
  protocol: () => Promise.resolve().then(() => (init_protocol(), exports_protocol)),
  doctor: () => Promise.resolve().then(() => (init_doctor(), exports_doctor)),
  rpc: () => Promise.resolve().then(() => (init_rpc(), exports_rpc)),
  git: () => Promise.resolve().then(() => (init_git(), exports_git)),
  mcp: () => Promise.resolve().then(() => (init_mcp(), exports_mcp)),
  humans: () => Promise.resolve().then(() => (init_humans(), exports_humans))
};
async function createRegistry(options = {}) {
  const registry = new Registry;
  await loadBuiltInTypes(registry);
  try {
    if (options.builtIns)
      await loadBuiltInPlugins(registry, options);
    if (!options.plugins?.length && !options.config)
      return registry;
    await Promise.resolve().then(() => init_loader());
    const host = options.host ?? await createNodeHost();
    await loadPlugins(registry, { ...options, host }, libraryApi(), BUNDLED_PLUGINS);
  } catch (error) {
    await registry.cleanup().catch(() => {
      return;
    });
    throw error;
  }
  return registry;
}
async function loadBuiltInPlugins(registry, options) {
  for (const [name, load] of Object.entries(BUILT_IN_PLUGINS)) {
    const context = pluginContext({}, options.runtime, { source: `acp:${name}`, warn: options.warn });
    const exported = (await load()).default;
    const plugin = typeof exported === "function" ? await exported(context) : exported;
    await registry.addPlugin(plugin, { kind: "built-in", source: `plugins/${name}.ts` }, context);
  }
}
function refusalCode(messages) {
  if (messages.some((m) => / is not allowed from phase /.test(m)))
    return "phase";
  if (messages.some((m) => / is reserved for /.test(m)))
    return "not_your_turn";
  return "invalid_event";
}
var supportingRefsCache = new WeakMap;
function deliverableDocErrors(protocol, event) {
  const role = event.role;
  const doc = event.doc;
  if (role === undefined || role === null || role === "")
    return ["deliverable events require role"];
  if (doc === undefined || doc === null || doc === "")
    return ["deliverable events require doc"];
  if (role === "primary" && doc !== primaryRef(protocol))
    return ["doc must reference the primary deliverable"];
  if (role === "supporting" && !supportingRefs(protocol).includes(doc))
    return ["doc must reference a declared supporting deliverable"];
  return [];
}
function supportingRefs(protocol) {
  let refs = supportingRefsCache.get(protocol);
  if (!refs)
    supportingRefsCache.set(protocol, refs = supportingEntries(protocol).filter((s) => typeof s.file === "string").map((s) => deliverableRef(protocol, s.file)));
  return refs;
}
async function freezeErrors(host, folder, protocol, doc, sha) {
  if (typeof sha !== "string" || !SHA256_HEX.test(sha))
    return ["deliverable_frozen requires sha256"];
  const bytes = await readDeliverable(host, folder, protocol, doc);
  if (!bytes)
    return ["deliverable_frozen doc does not exist"];
  if (await sha256Hex(bytes) !== sha)
    return ["deliverable_frozen sha256 does not match current file"];
  return [];
}
function readinessAppendErrors(readiness, eventName) {
  return readinessGateErrors(readiness, "first", eventName !== "decision_accepted");
}
function completionGateTexts(protocol) {
  const gates = protocol.completionGates;
  if (!Array.isArray(gates))
    return [];
  return gates.filter(isObject).map((g) => g.text).filter((t) => typeof t === "string");
}
function stateKeys() {
  return Object.keys(emptyState()).filter((key) => key !== "errors").sort();
}
async function append(host, folder, request, registry, options = {}) {
  const protocol = await readProtocol(host, folder);
  if (!EVENT_NAMES.includes(request.event))
    throw new AcpError(`unknown event '${request.event}'`, 2, "unknown_event");
  const participants = participantIds(protocol);
  if (!participants.includes(request.participant))
    throw new AcpError(`participant ${pyRepr(request.participant)} is not listed in protocol.json`, 2, "unknown_participant");
  const lockOptions = { onWait: options.onLockWait, timeoutMs: options.lockTimeoutMs, held: options.lock };
  const result = await withFolderLock(host, folder, () => appendUnderLock(host, folder, protocol, participants, request, registry), lockOptions);
  if (registry?.hooks.has("append:after") || registry?.hooks.has("phase:change")) {
    const context = { folder, files: documentFiles(host, folder, protocol), protocol, ...result };
    const failures = [];
    await registry.hooks.call("append:after", context, failures);
    if (result.previousPhase !== result.state.phase)
      await registry.hooks.call("phase:change", context, failures);
    if (failures.length) {
      const note = `seq ${result.event.seq} ${result.event.event} was appended and stays in the log; do not append it again`;
      throw new AcpAppendedError([...failures.map((f) => f.message), note], result);
    }
  }
  return result;
}
async function viewLog(host, folder, participants) {
  const checkpoint = await loadCheckpoint(host, folder, participants, stateKeys());
  const log = checkpoint ? undefined : await readEventLog(host, folder);
  if (log?.errors.length)
    throw new AcpError(log.errors, 2, "invalid_log");
  const events = log?.events ?? [];
  const duplicate = duplicateSeqError(events);
  if (duplicate)
    throw new AcpError(duplicate, 2, "invalid_log");
  return {
    checkpoint,
    log,
    events,
    count: checkpoint ? checkpoint.count : events.length,
    seqExists: (seq) => checkpoint ? isInt(seq) && hasSeq(checkpoint.seqs, seq) : events.some((e) => e.seq === seq),
    nextSeq: checkpoint ? checkpoint.maxSeq + 1 : nextSeq(events)
  };
}
async function checkRequest(host, folder, protocol, request, view) {
  if (request.replyTo !== undefined && !view.seqExists(request.replyTo))
    throw new AcpError("reply_to must point to an existing event");
  if (view.count && request.replyTo === undefined)
    throw new AcpError("reply_to is required after initialized");
  if (!DELIVERABLE_EVENTS.has(request.event))
    return;
  const docErrors = deliverableDocErrors(protocol, { doc: request.doc, role: request.role });
  if (docErrors.length)
    throw new AcpError(docErrors);
  if (request.event !== "deliverable_frozen")
    return;
  const errors = await freezeErrors(host, folder, protocol, request.doc, request.sha256);
  if (errors.length)
    throw new AcpError(errors);
}
function eventOf(host, request, seq) {
  if (!Number.isSafeInteger(seq))
    throw new AcpError(`events.jsonl holds a seq of 2^53 - 1 or more; acp cannot number the next event exactly (seq ${pyStr(seq - 1)})`, 2, "invalid_log");
  const event = { seq, from: request.participant, event: request.event, at: formatTimestamp(host.now()), summary: request.summary };
  if (request.doc !== undefined)
    event.doc = request.doc;
  if (request.replyTo !== undefined)
    event.reply_to = request.replyTo;
  if (request.role !== undefined)
    event.role = request.role;
  if (request.sha256 !== undefined)
    event.sha256 = request.sha256;
  return event;
}
async function checkGates(host, folder, protocol, request, readiness) {
  if (["decision_accepted", "readiness_passed", "completed"].includes(request.event)) {
    const errors = readinessAppendErrors(readiness, request.event);
    if (errors.length)
      throw new AcpError(errors[0]);
  }
  if (request.event !== "completed")
    return;
  if (request.doc !== "conclusion.md")
    throw new AcpError("completed must reference conclusion.md");
  const unchecked = completionGateTexts(protocol).filter((gate) => !readiness.isGateChecked(gate));
  if (unchecked.length)
    throw new AcpError(`completion gates must be checked first: ${unchecked.join(", ")}`);
  const conclusion = await readTextIfExists(host, nodePath7.join(folder, "conclusion.md"), "conclusion.md") ?? "";
  const errors = conclusionErrors(conclusion, primaryRef(protocol));
  if (errors.length)
    throw new AcpError(errors);
}
async function appendUnderLock(host, folder, protocol, participants, request, registry) {
  const view = await viewLog(host, folder, participants);
  await checkRequest(host, folder, protocol, request, view);
  const event = eventOf(host, request, view.nextSeq);
  const readiness = await readReadinessFile(host, folder);
  const before = view.checkpoint ? checkpointState(view.checkpoint, decisionGateErrors(readiness), emptyState()) : replay(view.events, participants, readiness);
  const state = structuredClone(before);
  applyEvent(state, event, participants, readiness);
  if (state.errors.length)
    throw new AcpError(state.errors, 2, refusalCode(state.errors));
  await checkGates(host, folder, protocol, request, readiness);
  if (registry?.hooks.has("append:before")) {
    await registry.hooks.call("append:before", {
      folder,
      files: documentFiles(host, folder, protocol),
      protocol: structuredClone(protocol),
      event: Object.freeze({ ...event }),
      state: structuredClone(state),
      refuse: (message) => {
        throw new AcpRefusal(message);
      }
    });
  }
  const warnings = await writeEvent(host, folder, protocol, participants, view, event, state, before);
  return { event, state, previousPhase: before.phase, previousWaitingFor: before.waitingFor, ...warnings.length ? { warnings } : {} };
}
async function writeEvent(host, folder, protocol, participants, view, event, state, before) {
  const line = formatEventLine(event);
  const written = (view.log?.tornTail ? `
` : "") + line;
  await host.fs.appendFile(nodePath7.join(folder, "events.jsonl"), written);
  try {
    const current = await readProtocol(host, folder).catch(() => protocol);
    const updated = { ...current, currentPhase: state.phase, proposalOwner: state.proposalOwner, waitingFor: state.waitingFor, updatedAt: event.at };
    await writeFileAtomic(host, nodePath7.join(folder, "protocol.json"), formatProtocolJson(updated));
  } catch (error) {
    await host.fs.remove(nodePath7.join(folder, CHECKPOINT_NAME)).catch(() => {
      return;
    });
    const why = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
    return [`seq ${event.seq} ${event.event} is appended, but protocol.json could not be rewritten (${why}): its cached phase is stale until the next append or \`acp doctor --fix\``];
  }
  const facts = view.checkpoint ?? logFacts(view.events, before);
  const sizeBefore = view.checkpoint ? view.checkpoint.log.size : view.log.size;
  if (!facts) {
    await host.fs.remove(nodePath7.join(folder, CHECKPOINT_NAME)).catch(() => {
      return;
    });
    return [];
  }
  const next = {
    count: facts.count + 1,
    maxSeq: event.seq,
    seqs: addSeq(facts.seqs, event.seq),
    gateSeqs: event.event === "decision_accepted" ? [...facts.gateSeqs, pyStr(event.seq)] : facts.gateSeqs,
    state: stripErrors(state)
  };
  await saveCheckpoint(host, folder, participants, next, line, sizeBefore + new TextEncoder().encode(written).length);
  return [];
}
function checkDeliverablesDeclaration(protocol, folder, errors, host, dirs, registry) {
  const start = errors.length;
  const deliverables = protocol.deliverables;
  if (!isObject(deliverables)) {
    errors.push("protocol.json deliverables.primary is required");
    return false;
  }
  const mode = deliverables.mode;
  if (mode !== "internal" && mode !== "external")
    errors.push("deliverables.mode must be internal or external");
  if (mode === "internal" && protocol.repoRoot !== undefined)
    errors.push("repoRoot is not allowed for internal deliverables");
  if (mode === "external") {
    const repoRoot = protocol.repoRoot;
    if (typeof repoRoot !== "string" || pyStrip(repoRoot) === "")
      errors.push("repoRoot is required for external deliverables");
    else if (nodePath7.isAbsolute(repoRoot))
      errors.push("repoRoot must be relative");
    else {
      const resolved = nodePath7.resolve(folder, repoRoot);
      if (!dirs.has(resolved))
        errors.push("repoRoot must resolve to an existing directory");
      else if (resolved === nodePath7.parse(resolved).root)
        errors.push("repoRoot must not resolve to filesystem root");
      else if (!isInside(folder, resolved))
        errors.push("collaboration folder must be inside repoRoot");
    }
  }
  const dir = deliverables.dir;
  if (typeof dir !== "string" || pyStrip(dir) === "")
    errors.push("deliverables.dir is required");
  else if (isUnsafePath(dir))
    errors.push("deliverables.dir must be relative and must not contain ..");
  const primary = deliverables.primary;
  if (!isObject(primary)) {
    errors.push("protocol.json deliverables.primary is required");
    return errors.length === start;
  }
  const knownType = (type) => typeof type === "string" && (validationTypes.has(type) || registry?.type(type)?.recordAsCustom === false);
  if (!knownType(primary.type))
    errors.push("primary deliverable type is invalid");
  const file = primary.file;
  if (typeof file !== "string" || !file.endsWith(".md"))
    errors.push("primary deliverable file must be Markdown");
  else if (isUnsafePath(file))
    errors.push("primary deliverable file must be relative and must not contain ..");
  if (primary.type === "custom" && !(Array.isArray(primary.checklist) && primary.checklist.some((c) => typeof c === "string" && pyStrip(c)))) {
    errors.push("custom primary deliverable requires checklist");
  }
  const seen = new Set;
  const supporting = deliverables.supporting;
  for (const entry of Array.isArray(supporting) ? supporting : []) {
    const item = isObject(entry) ? entry : {};
    if (!knownType(item.type))
      errors.push("supporting deliverable type is invalid");
    const sfile = item.file;
    if (typeof sfile !== "string" || !sfile.endsWith(".md"))
      errors.push("supporting deliverable file must be Markdown");
    else if (isUnsafePath(sfile))
      errors.push("supporting deliverable file must be relative and must not contain ..");
    if (typeof sfile === "string") {
      if (seen.has(sfile))
        errors.push("supporting deliverable files must be unique");
      seen.add(sfile);
      if (sfile === file)
        errors.push("supporting deliverable must not reuse the primary deliverable file");
    }
  }
  const attachments = deliverables.attachments;
  for (const entry of Array.isArray(attachments) ? attachments : []) {
    if (!isObject(entry)) {
      errors.push("attachments must be objects");
      continue;
    }
    if (typeof entry.file !== "string" || pyStrip(entry.file) === "")
      errors.push("attachment file is required");
    else if (isUnsafePath(entry.file))
      errors.push("attachment file must be relative and must not contain ..");
  }
  return errors.length === start;
}
var validationTypes = new Set(["adr", "design-spec", "implementation-plan", "decision-memo", "review-report", "test-plan", "custom"]);
function checkReviews(text, pass, ref, errors) {
  const body = text ?? "";
  const { headings, headingSeqs, reviewEvents, firstBySeq } = pass;
  for (const event of reviewEvents) {
    if (!headingSeqs.has(event.seq))
      errors.push(`seq ${pyStr(event.seq)}: review_submitted requires matching review.md heading`);
  }
  for (const heading of headings) {
    const event = firstBySeq.get(heading.seq);
    if (!event)
      errors.push(`review.md heading seq ${heading.seq}: no matching event`);
    else if (event.event !== "review_submitted")
      errors.push(`review.md heading seq ${heading.seq}: matching event is ${pyStr(event.event)}, not review_submitted`);
    else if (event.from !== heading.participant) {
      errors.push(`review.md heading seq ${heading.seq}: participant '${heading.participant}' does not match event from '${pyStr(event.from)}'`);
    }
  }
  if (reviewEvents.length) {
    if (!body.includes("Reviewed primary deliverable:"))
      errors.push("review.md must declare Reviewed primary deliverable");
    if (!body.includes("Review Scope:"))
      errors.push("review.md must declare Review Scope");
    if (!body.includes("Primary deliverable completeness"))
      errors.push("review.md Review Scope must include Primary deliverable completeness");
    if (ref !== undefined && !body.includes(ref))
      errors.push("review.md must reference the primary deliverable");
  }
}
async function checkDeliverableContent(host, folder, protocol, registry, entry, ref, frozenRequired, primary, findings) {
  const { errors } = findings;
  let bytes;
  try {
    bytes = await readDeliverable(host, folder, protocol, ref);
  } catch (error) {
    if (error instanceof AcpError) {
      errors.push(error.message);
      return;
    }
    throw error;
  }
  if (!bytes) {
    errors.push(primary ? `primary deliverable missing: ${ref}` : `supporting deliverable missing: ${ref}`);
    return;
  }
  let text;
  try {
    text = decodeText(bytes, ref);
  } catch (error) {
    errors.push(error.message);
    return;
  }
  const status = markdown.status(text);
  if (!status)
    errors.push(primary ? "primary deliverable must include Status: Draft, In Review, or Frozen" : `supporting deliverable ${ref} must include Status`);
  if (frozenRequired && status !== "Frozen")
    errors.push(primary ? "primary deliverable status must be Frozen" : `supporting deliverable ${ref} status must be Frozen`);
  const type = typeof entry.type === "string" ? entry.type : "";
  const checklist = Array.isArray(entry.checklist) ? entry.checklist.filter((c) => typeof c === "string").map(pyStrip).filter(Boolean) : [];
  const definition = registry.type(type);
  const sections = definition ? callType(registry, type, "sections()", () => definition.sections(checklist), isStringList) : checklist;
  for (const section of sections) {
    if (!markdown.hasSection(text, section)) {
      errors.push(primary ? `primary deliverable missing required section: ${section}` : `supporting deliverable ${ref} missing required section: ${section}`);
    } else if (frozenRequired && pyStrip(markdown.sectionBody(text, section) ?? "") === "") {
      errors.push(primary ? `primary deliverable section must not be empty when frozen: ${section}` : `supporting deliverable ${ref} section must not be empty when frozen: ${section}`);
    }
  }
  await checkPluginType(registry, entry, { text, ref, sections, frozenRequired, markdown }, findings);
}
async function checkPluginType(registry, entry, context, findings) {
  const pluginType = entry.type === "custom" && typeof entry.pluginType === "string" ? entry.pluginType : undefined;
  const typeName = pluginType ?? (typeof entry.type === "string" ? entry.type : "");
  const registered = registry.types.get(typeName);
  if (pluginType !== undefined && !registered) {
    findings.warnings.push(`deliverable type '${pluginType}' is not loaded; checked ${context.ref} against its recorded checklist only (load its plugin with --plugin or acp.config.yaml for its own checks)`);
    return;
  }
  const check = registered?.definition.check;
  if (!check)
    return;
  const owner = registered.origin.plugin ?? registered.origin.source;
  let result;
  try {
    result = await check(context);
  } catch (error) {
    throw new AcpPluginError(owner, `the check of deliverable type '${typeName}'`, error);
  }
  const strings = (value) => Array.isArray(value) && value.every((item) => typeof item === "string");
  if (!strings(result?.errors) || !strings(result?.warnings)) {
    throw new AcpPluginError(owner, `the check of deliverable type '${typeName}'`, "it must return { errors: string[], warnings: string[] }");
  }
  findings.errors.push(...result.errors);
  findings.warnings.push(...result.warnings);
}
var EVENT_FIELDS = ["seq", "from", "event", "at", "summary"];
var EVENT_NAME_SET = new Set(EVENT_NAMES);

class LogPass {
  shapeErrors = [];
  headings;
  headingSeqs;
  reviewEvents = [];
  firstBySeq = new Map;
  deliverableItems = [];
  primaryFreezes = 0;
  frozenSupporting = new Set;
  state = emptyState();
  eventNames = new Set;
  anyPrimaryFreeze = false;
  events;
  count = 0;
  lastAt;
  seenSeqs;
  #protocol;
  #participants;
  #readiness;
  constructor(protocol, participants, readiness, headings, keepEvents) {
    this.#protocol = protocol;
    this.#participants = participants;
    this.#readiness = readiness;
    this.headings = headings;
    this.headingSeqs = new Set(this.headings.map((h) => h.seq));
    this.events = keepEvents ? [] : undefined;
  }
  add(event) {
    const index = this.count++;
    this.events?.push(event);
    this.#checkShape(event, index);
    if (event.event === "review_submitted")
      this.reviewEvents.push(event);
    if (this.headingSeqs.has(event.seq) && !this.firstBySeq.has(event.seq))
      this.firstBySeq.set(event.seq, event);
    this.#noteDeliverable(event);
    applyEvent(this.state, event, this.#participants, this.#readiness);
    this.eventNames.add(event.event);
    if (event.event === "deliverable_frozen" && event.role === "primary")
      this.anyPrimaryFreeze = true;
  }
  #checkShape(event, index) {
    const errors = this.shapeErrors;
    const expected = index + 1;
    if (event.seq !== expected)
      errors.push(`events.jsonl: expected seq ${expected}, found ${seqText(event)}`);
    if (!(("seq" in event) && ("from" in event) && ("event" in event) && ("at" in event) && ("summary" in event))) {
      for (const field of EVENT_FIELDS)
        if (!(field in event))
          errors.push(`seq ${seqText(event)}: missing required field ${field}`);
    }
    if (!EVENT_NAME_SET.has(event.event))
      errors.push(`seq ${seqText(event)}: unknown event ${pyRepr(event.event)}`);
    if (DELIVERABLE_EVENTS.has(event.event)) {
      if (event.role !== "primary" && event.role !== "supporting")
        errors.push(`seq ${seqText(event)}: deliverable events require role`);
      if (typeof event.doc !== "string")
        errors.push(`seq ${seqText(event)}: deliverable events require doc`);
      if (event.event === "deliverable_frozen" && !(typeof event.sha256 === "string" && SHA256_HEX.test(event.sha256))) {
        errors.push(`seq ${seqText(event)}: deliverable_frozen requires sha256`);
      }
    }
    if (event.event !== "initialized") {
      const replyTo = event.reply_to;
      if (replyTo === undefined || replyTo === null)
        errors.push(`seq ${seqText(event)}: reply_to is required after initialized`);
      else if (!isInt(replyTo) || !(this.seenSeqs ? this.seenSeqs.has(replyTo) : replyTo >= 1 && replyTo <= index)) {
        errors.push(`seq ${seqText(event)}: reply_to must point to an earlier event`);
      }
    }
    const at = parseZonedTimestamp(event.at);
    if (at === undefined)
      errors.push(`seq ${seqText(event)}: at must be an ISO-8601 timestamp`);
    else {
      if (this.lastAt !== undefined && at < this.lastAt)
        errors.push(`seq ${seqText(event)}: at must not be earlier than the previous event`);
      this.lastAt = at;
    }
    if (this.seenSeqs)
      this.seenSeqs.add(event.seq);
    else if (event.seq !== expected) {
      this.seenSeqs = new Set([event.seq]);
      for (let seq = 1;seq <= index; seq++)
        this.seenSeqs.add(seq);
    }
  }
  #noteDeliverable(event) {
    if (!DELIVERABLE_EVENTS.has(event.event))
      return;
    if (event.role !== "primary" && event.role !== "supporting" || typeof event.doc !== "string")
      return;
    const docErrors = deliverableDocErrors(this.#protocol, event);
    const isFreeze = event.event === "deliverable_frozen";
    if (isFreeze) {
      if (event.role === "primary")
        this.primaryFreezes++;
      else
        this.frozenSupporting.add(event.doc);
    }
    if (docErrors.length || isFreeze)
      this.deliverableItems.push({ event, docErrors, freeze: isFreeze && !docErrors.length });
  }
}
async function validate(host, folder, registry) {
  const errors = [];
  const warnings = [];
  const fileErrors = await folderFileErrors(host, folder);
  let protocol;
  try {
    protocol = await readProtocol(host, folder);
  } catch (error) {
    if (!(error instanceof AcpError))
      throw error;
    return { ok: false, errors: [error.message, ...fileErrors], warnings };
  }
  errors.push(...fileErrors);
  const participants = checkDeclaration(protocol, errors);
  const dirs = new Set;
  if (typeof protocol.repoRoot === "string" && !nodePath7.isAbsolute(protocol.repoRoot)) {
    const resolved = nodePath7.resolve(folder, protocol.repoRoot);
    if ((await host.fs.stat(resolved))?.isDirectory)
      dirs.add(resolved);
  }
  const declarationOk = checkDeliverablesDeclaration(protocol, folder, errors, host, dirs, registry);
  const ref = declarationOk || isObject(protocol.deliverables?.primary) ? primaryRef(protocol) : undefined;
  const reviewText = await readTextIfExists(host, nodePath7.join(folder, "review.md"), "review.md", true);
  const readiness = readReadiness(await readTextIfExists(host, nodePath7.join(folder, "readiness.md"), "readiness.md", true) ?? "");
  const hooked = registry.hooks.has("validate");
  const checkpoint = hooked ? undefined : await ValidateCheckpoint.open(host, folder, { acp: VERSION2, participants, primary: primaryRef(protocol) ?? null, supporting: supportingRefs(protocol), gates: decisionGateErrors(readiness) });
  const headings = checkpoint ? await checkpoint.reviewHeadings(reviewText ?? "") : reviewHeadings(reviewText ?? "");
  const pass = await scanLog(host, folder, () => new LogPass(protocol, participants, readiness, headings, hooked), errors, checkpoint);
  errors.push(...pass.shapeErrors);
  checkReviews(reviewText, pass, ref, errors);
  await checkDeliverableEvents(host, folder, protocol, pass, errors);
  checkCachedState(protocol, pass.state, errors);
  if (declarationOk)
    await checkContent(host, folder, protocol, registry, pass, ref, { errors, warnings });
  await checkClosing(host, folder, protocol, pass, readiness, ref, { errors, warnings });
  if (hooked)
    await registry.hooks.call("validate", { folder, files: documentFiles(host, folder, protocol), protocol, events: pass.events ?? [], errors, warnings });
  return { ok: errors.length === 0, errors, warnings };
}
async function folderFileErrors(host, folder) {
  let names;
  try {
    names = new Set(await host.fs.readDir(folder));
  } catch {
    names = new Set;
  }
  const errors = [];
  for (const name of REQUIRED_FILES) {
    if (!names.has(name))
      errors.push(`missing ${name}`);
    else if (name.endsWith(".md") && (await host.fs.stat(nodePath7.join(folder, name)))?.isDirectory)
      errors.push(`${name} is a directory, not a file`);
  }
  for (const name of FORBIDDEN_FILES) {
    if (names.has(name))
      errors.push(`${name} is not part of the protocol; remove it and use events.jsonl/readiness.md instead`);
  }
  return errors;
}
function checkDeclaration(protocol, errors) {
  if (protocol.protocol !== "acp")
    errors.push("protocol.json protocol must be 'acp'");
  if (protocol.schemaVersion !== 2)
    errors.push("protocol.json schemaVersion must be 2");
  if (typeof protocol.currentPhase !== "string" || !PHASES.includes(protocol.currentPhase)) {
    errors.push(`currentPhase must be one of ${pyRepr([...PHASES])}`);
  }
  if (typeof protocol.objective !== "string" || pyStrip(protocol.objective) === "")
    errors.push("protocol.json objective must not be blank");
  let participants = [];
  try {
    participants = participantIds(protocol);
    if (!participants.length)
      errors.push("protocol.json participants must not be empty");
  } catch (error) {
    errors.push(error.message);
  }
  const gates = protocol.completionGates;
  if (!Array.isArray(gates) || gates.length === 0)
    errors.push("protocol.json completionGates must not be empty");
  else {
    gates.forEach((gate, index) => {
      if (!isObject(gate) || gate.source !== "objective" && gate.source !== "generated" || typeof gate.text !== "string" || pyStrip(gate.text) === "") {
        errors.push(`completionGates[${index + 1}] must include source and text`);
        return;
      }
      for (const name of FORBIDDEN_FILES)
        if (gate.text.includes(name))
          errors.push(`completion gate must not reference obsolete file ${name}`);
    });
  }
  if (!("waitingFor" in protocol))
    errors.push("protocol.json waitingFor must be present");
  if (!("proposalOwner" in protocol))
    errors.push("protocol.json proposalOwner must be present");
  return participants;
}
async function scanLog(host, folder, newPass, errors, checkpoint) {
  let pass = newPass();
  try {
    const log = await scanEventLog(host, folder, (event) => pass.add(event), checkpoint && ((file) => checkpoint.resume(file, pass)));
    if (!log.tornTail)
      await checkpoint?.save(log.lines, log.errors, pass);
    errors.push(...log.errors);
  } catch (error) {
    if (!(error instanceof AcpError))
      throw error;
    errors.push(error.message);
    pass = newPass();
  }
  return pass;
}
async function checkDeliverableEvents(host, folder, protocol, pass, errors) {
  for (const { event, docErrors, freeze } of pass.deliverableItems) {
    for (const message of docErrors)
      errors.push(`seq ${seqText(event)}: ${message}`);
    if (!freeze)
      continue;
    try {
      for (const message of await freezeErrors(host, folder, protocol, event.doc, event.sha256))
        errors.push(`seq ${seqText(event)}: ${message}`);
    } catch (error) {
      if (!(error instanceof AcpError))
        throw error;
      errors.push(`seq ${seqText(event)}: ${error.message}`);
    }
  }
  if (pass.primaryFreezes > 1)
    errors.push("primary deliverable can be frozen only once");
  for (const entry of supportingEntries(protocol)) {
    if (typeof entry.file !== "string")
      continue;
    const sref = deliverableRef(protocol, entry.file);
    if (entry.frozen && !pass.frozenSupporting.has(sref))
      errors.push(`supporting deliverable requires deliverable_frozen: ${sref}`);
    if (!entry.frozen && pass.frozenSupporting.has(sref))
      errors.push(`supporting deliverable has freeze event but is not marked frozen: ${sref}`);
  }
}
function checkCachedState(protocol, state, errors) {
  errors.push(...state.errors);
  const replayed = state.phase !== null;
  if (replayed && protocol.currentPhase !== state.phase)
    errors.push(`protocol.json currentPhase is ${pyStr(protocol.currentPhase)}, expected ${state.phase}`);
  if (replayed && protocol.proposalOwner !== state.proposalOwner) {
    errors.push(`protocol.json proposalOwner is '${pyStr(protocol.proposalOwner)}', expected '${pyStr(state.proposalOwner)}'`);
  }
  const cachedWaiting = protocol.waitingFor;
  if (!Array.isArray(cachedWaiting) || cachedWaiting.length !== state.waitingFor.length || cachedWaiting.some((v, i) => v !== state.waitingFor[i])) {
    errors.push(`protocol.json waitingFor is ${pyRepr(cachedWaiting)}, expected ${pyRepr(state.waitingFor)}`);
  }
}
async function checkContent(host, folder, protocol, registry, pass, ref, findings) {
  const deliverables = protocol.deliverables;
  const has = (name) => pass.eventNames.has(name);
  const frozenRequired = pass.primaryFreezes > 0 || has("readiness_passed") || has("completed");
  await checkDeliverableContent(host, folder, protocol, registry, deliverables.primary, ref, frozenRequired, true, findings);
  for (const entry of supportingEntries(protocol)) {
    const sref = deliverableRef(protocol, entry.file);
    await checkDeliverableContent(host, folder, protocol, registry, entry, sref, Boolean(entry.frozen) || pass.frozenSupporting.has(sref), false, findings);
  }
  const refs = [ref, ...supportingEntries(protocol).map((s) => deliverableRef(protocol, s.file))];
  checkDecisions(await readTextIfExists(host, nodePath7.join(folder, "decisions.md"), "decisions.md", true), refs, findings.errors);
  const attachments = Array.isArray(deliverables.attachments) ? deliverables.attachments.filter(isObject) : [];
  for (const attachment of attachments) {
    const file = attachment.file;
    if (!await host.fs.stat(attachmentPath(folder, protocol, file)))
      findings.errors.push(`attachment missing: ${file}`);
  }
}
async function checkClosing(host, folder, protocol, pass, readiness, ref, findings) {
  const { errors, warnings } = findings;
  const has = (name) => pass.eventNames.has(name);
  if (has("decision_accepted"))
    errors.push(...decisionGateErrors(readiness));
  if (has("readiness_passed") || has("completed")) {
    errors.push(...readinessGateErrors(readiness, "before readiness_passed or completed", true));
    if (pass.primaryFreezes === 0 && !pass.anyPrimaryFreeze)
      errors.push("readiness_passed requires primary deliverable_frozen");
  }
  if (has("completed")) {
    const unchecked = completionGateTexts(protocol).filter((gate) => !readiness.isGateChecked(gate));
    if (unchecked.length)
      errors.push(`completion gates must be checked before completed: ${unchecked.join(", ")}`);
    errors.push(...conclusionErrors(await readTextIfExists(host, nodePath7.join(folder, "conclusion.md"), "conclusion.md", true) ?? "", ref));
  } else if (readiness.deferredWithoutReason.length) {
    warnings.push("deferred_nonblocking readiness items should include a reason");
  }
}
function uniqueTrimmed(values) {
  const out = [];
  for (const value of values) {
    const trimmed = pyStrip(value);
    if (trimmed && !out.includes(trimmed))
      out.push(trimmed);
  }
  return out;
}
function planInit(folder, request, registry, now) {
  const objective = pyStrip(request.objective ?? "");
  if (!objective)
    throw new AcpError("--objective must not be blank");
  const participants = uniqueTrimmed(request.participants ?? []);
  if (participants.length < 2)
    throw new AcpError("at least two non-blank --participant values are required");
  const completion = (request.completion ?? []).map(pyStrip).filter(Boolean);
  if (!completion.length)
    throw new AcpError("at least one non-blank --completion is required");
  const typeName = pyStrip(request.primaryType ?? "");
  const definition = registry.type(typeName);
  if (!definition)
    throw new AcpError(`unknown deliverable type '${typeName}' (known: ${sortedPy(registry.types.keys()).join(", ")})`);
  const checks = (request.primaryChecks ?? []).map(pyStrip).filter(Boolean);
  const custom = typeName === "custom";
  const file = request.primaryFile !== undefined ? pyStrip(request.primaryFile) : definition.defaultFile;
  if (!file)
    throw new AcpError(custom ? "custom deliverables require --primary-deliverable-file" : `deliverable type '${typeName}' requires --primary-deliverable-file`);
  if (custom && !checks.length)
    throw new AcpError("custom deliverables require at least one --primary-deliverable-check");
  if (!file.endsWith(".md"))
    throw new AcpError("primary deliverable file must end with .md");
  if (isUnsafePath(file))
    throw new AcpError("primary deliverable file must be relative and must not contain ..");
  const dir = pyStrip(request.dir ?? "deliverables") || "deliverables";
  if (isUnsafePath(dir))
    throw new AcpError("--deliverables-dir must be relative and must not contain ..");
  const mode = pyStrip(request.mode ?? "internal") || "internal";
  if (mode !== "internal" && mode !== "external")
    throw new AcpError("--deliverables-mode must be 'internal' or 'external'");
  const repoRoot = request.repoRoot === undefined ? undefined : pyStrip(request.repoRoot);
  if (mode === "external" && !repoRoot)
    throw new AcpError("--repo-root is required when --deliverables-mode external");
  if (mode === "external" && nodePath7.isAbsolute(repoRoot))
    throw new AcpError("--repo-root must be relative to the collaboration folder");
  if (mode === "internal" && repoRoot !== undefined)
    throw new AcpError("--repo-root is only allowed when --deliverables-mode external");
  const sections = callType(registry, typeName, "sections()", () => definition.sections(checks), isStringList);
  const recordAsCustom = !custom && (definition.recordAsCustom ?? !validationTypes.has(typeName));
  const primary = { type: recordAsCustom ? "custom" : typeName, file, checklist: custom ? checks : recordAsCustom ? sections : [] };
  if (recordAsCustom)
    primary.pluginType = typeName;
  const ref = refOf(mode, dir, file);
  const defaults = defaultGates(ref, primary.type);
  const gates = definition.gates?.bind(definition);
  const generated = gates ? callType(registry, typeName, "gates()", () => gates({ ref, type: primary.type, defaults: [...defaults] }), isStringList) : defaults;
  const stamp = formatTimestamp(now);
  const protocol = {
    protocol: "acp",
    schemaVersion: 2,
    objective,
    objectiveGates: completion,
    participants: participants.map((id) => ({ id })),
    completionGates: [...completion.map((text) => ({ source: "objective", text })), ...generated.map((text) => ({ source: "generated", text }))],
    deliverables: { mode, dir, owner: participants[0], coAuthors: [], primary, supporting: [], attachments: [] },
    currentPhase: "drafting",
    proposalOwner: participants[0],
    waitingFor: [participants[0]],
    createdAt: stamp,
    updatedAt: stamp
  };
  if (mode === "external")
    protocol.repoRoot = repoRoot;
  const render = definition.template?.bind(definition) ?? defaultTemplate;
  const template = callType(registry, typeName, "template()", () => render({ title: definition.title, type: typeName, sections: [...sections] }), (t) => typeof t === "string");
  const deliverablePath = mode === "external" ? nodePath7.join(repoRoot, dir, file) : nodePath7.join(dir, file);
  const files = new Map([
    ...Object.entries(initialDocuments({ objective, owner: participants[0], participants, ref, title: definition.title, gates: protocol.completionGates.map((gate) => gate.text) })),
    [deliverablePath, template]
  ]);
  return { protocol, files };
}
async function init(host, folder, request, registry) {
  const protocolPath = nodePath7.join(folder, "protocol.json");
  const planned = planInit(folder, request, registry, host.now());
  if (await host.fs.stat(protocolPath)) {
    if (request.resume)
      return { created: false, files: [] };
    throw new AcpError("collaboration folder already contains protocol.json; use --resume to acknowledge it");
  }
  const unfinished = await readInitJournal(host, folder);
  if (unfinished) {
    if (!request.resume)
      throw new AcpError(`an interrupted init left files in ${folder}; run init again with --resume to complete it`);
    await writeInitFiles(host, folder, unfinished.files, true);
    return { created: true, protocol: JSON.parse(unfinished.files.find(([name]) => name === "protocol.json")[1]), files: unfinished.files.map(([name]) => name) };
  }
  const { protocol, files } = planned;
  if (registry.hooks.has("init:files"))
    await registry.hooks.call("init:files", { folder, protocol, files });
  const event = { seq: 1, from: protocol.proposalOwner, event: "initialized", at: protocol.createdAt, summary: INIT_SUMMARY, doc: "protocol.json" };
  const all = new Map([["protocol.json", formatProtocolJson(protocol)], ...files, ["events.jsonl", formatEventLine(event)]]);
  const existing = [];
  for (const relative of all.keys()) {
    if (isUnsafePath(relative) && !relative.startsWith(protocol.repoRoot ?? "\x00"))
      throw new AcpError(`refusing to write outside the folder: ${relative}`);
    if (await host.fs.stat(nodePath7.resolve(folder, relative)))
      existing.push(relative);
  }
  if (existing.length) {
    throw new AcpError(`refusing to overwrite existing files in ${folder}: ${existing.join(", ")} (init never replaces files; move them away or use another folder)`);
  }
  if (protocol.repoRoot !== undefined) {
    const root = nodePath7.resolve(folder, protocol.repoRoot);
    if (root === nodePath7.parse(root).root)
      throw new AcpError("--repo-root must not resolve to the filesystem root");
  }
  await host.fs.mkdir(folder);
  await writeInitFiles(host, folder, [...all], false);
  return { created: true, protocol, files: [...all.keys()] };
}
var INIT_JOURNAL = ".acp.init.json";
async function readInitJournal(host, folder) {
  let text;
  try {
    text = await readTextIfExists(host, nodePath7.join(folder, INIT_JOURNAL), INIT_JOURNAL);
  } catch {
    text = undefined;
  }
  if (text === undefined)
    return;
  try {
    const value = JSON.parse(text);
    const files = value.files;
    const entries = Array.isArray(files) && files.every((f) => Array.isArray(f) && f.length === 2 && typeof f[0] === "string" && typeof f[1] === "string") ? files : [];
    const protocolText = entries.find(([name]) => name === "protocol.json")?.[1];
    const repoRoot = protocolText === undefined ? undefined : JSON.parse(protocolText).repoRoot;
    const safe = entries.every(([name]) => !isUnsafePath(name) || typeof repoRoot === "string" && name.startsWith(repoRoot));
    if (protocolText !== undefined && safe)
      return { files: entries };
  } catch {}
  throw new AcpError(`${nodePath7.join(folder, INIT_JOURNAL)} is not an init journal acp wrote; remove it and the files of the interrupted init`);
}
async function writeInitFiles(host, folder, all, resume) {
  const journal = nodePath7.join(folder, INIT_JOURNAL);
  const written = [];
  try {
    if (!resume)
      await writeFileAtomic(host, journal, JSON.stringify({ files: all }));
    for (const [relative, text] of all) {
      if (relative === "protocol.json")
        continue;
      const path = nodePath7.resolve(folder, relative);
      await host.fs.mkdir(nodePath7.dirname(path));
      if (resume)
        await writeFileAtomic(host, path, text);
      else
        await host.fs.writeFile(path, text, { exclusive: true });
      written.push(relative);
    }
    const protocolPath = nodePath7.join(folder, "protocol.json");
    if (await host.fs.stat(protocolPath))
      throw fsError("EEXIST", protocolPath);
    await writeFileAtomic(host, protocolPath, all.find(([name]) => name === "protocol.json")[1]);
  } catch (error) {
    if (!resume) {
      for (const relative of written)
        await host.fs.remove(nodePath7.resolve(folder, relative)).catch(() => {
          return;
        });
      await host.fs.remove(journal).catch(() => {
        return;
      });
    }
    if (errorCode(error) === "EEXIST")
      throw new AcpError(`refusing to overwrite a file created while initialising ${folder}; nothing was kept`);
    throw error;
  }
  await host.fs.remove(journal).catch(() => {
    return;
  });
}
function cachedWaiting(protocol) {
  return Array.isArray(protocol.waitingFor) ? protocol.waitingFor.map((v) => pyStr(v)) : [];
}
async function nextAction(host, folder, participant, registry) {
  const protocol = await readProtocol(host, folder);
  if (!participantIds(protocol).includes(participant))
    throw new AcpError(`participant ${pyRepr(participant)} is not listed in protocol.json`, 2, "unknown_participant");
  const log = await readEventLogSettled(host, folder);
  if (log.errors.length)
    throw new AcpError(log.errors, 2, "invalid_log");
  const events = log.events;
  const phase = pyStr(protocol.currentPhase);
  const owner = pyStr(protocol.proposalOwner);
  const waiting = cachedWaiting(protocol);
  const isWaiting = waiting.includes(participant);
  const latest = (names) => [...events].reverse().find((e) => names.includes(e.event));
  let action;
  let exitCode = 0;
  switch (protocol.currentPhase) {
    case "drafting":
      action = isWaiting ? "draft the primary deliverable, append deliverable_drafted, update proposal.md, then append proposal_submitted." : "wait for the proposal owner to submit the proposal.";
      break;
    case "reviewing": {
      const proposal = latest(["proposal_submitted"]) ?? latest(["proposal_revised"]);
      if (isWaiting && proposal !== undefined && proposal.from !== participant)
        action = "review proposal.md and the primary deliverable, update review.md with Review Scope, then append review_submitted.";
      else if (participant === protocol.proposalOwner)
        action = "wait for the listed reviewer(s); do not edit proposal.md or deliverables while reviewing unless blocking the collaboration.";
      else
        action = "wait for the listed reviewer(s) to submit review_submitted or blocked.";
      break;
    }
    case "revising": {
      const review = latest(["review_submitted"]);
      action = isWaiting && review && review.from !== participant ? "revise proposal.md and deliverables as needed, append deliverable_revised if the deliverable changed, then append proposal_revised." : "wait for the proposal owner to revise.";
      break;
    }
    case "decision_review":
      action = isWaiting && !events.some((e) => e.event === "decision_accepted" && e.from === participant) ? "review decisions.md and append decision_accepted only if decisions are explicit." : "wait for remaining participants to accept decisions.";
      break;
    case "readiness_check": {
      const readiness = await readReadinessFile(host, folder);
      const conclusion = await readTextIfExists(host, nodePath7.join(folder, "conclusion.md"), "conclusion.md") ?? "";
      if (readiness.blocking.length || readiness.unresolved.length || readiness.deferredWithoutReason.length) {
        action = "classify readiness.md questions and clear blockers before readiness_passed.";
      } else if (!readiness.readyToImplement)
        action = "complete the final design checklist in readiness.md.";
      else if (!events.some((e) => e.event === "readiness_passed"))
        action = "run validate_collaboration.py, then append readiness_passed.";
      else if (!events.some((e) => e.event === "deliverable_frozen" && e.role === "primary")) {
        action = "freeze the primary deliverable with deliverable_frozen, run validate_collaboration.py, then append readiness_passed.";
      } else if (conclusionErrors(conclusion, primaryRef(protocol)).length) {
        action = "write conclusion.md with the final outcome, deliverable receipt, readiness result, and next action.";
      } else
        action = "run validate_collaboration.py, then append completed with doc=conclusion.md.";
      break;
    }
    case "completed":
      action = "stop; collaboration is complete.";
      break;
    case "blocked":
      action = "resolve the blocker or start a new collaboration round.";
      break;
    default:
      action = "run validate_collaboration.py; current phase is invalid.";
      exitCode = 1;
  }
  const last = events.at(-1);
  const result = { phase, proposalOwner: owner, waitingFor: waiting, action, exitCode };
  if (last)
    result.lastEvent = { seq: last.seq, event: last.event, from: last.from };
  if (registry?.hooks.has("next")) {
    const hints = [];
    await registry.hooks.call("next", { folder, files: documentFiles(host, folder, protocol), participant, result, hints });
    if (hints.length)
      result.hints = hints;
  }
  return result;
}
function formatNext(result) {
  const lines = [`phase: ${result.phase}`, `proposal owner: ${result.proposalOwner}`, `waiting for: ${result.waitingFor.length ? result.waitingFor.join(", ") : "none"}`];
  if (result.lastEvent)
    lines.push(`last event: seq ${pyStr(result.lastEvent.seq)} ${pyStr(result.lastEvent.event)} from ${pyStr(result.lastEvent.from)}`);
  lines.push(`next action: ${result.action}`);
  for (const hint of result.hints ?? [])
    lines.push(`hint: ${hint}`);
  return lines.join(`
`);
}
function followFolder(host, folder, signal) {
  let wake;
  let pending = false;
  const notify = () => {
    pending = true;
    wake?.();
  };
  const stopWatching = host.fs.watch?.(folder, notify) ?? (() => {
    return;
  });
  signal?.addEventListener("abort", notify);
  return {
    settle: () => void (pending = false),
    next: (ms) => pending || signal?.aborted ? Promise.resolve(true) : new Promise((resolve) => {
      const timer = setTimeout(() => done(false), ms);
      function done(changed) {
        clearTimeout(timer);
        wake = undefined;
        resolve(changed);
      }
      wake = () => done(true);
    }),
    close: () => {
      stopWatching();
      signal?.removeEventListener("abort", notify);
      wake?.();
    }
  };
}
var UNREADABLE_GRACE_MS = 2000;
async function waitForTurn(host, folder, participant, options = {}, registry) {
  const intervalMs = Math.max(0.01, options.intervalSeconds ?? DEFAULT_WAIT_INTERVAL_SECONDS) * 1000;
  const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_WAIT_TIMEOUT_SECONDS;
  const deadline = timeoutSeconds > 0 ? host.now().getTime() + timeoutSeconds * 1000 : Infinity;
  const follower = followFolder(host, folder, options.signal);
  let lastReport = "";
  let everRead = false;
  let unreadableSince;
  let logCache;
  try {
    for (;; ) {
      if (options.signal?.aborted)
        throw new AcpAbortError;
      follower.settle();
      let protocol;
      let log;
      try {
        protocol = await readProtocol(host, folder);
        if (!participantIds(protocol).includes(participant))
          throw new AcpError(`participant ${pyRepr(participant)} is not listed in protocol.json`, 2, "unknown_participant");
        const st = await host.fs.stat(nodePath7.join(folder, "events.jsonl"));
        const key = !st ? "missing" : st.ino !== undefined && st.ctimeMs !== undefined ? `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}` : undefined;
        if (key === undefined || logCache?.key !== key) {
          let last;
          const read = await scanEventLog(host, folder, (event) => void (last = event));
          logCache = { key: key ?? "", errors: read.errors, last };
        }
        log = logCache;
        if (log.errors.length)
          throw new AcpError(log.errors, 2, "invalid_log");
        unreadableSince = undefined;
      } catch (error) {
        if (!(error instanceof AcpError) || !everRead)
          throw error;
        unreadableSince ??= host.now().getTime();
        if (host.now().getTime() - unreadableSince > UNREADABLE_GRACE_MS)
          throw error;
        await sleep(25);
        continue;
      }
      everRead = true;
      const waiting = cachedWaiting(protocol);
      let reason;
      if (waiting.includes(participant))
        reason = `ready: ${participant} is listed in waitingFor`;
      else if (protocol.currentPhase === "completed" || protocol.currentPhase === "blocked")
        reason = `ready: phase is ${pyStr(protocol.currentPhase)}`;
      if (reason)
        return { reason, next: await nextAction(host, folder, participant, registry) };
      const last = log.last;
      const report = `waiting for ${waiting.length ? waiting.join(", ") : "none"}${last ? ` after seq ${pyStr(last.seq)}` : ""}`;
      if (report !== lastReport) {
        options.onProgress?.(`waiting: ${report}`);
        lastReport = report;
      }
      const remaining = deadline - host.now().getTime();
      if (remaining <= 0)
        throw new AcpTimeoutError(`timeout: ${report}`);
      await follower.next(Math.min(intervalMs, remaining));
    }
  } finally {
    follower.close();
  }
}
async function openCollaboration(folder, options = {}) {
  const host = options.host ?? await createNodeHost();
  const registry = options.registry ?? await createRegistry();
  const absolute = host.resolvePath(folder);
  return {
    folder: absolute,
    host,
    registry,
    init: (request) => init(host, absolute, request, registry),
    append: (request) => append(host, absolute, request, registry),
    state: async () => {
      const protocol = await readProtocol(host, absolute);
      const log = await readEventLog(host, absolute);
      if (log.errors.length)
        throw new AcpError(log.errors, 2, "invalid_log");
      return replay(log.events, participantIds(protocol), await readReadinessFile(host, absolute));
    },
    validate: () => validate(host, absolute, registry),
    next: (participant) => nextAction(host, absolute, participant, registry),
    wait: (participant, options) => waitForTurn(host, absolute, participant, options, registry)
  };
}
var sharedApi;
function libraryApi() {
  return sharedApi ??= Object.freeze(apiObject());
}
function apiObject() {
  return {
    VERSION: VERSION2,
    LOCK_NAME,
    CHECKPOINT_NAME,
    LOCK_BREAKER,
    EVENT_NAMES,
    PHASES,
    REQUIRED_FILES,
    FORBIDDEN_FILES,
    CONCLUSION_SECTIONS,
    DEFAULT_WAIT_TIMEOUT_SECONDS,
    DEFAULT_WAIT_INTERVAL_SECONDS,
    AcpError,
    AcpTimeoutError,
    AcpAbortError,
    AcpPluginError,
    AcpAppendedError,
    UsageError,
    createNodeHost,
    createMemoryHost,
    createMemoryFileSystem,
    openCollaboration,
    createRegistry,
    pluginContext,
    init,
    append,
    validate,
    nextAction,
    formatNext,
    waitForTurn,
    followFolder,
    readProtocol,
    readEventLog,
    scanEventLog,
    parseEventLog,
    formatEventLine,
    jsonErrorDetail,
    nextSeq,
    emptyState,
    applyEvent,
    replay,
    participantIds,
    isUnsafePath,
    deliverableRef,
    primaryRef,
    resolveDeliverablePath,
    readDeliverable,
    documentFiles,
    checkedDocumentPath,
    markdown,
    readReadiness,
    decisionGateErrors,
    conclusionErrors,
    defaultTemplate,
    defaultGates,
    reviewHeadings,
    parseZonedTimestamp,
    inspectFolderLock,
    withFolderLock,
    writeFileAtomic,
    decodeText,
    sha256Hex,
    formatTimestamp,
    formatProtocolJson,
    pyRepr,
    pyStr,
    pyStrip,
    purePosixPath,
    expandUser,
    comparePy,
    sortedPy,
    parseArgv,
    parsePyInt,
    parsePyFloat,
    runCommand,
    describeError
  };
}
async function runCli(io, hostOverride) {
  const host = hostOverride ?? await createNodeHost();
  const found = commandWord(io.argv);
  const argv = io.argv.filter((_, index) => index !== found.index);
  const wantsJson = argv.includes("--json");
  let registry;
  try {
    if (found.word === undefined && (argv.includes("--version") || argv.includes("-v"))) {
      io.stdout(`acp/${VERSION2}
`);
      return 0;
    }
    const globals = parsePartial(argv);
    const runtime = io.runtime ?? await (await Promise.resolve().then(() => (init_process(), exports_process))).createProcessRuntime();
    registry = await createRegistry({
      host,
      runtime,
      config: globals.config,
      plugins: globals.plugins,
      via: "--plugin",
      cwd: host.resolvePath("."),
      folder: globals.folder === undefined ? undefined : host.resolvePath(globals.folder),
      warn: (message) => io.stderr(`warning: ${message}
`),
      builtIns: true,
      env: io.env,
      collaborationRoots: found.word === "serve" ? [host.resolvePath(globals.root ?? ".")] : undefined
    });
    const code = await dispatch({ ...io, runtime }, host, registry, found.word, argv);
    await registry.cleanup();
    return code;
  } catch (error) {
    return reportError(io, error, wantsJson);
  } finally {
    await registry?.cleanup().catch((error) => io.stderr(`error: ${error.message}
`));
  }
}
async function dispatch(io, host, registry, word, argv) {
  const out = (text) => io.stdout(`${text}
`);
  if (word === undefined) {
    if (argv.includes("--help") || argv.includes("-h")) {
      io.stdout(formatHelp(registry, VERSION2));
      return 0;
    }
    throw new UsageError(`a command is required (${[...registry.commands.keys()].join(", ")})`);
  }
  const entry = registry.commands.get(word);
  if (!entry)
    throw new UsageError(`unknown command '${word}' (commands: ${[...registry.commands.keys()].join(", ")})`);
  const spec = entry.spec;
  const parsed = parseArgv(argv, spec);
  if (parsed.options.help) {
    io.stdout(formatHelp(registry, VERSION2, spec));
    return 0;
  }
  const result = await runCommand(registry, word, parsed, {
    host,
    runtime: io.runtime,
    out,
    err: (text) => io.stderr(`${text}
`),
    color: io.color,
    signal: io.signal,
    env: io.env
  });
  if (parsed.options.json === true && result.json)
    out(JSON.stringify(jsonWithOutcome(result.json, result.exitCode)));
  return result.exitCode;
}
function jsonWithOutcome(json, exitCode) {
  if (!isObject(json))
    return json;
  return { ...json, ok: exitCode === 0 ? json.ok !== false : false, exitCode };
}
async function runCommand(registry, name, input, where) {
  const entry = registry.commands.get(name);
  if (!entry)
    throw new UsageError(`unknown command '${name}' (commands: ${[...registry.commands.keys()].join(", ")})`);
  const options = input.options ?? {};
  checkOptionValues(entry.spec, options);
  const context = {
    name,
    args: input.args ?? {},
    options,
    api: libraryApi(),
    host: where.host,
    registry,
    runtime: where.runtime ?? { name: "unknown" },
    out: where.out ?? (() => {
      return;
    }),
    err: where.err ?? (() => {
      return;
    }),
    json: options.json === true,
    color: where.color ?? false,
    signal: where.signal ?? new AbortController().signal,
    env: (variable) => where.env?.(variable),
    folder: () => folderOption(where.host, options.folder, where.env)
  };
  return runCommandChain(entry.chain, context);
}
async function runCommandChain(chain, context, index = chain.length - 1) {
  const spec = chain[index];
  const next = () => index > 0 ? runCommandChain(chain, context, index - 1) : Promise.resolve({ exitCode: 0 });
  const outcome = await spec.run({ ...context, next });
  return typeof outcome === "object" ? outcome : { exitCode: outcome ?? 0 };
}
function folderOption(host, value, env) {
  if (typeof value !== "string")
    throw new UsageError("the following arguments are required: --folder");
  if (value.includes("\x00"))
    throw new UsageError("argument --folder: a path cannot contain a NUL character");
  return host.resolvePath(expandUser(value, env));
}
function expandUser(path, env) {
  if (path !== "~" && !path.startsWith("~/"))
    return path;
  const home = env?.("HOME");
  if (!home)
    throw new AcpError("Could not determine home directory.");
  return path === "~" ? home : `${home.replace(/\/+$/, "")}${path.slice(1)}`;
}
function reportError(io, error, wantsJson) {
  const described = describeError(error);
  if (!described) {
    io.stderr(`error: internal error: ${error instanceof Error ? error.message : String(error)}
`);
    if (io.argv.includes("--debug") && error instanceof Error && error.stack)
      io.stderr(`${error.stack}
`);
    return 70;
  }
  const { message, exitCode, code } = described;
  const appended = error instanceof AcpAppendedError ? error.appended : undefined;
  if (wantsJson)
    io.stdout(`${JSON.stringify({ ok: false, error: message, exitCode, code, ...appended ? { appended: appended.event } : {} })}
`);
  else if (appended)
    io.stdout(`appended seq ${appended.event.seq}: ${appended.event.event}
`);
  io.stderr(`error: ${message}
`);
  return exitCode;
}
function describeError(error) {
  if (error instanceof AcpError)
    return { message: error.message, exitCode: error.exitCode, code: error.code };
  const errno = errorCode(error);
  if (errno === "EFTYPE" || errno === "EFBIG")
    return { message: error.message.replace(/^E[A-Z]+: /, ""), exitCode: 2, code: "invalid_folder" };
  if (errno !== undefined && /^E[A-Z0-9]+$/.test(errno))
    return { message: `file system error: ${error.message}`, exitCode: 2, code: "file_system" };
  return;
}
async function main() {
  await (await Promise.resolve().then(() => (init_process(), exports_process))).runProcess((io, host) => runCli(io, host));
}
async function isEntryPoint() {
  const meta = __acpMeta;
  if (typeof meta.main === "boolean")
    return meta.main;
  const script = globalThis.process?.argv?.[1];
  if (!script || !__acpMeta.url.startsWith("file:"))
    return false;
  const { fileURLToPath } = await builtinModule("node:url", () => __acpLoad("node:url"));
  const { realpathSync } = await builtinModule("node:fs", () => __acpLoad("node:fs"));
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(__acpMeta.url));
  } catch {
    return false;
  }
}
if (await isEntryPoint())
  await main();
return { AcpAbortError, AcpAppendedError, AcpError, AcpPluginError, AcpTimeoutError, CHECKPOINT_NAME, CONCLUSION_SECTIONS, DEFAULT_HOOK_TIMEOUT_MS, DEFAULT_WAIT_INTERVAL_SECONDS, DEFAULT_WAIT_TIMEOUT_SECONDS, EVENT_NAMES, FORBIDDEN_FILES, HOOK_NAMES, HookRunner, LOCK_BREAKER, LOCK_NAME, PHASES, REQUIRED_FILES, Registry, UsageError, "VERSION": VERSION2, append, applyEvent, callType, checkedDocumentPath, comparePy, conclusionErrors, createMemoryFileSystem, createMemoryHost, createNodeHost, createRegistry, decisionGateErrors, decodeText, defaultGates, defaultTemplate, defineDeliverableType, definePlugin, deliverableRef, describeError, documentFiles, emptyState, expandUser, followFolder, formatEventLine, formatNext, formatProtocolJson, formatTimestamp, fsError, init, inspectFolderLock, isUnsafePath, jsonErrorDetail, libraryApi, loadBuiltInTypes, markdown, nextAction, nextSeq, openCollaboration, parseArgv, parseEventLog, parsePyFloat, parsePyInt, parseZonedTimestamp, participantIds, planInit, pluginContext, primaryRef, purePosixPath, pyRepr, pyStr, pyStrip, readCapped, readDeliverable, readEventLog, readProtocol, readReadiness, replay, resolveDeliverablePath, reviewHeadings, runCli, runCommand, scanEventLog, sha256Hex, sortedPy, validate, waitForTurn, withFolderLock, writeFileAtomic };

};
