#!/usr/bin/env node
import { createRequire } from "node:module";
var __create = Object.create;
var __getProtoOf = Object.getPrototypeOf;
var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
function __accessProp(key) {
  return this[key];
}
var __toESMCache_node;
var __toESMCache_esm;
var __toESM = (mod, isNodeMode, target) => {
  var canCache = mod != null && typeof mod === "object";
  if (canCache) {
    var cache = isNodeMode ? __toESMCache_node ??= new WeakMap : __toESMCache_esm ??= new WeakMap;
    var cached = cache.get(mod);
    if (cached)
      return cached;
  }
  target = mod != null ? __create(__getProtoOf(mod)) : {};
  const to = isNodeMode || !mod || !mod.__esModule || !__hasOwnProp.call(mod, "default") ? __defProp(target, "default", { value: mod, enumerable: true }) : target;
  if (mod && typeof mod === "object" || typeof mod === "function") {
    for (let key of __getOwnPropNames(mod))
      if (!__hasOwnProp.call(to, key))
        __defProp(to, key, {
          get: __accessProp.bind(mod, key),
          enumerable: true
        });
  }
  if (canCache)
    cache.set(mod, to);
  return to;
};
var __commonJS = (cb, mod) => () => (mod || cb((mod = { exports: {} }).exports, mod), mod.exports);
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
var __require = /* @__PURE__ */ createRequire(import.meta.url);

// plugins/core/util.ts
import * as nodePath from "node:path";
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function errorCode(error) {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}
function fsError(code, message) {
  const error = new Error(`${code}: ${message}`);
  error.code = code;
  return error;
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

// plugins/core/node-host.ts
import * as nodePath2 from "node:path";
async function createNodeHost(options = {}) {
  const fs = await import("node:fs");
  const fsp = fs.promises;
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
    writeFile: async (path, data, options) => {
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
      const handle = options?.exclusive ? await fd.open(path, c.O_WRONLY | c.O_CREAT | c.O_EXCL) : await openRegular(path, c.O_WRONLY | c.O_CREAT);
      try {
        if (!options?.exclusive)
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
    rename: async (from, to) => sync ? fs.renameSync(from, to) : fsp.rename(from, to),
    remove: async (path) => {
      if (sync)
        fs.rmSync(path, { force: true });
      else
        await fsp.rm(path, { force: true });
    },
    mkdir: async (path) => {
      if (sync)
        fs.mkdirSync(path, { recursive: true });
      else
        await fsp.mkdir(path, { recursive: true });
    },
    stat: async (path) => {
      try {
        const link = sync ? fs.lstatSync(path) : await fsp.lstat(path);
        let target = link;
        if (link.isSymbolicLink()) {
          try {
            target = sync ? fs.statSync(path) : await fsp.stat(path);
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
          ino: target.ino
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
    realpath: async (path) => sync ? (fs.realpathSync.native ?? fs.realpathSync)(path) : fsp.realpath(path),
    readDir: async (path) => sync ? fs.readdirSync(path) : fsp.readdir(path),
    truncate: async (path, size) => sync ? fs.truncateSync(path, size) : fsp.truncate(path, size),
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
  let hostname;
  if (granted({ name: "sys", kind: "hostname" })) {
    try {
      hostname = (await import("node:os")).hostname() || undefined;
    } catch {
      hostname = undefined;
    }
  }
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
  let pidNamespace;
  try {
    pidNamespace = mayReadProc ? String(fs.statSync("/proc/self/ns/pid").ino) : undefined;
  } catch {
    pidNamespace = undefined;
  }
  const identity = { bootId: readProc("/proc/sys/kernel/random/boot_id"), pidNamespace, startTime: startTime("self") };
  return {
    fs: nodeFs,
    now: () => new Date,
    pid: proc?.pid ?? 0,
    hostname,
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
    identity,
    processStartTime: (pid) => Number.isSafeInteger(pid) && pid > 0 ? startTime(pid) : undefined,
    resolvePath: (path) => nodePath2.resolve(path)
  };
}
var init_node_host = __esm(() => {
  init_util();
});

// plugins/core/define.ts
function defineDeliverableType(definition) {
  return definition;
}
function definePlugin(definition) {
  return definition;
}

// node_modules/valibot/dist/index.mjs
var exports_dist = {};
__export(exports_dist, {
  BASE64_REGEX: () => BASE64_REGEX,
  BIC_REGEX: () => BIC_REGEX,
  CUID2_REGEX: () => CUID2_REGEX,
  DECIMAL_REGEX: () => DECIMAL_REGEX,
  DIGITS_REGEX: () => DIGITS_REGEX,
  DOMAIN_REGEX: () => DOMAIN_REGEX,
  EMAIL_REGEX: () => EMAIL_REGEX,
  EMOJI_REGEX: () => EMOJI_REGEX,
  HEXADECIMAL_REGEX: () => HEXADECIMAL_REGEX,
  HEX_COLOR_REGEX: () => HEX_COLOR_REGEX,
  IMEI_REGEX: () => IMEI_REGEX,
  IPV4_REGEX: () => IPV4_REGEX,
  IPV6_REGEX: () => IPV6_REGEX,
  IP_REGEX: () => IP_REGEX,
  ISO_DATE_REGEX: () => ISO_DATE_REGEX,
  ISO_DATE_TIME_REGEX: () => ISO_DATE_TIME_REGEX,
  ISO_DATE_TIME_SECOND_REGEX: () => ISO_DATE_TIME_SECOND_REGEX,
  ISO_TIMESTAMP_REGEX: () => ISO_TIMESTAMP_REGEX,
  ISO_TIME_REGEX: () => ISO_TIME_REGEX,
  ISO_TIME_SECOND_REGEX: () => ISO_TIME_SECOND_REGEX,
  ISO_WEEK_REGEX: () => ISO_WEEK_REGEX,
  ISRC_REGEX: () => ISRC_REGEX,
  JWS_COMPACT_REGEX: () => JWS_COMPACT_REGEX,
  KSUID_REGEX: () => KSUID_REGEX,
  MAC48_REGEX: () => MAC48_REGEX,
  MAC64_REGEX: () => MAC64_REGEX,
  MAC_REGEX: () => MAC_REGEX,
  NANO_ID_REGEX: () => NANO_ID_REGEX,
  OCTAL_REGEX: () => OCTAL_REGEX,
  RFC_EMAIL_REGEX: () => RFC_EMAIL_REGEX,
  SLUG_REGEX: () => SLUG_REGEX,
  ULID_REGEX: () => ULID_REGEX,
  UUID_REGEX: () => UUID_REGEX,
  ValiError: () => ValiError,
  _addIssue: () => _addIssue,
  _cloneDataset: () => _cloneDataset,
  _formatCase: () => _formatCase,
  _getByteCount: () => _getByteCount,
  _getCodePointCount: () => _getCodePointCount,
  _getGraphemeCount: () => _getGraphemeCount,
  _getLastMetadata: () => _getLastMetadata,
  _getWordCount: () => _getWordCount,
  _isLuhnAlgo: () => _isLuhnAlgo,
  _isSameValueZero: () => _isSameValueZero,
  _isValidObjectKey: () => _isValidObjectKey,
  _isValueMatch: () => _isValueMatch,
  _joinExpects: () => _joinExpects,
  _standardSchema: () => _standardSchema,
  _stringify: () => _stringify,
  any: () => any,
  args: () => args,
  argsAsync: () => argsAsync,
  array: () => array,
  arrayAsync: () => arrayAsync,
  assert: () => assert,
  awaitAsync: () => awaitAsync,
  base64: () => base64,
  bic: () => bic,
  bigint: () => bigint,
  blob: () => blob,
  boolean: () => boolean,
  brand: () => brand,
  bytes: () => bytes,
  cache: () => cache,
  cacheAsync: () => cacheAsync,
  check: () => check,
  checkAsync: () => checkAsync,
  checkItems: () => checkItems,
  checkItemsAsync: () => checkItemsAsync,
  codePoints: () => codePoints,
  config: () => config,
  creditCard: () => creditCard,
  cuid2: () => cuid2,
  custom: () => custom,
  customAsync: () => customAsync,
  date: () => date,
  decimal: () => decimal,
  deleteGlobalConfig: () => deleteGlobalConfig,
  deleteGlobalMessage: () => deleteGlobalMessage,
  deleteSchemaMessage: () => deleteSchemaMessage,
  deleteSpecificMessage: () => deleteSpecificMessage,
  description: () => description,
  digits: () => digits,
  domain: () => domain,
  email: () => email,
  emoji: () => emoji,
  empty: () => empty,
  endsWith: () => endsWith,
  entries: () => entries,
  entriesFromList: () => entriesFromList,
  entriesFromObjects: () => entriesFromObjects,
  enum: () => enum_,
  enum_: () => enum_,
  everyItem: () => everyItem,
  exactOptional: () => exactOptional,
  exactOptionalAsync: () => exactOptionalAsync,
  examples: () => examples,
  excludes: () => excludes,
  fallback: () => fallback,
  fallbackAsync: () => fallbackAsync,
  file: () => file,
  filterItems: () => filterItems,
  findItem: () => findItem,
  finite: () => finite,
  flatten: () => flatten,
  flavor: () => flavor,
  forward: () => forward,
  forwardAsync: () => forwardAsync,
  function: () => function_,
  function_: () => function_,
  getDefault: () => getDefault,
  getDefaults: () => getDefaults,
  getDefaultsAsync: () => getDefaultsAsync,
  getDescription: () => getDescription,
  getDotPath: () => getDotPath,
  getExamples: () => getExamples,
  getFallback: () => getFallback,
  getFallbacks: () => getFallbacks,
  getFallbacksAsync: () => getFallbacksAsync,
  getGlobalConfig: () => getGlobalConfig,
  getGlobalMessage: () => getGlobalMessage,
  getMetadata: () => getMetadata,
  getSchemaMessage: () => getSchemaMessage,
  getSpecificMessage: () => getSpecificMessage,
  getTitle: () => getTitle,
  graphemes: () => graphemes,
  gtValue: () => gtValue,
  guard: () => guard,
  hash: () => hash,
  hexColor: () => hexColor,
  hexadecimal: () => hexadecimal,
  imei: () => imei,
  includes: () => includes,
  instance: () => instance,
  integer: () => integer,
  intersect: () => intersect,
  intersectAsync: () => intersectAsync,
  ip: () => ip,
  ipv4: () => ipv4,
  ipv6: () => ipv6,
  is: () => is,
  isOfKind: () => isOfKind,
  isOfType: () => isOfType,
  isValiError: () => isValiError,
  isbn: () => isbn,
  isoDate: () => isoDate,
  isoDateTime: () => isoDateTime,
  isoDateTimeSecond: () => isoDateTimeSecond,
  isoTime: () => isoTime,
  isoTimeSecond: () => isoTimeSecond,
  isoTimestamp: () => isoTimestamp,
  isoWeek: () => isoWeek,
  isrc: () => isrc,
  jwsCompact: () => jwsCompact,
  keyof: () => keyof,
  ksuid: () => ksuid,
  lazy: () => lazy,
  lazyAsync: () => lazyAsync,
  length: () => length,
  literal: () => literal,
  looseObject: () => looseObject,
  looseObjectAsync: () => looseObjectAsync,
  looseTuple: () => looseTuple,
  looseTupleAsync: () => looseTupleAsync,
  ltValue: () => ltValue,
  mac: () => mac,
  mac48: () => mac48,
  mac64: () => mac64,
  map: () => map,
  mapAsync: () => mapAsync,
  mapItems: () => mapItems,
  maxBytes: () => maxBytes,
  maxCodePoints: () => maxCodePoints,
  maxEntries: () => maxEntries,
  maxGraphemes: () => maxGraphemes,
  maxLength: () => maxLength,
  maxSize: () => maxSize,
  maxValue: () => maxValue,
  maxWords: () => maxWords,
  message: () => message,
  metadata: () => metadata,
  mimeType: () => mimeType,
  minBytes: () => minBytes,
  minCodePoints: () => minCodePoints,
  minEntries: () => minEntries,
  minGraphemes: () => minGraphemes,
  minLength: () => minLength,
  minSize: () => minSize,
  minValue: () => minValue,
  minWords: () => minWords,
  multipleOf: () => multipleOf,
  nan: () => nan,
  nanoid: () => nanoid,
  never: () => never,
  nonEmpty: () => nonEmpty,
  nonNullable: () => nonNullable,
  nonNullableAsync: () => nonNullableAsync,
  nonNullish: () => nonNullish,
  nonNullishAsync: () => nonNullishAsync,
  nonOptional: () => nonOptional,
  nonOptionalAsync: () => nonOptionalAsync,
  normalize: () => normalize2,
  notBytes: () => notBytes,
  notCodePoints: () => notCodePoints,
  notEntries: () => notEntries,
  notGraphemes: () => notGraphemes,
  notLength: () => notLength,
  notSize: () => notSize,
  notValue: () => notValue,
  notValues: () => notValues,
  notWords: () => notWords,
  null: () => null_,
  null_: () => null_,
  nullable: () => nullable,
  nullableAsync: () => nullableAsync,
  nullish: () => nullish,
  nullishAsync: () => nullishAsync,
  number: () => number,
  object: () => object,
  objectAsync: () => objectAsync,
  objectWithRest: () => objectWithRest,
  objectWithRestAsync: () => objectWithRestAsync,
  octal: () => octal,
  omit: () => omit,
  optional: () => optional,
  optionalAsync: () => optionalAsync,
  parse: () => parse,
  parseAsync: () => parseAsync,
  parseBoolean: () => parseBoolean,
  parseJson: () => parseJson,
  parser: () => parser,
  parserAsync: () => parserAsync,
  partial: () => partial,
  partialAsync: () => partialAsync,
  partialCheck: () => partialCheck,
  partialCheckAsync: () => partialCheckAsync,
  pick: () => pick,
  picklist: () => picklist,
  pipe: () => pipe,
  pipeAsync: () => pipeAsync,
  promise: () => promise,
  rawCheck: () => rawCheck,
  rawCheckAsync: () => rawCheckAsync,
  rawTransform: () => rawTransform,
  rawTransformAsync: () => rawTransformAsync,
  readonly: () => readonly,
  record: () => record,
  recordAsync: () => recordAsync,
  reduceItems: () => reduceItems,
  regex: () => regex,
  required: () => required,
  requiredAsync: () => requiredAsync,
  returns: () => returns,
  returnsAsync: () => returnsAsync,
  rfcEmail: () => rfcEmail,
  safeInteger: () => safeInteger,
  safeParse: () => safeParse,
  safeParseAsync: () => safeParseAsync,
  safeParser: () => safeParser,
  safeParserAsync: () => safeParserAsync,
  set: () => set,
  setAsync: () => setAsync,
  setGlobalConfig: () => setGlobalConfig,
  setGlobalMessage: () => setGlobalMessage,
  setSchemaMessage: () => setSchemaMessage,
  setSpecificMessage: () => setSpecificMessage,
  size: () => size,
  slug: () => slug,
  someItem: () => someItem,
  sortItems: () => sortItems,
  startsWith: () => startsWith,
  strictObject: () => strictObject,
  strictObjectAsync: () => strictObjectAsync,
  strictTuple: () => strictTuple,
  strictTupleAsync: () => strictTupleAsync,
  string: () => string,
  stringifyJson: () => stringifyJson,
  summarize: () => summarize,
  symbol: () => symbol,
  title: () => title,
  toBigint: () => toBigint,
  toBoolean: () => toBoolean,
  toCamelCase: () => toCamelCase,
  toDate: () => toDate,
  toKebabCase: () => toKebabCase,
  toLowerCase: () => toLowerCase,
  toMaxValue: () => toMaxValue,
  toMinValue: () => toMinValue,
  toNumber: () => toNumber,
  toPascalCase: () => toPascalCase,
  toSnakeCase: () => toSnakeCase,
  toString: () => toString,
  toUpperCase: () => toUpperCase,
  transform: () => transform,
  transformAsync: () => transformAsync,
  trim: () => trim,
  trimEnd: () => trimEnd,
  trimStart: () => trimStart,
  tuple: () => tuple,
  tupleAsync: () => tupleAsync,
  tupleWithRest: () => tupleWithRest,
  tupleWithRestAsync: () => tupleWithRestAsync,
  ulid: () => ulid,
  undefined: () => undefined_,
  undefined_: () => undefined_,
  undefinedable: () => undefinedable,
  undefinedableAsync: () => undefinedableAsync,
  union: () => union,
  unionAsync: () => unionAsync,
  unknown: () => unknown,
  unwrap: () => unwrap,
  url: () => url,
  uuid: () => uuid,
  value: () => value,
  values: () => values,
  variant: () => variant,
  variantAsync: () => variantAsync,
  void: () => void_,
  void_: () => void_,
  words: () => words
});
function setGlobalConfig(config$1) {
  store$4 = {
    ...store$4,
    ...config$1
  };
}
function getGlobalConfig(config$1) {
  if (!config$1 && !store$4)
    return DEFAULT_CONFIG;
  return {
    lang: config$1?.lang ?? store$4?.lang,
    message: config$1?.message,
    abortEarly: config$1?.abortEarly ?? store$4?.abortEarly,
    abortPipeEarly: config$1?.abortPipeEarly ?? store$4?.abortPipeEarly
  };
}
function deleteGlobalConfig() {
  store$4 = undefined;
}
function setGlobalMessage(message$1, lang) {
  if (!store$3)
    store$3 = /* @__PURE__ */ new Map;
  store$3.set(lang, message$1);
}
function getGlobalMessage(lang) {
  return store$3?.get(lang);
}
function deleteGlobalMessage(lang) {
  store$3?.delete(lang);
}
function setSchemaMessage(message$1, lang) {
  if (!store$2)
    store$2 = /* @__PURE__ */ new Map;
  store$2.set(lang, message$1);
}
function getSchemaMessage(lang) {
  return store$2?.get(lang);
}
function deleteSchemaMessage(lang) {
  store$2?.delete(lang);
}
function setSpecificMessage(reference, message$1, lang) {
  if (!store$1)
    store$1 = /* @__PURE__ */ new Map;
  if (!store$1.get(reference))
    store$1.set(reference, /* @__PURE__ */ new Map);
  store$1.get(reference).set(lang, message$1);
}
function getSpecificMessage(reference, lang) {
  return store$1?.get(reference)?.get(lang);
}
function deleteSpecificMessage(reference, lang) {
  store$1?.get(reference)?.delete(lang);
}
function _stringify(input) {
  const type = typeof input;
  if (type === "string")
    return `"${input}"`;
  if (type === "number" || type === "bigint" || type === "boolean")
    return `${input}`;
  if (type === "object" || type === "function")
    return (input && Object.getPrototypeOf(input)?.constructor?.name) ?? "null";
  return type;
}
function _addIssue(context, label, dataset, config$1, other) {
  const input = other && "input" in other ? other.input : dataset.value;
  const expected = other?.expected ?? context.expects ?? null;
  const received = other?.received ?? /* @__PURE__ */ _stringify(input);
  const issue = {
    kind: context.kind,
    type: context.type,
    input,
    expected,
    received,
    message: `Invalid ${label}: ${expected ? `Expected ${expected} but r` : "R"}eceived ${received}`,
    requirement: context.requirement,
    path: other?.path,
    issues: other?.issues,
    lang: config$1.lang,
    abortEarly: config$1.abortEarly,
    abortPipeEarly: config$1.abortPipeEarly
  };
  const isSchema = context.kind === "schema";
  const message$1 = other?.message ?? context.message ?? /* @__PURE__ */ getSpecificMessage(context.reference, issue.lang) ?? (isSchema ? /* @__PURE__ */ getSchemaMessage(issue.lang) : null) ?? config$1.message ?? /* @__PURE__ */ getGlobalMessage(issue.lang);
  if (message$1 !== undefined)
    issue.message = typeof message$1 === "function" ? message$1(issue) : message$1;
  if (isSchema)
    dataset.typed = false;
  if (dataset.issues)
    dataset.issues.push(issue);
  else
    dataset.issues = [issue];
}
function _cloneDataset(dataset) {
  return {
    typed: dataset.typed,
    value: dataset.value,
    issues: dataset.issues?.map((issue) => ({
      ...issue,
      path: issue.path && [...issue.path]
    }))
  };
}
function _formatCase(input, separator, capFirst, capRest) {
  let result = "";
  let firstWord = true;
  let start = 0;
  let prev = 0;
  let prevPrev = 0;
  const flush = (end) => {
    if (end > start) {
      let word = input.slice(start, end).toLowerCase();
      if (firstWord ? capFirst : capRest) {
        const firstCode = word.charCodeAt(0);
        if (firstCode >= 97 && firstCode <= 122)
          word = String.fromCharCode(firstCode - 32) + word.slice(1);
        else {
          const charLen = firstCode >= 55296 && firstCode <= 56319 ? 2 : 1;
          word = word.slice(0, charLen).toUpperCase() + word.slice(charLen);
        }
      }
      result += firstWord ? word : separator + word;
      firstWord = false;
    }
  };
  for (let index = 0;index < input.length; index++) {
    const code = input.charCodeAt(index);
    let type;
    if (code === 32 || code === 9 || code === 10 || code === 11 || code === 12 || code === 13 || code === 45 || code === 95) {
      flush(index);
      start = index + 1;
      type = 0;
    } else if (code < 128)
      type = code >= 65 && code <= 90 ? 1 : code >= 97 && code <= 122 ? 2 : 3;
    else {
      const char = input[index];
      const charLower = char.toLowerCase();
      type = charLower === char.toUpperCase() ? 3 : char === charLower ? 2 : 1;
    }
    if (type === 1 && (prev === 2 || prev === 3) && index > start) {
      flush(index);
      start = index;
    } else if (type === 2 && prev === 1 && prevPrev === 1 && index - 1 > start) {
      flush(index - 1);
      start = index - 1;
    }
    prevPrev = prev;
    prev = type;
  }
  flush(input.length);
  return result;
}
function _getByteCount(input) {
  if (!textEncoder)
    textEncoder = new TextEncoder;
  return textEncoder.encode(input).length;
}
function _getCodePointCount(input) {
  let count = input.length;
  const lengthMinus1 = input.length - 1;
  for (let i = 0;i < lengthMinus1; )
    if (input.codePointAt(i) <= 65535)
      i++;
    else {
      i += 2;
      count--;
    }
  return count;
}
function _getGraphemeCount(input) {
  if (!segmenter)
    segmenter = new Intl.Segmenter;
  const segments = segmenter.segment(input);
  let count = 0;
  for (const _ of segments)
    count++;
  return count;
}
function _getLastMetadata(schema, type) {
  if ("pipe" in schema) {
    const nestedSchemas = [];
    for (let index = schema.pipe.length - 1;index >= 0; index--) {
      const item = schema.pipe[index];
      if (item.kind === "schema" && "pipe" in item)
        nestedSchemas.push(item);
      else if (item.kind === "metadata" && item.type === type)
        return item[type];
    }
    for (const nestedSchema of nestedSchemas) {
      const result = /* @__PURE__ */ _getLastMetadata(nestedSchema, type);
      if (result !== undefined)
        return result;
    }
  }
}
function _getWordCount(locales, input) {
  if (!store)
    store = /* @__PURE__ */ new Map;
  const key = String(locales);
  let segmenter$1 = store.get(key);
  if (!segmenter$1) {
    segmenter$1 = new Intl.Segmenter(locales, { granularity: "word" });
    store.set(key, segmenter$1);
  }
  const segments = segmenter$1.segment(input);
  let count = 0;
  for (const segment of segments)
    if (segment.isWordLike)
      count++;
  return count;
}
function _isLuhnAlgo(input) {
  const number$1 = input.replace(NON_DIGIT_REGEX, "");
  let length$1 = number$1.length;
  let bit = 1;
  let sum = 0;
  while (length$1) {
    const value$1 = +number$1[--length$1];
    bit ^= 1;
    sum += bit ? [
      0,
      2,
      4,
      6,
      8,
      1,
      3,
      5,
      7,
      9
    ][value$1] : value$1;
  }
  return sum % 10 === 0;
}
function _isSameValueZero(value1, value2) {
  return value1 === value2 || Number.isNaN(value1) && Number.isNaN(value2);
}
function _isValidObjectKey(object$1, key) {
  return Object.prototype.hasOwnProperty.call(object$1, key) && key !== "__proto__" && key !== "prototype" && key !== "constructor";
}
function _isValueMatch(requirement, value$1) {
  return Number.isNaN(requirement) && Number.isNaN(value$1) || requirement <= value$1 && requirement >= value$1;
}
function _joinExpects(values$1, separator) {
  const list = [...new Set(values$1)];
  if (list.length > 1)
    return `(${list.join(` ${separator} `)})`;
  return list[0] ?? "never";
}
function _standardSchema(schema) {
  schema["~standard"] = {
    version: 1,
    vendor: "valibot",
    validate: (value$1) => schema["~run"]({ value: value$1 }, /* @__PURE__ */ getGlobalConfig())
  };
  return schema;
}
function entriesFromList(list, schema) {
  const entries$1 = {};
  for (const key of list)
    entries$1[key] = schema;
  return entries$1;
}
function entriesFromObjects(schemas) {
  const entries$1 = {};
  for (const schema of schemas)
    Object.assign(entries$1, schema.entries);
  return entries$1;
}
function getDotPath(issue) {
  if (issue.path) {
    let key = "";
    for (const item of issue.path)
      if (typeof item.key === "string" || typeof item.key === "number")
        if (key)
          key += `.${item.key}`;
        else
          key += item.key;
      else
        return null;
    return key;
  }
  return null;
}
function isOfKind(kind, object$1) {
  return object$1.kind === kind;
}
function isOfType(type, object$1) {
  return object$1.type === type;
}
function isValiError(error) {
  return error instanceof ValiError;
}
function args(schema) {
  return {
    kind: "transformation",
    type: "args",
    reference: args,
    async: false,
    schema,
    "~run"(dataset, config$1) {
      const func = dataset.value;
      dataset.value = (...args_) => {
        const argsDataset = this.schema["~run"]({ value: args_ }, config$1);
        if (argsDataset.issues)
          throw new ValiError(argsDataset.issues);
        return func(...argsDataset.value);
      };
      return dataset;
    }
  };
}
function argsAsync(schema) {
  return {
    kind: "transformation",
    type: "args",
    reference: argsAsync,
    async: false,
    schema,
    "~run"(dataset, config$1) {
      const func = dataset.value;
      dataset.value = async (...args$1) => {
        const argsDataset = await schema["~run"]({ value: args$1 }, config$1);
        if (argsDataset.issues)
          throw new ValiError(argsDataset.issues);
        return func(...argsDataset.value);
      };
      return dataset;
    }
  };
}
function awaitAsync() {
  return {
    kind: "transformation",
    type: "await",
    reference: awaitAsync,
    async: true,
    async "~run"(dataset) {
      dataset.value = await dataset.value;
      return dataset;
    }
  };
}
function base64(message$1) {
  return {
    kind: "validation",
    type: "base64",
    reference: base64,
    async: false,
    expects: null,
    requirement: BASE64_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "Base64", dataset, config$1);
      return dataset;
    }
  };
}
function bic(message$1) {
  return {
    kind: "validation",
    type: "bic",
    reference: bic,
    async: false,
    expects: null,
    requirement: BIC_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "BIC", dataset, config$1);
      return dataset;
    }
  };
}
function brand(name) {
  return {
    kind: "transformation",
    type: "brand",
    reference: brand,
    async: false,
    name,
    "~run"(dataset) {
      return dataset;
    }
  };
}
function bytes(requirement, message$1) {
  return {
    kind: "validation",
    type: "bytes",
    reference: bytes,
    async: false,
    expects: `${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const length$1 = /* @__PURE__ */ _getByteCount(dataset.value);
        if (length$1 !== this.requirement)
          _addIssue(this, "bytes", dataset, config$1, { received: `${length$1}` });
      }
      return dataset;
    }
  };
}
function check(requirement, message$1) {
  return {
    kind: "validation",
    type: "check",
    reference: check,
    async: false,
    expects: null,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement(dataset.value))
        _addIssue(this, "input", dataset, config$1);
      return dataset;
    }
  };
}
function checkAsync(requirement, message$1) {
  return {
    kind: "validation",
    type: "check",
    reference: checkAsync,
    async: true,
    expects: null,
    requirement,
    message: message$1,
    async "~run"(dataset, config$1) {
      if (dataset.typed && !await this.requirement(dataset.value))
        _addIssue(this, "input", dataset, config$1);
      return dataset;
    }
  };
}
function checkItems(requirement, message$1) {
  return {
    kind: "validation",
    type: "check_items",
    reference: checkItems,
    async: false,
    expects: null,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed)
        for (let index = 0;index < dataset.value.length; index++) {
          const item = dataset.value[index];
          if (!this.requirement(item, index, dataset.value))
            _addIssue(this, "item", dataset, config$1, {
              input: item,
              path: [{
                type: "array",
                origin: "value",
                input: dataset.value,
                key: index,
                value: item
              }]
            });
        }
      return dataset;
    }
  };
}
function checkItemsAsync(requirement, message$1) {
  return {
    kind: "validation",
    type: "check_items",
    reference: checkItemsAsync,
    async: true,
    expects: null,
    requirement,
    message: message$1,
    async "~run"(dataset, config$1) {
      if (dataset.typed) {
        const requirementResults = await Promise.all(dataset.value.map(this.requirement));
        for (let index = 0;index < dataset.value.length; index++)
          if (!requirementResults[index]) {
            const item = dataset.value[index];
            _addIssue(this, "item", dataset, config$1, {
              input: item,
              path: [{
                type: "array",
                origin: "value",
                input: dataset.value,
                key: index,
                value: item
              }]
            });
          }
      }
      return dataset;
    }
  };
}
function codePoints(requirement, message$1) {
  return {
    kind: "validation",
    type: "code_points",
    reference: codePoints,
    async: false,
    expects: `${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getCodePointCount(dataset.value);
        if (count !== this.requirement)
          _addIssue(this, "code points", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function creditCard(message$1) {
  return {
    kind: "validation",
    type: "credit_card",
    reference: creditCard,
    async: false,
    expects: null,
    requirement(input) {
      let sanitized;
      return CREDIT_CARD_REGEX.test(input) && (sanitized = input.replace(SANITIZE_REGEX, "")) && PROVIDER_REGEX_LIST.some((regex$1) => regex$1.test(sanitized)) && /* @__PURE__ */ _isLuhnAlgo(sanitized);
    },
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement(dataset.value))
        _addIssue(this, "credit card", dataset, config$1);
      return dataset;
    }
  };
}
function cuid2(message$1) {
  return {
    kind: "validation",
    type: "cuid2",
    reference: cuid2,
    async: false,
    expects: null,
    requirement: CUID2_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "Cuid2", dataset, config$1);
      return dataset;
    }
  };
}
function decimal(message$1) {
  return {
    kind: "validation",
    type: "decimal",
    reference: decimal,
    async: false,
    expects: null,
    requirement: DECIMAL_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "decimal", dataset, config$1);
      return dataset;
    }
  };
}
function description(description_) {
  return {
    kind: "metadata",
    type: "description",
    reference: description,
    description: description_
  };
}
function digits(message$1) {
  return {
    kind: "validation",
    type: "digits",
    reference: digits,
    async: false,
    expects: null,
    requirement: DIGITS_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "digits", dataset, config$1);
      return dataset;
    }
  };
}
function domain(message$1) {
  return {
    kind: "validation",
    type: "domain",
    reference: domain,
    expects: null,
    async: false,
    requirement: DOMAIN_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "domain", dataset, config$1);
      return dataset;
    }
  };
}
function email(message$1) {
  return {
    kind: "validation",
    type: "email",
    reference: email,
    expects: null,
    async: false,
    requirement: EMAIL_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "email", dataset, config$1);
      return dataset;
    }
  };
}
function emoji(message$1) {
  return {
    kind: "validation",
    type: "emoji",
    reference: emoji,
    async: false,
    expects: null,
    requirement: EMOJI_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "emoji", dataset, config$1);
      return dataset;
    }
  };
}
function empty(message$1) {
  return {
    kind: "validation",
    type: "empty",
    reference: empty,
    async: false,
    expects: "0",
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.length > 0)
        _addIssue(this, "length", dataset, config$1, { received: `${dataset.value.length}` });
      return dataset;
    }
  };
}
function endsWith(requirement, message$1) {
  return {
    kind: "validation",
    type: "ends_with",
    reference: endsWith,
    async: false,
    expects: `"${requirement}"`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !dataset.value.endsWith(this.requirement))
        _addIssue(this, "end", dataset, config$1, { received: `"${dataset.value.slice(-this.requirement.length)}"` });
      return dataset;
    }
  };
}
function entries(requirement, message$1) {
  return {
    kind: "validation",
    type: "entries",
    reference: entries,
    async: false,
    expects: `${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (!dataset.typed)
        return dataset;
      const count = Object.keys(dataset.value).length;
      if (dataset.typed && count !== this.requirement)
        _addIssue(this, "entries", dataset, config$1, { received: `${count}` });
      return dataset;
    }
  };
}
function everyItem(requirement, message$1) {
  return {
    kind: "validation",
    type: "every_item",
    reference: everyItem,
    async: false,
    expects: null,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !dataset.value.every(this.requirement))
        _addIssue(this, "item", dataset, config$1);
      return dataset;
    }
  };
}
function examples(examples_) {
  return {
    kind: "metadata",
    type: "examples",
    reference: examples,
    examples: examples_
  };
}
function excludes(requirement, message$1) {
  const received = /* @__PURE__ */ _stringify(requirement);
  return {
    kind: "validation",
    type: "excludes",
    reference: excludes,
    async: false,
    expects: `!${received}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.includes(this.requirement))
        _addIssue(this, "content", dataset, config$1, { received });
      return dataset;
    }
  };
}
function filterItems(operation) {
  return {
    kind: "transformation",
    type: "filter_items",
    reference: filterItems,
    async: false,
    operation,
    "~run"(dataset) {
      dataset.value = dataset.value.filter(this.operation);
      return dataset;
    }
  };
}
function findItem(operation) {
  return {
    kind: "transformation",
    type: "find_item",
    reference: findItem,
    async: false,
    operation,
    "~run"(dataset) {
      dataset.value = dataset.value.find(this.operation);
      return dataset;
    }
  };
}
function finite(message$1) {
  return {
    kind: "validation",
    type: "finite",
    reference: finite,
    async: false,
    expects: null,
    requirement: Number.isFinite,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement(dataset.value))
        _addIssue(this, "finite", dataset, config$1);
      return dataset;
    }
  };
}
function flavor(name) {
  return {
    kind: "transformation",
    type: "flavor",
    reference: flavor,
    async: false,
    name,
    "~run"(dataset) {
      return dataset;
    }
  };
}
function graphemes(requirement, message$1) {
  return {
    kind: "validation",
    type: "graphemes",
    reference: graphemes,
    async: false,
    expects: `${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getGraphemeCount(dataset.value);
        if (count !== this.requirement)
          _addIssue(this, "graphemes", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function gtValue(requirement, message$1) {
  return {
    kind: "validation",
    type: "gt_value",
    reference: gtValue,
    async: false,
    expects: `>${requirement instanceof Date ? requirement.toJSON() : /* @__PURE__ */ _stringify(requirement)}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !(dataset.value > this.requirement))
        _addIssue(this, "value", dataset, config$1, { received: dataset.value instanceof Date ? dataset.value.toJSON() : /* @__PURE__ */ _stringify(dataset.value) });
      return dataset;
    }
  };
}
function guard(requirement, message$1) {
  return {
    kind: "transformation",
    type: "guard",
    reference: guard,
    async: false,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement(dataset.value)) {
        _addIssue(this, "input", dataset, config$1);
        dataset.typed = false;
      }
      return dataset;
    }
  };
}
function hash(types, message$1) {
  return {
    kind: "validation",
    type: "hash",
    reference: hash,
    expects: null,
    async: false,
    requirement: RegExp(types.map((type) => `^[a-fA-F0-9]{${HASH_LENGTHS[type]}}$`).join("|"), "u"),
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "hash", dataset, config$1);
      return dataset;
    }
  };
}
function hexadecimal(message$1) {
  return {
    kind: "validation",
    type: "hexadecimal",
    reference: hexadecimal,
    async: false,
    expects: null,
    requirement: HEXADECIMAL_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "hexadecimal", dataset, config$1);
      return dataset;
    }
  };
}
function hexColor(message$1) {
  return {
    kind: "validation",
    type: "hex_color",
    reference: hexColor,
    async: false,
    expects: null,
    requirement: HEX_COLOR_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "hex color", dataset, config$1);
      return dataset;
    }
  };
}
function imei(message$1) {
  return {
    kind: "validation",
    type: "imei",
    reference: imei,
    async: false,
    expects: null,
    requirement(input) {
      return IMEI_REGEX.test(input) && /* @__PURE__ */ _isLuhnAlgo(input);
    },
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement(dataset.value))
        _addIssue(this, "IMEI", dataset, config$1);
      return dataset;
    }
  };
}
function includes(requirement, message$1) {
  const expects = /* @__PURE__ */ _stringify(requirement);
  return {
    kind: "validation",
    type: "includes",
    reference: includes,
    async: false,
    expects,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !dataset.value.includes(this.requirement))
        _addIssue(this, "content", dataset, config$1, { received: `!${expects}` });
      return dataset;
    }
  };
}
function integer(message$1) {
  return {
    kind: "validation",
    type: "integer",
    reference: integer,
    async: false,
    expects: null,
    requirement: Number.isInteger,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement(dataset.value))
        _addIssue(this, "integer", dataset, config$1);
      return dataset;
    }
  };
}
function ip(message$1) {
  return {
    kind: "validation",
    type: "ip",
    reference: ip,
    async: false,
    expects: null,
    requirement: IP_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "IP", dataset, config$1);
      return dataset;
    }
  };
}
function ipv4(message$1) {
  return {
    kind: "validation",
    type: "ipv4",
    reference: ipv4,
    async: false,
    expects: null,
    requirement: IPV4_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "IPv4", dataset, config$1);
      return dataset;
    }
  };
}
function ipv6(message$1) {
  return {
    kind: "validation",
    type: "ipv6",
    reference: ipv6,
    async: false,
    expects: null,
    requirement: IPV6_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "IPv6", dataset, config$1);
      return dataset;
    }
  };
}
function _isIsbn10(input) {
  const digits$1 = input.split("").map((c) => c === "X" ? 10 : parseInt(c));
  let sum = 0;
  for (let i = 0;i < 10; i++)
    sum += digits$1[i] * (10 - i);
  return sum % 11 === 0;
}
function _isIsbn13(input) {
  const digits$1 = input.split("").map((c) => parseInt(c));
  let sum = 0;
  for (let i = 0;i < 13; i++)
    sum += digits$1[i] * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}
function isbn(message$1) {
  return {
    kind: "validation",
    type: "isbn",
    reference: isbn,
    async: false,
    expects: null,
    requirement(input) {
      const replacedInput = input.replace(ISBN_SEPARATOR_REGEX, "");
      if (ISBN_10_DETECTION_REGEX.test(replacedInput))
        return _isIsbn10(replacedInput);
      else if (ISBN_13_DETECTION_REGEX.test(replacedInput))
        return _isIsbn13(replacedInput);
      return false;
    },
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement(dataset.value))
        _addIssue(this, "ISBN", dataset, config$1);
      return dataset;
    }
  };
}
function isrc(message$1) {
  return {
    kind: "validation",
    type: "isrc",
    reference: isrc,
    async: false,
    expects: null,
    requirement: ISRC_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "ISRC", dataset, config$1);
      return dataset;
    }
  };
}
function isoDate(message$1) {
  return {
    kind: "validation",
    type: "iso_date",
    reference: isoDate,
    async: false,
    expects: null,
    requirement: ISO_DATE_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "date", dataset, config$1);
      return dataset;
    }
  };
}
function isoDateTime(message$1) {
  return {
    kind: "validation",
    type: "iso_date_time",
    reference: isoDateTime,
    async: false,
    expects: null,
    requirement: ISO_DATE_TIME_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "date-time", dataset, config$1);
      return dataset;
    }
  };
}
function isoDateTimeSecond(message$1) {
  return {
    kind: "validation",
    type: "iso_date_time_second",
    reference: isoDateTimeSecond,
    async: false,
    expects: null,
    requirement: ISO_DATE_TIME_SECOND_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "date-time-second", dataset, config$1);
      return dataset;
    }
  };
}
function isoTime(message$1) {
  return {
    kind: "validation",
    type: "iso_time",
    reference: isoTime,
    async: false,
    expects: null,
    requirement: ISO_TIME_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "time", dataset, config$1);
      return dataset;
    }
  };
}
function isoTimeSecond(message$1) {
  return {
    kind: "validation",
    type: "iso_time_second",
    reference: isoTimeSecond,
    async: false,
    expects: null,
    requirement: ISO_TIME_SECOND_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "time-second", dataset, config$1);
      return dataset;
    }
  };
}
function isoTimestamp(message$1) {
  return {
    kind: "validation",
    type: "iso_timestamp",
    reference: isoTimestamp,
    async: false,
    expects: null,
    requirement: ISO_TIMESTAMP_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "timestamp", dataset, config$1);
      return dataset;
    }
  };
}
function isoWeek(message$1) {
  return {
    kind: "validation",
    type: "iso_week",
    reference: isoWeek,
    async: false,
    expects: null,
    requirement: ISO_WEEK_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "week", dataset, config$1);
      return dataset;
    }
  };
}
function jwsCompact(message$1) {
  return {
    kind: "validation",
    type: "jws_compact",
    reference: jwsCompact,
    async: false,
    expects: null,
    requirement: JWS_COMPACT_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "JWS compact", dataset, config$1);
      return dataset;
    }
  };
}
function ksuid(message$1) {
  return {
    kind: "validation",
    type: "ksuid",
    reference: ksuid,
    async: false,
    expects: null,
    requirement: KSUID_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "KSUID", dataset, config$1);
      return dataset;
    }
  };
}
function length(requirement, message$1) {
  return {
    kind: "validation",
    type: "length",
    reference: length,
    async: false,
    expects: `${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.length !== this.requirement)
        _addIssue(this, "length", dataset, config$1, { received: `${dataset.value.length}` });
      return dataset;
    }
  };
}
function ltValue(requirement, message$1) {
  return {
    kind: "validation",
    type: "lt_value",
    reference: ltValue,
    async: false,
    expects: `<${requirement instanceof Date ? requirement.toJSON() : /* @__PURE__ */ _stringify(requirement)}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !(dataset.value < this.requirement))
        _addIssue(this, "value", dataset, config$1, { received: dataset.value instanceof Date ? dataset.value.toJSON() : /* @__PURE__ */ _stringify(dataset.value) });
      return dataset;
    }
  };
}
function mac(message$1) {
  return {
    kind: "validation",
    type: "mac",
    reference: mac,
    async: false,
    expects: null,
    requirement: MAC_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "MAC", dataset, config$1);
      return dataset;
    }
  };
}
function mac48(message$1) {
  return {
    kind: "validation",
    type: "mac48",
    reference: mac48,
    async: false,
    expects: null,
    requirement: MAC48_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "48-bit MAC", dataset, config$1);
      return dataset;
    }
  };
}
function mac64(message$1) {
  return {
    kind: "validation",
    type: "mac64",
    reference: mac64,
    async: false,
    expects: null,
    requirement: MAC64_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "64-bit MAC", dataset, config$1);
      return dataset;
    }
  };
}
function mapItems(operation) {
  return {
    kind: "transformation",
    type: "map_items",
    reference: mapItems,
    async: false,
    operation,
    "~run"(dataset) {
      dataset.value = dataset.value.map(this.operation);
      return dataset;
    }
  };
}
function maxBytes(requirement, message$1) {
  return {
    kind: "validation",
    type: "max_bytes",
    reference: maxBytes,
    async: false,
    expects: `<=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const length$1 = /* @__PURE__ */ _getByteCount(dataset.value);
        if (length$1 > this.requirement)
          _addIssue(this, "bytes", dataset, config$1, { received: `${length$1}` });
      }
      return dataset;
    }
  };
}
function maxCodePoints(requirement, message$1) {
  return {
    kind: "validation",
    type: "max_code_points",
    reference: maxCodePoints,
    async: false,
    expects: `<=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getCodePointCount(dataset.value);
        if (count > this.requirement)
          _addIssue(this, "code points", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function maxEntries(requirement, message$1) {
  return {
    kind: "validation",
    type: "max_entries",
    reference: maxEntries,
    async: false,
    expects: `<=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (!dataset.typed)
        return dataset;
      const count = Object.keys(dataset.value).length;
      if (dataset.typed && count > this.requirement)
        _addIssue(this, "entries", dataset, config$1, { received: `${count}` });
      return dataset;
    }
  };
}
function maxGraphemes(requirement, message$1) {
  return {
    kind: "validation",
    type: "max_graphemes",
    reference: maxGraphemes,
    async: false,
    expects: `<=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getGraphemeCount(dataset.value);
        if (count > this.requirement)
          _addIssue(this, "graphemes", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function maxLength(requirement, message$1) {
  return {
    kind: "validation",
    type: "max_length",
    reference: maxLength,
    async: false,
    expects: `<=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.length > this.requirement)
        _addIssue(this, "length", dataset, config$1, { received: `${dataset.value.length}` });
      return dataset;
    }
  };
}
function maxSize(requirement, message$1) {
  return {
    kind: "validation",
    type: "max_size",
    reference: maxSize,
    async: false,
    expects: `<=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.size > this.requirement)
        _addIssue(this, "size", dataset, config$1, { received: `${dataset.value.size}` });
      return dataset;
    }
  };
}
function maxValue(requirement, message$1) {
  return {
    kind: "validation",
    type: "max_value",
    reference: maxValue,
    async: false,
    expects: `<=${requirement instanceof Date ? requirement.toJSON() : /* @__PURE__ */ _stringify(requirement)}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !(dataset.value <= this.requirement))
        _addIssue(this, "value", dataset, config$1, { received: dataset.value instanceof Date ? dataset.value.toJSON() : /* @__PURE__ */ _stringify(dataset.value) });
      return dataset;
    }
  };
}
function maxWords(locales, requirement, message$1) {
  return {
    kind: "validation",
    type: "max_words",
    reference: maxWords,
    async: false,
    expects: `<=${requirement}`,
    locales,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getWordCount(this.locales, dataset.value);
        if (count > this.requirement)
          _addIssue(this, "words", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function metadata(metadata_) {
  return {
    kind: "metadata",
    type: "metadata",
    reference: metadata,
    metadata: metadata_
  };
}
function mimeType(requirement, message$1) {
  return {
    kind: "validation",
    type: "mime_type",
    reference: mimeType,
    async: false,
    expects: /* @__PURE__ */ _joinExpects(requirement.map((option) => `"${option}"`), "|"),
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.includes(dataset.value.type))
        _addIssue(this, "MIME type", dataset, config$1, { received: `"${dataset.value.type}"` });
      return dataset;
    }
  };
}
function minBytes(requirement, message$1) {
  return {
    kind: "validation",
    type: "min_bytes",
    reference: minBytes,
    async: false,
    expects: `>=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const length$1 = /* @__PURE__ */ _getByteCount(dataset.value);
        if (length$1 < this.requirement)
          _addIssue(this, "bytes", dataset, config$1, { received: `${length$1}` });
      }
      return dataset;
    }
  };
}
function minCodePoints(requirement, message$1) {
  return {
    kind: "validation",
    type: "min_code_points",
    reference: minCodePoints,
    async: false,
    expects: `>=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getCodePointCount(dataset.value);
        if (count < this.requirement)
          _addIssue(this, "code points", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function minEntries(requirement, message$1) {
  return {
    kind: "validation",
    type: "min_entries",
    reference: minEntries,
    async: false,
    expects: `>=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (!dataset.typed)
        return dataset;
      const count = Object.keys(dataset.value).length;
      if (dataset.typed && count < this.requirement)
        _addIssue(this, "entries", dataset, config$1, { received: `${count}` });
      return dataset;
    }
  };
}
function minGraphemes(requirement, message$1) {
  return {
    kind: "validation",
    type: "min_graphemes",
    reference: minGraphemes,
    async: false,
    expects: `>=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getGraphemeCount(dataset.value);
        if (count < this.requirement)
          _addIssue(this, "graphemes", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function minLength(requirement, message$1) {
  return {
    kind: "validation",
    type: "min_length",
    reference: minLength,
    async: false,
    expects: `>=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.length < this.requirement)
        _addIssue(this, "length", dataset, config$1, { received: `${dataset.value.length}` });
      return dataset;
    }
  };
}
function minSize(requirement, message$1) {
  return {
    kind: "validation",
    type: "min_size",
    reference: minSize,
    async: false,
    expects: `>=${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.size < this.requirement)
        _addIssue(this, "size", dataset, config$1, { received: `${dataset.value.size}` });
      return dataset;
    }
  };
}
function minValue(requirement, message$1) {
  return {
    kind: "validation",
    type: "min_value",
    reference: minValue,
    async: false,
    expects: `>=${requirement instanceof Date ? requirement.toJSON() : /* @__PURE__ */ _stringify(requirement)}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !(dataset.value >= this.requirement))
        _addIssue(this, "value", dataset, config$1, { received: dataset.value instanceof Date ? dataset.value.toJSON() : /* @__PURE__ */ _stringify(dataset.value) });
      return dataset;
    }
  };
}
function minWords(locales, requirement, message$1) {
  return {
    kind: "validation",
    type: "min_words",
    reference: minWords,
    async: false,
    expects: `>=${requirement}`,
    locales,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getWordCount(this.locales, dataset.value);
        if (count < this.requirement)
          _addIssue(this, "words", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function multipleOf(requirement, message$1) {
  return {
    kind: "validation",
    type: "multiple_of",
    reference: multipleOf,
    async: false,
    expects: `%${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value % this.requirement != 0)
        _addIssue(this, "multiple", dataset, config$1);
      return dataset;
    }
  };
}
function nanoid(message$1) {
  return {
    kind: "validation",
    type: "nanoid",
    reference: nanoid,
    async: false,
    expects: null,
    requirement: NANO_ID_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "Nano ID", dataset, config$1);
      return dataset;
    }
  };
}
function nonEmpty(message$1) {
  return {
    kind: "validation",
    type: "non_empty",
    reference: nonEmpty,
    async: false,
    expects: "!0",
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.length === 0)
        _addIssue(this, "length", dataset, config$1, { received: "0" });
      return dataset;
    }
  };
}
function normalize2(form) {
  return {
    kind: "transformation",
    type: "normalize",
    reference: normalize2,
    async: false,
    form,
    "~run"(dataset) {
      dataset.value = dataset.value.normalize(this.form);
      return dataset;
    }
  };
}
function notBytes(requirement, message$1) {
  return {
    kind: "validation",
    type: "not_bytes",
    reference: notBytes,
    async: false,
    expects: `!${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const length$1 = /* @__PURE__ */ _getByteCount(dataset.value);
        if (length$1 === this.requirement)
          _addIssue(this, "bytes", dataset, config$1, { received: `${length$1}` });
      }
      return dataset;
    }
  };
}
function notCodePoints(requirement, message$1) {
  return {
    kind: "validation",
    type: "not_code_points",
    reference: notCodePoints,
    async: false,
    expects: `!${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getCodePointCount(dataset.value);
        if (count === this.requirement)
          _addIssue(this, "code points", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function notEntries(requirement, message$1) {
  return {
    kind: "validation",
    type: "not_entries",
    reference: notEntries,
    async: false,
    expects: `!${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (!dataset.typed)
        return dataset;
      const count = Object.keys(dataset.value).length;
      if (dataset.typed && count === this.requirement)
        _addIssue(this, "entries", dataset, config$1, { received: `${count}` });
      return dataset;
    }
  };
}
function notGraphemes(requirement, message$1) {
  return {
    kind: "validation",
    type: "not_graphemes",
    reference: notGraphemes,
    async: false,
    expects: `!${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getGraphemeCount(dataset.value);
        if (count === this.requirement)
          _addIssue(this, "graphemes", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function notLength(requirement, message$1) {
  return {
    kind: "validation",
    type: "not_length",
    reference: notLength,
    async: false,
    expects: `!${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.length === this.requirement)
        _addIssue(this, "length", dataset, config$1, { received: `${dataset.value.length}` });
      return dataset;
    }
  };
}
function notSize(requirement, message$1) {
  return {
    kind: "validation",
    type: "not_size",
    reference: notSize,
    async: false,
    expects: `!${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.size === this.requirement)
        _addIssue(this, "size", dataset, config$1, { received: `${dataset.value.size}` });
      return dataset;
    }
  };
}
function notValue(requirement, message$1) {
  return {
    kind: "validation",
    type: "not_value",
    reference: notValue,
    async: false,
    expects: requirement instanceof Date ? `!${requirement.toJSON()}` : `!${/* @__PURE__ */ _stringify(requirement)}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && /* @__PURE__ */ _isValueMatch(this.requirement, dataset.value))
        _addIssue(this, "value", dataset, config$1, { received: dataset.value instanceof Date ? dataset.value.toJSON() : /* @__PURE__ */ _stringify(dataset.value) });
      return dataset;
    }
  };
}
function notValues(requirement, message$1) {
  return {
    kind: "validation",
    type: "not_values",
    reference: notValues,
    async: false,
    expects: `!${/* @__PURE__ */ _joinExpects(requirement.map((value$1) => value$1 instanceof Date ? value$1.toJSON() : /* @__PURE__ */ _stringify(value$1)), "|")}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && this.requirement.some((requirement$1) => /* @__PURE__ */ _isValueMatch(requirement$1, dataset.value)))
        _addIssue(this, "value", dataset, config$1, { received: dataset.value instanceof Date ? dataset.value.toJSON() : /* @__PURE__ */ _stringify(dataset.value) });
      return dataset;
    }
  };
}
function notWords(locales, requirement, message$1) {
  return {
    kind: "validation",
    type: "not_words",
    reference: notWords,
    async: false,
    expects: `!${requirement}`,
    locales,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getWordCount(this.locales, dataset.value);
        if (count === this.requirement)
          _addIssue(this, "words", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function octal(message$1) {
  return {
    kind: "validation",
    type: "octal",
    reference: octal,
    async: false,
    expects: null,
    requirement: OCTAL_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "octal", dataset, config$1);
      return dataset;
    }
  };
}
function parseBoolean(config$1, message$1) {
  const normalize$1 = (v) => typeof v === "string" ? v.toLowerCase() : v;
  const truthyRaw = config$1?.truthy ?? TRUTHY;
  const falsyRaw = config$1?.falsy ?? FALSY;
  const truthy = config$1?.truthy ? config$1.truthy.map(normalize$1) : TRUTHY;
  const falsy = config$1?.falsy ? config$1.falsy.map(normalize$1) : FALSY;
  return {
    kind: "transformation",
    type: "parse_boolean",
    reference: parseBoolean,
    expects: /* @__PURE__ */ _joinExpects([...truthyRaw, ...falsyRaw].map(_stringify), "|"),
    config: config$1,
    message: message$1,
    async: false,
    "~run"(dataset, config$2) {
      const input = normalize$1(dataset.value);
      if (truthy.includes(input))
        dataset.value = true;
      else if (falsy.includes(input))
        dataset.value = false;
      else {
        _addIssue(this, "boolean", dataset, config$2);
        dataset.typed = false;
      }
      return dataset;
    }
  };
}
function parseJson(config$1, message$1) {
  return {
    kind: "transformation",
    type: "parse_json",
    reference: parseJson,
    config: config$1,
    message: message$1,
    async: false,
    "~run"(dataset, config$2) {
      try {
        dataset.value = JSON.parse(dataset.value, this.config?.reviver);
      } catch (error) {
        if (error instanceof Error) {
          _addIssue(this, "JSON", dataset, config$2, { received: `"${error.message}"` });
          dataset.typed = false;
        } else
          throw error;
      }
      return dataset;
    }
  };
}
function _isPartiallyTyped(dataset, paths) {
  if (dataset.issues)
    for (const path of paths)
      for (const issue of dataset.issues) {
        let typed = false;
        const bound = Math.min(path.length, issue.path?.length ?? 0);
        for (let index = 0;index < bound; index++)
          if (path[index] !== issue.path[index].key && (path[index] !== "$" || issue.path[index].type !== "array")) {
            typed = true;
            break;
          }
        if (!typed)
          return false;
      }
  return true;
}
function partialCheck(paths, requirement, message$1) {
  return {
    kind: "validation",
    type: "partial_check",
    reference: partialCheck,
    async: false,
    expects: null,
    paths,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if ((dataset.typed || /* @__PURE__ */ _isPartiallyTyped(dataset, paths)) && !this.requirement(dataset.value))
        _addIssue(this, "input", dataset, config$1);
      return dataset;
    }
  };
}
function partialCheckAsync(paths, requirement, message$1) {
  return {
    kind: "validation",
    type: "partial_check",
    reference: partialCheckAsync,
    async: true,
    expects: null,
    paths,
    requirement,
    message: message$1,
    async "~run"(dataset, config$1) {
      if ((dataset.typed || /* @__PURE__ */ _isPartiallyTyped(dataset, paths)) && !await this.requirement(dataset.value))
        _addIssue(this, "input", dataset, config$1);
      return dataset;
    }
  };
}
function rawCheck(action) {
  return {
    kind: "validation",
    type: "raw_check",
    reference: rawCheck,
    async: false,
    expects: null,
    "~run"(dataset, config$1) {
      action({
        dataset,
        config: config$1,
        addIssue: (info) => _addIssue(this, info?.label ?? "input", dataset, config$1, info)
      });
      return dataset;
    }
  };
}
function rawCheckAsync(action) {
  return {
    kind: "validation",
    type: "raw_check",
    reference: rawCheckAsync,
    async: true,
    expects: null,
    async "~run"(dataset, config$1) {
      await action({
        dataset,
        config: config$1,
        addIssue: (info) => _addIssue(this, info?.label ?? "input", dataset, config$1, info)
      });
      return dataset;
    }
  };
}
function rawTransform(action) {
  return {
    kind: "transformation",
    type: "raw_transform",
    reference: rawTransform,
    async: false,
    "~run"(dataset, config$1) {
      const output = action({
        dataset,
        config: config$1,
        addIssue: (info) => _addIssue(this, info?.label ?? "input", dataset, config$1, info),
        NEVER: null
      });
      if (dataset.issues)
        dataset.typed = false;
      else
        dataset.value = output;
      return dataset;
    }
  };
}
function rawTransformAsync(action) {
  return {
    kind: "transformation",
    type: "raw_transform",
    reference: rawTransformAsync,
    async: true,
    async "~run"(dataset, config$1) {
      const output = await action({
        dataset,
        config: config$1,
        addIssue: (info) => _addIssue(this, info?.label ?? "input", dataset, config$1, info),
        NEVER: null
      });
      if (dataset.issues)
        dataset.typed = false;
      else
        dataset.value = output;
      return dataset;
    }
  };
}
function readonly() {
  return {
    kind: "transformation",
    type: "readonly",
    reference: readonly,
    async: false,
    "~run"(dataset) {
      return dataset;
    }
  };
}
function reduceItems(operation, initial) {
  return {
    kind: "transformation",
    type: "reduce_items",
    reference: reduceItems,
    async: false,
    operation,
    initial,
    "~run"(dataset) {
      dataset.value = dataset.value.reduce(this.operation, this.initial);
      return dataset;
    }
  };
}
function regex(requirement, message$1) {
  return {
    kind: "validation",
    type: "regex",
    reference: regex,
    async: false,
    expects: `${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "format", dataset, config$1);
      return dataset;
    }
  };
}
function returns(schema) {
  return {
    kind: "transformation",
    type: "returns",
    reference: returns,
    async: false,
    schema,
    "~run"(dataset, config$1) {
      const func = dataset.value;
      dataset.value = (...args_) => {
        const returnsDataset = this.schema["~run"]({ value: func(...args_) }, config$1);
        if (returnsDataset.issues)
          throw new ValiError(returnsDataset.issues);
        return returnsDataset.value;
      };
      return dataset;
    }
  };
}
function returnsAsync(schema) {
  return {
    kind: "transformation",
    type: "returns",
    reference: returnsAsync,
    async: false,
    schema,
    "~run"(dataset, config$1) {
      const func = dataset.value;
      dataset.value = async (...args_) => {
        const returnsDataset = await this.schema["~run"]({ value: await func(...args_) }, config$1);
        if (returnsDataset.issues)
          throw new ValiError(returnsDataset.issues);
        return returnsDataset.value;
      };
      return dataset;
    }
  };
}
function rfcEmail(message$1) {
  return {
    kind: "validation",
    type: "rfc_email",
    reference: rfcEmail,
    expects: null,
    async: false,
    requirement: RFC_EMAIL_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "email", dataset, config$1);
      return dataset;
    }
  };
}
function safeInteger(message$1) {
  return {
    kind: "validation",
    type: "safe_integer",
    reference: safeInteger,
    async: false,
    expects: null,
    requirement: Number.isSafeInteger,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement(dataset.value))
        _addIssue(this, "safe integer", dataset, config$1);
      return dataset;
    }
  };
}
function size(requirement, message$1) {
  return {
    kind: "validation",
    type: "size",
    reference: size,
    async: false,
    expects: `${requirement}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.size !== this.requirement)
        _addIssue(this, "size", dataset, config$1, { received: `${dataset.value.size}` });
      return dataset;
    }
  };
}
function slug(message$1) {
  return {
    kind: "validation",
    type: "slug",
    reference: slug,
    async: false,
    expects: null,
    requirement: SLUG_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "slug", dataset, config$1);
      return dataset;
    }
  };
}
function someItem(requirement, message$1) {
  return {
    kind: "validation",
    type: "some_item",
    reference: someItem,
    async: false,
    expects: null,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !dataset.value.some(this.requirement))
        _addIssue(this, "item", dataset, config$1);
      return dataset;
    }
  };
}
function sortItems(operation) {
  return {
    kind: "transformation",
    type: "sort_items",
    reference: sortItems,
    async: false,
    operation,
    "~run"(dataset) {
      dataset.value = dataset.value.sort(this.operation);
      return dataset;
    }
  };
}
function startsWith(requirement, message$1) {
  return {
    kind: "validation",
    type: "starts_with",
    reference: startsWith,
    async: false,
    expects: `"${requirement}"`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !dataset.value.startsWith(this.requirement))
        _addIssue(this, "start", dataset, config$1, { received: `"${dataset.value.slice(0, this.requirement.length)}"` });
      return dataset;
    }
  };
}
function stringifyJson(config$1, message$1) {
  return {
    kind: "transformation",
    type: "stringify_json",
    reference: stringifyJson,
    message: message$1,
    config: config$1,
    async: false,
    "~run"(dataset, config$2) {
      try {
        const output = JSON.stringify(dataset.value, this.config?.replacer, this.config?.space);
        if (output === undefined) {
          _addIssue(this, "JSON", dataset, config$2);
          dataset.typed = false;
        } else
          dataset.value = output;
      } catch (error) {
        if (error instanceof Error) {
          _addIssue(this, "JSON", dataset, config$2, { received: `"${error.message}"` });
          dataset.typed = false;
        } else
          throw error;
      }
      return dataset;
    }
  };
}
function title(title_) {
  return {
    kind: "metadata",
    type: "title",
    reference: title,
    title: title_
  };
}
function toBigint(message$1) {
  return {
    kind: "transformation",
    type: "to_bigint",
    reference: toBigint,
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      try {
        dataset.value = BigInt(dataset.value);
      } catch {
        _addIssue(this, "bigint", dataset, config$1);
        dataset.typed = false;
      }
      return dataset;
    }
  };
}
function toBoolean() {
  return {
    kind: "transformation",
    type: "to_boolean",
    reference: toBoolean,
    async: false,
    "~run"(dataset) {
      dataset.value = Boolean(dataset.value);
      return dataset;
    }
  };
}
function toCamelCase() {
  return {
    kind: "transformation",
    type: "to_camel_case",
    reference: toCamelCase,
    async: false,
    "~run"(dataset) {
      dataset.value = /* @__PURE__ */ _formatCase(dataset.value, "", false, true);
      return dataset;
    }
  };
}
function toDate(message$1) {
  return {
    kind: "transformation",
    type: "to_date",
    reference: toDate,
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      try {
        dataset.value = new Date(dataset.value);
        if (isNaN(dataset.value)) {
          _addIssue(this, "date", dataset, config$1, { received: '"Invalid Date"' });
          dataset.typed = false;
        }
      } catch {
        _addIssue(this, "date", dataset, config$1);
        dataset.typed = false;
      }
      return dataset;
    }
  };
}
function toKebabCase() {
  return {
    kind: "transformation",
    type: "to_kebab_case",
    reference: toKebabCase,
    async: false,
    "~run"(dataset) {
      dataset.value = /* @__PURE__ */ _formatCase(dataset.value, "-", false, false);
      return dataset;
    }
  };
}
function toLowerCase() {
  return {
    kind: "transformation",
    type: "to_lower_case",
    reference: toLowerCase,
    async: false,
    "~run"(dataset) {
      dataset.value = dataset.value.toLowerCase();
      return dataset;
    }
  };
}
function toMaxValue(requirement) {
  return {
    kind: "transformation",
    type: "to_max_value",
    reference: toMaxValue,
    async: false,
    requirement,
    "~run"(dataset) {
      dataset.value = dataset.value > this.requirement ? this.requirement : dataset.value;
      return dataset;
    }
  };
}
function toMinValue(requirement) {
  return {
    kind: "transformation",
    type: "to_min_value",
    reference: toMinValue,
    async: false,
    requirement,
    "~run"(dataset) {
      dataset.value = dataset.value < this.requirement ? this.requirement : dataset.value;
      return dataset;
    }
  };
}
function toNumber(message$1) {
  return {
    kind: "transformation",
    type: "to_number",
    reference: toNumber,
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      try {
        dataset.value = Number(dataset.value);
        if (isNaN(dataset.value)) {
          _addIssue(this, "number", dataset, config$1);
          dataset.typed = false;
        }
      } catch {
        _addIssue(this, "number", dataset, config$1);
        dataset.typed = false;
      }
      return dataset;
    }
  };
}
function toPascalCase() {
  return {
    kind: "transformation",
    type: "to_pascal_case",
    reference: toPascalCase,
    async: false,
    "~run"(dataset) {
      dataset.value = /* @__PURE__ */ _formatCase(dataset.value, "", true, true);
      return dataset;
    }
  };
}
function toSnakeCase() {
  return {
    kind: "transformation",
    type: "to_snake_case",
    reference: toSnakeCase,
    async: false,
    "~run"(dataset) {
      dataset.value = /* @__PURE__ */ _formatCase(dataset.value, "_", false, false);
      return dataset;
    }
  };
}
function toString(message$1) {
  return {
    kind: "transformation",
    type: "to_string",
    reference: toString,
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      try {
        dataset.value = String(dataset.value);
      } catch {
        _addIssue(this, "string", dataset, config$1);
        dataset.typed = false;
      }
      return dataset;
    }
  };
}
function toUpperCase() {
  return {
    kind: "transformation",
    type: "to_upper_case",
    reference: toUpperCase,
    async: false,
    "~run"(dataset) {
      dataset.value = dataset.value.toUpperCase();
      return dataset;
    }
  };
}
function transform(operation) {
  return {
    kind: "transformation",
    type: "transform",
    reference: transform,
    async: false,
    operation,
    "~run"(dataset) {
      dataset.value = this.operation(dataset.value);
      return dataset;
    }
  };
}
function transformAsync(operation) {
  return {
    kind: "transformation",
    type: "transform",
    reference: transformAsync,
    async: true,
    operation,
    async "~run"(dataset) {
      dataset.value = await this.operation(dataset.value);
      return dataset;
    }
  };
}
function trim() {
  return {
    kind: "transformation",
    type: "trim",
    reference: trim,
    async: false,
    "~run"(dataset) {
      dataset.value = dataset.value.trim();
      return dataset;
    }
  };
}
function trimEnd() {
  return {
    kind: "transformation",
    type: "trim_end",
    reference: trimEnd,
    async: false,
    "~run"(dataset) {
      dataset.value = dataset.value.trimEnd();
      return dataset;
    }
  };
}
function trimStart() {
  return {
    kind: "transformation",
    type: "trim_start",
    reference: trimStart,
    async: false,
    "~run"(dataset) {
      dataset.value = dataset.value.trimStart();
      return dataset;
    }
  };
}
function ulid(message$1) {
  return {
    kind: "validation",
    type: "ulid",
    reference: ulid,
    async: false,
    expects: null,
    requirement: ULID_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "ULID", dataset, config$1);
      return dataset;
    }
  };
}
function url(message$1) {
  return {
    kind: "validation",
    type: "url",
    reference: url,
    async: false,
    expects: null,
    requirement(input) {
      try {
        if (URL.canParse)
          return URL.canParse(input);
        new URL(input);
        return true;
      } catch {
        return false;
      }
    },
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement(dataset.value))
        _addIssue(this, "URL", dataset, config$1);
      return dataset;
    }
  };
}
function uuid(message$1) {
  return {
    kind: "validation",
    type: "uuid",
    reference: uuid,
    async: false,
    expects: null,
    requirement: UUID_REGEX,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.test(dataset.value))
        _addIssue(this, "UUID", dataset, config$1);
      return dataset;
    }
  };
}
function value(requirement, message$1) {
  return {
    kind: "validation",
    type: "value",
    reference: value,
    async: false,
    expects: requirement instanceof Date ? requirement.toJSON() : /* @__PURE__ */ _stringify(requirement),
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !/* @__PURE__ */ _isValueMatch(this.requirement, dataset.value))
        _addIssue(this, "value", dataset, config$1, { received: dataset.value instanceof Date ? dataset.value.toJSON() : /* @__PURE__ */ _stringify(dataset.value) });
      return dataset;
    }
  };
}
function values(requirement, message$1) {
  return {
    kind: "validation",
    type: "values",
    reference: values,
    async: false,
    expects: `${/* @__PURE__ */ _joinExpects(requirement.map((value$1) => value$1 instanceof Date ? value$1.toJSON() : /* @__PURE__ */ _stringify(value$1)), "|")}`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && !this.requirement.some((requirement$1) => /* @__PURE__ */ _isValueMatch(requirement$1, dataset.value)))
        _addIssue(this, "value", dataset, config$1, { received: dataset.value instanceof Date ? dataset.value.toJSON() : /* @__PURE__ */ _stringify(dataset.value) });
      return dataset;
    }
  };
}
function words(locales, requirement, message$1) {
  return {
    kind: "validation",
    type: "words",
    reference: words,
    async: false,
    expects: `${requirement}`,
    locales,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed) {
        const count = /* @__PURE__ */ _getWordCount(this.locales, dataset.value);
        if (count !== this.requirement)
          _addIssue(this, "words", dataset, config$1, { received: `${count}` });
      }
      return dataset;
    }
  };
}
function assert(schema, input) {
  const issues = schema["~run"]({ value: input }, ABORT_EARLY_CONFIG).issues;
  if (issues)
    throw new ValiError(issues);
}
function cache(schema, config$1) {
  return _standardSchema({
    ...schema,
    cacheConfig: config$1,
    cache: new _LruCache(config$1),
    "~run"(dataset, runConfig) {
      const key = this.cache.key(dataset.value, runConfig);
      let outputDataset = this.cache.get(key);
      if (!outputDataset)
        this.cache.set(key, outputDataset = schema["~run"](dataset, runConfig));
      return /* @__PURE__ */ _cloneDataset(outputDataset);
    }
  });
}
function cacheAsync(schema, config$1) {
  let activeRuns;
  return _standardSchema({
    ...schema,
    async: true,
    cacheConfig: config$1,
    cache: new _LruCache(config$1),
    async "~run"(dataset, runConfig) {
      const key = this.cache.key(dataset.value, runConfig);
      const cached = this.cache.get(key);
      if (cached)
        return /* @__PURE__ */ _cloneDataset(cached);
      let promise$1 = activeRuns?.get(key);
      if (!promise$1) {
        activeRuns ?? (activeRuns = /* @__PURE__ */ new Map);
        promise$1 = Promise.resolve(schema["~run"](dataset, runConfig));
        activeRuns.set(key, promise$1);
      }
      try {
        const outputDataset = await promise$1;
        this.cache.set(key, outputDataset);
        return /* @__PURE__ */ _cloneDataset(outputDataset);
      } finally {
        activeRuns?.delete(key);
      }
    }
  });
}
function config(schema, config$1) {
  return _standardSchema({
    ...schema,
    "~run"(dataset, config_) {
      return schema["~run"](dataset, {
        ...config_,
        ...config$1
      });
    }
  });
}
function getFallback(schema, dataset, config$1) {
  return typeof schema.fallback === "function" ? schema.fallback(dataset, config$1) : schema.fallback;
}
function fallback(schema, fallback$1) {
  return _standardSchema({
    ...schema,
    fallback: fallback$1,
    "~run"(dataset, config$1) {
      const outputDataset = schema["~run"](dataset, config$1);
      return outputDataset.issues ? {
        typed: true,
        value: /* @__PURE__ */ getFallback(this, outputDataset, config$1)
      } : outputDataset;
    }
  });
}
function fallbackAsync(schema, fallback$1) {
  return _standardSchema({
    ...schema,
    fallback: fallback$1,
    async: true,
    async "~run"(dataset, config$1) {
      const outputDataset = await schema["~run"](dataset, config$1);
      return outputDataset.issues ? {
        typed: true,
        value: await /* @__PURE__ */ getFallback(this, outputDataset, config$1)
      } : outputDataset;
    }
  });
}
function flatten(issues) {
  const flatErrors = {};
  for (const issue of issues)
    if (issue.path) {
      const dotPath = /* @__PURE__ */ getDotPath(issue);
      if (dotPath) {
        if (!flatErrors.nested)
          flatErrors.nested = {};
        if (Object.prototype.hasOwnProperty.call(flatErrors.nested, dotPath))
          flatErrors.nested[dotPath].push(issue.message);
        else
          flatErrors.nested[dotPath] = [issue.message];
      } else if (flatErrors.other)
        flatErrors.other.push(issue.message);
      else
        flatErrors.other = [issue.message];
    } else if (flatErrors.root)
      flatErrors.root.push(issue.message);
    else
      flatErrors.root = [issue.message];
  return flatErrors;
}
function forward(action, path) {
  return {
    ...action,
    "~run"(dataset, config$1) {
      const prevIssues = dataset.issues && [...dataset.issues];
      dataset = action["~run"](dataset, config$1);
      if (dataset.issues) {
        for (const issue of dataset.issues)
          if (!prevIssues?.includes(issue)) {
            let pathInput = dataset.value;
            for (const key of path) {
              const pathValue = pathInput[key];
              const pathItem = {
                type: "unknown",
                origin: "value",
                input: pathInput,
                key,
                value: pathValue
              };
              if (issue.path)
                issue.path.push(pathItem);
              else
                issue.path = [pathItem];
              if (!pathValue)
                break;
              pathInput = pathValue;
            }
          }
      }
      return dataset;
    }
  };
}
function forwardAsync(action, path) {
  return {
    ...action,
    async: true,
    async "~run"(dataset, config$1) {
      const prevIssues = dataset.issues && [...dataset.issues];
      dataset = await action["~run"](dataset, config$1);
      if (dataset.issues) {
        for (const issue of dataset.issues)
          if (!prevIssues?.includes(issue)) {
            let pathInput = dataset.value;
            for (const key of path) {
              const pathValue = pathInput[key];
              const pathItem = {
                type: "unknown",
                origin: "value",
                input: pathInput,
                key,
                value: pathValue
              };
              if (issue.path)
                issue.path.push(pathItem);
              else
                issue.path = [pathItem];
              if (!pathValue)
                break;
              pathInput = pathValue;
            }
          }
      }
      return dataset;
    }
  };
}
function getDefault(schema, dataset, config$1) {
  return typeof schema.default === "function" ? schema.default(dataset, config$1) : schema.default;
}
function getDefaults(schema) {
  if ("entries" in schema) {
    const object$1 = {};
    for (const key in schema.entries)
      object$1[key] = /* @__PURE__ */ getDefaults(schema.entries[key]);
    return object$1;
  }
  if ("items" in schema)
    return schema.items.map(getDefaults);
  return /* @__PURE__ */ getDefault(schema);
}
async function getDefaultsAsync(schema) {
  if ("entries" in schema)
    return Object.fromEntries(await Promise.all(Object.entries(schema.entries).map(async ([key, value$1]) => [key, await /* @__PURE__ */ getDefaultsAsync(value$1)])));
  if ("items" in schema)
    return Promise.all(schema.items.map(getDefaultsAsync));
  return /* @__PURE__ */ getDefault(schema);
}
function getDescription(schema) {
  return /* @__PURE__ */ _getLastMetadata(schema, "description");
}
function getExamples(schema) {
  const examples$1 = [];
  function depthFirstCollect(schema$1) {
    if ("pipe" in schema$1) {
      for (const item of schema$1.pipe)
        if (item.kind === "schema" && "pipe" in item)
          depthFirstCollect(item);
        else if (item.kind === "metadata" && item.type === "examples")
          for (const example of item.examples)
            examples$1.push(example);
    }
  }
  depthFirstCollect(schema);
  return examples$1;
}
function getFallbacks(schema) {
  if ("entries" in schema) {
    const object$1 = {};
    for (const key in schema.entries)
      object$1[key] = /* @__PURE__ */ getFallbacks(schema.entries[key]);
    return object$1;
  }
  if ("items" in schema)
    return schema.items.map(getFallbacks);
  return /* @__PURE__ */ getFallback(schema);
}
async function getFallbacksAsync(schema) {
  if ("entries" in schema)
    return Object.fromEntries(await Promise.all(Object.entries(schema.entries).map(async ([key, value$1]) => [key, await /* @__PURE__ */ getFallbacksAsync(value$1)])));
  if ("items" in schema)
    return Promise.all(schema.items.map(getFallbacksAsync));
  return /* @__PURE__ */ getFallback(schema);
}
function getMetadata(schema) {
  const result = {};
  function depthFirstMerge(schema$1) {
    if ("pipe" in schema$1) {
      for (const item of schema$1.pipe)
        if (item.kind === "schema" && "pipe" in item)
          depthFirstMerge(item);
        else if (item.kind === "metadata" && item.type === "metadata")
          Object.assign(result, item.metadata);
    }
  }
  depthFirstMerge(schema);
  return result;
}
function getTitle(schema) {
  return /* @__PURE__ */ _getLastMetadata(schema, "title");
}
function is(schema, input) {
  return !schema["~run"]({ value: input }, ABORT_EARLY_CONFIG).issues;
}
function any() {
  return _standardSchema({
    kind: "schema",
    type: "any",
    reference: any,
    expects: "any",
    async: false,
    "~run"(dataset) {
      dataset.typed = true;
      return dataset;
    }
  });
}
function array(item, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "array",
    reference: array,
    expects: "Array",
    async: false,
    item,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        for (let key = 0;key < input.length; key++) {
          const value$1 = input[key];
          const itemDataset = this.item["~run"]({ value: value$1 }, config$1);
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: value$1
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function arrayAsync(item, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "array",
    reference: arrayAsync,
    expects: "Array",
    async: true,
    item,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        const itemDatasets = await Promise.all(input.map((value$1) => this.item["~run"]({ value: value$1 }, config$1)));
        for (let key = 0;key < itemDatasets.length; key++) {
          const itemDataset = itemDatasets[key];
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: input[key]
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function bigint(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "bigint",
    reference: bigint,
    expects: "bigint",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (typeof dataset.value === "bigint")
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function blob(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "blob",
    reference: blob,
    expects: "Blob",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.value instanceof Blob)
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function boolean(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "boolean",
    reference: boolean,
    expects: "boolean",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (typeof dataset.value === "boolean")
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function custom(check$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "custom",
    reference: custom,
    expects: "unknown",
    async: false,
    check: check$1,
    message: message$1,
    "~run"(dataset, config$1) {
      if (this.check(dataset.value))
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function customAsync(check$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "custom",
    reference: customAsync,
    expects: "unknown",
    async: true,
    check: check$1,
    message: message$1,
    async "~run"(dataset, config$1) {
      if (await this.check(dataset.value))
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function date(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "date",
    reference: date,
    expects: "Date",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.value instanceof Date)
        if (!isNaN(dataset.value))
          dataset.typed = true;
        else
          _addIssue(this, "type", dataset, config$1, { received: '"Invalid Date"' });
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function enum_(enum__, message$1) {
  const options = [];
  for (const key in enum__)
    if (`${+key}` !== key || typeof enum__[key] !== "string" || !Object.is(enum__[enum__[key]], +key))
      options.push(enum__[key]);
  return _standardSchema({
    kind: "schema",
    type: "enum",
    reference: enum_,
    expects: /* @__PURE__ */ _joinExpects(options.map(_stringify), "|"),
    async: false,
    enum: enum__,
    options,
    message: message$1,
    "~run"(dataset, config$1) {
      if (this.options.includes(dataset.value))
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function exactOptional(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "exact_optional",
    reference: exactOptional,
    expects: wrapped.expects,
    async: false,
    wrapped,
    default: default_,
    "~run"(dataset, config$1) {
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function exactOptionalAsync(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "exact_optional",
    reference: exactOptionalAsync,
    expects: wrapped.expects,
    async: true,
    wrapped,
    default: default_,
    async "~run"(dataset, config$1) {
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function file(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "file",
    reference: file,
    expects: "File",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.value instanceof File)
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function function_(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "function",
    reference: function_,
    expects: "Function",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (typeof dataset.value === "function")
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function instance(class_, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "instance",
    reference: instance,
    expects: class_.name,
    async: false,
    class: class_,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.value instanceof this.class)
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function _merge(value1, value2) {
  if (typeof value1 === typeof value2) {
    if (/* @__PURE__ */ _isSameValueZero(value1, value2) || value1 instanceof Date && value2 instanceof Date && /* @__PURE__ */ _isSameValueZero(+value1, +value2))
      return { value: value1 };
    if (value1 && value2 && value1.constructor === Object && value2.constructor === Object) {
      const nextValue = {
        ...value1,
        ...value2
      };
      for (const key in value2)
        if (Object.prototype.hasOwnProperty.call(value1, key) && Object.prototype.hasOwnProperty.call(value2, key)) {
          const dataset = /* @__PURE__ */ _merge(value1[key], value2[key]);
          if (dataset.issue)
            return dataset;
          nextValue[key] = dataset.value;
        }
      return { value: nextValue };
    }
    if (Array.isArray(value1) && Array.isArray(value2)) {
      if (value1.length === value2.length) {
        const nextValue = [...value1];
        for (let index = 0;index < value1.length; index++) {
          const dataset = /* @__PURE__ */ _merge(value1[index], value2[index]);
          if (dataset.issue)
            return dataset;
          nextValue[index] = dataset.value;
        }
        return { value: nextValue };
      }
    }
  }
  return { issue: true };
}
function intersect(options, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "intersect",
    reference: intersect,
    expects: /* @__PURE__ */ _joinExpects(options.map((option) => option.expects), "&"),
    async: false,
    options,
    message: message$1,
    "~run"(dataset, config$1) {
      if (this.options.length) {
        const input = dataset.value;
        let outputs;
        dataset.typed = true;
        for (const schema of this.options) {
          const optionDataset = schema["~run"]({ value: input }, config$1);
          if (optionDataset.issues) {
            if (dataset.issues)
              for (const issue of optionDataset.issues)
                dataset.issues.push(issue);
            else
              dataset.issues = optionDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!optionDataset.typed)
            dataset.typed = false;
          if (dataset.typed)
            if (outputs)
              outputs.push(optionDataset.value);
            else
              outputs = [optionDataset.value];
        }
        if (dataset.typed) {
          dataset.value = outputs[0];
          for (let index = 1;index < outputs.length; index++) {
            const mergeDataset = /* @__PURE__ */ _merge(dataset.value, outputs[index]);
            if (mergeDataset.issue) {
              _addIssue(this, "type", dataset, config$1, { received: "unknown" });
              break;
            }
            dataset.value = mergeDataset.value;
          }
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function intersectAsync(options, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "intersect",
    reference: intersectAsync,
    expects: /* @__PURE__ */ _joinExpects(options.map((option) => option.expects), "&"),
    async: true,
    options,
    message: message$1,
    async "~run"(dataset, config$1) {
      if (this.options.length) {
        const input = dataset.value;
        let outputs;
        dataset.typed = true;
        const optionDatasets = await Promise.all(this.options.map((schema) => schema["~run"]({ value: input }, config$1)));
        for (const optionDataset of optionDatasets) {
          if (optionDataset.issues) {
            if (dataset.issues)
              for (const issue of optionDataset.issues)
                dataset.issues.push(issue);
            else
              dataset.issues = optionDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!optionDataset.typed)
            dataset.typed = false;
          if (dataset.typed)
            if (outputs)
              outputs.push(optionDataset.value);
            else
              outputs = [optionDataset.value];
        }
        if (dataset.typed) {
          dataset.value = outputs[0];
          for (let index = 1;index < outputs.length; index++) {
            const mergeDataset = /* @__PURE__ */ _merge(dataset.value, outputs[index]);
            if (mergeDataset.issue) {
              _addIssue(this, "type", dataset, config$1, { received: "unknown" });
              break;
            }
            dataset.value = mergeDataset.value;
          }
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function lazy(getter) {
  return _standardSchema({
    kind: "schema",
    type: "lazy",
    reference: lazy,
    expects: "unknown",
    async: false,
    getter,
    "~run"(dataset, config$1) {
      return this.getter(dataset.value)["~run"](dataset, config$1);
    }
  });
}
function lazyAsync(getter) {
  return _standardSchema({
    kind: "schema",
    type: "lazy",
    reference: lazyAsync,
    expects: "unknown",
    async: true,
    getter,
    async "~run"(dataset, config$1) {
      return (await this.getter(dataset.value))["~run"](dataset, config$1);
    }
  });
}
function literal(literal_, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "literal",
    reference: literal,
    expects: /* @__PURE__ */ _stringify(literal_),
    async: false,
    literal: literal_,
    message: message$1,
    "~run"(dataset, config$1) {
      if (/* @__PURE__ */ _isSameValueZero(dataset.value, this.literal))
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function looseObject(entries$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "loose_object",
    reference: looseObject,
    expects: "Object",
    async: false,
    entries: entries$1,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        for (const key in this.entries) {
          const valueSchema = this.entries[key];
          if (key in input || (valueSchema.type === "exact_optional" || valueSchema.type === "optional" || valueSchema.type === "nullish") && valueSchema.default !== undefined) {
            const value$1 = key in input ? input[key] : /* @__PURE__ */ getDefault(valueSchema);
            const valueDataset = valueSchema["~run"]({ value: value$1 }, config$1);
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!valueDataset.typed)
              dataset.typed = false;
            dataset.value[key] = valueDataset.value;
          } else if (valueSchema.fallback !== undefined)
            dataset.value[key] = /* @__PURE__ */ getFallback(valueSchema);
          else if (valueSchema.type !== "exact_optional" && valueSchema.type !== "optional" && valueSchema.type !== "nullish") {
            _addIssue(this, "key", dataset, config$1, {
              input: undefined,
              expected: `"${key}"`,
              path: [{
                type: "object",
                origin: "key",
                input,
                key,
                value: input[key]
              }]
            });
            if (config$1.abortEarly)
              break;
          }
        }
        if (!dataset.issues || !config$1.abortEarly) {
          for (const key in input)
            if (/* @__PURE__ */ _isValidObjectKey(input, key) && !Object.prototype.hasOwnProperty.call(this.entries, key))
              dataset.value[key] = input[key];
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function looseObjectAsync(entries$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "loose_object",
    reference: looseObjectAsync,
    expects: "Object",
    async: true,
    entries: entries$1,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        const valueDatasets = await Promise.all(Object.entries(this.entries).map(async ([key, valueSchema]) => {
          if (key in input || (valueSchema.type === "exact_optional" || valueSchema.type === "optional" || valueSchema.type === "nullish") && valueSchema.default !== undefined) {
            const value$1 = key in input ? input[key] : await /* @__PURE__ */ getDefault(valueSchema);
            return [
              key,
              value$1,
              valueSchema,
              await valueSchema["~run"]({ value: value$1 }, config$1)
            ];
          }
          return [
            key,
            input[key],
            valueSchema,
            null
          ];
        }));
        for (const [key, value$1, valueSchema, valueDataset] of valueDatasets)
          if (valueDataset) {
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!valueDataset.typed)
              dataset.typed = false;
            dataset.value[key] = valueDataset.value;
          } else if (valueSchema.fallback !== undefined)
            dataset.value[key] = await /* @__PURE__ */ getFallback(valueSchema);
          else if (valueSchema.type !== "exact_optional" && valueSchema.type !== "optional" && valueSchema.type !== "nullish") {
            _addIssue(this, "key", dataset, config$1, {
              input: undefined,
              expected: `"${key}"`,
              path: [{
                type: "object",
                origin: "key",
                input,
                key,
                value: value$1
              }]
            });
            if (config$1.abortEarly)
              break;
          }
        if (!dataset.issues || !config$1.abortEarly) {
          for (const key in input)
            if (/* @__PURE__ */ _isValidObjectKey(input, key) && !Object.prototype.hasOwnProperty.call(this.entries, key))
              dataset.value[key] = input[key];
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function looseTuple(items, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "loose_tuple",
    reference: looseTuple,
    expects: "Array",
    async: false,
    items,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        for (let key = 0;key < this.items.length; key++) {
          const value$1 = input[key];
          const itemDataset = this.items[key]["~run"]({ value: value$1 }, config$1);
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: value$1
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
        if (!dataset.issues || !config$1.abortEarly)
          for (let key = this.items.length;key < input.length; key++)
            dataset.value.push(input[key]);
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function looseTupleAsync(items, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "loose_tuple",
    reference: looseTupleAsync,
    expects: "Array",
    async: true,
    items,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        const itemDatasets = await Promise.all(this.items.map(async (item, key) => {
          const value$1 = input[key];
          return [
            key,
            value$1,
            await item["~run"]({ value: value$1 }, config$1)
          ];
        }));
        for (const [key, value$1, itemDataset] of itemDatasets) {
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: value$1
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
        if (!dataset.issues || !config$1.abortEarly)
          for (let key = this.items.length;key < input.length; key++)
            dataset.value.push(input[key]);
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function map(key, value$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "map",
    reference: map,
    expects: "Map",
    async: false,
    key,
    value: value$1,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input instanceof Map) {
        dataset.typed = true;
        dataset.value = /* @__PURE__ */ new Map;
        for (const [inputKey, inputValue] of input) {
          const keyDataset = this.key["~run"]({ value: inputKey }, config$1);
          if (keyDataset.issues) {
            const pathItem = {
              type: "map",
              origin: "key",
              input,
              key: inputKey,
              value: inputValue
            };
            for (const issue of keyDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = keyDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          const valueDataset = this.value["~run"]({ value: inputValue }, config$1);
          if (valueDataset.issues) {
            const pathItem = {
              type: "map",
              origin: "value",
              input,
              key: inputKey,
              value: inputValue
            };
            for (const issue of valueDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = valueDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!keyDataset.typed || !valueDataset.typed)
            dataset.typed = false;
          dataset.value.set(keyDataset.value, valueDataset.value);
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function mapAsync(key, value$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "map",
    reference: mapAsync,
    expects: "Map",
    async: true,
    key,
    value: value$1,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input instanceof Map) {
        dataset.typed = true;
        dataset.value = /* @__PURE__ */ new Map;
        const datasets = await Promise.all([...input].map(([inputKey, inputValue]) => Promise.all([
          inputKey,
          inputValue,
          this.key["~run"]({ value: inputKey }, config$1),
          this.value["~run"]({ value: inputValue }, config$1)
        ])));
        for (const [inputKey, inputValue, keyDataset, valueDataset] of datasets) {
          if (keyDataset.issues) {
            const pathItem = {
              type: "map",
              origin: "key",
              input,
              key: inputKey,
              value: inputValue
            };
            for (const issue of keyDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = keyDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (valueDataset.issues) {
            const pathItem = {
              type: "map",
              origin: "value",
              input,
              key: inputKey,
              value: inputValue
            };
            for (const issue of valueDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = valueDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!keyDataset.typed || !valueDataset.typed)
            dataset.typed = false;
          dataset.value.set(keyDataset.value, valueDataset.value);
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function nan(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "nan",
    reference: nan,
    expects: "NaN",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (Number.isNaN(dataset.value))
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function never(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "never",
    reference: never,
    expects: "never",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function nonNullable(wrapped, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "non_nullable",
    reference: nonNullable,
    expects: "!null",
    async: false,
    wrapped,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.value !== null)
        dataset = this.wrapped["~run"](dataset, config$1);
      if (dataset.value === null)
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function nonNullableAsync(wrapped, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "non_nullable",
    reference: nonNullableAsync,
    expects: "!null",
    async: true,
    wrapped,
    message: message$1,
    async "~run"(dataset, config$1) {
      if (dataset.value !== null)
        dataset = await this.wrapped["~run"](dataset, config$1);
      if (dataset.value === null)
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function nonNullish(wrapped, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "non_nullish",
    reference: nonNullish,
    expects: "(!null & !undefined)",
    async: false,
    wrapped,
    message: message$1,
    "~run"(dataset, config$1) {
      if (!(dataset.value === null || dataset.value === undefined))
        dataset = this.wrapped["~run"](dataset, config$1);
      if (dataset.value === null || dataset.value === undefined)
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function nonNullishAsync(wrapped, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "non_nullish",
    reference: nonNullishAsync,
    expects: "(!null & !undefined)",
    async: true,
    wrapped,
    message: message$1,
    async "~run"(dataset, config$1) {
      if (!(dataset.value === null || dataset.value === undefined))
        dataset = await this.wrapped["~run"](dataset, config$1);
      if (dataset.value === null || dataset.value === undefined)
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function nonOptional(wrapped, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "non_optional",
    reference: nonOptional,
    expects: "!undefined",
    async: false,
    wrapped,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.value !== undefined)
        dataset = this.wrapped["~run"](dataset, config$1);
      if (dataset.value === undefined)
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function nonOptionalAsync(wrapped, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "non_optional",
    reference: nonOptionalAsync,
    expects: "!undefined",
    async: true,
    wrapped,
    message: message$1,
    async "~run"(dataset, config$1) {
      if (dataset.value !== undefined)
        dataset = await this.wrapped["~run"](dataset, config$1);
      if (dataset.value === undefined)
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function null_(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "null",
    reference: null_,
    expects: "null",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.value === null)
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function nullable(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "nullable",
    reference: nullable,
    expects: `(${wrapped.expects} | null)`,
    async: false,
    wrapped,
    default: default_,
    "~run"(dataset, config$1) {
      if (dataset.value === null) {
        if (this.default !== undefined)
          dataset.value = /* @__PURE__ */ getDefault(this, dataset, config$1);
        if (dataset.value === null) {
          dataset.typed = true;
          return dataset;
        }
      }
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function nullableAsync(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "nullable",
    reference: nullableAsync,
    expects: `(${wrapped.expects} | null)`,
    async: true,
    wrapped,
    default: default_,
    async "~run"(dataset, config$1) {
      if (dataset.value === null) {
        if (this.default !== undefined)
          dataset.value = await /* @__PURE__ */ getDefault(this, dataset, config$1);
        if (dataset.value === null) {
          dataset.typed = true;
          return dataset;
        }
      }
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function nullish(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "nullish",
    reference: nullish,
    expects: `(${wrapped.expects} | null | undefined)`,
    async: false,
    wrapped,
    default: default_,
    "~run"(dataset, config$1) {
      if (dataset.value === null || dataset.value === undefined) {
        if (this.default !== undefined)
          dataset.value = /* @__PURE__ */ getDefault(this, dataset, config$1);
        if (dataset.value === null || dataset.value === undefined) {
          dataset.typed = true;
          return dataset;
        }
      }
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function nullishAsync(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "nullish",
    reference: nullishAsync,
    expects: `(${wrapped.expects} | null | undefined)`,
    async: true,
    wrapped,
    default: default_,
    async "~run"(dataset, config$1) {
      if (dataset.value === null || dataset.value === undefined) {
        if (this.default !== undefined)
          dataset.value = await /* @__PURE__ */ getDefault(this, dataset, config$1);
        if (dataset.value === null || dataset.value === undefined) {
          dataset.typed = true;
          return dataset;
        }
      }
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function number(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "number",
    reference: number,
    expects: "number",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (typeof dataset.value === "number" && !isNaN(dataset.value))
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function object(entries$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "object",
    reference: object,
    expects: "Object",
    async: false,
    entries: entries$1,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        for (const key in this.entries) {
          const valueSchema = this.entries[key];
          if (key in input || (valueSchema.type === "exact_optional" || valueSchema.type === "optional" || valueSchema.type === "nullish") && valueSchema.default !== undefined) {
            const value$1 = key in input ? input[key] : /* @__PURE__ */ getDefault(valueSchema);
            const valueDataset = valueSchema["~run"]({ value: value$1 }, config$1);
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!valueDataset.typed)
              dataset.typed = false;
            dataset.value[key] = valueDataset.value;
          } else if (valueSchema.fallback !== undefined)
            dataset.value[key] = /* @__PURE__ */ getFallback(valueSchema);
          else if (valueSchema.type !== "exact_optional" && valueSchema.type !== "optional" && valueSchema.type !== "nullish") {
            _addIssue(this, "key", dataset, config$1, {
              input: undefined,
              expected: `"${key}"`,
              path: [{
                type: "object",
                origin: "key",
                input,
                key,
                value: input[key]
              }]
            });
            if (config$1.abortEarly)
              break;
          }
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function objectAsync(entries$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "object",
    reference: objectAsync,
    expects: "Object",
    async: true,
    entries: entries$1,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        const valueDatasets = await Promise.all(Object.entries(this.entries).map(async ([key, valueSchema]) => {
          if (key in input || (valueSchema.type === "exact_optional" || valueSchema.type === "optional" || valueSchema.type === "nullish") && valueSchema.default !== undefined) {
            const value$1 = key in input ? input[key] : await /* @__PURE__ */ getDefault(valueSchema);
            return [
              key,
              value$1,
              valueSchema,
              await valueSchema["~run"]({ value: value$1 }, config$1)
            ];
          }
          return [
            key,
            input[key],
            valueSchema,
            null
          ];
        }));
        for (const [key, value$1, valueSchema, valueDataset] of valueDatasets)
          if (valueDataset) {
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!valueDataset.typed)
              dataset.typed = false;
            dataset.value[key] = valueDataset.value;
          } else if (valueSchema.fallback !== undefined)
            dataset.value[key] = await /* @__PURE__ */ getFallback(valueSchema);
          else if (valueSchema.type !== "exact_optional" && valueSchema.type !== "optional" && valueSchema.type !== "nullish") {
            _addIssue(this, "key", dataset, config$1, {
              input: undefined,
              expected: `"${key}"`,
              path: [{
                type: "object",
                origin: "key",
                input,
                key,
                value: value$1
              }]
            });
            if (config$1.abortEarly)
              break;
          }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function objectWithRest(entries$1, rest, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "object_with_rest",
    reference: objectWithRest,
    expects: "Object",
    async: false,
    entries: entries$1,
    rest,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        for (const key in this.entries) {
          const valueSchema = this.entries[key];
          if (key in input || (valueSchema.type === "exact_optional" || valueSchema.type === "optional" || valueSchema.type === "nullish") && valueSchema.default !== undefined) {
            const value$1 = key in input ? input[key] : /* @__PURE__ */ getDefault(valueSchema);
            const valueDataset = valueSchema["~run"]({ value: value$1 }, config$1);
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!valueDataset.typed)
              dataset.typed = false;
            dataset.value[key] = valueDataset.value;
          } else if (valueSchema.fallback !== undefined)
            dataset.value[key] = /* @__PURE__ */ getFallback(valueSchema);
          else if (valueSchema.type !== "exact_optional" && valueSchema.type !== "optional" && valueSchema.type !== "nullish") {
            _addIssue(this, "key", dataset, config$1, {
              input: undefined,
              expected: `"${key}"`,
              path: [{
                type: "object",
                origin: "key",
                input,
                key,
                value: input[key]
              }]
            });
            if (config$1.abortEarly)
              break;
          }
        }
        if (!dataset.issues || !config$1.abortEarly) {
          for (const key in input)
            if (/* @__PURE__ */ _isValidObjectKey(input, key) && !Object.prototype.hasOwnProperty.call(this.entries, key)) {
              const valueDataset = this.rest["~run"]({ value: input[key] }, config$1);
              if (valueDataset.issues) {
                const pathItem = {
                  type: "object",
                  origin: "value",
                  input,
                  key,
                  value: input[key]
                };
                for (const issue of valueDataset.issues) {
                  if (issue.path)
                    issue.path.unshift(pathItem);
                  else
                    issue.path = [pathItem];
                  dataset.issues?.push(issue);
                }
                if (!dataset.issues)
                  dataset.issues = valueDataset.issues;
                if (config$1.abortEarly) {
                  dataset.typed = false;
                  break;
                }
              }
              if (!valueDataset.typed)
                dataset.typed = false;
              dataset.value[key] = valueDataset.value;
            }
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function objectWithRestAsync(entries$1, rest, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "object_with_rest",
    reference: objectWithRestAsync,
    expects: "Object",
    async: true,
    entries: entries$1,
    rest,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        const [normalDatasets, restDatasets] = await Promise.all([Promise.all(Object.entries(this.entries).map(async ([key, valueSchema]) => {
          if (key in input || (valueSchema.type === "exact_optional" || valueSchema.type === "optional" || valueSchema.type === "nullish") && valueSchema.default !== undefined) {
            const value$1 = key in input ? input[key] : await /* @__PURE__ */ getDefault(valueSchema);
            return [
              key,
              value$1,
              valueSchema,
              await valueSchema["~run"]({ value: value$1 }, config$1)
            ];
          }
          return [
            key,
            input[key],
            valueSchema,
            null
          ];
        })), Promise.all(Object.entries(input).filter(([key]) => /* @__PURE__ */ _isValidObjectKey(input, key) && !Object.prototype.hasOwnProperty.call(this.entries, key)).map(async ([key, value$1]) => [
          key,
          value$1,
          await this.rest["~run"]({ value: value$1 }, config$1)
        ]))]);
        for (const [key, value$1, valueSchema, valueDataset] of normalDatasets)
          if (valueDataset) {
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!valueDataset.typed)
              dataset.typed = false;
            dataset.value[key] = valueDataset.value;
          } else if (valueSchema.fallback !== undefined)
            dataset.value[key] = await /* @__PURE__ */ getFallback(valueSchema);
          else if (valueSchema.type !== "exact_optional" && valueSchema.type !== "optional" && valueSchema.type !== "nullish") {
            _addIssue(this, "key", dataset, config$1, {
              input: undefined,
              expected: `"${key}"`,
              path: [{
                type: "object",
                origin: "key",
                input,
                key,
                value: value$1
              }]
            });
            if (config$1.abortEarly)
              break;
          }
        if (!dataset.issues || !config$1.abortEarly)
          for (const [key, value$1, valueDataset] of restDatasets) {
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!valueDataset.typed)
              dataset.typed = false;
            dataset.value[key] = valueDataset.value;
          }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function optional(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "optional",
    reference: optional,
    expects: `(${wrapped.expects} | undefined)`,
    async: false,
    wrapped,
    default: default_,
    "~run"(dataset, config$1) {
      if (dataset.value === undefined) {
        if (this.default !== undefined)
          dataset.value = /* @__PURE__ */ getDefault(this, dataset, config$1);
        if (dataset.value === undefined) {
          dataset.typed = true;
          return dataset;
        }
      }
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function optionalAsync(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "optional",
    reference: optionalAsync,
    expects: `(${wrapped.expects} | undefined)`,
    async: true,
    wrapped,
    default: default_,
    async "~run"(dataset, config$1) {
      if (dataset.value === undefined) {
        if (this.default !== undefined)
          dataset.value = await /* @__PURE__ */ getDefault(this, dataset, config$1);
        if (dataset.value === undefined) {
          dataset.typed = true;
          return dataset;
        }
      }
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function picklist(options, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "picklist",
    reference: picklist,
    expects: /* @__PURE__ */ _joinExpects(options.map(_stringify), "|"),
    async: false,
    options,
    message: message$1,
    "~run"(dataset, config$1) {
      if (this.options.includes(dataset.value))
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function promise(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "promise",
    reference: promise,
    expects: "Promise",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.value instanceof Promise)
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function record(key, value$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "record",
    reference: record,
    expects: "Object",
    async: false,
    key,
    value: value$1,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        for (const entryKey in input)
          if (/* @__PURE__ */ _isValidObjectKey(input, entryKey)) {
            const entryValue = input[entryKey];
            const keyDataset = this.key["~run"]({ value: entryKey }, config$1);
            if (keyDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "key",
                input,
                key: entryKey,
                value: entryValue
              };
              for (const issue of keyDataset.issues) {
                issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = keyDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            const valueDataset = this.value["~run"]({ value: entryValue }, config$1);
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key: entryKey,
                value: entryValue
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!keyDataset.typed || !valueDataset.typed)
              dataset.typed = false;
            if (keyDataset.typed)
              dataset.value[keyDataset.value] = valueDataset.value;
          }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function recordAsync(key, value$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "record",
    reference: recordAsync,
    expects: "Object",
    async: true,
    key,
    value: value$1,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        const datasets = await Promise.all(Object.entries(input).filter(([key$1]) => /* @__PURE__ */ _isValidObjectKey(input, key$1)).map(([entryKey, entryValue]) => Promise.all([
          entryKey,
          entryValue,
          this.key["~run"]({ value: entryKey }, config$1),
          this.value["~run"]({ value: entryValue }, config$1)
        ])));
        for (const [entryKey, entryValue, keyDataset, valueDataset] of datasets) {
          if (keyDataset.issues) {
            const pathItem = {
              type: "object",
              origin: "key",
              input,
              key: entryKey,
              value: entryValue
            };
            for (const issue of keyDataset.issues) {
              issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = keyDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (valueDataset.issues) {
            const pathItem = {
              type: "object",
              origin: "value",
              input,
              key: entryKey,
              value: entryValue
            };
            for (const issue of valueDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = valueDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!keyDataset.typed || !valueDataset.typed)
            dataset.typed = false;
          if (keyDataset.typed)
            dataset.value[keyDataset.value] = valueDataset.value;
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function set(value$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "set",
    reference: set,
    expects: "Set",
    async: false,
    value: value$1,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input instanceof Set) {
        dataset.typed = true;
        dataset.value = /* @__PURE__ */ new Set;
        for (const inputValue of input) {
          const valueDataset = this.value["~run"]({ value: inputValue }, config$1);
          if (valueDataset.issues) {
            const pathItem = {
              type: "set",
              origin: "value",
              input,
              key: null,
              value: inputValue
            };
            for (const issue of valueDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = valueDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!valueDataset.typed)
            dataset.typed = false;
          dataset.value.add(valueDataset.value);
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function setAsync(value$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "set",
    reference: setAsync,
    expects: "Set",
    async: true,
    value: value$1,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input instanceof Set) {
        dataset.typed = true;
        dataset.value = /* @__PURE__ */ new Set;
        const valueDatasets = await Promise.all([...input].map(async (inputValue) => [inputValue, await this.value["~run"]({ value: inputValue }, config$1)]));
        for (const [inputValue, valueDataset] of valueDatasets) {
          if (valueDataset.issues) {
            const pathItem = {
              type: "set",
              origin: "value",
              input,
              key: null,
              value: inputValue
            };
            for (const issue of valueDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = valueDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!valueDataset.typed)
            dataset.typed = false;
          dataset.value.add(valueDataset.value);
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function strictObject(entries$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "strict_object",
    reference: strictObject,
    expects: "Object",
    async: false,
    entries: entries$1,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        for (const key in this.entries) {
          const valueSchema = this.entries[key];
          if (key in input || (valueSchema.type === "exact_optional" || valueSchema.type === "optional" || valueSchema.type === "nullish") && valueSchema.default !== undefined) {
            const value$1 = key in input ? input[key] : /* @__PURE__ */ getDefault(valueSchema);
            const valueDataset = valueSchema["~run"]({ value: value$1 }, config$1);
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!valueDataset.typed)
              dataset.typed = false;
            dataset.value[key] = valueDataset.value;
          } else if (valueSchema.fallback !== undefined)
            dataset.value[key] = /* @__PURE__ */ getFallback(valueSchema);
          else if (valueSchema.type !== "exact_optional" && valueSchema.type !== "optional" && valueSchema.type !== "nullish") {
            _addIssue(this, "key", dataset, config$1, {
              input: undefined,
              expected: `"${key}"`,
              path: [{
                type: "object",
                origin: "key",
                input,
                key,
                value: input[key]
              }]
            });
            if (config$1.abortEarly)
              break;
          }
        }
        if (!dataset.issues || !config$1.abortEarly) {
          for (const key in input)
            if (!Object.prototype.hasOwnProperty.call(this.entries, key)) {
              _addIssue(this, "key", dataset, config$1, {
                input: key,
                expected: "never",
                path: [{
                  type: "object",
                  origin: "key",
                  input,
                  key,
                  value: input[key]
                }]
              });
              break;
            }
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function strictObjectAsync(entries$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "strict_object",
    reference: strictObjectAsync,
    expects: "Object",
    async: true,
    entries: entries$1,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        const valueDatasets = await Promise.all(Object.entries(this.entries).map(async ([key, valueSchema]) => {
          if (key in input || (valueSchema.type === "exact_optional" || valueSchema.type === "optional" || valueSchema.type === "nullish") && valueSchema.default !== undefined) {
            const value$1 = key in input ? input[key] : await /* @__PURE__ */ getDefault(valueSchema);
            return [
              key,
              value$1,
              valueSchema,
              await valueSchema["~run"]({ value: value$1 }, config$1)
            ];
          }
          return [
            key,
            input[key],
            valueSchema,
            null
          ];
        }));
        for (const [key, value$1, valueSchema, valueDataset] of valueDatasets)
          if (valueDataset) {
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!valueDataset.typed)
              dataset.typed = false;
            dataset.value[key] = valueDataset.value;
          } else if (valueSchema.fallback !== undefined)
            dataset.value[key] = await /* @__PURE__ */ getFallback(valueSchema);
          else if (valueSchema.type !== "exact_optional" && valueSchema.type !== "optional" && valueSchema.type !== "nullish") {
            _addIssue(this, "key", dataset, config$1, {
              input: undefined,
              expected: `"${key}"`,
              path: [{
                type: "object",
                origin: "key",
                input,
                key,
                value: value$1
              }]
            });
            if (config$1.abortEarly)
              break;
          }
        if (!dataset.issues || !config$1.abortEarly) {
          for (const key in input)
            if (!Object.prototype.hasOwnProperty.call(this.entries, key)) {
              _addIssue(this, "key", dataset, config$1, {
                input: key,
                expected: "never",
                path: [{
                  type: "object",
                  origin: "key",
                  input,
                  key,
                  value: input[key]
                }]
              });
              break;
            }
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function strictTuple(items, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "strict_tuple",
    reference: strictTuple,
    expects: "Array",
    async: false,
    items,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        for (let key = 0;key < this.items.length; key++) {
          const value$1 = input[key];
          const itemDataset = this.items[key]["~run"]({ value: value$1 }, config$1);
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: value$1
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
        if (!(dataset.issues && config$1.abortEarly) && this.items.length < input.length)
          _addIssue(this, "type", dataset, config$1, {
            input: input[this.items.length],
            expected: "never",
            path: [{
              type: "array",
              origin: "value",
              input,
              key: this.items.length,
              value: input[this.items.length]
            }]
          });
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function strictTupleAsync(items, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "strict_tuple",
    reference: strictTupleAsync,
    expects: "Array",
    async: true,
    items,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        const itemDatasets = await Promise.all(this.items.map(async (item, key) => {
          const value$1 = input[key];
          return [
            key,
            value$1,
            await item["~run"]({ value: value$1 }, config$1)
          ];
        }));
        for (const [key, value$1, itemDataset] of itemDatasets) {
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: value$1
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
        if (!(dataset.issues && config$1.abortEarly) && this.items.length < input.length)
          _addIssue(this, "type", dataset, config$1, {
            input: input[this.items.length],
            expected: "never",
            path: [{
              type: "array",
              origin: "value",
              input,
              key: this.items.length,
              value: input[this.items.length]
            }]
          });
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function string(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "string",
    reference: string,
    expects: "string",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (typeof dataset.value === "string")
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function symbol(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "symbol",
    reference: symbol,
    expects: "symbol",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (typeof dataset.value === "symbol")
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function tuple(items, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "tuple",
    reference: tuple,
    expects: "Array",
    async: false,
    items,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        for (let key = 0;key < this.items.length; key++) {
          const value$1 = input[key];
          const itemDataset = this.items[key]["~run"]({ value: value$1 }, config$1);
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: value$1
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function tupleAsync(items, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "tuple",
    reference: tupleAsync,
    expects: "Array",
    async: true,
    items,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        const itemDatasets = await Promise.all(this.items.map(async (item, key) => {
          const value$1 = input[key];
          return [
            key,
            value$1,
            await item["~run"]({ value: value$1 }, config$1)
          ];
        }));
        for (const [key, value$1, itemDataset] of itemDatasets) {
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: value$1
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function tupleWithRest(items, rest, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "tuple_with_rest",
    reference: tupleWithRest,
    expects: "Array",
    async: false,
    items,
    rest,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        for (let key = 0;key < this.items.length; key++) {
          const value$1 = input[key];
          const itemDataset = this.items[key]["~run"]({ value: value$1 }, config$1);
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: value$1
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
        if (!dataset.issues || !config$1.abortEarly)
          for (let key = this.items.length;key < input.length; key++) {
            const value$1 = input[key];
            const itemDataset = this.rest["~run"]({ value: value$1 }, config$1);
            if (itemDataset.issues) {
              const pathItem = {
                type: "array",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of itemDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = itemDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!itemDataset.typed)
              dataset.typed = false;
            dataset.value.push(itemDataset.value);
          }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function tupleWithRestAsync(items, rest, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "tuple_with_rest",
    reference: tupleWithRestAsync,
    expects: "Array",
    async: true,
    items,
    rest,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        const [normalDatasets, restDatasets] = await Promise.all([Promise.all(this.items.map(async (item, key) => {
          const value$1 = input[key];
          return [
            key,
            value$1,
            await item["~run"]({ value: value$1 }, config$1)
          ];
        })), Promise.all(input.slice(this.items.length).map(async (value$1, key) => {
          return [
            key + this.items.length,
            value$1,
            await this.rest["~run"]({ value: value$1 }, config$1)
          ];
        }))]);
        for (const [key, value$1, itemDataset] of normalDatasets) {
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: value$1
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
        if (!dataset.issues || !config$1.abortEarly)
          for (const [key, value$1, itemDataset] of restDatasets) {
            if (itemDataset.issues) {
              const pathItem = {
                type: "array",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of itemDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = itemDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!itemDataset.typed)
              dataset.typed = false;
            dataset.value.push(itemDataset.value);
          }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function undefined_(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "undefined",
    reference: undefined_,
    expects: "undefined",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.value === undefined)
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function undefinedable(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "undefinedable",
    reference: undefinedable,
    expects: `(${wrapped.expects} | undefined)`,
    async: false,
    wrapped,
    default: default_,
    "~run"(dataset, config$1) {
      if (dataset.value === undefined) {
        if (this.default !== undefined)
          dataset.value = /* @__PURE__ */ getDefault(this, dataset, config$1);
        if (dataset.value === undefined) {
          dataset.typed = true;
          return dataset;
        }
      }
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function undefinedableAsync(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "undefinedable",
    reference: undefinedableAsync,
    expects: `(${wrapped.expects} | undefined)`,
    async: true,
    wrapped,
    default: default_,
    async "~run"(dataset, config$1) {
      if (dataset.value === undefined) {
        if (this.default !== undefined)
          dataset.value = await /* @__PURE__ */ getDefault(this, dataset, config$1);
        if (dataset.value === undefined) {
          dataset.typed = true;
          return dataset;
        }
      }
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function _subIssues(datasets) {
  let issues;
  if (datasets)
    for (const dataset of datasets)
      if (issues)
        for (const issue of dataset.issues)
          issues.push(issue);
      else
        issues = dataset.issues;
  return issues;
}
function union(options, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "union",
    reference: union,
    expects: /* @__PURE__ */ _joinExpects(options.map((option) => option.expects), "|"),
    async: false,
    options,
    message: message$1,
    "~run"(dataset, config$1) {
      let validDataset;
      let typedDatasets;
      let untypedDatasets;
      for (const schema of this.options) {
        const optionDataset = schema["~run"]({ value: dataset.value }, config$1);
        if (optionDataset.typed)
          if (optionDataset.issues)
            if (typedDatasets)
              typedDatasets.push(optionDataset);
            else
              typedDatasets = [optionDataset];
          else {
            validDataset = optionDataset;
            break;
          }
        else if (untypedDatasets)
          untypedDatasets.push(optionDataset);
        else
          untypedDatasets = [optionDataset];
      }
      if (validDataset)
        return validDataset;
      if (typedDatasets) {
        if (typedDatasets.length === 1)
          return typedDatasets[0];
        _addIssue(this, "type", dataset, config$1, { issues: /* @__PURE__ */ _subIssues(typedDatasets) });
        dataset.typed = true;
      } else if (untypedDatasets?.length === 1)
        return untypedDatasets[0];
      else
        _addIssue(this, "type", dataset, config$1, { issues: /* @__PURE__ */ _subIssues(untypedDatasets) });
      return dataset;
    }
  });
}
function unionAsync(options, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "union",
    reference: unionAsync,
    expects: /* @__PURE__ */ _joinExpects(options.map((option) => option.expects), "|"),
    async: true,
    options,
    message: message$1,
    async "~run"(dataset, config$1) {
      let validDataset;
      let typedDatasets;
      let untypedDatasets;
      for (const schema of this.options) {
        const optionDataset = await schema["~run"]({ value: dataset.value }, config$1);
        if (optionDataset.typed)
          if (optionDataset.issues)
            if (typedDatasets)
              typedDatasets.push(optionDataset);
            else
              typedDatasets = [optionDataset];
          else {
            validDataset = optionDataset;
            break;
          }
        else if (untypedDatasets)
          untypedDatasets.push(optionDataset);
        else
          untypedDatasets = [optionDataset];
      }
      if (validDataset)
        return validDataset;
      if (typedDatasets) {
        if (typedDatasets.length === 1)
          return typedDatasets[0];
        _addIssue(this, "type", dataset, config$1, { issues: /* @__PURE__ */ _subIssues(typedDatasets) });
        dataset.typed = true;
      } else if (untypedDatasets?.length === 1)
        return untypedDatasets[0];
      else
        _addIssue(this, "type", dataset, config$1, { issues: /* @__PURE__ */ _subIssues(untypedDatasets) });
      return dataset;
    }
  });
}
function unknown() {
  return _standardSchema({
    kind: "schema",
    type: "unknown",
    reference: unknown,
    expects: "unknown",
    async: false,
    "~run"(dataset) {
      dataset.typed = true;
      return dataset;
    }
  });
}
function variant(key, options, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "variant",
    reference: variant,
    expects: "Object",
    async: false,
    key,
    options,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        let outputDataset;
        let maxDiscriminatorPriority = 0;
        let invalidDiscriminatorKey = this.key;
        let expectedDiscriminators = [];
        const parseOptions = (variant$1, allKeys) => {
          for (const schema of variant$1.options) {
            if (schema.type === "variant")
              parseOptions(schema, new Set(allKeys).add(schema.key));
            else {
              let keysAreValid = true;
              let currentPriority = 0;
              for (const currentKey of allKeys) {
                const discriminatorSchema = schema.entries[currentKey];
                if (currentKey in input ? discriminatorSchema["~run"]({
                  typed: false,
                  value: input[currentKey]
                }, ABORT_EARLY_CONFIG).issues : discriminatorSchema.type !== "exact_optional" && discriminatorSchema.type !== "optional" && discriminatorSchema.type !== "nullish") {
                  keysAreValid = false;
                  if (invalidDiscriminatorKey !== currentKey && (maxDiscriminatorPriority < currentPriority || maxDiscriminatorPriority === currentPriority && (currentKey in input) && !(invalidDiscriminatorKey in input))) {
                    maxDiscriminatorPriority = currentPriority;
                    invalidDiscriminatorKey = currentKey;
                    expectedDiscriminators = [];
                  }
                  if (invalidDiscriminatorKey === currentKey)
                    expectedDiscriminators.push(schema.entries[currentKey].expects);
                  break;
                }
                currentPriority++;
              }
              if (keysAreValid) {
                const optionDataset = schema["~run"]({ value: input }, config$1);
                if (!outputDataset || !outputDataset.typed && optionDataset.typed)
                  outputDataset = optionDataset;
              }
            }
            if (outputDataset && !outputDataset.issues)
              break;
          }
        };
        parseOptions(this, new Set([this.key]));
        if (outputDataset)
          return outputDataset;
        _addIssue(this, "type", dataset, config$1, {
          input: input[invalidDiscriminatorKey],
          expected: /* @__PURE__ */ _joinExpects(expectedDiscriminators, "|"),
          path: [{
            type: "object",
            origin: "value",
            input,
            key: invalidDiscriminatorKey,
            value: input[invalidDiscriminatorKey]
          }]
        });
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function variantAsync(key, options, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "variant",
    reference: variantAsync,
    expects: "Object",
    async: true,
    key,
    options,
    message: message$1,
    async "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        let outputDataset;
        let maxDiscriminatorPriority = 0;
        let invalidDiscriminatorKey = this.key;
        let expectedDiscriminators = [];
        const parseOptions = async (variant$1, allKeys) => {
          for (const schema of variant$1.options) {
            if (schema.type === "variant")
              await parseOptions(schema, new Set(allKeys).add(schema.key));
            else {
              let keysAreValid = true;
              let currentPriority = 0;
              for (const currentKey of allKeys) {
                const discriminatorSchema = schema.entries[currentKey];
                if (currentKey in input ? (await discriminatorSchema["~run"]({
                  typed: false,
                  value: input[currentKey]
                }, ABORT_EARLY_CONFIG)).issues : discriminatorSchema.type !== "exact_optional" && discriminatorSchema.type !== "optional" && discriminatorSchema.type !== "nullish") {
                  keysAreValid = false;
                  if (invalidDiscriminatorKey !== currentKey && (maxDiscriminatorPriority < currentPriority || maxDiscriminatorPriority === currentPriority && (currentKey in input) && !(invalidDiscriminatorKey in input))) {
                    maxDiscriminatorPriority = currentPriority;
                    invalidDiscriminatorKey = currentKey;
                    expectedDiscriminators = [];
                  }
                  if (invalidDiscriminatorKey === currentKey)
                    expectedDiscriminators.push(schema.entries[currentKey].expects);
                  break;
                }
                currentPriority++;
              }
              if (keysAreValid) {
                const optionDataset = await schema["~run"]({ value: input }, config$1);
                if (!outputDataset || !outputDataset.typed && optionDataset.typed)
                  outputDataset = optionDataset;
              }
            }
            if (outputDataset && !outputDataset.issues)
              break;
          }
        };
        await parseOptions(this, new Set([this.key]));
        if (outputDataset)
          return outputDataset;
        _addIssue(this, "type", dataset, config$1, {
          input: input[invalidDiscriminatorKey],
          expected: /* @__PURE__ */ _joinExpects(expectedDiscriminators, "|"),
          path: [{
            type: "object",
            origin: "value",
            input,
            key: invalidDiscriminatorKey,
            value: input[invalidDiscriminatorKey]
          }]
        });
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function void_(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "void",
    reference: void_,
    expects: "void",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.value === undefined)
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function keyof(schema, message$1) {
  return /* @__PURE__ */ picklist(Object.keys(schema.entries), message$1);
}
function message(schema, message_) {
  return _standardSchema({
    ...schema,
    "~run"(dataset, config$1) {
      return schema["~run"](dataset, {
        ...config$1,
        message: message_
      });
    }
  });
}
function omit(schema, keys) {
  const entries$1 = { ...schema.entries };
  for (const key of keys)
    delete entries$1[key];
  return _standardSchema({
    ...schema,
    entries: entries$1
  });
}
function parse(schema, input, config$1) {
  const dataset = schema["~run"]({ value: input }, /* @__PURE__ */ getGlobalConfig(config$1));
  if (dataset.issues)
    throw new ValiError(dataset.issues);
  return dataset.value;
}
async function parseAsync(schema, input, config$1) {
  const dataset = await schema["~run"]({ value: input }, /* @__PURE__ */ getGlobalConfig(config$1));
  if (dataset.issues)
    throw new ValiError(dataset.issues);
  return dataset.value;
}
function parser(schema, config$1) {
  const func = (input) => parse(schema, input, config$1);
  func.schema = schema;
  func.config = config$1;
  return func;
}
function parserAsync(schema, config$1) {
  const func = (input) => parseAsync(schema, input, config$1);
  func.schema = schema;
  func.config = config$1;
  return func;
}
function partial(schema, keys) {
  const entries$1 = {};
  for (const key in schema.entries)
    entries$1[key] = !keys || keys.includes(key) ? /* @__PURE__ */ optional(schema.entries[key]) : schema.entries[key];
  return _standardSchema({
    ...schema,
    entries: entries$1
  });
}
function partialAsync(schema, keys) {
  const entries$1 = {};
  for (const key in schema.entries)
    entries$1[key] = !keys || keys.includes(key) ? /* @__PURE__ */ optionalAsync(schema.entries[key]) : schema.entries[key];
  return _standardSchema({
    ...schema,
    entries: entries$1
  });
}
function pick(schema, keys) {
  const entries$1 = {};
  for (const key of keys)
    entries$1[key] = schema.entries[key];
  return _standardSchema({
    ...schema,
    entries: entries$1
  });
}
function pipe(...pipe$1) {
  return _standardSchema({
    ...pipe$1[0],
    pipe: pipe$1,
    "~run"(dataset, config$1) {
      for (const item of pipe$1)
        if (item.kind !== "metadata") {
          if (dataset.issues && (item.kind === "schema" || item.kind === "transformation")) {
            dataset.typed = false;
            break;
          }
          if (!dataset.issues || !config$1.abortEarly && !config$1.abortPipeEarly)
            dataset = item["~run"](dataset, config$1);
        }
      return dataset;
    }
  });
}
function pipeAsync(...pipe$1) {
  return _standardSchema({
    ...pipe$1[0],
    pipe: pipe$1,
    async: true,
    async "~run"(dataset, config$1) {
      for (const item of pipe$1)
        if (item.kind !== "metadata") {
          if (dataset.issues && (item.kind === "schema" || item.kind === "transformation")) {
            dataset.typed = false;
            break;
          }
          if (!dataset.issues || !config$1.abortEarly && !config$1.abortPipeEarly)
            dataset = await item["~run"](dataset, config$1);
        }
      return dataset;
    }
  });
}
function required(schema, arg2, arg3) {
  const keys = Array.isArray(arg2) ? arg2 : undefined;
  const message$1 = Array.isArray(arg2) ? arg3 : arg2;
  const entries$1 = {};
  for (const key in schema.entries)
    entries$1[key] = !keys || keys.includes(key) ? /* @__PURE__ */ nonOptional(schema.entries[key], message$1) : schema.entries[key];
  return _standardSchema({
    ...schema,
    entries: entries$1
  });
}
function requiredAsync(schema, arg2, arg3) {
  const keys = Array.isArray(arg2) ? arg2 : undefined;
  const message$1 = Array.isArray(arg2) ? arg3 : arg2;
  const entries$1 = {};
  for (const key in schema.entries)
    entries$1[key] = !keys || keys.includes(key) ? /* @__PURE__ */ nonOptionalAsync(schema.entries[key], message$1) : schema.entries[key];
  return _standardSchema({
    ...schema,
    entries: entries$1
  });
}
function safeParse(schema, input, config$1) {
  const dataset = schema["~run"]({ value: input }, /* @__PURE__ */ getGlobalConfig(config$1));
  return {
    typed: dataset.typed,
    success: !dataset.issues,
    output: dataset.value,
    issues: dataset.issues
  };
}
async function safeParseAsync(schema, input, config$1) {
  const dataset = await schema["~run"]({ value: input }, /* @__PURE__ */ getGlobalConfig(config$1));
  return {
    typed: dataset.typed,
    success: !dataset.issues,
    output: dataset.value,
    issues: dataset.issues
  };
}
function safeParser(schema, config$1) {
  const func = (input) => /* @__PURE__ */ safeParse(schema, input, config$1);
  func.schema = schema;
  func.config = config$1;
  return func;
}
function safeParserAsync(schema, config$1) {
  const func = (input) => /* @__PURE__ */ safeParseAsync(schema, input, config$1);
  func.schema = schema;
  func.config = config$1;
  return func;
}
function summarize(issues) {
  let summary = "";
  for (const issue of issues) {
    if (summary)
      summary += `
`;
    summary += `× ${issue.message}`;
    const dotPath = /* @__PURE__ */ getDotPath(issue);
    if (dotPath)
      summary += `
  → at ${dotPath}`;
  }
  return summary;
}
function unwrap(schema) {
  return schema.wrapped;
}
var store$4, DEFAULT_CONFIG, store$3, store$2, store$1, textEncoder, segmenter, store, NON_DIGIT_REGEX, ValiError, BASE64_REGEX, BIC_REGEX, CUID2_REGEX, DECIMAL_REGEX, DIGITS_REGEX, DOMAIN_REGEX, EMAIL_REGEX, EMOJI_REGEX, HEXADECIMAL_REGEX, HEX_COLOR_REGEX, IMEI_REGEX, IPV4_REGEX, IPV6_REGEX, IP_REGEX, ISO_DATE_REGEX, ISO_DATE_TIME_REGEX, ISO_DATE_TIME_SECOND_REGEX, ISO_TIME_REGEX, ISO_TIME_SECOND_REGEX, ISO_TIMESTAMP_REGEX, ISO_WEEK_REGEX, JWS_COMPACT_REGEX, ISRC_REGEX, KSUID_REGEX, MAC48_REGEX, MAC64_REGEX, MAC_REGEX, NANO_ID_REGEX, OCTAL_REGEX, RFC_EMAIL_REGEX, SLUG_REGEX, ULID_REGEX, UUID_REGEX, CREDIT_CARD_REGEX, SANITIZE_REGEX, PROVIDER_REGEX_LIST, HASH_LENGTHS, ISBN_SEPARATOR_REGEX, ISBN_10_DETECTION_REGEX, ISBN_13_DETECTION_REGEX, TRUTHY, FALSY, ABORT_EARLY_CONFIG, _LruCache = class {
  constructor(config$1) {
    this.refCount = 0;
    this.maxSize = config$1?.maxSize ?? 1000;
    this.maxAge = config$1?.maxAge ?? Infinity;
    this.hasMaxAge = isFinite(this.maxAge);
  }
  stringify(input) {
    const type = typeof input;
    if (type === "string")
      return `"${input}"`;
    if (type === "number" || type === "boolean")
      return `${input}`;
    if (type === "bigint")
      return `${input}n`;
    if (type === "object" || type === "function") {
      if (input) {
        this.refIds ?? (this.refIds = /* @__PURE__ */ new WeakMap);
        let id = this.refIds.get(input);
        if (!id) {
          id = ++this.refCount;
          this.refIds.set(input, id);
        }
        return `#${id}`;
      }
      return "null";
    }
    return type;
  }
  key(input, config$1 = {}) {
    return `${this.stringify(input)}|${this.stringify(config$1.lang)}|${this.stringify(config$1.message)}|${this.stringify(config$1.abortEarly)}|${this.stringify(config$1.abortPipeEarly)}`;
  }
  get(key) {
    if (!this.store)
      return;
    const entry = this.store.get(key);
    if (!entry)
      return;
    if (this.hasMaxAge && Date.now() - entry[1] > this.maxAge) {
      this.store.delete(key);
      return;
    }
    this.store.delete(key);
    this.store.set(key, entry);
    return entry[0];
  }
  set(key, value$1) {
    this.store ?? (this.store = /* @__PURE__ */ new Map);
    this.store.delete(key);
    const timestamp = this.hasMaxAge ? Date.now() : 0;
    this.store.set(key, [value$1, timestamp]);
    if (this.store.size > this.maxSize)
      this.store.delete(this.store.keys().next().value);
  }
  clear() {
    this.store?.clear();
  }
};
var init_dist = __esm(() => {
  DEFAULT_CONFIG = {
    lang: undefined,
    message: undefined,
    abortEarly: undefined,
    abortPipeEarly: undefined
  };
  NON_DIGIT_REGEX = /\D/gu;
  ValiError = class extends Error {
    constructor(issues) {
      super(issues[0].message);
      this.name = "ValiError";
      this.issues = issues;
    }
  };
  BASE64_REGEX = /^(?:[\da-z+/]{4})*(?:[\da-z+/]{2}==|[\da-z+/]{3}=)?$/iu;
  BIC_REGEX = /^[A-Z]{6}(?!00)[\dA-Z]{2}(?:[\dA-Z]{3})?$/u;
  CUID2_REGEX = /^[a-z][\da-z]*$/u;
  DECIMAL_REGEX = /^[+-]?(?:\d*\.)?\d+$/u;
  DIGITS_REGEX = /^\d+$/u;
  DOMAIN_REGEX = /^(?=.{1,253}$)(?:(?![Xx][Nn]--)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/u;
  EMAIL_REGEX = /^[\w+-]+(?:\.[\w+-]+)*@[\da-zA-Z]+(?:[.-][\da-zA-Z]+)*\.[a-zA-Z]{2,}$/u;
  EMOJI_REGEX = /^(?:[\u{1F1E6}-\u{1F1FF}]{2}|\u{1F3F4}[\u{E0061}-\u{E007A}]{2}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,3}\u{E007F}|(?:\p{Emoji}\uFE0F\u20E3?|\p{Emoji_Modifier_Base}\p{Emoji_Modifier}?|(?![\p{Emoji_Modifier_Base}\u{1F1E6}-\u{1F1FF}])\p{Emoji_Presentation})(?:\u200D(?:\p{Emoji}\uFE0F\u20E3?|\p{Emoji_Modifier_Base}\p{Emoji_Modifier}?|(?![\p{Emoji_Modifier_Base}\u{1F1E6}-\u{1F1FF}])\p{Emoji_Presentation}))*)+$/u;
  HEXADECIMAL_REGEX = /^(?:0[hx])?[\da-fA-F]+$/u;
  HEX_COLOR_REGEX = /^#(?:[\da-fA-F]{3,4}|[\da-fA-F]{6}|[\da-fA-F]{8})$/u;
  IMEI_REGEX = /^\d{15}$|^\d{2}-\d{6}-\d{6}-\d$/u;
  IPV4_REGEX = /^(?:(?:[1-9]|1\d|2[0-4])?\d|25[0-5])(?:\.(?:(?:[1-9]|1\d|2[0-4])?\d|25[0-5])){3}$/u;
  IPV6_REGEX = /^(?:(?:[\da-f]{1,4}:){7}[\da-f]{1,4}|(?:[\da-f]{1,4}:){1,7}:|(?:[\da-f]{1,4}:){1,6}:[\da-f]{1,4}|(?:[\da-f]{1,4}:){1,5}(?::[\da-f]{1,4}){1,2}|(?:[\da-f]{1,4}:){1,4}(?::[\da-f]{1,4}){1,3}|(?:[\da-f]{1,4}:){1,3}(?::[\da-f]{1,4}){1,4}|(?:[\da-f]{1,4}:){1,2}(?::[\da-f]{1,4}){1,5}|[\da-f]{1,4}:(?::[\da-f]{1,4}){1,6}|:(?:(?::[\da-f]{1,4}){1,7}|:)|fe80:(?::[\da-f]{0,4}){0,4}%[\da-z]+|::(?:f{4}(?::0{1,4})?:)?(?:(?:25[0-5]|(?:2[0-4]|1?\d)?\d)\.){3}(?:25[0-5]|(?:2[0-4]|1?\d)?\d)|(?:[\da-f]{1,4}:){1,4}:(?:(?:25[0-5]|(?:2[0-4]|1?\d)?\d)\.){3}(?:25[0-5]|(?:2[0-4]|1?\d)?\d))$/iu;
  IP_REGEX = /^(?:(?:[1-9]|1\d|2[0-4])?\d|25[0-5])(?:\.(?:(?:[1-9]|1\d|2[0-4])?\d|25[0-5])){3}$|^(?:(?:[\da-f]{1,4}:){7}[\da-f]{1,4}|(?:[\da-f]{1,4}:){1,7}:|(?:[\da-f]{1,4}:){1,6}:[\da-f]{1,4}|(?:[\da-f]{1,4}:){1,5}(?::[\da-f]{1,4}){1,2}|(?:[\da-f]{1,4}:){1,4}(?::[\da-f]{1,4}){1,3}|(?:[\da-f]{1,4}:){1,3}(?::[\da-f]{1,4}){1,4}|(?:[\da-f]{1,4}:){1,2}(?::[\da-f]{1,4}){1,5}|[\da-f]{1,4}:(?::[\da-f]{1,4}){1,6}|:(?:(?::[\da-f]{1,4}){1,7}|:)|fe80:(?::[\da-f]{0,4}){0,4}%[\da-z]+|::(?:f{4}(?::0{1,4})?:)?(?:(?:25[0-5]|(?:2[0-4]|1?\d)?\d)\.){3}(?:25[0-5]|(?:2[0-4]|1?\d)?\d)|(?:[\da-f]{1,4}:){1,4}:(?:(?:25[0-5]|(?:2[0-4]|1?\d)?\d)\.){3}(?:25[0-5]|(?:2[0-4]|1?\d)?\d))$/iu;
  ISO_DATE_REGEX = /^\d{4}-(?:0[1-9]|1[0-2])-(?:[12]\d|0[1-9]|3[01])$/u;
  ISO_DATE_TIME_REGEX = /^\d{4}-(?:0[1-9]|1[0-2])-(?:[12]\d|0[1-9]|3[01])[T ](?:0\d|1\d|2[0-3]):[0-5]\d$/u;
  ISO_DATE_TIME_SECOND_REGEX = /^\d{4}-(?:0[1-9]|1[0-2])-(?:[12]\d|0[1-9]|3[01])[T ](?:0\d|1\d|2[0-3])(?::[0-5]\d){2}$/u;
  ISO_TIME_REGEX = /^(?:0\d|1\d|2[0-3]):[0-5]\d$/u;
  ISO_TIME_SECOND_REGEX = /^(?:0\d|1\d|2[0-3])(?::[0-5]\d){2}$/u;
  ISO_TIMESTAMP_REGEX = /^\d{4}-(?:0[1-9]|1[0-2])-(?:[12]\d|0[1-9]|3[01])[T ](?:0\d|1\d|2[0-3])(?::[0-5]\d){2}(?:\.\d{1,9})?(?:Z| ?[+-](?:0\d|1\d|2[0-3])(?::?[0-5]\d)?)$/u;
  ISO_WEEK_REGEX = /^\d{4}-W(?:0[1-9]|[1-4]\d|5[0-3])$/u;
  JWS_COMPACT_REGEX = /^(?:[\w-]{2,3}|(?:[\w-]{4})+(?:[\w-]{2,3})?)\.(?:[\w-]{2,3}|(?:[\w-]{4})+(?:[\w-]{2,3})?)?\.(?:[\w-]{2,3}|(?:[\w-]{4})+(?:[\w-]{2,3})?)?$/u;
  ISRC_REGEX = /^(?:[A-Z]{2}[A-Z\d]{3}\d{7}|[A-Z]{2}-[A-Z\d]{3}-\d{2}-\d{5})$/u;
  KSUID_REGEX = /^[a-zA-Z0-9]{27}$/u;
  MAC48_REGEX = /^(?:[\da-fA-F]{2}:){5}[\da-fA-F]{2}$|^(?:[\da-fA-F]{2}-){5}[\da-fA-F]{2}$|^(?:[\da-fA-F]{4}\.){2}[\da-fA-F]{4}$/u;
  MAC64_REGEX = /^(?:[\da-fA-F]{2}:){7}[\da-fA-F]{2}$|^(?:[\da-fA-F]{2}-){7}[\da-fA-F]{2}$|^(?:[\da-fA-F]{4}\.){3}[\da-fA-F]{4}$|^(?:[\da-fA-F]{4}:){3}[\da-fA-F]{4}$/u;
  MAC_REGEX = /^(?:[\da-fA-F]{2}:){5}[\da-fA-F]{2}$|^(?:[\da-fA-F]{2}-){5}[\da-fA-F]{2}$|^(?:[\da-fA-F]{4}\.){2}[\da-fA-F]{4}$|^(?:[\da-fA-F]{2}:){7}[\da-fA-F]{2}$|^(?:[\da-fA-F]{2}-){7}[\da-fA-F]{2}$|^(?:[\da-fA-F]{4}\.){3}[\da-fA-F]{4}$|^(?:[\da-fA-F]{4}:){3}[\da-fA-F]{4}$/u;
  NANO_ID_REGEX = /^[\w-]+$/u;
  OCTAL_REGEX = /^(?:0o)?[0-7]+$/u;
  RFC_EMAIL_REGEX = /^[a-zA-Z0-9.!#$%&'*+\/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
  SLUG_REGEX = /^[\da-z]+(?:[-_][\da-z]+)*$/u;
  ULID_REGEX = /^[0-7][\da-hjkmnp-tv-zA-HJKMNP-TV-Z]{25}$/u;
  UUID_REGEX = /^[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}$/iu;
  CREDIT_CARD_REGEX = /^(?:\d{13,19}|\d{4}(?: \d{3,6}){2,4}|\d{4}(?:-\d{3,6}){2,4})$/u;
  SANITIZE_REGEX = /[- ]/gu;
  PROVIDER_REGEX_LIST = [
    /^3[47]\d{13}$/u,
    /^3(?:0[0-5]|[68]\d)\d{11,13}$/u,
    /^6(?:011|5\d{2})\d{12,15}$/u,
    /^(?:2131|1800|35\d{3})\d{11}$/u,
    /^(?:5[1-5]\d{2}|222\d|22[3-9]\d|2[3-6]\d{2}|27[01]\d|2720)\d{12}$/u,
    /^(?:6[27]\d{14,17}|81\d{14,17})$/u,
    /^4\d{12}(?:\d{3,6})?$/u
  ];
  HASH_LENGTHS = {
    md4: 32,
    md5: 32,
    sha1: 40,
    sha256: 64,
    sha384: 96,
    sha512: 128,
    ripemd128: 32,
    ripemd160: 40,
    tiger128: 32,
    tiger160: 40,
    tiger192: 48,
    crc32: 8,
    crc32b: 8,
    adler32: 8
  };
  ISBN_SEPARATOR_REGEX = /[- ]/gu;
  ISBN_10_DETECTION_REGEX = /^\d{9}[\dX]$/u;
  ISBN_13_DETECTION_REGEX = /^\d{13}$/u;
  TRUTHY = [
    true,
    1,
    "true",
    "1",
    "yes",
    "y",
    "on",
    "enabled"
  ];
  FALSY = [
    false,
    0,
    "false",
    "0",
    "no",
    "n",
    "off",
    "disabled"
  ];
  ABORT_EARLY_CONFIG = { abortEarly: true };
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
var custom2, custom_default;
var init_custom = __esm(() => {
  custom2 = defineDeliverableType({
    type: "custom",
    title: "Custom Deliverable",
    description: "Any Markdown deliverable whose required sections are the declared checklist.",
    sections: (checklist) => checklist.map((item) => item.trim()).filter((item) => item !== "")
  });
  custom_default = custom2;
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

// plugins/rfc.ts
var exports_rfc = {};
__export(exports_rfc, {
  RFC_SECTIONS: () => RFC_SECTIONS,
  default: () => rfcPlugin
});
function headerOf(text) {
  const match = /(?<![^\n])## /.exec(text);
  return match ? text.slice(0, match.index) : text;
}
function headerValues(header, name) {
  const re = new RegExp(`^${name}:[ \\t]*(.*?)[ \\t]*$`);
  return header.split(`
`).flatMap((line) => re.exec(line)?.[1] ?? []);
}
function saysNone(body) {
  const text = body.trim().replace(/^[-*+][ \t]+/, "").replace(/\.$/, "").trim().toLowerCase();
  return text === "none" || text === "n/a";
}
function countOptions(body) {
  const lines = body.split(`
`);
  const headings = lines.filter((line) => SUBHEADING_RE.test(line)).length;
  return headings || lines.filter((line) => LIST_ITEM_RE.test(line)).length;
}
function rfcPlugin(context) {
  const { options, markdown } = context;
  const minAlternatives = options.minAlternatives ?? 2;
  if (typeof minAlternatives !== "number" || !Number.isInteger(minAlternatives) || minAlternatives < 1) {
    throw new Error(`option minAlternatives must be a positive integer, got ${JSON.stringify(minAlternatives)}`);
  }
  const requireDiscussionUrl = options.requireDiscussionUrl ?? false;
  if (typeof requireDiscussionUrl !== "boolean")
    throw new Error("option requireDiscussionUrl must be true or false");
  const check = ({ text, ref, frozenRequired }) => {
    const errors = [];
    const warnings = [];
    const header = headerOf(text);
    const discussion = headerValues(header, "Discussion");
    if (discussion.length !== 1)
      errors.push(`${ref}: the header (above the first section) must have exactly one \`Discussion:\` line (an http(s) URL or \`none\`)`);
    else if (!URL_RE.test(discussion[0]) && discussion[0].toLowerCase() !== "none") {
      errors.push(`${ref}: \`Discussion:\` must be an http(s) URL or \`none\`, got '${discussion[0]}'`);
    } else if (frozenRequired && requireDiscussionUrl && !URL_RE.test(discussion[0])) {
      errors.push(`${ref}: \`Discussion:\` must link the discussion once the RFC is frozen`);
    }
    const supersedes = headerValues(header, "Supersedes");
    if (supersedes.length !== 1)
      errors.push(`${ref}: the header (above the first section) must have exactly one \`Supersedes:\` line (\`none\` or RFC-<number>, …)`);
    else if (supersedes[0].toLowerCase() !== "none") {
      const bad = supersedes[0].split(",").map((id) => id.trim()).filter((id) => !RFC_ID_RE.test(id));
      if (bad.length)
        errors.push(`${ref}: \`Supersedes:\` must be \`none\` or a comma-separated list of RFC-<number>, got '${supersedes[0]}'`);
    }
    if (frozenRequired) {
      const alternatives = markdown.sectionBody(text, "Alternatives");
      if (alternatives !== undefined) {
        const found = countOptions(alternatives);
        if (found < minAlternatives)
          errors.push(`${ref}: Alternatives must list at least ${minAlternatives} options (list items or ### headings) once frozen; found ${found}`);
      }
      const unresolved = markdown.sectionBody(text, "Unresolved Questions");
      if (unresolved !== undefined && !saysNone(unresolved)) {
        errors.push(`${ref}: Unresolved Questions must say None once frozen (classify open questions in readiness.md instead)`);
      }
      const drawbacks = markdown.sectionBody(text, "Drawbacks");
      if (drawbacks !== undefined && saysNone(drawbacks))
        warnings.push(`${ref}: Drawbacks says None; every design has some cost worth writing down`);
    }
    return { errors, warnings };
  };
  const rfc = context.defineDeliverableType({
    type: "rfc",
    title: "Request for Comments",
    defaultFile: "rfc.md",
    description: "A proposal open for comments: motivation, design, drawbacks and at least two alternatives.",
    sections: (checklist) => [...RFC_SECTIONS, ...checklist.map((c) => c.trim()).filter((c) => c && !RFC_SECTIONS.includes(c))],
    template: ({ title, type, sections }) => `# ${title}

Deliverable type: \`${type}\`
Status: Draft
Discussion: none
Supersedes: none

` + sections.map((section) => `## ${section}


`).join(`
`),
    gates: ({ defaults }) => [
      ...defaults,
      "RFC header has one `Discussion:` and one `Supersedes:` line",
      `RFC \`Alternatives\` lists at least ${minAlternatives} options`,
      "RFC `Unresolved Questions` says None"
    ],
    check
  });
  return context.definePlugin({ name: "rfc", deliverableTypes: [rfc] });
}
var RFC_SECTIONS, URL_RE, RFC_ID_RE, LIST_ITEM_RE, SUBHEADING_RE;
var init_rfc = __esm(() => {
  RFC_SECTIONS = ["Summary", "Motivation", "Detailed Design", "Drawbacks", "Alternatives", "Unresolved Questions"];
  URL_RE = /^https?:\/\/\S+$/;
  RFC_ID_RE = /^RFC-\d{1,6}$/;
  LIST_ITEM_RE = /^ ?(?:[-*+]|\d{1,3}[.)])[ \t]+\S/;
  SUBHEADING_RE = /^###[ \t]+\S/;
});

// plugins/notify-turn.ts
var exports_notify_turn = {};
__export(exports_notify_turn, {
  default: () => notifyTurn,
  dueNotifications: () => dueNotifications,
  parseNotifyTurnOptions: () => parseNotifyTurnOptions
});
function parseNotifyTurnOptions(raw) {
  const known = ["command", "participants", "on", "timeoutSeconds", "background", "failOnError"];
  for (const key of Object.keys(raw))
    if (!known.includes(key))
      throw new Error(`unknown option '${key}' (known: ${known.join(", ")})`);
  const { command, participants, on = [...REASONS], timeoutSeconds = 60, background = false, failOnError = false } = raw;
  const isStrings = (value) => Array.isArray(value) && value.every((v) => typeof v === "string");
  if (!isStrings(command) || command.length === 0 || command[0].trim() === "") {
    throw new Error('option command must be a non-empty list of strings (argv; no shell), e.g. [notify-send, "ACP: {participant}"]');
  }
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
          const argv = options.command.map((arg) => arg.replace(/\{(\w+)\}/g, (whole, key) => values[key] ?? whole));
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
var REASONS;
var init_notify_turn = __esm(() => {
  REASONS = ["turn", "completed", "blocked"];
});

// plugins/protocol.ts
var exports_protocol = {};
__export(exports_protocol, {
  default: () => protocol_default
});
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
  description: "Append an event (spec §6)",
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
    const o = ctx.options;
    const replyTo = str(o["reply-to"]);
    const result = await ctx.api.append(ctx.host, ctx.folder(), {
      participant: str(o.participant),
      event: str(o.event),
      summary: str(o.summary),
      doc: str(o.doc),
      replyTo: replyTo === undefined ? undefined : ctx.api.parsePyInt(replyTo, "reply-to"),
      role: str(o.role),
      sha256: str(o.sha256)
    }, ctx.registry, { onLockWait: ctx.err });
    for (const warning of result.warnings ?? [])
      ctx.err(`warning: ${warning}`);
    if (!ctx.json)
      ctx.out(`appended seq ${result.event.seq}: ${result.event.event}`);
    return { exitCode: 0, json: { ok: true, exitCode: 0, event: result.event, phase: result.state.phase, waitingFor: result.state.waitingFor } };
  }
}), nextCommand, waitCommand = (api) => ({
  name: "wait",
  description: "Wait until it is a participant’s turn (spec §10)",
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
      return { exitCode: result.next.exitCode, json: { ok: result.next.exitCode === 0, ready: result.reason.slice("ready: ".length), ...result.next } };
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
    description: "Create a collaboration folder (spec §9)",
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
        repoRoot: str(o["repo-root"]),
        resume: o.resume === true
      }, ctx.registry);
      if (!ctx.json)
        ctx.out(result.created ? `Initialized ACP schema v2 collaboration folder: ${folder}` : `Collaboration folder already exists: ${folder}`);
      return { exitCode: 0, json: { ok: true, exitCode: 0, created: result.created, folder, files: result.files } };
    }
  };
  nextCommand = {
    name: "next",
    description: "Print the next action for a participant (spec §10)",
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
    description: "Validate a collaboration folder (spec §8)",
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
      return { exitCode, json: { ...result, exitCode } };
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

// plugins/doctor/diagnose.ts
function join3(folder, name) {
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
function preview(bytes) {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 60));
  return JSON.stringify(text + (bytes.length > 60 ? "…" : ""));
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
    const stat = await host.fs.stat(join3(folder, name));
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
  const bytes = await readIfExists(host, join3(folder, "events.jsonl"));
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
      add("events.jsonl", "problem", `duplicate seq${duplicates.length > 1 ? "s" : ""} ${duplicates.slice(0, 10).join(", ")}${duplicates.length > 10 ? ", …" : ""} (concurrent writers without a lock?)`);
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
        readinessText = core.decodeText(await readIfExists(host, join3(folder, "readiness.md")) ?? new Uint8Array, "readiness.md");
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
          add("deliverables", "problem", `${event.doc} changed since it was frozen at seq ${seq} (sha256 then ${event.sha256.slice(0, 12)}…, now ${hash.slice(0, 12)}…); restore the frozen text`);
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
    if (!await host.fs.stat(join3(folder, name)))
      return name;
  }
}
async function repair(core, host, folder, before, changes) {
  const d = await diagnose(core, host, folder, true);
  for (const name of d.staleTemps) {
    await host.fs.remove(join3(folder, name));
    changes.push(`removed ${name} (a temporary file left by an interrupted write; its content is derived and was never the live file)`);
  }
  if (before.breakerAbandoned && await host.fs.stat(join3(folder, ".acp.lock.break"))) {
    await host.fs.remove(join3(folder, ".acp.lock.break"));
    changes.push("removed .acp.lock.break left by a process killed while breaking a lock");
  }
  const log = d.log;
  if (log && log.tail.length) {
    const path = join3(folder, "events.jsonl");
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
      await host.fs.writeFile(join3(folder, backup), log.bytes, { exclusive: true });
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
    await core.writeFileAtomic(host, join3(folder, "protocol.json"), core.formatProtocolJson(updated));
    changes.push(`rewrote protocol.json's cached state from the log: currentPhase ${core.pyRepr(phase)}, proposalOwner ${core.pyRepr(proposalOwner)}, waitingFor ${core.pyRepr(waitingFor)}${lastAt !== undefined ? `, updatedAt ${lastAt}` : ""}`);
  }
}
async function doctor(core, host, folder, options = {}) {
  const stat = await host.fs.stat(folder);
  if (!stat?.isDirectory)
    throw new core.AcpError(`missing protocol.json in ${folder}`);
  if (!await host.fs.stat(join3(folder, "protocol.json")) && !await host.fs.stat(join3(folder, "events.jsonl"))) {
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
var TEMP_RE, TEMP_STALE_MS = 60000, SETTLE_MS = 2000;
var init_diagnose = __esm(() => {
  init_util();
  TEMP_RE = /^\.(.+)\.(\d+)\.([a-z0-9]*)\.(tmp|stale)$/;
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
      await Promise.resolve().then(() => init_diagnose());
      const fix = ctx.options.fix === true;
      const report = await doctor(ctx.api, ctx.host, ctx.folder(), { fix });
      const exitCode = report.healthy ? 0 : 1;
      if (!ctx.json)
        ctx.out(formatDoctorReport(report, fix));
      return { exitCode, json: { ok: report.healthy, exitCode, ...report } };
    }
  };
});

// node_modules/yaml/dist/nodes/identity.js
var require_identity = __commonJS(function(exports) {
  var ALIAS = Symbol.for("yaml.alias");
  var DOC = Symbol.for("yaml.document");
  var MAP = Symbol.for("yaml.map");
  var PAIR = Symbol.for("yaml.pair");
  var SCALAR = Symbol.for("yaml.scalar");
  var SEQ = Symbol.for("yaml.seq");
  var NODE_TYPE = Symbol.for("yaml.node.type");
  var isAlias = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === ALIAS;
  var isDocument = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === DOC;
  var isMap = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === MAP;
  var isPair = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === PAIR;
  var isScalar = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === SCALAR;
  var isSeq = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === SEQ;
  function isCollection(node) {
    if (node && typeof node === "object")
      switch (node[NODE_TYPE]) {
        case MAP:
        case SEQ:
          return true;
      }
    return false;
  }
  function isNode(node) {
    if (node && typeof node === "object")
      switch (node[NODE_TYPE]) {
        case ALIAS:
        case MAP:
        case SCALAR:
        case SEQ:
          return true;
      }
    return false;
  }
  var hasAnchor = (node) => (isScalar(node) || isCollection(node)) && !!node.anchor;
  exports.ALIAS = ALIAS;
  exports.DOC = DOC;
  exports.MAP = MAP;
  exports.NODE_TYPE = NODE_TYPE;
  exports.PAIR = PAIR;
  exports.SCALAR = SCALAR;
  exports.SEQ = SEQ;
  exports.hasAnchor = hasAnchor;
  exports.isAlias = isAlias;
  exports.isCollection = isCollection;
  exports.isDocument = isDocument;
  exports.isMap = isMap;
  exports.isNode = isNode;
  exports.isPair = isPair;
  exports.isScalar = isScalar;
  exports.isSeq = isSeq;
});

// node_modules/yaml/dist/visit.js
var require_visit = __commonJS(function(exports) {
  var identity = require_identity();
  var BREAK = Symbol("break visit");
  var SKIP = Symbol("skip children");
  var REMOVE = Symbol("remove node");
  function visit(node, visitor) {
    const visitor_ = initVisitor(visitor);
    if (identity.isDocument(node)) {
      const cd = visit_(null, node.contents, visitor_, Object.freeze([node]));
      if (cd === REMOVE)
        node.contents = null;
    } else
      visit_(null, node, visitor_, Object.freeze([]));
  }
  visit.BREAK = BREAK;
  visit.SKIP = SKIP;
  visit.REMOVE = REMOVE;
  function visit_(key, node, visitor, path) {
    const ctrl = callVisitor(key, node, visitor, path);
    if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
      replaceNode(key, path, ctrl);
      return visit_(key, ctrl, visitor, path);
    }
    if (typeof ctrl !== "symbol") {
      if (identity.isCollection(node)) {
        path = Object.freeze(path.concat(node));
        for (let i = 0;i < node.items.length; ++i) {
          const ci = visit_(i, node.items[i], visitor, path);
          if (typeof ci === "number")
            i = ci - 1;
          else if (ci === BREAK)
            return BREAK;
          else if (ci === REMOVE) {
            node.items.splice(i, 1);
            i -= 1;
          }
        }
      } else if (identity.isPair(node)) {
        path = Object.freeze(path.concat(node));
        const ck = visit_("key", node.key, visitor, path);
        if (ck === BREAK)
          return BREAK;
        else if (ck === REMOVE)
          node.key = null;
        const cv = visit_("value", node.value, visitor, path);
        if (cv === BREAK)
          return BREAK;
        else if (cv === REMOVE)
          node.value = null;
      }
    }
    return ctrl;
  }
  async function visitAsync(node, visitor) {
    const visitor_ = initVisitor(visitor);
    if (identity.isDocument(node)) {
      const cd = await visitAsync_(null, node.contents, visitor_, Object.freeze([node]));
      if (cd === REMOVE)
        node.contents = null;
    } else
      await visitAsync_(null, node, visitor_, Object.freeze([]));
  }
  visitAsync.BREAK = BREAK;
  visitAsync.SKIP = SKIP;
  visitAsync.REMOVE = REMOVE;
  async function visitAsync_(key, node, visitor, path) {
    const ctrl = await callVisitor(key, node, visitor, path);
    if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
      replaceNode(key, path, ctrl);
      return visitAsync_(key, ctrl, visitor, path);
    }
    if (typeof ctrl !== "symbol") {
      if (identity.isCollection(node)) {
        path = Object.freeze(path.concat(node));
        for (let i = 0;i < node.items.length; ++i) {
          const ci = await visitAsync_(i, node.items[i], visitor, path);
          if (typeof ci === "number")
            i = ci - 1;
          else if (ci === BREAK)
            return BREAK;
          else if (ci === REMOVE) {
            node.items.splice(i, 1);
            i -= 1;
          }
        }
      } else if (identity.isPair(node)) {
        path = Object.freeze(path.concat(node));
        const ck = await visitAsync_("key", node.key, visitor, path);
        if (ck === BREAK)
          return BREAK;
        else if (ck === REMOVE)
          node.key = null;
        const cv = await visitAsync_("value", node.value, visitor, path);
        if (cv === BREAK)
          return BREAK;
        else if (cv === REMOVE)
          node.value = null;
      }
    }
    return ctrl;
  }
  function initVisitor(visitor) {
    if (typeof visitor === "object" && (visitor.Collection || visitor.Node || visitor.Value)) {
      return Object.assign({
        Alias: visitor.Node,
        Map: visitor.Node,
        Scalar: visitor.Node,
        Seq: visitor.Node
      }, visitor.Value && {
        Map: visitor.Value,
        Scalar: visitor.Value,
        Seq: visitor.Value
      }, visitor.Collection && {
        Map: visitor.Collection,
        Seq: visitor.Collection
      }, visitor);
    }
    return visitor;
  }
  function callVisitor(key, node, visitor, path) {
    if (typeof visitor === "function")
      return visitor(key, node, path);
    if (identity.isMap(node))
      return visitor.Map?.(key, node, path);
    if (identity.isSeq(node))
      return visitor.Seq?.(key, node, path);
    if (identity.isPair(node))
      return visitor.Pair?.(key, node, path);
    if (identity.isScalar(node))
      return visitor.Scalar?.(key, node, path);
    if (identity.isAlias(node))
      return visitor.Alias?.(key, node, path);
    return;
  }
  function replaceNode(key, path, node) {
    const parent = path[path.length - 1];
    if (identity.isCollection(parent)) {
      parent.items[key] = node;
    } else if (identity.isPair(parent)) {
      if (key === "key")
        parent.key = node;
      else
        parent.value = node;
    } else if (identity.isDocument(parent)) {
      parent.contents = node;
    } else {
      const pt = identity.isAlias(parent) ? "alias" : "scalar";
      throw new Error(`Cannot replace node with ${pt} parent`);
    }
  }
  exports.visit = visit;
  exports.visitAsync = visitAsync;
});

// node_modules/yaml/dist/doc/directives.js
var require_directives = __commonJS(function(exports) {
  var identity = require_identity();
  var visit = require_visit();
  var escapeChars = {
    "!": "%21",
    ",": "%2C",
    "[": "%5B",
    "]": "%5D",
    "{": "%7B",
    "}": "%7D"
  };
  var escapeTagName = (tn) => tn.replace(/[!,[\]{}]/g, (ch) => escapeChars[ch]);

  class Directives {
    constructor(yaml, tags) {
      this.docStart = null;
      this.docEnd = false;
      this.yaml = Object.assign({}, Directives.defaultYaml, yaml);
      this.tags = Object.assign({}, Directives.defaultTags, tags);
    }
    clone() {
      const copy = new Directives(this.yaml, this.tags);
      copy.docStart = this.docStart;
      return copy;
    }
    atDocument() {
      const res = new Directives(this.yaml, this.tags);
      switch (this.yaml.version) {
        case "1.1":
          this.atNextDocument = true;
          break;
        case "1.2":
          this.atNextDocument = false;
          this.yaml = {
            explicit: Directives.defaultYaml.explicit,
            version: "1.2"
          };
          this.tags = Object.assign({}, Directives.defaultTags);
          break;
      }
      return res;
    }
    add(line, onError) {
      if (this.atNextDocument) {
        this.yaml = { explicit: Directives.defaultYaml.explicit, version: "1.1" };
        this.tags = Object.assign({}, Directives.defaultTags);
        this.atNextDocument = false;
      }
      const parts = line.trim().split(/[ \t]+/);
      const name = parts.shift();
      switch (name) {
        case "%TAG": {
          if (parts.length !== 2) {
            onError(0, "%TAG directive should contain exactly two parts");
            if (parts.length < 2)
              return false;
          }
          const [handle, prefix] = parts;
          this.tags[handle] = prefix;
          return true;
        }
        case "%YAML": {
          this.yaml.explicit = true;
          if (parts.length !== 1) {
            onError(0, "%YAML directive should contain exactly one part");
            return false;
          }
          const [version] = parts;
          if (version === "1.1" || version === "1.2") {
            this.yaml.version = version;
            return true;
          } else {
            const isValid = /^\d+\.\d+$/.test(version);
            onError(6, `Unsupported YAML version ${version}`, isValid);
            return false;
          }
        }
        default:
          onError(0, `Unknown directive ${name}`, true);
          return false;
      }
    }
    tagName(source, onError) {
      if (source === "!")
        return "!";
      if (source[0] !== "!") {
        onError(`Not a valid tag: ${source}`);
        return null;
      }
      if (source[1] === "<") {
        const verbatim = source.slice(2, -1);
        if (verbatim === "!" || verbatim === "!!") {
          onError(`Verbatim tags aren't resolved, so ${source} is invalid.`);
          return null;
        }
        if (source[source.length - 1] !== ">")
          onError("Verbatim tags must end with a >");
        return verbatim;
      }
      const [, handle, suffix] = source.match(/^(.*!)([^!]*)$/s);
      if (!suffix)
        onError(`The ${source} tag has no suffix`);
      const prefix = this.tags[handle];
      if (prefix) {
        try {
          return prefix + decodeURIComponent(suffix);
        } catch (error) {
          onError(String(error));
          return null;
        }
      }
      if (handle === "!")
        return source;
      onError(`Could not resolve tag: ${source}`);
      return null;
    }
    tagString(tag) {
      for (const [handle, prefix] of Object.entries(this.tags)) {
        if (tag.startsWith(prefix))
          return handle + escapeTagName(tag.substring(prefix.length));
      }
      return tag[0] === "!" ? tag : `!<${tag}>`;
    }
    toString(doc) {
      const lines = this.yaml.explicit ? [`%YAML ${this.yaml.version || "1.2"}`] : [];
      const tagEntries = Object.entries(this.tags);
      let tagNames;
      if (doc && tagEntries.length > 0 && identity.isNode(doc.contents)) {
        const tags = {};
        visit.visit(doc.contents, (_key, node) => {
          if (identity.isNode(node) && node.tag)
            tags[node.tag] = true;
        });
        tagNames = Object.keys(tags);
      } else
        tagNames = [];
      for (const [handle, prefix] of tagEntries) {
        if (handle === "!!" && prefix === "tag:yaml.org,2002:")
          continue;
        if (!doc || tagNames.some((tn) => tn.startsWith(prefix)))
          lines.push(`%TAG ${handle} ${prefix}`);
      }
      return lines.join(`
`);
    }
  }
  Directives.defaultYaml = { explicit: false, version: "1.2" };
  Directives.defaultTags = { "!!": "tag:yaml.org,2002:" };
  exports.Directives = Directives;
});

// node_modules/yaml/dist/doc/anchors.js
var require_anchors = __commonJS(function(exports) {
  var identity = require_identity();
  var visit = require_visit();
  function anchorIsValid(anchor) {
    if (/[\x00-\x19\s,[\]{}]/.test(anchor)) {
      const sa = JSON.stringify(anchor);
      const msg = `Anchor must not contain whitespace or control characters: ${sa}`;
      throw new Error(msg);
    }
    return true;
  }
  function anchorNames(root) {
    const anchors = new Set;
    visit.visit(root, {
      Value(_key, node) {
        if (node.anchor)
          anchors.add(node.anchor);
      }
    });
    return anchors;
  }
  function findNewAnchor(prefix, exclude) {
    for (let i = 1;; ++i) {
      const name = `${prefix}${i}`;
      if (!exclude.has(name))
        return name;
    }
  }
  function createNodeAnchors(doc, prefix) {
    const aliasObjects = [];
    const sourceObjects = new Map;
    let prevAnchors = null;
    return {
      onAnchor: (source) => {
        aliasObjects.push(source);
        prevAnchors ?? (prevAnchors = anchorNames(doc));
        const anchor = findNewAnchor(prefix, prevAnchors);
        prevAnchors.add(anchor);
        return anchor;
      },
      setAnchors: () => {
        for (const source of aliasObjects) {
          const ref = sourceObjects.get(source);
          if (typeof ref === "object" && ref.anchor && (identity.isScalar(ref.node) || identity.isCollection(ref.node))) {
            ref.node.anchor = ref.anchor;
          } else {
            const error = new Error("Failed to resolve repeated object (this should not happen)");
            error.source = source;
            throw error;
          }
        }
      },
      sourceObjects
    };
  }
  exports.anchorIsValid = anchorIsValid;
  exports.anchorNames = anchorNames;
  exports.createNodeAnchors = createNodeAnchors;
  exports.findNewAnchor = findNewAnchor;
});

// node_modules/yaml/dist/doc/applyReviver.js
var require_applyReviver = __commonJS(function(exports) {
  function applyReviver(reviver, obj, key, val) {
    if (val && typeof val === "object") {
      if (Array.isArray(val)) {
        for (let i = 0, len = val.length;i < len; ++i) {
          const v0 = val[i];
          const v1 = applyReviver(reviver, val, String(i), v0);
          if (v1 === undefined)
            delete val[i];
          else if (v1 !== v0)
            val[i] = v1;
        }
      } else if (val instanceof Map) {
        for (const k of Array.from(val.keys())) {
          const v0 = val.get(k);
          const v1 = applyReviver(reviver, val, k, v0);
          if (v1 === undefined)
            val.delete(k);
          else if (v1 !== v0)
            val.set(k, v1);
        }
      } else if (val instanceof Set) {
        for (const v0 of Array.from(val)) {
          const v1 = applyReviver(reviver, val, v0, v0);
          if (v1 === undefined)
            val.delete(v0);
          else if (v1 !== v0) {
            val.delete(v0);
            val.add(v1);
          }
        }
      } else {
        for (const [k, v0] of Object.entries(val)) {
          const v1 = applyReviver(reviver, val, k, v0);
          if (v1 === undefined)
            delete val[k];
          else if (v1 !== v0)
            val[k] = v1;
        }
      }
    }
    return reviver.call(obj, key, val);
  }
  exports.applyReviver = applyReviver;
});

// node_modules/yaml/dist/nodes/toJS.js
var require_toJS = __commonJS(function(exports) {
  var identity = require_identity();
  function toJS(value, arg, ctx) {
    if (Array.isArray(value))
      return value.map((v, i) => toJS(v, String(i), ctx));
    if (value && typeof value.toJSON === "function") {
      if (!ctx || !identity.hasAnchor(value))
        return value.toJSON(arg, ctx);
      const data = { aliasCount: 0, count: 1, res: undefined };
      ctx.anchors.set(value, data);
      ctx.onCreate = (res) => {
        data.res = res;
        delete ctx.onCreate;
      };
      const res = value.toJSON(arg, ctx);
      if (ctx.onCreate)
        ctx.onCreate(res);
      return res;
    }
    if (typeof value === "bigint" && !ctx?.keep)
      return Number(value);
    return value;
  }
  exports.toJS = toJS;
});

// node_modules/yaml/dist/nodes/Node.js
var require_Node = __commonJS(function(exports) {
  var applyReviver = require_applyReviver();
  var identity = require_identity();
  var toJS = require_toJS();

  class NodeBase {
    constructor(type) {
      Object.defineProperty(this, identity.NODE_TYPE, { value: type });
    }
    clone() {
      const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
      if (this.range)
        copy.range = this.range.slice();
      return copy;
    }
    toJS(doc, { mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
      if (!identity.isDocument(doc))
        throw new TypeError("A document argument is required");
      const ctx = {
        anchors: new Map,
        doc,
        keep: true,
        mapAsMap: mapAsMap === true,
        mapKeyWarned: false,
        maxAliasCount: typeof maxAliasCount === "number" ? maxAliasCount : 100
      };
      const res = toJS.toJS(this, "", ctx);
      if (typeof onAnchor === "function")
        for (const { count, res } of ctx.anchors.values())
          onAnchor(res, count);
      return typeof reviver === "function" ? applyReviver.applyReviver(reviver, { "": res }, "", res) : res;
    }
  }
  exports.NodeBase = NodeBase;
});

// node_modules/yaml/dist/nodes/Alias.js
var require_Alias = __commonJS(function(exports) {
  var anchors = require_anchors();
  var visit = require_visit();
  var identity = require_identity();
  var Node = require_Node();
  var toJS = require_toJS();

  class Alias extends Node.NodeBase {
    constructor(source) {
      super(identity.ALIAS);
      this.source = source;
      Object.defineProperty(this, "tag", {
        set() {
          throw new Error("Alias nodes cannot have tags");
        }
      });
    }
    resolve(doc, ctx) {
      if (ctx?.maxAliasCount === 0)
        throw new ReferenceError("Alias resolution is disabled");
      let nodes;
      if (ctx?.aliasResolveCache) {
        nodes = ctx.aliasResolveCache;
      } else {
        nodes = [];
        visit.visit(doc, {
          Node: (_key, node) => {
            if (identity.isAlias(node) || identity.hasAnchor(node))
              nodes.push(node);
          }
        });
        if (ctx)
          ctx.aliasResolveCache = nodes;
      }
      let found = undefined;
      for (const node of nodes) {
        if (node === this)
          break;
        if (node.anchor === this.source)
          found = node;
      }
      if (found && ctx) {
        const { anchors, doc, maxAliasCount } = ctx;
        let data = anchors.get(found);
        if (!data) {
          toJS.toJS(found, null, ctx);
          data = anchors.get(found);
        }
        if (data?.res === undefined) {
          const msg = "This should not happen: Alias anchor was not resolved?";
          throw new ReferenceError(msg);
        }
        if (maxAliasCount >= 0) {
          data.count += 1;
          if (data.aliasCount === 0)
            data.aliasCount = getAliasCount(doc, found, anchors);
          if (data.count * data.aliasCount > maxAliasCount) {
            const msg = "Excessive alias count indicates a resource exhaustion attack";
            throw new ReferenceError(msg);
          }
        }
      }
      return found;
    }
    toJSON(_arg, ctx) {
      if (!ctx)
        return { source: this.source };
      const source = this.resolve(ctx.doc, ctx);
      if (!source) {
        const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
        throw new ReferenceError(msg);
      }
      return ctx.anchors.get(source).res;
    }
    toString(ctx, _onComment, _onChompKeep) {
      const src = `*${this.source}`;
      if (ctx) {
        anchors.anchorIsValid(this.source);
        if (ctx.options.verifyAliasOrder && !ctx.anchors.has(this.source)) {
          const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
          throw new Error(msg);
        }
        if (ctx.implicitKey)
          return `${src} `;
      }
      return src;
    }
  }
  function getAliasCount(doc, node, anchors) {
    if (identity.isAlias(node)) {
      const source = node.resolve(doc);
      const anchor = anchors && source && anchors.get(source);
      return anchor ? anchor.count * anchor.aliasCount : 0;
    } else if (identity.isCollection(node)) {
      let count = 0;
      for (const item of node.items) {
        const c = getAliasCount(doc, item, anchors);
        if (c > count)
          count = c;
      }
      return count;
    } else if (identity.isPair(node)) {
      const kc = getAliasCount(doc, node.key, anchors);
      const vc = getAliasCount(doc, node.value, anchors);
      return Math.max(kc, vc);
    }
    return 1;
  }
  exports.Alias = Alias;
});

// node_modules/yaml/dist/nodes/Scalar.js
var require_Scalar = __commonJS(function(exports) {
  var identity = require_identity();
  var Node = require_Node();
  var toJS = require_toJS();
  var isScalarValue = (value) => !value || typeof value !== "function" && typeof value !== "object";

  class Scalar extends Node.NodeBase {
    constructor(value) {
      super(identity.SCALAR);
      this.value = value;
    }
    toJSON(arg, ctx) {
      return ctx?.keep ? this.value : toJS.toJS(this.value, arg, ctx);
    }
    toString() {
      return String(this.value);
    }
  }
  Scalar.BLOCK_FOLDED = "BLOCK_FOLDED";
  Scalar.BLOCK_LITERAL = "BLOCK_LITERAL";
  Scalar.PLAIN = "PLAIN";
  Scalar.QUOTE_DOUBLE = "QUOTE_DOUBLE";
  Scalar.QUOTE_SINGLE = "QUOTE_SINGLE";
  exports.Scalar = Scalar;
  exports.isScalarValue = isScalarValue;
});

// node_modules/yaml/dist/doc/createNode.js
var require_createNode = __commonJS(function(exports) {
  var Alias = require_Alias();
  var identity = require_identity();
  var Scalar = require_Scalar();
  var defaultTagPrefix = "tag:yaml.org,2002:";
  function findTagObject(value, tagName, tags) {
    if (tagName) {
      const match = tags.filter((t) => t.tag === tagName);
      const tagObj = match.find((t) => !t.format) ?? match[0];
      if (!tagObj)
        throw new Error(`Tag ${tagName} not found`);
      return tagObj;
    }
    return tags.find((t) => t.identify?.(value) && !t.format);
  }
  function createNode(value, tagName, ctx) {
    if (identity.isDocument(value))
      value = value.contents;
    if (identity.isNode(value))
      return value;
    if (identity.isPair(value)) {
      const map = ctx.schema[identity.MAP].createNode?.(ctx.schema, null, ctx);
      map.items.push(value);
      return map;
    }
    if (value instanceof String || value instanceof Number || value instanceof Boolean || typeof BigInt !== "undefined" && value instanceof BigInt) {
      value = value.valueOf();
    }
    const { aliasDuplicateObjects, onAnchor, onTagObj, schema, sourceObjects } = ctx;
    let ref = undefined;
    if (aliasDuplicateObjects && value && typeof value === "object") {
      ref = sourceObjects.get(value);
      if (ref) {
        ref.anchor ?? (ref.anchor = onAnchor(value));
        return new Alias.Alias(ref.anchor);
      } else {
        ref = { anchor: null, node: null };
        sourceObjects.set(value, ref);
      }
    }
    if (tagName?.startsWith("!!"))
      tagName = defaultTagPrefix + tagName.slice(2);
    let tagObj = findTagObject(value, tagName, schema.tags);
    if (!tagObj) {
      if (value && typeof value.toJSON === "function") {
        value = value.toJSON();
      }
      if (!value || typeof value !== "object") {
        const node = new Scalar.Scalar(value);
        if (ref)
          ref.node = node;
        return node;
      }
      tagObj = value instanceof Map ? schema[identity.MAP] : (Symbol.iterator in Object(value)) ? schema[identity.SEQ] : schema[identity.MAP];
    }
    if (onTagObj) {
      onTagObj(tagObj);
      delete ctx.onTagObj;
    }
    const node = tagObj?.createNode ? tagObj.createNode(ctx.schema, value, ctx) : typeof tagObj?.nodeClass?.from === "function" ? tagObj.nodeClass.from(ctx.schema, value, ctx) : new Scalar.Scalar(value);
    if (tagName)
      node.tag = tagName;
    else if (!tagObj.default)
      node.tag = tagObj.tag;
    if (ref)
      ref.node = node;
    return node;
  }
  exports.createNode = createNode;
});

// node_modules/yaml/dist/nodes/Collection.js
var require_Collection = __commonJS(function(exports) {
  var createNode = require_createNode();
  var identity = require_identity();
  var Node = require_Node();
  function collectionFromPath(schema, path, value) {
    let v = value;
    for (let i = path.length - 1;i >= 0; --i) {
      const k = path[i];
      if (typeof k === "number" && Number.isInteger(k) && k >= 0) {
        const a = [];
        a[k] = v;
        v = a;
      } else {
        v = new Map([[k, v]]);
      }
    }
    return createNode.createNode(v, undefined, {
      aliasDuplicateObjects: false,
      keepUndefined: false,
      onAnchor: () => {
        throw new Error("This should not happen, please report a bug.");
      },
      schema,
      sourceObjects: new Map
    });
  }
  var isEmptyPath = (path) => path == null || typeof path === "object" && !!path[Symbol.iterator]().next().done;

  class Collection extends Node.NodeBase {
    constructor(type, schema) {
      super(type);
      Object.defineProperty(this, "schema", {
        value: schema,
        configurable: true,
        enumerable: false,
        writable: true
      });
    }
    clone(schema) {
      const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
      if (schema)
        copy.schema = schema;
      copy.items = copy.items.map((it) => identity.isNode(it) || identity.isPair(it) ? it.clone(schema) : it);
      if (this.range)
        copy.range = this.range.slice();
      return copy;
    }
    addIn(path, value) {
      if (isEmptyPath(path))
        this.add(value);
      else {
        const [key, ...rest] = path;
        const node = this.get(key, true);
        if (identity.isCollection(node))
          node.addIn(rest, value);
        else if (node === undefined && this.schema)
          this.set(key, collectionFromPath(this.schema, rest, value));
        else
          throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
      }
    }
    deleteIn(path) {
      const [key, ...rest] = path;
      if (rest.length === 0)
        return this.delete(key);
      const node = this.get(key, true);
      if (identity.isCollection(node))
        return node.deleteIn(rest);
      else
        throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
    }
    getIn(path, keepScalar) {
      const [key, ...rest] = path;
      const node = this.get(key, true);
      if (rest.length === 0)
        return !keepScalar && identity.isScalar(node) ? node.value : node;
      else
        return identity.isCollection(node) ? node.getIn(rest, keepScalar) : undefined;
    }
    hasAllNullValues(allowScalar) {
      return this.items.every((node) => {
        if (!identity.isPair(node))
          return false;
        const n = node.value;
        return n == null || allowScalar && identity.isScalar(n) && n.value == null && !n.commentBefore && !n.comment && !n.tag;
      });
    }
    hasIn(path) {
      const [key, ...rest] = path;
      if (rest.length === 0)
        return this.has(key);
      const node = this.get(key, true);
      return identity.isCollection(node) ? node.hasIn(rest) : false;
    }
    setIn(path, value) {
      const [key, ...rest] = path;
      if (rest.length === 0) {
        this.set(key, value);
      } else {
        const node = this.get(key, true);
        if (identity.isCollection(node))
          node.setIn(rest, value);
        else if (node === undefined && this.schema)
          this.set(key, collectionFromPath(this.schema, rest, value));
        else
          throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
      }
    }
  }
  exports.Collection = Collection;
  exports.collectionFromPath = collectionFromPath;
  exports.isEmptyPath = isEmptyPath;
});

// node_modules/yaml/dist/stringify/stringifyComment.js
var require_stringifyComment = __commonJS(function(exports) {
  var stringifyComment = (str) => str.replace(/^(?!$)(?: $)?/gm, "#");
  function indentComment(comment, indent) {
    if (/^\n+$/.test(comment))
      return comment.substring(1);
    return indent ? comment.replace(/^(?! *$)/gm, indent) : comment;
  }
  var lineComment = (str, indent, comment) => str.endsWith(`
`) ? indentComment(comment, indent) : comment.includes(`
`) ? `
` + indentComment(comment, indent) : (str.endsWith(" ") ? "" : " ") + comment;
  exports.indentComment = indentComment;
  exports.lineComment = lineComment;
  exports.stringifyComment = stringifyComment;
});

// node_modules/yaml/dist/stringify/foldFlowLines.js
var require_foldFlowLines = __commonJS(function(exports) {
  var FOLD_FLOW = "flow";
  var FOLD_BLOCK = "block";
  var FOLD_QUOTED = "quoted";
  function foldFlowLines(text, indent, mode = "flow", { indentAtStart, lineWidth = 80, minContentWidth = 20, onFold, onOverflow } = {}) {
    if (!lineWidth || lineWidth < 0)
      return text;
    if (lineWidth < minContentWidth)
      minContentWidth = 0;
    const endStep = Math.max(1 + minContentWidth, 1 + lineWidth - indent.length);
    if (text.length <= endStep)
      return text;
    const folds = [];
    const escapedFolds = {};
    let end = lineWidth - indent.length;
    if (typeof indentAtStart === "number") {
      if (indentAtStart > lineWidth - Math.max(2, minContentWidth))
        folds.push(0);
      else
        end = lineWidth - indentAtStart;
    }
    let split = undefined;
    let prev = undefined;
    let overflow = false;
    let i = -1;
    let escStart = -1;
    let escEnd = -1;
    if (mode === FOLD_BLOCK) {
      i = consumeMoreIndentedLines(text, i, indent.length);
      if (i !== -1)
        end = i + endStep;
    }
    for (let ch;ch = text[i += 1]; ) {
      if (mode === FOLD_QUOTED && ch === "\\") {
        escStart = i;
        switch (text[i + 1]) {
          case "x":
            i += 3;
            break;
          case "u":
            i += 5;
            break;
          case "U":
            i += 9;
            break;
          default:
            i += 1;
        }
        escEnd = i;
      }
      if (ch === `
`) {
        if (mode === FOLD_BLOCK)
          i = consumeMoreIndentedLines(text, i, indent.length);
        end = i + indent.length + endStep;
        split = undefined;
      } else {
        if (ch === " " && prev && prev !== " " && prev !== `
` && prev !== "\t") {
          const next = text[i + 1];
          if (next && next !== " " && next !== `
` && next !== "\t")
            split = i;
        }
        if (i >= end) {
          if (split) {
            folds.push(split);
            end = split + endStep;
            split = undefined;
          } else if (mode === FOLD_QUOTED) {
            while (prev === " " || prev === "\t") {
              prev = ch;
              ch = text[i += 1];
              overflow = true;
            }
            const j = i > escEnd + 1 ? i - 2 : escStart - 1;
            if (escapedFolds[j])
              return text;
            folds.push(j);
            escapedFolds[j] = true;
            end = j + endStep;
            split = undefined;
          } else {
            overflow = true;
          }
        }
      }
      prev = ch;
    }
    if (overflow && onOverflow)
      onOverflow();
    if (folds.length === 0)
      return text;
    if (onFold)
      onFold();
    let res = text.slice(0, folds[0]);
    for (let i = 0;i < folds.length; ++i) {
      const fold = folds[i];
      const end = folds[i + 1] || text.length;
      if (fold === 0)
        res = `
${indent}${text.slice(0, end)}`;
      else {
        if (mode === FOLD_QUOTED && escapedFolds[fold])
          res += `${text[fold]}\\`;
        res += `
${indent}${text.slice(fold + 1, end)}`;
      }
    }
    return res;
  }
  function consumeMoreIndentedLines(text, i, indent) {
    let end = i;
    let start = i + 1;
    let ch = text[start];
    while (ch === " " || ch === "\t") {
      if (i < start + indent) {
        ch = text[++i];
      } else {
        do {
          ch = text[++i];
        } while (ch && ch !== `
`);
        end = i;
        start = i + 1;
        ch = text[start];
      }
    }
    return end;
  }
  exports.FOLD_BLOCK = FOLD_BLOCK;
  exports.FOLD_FLOW = FOLD_FLOW;
  exports.FOLD_QUOTED = FOLD_QUOTED;
  exports.foldFlowLines = foldFlowLines;
});

// node_modules/yaml/dist/stringify/stringifyString.js
var require_stringifyString = __commonJS(function(exports) {
  var Scalar = require_Scalar();
  var foldFlowLines = require_foldFlowLines();
  var getFoldOptions = (ctx, isBlock) => ({
    indentAtStart: isBlock ? ctx.indent.length : ctx.indentAtStart,
    lineWidth: ctx.options.lineWidth,
    minContentWidth: ctx.options.minContentWidth
  });
  var containsDocumentMarker = (str) => /^(%|---|\.\.\.)/m.test(str);
  function lineLengthOverLimit(str, lineWidth, indentLength) {
    if (!lineWidth || lineWidth < 0)
      return false;
    const limit = lineWidth - indentLength;
    const strLen = str.length;
    if (strLen <= limit)
      return false;
    for (let i = 0, start = 0;i < strLen; ++i) {
      if (str[i] === `
`) {
        if (i - start > limit)
          return true;
        start = i + 1;
        if (strLen - start <= limit)
          return false;
      }
    }
    return true;
  }
  function doubleQuotedString(value, ctx) {
    const json = JSON.stringify(value);
    if (ctx.options.doubleQuotedAsJSON)
      return json;
    const { implicitKey } = ctx;
    const minMultiLineLength = ctx.options.doubleQuotedMinMultiLineLength;
    const indent = ctx.indent || (containsDocumentMarker(value) ? "  " : "");
    let str = "";
    let start = 0;
    for (let i = 0, ch = json[i];ch; ch = json[++i]) {
      if (ch === " " && json[i + 1] === "\\" && json[i + 2] === "n") {
        str += json.slice(start, i) + "\\ ";
        i += 1;
        start = i;
        ch = "\\";
      }
      if (ch === "\\")
        switch (json[i + 1]) {
          case "u":
            {
              str += json.slice(start, i);
              const code = json.substr(i + 2, 4);
              switch (code) {
                case "0000":
                  str += "\\0";
                  break;
                case "0007":
                  str += "\\a";
                  break;
                case "000b":
                  str += "\\v";
                  break;
                case "001b":
                  str += "\\e";
                  break;
                case "0085":
                  str += "\\N";
                  break;
                case "00a0":
                  str += "\\_";
                  break;
                case "2028":
                  str += "\\L";
                  break;
                case "2029":
                  str += "\\P";
                  break;
                default:
                  if (code.substr(0, 2) === "00")
                    str += "\\x" + code.substr(2);
                  else
                    str += json.substr(i, 6);
              }
              i += 5;
              start = i + 1;
            }
            break;
          case "n":
            if (implicitKey || json[i + 2] === '"' || json.length < minMultiLineLength) {
              i += 1;
            } else {
              str += json.slice(start, i) + `

`;
              while (json[i + 2] === "\\" && json[i + 3] === "n" && json[i + 4] !== '"') {
                str += `
`;
                i += 2;
              }
              str += indent;
              if (json[i + 2] === " ")
                str += "\\";
              i += 1;
              start = i + 1;
            }
            break;
          default:
            i += 1;
        }
    }
    str = start ? str + json.slice(start) : json;
    return implicitKey ? str : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_QUOTED, getFoldOptions(ctx, false));
  }
  function singleQuotedString(value, ctx) {
    if (ctx.options.singleQuote === false || ctx.implicitKey && value.includes(`
`) || /[ \t]\n|\n[ \t]/.test(value))
      return doubleQuotedString(value, ctx);
    const indent = ctx.indent || (containsDocumentMarker(value) ? "  " : "");
    const res = "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&
${indent}`) + "'";
    return ctx.implicitKey ? res : foldFlowLines.foldFlowLines(res, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
  }
  function quotedString(value, ctx) {
    const { singleQuote } = ctx.options;
    let qs;
    if (singleQuote === false)
      qs = doubleQuotedString;
    else {
      const hasDouble = value.includes('"');
      const hasSingle = value.includes("'");
      if (hasDouble && !hasSingle)
        qs = singleQuotedString;
      else if (hasSingle && !hasDouble)
        qs = doubleQuotedString;
      else
        qs = singleQuote ? singleQuotedString : doubleQuotedString;
    }
    return qs(value, ctx);
  }
  var blockEndNewlines;
  try {
    blockEndNewlines = new RegExp(`(^|(?<!
))
+(?!
|$)`, "g");
  } catch {
    blockEndNewlines = /\n+(?!\n|$)/g;
  }
  function blockString({ comment, type, value }, ctx, onComment, onChompKeep) {
    const { blockQuote, commentString, lineWidth } = ctx.options;
    if (!blockQuote || /\n[\t ]+$/.test(value)) {
      return quotedString(value, ctx);
    }
    const indent = ctx.indent || (ctx.forceBlockIndent || containsDocumentMarker(value) ? "  " : "");
    const literal = blockQuote === "literal" ? true : blockQuote === "folded" || type === Scalar.Scalar.BLOCK_FOLDED ? false : type === Scalar.Scalar.BLOCK_LITERAL ? true : !lineLengthOverLimit(value, lineWidth, indent.length);
    if (!value)
      return literal ? `|
` : `>
`;
    let chomp;
    let endStart;
    for (endStart = value.length;endStart > 0; --endStart) {
      const ch = value[endStart - 1];
      if (ch !== `
` && ch !== "\t" && ch !== " ")
        break;
    }
    let end = value.substring(endStart);
    const endNlPos = end.indexOf(`
`);
    if (endNlPos === -1) {
      chomp = "-";
    } else if (value === end || endNlPos !== end.length - 1) {
      chomp = "+";
      if (onChompKeep)
        onChompKeep();
    } else {
      chomp = "";
    }
    if (end) {
      value = value.slice(0, -end.length);
      if (end[end.length - 1] === `
`)
        end = end.slice(0, -1);
      end = end.replace(blockEndNewlines, `$&${indent}`);
    }
    let startWithSpace = false;
    let startEnd;
    let startNlPos = -1;
    for (startEnd = 0;startEnd < value.length; ++startEnd) {
      const ch = value[startEnd];
      if (ch === " ")
        startWithSpace = true;
      else if (ch === `
`)
        startNlPos = startEnd;
      else
        break;
    }
    let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
    if (start) {
      value = value.substring(start.length);
      start = start.replace(/\n+/g, `$&${indent}`);
    }
    const indentSize = indent ? "2" : "1";
    let header = (startWithSpace ? indentSize : "") + chomp;
    if (comment) {
      header += " " + commentString(comment.replace(/ ?[\r\n]+/g, " "));
      if (onComment)
        onComment();
    }
    if (!literal) {
      const foldedValue = value.replace(/\n+/g, `
$&`).replace(/(?:^|\n)([\t ].*)(?:([\n\t ]*)\n(?![\n\t ]))?/g, "$1$2").replace(/\n+/g, `$&${indent}`);
      let literalFallback = false;
      const foldOptions = getFoldOptions(ctx, true);
      if (blockQuote !== "folded" && type !== Scalar.Scalar.BLOCK_FOLDED) {
        foldOptions.onOverflow = () => {
          literalFallback = true;
        };
      }
      const body = foldFlowLines.foldFlowLines(`${start}${foldedValue}${end}`, indent, foldFlowLines.FOLD_BLOCK, foldOptions);
      if (!literalFallback)
        return `>${header}
${indent}${body}`;
    }
    value = value.replace(/\n+/g, `$&${indent}`);
    return `|${header}
${indent}${start}${value}${end}`;
  }
  function plainString(item, ctx, onComment, onChompKeep) {
    const { type, value } = item;
    const { actualString, implicitKey, indent, indentStep, inFlow } = ctx;
    if (implicitKey && value.includes(`
`) || inFlow && /[[\]{},]/.test(value)) {
      return quotedString(value, ctx);
    }
    if (/^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.test(value)) {
      return implicitKey || inFlow || !value.includes(`
`) ? quotedString(value, ctx) : blockString(item, ctx, onComment, onChompKeep);
    }
    if (!implicitKey && !inFlow && type !== Scalar.Scalar.PLAIN && value.includes(`
`)) {
      return blockString(item, ctx, onComment, onChompKeep);
    }
    if (containsDocumentMarker(value)) {
      if (indent === "") {
        ctx.forceBlockIndent = true;
        return blockString(item, ctx, onComment, onChompKeep);
      } else if (implicitKey && indent === indentStep) {
        return quotedString(value, ctx);
      }
    }
    const str = value.replace(/\n+/g, `$&
${indent}`);
    if (actualString) {
      const test = (tag) => tag.default && tag.tag !== "tag:yaml.org,2002:str" && tag.test?.test(str);
      const { compat, tags } = ctx.doc.schema;
      if (tags.some(test) || compat?.some(test))
        return quotedString(value, ctx);
    }
    return implicitKey ? str : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
  }
  function stringifyString(item, ctx, onComment, onChompKeep) {
    const { implicitKey, inFlow } = ctx;
    const ss = typeof item.value === "string" ? item : Object.assign({}, item, { value: String(item.value) });
    let { type } = item;
    if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
      if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u.test(ss.value))
        type = Scalar.Scalar.QUOTE_DOUBLE;
    }
    const _stringify = (_type) => {
      switch (_type) {
        case Scalar.Scalar.BLOCK_FOLDED:
        case Scalar.Scalar.BLOCK_LITERAL:
          return implicitKey || inFlow ? quotedString(ss.value, ctx) : blockString(ss, ctx, onComment, onChompKeep);
        case Scalar.Scalar.QUOTE_DOUBLE:
          return doubleQuotedString(ss.value, ctx);
        case Scalar.Scalar.QUOTE_SINGLE:
          return singleQuotedString(ss.value, ctx);
        case Scalar.Scalar.PLAIN:
          return plainString(ss, ctx, onComment, onChompKeep);
        default:
          return null;
      }
    };
    let res = _stringify(type);
    if (res === null) {
      const { defaultKeyType, defaultStringType } = ctx.options;
      const t = implicitKey && defaultKeyType || defaultStringType;
      res = _stringify(t);
      if (res === null)
        throw new Error(`Unsupported default string type ${t}`);
    }
    return res;
  }
  exports.stringifyString = stringifyString;
});

// node_modules/yaml/dist/stringify/stringify.js
var require_stringify = __commonJS(function(exports) {
  var anchors = require_anchors();
  var identity = require_identity();
  var stringifyComment = require_stringifyComment();
  var stringifyString = require_stringifyString();
  function createStringifyContext(doc, options) {
    const opt = Object.assign({
      blockQuote: true,
      commentString: stringifyComment.stringifyComment,
      defaultKeyType: null,
      defaultStringType: "PLAIN",
      directives: null,
      doubleQuotedAsJSON: false,
      doubleQuotedMinMultiLineLength: 40,
      falseStr: "false",
      flowCollectionPadding: true,
      indentSeq: true,
      lineWidth: 80,
      minContentWidth: 20,
      nullStr: "null",
      simpleKeys: false,
      singleQuote: null,
      trailingComma: false,
      trueStr: "true",
      verifyAliasOrder: true
    }, doc.schema.toStringOptions, options);
    let inFlow;
    switch (opt.collectionStyle) {
      case "block":
        inFlow = false;
        break;
      case "flow":
        inFlow = true;
        break;
      default:
        inFlow = null;
    }
    return {
      anchors: new Set,
      doc,
      flowCollectionPadding: opt.flowCollectionPadding ? " " : "",
      indent: "",
      indentStep: typeof opt.indent === "number" ? " ".repeat(opt.indent) : "  ",
      inFlow,
      options: opt
    };
  }
  function getTagObject(tags, item) {
    if (item.tag) {
      const match = tags.filter((t) => t.tag === item.tag);
      if (match.length > 0)
        return match.find((t) => t.format === item.format) ?? match[0];
    }
    let tagObj = undefined;
    let obj;
    if (identity.isScalar(item)) {
      obj = item.value;
      let match = tags.filter((t) => t.identify?.(obj));
      if (match.length > 1) {
        const testMatch = match.filter((t) => t.test);
        if (testMatch.length > 0)
          match = testMatch;
      }
      tagObj = match.find((t) => t.format === item.format) ?? match.find((t) => !t.format);
    } else {
      obj = item;
      tagObj = tags.find((t) => t.nodeClass && obj instanceof t.nodeClass);
    }
    if (!tagObj) {
      const name = obj?.constructor?.name ?? (obj === null ? "null" : typeof obj);
      throw new Error(`Tag not resolved for ${name} value`);
    }
    return tagObj;
  }
  function stringifyProps(node, tagObj, { anchors: anchors$1, doc }) {
    if (!doc.directives)
      return "";
    const props = [];
    const anchor = (identity.isScalar(node) || identity.isCollection(node)) && node.anchor;
    if (anchor && anchors.anchorIsValid(anchor)) {
      anchors$1.add(anchor);
      props.push(`&${anchor}`);
    }
    const tag = node.tag ?? (tagObj.default ? null : tagObj.tag);
    if (tag)
      props.push(doc.directives.tagString(tag));
    return props.join(" ");
  }
  function stringify(item, ctx, onComment, onChompKeep) {
    if (identity.isPair(item))
      return item.toString(ctx, onComment, onChompKeep);
    if (identity.isAlias(item)) {
      if (ctx.doc.directives)
        return item.toString(ctx);
      if (ctx.resolvedAliases?.has(item)) {
        throw new TypeError(`Cannot stringify circular structure without alias nodes`);
      } else {
        if (ctx.resolvedAliases)
          ctx.resolvedAliases.add(item);
        else
          ctx.resolvedAliases = new Set([item]);
        item = item.resolve(ctx.doc);
      }
    }
    let tagObj = undefined;
    const node = identity.isNode(item) ? item : ctx.doc.createNode(item, { onTagObj: (o) => tagObj = o });
    tagObj ?? (tagObj = getTagObject(ctx.doc.schema.tags, node));
    const props = stringifyProps(node, tagObj, ctx);
    if (props.length > 0)
      ctx.indentAtStart = (ctx.indentAtStart ?? 0) + props.length + 1;
    const str = typeof tagObj.stringify === "function" ? tagObj.stringify(node, ctx, onComment, onChompKeep) : identity.isScalar(node) ? stringifyString.stringifyString(node, ctx, onComment, onChompKeep) : node.toString(ctx, onComment, onChompKeep);
    if (!props)
      return str;
    return identity.isScalar(node) || str[0] === "{" || str[0] === "[" ? `${props} ${str}` : `${props}
${ctx.indent}${str}`;
  }
  exports.createStringifyContext = createStringifyContext;
  exports.stringify = stringify;
});

// node_modules/yaml/dist/stringify/stringifyPair.js
var require_stringifyPair = __commonJS(function(exports) {
  var identity = require_identity();
  var Scalar = require_Scalar();
  var stringify = require_stringify();
  var stringifyComment = require_stringifyComment();
  function stringifyPair({ key, value }, ctx, onComment, onChompKeep) {
    const { allNullValues, doc, indent, indentStep, options: { commentString, indentSeq, simpleKeys } } = ctx;
    let keyComment = identity.isNode(key) && key.comment || null;
    if (simpleKeys) {
      if (keyComment) {
        throw new Error("With simple keys, key nodes cannot have comments");
      }
      if (identity.isCollection(key) || !identity.isNode(key) && typeof key === "object") {
        const msg = "With simple keys, collection cannot be used as a key value";
        throw new Error(msg);
      }
    }
    let explicitKey = !simpleKeys && (!key || keyComment && value == null && !ctx.inFlow || identity.isCollection(key) || (identity.isScalar(key) ? key.type === Scalar.Scalar.BLOCK_FOLDED || key.type === Scalar.Scalar.BLOCK_LITERAL : typeof key === "object"));
    ctx = Object.assign({}, ctx, {
      allNullValues: false,
      implicitKey: !explicitKey && (simpleKeys || !allNullValues),
      indent: indent + indentStep
    });
    let keyCommentDone = false;
    let chompKeep = false;
    let str = stringify.stringify(key, ctx, () => keyCommentDone = true, () => chompKeep = true);
    if (!explicitKey && !ctx.inFlow && str.length > 1024) {
      if (simpleKeys)
        throw new Error("With simple keys, single line scalar must not span more than 1024 characters");
      explicitKey = true;
    }
    if (ctx.inFlow) {
      if (allNullValues || value == null) {
        if (keyCommentDone && onComment)
          onComment();
        return str === "" ? "?" : explicitKey ? `? ${str}` : str;
      }
    } else if (allNullValues && !simpleKeys || value == null && explicitKey) {
      str = `? ${str}`;
      if (keyComment && !keyCommentDone) {
        str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
      } else if (chompKeep && onChompKeep)
        onChompKeep();
      return str;
    }
    if (keyCommentDone)
      keyComment = null;
    if (explicitKey) {
      if (keyComment)
        str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
      str = `? ${str}
${indent}:`;
    } else {
      str = `${str}:`;
      if (keyComment)
        str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
    }
    let vsb, vcb, valueComment;
    if (identity.isNode(value)) {
      vsb = !!value.spaceBefore;
      vcb = value.commentBefore;
      valueComment = value.comment;
    } else {
      vsb = false;
      vcb = null;
      valueComment = null;
      if (value && typeof value === "object")
        value = doc.createNode(value);
    }
    ctx.implicitKey = false;
    if (!explicitKey && !keyComment && identity.isScalar(value))
      ctx.indentAtStart = str.length + 1;
    chompKeep = false;
    if (!indentSeq && indentStep.length >= 2 && !ctx.inFlow && !explicitKey && identity.isSeq(value) && !value.flow && !value.tag && !value.anchor) {
      ctx.indent = ctx.indent.substring(2);
    }
    let valueCommentDone = false;
    const valueStr = stringify.stringify(value, ctx, () => valueCommentDone = true, () => chompKeep = true);
    let ws = " ";
    if (keyComment || vsb || vcb) {
      ws = vsb ? `
` : "";
      if (vcb) {
        const cs = commentString(vcb);
        ws += `
${stringifyComment.indentComment(cs, ctx.indent)}`;
      }
      if (valueStr === "" && !ctx.inFlow) {
        if (ws === `
` && valueComment)
          ws = `

`;
      } else {
        ws += `
${ctx.indent}`;
      }
    } else if (!explicitKey && identity.isCollection(value)) {
      const vs0 = valueStr[0];
      const nl0 = valueStr.indexOf(`
`);
      const hasNewline = nl0 !== -1;
      const flow = ctx.inFlow ?? value.flow ?? value.items.length === 0;
      if (hasNewline || !flow) {
        let hasPropsLine = false;
        if (hasNewline && (vs0 === "&" || vs0 === "!")) {
          let sp0 = valueStr.indexOf(" ");
          if (vs0 === "&" && sp0 !== -1 && sp0 < nl0 && valueStr[sp0 + 1] === "!") {
            sp0 = valueStr.indexOf(" ", sp0 + 1);
          }
          if (sp0 === -1 || nl0 < sp0)
            hasPropsLine = true;
        }
        if (!hasPropsLine)
          ws = `
${ctx.indent}`;
      }
    } else if (valueStr === "" || valueStr[0] === `
`) {
      ws = "";
    }
    str += ws + valueStr;
    if (ctx.inFlow) {
      if (valueCommentDone && onComment)
        onComment();
    } else if (valueComment && !valueCommentDone) {
      str += stringifyComment.lineComment(str, ctx.indent, commentString(valueComment));
    } else if (chompKeep && onChompKeep) {
      onChompKeep();
    }
    return str;
  }
  exports.stringifyPair = stringifyPair;
});

// node_modules/yaml/dist/log.js
var require_log = __commonJS(function(exports) {
  var node_process = __require("process");
  function debug(logLevel, ...messages) {
    if (logLevel === "debug")
      console.log(...messages);
  }
  function warn(logLevel, warning) {
    if (logLevel === "debug" || logLevel === "warn") {
      if (typeof node_process.emitWarning === "function")
        node_process.emitWarning(warning);
      else
        console.warn(warning);
    }
  }
  exports.debug = debug;
  exports.warn = warn;
});

// node_modules/yaml/dist/schema/yaml-1.1/merge.js
var require_merge = __commonJS(function(exports) {
  var identity = require_identity();
  var Scalar = require_Scalar();
  var MERGE_KEY = "<<";
  var merge = {
    identify: (value) => value === MERGE_KEY || typeof value === "symbol" && value.description === MERGE_KEY,
    default: "key",
    tag: "tag:yaml.org,2002:merge",
    test: /^<<$/,
    resolve: () => Object.assign(new Scalar.Scalar(Symbol(MERGE_KEY)), {
      addToJSMap: addMergeToJSMap
    }),
    stringify: () => MERGE_KEY
  };
  var isMergeKey = (ctx, key) => (merge.identify(key) || identity.isScalar(key) && (!key.type || key.type === Scalar.Scalar.PLAIN) && merge.identify(key.value)) && ctx?.doc.schema.tags.some((tag) => tag.tag === merge.tag && tag.default);
  function addMergeToJSMap(ctx, map, value) {
    const source = resolveAliasValue(ctx, value);
    if (identity.isSeq(source))
      for (const it of source.items)
        mergeValue(ctx, map, it);
    else if (Array.isArray(source))
      for (const it of source)
        mergeValue(ctx, map, it);
    else
      mergeValue(ctx, map, source);
  }
  function mergeValue(ctx, map, value) {
    const source = resolveAliasValue(ctx, value);
    if (!identity.isMap(source))
      throw new Error("Merge sources must be maps or map aliases");
    const srcMap = source.toJSON(null, ctx, Map);
    for (const [key, value] of srcMap) {
      if (map instanceof Map) {
        if (!map.has(key))
          map.set(key, value);
      } else if (map instanceof Set) {
        map.add(key);
      } else if (!Object.prototype.hasOwnProperty.call(map, key)) {
        Object.defineProperty(map, key, {
          value,
          writable: true,
          enumerable: true,
          configurable: true
        });
      }
    }
    return map;
  }
  function resolveAliasValue(ctx, value) {
    return ctx && identity.isAlias(value) ? value.resolve(ctx.doc, ctx) : value;
  }
  exports.addMergeToJSMap = addMergeToJSMap;
  exports.isMergeKey = isMergeKey;
  exports.merge = merge;
});

// node_modules/yaml/dist/nodes/addPairToJSMap.js
var require_addPairToJSMap = __commonJS(function(exports) {
  var log = require_log();
  var merge = require_merge();
  var stringify = require_stringify();
  var identity = require_identity();
  var toJS = require_toJS();
  function addPairToJSMap(ctx, map, { key, value }) {
    if (identity.isNode(key) && key.addToJSMap)
      key.addToJSMap(ctx, map, value);
    else if (merge.isMergeKey(ctx, key))
      merge.addMergeToJSMap(ctx, map, value);
    else {
      const jsKey = toJS.toJS(key, "", ctx);
      if (map instanceof Map) {
        map.set(jsKey, toJS.toJS(value, jsKey, ctx));
      } else if (map instanceof Set) {
        map.add(jsKey);
      } else {
        const stringKey = stringifyKey(key, jsKey, ctx);
        const jsValue = toJS.toJS(value, stringKey, ctx);
        if (stringKey in map)
          Object.defineProperty(map, stringKey, {
            value: jsValue,
            writable: true,
            enumerable: true,
            configurable: true
          });
        else
          map[stringKey] = jsValue;
      }
    }
    return map;
  }
  function stringifyKey(key, jsKey, ctx) {
    if (jsKey === null)
      return "";
    if (typeof jsKey !== "object")
      return String(jsKey);
    if (identity.isNode(key) && ctx?.doc) {
      const strCtx = stringify.createStringifyContext(ctx.doc, {});
      strCtx.anchors = new Set;
      for (const node of ctx.anchors.keys())
        strCtx.anchors.add(node.anchor);
      strCtx.inFlow = true;
      strCtx.inStringifyKey = true;
      const strKey = key.toString(strCtx);
      if (!ctx.mapKeyWarned) {
        let jsonStr = JSON.stringify(strKey);
        if (jsonStr.length > 40)
          jsonStr = jsonStr.substring(0, 36) + '..."';
        log.warn(ctx.doc.options.logLevel, `Keys with collection values will be stringified due to JS Object restrictions: ${jsonStr}. Set mapAsMap: true to use object keys.`);
        ctx.mapKeyWarned = true;
      }
      return strKey;
    }
    return JSON.stringify(jsKey);
  }
  exports.addPairToJSMap = addPairToJSMap;
});

// node_modules/yaml/dist/nodes/Pair.js
var require_Pair = __commonJS(function(exports) {
  var createNode = require_createNode();
  var stringifyPair = require_stringifyPair();
  var addPairToJSMap = require_addPairToJSMap();
  var identity = require_identity();
  function createPair(key, value, ctx) {
    const k = createNode.createNode(key, undefined, ctx);
    const v = createNode.createNode(value, undefined, ctx);
    return new Pair(k, v);
  }

  class Pair {
    constructor(key, value = null) {
      Object.defineProperty(this, identity.NODE_TYPE, { value: identity.PAIR });
      this.key = key;
      this.value = value;
    }
    clone(schema) {
      let { key, value } = this;
      if (identity.isNode(key))
        key = key.clone(schema);
      if (identity.isNode(value))
        value = value.clone(schema);
      return new Pair(key, value);
    }
    toJSON(_, ctx) {
      const pair = ctx?.mapAsMap ? new Map : {};
      return addPairToJSMap.addPairToJSMap(ctx, pair, this);
    }
    toString(ctx, onComment, onChompKeep) {
      return ctx?.doc ? stringifyPair.stringifyPair(this, ctx, onComment, onChompKeep) : JSON.stringify(this);
    }
  }
  exports.Pair = Pair;
  exports.createPair = createPair;
});

// node_modules/yaml/dist/stringify/stringifyCollection.js
var require_stringifyCollection = __commonJS(function(exports) {
  var identity = require_identity();
  var stringify = require_stringify();
  var stringifyComment = require_stringifyComment();
  function stringifyCollection(collection, ctx, options) {
    const flow = ctx.inFlow ?? collection.flow;
    const stringify = flow ? stringifyFlowCollection : stringifyBlockCollection;
    return stringify(collection, ctx, options);
  }
  function stringifyBlockCollection({ comment, items }, ctx, { blockItemPrefix, flowChars, itemIndent, onChompKeep, onComment }) {
    const { indent, options: { commentString } } = ctx;
    const itemCtx = Object.assign({}, ctx, { indent: itemIndent, type: null });
    let chompKeep = false;
    const lines = [];
    for (let i = 0;i < items.length; ++i) {
      const item = items[i];
      let comment = null;
      if (identity.isNode(item)) {
        if (!chompKeep && item.spaceBefore)
          lines.push("");
        addCommentBefore(ctx, lines, item.commentBefore, chompKeep);
        if (item.comment)
          comment = item.comment;
      } else if (identity.isPair(item)) {
        const ik = identity.isNode(item.key) ? item.key : null;
        if (ik) {
          if (!chompKeep && ik.spaceBefore)
            lines.push("");
          addCommentBefore(ctx, lines, ik.commentBefore, chompKeep);
        }
      }
      chompKeep = false;
      let str = stringify.stringify(item, itemCtx, () => comment = null, () => chompKeep = true);
      if (comment)
        str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
      if (chompKeep && comment)
        chompKeep = false;
      lines.push(blockItemPrefix + str);
    }
    let str;
    if (lines.length === 0) {
      str = flowChars.start + flowChars.end;
    } else {
      str = lines[0];
      for (let i = 1;i < lines.length; ++i) {
        const line = lines[i];
        str += line ? `
${indent}${line}` : `
`;
      }
    }
    if (comment) {
      str += `
` + stringifyComment.indentComment(commentString(comment), indent);
      if (onComment)
        onComment();
    } else if (chompKeep && onChompKeep)
      onChompKeep();
    return str;
  }
  function stringifyFlowCollection({ items }, ctx, { flowChars, itemIndent }) {
    const { indent, indentStep, flowCollectionPadding: fcPadding, options: { commentString } } = ctx;
    itemIndent += indentStep;
    const itemCtx = Object.assign({}, ctx, {
      indent: itemIndent,
      inFlow: true,
      type: null
    });
    let reqNewline = false;
    let linesAtValue = 0;
    const lines = [];
    for (let i = 0;i < items.length; ++i) {
      const item = items[i];
      let comment = null;
      if (identity.isNode(item)) {
        if (item.spaceBefore)
          lines.push("");
        addCommentBefore(ctx, lines, item.commentBefore, false);
        if (item.comment)
          comment = item.comment;
      } else if (identity.isPair(item)) {
        const ik = identity.isNode(item.key) ? item.key : null;
        if (ik) {
          if (ik.spaceBefore)
            lines.push("");
          addCommentBefore(ctx, lines, ik.commentBefore, false);
          if (ik.comment)
            reqNewline = true;
        }
        const iv = identity.isNode(item.value) ? item.value : null;
        if (iv) {
          if (iv.comment)
            comment = iv.comment;
          if (iv.commentBefore)
            reqNewline = true;
        } else if (item.value == null && ik?.comment) {
          comment = ik.comment;
        }
      }
      if (comment)
        reqNewline = true;
      let str = stringify.stringify(item, itemCtx, () => comment = null);
      reqNewline || (reqNewline = lines.length > linesAtValue || str.includes(`
`));
      if (i < items.length - 1) {
        str += ",";
      } else if (ctx.options.trailingComma) {
        if (ctx.options.lineWidth > 0) {
          reqNewline || (reqNewline = lines.reduce((sum, line) => sum + line.length + 2, 2) + (str.length + 2) > ctx.options.lineWidth);
        }
        if (reqNewline) {
          str += ",";
        }
      }
      if (comment)
        str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
      lines.push(str);
      linesAtValue = lines.length;
    }
    const { start, end } = flowChars;
    if (lines.length === 0) {
      return start + end;
    } else {
      if (!reqNewline) {
        const len = lines.reduce((sum, line) => sum + line.length + 2, 2);
        reqNewline = ctx.options.lineWidth > 0 && len > ctx.options.lineWidth;
      }
      if (reqNewline) {
        let str = start;
        for (const line of lines)
          str += line ? `
${indentStep}${indent}${line}` : `
`;
        return `${str}
${indent}${end}`;
      } else {
        return `${start}${fcPadding}${lines.join(" ")}${fcPadding}${end}`;
      }
    }
  }
  function addCommentBefore({ indent, options: { commentString } }, lines, comment, chompKeep) {
    if (comment && chompKeep)
      comment = comment.replace(/^\n+/, "");
    if (comment) {
      const ic = stringifyComment.indentComment(commentString(comment), indent);
      lines.push(ic.trimStart());
    }
  }
  exports.stringifyCollection = stringifyCollection;
});

// node_modules/yaml/dist/nodes/YAMLMap.js
var require_YAMLMap = __commonJS(function(exports) {
  var stringifyCollection = require_stringifyCollection();
  var addPairToJSMap = require_addPairToJSMap();
  var Collection = require_Collection();
  var identity = require_identity();
  var Pair = require_Pair();
  var Scalar = require_Scalar();
  function findPair(items, key) {
    const k = identity.isScalar(key) ? key.value : key;
    for (const it of items) {
      if (identity.isPair(it)) {
        if (it.key === key || it.key === k)
          return it;
        if (identity.isScalar(it.key) && it.key.value === k)
          return it;
      }
    }
    return;
  }

  class YAMLMap extends Collection.Collection {
    static get tagName() {
      return "tag:yaml.org,2002:map";
    }
    constructor(schema) {
      super(identity.MAP, schema);
      this.items = [];
    }
    static from(schema, obj, ctx) {
      const { keepUndefined, replacer } = ctx;
      const map = new this(schema);
      const add = (key, value) => {
        if (typeof replacer === "function")
          value = replacer.call(obj, key, value);
        else if (Array.isArray(replacer) && !replacer.includes(key))
          return;
        if (value !== undefined || keepUndefined)
          map.items.push(Pair.createPair(key, value, ctx));
      };
      if (obj instanceof Map) {
        for (const [key, value] of obj)
          add(key, value);
      } else if (obj && typeof obj === "object") {
        for (const key of Object.keys(obj))
          add(key, obj[key]);
      }
      if (typeof schema.sortMapEntries === "function") {
        map.items.sort(schema.sortMapEntries);
      }
      return map;
    }
    add(pair, overwrite) {
      let _pair;
      if (identity.isPair(pair))
        _pair = pair;
      else if (!pair || typeof pair !== "object" || !("key" in pair)) {
        _pair = new Pair.Pair(pair, pair?.value);
      } else
        _pair = new Pair.Pair(pair.key, pair.value);
      const prev = findPair(this.items, _pair.key);
      const sortEntries = this.schema?.sortMapEntries;
      if (prev) {
        if (!overwrite)
          throw new Error(`Key ${_pair.key} already set`);
        if (identity.isScalar(prev.value) && Scalar.isScalarValue(_pair.value))
          prev.value.value = _pair.value;
        else
          prev.value = _pair.value;
      } else if (sortEntries) {
        const i = this.items.findIndex((item) => sortEntries(_pair, item) < 0);
        if (i === -1)
          this.items.push(_pair);
        else
          this.items.splice(i, 0, _pair);
      } else {
        this.items.push(_pair);
      }
    }
    delete(key) {
      const it = findPair(this.items, key);
      if (!it)
        return false;
      const del = this.items.splice(this.items.indexOf(it), 1);
      return del.length > 0;
    }
    get(key, keepScalar) {
      const it = findPair(this.items, key);
      const node = it?.value;
      return (!keepScalar && identity.isScalar(node) ? node.value : node) ?? undefined;
    }
    has(key) {
      return !!findPair(this.items, key);
    }
    set(key, value) {
      this.add(new Pair.Pair(key, value), true);
    }
    toJSON(_, ctx, Type) {
      const map = Type ? new Type : ctx?.mapAsMap ? new Map : {};
      if (ctx?.onCreate)
        ctx.onCreate(map);
      for (const item of this.items)
        addPairToJSMap.addPairToJSMap(ctx, map, item);
      return map;
    }
    toString(ctx, onComment, onChompKeep) {
      if (!ctx)
        return JSON.stringify(this);
      for (const item of this.items) {
        if (!identity.isPair(item))
          throw new Error(`Map items must all be pairs; found ${JSON.stringify(item)} instead`);
      }
      if (!ctx.allNullValues && this.hasAllNullValues(false))
        ctx = Object.assign({}, ctx, { allNullValues: true });
      return stringifyCollection.stringifyCollection(this, ctx, {
        blockItemPrefix: "",
        flowChars: { start: "{", end: "}" },
        itemIndent: ctx.indent || "",
        onChompKeep,
        onComment
      });
    }
  }
  exports.YAMLMap = YAMLMap;
  exports.findPair = findPair;
});

// node_modules/yaml/dist/schema/common/map.js
var require_map = __commonJS(function(exports) {
  var identity = require_identity();
  var YAMLMap = require_YAMLMap();
  var map = {
    collection: "map",
    default: true,
    nodeClass: YAMLMap.YAMLMap,
    tag: "tag:yaml.org,2002:map",
    resolve(map, onError) {
      if (!identity.isMap(map))
        onError("Expected a mapping for this tag");
      return map;
    },
    createNode: (schema, obj, ctx) => YAMLMap.YAMLMap.from(schema, obj, ctx)
  };
  exports.map = map;
});

// node_modules/yaml/dist/nodes/YAMLSeq.js
var require_YAMLSeq = __commonJS(function(exports) {
  var createNode = require_createNode();
  var stringifyCollection = require_stringifyCollection();
  var Collection = require_Collection();
  var identity = require_identity();
  var Scalar = require_Scalar();
  var toJS = require_toJS();

  class YAMLSeq extends Collection.Collection {
    static get tagName() {
      return "tag:yaml.org,2002:seq";
    }
    constructor(schema) {
      super(identity.SEQ, schema);
      this.items = [];
    }
    add(value) {
      this.items.push(value);
    }
    delete(key) {
      const idx = asItemIndex(key);
      if (typeof idx !== "number")
        return false;
      const del = this.items.splice(idx, 1);
      return del.length > 0;
    }
    get(key, keepScalar) {
      const idx = asItemIndex(key);
      if (typeof idx !== "number")
        return;
      const it = this.items[idx];
      return !keepScalar && identity.isScalar(it) ? it.value : it;
    }
    has(key) {
      const idx = asItemIndex(key);
      return typeof idx === "number" && idx < this.items.length;
    }
    set(key, value) {
      const idx = asItemIndex(key);
      if (typeof idx !== "number")
        throw new Error(`Expected a valid index, not ${key}.`);
      const prev = this.items[idx];
      if (identity.isScalar(prev) && Scalar.isScalarValue(value))
        prev.value = value;
      else
        this.items[idx] = value;
    }
    toJSON(_, ctx) {
      const seq = [];
      if (ctx?.onCreate)
        ctx.onCreate(seq);
      let i = 0;
      for (const item of this.items)
        seq.push(toJS.toJS(item, String(i++), ctx));
      return seq;
    }
    toString(ctx, onComment, onChompKeep) {
      if (!ctx)
        return JSON.stringify(this);
      return stringifyCollection.stringifyCollection(this, ctx, {
        blockItemPrefix: "- ",
        flowChars: { start: "[", end: "]" },
        itemIndent: (ctx.indent || "") + "  ",
        onChompKeep,
        onComment
      });
    }
    static from(schema, obj, ctx) {
      const { replacer } = ctx;
      const seq = new this(schema);
      if (obj && Symbol.iterator in Object(obj)) {
        let i = 0;
        for (let it of obj) {
          if (typeof replacer === "function") {
            const key = obj instanceof Set ? it : String(i++);
            it = replacer.call(obj, key, it);
          }
          seq.items.push(createNode.createNode(it, undefined, ctx));
        }
      }
      return seq;
    }
  }
  function asItemIndex(key) {
    let idx = identity.isScalar(key) ? key.value : key;
    if (idx && typeof idx === "string")
      idx = Number(idx);
    return typeof idx === "number" && Number.isInteger(idx) && idx >= 0 ? idx : null;
  }
  exports.YAMLSeq = YAMLSeq;
});

// node_modules/yaml/dist/schema/common/seq.js
var require_seq = __commonJS(function(exports) {
  var identity = require_identity();
  var YAMLSeq = require_YAMLSeq();
  var seq = {
    collection: "seq",
    default: true,
    nodeClass: YAMLSeq.YAMLSeq,
    tag: "tag:yaml.org,2002:seq",
    resolve(seq, onError) {
      if (!identity.isSeq(seq))
        onError("Expected a sequence for this tag");
      return seq;
    },
    createNode: (schema, obj, ctx) => YAMLSeq.YAMLSeq.from(schema, obj, ctx)
  };
  exports.seq = seq;
});

// node_modules/yaml/dist/schema/common/string.js
var require_string = __commonJS(function(exports) {
  var stringifyString = require_stringifyString();
  var string = {
    identify: (value) => typeof value === "string",
    default: true,
    tag: "tag:yaml.org,2002:str",
    resolve: (str) => str,
    stringify(item, ctx, onComment, onChompKeep) {
      ctx = Object.assign({ actualString: true }, ctx);
      return stringifyString.stringifyString(item, ctx, onComment, onChompKeep);
    }
  };
  exports.string = string;
});

// node_modules/yaml/dist/schema/common/null.js
var require_null = __commonJS(function(exports) {
  var Scalar = require_Scalar();
  var nullTag = {
    identify: (value) => value == null,
    createNode: () => new Scalar.Scalar(null),
    default: true,
    tag: "tag:yaml.org,2002:null",
    test: /^(?:~|[Nn]ull|NULL)?$/,
    resolve: () => new Scalar.Scalar(null),
    stringify: ({ source }, ctx) => typeof source === "string" && nullTag.test.test(source) ? source : ctx.options.nullStr
  };
  exports.nullTag = nullTag;
});

// node_modules/yaml/dist/schema/core/bool.js
var require_bool = __commonJS(function(exports) {
  var Scalar = require_Scalar();
  var boolTag = {
    identify: (value) => typeof value === "boolean",
    default: true,
    tag: "tag:yaml.org,2002:bool",
    test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
    resolve: (str) => new Scalar.Scalar(str[0] === "t" || str[0] === "T"),
    stringify({ source, value }, ctx) {
      if (source && boolTag.test.test(source)) {
        const sv = source[0] === "t" || source[0] === "T";
        if (value === sv)
          return source;
      }
      return value ? ctx.options.trueStr : ctx.options.falseStr;
    }
  };
  exports.boolTag = boolTag;
});

// node_modules/yaml/dist/stringify/stringifyNumber.js
var require_stringifyNumber = __commonJS(function(exports) {
  function stringifyNumber({ format, minFractionDigits, tag, value }) {
    if (typeof value === "bigint")
      return String(value);
    const num = typeof value === "number" ? value : Number(value);
    if (!isFinite(num))
      return isNaN(num) ? ".nan" : num < 0 ? "-.inf" : ".inf";
    let n = Object.is(value, -0) ? "-0" : JSON.stringify(value);
    if (!format && minFractionDigits && (!tag || tag === "tag:yaml.org,2002:float") && /^-?\d/.test(n) && !n.includes("e")) {
      let i = n.indexOf(".");
      if (i < 0) {
        i = n.length;
        n += ".";
      }
      let d = minFractionDigits - (n.length - i - 1);
      while (d-- > 0)
        n += "0";
    }
    return n;
  }
  exports.stringifyNumber = stringifyNumber;
});

// node_modules/yaml/dist/schema/core/float.js
var require_float = __commonJS(function(exports) {
  var Scalar = require_Scalar();
  var stringifyNumber = require_stringifyNumber();
  var floatNaN = {
    identify: (value) => typeof value === "number",
    default: true,
    tag: "tag:yaml.org,2002:float",
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: (str) => str.slice(-3).toLowerCase() === "nan" ? NaN : str[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
    stringify: stringifyNumber.stringifyNumber
  };
  var floatExp = {
    identify: (value) => typeof value === "number",
    default: true,
    tag: "tag:yaml.org,2002:float",
    format: "EXP",
    test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
    resolve: (str) => parseFloat(str),
    stringify(node) {
      const num = Number(node.value);
      return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
    }
  };
  var float = {
    identify: (value) => typeof value === "number",
    default: true,
    tag: "tag:yaml.org,2002:float",
    test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
    resolve(str) {
      const node = new Scalar.Scalar(parseFloat(str));
      const dot = str.indexOf(".");
      if (dot !== -1 && str[str.length - 1] === "0")
        node.minFractionDigits = str.length - dot - 1;
      return node;
    },
    stringify: stringifyNumber.stringifyNumber
  };
  exports.float = float;
  exports.floatExp = floatExp;
  exports.floatNaN = floatNaN;
});

// node_modules/yaml/dist/schema/core/int.js
var require_int = __commonJS(function(exports) {
  var stringifyNumber = require_stringifyNumber();
  var intIdentify = (value) => typeof value === "bigint" || Number.isInteger(value);
  var intResolve = (str, offset, radix, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str.substring(offset), radix);
  function intStringify(node, radix, prefix) {
    const { value } = node;
    if (intIdentify(value) && value >= 0)
      return prefix + value.toString(radix);
    return stringifyNumber.stringifyNumber(node);
  }
  var intOct = {
    identify: (value) => intIdentify(value) && value >= 0,
    default: true,
    tag: "tag:yaml.org,2002:int",
    format: "OCT",
    test: /^0o[0-7]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 8, opt),
    stringify: (node) => intStringify(node, 8, "0o")
  };
  var int = {
    identify: intIdentify,
    default: true,
    tag: "tag:yaml.org,2002:int",
    test: /^[-+]?[0-9]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
    stringify: stringifyNumber.stringifyNumber
  };
  var intHex = {
    identify: (value) => intIdentify(value) && value >= 0,
    default: true,
    tag: "tag:yaml.org,2002:int",
    format: "HEX",
    test: /^0x[0-9a-fA-F]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
    stringify: (node) => intStringify(node, 16, "0x")
  };
  exports.int = int;
  exports.intHex = intHex;
  exports.intOct = intOct;
});

// node_modules/yaml/dist/schema/core/schema.js
var require_schema = __commonJS(function(exports) {
  var map = require_map();
  var _null = require_null();
  var seq = require_seq();
  var string = require_string();
  var bool = require_bool();
  var float = require_float();
  var int = require_int();
  var schema = [
    map.map,
    seq.seq,
    string.string,
    _null.nullTag,
    bool.boolTag,
    int.intOct,
    int.int,
    int.intHex,
    float.floatNaN,
    float.floatExp,
    float.float
  ];
  exports.schema = schema;
});

// node_modules/yaml/dist/schema/json/schema.js
var require_schema2 = __commonJS(function(exports) {
  var Scalar = require_Scalar();
  var map = require_map();
  var seq = require_seq();
  function intIdentify(value) {
    return typeof value === "bigint" || Number.isInteger(value);
  }
  var stringifyJSON = ({ value }) => JSON.stringify(value);
  var jsonScalars = [
    {
      identify: (value) => typeof value === "string",
      default: true,
      tag: "tag:yaml.org,2002:str",
      resolve: (str) => str,
      stringify: stringifyJSON
    },
    {
      identify: (value) => value == null,
      createNode: () => new Scalar.Scalar(null),
      default: true,
      tag: "tag:yaml.org,2002:null",
      test: /^null$/,
      resolve: () => null,
      stringify: stringifyJSON
    },
    {
      identify: (value) => typeof value === "boolean",
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^true$|^false$/,
      resolve: (str) => str === "true",
      stringify: stringifyJSON
    },
    {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      test: /^-?(?:0|[1-9][0-9]*)$/,
      resolve: (str, _onError, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str, 10),
      stringify: ({ value }) => intIdentify(value) ? value.toString() : JSON.stringify(value)
    },
    {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/,
      resolve: (str) => parseFloat(str),
      stringify: stringifyJSON
    }
  ];
  var jsonError = {
    default: true,
    tag: "",
    test: /^/,
    resolve(str, onError) {
      onError(`Unresolved plain scalar ${JSON.stringify(str)}`);
      return str;
    }
  };
  var schema = [map.map, seq.seq].concat(jsonScalars, jsonError);
  exports.schema = schema;
});

// node_modules/yaml/dist/schema/yaml-1.1/binary.js
var require_binary = __commonJS(function(exports) {
  var node_buffer = __require("buffer");
  var Scalar = require_Scalar();
  var stringifyString = require_stringifyString();
  var binary = {
    identify: (value) => value instanceof Uint8Array,
    default: false,
    tag: "tag:yaml.org,2002:binary",
    resolve(src, onError) {
      if (typeof node_buffer.Buffer === "function") {
        return node_buffer.Buffer.from(src, "base64");
      } else if (typeof atob === "function") {
        const str = atob(src.replace(/[\n\r]/g, ""));
        const buffer = new Uint8Array(str.length);
        for (let i = 0;i < str.length; ++i)
          buffer[i] = str.charCodeAt(i);
        return buffer;
      } else {
        onError("This environment does not support reading binary tags; either Buffer or atob is required");
        return src;
      }
    },
    stringify({ comment, type, value }, ctx, onComment, onChompKeep) {
      if (!value)
        return "";
      const buf = value;
      let str;
      if (typeof node_buffer.Buffer === "function") {
        str = buf instanceof node_buffer.Buffer ? buf.toString("base64") : node_buffer.Buffer.from(buf.buffer).toString("base64");
      } else if (typeof btoa === "function") {
        let s = "";
        for (let i = 0;i < buf.length; ++i)
          s += String.fromCharCode(buf[i]);
        str = btoa(s);
      } else {
        throw new Error("This environment does not support writing binary tags; either Buffer or btoa is required");
      }
      type ?? (type = Scalar.Scalar.BLOCK_LITERAL);
      if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
        const lineWidth = Math.max(ctx.options.lineWidth - ctx.indent.length, ctx.options.minContentWidth);
        const n = Math.ceil(str.length / lineWidth);
        const lines = new Array(n);
        for (let i = 0, o = 0;i < n; ++i, o += lineWidth) {
          lines[i] = str.substr(o, lineWidth);
        }
        str = lines.join(type === Scalar.Scalar.BLOCK_LITERAL ? `
` : " ");
      }
      return stringifyString.stringifyString({ comment, type, value: str }, ctx, onComment, onChompKeep);
    }
  };
  exports.binary = binary;
});

// node_modules/yaml/dist/schema/yaml-1.1/pairs.js
var require_pairs = __commonJS(function(exports) {
  var identity = require_identity();
  var Pair = require_Pair();
  var Scalar = require_Scalar();
  var YAMLSeq = require_YAMLSeq();
  function resolvePairs(seq, onError) {
    if (identity.isSeq(seq)) {
      for (let i = 0;i < seq.items.length; ++i) {
        let item = seq.items[i];
        if (identity.isPair(item))
          continue;
        else if (identity.isMap(item)) {
          if (item.items.length > 1)
            onError("Each pair must have its own sequence indicator");
          const pair = item.items[0] || new Pair.Pair(new Scalar.Scalar(null));
          if (item.commentBefore)
            pair.key.commentBefore = pair.key.commentBefore ? `${item.commentBefore}
${pair.key.commentBefore}` : item.commentBefore;
          if (item.comment) {
            const cn = pair.value ?? pair.key;
            cn.comment = cn.comment ? `${item.comment}
${cn.comment}` : item.comment;
          }
          item = pair;
        }
        seq.items[i] = identity.isPair(item) ? item : new Pair.Pair(item);
      }
    } else
      onError("Expected a sequence for this tag");
    return seq;
  }
  function createPairs(schema, iterable, ctx) {
    const { replacer } = ctx;
    const pairs = new YAMLSeq.YAMLSeq(schema);
    pairs.tag = "tag:yaml.org,2002:pairs";
    let i = 0;
    if (iterable && Symbol.iterator in Object(iterable))
      for (let it of iterable) {
        if (typeof replacer === "function")
          it = replacer.call(iterable, String(i++), it);
        let key, value;
        if (Array.isArray(it)) {
          if (it.length === 2) {
            key = it[0];
            value = it[1];
          } else
            throw new TypeError(`Expected [key, value] tuple: ${it}`);
        } else if (it && it instanceof Object) {
          const keys = Object.keys(it);
          if (keys.length === 1) {
            key = keys[0];
            value = it[key];
          } else {
            throw new TypeError(`Expected tuple with one key, not ${keys.length} keys`);
          }
        } else {
          key = it;
        }
        pairs.items.push(Pair.createPair(key, value, ctx));
      }
    return pairs;
  }
  var pairs = {
    collection: "seq",
    default: false,
    tag: "tag:yaml.org,2002:pairs",
    resolve: resolvePairs,
    createNode: createPairs
  };
  exports.createPairs = createPairs;
  exports.pairs = pairs;
  exports.resolvePairs = resolvePairs;
});

// node_modules/yaml/dist/schema/yaml-1.1/omap.js
var require_omap = __commonJS(function(exports) {
  var identity = require_identity();
  var toJS = require_toJS();
  var YAMLMap = require_YAMLMap();
  var YAMLSeq = require_YAMLSeq();
  var pairs = require_pairs();

  class YAMLOMap extends YAMLSeq.YAMLSeq {
    constructor() {
      super();
      this.add = YAMLMap.YAMLMap.prototype.add.bind(this);
      this.delete = YAMLMap.YAMLMap.prototype.delete.bind(this);
      this.get = YAMLMap.YAMLMap.prototype.get.bind(this);
      this.has = YAMLMap.YAMLMap.prototype.has.bind(this);
      this.set = YAMLMap.YAMLMap.prototype.set.bind(this);
      this.tag = YAMLOMap.tag;
    }
    toJSON(_, ctx) {
      if (!ctx)
        return super.toJSON(_);
      const map = new Map;
      if (ctx?.onCreate)
        ctx.onCreate(map);
      for (const pair of this.items) {
        let key, value;
        if (identity.isPair(pair)) {
          key = toJS.toJS(pair.key, "", ctx);
          value = toJS.toJS(pair.value, key, ctx);
        } else {
          key = toJS.toJS(pair, "", ctx);
        }
        if (map.has(key))
          throw new Error("Ordered maps must not include duplicate keys");
        map.set(key, value);
      }
      return map;
    }
    static from(schema, iterable, ctx) {
      const pairs$1 = pairs.createPairs(schema, iterable, ctx);
      const omap = new this;
      omap.items = pairs$1.items;
      return omap;
    }
  }
  YAMLOMap.tag = "tag:yaml.org,2002:omap";
  var omap = {
    collection: "seq",
    identify: (value) => value instanceof Map,
    nodeClass: YAMLOMap,
    default: false,
    tag: "tag:yaml.org,2002:omap",
    resolve(seq, onError) {
      const pairs$1 = pairs.resolvePairs(seq, onError);
      const seenKeys = [];
      for (const { key } of pairs$1.items) {
        if (identity.isScalar(key)) {
          if (seenKeys.includes(key.value)) {
            onError(`Ordered maps must not include duplicate keys: ${key.value}`);
          } else {
            seenKeys.push(key.value);
          }
        }
      }
      return Object.assign(new YAMLOMap, pairs$1);
    },
    createNode: (schema, iterable, ctx) => YAMLOMap.from(schema, iterable, ctx)
  };
  exports.YAMLOMap = YAMLOMap;
  exports.omap = omap;
});

// node_modules/yaml/dist/schema/yaml-1.1/bool.js
var require_bool2 = __commonJS(function(exports) {
  var Scalar = require_Scalar();
  function boolStringify({ value, source }, ctx) {
    const boolObj = value ? trueTag : falseTag;
    if (source && boolObj.test.test(source))
      return source;
    return value ? ctx.options.trueStr : ctx.options.falseStr;
  }
  var trueTag = {
    identify: (value) => value === true,
    default: true,
    tag: "tag:yaml.org,2002:bool",
    test: /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
    resolve: () => new Scalar.Scalar(true),
    stringify: boolStringify
  };
  var falseTag = {
    identify: (value) => value === false,
    default: true,
    tag: "tag:yaml.org,2002:bool",
    test: /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
    resolve: () => new Scalar.Scalar(false),
    stringify: boolStringify
  };
  exports.falseTag = falseTag;
  exports.trueTag = trueTag;
});

// node_modules/yaml/dist/schema/yaml-1.1/float.js
var require_float2 = __commonJS(function(exports) {
  var Scalar = require_Scalar();
  var stringifyNumber = require_stringifyNumber();
  var floatNaN = {
    identify: (value) => typeof value === "number",
    default: true,
    tag: "tag:yaml.org,2002:float",
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: (str) => str.slice(-3).toLowerCase() === "nan" ? NaN : str[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
    stringify: stringifyNumber.stringifyNumber
  };
  var floatExp = {
    identify: (value) => typeof value === "number",
    default: true,
    tag: "tag:yaml.org,2002:float",
    format: "EXP",
    test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
    resolve: (str) => parseFloat(str.replace(/_/g, "")),
    stringify(node) {
      const num = Number(node.value);
      return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
    }
  };
  var float = {
    identify: (value) => typeof value === "number",
    default: true,
    tag: "tag:yaml.org,2002:float",
    test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
    resolve(str) {
      const node = new Scalar.Scalar(parseFloat(str.replace(/_/g, "")));
      const dot = str.indexOf(".");
      if (dot !== -1) {
        const f = str.substring(dot + 1).replace(/_/g, "");
        if (f[f.length - 1] === "0")
          node.minFractionDigits = f.length;
      }
      return node;
    },
    stringify: stringifyNumber.stringifyNumber
  };
  exports.float = float;
  exports.floatExp = floatExp;
  exports.floatNaN = floatNaN;
});

// node_modules/yaml/dist/schema/yaml-1.1/int.js
var require_int2 = __commonJS(function(exports) {
  var stringifyNumber = require_stringifyNumber();
  var intIdentify = (value) => typeof value === "bigint" || Number.isInteger(value);
  function intResolve(str, offset, radix, { intAsBigInt }) {
    const sign = str[0];
    if (sign === "-" || sign === "+")
      offset += 1;
    str = str.substring(offset).replace(/_/g, "");
    if (intAsBigInt) {
      switch (radix) {
        case 2:
          str = `0b${str}`;
          break;
        case 8:
          str = `0o${str}`;
          break;
        case 16:
          str = `0x${str}`;
          break;
      }
      const n = BigInt(str);
      return sign === "-" ? BigInt(-1) * n : n;
    }
    const n = parseInt(str, radix);
    return sign === "-" ? -1 * n : n;
  }
  function intStringify(node, radix, prefix) {
    const { value } = node;
    if (intIdentify(value)) {
      const str = value.toString(radix);
      return value < 0 ? "-" + prefix + str.substr(1) : prefix + str;
    }
    return stringifyNumber.stringifyNumber(node);
  }
  var intBin = {
    identify: intIdentify,
    default: true,
    tag: "tag:yaml.org,2002:int",
    format: "BIN",
    test: /^[-+]?0b[0-1_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 2, opt),
    stringify: (node) => intStringify(node, 2, "0b")
  };
  var intOct = {
    identify: intIdentify,
    default: true,
    tag: "tag:yaml.org,2002:int",
    format: "OCT",
    test: /^[-+]?0[0-7_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 1, 8, opt),
    stringify: (node) => intStringify(node, 8, "0")
  };
  var int = {
    identify: intIdentify,
    default: true,
    tag: "tag:yaml.org,2002:int",
    test: /^[-+]?[0-9][0-9_]*$/,
    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
    stringify: stringifyNumber.stringifyNumber
  };
  var intHex = {
    identify: intIdentify,
    default: true,
    tag: "tag:yaml.org,2002:int",
    format: "HEX",
    test: /^[-+]?0x[0-9a-fA-F_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
    stringify: (node) => intStringify(node, 16, "0x")
  };
  exports.int = int;
  exports.intBin = intBin;
  exports.intHex = intHex;
  exports.intOct = intOct;
});

// node_modules/yaml/dist/schema/yaml-1.1/set.js
var require_set = __commonJS(function(exports) {
  var identity = require_identity();
  var Pair = require_Pair();
  var YAMLMap = require_YAMLMap();

  class YAMLSet extends YAMLMap.YAMLMap {
    constructor(schema) {
      super(schema);
      this.tag = YAMLSet.tag;
    }
    add(key) {
      let pair;
      if (identity.isPair(key))
        pair = key;
      else if (key && typeof key === "object" && "key" in key && "value" in key && key.value === null)
        pair = new Pair.Pair(key.key, null);
      else
        pair = new Pair.Pair(key, null);
      const prev = YAMLMap.findPair(this.items, pair.key);
      if (!prev)
        this.items.push(pair);
    }
    get(key, keepPair) {
      const pair = YAMLMap.findPair(this.items, key);
      return !keepPair && identity.isPair(pair) ? identity.isScalar(pair.key) ? pair.key.value : pair.key : pair;
    }
    set(key, value) {
      if (typeof value !== "boolean")
        throw new Error(`Expected boolean value for set(key, value) in a YAML set, not ${typeof value}`);
      const prev = YAMLMap.findPair(this.items, key);
      if (prev && !value) {
        this.items.splice(this.items.indexOf(prev), 1);
      } else if (!prev && value) {
        this.items.push(new Pair.Pair(key));
      }
    }
    toJSON(_, ctx) {
      return super.toJSON(_, ctx, Set);
    }
    toString(ctx, onComment, onChompKeep) {
      if (!ctx)
        return JSON.stringify(this);
      if (this.hasAllNullValues(true))
        return super.toString(Object.assign({}, ctx, { allNullValues: true }), onComment, onChompKeep);
      else
        throw new Error("Set items must all have null values");
    }
    static from(schema, iterable, ctx) {
      const { replacer } = ctx;
      const set = new this(schema);
      if (iterable && Symbol.iterator in Object(iterable))
        for (let value of iterable) {
          if (typeof replacer === "function")
            value = replacer.call(iterable, value, value);
          set.items.push(Pair.createPair(value, null, ctx));
        }
      return set;
    }
  }
  YAMLSet.tag = "tag:yaml.org,2002:set";
  var set = {
    collection: "map",
    identify: (value) => value instanceof Set,
    nodeClass: YAMLSet,
    default: false,
    tag: "tag:yaml.org,2002:set",
    createNode: (schema, iterable, ctx) => YAMLSet.from(schema, iterable, ctx),
    resolve(map, onError) {
      if (identity.isMap(map)) {
        if (map.hasAllNullValues(true))
          return Object.assign(new YAMLSet, map);
        else
          onError("Set items must all have null values");
      } else
        onError("Expected a mapping for this tag");
      return map;
    }
  };
  exports.YAMLSet = YAMLSet;
  exports.set = set;
});

// node_modules/yaml/dist/schema/yaml-1.1/timestamp.js
var require_timestamp = __commonJS(function(exports) {
  var stringifyNumber = require_stringifyNumber();
  function parseSexagesimal(str, asBigInt) {
    const sign = str[0];
    const parts = sign === "-" || sign === "+" ? str.substring(1) : str;
    const num = (n) => asBigInt ? BigInt(n) : Number(n);
    const res = parts.replace(/_/g, "").split(":").reduce((res, p) => res * num(60) + num(p), num(0));
    return sign === "-" ? num(-1) * res : res;
  }
  function stringifySexagesimal(node) {
    let { value } = node;
    let num = (n) => n;
    if (typeof value === "bigint")
      num = (n) => BigInt(n);
    else if (isNaN(value) || !isFinite(value))
      return stringifyNumber.stringifyNumber(node);
    let sign = "";
    if (value < 0) {
      sign = "-";
      value *= num(-1);
    }
    const _60 = num(60);
    const parts = [value % _60];
    if (value < 60) {
      parts.unshift(0);
    } else {
      value = (value - parts[0]) / _60;
      parts.unshift(value % _60);
      if (value >= 60) {
        value = (value - parts[0]) / _60;
        parts.unshift(value);
      }
    }
    return sign + parts.map((n) => String(n).padStart(2, "0")).join(":").replace(/000000\d*$/, "");
  }
  var intTime = {
    identify: (value) => typeof value === "bigint" || Number.isInteger(value),
    default: true,
    tag: "tag:yaml.org,2002:int",
    format: "TIME",
    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
    resolve: (str, _onError, { intAsBigInt }) => parseSexagesimal(str, intAsBigInt),
    stringify: stringifySexagesimal
  };
  var floatTime = {
    identify: (value) => typeof value === "number",
    default: true,
    tag: "tag:yaml.org,2002:float",
    format: "TIME",
    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
    resolve: (str) => parseSexagesimal(str, false),
    stringify: stringifySexagesimal
  };
  var timestamp = {
    identify: (value) => value instanceof Date,
    default: true,
    tag: "tag:yaml.org,2002:timestamp",
    test: RegExp("^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})" + "(?:" + "(?:t|T|[ \\t]+)" + "([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)" + "(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?" + ")?$"),
    resolve(str) {
      const match = str.match(timestamp.test);
      if (!match)
        throw new Error("!!timestamp expects a date, starting with yyyy-mm-dd");
      const [, year, month, day, hour, minute, second] = match.map(Number);
      const millisec = match[7] ? Number((match[7] + "00").substr(1, 3)) : 0;
      let date = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisec);
      const tz = match[8];
      if (tz && tz !== "Z") {
        let d = parseSexagesimal(tz, false);
        if (Math.abs(d) < 30)
          d *= 60;
        date -= 60000 * d;
      }
      return new Date(date);
    },
    stringify: ({ value }) => value?.toISOString().replace(/(T00:00:00)?\.000Z$/, "") ?? ""
  };
  exports.floatTime = floatTime;
  exports.intTime = intTime;
  exports.timestamp = timestamp;
});

// node_modules/yaml/dist/schema/yaml-1.1/schema.js
var require_schema3 = __commonJS(function(exports) {
  var map = require_map();
  var _null = require_null();
  var seq = require_seq();
  var string = require_string();
  var binary = require_binary();
  var bool = require_bool2();
  var float = require_float2();
  var int = require_int2();
  var merge = require_merge();
  var omap = require_omap();
  var pairs = require_pairs();
  var set = require_set();
  var timestamp = require_timestamp();
  var schema = [
    map.map,
    seq.seq,
    string.string,
    _null.nullTag,
    bool.trueTag,
    bool.falseTag,
    int.intBin,
    int.intOct,
    int.int,
    int.intHex,
    float.floatNaN,
    float.floatExp,
    float.float,
    binary.binary,
    merge.merge,
    omap.omap,
    pairs.pairs,
    set.set,
    timestamp.intTime,
    timestamp.floatTime,
    timestamp.timestamp
  ];
  exports.schema = schema;
});

// node_modules/yaml/dist/schema/tags.js
var require_tags = __commonJS(function(exports) {
  var map = require_map();
  var _null = require_null();
  var seq = require_seq();
  var string = require_string();
  var bool = require_bool();
  var float = require_float();
  var int = require_int();
  var schema = require_schema();
  var schema$1 = require_schema2();
  var binary = require_binary();
  var merge = require_merge();
  var omap = require_omap();
  var pairs = require_pairs();
  var schema$2 = require_schema3();
  var set = require_set();
  var timestamp = require_timestamp();
  var schemas = new Map([
    ["core", schema.schema],
    ["failsafe", [map.map, seq.seq, string.string]],
    ["json", schema$1.schema],
    ["yaml11", schema$2.schema],
    ["yaml-1.1", schema$2.schema]
  ]);
  var tagsByName = {
    binary: binary.binary,
    bool: bool.boolTag,
    float: float.float,
    floatExp: float.floatExp,
    floatNaN: float.floatNaN,
    floatTime: timestamp.floatTime,
    int: int.int,
    intHex: int.intHex,
    intOct: int.intOct,
    intTime: timestamp.intTime,
    map: map.map,
    merge: merge.merge,
    null: _null.nullTag,
    omap: omap.omap,
    pairs: pairs.pairs,
    seq: seq.seq,
    set: set.set,
    timestamp: timestamp.timestamp
  };
  var coreKnownTags = {
    "tag:yaml.org,2002:binary": binary.binary,
    "tag:yaml.org,2002:merge": merge.merge,
    "tag:yaml.org,2002:omap": omap.omap,
    "tag:yaml.org,2002:pairs": pairs.pairs,
    "tag:yaml.org,2002:set": set.set,
    "tag:yaml.org,2002:timestamp": timestamp.timestamp
  };
  function getTags(customTags, schemaName, addMergeTag) {
    const schemaTags = schemas.get(schemaName);
    if (schemaTags && !customTags) {
      return addMergeTag && !schemaTags.includes(merge.merge) ? schemaTags.concat(merge.merge) : schemaTags.slice();
    }
    let tags = schemaTags;
    if (!tags) {
      if (Array.isArray(customTags))
        tags = [];
      else {
        const keys = Array.from(schemas.keys()).filter((key) => key !== "yaml11").map((key) => JSON.stringify(key)).join(", ");
        throw new Error(`Unknown schema "${schemaName}"; use one of ${keys} or define customTags array`);
      }
    }
    if (Array.isArray(customTags)) {
      for (const tag of customTags)
        tags = tags.concat(tag);
    } else if (typeof customTags === "function") {
      tags = customTags(tags.slice());
    }
    if (addMergeTag)
      tags = tags.concat(merge.merge);
    return tags.reduce((tags, tag) => {
      const tagObj = typeof tag === "string" ? tagsByName[tag] : tag;
      if (!tagObj) {
        const tagName = JSON.stringify(tag);
        const keys = Object.keys(tagsByName).map((key) => JSON.stringify(key)).join(", ");
        throw new Error(`Unknown custom tag ${tagName}; use one of ${keys}`);
      }
      if (!tags.includes(tagObj))
        tags.push(tagObj);
      return tags;
    }, []);
  }
  exports.coreKnownTags = coreKnownTags;
  exports.getTags = getTags;
});

// node_modules/yaml/dist/schema/Schema.js
var require_Schema = __commonJS(function(exports) {
  var identity = require_identity();
  var map = require_map();
  var seq = require_seq();
  var string = require_string();
  var tags = require_tags();
  var sortMapEntriesByKey = (a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

  class Schema {
    constructor({ compat, customTags, merge, resolveKnownTags, schema, sortMapEntries, toStringDefaults }) {
      this.compat = Array.isArray(compat) ? tags.getTags(compat, "compat") : compat ? tags.getTags(null, compat) : null;
      this.name = typeof schema === "string" && schema || "core";
      this.knownTags = resolveKnownTags ? tags.coreKnownTags : {};
      this.tags = tags.getTags(customTags, this.name, merge);
      this.toStringOptions = toStringDefaults ?? null;
      Object.defineProperty(this, identity.MAP, { value: map.map });
      Object.defineProperty(this, identity.SCALAR, { value: string.string });
      Object.defineProperty(this, identity.SEQ, { value: seq.seq });
      this.sortMapEntries = typeof sortMapEntries === "function" ? sortMapEntries : sortMapEntries === true ? sortMapEntriesByKey : null;
    }
    clone() {
      const copy = Object.create(Schema.prototype, Object.getOwnPropertyDescriptors(this));
      copy.tags = this.tags.slice();
      return copy;
    }
  }
  exports.Schema = Schema;
});

// node_modules/yaml/dist/stringify/stringifyDocument.js
var require_stringifyDocument = __commonJS(function(exports) {
  var identity = require_identity();
  var stringify = require_stringify();
  var stringifyComment = require_stringifyComment();
  function stringifyDocument(doc, options) {
    const lines = [];
    let hasDirectives = options.directives === true;
    if (options.directives !== false && doc.directives) {
      const dir = doc.directives.toString(doc);
      if (dir) {
        lines.push(dir);
        hasDirectives = true;
      } else if (doc.directives.docStart)
        hasDirectives = true;
    }
    if (hasDirectives)
      lines.push("---");
    const ctx = stringify.createStringifyContext(doc, options);
    const { commentString } = ctx.options;
    if (doc.commentBefore) {
      if (lines.length !== 1)
        lines.unshift("");
      const cs = commentString(doc.commentBefore);
      lines.unshift(stringifyComment.indentComment(cs, ""));
    }
    let chompKeep = false;
    let contentComment = null;
    if (doc.contents) {
      if (identity.isNode(doc.contents)) {
        if (doc.contents.spaceBefore && hasDirectives)
          lines.push("");
        if (doc.contents.commentBefore) {
          const cs = commentString(doc.contents.commentBefore);
          lines.push(stringifyComment.indentComment(cs, ""));
        }
        ctx.forceBlockIndent = !!doc.comment;
        contentComment = doc.contents.comment;
      }
      const onChompKeep = contentComment ? undefined : () => chompKeep = true;
      let body = stringify.stringify(doc.contents, ctx, () => contentComment = null, onChompKeep);
      if (contentComment)
        body += stringifyComment.lineComment(body, "", commentString(contentComment));
      if ((body[0] === "|" || body[0] === ">") && lines[lines.length - 1] === "---") {
        lines[lines.length - 1] = `--- ${body}`;
      } else
        lines.push(body);
    } else {
      lines.push(stringify.stringify(doc.contents, ctx));
    }
    if (doc.directives?.docEnd) {
      if (doc.comment) {
        const cs = commentString(doc.comment);
        if (cs.includes(`
`)) {
          lines.push("...");
          lines.push(stringifyComment.indentComment(cs, ""));
        } else {
          lines.push(`... ${cs}`);
        }
      } else {
        lines.push("...");
      }
    } else {
      let dc = doc.comment;
      if (dc && chompKeep)
        dc = dc.replace(/^\n+/, "");
      if (dc) {
        if ((!chompKeep || contentComment) && lines[lines.length - 1] !== "")
          lines.push("");
        lines.push(stringifyComment.indentComment(commentString(dc), ""));
      }
    }
    return lines.join(`
`) + `
`;
  }
  exports.stringifyDocument = stringifyDocument;
});

// node_modules/yaml/dist/doc/Document.js
var require_Document = __commonJS(function(exports) {
  var Alias = require_Alias();
  var Collection = require_Collection();
  var identity = require_identity();
  var Pair = require_Pair();
  var toJS = require_toJS();
  var Schema = require_Schema();
  var stringifyDocument = require_stringifyDocument();
  var anchors = require_anchors();
  var applyReviver = require_applyReviver();
  var createNode = require_createNode();
  var directives = require_directives();

  class Document {
    constructor(value, replacer, options) {
      this.commentBefore = null;
      this.comment = null;
      this.errors = [];
      this.warnings = [];
      Object.defineProperty(this, identity.NODE_TYPE, { value: identity.DOC });
      let _replacer = null;
      if (typeof replacer === "function" || Array.isArray(replacer)) {
        _replacer = replacer;
      } else if (options === undefined && replacer) {
        options = replacer;
        replacer = undefined;
      }
      const opt = Object.assign({
        intAsBigInt: false,
        keepSourceTokens: false,
        logLevel: "warn",
        prettyErrors: true,
        strict: true,
        stringKeys: false,
        uniqueKeys: true,
        version: "1.2"
      }, options);
      this.options = opt;
      let { version } = opt;
      if (options?._directives) {
        this.directives = options._directives.atDocument();
        if (this.directives.yaml.explicit)
          version = this.directives.yaml.version;
      } else
        this.directives = new directives.Directives({ version });
      this.setSchema(version, options);
      this.contents = value === undefined ? null : this.createNode(value, _replacer, options);
    }
    clone() {
      const copy = Object.create(Document.prototype, {
        [identity.NODE_TYPE]: { value: identity.DOC }
      });
      copy.commentBefore = this.commentBefore;
      copy.comment = this.comment;
      copy.errors = this.errors.slice();
      copy.warnings = this.warnings.slice();
      copy.options = Object.assign({}, this.options);
      if (this.directives)
        copy.directives = this.directives.clone();
      copy.schema = this.schema.clone();
      copy.contents = identity.isNode(this.contents) ? this.contents.clone(copy.schema) : this.contents;
      if (this.range)
        copy.range = this.range.slice();
      return copy;
    }
    add(value) {
      if (assertCollection(this.contents))
        this.contents.add(value);
    }
    addIn(path, value) {
      if (assertCollection(this.contents))
        this.contents.addIn(path, value);
    }
    createAlias(node, name) {
      if (!node.anchor) {
        const prev = anchors.anchorNames(this);
        node.anchor = !name || prev.has(name) ? anchors.findNewAnchor(name || "a", prev) : name;
      }
      return new Alias.Alias(node.anchor);
    }
    createNode(value, replacer, options) {
      let _replacer = undefined;
      if (typeof replacer === "function") {
        value = replacer.call({ "": value }, "", value);
        _replacer = replacer;
      } else if (Array.isArray(replacer)) {
        const keyToStr = (v) => typeof v === "number" || v instanceof String || v instanceof Number;
        const asStr = replacer.filter(keyToStr).map(String);
        if (asStr.length > 0)
          replacer = replacer.concat(asStr);
        _replacer = replacer;
      } else if (options === undefined && replacer) {
        options = replacer;
        replacer = undefined;
      }
      const { aliasDuplicateObjects, anchorPrefix, flow, keepUndefined, onTagObj, tag } = options ?? {};
      const { onAnchor, setAnchors, sourceObjects } = anchors.createNodeAnchors(this, anchorPrefix || "a");
      const ctx = {
        aliasDuplicateObjects: aliasDuplicateObjects ?? true,
        keepUndefined: keepUndefined ?? false,
        onAnchor,
        onTagObj,
        replacer: _replacer,
        schema: this.schema,
        sourceObjects
      };
      const node = createNode.createNode(value, tag, ctx);
      if (flow && identity.isCollection(node))
        node.flow = true;
      setAnchors();
      return node;
    }
    createPair(key, value, options = {}) {
      const k = this.createNode(key, null, options);
      const v = this.createNode(value, null, options);
      return new Pair.Pair(k, v);
    }
    delete(key) {
      return assertCollection(this.contents) ? this.contents.delete(key) : false;
    }
    deleteIn(path) {
      if (Collection.isEmptyPath(path)) {
        if (this.contents == null)
          return false;
        this.contents = null;
        return true;
      }
      return assertCollection(this.contents) ? this.contents.deleteIn(path) : false;
    }
    get(key, keepScalar) {
      return identity.isCollection(this.contents) ? this.contents.get(key, keepScalar) : undefined;
    }
    getIn(path, keepScalar) {
      if (Collection.isEmptyPath(path))
        return !keepScalar && identity.isScalar(this.contents) ? this.contents.value : this.contents;
      return identity.isCollection(this.contents) ? this.contents.getIn(path, keepScalar) : undefined;
    }
    has(key) {
      return identity.isCollection(this.contents) ? this.contents.has(key) : false;
    }
    hasIn(path) {
      if (Collection.isEmptyPath(path))
        return this.contents !== undefined;
      return identity.isCollection(this.contents) ? this.contents.hasIn(path) : false;
    }
    set(key, value) {
      if (this.contents == null) {
        this.contents = Collection.collectionFromPath(this.schema, [key], value);
      } else if (assertCollection(this.contents)) {
        this.contents.set(key, value);
      }
    }
    setIn(path, value) {
      if (Collection.isEmptyPath(path)) {
        this.contents = value;
      } else if (this.contents == null) {
        this.contents = Collection.collectionFromPath(this.schema, Array.from(path), value);
      } else if (assertCollection(this.contents)) {
        this.contents.setIn(path, value);
      }
    }
    setSchema(version, options = {}) {
      if (typeof version === "number")
        version = String(version);
      let opt;
      switch (version) {
        case "1.1":
          if (this.directives)
            this.directives.yaml.version = "1.1";
          else
            this.directives = new directives.Directives({ version: "1.1" });
          opt = { resolveKnownTags: false, schema: "yaml-1.1" };
          break;
        case "1.2":
        case "next":
          if (this.directives)
            this.directives.yaml.version = version;
          else
            this.directives = new directives.Directives({ version });
          opt = { resolveKnownTags: true, schema: "core" };
          break;
        case null:
          if (this.directives)
            delete this.directives;
          opt = null;
          break;
        default: {
          const sv = JSON.stringify(version);
          throw new Error(`Expected '1.1', '1.2' or null as first argument, but found: ${sv}`);
        }
      }
      if (options.schema instanceof Object)
        this.schema = options.schema;
      else if (opt)
        this.schema = new Schema.Schema(Object.assign(opt, options));
      else
        throw new Error(`With a null YAML version, the { schema: Schema } option is required`);
    }
    toJS({ json, jsonArg, mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
      const ctx = {
        anchors: new Map,
        doc: this,
        keep: !json,
        mapAsMap: mapAsMap === true,
        mapKeyWarned: false,
        maxAliasCount: typeof maxAliasCount === "number" ? maxAliasCount : 100
      };
      const res = toJS.toJS(this.contents, jsonArg ?? "", ctx);
      if (typeof onAnchor === "function")
        for (const { count, res } of ctx.anchors.values())
          onAnchor(res, count);
      return typeof reviver === "function" ? applyReviver.applyReviver(reviver, { "": res }, "", res) : res;
    }
    toJSON(jsonArg, onAnchor) {
      return this.toJS({ json: true, jsonArg, mapAsMap: false, onAnchor });
    }
    toString(options = {}) {
      if (this.errors.length > 0)
        throw new Error("Document with errors cannot be stringified");
      if ("indent" in options && (!Number.isInteger(options.indent) || Number(options.indent) <= 0)) {
        const s = JSON.stringify(options.indent);
        throw new Error(`"indent" option must be a positive integer, not ${s}`);
      }
      return stringifyDocument.stringifyDocument(this, options);
    }
  }
  function assertCollection(contents) {
    if (identity.isCollection(contents))
      return true;
    throw new Error("Expected a YAML collection as document contents");
  }
  exports.Document = Document;
});

// node_modules/yaml/dist/errors.js
var require_errors = __commonJS(function(exports) {
  class YAMLError extends Error {
    constructor(name, pos, code, message) {
      super();
      this.name = name;
      this.code = code;
      this.message = message;
      this.pos = pos;
    }
  }

  class YAMLParseError extends YAMLError {
    constructor(pos, code, message) {
      super("YAMLParseError", pos, code, message);
    }
  }

  class YAMLWarning extends YAMLError {
    constructor(pos, code, message) {
      super("YAMLWarning", pos, code, message);
    }
  }
  var prettifyError = (src, lc) => (error) => {
    if (error.pos[0] === -1)
      return;
    error.linePos = error.pos.map((pos) => lc.linePos(pos));
    const { line, col } = error.linePos[0];
    error.message += ` at line ${line}, column ${col}`;
    let ci = col - 1;
    let lineStr = src.substring(lc.lineStarts[line - 1], lc.lineStarts[line]).replace(/[\n\r]+$/, "");
    if (ci >= 60 && lineStr.length > 80) {
      const trimStart = Math.min(ci - 39, lineStr.length - 79);
      lineStr = "…" + lineStr.substring(trimStart);
      ci -= trimStart - 1;
    }
    if (lineStr.length > 80)
      lineStr = lineStr.substring(0, 79) + "…";
    if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
      let prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
      if (prev.length > 80)
        prev = prev.substring(0, 79) + `…
`;
      lineStr = prev + lineStr;
    }
    if (/[^ ]/.test(lineStr)) {
      let count = 1;
      const end = error.linePos[1];
      if (end?.line === line && end.col > col) {
        count = Math.max(1, Math.min(end.col - col, 80 - ci));
      }
      const pointer = " ".repeat(ci) + "^".repeat(count);
      error.message += `:

${lineStr}
${pointer}
`;
    }
  };
  exports.YAMLError = YAMLError;
  exports.YAMLParseError = YAMLParseError;
  exports.YAMLWarning = YAMLWarning;
  exports.prettifyError = prettifyError;
});

// node_modules/yaml/dist/compose/resolve-props.js
var require_resolve_props = __commonJS(function(exports) {
  function resolveProps(tokens, { flow, indicator, next, offset, onError, parentIndent, startOnNewline }) {
    let spaceBefore = false;
    let atNewline = startOnNewline;
    let hasSpace = startOnNewline;
    let comment = "";
    let commentSep = "";
    let hasNewline = false;
    let reqSpace = false;
    let tab = null;
    let anchor = null;
    let tag = null;
    let newlineAfterProp = null;
    let comma = null;
    let found = null;
    let start = null;
    for (const token of tokens) {
      if (reqSpace) {
        if (token.type !== "space" && token.type !== "newline" && token.type !== "comma")
          onError(token.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space");
        reqSpace = false;
      }
      if (tab) {
        if (atNewline && token.type !== "comment" && token.type !== "newline") {
          onError(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation");
        }
        tab = null;
      }
      switch (token.type) {
        case "space":
          if (!flow && (indicator !== "doc-start" || next?.type !== "flow-collection") && token.source.includes("\t")) {
            tab = token;
          }
          hasSpace = true;
          break;
        case "comment": {
          if (!hasSpace)
            onError(token, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters");
          const cb = token.source.substring(1) || " ";
          if (!comment)
            comment = cb;
          else
            comment += commentSep + cb;
          commentSep = "";
          atNewline = false;
          break;
        }
        case "newline":
          if (atNewline) {
            if (comment)
              comment += token.source;
            else if (!found || indicator !== "seq-item-ind")
              spaceBefore = true;
          } else
            commentSep += token.source;
          atNewline = true;
          hasNewline = true;
          if (anchor || tag)
            newlineAfterProp = token;
          hasSpace = true;
          break;
        case "anchor":
          if (anchor)
            onError(token, "MULTIPLE_ANCHORS", "A node can have at most one anchor");
          if (token.source.endsWith(":"))
            onError(token.offset + token.source.length - 1, "BAD_ALIAS", "Anchor ending in : is ambiguous", true);
          anchor = token;
          start ?? (start = token.offset);
          atNewline = false;
          hasSpace = false;
          reqSpace = true;
          break;
        case "tag": {
          if (tag)
            onError(token, "MULTIPLE_TAGS", "A node can have at most one tag");
          tag = token;
          start ?? (start = token.offset);
          atNewline = false;
          hasSpace = false;
          reqSpace = true;
          break;
        }
        case indicator:
          if (anchor || tag)
            onError(token, "BAD_PROP_ORDER", `Anchors and tags must be after the ${token.source} indicator`);
          if (found)
            onError(token, "UNEXPECTED_TOKEN", `Unexpected ${token.source} in ${flow ?? "collection"}`);
          found = token;
          atNewline = indicator === "seq-item-ind" || indicator === "explicit-key-ind";
          hasSpace = false;
          break;
        case "comma":
          if (flow) {
            if (comma)
              onError(token, "UNEXPECTED_TOKEN", `Unexpected , in ${flow}`);
            comma = token;
            atNewline = false;
            hasSpace = false;
            break;
          }
        default:
          onError(token, "UNEXPECTED_TOKEN", `Unexpected ${token.type} token`);
          atNewline = false;
          hasSpace = false;
      }
    }
    const last = tokens[tokens.length - 1];
    const end = last ? last.offset + last.source.length : offset;
    if (reqSpace && next && next.type !== "space" && next.type !== "newline" && next.type !== "comma" && (next.type !== "scalar" || next.source !== "")) {
      onError(next.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space");
    }
    if (tab && (atNewline && tab.indent <= parentIndent || next?.type === "block-map" || next?.type === "block-seq"))
      onError(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation");
    return {
      comma,
      found,
      spaceBefore,
      comment,
      hasNewline,
      anchor,
      tag,
      newlineAfterProp,
      end,
      start: start ?? end
    };
  }
  exports.resolveProps = resolveProps;
});

// node_modules/yaml/dist/compose/util-contains-newline.js
var require_util_contains_newline = __commonJS(function(exports) {
  function containsNewline(key) {
    if (!key)
      return null;
    switch (key.type) {
      case "alias":
      case "scalar":
      case "double-quoted-scalar":
      case "single-quoted-scalar":
        if (key.source.includes(`
`))
          return true;
        if (key.end) {
          for (const st of key.end)
            if (st.type === "newline")
              return true;
        }
        return false;
      case "flow-collection":
        for (const it of key.items) {
          for (const st of it.start)
            if (st.type === "newline")
              return true;
          if (it.sep) {
            for (const st of it.sep)
              if (st.type === "newline")
                return true;
          }
          if (containsNewline(it.key) || containsNewline(it.value))
            return true;
        }
        return false;
      default:
        return true;
    }
  }
  exports.containsNewline = containsNewline;
});

// node_modules/yaml/dist/compose/util-flow-indent-check.js
var require_util_flow_indent_check = __commonJS(function(exports) {
  var utilContainsNewline = require_util_contains_newline();
  function flowIndentCheck(indent, fc, onError) {
    if (fc?.type === "flow-collection") {
      const end = fc.end[0];
      if (end.indent === indent && (end.source === "]" || end.source === "}") && utilContainsNewline.containsNewline(fc)) {
        const msg = "Flow end indicator should be more indented than parent";
        onError(end, "BAD_INDENT", msg, true);
      }
    }
  }
  exports.flowIndentCheck = flowIndentCheck;
});

// node_modules/yaml/dist/compose/util-map-includes.js
var require_util_map_includes = __commonJS(function(exports) {
  var identity = require_identity();
  function mapIncludes(ctx, items, search) {
    const { uniqueKeys } = ctx.options;
    if (uniqueKeys === false)
      return false;
    const isEqual = typeof uniqueKeys === "function" ? uniqueKeys : (a, b) => a === b || identity.isScalar(a) && identity.isScalar(b) && a.value === b.value;
    return items.some((pair) => isEqual(pair.key, search));
  }
  exports.mapIncludes = mapIncludes;
});

// node_modules/yaml/dist/compose/resolve-block-map.js
var require_resolve_block_map = __commonJS(function(exports) {
  var Pair = require_Pair();
  var YAMLMap = require_YAMLMap();
  var resolveProps = require_resolve_props();
  var utilContainsNewline = require_util_contains_newline();
  var utilFlowIndentCheck = require_util_flow_indent_check();
  var utilMapIncludes = require_util_map_includes();
  var startColMsg = "All mapping items must start at the same column";
  function resolveBlockMap({ composeNode, composeEmptyNode }, ctx, bm, onError, tag) {
    const NodeClass = tag?.nodeClass ?? YAMLMap.YAMLMap;
    const map = new NodeClass(ctx.schema);
    if (ctx.atRoot)
      ctx.atRoot = false;
    let offset = bm.offset;
    let commentEnd = null;
    for (const collItem of bm.items) {
      const { start, key, sep, value } = collItem;
      const keyProps = resolveProps.resolveProps(start, {
        indicator: "explicit-key-ind",
        next: key ?? sep?.[0],
        offset,
        onError,
        parentIndent: bm.indent,
        startOnNewline: true
      });
      const implicitKey = !keyProps.found;
      if (implicitKey) {
        if (key) {
          if (key.type === "block-seq")
            onError(offset, "BLOCK_AS_IMPLICIT_KEY", "A block sequence may not be used as an implicit map key");
          else if ("indent" in key && key.indent !== bm.indent)
            onError(offset, "BAD_INDENT", startColMsg);
        }
        if (!keyProps.anchor && !keyProps.tag && !sep) {
          commentEnd = keyProps.end;
          if (keyProps.comment) {
            if (map.comment)
              map.comment += `
` + keyProps.comment;
            else
              map.comment = keyProps.comment;
          }
          continue;
        }
        if (keyProps.newlineAfterProp || utilContainsNewline.containsNewline(key)) {
          onError(key ?? start[start.length - 1], "MULTILINE_IMPLICIT_KEY", "Implicit keys need to be on a single line");
        }
      } else if (keyProps.found?.indent !== bm.indent) {
        onError(offset, "BAD_INDENT", startColMsg);
      }
      ctx.atKey = true;
      const keyStart = keyProps.end;
      const keyNode = key ? composeNode(ctx, key, keyProps, onError) : composeEmptyNode(ctx, keyStart, start, null, keyProps, onError);
      if (ctx.schema.compat)
        utilFlowIndentCheck.flowIndentCheck(bm.indent, key, onError);
      ctx.atKey = false;
      if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
        onError(keyStart, "DUPLICATE_KEY", "Map keys must be unique");
      const valueProps = resolveProps.resolveProps(sep ?? [], {
        indicator: "map-value-ind",
        next: value,
        offset: keyNode.range[2],
        onError,
        parentIndent: bm.indent,
        startOnNewline: !key || key.type === "block-scalar"
      });
      offset = valueProps.end;
      if (valueProps.found) {
        if (implicitKey) {
          if (value?.type === "block-map" && !valueProps.hasNewline)
            onError(offset, "BLOCK_AS_IMPLICIT_KEY", "Nested mappings are not allowed in compact mappings");
          if (ctx.options.strict && keyProps.start < valueProps.found.offset - 1024)
            onError(keyNode.range, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit block mapping key");
        }
        const valueNode = value ? composeNode(ctx, value, valueProps, onError) : composeEmptyNode(ctx, offset, sep, null, valueProps, onError);
        if (ctx.schema.compat)
          utilFlowIndentCheck.flowIndentCheck(bm.indent, value, onError);
        offset = valueNode.range[2];
        const pair = new Pair.Pair(keyNode, valueNode);
        if (ctx.options.keepSourceTokens)
          pair.srcToken = collItem;
        map.items.push(pair);
      } else {
        if (implicitKey)
          onError(keyNode.range, "MISSING_CHAR", "Implicit map keys need to be followed by map values");
        if (valueProps.comment) {
          if (keyNode.comment)
            keyNode.comment += `
` + valueProps.comment;
          else
            keyNode.comment = valueProps.comment;
        }
        const pair = new Pair.Pair(keyNode);
        if (ctx.options.keepSourceTokens)
          pair.srcToken = collItem;
        map.items.push(pair);
      }
    }
    if (commentEnd && commentEnd < offset)
      onError(commentEnd, "IMPOSSIBLE", "Map comment with trailing content");
    map.range = [bm.offset, offset, commentEnd ?? offset];
    return map;
  }
  exports.resolveBlockMap = resolveBlockMap;
});

// node_modules/yaml/dist/compose/resolve-block-seq.js
var require_resolve_block_seq = __commonJS(function(exports) {
  var YAMLSeq = require_YAMLSeq();
  var resolveProps = require_resolve_props();
  var utilFlowIndentCheck = require_util_flow_indent_check();
  function resolveBlockSeq({ composeNode, composeEmptyNode }, ctx, bs, onError, tag) {
    const NodeClass = tag?.nodeClass ?? YAMLSeq.YAMLSeq;
    const seq = new NodeClass(ctx.schema);
    if (ctx.atRoot)
      ctx.atRoot = false;
    if (ctx.atKey)
      ctx.atKey = false;
    let offset = bs.offset;
    let commentEnd = null;
    for (const { start, value } of bs.items) {
      const props = resolveProps.resolveProps(start, {
        indicator: "seq-item-ind",
        next: value,
        offset,
        onError,
        parentIndent: bs.indent,
        startOnNewline: true
      });
      if (!props.found) {
        if (props.anchor || props.tag || value) {
          if (value?.type === "block-seq")
            onError(props.end, "BAD_INDENT", "All sequence items must start at the same column");
          else
            onError(offset, "MISSING_CHAR", "Sequence item without - indicator");
        } else {
          commentEnd = props.end;
          if (props.comment)
            seq.comment = props.comment;
          continue;
        }
      }
      const node = value ? composeNode(ctx, value, props, onError) : composeEmptyNode(ctx, props.end, start, null, props, onError);
      if (ctx.schema.compat)
        utilFlowIndentCheck.flowIndentCheck(bs.indent, value, onError);
      offset = node.range[2];
      seq.items.push(node);
    }
    seq.range = [bs.offset, offset, commentEnd ?? offset];
    return seq;
  }
  exports.resolveBlockSeq = resolveBlockSeq;
});

// node_modules/yaml/dist/compose/resolve-end.js
var require_resolve_end = __commonJS(function(exports) {
  function resolveEnd(end, offset, reqSpace, onError) {
    let comment = "";
    if (end) {
      let hasSpace = false;
      let sep = "";
      for (const token of end) {
        const { source, type } = token;
        switch (type) {
          case "space":
            hasSpace = true;
            break;
          case "comment": {
            if (reqSpace && !hasSpace)
              onError(token, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters");
            const cb = source.substring(1) || " ";
            if (!comment)
              comment = cb;
            else
              comment += sep + cb;
            sep = "";
            break;
          }
          case "newline":
            if (comment)
              sep += source;
            hasSpace = true;
            break;
          default:
            onError(token, "UNEXPECTED_TOKEN", `Unexpected ${type} at node end`);
        }
        offset += source.length;
      }
    }
    return { comment, offset };
  }
  exports.resolveEnd = resolveEnd;
});

// node_modules/yaml/dist/compose/resolve-flow-collection.js
var require_resolve_flow_collection = __commonJS(function(exports) {
  var identity = require_identity();
  var Pair = require_Pair();
  var YAMLMap = require_YAMLMap();
  var YAMLSeq = require_YAMLSeq();
  var resolveEnd = require_resolve_end();
  var resolveProps = require_resolve_props();
  var utilContainsNewline = require_util_contains_newline();
  var utilMapIncludes = require_util_map_includes();
  var blockMsg = "Block collections are not allowed within flow collections";
  var isBlock = (token) => token && (token.type === "block-map" || token.type === "block-seq");
  function resolveFlowCollection({ composeNode, composeEmptyNode }, ctx, fc, onError, tag) {
    const isMap = fc.start.source === "{";
    const fcName = isMap ? "flow map" : "flow sequence";
    const NodeClass = tag?.nodeClass ?? (isMap ? YAMLMap.YAMLMap : YAMLSeq.YAMLSeq);
    const coll = new NodeClass(ctx.schema);
    coll.flow = true;
    const atRoot = ctx.atRoot;
    if (atRoot)
      ctx.atRoot = false;
    if (ctx.atKey)
      ctx.atKey = false;
    let offset = fc.offset + fc.start.source.length;
    for (let i = 0;i < fc.items.length; ++i) {
      const collItem = fc.items[i];
      const { start, key, sep, value } = collItem;
      const props = resolveProps.resolveProps(start, {
        flow: fcName,
        indicator: "explicit-key-ind",
        next: key ?? sep?.[0],
        offset,
        onError,
        parentIndent: fc.indent,
        startOnNewline: false
      });
      if (!props.found) {
        if (!props.anchor && !props.tag && !sep && !value) {
          if (i === 0 && props.comma)
            onError(props.comma, "UNEXPECTED_TOKEN", `Unexpected , in ${fcName}`);
          else if (i < fc.items.length - 1)
            onError(props.start, "UNEXPECTED_TOKEN", `Unexpected empty item in ${fcName}`);
          if (props.comment) {
            if (coll.comment)
              coll.comment += `
` + props.comment;
            else
              coll.comment = props.comment;
          }
          offset = props.end;
          continue;
        }
        if (!isMap && ctx.options.strict && utilContainsNewline.containsNewline(key))
          onError(key, "MULTILINE_IMPLICIT_KEY", "Implicit keys of flow sequence pairs need to be on a single line");
      }
      if (i === 0) {
        if (props.comma)
          onError(props.comma, "UNEXPECTED_TOKEN", `Unexpected , in ${fcName}`);
      } else {
        if (!props.comma)
          onError(props.start, "MISSING_CHAR", `Missing , between ${fcName} items`);
        if (props.comment) {
          let prevItemComment = "";
          loop:
            for (const st of start) {
              switch (st.type) {
                case "comma":
                case "space":
                  break;
                case "comment":
                  prevItemComment = st.source.substring(1);
                  break loop;
                default:
                  break loop;
              }
            }
          if (prevItemComment) {
            let prev = coll.items[coll.items.length - 1];
            if (identity.isPair(prev))
              prev = prev.value ?? prev.key;
            if (prev.comment)
              prev.comment += `
` + prevItemComment;
            else
              prev.comment = prevItemComment;
            props.comment = props.comment.substring(prevItemComment.length + 1);
          }
        }
      }
      if (!isMap && !sep && !props.found) {
        const valueNode = value ? composeNode(ctx, value, props, onError) : composeEmptyNode(ctx, props.end, sep, null, props, onError);
        coll.items.push(valueNode);
        offset = valueNode.range[2];
        if (isBlock(value))
          onError(valueNode.range, "BLOCK_IN_FLOW", blockMsg);
      } else {
        ctx.atKey = true;
        const keyStart = props.end;
        const keyNode = key ? composeNode(ctx, key, props, onError) : composeEmptyNode(ctx, keyStart, start, null, props, onError);
        if (isBlock(key))
          onError(keyNode.range, "BLOCK_IN_FLOW", blockMsg);
        ctx.atKey = false;
        const valueProps = resolveProps.resolveProps(sep ?? [], {
          flow: fcName,
          indicator: "map-value-ind",
          next: value,
          offset: keyNode.range[2],
          onError,
          parentIndent: fc.indent,
          startOnNewline: false
        });
        if (valueProps.found) {
          if (!isMap && !props.found && ctx.options.strict) {
            if (sep)
              for (const st of sep) {
                if (st === valueProps.found)
                  break;
                if (st.type === "newline") {
                  onError(st, "MULTILINE_IMPLICIT_KEY", "Implicit keys of flow sequence pairs need to be on a single line");
                  break;
                }
              }
            if (props.start < valueProps.found.offset - 1024)
              onError(valueProps.found, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit flow sequence key");
          }
        } else if (value) {
          if ("source" in value && value.source?.[0] === ":")
            onError(value, "MISSING_CHAR", `Missing space after : in ${fcName}`);
          else
            onError(valueProps.start, "MISSING_CHAR", `Missing , or : between ${fcName} items`);
        }
        const valueNode = value ? composeNode(ctx, value, valueProps, onError) : valueProps.found ? composeEmptyNode(ctx, valueProps.end, sep, null, valueProps, onError) : null;
        if (valueNode) {
          if (isBlock(value))
            onError(valueNode.range, "BLOCK_IN_FLOW", blockMsg);
        } else if (valueProps.comment) {
          if (keyNode.comment)
            keyNode.comment += `
` + valueProps.comment;
          else
            keyNode.comment = valueProps.comment;
        }
        const pair = new Pair.Pair(keyNode, valueNode);
        if (ctx.options.keepSourceTokens)
          pair.srcToken = collItem;
        if (isMap) {
          const map = coll;
          if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
            onError(keyStart, "DUPLICATE_KEY", "Map keys must be unique");
          map.items.push(pair);
        } else {
          const map = new YAMLMap.YAMLMap(ctx.schema);
          map.flow = true;
          map.items.push(pair);
          const endRange = (valueNode ?? keyNode).range;
          map.range = [keyNode.range[0], endRange[1], endRange[2]];
          coll.items.push(map);
        }
        offset = valueNode ? valueNode.range[2] : valueProps.end;
      }
    }
    const expectedEnd = isMap ? "}" : "]";
    const [ce, ...ee] = fc.end;
    let cePos = offset;
    if (ce?.source === expectedEnd)
      cePos = ce.offset + ce.source.length;
    else {
      const name = fcName[0].toUpperCase() + fcName.substring(1);
      const msg = atRoot ? `${name} must end with a ${expectedEnd}` : `${name} in block collection must be sufficiently indented and end with a ${expectedEnd}`;
      onError(offset, atRoot ? "MISSING_CHAR" : "BAD_INDENT", msg);
      if (ce && ce.source.length !== 1)
        ee.unshift(ce);
    }
    if (ee.length > 0) {
      const end = resolveEnd.resolveEnd(ee, cePos, ctx.options.strict, onError);
      if (end.comment) {
        if (coll.comment)
          coll.comment += `
` + end.comment;
        else
          coll.comment = end.comment;
      }
      coll.range = [fc.offset, cePos, end.offset];
    } else {
      coll.range = [fc.offset, cePos, cePos];
    }
    return coll;
  }
  exports.resolveFlowCollection = resolveFlowCollection;
});

// node_modules/yaml/dist/compose/compose-collection.js
var require_compose_collection = __commonJS(function(exports) {
  var identity = require_identity();
  var Scalar = require_Scalar();
  var YAMLMap = require_YAMLMap();
  var YAMLSeq = require_YAMLSeq();
  var resolveBlockMap = require_resolve_block_map();
  var resolveBlockSeq = require_resolve_block_seq();
  var resolveFlowCollection = require_resolve_flow_collection();
  function resolveCollection(CN, ctx, token, onError, tagName, tag) {
    const coll = token.type === "block-map" ? resolveBlockMap.resolveBlockMap(CN, ctx, token, onError, tag) : token.type === "block-seq" ? resolveBlockSeq.resolveBlockSeq(CN, ctx, token, onError, tag) : resolveFlowCollection.resolveFlowCollection(CN, ctx, token, onError, tag);
    const Coll = coll.constructor;
    if (tagName === "!" || tagName === Coll.tagName) {
      coll.tag = Coll.tagName;
      return coll;
    }
    if (tagName)
      coll.tag = tagName;
    return coll;
  }
  function composeCollection(CN, ctx, token, props, onError) {
    const tagToken = props.tag;
    const tagName = !tagToken ? null : ctx.directives.tagName(tagToken.source, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg));
    if (token.type === "block-seq") {
      const { anchor, newlineAfterProp: nl } = props;
      const lastProp = anchor && tagToken ? anchor.offset > tagToken.offset ? anchor : tagToken : anchor ?? tagToken;
      if (lastProp && (!nl || nl.offset < lastProp.offset)) {
        const message = "Missing newline after block sequence props";
        onError(lastProp, "MISSING_CHAR", message);
      }
    }
    const expType = token.type === "block-map" ? "map" : token.type === "block-seq" ? "seq" : token.start.source === "{" ? "map" : "seq";
    if (!tagToken || !tagName || tagName === "!" || tagName === YAMLMap.YAMLMap.tagName && expType === "map" || tagName === YAMLSeq.YAMLSeq.tagName && expType === "seq") {
      return resolveCollection(CN, ctx, token, onError, tagName);
    }
    let tag = ctx.schema.tags.find((t) => t.tag === tagName && t.collection === expType);
    if (!tag) {
      const kt = ctx.schema.knownTags[tagName];
      if (kt?.collection === expType) {
        ctx.schema.tags.push(Object.assign({}, kt, { default: false }));
        tag = kt;
      } else {
        if (kt) {
          onError(tagToken, "BAD_COLLECTION_TYPE", `${kt.tag} used for ${expType} collection, but expects ${kt.collection ?? "scalar"}`, true);
        } else {
          onError(tagToken, "TAG_RESOLVE_FAILED", `Unresolved tag: ${tagName}`, true);
        }
        return resolveCollection(CN, ctx, token, onError, tagName);
      }
    }
    const coll = resolveCollection(CN, ctx, token, onError, tagName, tag);
    const res = tag.resolve?.(coll, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg), ctx.options) ?? coll;
    const node = identity.isNode(res) ? res : new Scalar.Scalar(res);
    node.range = coll.range;
    node.tag = tagName;
    if (tag?.format)
      node.format = tag.format;
    return node;
  }
  exports.composeCollection = composeCollection;
});

// node_modules/yaml/dist/compose/resolve-block-scalar.js
var require_resolve_block_scalar = __commonJS(function(exports) {
  var Scalar = require_Scalar();
  function resolveBlockScalar(ctx, scalar, onError) {
    const start = scalar.offset;
    const header = parseBlockScalarHeader(scalar, ctx.options.strict, onError);
    if (!header)
      return { value: "", type: null, comment: "", range: [start, start, start] };
    const type = header.mode === ">" ? Scalar.Scalar.BLOCK_FOLDED : Scalar.Scalar.BLOCK_LITERAL;
    const lines = scalar.source ? splitLines(scalar.source) : [];
    let chompStart = lines.length;
    for (let i = lines.length - 1;i >= 0; --i) {
      const content = lines[i][1];
      if (content === "" || content === "\r")
        chompStart = i;
      else
        break;
    }
    if (chompStart === 0) {
      const value = header.chomp === "+" && lines.length > 0 ? `
`.repeat(Math.max(1, lines.length - 1)) : "";
      let end = start + header.length;
      if (scalar.source)
        end += scalar.source.length;
      return { value, type, comment: header.comment, range: [start, end, end] };
    }
    let trimIndent = scalar.indent + header.indent;
    let offset = scalar.offset + header.length;
    let contentStart = 0;
    for (let i = 0;i < chompStart; ++i) {
      const [indent, content] = lines[i];
      if (content === "" || content === "\r") {
        if (header.indent === 0 && indent.length > trimIndent)
          trimIndent = indent.length;
      } else {
        if (indent.length < trimIndent) {
          const message = "Block scalars with more-indented leading empty lines must use an explicit indentation indicator";
          onError(offset + indent.length, "MISSING_CHAR", message);
        }
        if (header.indent === 0)
          trimIndent = indent.length;
        contentStart = i;
        if (trimIndent === 0 && !ctx.atRoot) {
          const message = "Block scalar values in collections must be indented";
          onError(offset, "BAD_INDENT", message);
        }
        break;
      }
      offset += indent.length + content.length + 1;
    }
    for (let i = lines.length - 1;i >= chompStart; --i) {
      if (lines[i][0].length > trimIndent)
        chompStart = i + 1;
    }
    let value = "";
    let sep = "";
    let prevMoreIndented = false;
    for (let i = 0;i < contentStart; ++i)
      value += lines[i][0].slice(trimIndent) + `
`;
    for (let i = contentStart;i < chompStart; ++i) {
      let [indent, content] = lines[i];
      offset += indent.length + content.length + 1;
      const crlf = content[content.length - 1] === "\r";
      if (crlf)
        content = content.slice(0, -1);
      if (content && indent.length < trimIndent) {
        const src = header.indent ? "explicit indentation indicator" : "first line";
        const message = `Block scalar lines must not be less indented than their ${src}`;
        onError(offset - content.length - (crlf ? 2 : 1), "BAD_INDENT", message);
        indent = "";
      }
      if (type === Scalar.Scalar.BLOCK_LITERAL) {
        value += sep + indent.slice(trimIndent) + content;
        sep = `
`;
      } else if (indent.length > trimIndent || content[0] === "\t") {
        if (sep === " ")
          sep = `
`;
        else if (!prevMoreIndented && sep === `
`)
          sep = `

`;
        value += sep + indent.slice(trimIndent) + content;
        sep = `
`;
        prevMoreIndented = true;
      } else if (content === "") {
        if (sep === `
`)
          value += `
`;
        else
          sep = `
`;
      } else {
        value += sep + content;
        sep = " ";
        prevMoreIndented = false;
      }
    }
    switch (header.chomp) {
      case "-":
        break;
      case "+":
        for (let i = chompStart;i < lines.length; ++i)
          value += `
` + lines[i][0].slice(trimIndent);
        if (value[value.length - 1] !== `
`)
          value += `
`;
        break;
      default:
        value += `
`;
    }
    const end = start + header.length + scalar.source.length;
    return { value, type, comment: header.comment, range: [start, end, end] };
  }
  function parseBlockScalarHeader({ offset, props }, strict, onError) {
    if (props[0].type !== "block-scalar-header") {
      onError(props[0], "IMPOSSIBLE", "Block scalar header not found");
      return null;
    }
    const { source } = props[0];
    const mode = source[0];
    let indent = 0;
    let chomp = "";
    let error = -1;
    for (let i = 1;i < source.length; ++i) {
      const ch = source[i];
      if (!chomp && (ch === "-" || ch === "+"))
        chomp = ch;
      else {
        const n = Number(ch);
        if (!indent && n)
          indent = n;
        else if (error === -1)
          error = offset + i;
      }
    }
    if (error !== -1)
      onError(error, "UNEXPECTED_TOKEN", `Block scalar header includes extra characters: ${source}`);
    let hasSpace = false;
    let comment = "";
    let length = source.length;
    for (let i = 1;i < props.length; ++i) {
      const token = props[i];
      switch (token.type) {
        case "space":
          hasSpace = true;
        case "newline":
          length += token.source.length;
          break;
        case "comment":
          if (strict && !hasSpace) {
            const message = "Comments must be separated from other tokens by white space characters";
            onError(token, "MISSING_CHAR", message);
          }
          length += token.source.length;
          comment = token.source.substring(1);
          break;
        case "error":
          onError(token, "UNEXPECTED_TOKEN", token.message);
          length += token.source.length;
          break;
        default: {
          const message = `Unexpected token in block scalar header: ${token.type}`;
          onError(token, "UNEXPECTED_TOKEN", message);
          const ts = token.source;
          if (ts && typeof ts === "string")
            length += ts.length;
        }
      }
    }
    return { mode, indent, chomp, comment, length };
  }
  function splitLines(source) {
    const split = source.split(/\n( *)/);
    const first = split[0];
    const m = first.match(/^( *)/);
    const line0 = m?.[1] ? [m[1], first.slice(m[1].length)] : ["", first];
    const lines = [line0];
    for (let i = 1;i < split.length; i += 2)
      lines.push([split[i], split[i + 1]]);
    return lines;
  }
  exports.resolveBlockScalar = resolveBlockScalar;
});

// node_modules/yaml/dist/compose/resolve-flow-scalar.js
var require_resolve_flow_scalar = __commonJS(function(exports) {
  var Scalar = require_Scalar();
  var resolveEnd = require_resolve_end();
  function resolveFlowScalar(scalar, strict, onError) {
    const { offset, type, source, end } = scalar;
    let _type;
    let value;
    const _onError = (rel, code, msg) => onError(offset + rel, code, msg);
    switch (type) {
      case "scalar":
        _type = Scalar.Scalar.PLAIN;
        value = plainValue(source, _onError);
        break;
      case "single-quoted-scalar":
        _type = Scalar.Scalar.QUOTE_SINGLE;
        value = singleQuotedValue(source, _onError);
        break;
      case "double-quoted-scalar":
        _type = Scalar.Scalar.QUOTE_DOUBLE;
        value = doubleQuotedValue(source, _onError);
        break;
      default:
        onError(scalar, "UNEXPECTED_TOKEN", `Expected a flow scalar value, but found: ${type}`);
        return {
          value: "",
          type: null,
          comment: "",
          range: [offset, offset + source.length, offset + source.length]
        };
    }
    const valueEnd = offset + source.length;
    const re = resolveEnd.resolveEnd(end, valueEnd, strict, onError);
    return {
      value,
      type: _type,
      comment: re.comment,
      range: [offset, valueEnd, re.offset]
    };
  }
  function plainValue(source, onError) {
    let badChar = "";
    switch (source[0]) {
      case "\t":
        badChar = "a tab character";
        break;
      case ",":
        badChar = "flow indicator character ,";
        break;
      case "%":
        badChar = "directive indicator character %";
        break;
      case "|":
      case ">": {
        badChar = `block scalar indicator ${source[0]}`;
        break;
      }
      case "@":
      case "`": {
        badChar = `reserved character ${source[0]}`;
        break;
      }
    }
    if (badChar)
      onError(0, "BAD_SCALAR_START", `Plain value cannot start with ${badChar}`);
    return unfoldLines(source);
  }
  function singleQuotedValue(source, onError) {
    if (source[source.length - 1] !== "'" || source.length === 1)
      onError(source.length, "MISSING_CHAR", "Missing closing 'quote");
    return unfoldLines(source.slice(1, -1)).replace(/''/g, "'");
  }
  function unfoldLines(source) {
    const line = /(.*?)\r?\n/sy;
    let match = line.exec(source);
    if (!match)
      return source;
    let trimEnd, trimBoth;
    try {
      trimEnd = new RegExp("(?<![ \t])[ \t]+$");
      trimBoth = new RegExp("^[ \t]+|(?<![ \t])[ \t]+$", "g");
    } catch {
      trimEnd = /[ \t]+$/;
      trimBoth = /^[ \t]+|[ \t]+$/g;
    }
    let res = match[1].replace(trimEnd, "");
    let sep = " ";
    let pos = line.lastIndex;
    while (match = line.exec(source)) {
      const lm = match[1].replace(trimBoth, "");
      if (lm === "") {
        if (sep === `
`)
          res += sep;
        else
          sep = `
`;
      } else {
        res += sep + lm;
        sep = " ";
      }
      pos = line.lastIndex;
    }
    const last = /[ \t]*(.*)/sy;
    last.lastIndex = pos;
    match = last.exec(source);
    return res + sep + (match?.[1] ?? "");
  }
  function doubleQuotedValue(source, onError) {
    let res = "";
    for (let i = 1;i < source.length - 1; ++i) {
      const ch = source[i];
      if (ch === "\r" && source[i + 1] === `
`)
        continue;
      if (ch === `
`) {
        const { fold, offset } = foldNewline(source, i);
        res += fold;
        i = offset;
      } else if (ch === "\\") {
        let next = source[++i];
        const cc = escapeCodes[next];
        if (cc)
          res += cc;
        else if (next === `
`) {
          next = source[i + 1];
          while (next === " " || next === "\t")
            next = source[++i + 1];
        } else if (next === "\r" && source[i + 1] === `
`) {
          next = source[++i + 1];
          while (next === " " || next === "\t")
            next = source[++i + 1];
        } else if (next === "x" || next === "u" || next === "U") {
          const length = next === "x" ? 2 : next === "u" ? 4 : 8;
          res += parseCharCode(source, i + 1, length, onError);
          i += length;
        } else {
          const raw = source.substr(i - 1, 2);
          onError(i - 1, "BAD_DQ_ESCAPE", `Invalid escape sequence ${raw}`);
          res += raw;
        }
      } else if (ch === " " || ch === "\t") {
        const wsStart = i;
        let next = source[i + 1];
        while (next === " " || next === "\t")
          next = source[++i + 1];
        if (next !== `
` && !(next === "\r" && source[i + 2] === `
`))
          res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
      } else {
        res += ch;
      }
    }
    if (source[source.length - 1] !== '"' || source.length === 1)
      onError(source.length, "MISSING_CHAR", 'Missing closing "quote');
    return res;
  }
  function foldNewline(source, offset) {
    let fold = "";
    let ch = source[offset + 1];
    while (ch === " " || ch === "\t" || ch === `
` || ch === "\r") {
      if (ch === "\r" && source[offset + 2] !== `
`)
        break;
      if (ch === `
`)
        fold += `
`;
      offset += 1;
      ch = source[offset + 1];
    }
    if (!fold)
      fold = " ";
    return { fold, offset };
  }
  var escapeCodes = {
    "0": "\x00",
    a: "\x07",
    b: "\b",
    e: "\x1B",
    f: "\f",
    n: `
`,
    r: "\r",
    t: "\t",
    v: "\v",
    N: "",
    _: " ",
    L: "\u2028",
    P: "\u2029",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "\t": "\t"
  };
  function parseCharCode(source, offset, length, onError) {
    const cc = source.substr(offset, length);
    const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
    const code = ok ? parseInt(cc, 16) : NaN;
    try {
      return String.fromCodePoint(code);
    } catch {
      const raw = source.substr(offset - 2, length + 2);
      onError(offset - 2, "BAD_DQ_ESCAPE", `Invalid escape sequence ${raw}`);
      return raw;
    }
  }
  exports.resolveFlowScalar = resolveFlowScalar;
});

// node_modules/yaml/dist/compose/compose-scalar.js
var require_compose_scalar = __commonJS(function(exports) {
  var identity = require_identity();
  var Scalar = require_Scalar();
  var resolveBlockScalar = require_resolve_block_scalar();
  var resolveFlowScalar = require_resolve_flow_scalar();
  function composeScalar(ctx, token, tagToken, onError) {
    const { value, type, comment, range } = token.type === "block-scalar" ? resolveBlockScalar.resolveBlockScalar(ctx, token, onError) : resolveFlowScalar.resolveFlowScalar(token, ctx.options.strict, onError);
    const tagName = tagToken ? ctx.directives.tagName(tagToken.source, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg)) : null;
    let tag;
    if (ctx.options.stringKeys && ctx.atKey) {
      tag = ctx.schema[identity.SCALAR];
    } else if (tagName)
      tag = findScalarTagByName(ctx.schema, value, tagName, tagToken, onError);
    else if (token.type === "scalar")
      tag = findScalarTagByTest(ctx, value, token, onError);
    else
      tag = ctx.schema[identity.SCALAR];
    let scalar;
    try {
      const res = tag.resolve(value, (msg) => onError(tagToken ?? token, "TAG_RESOLVE_FAILED", msg), ctx.options);
      scalar = identity.isScalar(res) ? res : new Scalar.Scalar(res);
    } catch (error) {
      const msg = error instanceof Error ? error.message : String(error);
      onError(tagToken ?? token, "TAG_RESOLVE_FAILED", msg);
      scalar = new Scalar.Scalar(value);
    }
    scalar.range = range;
    scalar.source = value;
    if (type)
      scalar.type = type;
    if (tagName)
      scalar.tag = tagName;
    if (tag.format)
      scalar.format = tag.format;
    if (comment)
      scalar.comment = comment;
    return scalar;
  }
  function findScalarTagByName(schema, value, tagName, tagToken, onError) {
    if (tagName === "!")
      return schema[identity.SCALAR];
    const matchWithTest = [];
    for (const tag of schema.tags) {
      if (!tag.collection && tag.tag === tagName) {
        if (tag.default && tag.test)
          matchWithTest.push(tag);
        else
          return tag;
      }
    }
    for (const tag of matchWithTest)
      if (tag.test?.test(value))
        return tag;
    const kt = schema.knownTags[tagName];
    if (kt && !kt.collection) {
      schema.tags.push(Object.assign({}, kt, { default: false, test: undefined }));
      return kt;
    }
    onError(tagToken, "TAG_RESOLVE_FAILED", `Unresolved tag: ${tagName}`, tagName !== "tag:yaml.org,2002:str");
    return schema[identity.SCALAR];
  }
  function findScalarTagByTest({ atKey, directives, schema }, value, token, onError) {
    const tag = schema.tags.find((tag) => (tag.default === true || atKey && tag.default === "key") && tag.test?.test(value)) || schema[identity.SCALAR];
    if (schema.compat) {
      const compat = schema.compat.find((tag) => tag.default && tag.test?.test(value)) ?? schema[identity.SCALAR];
      if (tag.tag !== compat.tag) {
        const ts = directives.tagString(tag.tag);
        const cs = directives.tagString(compat.tag);
        const msg = `Value may be parsed as either ${ts} or ${cs}`;
        onError(token, "TAG_RESOLVE_FAILED", msg, true);
      }
    }
    return tag;
  }
  exports.composeScalar = composeScalar;
});

// node_modules/yaml/dist/compose/util-empty-scalar-position.js
var require_util_empty_scalar_position = __commonJS(function(exports) {
  function emptyScalarPosition(offset, before, pos) {
    if (before) {
      pos ?? (pos = before.length);
      for (let i = pos - 1;i >= 0; --i) {
        let st = before[i];
        switch (st.type) {
          case "space":
          case "comment":
          case "newline":
            offset -= st.source.length;
            continue;
        }
        st = before[++i];
        while (st?.type === "space") {
          offset += st.source.length;
          st = before[++i];
        }
        break;
      }
    }
    return offset;
  }
  exports.emptyScalarPosition = emptyScalarPosition;
});

// node_modules/yaml/dist/compose/compose-node.js
var require_compose_node = __commonJS(function(exports) {
  var Alias = require_Alias();
  var identity = require_identity();
  var composeCollection = require_compose_collection();
  var composeScalar = require_compose_scalar();
  var resolveEnd = require_resolve_end();
  var utilEmptyScalarPosition = require_util_empty_scalar_position();
  var CN = { composeNode, composeEmptyNode };
  function composeNode(ctx, token, props, onError) {
    const atKey = ctx.atKey;
    const { spaceBefore, comment, anchor, tag } = props;
    let node;
    let isSrcToken = true;
    switch (token.type) {
      case "alias":
        node = composeAlias(ctx, token, onError);
        if (anchor || tag)
          onError(token, "ALIAS_PROPS", "An alias node must not specify any properties");
        break;
      case "scalar":
      case "single-quoted-scalar":
      case "double-quoted-scalar":
      case "block-scalar":
        node = composeScalar.composeScalar(ctx, token, tag, onError);
        if (anchor)
          node.anchor = anchor.source.substring(1);
        break;
      case "block-map":
      case "block-seq":
      case "flow-collection":
        try {
          node = composeCollection.composeCollection(CN, ctx, token, props, onError);
          if (anchor)
            node.anchor = anchor.source.substring(1);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          onError(token, "RESOURCE_EXHAUSTION", message);
        }
        break;
      default: {
        const message = token.type === "error" ? token.message : `Unsupported token (type: ${token.type})`;
        onError(token, "UNEXPECTED_TOKEN", message);
        isSrcToken = false;
      }
    }
    node ?? (node = composeEmptyNode(ctx, token.offset, undefined, null, props, onError));
    if (anchor && node.anchor === "")
      onError(anchor, "BAD_ALIAS", "Anchor cannot be an empty string");
    if (atKey && ctx.options.stringKeys && (!identity.isScalar(node) || typeof node.value !== "string" || node.tag && node.tag !== "tag:yaml.org,2002:str")) {
      const msg = "With stringKeys, all keys must be strings";
      onError(tag ?? token, "NON_STRING_KEY", msg);
    }
    if (spaceBefore)
      node.spaceBefore = true;
    if (comment) {
      if (token.type === "scalar" && token.source === "")
        node.comment = comment;
      else
        node.commentBefore = comment;
    }
    if (ctx.options.keepSourceTokens && isSrcToken)
      node.srcToken = token;
    return node;
  }
  function composeEmptyNode(ctx, offset, before, pos, { spaceBefore, comment, anchor, tag, end }, onError) {
    const token = {
      type: "scalar",
      offset: utilEmptyScalarPosition.emptyScalarPosition(offset, before, pos),
      indent: -1,
      source: ""
    };
    const node = composeScalar.composeScalar(ctx, token, tag, onError);
    if (anchor) {
      node.anchor = anchor.source.substring(1);
      if (node.anchor === "")
        onError(anchor, "BAD_ALIAS", "Anchor cannot be an empty string");
    }
    if (spaceBefore)
      node.spaceBefore = true;
    if (comment) {
      node.comment = comment;
      node.range[2] = end;
    }
    return node;
  }
  function composeAlias({ options }, { offset, source, end }, onError) {
    const alias = new Alias.Alias(source.substring(1));
    if (alias.source === "")
      onError(offset, "BAD_ALIAS", "Alias cannot be an empty string");
    if (alias.source.endsWith(":"))
      onError(offset + source.length - 1, "BAD_ALIAS", "Alias ending in : is ambiguous", true);
    const valueEnd = offset + source.length;
    const re = resolveEnd.resolveEnd(end, valueEnd, options.strict, onError);
    alias.range = [offset, valueEnd, re.offset];
    if (re.comment)
      alias.comment = re.comment;
    return alias;
  }
  exports.composeEmptyNode = composeEmptyNode;
  exports.composeNode = composeNode;
});

// node_modules/yaml/dist/compose/compose-doc.js
var require_compose_doc = __commonJS(function(exports) {
  var Document = require_Document();
  var composeNode = require_compose_node();
  var resolveEnd = require_resolve_end();
  var resolveProps = require_resolve_props();
  function composeDoc(options, directives, { offset, start, value, end }, onError) {
    const opts = Object.assign({ _directives: directives }, options);
    const doc = new Document.Document(undefined, opts);
    const ctx = {
      atKey: false,
      atRoot: true,
      directives: doc.directives,
      options: doc.options,
      schema: doc.schema
    };
    const props = resolveProps.resolveProps(start, {
      indicator: "doc-start",
      next: value ?? end?.[0],
      offset,
      onError,
      parentIndent: 0,
      startOnNewline: true
    });
    if (props.found) {
      doc.directives.docStart = true;
      if (value && (value.type === "block-map" || value.type === "block-seq") && !props.hasNewline)
        onError(props.end, "MISSING_CHAR", "Block collection cannot start on same line with directives-end marker");
    }
    doc.contents = value ? composeNode.composeNode(ctx, value, props, onError) : composeNode.composeEmptyNode(ctx, props.end, start, null, props, onError);
    const contentEnd = doc.contents.range[2];
    const re = resolveEnd.resolveEnd(end, contentEnd, false, onError);
    if (re.comment)
      doc.comment = re.comment;
    doc.range = [offset, contentEnd, re.offset];
    return doc;
  }
  exports.composeDoc = composeDoc;
});

// node_modules/yaml/dist/compose/composer.js
var require_composer = __commonJS(function(exports) {
  var node_process = __require("process");
  var directives = require_directives();
  var Document = require_Document();
  var errors = require_errors();
  var identity = require_identity();
  var composeDoc = require_compose_doc();
  var resolveEnd = require_resolve_end();
  function getErrorPos(src) {
    if (typeof src === "number")
      return [src, src + 1];
    if (Array.isArray(src))
      return src.length === 2 ? src : [src[0], src[1]];
    const { offset, source } = src;
    return [offset, offset + (typeof source === "string" ? source.length : 1)];
  }
  function parsePrelude(prelude) {
    let comment = "";
    let atComment = false;
    let afterEmptyLine = false;
    for (let i = 0;i < prelude.length; ++i) {
      const source = prelude[i];
      switch (source[0]) {
        case "#":
          comment += (comment === "" ? "" : afterEmptyLine ? `

` : `
`) + (source.substring(1) || " ");
          atComment = true;
          afterEmptyLine = false;
          break;
        case "%":
          if (prelude[i + 1]?.[0] !== "#")
            i += 1;
          atComment = false;
          break;
        default:
          if (!atComment)
            afterEmptyLine = true;
          atComment = false;
      }
    }
    return { comment, afterEmptyLine };
  }

  class Composer {
    constructor(options = {}) {
      this.doc = null;
      this.atDirectives = false;
      this.prelude = [];
      this.errors = [];
      this.warnings = [];
      this.onError = (source, code, message, warning) => {
        const pos = getErrorPos(source);
        if (warning)
          this.warnings.push(new errors.YAMLWarning(pos, code, message));
        else
          this.errors.push(new errors.YAMLParseError(pos, code, message));
      };
      this.directives = new directives.Directives({ version: options.version || "1.2" });
      this.options = options;
    }
    decorate(doc, afterDoc) {
      const { comment, afterEmptyLine } = parsePrelude(this.prelude);
      if (comment) {
        const dc = doc.contents;
        if (afterDoc) {
          doc.comment = doc.comment ? `${doc.comment}
${comment}` : comment;
        } else if (afterEmptyLine || doc.directives.docStart || !dc) {
          doc.commentBefore = comment;
        } else if (identity.isCollection(dc) && !dc.flow && dc.items.length > 0) {
          let it = dc.items[0];
          if (identity.isPair(it))
            it = it.key;
          const cb = it.commentBefore;
          it.commentBefore = cb ? `${comment}
${cb}` : comment;
        } else {
          const cb = dc.commentBefore;
          dc.commentBefore = cb ? `${comment}
${cb}` : comment;
        }
      }
      if (afterDoc) {
        for (let i = 0;i < this.errors.length; ++i)
          doc.errors.push(this.errors[i]);
        for (let i = 0;i < this.warnings.length; ++i)
          doc.warnings.push(this.warnings[i]);
      } else {
        doc.errors = this.errors;
        doc.warnings = this.warnings;
      }
      this.prelude = [];
      this.errors = [];
      this.warnings = [];
    }
    streamInfo() {
      return {
        comment: parsePrelude(this.prelude).comment,
        directives: this.directives,
        errors: this.errors,
        warnings: this.warnings
      };
    }
    *compose(tokens, forceDoc = false, endOffset = -1) {
      for (const token of tokens)
        yield* this.next(token);
      yield* this.end(forceDoc, endOffset);
    }
    *next(token) {
      if (node_process.env.LOG_STREAM)
        console.dir(token, { depth: null });
      switch (token.type) {
        case "directive":
          this.directives.add(token.source, (offset, message, warning) => {
            const pos = getErrorPos(token);
            pos[0] += offset;
            this.onError(pos, "BAD_DIRECTIVE", message, warning);
          });
          this.prelude.push(token.source);
          this.atDirectives = true;
          break;
        case "document": {
          const doc = composeDoc.composeDoc(this.options, this.directives, token, this.onError);
          if (this.atDirectives && !doc.directives.docStart)
            this.onError(token, "MISSING_CHAR", "Missing directives-end/doc-start indicator line");
          this.decorate(doc, false);
          if (this.doc)
            yield this.doc;
          this.doc = doc;
          this.atDirectives = false;
          break;
        }
        case "byte-order-mark":
        case "space":
          break;
        case "comment":
        case "newline":
          this.prelude.push(token.source);
          break;
        case "error": {
          const msg = token.source ? `${token.message}: ${JSON.stringify(token.source)}` : token.message;
          const error = new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", msg);
          if (this.atDirectives || !this.doc)
            this.errors.push(error);
          else
            this.doc.errors.push(error);
          break;
        }
        case "doc-end": {
          if (!this.doc) {
            const msg = "Unexpected doc-end without preceding document";
            this.errors.push(new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", msg));
            break;
          }
          this.doc.directives.docEnd = true;
          const end = resolveEnd.resolveEnd(token.end, token.offset + token.source.length, this.doc.options.strict, this.onError);
          this.decorate(this.doc, true);
          if (end.comment) {
            const dc = this.doc.comment;
            this.doc.comment = dc ? `${dc}
${end.comment}` : end.comment;
          }
          this.doc.range[2] = end.offset;
          break;
        }
        default:
          this.errors.push(new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", `Unsupported token ${token.type}`));
      }
    }
    *end(forceDoc = false, endOffset = -1) {
      if (this.doc) {
        this.decorate(this.doc, true);
        yield this.doc;
        this.doc = null;
      } else if (forceDoc) {
        const opts = Object.assign({ _directives: this.directives }, this.options);
        const doc = new Document.Document(undefined, opts);
        if (this.atDirectives)
          this.onError(endOffset, "MISSING_CHAR", "Missing directives-end indicator line");
        doc.range = [0, endOffset, endOffset];
        this.decorate(doc, false);
        yield doc;
      }
    }
  }
  exports.Composer = Composer;
});

// node_modules/yaml/dist/parse/cst-scalar.js
var require_cst_scalar = __commonJS(function(exports) {
  var resolveBlockScalar = require_resolve_block_scalar();
  var resolveFlowScalar = require_resolve_flow_scalar();
  var errors = require_errors();
  var stringifyString = require_stringifyString();
  function resolveAsScalar(token, strict = true, onError) {
    if (token) {
      const _onError = (pos, code, message) => {
        const offset = typeof pos === "number" ? pos : Array.isArray(pos) ? pos[0] : pos.offset;
        if (onError)
          onError(offset, code, message);
        else
          throw new errors.YAMLParseError([offset, offset + 1], code, message);
      };
      switch (token.type) {
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
          return resolveFlowScalar.resolveFlowScalar(token, strict, _onError);
        case "block-scalar":
          return resolveBlockScalar.resolveBlockScalar({ options: { strict } }, token, _onError);
      }
    }
    return null;
  }
  function createScalarToken(value, context) {
    const { implicitKey = false, indent, inFlow = false, offset = -1, type = "PLAIN" } = context;
    const source = stringifyString.stringifyString({ type, value }, {
      implicitKey,
      indent: indent > 0 ? " ".repeat(indent) : "",
      inFlow,
      options: { blockQuote: true, lineWidth: -1 }
    });
    const end = context.end ?? [
      { type: "newline", offset: -1, indent, source: `
` }
    ];
    switch (source[0]) {
      case "|":
      case ">": {
        const he = source.indexOf(`
`);
        const head = source.substring(0, he);
        const body = source.substring(he + 1) + `
`;
        const props = [
          { type: "block-scalar-header", offset, indent, source: head }
        ];
        if (!addEndtoBlockProps(props, end))
          props.push({ type: "newline", offset: -1, indent, source: `
` });
        return { type: "block-scalar", offset, indent, props, source: body };
      }
      case '"':
        return { type: "double-quoted-scalar", offset, indent, source, end };
      case "'":
        return { type: "single-quoted-scalar", offset, indent, source, end };
      default:
        return { type: "scalar", offset, indent, source, end };
    }
  }
  function setScalarValue(token, value, context = {}) {
    let { afterKey = false, implicitKey = false, inFlow = false, type } = context;
    let indent = "indent" in token ? token.indent : null;
    if (afterKey && typeof indent === "number")
      indent += 2;
    if (!type)
      switch (token.type) {
        case "single-quoted-scalar":
          type = "QUOTE_SINGLE";
          break;
        case "double-quoted-scalar":
          type = "QUOTE_DOUBLE";
          break;
        case "block-scalar": {
          const header = token.props[0];
          if (header.type !== "block-scalar-header")
            throw new Error("Invalid block scalar header");
          type = header.source[0] === ">" ? "BLOCK_FOLDED" : "BLOCK_LITERAL";
          break;
        }
        default:
          type = "PLAIN";
      }
    const source = stringifyString.stringifyString({ type, value }, {
      implicitKey: implicitKey || indent === null,
      indent: indent !== null && indent > 0 ? " ".repeat(indent) : "",
      inFlow,
      options: { blockQuote: true, lineWidth: -1 }
    });
    switch (source[0]) {
      case "|":
      case ">":
        setBlockScalarValue(token, source);
        break;
      case '"':
        setFlowScalarValue(token, source, "double-quoted-scalar");
        break;
      case "'":
        setFlowScalarValue(token, source, "single-quoted-scalar");
        break;
      default:
        setFlowScalarValue(token, source, "scalar");
    }
  }
  function setBlockScalarValue(token, source) {
    const he = source.indexOf(`
`);
    const head = source.substring(0, he);
    const body = source.substring(he + 1) + `
`;
    if (token.type === "block-scalar") {
      const header = token.props[0];
      if (header.type !== "block-scalar-header")
        throw new Error("Invalid block scalar header");
      header.source = head;
      token.source = body;
    } else {
      const { offset } = token;
      const indent = "indent" in token ? token.indent : -1;
      const props = [
        { type: "block-scalar-header", offset, indent, source: head }
      ];
      if (!addEndtoBlockProps(props, "end" in token ? token.end : undefined))
        props.push({ type: "newline", offset: -1, indent, source: `
` });
      for (const key of Object.keys(token))
        if (key !== "type" && key !== "offset")
          delete token[key];
      Object.assign(token, { type: "block-scalar", indent, props, source: body });
    }
  }
  function addEndtoBlockProps(props, end) {
    if (end)
      for (const st of end)
        switch (st.type) {
          case "space":
          case "comment":
            props.push(st);
            break;
          case "newline":
            props.push(st);
            return true;
        }
    return false;
  }
  function setFlowScalarValue(token, source, type) {
    switch (token.type) {
      case "scalar":
      case "double-quoted-scalar":
      case "single-quoted-scalar":
        token.type = type;
        token.source = source;
        break;
      case "block-scalar": {
        const end = token.props.slice(1);
        let oa = source.length;
        if (token.props[0].type === "block-scalar-header")
          oa -= token.props[0].source.length;
        for (const tok of end)
          tok.offset += oa;
        delete token.props;
        Object.assign(token, { type, source, end });
        break;
      }
      case "block-map":
      case "block-seq": {
        const offset = token.offset + source.length;
        const nl = { type: "newline", offset, indent: token.indent, source: `
` };
        delete token.items;
        Object.assign(token, { type, source, end: [nl] });
        break;
      }
      default: {
        const indent = "indent" in token ? token.indent : -1;
        const end = "end" in token && Array.isArray(token.end) ? token.end.filter((st) => st.type === "space" || st.type === "comment" || st.type === "newline") : [];
        for (const key of Object.keys(token))
          if (key !== "type" && key !== "offset")
            delete token[key];
        Object.assign(token, { type, indent, source, end });
      }
    }
  }
  exports.createScalarToken = createScalarToken;
  exports.resolveAsScalar = resolveAsScalar;
  exports.setScalarValue = setScalarValue;
});

// node_modules/yaml/dist/parse/cst-stringify.js
var require_cst_stringify = __commonJS(function(exports) {
  var stringify = (cst) => ("type" in cst) ? stringifyToken(cst) : stringifyItem(cst);
  function stringifyToken(token) {
    switch (token.type) {
      case "block-scalar": {
        let res = "";
        for (const tok of token.props)
          res += stringifyToken(tok);
        return res + token.source;
      }
      case "block-map":
      case "block-seq": {
        let res = "";
        for (const item of token.items)
          res += stringifyItem(item);
        return res;
      }
      case "flow-collection": {
        let res = token.start.source;
        for (const item of token.items)
          res += stringifyItem(item);
        for (const st of token.end)
          res += st.source;
        return res;
      }
      case "document": {
        let res = stringifyItem(token);
        if (token.end)
          for (const st of token.end)
            res += st.source;
        return res;
      }
      default: {
        let res = token.source;
        if ("end" in token && token.end)
          for (const st of token.end)
            res += st.source;
        return res;
      }
    }
  }
  function stringifyItem({ start, key, sep, value }) {
    let res = "";
    for (const st of start)
      res += st.source;
    if (key)
      res += stringifyToken(key);
    if (sep)
      for (const st of sep)
        res += st.source;
    if (value)
      res += stringifyToken(value);
    return res;
  }
  exports.stringify = stringify;
});

// node_modules/yaml/dist/parse/cst-visit.js
var require_cst_visit = __commonJS(function(exports) {
  var BREAK = Symbol("break visit");
  var SKIP = Symbol("skip children");
  var REMOVE = Symbol("remove item");
  function visit(cst, visitor) {
    if ("type" in cst && cst.type === "document")
      cst = { start: cst.start, value: cst.value };
    _visit(Object.freeze([]), cst, visitor);
  }
  visit.BREAK = BREAK;
  visit.SKIP = SKIP;
  visit.REMOVE = REMOVE;
  visit.itemAtPath = (cst, path) => {
    let item = cst;
    for (const [field, index] of path) {
      const tok = item?.[field];
      if (tok && "items" in tok) {
        item = tok.items[index];
      } else
        return;
    }
    return item;
  };
  visit.parentCollection = (cst, path) => {
    const parent = visit.itemAtPath(cst, path.slice(0, -1));
    const field = path[path.length - 1][0];
    const coll = parent?.[field];
    if (coll && "items" in coll)
      return coll;
    throw new Error("Parent collection not found");
  };
  function _visit(path, item, visitor) {
    let ctrl = visitor(item, path);
    if (typeof ctrl === "symbol")
      return ctrl;
    for (const field of ["key", "value"]) {
      const token = item[field];
      if (token && "items" in token) {
        for (let i = 0;i < token.items.length; ++i) {
          const ci = _visit(Object.freeze(path.concat([[field, i]])), token.items[i], visitor);
          if (typeof ci === "number")
            i = ci - 1;
          else if (ci === BREAK)
            return BREAK;
          else if (ci === REMOVE) {
            token.items.splice(i, 1);
            i -= 1;
          }
        }
        if (typeof ctrl === "function" && field === "key")
          ctrl = ctrl(item, path);
      }
    }
    return typeof ctrl === "function" ? ctrl(item, path) : ctrl;
  }
  exports.visit = visit;
});

// node_modules/yaml/dist/parse/cst.js
var require_cst = __commonJS(function(exports) {
  var cstScalar = require_cst_scalar();
  var cstStringify = require_cst_stringify();
  var cstVisit = require_cst_visit();
  var BOM = "\uFEFF";
  var DOCUMENT = "\x02";
  var FLOW_END = "\x18";
  var SCALAR = "\x1F";
  var isCollection = (token) => !!token && ("items" in token);
  var isScalar = (token) => !!token && (token.type === "scalar" || token.type === "single-quoted-scalar" || token.type === "double-quoted-scalar" || token.type === "block-scalar");
  function prettyToken(token) {
    switch (token) {
      case BOM:
        return "<BOM>";
      case DOCUMENT:
        return "<DOC>";
      case FLOW_END:
        return "<FLOW_END>";
      case SCALAR:
        return "<SCALAR>";
      default:
        return JSON.stringify(token);
    }
  }
  function tokenType(source) {
    switch (source) {
      case BOM:
        return "byte-order-mark";
      case DOCUMENT:
        return "doc-mode";
      case FLOW_END:
        return "flow-error-end";
      case SCALAR:
        return "scalar";
      case "---":
        return "doc-start";
      case "...":
        return "doc-end";
      case "":
      case `
`:
      case `\r
`:
        return "newline";
      case "-":
        return "seq-item-ind";
      case "?":
        return "explicit-key-ind";
      case ":":
        return "map-value-ind";
      case "{":
        return "flow-map-start";
      case "}":
        return "flow-map-end";
      case "[":
        return "flow-seq-start";
      case "]":
        return "flow-seq-end";
      case ",":
        return "comma";
    }
    switch (source[0]) {
      case " ":
      case "\t":
        return "space";
      case "#":
        return "comment";
      case "%":
        return "directive-line";
      case "*":
        return "alias";
      case "&":
        return "anchor";
      case "!":
        return "tag";
      case "'":
        return "single-quoted-scalar";
      case '"':
        return "double-quoted-scalar";
      case "|":
      case ">":
        return "block-scalar-header";
    }
    return null;
  }
  exports.createScalarToken = cstScalar.createScalarToken;
  exports.resolveAsScalar = cstScalar.resolveAsScalar;
  exports.setScalarValue = cstScalar.setScalarValue;
  exports.stringify = cstStringify.stringify;
  exports.visit = cstVisit.visit;
  exports.BOM = BOM;
  exports.DOCUMENT = DOCUMENT;
  exports.FLOW_END = FLOW_END;
  exports.SCALAR = SCALAR;
  exports.isCollection = isCollection;
  exports.isScalar = isScalar;
  exports.prettyToken = prettyToken;
  exports.tokenType = tokenType;
});

// node_modules/yaml/dist/parse/lexer.js
var require_lexer = __commonJS(function(exports) {
  var cst = require_cst();
  function isEmpty(ch) {
    switch (ch) {
      case undefined:
      case " ":
      case `
`:
      case "\r":
      case "\t":
        return true;
      default:
        return false;
    }
  }
  var hexDigits = new Set("0123456789ABCDEFabcdef");
  var tagChars = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()");
  var flowIndicatorChars = new Set(",[]{}");
  var invalidAnchorChars = new Set(` ,[]{}
\r	`);
  var isNotAnchorChar = (ch) => !ch || invalidAnchorChars.has(ch);

  class Lexer {
    constructor() {
      this.atEnd = false;
      this.blockScalarIndent = -1;
      this.blockScalarKeep = false;
      this.buffer = "";
      this.flowKey = false;
      this.flowLevel = 0;
      this.indentNext = 0;
      this.indentValue = 0;
      this.lineEndPos = null;
      this.next = null;
      this.pos = 0;
    }
    *lex(source, incomplete = false) {
      if (source) {
        if (typeof source !== "string")
          throw TypeError("source is not a string");
        this.buffer = this.buffer ? this.buffer + source : source;
        this.lineEndPos = null;
      }
      this.atEnd = !incomplete;
      let next = this.next ?? "stream";
      while (next && (incomplete || this.hasChars(1)))
        next = yield* this.parseNext(next);
    }
    atLineEnd() {
      let i = this.pos;
      let ch = this.buffer[i];
      while (ch === " " || ch === "\t")
        ch = this.buffer[++i];
      if (!ch || ch === "#" || ch === `
`)
        return true;
      if (ch === "\r")
        return this.buffer[i + 1] === `
`;
      return false;
    }
    charAt(n) {
      return this.buffer[this.pos + n];
    }
    continueScalar(offset) {
      let ch = this.buffer[offset];
      if (this.indentNext > 0) {
        let indent = 0;
        while (ch === " ")
          ch = this.buffer[++indent + offset];
        if (ch === "\r") {
          const next = this.buffer[indent + offset + 1];
          if (next === `
` || !next && !this.atEnd)
            return offset + indent + 1;
        }
        return ch === `
` || indent >= this.indentNext || !ch && !this.atEnd ? offset + indent : -1;
      }
      if (ch === "-" || ch === ".") {
        const dt = this.buffer.substr(offset, 3);
        if ((dt === "---" || dt === "...") && isEmpty(this.buffer[offset + 3]))
          return -1;
      }
      return offset;
    }
    getLine() {
      let end = this.lineEndPos;
      if (typeof end !== "number" || end !== -1 && end < this.pos) {
        end = this.buffer.indexOf(`
`, this.pos);
        this.lineEndPos = end;
      }
      if (end === -1)
        return this.atEnd ? this.buffer.substring(this.pos) : null;
      if (this.buffer[end - 1] === "\r")
        end -= 1;
      return this.buffer.substring(this.pos, end);
    }
    hasChars(n) {
      return this.pos + n <= this.buffer.length;
    }
    setNext(state) {
      this.buffer = this.buffer.substring(this.pos);
      this.pos = 0;
      this.lineEndPos = null;
      this.next = state;
      return null;
    }
    peek(n) {
      return this.buffer.substr(this.pos, n);
    }
    *parseNext(next) {
      switch (next) {
        case "stream":
          return yield* this.parseStream();
        case "line-start":
          return yield* this.parseLineStart();
        case "block-start":
          return yield* this.parseBlockStart();
        case "doc":
          return yield* this.parseDocument();
        case "flow":
          return yield* this.parseFlowCollection();
        case "quoted-scalar":
          return yield* this.parseQuotedScalar();
        case "block-scalar":
          return yield* this.parseBlockScalar();
        case "plain-scalar":
          return yield* this.parsePlainScalar();
      }
    }
    *parseStream() {
      let line = this.getLine();
      if (line === null)
        return this.setNext("stream");
      if (line[0] === cst.BOM) {
        yield* this.pushCount(1);
        line = line.substring(1);
      }
      if (line[0] === "%") {
        let dirEnd = line.length;
        let cs = line.indexOf("#");
        while (cs !== -1) {
          const ch = line[cs - 1];
          if (ch === " " || ch === "\t") {
            dirEnd = cs - 1;
            break;
          } else {
            cs = line.indexOf("#", cs + 1);
          }
        }
        while (true) {
          const ch = line[dirEnd - 1];
          if (ch === " " || ch === "\t")
            dirEnd -= 1;
          else
            break;
        }
        const n = (yield* this.pushCount(dirEnd)) + (yield* this.pushSpaces(true));
        yield* this.pushCount(line.length - n);
        this.pushNewline();
        return "stream";
      }
      if (this.atLineEnd()) {
        const sp = yield* this.pushSpaces(true);
        yield* this.pushCount(line.length - sp);
        yield* this.pushNewline();
        return "stream";
      }
      yield cst.DOCUMENT;
      return yield* this.parseLineStart();
    }
    *parseLineStart() {
      const ch = this.charAt(0);
      if (!ch && !this.atEnd)
        return this.setNext("line-start");
      if (ch === "-" || ch === ".") {
        if (!this.atEnd && !this.hasChars(4))
          return this.setNext("line-start");
        const s = this.peek(3);
        if ((s === "---" || s === "...") && isEmpty(this.charAt(3))) {
          yield* this.pushCount(3);
          this.indentValue = 0;
          this.indentNext = 0;
          return s === "---" ? "doc" : "stream";
        }
      }
      this.indentValue = yield* this.pushSpaces(false);
      if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1)))
        this.indentNext = this.indentValue;
      return yield* this.parseBlockStart();
    }
    *parseBlockStart() {
      const [ch0, ch1] = this.peek(2);
      if (!ch1 && !this.atEnd)
        return this.setNext("block-start");
      if ((ch0 === "-" || ch0 === "?" || ch0 === ":") && isEmpty(ch1)) {
        const n = (yield* this.pushCount(1)) + (yield* this.pushSpaces(true));
        this.indentNext = this.indentValue + 1;
        this.indentValue += n;
        return "block-start";
      }
      return "doc";
    }
    *parseDocument() {
      yield* this.pushSpaces(true);
      const line = this.getLine();
      if (line === null)
        return this.setNext("doc");
      let n = yield* this.pushIndicators();
      switch (line[n]) {
        case "#":
          yield* this.pushCount(line.length - n);
        case undefined:
          yield* this.pushNewline();
          return yield* this.parseLineStart();
        case "{":
        case "[":
          yield* this.pushCount(1);
          this.flowKey = false;
          this.flowLevel = 1;
          return "flow";
        case "}":
        case "]":
          yield* this.pushCount(1);
          return "doc";
        case "*":
          yield* this.pushUntil(isNotAnchorChar);
          return "doc";
        case '"':
        case "'":
          return yield* this.parseQuotedScalar();
        case "|":
        case ">":
          n += yield* this.parseBlockScalarHeader();
          n += yield* this.pushSpaces(true);
          yield* this.pushCount(line.length - n);
          yield* this.pushNewline();
          return yield* this.parseBlockScalar();
        default:
          return yield* this.parsePlainScalar();
      }
    }
    *parseFlowCollection() {
      let nl, sp;
      let indent = -1;
      do {
        nl = yield* this.pushNewline();
        if (nl > 0) {
          sp = yield* this.pushSpaces(false);
          this.indentValue = indent = sp;
        } else {
          sp = 0;
        }
        sp += yield* this.pushSpaces(true);
      } while (nl + sp > 0);
      const line = this.getLine();
      if (line === null)
        return this.setNext("flow");
      if (indent !== -1 && indent < this.indentNext && line[0] !== "#" || indent === 0 && (line.startsWith("---") || line.startsWith("...")) && isEmpty(line[3])) {
        const atFlowEndMarker = indent === this.indentNext - 1 && this.flowLevel === 1 && (line[0] === "]" || line[0] === "}");
        if (!atFlowEndMarker) {
          this.flowLevel = 0;
          yield cst.FLOW_END;
          return yield* this.parseLineStart();
        }
      }
      let n = 0;
      while (line[n] === ",") {
        n += yield* this.pushCount(1);
        n += yield* this.pushSpaces(true);
        this.flowKey = false;
      }
      n += yield* this.pushIndicators();
      switch (line[n]) {
        case undefined:
          return "flow";
        case "#":
          yield* this.pushCount(line.length - n);
          return "flow";
        case "{":
        case "[":
          yield* this.pushCount(1);
          this.flowKey = false;
          this.flowLevel += 1;
          return "flow";
        case "}":
        case "]":
          yield* this.pushCount(1);
          this.flowKey = true;
          this.flowLevel -= 1;
          return this.flowLevel ? "flow" : "doc";
        case "*":
          yield* this.pushUntil(isNotAnchorChar);
          return "flow";
        case '"':
        case "'":
          this.flowKey = true;
          return yield* this.parseQuotedScalar();
        case ":": {
          const next = this.charAt(1);
          if (this.flowKey || isEmpty(next) || next === ",") {
            this.flowKey = false;
            yield* this.pushCount(1);
            yield* this.pushSpaces(true);
            return "flow";
          }
        }
        default:
          this.flowKey = false;
          return yield* this.parsePlainScalar();
      }
    }
    *parseQuotedScalar() {
      const quote = this.charAt(0);
      let end = this.buffer.indexOf(quote, this.pos + 1);
      if (quote === "'") {
        while (end !== -1 && this.buffer[end + 1] === "'")
          end = this.buffer.indexOf("'", end + 2);
      } else {
        while (end !== -1) {
          let n = 0;
          while (this.buffer[end - 1 - n] === "\\")
            n += 1;
          if (n % 2 === 0)
            break;
          end = this.buffer.indexOf('"', end + 1);
        }
      }
      const qb = this.buffer.substring(0, end);
      let nl = qb.indexOf(`
`, this.pos);
      if (nl !== -1) {
        while (nl !== -1) {
          const cs = this.continueScalar(nl + 1);
          if (cs === -1)
            break;
          nl = qb.indexOf(`
`, cs);
        }
        if (nl !== -1) {
          end = nl - (qb[nl - 1] === "\r" ? 2 : 1);
        }
      }
      if (end === -1) {
        if (!this.atEnd)
          return this.setNext("quoted-scalar");
        end = this.buffer.length;
      }
      yield* this.pushToIndex(end + 1, false);
      return this.flowLevel ? "flow" : "doc";
    }
    *parseBlockScalarHeader() {
      this.blockScalarIndent = -1;
      this.blockScalarKeep = false;
      let i = this.pos;
      while (true) {
        const ch = this.buffer[++i];
        if (ch === "+")
          this.blockScalarKeep = true;
        else if (ch > "0" && ch <= "9")
          this.blockScalarIndent = Number(ch) - 1;
        else if (ch !== "-")
          break;
      }
      return yield* this.pushUntil((ch) => isEmpty(ch) || ch === "#");
    }
    *parseBlockScalar() {
      let nl = this.pos - 1;
      let indent = 0;
      let ch;
      loop:
        for (let i = this.pos;ch = this.buffer[i]; ++i) {
          switch (ch) {
            case " ":
              indent += 1;
              break;
            case `
`:
              nl = i;
              indent = 0;
              break;
            case "\r": {
              const next = this.buffer[i + 1];
              if (!next && !this.atEnd)
                return this.setNext("block-scalar");
              if (next === `
`)
                break;
            }
            default:
              break loop;
          }
        }
      if (!ch && !this.atEnd)
        return this.setNext("block-scalar");
      if (indent >= this.indentNext) {
        if (this.blockScalarIndent === -1)
          this.indentNext = indent;
        else {
          this.indentNext = this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
        }
        do {
          const cs = this.continueScalar(nl + 1);
          if (cs === -1)
            break;
          nl = this.buffer.indexOf(`
`, cs);
        } while (nl !== -1);
        if (nl === -1) {
          if (!this.atEnd)
            return this.setNext("block-scalar");
          nl = this.buffer.length;
        }
      }
      let i = nl + 1;
      ch = this.buffer[i];
      while (ch === " ")
        ch = this.buffer[++i];
      if (ch === "\t") {
        while (ch === "\t" || ch === " " || ch === "\r" || ch === `
`)
          ch = this.buffer[++i];
        nl = i - 1;
      } else if (!this.blockScalarKeep) {
        do {
          let i = nl - 1;
          let ch = this.buffer[i];
          if (ch === "\r")
            ch = this.buffer[--i];
          const lastChar = i;
          while (ch === " ")
            ch = this.buffer[--i];
          if (ch === `
` && i >= this.pos && i + 1 + indent > lastChar)
            nl = i;
          else
            break;
        } while (true);
      }
      yield cst.SCALAR;
      yield* this.pushToIndex(nl + 1, true);
      return yield* this.parseLineStart();
    }
    *parsePlainScalar() {
      const inFlow = this.flowLevel > 0;
      let end = this.pos - 1;
      let i = this.pos - 1;
      let ch;
      while (ch = this.buffer[++i]) {
        if (ch === ":") {
          const next = this.buffer[i + 1];
          if (isEmpty(next) || inFlow && flowIndicatorChars.has(next))
            break;
          end = i;
        } else if (isEmpty(ch)) {
          let next = this.buffer[i + 1];
          if (ch === "\r") {
            if (next === `
`) {
              i += 1;
              ch = `
`;
              next = this.buffer[i + 1];
            } else
              end = i;
          }
          if (next === "#" || inFlow && flowIndicatorChars.has(next))
            break;
          if (ch === `
`) {
            const cs = this.continueScalar(i + 1);
            if (cs === -1)
              break;
            i = Math.max(i, cs - 2);
          }
        } else {
          if (inFlow && flowIndicatorChars.has(ch))
            break;
          end = i;
        }
      }
      if (!ch && !this.atEnd)
        return this.setNext("plain-scalar");
      yield cst.SCALAR;
      yield* this.pushToIndex(end + 1, true);
      return inFlow ? "flow" : "doc";
    }
    *pushCount(n) {
      if (n > 0) {
        yield this.buffer.substr(this.pos, n);
        this.pos += n;
        return n;
      }
      return 0;
    }
    *pushToIndex(i, allowEmpty) {
      const s = this.buffer.slice(this.pos, i);
      if (s) {
        yield s;
        this.pos += s.length;
        return s.length;
      } else if (allowEmpty)
        yield "";
      return 0;
    }
    *pushIndicators() {
      let n = 0;
      loop:
        while (true) {
          switch (this.charAt(0)) {
            case "!":
              n += yield* this.pushTag();
              n += yield* this.pushSpaces(true);
              continue loop;
            case "&":
              n += yield* this.pushUntil(isNotAnchorChar);
              n += yield* this.pushSpaces(true);
              continue loop;
            case "-":
            case "?":
            case ":": {
              const inFlow = this.flowLevel > 0;
              const ch1 = this.charAt(1);
              if (isEmpty(ch1) || inFlow && flowIndicatorChars.has(ch1)) {
                if (!inFlow)
                  this.indentNext = this.indentValue + 1;
                else if (this.flowKey)
                  this.flowKey = false;
                n += yield* this.pushCount(1);
                n += yield* this.pushSpaces(true);
                continue loop;
              }
            }
          }
          break loop;
        }
      return n;
    }
    *pushTag() {
      if (this.charAt(1) === "<") {
        let i = this.pos + 2;
        let ch = this.buffer[i];
        while (!isEmpty(ch) && ch !== ">")
          ch = this.buffer[++i];
        return yield* this.pushToIndex(ch === ">" ? i + 1 : i, false);
      } else {
        let i = this.pos + 1;
        let ch = this.buffer[i];
        while (ch) {
          if (tagChars.has(ch))
            ch = this.buffer[++i];
          else if (ch === "%" && hexDigits.has(this.buffer[i + 1]) && hexDigits.has(this.buffer[i + 2])) {
            ch = this.buffer[i += 3];
          } else
            break;
        }
        return yield* this.pushToIndex(i, false);
      }
    }
    *pushNewline() {
      const ch = this.buffer[this.pos];
      if (ch === `
`)
        return yield* this.pushCount(1);
      else if (ch === "\r" && this.charAt(1) === `
`)
        return yield* this.pushCount(2);
      else
        return 0;
    }
    *pushSpaces(allowTabs) {
      let i = this.pos - 1;
      let ch;
      do {
        ch = this.buffer[++i];
      } while (ch === " " || allowTabs && ch === "\t");
      const n = i - this.pos;
      if (n > 0) {
        yield this.buffer.substr(this.pos, n);
        this.pos = i;
      }
      return n;
    }
    *pushUntil(test) {
      let i = this.pos;
      let ch = this.buffer[i];
      while (!test(ch))
        ch = this.buffer[++i];
      return yield* this.pushToIndex(i, false);
    }
  }
  exports.Lexer = Lexer;
});

// node_modules/yaml/dist/parse/line-counter.js
var require_line_counter = __commonJS(function(exports) {
  class LineCounter {
    constructor() {
      this.lineStarts = [];
      this.addNewLine = (offset) => this.lineStarts.push(offset);
      this.linePos = (offset) => {
        let low = 0;
        let high = this.lineStarts.length;
        while (low < high) {
          const mid = low + high >> 1;
          if (this.lineStarts[mid] < offset)
            low = mid + 1;
          else
            high = mid;
        }
        if (this.lineStarts[low] === offset)
          return { line: low + 1, col: 1 };
        if (low === 0)
          return { line: 0, col: offset };
        const start = this.lineStarts[low - 1];
        return { line: low, col: offset - start + 1 };
      };
    }
  }
  exports.LineCounter = LineCounter;
});

// node_modules/yaml/dist/parse/parser.js
var require_parser = __commonJS(function(exports) {
  var node_process = __require("process");
  var cst = require_cst();
  var lexer = require_lexer();
  function includesToken(list, type) {
    for (let i = 0;i < list.length; ++i)
      if (list[i].type === type)
        return true;
    return false;
  }
  function findNonEmptyIndex(list) {
    for (let i = 0;i < list.length; ++i) {
      switch (list[i].type) {
        case "space":
        case "comment":
        case "newline":
          break;
        default:
          return i;
      }
    }
    return -1;
  }
  function isFlowToken(token) {
    switch (token?.type) {
      case "alias":
      case "scalar":
      case "single-quoted-scalar":
      case "double-quoted-scalar":
      case "flow-collection":
        return true;
      default:
        return false;
    }
  }
  function getPrevProps(parent) {
    switch (parent.type) {
      case "document":
        return parent.start;
      case "block-map": {
        const it = parent.items[parent.items.length - 1];
        return it.sep ?? it.start;
      }
      case "block-seq":
        return parent.items[parent.items.length - 1].start;
      default:
        return [];
    }
  }
  function getFirstKeyStartProps(prev) {
    if (prev.length === 0)
      return [];
    let i = prev.length;
    loop:
      while (--i >= 0) {
        switch (prev[i].type) {
          case "doc-start":
          case "explicit-key-ind":
          case "map-value-ind":
          case "seq-item-ind":
          case "newline":
            break loop;
        }
      }
    while (prev[++i]?.type === "space") {}
    return prev.splice(i, prev.length);
  }
  function arrayPushArray(target, source) {
    if (source.length < 1e5)
      Array.prototype.push.apply(target, source);
    else
      for (let i = 0;i < source.length; ++i)
        target.push(source[i]);
  }
  function fixFlowSeqItems(fc) {
    if (fc.start.type === "flow-seq-start") {
      for (const it of fc.items) {
        if (it.sep && !it.value && !includesToken(it.start, "explicit-key-ind") && !includesToken(it.sep, "map-value-ind")) {
          if (it.key)
            it.value = it.key;
          delete it.key;
          if (isFlowToken(it.value)) {
            if (it.value.end)
              arrayPushArray(it.value.end, it.sep);
            else
              it.value.end = it.sep;
          } else
            arrayPushArray(it.start, it.sep);
          delete it.sep;
        }
      }
    }
  }

  class Parser {
    constructor(onNewLine) {
      this.atNewLine = true;
      this.atScalar = false;
      this.indent = 0;
      this.offset = 0;
      this.onKeyLine = false;
      this.stack = [];
      this.source = "";
      this.type = "";
      this.lexer = new lexer.Lexer;
      this.onNewLine = onNewLine;
    }
    *parse(source, incomplete = false) {
      if (this.onNewLine && this.offset === 0)
        this.onNewLine(0);
      for (const lexeme of this.lexer.lex(source, incomplete))
        yield* this.next(lexeme);
      if (!incomplete)
        yield* this.end();
    }
    *next(source) {
      this.source = source;
      if (node_process.env.LOG_TOKENS)
        console.log("|", cst.prettyToken(source));
      if (this.atScalar) {
        this.atScalar = false;
        yield* this.step();
        this.offset += source.length;
        return;
      }
      const type = cst.tokenType(source);
      if (!type) {
        const message = `Not a YAML token: ${source}`;
        yield* this.pop({ type: "error", offset: this.offset, message, source });
        this.offset += source.length;
      } else if (type === "scalar") {
        this.atNewLine = false;
        this.atScalar = true;
        this.type = "scalar";
      } else {
        this.type = type;
        yield* this.step();
        switch (type) {
          case "newline":
            this.atNewLine = true;
            this.indent = 0;
            if (this.onNewLine)
              this.onNewLine(this.offset + source.length);
            break;
          case "space":
            if (this.atNewLine && source[0] === " ")
              this.indent += source.length;
            break;
          case "explicit-key-ind":
          case "map-value-ind":
          case "seq-item-ind":
            if (this.atNewLine)
              this.indent += source.length;
            break;
          case "doc-mode":
          case "flow-error-end":
            return;
          default:
            this.atNewLine = false;
        }
        this.offset += source.length;
      }
    }
    *end() {
      while (this.stack.length > 0)
        yield* this.pop();
    }
    get sourceToken() {
      const st = {
        type: this.type,
        offset: this.offset,
        indent: this.indent,
        source: this.source
      };
      return st;
    }
    *step() {
      const top = this.peek(1);
      if (this.type === "doc-end" && top?.type !== "doc-end") {
        while (this.stack.length > 0)
          yield* this.pop();
        this.stack.push({
          type: "doc-end",
          offset: this.offset,
          source: this.source
        });
        return;
      }
      if (!top)
        return yield* this.stream();
      switch (top.type) {
        case "document":
          return yield* this.document(top);
        case "alias":
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
          return yield* this.scalar(top);
        case "block-scalar":
          return yield* this.blockScalar(top);
        case "block-map":
          return yield* this.blockMap(top);
        case "block-seq":
          return yield* this.blockSequence(top);
        case "flow-collection":
          return yield* this.flowCollection(top);
        case "doc-end":
          return yield* this.documentEnd(top);
      }
      yield* this.pop();
    }
    peek(n) {
      return this.stack[this.stack.length - n];
    }
    *pop(error) {
      const token = error ?? this.stack.pop();
      if (!token) {
        const message = "Tried to pop an empty stack";
        yield { type: "error", offset: this.offset, source: "", message };
      } else if (this.stack.length === 0) {
        yield token;
      } else {
        const top = this.peek(1);
        if (token.type === "block-scalar") {
          token.indent = "indent" in top ? top.indent : 0;
        } else if (token.type === "flow-collection" && top.type === "document") {
          token.indent = 0;
        }
        if (token.type === "flow-collection")
          fixFlowSeqItems(token);
        switch (top.type) {
          case "document":
            top.value = token;
            break;
          case "block-scalar":
            top.props.push(token);
            break;
          case "block-map": {
            const it = top.items[top.items.length - 1];
            if (it.value) {
              top.items.push({ start: [], key: token, sep: [] });
              this.onKeyLine = true;
              return;
            } else if (it.sep) {
              it.value = token;
            } else {
              Object.assign(it, { key: token, sep: [] });
              this.onKeyLine = !it.explicitKey;
              return;
            }
            break;
          }
          case "block-seq": {
            const it = top.items[top.items.length - 1];
            if (it.value)
              top.items.push({ start: [], value: token });
            else
              it.value = token;
            break;
          }
          case "flow-collection": {
            const it = top.items[top.items.length - 1];
            if (!it || it.value)
              top.items.push({ start: [], key: token, sep: [] });
            else if (it.sep)
              it.value = token;
            else
              Object.assign(it, { key: token, sep: [] });
            return;
          }
          default:
            yield* this.pop();
            yield* this.pop(token);
        }
        if ((top.type === "document" || top.type === "block-map" || top.type === "block-seq") && (token.type === "block-map" || token.type === "block-seq")) {
          const last = token.items[token.items.length - 1];
          if (last && !last.sep && !last.value && last.start.length > 0 && findNonEmptyIndex(last.start) === -1 && (token.indent === 0 || last.start.every((st) => st.type !== "comment" || st.indent < token.indent))) {
            if (top.type === "document")
              top.end = last.start;
            else
              top.items.push({ start: last.start });
            token.items.splice(-1, 1);
          }
        }
      }
    }
    *stream() {
      switch (this.type) {
        case "directive-line":
          yield { type: "directive", offset: this.offset, source: this.source };
          return;
        case "byte-order-mark":
        case "space":
        case "comment":
        case "newline":
          yield this.sourceToken;
          return;
        case "doc-mode":
        case "doc-start": {
          const doc = {
            type: "document",
            offset: this.offset,
            start: []
          };
          if (this.type === "doc-start")
            doc.start.push(this.sourceToken);
          this.stack.push(doc);
          return;
        }
      }
      yield {
        type: "error",
        offset: this.offset,
        message: `Unexpected ${this.type} token in YAML stream`,
        source: this.source
      };
    }
    *document(doc) {
      if (doc.value)
        return yield* this.lineEnd(doc);
      switch (this.type) {
        case "doc-start": {
          if (findNonEmptyIndex(doc.start) !== -1) {
            yield* this.pop();
            yield* this.step();
          } else
            doc.start.push(this.sourceToken);
          return;
        }
        case "anchor":
        case "tag":
        case "space":
        case "comment":
        case "newline":
          doc.start.push(this.sourceToken);
          return;
      }
      const bv = this.startBlockValue(doc);
      if (bv)
        this.stack.push(bv);
      else {
        yield {
          type: "error",
          offset: this.offset,
          message: `Unexpected ${this.type} token in YAML document`,
          source: this.source
        };
      }
    }
    *scalar(scalar) {
      if (this.type === "map-value-ind") {
        const prev = getPrevProps(this.peek(2));
        const start = getFirstKeyStartProps(prev);
        let sep;
        if (scalar.end) {
          sep = scalar.end;
          sep.push(this.sourceToken);
          delete scalar.end;
        } else
          sep = [this.sourceToken];
        const map = {
          type: "block-map",
          offset: scalar.offset,
          indent: scalar.indent,
          items: [{ start, key: scalar, sep }]
        };
        this.onKeyLine = true;
        this.stack[this.stack.length - 1] = map;
      } else
        yield* this.lineEnd(scalar);
    }
    *blockScalar(scalar) {
      switch (this.type) {
        case "space":
        case "comment":
        case "newline":
          scalar.props.push(this.sourceToken);
          return;
        case "scalar":
          scalar.source = this.source;
          this.atNewLine = true;
          this.indent = 0;
          if (this.onNewLine) {
            let nl = this.source.indexOf(`
`) + 1;
            while (nl !== 0) {
              this.onNewLine(this.offset + nl);
              nl = this.source.indexOf(`
`, nl) + 1;
            }
          }
          yield* this.pop();
          break;
        default:
          yield* this.pop();
          yield* this.step();
      }
    }
    *blockMap(map) {
      const it = map.items[map.items.length - 1];
      switch (this.type) {
        case "newline":
          this.onKeyLine = false;
          if (it.value) {
            const end = "end" in it.value ? it.value.end : undefined;
            const last = Array.isArray(end) ? end[end.length - 1] : undefined;
            if (last?.type === "comment")
              end?.push(this.sourceToken);
            else
              map.items.push({ start: [this.sourceToken] });
          } else if (it.sep) {
            it.sep.push(this.sourceToken);
          } else {
            it.start.push(this.sourceToken);
          }
          return;
        case "space":
        case "comment":
          if (it.value) {
            map.items.push({ start: [this.sourceToken] });
          } else if (it.sep) {
            it.sep.push(this.sourceToken);
          } else {
            if (this.atIndentedComment(it.start, map.indent)) {
              const prev = map.items[map.items.length - 2];
              const end = prev?.value?.end;
              if (Array.isArray(end)) {
                arrayPushArray(end, it.start);
                end.push(this.sourceToken);
                map.items.pop();
                return;
              }
            }
            it.start.push(this.sourceToken);
          }
          return;
      }
      if (this.indent >= map.indent) {
        const atMapIndent = !this.onKeyLine && this.indent === map.indent;
        const atNextItem = atMapIndent && (it.sep || it.explicitKey) && this.type !== "seq-item-ind";
        let start = [];
        if (atNextItem && it.sep && !it.value) {
          const nl = [];
          for (let i = 0;i < it.sep.length; ++i) {
            const st = it.sep[i];
            switch (st.type) {
              case "newline":
                nl.push(i);
                break;
              case "space":
                break;
              case "comment":
                if (st.indent > map.indent)
                  nl.length = 0;
                break;
              default:
                nl.length = 0;
            }
          }
          if (nl.length >= 2)
            start = it.sep.splice(nl[1]);
        }
        switch (this.type) {
          case "anchor":
          case "tag":
            if (atNextItem || it.value) {
              start.push(this.sourceToken);
              map.items.push({ start });
              this.onKeyLine = true;
            } else if (it.sep) {
              it.sep.push(this.sourceToken);
            } else {
              it.start.push(this.sourceToken);
            }
            return;
          case "explicit-key-ind":
            if (!it.sep && !it.explicitKey) {
              it.start.push(this.sourceToken);
              it.explicitKey = true;
            } else if (atNextItem || it.value) {
              start.push(this.sourceToken);
              map.items.push({ start, explicitKey: true });
            } else {
              this.stack.push({
                type: "block-map",
                offset: this.offset,
                indent: this.indent,
                items: [{ start: [this.sourceToken], explicitKey: true }]
              });
            }
            this.onKeyLine = true;
            return;
          case "map-value-ind":
            if (it.explicitKey) {
              if (!it.sep) {
                if (includesToken(it.start, "newline")) {
                  Object.assign(it, { key: null, sep: [this.sourceToken] });
                } else {
                  const start = getFirstKeyStartProps(it.start);
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, key: null, sep: [this.sourceToken] }]
                  });
                }
              } else if (it.value) {
                map.items.push({ start: [], key: null, sep: [this.sourceToken] });
              } else if (includesToken(it.sep, "map-value-ind")) {
                this.stack.push({
                  type: "block-map",
                  offset: this.offset,
                  indent: this.indent,
                  items: [{ start, key: null, sep: [this.sourceToken] }]
                });
              } else if (isFlowToken(it.key) && !includesToken(it.sep, "newline")) {
                const start = getFirstKeyStartProps(it.start);
                const key = it.key;
                const sep = it.sep;
                sep.push(this.sourceToken);
                delete it.key;
                delete it.sep;
                this.stack.push({
                  type: "block-map",
                  offset: this.offset,
                  indent: this.indent,
                  items: [{ start, key, sep }]
                });
              } else if (start.length > 0) {
                it.sep = it.sep.concat(start, this.sourceToken);
              } else {
                it.sep.push(this.sourceToken);
              }
            } else {
              if (!it.sep) {
                Object.assign(it, { key: null, sep: [this.sourceToken] });
              } else if (it.value || atNextItem) {
                map.items.push({ start, key: null, sep: [this.sourceToken] });
              } else if (includesToken(it.sep, "map-value-ind")) {
                this.stack.push({
                  type: "block-map",
                  offset: this.offset,
                  indent: this.indent,
                  items: [{ start: [], key: null, sep: [this.sourceToken] }]
                });
              } else {
                it.sep.push(this.sourceToken);
              }
            }
            this.onKeyLine = true;
            return;
          case "alias":
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar": {
            const fs = this.flowScalar(this.type);
            if (atNextItem || it.value) {
              map.items.push({ start, key: fs, sep: [] });
              this.onKeyLine = true;
            } else if (it.sep) {
              this.stack.push(fs);
            } else {
              Object.assign(it, { key: fs, sep: [] });
              this.onKeyLine = true;
            }
            return;
          }
          default: {
            const bv = this.startBlockValue(map);
            if (bv) {
              if (bv.type === "block-seq") {
                if (!it.explicitKey && it.sep && !includesToken(it.sep, "newline")) {
                  yield* this.pop({
                    type: "error",
                    offset: this.offset,
                    message: "Unexpected block-seq-ind on same line with key",
                    source: this.source
                  });
                  return;
                }
              } else if (atMapIndent) {
                map.items.push({ start });
              }
              this.stack.push(bv);
              return;
            }
          }
        }
      }
      yield* this.pop();
      yield* this.step();
    }
    *blockSequence(seq) {
      const it = seq.items[seq.items.length - 1];
      switch (this.type) {
        case "newline":
          if (it.value) {
            const end = "end" in it.value ? it.value.end : undefined;
            const last = Array.isArray(end) ? end[end.length - 1] : undefined;
            if (last?.type === "comment")
              end?.push(this.sourceToken);
            else
              seq.items.push({ start: [this.sourceToken] });
          } else
            it.start.push(this.sourceToken);
          return;
        case "space":
        case "comment":
          if (it.value)
            seq.items.push({ start: [this.sourceToken] });
          else {
            if (this.atIndentedComment(it.start, seq.indent)) {
              const prev = seq.items[seq.items.length - 2];
              const end = prev?.value?.end;
              if (Array.isArray(end)) {
                arrayPushArray(end, it.start);
                end.push(this.sourceToken);
                seq.items.pop();
                return;
              }
            }
            it.start.push(this.sourceToken);
          }
          return;
        case "anchor":
        case "tag":
          if (it.value || this.indent <= seq.indent)
            break;
          it.start.push(this.sourceToken);
          return;
        case "seq-item-ind":
          if (this.indent !== seq.indent)
            break;
          if (it.value || includesToken(it.start, "seq-item-ind"))
            seq.items.push({ start: [this.sourceToken] });
          else
            it.start.push(this.sourceToken);
          return;
      }
      if (this.indent > seq.indent) {
        const bv = this.startBlockValue(seq);
        if (bv) {
          this.stack.push(bv);
          return;
        }
      }
      yield* this.pop();
      yield* this.step();
    }
    *flowCollection(fc) {
      const it = fc.items[fc.items.length - 1];
      if (this.type === "flow-error-end") {
        let top;
        do {
          yield* this.pop();
          top = this.peek(1);
        } while (top?.type === "flow-collection");
      } else if (fc.end.length === 0) {
        switch (this.type) {
          case "comma":
          case "explicit-key-ind":
            if (!it || it.sep)
              fc.items.push({ start: [this.sourceToken] });
            else
              it.start.push(this.sourceToken);
            return;
          case "map-value-ind":
            if (!it || it.value)
              fc.items.push({ start: [], key: null, sep: [this.sourceToken] });
            else if (it.sep)
              it.sep.push(this.sourceToken);
            else
              Object.assign(it, { key: null, sep: [this.sourceToken] });
            return;
          case "space":
          case "comment":
          case "newline":
          case "anchor":
          case "tag":
            if (!it || it.value)
              fc.items.push({ start: [this.sourceToken] });
            else if (it.sep)
              it.sep.push(this.sourceToken);
            else
              it.start.push(this.sourceToken);
            return;
          case "alias":
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar": {
            const fs = this.flowScalar(this.type);
            if (!it || it.value)
              fc.items.push({ start: [], key: fs, sep: [] });
            else if (it.sep)
              this.stack.push(fs);
            else
              Object.assign(it, { key: fs, sep: [] });
            return;
          }
          case "flow-map-end":
          case "flow-seq-end":
            fc.end.push(this.sourceToken);
            return;
        }
        const bv = this.startBlockValue(fc);
        if (bv)
          this.stack.push(bv);
        else {
          yield* this.pop();
          yield* this.step();
        }
      } else {
        const parent = this.peek(2);
        if (parent.type === "block-map" && (this.type === "map-value-ind" && parent.indent === fc.indent || this.type === "newline" && !parent.items[parent.items.length - 1].sep)) {
          yield* this.pop();
          yield* this.step();
        } else if (this.type === "map-value-ind" && parent.type !== "flow-collection") {
          const prev = getPrevProps(parent);
          const start = getFirstKeyStartProps(prev);
          fixFlowSeqItems(fc);
          const sep = fc.end.splice(1, fc.end.length);
          sep.push(this.sourceToken);
          const map = {
            type: "block-map",
            offset: fc.offset,
            indent: fc.indent,
            items: [{ start, key: fc, sep }]
          };
          this.onKeyLine = true;
          this.stack[this.stack.length - 1] = map;
        } else {
          yield* this.lineEnd(fc);
        }
      }
    }
    flowScalar(type) {
      if (this.onNewLine) {
        let nl = this.source.indexOf(`
`) + 1;
        while (nl !== 0) {
          this.onNewLine(this.offset + nl);
          nl = this.source.indexOf(`
`, nl) + 1;
        }
      }
      return {
        type,
        offset: this.offset,
        indent: this.indent,
        source: this.source
      };
    }
    startBlockValue(parent) {
      switch (this.type) {
        case "alias":
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
          return this.flowScalar(this.type);
        case "block-scalar-header":
          return {
            type: "block-scalar",
            offset: this.offset,
            indent: this.indent,
            props: [this.sourceToken],
            source: ""
          };
        case "flow-map-start":
        case "flow-seq-start":
          return {
            type: "flow-collection",
            offset: this.offset,
            indent: this.indent,
            start: this.sourceToken,
            items: [],
            end: []
          };
        case "seq-item-ind":
          return {
            type: "block-seq",
            offset: this.offset,
            indent: this.indent,
            items: [{ start: [this.sourceToken] }]
          };
        case "explicit-key-ind": {
          this.onKeyLine = true;
          const prev = getPrevProps(parent);
          const start = getFirstKeyStartProps(prev);
          start.push(this.sourceToken);
          return {
            type: "block-map",
            offset: this.offset,
            indent: this.indent,
            items: [{ start, explicitKey: true }]
          };
        }
        case "map-value-ind": {
          this.onKeyLine = true;
          const prev = getPrevProps(parent);
          const start = getFirstKeyStartProps(prev);
          return {
            type: "block-map",
            offset: this.offset,
            indent: this.indent,
            items: [{ start, key: null, sep: [this.sourceToken] }]
          };
        }
      }
      return null;
    }
    atIndentedComment(start, indent) {
      if (this.type !== "comment")
        return false;
      if (this.indent <= indent)
        return false;
      return start.every((st) => st.type === "newline" || st.type === "space");
    }
    *documentEnd(docEnd) {
      if (this.type !== "doc-mode") {
        if (docEnd.end)
          docEnd.end.push(this.sourceToken);
        else
          docEnd.end = [this.sourceToken];
        if (this.type === "newline")
          yield* this.pop();
      }
    }
    *lineEnd(token) {
      switch (this.type) {
        case "comma":
        case "doc-start":
        case "doc-end":
        case "flow-seq-end":
        case "flow-map-end":
        case "map-value-ind":
          yield* this.pop();
          yield* this.step();
          break;
        case "newline":
          this.onKeyLine = false;
        case "space":
        case "comment":
        default:
          if (token.end)
            token.end.push(this.sourceToken);
          else
            token.end = [this.sourceToken];
          if (this.type === "newline")
            yield* this.pop();
      }
    }
  }
  exports.Parser = Parser;
});

// node_modules/yaml/dist/public-api.js
var require_public_api = __commonJS(function(exports) {
  var composer = require_composer();
  var Document = require_Document();
  var errors = require_errors();
  var log = require_log();
  var identity = require_identity();
  var lineCounter = require_line_counter();
  var parser = require_parser();
  function parseOptions(options) {
    const prettyErrors = options.prettyErrors !== false;
    const lineCounter$1 = options.lineCounter || prettyErrors && new lineCounter.LineCounter || null;
    return { lineCounter: lineCounter$1, prettyErrors };
  }
  function parseAllDocuments(source, options = {}) {
    const { lineCounter, prettyErrors } = parseOptions(options);
    const parser$1 = new parser.Parser(lineCounter?.addNewLine);
    const composer$1 = new composer.Composer(options);
    const docs = Array.from(composer$1.compose(parser$1.parse(source)));
    if (prettyErrors && lineCounter)
      for (const doc of docs) {
        doc.errors.forEach(errors.prettifyError(source, lineCounter));
        doc.warnings.forEach(errors.prettifyError(source, lineCounter));
      }
    if (docs.length > 0)
      return docs;
    return Object.assign([], { empty: true }, composer$1.streamInfo());
  }
  function parseDocument(source, options = {}) {
    const { lineCounter, prettyErrors } = parseOptions(options);
    const parser$1 = new parser.Parser(lineCounter?.addNewLine);
    const composer$1 = new composer.Composer(options);
    let doc = null;
    for (const _doc of composer$1.compose(parser$1.parse(source), true, source.length)) {
      if (!doc)
        doc = _doc;
      else if (doc.options.logLevel !== "silent") {
        doc.errors.push(new errors.YAMLParseError(_doc.range.slice(0, 2), "MULTIPLE_DOCS", "Source contains multiple documents; please use YAML.parseAllDocuments()"));
        break;
      }
    }
    if (prettyErrors && lineCounter) {
      doc.errors.forEach(errors.prettifyError(source, lineCounter));
      doc.warnings.forEach(errors.prettifyError(source, lineCounter));
    }
    return doc;
  }
  function parse(src, reviver, options) {
    let _reviver = undefined;
    if (typeof reviver === "function") {
      _reviver = reviver;
    } else if (options === undefined && reviver && typeof reviver === "object") {
      options = reviver;
    }
    const doc = parseDocument(src, options);
    if (!doc)
      return null;
    doc.warnings.forEach((warning) => log.warn(doc.options.logLevel, warning));
    if (doc.errors.length > 0) {
      if (doc.options.logLevel !== "silent")
        throw doc.errors[0];
      else
        doc.errors = [];
    }
    return doc.toJS(Object.assign({ reviver: _reviver }, options));
  }
  function stringify(value, replacer, options) {
    let _replacer = null;
    if (typeof replacer === "function" || Array.isArray(replacer)) {
      _replacer = replacer;
    } else if (options === undefined && replacer) {
      options = replacer;
    }
    if (typeof options === "string")
      options = options.length;
    if (typeof options === "number") {
      const indent = Math.round(options);
      options = indent < 1 ? undefined : indent > 8 ? { indent: 8 } : { indent };
    }
    if (value === undefined) {
      const { keepUndefined } = options ?? replacer ?? {};
      if (!keepUndefined)
        return;
    }
    if (identity.isDocument(value) && !_replacer)
      return value.toString(options);
    return new Document.Document(value, _replacer, options).toString(options);
  }
  exports.parse = parse;
  exports.parseAllDocuments = parseAllDocuments;
  exports.parseDocument = parseDocument;
  exports.stringify = stringify;
});

// node_modules/yaml/dist/index.js
var require_dist = __commonJS(function(exports) {
  var composer = require_composer();
  var Document = require_Document();
  var Schema = require_Schema();
  var errors = require_errors();
  var Alias = require_Alias();
  var identity = require_identity();
  var Pair = require_Pair();
  var Scalar = require_Scalar();
  var YAMLMap = require_YAMLMap();
  var YAMLSeq = require_YAMLSeq();
  var cst = require_cst();
  var lexer = require_lexer();
  var lineCounter = require_line_counter();
  var parser = require_parser();
  var publicApi = require_public_api();
  var visit = require_visit();
  exports.Composer = composer.Composer;
  exports.Document = Document.Document;
  exports.Schema = Schema.Schema;
  exports.YAMLError = errors.YAMLError;
  exports.YAMLParseError = errors.YAMLParseError;
  exports.YAMLWarning = errors.YAMLWarning;
  exports.Alias = Alias.Alias;
  exports.isAlias = identity.isAlias;
  exports.isCollection = identity.isCollection;
  exports.isDocument = identity.isDocument;
  exports.isMap = identity.isMap;
  exports.isNode = identity.isNode;
  exports.isPair = identity.isPair;
  exports.isScalar = identity.isScalar;
  exports.isSeq = identity.isSeq;
  exports.Pair = Pair.Pair;
  exports.Scalar = Scalar.Scalar;
  exports.YAMLMap = YAMLMap.YAMLMap;
  exports.YAMLSeq = YAMLSeq.YAMLSeq;
  exports.CST = cst;
  exports.Lexer = lexer.Lexer;
  exports.LineCounter = lineCounter.LineCounter;
  exports.Parser = parser.Parser;
  exports.parse = publicApi.parse;
  exports.parseAllDocuments = publicApi.parseAllDocuments;
  exports.parseDocument = publicApi.parseDocument;
  exports.stringify = publicApi.stringify;
  exports.visit = visit.visit;
  exports.visitAsync = visit.visitAsync;
});

// plugins/rpc/config.ts
function issueMessages(issues) {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => String(item.key)).join(".");
    let message = issue.message;
    if (issue.kind === "schema" && issue.type === "strict_object" && issue.expected === "never")
      message = "unknown key";
    return path ? `${path}: ${message}` : message;
  });
}
async function parseServerConfig(text, name) {
  const { parseDocument } = await Promise.resolve().then(() => __toESM(require_dist(), 1));
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length) {
    const first = doc.errors[0];
    throw new ConfigError(`invalid server config ${name}: ${first.message.split(`
`)[0].replace(/:$/, "")}`);
  }
  const value = doc.toJS() ?? {};
  const result = safeParse(ConfigSchema, value);
  if (!result.success)
    throw new ConfigError(`invalid server config ${name}: ${issueMessages(result.issues).join("; ")}`);
  return result.output;
}
function parseHostPort(value, what = "--tcp") {
  const text = String(value).trim();
  let host = "127.0.0.1";
  let portText = text;
  const v6 = /^\[([^\]]+)\]:(\d+)$/.exec(text);
  if (v6) {
    host = v6[1];
    portText = v6[2];
  } else if (text.includes(":")) {
    const at = text.lastIndexOf(":");
    host = text.slice(0, at) || host;
    portText = text.slice(at + 1);
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    throw new ConfigError(`${what}: expected host:port or a port number, got '${text}'`);
  return { host, port: Number(portText) };
}
function isLoopback(host) {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}
var positiveInt = (what) => pipe(number(`${what} must be a number`), integer(`${what} must be a whole number`), minValue(1, `${what} must be at least 1`)), seconds2 = (what) => pipe(number(`${what} must be a number of seconds`), minValue(0, `${what} must not be negative`)), TokenKey, ParticipantId, LimitsSchema, ConfigSchema, ConfigError;
var init_config = __esm(() => {
  init_dist();
  TokenKey = pipe(string(), minLength(16, "a token must be at least 16 characters long"), regex(/^[\x21-\x7e]+$/, "a token must be printable ASCII without spaces"));
  ParticipantId = pipe(string("the participant id must be a string"), minLength(1, "the participant id must not be empty"), check((s) => s.trim() === s, "the participant id must not start or end with spaces"));
  LimitsSchema = strictObject({
    maxHeaderBytes: optional(pipe(positiveInt("maxHeaderBytes"), minValue(64, "maxHeaderBytes must be at least 64"))),
    maxBodyBytes: optional(positiveInt("maxBodyBytes")),
    stallTimeoutSeconds: optional(seconds2("stallTimeoutSeconds")),
    idleTimeoutSeconds: optional(seconds2("idleTimeoutSeconds")),
    authTimeoutSeconds: optional(seconds2("authTimeoutSeconds")),
    maxConnections: optional(positiveInt("maxConnections")),
    forwardTimeoutSeconds: optional(seconds2("forwardTimeoutSeconds"))
  }, "limits must be a mapping");
  ConfigSchema = strictObject({
    root: optional(pipe(string("root must be a path"), minLength(1, "root must not be empty"))),
    tcp: optional(union([string(), number()], "tcp must be host:port or a port number")),
    unix: optional(pipe(string("unix must be a socket path"), minLength(1, "unix must not be empty"))),
    allowRemote: optional(boolean("allowRemote must be true or false")),
    tokens: optional(record(TokenKey, ParticipantId, "tokens must map each token to a participant id")),
    limits: optional(LimitsSchema),
    pollIntervalSeconds: optional(pipe(number("pollIntervalSeconds must be a number"), minValue(0.01, "pollIntervalSeconds must be at least 0.01")))
  }, "the configuration must be a YAML mapping (key: value lines)");
  ConfigError = class ConfigError extends Error {
    constructor(message) {
      super(message);
      this.name = "ConfigError";
    }
  };
});

// plugins/rpc/jsonrpc.ts
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isValidId(value) {
  return value === null || typeof value === "string" || typeof value === "number" && Number.isFinite(value);
}
function success(id, result) {
  return { jsonrpc: "2.0", id, result: result === undefined ? null : result };
}
function failure(id, error) {
  return { jsonrpc: "2.0", id, error: error instanceof RpcError ? error.toJSON() : error };
}
function withRawId(response, rawId) {
  if (rawId !== undefined)
    Object.defineProperty(response, RAW_ID, { value: rawId });
  return response;
}
function splice(response, rawId) {
  return "error" in response ? `{"jsonrpc":"2.0","id":${rawId},"error":${JSON.stringify(response.error)}}` : `{"jsonrpc":"2.0","id":${rawId},"result":${JSON.stringify(response.result) ?? "null"}}`;
}
function replyText(reply) {
  if (!Array.isArray(reply)) {
    const rawId = reply[RAW_ID];
    return rawId === undefined ? JSON.stringify(reply) : splice(reply, rawId);
  }
  if (!reply.some((r) => r[RAW_ID] !== undefined))
    return JSON.stringify(reply);
  return `[${reply.map((r) => r[RAW_ID] === undefined ? JSON.stringify(r) : splice(r, r[RAW_ID])).join(",")}]`;
}
function isCanonical(lexeme) {
  return String(Number(lexeme)) === lexeme;
}
function isNumberChar(c) {
  return c >= 48 && c <= 57 || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}
function hasNonCanonicalNumericId(text, ids) {
  SUSPECT_NUMERIC_ID.lastIndex = 0;
  while (SUSPECT_NUMERIC_ID.test(text)) {
    const end = SUSPECT_NUMERIC_ID.lastIndex;
    let from = end;
    while (isNumberChar(text.charCodeAt(from - 1)))
      from--;
    let to = end;
    while (isNumberChar(text.charCodeAt(to)))
      to++;
    const lexeme = text.slice(from, to);
    const n = Number(lexeme);
    if ((typeof ids === "number" ? Object.is(n, ids) : ids.has(n)) && String(n) !== lexeme) {
      SUSPECT_NUMERIC_ID.lastIndex = 0;
      return true;
    }
  }
  return false;
}
function hasNumberId(entry) {
  return typeof entry === "object" && entry !== null && typeof entry.id === "number";
}
function skipWhitespace(text, i) {
  for (;; ) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13)
      return i;
    i++;
  }
}
function skipString(text, i) {
  for (let q = text.indexOf('"', i + 1);q !== -1; q = text.indexOf('"', q + 1)) {
    let b = q - 1;
    while (text.charCodeAt(b) === 92)
      b--;
    if ((q - 1 - b) % 2 === 0)
      return q + 1;
  }
  return text.length;
}
function skipValue(text, i) {
  const c = text.charCodeAt(i);
  if (c === 34)
    return skipString(text, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let j = i;j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 34)
        j = skipString(text, j) - 1;
      else if (d === 123 || d === 91)
        depth++;
      else if ((d === 125 || d === 93) && --depth === 0)
        return j + 1;
    }
    return text.length;
  }
  let j = i + 1;
  for (;j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 44 || d === 125 || d === 93 || d === 32 || d === 9 || d === 10 || d === 13)
      break;
  }
  return j;
}
function scanObject(text, i) {
  let id;
  i = skipWhitespace(text, i + 1);
  while (text.charCodeAt(i) === 34) {
    const keyEnd = skipString(text, i);
    if (keyEnd >= text.length)
      break;
    const keyLength = keyEnd - i - 2;
    const isId = keyLength === 2 ? text.startsWith("id", i + 1) : keyLength <= 12 && text.slice(i, keyEnd).includes("\\") && JSON.parse(text.slice(i, keyEnd)) === "id";
    const start = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1);
    const end = skipValue(text, start);
    if (isId)
      id = text.slice(start, end);
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) !== 44)
      break;
    i = skipWhitespace(text, i + 1);
  }
  return { id, end: i + 1 };
}
function scanIdLexemes(text) {
  let i = skipWhitespace(text, 0);
  const c = text.charCodeAt(i);
  if (c === 123)
    return [scanObject(text, i).id];
  if (c !== 91)
    return [];
  const ids = [];
  i = skipWhitespace(text, i + 1);
  while (i < text.length && text.charCodeAt(i) !== 93) {
    if (text.charCodeAt(i) === 123) {
      const { id, end } = scanObject(text, i);
      ids.push(id);
      i = end;
    } else {
      ids.push(undefined);
      i = skipValue(text, i);
    }
    i = skipWhitespace(text, i);
    if (text.charCodeAt(i) !== 44)
      break;
    i = skipWhitespace(text, i + 1);
  }
  return ids;
}
function rawIds(text, value) {
  let ids;
  if (Array.isArray(value)) {
    ids = new Set(value.filter(hasNumberId).map((entry) => entry.id));
    if (!ids.size)
      return;
  } else {
    if (!hasNumberId(value))
      return;
    ids = value.id;
  }
  if (!hasNonCanonicalNumericId(text, ids))
    return;
  const entries = Array.isArray(value) ? value : [value];
  const lexemes = scanIdLexemes(text);
  let found = false;
  const raw = entries.map((entry, k) => {
    const lexeme = lexemes[k];
    if (lexeme === undefined || !hasNumberId(entry) || !JSON_NUMBER.test(lexeme) || isCanonical(lexeme))
      return;
    if (!Object.is(Number(lexeme), entry.id))
      return;
    found = true;
    return lexeme;
  });
  return found ? raw : undefined;
}
function isResponse(value) {
  return isPlainObject(value) && !("method" in value) && "id" in value && (("result" in value) || ("error" in value));
}
function checkRequest(entry, rawId) {
  if (!isPlainObject(entry))
    return { invalid: failure(null, new RpcError(RpcCode.InvalidRequest, "Invalid Request: expected a request object")) };
  const readable = "id" in entry && (isValidId(entry.id) || rawId !== undefined && typeof entry.id === "number");
  const id = readable ? entry.id : null;
  const invalid = (why) => ({ invalid: withRawId(failure(id, new RpcError(RpcCode.InvalidRequest, `Invalid Request: ${why}`)), readable ? rawId : undefined) });
  if (entry.jsonrpc !== "2.0")
    return invalid('jsonrpc must be exactly "2.0"');
  if ("id" in entry && !readable)
    return invalid("id must be a string, a number or null");
  if (typeof entry.method !== "string")
    return invalid("method must be a string");
  if ("params" in entry && !(isPlainObject(entry.params) || Array.isArray(entry.params)))
    return invalid("params must be an object or an array");
  if ("result" in entry || "error" in entry)
    return invalid("a request must not carry result or error");
  return { request: entry };
}
function runOne(entry, handler, report, rawId) {
  const checked = checkRequest(entry, rawId);
  if ("invalid" in checked)
    return { response: checked.invalid, afters: [] };
  const { request } = checked;
  const notification = !("id" in request);
  const id = notification ? undefined : request.id;
  const afters = [];
  const info = { method: request.method, id, notification, after: (fn) => void afters.push(fn) };
  const settle = (result) => ({ response: notification ? undefined : withRawId(success(id, result), rawId), afters });
  const fail = (error) => {
    if (!(error instanceof RpcError))
      report?.(error, request.method);
    const rpcError = error instanceof RpcError ? error : new RpcError(RpcCode.InternalError);
    return { response: notification ? undefined : withRawId(failure(id, rpcError), rawId), afters };
  };
  let value;
  try {
    value = handler(request.method, request.params, info);
  } catch (error) {
    return fail(error);
  }
  if (value instanceof Promise)
    return value.then(settle, fail);
  return settle(value);
}
function handleMessage(value, handler, report, raw) {
  if (!Array.isArray(value)) {
    const one = runOne(value, handler, report, raw?.[0]);
    const wrap = (o) => ({ reply: o.response, afters: o.afters });
    return one instanceof Promise ? one.then(wrap) : wrap(one);
  }
  if (value.length === 0)
    return { reply: failure(null, new RpcError(RpcCode.InvalidRequest, "Invalid Request: empty batch")), afters: [] };
  const outcomes = value.map((entry, k) => runOne(entry, handler, report, raw?.[k]));
  const combine = (all) => {
    const replies = all.map((o) => o.response).filter((r) => r !== undefined);
    return { reply: replies.length ? replies : undefined, afters: all.flatMap((o) => o.afters) };
  };
  if (outcomes.some((o) => o instanceof Promise))
    return Promise.all(outcomes).then(combine);
  return combine(outcomes);
}
function parseErrorResponse(detail) {
  return failure(null, new RpcError(RpcCode.ParseError, `Parse error: ${detail}`));
}
var RpcCode, RPC_MESSAGES, RpcError, RAW_ID, JSON_NUMBER, SUSPECT_NUMERIC_ID;
var init_jsonrpc = __esm(() => {
  RpcCode = {
    ParseError: -32700,
    InvalidRequest: -32600,
    MethodNotFound: -32601,
    InvalidParams: -32602,
    InternalError: -32603,
    AgentNotFound: -32000,
    AgentBusy: -32001,
    TaskNotFound: -32002,
    TaskNotCompleted: -32003,
    ProtocolRefusal: -32010,
    Unauthorized: -32020
  };
  RPC_MESSAGES = Object.freeze({
    [-32700]: "Parse error",
    [-32600]: "Invalid Request",
    [-32601]: "Method not found",
    [-32602]: "Invalid params",
    [-32603]: "Internal error",
    [-32000]: "Agent Not Found",
    [-32001]: "Agent Busy",
    [-32002]: "Task Not Found",
    [-32003]: "Task Not Completed",
    [-32010]: "Protocol refusal",
    [-32020]: "Unauthorized"
  });
  RpcError = class RpcError extends Error {
    code;
    data;
    constructor(code, message, data) {
      super(message ?? RPC_MESSAGES[code] ?? "Server error");
      this.name = "RpcError";
      this.code = code;
      this.data = data;
    }
    toJSON() {
      return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
    }
  };
  RAW_ID = Symbol("rawId");
  JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
  SUSPECT_NUMERIC_ID = /"(?:i|\\u0069)(?:d|\\u0064)"[ \t\n\r]*:[ \t\n\r]*(?:-0|-?[0-9]+[.eE]|-?[0-9]{16})/g;
});

// plugins/rpc/framing.ts
function parseHeader(bytes, limits) {
  if (bytes.length > FAST_PREFIX.length && bytes.length <= FAST_PREFIX.length + 15) {
    let i = 0;
    while (i < FAST_PREFIX.length && bytes[i] === FAST_PREFIX[i])
      i++;
    if (i === FAST_PREFIX.length) {
      let length = 0;
      for (;i < bytes.length; i++) {
        const d = bytes[i] - 48;
        if (d < 0 || d > 9)
          break;
        length = length * 10 + d;
      }
      if (i === bytes.length) {
        if (length > limits.maxBodyBytes)
          throw `message too large: Content-Length ${length} exceeds the limit of ${limits.maxBodyBytes} bytes`;
        return { length };
      }
    }
  }
  let text = "";
  for (let i = 0;i < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 128 || b < 32 && b !== 9 && b !== CR && b !== LF || b === 127)
      throw "malformed header: non-ASCII or control byte";
    text += String.fromCharCode(b);
  }
  let length;
  let skip;
  for (const line of text.split(`\r
`)) {
    const colon = line.indexOf(":");
    if (colon <= 0)
      throw `malformed header line: ${JSON.stringify(line.slice(0, 80))}`;
    const name = line.slice(0, colon);
    if (!HEADER_NAME.test(name))
      throw `malformed header name: ${JSON.stringify(name.slice(0, 80))}`;
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "");
    const key = name.toLowerCase();
    if (key === "content-length") {
      if (!/^[0-9]{1,15}$/.test(value))
        throw `invalid Content-Length: ${JSON.stringify(value.slice(0, 40))}`;
      const n = Number(value);
      if (length !== undefined && length !== n)
        throw "conflicting Content-Length headers";
      length = n;
    } else if (key === "content-type") {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(value)?.[1];
      if (charset !== undefined && !/^utf-?8$/i.test(charset))
        skip = `unsupported charset '${charset}' (only utf-8 is accepted)`;
    }
  }
  if (length === undefined)
    throw "missing Content-Length header";
  if (length > limits.maxBodyBytes)
    throw `message too large: Content-Length ${length} exceeds the limit of ${limits.maxBodyBytes} bytes`;
  return { length, skip };
}

class FrameDecoder {
  limits;
  header;
  headerLength = 0;
  mode = "header";
  body;
  need = 0;
  got = 0;
  skipReason = "";
  constructor(limits = {}) {
    this.limits = {
      maxHeaderBytes: limits.maxHeaderBytes ?? DEFAULT_FRAME_LIMITS.maxHeaderBytes,
      maxBodyBytes: limits.maxBodyBytes ?? DEFAULT_FRAME_LIMITS.maxBodyBytes
    };
    this.header = new Uint8Array(Math.min(this.limits.maxHeaderBytes, 256));
  }
  get midMessage() {
    return this.mode === "body" || this.mode === "skip" || this.headerLength > 0;
  }
  get dead() {
    return this.mode === "dead";
  }
  push(chunk) {
    const events = [];
    const n = chunk.length;
    let i = 0;
    while (i < n && this.mode !== "dead") {
      if (this.mode === "header") {
        const b = chunk[i++];
        if (this.headerLength === 0 && (b === CR || b === LF))
          continue;
        if (this.headerLength >= this.limits.maxHeaderBytes) {
          events.push(this.fail(`header too large: more than ${this.limits.maxHeaderBytes} bytes without a blank line`));
          break;
        }
        this.appendHeaderByte(b);
        if (b !== LF)
          continue;
        const h = this.header;
        const len = this.headerLength;
        if (len < 2 || h[len - 2] !== CR) {
          events.push(this.fail("malformed header: lines must end with CRLF"));
          break;
        }
        if (len < 4 || h[len - 3] !== LF || h[len - 4] !== CR)
          continue;
        let parsed;
        try {
          parsed = parseHeader(h.subarray(0, len - 4), this.limits);
        } catch (reason) {
          events.push(this.fail(String(reason)));
          break;
        }
        this.headerLength = 0;
        this.need = parsed.length;
        this.got = 0;
        if (parsed.skip !== undefined) {
          this.mode = "skip";
          this.skipReason = parsed.skip;
        } else
          this.mode = "body";
        if (this.need === 0) {
          if (this.mode === "skip") {
            this.mode = "header";
            events.push({ type: "skip", reason: this.skipReason });
          } else
            this.finishBody(events, new Uint8Array(0));
        }
      } else if (this.mode === "skip") {
        const take = Math.min(n - i, this.need - this.got);
        this.got += take;
        i += take;
        if (this.got === this.need) {
          this.mode = "header";
          events.push({ type: "skip", reason: this.skipReason });
        }
      } else {
        const take = Math.min(n - i, this.need - this.got);
        if (this.got === 0 && take === this.need) {
          i += take;
          this.finishBody(events, chunk.subarray(i - take, i));
          continue;
        }
        this.body ??= new Uint8Array(this.need);
        this.body.set(chunk.subarray(i, i + take), this.got);
        this.got += take;
        i += take;
        if (this.got === this.need) {
          const body = this.body;
          this.body = undefined;
          this.finishBody(events, body);
        }
      }
    }
    return events;
  }
  appendHeaderByte(b) {
    if (this.headerLength === this.header.length) {
      const bigger = new Uint8Array(Math.min(this.header.length * 2, this.limits.maxHeaderBytes));
      bigger.set(this.header);
      this.header = bigger;
    }
    this.header[this.headerLength++] = b;
  }
  finishBody(events, body) {
    this.mode = "header";
    this.need = 0;
    this.got = 0;
    events.push({ type: "message", body });
  }
  fail(reason) {
    this.mode = "dead";
    this.body = undefined;
    this.headerLength = 0;
    return { type: "fatal", reason };
  }
}
function encodeFrame(json) {
  if (json.length > 65536) {
    const body = encoder.encode(json);
    const header = encoder.encode(`Content-Length: ${body.length}\r
\r
`);
    const out = new Uint8Array(header.length + body.length);
    out.set(header, 0);
    out.set(body, header.length);
    return out;
  }
  let out = new Uint8Array(HEADER_ROOM + json.length);
  let { read, written } = encoder.encodeInto(json, out.subarray(HEADER_ROOM));
  if (read < json.length) {
    out = new Uint8Array(HEADER_ROOM + json.length * 3);
    ({ read, written } = encoder.encodeInto(json, out.subarray(HEADER_ROOM)));
  }
  const header = `Content-Length: ${written}\r
\r
`;
  const start = HEADER_ROOM - header.length;
  for (let i = 0;i < header.length; i++)
    out[start + i] = header.charCodeAt(i);
  return out.subarray(start, HEADER_ROOM + written);
}
function decodeBody(body) {
  return strictDecoder.decode(body);
}
var CR = 13, LF = 10, DEFAULT_FRAME_LIMITS, HEADER_NAME, FAST_PREFIX, encoder, HEADER_ROOM = 40, strictDecoder;
var init_framing = __esm(() => {
  DEFAULT_FRAME_LIMITS = Object.freeze({ maxHeaderBytes: 8 * 1024, maxBodyBytes: 4 * 1024 * 1024 });
  HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  FAST_PREFIX = [..."Content-Length: "].map((c) => c.charCodeAt(0));
  encoder = new TextEncoder;
  strictDecoder = new TextDecoder("utf-8", { fatal: true });
});

// plugins/rpc/peer.ts
class Peer {
  stream;
  decoder;
  options;
  pending = new Map;
  nextId = 1;
  isClosed = false;
  closeReason = "closed";
  lastMessageAt = Date.now();
  lastByteAt = Date.now();
  timer;
  closeListeners = [];
  closed;
  constructor(stream, options = {}) {
    this.stream = stream;
    this.options = options;
    this.decoder = new FrameDecoder(options.limits);
    let done;
    this.closed = new Promise((resolve) => done = resolve);
    this.closeListeners.push((reason) => done(reason));
    stream.on("data", (chunk) => this.receive(chunk));
    stream.on("error", (error) => this.finish(`error: ${error.message}`));
    stream.on("close", () => this.finish(this.closeReason));
    this.armTimer();
  }
  get isOpen() {
    return !this.isClosed;
  }
  onClose(listener) {
    if (this.isClosed)
      listener(this.closeReason);
    else
      this.closeListeners.push(listener);
  }
  request(method, params, options = {}) {
    if (this.isClosed)
      return Promise.reject(new RpcConnectionError(`connection closed (${this.closeReason})`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject };
      if (options.timeoutMs && options.timeoutMs > 0) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new RpcConnectionError(`no answer to ${method} within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
      }
      this.pending.set(id, entry);
      this.sendValue(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    });
  }
  notify(method, params) {
    if (this.isClosed)
      return;
    this.sendValue(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }
  sendValue(value) {
    this.sendRaw(JSON.stringify(value));
  }
  sendRaw(json) {
    if (this.isClosed)
      return;
    this.stream.write(encodeFrame(json));
    const queued = this.stream.writableLength;
    if (queued !== undefined && queued > (this.options.maxQueuedBytes ?? 16 * 1024 * 1024))
      this.destroy("peer is not reading its answers");
  }
  close(reason = "closed") {
    if (this.isClosed)
      return;
    this.closeReason = reason;
    try {
      this.stream.end();
    } catch {}
    const force = setTimeout(() => this.destroy(reason), 2000);
    force.unref?.();
    this.finish(reason);
  }
  destroy(reason = "closed") {
    this.closeReason = this.isClosed ? this.closeReason : reason;
    try {
      this.stream.destroy();
    } catch {}
    this.finish(reason);
  }
  finish(reason) {
    if (this.isClosed)
      return;
    this.isClosed = true;
    this.closeReason = reason;
    if (this.timer)
      clearTimeout(this.timer);
    for (const [, entry] of this.pending) {
      if (entry.timer)
        clearTimeout(entry.timer);
      entry.reject(new RpcConnectionError(`connection closed (${reason})`));
    }
    this.pending.clear();
    for (const listener of this.closeListeners.splice(0))
      listener(reason);
  }
  armTimer() {
    const stall = this.options.stallTimeoutMs ?? 1e4;
    const idle = this.options.idleTimeoutMs ?? 0;
    const periods = [stall, idle].filter((ms) => ms > 0);
    if (!periods.length || this.isClosed)
      return;
    const period = Math.max(10, Math.min(...periods) / 4);
    this.timer = setTimeout(() => {
      const now = Date.now();
      if (stall > 0 && this.decoder.midMessage && now - this.lastByteAt >= stall) {
        this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: incomplete message, nothing received for ${stall} ms`)));
        this.close("stalled in the middle of a message");
        return;
      }
      if (idle > 0 && now - this.lastMessageAt >= idle) {
        this.close("idle");
        return;
      }
      this.armTimer();
    }, period);
    this.timer.unref?.();
  }
  receive(chunk) {
    if (this.isClosed)
      return;
    this.lastByteAt = Date.now();
    for (const event of this.decoder.push(chunk)) {
      if (event.type === "fatal") {
        this.options.onProtocolError?.(event.reason);
        this.sendValue(failure(null, new RpcError(RpcCode.InvalidRequest, `Invalid Request: ${event.reason}`)));
        this.close(event.reason);
        return;
      }
      this.lastMessageAt = this.lastByteAt;
      if (event.type === "skip") {
        this.sendValue(parseErrorResponse(event.reason));
        continue;
      }
      let text;
      let value;
      try {
        text = decodeBody(event.body);
        value = JSON.parse(text);
      } catch (error) {
        this.sendValue(parseErrorResponse(error instanceof TypeError ? "body is not valid UTF-8" : "body is not valid JSON"));
        continue;
      }
      this.dispatch(value, text);
      if (this.isClosed)
        return;
    }
  }
  dispatch(value, text) {
    if (isResponse(value)) {
      this.settle(value);
      return;
    }
    if (Array.isArray(value) && value.length > 0 && value.every(isResponse)) {
      for (const response of value)
        this.settle(response);
      return;
    }
    const handler = this.options.handler ?? ((method) => {
      throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
    });
    const handled = handleMessage(value, handler, this.options.onInternalError, rawIds(text, value));
    if (handled instanceof Promise)
      handled.then((h) => this.reply(h), () => {
        return;
      });
    else
      this.reply(handled);
  }
  reply(handled) {
    if (handled.reply !== undefined)
      this.sendRaw(replyText(handled.reply));
    for (const fn of handled.afters)
      fn();
  }
  settle(response) {
    const entry = this.pending.get(response.id);
    if (!entry)
      return;
    this.pending.delete(response.id);
    if (entry.timer)
      clearTimeout(entry.timer);
    if ("error" in response)
      entry.reject(new RpcResponseError(response.error));
    else
      entry.resolve(response.result);
  }
}
var RpcConnectionError, RpcResponseError;
var init_peer = __esm(() => {
  init_framing();
  init_jsonrpc();
  RpcConnectionError = class RpcConnectionError extends Error {
    constructor(message) {
      super(message);
      this.name = "RpcConnectionError";
    }
  };
  RpcResponseError = class RpcResponseError extends Error {
    code;
    data;
    constructor(error) {
      super(error.message);
      this.name = "RpcResponseError";
      this.code = error.code;
      this.data = error.data;
    }
  };
});

// plugins/rpc/client.ts
function parseEndpoint(text) {
  const value = text.trim();
  if (value.startsWith("unix:")) {
    const path = value.slice(5).replace(/^\/\/(?=\/)/, "");
    if (!path)
      throw new RpcEndpointError(`invalid endpoint '${text}': missing socket path`);
    return { kind: "unix", path };
  }
  if (value.startsWith("/") || value.startsWith("./") || value.startsWith("../"))
    return { kind: "unix", path: value };
  const rest = value.startsWith("tcp://") ? value.slice(6) : value;
  const v6 = /^\[([^\]]+)\]:(\d{1,5})$/.exec(rest);
  const v4 = /^([^:/\s]*):(\d{1,5})$/.exec(rest);
  const bare = /^(\d{1,5})$/.exec(rest);
  const host = v6?.[1] ?? v4?.[1] ?? "127.0.0.1";
  const port = Number(v6?.[2] ?? v4?.[2] ?? bare?.[1] ?? NaN);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new RpcEndpointError(`invalid endpoint '${text}': expected tcp://host:port, host:port or unix:/path`);
  return { kind: "tcp", host: host || "127.0.0.1", port };
}
function formatEndpoint(endpoint) {
  return endpoint.kind === "unix" ? `unix:${endpoint.path}` : `tcp://${endpoint.host.includes(":") ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}`;
}
function isPermissionRefusal(error) {
  return error?.name === "NotCapable";
}
async function openStream(endpoint, timeoutMs) {
  const net = await import("node:net");
  const failed = (error) => {
    const wrapped = new RpcConnectionError(`cannot connect to ${formatEndpoint(endpoint)}: ${error.message}`);
    if (isPermissionRefusal(error))
      refusals.add(wrapped);
    return wrapped;
  };
  return new Promise((resolve, reject) => {
    let socket;
    try {
      socket = endpoint.kind === "unix" ? net.connect(endpoint.path) : net.connect(endpoint.port, endpoint.host);
    } catch (error) {
      reject(failed(error));
      return;
    }
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new RpcConnectionError(`connect to ${formatEndpoint(endpoint)} timed out`));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.setNoDelay?.(true);
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(failed(error));
    });
  });
}

class RpcClient {
  endpoint;
  options;
  peer;
  connecting;
  closedByUser = false;
  heartbeat;
  subs = new Set;
  early = [];
  attempts = 0;
  participant;
  constructor(endpoint, options) {
    this.endpoint = endpoint;
    this.options = options;
  }
  static async connect(endpoint, options = {}) {
    const client = new RpcClient(typeof endpoint === "string" ? parseEndpoint(endpoint) : endpoint, options);
    await client.ensure();
    return client;
  }
  static async fromStream(stream, options = {}) {
    const client = new RpcClient({ kind: "unix", path: "(stream)" }, { ...options, reconnect: false });
    client.connecting = client.setup(stream);
    await client.connecting;
    return client;
  }
  get connected() {
    return this.peer?.isOpen ?? false;
  }
  async call(method, params, options = {}) {
    const peer = await this.ensure();
    return peer.request(method, params, { timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs });
  }
  async notify(method, params) {
    (await this.ensure()).notify(method, params);
  }
  async acp(action, args = {}) {
    const result = await this.call("agent/call", { agent: "acp", action, args });
    return result?.data;
  }
  async subscribe(params, listener) {
    const entry = { params: { task: params.task, participant: params.participant }, listener, serverId: undefined, lastSeq: 0, active: true };
    const initial = await this.startSubscription(entry, params.fromSeq);
    return {
      initial,
      unsubscribe: async () => {
        entry.active = false;
        this.subs.delete(entry);
        if (entry.serverId && this.connected)
          await this.call("agent/unsubscribe", { subscription: entry.serverId }).catch(() => {
            return;
          });
      }
    };
  }
  close() {
    this.closedByUser = true;
    if (this.heartbeat)
      clearInterval(this.heartbeat);
    this.peer?.close("closed by client");
    this.options.onStatus?.("closed");
  }
  async startSubscription(entry, fromSeq) {
    const params = { task: entry.params.task };
    if (entry.params.participant !== undefined)
      params.participant = entry.params.participant;
    if (fromSeq !== undefined)
      params.fromSeq = fromSeq;
    const peer = await this.ensure();
    const initial = await peer.request("agent/subscribe", params);
    entry.serverId = String(initial.subscription);
    if (typeof initial.seq === "number" && fromSeq === undefined)
      entry.lastSeq = initial.seq;
    this.subs.add(entry);
    const early = this.early.filter((n) => n.subscription === entry.serverId);
    this.early.splice(0, this.early.length, ...this.early.filter((n) => n.subscription !== entry.serverId));
    for (const n of early)
      this.deliver(entry, n);
    return initial;
  }
  ensure() {
    if (this.peer?.isOpen)
      return Promise.resolve(this.peer);
    if (this.closedByUser)
      return Promise.reject(new RpcConnectionError("client closed"));
    this.connecting ??= this.connectLoop().finally(() => this.connecting = undefined);
    return this.connecting;
  }
  async connectLoop() {
    const initial = this.options.backoff?.initialMs ?? 100;
    const max = this.options.backoff?.maxMs ?? 5000;
    for (;; ) {
      try {
        const stream = await openStream(this.endpoint, 1e4);
        const peer = await this.setup(stream);
        this.attempts = 0;
        return peer;
      } catch (error) {
        this.attempts++;
        if (error instanceof RpcResponseError || refusals.has(error) || this.options.reconnect === false || this.closedByUser)
          throw error;
        if (this.options.maxAttempts !== undefined && this.attempts >= this.options.maxAttempts)
          throw error;
        const delay = Math.min(max, initial * 2 ** (this.attempts - 1));
        this.options.onStatus?.("reconnecting", `${error.message}; retrying in ${delay} ms`);
        await sleep(delay / 2 + Math.random() * (delay / 2));
      }
    }
  }
  async setup(stream) {
    const peer = new Peer(stream, {
      limits: { maxBodyBytes: 67108864, ...this.options.limits },
      stallTimeoutMs: 60000,
      handler: (method, params, info) => this.handle(method, params, info)
    });
    try {
      if (this.options.token !== undefined || this.options.participant !== undefined) {
        const auth = {};
        if (this.options.token !== undefined)
          auth.token = this.options.token;
        if (this.options.participant !== undefined)
          auth.participant = this.options.participant;
        if (this.options.capabilities?.length)
          auth.capabilities = this.options.capabilities;
        if (this.options.version !== undefined)
          auth.version = this.options.version;
        const answer = await peer.request("authenticate", auth, { timeoutMs: 1e4 });
        this.participant = answer.participant;
      }
    } catch (error) {
      peer.destroy("authentication failed");
      throw error;
    }
    this.peer = peer;
    this.options.onStatus?.("connected", formatEndpoint(this.endpoint));
    peer.onClose((reason) => this.dropped(peer, reason));
    this.startHeartbeat(peer);
    for (const entry of this.subs) {
      if (!entry.active)
        continue;
      this.startSubscription(entry, entry.lastSeq + 1).catch(() => {
        return;
      });
    }
    return peer;
  }
  startHeartbeat(peer) {
    if (this.heartbeat)
      clearInterval(this.heartbeat);
    const period = this.options.heartbeatMs ?? 30000;
    if (period <= 0)
      return;
    this.heartbeat = setInterval(() => {
      if (!peer.isOpen)
        return;
      peer.request("ping", undefined, { timeoutMs: this.options.heartbeatTimeoutMs ?? 1e4 }).catch(() => peer.destroy("heartbeat not answered"));
    }, period);
    this.heartbeat.unref?.();
  }
  dropped(peer, reason) {
    if (this.peer !== peer)
      return;
    this.peer = undefined;
    this.early.length = 0;
    if (this.heartbeat)
      clearInterval(this.heartbeat);
    if (this.closedByUser)
      return;
    this.options.onStatus?.("disconnected", reason);
    if (this.options.reconnect !== false && this.subs.size > 0)
      this.ensure().catch(() => {
        return;
      });
  }
  deliver(entry, n) {
    if (!entry.active)
      return;
    const event = n.event;
    if (event && typeof event.seq === "number") {
      if (event.seq <= entry.lastSeq)
        return;
      entry.lastSeq = event.seq;
    }
    entry.listener(n);
  }
  handle(method, params, _info) {
    const p = params ?? {};
    if (method === "agent/event" || method === "agent/state") {
      const entry = [...this.subs].find((e) => e.active && e.serverId === p.subscription);
      if (entry)
        this.deliver(entry, { ...p, method });
      else if (this.early.length < 1e4)
        this.early.push({ ...p, method });
      return;
    }
    if (method === "message/received") {
      this.options.onMessage?.(p);
      return;
    }
    if (method === "agent/call" && this.options.onCall) {
      return Promise.resolve(this.options.onCall({ from: p.from ?? null, action: String(p.action), args: p.args ?? {} })).then((data) => ({ status: "success", data: data ?? null }), (error) => {
        if (error instanceof RpcError)
          throw error;
        throw new RpcError(RpcCode.InternalError, error instanceof Error ? error.message : String(error));
      });
    }
    if (method === "ping")
      return { pong: true };
    throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
  }
}
var RpcEndpointError, refusals;
var init_client = __esm(() => {
  init_jsonrpc();
  init_peer();
  init_util();
  init_peer();
  RpcEndpointError = class RpcEndpointError extends Error {
    constructor(message) {
      super(message);
      this.name = "RpcEndpointError";
    }
  };
  refusals = new WeakSet;
});

// plugins/rpc/collab.ts
import * as nodePath4 from "node:path";
function snapshot(state) {
  return { phase: state.phase, proposalOwner: state.proposalOwner, waitingFor: [...state.waitingFor] };
}

class Collab {
  task;
  folder;
  events = [];
  states = [];
  state;
  size = 0;
  protocolKey = "";
  cachedState = { phase: null, proposalOwner: null, waitingFor: [] };
  protocol;
  lastProtocol;
  version = 0;
  statusCache;
  statusInflight;
  scanning = false;
  dirty = false;
  lockSeenAt;
  retryTimer;
  stopWatch;
  docWatches = new Map;
  pollTimer;
  pollKey = "";
  listeners = new Set;
  closed = false;
  ready;
  core;
  host;
  registry;
  constructor(core, host, registry, task, folder, pollIntervalMs) {
    this.core = core;
    this.host = host;
    this.registry = registry;
    this.task = task;
    this.folder = folder;
    this.state = core.emptyState();
    this.stopWatch = host.fs.watch?.(folder, () => this.touch()) ?? (() => {
      return;
    });
    this.watchDocumentDir("deliverables");
    this.pollTimer = setInterval(() => void this.poll(), pollIntervalMs);
    this.pollTimer.unref?.();
    this.ready = this.poll().then(() => this.runScans());
  }
  listen(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  get listenerCount() {
    return this.listeners.size;
  }
  get cached() {
    return this.cachedState;
  }
  get derived() {
    return snapshot(this.state);
  }
  touch() {
    if (this.closed)
      return;
    this.version++;
    this.runScans();
  }
  async watchDocumentDir(dir) {
    if (!this.host.fs.watch || this.docWatches.has(dir) || this.closed)
      return;
    const path = nodePath4.join(this.folder, dir);
    if (!(await this.host.fs.stat(path).catch(() => {
      return;
    }))?.isDirectory || this.docWatches.has(dir) || this.closed)
      return;
    this.docWatches.set(dir, this.host.fs.watch(path, () => {
      this.version++;
    }));
  }
  watchDocumentDirs(events) {
    for (const event of events) {
      if (typeof event.doc !== "string")
        continue;
      const dir = nodePath4.normalize(nodePath4.dirname(event.doc));
      if (dir === "." || dir === ".." || dir.startsWith(`..${nodePath4.sep}`) || nodePath4.isAbsolute(dir))
        continue;
      this.watchDocumentDir(dir);
    }
  }
  close() {
    this.closed = true;
    this.stopWatch();
    for (const stop of this.docWatches.values())
      stop();
    this.docWatches.clear();
    clearInterval(this.pollTimer);
    if (this.retryTimer)
      clearTimeout(this.retryTimer);
    this.listeners.clear();
  }
  async poll() {
    try {
      const [events, protocol] = await Promise.all([
        this.host.fs.stat(nodePath4.join(this.folder, "events.jsonl")),
        this.host.fs.stat(nodePath4.join(this.folder, "protocol.json"))
      ]);
      const key = `${events?.size}:${events?.mtimeMs}:${protocol?.size}:${protocol?.mtimeMs}`;
      if (key !== this.pollKey) {
        const first = this.pollKey === "";
        this.pollKey = key;
        if (!first)
          this.touch();
      }
    } catch {}
  }
  async runScans() {
    if (this.scanning) {
      this.dirty = true;
      return;
    }
    this.scanning = true;
    try {
      do {
        this.dirty = false;
        await this.scan().catch(() => {
          return;
        });
      } while (this.dirty && !this.closed);
    } finally {
      this.scanning = false;
    }
  }
  retrySoon() {
    if (this.retryTimer)
      return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.touch();
    }, 25);
    this.retryTimer.unref?.();
  }
  async readNewBytes() {
    const { host } = this;
    const path = nodePath4.join(this.folder, "events.jsonl");
    if (host.fs.readTail && this.size > 0) {
      const stat = await host.fs.stat(path);
      if (stat?.isFile && stat.size >= this.size) {
        const read = await host.fs.readTail(path, stat.size - this.size);
        if (read && read.stat.size - read.bytes.length === this.size)
          return { offset: this.size, bytes: read.bytes };
      }
    }
    try {
      return { offset: 0, bytes: await host.fs.readFile(path) };
    } catch (error) {
      if (errorCode(error) !== "ENOENT")
        throw error;
      return { offset: 0, bytes: new Uint8Array(0) };
    }
  }
  async scan() {
    const { core, host } = this;
    if (await host.fs.stat(nodePath4.join(this.folder, ".acp.lock"))) {
      const now = Date.now();
      this.lockSeenAt ??= now;
      if (now - this.lockSeenAt < LOCK_GRACE_MS) {
        this.retrySoon();
        return;
      }
    } else
      this.lockSeenAt = undefined;
    const log = await this.readNewBytes();
    let protocol;
    try {
      protocol = await core.readProtocol(host, this.folder);
    } catch {
      protocol = undefined;
    }
    this.protocol = protocol;
    const effective = protocol ?? this.lastProtocol;
    if (protocol)
      this.lastProtocol = protocol;
    const participants = effective ? core.participantIds(effective) : [];
    const bytes = log.bytes;
    const end = log.offset + bytes.lastIndexOf(10) + 1;
    let reset = false;
    if (log.offset === 0 && end < this.size) {
      reset = this.size > 0;
      this.size = 0;
      this.events.length = 0;
      this.states.length = 0;
      this.state = core.emptyState();
    }
    const fresh = [];
    if (end > this.size) {
      let text = "";
      try {
        text = core.decodeText(bytes.subarray(this.size - log.offset, end - log.offset), "events.jsonl");
      } catch {
        text = "";
      }
      this.size = end;
      const empty = core.readReadiness("");
      for (const event of core.parseEventLog(text).events) {
        core.applyEvent(this.state, event, participants, empty);
        this.events.push(event);
        this.states.push(snapshot(this.state));
        fresh.push(event);
      }
    }
    this.watchDocumentDirs(fresh);
    const cached = effective ? {
      phase: typeof effective.currentPhase === "string" ? effective.currentPhase : null,
      proposalOwner: typeof effective.proposalOwner === "string" ? effective.proposalOwner : null,
      waitingFor: Array.isArray(effective.waitingFor) ? effective.waitingFor.map((w) => core.pyStr(w)) : []
    } : { phase: null, proposalOwner: null, waitingFor: [] };
    const key = JSON.stringify(cached);
    const stateChanged = key !== this.protocolKey;
    const initial = this.protocolKey === "";
    this.protocolKey = key;
    this.cachedState = cached;
    if (initial && !reset)
      return;
    const first = this.events.length - fresh.length;
    for (let i = 0;i < fresh.length; i++)
      this.emit({ kind: "event", event: fresh[i], state: this.states[first + i] });
    if (reset || stateChanged && fresh.length === 0)
      this.emit({ kind: "state", state: cached, reset });
  }
  emit(update) {
    for (const listener of this.listeners) {
      try {
        listener(update);
      } catch {}
    }
  }
  status() {
    const version = this.version;
    const cache = this.statusCache;
    if (cache && cache.version === version && Date.now() - cache.at < STATUS_MAX_AGE_MS)
      return Promise.resolve(cache.value);
    if (this.statusInflight && this.statusInflight.version === version)
      return this.statusInflight.promise;
    const promise = this.computeStatus().then((value) => {
      if (this.statusInflight?.promise === promise)
        this.statusInflight = undefined;
      this.statusCache = { version, at: Date.now(), value };
      return value;
    }, (error) => {
      if (this.statusInflight?.promise === promise)
        this.statusInflight = undefined;
      throw error;
    });
    this.statusInflight = { version, promise };
    return promise;
  }
  async computeStatus() {
    const { core, host } = this;
    const protocol = await core.readProtocol(host, this.folder);
    const log = await core.readEventLog(host, this.folder);
    const last = log.events.at(-1);
    const validation = await core.validate(host, this.folder, this.registry);
    return {
      phase: protocol.currentPhase ?? null,
      proposalOwner: protocol.proposalOwner ?? null,
      waitingFor: protocol.waitingFor ?? [],
      lastEvent: last ? { seq: last.seq, event: last.event, from: last.from, at: last.at, summary: last.summary } : null,
      validation: { ok: validation.ok, errors: validation.errors, warnings: validation.warnings }
    };
  }
}
var STATUS_MAX_AGE_MS = 1000, LOCK_GRACE_MS = 1000;
var init_collab = __esm(() => {
  init_util();
});

// plugins/rpc/server.ts
import * as nodePath5 from "node:path";
function issueText(issues) {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => String(item.key)).join(".");
    const message = issue.kind === "schema" && issue.expected === "never" ? "unknown parameter" : issue.message;
    return path ? `${path}: ${message}` : message;
  }).join("; ");
}
function parseParams(schema, params, order) {
  let input = params ?? {};
  if (Array.isArray(input)) {
    if (input.length > order.length)
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: expected at most ${order.length} positional params (${order.join(", ")})`);
    input = Object.fromEntries(input.map((value, i) => [order[i], value]));
  }
  const result = safeParse(schema, input);
  if (!result.success)
    throw new RpcError(RpcCode.InvalidParams, `Invalid params: ${issueText(result.issues)}`);
  return result.output;
}
function unauthorized(message) {
  return new RpcError(RpcCode.Unauthorized, message);
}
function kebab(name) {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
function argsToOptions(args, spec) {
  const options = {};
  for (const [key, value] of Object.entries(args)) {
    const name = kebab(key);
    if (!/^[a-z][a-z0-9-]*$/.test(name) || FORBIDDEN_ARGS.has(name))
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.${key}: not an option agents may pass`);
    const items = [];
    let flag = false;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null || item === false)
        continue;
      if (item === true)
        flag = true;
      else if (typeof item === "string" || typeof item === "number")
        items.push(String(item));
      else
        throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.${key}: expected a string, a number, a boolean or an array of them`);
    }
    const option = spec?.options?.[name];
    if (option?.type === "boolean" || option === undefined && flag && !items.length) {
      if (flag)
        options[name] = true;
    } else if (items.length)
      options[name] = option?.multiple ? items : items.at(-1);
    else if (flag)
      options[name] = true;
  }
  return options;
}
function readiness(participant, state) {
  if (participant === undefined)
    return {};
  if (state.waitingFor.includes(participant))
    return { ready: true, reason: `ready: ${participant} is listed in waitingFor` };
  if (state.phase === "completed" || state.phase === "blocked")
    return { ready: true, reason: `ready: phase is ${state.phase}` };
  return { ready: false };
}
async function tokenKey(token) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

class RpcServer {
  options;
  core;
  host;
  root;
  tokens = new Map;
  tokensReady;
  conns = new Set;
  byAgent = new Map;
  collabs = new Map;
  queues = new Map;
  sharedJson = new WeakMap;
  servers = [];
  unixPath;
  nextConn = 1;
  nextSub = 1;
  methods;
  closing = false;
  endpoints = {};
  constructor(options) {
    this.options = options;
    this.core = options.core;
    this.host = options.host;
    this.root = options.root;
    this.tokensReady = this.setTokens(options.tokens ?? {});
    this.methods = {
      ping: () => ({ pong: true, at: this.core.formatTimestamp(this.host.now()) }),
      authenticate: (conn, params) => this.authenticate(conn, params),
      "agent/list": (conn) => this.agentList(conn),
      "agent/info": (conn, params) => this.agentInfo(conn, parseParams(S2.agent, params, ["agent"]).agent),
      "agent/call": (conn, params) => this.agentCall(conn, params),
      "agent/subscribe": (conn, params, info) => this.subscribe(conn, params, info),
      "agent/unsubscribe": (conn, params) => this.unsubscribe(conn, params),
      "task/create": (conn, params) => this.taskCreate(conn, params),
      "task/status": (conn, params) => this.taskStatus(conn, parseParams(S2.task, params, ["task"]).task),
      "task/result": (conn, params) => this.taskResult(conn, params),
      "task/cancel": (conn, params) => this.taskCancel(conn, params),
      "message/send": (conn, params) => this.messageSend(conn, params),
      "message/broadcast": (conn, params) => this.messageBroadcast(conn, params)
    };
  }
  async setTokens(tokens) {
    for (const [token, participant] of Object.entries(tokens))
      this.tokens.set(await tokenKey(token), participant);
  }
  get connectionCount() {
    return this.conns.size;
  }
  get subscriptionCount() {
    let n = 0;
    for (const conn of this.conns)
      n += conn.subscriptions.size;
    return n;
  }
  attach(stream, transport) {
    const conn = {
      id: this.nextConn++,
      transport,
      peer: undefined,
      identity: undefined,
      capabilities: [],
      agentVersion: undefined,
      subscriptions: new Map,
      failedAuth: 0,
      busy: 0
    };
    conn.peer = new Peer(stream, {
      limits: this.options.limits,
      stallTimeoutMs: this.options.stallTimeoutMs ?? 1e4,
      idleTimeoutMs: transport === "stdio" ? 0 : this.options.idleTimeoutMs ?? 120000,
      handler: (method, params, info) => this.dispatch(conn, method, params, info),
      onInternalError: (error, method) => this.options.log?.(`internal error in ${method}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`)
    });
    this.conns.add(conn);
    conn.peer.onClose(() => this.forget(conn));
    const authTimeoutMs = this.options.authTimeoutMs ?? 30000;
    if (transport === "tcp" && authTimeoutMs > 0) {
      const timer = setTimeout(() => {
        if (!conn.identity)
          conn.peer.close("did not authenticate in time");
      }, authTimeoutMs);
      timer.unref?.();
      conn.peer.onClose(() => clearTimeout(timer));
    }
    return conn.peer;
  }
  accept(socket, transport) {
    if (this.closing || this.conns.size >= (this.options.maxConnections ?? 1e4)) {
      socket.on("error", () => {
        return;
      });
      socket.destroy();
      return;
    }
    socket.setNoDelay?.(true);
    this.attach(socket, transport);
  }
  async listenTcp(host, port, options = {}) {
    if (!isLoopback(host) && !options.allowRemote) {
      throw new ConfigError(`refusing to listen on ${host}: not a loopback address (pass --allow-remote, or allowRemote: true in the config, to serve other machines)`);
    }
    await this.tokensReady;
    if (this.tokens.size === 0)
      throw new ConfigError("TCP needs tokens: map each token to a participant id under `tokens:` in the server config (--config)");
    const net = await import("node:net");
    const server = net.createServer((socket) => this.accept(socket, "tcp"));
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    server.on("error", (error) => this.options.log?.(`tcp listener: ${error.message}`));
    this.servers.push(server);
    const address = server.address();
    const shown = address.address.includes(":") ? `[${address.address}]` : address.address;
    this.endpoints.tcp = `${shown}:${address.port}`;
    return { host: address.address, port: address.port };
  }
  async listenUnix(path) {
    const net = await import("node:net");
    const fs = await import("node:fs");
    const target = nodePath5.resolve(path);
    const existing = await fs.promises.lstat(target).catch(() => null);
    if (existing) {
      if (!existing.isSocket())
        throw new ConfigError(`refusing to replace ${target}: it exists and is not a socket`);
      const live = await new Promise((resolve) => {
        const probe = net.connect(target, () => {
          probe.destroy();
          resolve(true);
        });
        probe.on("error", () => resolve(false));
      });
      if (live)
        throw new ConfigError(`another server is listening on ${target}`);
      await fs.promises.rm(target, { force: true });
    }
    const dir = await fs.promises.mkdtemp(nodePath5.join(nodePath5.dirname(target), ".acp-"));
    const temp = nodePath5.join(dir, "s");
    const server = net.createServer((socket) => this.accept(socket, "unix"));
    try {
      await fs.promises.chmod(dir, 448);
      await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(temp, () => {
          server.off("error", reject);
          resolve();
        });
      });
      await fs.promises.chmod(temp, 384);
      await fs.promises.rename(temp, target);
    } catch (error) {
      server.close();
      throw error;
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => {
        return;
      });
    }
    server.on("error", (error) => this.options.log?.(`unix listener: ${error.message}`));
    this.servers.push(server);
    this.unixPath = target;
    this.endpoints.unix = target;
    return target;
  }
  async close() {
    if (this.closing)
      return;
    this.closing = true;
    const closing = this.servers.map((server) => new Promise((resolve) => server.close(() => resolve())));
    for (const conn of [...this.conns])
      conn.peer.destroy("server shutting down");
    for (const collab of this.collabs.values())
      collab.close();
    this.collabs.clear();
    await Promise.all(closing);
    if (this.unixPath) {
      const fs = await import("node:fs");
      await fs.promises.rm(this.unixPath, { force: true }).catch(() => {
        return;
      });
    }
  }
  forget(conn) {
    this.conns.delete(conn);
    for (const sub of conn.subscriptions.values())
      sub.stop();
    conn.subscriptions.clear();
    if (conn.identity) {
      const set = this.byAgent.get(conn.identity);
      set?.delete(conn);
      if (set && set.size === 0)
        this.byAgent.delete(conn.identity);
    }
  }
  dispatch(conn, method, params, info) {
    const fn = Object.hasOwn(this.methods, method) ? this.methods[method] : undefined;
    if (!fn)
      throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`);
    if (conn.transport === "tcp" && !conn.identity && !OPEN_METHODS.has(method)) {
      throw unauthorized("unauthorized: authenticate first (method authenticate with the token the server config maps to your participant id)");
    }
    return fn(conn, params, info);
  }
  async authenticate(conn, params) {
    const p = parseParams(S2.authenticate, params, ["token", "participant", "capabilities", "version"]);
    let participant;
    if (p.token !== undefined) {
      await this.tokensReady;
      const mapped = this.tokens.get(await tokenKey(p.token));
      if (mapped === undefined) {
        conn.failedAuth++;
        if (conn.failedAuth >= 5)
          setTimeout(() => conn.peer.close("too many failed authentications"), 0);
        throw unauthorized("unauthorized: unknown token");
      }
      if (p.participant !== undefined && p.participant !== mapped)
        throw unauthorized(`unauthorized: this token belongs to another participant, not '${p.participant}'`);
      participant = mapped;
    } else {
      if (conn.transport === "tcp")
        throw unauthorized("unauthorized: a token is required over TCP");
      if (p.participant === undefined)
        throw new RpcError(RpcCode.InvalidParams, "Invalid params: give a token, or (on stdio and Unix sockets) the participant id this connection speaks for");
      participant = p.participant;
    }
    if (conn.identity !== undefined && conn.identity !== participant)
      throw unauthorized(`unauthorized: this connection already speaks for '${conn.identity}'`);
    conn.identity = participant;
    if (p.capabilities)
      conn.capabilities = [...new Set(p.capabilities)];
    if (p.version !== undefined)
      conn.agentVersion = p.version;
    let set = this.byAgent.get(participant);
    if (!set)
      this.byAgent.set(participant, set = new Set);
    set.add(conn);
    return { participant, capabilities: conn.capabilities, server: { agent: "acp", version: this.options.version ?? null } };
  }
  speaker(conn, given) {
    if (conn.identity !== undefined) {
      if (given !== undefined && given !== conn.identity) {
        throw unauthorized(`unauthorized: this connection speaks for '${conn.identity}' only, not for '${typeof given === "string" ? given : JSON.stringify(given)}'`);
      }
      return conn.identity;
    }
    if (given === undefined)
      return;
    if (typeof given !== "string")
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: participant must be a string");
    return given;
  }
  requireMember(conn, protocol, task) {
    if (conn.identity === undefined)
      return;
    if (!this.core.participantIds(protocol).includes(conn.identity))
      throw unauthorized(`unauthorized: '${conn.identity}' is not a participant of task '${task}'`);
  }
  taskFolder(task) {
    return nodePath5.join(this.root, task);
  }
  async openTask(conn, task, fresh = false) {
    const cached = fresh ? undefined : this.collabs.get(task)?.protocol;
    if (cached) {
      this.requireMember(conn, cached, task);
      return { folder: this.taskFolder(task), protocol: cached };
    }
    const folder = this.taskFolder(task);
    let protocol;
    try {
      protocol = await this.core.readProtocol(this.host, folder);
    } catch (error) {
      if (!await this.host.fs.stat(nodePath5.join(folder, "protocol.json")))
        throw new RpcError(RpcCode.TaskNotFound, `task '${task}' not found`, { task });
      throw new RpcError(RpcCode.ProtocolRefusal, error.message, { message: error.message });
    }
    this.requireMember(conn, protocol, task);
    return { folder, protocol };
  }
  collab(task) {
    let collab = this.collabs.get(task);
    if (!collab) {
      collab = new Collab(this.core, this.host, this.options.registry, task, this.taskFolder(task), this.options.pollIntervalMs ?? 1000);
      this.collabs.set(task, collab);
    }
    return collab;
  }
  serial(key, fn) {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.then(() => {
      return;
    }, () => {
      return;
    });
    this.queues.set(key, tail);
    tail.then(() => {
      if (this.queues.get(key) === tail)
        this.queues.delete(key);
    });
    return run;
  }
  async listTasks() {
    let names;
    try {
      names = await this.host.fs.readDir(this.root);
    } catch {
      return [];
    }
    const tasks = [];
    for (const name of names.filter((n) => TASK_ID_RE.test(n)).sort()) {
      try {
        tasks.push({ task: name, protocol: await this.core.readProtocol(this.host, this.taskFolder(name)) });
      } catch {}
    }
    return tasks;
  }
  async actionNames() {
    return Object.keys(ACTIONS).filter((name) => name === "read" || name === "write" || name === "status" || this.options.registry.commands.has(name));
  }
  async agentList(conn) {
    const tasks = (await this.listTasks()).filter(({ protocol }) => conn.identity === undefined || this.core.participantIds(protocol).includes(conn.identity));
    const agents = new Map;
    for (const { task, protocol } of tasks) {
      const waiting = Array.isArray(protocol.waitingFor) ? protocol.waitingFor : [];
      for (const id of this.core.participantIds(protocol)) {
        let list = agents.get(id);
        if (!list)
          agents.set(id, list = []);
        list.push({ task, phase: protocol.currentPhase ?? null, turn: waiting.includes(id) });
      }
    }
    const list = [{ agent: "acp", kind: "runtime", connected: true, version: this.options.version ?? null, capabilities: await this.actionNames() }];
    for (const id of [...agents.keys()].sort()) {
      const conns = this.byAgent.get(id);
      list.push({ agent: id, kind: "participant", connected: Boolean(conns?.size), capabilities: this.capabilitiesOf(id), collaborations: agents.get(id) });
    }
    return { agents: list };
  }
  capabilitiesOf(agent) {
    const set = new Set;
    for (const conn of this.byAgent.get(agent) ?? [])
      for (const c of conn.capabilities)
        set.add(c);
    return [...set].sort();
  }
  async agentInfo(conn, agent) {
    const endpoints = { ...this.endpoints };
    if (agent === "acp") {
      return { agent: "acp", kind: "runtime", version: this.options.version ?? null, capabilities: await this.actionNames(), methods: [...RPC_METHODS], endpoints };
    }
    const known = this.byAgent.has(agent) || (await this.listTasks()).some(({ protocol }) => this.core.participantIds(protocol).includes(agent) && (conn.identity === undefined || this.core.participantIds(protocol).includes(conn.identity)));
    if (!known)
      throw new RpcError(RpcCode.AgentNotFound, `agent '${agent}' not found`, { agent });
    const conns = [...this.byAgent.get(agent) ?? []];
    const version = conns.find((c) => c.agentVersion !== undefined)?.agentVersion ?? null;
    return { agent, kind: "participant", version, connected: conns.length > 0, capabilities: this.capabilitiesOf(agent), endpoints };
  }
  async agentCall(conn, params) {
    const p = parseParams(S2.call, params, ["agent", "action", "args"]);
    if (p.agent === "acp")
      return { status: "success", data: await this.runAction(conn, p.action, p.args ?? {}) };
    return this.forward(conn, p.agent, p.action, p.args ?? {});
  }
  async runAction(conn, action, rawArgs) {
    const spec = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    const names = await this.actionNames();
    if (!spec || !names.includes(action))
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: agent 'acp' has no action '${action}' (actions: ${names.join(", ")})`);
    const args = { ...rawArgs };
    let task;
    if (spec.folder) {
      const given = args.folder ?? args.task;
      delete args.folder;
      delete args.task;
      const checked = safeParse(TaskParam, given);
      if (!checked.success)
        throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.folder: ${given === undefined ? "required (the task name)" : issueText(checked.issues)}`);
      task = checked.output;
    }
    if (spec.participant === "one") {
      const given = Array.isArray(args.participant) && args.participant.length === 1 ? args.participant[0] : args.participant;
      const who = this.speaker(conn, given);
      if (who === undefined)
        delete args.participant;
      else
        args.participant = who;
    } else if (spec.participant === "many" && conn.identity !== undefined) {
      const listed = (Array.isArray(args.participant) ? args.participant : [args.participant]).map((p) => typeof p === "string" ? p.trim() : p);
      if (!listed.includes(conn.identity))
        throw unauthorized(`unauthorized: '${conn.identity}' may only create collaborations it takes part in`);
    }
    if (task !== undefined && action !== "init")
      await this.openTask(conn, task);
    if (action === "status")
      return { task, ...await this.statusOf(task) };
    if (action === "read" || action === "write") {
      const run = () => this.document(action, task, args);
      if (action === "read")
        return run();
      try {
        return await this.serial(this.taskFolder(task), run);
      } finally {
        this.collabs.get(task)?.touch();
      }
    }
    if (action === "init")
      this.checkInitPaths(task, args);
    const folder = task === undefined ? undefined : this.taskFolder(task);
    const options = { ...argsToOptions(args, this.options.registry.commands.get(action)?.spec), ...folder === undefined ? {} : { folder }, json: true };
    const run = () => this.runJson(action, options);
    if (!spec.mutates(args) || folder === undefined)
      return run();
    try {
      return await this.serial(folder, run);
    } finally {
      this.collabs.get(task)?.touch();
    }
  }
  async document(action, task, args) {
    const { core, host } = this;
    const folder = this.taskFolder(task);
    const allowedKeys = action === "read" ? ["doc"] : ["doc", "content", "append"];
    for (const key of Object.keys(args))
      if (!allowedKeys.includes(key))
        throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.${key}: unknown for action '${action}'`);
    const doc = args.doc;
    if (typeof doc !== "string" || doc === "")
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: args.doc: required (a document name or a deliverable reference)");
    const protocol = await core.readProtocol(host, folder);
    const deliverables = protocol.deliverables ?? {};
    const supporting = Array.isArray(deliverables.supporting) ? deliverables.supporting : [];
    const refs = [core.primaryRef(protocol), ...supporting.map((s) => s && typeof s.file === "string" ? core.deliverableRef(protocol, s.file) : undefined)].filter((r) => r !== undefined);
    let path;
    if (DOCUMENTS.includes(doc) || action === "read" && ["protocol.json", "events.jsonl", "README.md"].includes(doc))
      path = nodePath5.join(folder, doc);
    else if (refs.includes(doc))
      path = core.resolveDeliverablePath(folder, protocol, doc);
    if (path === undefined)
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.doc: '${doc}' is not a document of task '${task}' (documents: ${[...DOCUMENTS, ...refs].join(", ")})`);
    const target = path;
    if (action === "read") {
      let bytes;
      try {
        bytes = await host.fs.readFile(target);
      } catch (error) {
        if (errorCode(error) === "ENOENT")
          throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.doc: '${doc}' does not exist yet`);
        throw error;
      }
      return { doc, content: core.decodeText(bytes, doc), sha256: await core.sha256Hex(bytes) };
    }
    if (typeof args.content !== "string")
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: args.content: required (the text to write)");
    if (args.content.length > MAX_DOCUMENT_LENGTH)
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: args.content: at most ${MAX_DOCUMENT_LENGTH} characters`);
    const content = args.content;
    const append = args.append === true;
    return core.withFolderLock(host, folder, async () => {
      let text = content;
      if (append) {
        try {
          text = new TextDecoder().decode(await host.fs.readFile(target)) + content;
        } catch (error) {
          if (errorCode(error) !== "ENOENT")
            throw error;
        }
      }
      await host.fs.mkdir(nodePath5.dirname(target));
      await core.writeFileAtomic(host, target, text);
      const bytes = new TextEncoder().encode(text);
      return { doc, bytes: bytes.length, sha256: await core.sha256Hex(bytes) };
    });
  }
  checkInitPaths(task, args) {
    const repoRoot = args.repoRoot ?? args["repo-root"];
    if (typeof repoRoot === "string") {
      const resolved = nodePath5.resolve(this.taskFolder(task), repoRoot.trim());
      const relative = nodePath5.relative(this.root, resolved);
      if (relative.startsWith("..") || nodePath5.isAbsolute(relative)) {
        throw new RpcError(RpcCode.InvalidParams, "Invalid params: args.repoRoot must stay inside the server root");
      }
    }
  }
  async runJson(action, options) {
    try {
      const result = await this.core.runCommand(this.options.registry, action, { options }, { host: this.host });
      return result.json ?? { ok: result.exitCode === 0, exitCode: result.exitCode };
    } catch (error) {
      const described = this.core.describeError(error);
      if (!described)
        throw new RpcError(RpcCode.InternalError, "Internal error", { exitCode: 70 });
      const { message, exitCode, code } = described;
      throw new RpcError(RpcCode.ProtocolRefusal, message, { message, exitCode, code, stderr: `error: ${message}` });
    }
  }
  async forward(conn, agent, action, args) {
    const conns = [...this.byAgent.get(agent) ?? []].filter((c) => c.capabilities.length > 0);
    if (!conns.length) {
      const known = this.byAgent.has(agent) || (await this.listTasks()).some(({ protocol }) => this.core.participantIds(protocol).includes(agent));
      throw new RpcError(RpcCode.AgentNotFound, known ? `agent '${agent}' is not connected (or takes no calls)` : `agent '${agent}' not found`, { agent, connected: this.byAgent.has(agent) });
    }
    const able = conns.filter((c) => c.capabilities.includes(action));
    if (!able.length)
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: agent '${agent}' has no action '${action}' (actions: ${this.capabilitiesOf(agent).join(", ")})`);
    const target = able.find((c) => c.busy === 0);
    if (!target)
      throw new RpcError(RpcCode.AgentBusy, `agent '${agent}' is busy with another call`, { agent });
    target.busy++;
    try {
      const result = await target.peer.request("agent/call", { from: conn.identity ?? null, action, args }, { timeoutMs: this.options.forwardTimeoutMs ?? 300000 });
      if (result && typeof result === "object" && result.status === "success" && "data" in result)
        return result;
      return { status: "success", data: result ?? null };
    } catch (error) {
      if (error instanceof RpcResponseError)
        throw new RpcError(error.code, error.message, error.data);
      if (error instanceof RpcConnectionError)
        throw new RpcError(RpcCode.AgentNotFound, `agent '${agent}' went away: ${error.message}`, { agent });
      throw error;
    } finally {
      target.busy--;
    }
  }
  async subscribe(conn, params, info) {
    const p = parseParams(S2.subscribe, params, ["task", "participant", "fromSeq"]);
    const { protocol } = await this.openTask(conn, p.task);
    const participant = p.participant === undefined ? undefined : this.speaker(conn, p.participant);
    if (participant !== undefined && !this.core.participantIds(protocol).includes(participant)) {
      const message = `participant '${participant}' is not listed in protocol.json`;
      throw new RpcError(RpcCode.ProtocolRefusal, message, { message });
    }
    const collab = this.collab(p.task);
    await collab.ready;
    if (!conn.peer.isOpen)
      throw new RpcError(RpcCode.InternalError, "connection closed");
    const id = `sub-${this.nextSub++}`;
    const sub = { id, conn, task: p.task, participant, live: false, queue: [], stop: () => {
      return;
    } };
    const deliver = (method, payload) => {
      if (sub.live)
        conn.peer.notify(method, payload);
      else
        sub.queue.push([method, payload]);
    };
    const unlisten = collab.listen((update) => {
      if (sub.live)
        conn.peer.sendRaw(this.notificationJson(sub, update));
      else {
        const [method, payload] = this.notification(sub, update);
        deliver(method, payload);
      }
    });
    sub.stop = () => {
      unlisten();
      conn.subscriptions.delete(id);
    };
    conn.subscriptions.set(id, sub);
    const seen = collab.events.length;
    const state = collab.cached;
    info.after(() => {
      if (p.fromSeq !== undefined) {
        for (let i = 0;i < seen; i++) {
          const event = collab.events[i];
          if (typeof event.seq === "number" && event.seq >= p.fromSeq)
            conn.peer.notify(...this.notification(sub, { kind: "event", event, state: collab.states[i] }));
        }
      }
      for (const [method, payload] of sub.queue.splice(0))
        conn.peer.notify(method, payload);
      sub.live = true;
    });
    return { subscription: id, task: p.task, seq: collab.events.at(-1)?.seq ?? null, state, ...readiness(participant, state) };
  }
  notificationJson(sub, update) {
    let shared = this.sharedJson.get(update);
    if (shared === undefined) {
      const body = update.kind === "event" ? { task: sub.task, event: update.event, state: update.state } : { task: sub.task, state: update.state, reset: update.reset };
      shared = JSON.stringify(body).slice(1);
      this.sharedJson.set(update, shared);
    }
    const method = update.kind === "event" ? "agent/event" : "agent/state";
    const ready = readiness(sub.participant, update.state);
    const extra = ready.ready === undefined ? "" : `"ready":${ready.ready},${ready.reason === undefined ? "" : `"reason":${JSON.stringify(ready.reason)},`}`;
    return `{"jsonrpc":"2.0","method":"${method}","params":{"subscription":${JSON.stringify(sub.id)},${extra}${shared}}`;
  }
  notification(sub, update) {
    if (update.kind === "event") {
      return ["agent/event", { subscription: sub.id, task: sub.task, event: update.event, state: update.state, ...readiness(sub.participant, update.state) }];
    }
    return ["agent/state", { subscription: sub.id, task: sub.task, state: update.state, reset: update.reset, ...readiness(sub.participant, update.state) }];
  }
  unsubscribe(conn, params) {
    const p = parseParams(S2.unsubscribe, params, ["subscription"]);
    const sub = conn.subscriptions.get(p.subscription);
    if (!sub)
      throw new RpcError(RpcCode.InvalidParams, `Invalid params: no subscription '${p.subscription}' on this connection`);
    sub.stop();
    return { unsubscribed: p.subscription };
  }
  async taskCreate(conn, params) {
    if (Array.isArray(params))
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: task/create takes named params (init's options)");
    const p = parseParams(S2.create, params, []);
    const { task: given, ...options } = p;
    const task = given ?? this.newTaskId();
    const data = await this.runAction(conn, "init", { ...options, folder: task });
    return { task, ...data };
  }
  newTaskId() {
    const stamp = this.core.formatTimestamp(this.host.now()).replace(/[-:]/g, "").replace(/[^0-9TZ]/g, "");
    return `task-${stamp}-${Math.random().toString(36).slice(2, 8)}`;
  }
  async taskStatus(conn, task) {
    await this.openTask(conn, task);
    return { task, ...await this.statusOf(task) };
  }
  async statusOf(task) {
    try {
      return await this.collab(task).status();
    } catch (error) {
      if (error instanceof RpcError)
        throw error;
      if (!await this.host.fs.stat(nodePath5.join(this.taskFolder(task), "protocol.json")))
        throw new RpcError(RpcCode.TaskNotFound, `task '${task}' not found`, { task });
      const message = error instanceof Error ? error.message : String(error);
      throw new RpcError(RpcCode.ProtocolRefusal, message, { message });
    }
  }
  async taskCancel(conn, params) {
    const p = parseParams(S2.cancel, params, ["task", "reason", "participant"]);
    const who = this.speaker(conn, p.participant);
    if (who === undefined)
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: participant is required (or authenticate as one)");
    const { folder } = await this.openTask(conn, p.task);
    const log = await this.core.readEventLog(this.host, folder);
    const last = log.events.at(-1);
    const args = { folder: p.task, participant: who, event: "blocked", summary: p.reason };
    if (last && typeof last.seq === "number")
      args.replyTo = last.seq;
    return this.runAction(conn, "append", args);
  }
  async taskResult(conn, params) {
    const p = parseParams(S2.result, params, ["task", "includeContent"]);
    const { folder, protocol } = await this.openTask(conn, p.task, true);
    const { core, host } = this;
    if (protocol.currentPhase !== "completed") {
      throw new RpcError(RpcCode.TaskNotCompleted, `task '${p.task}' is not completed (phase: ${core.pyStr(protocol.currentPhase ?? null)})`, { task: p.task, phase: protocol.currentPhase ?? null });
    }
    const log = await core.readEventLog(host, folder);
    const readText = async (name) => {
      try {
        return core.decodeText(await host.fs.readFile(nodePath5.join(folder, name)), name);
      } catch (error) {
        if (errorCode(error) === "ENOENT")
          return "";
        throw error;
      }
    };
    const conclusion = await readText("conclusion.md");
    let outcome = null;
    for (const match of conclusion.matchAll(/^[ \t]*-[ \t]*\[([A-Za-z_]+)\][ \t]+(.+)$/gm)) {
      if (["proceed", "do_not_proceed", "defer", "blocked"].includes(match[1])) {
        outcome = { status: match[1], text: match[2].trim() };
        break;
      }
    }
    const section = (name) => {
      const body = core.markdown.sectionBody(conclusion, name);
      return body === undefined ? null : core.markdown.strip(body);
    };
    const ref = core.primaryRef(protocol);
    const deliverables = protocol.deliverables ?? {};
    const primary = deliverables.primary ?? {};
    const frozen = [...log.events].reverse().find((e) => e.event === "deliverable_frozen" && e.role === "primary");
    const bytes = ref === undefined ? undefined : await core.readDeliverable(host, folder, protocol, ref);
    const currentSha256 = bytes ? await core.sha256Hex(bytes) : null;
    const deliverable = {
      ref: ref ?? null,
      type: primary.pluginType ?? primary.type ?? null,
      sha256: frozen?.sha256 ?? null,
      frozenAtSeq: frozen?.seq ?? null,
      currentSha256,
      intact: frozen?.sha256 !== undefined && currentSha256 === frozen.sha256
    };
    if (p.includeContent)
      deliverable.content = bytes ? core.decodeText(bytes, String(ref)) : null;
    const decisionsText = await readText("decisions.md");
    const decisions = [];
    const blocks = decisionsText.split(/^### /m).slice(1);
    for (const block of blocks) {
      const [heading = "", ...rest] = block.split(`
`);
      const body = rest.join(`
`);
      const m = /^(D\d+)\.\s+(.+)$/.exec(heading.trim());
      decisions.push({
        id: m?.[1] ?? null,
        title: (m?.[2] ?? heading).trim(),
        decision: /^\s*-\s*Decision:\s*(.*)$/m.exec(body)?.[1]?.trim() ?? null,
        reflectedIn: /^\s*-\s*Reflected in:\s*(.*)$/m.exec(body)?.[1]?.trim() ?? null
      });
    }
    const completed = [...log.events].reverse().find((e) => e.event === "completed");
    return {
      task: p.task,
      phase: "completed",
      completed: completed ? { seq: completed.seq, from: completed.from, at: completed.at, summary: completed.summary } : null,
      outcome,
      rationale: section("Rationale"),
      nextAction: section("Next Action"),
      deliverable,
      decisions
    };
  }
  sender(conn, from) {
    if (conn.identity !== undefined) {
      if (from !== undefined && from !== conn.identity)
        throw unauthorized(`unauthorized: this connection speaks for '${conn.identity}' only, not for '${from}'`);
      return conn.identity;
    }
    if (from === undefined)
      throw new RpcError(RpcCode.InvalidParams, "Invalid params: from is required (or authenticate as a participant)");
    return from;
  }
  async messageSend(conn, params) {
    const p = parseParams(S2.send, params, ["to", "text", "task", "from"]);
    const from = this.sender(conn, p.from);
    if (p.task !== undefined)
      await this.openTask(conn, p.task);
    const targets = [...this.byAgent.get(p.to) ?? []];
    if (!targets.length) {
      const known = p.to === "acp" || (await this.listTasks()).some(({ protocol }) => this.core.participantIds(protocol).includes(p.to));
      throw new RpcError(RpcCode.AgentNotFound, known ? `agent '${p.to}' is not connected` : `agent '${p.to}' not found`, { agent: p.to, connected: false });
    }
    const message = { from, to: p.to, text: p.text, at: this.core.formatTimestamp(this.host.now()) };
    if (p.task !== undefined)
      message.task = p.task;
    for (const target of targets)
      target.peer.notify("message/received", message);
    return { delivered: targets.length };
  }
  async messageBroadcast(conn, params) {
    const p = parseParams(S2.broadcast, params, ["task", "text", "from"]);
    const from = this.sender(conn, p.from);
    const { protocol } = await this.openTask(conn, p.task);
    const participants = new Set(this.core.participantIds(protocol));
    const message = { from, task: p.task, text: p.text, at: this.core.formatTimestamp(this.host.now()), broadcast: true };
    let delivered = 0;
    for (const target of this.conns) {
      if (target === conn)
        continue;
      const member = target.identity !== undefined && participants.has(target.identity);
      const watching = [...target.subscriptions.values()].some((s) => s.task === p.task);
      if (member || watching) {
        target.peer.notify("message/received", message);
        delivered++;
      }
    }
    return { delivered };
  }
}
var TASK_ID_RE, RPC_METHODS, OPEN_METHODS, MAX_MESSAGE_LENGTH, ACTIONS, DOCUMENTS, MAX_DOCUMENT_LENGTH, FORBIDDEN_ARGS, str2 = (what) => string(`${what} must be a string`), nonEmpty2 = (what) => pipe(str2(what), minLength(1, `${what} must not be empty`)), TaskParam, S2;
var init_server = __esm(() => {
  init_dist();
  init_collab();
  init_config();
  init_util();
  init_jsonrpc();
  init_peer();
  TASK_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
  RPC_METHODS = [
    "ping",
    "authenticate",
    "agent/list",
    "agent/info",
    "agent/call",
    "agent/subscribe",
    "agent/unsubscribe",
    "task/create",
    "task/status",
    "task/result",
    "task/cancel",
    "message/send",
    "message/broadcast"
  ];
  OPEN_METHODS = new Set(["ping", "authenticate"]);
  MAX_MESSAGE_LENGTH = 16 * 1024;
  ACTIONS = {
    init: { folder: true, participant: "many", mutates: () => true },
    append: { folder: true, participant: "one", mutates: () => true },
    next: { folder: true, participant: "one", mutates: () => false },
    validate: { folder: true, participant: "none", mutates: () => false },
    status: { folder: true, participant: "none", mutates: () => false },
    types: { folder: false, participant: "none", mutates: () => false },
    doctor: { folder: true, participant: "none", mutates: (args) => Boolean(args.fix) },
    read: { folder: true, participant: "none", mutates: () => false },
    write: { folder: true, participant: "none", mutates: () => true }
  };
  DOCUMENTS = ["proposal.md", "review.md", "decisions.md", "readiness.md", "conclusion.md"];
  MAX_DOCUMENT_LENGTH = 1024 * 1024;
  FORBIDDEN_ARGS = new Set(["json", "help", "h", "version", "v", "debug", "plugin", "config", "no-config"]);
  TaskParam = pipe(str2("task"), regex(TASK_ID_RE, "task must be a collaboration name under the server root (letters, digits, '.', '_', '-'; at most 128)"), check((s) => !s.includes(".."), "task must not contain '..'"));
  S2 = {
    authenticate: strictObject({
      token: optional(str2("token")),
      participant: optional(nonEmpty2("participant")),
      capabilities: optional(pipe(array(pipe(nonEmpty2("capability"), maxLength(64, "a capability is at most 64 characters")), "capabilities must be an array of strings"), maxLength(64, "at most 64 capabilities"))),
      version: optional(pipe(str2("version"), maxLength(64, "version is at most 64 characters")))
    }),
    agent: strictObject({ agent: nonEmpty2("agent") }),
    call: strictObject({ agent: nonEmpty2("agent"), action: nonEmpty2("action"), args: optional(record(string(), unknown(), "args must be an object")) }),
    subscribe: strictObject({
      task: TaskParam,
      participant: optional(nonEmpty2("participant")),
      fromSeq: optional(pipe(number("fromSeq must be a number"), integer("fromSeq must be a whole number"), minValue(1, "fromSeq must be at least 1")))
    }),
    unsubscribe: strictObject({ subscription: nonEmpty2("subscription") }),
    task: strictObject({ task: TaskParam }),
    result: strictObject({ task: TaskParam, includeContent: optional(boolean("includeContent must be true or false")) }),
    cancel: strictObject({ task: TaskParam, reason: nonEmpty2("reason"), participant: optional(nonEmpty2("participant")) }),
    create: looseObject({ task: optional(TaskParam) }),
    send: strictObject({
      to: nonEmpty2("to"),
      text: pipe(str2("text"), maxLength(MAX_MESSAGE_LENGTH, `text must be at most ${MAX_MESSAGE_LENGTH} characters`)),
      task: optional(TaskParam),
      from: optional(nonEmpty2("from"))
    }),
    broadcast: strictObject({
      task: TaskParam,
      text: pipe(str2("text"), maxLength(MAX_MESSAGE_LENGTH, `text must be at most ${MAX_MESSAGE_LENGTH} characters`)),
      from: optional(nonEmpty2("from"))
    })
  };
});

// plugins/rpc/edge.ts
function proc() {
  return globalThis.process;
}
function stdioStream() {
  const p = proc();
  const closeListeners = [];
  let closed = false;
  const close = () => {
    if (closed)
      return;
    closed = true;
    for (const listener of closeListeners)
      listener();
  };
  p.stdin.on("end", close);
  p.stdin.on("close", close);
  return {
    write: (bytes) => p.stdout.write(bytes),
    end: () => {
      p.stdin.destroy?.();
      close();
    },
    destroy: () => {
      p.stdin.destroy?.();
      close();
    },
    get writableLength() {
      return p.stdout.writableLength;
    },
    on(event, listener) {
      if (event === "close")
        closeListeners.push(listener);
      else
        p.stdin.on(event, listener);
      return this;
    }
  };
}
function onTerminate(fn) {
  const p = proc();
  const handler = () => fn();
  p.on("SIGINT", handler);
  p.on("SIGTERM", handler);
  return () => {
    p.off?.("SIGINT", handler);
    p.off?.("SIGTERM", handler);
  };
}

// plugins/rpc/cli.ts
import * as nodePath6 from "node:path";
function rpcContext(ctx) {
  return {
    core: ctx.api,
    host: ctx.host,
    registry: ctx.registry,
    io: { stdout: (text) => ctx.out(text.replace(/\n$/, "")), stderr: (text) => ctx.err(text.replace(/\n$/, "")) },
    version: ctx.api.VERSION,
    env: ctx.env,
    color: ctx.color
  };
}
function one(options, name) {
  const value = options[name];
  if (value === undefined)
    return;
  const values = Array.isArray(value) ? value : [value];
  if (values.length > 1)
    throw new ConfigError(`argument --${name}: expected one value`);
  const single = values[0];
  if (single === true || single === false)
    throw new ConfigError(`argument --${name}: expected one argument`);
  return String(single);
}
async function readText(host, path, what) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await host.fs.readFile(path));
  } catch (error) {
    const code = error.code;
    throw new ConfigError(`cannot read ${what} ${path}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : error.message}`);
  }
}
function fail(ctx, error) {
  const { AcpError } = ctx.core;
  if (error instanceof AcpError)
    throw error;
  if (error instanceof ConfigError || error instanceof RpcConnectionError || error instanceof RpcEndpointError)
    throw new AcpError(error.message);
  if (error instanceof RpcResponseError)
    throw new AcpError(error.message);
  throw error;
}
async function serveCommand(options, ctx) {
  const { host, io } = ctx;
  try {
    const configPath = one(options, "config");
    let config = {};
    let base = host.resolvePath(".");
    if (configPath !== undefined) {
      const absolute = host.resolvePath(configPath);
      config = await parseServerConfig(await readText(host, absolute, "server config"), configPath);
      base = nodePath6.dirname(absolute);
    }
    const rootOption = one(options, "root");
    const root = rootOption !== undefined ? host.resolvePath(rootOption) : nodePath6.resolve(base, config.root ?? ".");
    const rootStat = await host.fs.stat(root);
    if (!rootStat?.isDirectory)
      throw new ConfigError(`--root ${root} is not a directory`);
    const stdio = Boolean(options.stdio);
    const tcp = one(options, "tcp") ?? (config.tcp === undefined ? undefined : String(config.tcp));
    const unixOption = one(options, "unix");
    const unix = unixOption !== undefined ? host.resolvePath(unixOption) : config.unix === undefined ? undefined : nodePath6.resolve(base, config.unix);
    if (!stdio && tcp === undefined && unix === undefined)
      throw new ConfigError("choose a transport: --stdio, --tcp HOST:PORT or --unix PATH (or tcp:/unix: in the config)");
    const limits = config.limits ?? {};
    const server = new RpcServer({
      core: ctx.core,
      host,
      registry: ctx.registry,
      root,
      tokens: config.tokens,
      limits: { maxHeaderBytes: limits.maxHeaderBytes, maxBodyBytes: limits.maxBodyBytes },
      stallTimeoutMs: limits.stallTimeoutSeconds === undefined ? undefined : limits.stallTimeoutSeconds * 1000,
      idleTimeoutMs: limits.idleTimeoutSeconds === undefined ? undefined : limits.idleTimeoutSeconds * 1000,
      authTimeoutMs: limits.authTimeoutSeconds === undefined ? undefined : limits.authTimeoutSeconds * 1000,
      maxConnections: limits.maxConnections,
      forwardTimeoutMs: limits.forwardTimeoutSeconds === undefined ? undefined : limits.forwardTimeoutSeconds * 1000,
      pollIntervalMs: config.pollIntervalSeconds === undefined ? undefined : config.pollIntervalSeconds * 1000,
      version: ctx.version,
      log: (line) => io.stderr(`acp serve: ${line}
`)
    });
    let stop;
    const stopped = new Promise((resolve) => stop = resolve);
    const removeSignals = onTerminate(() => stop());
    try {
      io.stderr(`acp serve: serving ${root}
`);
      if (tcp !== undefined) {
        const { host: h, port } = parseHostPort(tcp);
        await server.listenTcp(h, port, { allowRemote: Boolean(options["allow-remote"]) || config.allowRemote === true });
        io.stderr(`acp serve: listening on tcp://${server.endpoints.tcp}
`);
      }
      if (unix !== undefined) {
        await server.listenUnix(unix);
        io.stderr(`acp serve: listening on unix:${server.endpoints.unix}
`);
      }
      if (stdio) {
        const peer = server.attach(stdioStream(), "stdio");
        io.stderr(`acp serve: serving stdio
`);
        peer.closed.then(() => stop());
      }
      await stopped;
    } finally {
      removeSignals();
      await server.close();
    }
    io.stderr(`acp serve: stopped
`);
    return 0;
  } catch (error) {
    return fail(ctx, error);
  }
}
async function clientOptions(options, ctx) {
  const endpoint = one(options, "server") ?? ctx.env("ACP_SERVER");
  if (endpoint === undefined)
    throw new ConfigError("the following arguments are required: --server (or set ACP_SERVER)");
  let token = one(options, "token");
  const tokenFile = one(options, "token-file");
  if (token === undefined && tokenFile !== undefined)
    token = (await readText(ctx.host, ctx.host.resolvePath(tokenFile), "token file")).trim();
  token ??= ctx.env("ACP_TOKEN");
  return { endpoint, token };
}
function describe(error) {
  if (error.code === RpcCode.ProtocolRefusal)
    return error.message;
  return `${error.message} (${error.code})`;
}
async function rpcCommand(method, paramsText, options, ctx) {
  const { io } = ctx;
  let params;
  if (paramsText !== undefined) {
    try {
      params = JSON.parse(paramsText);
    } catch {
      throw new ctx.core.AcpError(`params must be JSON: ${paramsText.length > 60 ? `${paramsText.slice(0, 60)}…` : paramsText}`);
    }
    if (typeof params !== "object" || params === null)
      throw new ctx.core.AcpError("params must be a JSON object or array");
  }
  const paramFiles = options["param-file"] === undefined ? [] : (Array.isArray(options["param-file"]) ? options["param-file"] : [options["param-file"]]).map(String);
  for (const spec of paramFiles) {
    const eq = spec.indexOf("=");
    const path = eq > 0 ? spec.slice(0, eq).split(".") : [];
    if (eq <= 0 || eq === spec.length - 1 || path.some((k) => k === "" || k === "__proto__" || k === "constructor" || k === "prototype")) {
      throw new ctx.core.AcpError(`argument --param-file: expected key=file (for example args.content=draft.md), got '${spec}'`);
    }
    if (Array.isArray(params))
      throw new ctx.core.AcpError("argument --param-file: needs params given by name (a JSON object)");
    params ??= {};
    let node = params;
    for (const key of path.slice(0, -1)) {
      const child = node[key];
      if (child === undefined)
        node = node[key] = {};
      else if (typeof child === "object" && child !== null && !Array.isArray(child))
        node = child;
      else
        throw new ctx.core.AcpError(`argument --param-file: ${path.join(".")}: ${key} is not an object`);
    }
    try {
      node[path.at(-1)] = await readText(ctx.host, ctx.host.resolvePath(spec.slice(eq + 1)), "param file");
    } catch (error) {
      throw new ctx.core.AcpError(error.message);
    }
  }
  const pretty = !options.json && ctx.color;
  let client;
  try {
    const { endpoint, token } = await clientOptions(options, ctx);
    const participant = one(options, "participant");
    const timeout = one(options, "timeout");
    client = await RpcClient.connect(endpoint, { token, participant, reconnect: false, heartbeatMs: 0 });
    const result = await client.call(method, params, { timeoutMs: timeout === undefined ? undefined : Number(timeout) * 1000 });
    io.stdout(`${pretty ? JSON.stringify(result, null, 2) : JSON.stringify(result)}
`);
    return 0;
  } catch (error) {
    if (error instanceof RpcResponseError) {
      const body = { code: error.code, message: error.message, ...error.data === undefined ? {} : { data: error.data } };
      if (!pretty)
        io.stdout(`${JSON.stringify({ error: body })}
`);
      io.stderr(`error: ${describe(error)}
`);
      return 2;
    }
    return fail(ctx, error);
  } finally {
    client?.close();
  }
}
async function waitViaServer(options, ctx) {
  const { io, core } = ctx;
  const out = (text) => io.stdout(`${text}
`);
  const json = Boolean(options.json);
  const task = one(options, "folder");
  const participant = one(options, "participant");
  if (task === undefined)
    throw new core.AcpError("the following arguments are required: --folder");
  if (participant === undefined)
    throw new core.AcpError("the following arguments are required: --participant");
  const timeoutText = one(options, "timeout");
  const timeoutSeconds = timeoutText === undefined ? 1800 : Number(timeoutText);
  if (timeoutText !== undefined && (timeoutText.trim() === "" || Number.isNaN(timeoutSeconds) || timeoutSeconds < 0)) {
    throw new core.AcpError(`argument --timeout: invalid non-negative number: '${timeoutText}'`);
  }
  let client;
  try {
    const { endpoint, token } = await clientOptions(options, ctx);
    let lastReport = "";
    let settle;
    const ready = new Promise((resolve) => settle = resolve);
    const report = (state, seq) => {
      const line = `waiting for ${state.waitingFor.length ? state.waitingFor.join(", ") : "none"}${seq === null || seq === undefined ? "" : ` after seq ${core.pyStr(seq)}`}`;
      if (line !== lastReport && !json)
        out(`waiting: ${line}`);
      lastReport = line;
      return line;
    };
    let lastSeq = null;
    const onUpdate = (n) => {
      if (n.event)
        lastSeq = n.event.seq;
      if (n.ready)
        settle(n.reason ?? "ready");
      else
        report(n.state, lastSeq);
    };
    client = await RpcClient.connect(endpoint, { token, participant: token === undefined ? participant : undefined, heartbeatMs: 15000, maxAttempts: 10 });
    const subscription = await client.subscribe({ task, participant }, onUpdate);
    const initial = subscription.initial;
    lastSeq = initial.seq;
    if (initial.ready)
      settle(initial.reason ?? "ready");
    else
      report(initial.state, initial.seq);
    let timer;
    const timedOut = new Promise((resolve) => {
      if (timeoutSeconds > 0)
        timer = setTimeout(() => resolve(undefined), timeoutSeconds * 1000);
    });
    const reason = await Promise.race([ready, timedOut]);
    if (timer)
      clearTimeout(timer);
    if (reason === undefined) {
      const message = `timeout: ${lastReport}`;
      if (json)
        out(JSON.stringify({ ok: false, timeout: true, reason: lastReport }));
      io.stderr(`${message}
`);
      return 1;
    }
    const next = await client.acp("next", { folder: task, participant });
    const { ok: _ok, ...rest } = next;
    if (json)
      out(JSON.stringify({ ok: true, ready: reason.slice("ready: ".length), ...rest }));
    else
      out(`${reason}
${core.formatNext(rest)}`);
    return next.exitCode ?? 0;
  } catch (error) {
    if (error instanceof RpcResponseError)
      throw new core.AcpError(describe(error));
    return fail(ctx, error);
  } finally {
    client?.close();
  }
}
var init_cli = __esm(() => {
  init_config();
  init_client();
  init_server();
  init_jsonrpc();
});

// plugins/rpc.ts
var exports_rpc = {};
__export(exports_rpc, {
  default: () => rpc_default
});
var str3 = (description, valueName) => ({ type: "string", description, valueName }), flag = (description) => ({ type: "boolean", description }), serveCommand2, rpcCommand2, waitExtension, rpc_default = (context) => context.definePlugin({ name: "rpc", commands: [serveCommand2, rpcCommand2, waitExtension] });
var init_rpc = __esm(() => {
  serveCommand2 = {
    name: "serve",
    description: "Serve the collaborations under a folder over JSON-RPC 2.0 (Agent Communication Protocol)",
    options: {
      root: str3("Folder whose sub-folders are the collaborations (default: the config's root, else the working directory)", "dir"),
      config: str3("Server config (YAML): tokens, limits, transports", "file"),
      stdio: flag("Serve on stdin/stdout (the spawning process is trusted)"),
      tcp: str3("Serve on TCP host:port (loopback unless --allow-remote; clients authenticate with a token)", "address"),
      unix: str3("Serve on a Unix socket (created owner-only)", "path"),
      "allow-remote": flag("Allow a non-loopback --tcp address")
    },
    async run(ctx) {
      await Promise.resolve().then(() => init_cli());
      return serveCommand(ctx.options, rpcContext(ctx));
    }
  };
  rpcCommand2 = {
    name: "rpc",
    description: "Call one JSON-RPC method of an `acp serve` endpoint; params are JSON",
    args: ["method", "params?"],
    options: {
      server: str3("tcp://host:port, host:port or unix:/path (or ACP_SERVER)", "endpoint"),
      token: str3("Token the server maps to your participant id (or ACP_TOKEN)"),
      "token-file": str3("Read the token from this file", "file"),
      participant: str3("On a Unix socket without a token: the participant this call speaks for", "id"),
      timeout: str3("Give up waiting for the answer after this long", "seconds"),
      "param-file": { type: "string", multiple: true, valueName: "key=file", description: "Set a param (dotted path, e.g. args.content) to a file's text (repeatable)" },
      json: flag("Print one JSON line even on a terminal")
    },
    async run(ctx) {
      await Promise.resolve().then(() => init_cli());
      return rpcCommand(ctx.args.method, ctx.args.params, ctx.options, rpcContext(ctx));
    }
  };
  waitExtension = {
    name: "wait",
    extend: true,
    description: "Wait by subscription to an `acp serve` endpoint",
    options: {
      server: str3("Wait by subscription to an `acp serve` endpoint (tcp://host:port or unix:/path); --folder is then the task name", "endpoint"),
      token: str3("With --server: the token the server maps to --participant (or ACP_TOKEN)"),
      "token-file": str3("With --server: read the token from this file", "file")
    },
    async run(ctx) {
      if (ctx.options.server === undefined) {
        for (const name of ["token", "token-file"])
          if (ctx.options[name] !== undefined)
            throw new ctx.api.UsageError(`argument --${name}: only with --server`);
        return ctx.next();
      }
      await Promise.resolve().then(() => init_cli());
      return waitViaServer(ctx.options, rpcContext(ctx));
    }
  };
});

// plugins/loader.ts
async function loadPlugins(registry, options, api, bundled) {
  const { host } = options;
  const path = await import("node:path");
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
    return fail(`refusing to load ${what} ${file}: it is inside the collaboration folder ${inside}. acp never runs code from a collaboration folder, because anyone who can write that shared folder would gain code execution on every participant; keep plugins and ${CONFIG_FILE} outside it (e.g. in the repository or your home directory)`);
  };
  const requests = [];
  if (options.config) {
    const file = await findConfigFile(host, runtime, cwd, path);
    if (file !== undefined) {
      const real = await refuseInside(file, "the config file");
      for (const entry of await readConfigFile(host, real, fail))
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
  const valibot = await Promise.resolve().then(() => (init_dist(), exports_dist));
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
    return fail(`plugin ${spec.source}: the default export must be a plugin ({ name, hooks?, deliverableTypes? }), a deliverable type ({ type, title, sections() }) or a function (context) => one of these; got ${describe2(value)}`);
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
function describe2(value) {
  if (value === null)
    return "null";
  if (Array.isArray(value))
    return "an array";
  if (typeof value === "object")
    return `an object with keys ${Object.keys(value).join(", ") || "(none)"}`;
  return typeof value;
}
async function importFile(file, runtime, fail) {
  const { pathToFileURL } = await import("node:url");
  try {
    return await import(pathToFileURL(file).href);
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
async function findConfigFile(host, runtime, cwd, path) {
  for (let dir = cwd;; dir = path.dirname(dir)) {
    const file = path.join(dir, CONFIG_FILE);
    if (runtime.mayRead?.(file) !== false && (await host.fs.stat(file).catch(() => null))?.isFile)
      return file;
    if (path.dirname(dir) === dir)
      return;
  }
}
async function readConfigFile(host, file, fail) {
  const [YAML, v] = await Promise.all([Promise.resolve().then(() => __toESM(require_dist(), 1)), Promise.resolve().then(() => (init_dist(), {}))]);
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
  const Path = pipe(string("must be a path (a string)"), check((s) => s.trim() !== "", "must not be blank"));
  const Mapping = custom((x) => typeof x === "object" && x !== null && !Array.isArray(x), "must be a mapping (key: value)");
  const Entry = union([Path, strictObject({ path: Path, options: optional(Mapping) }, unknownKey)], "must be a plugin path (a string) or a mapping { path, options }");
  const Config = strictObject({ plugins: optional(nullable(array(Entry, "must be a list"))), git: optional(nullable(Mapping)) }, unknownKey);
  if (typeof data !== "object" || Array.isArray(data) || data === null)
    return fail(`${file}: the top level must be a mapping with a plugins: list`);
  const result = safeParse(Config, data);
  if (!result.success) {
    const issue = deepestIssue(result.issues[0]);
    const key = formatKey(issue.path);
    const message = issue.message.startsWith("unknown key") ? `unknown key (allowed: ${key.includes("[") ? "path, options" : "plugins, git"})` : issue.message;
    return fail(`${file}: ${key || "(top level)"}: ${message}`);
  }
  return (result.output.plugins ?? []).map((entry) => typeof entry === "string" ? entry.trim() : { path: entry.path.trim(), options: entry.options ?? {} });
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

// plugins/git/config.ts
async function gitSettings(ctx) {
  const section = ctx.options["no-config"] === true ? undefined : await configSection(ctx);
  if (ctx.options.git !== true && section === undefined)
    return;
  return { ...DEFAULTS, ...section?.settings };
}
async function configSection(ctx) {
  const path = await import("node:path");
  const file = await findConfigFile(ctx.host, ctx.runtime, ctx.host.resolvePath("."), path);
  if (file === undefined)
    return;
  const [YAML, v] = await Promise.all([Promise.resolve().then(() => __toESM(require_dist(), 1)), Promise.resolve().then(() => (init_dist(), {}))]);
  const data = YAML.parse(new TextDecoder().decode(await ctx.host.fs.readFile(file)));
  if (!data || typeof data !== "object" || !Object.hasOwn(data, "git"))
    return;
  const seconds = pipe(number("must be a number of seconds"), minValue(0.05, "must be at least 0.05"));
  const Section = strictObject({
    remote: optional(pipe(string("must be a string"), nonEmpty("must not be empty"))),
    branch: optional(pipe(string("must be a string"), nonEmpty("must not be empty"))),
    interval: optional(seconds),
    "max-interval": optional(seconds),
    attempts: optional(pipe(number("must be a number"), integer("must be an integer"), minValue(1, "must be at least 1")))
  }, "unknown key (allowed: remote, branch, interval, max-interval, attempts)");
  const result = safeParse(Section, data.git ?? {});
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
var DEFAULTS;
var init_config2 = __esm(() => {
  init_loader();
  DEFAULTS = { remote: "origin", intervalSeconds: 3, maxIntervalSeconds: 30, attempts: 20 };
});

// plugins/git/repo.ts
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
    fail(`git: the local branch '${repo.branch}' has ${foreign.length} unpushed commit(s) that are not acp events (${foreign.map((c) => `${c.hash.slice(0, 8)} ${c.subject}`).join(", ")}); push or remove them first`);
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
var ACP_SUBJECT_RE, LOCAL_FILES, GIT_ENV;
var init_repo = __esm(() => {
  ACP_SUBJECT_RE = /^acp: seq \d+ \S+ by .+$/;
  LOCAL_FILES = new Set([".acp.lock", ".acp.lock.break", ".acp.checkpoint.json"]);
  GIT_ENV = { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", GIT_ASKPASS: "", SSH_ASKPASS: "" };
});

// plugins/git/append.ts
import { relative as relativePath } from "node:path";
function appendRequest(ctx) {
  const o = ctx.options;
  const replyTo = str4(o["reply-to"]);
  return {
    participant: str4(o.participant),
    event: str4(o.event),
    summary: str4(o.summary),
    doc: str4(o.doc),
    replyTo: replyTo === undefined ? undefined : ctx.api.parsePyInt(replyTo, "reply-to"),
    role: str4(o.role),
    sha256: str4(o.sha256)
  };
}
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
  for (let attempt = 1;; attempt++) {
    const { unpushed } = await syncToRemote(repo);
    if (unpushed && await push(repo) === "rejected")
      continue;
    const changes = await folderChanges(repo);
    const stray = changes.filter((p) => !named.has(p));
    if (stray.length)
      throw new ctx.api.AcpError(`git: the folder has changes this event does not name: ${stray.join(", ")} (commit, stash or discard them first)`);
    const base = (await repo.git(["rev-parse", "HEAD"])).stdout.trim();
    const edits = await saveEdits(repo, changes);
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
    const pushed = await push(repo).catch(async (error) => {
      await undo(repo, base, edits);
      throw error;
    });
    if (pushed === "ok") {
      if (afterFailure)
        throw afterFailure;
      return { result, attempts: attempt };
    }
    await undo(repo, base, edits);
    if (attempt >= settings.attempts) {
      throw new ctx.api.AcpError(`git: the push was rejected ${attempt} times (other clones kept pushing first); nothing was appended, your document edits are kept; try again`);
    }
    await sleep(Math.min(1000, 25 * 2 ** attempt) * (0.5 + Math.random()));
  }
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
var EVENT_DOCUMENTS, str4 = (value) => typeof value === "string" ? value : undefined, top = (path) => `:(top,literal)${path}`;
var init_append = __esm(() => {
  init_util();
  init_repo();
  EVENT_DOCUMENTS = {
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
});

// plugins/git/wait.ts
function seconds3(ctx, name) {
  const value = ctx.options[name];
  if (typeof value !== "string")
    return;
  const n = ctx.api.parsePyFloat(value, name);
  if (!(n >= 0))
    throw new ctx.api.UsageError(`argument --${name}: invalid non-negative number: '${value}'`);
  return n;
}
async function gitWait(ctx, settings) {
  const folder = ctx.folder();
  const participant = String(ctx.options.participant);
  const timeoutSeconds = seconds3(ctx, "timeout") ?? ctx.api.DEFAULT_WAIT_TIMEOUT_SECONDS;
  const localInterval = seconds3(ctx, "interval");
  const deadline = timeoutSeconds > 0 ? Date.now() + timeoutSeconds * 1000 : Infinity;
  const repo = await openRepo(ctx, settings, folder);
  let interval = settings.intervalSeconds;
  let lastReport = "";
  const onProgress = ctx.json ? undefined : (line) => {
    if (line !== lastReport)
      ctx.out(line);
    lastReport = line;
  };
  for (;; ) {
    const { moved } = await ctx.api.withFolderLock(ctx.host, repo.gitDir, () => syncToRemote(repo), { timeoutMs: 300000 });
    if (moved)
      interval = settings.intervalSeconds;
    const remaining = (deadline - Date.now()) / 1000;
    let result;
    try {
      const window = Math.max(0.01, Math.min(interval, remaining));
      result = await ctx.api.waitForTurn(ctx.host, folder, participant, { intervalSeconds: localInterval, timeoutSeconds: window, signal: ctx.signal, onProgress }, ctx.registry);
    } catch (error) {
      if (!(error instanceof ctx.api.AcpTimeoutError))
        throw error;
      if (Date.now() < deadline) {
        interval = Math.min(settings.maxIntervalSeconds, interval * 1.5);
        continue;
      }
      ctx.err(error.message);
      return { exitCode: 1, json: { ok: false, exitCode: 1, timeout: true, error: error.message } };
    }
    if (!ctx.json)
      ctx.out(`${result.reason}
${ctx.api.formatNext(result.next)}`);
    return { exitCode: result.next.exitCode, json: { ok: result.next.exitCode === 0, ready: result.reason.slice("ready: ".length), ...result.next } };
  }
}
var init_wait = __esm(() => {
  init_repo();
});

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
  const rewrites = await logRewrites(repo);
  if (rewrites.length)
    add("problem", `events.jsonl history is not append-only: ${rewrites.join(", ")} changed or removed lines`);
  else
    add("ok", "events.jsonl history is append-only");
}
async function logRewrites(repo) {
  const log = await repo.git(["log", "--format=@%h", "--numstat", "--no-renames", "--", `:(top,literal)${repo.prefix}events.jsonl`]);
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
var init_doctor2 = __esm(() => {
  init_repo();
});

// plugins/git.ts
var exports_git = {};
__export(exports_git, {
  default: () => git_default
});
async function enabled(ctx) {
  await Promise.resolve().then(() => init_config2());
  return gitSettings(ctx);
}
var GIT_FLAG, appendExtension, waitExtension2, doctorExtension, git_default = (context) => context.definePlugin({ name: "git", commands: [appendExtension, waitExtension2, doctorExtension] });
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
      await Promise.resolve().then(() => init_append());
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
      await Promise.resolve().then(() => init_wait());
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
      await Promise.resolve().then(() => init_doctor2());
      return gitDoctor(ctx, settings, result);
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
    return await import("./acp-mcp.mjs");
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

// plugins/humans/snapshot.ts
import { join as join6 } from "node:path";
function isObject2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
async function readText2(sources, folder, name) {
  try {
    return sources.api.decodeText(await sources.host.fs.readFile(join6(folder, name)), name);
  } catch {
    return "";
  }
}
async function loadSnapshot(sources, folder) {
  const { api, host } = sources;
  const protocol = await api.readProtocol(host, folder);
  const participants = api.participantIds(protocol);
  const log = await api.readEventLog(host, folder);
  const documents = {
    decisions: await readText2(sources, folder, "decisions.md"),
    readiness: await readText2(sources, folder, "readiness.md"),
    conclusion: await readText2(sources, folder, "conclusion.md"),
    proposal: await readText2(sources, folder, "proposal.md")
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
  const gates = (Array.isArray(protocol.completionGates) ? protocol.completionGates : []).filter(isObject2).map((gate) => ({ text: api.pyStr(gate.text ?? ""), source: api.pyStr(gate.source ?? ""), checked: typeof gate.text === "string" && readiness.isGateChecked(gate.text) }));
  return {
    folder,
    now: host.now().toISOString(),
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
  const declared = isObject2(protocol.deliverables) ? protocol.deliverables : {};
  const primaryRef = api.primaryRef(protocol);
  const primaryType = isObject2(declared.primary) ? api.pyStr(declared.primary.pluginType ?? declared.primary.type ?? "") : "";
  const supporting = (Array.isArray(declared.supporting) ? declared.supporting : []).filter(isObject2).filter((s) => typeof s.file === "string");
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
var OUTCOME_RE;
var init_snapshot = __esm(() => {
  OUTCOME_RE = /^\s*-\s*\[(proceed|do_not_proceed|defer|blocked)\]\s+(.+)$/gm;
});

// node_modules/picocolors/picocolors.js
var require_picocolors = __commonJS(function(exports, module) {
  var p = process || {};
  var argv = p.argv || [];
  var env = p.env || {};
  var isColorSupported = !(!!env.NO_COLOR || argv.includes("--no-color")) && (!!env.FORCE_COLOR || argv.includes("--color") || p.platform === "win32" || (p.stdout || {}).isTTY && env.TERM !== "dumb" || !!env.CI);
  var formatter = (open, close, replace = open) => (input) => {
    let string = "" + input, index = string.indexOf(close, open.length);
    return ~index ? open + replaceClose(string, close, replace, index) + close : open + string + close;
  };
  var replaceClose = (string, close, replace, index) => {
    let result = "", cursor = 0;
    do {
      result += string.substring(cursor, index) + replace;
      cursor = index + close.length;
      index = string.indexOf(close, cursor);
    } while (~index);
    return result + string.substring(cursor);
  };
  var createColors = (enabled = isColorSupported) => {
    let f = enabled ? formatter : () => String;
    return {
      isColorSupported: enabled,
      reset: f("\x1B[0m", "\x1B[0m"),
      bold: f("\x1B[1m", "\x1B[22m", "\x1B[22m\x1B[1m"),
      dim: f("\x1B[2m", "\x1B[22m", "\x1B[22m\x1B[2m"),
      italic: f("\x1B[3m", "\x1B[23m"),
      underline: f("\x1B[4m", "\x1B[24m"),
      inverse: f("\x1B[7m", "\x1B[27m"),
      hidden: f("\x1B[8m", "\x1B[28m"),
      strikethrough: f("\x1B[9m", "\x1B[29m"),
      black: f("\x1B[30m", "\x1B[39m"),
      red: f("\x1B[31m", "\x1B[39m"),
      green: f("\x1B[32m", "\x1B[39m"),
      yellow: f("\x1B[33m", "\x1B[39m"),
      blue: f("\x1B[34m", "\x1B[39m"),
      magenta: f("\x1B[35m", "\x1B[39m"),
      cyan: f("\x1B[36m", "\x1B[39m"),
      white: f("\x1B[37m", "\x1B[39m"),
      gray: f("\x1B[90m", "\x1B[39m"),
      bgBlack: f("\x1B[40m", "\x1B[49m"),
      bgRed: f("\x1B[41m", "\x1B[49m"),
      bgGreen: f("\x1B[42m", "\x1B[49m"),
      bgYellow: f("\x1B[43m", "\x1B[49m"),
      bgBlue: f("\x1B[44m", "\x1B[49m"),
      bgMagenta: f("\x1B[45m", "\x1B[49m"),
      bgCyan: f("\x1B[46m", "\x1B[49m"),
      bgWhite: f("\x1B[47m", "\x1B[49m"),
      blackBright: f("\x1B[90m", "\x1B[39m"),
      redBright: f("\x1B[91m", "\x1B[39m"),
      greenBright: f("\x1B[92m", "\x1B[39m"),
      yellowBright: f("\x1B[93m", "\x1B[39m"),
      blueBright: f("\x1B[94m", "\x1B[39m"),
      magentaBright: f("\x1B[95m", "\x1B[39m"),
      cyanBright: f("\x1B[96m", "\x1B[39m"),
      whiteBright: f("\x1B[97m", "\x1B[39m"),
      bgBlackBright: f("\x1B[100m", "\x1B[49m"),
      bgRedBright: f("\x1B[101m", "\x1B[49m"),
      bgGreenBright: f("\x1B[102m", "\x1B[49m"),
      bgYellowBright: f("\x1B[103m", "\x1B[49m"),
      bgBlueBright: f("\x1B[104m", "\x1B[49m"),
      bgMagentaBright: f("\x1B[105m", "\x1B[49m"),
      bgCyanBright: f("\x1B[106m", "\x1B[49m"),
      bgWhiteBright: f("\x1B[107m", "\x1B[49m")
    };
  };
  module.exports = createColors();
  module.exports.createColors = createColors;
});

// plugins/humans/text.ts
function terminalSafe(value) {
  const text = typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
  return text.replace(UNSAFE_TERMINAL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
function escapeHtml(value) {
  const text = typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
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
  const pc = (await Promise.resolve().then(() => __toESM(require_picocolors(), 1))).default.createColors(true);
  return { bold: pc.bold, dim: pc.dim, red: pc.red, green: pc.green, yellow: pc.yellow, cyan: pc.cyan, magenta: pc.magenta };
}
var UNSAFE_TERMINAL, HTML_ESCAPES;
var init_text = __esm(() => {
  UNSAFE_TERMINAL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
});

// plugins/humans/status.ts
var exports_status = {};
__export(exports_status, {
  formatEvent: () => formatEvent,
  runStatus: () => runStatus
});
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
  const after = `→ ${phase ?? "none"}`.padEnd(17);
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
var RECENT_EVENTS = 5;
var init_status = __esm(() => {
  init_snapshot();
  init_text();
});

// plugins/humans/context.ts
function stringOption(ctx, name) {
  const value = ctx.options[name];
  if (Array.isArray(value))
    return value.at(-1);
  return typeof value === "string" ? value : undefined;
}

// plugins/humans/log.ts
var exports_log = {};
__export(exports_log, {
  runLog: () => runLog
});
import { join as join7 } from "node:path";
async function runLog(ctx) {
  const { api, host } = ctx;
  const folder = ctx.folder();
  const since = sinceOption(ctx);
  const follow = ctx.options.follow === true;
  const p = await paint(ctx.color);
  const protocol = await api.readProtocol(host, folder);
  const participants = api.participantIds(protocol);
  const readiness = api.readReadiness(await readText2(ctx, folder, "readiness.md"));
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
    bytes = await ctx.host.fs.readFile(join7(folder, "events.jsonl"));
  } catch (error) {
    if (error.code === "ENOENT")
      return { events: [], errors: [] };
    throw error;
  }
  const end = bytes.lastIndexOf(10) + 1;
  const { events, errors } = ctx.api.parseEventLog(ctx.api.decodeText(bytes.subarray(0, end), "events.jsonl"));
  return { events, errors };
}
var POLL_MS = 2000;
var init_log = __esm(() => {
  init_snapshot();
  init_status();
  init_text();
});

// node_modules/mdurl/lib/decode.mjs
function getDecodeCache(exclude) {
  let cache = decodeCache[exclude];
  if (cache) {
    return cache;
  }
  cache = decodeCache[exclude] = [];
  for (let i = 0;i < 128; i++) {
    const ch = String.fromCharCode(i);
    cache.push(ch);
  }
  for (let i = 0;i < exclude.length; i++) {
    const ch = exclude.charCodeAt(i);
    cache[ch] = "%" + ("0" + ch.toString(16).toUpperCase()).slice(-2);
  }
  return cache;
}
function decode(string, exclude) {
  if (typeof exclude !== "string") {
    exclude = decode.defaultChars;
  }
  const cache = getDecodeCache(exclude);
  return string.replace(/(%[a-f0-9]{2})+/gi, function(seq) {
    let result = "";
    for (let i = 0, l = seq.length;i < l; i += 3) {
      const b1 = parseInt(seq.slice(i + 1, i + 3), 16);
      if (b1 < 128) {
        result += cache[b1];
        continue;
      }
      if ((b1 & 224) === 192 && i + 3 < l) {
        const b2 = parseInt(seq.slice(i + 4, i + 6), 16);
        if ((b2 & 192) === 128) {
          const chr = b1 << 6 & 1984 | b2 & 63;
          if (chr < 128) {
            result += "��";
          } else {
            result += String.fromCharCode(chr);
          }
          i += 3;
          continue;
        }
      }
      if ((b1 & 240) === 224 && i + 6 < l) {
        const b2 = parseInt(seq.slice(i + 4, i + 6), 16);
        const b3 = parseInt(seq.slice(i + 7, i + 9), 16);
        if ((b2 & 192) === 128 && (b3 & 192) === 128) {
          const chr = b1 << 12 & 61440 | b2 << 6 & 4032 | b3 & 63;
          if (chr < 2048 || chr >= 55296 && chr <= 57343) {
            result += "���";
          } else {
            result += String.fromCharCode(chr);
          }
          i += 6;
          continue;
        }
      }
      if ((b1 & 248) === 240 && i + 9 < l) {
        const b2 = parseInt(seq.slice(i + 4, i + 6), 16);
        const b3 = parseInt(seq.slice(i + 7, i + 9), 16);
        const b4 = parseInt(seq.slice(i + 10, i + 12), 16);
        if ((b2 & 192) === 128 && (b3 & 192) === 128 && (b4 & 192) === 128) {
          let chr = b1 << 18 & 1835008 | b2 << 12 & 258048 | b3 << 6 & 4032 | b4 & 63;
          if (chr < 65536 || chr > 1114111) {
            result += "����";
          } else {
            chr -= 65536;
            result += String.fromCharCode(55296 + (chr >> 10), 56320 + (chr & 1023));
          }
          i += 9;
          continue;
        }
      }
      result += "�";
    }
    return result;
  });
}
var decodeCache, decode_default;
var init_decode = __esm(() => {
  decodeCache = {};
  decode.defaultChars = ";/?:@&=+$,#";
  decode.componentChars = "";
  decode_default = decode;
});

// node_modules/mdurl/lib/encode.mjs
function getEncodeCache(exclude) {
  let cache = encodeCache[exclude];
  if (cache) {
    return cache;
  }
  cache = encodeCache[exclude] = [];
  for (let i = 0;i < 128; i++) {
    const ch = String.fromCharCode(i);
    if (/^[0-9a-z]$/i.test(ch)) {
      cache.push(ch);
    } else {
      cache.push("%" + ("0" + i.toString(16).toUpperCase()).slice(-2));
    }
  }
  for (let i = 0;i < exclude.length; i++) {
    cache[exclude.charCodeAt(i)] = exclude[i];
  }
  return cache;
}
function encode(string, exclude, keepEscaped) {
  if (typeof exclude !== "string") {
    keepEscaped = exclude;
    exclude = encode.defaultChars;
  }
  if (typeof keepEscaped === "undefined") {
    keepEscaped = true;
  }
  const cache = getEncodeCache(exclude);
  let result = "";
  for (let i = 0, l = string.length;i < l; i++) {
    const code = string.charCodeAt(i);
    if (keepEscaped && code === 37 && i + 2 < l) {
      if (/^[0-9a-f]{2}$/i.test(string.slice(i + 1, i + 3))) {
        result += string.slice(i, i + 3);
        i += 2;
        continue;
      }
    }
    if (code < 128) {
      result += cache[code];
      continue;
    }
    if (code >= 55296 && code <= 57343) {
      if (code >= 55296 && code <= 56319 && i + 1 < l) {
        const nextCode = string.charCodeAt(i + 1);
        if (nextCode >= 56320 && nextCode <= 57343) {
          result += encodeURIComponent(string[i] + string[i + 1]);
          i++;
          continue;
        }
      }
      result += "%EF%BF%BD";
      continue;
    }
    result += encodeURIComponent(string[i]);
  }
  return result;
}
var encodeCache, encode_default;
var init_encode = __esm(() => {
  encodeCache = {};
  encode.defaultChars = ";/?:@&=+$,-_.!~*'()#";
  encode.componentChars = "-_.!~*'()";
  encode_default = encode;
});

// node_modules/mdurl/lib/format.mjs
function format(url) {
  let result = "";
  result += url.protocol || "";
  result += url.slashes ? "//" : "";
  result += url.auth ? url.auth + "@" : "";
  if (url.hostname && url.hostname.indexOf(":") !== -1) {
    result += "[" + url.hostname + "]";
  } else {
    result += url.hostname || "";
  }
  result += url.port ? ":" + url.port : "";
  result += url.pathname || "";
  result += url.search || "";
  result += url.hash || "";
  return result;
}

// node_modules/mdurl/lib/parse.mjs
function Url() {
  this.protocol = null;
  this.slashes = null;
  this.auth = null;
  this.port = null;
  this.hostname = null;
  this.hash = null;
  this.search = null;
  this.pathname = null;
}
function urlParse(url, slashesDenoteHost) {
  if (url && url instanceof Url)
    return url;
  const u = new Url;
  u.parse(url, slashesDenoteHost);
  return u;
}
var protocolPattern, portPattern, simplePathPattern, delims, unwise, autoEscape, nonHostChars, hostEndingChars, hostnameMaxLen = 255, hostnamePartPattern, hostnamePartStart, hostlessProtocol, slashedProtocol, parse_default;
var init_parse = __esm(() => {
  protocolPattern = /^([a-z0-9.+-]+:)/i;
  portPattern = /:[0-9]*$/;
  simplePathPattern = /^(\/\/?(?!\/)[^\?\s]*)(\?[^\s]*)?$/;
  delims = ["<", ">", '"', "`", " ", "\r", `
`, "\t"];
  unwise = ["{", "}", "|", "\\", "^", "`"].concat(delims);
  autoEscape = ["'"].concat(unwise);
  nonHostChars = ["%", "/", "?", ";", "#"].concat(autoEscape);
  hostEndingChars = ["/", "?", "#"];
  hostnamePartPattern = /^[+a-z0-9A-Z_-]{0,63}$/;
  hostnamePartStart = /^([+a-z0-9A-Z_-]{0,63})(.*)$/;
  hostlessProtocol = {
    javascript: true,
    "javascript:": true
  };
  slashedProtocol = {
    http: true,
    https: true,
    ftp: true,
    gopher: true,
    file: true,
    "http:": true,
    "https:": true,
    "ftp:": true,
    "gopher:": true,
    "file:": true
  };
  Url.prototype.parse = function(url, slashesDenoteHost) {
    let lowerProto, hec, slashes;
    let rest = url;
    rest = rest.trim();
    if (!slashesDenoteHost && url.split("#").length === 1) {
      const simplePath = simplePathPattern.exec(rest);
      if (simplePath) {
        this.pathname = simplePath[1];
        if (simplePath[2]) {
          this.search = simplePath[2];
        }
        return this;
      }
    }
    let proto = protocolPattern.exec(rest);
    if (proto) {
      proto = proto[0];
      lowerProto = proto.toLowerCase();
      this.protocol = proto;
      rest = rest.substr(proto.length);
    }
    if (slashesDenoteHost || proto || rest.match(/^\/\/[^@\/]+@[^@\/]+/)) {
      slashes = rest.substr(0, 2) === "//";
      if (slashes && !(proto && hostlessProtocol[proto])) {
        rest = rest.substr(2);
        this.slashes = true;
      }
    }
    if (!hostlessProtocol[proto] && (slashes || proto && !slashedProtocol[proto])) {
      let hostEnd = -1;
      for (let i = 0;i < hostEndingChars.length; i++) {
        hec = rest.indexOf(hostEndingChars[i]);
        if (hec !== -1 && (hostEnd === -1 || hec < hostEnd)) {
          hostEnd = hec;
        }
      }
      let auth, atSign;
      if (hostEnd === -1) {
        atSign = rest.lastIndexOf("@");
      } else {
        atSign = rest.lastIndexOf("@", hostEnd);
      }
      if (atSign !== -1) {
        auth = rest.slice(0, atSign);
        rest = rest.slice(atSign + 1);
        this.auth = auth;
      }
      hostEnd = -1;
      for (let i = 0;i < nonHostChars.length; i++) {
        hec = rest.indexOf(nonHostChars[i]);
        if (hec !== -1 && (hostEnd === -1 || hec < hostEnd)) {
          hostEnd = hec;
        }
      }
      if (hostEnd === -1) {
        hostEnd = rest.length;
      }
      if (rest[hostEnd - 1] === ":") {
        hostEnd--;
      }
      const host = rest.slice(0, hostEnd);
      rest = rest.slice(hostEnd);
      this.parseHost(host);
      this.hostname = this.hostname || "";
      const ipv6Hostname = this.hostname[0] === "[" && this.hostname[this.hostname.length - 1] === "]";
      if (!ipv6Hostname) {
        const hostparts = this.hostname.split(/\./);
        for (let i = 0, l = hostparts.length;i < l; i++) {
          const part = hostparts[i];
          if (!part) {
            continue;
          }
          if (!part.match(hostnamePartPattern)) {
            let newpart = "";
            for (let j = 0, k = part.length;j < k; j++) {
              if (part.charCodeAt(j) > 127) {
                newpart += "x";
              } else {
                newpart += part[j];
              }
            }
            if (!newpart.match(hostnamePartPattern)) {
              const validParts = hostparts.slice(0, i);
              const notHost = hostparts.slice(i + 1);
              const bit = part.match(hostnamePartStart);
              if (bit) {
                validParts.push(bit[1]);
                notHost.unshift(bit[2]);
              }
              if (notHost.length) {
                rest = notHost.join(".") + rest;
              }
              this.hostname = validParts.join(".");
              break;
            }
          }
        }
      }
      if (this.hostname.length > hostnameMaxLen) {
        this.hostname = "";
      }
      if (ipv6Hostname) {
        this.hostname = this.hostname.substr(1, this.hostname.length - 2);
      }
    }
    const hash = rest.indexOf("#");
    if (hash !== -1) {
      this.hash = rest.substr(hash);
      rest = rest.slice(0, hash);
    }
    const qm = rest.indexOf("?");
    if (qm !== -1) {
      this.search = rest.substr(qm);
      rest = rest.slice(0, qm);
    }
    if (rest) {
      this.pathname = rest;
    }
    if (slashedProtocol[lowerProto] && this.hostname && !this.pathname) {
      this.pathname = "";
    }
    return this;
  };
  Url.prototype.parseHost = function(host) {
    let port = portPattern.exec(host);
    if (port) {
      port = port[0];
      if (port !== ":") {
        this.port = port.substr(1);
      }
      host = host.substr(0, host.length - port.length);
    }
    if (host) {
      this.hostname = host;
    }
  };
  parse_default = urlParse;
});

// node_modules/mdurl/index.mjs
var exports_mdurl = {};
__export(exports_mdurl, {
  decode: () => decode_default,
  encode: () => encode_default,
  format: () => format,
  parse: () => parse_default
});
var init_mdurl = __esm(() => {
  init_decode();
  init_encode();
  init_parse();
});

// node_modules/uc.micro/build/index.mjs
var exports_build = {};
__export(exports_build, {
  Any: () => Any,
  Cc: () => Cc,
  Cf: () => Cf,
  P: () => P,
  S: () => S3,
  Z: () => Z
});
var Any, Cc, Cf, P, S3, Z;
var init_build = __esm(() => {
  Any = /[\0-\uD7FF\uE000-\uFFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
  Cc = /[\0-\x1F\x7F-\x9F]/;
  Cf = /[\xAD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]|\uD804[\uDCBD\uDCCD]|\uD80D[\uDC30-\uDC3F]|\uD82F[\uDCA0-\uDCA3]|\uD834[\uDD73-\uDD7A]|\uDB40[\uDC01\uDC20-\uDC7F]/;
  P = /[!-#%-\*,-\/:;\?@\[-\]_\{\}\xA1\xA7\xAB\xB6\xB7\xBB\xBF\u037E\u0387\u055A-\u055F\u0589\u058A\u05BE\u05C0\u05C3\u05C6\u05F3\u05F4\u0609\u060A\u060C\u060D\u061B\u061D-\u061F\u066A-\u066D\u06D4\u0700-\u070D\u07F7-\u07F9\u0830-\u083E\u085E\u0964\u0965\u0970\u09FD\u0A76\u0AF0\u0C77\u0C84\u0DF4\u0E4F\u0E5A\u0E5B\u0F04-\u0F12\u0F14\u0F3A-\u0F3D\u0F85\u0FD0-\u0FD4\u0FD9\u0FDA\u104A-\u104F\u10FB\u1360-\u1368\u1400\u166E\u169B\u169C\u16EB-\u16ED\u1735\u1736\u17D4-\u17D6\u17D8-\u17DA\u1800-\u180A\u1944\u1945\u1A1E\u1A1F\u1AA0-\u1AA6\u1AA8-\u1AAD\u1B4E\u1B4F\u1B5A-\u1B60\u1B7D-\u1B7F\u1BFC-\u1BFF\u1C3B-\u1C3F\u1C7E\u1C7F\u1CC0-\u1CC7\u1CD3\u2010-\u2027\u2030-\u2043\u2045-\u2051\u2053-\u205E\u207D\u207E\u208D\u208E\u2308-\u230B\u2329\u232A\u2768-\u2775\u27C5\u27C6\u27E6-\u27EF\u2983-\u2998\u29D8-\u29DB\u29FC\u29FD\u2CF9-\u2CFC\u2CFE\u2CFF\u2D70\u2E00-\u2E2E\u2E30-\u2E4F\u2E52-\u2E5D\u3001-\u3003\u3008-\u3011\u3014-\u301F\u3030\u303D\u30A0\u30FB\uA4FE\uA4FF\uA60D-\uA60F\uA673\uA67E\uA6F2-\uA6F7\uA874-\uA877\uA8CE\uA8CF\uA8F8-\uA8FA\uA8FC\uA92E\uA92F\uA95F\uA9C1-\uA9CD\uA9DE\uA9DF\uAA5C-\uAA5F\uAADE\uAADF\uAAF0\uAAF1\uABEB\uFD3E\uFD3F\uFE10-\uFE19\uFE30-\uFE52\uFE54-\uFE61\uFE63\uFE68\uFE6A\uFE6B\uFF01-\uFF03\uFF05-\uFF0A\uFF0C-\uFF0F\uFF1A\uFF1B\uFF1F\uFF20\uFF3B-\uFF3D\uFF3F\uFF5B\uFF5D\uFF5F-\uFF65]|\uD800[\uDD00-\uDD02\uDF9F\uDFD0]|\uD801\uDD6F|\uD802[\uDC57\uDD1F\uDD3F\uDE50-\uDE58\uDE7F\uDEF0-\uDEF6\uDF39-\uDF3F\uDF99-\uDF9C]|\uD803[\uDD6E\uDEAD\uDED0\uDF55-\uDF59\uDF86-\uDF89]|\uD804[\uDC47-\uDC4D\uDCBB\uDCBC\uDCBE-\uDCC1\uDD40-\uDD43\uDD74\uDD75\uDDC5-\uDDC8\uDDCD\uDDDB\uDDDD-\uDDDF\uDE38-\uDE3D\uDEA9\uDFD4\uDFD5\uDFD7\uDFD8]|\uD805[\uDC4B-\uDC4F\uDC5A\uDC5B\uDC5D\uDCC6\uDDC1-\uDDD7\uDE41-\uDE43\uDE60-\uDE6C\uDEB9\uDF3C-\uDF3E]|\uD806[\uDC3B\uDD44-\uDD46\uDDE2\uDE3F-\uDE46\uDE9A-\uDE9C\uDE9E-\uDEA2\uDF00-\uDF09\uDFE1]|\uD807[\uDC41-\uDC45\uDC70\uDC71\uDEF7\uDEF8\uDF43-\uDF4F\uDFFF]|\uD809[\uDC70-\uDC74]|\uD80B[\uDFF1\uDFF2]|\uD81A[\uDE6E\uDE6F\uDEF5\uDF37-\uDF3B\uDF44]|\uD81B[\uDD6D-\uDD6F\uDE97-\uDE9A\uDFE2]|\uD82F\uDC9F|\uD836[\uDE87-\uDE8B]|\uD839\uDDFF|\uD83A[\uDD5E\uDD5F]/;
  S3 = /[\$\+<->\^`\|~\xA2-\xA6\xA8\xA9\xAC\xAE-\xB1\xB4\xB8\xD7\xF7\u02C2-\u02C5\u02D2-\u02DF\u02E5-\u02EB\u02ED\u02EF-\u02FF\u0375\u0384\u0385\u03F6\u0482\u058D-\u058F\u0606-\u0608\u060B\u060E\u060F\u06DE\u06E9\u06FD\u06FE\u07F6\u07FE\u07FF\u0888\u09F2\u09F3\u09FA\u09FB\u0AF1\u0B70\u0BF3-\u0BFA\u0C7F\u0D4F\u0D79\u0E3F\u0F01-\u0F03\u0F13\u0F15-\u0F17\u0F1A-\u0F1F\u0F34\u0F36\u0F38\u0FBE-\u0FC5\u0FC7-\u0FCC\u0FCE\u0FCF\u0FD5-\u0FD8\u109E\u109F\u1390-\u1399\u166D\u17DB\u1940\u19DE-\u19FF\u1B61-\u1B6A\u1B74-\u1B7C\u1FBD\u1FBF-\u1FC1\u1FCD-\u1FCF\u1FDD-\u1FDF\u1FED-\u1FEF\u1FFD\u1FFE\u2044\u2052\u207A-\u207C\u208A-\u208C\u20A0-\u20C1\u2100\u2101\u2103-\u2106\u2108\u2109\u2114\u2116-\u2118\u211E-\u2123\u2125\u2127\u2129\u212E\u213A\u213B\u2140-\u2144\u214A-\u214D\u214F\u218A\u218B\u2190-\u2307\u230C-\u2328\u232B-\u2429\u2440-\u244A\u249C-\u24E9\u2500-\u2767\u2794-\u27C4\u27C7-\u27E5\u27F0-\u2982\u2999-\u29D7\u29DC-\u29FB\u29FE-\u2B73\u2B76-\u2BFF\u2CE5-\u2CEA\u2E50\u2E51\u2E80-\u2E99\u2E9B-\u2EF3\u2F00-\u2FD5\u2FF0-\u2FFF\u3004\u3012\u3013\u3020\u3036\u3037\u303E\u303F\u309B\u309C\u3190\u3191\u3196-\u319F\u31C0-\u31E5\u31EF\u3200-\u321E\u322A-\u3247\u3250\u3260-\u327F\u328A-\u32B0\u32C0-\u33FF\u4DC0-\u4DFF\uA490-\uA4C6\uA700-\uA716\uA720\uA721\uA789\uA78A\uA828-\uA82B\uA836-\uA839\uAA77-\uAA79\uAB5B\uAB6A\uAB6B\uFB29\uFBB2-\uFBD2\uFD40-\uFD4F\uFD90\uFD91\uFDC8-\uFDCF\uFDFC-\uFDFF\uFE62\uFE64-\uFE66\uFE69\uFF04\uFF0B\uFF1C-\uFF1E\uFF3E\uFF40\uFF5C\uFF5E\uFFE0-\uFFE6\uFFE8-\uFFEE\uFFFC\uFFFD]|\uD800[\uDD37-\uDD3F\uDD79-\uDD89\uDD8C-\uDD8E\uDD90-\uDD9C\uDDA0\uDDD0-\uDDFC]|\uD802[\uDC77\uDC78\uDEC8]|\uD803[\uDD8E\uDD8F\uDED1-\uDED8]|\uD805\uDF3F|\uD807[\uDFD5-\uDFF1]|\uD81A[\uDF3C-\uDF3F\uDF45]|\uD82F\uDC9C|\uD833[\uDC00-\uDCEF\uDCFA-\uDCFC\uDD00-\uDEB3\uDEBA-\uDED0\uDEE0-\uDEF0\uDF50-\uDFC3]|\uD834[\uDC00-\uDCF5\uDD00-\uDD26\uDD29-\uDD64\uDD6A-\uDD6C\uDD83\uDD84\uDD8C-\uDDA9\uDDAE-\uDDEA\uDE00-\uDE41\uDE45\uDF00-\uDF56]|\uD835[\uDEC1\uDEDB\uDEFB\uDF15\uDF35\uDF4F\uDF6F\uDF89\uDFA9\uDFC3]|\uD836[\uDC00-\uDDFF\uDE37-\uDE3A\uDE6D-\uDE74\uDE76-\uDE83\uDE85\uDE86]|\uD838[\uDD4F\uDEFF]|\uD83B[\uDCAC\uDCB0\uDD2E\uDEF0\uDEF1]|\uD83C[\uDC00-\uDC2B\uDC30-\uDC93\uDCA0-\uDCAE\uDCB1-\uDCBF\uDCC1-\uDCCF\uDCD1-\uDCF5\uDD0D-\uDDAD\uDDE6-\uDE02\uDE10-\uDE3B\uDE40-\uDE48\uDE50\uDE51\uDE60-\uDE65\uDF00-\uDFFF]|\uD83D[\uDC00-\uDED8\uDEDC-\uDEEC\uDEF0-\uDEFC\uDF00-\uDFD9\uDFE0-\uDFEB\uDFF0]|\uD83E[\uDC00-\uDC0B\uDC10-\uDC47\uDC50-\uDC59\uDC60-\uDC87\uDC90-\uDCAD\uDCB0-\uDCBB\uDCC0\uDCC1\uDCD0-\uDCD8\uDD00-\uDE57\uDE60-\uDE6D\uDE70-\uDE7C\uDE80-\uDE8A\uDE8E-\uDEC6\uDEC8\uDECD-\uDEDC\uDEDF-\uDEEA\uDEEF-\uDEF8\uDF00-\uDF92\uDF94-\uDFEF\uDFFA]/;
  Z = /[ \xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]/;
});

// node_modules/entities/dist/decode-codepoint.js
function isInvalidCodePoint(codePoint) {
  return codePoint === 0 || codePoint >= 55296 && codePoint <= 57343 || codePoint > 1114111;
}
function replaceCodePoint(codePoint) {
  if (isInvalidCodePoint(codePoint)) {
    return 65533;
  }
  if (codePoint >= 128 && codePoint <= 159) {
    return c1[codePoint - 128] || codePoint;
  }
  return codePoint;
}
function codePointToString(codePoint) {
  return codePoint - 1 >>> 0 < 127 || codePoint - 160 >>> 0 < 55136 ? String.fromCharCode(codePoint) : String.fromCodePoint(replaceCodePoint(codePoint));
}
var c1;
var init_decode_codepoint = __esm(() => {
  c1 = [
    8364,
    0,
    8218,
    402,
    8222,
    8230,
    8224,
    8225,
    710,
    8240,
    352,
    8249,
    338,
    0,
    381,
    0,
    0,
    8216,
    8217,
    8220,
    8221,
    8226,
    8211,
    8212,
    732,
    8482,
    353,
    8250,
    339,
    0,
    382,
    376
  ];
});

// node_modules/entities/dist/internal/decode-shared.js
function decodeTrieDict(input, resultLength, atomCount, dict1AtomCount, ngramCount, dictSize) {
  const base = 91;
  const inputLength = input.length;
  const twoCharBias = dictSize * (base - 1);
  let pos = 0;
  const readSlotCode = () => {
    const c1 = BASE91_INVERSE[input.charCodeAt(pos++)];
    return c1 < dictSize ? c1 : c1 * base - twoCharBias + BASE91_INVERSE[input.charCodeAt(pos++)];
  };
  const dict2AtomCount = atomCount - dict1AtomCount;
  const slotCount = atomCount + ngramCount;
  const single = new Int32Array(slotCount);
  single.fill(-1, dict1AtomCount, dictSize);
  single.fill(-1, dictSize + dict2AtomCount, slotCount);
  const start = new Int32Array(slotCount);
  const length = new Int32Array(slotCount);
  function decodeDelta(count, off) {
    let previous = 0;
    let slot = off;
    const end = off + count;
    while (slot < end) {
      const code = BASE91_INVERSE[input.charCodeAt(pos++)];
      if (code < 89) {
        previous += code;
        single[slot++] = previous;
      } else if (code === 89) {
        let runLength = BASE91_INVERSE[input.charCodeAt(pos++)] + 2;
        while (runLength--)
          single[slot++] = ++previous;
      } else {
        const next = BASE91_INVERSE[input.charCodeAt(pos++)];
        previous += 89 + (next < 90 ? next * base + BASE91_INVERSE[input.charCodeAt(pos++)] : BASE91_INVERSE[input.charCodeAt(pos++)] * 8281 + BASE91_INVERSE[input.charCodeAt(pos++)] * base + BASE91_INVERSE[input.charCodeAt(pos++)]);
        single[slot++] = previous;
      }
    }
  }
  decodeDelta(dict1AtomCount, 0);
  decodeDelta(dict2AtomCount, dictSize);
  const references = new Int32Array(ngramCount * 2);
  let poolSize = 0;
  let ngramIndex = 0;
  function readNgramReferences(count, startSlot) {
    for (let index = 0;index < count; index++) {
      const slot = startSlot + index;
      const a = readSlotCode();
      const b = readSlotCode();
      references[ngramIndex * 2] = a;
      references[ngramIndex * 2 + 1] = b;
      ngramIndex += 1;
      start[slot] = poolSize;
      const entryLength = (single[a] < 0 ? length[a] : 1) + (single[b] < 0 ? length[b] : 1);
      length[slot] = entryLength;
      poolSize += entryLength;
    }
  }
  readNgramReferences(ngramCount - dictSize + dict1AtomCount, dictSize + dict2AtomCount);
  readNgramReferences(dictSize - dict1AtomCount, dict1AtomCount);
  const pool = new Uint16Array(poolSize);
  let write = 0;
  for (let index = 0;index < ngramIndex; index++) {
    for (let half = 0;half < 2; half++) {
      const source = references[index * 2 + half];
      const value = single[source];
      if (value < 0) {
        let read = start[source];
        const readEnd = read + length[source];
        while (read < readEnd)
          pool[write++] = pool[read++];
      } else {
        pool[write++] = value;
      }
    }
  }
  const out = new Uint16Array(resultLength);
  let outIndex = 0;
  while (pos < inputLength) {
    let slot = BASE91_INVERSE[input.charCodeAt(pos++)];
    if (slot >= dictSize) {
      slot = slot * base - twoCharBias + BASE91_INVERSE[input.charCodeAt(pos++)];
    }
    const value = single[slot];
    if (value < 0) {
      let read = start[slot];
      const readEnd = read + length[slot];
      while (read < readEnd)
        out[outIndex++] = pool[read++];
    } else {
      out[outIndex++] = value;
    }
  }
  return out;
}
var BASE91_INVERSE;
var init_decode_shared = __esm(() => {
  BASE91_INVERSE = /* @__PURE__ */ (() => {
    const table = new Uint8Array(127);
    let code = 0;
    for (let char = 33;char <= 126; char++) {
      if (char !== 34 && char !== 36 && char !== 92) {
        table[char] = code++;
      }
    }
    return table;
  })();
});

// node_modules/entities/dist/generated/decode-data-html.js
var htmlDecodeTree;
var init_decode_data_html = __esm(() => {
  init_decode_shared();
  htmlDecodeTree = /* @__PURE__ */ decodeTrieDict("!}.&u%}'&}*'~!6*)%&,~!J~!J~%L~y<~!R,~~%Lu~~#GD~~#|)1#%}^%}2%+#.##%##%}&%##%'#%##&%#%#'%#&#%#&#'#%%#&#%##%#)%''%&%#%#'%#%%#%%}%%%#%#&(23#%%#&-%0%('1#(##%#'##+%'*.:1}#%#6-+(%'%%#%%%}#L'2351&('%}&/N'(0(/*-%(%%}#'+&T%7.2}#&%&#%#36/5##%&%%#&#%%#))2%%##%&&'0~!#*+&'%1~!%).'3q?&%'1~!.##%6(~!+%%%(Gw'rT~!E#<nA%#jZ~!H%(~!42##~!*31&~!G%U~#)5~#`3~!J~!Z~%]~%Y~%C~!q~!u~#kz~%#~!6'~!D~!U~!?~#T~!c%~!G#'~%7|~!G~!J~!G&~#pb~(Df}#%}*&}#%##%##%##&#-}&'#'&%#.++}%mI,#,@&(}*%}*'%&##&#%##%}&0}#.},U},%}+%}&%}#%##&}B%(}(%}+%)})%##%#&}&%##%&}<%}>%#%&}*%}(%}9%}/%})%}*%}*%}?&}&%}3%}&*#%})%#%#)}#&#-#+*%E%%'%'#%}#*V##&##I}#&&##%&%#&&Qf%%))w/0+&%#(#.%-''''++++7}>%4'',##1,#%#&%##&#'##&#*#9)%&%}#*}%,#+P(%A&%#'&##wSD',9E00#y#@}(+}&%&>~!#~!X}#*}(&&}(&}(,%}%&#+&}#&}I%#%}%)#(},'%#*}4%%#%}(''}#/##(##),%-##%%)#&}(.}&%#&}%%}*&#%},&&}&%}#%*'#%})%}D&}&%}-&}6&#&}-,%}#%})-(~+`~,=?~I9'9%~!,#%})%})%}@%}?%}(~!?~#<~#pP~#BG~#=1#%K+~#?#~%;)~#A~#mF1~#A'~'X%'~#lR~#N~'N~#r~#m#-~#i'?%#'%~#B%##%,%#~#_%#0%~#]732~,w~2+#:&#%&'0%&>%}#>##F+)#%&&#(+_}4&}-%}(&}@&}O7Fdf0@+/v4}&WU##&/0#&'('B#%}.%}'+#%}#%%&#&%#%##+#&#)#6#'#.},%}c%},%#%##%&#&%#&~#>'*-.%##%##%}#%%}%'~#)D1}#%*&~#_%%'(~#S2%'.}#~#=##*'*-%}&'%'##&&~'E%.#&~#M4}%%##&'%#~#O1##%&#'+~#<B%##%%'%+~#;#@%}#&%#&&%#(~#H1}'%'##&&~#?A}&'~#D#%32}'&&&&~#[}'(#%}'~#;C})&}%%#%~#=&%,3}%'(#%%~#^'#&&)#%'~#Y%-~#d-%'~#^%%&#&&&}#~#b~2t*&'~&(~&@~0%~e~3}%*''0})&}+~!9##-}#%-hD*)1fC#%/&/fB#40~!+#)*4~!+~!K'&:~!/*7~!.#~!H~!L':~%x&~!H#~!*~%1~!I#~!+A~#p'~!F~~#-#~,,(~.Z~!V~%;'B'mq-W~!N~%I%#&&#&}#%},%%}'%}+X#%}#&}(%}'%}<%}#%}%%'}'%}:~![)9@~%>~#UA%-%##&~!C%~!-.9:~!1~!-^2/:a~!y,D*J#-5)/4~%23,~#G~!L1~!0X3`~!2+~!!0-~&E~!W~!o,>Y&]~%cZx_&~#O*9#A#'#+I'%#)~!0B*-5A+-((F&*M#)(-7-5+'-3a5Vi~!Y~!?+[)%3),ERHm~!+:D,VG.+)?fB%%*(%)'(#&80%1'8`K8?`+'Z#&O&'H5#*9)A%%5&3))0%39+.*7#()&&*=4@**L)<'_&*+..;(#*+)./&0#3)%')-8(4ixD(&.}%,('aI:,)%,k2231T)I'#/-W7,/'Q#.'Y24+h')37</31&83##&0#),H(?'&?/1##%#&&#%''-%&&&#(&''&#.-'%#%%(,')*'&#&#'##%(%(#%('#&##%%%%('%#%#%%#%#&%##h>w+v<ayvyvcg.uuhKr}g/v|g>u9i[~>g5uI~=RvdwEg;v/g;uk!!TTSx]@RT!U!#!@VBRUU!'UTe-d0c`e&gSdicedFcrdTaqb.kYcAohdYd@a3e+d}dMdtd.aJ#bqcK`dle/e.e'dwdPdodddjbEb}ogd^ofdpduc6j?l%d{drdqc)d7bacOdQ%T#Y)X.sR[yH>6Vyv3[xwLu>vo'!*.[yBacahoj>6Rew3[xqdZa#!a&#^(X-[yG>6Vyu3[xvg3sEr|g.u/Ri9db0T#^(Xa)!-[y;>6Vylg4wKs{JwNZt3@3r=c4Z([xlg;wKt!cpq's@v7A'*a(a+!-a#[y<3Dt?3Dt'>6Vym3[xmg9rxsNJwLZt4~?r?db1T#`-!(Xa,!0[yS>6Vz%NuQs.g4wKtnJwNZtS@3r>c4Z([y%g;wKtrdga8!a(!#&T*Y-Xa#!a0<or[yc3Dtq>6Vz43[y3JwNZtf@3s!Ju}!%Dti:pm3c_%X#tjB5pkd6q!r]u?voC'*-a.a2!0a&a+[yI3DtI3Ds~3DtH>6Vyw3[xx;:s#~<5pKJwNZtE@3r~d`a)!a2T#a.(!+U.X1[yT3Dt`3Dtv>6Vz&3[y&g9rxwzcxstPu.<rAJwLZtT~?r@dZa%!a.&^*Za(/Reu[ya>6Vz23[y1g3sEr}wkg{NuQRg{ci(U#5@b`~,cg#U(2WnH5wugcRh7dX#T(Y,a'Ta!!a,[yZ<]mj>6Vz,3[y+Pv#5ReZKu+=,%!H}7ABwkaS?Rh:BcW(X#<]mrj:ubv/ARekdg%!(!a.*Ta(Y.X1!#sP>Rl*Dt6[y>>6Vyo3Wf*jOvuumvuRgRJuq*!:9<B@bX~3jVv&v@s@5Re[d/rQt{uAvo&a&a*)a2!,0Wf!3Dt0=Bs'>6Re}3[xy~<5s%JwJZt1~Gs)c;&!#2sJkNuXvzq7rxu,Re8dka4!a8(aEZ+a@Y.X1Xa)[yd=Bs(3DtP>6Vz53[y4cX#X&Re:avRe9~<5s&JwJZtQ~Gs*i^rzvdRg+Jv{%!2sbB@bX}kdga,!Za?&^*T1/!a'Dt+[y6>6Vyf3Wf%g/u;s4hGu6?Rh-JvZ,!c%#&RoX54Rivj7uyvf8RgTKvZB%*!2sGh<vu5Rgq<=C::9bb~#dZ#T&Ta6Y.X*Dt>[y93Wf)coZ(T,6VyifluvRgC@95@B@bX~/hFu34cC#T,k/unq8w8Q5RkUklwQuzunq8w8Q5Rk8d/rJu?v8w9)-&!a0a;a&aIWejg3sEr/h1s<DtDJvyZqY5aws3Jvy!&Wei~Hr1:au5@Bag>23E~5c:Z&bX};kKv?w&unuVu5Rjc;>bs)#~@:Rh.=ay<a]C;b`}Vd6s/t{uAvoaxa()!a,a7%-a#a2Dt,[yF2Wo[>6Vyt3[xuNuPRi&NuPwpi#RoWh?vf8Ri%Jv]!%Ri:KvxD!.'2WeAjZu`q9rxu,Re7woeAg-unLq(qA_/*2Wg_g3u5q^9:4E}/jTrxrzv=Wkkd~0UX#^^Xa-a1a5T&a=U1a'*aEa]!a*aPaA-adok[y54Rn>;:p3~Dp5g9rpsFNvZqjg3uJp4~<5p0Pw;5qlJwNZt*@3p1Pw:5p/Ou!5p2JvG'!6Vye=<qnJvh_[xhg3v,Rh3kOwOw-sDuev/Re^dha[a%!%!a+#Ta7)-5TaCaO!aka!a)sf[yb2>Rl!9ARiq5E}Qg=ucRkBE|oJrJ_@Wk~@Wk{JrJ_@Wk|@WkyJrJ_@Wk}@WkzJvO_[y2g-vMRmiKuYC!)&>Ri;>Ri<@3RkNc](X#@9Rk=g5vuRmhKvDB!+'=]meg3u4Rmgd)#Y'Vz3CARmfd`a+!%T'!+#Ta1Ta6TaM-sTDt9[yA9sYd'%Y#s[[xpj:ueunaXRgEjRq,v-vuqdd2'`#6Rev<32@5>:2<E}5xIo9a*X#Y(;5RePJvD_g>vyRgNj8w)v8<wggs:RgXiZt|vjx,hSq3ah!-(~@:Ro/Ou!5RhWj^v(pyw8unRhUdx-UY#^Ua.a3a70!)%UX1TaDa)'omRiRRhE[y:3Dsz=Br,>6Vyj3[xkg6ruwjcqsrPw;5r*Ku]D'Zt-@3r(~?r.i[vwv]dU1a--U#`a4(g/vsRhPOu!5RhLj:rmu9Wo!~@:wdh@g/vsRiTjXuvvNr}:RhBj^v(pyw8unRn]dz1UYa'a+^Y(!aETZalaRY.Ta?a4[yDJw1!#qLsW>6Vyrfzq-pLflpwRe|Js>%!Dt@3Dt&Jvy_[xs~HrnjMuwpsw'RecKu+D#'!t<~Grl~?rjg5u-x,gwp{ah!-(~@:Rg~Ou!5Rh'jXuvvNr}:Rh#cW#X/c;&!#2sLi[v7u7RgpJv)(!iLrxu,Re6j7v@s@5Se[e7d`aW!Za(a`T.a#!a3!&aDa-!9)Dt_=6s+3[x~~DR|h~DS6avhGun5RkZj3w)v-]mkKunB!&*]kb97R|i<ARk<c:Z(6Vy}Juh'!wziMRoS:F|vkLuauJv5vtvQRh1d='T+Y#VyO~DR|jcF#T'7R|g97R|kJv3'!ay<Rj,Jvh&!:ReXcsa6*a+#a#_aIRf9aLRf?c,Z&Rf5Rf7c.Z&Rf;Rf>cQ#%T'p-Rf8Rf=ct#%'(*!,p,Rf4p+Rf6Rf:Rf<d~'Ua%U*^UYa(!a,-!#a4YaTalaEX0a8a<Weo3Dt/3Dsx=Br93Wen~Dr;~<5p<JwNZt2@3p=Pw:5p;Ou!5r3c7&!#:p>3Ds}KvGB)_6Vyk2sM=<r7x'eovA(!hFu1ARf}cV#X&@r5j6rvwQa^Rf3c=Za'wkghJv__g;unRggA53B9=b^}%j6uduo5Jq;!(hIv%2Re`Ou4ARe_e%a#^^^Xa&!a*a2!&a6YaP!*ad!#a:aE/5Rn?[y@>6Vyp;:pE~DrY~<5pBJwNZt8@3pCh=rt3rWPw:5pAJup_[xoNuPpF9c!#'45pD5ARn)d8#X'X*3@rU72s]h>v<<sSjJpqvewOJq/(!hNw'5ReBk0s2u3w/w'5ReE5@Jq.!a+JQ!&WeU23d(#Y&RjG5]jBk!u7w&u0udARjEe#+^^^Ub#!a2/a`Z(agT1!a-a;|@TaG!aS[yV=Re~fow'RguNuPRe?bz#'>RoUWeL>:Cbb|?JwPZtVg6ruRmzJvD'!6Vz(g/vmRh~Jvy_[y(g9voRgyx*cy(#2>Ri2B9b]~9kIw9u7rluJu3Rg]dI#a%UY'@=p%CAx.gQZ&RhwwygtRm{x5g_Z'+ABqR9Woa=Bp&dV#^*Xa'!&@o{g4v]Rk;Jv{!%Rk[wkkiA5RkiwwfUB=x,fUuqC&*!>RfTg8v0RfV~ARfSd;rJsAuAv9wR'ae+/aO!a@aza/a#[yQ@Wg!2Wemg3sEr0JvB_g>uvReWg2v+Re=KupB_+[y!2AbY~-~Hr2AJwD!(h<~El>h<~El?Kun@+_:9b`}Kg-v/Ri3g;vtwyk_9]k_d=&T#*U.6qh@Ab`|K9:H|CJv[!&3Dtex'fDwC%!Rf[9WlMd[(^X,!a%Z06Vz!@WgBg=v~Rgvg,QRe@awd,#Y+jTv|Q~EfWj]uNr|~FRfXdy#Y&^Ua%!aO.!(a)Ua;=!a@aKap!a-,a!Ta]a[rSa]p?[y82sK=Bq~;:p:~<5p8Pw:5p7d'#Y'Wf(;RnRi[u4w&RgJJvG'!6Vyh=<r#ijuuv/sIKuYD'ZtG@3p9~Gr&d2#`(g<vtRgFj`u5w&rqpxRf2CJuY!+:wfnTOu!5Rg}jNs1ucv&RfwJvA!&3@q|BDcC#T,k/unq8w8Q5RkTklwQuzunq8w8Q5Rk9dga#!a'!a=#a0!:+Tb*b@aO.a4!aba8aFJv^}?!VyR~Dr<g;u%Rn.~<5p[x'e`wNZtR@3p]Pw:5pZhNvjBp.woe_g5u-r4JwF!%DtO3:ooc7&!#:p^3DtpLuGw(!+%)Dtk6Vz#2sd=<r8d'#Y([y#<x3gJt`w@!)%}MRiowzikRij=]ilxAf3,U(#B2Rf#g0v-Rm[ck{`U#]giKv3>)!&6Ri154s,KuGB_%@r68r:dJ|t`#X(9<E|u2@H|rx3gJu?w'!+'1Nu7Reg4=H~+9<wxgY95Rm]xLggZ-`(X}U2:Ri4h<uOawRmsJv__5@bb{jbV~3dka#a'a]!,#a+U=a>b6a3b%!/aKa/)!arwve^VyJ;:pR~DpTg3uJpS~<5pOPw;5qmPw:5pNOu!5pQJvG'!6Vyx=<qoJvA!{~Jup!%@qk7Rn/KvyD!}''[xz;>wkh'?Rh,x8gyt`w5D!&),(SgyccRgztJ@3pPB5p#d'(Y#<]mmifubw&RgoJvE&!82s^JvF&!8Rf,ADb]~;x=h'rNu]vK!,%'*0RnORh)4Rh*AqQg-vaRnNg;wHwkh'ba~4cE#Ta*x3gctyw@'!+%RnFRnD<4Rn@hFvK5RnCxWg[#`&a0Ua()`1Rm75Rg[c]%X#qi8Rg^NvdRj>BwzgZauwji7Rm6A4wgg]d1#&(*,.0a#Rm;Rm<Rm=Rm>Rm?Rm@RmARmBe%#^^^Xaea?aC/b+(,!a+a#!a/!>a&Ta<aKbD!2wphBRnk[yPw}hE|.=Br-3Dtm>6Vy~g6urRf.x,hPrNav!%'RnqRo%Ro#Nu;q[Pw;5r+JwNZtM@3r)d'#Y'Weh;xChL#`&RnmRnoKu}>%(!Rne~Bs-;2wjcussJv+'!aYSO}6@B<5?ba~8LrNvj!.%*ROwungw~ng~:9;Ri^>wtnig;wHRnixDh@|(UZ.x1h@|)!#:2<H|*xHn]#-UX'3Ro)z=iT}6ARns=Bwsn_wpnaRncw]aR(#UXa&Ua*a/=]iPd'#Y&Ro'WnXf{QRm2hNvj]nZd`'T~&1`{|`#9b]{}c:'!#Wl{>@=be}]?cl{{U#:5Abb}Jds#^YaF!a*b4a#a3aPa>&Tb!bH!*a_!Eau?/a&RjY<]gj>6Vz*;:pe~DrZg,QRj1JwNZtX@wihspcJvZ&!VyX9WmOJu|!|N2WmHJvh&!]ht~Bpbcn&T(!#RmQ<s7Nu;padH#X'`+WmJ@>RmKCARhnKup=!)&Wf+:RhqNuPpf9c!#'45pd5AwghpARn(Ls@w!%,)!RmP@Wfe<E|IJva!&WmNg8vsRmLd`*.`#Y'Xa!axRn*]hrA8Rhug5s@rXg8u!RmMd8#X'X*3@rV72smdI*#UY&RmICARho~GsgxVgd)Ta'U-Y&Xa!T#RnEWnA@Wffg1uDRi0hFvK5RnBxGnG&#`%owp)@wsf+bX}Ze-*1!a*^^^Ua|!#a.aq&Ya2!a>.a6!a:aO`aJDtL[y`@Wg#>6Vz12@wzoYRoZNuPRi!NuPRhzg=ucRi,@=b`{Yg=ucRi-ACJvB!&Sh[ebSh]ebi`wUuFRm4Jw2_[y0JvB!.<Ju(!&SoG}6Shd}6<Ju(!&SoH}6She}6Kur@._g5vHRieJvx!{L2G{Kx6gd'T#?Rh82Wi5cZ#X(g1w)Rm5dW-Y(Ta#!a)!#aYa=wnfE=su2>>bU{0j9udv:<svj8uQv-7RgHdE%#^'sq9sp=>Bb_{TJv`!&g/r|snj6v(us5d,#Y(56H}[978H}]Jw5!&g1rushJvB!+j;v{u5?zDhd}6}bj;v{u5?zDhe}6}ce*#`(^^^a[aea!=!a6a*aoXb1a.!aAbL!b>,b'aL!aV@Wf|2Wlg3[y/JwNZt^@3piPw:5pgJunZou3@rsJva&!Vy_g<v~Rm#JvG'!6Vz0=<r{Ju{%!:pj@WfsiXuJu3Rm:JvZ&!WfA~Bph@c4Z&Dtwax5rubx(#:awRk1@d,#Y&RfjRfid1#,Y(@Wfp2Wlrg5s@ryKu[@!,'=]ig9wlk?Rk>g5u-rqJvy'!@9RkQcH(T#=>Ri~@<wkj(Wj(KuZB*!&<7rw@9RkRcH(T#=>Ri}@<wkj)Wj)dg(Ta2Xa9X#`-!a*CARhg@@=I}d9x;c~#X%so=<sj>2@@=aybb}XjWv0Q~EfEj3vLv;<d,#Y(56H}`978H}_dgaPaFa'a/!#a3Y0a_a;a|!1(a7-[yE3[xt;:pJNvZrrg3uJrvJwNZt=@3pIh=rt3rxPw:5pGOu!5rpJvG'!6Vys=<rz@c4Z&Dt(ax5rtJvZ!&~BpH@wsfNg-vaRlNci*U#=<wei<F}a5@Jq.!a*JQ!%@qZ23d(#Y&RjH5]jCk!u7w&u0udARjFd/prq=tyvpaEa(a:.!a1aZ(@@=I}:9wpd%=<sX55w_h}@@=I{t=ay<aU@@=I}T=ay<2@@=I})?C9:9au@9Cb]}DP~=x-fAZ(2Wl1=ay<aU@@=I}>5@d##Y+jTv|vV~EfFj]uNpn~FRfGdgaK!Z2&!a8a-Tb({E!acTbM*!a(DtY[yYd'%Y#sl[y*hHvh>Re5x2c{Z}.j4uCvcawRiMd+#X+_x&d!},<5RkX;2Hzw@x,gavfB-!{CcF&T#Roe;RodwWbBg5urRgaKvHC*_6Vz+<4opieuew&Rmq@d]&Y)X,T#X0Rh}<BqP=4qS9:ReMg/ujReNJw0!/<Jui%!bd{kawwnemRelAxUa?a3#*.&UX(Ya+a/RhvRnQ<o}9Wmtd-#Y&RgSRmw9;Rmxay=Rmyg-vaRmuxEhSrNu,v-voC!%(aR.a(a7+1Ro1>Ro5CE{A9b]{@;5x#eO{:g;urRi+KrNA!%(Ro3>Ro79;Ri_Ku@>{;&!x%gX|{KunA_+g5QRj/g3u5Rj#g>uERj%wio/xRhS&!,!#^1U}wba{8>>@=be}qC@:D5ba{7Ku+A&!}x?ba}t>>@=be}se(aA^^^Uat!b0#{pa+awUazbGa#aLb9bgaWac'a5TbS=Br!d1#`%scp_Jvl!#rT>Re0JvX&!VyN=H{Fcm#U&:pY=ReaJv2&!]h0=]nUJvG'!6Vy|=<r%JrM_=]h2@Wlud'#)U'Wf'b]{i=]h/Jvh!&~BpWg=v]RnMx+ny#'Nu;pVwjnu=]nwxJnx,T#`&Reqwjnt=]nvieu9vrRjLLuYwP(#+!th@wih5pX~Gr'g5v/Rh4KunA'!-CARnP@wwiN:Rm_9x'cvw>!|l=<saKvAA!0&3@q}>w^e1bp#&Re2Re3BDx7gH#T|f5H|eKuZ>!%(:qNAH{]Jv6!+3B2B9=b^{X<5<B92:E{ZLvhwA(a;a%!igQuyRmad+#Y}m@3Rh5d8#X'X*:AqUAHzmaxwbh<aXRnVcF}RT#Nw&cj#U(BWnug/vsRntdka)(a3+.Zb7aYYan1!bVa@Xa}[y^@b[{G=H{+hFu73Rj&Pv#5ReQcK%T#sig1v{Rj'Ku+D#'!t]~Grm~?rkKuMB!01d5#`'Vy.ta3Dtu~Hroc8#'{^45s85AwZbP&!#Rn!wghxWn#KvEA!)&2RlA2RlBx:h|#(T,=]j09Wobz>x]z/@awRoTd+#Y(az]hFhCrm4d,#Y+jTv|Q~EfMj]uNr|~FRfOdCa!Xa9_X#@<plJvf!%b`{(9;Rgwc;.!#2x7cw#T|UDb]|T5Ju={(!=@E{&Jv)&!Ab`{'awJvf!~*>>@=be{#KuY>!+&4Ezyi[ugv&RjIdea+T)#UXa&T-T&a!Rh9auRmW=]kLg5vuRn+g3u4Rn-Ow6ARn,hHus5xNk?#UX(U~)/g8v0RkD~AwkkF?Ri.OuNBwkkA?Ri/d|a2`a*^UYa.!aBTZaTa'Xa;!(!2!-a#b2[yC>6Vyq3[xr2Wi?g1rusVh%s?DtF~<5rbJs;%!DtBfswKtCj[uvuSsEu3RgVx3o:u+wN'*Zt;@3rd~Grh~?rfg8w)Lq)qE&-a%!>bI|`jWv0vV~EfCjTv|vV~Ef@j]uNpn~FRfBcK#T']gWNu7x,k7q4ai(0!hHv8<RhmkMu9vrsBuev/RhlCJvB!,g<v{wchh~@:Rhji[vrv{wchi~@:RhkdS&a5UY#Ta!RgPwwiI5BwciI~@:Rh`x'iJvj'!5]iJPu8Bwch]~@:Rhach)U#h3rp]gLh@t|Ax,hTq3ah!-(~@:Ro0Ou!5RhXj^v(pyw8unRhVd|)`,^UYas!a?/a2Z'a^Ta{Tb7Ta(a#!a,Wf&9sZ3DtAadamov=Bqt3[xig8vsRm~>waiL2b`{QJv*_Ouv2qgj<v]v2BqfdR'X*X#Y-@3qr~Gqv~?p6hHv-]glPup5Lq+q?_%*b_{qF{n9b^{rOu4ARhpKvCD!+&~Bqp:5Dbb}nwoiKl&unuTuBv]v+ueunaXRf0=Jvh!0nKufu8v1w&w7q%w&uHrz:Rgnj5w,uxDJq/(!hNw'5ReCk0s2u3w/w'5ReFd>Za&!*UaA=<wkgsRnSJv^!%Refifw3vyRgOKu_B'!,<]gkiiu:w&Rh<=C@a^<B57@2F{[<B5@aW:=3away9A5aW=<B=C@a^<B57@2F{Ie-#`(^^^bCara.b8aza6!/bZ,!adTbnTbOb+aFaS!aAT9@Wf~2Wli3Dtl2@d,#Y&RfnRfmJwJZtN~GqyJva&!VyMg<v~Rm%iXuJu3Rm9Jv[_=]ih9wlkDRkCd1#`(@Wg>2Wls3cH#T(@<Rj*=>Ri|b~'#23s9h<~El.d'#Y&Dtxi^rzvdRl#d*#U%(o|B2s`hJwSaxRmDKv4B&!1:Rmdd5#`'Vx}to~Hq{x'f1v3(!BA5ba|bJv_&!Wfug1v]ReIdO+U/Y#&G}-8wze=Rh{g1v]ReHg/uQRf/by#)ibQwERl/cH#T(@<Rj+=>Ri{cNu+vlax-!(#a0qa9<Rii2;;bU{H;x<i=&X#Rk`<4wwi=C9H~8xAI(Y#<azRi@45wXI<B9;5bb~7dL(X#Xa(+!aL6Vy{g5QqOau:5au2@ay547EzbxOcU(UX-T#Ta#:Cbb|A?wjh/b_|SOw6ARgtihr}u7Rhy<d1#T)X1@@=I|~=ay<2@@=aybb}Sj3vLv;<d,#Y(56H}A978H}@dGpvs@uAu`vcw9*!aFa+ai%(b!aXa8.a?a[ozWey=sU2@G}Nch&U#Rf_WexKu+D#'!t:~Gr`~?r^j]uNr|~FRg*j^psurwJt|RmcKv)@&!)7Rkv~Br[@wxfO:Rl3co#U'6Rezj_q#vIuavjRltwzeyh@vr5JqD0!>aY?C9:9au@9Cb]}9cl#U*5;5<H||jbuus1ucv&Rfvg1v~d/pppzqFr^a--a~!aMat1(hFv;Wiz@@=Izoj5uuv-7Rix~Cw`fk2WlVcZ#X,k)u3vWs@u2]ktg;wEx'fBq(_2Wg/jTv|vV~EfoJv]!15x'hzqG!(P~EfU~CRl_j6v(us5x4i-#T(2WmZ?C2F|d>Kq<aj1!*jTqIsBv=Wl`~Cw`fi2WlWj`v0u*~>RlR=c>Z,k#u3vWs@u2]kr<c1Z+jTqIsBv=Wla~Cw`fm2WlXdmb3!a{(arZa`bkTa%TbQTa-a9+c'!aM!/[yL=Bqug.w'RifhFvyDRj.g>vgwyk^9]k^Jv3_@WfbAARkhJw2_[x|JvB_wkoIRoKwkoJRoLd'(Y#<]gm=<9<H|yd'%_X#skDtb3awwqkgNulRkgdB#^',9:p'hJwSaxRmEBwVb8@4=H|qLu+w50&!)@3qs~?pU>Awwn;;Rn=c:Z'ARn<=<qwKvC@!/&~BqqJv6!&]eVb^z^xRge'/a%+^`#Sge}6<4Rn3=]n0Pw2>Rn8Jw0!&>Rn:>Rn6cY#a7+!a&=<wkaNw~h3z_c5Z{=wjh#=]nLKv^D!&)Vyz=bW|swYb<WetcG#T(2wxa@qVx@gD#Y&b^|V5JwG&!5bb|pg/w&RgD@x=kHs=uAvn!a%%/'+RmSRh694Ro`g-vaRmRhHv-]mlxCcS#`&ba~.5cD#Ta)P~=d,#Y(56H{>978H{Dd_#{2^Y%_+qbbb{6g3sERhsbU{?dfa.,`a(Xa<!aiX#(55RiG54RiHcI#T'WiU3RiVNvdwtfcRlKNvdd,#Y&RlHRlExQgf.1*^T'X#Sgf}6Wn4=]hfPrk>Rn7Jw0!&>Rn5>Rn9Lunw?&a2!,5<oq@@wqfdRlJj5Q~=d,#Y(~ARfcOuN]fdDKw;ay(}i!547E}j?cI#T(@5bV}iCbV}hdv(^^Tb?a40,b##Tbo!a*bR!a<b|a/!aKai!aU[yK=]o^g:v>ReGJwPZtK<7Rh+h<~El,Pv#5ReR@awwxjCg,ulRjDJv6&!]j!z?aQeeg>w=Sh<eeJw;!&axEzOg,Qosc!#*:wkeJ]eJ>x'h-u(!%Ro.w~h.zPdNZ(X,Ya![x{;9ReY;wkgxRiF:x?ap#Y&RmUg<s2Rkod]+UY0TZ'!a&A9sw<=bczLNvuw{gqzNhJwSaxRmCKuLay!#&s_Rf-55b^{uJvZa!!c%#(55Ri654wmiu5RiuawLu,vp!+}^%b_}Y9;wkgxba}o>A9:=b^}zKuh=a''!3awRk3c*'!#aHRk6c+Z&Rk5Rk4Jv)&!awRjSawd9*`#0?C2@EzMj8u<uJ5RmbjQrquJu3x,k>uq@_+=ayb^|W~ARkEOuN]k@7dhzV^X/X&a-#zRzSb`zXcJzTT#2WkVKvDBzW!%FzY9;5bbzWjQrquJu3Jw3%!b`zU=ayb^zQd:#X(T-a!6Vyywxh}=b]{Jg=u1RiAdGp~qHtzv!w(wA+a+a;<!aJaYai'anasb(=azRmV:Cbb{MLq2vb!%')RjuRjrRjtRjqx3jnqCw3!%')Rk(Rk+Rk&Rk)Lq2vb!%')Rj{RjxRjzRjwLq2vb!%')RjsRjpRjfRjex3jcqCw3!%')Rk'Rk*RjkRjl9<CbbzfOu4ARhxLq2vb!%')RjyRjvRjhRjgx=joq*uKvb!%')+-Rk.Rk%Rj~Rk-Rk#Rj}x=jdq*uKvb!%')+-Rk,Rk!Rj|RjmRjjRjidAq&qKs@uAv8Aa.'*-a@a&0!aM@a5[y73Dsy3Ds|3Dt):wxgI2sHJwJZt.~Gqxwsf0ikrzt}Rl0Jvy_[xj~HqzKv_A|D!&WfP8axRoVcf,U#k(v]v+ueunaXRf1Ju}'!g8u#Ri=jQw!sCunLprq>!,')~<5qeGzq9F{W=c##%s5au:5aU3CBE|;d4#X(D!a&6Vygx(b;#(=]ed?C2F{N<capoq2r[a&!aPa9,'Pw;5s:@@=I|,55w_h|@@=IzcP~=x'fCqB_2Wl2>aU@@=I|1OuNBc1Z+jTqIsBv=Wlc~Cw`fl2WlZ~AcTa%!Z+jTqIsBv=Wlb~Cw`fh2WlYk+uNqJsBv=WlSg,u3dca3#UXaMYa)TaB-=cM|7T#<bI}l5@B932:aV2G{BOuNBJq:|M!5Ezt=<B=C@a^<B57@2F{v>cB{/T#=ay<bI{3Jv6!a.6BKq0ah&+!5E}HP~Ef{978BaU@@=Iza<7d#.Y#978BaU@@=IzH~AJq0!(@@=IzG978BaU@@=IzFe,aU*Y&^^^bvJb,b:bFad!a,c2Ta>aL.bo6!a#CbTa'T#Re{2Wlh2@G{yg6t~Ro_NvdRfticuRQRllJv3&!x&c|zs@Jw3!%RflwpfkRlpKuL;%(!Re<@G|C2GzdhIvuBwgjAg-u0RjAKQB%!(GzZ@G|5NuuRl7d='T+Y#Vy[g<v~Rm!==G|>JvA!)@wma=]m1ifuaw&RmnLs@vT'!|/+[y,g:v>ReTJw1!#qX=x!eC{bLu+wT&)ZtZauq_~Graci&U#F|89:r_Lupvq!.)&2RlG8RfaC=x!eF{_h?rpWlmd&'!#X|&]k::xJey#`'T|+<E|&2@H|%dE#(^,g;u.RiEg6vjRiC9xCkA{O|zY#g=ucRmXKs0@!&*@G|m@awRknJuh!,3d(}gY}eJvj!%Rm):Jw3!%Rm+Rm-Ls0w(&!a(a#@b[|6cZ#X'7RkxWgAOu4ARn'dH'U#Y*Vz-Wm'CARm}d]*#a%^a*T'aK!a<9bV{PC=p*Jw4!&SgxcbB5r]idw(wBRmF7xFkt#&`(Rm/Rm8E|!JuY_9:Rl5=wrgr2:bbxd@xXfB(a*#T+!.X0X1Ta/a'T&RlDRfL>RlyARl9b[z[>RfZ:RlL:RfRwlg/ARl;9;RlxKv,A/!%7s69<74=BA5ba{-8Bde#`a<XaKYa1,a'P~=wxfB2bZ}}?C972@@=I}r8@55B9;5bb}G978B2@@=aybb}3j3vLv;<Jw3&!>Rfk=ayb^}4~Ad1#`*@@=aybb{w2@>==<bbz]dx+UY#^UaF!a9!bB'Ya1.!ajXa#%olRhD[y=3Dt#Ov5BrHKuMB%!(Rf^Wep~HrJwkiQjKr|~FRg)Ku+D#'!t5~GrF~?rDdV)UY,Z/_7RkuG{<~BrBg,rlsO:235B@bX}|d?a1!#`(6Vyn5@d##Y+jTv|vV~EfIj]uNpn~FRfH7Lq2vb1!a9-978BaU@@=Iz9978BbU}#~AJq0!(@@=Iz8978BaU@@=Iz7~AJQ|}!978BbU}!JvkaK!AdUa21-U#`a+(g/vsRn~Ou!5RPj:rmu9WhOjXuvvNr}:RhAj^v(pyw8unRn[kPr}p|u7vwv]RiSBd;pppzq@qHQa?(b.!a.a`@.|xa(hFv;Wiyj5uuv-7Riw~Cw`fg2WlU978BbU|wOuNBJqG!(P~EfD~CRlQcZ#X,k)u3vWs@u2]ksg;wEx'f@q1_2Wg.j]uNpn~FRfqJv]!15x'h{qG!(@@=IzK~CRl^j6v(us5x4i,#T(2WmY?C2F{1>Kq<aj1!*jTqIsBv=Wld~Cw`fj2Wl[j`v0u*~>RlT=c>Z,k#u3vWs@u2]kq<c1Z+jTqIsBv=Wle~Cw`fn2Wl]dn1#c(a(b^a2!b/bAT(bj!aDa7bu,a_a{c0!2T0g:v>ReD2@G{42@G{5~DpM~<5rc=Bx6i>{RT#RnI@zCx]y]z:2Jv[!zr5Awyk]9]k]dD(Y+X#6Vz.g=wKtgwhaCwgmTWj2Lu,w%_+/[y-B;b^xeg3u3Rj-2@bX{*KrJ<!+'@Wg(g?QRlC@Jv`!%b[zIwsfII}8JQ_@w|kW|=Jv(%!AqcOuNBJvEzh!bYzjLs@wP#(0!oy@>RkdJwMZtc3Dtd@BcG#T'9bWxg2@2Fznd*#Y+;2x'c}w<zizixNgwa#Z'U+!/!a'!a+w~g~z6wcn{Rn}wcnzRn|5Rh%=]nJg5vuRmvNvdRlvcprJu}w*az*a#!%.a.'Bot9qT]kj@Wg'ay2Gzv@Jv`!%b[zEwsfHI}1;ck#Ux`<Cbbx_Lu+w!a&0*!wko*wwo,So,}6Juqxf!E}PigQuyRm`d3(`#8>Rn%:A5B;bZ~%KvhCa!a2!x>k7#Uxb@b{#xaRk7Jw0!)>wwhlShl}6>wwhmShm}6CJvB!.x'hhvj{!!5Bwkhhbaz}x'hivjz~!5Bwkhibaz|xEhTrNu,v-vpD!a%&/)a3a.,%Ro2t[CE{)@3re9b]{%wjo09:rgc:Z&Ro6=<riifuaw&RmoKrNA!%(Ro4>Ro89;Ri`dSaL'UYzxZb)7Rka3xRhT&!,!#^1U}vbaz{>>@=be}yC@:D5bazzKu+A&!}{?ba}y>>@=be}wxBh[t`u~vJvr!%a!a()a,a0a4RoC=]o;Ju(!%RoGRhdwjh`=]oAg>w#Ro?g5vuRo=NvdRl|Ku]C.!&;RoEJvB!%RoORoMBx'h[v+_?w~h`}~5?w~hd~!xKh]oiptu-utv.vp!#%&a30a@a'a+(a/aOp(o~p!RoDJu(!%RoHRhewjha=]oBNvdRl}g>w#Ro@g5vuRo>c[#X']o<CauRoRAd-#Y':RkpauRoQKu]C.!&;RoFJvB!%RoNRoPBx'h]v+_?w~ha}t5?w~he}ue!/UbhYacXaW^Tc&a;b:a-c/#b&aja1(!cL+!bKbt!bmcRc9aIc?8[yW3Dtt94Rg`Jv}!&SiRMzBhEebShEMNuPRe>x7gL#TzuwjirRipc<Z&>on;>z=h-MSh.Mwqczx'a7vj&!>Re4@=ResJt__NuPRi*NuPRi)j]uNr|~FRfzKrJ>_+@Wfy@Wf]2WocKrJ<!+'@Wg%g/QRl@@Jv`!&awRl<wsfFIzgLu(w*!.*&ShBMwvhIRhI9;RhNx1hK'!#Sn]Mx1hK~0!#:2<H~7cNu+w7D*'1ZtW>Rn1~?rOc:Z&Rn2=<rQ<7wjh&=BSnLMc]#X(6Vz)w[b=a!U#9wzgMc3#&(RgMRitRis<x,gKt`ax!&+SioM=BSilMc3#&(RgKRinRimKurB,!&SiQMzBhDebShDM6BJQ!(P~Efx978B2@@=I}WLrJw!!,a*&@G}O@9wkibRid@@x'fKwC!&SlDMSfLMjUv~Q~EfKKv3@a+!(hFv-]mpx/hYZ(C5RiWz<o/MwkhY?So/M@x,gbvfB*&!SgEM:SoeeehFu3:Rgbda(,^TZa)X/7Sg[eb:2RgI~BrMC@wgkc:wwkcRerx3h(uUvK!&*,SnOM4Sh*MArRg;wHRh(x=h;rJvPwI!a4',a'0@Wg&=BSh/Mg>w=Rh=g3w*wwgGRgGcW(X#;Sg}M2Gzk@Jv`!&awRl=wsfGIz`dKZ*T'Y-:RhR7RhQg5u-p`j6v(us5d,#Y+~Awkia?RicOuNBwkibba}Ld6p~tyu_vbAa'a+!a/'a3aEa8a!>Sh,ebJv{!&Sh@ebSaReb9;SgwebNuPRi(NvdRl)NuPRi'hHu^<Rm^Jvv_@Wl(g;u1Si/ebKu'B&!*Sh?eb@Wl'z@aPeb95Si.ebcpputyvjB)!,&a+0a%ShAMWeK@G}C@WfJ9;RhMwvhH9w{ia}ix,hJvRA1(!zAn[MRhHx1hJ~*!#hFv(BSn[MBJQ!(@@=I~'978B2@@=I}2db.Ua<'X}+T#a0XaG2G}E;wkg|wuh!Rh!x,hZu,@)!&So0MVy)C5RiXACJvB!&5RiY5RiZg8w)cG}*T#2@bU}=KsA>(!a.3wkhZba~(x,h^u(A!&(SoCMRhb5Bz=h[eb?w~hb~6x,h_u(A!&(SoDMRhc5Bz=h]eb?w~hc~6e)aA1T#T,^^^c-bMb&blcPaP(a/!0!bA=b5c@a(!bfbrc#2afwmhARnjwchORnp2Wlf3DtsNvdRl-2@wpa<]m0bx(#:awRk2@Jw3!%RfhwpfgRlnKQB%!(G{V@G|'NuuRl6d='T+Y#VyUg<v~Rl~==G|<Jv+'!aYShC}6@B<5?ba~8@Jw3'!g2QRljhLrpWlOd+#Y'g.w'rIg>w*wgj@g-u0Rj@Lu+wT&)ZtUauq]~GrGci&U#F|39:rELrNvj!.%*RhCwunfw~nf~:9;Ri]>wtnhg;wHRnhx3hDs@v~!/+'@Wfr@9RkSNu&Rlo=@<5GzoKs0@_+@Wl+@awRkmJuh!-3d(}pY#qWJvj!%Rm(:Jw3!%Rm,Rm*de&!1U-U#`)Re;@G|.@9Ri82@wjfvRlq=@<5GzpLvOvr!).&2RlF8Rf`C=x!eE{.Jw3_g2QRlkhLrpWlPde(!#U{s,UXa*Ta'[y'g:v>ReS;x0PZ&RnlRnn~HrKJw1}f!=x!eB|2w]aP(#Xa&a*Ta.Ua2a7=]iOd'#Y&Ro&WnWg;u.RiDg6vjRiBNvdRlzhNvj]nYJuW_2Wm3x)kFze{9d])!a.!,Y01!#&aC!a3RndC=ox~BrC@2b^{pg,rlse7x'ksuq!%Rm.E{xidw(wBRmGx9o+)X#wwo-So-}69:Rl4@xSf@a#XZ'X)X,Ta(/ARl8b[xc>RfY:RlI:RfQwlg.ARl:9;Rlwdn'#^XafaQa1X1TaHTa)@b[{zcZ#X'7RkwWg@Ou4ARn&x)kG#{,g7u/RkGdH'U#Y*Vz'Wm&CARm|bx#(A]gUbUzJj9Q~=d,#Y(56H}l978H{U7d,0#U*2>ABb_xZ978BbU{e~AJQ{g!978BbU{hxMh?ad{oUYZ.x1h?{l!#:2<H{mx3n[t{vl!,&a%3Ro(z=iS}6ARnr=Bwsn^wvn`Rnbd`*T}B0!#^X'BG{c9b]{a>>@=be}F?JvS!&BG{d7BG}(Bde#`a1X,Ya@!a'P~=wxf@2bZ}I56B2@@=aybb}08@55B9;5bb}<j3vLv;<Jw3&!>Rfg=ayb^}&OuNBKuLA!)a!P~=x#fD{f2@>==<bbzl?C972@@=Ix^d6rSu,v7w*C(0a)a6#B+a%!sQ[y?3Dt%3[xn~<5rLOu!5p@Ku+D#'!t7~GrP~?rNKvlaya7'!h+v-5qMg=t|cd,U#5AAaa5Abb{S@52B5@a[@52B5Gx[iXueu;d<#`a(!/549C;ag>23ExY5@Dah89b^~689Jv)!~2b[~1Lv'w(%*!a#bX|aPrmawRe]keu7uhv-q6rxu,q`xTo]/a5aU!bNaDXbi!b-!ao!b<bwA!#5@B932:aV2G|:d-)Y#hJrL>RhG<7@C5<H|_=Cau:5aj5@B932:bJ|ng>vIbs)#?C2F|9jPv0w.vISh-MKvUaz(.!9ABbb|[5;5<H|Eg>unwfh;9:4E|YjQsBt|vjx'hYq3!(?C2F|J:2<BaY?C2F|GOu!5x,g|p{ah!-(?C2F|c9:4E|OjXuvvNr}:Rh&i[w*t|cd+U#jJvsu)vsSn~Mkfrmu9p}u7vwv]So!McW#Xa!ax5@A5aY:5;5<H|>kJv~vYrquJu3x4ib#T)2@SmZM?C2F|Bj:rmu9@xPhI(a*a#U#`a3-5Abb|L~@:RhK9:4E|0@52B5G|#C::aY?C2F|-:2<BaY?C2F|.5Jvk!a)javYrquJu3x4ia#T)2@SmYM?C2F|HAxPhH(!a#U#`a*-5Abb|4~@:RhJ9:4E|R@52B5G|F:2<BaY?C2F|Sc^#Xa2j=Qq5CJvB!-g<v{z;hhM?C2F|Zi[vrv{z;hiM?C2F|XKsA>!a)-g<v{z;h[eb?C2F|]i[vrv{z;h]eb?C2F|^iZu.vix,hZq3ah!.(?C2F|QOu!5ShXM:2<BaY?C2F|P", 13494, 2713, 49, 25, 61);
});

// node_modules/entities/dist/internal/bin-trie-flags.js
var BinTrieFlags;
var init_bin_trie_flags = __esm(() => {
  (function(BinTrieFlags) {
    BinTrieFlags[BinTrieFlags["VALUE_LENGTH"] = 49152] = "VALUE_LENGTH";
    BinTrieFlags[BinTrieFlags["FLAG13"] = 8192] = "FLAG13";
    BinTrieFlags[BinTrieFlags["BRANCH_LENGTH"] = 8064] = "BRANCH_LENGTH";
    BinTrieFlags[BinTrieFlags["JUMP_TABLE"] = 127] = "JUMP_TABLE";
    BinTrieFlags[BinTrieFlags["VALUE_MASK"] = 8191] = "VALUE_MASK";
  })(BinTrieFlags || (BinTrieFlags = {}));
});

// node_modules/entities/dist/decode.js
function unpackConsumed(packed) {
  const consumed = packed >>> CONSUMED_SHIFT;
  return consumed === CONSUMED_OVERFLOW ? longNumericConsumed : consumed;
}
function isNumber(code) {
  return code - CharCodes.ZERO >>> 0 <= 9;
}
function isHexadecimalCharacter(code) {
  return (code | TO_LOWER_BIT) - CharCodes.LOWER_A >>> 0 <= 5;
}
function isAlpha(code) {
  return (code | TO_LOWER_BIT) - CharCodes.LOWER_A >>> 0 <= 25;
}
function isEntityInAttributeInvalidEnd(code) {
  return code === CharCodes.EQUALS || isAlpha(code) || isNumber(code);
}
function determineBranch(decodeTree, current, nodeIndex, char) {
  const branchCount = (current & BinTrieFlags.BRANCH_LENGTH) >> 7;
  const jumpOffset = current & BinTrieFlags.JUMP_TABLE;
  if (jumpOffset) {
    if (branchCount === 0) {
      return char === jumpOffset ? nodeIndex : -1;
    }
    const slot = char - jumpOffset;
    if (slot >>> 0 >= branchCount)
      return -1;
    const stored = decodeTree[nodeIndex + slot];
    return stored === 0 ? -1 : nodeIndex + branchCount + stored - 1 & 65535;
  }
  if (branchCount === 0)
    return -1;
  const packedKeySlots = branchCount + 1 >> 1;
  const branchEnd = nodeIndex + packedKeySlots + branchCount;
  for (let index = 0;index < branchCount; index++) {
    const packed = decodeTree[nodeIndex + (index >> 1)];
    const key = packed >> ((index & 1) << 3) & 255;
    if (key === char) {
      const pointerIndex = nodeIndex + packedKeySlots + index;
      return branchEnd + decodeTree[pointerIndex] & 65535;
    }
    if (key > char)
      return -1;
  }
  return -1;
}
function readTrieValue(decodeTree, nodeIndex, valueLength) {
  if (valueLength === 1) {
    return String.fromCharCode(decodeTree[nodeIndex] & BinTrieFlags.VALUE_MASK);
  }
  if (valueLength === 2) {
    return String.fromCharCode(decodeTree[nodeIndex + 1]);
  }
  return String.fromCharCode(decodeTree[nodeIndex + 1], decodeTree[nodeIndex + 2]);
}
function parseNumericEntity(input, numberStart, inputLength) {
  let offset = numberStart + 1;
  let cp = 0;
  let digitStart = offset;
  if (offset < inputLength && (input.charCodeAt(offset) | TO_LOWER_BIT) === CharCodes.LOWER_X) {
    offset += 1;
    digitStart = offset;
    while (offset < inputLength) {
      const char = input.charCodeAt(offset);
      if (isNumber(char)) {
        cp = cp * 16 + (char - CharCodes.ZERO);
      } else if (isHexadecimalCharacter(char)) {
        cp = cp * 16 + ((char | TO_LOWER_BIT) - CharCodes.LOWER_A + 10);
      } else {
        break;
      }
      offset += 1;
    }
  } else {
    while (offset < inputLength) {
      const digit = input.charCodeAt(offset) - CharCodes.ZERO;
      if (digit >>> 0 > 9)
        break;
      cp = cp * 10 + digit;
      offset += 1;
    }
  }
  if (offset === digitStart)
    return 0;
  if (offset < inputLength && input.charCodeAt(offset) === CharCodes.SEMI) {
    offset += 1;
  }
  if (cp > 1114111)
    cp = 1114112;
  let consumed = offset - numberStart;
  if (consumed >= CONSUMED_OVERFLOW) {
    longNumericConsumed = consumed;
    consumed = CONSUMED_OVERFLOW;
  }
  return consumed << CONSUMED_SHIFT | cp;
}
function decodeWithTrie(input, isStrict, isAttribute) {
  const decodeTree = htmlDecodeTree;
  let offset = input.indexOf("&");
  if (offset < 0)
    return input;
  const inputLength = input.length;
  let chunkStart = 0;
  let result = "";
  const root = decodeTree[0];
  const rootJumpOffset = root & BinTrieFlags.JUMP_TABLE;
  const rootBranchCount = (root & BinTrieFlags.BRANCH_LENGTH) >> 7;
  do {
    const entityStart = offset + 1;
    const firstChar = input.charCodeAt(entityStart);
    let consumed;
    let value;
    if (firstChar === CharCodes.NUM) {
      const packed = parseNumericEntity(input, entityStart, inputLength);
      consumed = unpackConsumed(packed);
      if (isStrict && consumed > 0 && input.charCodeAt(entityStart + consumed - 1) !== CharCodes.SEMI) {
        consumed = 0;
      }
      value = consumed === 0 ? "" : codePointToString(packed & CODE_POINT_MASK);
    } else if (isAlpha(firstChar)) {
      consumed = 0;
      value = "";
      const rootSlotIndex = firstChar - rootJumpOffset;
      let nodeIndex;
      if (rootSlotIndex >>> 0 < rootBranchCount) {
        const stored = decodeTree[1 + rootSlotIndex];
        nodeIndex = stored === 0 ? -1 : rootBranchCount + stored & 65535;
      } else {
        nodeIndex = -1;
      }
      let bestNodeIndex = 0;
      let bestValueLength = 0;
      let current = nodeIndex < 0 ? 0 : decodeTree[nodeIndex];
      let index = entityStart + 1;
      trie:
        while (index < inputLength) {
          while ((current & (BinTrieFlags.VALUE_LENGTH | BinTrieFlags.FLAG13)) === 0 && (current & BinTrieFlags.JUMP_TABLE) !== 0) {
            const jumpOffset = current & BinTrieFlags.JUMP_TABLE;
            const branchCount = (current & BinTrieFlags.BRANCH_LENGTH) >> 7;
            if (branchCount === 0) {
              if (input.charCodeAt(index) !== jumpOffset)
                break trie;
              nodeIndex += 1;
            } else {
              const slot = input.charCodeAt(index) - jumpOffset;
              if (slot >>> 0 >= branchCount)
                break trie;
              const stored = decodeTree[nodeIndex + 1 + slot];
              if (stored === 0)
                break trie;
              nodeIndex = nodeIndex + branchCount + stored & 65535;
            }
            current = decodeTree[nodeIndex];
            index += 1;
            if (index >= inputLength)
              break trie;
          }
          if ((current & (BinTrieFlags.VALUE_LENGTH | BinTrieFlags.FLAG13)) === BinTrieFlags.FLAG13) {
            const runLength = (current & BinTrieFlags.BRANCH_LENGTH) >> 7;
            if (input.charCodeAt(index) !== (current & BinTrieFlags.JUMP_TABLE)) {
              break;
            }
            index += 1;
            const remaining = runLength - 1;
            let wordIndex = nodeIndex + 1;
            let charIndexInPacked = 0;
            for (;charIndexInPacked + 1 < remaining; charIndexInPacked += 2) {
              const packed = decodeTree[wordIndex];
              if (input.charCodeAt(index) !== (packed & 255))
                break trie;
              index += 1;
              if (input.charCodeAt(index) !== (packed >> 8 & 255))
                break trie;
              index += 1;
              wordIndex += 1;
            }
            if (charIndexInPacked < remaining) {
              if (input.charCodeAt(index) !== (decodeTree[wordIndex] & 255))
                break;
              index += 1;
            }
            nodeIndex += 1 + (runLength >> 1);
            current = decodeTree[nodeIndex];
            continue;
          }
          const valueLength = current >>> 14;
          const char = input.charCodeAt(index);
          if (valueLength !== 0) {
            if (char === CharCodes.SEMI) {
              consumed = index - entityStart + 1;
              value = valueLength === 1 ? String.fromCharCode(current & BinTrieFlags.VALUE_MASK) : readTrieValue(decodeTree, nodeIndex, valueLength);
              break;
            }
            if (!isStrict && (current & BinTrieFlags.FLAG13) === 0) {
              consumed = index - entityStart;
              bestNodeIndex = nodeIndex;
              bestValueLength = valueLength;
            }
            if (valueLength === 1)
              break;
          }
          const next = determineBranch(decodeTree, current, nodeIndex + (valueLength || 1), char);
          if (next < 0)
            break;
          nodeIndex = next;
          current = decodeTree[nodeIndex];
          index += 1;
        }
      if (value === "") {
        const finalVL = current >>> 14;
        if (finalVL !== 0 && !isStrict && (current & BinTrieFlags.FLAG13) === 0) {
          consumed = index - entityStart;
          bestNodeIndex = nodeIndex;
          bestValueLength = finalVL;
        }
        if (consumed > 0) {
          value = readTrieValue(decodeTree, bestNodeIndex, bestValueLength);
        }
      }
    } else {
      consumed = 0;
      value = "";
    }
    if (consumed === 0 || isAttribute && firstChar !== CharCodes.NUM && input.charCodeAt(entityStart + consumed - 1) !== CharCodes.SEMI && entityStart + consumed < inputLength && isEntityInAttributeInvalidEnd(input.charCodeAt(entityStart + consumed))) {
      offset = entityStart;
    } else {
      if (chunkStart < offset) {
        result += input.slice(chunkStart, offset);
      }
      result += value;
      offset = chunkStart = entityStart + consumed;
    }
    if (input.charCodeAt(offset) !== CharCodes.AMP) {
      offset = input.indexOf("&", offset);
    }
  } while (offset >= 0);
  return result + input.slice(chunkStart);
}
function decodeHTMLStrict(htmlString) {
  return decodeWithTrie(htmlString, true, false);
}
var CharCodes, TO_LOWER_BIT = 32, CONSUMED_SHIFT = 21, CODE_POINT_MASK = 2097151, CONSUMED_OVERFLOW = 2047, longNumericConsumed = 0, EntityDecoderState, DecodingMode;
var init_decode2 = __esm(() => {
  init_decode_codepoint();
  init_decode_data_html();
  init_bin_trie_flags();
  (function(CharCodes) {
    CharCodes[CharCodes["AMP"] = 38] = "AMP";
    CharCodes[CharCodes["NUM"] = 35] = "NUM";
    CharCodes[CharCodes["SEMI"] = 59] = "SEMI";
    CharCodes[CharCodes["EQUALS"] = 61] = "EQUALS";
    CharCodes[CharCodes["ZERO"] = 48] = "ZERO";
    CharCodes[CharCodes["NINE"] = 57] = "NINE";
    CharCodes[CharCodes["LOWER_A"] = 97] = "LOWER_A";
    CharCodes[CharCodes["LOWER_X"] = 120] = "LOWER_X";
  })(CharCodes || (CharCodes = {}));
  (function(EntityDecoderState) {
    EntityDecoderState[EntityDecoderState["EntityStart"] = 0] = "EntityStart";
    EntityDecoderState[EntityDecoderState["NumericStart"] = 1] = "NumericStart";
    EntityDecoderState[EntityDecoderState["NumericDecimal"] = 2] = "NumericDecimal";
    EntityDecoderState[EntityDecoderState["NumericHex"] = 3] = "NumericHex";
    EntityDecoderState[EntityDecoderState["NamedEntity"] = 4] = "NamedEntity";
  })(EntityDecoderState || (EntityDecoderState = {}));
  (function(DecodingMode) {
    DecodingMode[DecodingMode["Legacy"] = 0] = "Legacy";
    DecodingMode[DecodingMode["Strict"] = 1] = "Strict";
    DecodingMode[DecodingMode["Attribute"] = 2] = "Attribute";
  })(DecodingMode || (DecodingMode = {}));
});

// node_modules/entities/dist/index.js
var EntityLevel, EncodingMode;
var init_dist2 = __esm(() => {
  init_decode2();
  (function(EntityLevel) {
    EntityLevel[EntityLevel["XML"] = 0] = "XML";
    EntityLevel[EntityLevel["HTML"] = 1] = "HTML";
  })(EntityLevel || (EntityLevel = {}));
  (function(EncodingMode) {
    EncodingMode[EncodingMode["UTF8"] = 0] = "UTF8";
    EncodingMode[EncodingMode["ASCII"] = 1] = "ASCII";
    EncodingMode[EncodingMode["Extensive"] = 2] = "Extensive";
    EncodingMode[EncodingMode["Attribute"] = 3] = "Attribute";
    EncodingMode[EncodingMode["Text"] = 4] = "Text";
  })(EncodingMode || (EncodingMode = {}));
});

// node_modules/linkify-it/build/index.mjs
function unpackTlds() {
  const result = tlds_default.split("|");
  tlds_2ch.split("|").forEach((item) => {
    const sep = item.indexOf(":");
    const prefix = item.slice(0, sep);
    for (const suffix of item.slice(sep + 1))
      result.push(prefix + suffix);
  });
  return result;
}
var REBuilder = class {
  src_Any = Any.source;
  src_Cc = Cc.source;
  src_Z = Z.source;
  src_P = P.source;
  src_ZPCc = [
    this.src_Z,
    this.src_P,
    this.src_Cc
  ].join("|");
  src_ZCc = [this.src_Z, this.src_Cc].join("|");
  cache = {};
  opts = {
    maxLength: 1e4,
    urlAuth: false,
    schema_names: []
  };
  constructor(opts = {}) {
    this.opts = {
      ...this.opts,
      ...opts
    };
  }
  set(opts = {}) {
    this.opts = {
      ...this.opts,
      ...opts
    };
    this.cache = {};
    return this;
  }
  escapeRE(str) {
    return str.replace(/[.?*+^$[\]\\(){}|-]/g, "\\$&");
  }
  nestedPairRE(open, close, depth = 4) {
    const openRE = this.escapeRE(open);
    const closeRE = this.escapeRE(close);
    const atom = `(?:(?!${this.src_ZCc}|${openRE}|${closeRE}).)`;
    let pair = `${openRE}${atom}{0,1000}${closeRE}`;
    for (let level = 2;level <= depth; level++)
      pair = `${openRE}(?:${atom}|${pair}){0,1000}${closeRE}`;
    return pair;
  }
  get_text_separators() {
    return this.cache.text_separators ??= /[><\uff5c]/;
  }
  get_pseudo_letter() {
    return this.cache.src_pseudo_letter ??= new RegExp(`(?:(?!${this.get_text_separators().source}|${this.src_ZPCc})${this.src_Any})`);
  }
  get_ipv4_addr() {
    return this.cache.src_ip4 ??= /* @__PURE__ */ new RegExp("(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])[.]){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])");
  }
  get_ipv6_addr() {
    const h16 = "[0-9A-Fa-f]{1,4}";
    const ls32 = `(?:(?:${h16}:${h16})|${this.get_ipv4_addr().source})`;
    return this.cache.src_ip6_addr ??= new RegExp(`(?:(?:${h16}:){6}${ls32}|::(?:${h16}:){5}${ls32}|(?:${h16})?::(?:${h16}:){4}${ls32}|(?:(?:${h16}:){0,1}${h16})?::(?:${h16}:){3}${ls32}|(?:(?:${h16}:){0,2}${h16})?::(?:${h16}:){2}${ls32}|(?:(?:${h16}:){0,3}${h16})?::${h16}:${ls32}|(?:(?:${h16}:){0,4}${h16})?::${ls32}|(?:(?:${h16}:){0,5}${h16})?::${h16}|(?:(?:${h16}:){0,6}${h16})?::)`);
  }
  get_ipv6_url_host() {
    return this.cache.src_ip6_host ??= new RegExp(`\\[${this.get_ipv6_addr().source}\\]`);
  }
  get_ipv6_mail_host() {
    return this.cache.src_ipv6_mail_host ??= new RegExp(`\\[IPv6:${this.get_ipv6_addr().source}\\]`);
  }
  get_auth() {
    return this.cache.src_auth ??= new RegExp(`(?:(?:(?!${this.src_ZCc}|[@/\\[\\]()]).){1,50}@)?`);
  }
  get_port() {
    return this.cache.src_port ??= /* @__PURE__ */ new RegExp("(?::(?:6(?:[0-4]\\d{3}|5(?:[0-4]\\d{2}|5(?:[0-2]\\d|3[0-5])))|[1-5]?\\d{1,4}))?");
  }
  get_host_terminator() {
    return this.cache.src_host_terminator ??= new RegExp(`(?=$|${this.get_text_separators().source}|${this.src_ZPCc})(?!${this.opts["---"] ? "-(?!--)|" : "-|"}_|:\\d|\\.-|\\.(?!$|${this.src_ZPCc}))`);
  }
  get_path_terminator() {
    return this.cache.src_path_terminator ??= new RegExp(`${this.src_ZPCc}|${this.get_text_separators().source}`);
  }
  get_path() {
    return this.cache.src_path ??= new RegExp(`(?:[/?#](?:${this.nestedPairRE("[", "]")}|${this.nestedPairRE("(", ")")}|${this.nestedPairRE("{", "}")}|\\"(?:(?!${this.src_ZCc}|["]).){1,100}\\"|\\'(?:(?!${this.src_ZCc}|[']).){1,100}\\'|\\'(?=${this.get_pseudo_letter().source}|[-])|\\.{2,20}[:]?[a-zA-Z0-9%/&]|\\.(?!${this.src_ZCc}|[.]|$)|` + (this.opts["---"] ? "\\-(?!--(?:[^-]|$))(?:-{0,19})|" : "\\-{1,20}|") + `,(?!${this.src_ZCc}|$)|;(?!${this.src_ZCc}|$)|\\!{1,20}(?!${this.src_ZCc}|[!]|$)|\\?(?!${this.src_ZCc}|[?]|$)|` + this.get_path_extra().source + `[\\\\/:%@#&=_~*]|(?!${this.get_path_terminator().source}).){1,${this.opts.maxLength}}|\\/)?`);
  }
  get_mail_name() {
    return this.cache.src_mail_name ??= /* @__PURE__ */ new RegExp("[-!#$%&'*+/=?^_`{|}~a-zA-Z0-9](?:[-!#$%&'*+/=?^_`{|}~a-zA-Z0-9]|[.](?=[-!#$%&'*+/=?^_`{|}~a-zA-Z0-9])){0,63}");
  }
  get_xn() {
    return this.cache.src_xn ??= /* @__PURE__ */ new RegExp("xn--[a-z0-9\\-]{1,59}");
  }
  get_tld() {
    if (this.cache.tld)
      return this.cache.tld;
    const tlds_src = [...new Set(this.opts.tlds || [])].sort().reverse().join("|");
    this.cache.tld = new RegExp(`${tlds_src || "$#none#$"}|${this.get_xn().source}`);
    return this.cache.tld;
  }
  get_domain_root() {
    return this.cache.src_domain_root ??= new RegExp("(?:" + this.get_xn().source + `|${this.get_pseudo_letter().source}{1,63})`);
  }
  get_domain() {
    return this.cache.src_domain ??= new RegExp("(?:" + this.get_xn().source + `|(?:${this.get_pseudo_letter().source})|(?:${this.get_pseudo_letter().source}(?:-|${this.get_pseudo_letter().source}){0,61}${this.get_pseudo_letter().source}))`);
  }
  get_url_host_port() {
    return this.cache.url_host_port ??= new RegExp("(?:" + this.get_ipv6_url_host().source + `|(?:(?:(?:${this.get_domain().source})\\.){0,10}${this.get_domain().source}))` + this.get_port().source + this.get_host_terminator().source);
  }
  get_fuzzy_url_host_port() {
    return this.cache.fuzzy_url_host_port ??= new RegExp("(?:" + (this.opts.fuzzyIP ? this.get_ipv4_addr().source + "|" : "") + `(?:(?:(?:${this.get_domain().source})\\.){1,10}(?:${this.get_tld().source})))` + this.get_host_terminator().source);
  }
  get_mail_host() {
    return this.cache.src_mail_host ??= new RegExp("(?:" + this.get_ipv6_mail_host().source + `|(?:(?:(?:${this.get_domain().source})\\.){0,4}${this.get_domain().source}))` + this.get_host_terminator().source);
  }
  get_fuzzy_mail_host() {
    return this.cache.src_fuzzy_mail_host ??= new RegExp("(?:" + this.get_ipv6_mail_host().source + `|(?:(?:(?:${this.get_domain().source})[.]){1,4}${this.get_domain_root().source}))` + this.get_host_terminator().source);
  }
  get_path_extra() {
    return this.cache.src_path_extra ??= /* @__PURE__ */ new RegExp("");
  }
  get_fuzzy_mail_host_search() {
    return this.cache.mail_fuzzy_host_search ??= new RegExp(`@${this.get_fuzzy_mail_host().source}`, "ig");
  }
  get_fuzzy_link_search() {
    return this.cache.link_fuzzy_search ??= new RegExp(`(^|(?![.:/\\-_@])(?:[$+<=>^\`|｜]|${this.src_ZPCc}))(?:(?![$+<=>^\`|｜])${this.get_fuzzy_url_host_port().source}${this.get_path().source})`, "ig");
  }
  get_http_validator() {
    return this.cache.http_validator ??= new RegExp("\\/\\/" + (this.opts.urlAuth ? this.get_auth().source : "") + this.get_url_host_port().source + this.get_path().source, "iy");
  }
  get_relative_proto_validator() {
    return this.cache.relative_proto_validator ??= new RegExp((this.opts.urlAuth ? this.get_auth().source : "") + `(?:localhost|${this.get_ipv6_url_host().source}|(?:(?:${this.get_domain().source})[.]){1,10}${this.get_domain_root().source})` + this.get_port().source + this.get_host_terminator().source + this.get_path().source, "iy");
  }
  get_mail_name_validator() {
    return this.cache.mail_name_validator ??= new RegExp(`(?:^|${this.get_text_separators().source}|"|\\(|${this.src_ZCc})(${this.get_mail_name().source})$`);
  }
  get_mailto_validator() {
    return this.cache.mailto_validator ??= new RegExp(`${this.get_mail_name().source}@${this.get_mail_host().source}`, "iy");
  }
  get_schema_names() {
    return this.cache.schema_names ??= new RegExp((this.opts.schema_names || []).map((name) => this.escapeRE(name)).join("|"));
  }
  get_schema_search() {
    return this.cache.schema_search ??= new RegExp(`(^|(?!_)(?:[><｜]|${this.src_ZPCc}))(${this.get_schema_names().source})`, "ig");
  }
  get_schema_at_start() {
    return this.cache.schema_at_start ??= new RegExp(`^${this.get_schema_search().source}`, "i");
  }
}, web_schema, defaultSchemas, tlds_2ch = "a:cdefgilmnoqrstuwxz|b:abdefghijmnorstvwyz|c:acdfghiklmnoruvwxyz|d:ejkmoz|e:cegrstu|f:ijkmor|g:abdefghilmnpqrstuwy|h:kmnrtu|i:delmnoqrst|j:emop|k:eghimnprwyz|l:abcikrstuvy|m:acdeghklmnopqrstuvwxyz|n:acefgilopruz|o:m|p:aefghklmnrstwy|q:a|r:eosuw|s:abcdeghijklmnortuvxyz|t:cdfghjklmnortvwz|u:agksyz|v:aceginu|w:fs|y:et|z:amw", tlds_default = "biz|com|edu|gov|net|org|pro|web|xxx|aero|asia|coop|info|museum|name|shop|рф", defaultOptions, Match = class {
  schema;
  index;
  lastIndex;
  raw;
  text;
  url;
  constructor(text, schema, index, lastIndex) {
    const raw = text.slice(index, lastIndex);
    this.schema = schema.toLowerCase();
    this.index = index;
    this.lastIndex = lastIndex;
    this.raw = raw;
    this.text = raw;
    this.url = raw;
  }
}, LinkifyIt = class {
  __opts__;
  __schemas__;
  re;
  constructor(options = {}) {
    const { rebuilder, ...linkifyOptions } = options;
    this.__opts__ = {
      ...defaultOptions,
      ...linkifyOptions
    };
    this.__schemas__ = { ...defaultSchemas };
    this.re = rebuilder || new REBuilder;
    this.re.set({
      ...this.__opts__,
      schema_names: Object.keys(this.__schemas__)
    });
  }
  add(schema, definition = null) {
    if (!definition)
      delete this.__schemas__[schema];
    else {
      const def = {
        normalize: (match, self) => self.normalize(match),
        ...definition
      };
      this.__schemas__[schema] = def;
    }
    this.re.set({
      ...this.__opts__,
      schema_names: Object.keys(this.__schemas__)
    });
    return this;
  }
  set(options = {}) {
    this.__opts__ = {
      ...this.__opts__,
      ...options
    };
    this.re.set({
      ...this.__opts__,
      schema_names: Object.keys(this.__schemas__)
    });
    return this;
  }
  test(text) {
    if (!text.length)
      return false;
    let m, re;
    re = this.re.get_schema_search();
    re.lastIndex = 0;
    while ((m = re.exec(text)) !== null)
      if (this.testSchemaAt(text, m[2], re.lastIndex))
        return true;
    if (this.__opts__.fuzzyLink && this.__schemas__["http:"]) {
      re = this.re.get_fuzzy_link_search();
      re.lastIndex = 0;
      if (re.exec(text) !== null)
        return true;
    }
    if (this.__opts__.fuzzyEmail && this.__schemas__["mailto:"]) {
      if (text.indexOf("@") >= 0) {
        const mailHostRe = this.re.get_fuzzy_mail_host_search();
        const mailNameRe = this.re.get_mail_name_validator();
        mailHostRe.lastIndex = 0;
        while ((m = mailHostRe.exec(text)) !== null) {
          const name = text.slice(Math.max(0, m.index - 65), m.index);
          if (mailNameRe.test(name))
            return true;
        }
      }
    }
    return false;
  }
  testSchemaAt(text, schema, pos) {
    if (!this.__schemas__[schema.toLowerCase()])
      return 0;
    return this.__schemas__[schema.toLowerCase()].validate(text.slice(0, pos + this.__opts__.maxLength), pos, this);
  }
  match(text) {
    const result = [];
    const schemaRe = this.re.get_schema_search();
    let fuzzyLinkRe;
    let mailHostRe;
    let mailNameRe;
    let fuzzyLinkCandidate;
    let fuzzyEmailCandidate;
    let schemaPrefix;
    let schemaDone = false;
    let fuzzyLinkDone = false;
    let fuzzyEmailDone = false;
    let pos = 0;
    if (!text.length)
      return null;
    schemaRe.lastIndex = 0;
    if (this.__opts__.fuzzyLink && this.__schemas__["http:"]) {
      fuzzyLinkRe = this.re.get_fuzzy_link_search();
      fuzzyLinkRe.lastIndex = 0;
    }
    if (this.__opts__.fuzzyEmail && this.__schemas__["mailto:"]) {
      mailHostRe = this.re.get_fuzzy_mail_host_search();
      mailHostRe.lastIndex = 0;
      mailNameRe = this.re.get_mail_name_validator();
    }
    for (;; ) {
      const scanFrom = Math.max(pos - 1, 0);
      if (mailHostRe && mailNameRe && !fuzzyEmailDone && (!fuzzyEmailCandidate || fuzzyEmailCandidate.index < pos)) {
        if (mailHostRe.lastIndex < scanFrom)
          mailHostRe.lastIndex = scanFrom;
        for (;; ) {
          const m = mailHostRe.exec(text);
          if (!m) {
            fuzzyEmailDone = true;
            fuzzyEmailCandidate = undefined;
            break;
          }
          const name = mailNameRe.exec(text.slice(Math.max(0, m.index - 65), m.index));
          if (!name)
            continue;
          fuzzyEmailCandidate = {
            schema: "mailto:",
            index: m.index - name[1].length,
            lastIndex: m.index + m[0].length
          };
          if (fuzzyEmailCandidate.index >= pos)
            break;
          if (mailHostRe.lastIndex < scanFrom)
            mailHostRe.lastIndex = scanFrom;
        }
      }
      if (fuzzyLinkRe && !fuzzyLinkDone && (!fuzzyLinkCandidate || fuzzyLinkCandidate.index < pos)) {
        if (fuzzyLinkRe.lastIndex < scanFrom)
          fuzzyLinkRe.lastIndex = scanFrom;
        for (;; ) {
          const m = fuzzyLinkRe.exec(text);
          if (!m) {
            fuzzyLinkDone = true;
            fuzzyLinkCandidate = undefined;
            break;
          }
          fuzzyLinkCandidate = {
            schema: "",
            index: m.index + m[1].length,
            lastIndex: m.index + m[0].length
          };
          if (fuzzyLinkCandidate.index >= pos)
            break;
          if (fuzzyLinkRe.lastIndex < scanFrom)
            fuzzyLinkRe.lastIndex = scanFrom;
        }
      }
      let fuzzyCandidate = fuzzyEmailCandidate;
      if (!fuzzyCandidate || fuzzyLinkCandidate && (fuzzyLinkCandidate.index < fuzzyCandidate.index || fuzzyLinkCandidate.index === fuzzyCandidate.index && fuzzyLinkCandidate.lastIndex > fuzzyCandidate.lastIndex))
        fuzzyCandidate = fuzzyLinkCandidate;
      let schemaCandidate;
      if (!schemaDone)
        for (;; ) {
          if (!schemaPrefix) {
            if (schemaRe.lastIndex < scanFrom)
              schemaRe.lastIndex = scanFrom;
            const m = schemaRe.exec(text);
            if (!m) {
              schemaDone = true;
              break;
            }
            schemaPrefix = {
              schema: m[2],
              index: m.index + m[1].length,
              lastIndex: m.index + m[0].length
            };
          }
          if (schemaPrefix.index < pos) {
            schemaPrefix = undefined;
            continue;
          }
          if (fuzzyCandidate && schemaPrefix.index > fuzzyCandidate.index)
            break;
          const prefix = schemaPrefix;
          schemaPrefix = undefined;
          const len = this.testSchemaAt(text, prefix.schema, prefix.lastIndex);
          if (len) {
            schemaCandidate = {
              schema: prefix.schema,
              index: prefix.index,
              lastIndex: prefix.lastIndex + len
            };
            break;
          }
        }
      let candidate = schemaCandidate;
      if (!candidate || fuzzyEmailCandidate && (fuzzyEmailCandidate.index < candidate.index || fuzzyEmailCandidate.index === candidate.index && fuzzyEmailCandidate.lastIndex > candidate.lastIndex))
        candidate = fuzzyEmailCandidate;
      if (!candidate || fuzzyLinkCandidate && (fuzzyLinkCandidate.index < candidate.index || fuzzyLinkCandidate.index === candidate.index && fuzzyLinkCandidate.lastIndex > candidate.lastIndex))
        candidate = fuzzyLinkCandidate;
      if (!candidate)
        break;
      if (candidate === fuzzyEmailCandidate)
        fuzzyEmailCandidate = undefined;
      else if (candidate === fuzzyLinkCandidate)
        fuzzyLinkCandidate = undefined;
      const match = new Match(text, candidate.schema, candidate.index, candidate.lastIndex);
      if (match.schema)
        this.__schemas__[match.schema].normalize(match, this);
      else
        this.normalize(match);
      result.push(match);
      pos = candidate.lastIndex;
    }
    if (result.length)
      return result;
    return null;
  }
  matchAtStart(text) {
    if (!text.length)
      return null;
    const m = this.re.get_schema_at_start().exec(text);
    if (!m)
      return null;
    const len = this.testSchemaAt(text, m[2], m[0].length);
    if (!len)
      return null;
    const match = new Match(text, m[2], m.index + m[1].length, m.index + m[0].length + len);
    this.__schemas__[match.schema].normalize(match, this);
    return match;
  }
  tlds(list, keepOld = false) {
    list = Array.isArray(list) ? list : [list];
    if (!keepOld)
      this.__opts__.tlds = list;
    else
      this.__opts__.tlds = this.__opts__.tlds.concat(list);
    this.re.set({
      ...this.__opts__,
      schema_names: Object.keys(this.__schemas__)
    });
    return this;
  }
  normalize(match) {
    if (!match.schema)
      match.url = `http://${match.url}`;
    if (match.schema === "mailto:" && !/^mailto:/i.test(match.url))
      match.url = `mailto:${match.url}`;
  }
};
var init_build2 = __esm(() => {
  init_build();
  web_schema = {
    validate: (text, pos, self) => {
      const re = self.re.get_http_validator();
      re.lastIndex = pos;
      const m = re.exec(text);
      return m ? m[0].length : 0;
    },
    normalize: (match, self) => self.normalize(match)
  };
  defaultSchemas = {
    "http:": web_schema,
    "https:": web_schema,
    "ftp:": web_schema,
    "//": {
      validate: function(text, pos, self) {
        const re = self.re.get_relative_proto_validator();
        re.lastIndex = pos;
        const m = re.exec(text);
        if (m) {
          if (pos >= 3 && text[pos - 3] === ":")
            return 0;
          if (pos >= 3 && text[pos - 3] === "/")
            return 0;
          return m[0].length;
        }
        return 0;
      },
      normalize: (match, self) => self.normalize(match)
    },
    "mailto:": {
      validate: function(text, pos, self) {
        const re = self.re.get_mailto_validator();
        re.lastIndex = pos;
        const m = re.exec(text);
        return m ? m[0].length : 0;
      },
      normalize: (match, self) => self.normalize(match)
    }
  };
  defaultOptions = {
    fuzzyLink: false,
    fuzzyEmail: true,
    fuzzyIP: false,
    "---": false,
    tlds: unpackTlds(),
    urlAuth: false,
    maxLength: 1e4
  };
});

// node_modules/punycode.js/punycode.js
var require_punycode = __commonJS(function(exports, module) {
  var maxInt = 2147483647;
  var base = 36;
  var tMin = 1;
  var tMax = 26;
  var skew = 38;
  var damp = 700;
  var initialBias = 72;
  var initialN = 128;
  var delimiter = "-";
  var regexPunycode = /^xn--/;
  var regexNonASCII = /[^\0-\x7F]/;
  var regexSeparators = /[\x2E\u3002\uFF0E\uFF61]/g;
  var errors = {
    overflow: "Overflow: input needs wider integers to process",
    "not-basic": "Illegal input >= 0x80 (not a basic code point)",
    "invalid-input": "Invalid input"
  };
  var baseMinusTMin = base - tMin;
  var floor = Math.floor;
  var stringFromCharCode = String.fromCharCode;
  function error(type) {
    throw new RangeError(errors[type]);
  }
  function map(array, callback) {
    const result = [];
    let length = array.length;
    while (length--) {
      result[length] = callback(array[length]);
    }
    return result;
  }
  function mapDomain(domain, callback) {
    const parts = domain.split("@");
    let result = "";
    if (parts.length > 1) {
      result = parts[0] + "@";
      domain = parts[1];
    }
    domain = domain.replace(regexSeparators, ".");
    const labels = domain.split(".");
    const encoded = map(labels, callback).join(".");
    return result + encoded;
  }
  function ucs2decode(string) {
    const output = [];
    let counter = 0;
    const length = string.length;
    while (counter < length) {
      const value = string.charCodeAt(counter++);
      if (value >= 55296 && value <= 56319 && counter < length) {
        const extra = string.charCodeAt(counter++);
        if ((extra & 64512) == 56320) {
          output.push(((value & 1023) << 10) + (extra & 1023) + 65536);
        } else {
          output.push(value);
          counter--;
        }
      } else {
        output.push(value);
      }
    }
    return output;
  }
  var ucs2encode = (codePoints) => String.fromCodePoint(...codePoints);
  var basicToDigit = function(codePoint) {
    if (codePoint >= 48 && codePoint < 58) {
      return 26 + (codePoint - 48);
    }
    if (codePoint >= 65 && codePoint < 91) {
      return codePoint - 65;
    }
    if (codePoint >= 97 && codePoint < 123) {
      return codePoint - 97;
    }
    return base;
  };
  var digitToBasic = function(digit, flag) {
    return digit + 22 + 75 * (digit < 26) - ((flag != 0) << 5);
  };
  var adapt = function(delta, numPoints, firstTime) {
    let k = 0;
    delta = firstTime ? floor(delta / damp) : delta >> 1;
    delta += floor(delta / numPoints);
    for (;delta > baseMinusTMin * tMax >> 1; k += base) {
      delta = floor(delta / baseMinusTMin);
    }
    return floor(k + (baseMinusTMin + 1) * delta / (delta + skew));
  };
  var decode = function(input) {
    const output = [];
    const inputLength = input.length;
    let i = 0;
    let n = initialN;
    let bias = initialBias;
    let basic = input.lastIndexOf(delimiter);
    if (basic < 0) {
      basic = 0;
    }
    for (let j = 0;j < basic; ++j) {
      if (input.charCodeAt(j) >= 128) {
        error("not-basic");
      }
      output.push(input.charCodeAt(j));
    }
    for (let index = basic > 0 ? basic + 1 : 0;index < inputLength; ) {
      const oldi = i;
      for (let w = 1, k = base;; k += base) {
        if (index >= inputLength) {
          error("invalid-input");
        }
        const digit = basicToDigit(input.charCodeAt(index++));
        if (digit >= base) {
          error("invalid-input");
        }
        if (digit > floor((maxInt - i) / w)) {
          error("overflow");
        }
        i += digit * w;
        const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
        if (digit < t) {
          break;
        }
        const baseMinusT = base - t;
        if (w > floor(maxInt / baseMinusT)) {
          error("overflow");
        }
        w *= baseMinusT;
      }
      const out = output.length + 1;
      bias = adapt(i - oldi, out, oldi == 0);
      if (floor(i / out) > maxInt - n) {
        error("overflow");
      }
      n += floor(i / out);
      i %= out;
      output.splice(i++, 0, n);
    }
    return String.fromCodePoint(...output);
  };
  var encode = function(input) {
    const output = [];
    input = ucs2decode(input);
    const inputLength = input.length;
    let n = initialN;
    let delta = 0;
    let bias = initialBias;
    for (const currentValue of input) {
      if (currentValue < 128) {
        output.push(stringFromCharCode(currentValue));
      }
    }
    const basicLength = output.length;
    let handledCPCount = basicLength;
    if (basicLength) {
      output.push(delimiter);
    }
    while (handledCPCount < inputLength) {
      let m = maxInt;
      for (const currentValue of input) {
        if (currentValue >= n && currentValue < m) {
          m = currentValue;
        }
      }
      const handledCPCountPlusOne = handledCPCount + 1;
      if (m - n > floor((maxInt - delta) / handledCPCountPlusOne)) {
        error("overflow");
      }
      delta += (m - n) * handledCPCountPlusOne;
      n = m;
      for (const currentValue of input) {
        if (currentValue < n && ++delta > maxInt) {
          error("overflow");
        }
        if (currentValue === n) {
          let q = delta;
          for (let k = base;; k += base) {
            const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
            if (q < t) {
              break;
            }
            const qMinusT = q - t;
            const baseMinusT = base - t;
            output.push(stringFromCharCode(digitToBasic(t + qMinusT % baseMinusT, 0)));
            q = floor(qMinusT / baseMinusT);
          }
          output.push(stringFromCharCode(digitToBasic(q, 0)));
          bias = adapt(delta, handledCPCountPlusOne, handledCPCount === basicLength);
          delta = 0;
          ++handledCPCount;
        }
      }
      ++delta;
      ++n;
    }
    return output.join("");
  };
  var toUnicode = function(input) {
    return mapDomain(input, function(string) {
      return regexPunycode.test(string) ? decode(string.slice(4).toLowerCase()) : string;
    });
  };
  var toASCII = function(input) {
    return mapDomain(input, function(string) {
      return regexNonASCII.test(string) ? "xn--" + encode(string) : string;
    });
  };
  var punycode = {
    version: "2.3.1",
    ucs2: {
      decode: ucs2decode,
      encode: ucs2encode
    },
    decode,
    encode,
    toASCII,
    toUnicode
  };
  module.exports = punycode;
});

// node_modules/markdown-it/dist/markdown-it.mjs
function callable(cls) {
  const wrapper = function(...args) {
    return Reflect.construct(cls, args, new.target && new.target !== wrapper ? new.target : cls);
  };
  Object.defineProperty(wrapper, "name", { value: cls.name });
  Object.setPrototypeOf(wrapper, cls);
  wrapper.prototype = cls.prototype;
  return wrapper;
}
function arrayReplaceAt(src, pos, newElements) {
  return [].concat(src.slice(0, pos), newElements, src.slice(pos + 1));
}
function isValidEntityCode(c) {
  if (c >= 55296 && c <= 57343)
    return false;
  if (c >= 64976 && c <= 65007)
    return false;
  if ((c & 65535) === 65535 || (c & 65535) === 65534)
    return false;
  if (c >= 0 && c <= 8)
    return false;
  if (c === 11)
    return false;
  if (c >= 14 && c <= 31)
    return false;
  if (c >= 127 && c <= 159)
    return false;
  if (c > 1114111)
    return false;
  return true;
}
function fromCodePoint(c) {
  if (c > 65535) {
    c -= 65536;
    const surrogate1 = 55296 + (c >> 10);
    const surrogate2 = 56320 + (c & 1023);
    return String.fromCharCode(surrogate1, surrogate2);
  }
  return String.fromCharCode(c);
}
function replaceEntityPattern(match, name) {
  if (name.charCodeAt(0) === 35 && DIGITAL_ENTITY_TEST_RE.test(name)) {
    const code = name[1].toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    if (isValidEntityCode(code))
      return fromCodePoint(code);
    return match;
  }
  const decoded = decodeHTMLStrict(match);
  if (decoded !== match)
    return decoded;
  return match;
}
function unescapeMd(str) {
  if (str.indexOf("\\") < 0)
    return str;
  return str.replace(UNESCAPE_MD_RE, "$1");
}
function unescapeAll(str) {
  if (str.indexOf("\\") < 0 && str.indexOf("&") < 0)
    return str;
  return str.replace(UNESCAPE_ALL_RE, function(match, escaped, entity) {
    if (escaped)
      return escaped;
    return replaceEntityPattern(match, entity);
  });
}
function replaceUnsafeChar(ch) {
  return HTML_REPLACEMENTS[ch];
}
function escapeHtml2(str) {
  if (HTML_ESCAPE_TEST_RE.test(str))
    return str.replace(HTML_ESCAPE_REPLACE_RE, replaceUnsafeChar);
  return str;
}
function escapeRE(str) {
  return str.replace(REGEXP_ESCAPE_RE, "\\$&");
}
function isSpace(code) {
  switch (code) {
    case 9:
    case 32:
      return true;
  }
  return false;
}
function isWhiteSpace(code) {
  if (code >= 8192 && code <= 8202)
    return true;
  switch (code) {
    case 9:
    case 10:
    case 11:
    case 12:
    case 13:
    case 32:
    case 160:
    case 5760:
    case 8239:
    case 8287:
    case 12288:
      return true;
  }
  return false;
}
function isPunctChar(ch) {
  return P.test(ch) || S3.test(ch);
}
function isPunctCharCode(code) {
  return isPunctChar(fromCodePoint(code));
}
function isMdAsciiPunct(ch) {
  switch (ch) {
    case 33:
    case 34:
    case 35:
    case 36:
    case 37:
    case 38:
    case 39:
    case 40:
    case 41:
    case 42:
    case 43:
    case 44:
    case 45:
    case 46:
    case 47:
    case 58:
    case 59:
    case 60:
    case 61:
    case 62:
    case 63:
    case 64:
    case 91:
    case 92:
    case 93:
    case 94:
    case 95:
    case 96:
    case 123:
    case 124:
    case 125:
    case 126:
      return true;
    default:
      return false;
  }
}
function normalizeReference(str) {
  str = str.trim().replace(/\s+/g, " ");
  return str.toLowerCase().toUpperCase();
}
function isAsciiTrimmable(c) {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
function asciiTrim(str) {
  let start = 0;
  for (;start < str.length; start++)
    if (!isAsciiTrimmable(str.charCodeAt(start)))
      break;
  let end = str.length - 1;
  for (;end >= start; end--)
    if (!isAsciiTrimmable(str.charCodeAt(end)))
      break;
  return str.slice(start, end + 1);
}
function parseLinkLabel(state, start, disableNested) {
  let level, found, marker, prevPos;
  const max = state.posMax;
  const oldPos = state.pos;
  state.pos = start + 1;
  level = 1;
  while (state.pos < max) {
    marker = state.src.charCodeAt(state.pos);
    if (marker === 93) {
      level--;
      if (level === 0) {
        found = true;
        break;
      }
    }
    prevPos = state.pos;
    state.md.inline.skipToken(state);
    if (marker === 91) {
      if (prevPos === state.pos - 1)
        level++;
      else if (disableNested) {
        state.pos = oldPos;
        return -1;
      }
    }
  }
  let labelEnd = -1;
  if (found)
    labelEnd = state.pos;
  state.pos = oldPos;
  return labelEnd;
}
function parseLinkDestination(str, start, max) {
  let code;
  let pos = start;
  const result = {
    ok: false,
    pos: 0,
    str: ""
  };
  if (str.charCodeAt(pos) === 60) {
    pos++;
    while (pos < max) {
      code = str.charCodeAt(pos);
      if (code === 10)
        return result;
      if (code === 60)
        return result;
      if (code === 62) {
        result.pos = pos + 1;
        result.str = unescapeAll(str.slice(start + 1, pos));
        result.ok = true;
        return result;
      }
      if (code === 92 && pos + 1 < max) {
        pos += 2;
        continue;
      }
      pos++;
    }
    return result;
  }
  let level = 0;
  while (pos < max) {
    code = str.charCodeAt(pos);
    if (code === 32)
      break;
    if (code < 32 || code === 127)
      break;
    if (code === 92 && pos + 1 < max) {
      if (str.charCodeAt(pos + 1) === 32) {
        pos++;
        continue;
      }
      pos += 2;
      continue;
    }
    if (code === 40) {
      level++;
      if (level > 32)
        return result;
    }
    if (code === 41) {
      if (level === 0)
        break;
      level--;
    }
    pos++;
  }
  if (start === pos)
    return result;
  if (level !== 0)
    return result;
  result.str = unescapeAll(str.slice(start, pos));
  result.pos = pos;
  result.ok = true;
  return result;
}
function parseLinkTitle(str, start, max, prev_state) {
  let code;
  let pos = start;
  const state = {
    ok: false,
    can_continue: false,
    pos: 0,
    str: "",
    marker: 0
  };
  if (prev_state) {
    state.str = prev_state.str;
    state.marker = prev_state.marker;
  } else {
    if (pos >= max)
      return state;
    let marker = str.charCodeAt(pos);
    if (marker !== 34 && marker !== 39 && marker !== 40)
      return state;
    start++;
    pos++;
    if (marker === 40)
      marker = 41;
    state.marker = marker;
  }
  while (pos < max) {
    code = str.charCodeAt(pos);
    if (code === state.marker) {
      state.pos = pos + 1;
      state.str += unescapeAll(str.slice(start, pos));
      state.ok = true;
      return state;
    } else if (code === 40 && state.marker === 41)
      return state;
    else if (code === 92 && pos + 1 < max)
      pos++;
    pos++;
  }
  state.can_continue = true;
  state.str += unescapeAll(str.slice(start, pos));
  return state;
}
function _typeof(o) {
  "@babel/helpers - typeof";
  return _typeof = typeof Symbol == "function" && typeof Symbol.iterator == "symbol" ? function(o) {
    return typeof o;
  } : function(o) {
    return o && typeof Symbol == "function" && o.constructor === Symbol && o !== Symbol.prototype ? "symbol" : typeof o;
  }, _typeof(o);
}
function toPrimitive(t, r) {
  if (_typeof(t) != "object" || !t)
    return t;
  var e = t[Symbol.toPrimitive];
  if (e !== undefined) {
    var i = e.call(t, r || "default");
    if (_typeof(i) != "object")
      return i;
    throw new TypeError("@@toPrimitive must return a primitive value.");
  }
  return (r === "string" ? String : Number)(t);
}
function toPropertyKey(t) {
  var i = toPrimitive(t, "string");
  return _typeof(i) == "symbol" ? i : i + "";
}
function _defineProperty(e, r, t) {
  return (r = toPropertyKey(r)) in e ? Object.defineProperty(e, r, {
    value: t,
    enumerable: true,
    configurable: true,
    writable: true
  }) : e[r] = t, e;
}
function normalize4(state) {
  let str;
  str = state.src.replace(UNNORMALIZED_NEWLINE_RE, `
`);
  str = str.replace(NULL_RE, "�");
  state.src = str;
}
function block(state) {
  let token;
  if (state.inlineMode) {
    token = new state.Token("inline", "", 0);
    token.content = state.src;
    token.map = [0, 1];
    token.children = [];
    state.tokens.push(token);
  } else
    state.md.block.parse(state.src, state.md, state.env, state.tokens);
}
function strip_references(state) {
  const tokens = state.tokens;
  let last = 0;
  for (let curr = 0;curr < tokens.length; curr++) {
    if (tokens[curr].type === "reference_definition")
      continue;
    if (curr !== last)
      tokens[last] = tokens[curr];
    last++;
  }
  if (tokens.length !== last)
    tokens.length = last;
}
function inline(state) {
  const tokens = state.tokens;
  for (let i = 0, l = tokens.length;i < l; i++) {
    const tok = tokens[i];
    if (tok.type === "inline")
      state.md.inline.parse(tok.content, state.md, state.env, tok.children);
  }
}
function isLinkOpen$1(str) {
  return /^<a[>\s]/i.test(str);
}
function isLinkClose$1(str) {
  return /^<\/a\s*>/i.test(str);
}
function linkify$1(state) {
  const blockTokens = state.tokens;
  if (!state.md.options.linkify)
    return;
  for (let j = 0, l = blockTokens.length;j < l; j++) {
    if (blockTokens[j].type !== "inline" || !state.md.linkify.test(blockTokens[j].content))
      continue;
    const tokens = blockTokens[j].children;
    const replacements = [];
    let htmlLinkLevel = 0;
    for (let i = tokens.length - 1;i >= 0; i--) {
      const currentToken = tokens[i];
      if (currentToken.type === "link_close") {
        i--;
        while (tokens[i].level !== currentToken.level && tokens[i].type !== "link_open")
          i--;
        continue;
      }
      if (currentToken.type === "html_inline") {
        if (isLinkOpen$1(currentToken.content) && htmlLinkLevel > 0)
          htmlLinkLevel--;
        if (isLinkClose$1(currentToken.content))
          htmlLinkLevel++;
      }
      if (htmlLinkLevel > 0)
        continue;
      if (currentToken.type === "text" && state.md.linkify.test(currentToken.content)) {
        const text = currentToken.content;
        let links = state.md.linkify.match(text);
        const nodes = [];
        let level = currentToken.level;
        let lastPos = 0;
        if (links.length > 0 && links[0].index === 0 && i > 0 && tokens[i - 1].type === "text_special")
          links = links.slice(1);
        for (let ln = 0;ln < links.length; ln++) {
          const url = links[ln].url;
          const fullUrl = state.md.normalizeLink(url);
          if (!state.md.validateLink(fullUrl))
            continue;
          let urlText = links[ln].text;
          if (!links[ln].schema)
            urlText = state.md.normalizeLinkText(`http://${urlText}`).replace(/^http:\/\//, "");
          else if (links[ln].schema === "mailto:" && !/^mailto:/i.test(urlText))
            urlText = state.md.normalizeLinkText(`mailto:${urlText}`).replace(/^mailto:/, "");
          else
            urlText = state.md.normalizeLinkText(urlText);
          const pos = links[ln].index;
          if (pos > lastPos) {
            const token = new state.Token("text", "", 0);
            token.content = text.slice(lastPos, pos);
            token.level = level;
            nodes.push(token);
          }
          const token_o = new state.Token("link_open", "a", 1);
          token_o.attrs = [["href", fullUrl]];
          token_o.level = level++;
          token_o.markup = "linkify";
          token_o.info = "auto";
          nodes.push(token_o);
          const token_t = new state.Token("text", "", 0);
          token_t.content = urlText;
          token_t.level = level;
          nodes.push(token_t);
          const token_c = new state.Token("link_close", "a", -1);
          token_c.level = --level;
          token_c.markup = "linkify";
          token_c.info = "auto";
          nodes.push(token_c);
          lastPos = links[ln].lastIndex;
        }
        if (lastPos < text.length) {
          const token = new state.Token("text", "", 0);
          token.content = text.slice(lastPos);
          token.level = level;
          nodes.push(token);
        }
        replacements.push({
          index: i,
          nodes
        });
      }
    }
    if (replacements.length > 0) {
      let newTokensLength = tokens.length;
      for (const replacement of replacements)
        newTokensLength += replacement.nodes.length - 1;
      const newTokens = new Array(newTokensLength);
      let replacementIndex = 0;
      let newTokenIndex = 0;
      replacements.reverse();
      for (let i = 0;i < tokens.length; i++) {
        const replacement = replacements[replacementIndex];
        if ((replacement === null || replacement === undefined ? undefined : replacement.index) === i) {
          for (const node of replacement.nodes)
            newTokens[newTokenIndex++] = node;
          replacementIndex++;
        } else
          newTokens[newTokenIndex++] = tokens[i];
      }
      blockTokens[j].children = newTokens;
    }
  }
}
function replaceFn(match, name) {
  return SCOPED_ABBR[name.toLowerCase()];
}
function replace_scoped(inlineTokens) {
  let inside_autolink = 0;
  for (let i = inlineTokens.length - 1;i >= 0; i--) {
    const token = inlineTokens[i];
    if (token.type === "text" && !inside_autolink)
      token.content = token.content.replace(SCOPED_ABBR_RE, replaceFn);
    if (token.type === "link_open" && token.info === "auto")
      inside_autolink--;
    if (token.type === "link_close" && token.info === "auto")
      inside_autolink++;
  }
}
function replace_rare(inlineTokens) {
  let inside_autolink = 0;
  for (let i = inlineTokens.length - 1;i >= 0; i--) {
    const token = inlineTokens[i];
    if (token.type === "text" && !inside_autolink) {
      if (RARE_RE.test(token.content))
        token.content = token.content.replace(/\+-/g, "±").replace(/\.{2,}/g, "…").replace(/([?!])…/g, "$1..").replace(/([?!]){4,}/g, "$1$1$1").replace(/,{2,}/g, ",").replace(/(^|[^-])---(?=[^-]|$)/gm, "$1—").replace(/(^|\s)--(?=\s|$)/gm, "$1–").replace(/(^|[^-\s])--(?=[^-\s]|$)/gm, "$1–");
    }
    if (token.type === "link_open" && token.info === "auto")
      inside_autolink--;
    if (token.type === "link_close" && token.info === "auto")
      inside_autolink++;
  }
}
function replace(state) {
  let blkIdx;
  if (!state.md.options.typographer)
    return;
  for (blkIdx = state.tokens.length - 1;blkIdx >= 0; blkIdx--) {
    if (state.tokens[blkIdx].type !== "inline")
      continue;
    if (SCOPED_ABBR_TEST_RE.test(state.tokens[blkIdx].content))
      replace_scoped(state.tokens[blkIdx].children);
    if (RARE_RE.test(state.tokens[blkIdx].content))
      replace_rare(state.tokens[blkIdx].children);
  }
}
function truncateStack(stack, heads, length) {
  while (stack.length > length) {
    const item = stack.pop();
    if (item.isSingleQuote)
      heads.single = item.prevSameQuoteIdx;
    else
      heads.double = item.prevSameQuoteIdx;
  }
}
function addReplacement(replacements, tokenIdx, pos, ch) {
  if (!replacements[tokenIdx])
    replacements[tokenIdx] = [];
  replacements[tokenIdx].push({
    pos,
    ch
  });
}
function applyReplacements(str, replacements) {
  let result = "";
  let lastPos = 0;
  replacements.sort((a, b) => a.pos - b.pos);
  for (let i = 0;i < replacements.length; i++) {
    const replacement = replacements[i];
    result += str.slice(lastPos, replacement.pos) + replacement.ch;
    lastPos = replacement.pos + 1;
  }
  return result + str.slice(lastPos);
}
function process_inlines(tokens, state) {
  let j;
  const stack = [];
  const heads = {
    single: -1,
    double: -1
  };
  const replacements = {};
  for (let i = 0;i < tokens.length; i++) {
    const token = tokens[i];
    const thisLevel = tokens[i].level;
    for (j = stack.length - 1;j >= 0; j--)
      if (stack[j].level <= thisLevel)
        break;
    truncateStack(stack, heads, j + 1);
    if (token.type !== "text")
      continue;
    const text = token.content;
    let pos = 0;
    const max = text.length;
    OUTER:
      while (pos < max) {
        QUOTE_RE.lastIndex = pos;
        const t = QUOTE_RE.exec(text);
        if (!t)
          break;
        let canOpen = true;
        let canClose = true;
        pos = t.index + 1;
        const isSingle = t[0] === "'";
        let lastChar = 32;
        if (t.index - 1 >= 0)
          lastChar = text.charCodeAt(t.index - 1);
        else
          for (j = i - 1;j >= 0; j--) {
            if (tokens[j].type === "softbreak" || tokens[j].type === "hardbreak")
              break;
            if (!tokens[j].content)
              continue;
            lastChar = tokens[j].content.charCodeAt(tokens[j].content.length - 1);
            break;
          }
        let nextChar = 32;
        if (pos < max)
          nextChar = text.charCodeAt(pos);
        else
          for (j = i + 1;j < tokens.length; j++) {
            if (tokens[j].type === "softbreak" || tokens[j].type === "hardbreak")
              break;
            if (!tokens[j].content)
              continue;
            nextChar = tokens[j].content.charCodeAt(0);
            break;
          }
        const isLastPunctChar = isMdAsciiPunct(lastChar) || isPunctCharCode(lastChar);
        const isNextPunctChar = isMdAsciiPunct(nextChar) || isPunctCharCode(nextChar);
        const isLastWhiteSpace = isWhiteSpace(lastChar);
        const isNextWhiteSpace = isWhiteSpace(nextChar);
        if (isNextWhiteSpace)
          canOpen = false;
        else if (isNextPunctChar) {
          if (!(isLastWhiteSpace || isLastPunctChar))
            canOpen = false;
        }
        if (isLastWhiteSpace)
          canClose = false;
        else if (isLastPunctChar) {
          if (!(isNextWhiteSpace || isNextPunctChar))
            canClose = false;
        }
        if (nextChar === 34 && t[0] === '"') {
          if (lastChar >= 48 && lastChar <= 57)
            canClose = canOpen = false;
        }
        if (canOpen && canClose) {
          canOpen = isLastPunctChar;
          canClose = isNextPunctChar;
        }
        if (!canOpen && !canClose) {
          if (isSingle)
            addReplacement(replacements, i, t.index, APOSTROPHE);
          continue;
        }
        if (canClose) {
          j = isSingle ? heads.single : heads.double;
          if (j >= 0 && stack[j].level === thisLevel) {
            const item = stack[j];
            let openQuote;
            let closeQuote;
            if (isSingle) {
              openQuote = state.md.options.quotes[2];
              closeQuote = state.md.options.quotes[3];
            } else {
              openQuote = state.md.options.quotes[0];
              closeQuote = state.md.options.quotes[1];
            }
            addReplacement(replacements, i, t.index, closeQuote);
            addReplacement(replacements, item.tokenIdx, item.contentPos, openQuote);
            truncateStack(stack, heads, j);
            continue OUTER;
          }
        }
        if (canOpen) {
          if (stack.length >= MAX_OPENERS)
            return;
          stack.push({
            tokenIdx: i,
            contentPos: t.index,
            isSingleQuote: isSingle,
            level: thisLevel,
            prevSameQuoteIdx: isSingle ? heads.single : heads.double
          });
          if (isSingle)
            heads.single = stack.length - 1;
          else
            heads.double = stack.length - 1;
        } else if (canClose && isSingle)
          addReplacement(replacements, i, t.index, APOSTROPHE);
      }
  }
  Object.keys(replacements).forEach(function(tokenIdx) {
    const idx = Number(tokenIdx);
    tokens[idx].content = applyReplacements(tokens[idx].content, replacements[tokenIdx]);
  });
}
function smartquotes(state) {
  if (!state.md.options.typographer)
    return;
  for (let blkIdx = state.tokens.length - 1;blkIdx >= 0; blkIdx--) {
    if (state.tokens[blkIdx].type !== "inline" || !QUOTE_TEST_RE.test(state.tokens[blkIdx].content))
      continue;
    process_inlines(state.tokens[blkIdx].children, state);
  }
}
function join_alt(tokens) {
  let curr, last;
  const max = tokens.length;
  for (curr = 0;curr < max; curr++)
    if (tokens[curr].type === "text_special")
      tokens[curr].type = "text";
  for (curr = last = 0;curr < max; curr++)
    if (tokens[curr].type === "text" && curr + 1 < max && tokens[curr + 1].type === "text")
      tokens[curr + 1].content = tokens[curr].content + tokens[curr + 1].content;
    else {
      if (curr !== last)
        tokens[last] = tokens[curr];
      last++;
    }
  if (curr !== last)
    tokens.length = last;
}
function text_join(state) {
  let curr, last;
  const blockTokens = state.tokens;
  const l = blockTokens.length;
  for (let j = 0;j < l; j++) {
    if (blockTokens[j].type !== "inline")
      continue;
    const tokens = blockTokens[j].children;
    const max = tokens.length;
    for (curr = 0;curr < max; curr++) {
      if (tokens[curr].type === "text_special")
        tokens[curr].type = "text";
      if (tokens[curr].children)
        join_alt(tokens[curr].children);
    }
    for (curr = last = 0;curr < max; curr++)
      if (tokens[curr].type === "text" && curr + 1 < max && tokens[curr + 1].type === "text")
        tokens[curr + 1].content = tokens[curr].content + tokens[curr + 1].content;
      else {
        if (curr !== last)
          tokens[last] = tokens[curr];
        last++;
      }
    if (curr !== last)
      tokens.length = last;
  }
}
function getLine(state, line) {
  const pos = state.bMarks[line] + state.tShift[line];
  const max = state.eMarks[line];
  return state.src.slice(pos, max);
}
function escapedSplit(str) {
  const result = [];
  const max = str.length;
  let pos = 0;
  let ch = str.charCodeAt(pos);
  let isEscaped = false;
  let lastPos = 0;
  let current = "";
  while (pos < max) {
    if (ch === 124) {
      if (!isEscaped) {
        result.push(current + str.substring(lastPos, pos));
        current = "";
        lastPos = pos + 1;
      } else {
        current += str.substring(lastPos, pos - 1);
        lastPos = pos;
      }
    }
    isEscaped = ch === 92;
    pos++;
    ch = str.charCodeAt(pos);
  }
  result.push(current + str.substring(lastPos));
  return result;
}
function table(state, startLine, endLine, silent) {
  if (startLine + 2 > endLine)
    return false;
  let nextLine = startLine + 1;
  if (state.sCount[nextLine] < state.blkIndent)
    return false;
  if (state.sCount[nextLine] - state.blkIndent >= 4)
    return false;
  let pos = state.bMarks[nextLine] + state.tShift[nextLine];
  if (pos >= state.eMarks[nextLine])
    return false;
  const firstCh = state.src.charCodeAt(pos++);
  if (firstCh !== 124 && firstCh !== 45 && firstCh !== 58)
    return false;
  if (pos >= state.eMarks[nextLine])
    return false;
  const secondCh = state.src.charCodeAt(pos++);
  if (secondCh !== 124 && secondCh !== 45 && secondCh !== 58 && !isSpace(secondCh))
    return false;
  if (firstCh === 45 && isSpace(secondCh))
    return false;
  while (pos < state.eMarks[nextLine]) {
    const ch = state.src.charCodeAt(pos);
    if (ch !== 124 && ch !== 45 && ch !== 58 && !isSpace(ch))
      return false;
    pos++;
  }
  let lineText = getLine(state, startLine + 1);
  let columns = lineText.split("|");
  const aligns = [];
  for (let i = 0;i < columns.length; i++) {
    const t = columns[i].trim();
    if (!t) {
      if (i === 0 || i === columns.length - 1)
        continue;
      else
        return false;
    }
    if (!/^:?-+:?$/.test(t))
      return false;
    if (t.charCodeAt(t.length - 1) === 58)
      aligns.push(t.charCodeAt(0) === 58 ? "center" : "right");
    else if (t.charCodeAt(0) === 58)
      aligns.push("left");
    else
      aligns.push("");
  }
  lineText = getLine(state, startLine).trim();
  if (lineText.indexOf("|") === -1)
    return false;
  if (state.sCount[startLine] - state.blkIndent >= 4)
    return false;
  columns = escapedSplit(lineText);
  if (columns.length && columns[0] === "")
    columns.shift();
  if (columns.length && columns[columns.length - 1] === "")
    columns.pop();
  const columnCount = columns.length;
  if (columnCount === 0 || columnCount !== aligns.length)
    return false;
  if (silent)
    return true;
  const oldParentType = state.parentType;
  state.parentType = "table";
  const terminatorRules = state.md.block.ruler.getRules("blockquote");
  const token_to = state.push("table_open", "table", 1);
  const tableLines = [startLine, 0];
  token_to.map = tableLines;
  const token_tho = state.push("thead_open", "thead", 1);
  token_tho.map = [startLine, startLine + 1];
  const token_htro = state.push("tr_open", "tr", 1);
  token_htro.map = [startLine, startLine + 1];
  for (let i = 0;i < columns.length; i++) {
    const token_ho = state.push("th_open", "th", 1);
    if (aligns[i])
      token_ho.attrs = [["style", `text-align:${aligns[i]}`]];
    const token_il = state.push("inline", "", 0);
    token_il.content = columns[i].trim();
    token_il.children = [];
    state.push("th_close", "th", -1);
  }
  state.push("tr_close", "tr", -1);
  state.push("thead_close", "thead", -1);
  let tbodyLines;
  let autocompletedCells = 0;
  for (nextLine = startLine + 2;nextLine < endLine; nextLine++) {
    if (state.sCount[nextLine] < state.blkIndent)
      break;
    let terminate = false;
    for (let i = 0, l = terminatorRules.length;i < l; i++)
      if (terminatorRules[i](state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    if (terminate)
      break;
    lineText = getLine(state, nextLine).trim();
    if (!lineText)
      break;
    if (state.sCount[nextLine] - state.blkIndent >= 4)
      break;
    columns = escapedSplit(lineText);
    if (columns.length && columns[0] === "")
      columns.shift();
    if (columns.length && columns[columns.length - 1] === "")
      columns.pop();
    autocompletedCells += columnCount - columns.length;
    if (autocompletedCells > MAX_AUTOCOMPLETED_CELLS)
      break;
    if (nextLine === startLine + 2) {
      const token_tbo = state.push("tbody_open", "tbody", 1);
      token_tbo.map = tbodyLines = [startLine + 2, 0];
    }
    const token_tro = state.push("tr_open", "tr", 1);
    token_tro.map = [nextLine, nextLine + 1];
    for (let i = 0;i < columnCount; i++) {
      const token_tdo = state.push("td_open", "td", 1);
      if (aligns[i])
        token_tdo.attrs = [["style", `text-align:${aligns[i]}`]];
      const token_il = state.push("inline", "", 0);
      token_il.content = columns[i] ? columns[i].trim() : "";
      token_il.children = [];
      state.push("td_close", "td", -1);
    }
    state.push("tr_close", "tr", -1);
  }
  if (tbodyLines) {
    state.push("tbody_close", "tbody", -1);
    tbodyLines[1] = nextLine;
  }
  state.push("table_close", "table", -1);
  tableLines[1] = nextLine;
  state.parentType = oldParentType;
  state.line = nextLine;
  return true;
}
function code(state, startLine, endLine) {
  if (state.sCount[startLine] - state.blkIndent < 4)
    return false;
  let nextLine = startLine + 1;
  let last = nextLine;
  while (nextLine < endLine) {
    if (state.isEmpty(nextLine)) {
      nextLine++;
      continue;
    }
    if (state.sCount[nextLine] - state.blkIndent >= 4) {
      nextLine++;
      last = nextLine;
      continue;
    }
    break;
  }
  state.line = last;
  const token = state.push("code_block", "code", 0);
  token.content = state.getLines(startLine, last, 4 + state.blkIndent, false) + `
`;
  token.map = [startLine, state.line];
  return true;
}
function fence(state, startLine, endLine, silent) {
  let pos = state.bMarks[startLine] + state.tShift[startLine];
  let max = state.eMarks[startLine];
  if (state.sCount[startLine] - state.blkIndent >= 4)
    return false;
  if (pos + 3 > max)
    return false;
  const marker = state.src.charCodeAt(pos);
  if (marker !== 126 && marker !== 96)
    return false;
  let mem = pos;
  pos = state.skipChars(pos, marker);
  let len = pos - mem;
  if (len < 3)
    return false;
  const markup = state.src.slice(mem, pos);
  const params = state.src.slice(pos, max);
  if (marker === 96) {
    if (params.indexOf(String.fromCharCode(marker)) >= 0)
      return false;
  }
  if (silent)
    return true;
  let nextLine = startLine;
  let haveEndMarker = false;
  for (;; ) {
    nextLine++;
    if (nextLine >= endLine)
      break;
    pos = mem = state.bMarks[nextLine] + state.tShift[nextLine];
    max = state.eMarks[nextLine];
    if (pos < max && state.sCount[nextLine] < state.blkIndent)
      break;
    if (state.src.charCodeAt(pos) !== marker)
      continue;
    if (state.sCount[nextLine] - state.blkIndent >= 4)
      continue;
    pos = state.skipChars(pos, marker);
    if (pos - mem < len)
      continue;
    pos = state.skipSpaces(pos);
    if (pos < max)
      continue;
    haveEndMarker = true;
    break;
  }
  len = state.sCount[startLine];
  state.line = nextLine + (haveEndMarker ? 1 : 0);
  const token = state.push("fence", "code", 0);
  token.info = params;
  token.content = state.getLines(startLine + 1, nextLine, len, true);
  token.markup = markup;
  token.map = [startLine, state.line];
  return true;
}
function blockquote(state, startLine, endLine, silent) {
  let pos = state.bMarks[startLine] + state.tShift[startLine];
  let max = state.eMarks[startLine];
  const oldLineMax = state.lineMax;
  if (state.sCount[startLine] - state.blkIndent >= 4)
    return false;
  if (state.src.charCodeAt(pos) !== 62)
    return false;
  if (silent)
    return true;
  const oldBMarks = [];
  const oldBSCount = [];
  const oldSCount = [];
  const oldTShift = [];
  const terminatorRules = state.md.block.ruler.getRules("blockquote");
  const oldParentType = state.parentType;
  state.parentType = "blockquote";
  let lastLineEmpty = false;
  let nextLine;
  for (nextLine = startLine;nextLine < endLine; nextLine++) {
    const isOutdented = state.sCount[nextLine] < state.blkIndent;
    pos = state.bMarks[nextLine] + state.tShift[nextLine];
    max = state.eMarks[nextLine];
    if (pos >= max)
      break;
    if (state.src.charCodeAt(pos++) === 62 && !isOutdented) {
      let initial = state.sCount[nextLine] + 1;
      let spaceAfterMarker;
      let adjustTab;
      if (state.src.charCodeAt(pos) === 32) {
        pos++;
        initial++;
        adjustTab = false;
        spaceAfterMarker = true;
      } else if (state.src.charCodeAt(pos) === 9) {
        spaceAfterMarker = true;
        if ((state.bsCount[nextLine] + initial) % 4 === 3) {
          pos++;
          initial++;
          adjustTab = false;
        } else
          adjustTab = true;
      } else
        spaceAfterMarker = false;
      let offset = initial;
      oldBMarks.push(state.bMarks[nextLine]);
      state.bMarks[nextLine] = pos;
      while (pos < max) {
        const ch = state.src.charCodeAt(pos);
        if (isSpace(ch)) {
          if (ch === 9)
            offset += 4 - (offset + state.bsCount[nextLine] + (adjustTab ? 1 : 0)) % 4;
          else
            offset++;
        } else
          break;
        pos++;
      }
      lastLineEmpty = pos >= max;
      oldBSCount.push(state.bsCount[nextLine]);
      state.bsCount[nextLine] = state.sCount[nextLine] + 1 + (spaceAfterMarker ? 1 : 0);
      oldSCount.push(state.sCount[nextLine]);
      state.sCount[nextLine] = offset - initial;
      oldTShift.push(state.tShift[nextLine]);
      state.tShift[nextLine] = pos - state.bMarks[nextLine];
      continue;
    }
    if (lastLineEmpty)
      break;
    let terminate = false;
    for (let i = 0, l = terminatorRules.length;i < l; i++)
      if (terminatorRules[i](state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    if (terminate) {
      state.lineMax = nextLine;
      if (state.blkIndent !== 0) {
        oldBMarks.push(state.bMarks[nextLine]);
        oldBSCount.push(state.bsCount[nextLine]);
        oldTShift.push(state.tShift[nextLine]);
        oldSCount.push(state.sCount[nextLine]);
        state.sCount[nextLine] -= state.blkIndent;
      }
      break;
    }
    oldBMarks.push(state.bMarks[nextLine]);
    oldBSCount.push(state.bsCount[nextLine]);
    oldTShift.push(state.tShift[nextLine]);
    oldSCount.push(state.sCount[nextLine]);
    state.sCount[nextLine] = -1;
  }
  const oldIndent = state.blkIndent;
  state.blkIndent = 0;
  const token_o = state.push("blockquote_open", "blockquote", 1);
  token_o.markup = ">";
  const lines = [startLine, 0];
  token_o.map = lines;
  state.md.block.tokenize(state, startLine, nextLine);
  const token_c = state.push("blockquote_close", "blockquote", -1);
  token_c.markup = ">";
  state.lineMax = oldLineMax;
  state.parentType = oldParentType;
  lines[1] = state.line;
  for (let i = 0;i < oldTShift.length; i++) {
    state.bMarks[i + startLine] = oldBMarks[i];
    state.tShift[i + startLine] = oldTShift[i];
    state.sCount[i + startLine] = oldSCount[i];
    state.bsCount[i + startLine] = oldBSCount[i];
  }
  state.blkIndent = oldIndent;
  return true;
}
function hr(state, startLine, endLine, silent) {
  const max = state.eMarks[startLine];
  if (state.sCount[startLine] - state.blkIndent >= 4)
    return false;
  let pos = state.bMarks[startLine] + state.tShift[startLine];
  const marker = state.src.charCodeAt(pos++);
  if (marker !== 42 && marker !== 45 && marker !== 95)
    return false;
  let cnt = 1;
  while (pos < max) {
    const ch = state.src.charCodeAt(pos++);
    if (ch !== marker && !isSpace(ch))
      return false;
    if (ch === marker)
      cnt++;
  }
  if (cnt < 3)
    return false;
  if (silent)
    return true;
  state.line = startLine + 1;
  const token = state.push("hr", "hr", 0);
  token.map = [startLine, state.line];
  token.markup = Array(cnt + 1).join(String.fromCharCode(marker));
  return true;
}
function skipBulletListMarker(state, startLine) {
  const max = state.eMarks[startLine];
  let pos = state.bMarks[startLine] + state.tShift[startLine];
  const marker = state.src.charCodeAt(pos++);
  if (marker !== 42 && marker !== 45 && marker !== 43)
    return -1;
  if (pos < max) {
    if (!isSpace(state.src.charCodeAt(pos)))
      return -1;
  }
  return pos;
}
function skipOrderedListMarker(state, startLine) {
  const start = state.bMarks[startLine] + state.tShift[startLine];
  const max = state.eMarks[startLine];
  let pos = start;
  if (pos + 1 >= max)
    return -1;
  let ch = state.src.charCodeAt(pos++);
  if (ch < 48 || ch > 57)
    return -1;
  for (;; ) {
    if (pos >= max)
      return -1;
    ch = state.src.charCodeAt(pos++);
    if (ch >= 48 && ch <= 57) {
      if (pos - start >= 10)
        return -1;
      continue;
    }
    if (ch === 41 || ch === 46)
      break;
    return -1;
  }
  if (pos < max) {
    ch = state.src.charCodeAt(pos);
    if (!isSpace(ch))
      return -1;
  }
  return pos;
}
function markTightParagraphs(state, idx) {
  const level = state.level + 2;
  for (let i = idx + 2, l = state.tokens.length - 2;i < l; i++)
    if (state.tokens[i].level === level && state.tokens[i].type === "paragraph_open") {
      state.tokens[i + 2].hidden = true;
      state.tokens[i].hidden = true;
      i += 2;
    }
}
function list(state, startLine, endLine, silent) {
  let max, pos, start, token;
  let nextLine = startLine;
  let tight = true;
  if (state.sCount[nextLine] - state.blkIndent >= 4)
    return false;
  if (state.listIndent >= 0 && state.sCount[nextLine] - state.listIndent >= 4 && state.sCount[nextLine] < state.blkIndent)
    return false;
  let isTerminatingParagraph = false;
  if (silent && state.parentType === "paragraph") {
    if (state.sCount[nextLine] >= state.blkIndent)
      isTerminatingParagraph = true;
  }
  let isOrdered;
  let markerValue;
  let posAfterMarker;
  if ((posAfterMarker = skipOrderedListMarker(state, nextLine)) >= 0) {
    isOrdered = true;
    start = state.bMarks[nextLine] + state.tShift[nextLine];
    markerValue = Number(state.src.slice(start, posAfterMarker - 1));
    if (isTerminatingParagraph && markerValue !== 1)
      return false;
  } else if ((posAfterMarker = skipBulletListMarker(state, nextLine)) >= 0)
    isOrdered = false;
  else
    return false;
  if (isTerminatingParagraph) {
    if (state.skipSpaces(posAfterMarker) >= state.eMarks[nextLine])
      return false;
  }
  if (silent)
    return true;
  const markerCharCode = state.src.charCodeAt(posAfterMarker - 1);
  const listTokIdx = state.tokens.length;
  if (isOrdered) {
    token = state.push("ordered_list_open", "ol", 1);
    if (markerValue !== 1)
      token.attrs = [["start", markerValue]];
  } else
    token = state.push("bullet_list_open", "ul", 1);
  const listLines = [nextLine, 0];
  token.map = listLines;
  token.markup = String.fromCharCode(markerCharCode);
  let prevEmptyEnd = false;
  const terminatorRules = state.md.block.ruler.getRules("list");
  const oldParentType = state.parentType;
  state.parentType = "list";
  while (nextLine < endLine) {
    pos = posAfterMarker;
    max = state.eMarks[nextLine];
    const initial = state.sCount[nextLine] + posAfterMarker - (state.bMarks[nextLine] + state.tShift[nextLine]);
    let offset = initial;
    while (pos < max) {
      const ch = state.src.charCodeAt(pos);
      if (ch === 9)
        offset += 4 - (offset + state.bsCount[nextLine]) % 4;
      else if (ch === 32)
        offset++;
      else
        break;
      pos++;
    }
    const contentStart = pos;
    let indentAfterMarker;
    if (contentStart >= max)
      indentAfterMarker = 1;
    else
      indentAfterMarker = offset - initial;
    if (indentAfterMarker > 4)
      indentAfterMarker = 1;
    const indent = initial + indentAfterMarker;
    token = state.push("list_item_open", "li", 1);
    token.markup = String.fromCharCode(markerCharCode);
    const itemLines = [nextLine, 0];
    token.map = itemLines;
    if (isOrdered)
      token.info = state.src.slice(start, posAfterMarker - 1);
    const oldTight = state.tight;
    const oldTShift = state.tShift[nextLine];
    const oldSCount = state.sCount[nextLine];
    const oldListIndent = state.listIndent;
    state.listIndent = state.blkIndent;
    state.blkIndent = indent;
    state.tight = true;
    state.tShift[nextLine] = contentStart - state.bMarks[nextLine];
    state.sCount[nextLine] = offset;
    if (contentStart >= max && state.isEmpty(nextLine + 1))
      state.line = Math.min(state.line + 2, endLine);
    else
      state.md.block.tokenize(state, nextLine, endLine);
    if (!state.tight || prevEmptyEnd)
      tight = false;
    prevEmptyEnd = state.line - nextLine > 1 && state.isEmpty(state.line - 1);
    state.blkIndent = state.listIndent;
    state.listIndent = oldListIndent;
    state.tShift[nextLine] = oldTShift;
    state.sCount[nextLine] = oldSCount;
    state.tight = oldTight;
    token = state.push("list_item_close", "li", -1);
    token.markup = String.fromCharCode(markerCharCode);
    nextLine = state.line;
    itemLines[1] = nextLine;
    if (nextLine >= endLine)
      break;
    if (state.sCount[nextLine] < state.blkIndent)
      break;
    if (state.sCount[nextLine] - state.blkIndent >= 4)
      break;
    let terminate = false;
    for (let i = 0, l = terminatorRules.length;i < l; i++)
      if (terminatorRules[i](state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    if (terminate)
      break;
    if (isOrdered) {
      posAfterMarker = skipOrderedListMarker(state, nextLine);
      if (posAfterMarker < 0)
        break;
      start = state.bMarks[nextLine] + state.tShift[nextLine];
    } else {
      posAfterMarker = skipBulletListMarker(state, nextLine);
      if (posAfterMarker < 0)
        break;
    }
    if (markerCharCode !== state.src.charCodeAt(posAfterMarker - 1))
      break;
  }
  if (isOrdered)
    token = state.push("ordered_list_close", "ol", -1);
  else
    token = state.push("bullet_list_close", "ul", -1);
  token.markup = String.fromCharCode(markerCharCode);
  listLines[1] = nextLine;
  state.line = nextLine;
  state.parentType = oldParentType;
  if (tight)
    markTightParagraphs(state, listTokIdx);
  return true;
}
function countCodePoints(str) {
  let length = str.length;
  for (let i = 0;i < str.length - 1; i++) {
    const high = str.charCodeAt(i);
    if (high < 55296 || high > 56319)
      continue;
    const low = str.charCodeAt(i + 1);
    if (low >= 56320 && low <= 57343) {
      length--;
      i++;
    }
  }
  return length;
}
function lineEnd(state, line) {
  return Math.min(state.eMarks[line] + 1, state.src.length);
}
function getNextLinePos(state, nextLine) {
  const endLine = state.lineMax;
  if (nextLine >= endLine || state.isEmpty(nextLine))
    return -1;
  let isContinuation = false;
  if (state.sCount[nextLine] - state.blkIndent > 3)
    isContinuation = true;
  if (state.sCount[nextLine] < 0)
    isContinuation = true;
  if (!isContinuation) {
    const terminatorRules = state.md.block.ruler.getRules("reference");
    const oldParentType = state.parentType;
    state.parentType = "reference";
    let terminate = false;
    for (let i = 0, l = terminatorRules.length;i < l; i++)
      if (terminatorRules[i](state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    state.parentType = oldParentType;
    if (terminate)
      return -1;
  }
  return state.bMarks[nextLine] + state.tShift[nextLine];
}
function reference(state, startLine, _endLine, silent) {
  const src = state.src;
  let pos = state.bMarks[startLine] + state.tShift[startLine];
  let nextLine = startLine + 1;
  if (state.sCount[startLine] - state.blkIndent >= 4)
    return false;
  if (src.charCodeAt(pos) !== 91)
    return false;
  let max = lineEnd(state, startLine);
  let rawLabel = "";
  let labelEnd = -1;
  let segmentStart = ++pos;
  while (pos < max) {
    if (rawLabel.length + pos - segmentStart > MAX_LABEL_LENGTH * 2)
      return false;
    let ch = src.charCodeAt(pos);
    if (ch === 91)
      return false;
    if (ch === 93) {
      labelEnd = pos;
      break;
    }
    if (ch === 92)
      ch = src.charCodeAt(++pos);
    if (ch === 10 && pos < max) {
      const nextPos = getNextLinePos(state, nextLine);
      if (nextPos < 0)
        return false;
      rawLabel += src.slice(segmentStart, max);
      pos = segmentStart = nextPos;
      max = lineEnd(state, nextLine++);
      continue;
    }
    pos++;
  }
  if (labelEnd < 0 || src.charCodeAt(labelEnd + 1) !== 58)
    return false;
  rawLabel += src.slice(segmentStart, labelEnd);
  if (rawLabel.length > MAX_LABEL_LENGTH && countCodePoints(rawLabel) > MAX_LABEL_LENGTH)
    return false;
  pos = labelEnd + 2;
  while (pos < max) {
    const ch = src.charCodeAt(pos);
    if (ch === 10) {
      const nextPos = getNextLinePos(state, nextLine);
      if (nextPos < 0)
        break;
      pos = nextPos;
      max = lineEnd(state, nextLine++);
    } else if (isSpace(ch))
      pos++;
    else
      break;
  }
  const destRes = state.md.helpers.parseLinkDestination(src, pos, max);
  if (!destRes.ok)
    return false;
  const href = state.md.normalizeLink(destRes.str);
  if (!state.md.validateLink(href))
    return false;
  pos = destRes.pos;
  const destEndPos = pos;
  const destEndMax = max;
  const destEndLineNo = nextLine;
  while (pos < max) {
    const ch = src.charCodeAt(pos);
    if (ch === 10) {
      const nextPos = getNextLinePos(state, nextLine);
      if (nextPos < 0)
        break;
      pos = nextPos;
      max = lineEnd(state, nextLine++);
    } else if (isSpace(ch))
      pos++;
    else
      break;
  }
  const titleStart = pos;
  let titleRes = state.md.helpers.parseLinkTitle(src, pos, max);
  while (titleRes.can_continue) {
    const nextPos = getNextLinePos(state, nextLine);
    if (nextPos < 0)
      break;
    pos = nextPos;
    max = lineEnd(state, nextLine++);
    titleRes = state.md.helpers.parseLinkTitle(src, pos, max, titleRes);
  }
  let title;
  if (titleStart !== destEndPos && titleRes.ok) {
    title = titleRes.str;
    pos = titleRes.pos;
  } else {
    title = "";
    pos = destEndPos;
    max = destEndMax;
    nextLine = destEndLineNo;
  }
  while (pos < max) {
    if (!isSpace(src.charCodeAt(pos)))
      break;
    pos++;
  }
  if (pos < max && src.charCodeAt(pos) !== 10) {
    if (title) {
      title = "";
      pos = destEndPos;
      max = destEndMax;
      nextLine = destEndLineNo;
      while (pos < max) {
        if (!isSpace(src.charCodeAt(pos)))
          break;
        pos++;
      }
    }
  }
  if (pos < max && src.charCodeAt(pos) !== 10)
    return false;
  const label = normalizeReference(rawLabel);
  if (!label)
    return false;
  if (silent)
    return true;
  if (typeof state.env.references === "undefined")
    state.env.references = {};
  if (typeof state.env.references[label] === "undefined")
    state.env.references[label] = {
      title,
      href
    };
  const token = state.push("reference_definition", "", 0);
  token.map = [startLine, nextLine];
  token.hidden = true;
  const meta = Object.create(null);
  meta.label = label;
  token.meta = meta;
  state.line = nextLine;
  return true;
}
function html_block(state, startLine, endLine, silent) {
  let pos = state.bMarks[startLine] + state.tShift[startLine];
  let max = state.eMarks[startLine];
  if (state.sCount[startLine] - state.blkIndent >= 4)
    return false;
  if (!state.md.options.html)
    return false;
  if (state.src.charCodeAt(pos) !== 60)
    return false;
  let lineText = state.src.slice(pos, max);
  let i = 0;
  for (;i < HTML_SEQUENCES.length; i++)
    if (HTML_SEQUENCES[i][0].test(lineText))
      break;
  if (i === HTML_SEQUENCES.length)
    return false;
  if (silent)
    return HTML_SEQUENCES[i][2];
  let nextLine = startLine + 1;
  const endsOnBlankLine = HTML_SEQUENCES[i][1].test("");
  if (!HTML_SEQUENCES[i][1].test(lineText))
    for (;nextLine < endLine; nextLine++) {
      if (state.sCount[nextLine] < state.blkIndent) {
        if (endsOnBlankLine || !state.isEmpty(nextLine))
          break;
      }
      pos = state.bMarks[nextLine] + state.tShift[nextLine];
      max = state.eMarks[nextLine];
      lineText = state.src.slice(pos, max);
      if (HTML_SEQUENCES[i][1].test(lineText)) {
        if (lineText.length !== 0)
          nextLine++;
        break;
      }
    }
  state.line = nextLine;
  const token = state.push("html_block", "", 0);
  token.map = [startLine, nextLine];
  token.content = state.getLines(startLine, nextLine, state.blkIndent, true);
  return true;
}
function heading(state, startLine, endLine, silent) {
  let pos = state.bMarks[startLine] + state.tShift[startLine];
  let max = state.eMarks[startLine];
  if (state.sCount[startLine] - state.blkIndent >= 4)
    return false;
  let ch = state.src.charCodeAt(pos);
  if (ch !== 35 || pos >= max)
    return false;
  let level = 1;
  ch = state.src.charCodeAt(++pos);
  while (ch === 35 && pos < max && level <= 6) {
    level++;
    ch = state.src.charCodeAt(++pos);
  }
  if (level > 6 || pos < max && !isSpace(ch))
    return false;
  if (silent)
    return true;
  max = state.skipSpacesBack(max, pos);
  const tmp = state.skipCharsBack(max, 35, pos);
  if (tmp > pos && isSpace(state.src.charCodeAt(tmp - 1)))
    max = tmp;
  state.line = startLine + 1;
  const token_o = state.push("heading_open", `h${level}`, 1);
  token_o.markup = "########".slice(0, level);
  token_o.map = [startLine, state.line];
  const token_i = state.push("inline", "", 0);
  token_i.content = asciiTrim(state.src.slice(pos, max));
  token_i.map = [startLine, state.line];
  token_i.children = [];
  const token_c = state.push("heading_close", `h${level}`, -1);
  token_c.markup = "########".slice(0, level);
  return true;
}
function lheading(state, startLine, endLine) {
  const terminatorRules = state.md.block.ruler.getRules("paragraph");
  if (state.sCount[startLine] - state.blkIndent >= 4)
    return false;
  const oldParentType = state.parentType;
  state.parentType = "paragraph";
  let level = 0;
  let marker;
  let nextLine = startLine + 1;
  for (;nextLine < endLine && !state.isEmpty(nextLine); nextLine++) {
    if (state.sCount[nextLine] - state.blkIndent > 3)
      continue;
    if (state.sCount[nextLine] >= state.blkIndent) {
      let pos = state.bMarks[nextLine] + state.tShift[nextLine];
      const max = state.eMarks[nextLine];
      if (pos < max) {
        marker = state.src.charCodeAt(pos);
        if (marker === 45 || marker === 61) {
          pos = state.skipChars(pos, marker);
          pos = state.skipSpaces(pos);
          if (pos >= max) {
            level = marker === 61 ? 1 : 2;
            break;
          }
        }
      }
    }
    if (state.sCount[nextLine] < 0)
      continue;
    let terminate = false;
    for (let i = 0, l = terminatorRules.length;i < l; i++)
      if (terminatorRules[i](state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    if (terminate)
      break;
  }
  if (!level) {
    state.parentType = oldParentType;
    return false;
  }
  const content = asciiTrim(state.getLines(startLine, nextLine, state.blkIndent, false));
  state.line = nextLine + 1;
  const token_o = state.push("heading_open", `h${level}`, 1);
  token_o.markup = String.fromCharCode(marker);
  token_o.map = [startLine, state.line];
  const token_i = state.push("inline", "", 0);
  token_i.content = content;
  token_i.map = [startLine, state.line - 1];
  token_i.children = [];
  const token_c = state.push("heading_close", `h${level}`, -1);
  token_c.markup = String.fromCharCode(marker);
  state.parentType = oldParentType;
  return true;
}
function paragraph(state, startLine, endLine) {
  const terminatorRules = state.md.block.ruler.getRules("paragraph");
  const oldParentType = state.parentType;
  let nextLine = startLine + 1;
  state.parentType = "paragraph";
  for (;nextLine < endLine && !state.isEmpty(nextLine); nextLine++) {
    if (state.sCount[nextLine] - state.blkIndent > 3)
      continue;
    if (state.sCount[nextLine] < 0)
      continue;
    let terminate = false;
    for (let i = 0, l = terminatorRules.length;i < l; i++)
      if (terminatorRules[i](state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    if (terminate)
      break;
  }
  const content = asciiTrim(state.getLines(startLine, nextLine, state.blkIndent, false));
  state.line = nextLine;
  const token_o = state.push("paragraph_open", "p", 1);
  token_o.map = [startLine, state.line];
  const token_i = state.push("inline", "", 0);
  token_i.content = content;
  token_i.map = [startLine, state.line];
  token_i.children = [];
  state.push("paragraph_close", "p", -1);
  state.parentType = oldParentType;
  return true;
}
function isTerminatorChar(ch) {
  switch (ch) {
    case 10:
    case 33:
    case 35:
    case 36:
    case 37:
    case 38:
    case 42:
    case 43:
    case 45:
    case 58:
    case 60:
    case 61:
    case 62:
    case 64:
    case 91:
    case 92:
    case 93:
    case 94:
    case 95:
    case 96:
    case 123:
    case 125:
    case 126:
      return true;
    default:
      return false;
  }
}
function text2(state, silent) {
  let pos = state.pos;
  while (pos < state.posMax && !isTerminatorChar(state.src.charCodeAt(pos)))
    pos++;
  if (pos === state.pos)
    return false;
  if (!silent)
    state.pending += state.src.slice(state.pos, pos);
  state.pos = pos;
  return true;
}
function isAsciiAlpha(code) {
  return code >= 65 && code <= 90 || code >= 97 && code <= 122;
}
function isSchemeChar(code) {
  return code >= 65 && code <= 90 || code >= 97 && code <= 122 || code >= 48 && code <= 57 || code === 43 || code === 45 || code === 46;
}
function linkify(state, silent) {
  if (!state.md.options.linkify)
    return false;
  if (state.linkLevel > 0)
    return false;
  const pos = state.pos;
  const max = state.posMax;
  if (pos + 3 > max)
    return false;
  if (state.src.charCodeAt(pos) !== 58)
    return false;
  if (state.src.charCodeAt(pos + 1) !== 47)
    return false;
  if (state.src.charCodeAt(pos + 2) !== 47)
    return false;
  const protoMin = pos - Math.min(10, state.pending.length, pos);
  let protoStart = pos;
  while (protoStart > protoMin && isSchemeChar(state.src.charCodeAt(protoStart - 1)))
    protoStart--;
  if (protoStart === pos || !isAsciiAlpha(state.src.charCodeAt(protoStart)))
    return false;
  const protoLength = pos - protoStart;
  const link = state.md.linkify.matchAtStart(state.src.slice(protoStart));
  if (!link)
    return false;
  let url = link.url;
  if (url.length <= protoLength)
    return false;
  let urlEnd = url.length;
  while (urlEnd > 0 && url.charCodeAt(urlEnd - 1) === 42)
    urlEnd--;
  if (urlEnd !== url.length)
    url = url.slice(0, urlEnd);
  const fullUrl = state.md.normalizeLink(url);
  if (!state.md.validateLink(fullUrl))
    return false;
  if (!silent) {
    state.pending = state.pending.slice(0, -protoLength);
    const token_o = state.push("link_open", "a", 1);
    token_o.attrs = [["href", fullUrl]];
    token_o.markup = "linkify";
    token_o.info = "auto";
    const token_t = state.push("text", "", 0);
    token_t.content = state.md.normalizeLinkText(url);
    const token_c = state.push("link_close", "a", -1);
    token_c.markup = "linkify";
    token_c.info = "auto";
  }
  state.pos += url.length - protoLength;
  return true;
}
function newline(state, silent) {
  let pos = state.pos;
  if (state.src.charCodeAt(pos) !== 10)
    return false;
  const pmax = state.pending.length - 1;
  const max = state.posMax;
  if (!silent) {
    if (pmax >= 0 && state.pending.charCodeAt(pmax) === 32) {
      if (pmax >= 1 && state.pending.charCodeAt(pmax - 1) === 32) {
        let ws = pmax - 1;
        while (ws >= 1 && state.pending.charCodeAt(ws - 1) === 32)
          ws--;
        state.pending = state.pending.slice(0, ws);
        state.push("hardbreak", "br", 0);
      } else {
        state.pending = state.pending.slice(0, -1);
        state.push("softbreak", "br", 0);
      }
    } else
      state.push("softbreak", "br", 0);
  }
  pos++;
  while (pos < max && isSpace(state.src.charCodeAt(pos)))
    pos++;
  state.pos = pos;
  return true;
}
function escape(state, silent) {
  let pos = state.pos;
  const max = state.posMax;
  if (state.src.charCodeAt(pos) !== 92)
    return false;
  pos++;
  if (pos >= max)
    return false;
  let ch1 = state.src.charCodeAt(pos);
  if (ch1 === 10) {
    if (!silent)
      state.push("hardbreak", "br", 0);
    pos++;
    while (pos < max) {
      ch1 = state.src.charCodeAt(pos);
      if (!isSpace(ch1))
        break;
      pos++;
    }
    state.pos = pos;
    return true;
  }
  if (ch1 === 32) {
    if (!silent) {
      const token = state.push("text_special", "", 0);
      token.content = "\\";
      token.markup = "\\";
      token.info = "escape";
    }
    state.pos = pos;
    return true;
  }
  let escapedStr = state.src[pos];
  if (ch1 >= 55296 && ch1 <= 56319 && pos + 1 < max) {
    const ch2 = state.src.charCodeAt(pos + 1);
    if (ch2 >= 56320 && ch2 <= 57343) {
      escapedStr += state.src[pos + 1];
      pos++;
    }
  }
  const origStr = "\\" + escapedStr;
  if (!silent) {
    const token = state.push("text_special", "", 0);
    if (ch1 < 256 && ESCAPED[ch1] !== 0)
      token.content = escapedStr;
    else
      token.content = origStr;
    token.markup = origStr;
    token.info = "escape";
  }
  state.pos = pos + 1;
  return true;
}
function buildLastRuns(src) {
  const lastRuns = {};
  let pos = 0;
  while ((pos = src.indexOf("`", pos)) !== -1) {
    const start = pos;
    while (src.charCodeAt(++pos) === 96)
      ;
    lastRuns[pos - start] = start;
  }
  return lastRuns;
}
function backtick(state, silent) {
  var _state$backticks$open;
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 96)
    return false;
  const max = state.posMax;
  let pos = start + 1;
  while (pos < max && state.src.charCodeAt(pos) === 96)
    pos++;
  const marker = state.src.slice(start, pos);
  const openerLength = marker.length;
  if (!state.backticksScanned) {
    state.backticks = buildLastRuns(state.src);
    state.backticksScanned = true;
  }
  if (((_state$backticks$open = state.backticks[openerLength]) !== null && _state$backticks$open !== undefined ? _state$backticks$open : -1) >= pos) {
    let matchEnd = pos;
    let matchStart;
    while ((matchStart = state.src.indexOf("`", matchEnd)) !== -1 && matchStart < max) {
      matchEnd = matchStart + 1;
      while (state.src.charCodeAt(matchEnd) === 96)
        matchEnd++;
      if (matchEnd > max)
        break;
      if (matchEnd - matchStart === openerLength) {
        if (!silent) {
          const token = state.push("code_inline", "code", 0);
          token.markup = marker;
          let content = state.src.slice(pos, matchStart).replace(/\n/g, " ");
          if (content.startsWith(" ") && content.endsWith(" ") && /[^ ]/.test(content))
            content = content.slice(1, -1);
          token.content = content;
        }
        state.pos = matchEnd;
        return true;
      }
    }
  }
  if (!silent)
    state.pending += marker;
  state.pos = pos;
  return true;
}
function strikethrough_tokenize(state, silent) {
  const start = state.pos;
  const marker = state.src.charCodeAt(start);
  if (silent)
    return false;
  if (marker !== 126)
    return false;
  const scanned = state.scanDelims(state.pos, true);
  let len = scanned.length;
  const ch = String.fromCharCode(marker);
  if (len < 2)
    return false;
  let token;
  if (len % 2) {
    token = state.push("text", "", 0);
    token.content = ch;
    len--;
  }
  for (let i = 0;i < len; i += 2) {
    token = state.push("text", "", 0);
    token.content = ch + ch;
    state.delimiters.push({
      marker,
      length: 0,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close
    });
  }
  state.pos += scanned.length;
  return true;
}
function postProcess$1(state, delimiters) {
  let token;
  const loneMarkers = [];
  const max = delimiters.length;
  for (let i = 0;i < max; i++) {
    const startDelim = delimiters[i];
    if (startDelim.marker !== 126)
      continue;
    if (startDelim.end === -1)
      continue;
    const endDelim = delimiters[startDelim.end];
    token = state.tokens[startDelim.token];
    token.type = "s_open";
    token.tag = "s";
    token.nesting = 1;
    token.markup = "~~";
    token.content = "";
    token = state.tokens[endDelim.token];
    token.type = "s_close";
    token.tag = "s";
    token.nesting = -1;
    token.markup = "~~";
    token.content = "";
    if (state.tokens[endDelim.token - 1].type === "text" && state.tokens[endDelim.token - 1].content === "~")
      loneMarkers.push(endDelim.token - 1);
  }
  while (loneMarkers.length) {
    const i = loneMarkers.pop();
    let j = i + 1;
    while (j < state.tokens.length && state.tokens[j].type === "s_close")
      j++;
    j--;
    if (i !== j) {
      token = state.tokens[j];
      state.tokens[j] = state.tokens[i];
      state.tokens[i] = token;
    }
  }
}
function strikethrough_postProcess(state) {
  const tokens_meta = state.tokens_meta;
  const max = state.tokens_meta.length;
  postProcess$1(state, state.delimiters);
  for (let curr = 0;curr < max; curr++) {
    var _tokens_meta$curr;
    const delimiters = (_tokens_meta$curr = tokens_meta[curr]) === null || _tokens_meta$curr === undefined ? undefined : _tokens_meta$curr.delimiters;
    if (delimiters)
      postProcess$1(state, delimiters);
  }
}
function emphasis_tokenize(state, silent) {
  const start = state.pos;
  const marker = state.src.charCodeAt(start);
  if (silent)
    return false;
  if (marker !== 95 && marker !== 42)
    return false;
  const scanned = state.scanDelims(state.pos, marker === 42);
  for (let i = 0;i < scanned.length; i++) {
    const token = state.push("text", "", 0);
    token.content = String.fromCharCode(marker);
    state.delimiters.push({
      marker,
      length: scanned.length,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close
    });
  }
  state.pos += scanned.length;
  return true;
}
function postProcess(state, delimiters) {
  const max = delimiters.length;
  for (let i = max - 1;i >= 0; i--) {
    const startDelim = delimiters[i];
    if (startDelim.marker !== 95 && startDelim.marker !== 42)
      continue;
    if (startDelim.end === -1)
      continue;
    const endDelim = delimiters[startDelim.end];
    const isStrong = i > 0 && delimiters[i - 1].end === startDelim.end + 1 && delimiters[i - 1].marker === startDelim.marker && delimiters[i - 1].token === startDelim.token - 1 && delimiters[startDelim.end + 1].token === endDelim.token + 1;
    const ch = String.fromCharCode(startDelim.marker);
    const token_o = state.tokens[startDelim.token];
    token_o.type = isStrong ? "strong_open" : "em_open";
    token_o.tag = isStrong ? "strong" : "em";
    token_o.nesting = 1;
    token_o.markup = isStrong ? ch + ch : ch;
    token_o.content = "";
    const token_c = state.tokens[endDelim.token];
    token_c.type = isStrong ? "strong_close" : "em_close";
    token_c.tag = isStrong ? "strong" : "em";
    token_c.nesting = -1;
    token_c.markup = isStrong ? ch + ch : ch;
    token_c.content = "";
    if (isStrong) {
      state.tokens[delimiters[i - 1].token].content = "";
      state.tokens[delimiters[startDelim.end + 1].token].content = "";
      i--;
    }
  }
}
function emphasis_post_process(state) {
  const tokens_meta = state.tokens_meta;
  const max = state.tokens_meta.length;
  postProcess(state, state.delimiters);
  for (let curr = 0;curr < max; curr++) {
    var _tokens_meta$curr;
    const delimiters = (_tokens_meta$curr = tokens_meta[curr]) === null || _tokens_meta$curr === undefined ? undefined : _tokens_meta$curr.delimiters;
    if (delimiters)
      postProcess(state, delimiters);
  }
}
function link(state, silent) {
  let code, label, res, ref;
  let href = "";
  let title = "";
  let start = state.pos;
  let parseReference = true;
  if (state.src.charCodeAt(state.pos) !== 91)
    return false;
  const oldPos = state.pos;
  const max = state.posMax;
  const labelStart = state.pos + 1;
  const labelEnd = state.md.helpers.parseLinkLabel(state, state.pos, true);
  if (labelEnd < 0)
    return false;
  let pos = labelEnd + 1;
  if (pos < max && state.src.charCodeAt(pos) === 40) {
    parseReference = false;
    pos++;
    for (;pos < max; pos++) {
      code = state.src.charCodeAt(pos);
      if (!isSpace(code) && code !== 10)
        break;
    }
    if (pos >= max)
      return false;
    start = pos;
    res = state.md.helpers.parseLinkDestination(state.src, pos, state.posMax);
    if (res.ok) {
      href = state.md.normalizeLink(res.str);
      if (state.md.validateLink(href))
        pos = res.pos;
      else
        href = "";
      start = pos;
      for (;pos < max; pos++) {
        code = state.src.charCodeAt(pos);
        if (!isSpace(code) && code !== 10)
          break;
      }
      res = state.md.helpers.parseLinkTitle(state.src, pos, state.posMax);
      if (pos < max && start !== pos && res.ok) {
        title = res.str;
        pos = res.pos;
        for (;pos < max; pos++) {
          code = state.src.charCodeAt(pos);
          if (!isSpace(code) && code !== 10)
            break;
        }
      }
    }
    if (pos >= max || state.src.charCodeAt(pos) !== 41)
      parseReference = true;
    pos++;
  }
  if (parseReference) {
    if (typeof state.env.references === "undefined")
      return false;
    if (pos < max && state.src.charCodeAt(pos) === 91) {
      start = pos + 1;
      pos = state.md.helpers.parseLinkLabel(state, pos);
      if (pos >= 0)
        label = state.src.slice(start, pos++);
      else
        pos = labelEnd + 1;
    } else
      pos = labelEnd + 1;
    if (!label)
      label = state.src.slice(labelStart, labelEnd);
    label = normalizeReference(label);
    ref = state.env.references[label];
    if (!ref) {
      state.pos = oldPos;
      return false;
    }
    href = ref.href;
    title = ref.title;
  }
  if (!silent) {
    state.pos = labelStart;
    state.posMax = labelEnd;
    const token_o = state.push("link_open", "a", 1);
    const attrs = [["href", href]];
    token_o.attrs = attrs;
    if (title)
      attrs.push(["title", title]);
    if (label) {
      const meta = Object.create(null);
      meta.label = label;
      token_o.meta = meta;
    }
    state.linkLevel++;
    state.md.inline.tokenize(state);
    state.linkLevel--;
    state.push("link_close", "a", -1);
  }
  state.pos = pos;
  state.posMax = max;
  return true;
}
function image(state, silent) {
  let code, content, label, pos, ref, res, title, start;
  let href = "";
  const oldPos = state.pos;
  const max = state.posMax;
  if (state.src.charCodeAt(state.pos) !== 33)
    return false;
  if (state.src.charCodeAt(state.pos + 1) !== 91)
    return false;
  const labelStart = state.pos + 2;
  const labelEnd = state.md.helpers.parseLinkLabel(state, state.pos + 1, false);
  if (labelEnd < 0)
    return false;
  pos = labelEnd + 1;
  if (pos < max && state.src.charCodeAt(pos) === 40) {
    pos++;
    for (;pos < max; pos++) {
      code = state.src.charCodeAt(pos);
      if (!isSpace(code) && code !== 10)
        break;
    }
    if (pos >= max)
      return false;
    start = pos;
    res = state.md.helpers.parseLinkDestination(state.src, pos, state.posMax);
    if (res.ok) {
      href = state.md.normalizeLink(res.str);
      if (state.md.validateLink(href))
        pos = res.pos;
      else
        href = "";
    }
    start = pos;
    for (;pos < max; pos++) {
      code = state.src.charCodeAt(pos);
      if (!isSpace(code) && code !== 10)
        break;
    }
    res = state.md.helpers.parseLinkTitle(state.src, pos, state.posMax);
    if (pos < max && start !== pos && res.ok) {
      title = res.str;
      pos = res.pos;
      for (;pos < max; pos++) {
        code = state.src.charCodeAt(pos);
        if (!isSpace(code) && code !== 10)
          break;
      }
    } else
      title = "";
    if (pos >= max || state.src.charCodeAt(pos) !== 41) {
      state.pos = oldPos;
      return false;
    }
    pos++;
  } else {
    if (typeof state.env.references === "undefined")
      return false;
    if (pos < max && state.src.charCodeAt(pos) === 91) {
      start = pos + 1;
      pos = state.md.helpers.parseLinkLabel(state, pos);
      if (pos >= 0)
        label = state.src.slice(start, pos++);
      else
        pos = labelEnd + 1;
    } else
      pos = labelEnd + 1;
    if (!label)
      label = state.src.slice(labelStart, labelEnd);
    label = normalizeReference(label);
    ref = state.env.references[label];
    if (!ref) {
      state.pos = oldPos;
      return false;
    }
    href = ref.href;
    title = ref.title;
  }
  if (!silent) {
    content = state.src.slice(labelStart, labelEnd);
    const tokens = [];
    state.md.inline.parse(content, state.md, state.env, tokens);
    const token = state.push("image", "img", 0);
    const attrs = [["src", href], ["alt", ""]];
    token.attrs = attrs;
    token.children = tokens;
    token.content = content;
    if (title)
      attrs.push(["title", title]);
    if (label) {
      const meta = Object.create(null);
      meta.label = label;
      token.meta = meta;
    }
  }
  state.pos = pos;
  state.posMax = max;
  return true;
}
function autolink(state, silent) {
  let pos = state.pos;
  if (state.src.charCodeAt(pos) !== 60)
    return false;
  const start = state.pos;
  const max = state.posMax;
  for (;; ) {
    if (++pos >= max)
      return false;
    const ch = state.src.charCodeAt(pos);
    if (ch === 60)
      return false;
    if (ch === 62)
      break;
  }
  const url = state.src.slice(start + 1, pos);
  if (AUTOLINK_RE.test(url)) {
    const fullUrl = state.md.normalizeLink(url);
    if (!state.md.validateLink(fullUrl))
      return false;
    if (!silent) {
      const token_o = state.push("link_open", "a", 1);
      token_o.attrs = [["href", fullUrl]];
      token_o.markup = "autolink";
      token_o.info = "auto";
      const token_t = state.push("text", "", 0);
      token_t.content = state.md.normalizeLinkText(url);
      const token_c = state.push("link_close", "a", -1);
      token_c.markup = "autolink";
      token_c.info = "auto";
    }
    state.pos += url.length + 2;
    return true;
  }
  if (EMAIL_RE.test(url)) {
    const fullUrl = state.md.normalizeLink(`mailto:${url}`);
    if (!state.md.validateLink(fullUrl))
      return false;
    if (!silent) {
      const token_o = state.push("link_open", "a", 1);
      token_o.attrs = [["href", fullUrl]];
      token_o.markup = "autolink";
      token_o.info = "auto";
      const token_t = state.push("text", "", 0);
      token_t.content = state.md.normalizeLinkText(url);
      const token_c = state.push("link_close", "a", -1);
      token_c.markup = "autolink";
      token_c.info = "auto";
    }
    state.pos += url.length + 2;
    return true;
  }
  return false;
}
function isLinkOpen(str) {
  return /^<a[>\s]/i.test(str);
}
function isLinkClose(str) {
  return /^<\/a\s*>/i.test(str);
}
function isLetter(ch) {
  const lc = ch | 32;
  return lc >= 97 && lc <= 122;
}
function scanSpecial(state, pos) {
  const src = state.src;
  let start;
  let terminator;
  if (src.startsWith("<!--", pos)) {
    if (src.startsWith(">", pos + 4))
      return pos + 5;
    if (src.startsWith("->", pos + 4))
      return pos + 6;
    start = pos + 4;
    terminator = "-->";
  } else if (src.startsWith("<![CDATA[", pos)) {
    start = pos + 9;
    terminator = "]]>";
  } else if (src.charCodeAt(pos + 1) === 63) {
    start = pos + 2;
    terminator = "?>";
  } else if (isLetter(src.charCodeAt(pos + 2))) {
    start = pos + 3;
    terminator = ">";
  } else
    return -1;
  if (state.skipHtmlSpecial)
    return -1;
  const end = src.indexOf(terminator, start);
  if (end < 0) {
    state.skipHtmlSpecial = true;
    return -1;
  }
  return end + terminator.length;
}
function html_inline(state, silent) {
  if (!state.md.options.html)
    return false;
  const max = state.posMax;
  const pos = state.pos;
  if (state.src.charCodeAt(pos) !== 60 || pos + 2 >= max)
    return false;
  let end;
  const ch = state.src.charCodeAt(pos + 1);
  if (ch === 33 || ch === 63)
    end = scanSpecial(state, pos);
  else if (ch === 47 || isLetter(ch)) {
    const match = state.src.slice(pos).match(HTML_OPEN_CLOSE_TAG_RE);
    end = match ? pos + match[0].length : -1;
  } else
    return false;
  if (end < 0)
    return false;
  if (!silent) {
    const token = state.push("html_inline", "", 0);
    token.content = state.src.slice(pos, end);
    if (isLinkOpen(token.content))
      state.linkLevel++;
    if (isLinkClose(token.content))
      state.linkLevel--;
  }
  state.pos = end;
  return true;
}
function entity(state, silent) {
  const pos = state.pos;
  const max = state.posMax;
  if (state.src.charCodeAt(pos) !== 38)
    return false;
  if (pos + 1 >= max)
    return false;
  if (state.src.charCodeAt(pos + 1) === 35) {
    const match = state.src.slice(pos).match(DIGITAL_RE);
    if (match) {
      if (!silent) {
        const code = match[1][0].toLowerCase() === "x" ? parseInt(match[1].slice(1), 16) : parseInt(match[1], 10);
        const token = state.push("text_special", "", 0);
        token.content = isValidEntityCode(code) ? fromCodePoint(code) : fromCodePoint(65533);
        token.markup = match[0];
        token.info = "entity";
      }
      state.pos += match[0].length;
      return true;
    }
  } else {
    const match = state.src.slice(pos).match(NAMED_RE);
    if (match) {
      const decoded = decodeHTMLStrict(match[0]);
      if (decoded !== match[0]) {
        if (!silent) {
          const token = state.push("text_special", "", 0);
          token.content = decoded;
          token.markup = match[0];
          token.info = "entity";
        }
        state.pos += match[0].length;
        return true;
      }
    }
  }
  return false;
}
function processDelimiters(delimiters) {
  const openersBottom = {};
  const max = delimiters.length;
  if (!max)
    return;
  let headerIdx = 0;
  let lastTokenIdx = -2;
  const jumps = [];
  for (let closerIdx = 0;closerIdx < max; closerIdx++) {
    const closer = delimiters[closerIdx];
    jumps.push(0);
    if (delimiters[headerIdx].marker !== closer.marker || lastTokenIdx !== closer.token - 1)
      headerIdx = closerIdx;
    lastTokenIdx = closer.token;
    closer.length = closer.length || 0;
    if (!closer.close)
      continue;
    if (!openersBottom.hasOwnProperty(closer.marker))
      openersBottom[closer.marker] = [
        -1,
        -1,
        -1,
        -1,
        -1,
        -1
      ];
    const minOpenerIdx = openersBottom[closer.marker][(closer.open ? 3 : 0) + closer.length % 3];
    let openerIdx = headerIdx - jumps[headerIdx] - 1;
    let newMinOpenerIdx = openerIdx;
    for (;openerIdx > minOpenerIdx; openerIdx -= jumps[openerIdx] + 1) {
      const opener = delimiters[openerIdx];
      if (opener.marker !== closer.marker)
        continue;
      if (opener.open && opener.end < 0) {
        let isOddMatch = false;
        if (opener.close || closer.open) {
          if ((opener.length + closer.length) % 3 === 0) {
            if (opener.length % 3 !== 0 || closer.length % 3 !== 0)
              isOddMatch = true;
          }
        }
        if (!isOddMatch) {
          const lastJump = openerIdx > 0 && !delimiters[openerIdx - 1].open ? jumps[openerIdx - 1] + 1 : 0;
          jumps[closerIdx] = closerIdx - openerIdx + lastJump;
          jumps[openerIdx] = lastJump;
          closer.open = false;
          opener.end = closerIdx;
          opener.close = false;
          newMinOpenerIdx = -1;
          lastTokenIdx = -2;
          break;
        }
      }
    }
    if (newMinOpenerIdx !== -1)
      openersBottom[closer.marker][(closer.open ? 3 : 0) + (closer.length || 0) % 3] = newMinOpenerIdx;
  }
}
function link_pairs(state) {
  const tokens_meta = state.tokens_meta;
  const max = state.tokens_meta.length;
  processDelimiters(state.delimiters);
  for (let curr = 0;curr < max; curr++) {
    var _tokens_meta$curr;
    const delimiters = (_tokens_meta$curr = tokens_meta[curr]) === null || _tokens_meta$curr === undefined ? undefined : _tokens_meta$curr.delimiters;
    if (delimiters)
      processDelimiters(delimiters);
  }
}
function fragments_join(state) {
  let curr, last;
  let level = 0;
  const tokens = state.tokens;
  const max = state.tokens.length;
  for (curr = last = 0;curr < max; curr++) {
    if (tokens[curr].nesting < 0)
      level--;
    tokens[curr].level = level;
    if (tokens[curr].nesting > 0)
      level++;
    if (tokens[curr].type === "text" && curr + 1 < max && tokens[curr + 1].type === "text")
      tokens[curr + 1].content = tokens[curr].content + tokens[curr + 1].content;
    else {
      if (curr !== last)
        tokens[last] = tokens[curr];
      last++;
    }
  }
  if (curr !== last)
    tokens.length = last;
}
var import_punycode, __defProp2, __exportAll = (all, no_symbols) => {
  let target = {};
  for (var name in all)
    __defProp2(target, name, {
      get: all[name],
      enumerable: true
    });
  if (!no_symbols)
    __defProp2(target, Symbol.toStringTag, { value: "Module" });
  return target;
}, utils_exports, UNESCAPE_MD_RE, UNESCAPE_ALL_RE, DIGITAL_ENTITY_TEST_RE, HTML_ESCAPE_TEST_RE, HTML_ESCAPE_REPLACE_RE, HTML_REPLACEMENTS, REGEXP_ESCAPE_RE, lib, helpers_exports, Token = class {
  constructor(type, tag, nesting) {
    _defineProperty(this, "map", null);
    _defineProperty(this, "level", 0);
    _defineProperty(this, "children", null);
    _defineProperty(this, "content", "");
    _defineProperty(this, "markup", "");
    _defineProperty(this, "info", "");
    _defineProperty(this, "block", false);
    _defineProperty(this, "hidden", false);
    this.type = type;
    this.tag = tag;
    this.attrs = null;
    this.nesting = nesting;
    this.meta = null;
  }
  attrIndex(name) {
    if (!this.attrs)
      return -1;
    const attrs = this.attrs;
    for (let i = 0, len = attrs.length;i < len; i++)
      if (attrs[i][0] === name)
        return i;
    return -1;
  }
  attrPush(attrData) {
    if (this.attrs)
      this.attrs.push(attrData);
    else
      this.attrs = [attrData];
  }
  attrSet(name, value) {
    const idx = this.attrIndex(name);
    const attrData = [name, value];
    if (idx < 0)
      this.attrPush(attrData);
    else
      this.attrs[idx] = attrData;
  }
  attrGet(name) {
    const idx = this.attrIndex(name);
    let value = null;
    if (idx >= 0)
      value = this.attrs[idx][1];
    return value;
  }
  attrJoin(name, value) {
    const idx = this.attrIndex(name);
    if (idx < 0)
      this.attrPush([name, value]);
    else
      this.attrs[idx][1] = `${this.attrs[idx][1]} ${value}`;
  }
}, Ruler = class {
  constructor() {
    _defineProperty(this, "__rules__", []);
    _defineProperty(this, "__cache__", null);
  }
  __find__(name) {
    for (let i = 0;i < this.__rules__.length; i++)
      if (this.__rules__[i].name === name)
        return i;
    return -1;
  }
  __compile__() {
    const chains = /* @__PURE__ */ new Set;
    this.__rules__.forEach((rule) => {
      if (!rule.enabled)
        return;
      rule.alt.forEach((altName) => {
        if (altName)
          chains.add(altName);
      });
    });
    this.__cache__ = Object.create(null);
    this.__cache__[""] = [];
    this.__rules__.forEach((rule) => {
      if (rule.enabled)
        this.__cache__[""].push(rule.fn);
    });
    chains.forEach((chain) => {
      this.__cache__[chain] = [];
      this.__rules__.forEach((rule) => {
        if (rule.enabled && rule.alt.indexOf(chain) >= 0)
          this.__cache__[chain].push(rule.fn);
      });
    });
  }
  at(name, fn, options = {}) {
    const index = this.__find__(name);
    if (index === -1)
      throw new Error(`Parser rule not found: ${name}`);
    this.__rules__[index].fn = fn;
    this.__rules__[index].alt = options.alt || [];
    this.__cache__ = null;
  }
  before(beforeName, ruleName, fn, options = {}) {
    const index = this.__find__(beforeName);
    if (index === -1)
      throw new Error(`Parser rule not found: ${beforeName}`);
    this.__rules__.splice(index, 0, {
      name: ruleName,
      enabled: true,
      fn,
      alt: options.alt || []
    });
    this.__cache__ = null;
  }
  after(afterName, ruleName, fn, options = {}) {
    const index = this.__find__(afterName);
    if (index === -1)
      throw new Error(`Parser rule not found: ${afterName}`);
    this.__rules__.splice(index + 1, 0, {
      name: ruleName,
      enabled: true,
      fn,
      alt: options.alt || []
    });
    this.__cache__ = null;
  }
  push(ruleName, fn, options = {}) {
    this.__rules__.push({
      name: ruleName,
      enabled: true,
      fn,
      alt: options.alt || []
    });
    this.__cache__ = null;
  }
  enable(list, ignoreInvalid = false) {
    if (!Array.isArray(list))
      list = [list];
    const result = [];
    list.forEach((name) => {
      const idx = this.__find__(name);
      if (idx < 0) {
        if (ignoreInvalid)
          return;
        throw new Error(`Rules manager: invalid rule name ${name}`);
      }
      this.__rules__[idx].enabled = true;
      result.push(name);
    });
    this.__cache__ = null;
    return result;
  }
  enableOnly(list, ignoreInvalid = false) {
    if (!Array.isArray(list))
      list = [list];
    this.__rules__.forEach((rule) => {
      rule.enabled = false;
    });
    this.enable(list, ignoreInvalid);
  }
  disable(list, ignoreInvalid = false) {
    if (!Array.isArray(list))
      list = [list];
    const result = [];
    list.forEach((name) => {
      const idx = this.__find__(name);
      if (idx < 0) {
        if (ignoreInvalid)
          return;
        throw new Error(`Rules manager: invalid rule name ${name}`);
      }
      this.__rules__[idx].enabled = false;
      result.push(name);
    });
    this.__cache__ = null;
    return result;
  }
  getRules(chainName) {
    if (!this.__cache__)
      this.__compile__();
    return this.__cache__[chainName] || [];
  }
}, default_rules, Renderer = class {
  constructor() {
    _defineProperty(this, "rules", Object.assign({}, default_rules));
  }
  renderAttrs(token) {
    let i, l, result;
    if (!token.attrs)
      return "";
    result = "";
    for (i = 0, l = token.attrs.length;i < l; i++)
      result += ` ${escapeHtml2(token.attrs[i][0])}="${escapeHtml2(String(token.attrs[i][1]))}"`;
    return result;
  }
  renderToken(tokens, idx, options) {
    const token = tokens[idx];
    let result = "";
    if (token.hidden)
      return "";
    let prev = idx - 1;
    while (prev >= 0 && tokens[prev].hidden && tokens[prev].nesting === 0)
      prev--;
    if (token.block && token.nesting !== -1 && prev >= 0 && tokens[prev].hidden && tokens[prev].nesting === -1)
      result += `
`;
    result += (token.nesting === -1 ? "</" : "<") + token.tag;
    result += this.renderAttrs(token);
    if (token.nesting === 0 && options.xhtmlOut)
      result += " /";
    let needLf = false;
    if (token.block) {
      needLf = true;
      if (token.nesting === 1) {
        let next = idx + 1;
        while (next < tokens.length && tokens[next].hidden && tokens[next].nesting === 0)
          next++;
        if (next < tokens.length) {
          const nextToken = tokens[next];
          if (nextToken.type === "inline" || nextToken.hidden)
            needLf = false;
          else if (nextToken.nesting === -1 && nextToken.tag === token.tag)
            needLf = false;
        }
      }
    }
    result += needLf ? `>
` : ">";
    return result;
  }
  renderInline(tokens, options, env) {
    let result = "";
    const rules = this.rules;
    for (let i = 0, len = tokens.length;i < len; i++) {
      const type = tokens[i].type;
      if (typeof rules[type] !== "undefined")
        result += rules[type](tokens, i, options, env, this);
      else
        result += this.renderToken(tokens, i, options);
    }
    return result;
  }
  renderInlineAsText(tokens, options, env) {
    let result = "";
    for (let i = 0, len = tokens.length;i < len; i++)
      switch (tokens[i].type) {
        case "text":
        case "code_inline":
          result += tokens[i].content;
          break;
        case "image":
          result += this.renderInlineAsText(tokens[i].children, options, env);
          break;
        case "html_inline":
        case "html_block":
          result += tokens[i].content;
          break;
        case "softbreak":
        case "hardbreak":
          result += `
`;
      }
    return result;
  }
  render(tokens, options, env) {
    let result = "";
    const rules = this.rules;
    for (let i = 0, len = tokens.length;i < len; i++) {
      const type = tokens[i].type;
      if (type === "inline")
        result += this.renderInline(tokens[i].children, options, env);
      else if (typeof rules[type] !== "undefined")
        result += rules[type](tokens, i, options, env, this);
      else
        result += this.renderToken(tokens, i, options);
    }
    return result;
  }
}, StateCore = class {
  constructor(src, md, env) {
    _defineProperty(this, "tokens", []);
    _defineProperty(this, "inlineMode", false);
    _defineProperty(this, "Token", Token);
    this.src = src;
    this.env = env;
    this.md = md;
  }
}, UNNORMALIZED_NEWLINE_RE, NULL_RE, RARE_RE, SCOPED_ABBR_TEST_RE, SCOPED_ABBR_RE, SCOPED_ABBR, QUOTE_TEST_RE, QUOTE_RE, APOSTROPHE = "’", MAX_OPENERS = 1000, _rules$2, ParserCore = class {
  constructor() {
    _defineProperty(this, "ruler", new Ruler);
    _defineProperty(this, "State", StateCore);
    for (let i = 0;i < _rules$2.length; i++)
      this.ruler.push(_rules$2[i][0], _rules$2[i][1]);
  }
  process(state) {
    const rules = this.ruler.getRules("");
    for (let i = 0, l = rules.length;i < l; i++)
      rules[i](state);
  }
}, StateBlock = class {
  constructor(src, md, env, tokens) {
    _defineProperty(this, "bMarks", []);
    _defineProperty(this, "eMarks", []);
    _defineProperty(this, "tShift", []);
    _defineProperty(this, "sCount", []);
    _defineProperty(this, "bsCount", []);
    _defineProperty(this, "blkIndent", 0);
    _defineProperty(this, "line", 0);
    _defineProperty(this, "lineMax", 0);
    _defineProperty(this, "tight", false);
    _defineProperty(this, "listIndent", -1);
    _defineProperty(this, "parentType", "root");
    _defineProperty(this, "level", 0);
    _defineProperty(this, "Token", Token);
    this.src = src;
    this.md = md;
    this.env = env;
    this.tokens = tokens;
    const s = this.src;
    for (let start = 0, pos = 0, indent = 0, offset = 0, len = s.length, indent_found = false;pos < len; pos++) {
      const ch = s.charCodeAt(pos);
      if (!indent_found) {
        if (isSpace(ch)) {
          indent++;
          if (ch === 9)
            offset += 4 - offset % 4;
          else
            offset++;
          continue;
        } else
          indent_found = true;
      }
      if (ch === 10 || pos === len - 1) {
        if (ch !== 10)
          pos++;
        this.bMarks.push(start);
        this.eMarks.push(pos);
        this.tShift.push(indent);
        this.sCount.push(offset);
        this.bsCount.push(0);
        indent_found = false;
        indent = 0;
        offset = 0;
        start = pos + 1;
      }
    }
    this.bMarks.push(s.length);
    this.eMarks.push(s.length);
    this.tShift.push(0);
    this.sCount.push(0);
    this.bsCount.push(0);
    this.lineMax = this.bMarks.length - 1;
  }
  push(type, tag, nesting) {
    const token = new Token(type, tag, nesting);
    token.block = true;
    if (nesting < 0)
      this.level--;
    token.level = this.level;
    if (nesting > 0)
      this.level++;
    this.tokens.push(token);
    return token;
  }
  isEmpty(line) {
    return this.bMarks[line] + this.tShift[line] >= this.eMarks[line];
  }
  skipEmptyLines(from) {
    for (let max = this.lineMax;from < max; from++)
      if (this.bMarks[from] + this.tShift[from] < this.eMarks[from])
        break;
    return from;
  }
  skipSpaces(pos) {
    for (let max = this.src.length;pos < max; pos++)
      if (!isSpace(this.src.charCodeAt(pos)))
        break;
    return pos;
  }
  skipSpacesBack(pos, min) {
    if (pos <= min)
      return pos;
    while (pos > min)
      if (!isSpace(this.src.charCodeAt(--pos)))
        return pos + 1;
    return pos;
  }
  skipChars(pos, code) {
    for (let max = this.src.length;pos < max; pos++)
      if (this.src.charCodeAt(pos) !== code)
        break;
    return pos;
  }
  skipCharsBack(pos, code, min) {
    if (pos <= min)
      return pos;
    while (pos > min)
      if (code !== this.src.charCodeAt(--pos))
        return pos + 1;
    return pos;
  }
  getLines(begin, end, indent, keepLastLF) {
    if (begin >= end)
      return "";
    const queue = new Array(end - begin);
    for (let i = 0, line = begin;line < end; line++, i++) {
      let lineIndent = 0;
      const lineStart = this.bMarks[line];
      let first = lineStart;
      let last;
      if (line + 1 < end || keepLastLF)
        last = this.eMarks[line] + 1;
      else
        last = this.eMarks[line];
      while (first < last && lineIndent < indent) {
        const ch = this.src.charCodeAt(first);
        if (isSpace(ch)) {
          if (ch === 9)
            lineIndent += 4 - (lineIndent + this.bsCount[line]) % 4;
          else
            lineIndent++;
        } else if (first - lineStart < this.tShift[line])
          lineIndent++;
        else
          break;
        first++;
      }
      if (lineIndent > indent)
        queue[i] = new Array(lineIndent - indent + 1).join(" ") + this.src.slice(first, last);
      else
        queue[i] = this.src.slice(first, last);
    }
    return queue.join("");
  }
}, MAX_AUTOCOMPLETED_CELLS = 65536, MAX_LABEL_LENGTH = 999, html_blocks_default, open_tag = `<[A-Za-z][A-Za-z0-9\\-]*(?:\\s+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:\\s*=\\s*(?:[^"'=<>\`\\x00-\\x20]+|'[^']*'|"[^"]*"))?)*\\s*\\/?>`, close_tag = "<\\/[A-Za-z][A-Za-z0-9\\-]*\\s*>", HTML_OPEN_CLOSE_TAG_RE, HTML_SEQUENCES, _rules$1, ParserBlock = class {
  constructor() {
    _defineProperty(this, "ruler", new Ruler);
    _defineProperty(this, "State", StateBlock);
    for (let i = 0;i < _rules$1.length; i++)
      this.ruler.push(_rules$1[i][0], _rules$1[i][1], { alt: (_rules$1[i][2] || []).slice() });
  }
  tokenize(state, startLine, endLine) {
    const rules = this.ruler.getRules("");
    const len = rules.length;
    const maxNesting = state.md.options.maxNesting;
    let line = startLine;
    let hasEmptyLines = false;
    while (line < endLine) {
      state.line = line = state.skipEmptyLines(line);
      if (line >= endLine)
        break;
      if (state.sCount[line] < state.blkIndent)
        break;
      if (state.level >= maxNesting) {
        state.line = endLine;
        break;
      }
      const prevLine = state.line;
      let ok = false;
      for (let i = 0;i < len; i++) {
        ok = rules[i](state, line, endLine, false);
        if (ok) {
          if (prevLine >= state.line)
            throw new Error("block rule didn't increment state.line");
          break;
        }
      }
      if (!ok)
        throw new Error("none of the block rules matched");
      state.tight = !hasEmptyLines;
      if (state.isEmpty(state.line - 1))
        hasEmptyLines = true;
      line = state.line;
      if (line < endLine && state.isEmpty(line)) {
        hasEmptyLines = true;
        line++;
        state.line = line;
      }
    }
  }
  parse(src, md, env, outTokens) {
    if (!src)
      return;
    const state = new this.State(src, md, env, outTokens);
    this.tokenize(state, state.line, state.lineMax);
  }
}, StateInline = class {
  constructor(src, md, env, outTokens) {
    _defineProperty(this, "pos", 0);
    _defineProperty(this, "level", 0);
    _defineProperty(this, "pending", "");
    _defineProperty(this, "pendingLevel", 0);
    _defineProperty(this, "cache", {});
    _defineProperty(this, "backticks", {});
    _defineProperty(this, "backticksScanned", false);
    _defineProperty(this, "skipHtmlSpecial", false);
    _defineProperty(this, "linkLevel", 0);
    _defineProperty(this, "delimiters", []);
    _defineProperty(this, "_prev_delimiters", []);
    _defineProperty(this, "Token", Token);
    this.src = src;
    this.env = env;
    this.md = md;
    this.tokens = outTokens;
    this.tokens_meta = Array(outTokens.length);
    this.posMax = this.src.length;
  }
  pushPending() {
    const token = new Token("text", "", 0);
    token.content = this.pending;
    token.level = this.pendingLevel;
    this.tokens.push(token);
    this.pending = "";
    return token;
  }
  push(type, tag, nesting) {
    if (this.pending)
      this.pushPending();
    const token = new Token(type, tag, nesting);
    let token_meta = undefined;
    if (nesting < 0) {
      this.level--;
      this.delimiters = this._prev_delimiters.pop();
    }
    token.level = this.level;
    if (nesting > 0) {
      this.level++;
      this._prev_delimiters.push(this.delimiters);
      this.delimiters = [];
      token_meta = { delimiters: this.delimiters };
    }
    this.pendingLevel = this.level;
    this.tokens.push(token);
    this.tokens_meta.push(token_meta);
    return token;
  }
  scanDelims(start, canSplitWord) {
    const max = this.posMax;
    const marker = this.src.charCodeAt(start);
    let lastChar;
    if (start === 0)
      lastChar = 32;
    else if (start === 1) {
      lastChar = this.src.charCodeAt(0);
      if ((lastChar & 63488) === 55296)
        lastChar = 65533;
    } else {
      lastChar = this.src.charCodeAt(start - 1);
      if ((lastChar & 64512) === 56320) {
        const highSurr = this.src.charCodeAt(start - 2);
        lastChar = (highSurr & 64512) === 55296 ? 65536 + (highSurr - 55296 << 10) + (lastChar - 56320) : 65533;
      } else if ((lastChar & 64512) === 55296)
        lastChar = 65533;
    }
    let pos = start;
    while (pos < max && this.src.charCodeAt(pos) === marker)
      pos++;
    const count = pos - start;
    let nextChar = pos < max ? this.src.charCodeAt(pos) : 32;
    if ((nextChar & 64512) === 55296) {
      const lowSurr = this.src.charCodeAt(pos + 1);
      nextChar = (lowSurr & 64512) === 56320 ? 65536 + (nextChar - 55296 << 10) + (lowSurr - 56320) : 65533;
    } else if ((nextChar & 64512) === 56320)
      nextChar = 65533;
    const isLastPunctChar = isMdAsciiPunct(lastChar) || isPunctCharCode(lastChar);
    const isNextPunctChar = isMdAsciiPunct(nextChar) || isPunctCharCode(nextChar);
    const isLastWhiteSpace = isWhiteSpace(lastChar);
    const isNextWhiteSpace = isWhiteSpace(nextChar);
    const left_flanking = !isNextWhiteSpace && (!isNextPunctChar || isLastWhiteSpace || isLastPunctChar);
    const right_flanking = !isLastWhiteSpace && (!isLastPunctChar || isNextWhiteSpace || isNextPunctChar);
    return {
      can_open: left_flanking && (canSplitWord || !right_flanking || isLastPunctChar),
      can_close: right_flanking && (canSplitWord || !left_flanking || isNextPunctChar),
      length: count
    };
  }
}, ESCAPED, strikethrough_default, emphasis_default, EMAIL_RE, AUTOLINK_RE, DIGITAL_RE, NAMED_RE, _rules, _rules2, ParserInline = class {
  constructor() {
    _defineProperty(this, "ruler", new Ruler);
    _defineProperty(this, "ruler2", new Ruler);
    _defineProperty(this, "State", StateInline);
    for (let i = 0;i < _rules.length; i++)
      this.ruler.push(_rules[i][0], _rules[i][1]);
    for (let i = 0;i < _rules2.length; i++)
      this.ruler2.push(_rules2[i][0], _rules2[i][1]);
  }
  skipToken(state) {
    const pos = state.pos;
    const rules = this.ruler.getRules("");
    const len = rules.length;
    const maxNesting = state.md.options.maxNesting;
    const cache = state.cache;
    if (typeof cache[pos] !== "undefined") {
      state.pos = cache[pos];
      return;
    }
    let ok = false;
    if (state.level < maxNesting)
      for (let i = 0;i < len; i++) {
        state.level++;
        ok = rules[i](state, true);
        state.level--;
        if (ok) {
          if (pos >= state.pos)
            throw new Error("inline rule didn't increment state.pos");
          break;
        }
      }
    else
      state.pos = state.posMax;
    if (!ok)
      state.pos++;
    cache[pos] = state.pos;
  }
  tokenize(state) {
    const rules = this.ruler.getRules("");
    const len = rules.length;
    const end = state.posMax;
    const maxNesting = state.md.options.maxNesting;
    while (state.pos < end) {
      const prevPos = state.pos;
      let ok = false;
      if (state.level < maxNesting)
        for (let i = 0;i < len; i++) {
          ok = rules[i](state, false);
          if (ok) {
            if (prevPos >= state.pos)
              throw new Error("inline rule didn't increment state.pos");
            break;
          }
        }
      if (ok) {
        if (state.pos >= end)
          break;
        continue;
      }
      state.pending += state.src[state.pos++];
    }
    if (state.pending)
      state.pushPending();
  }
  parse(str, md, env, outTokens) {
    const state = new this.State(str, md, env, outTokens);
    this.tokenize(state);
    const rules = this.ruler2.getRules("");
    const len = rules.length;
    for (let i = 0;i < len; i++)
      rules[i](state);
  }
}, config2, BAD_PROTO_RE, GOOD_DATA_RE, RECODE_HOSTNAME_FOR, MarkdownIt = class {
  validateLink(url) {
    const str = url.trim().toLowerCase();
    return BAD_PROTO_RE.test(str) ? GOOD_DATA_RE.test(str) : true;
  }
  normalizeLink(url) {
    const parsed = parse_default(url, true);
    if (parsed.hostname) {
      if (!parsed.protocol || RECODE_HOSTNAME_FOR.indexOf(parsed.protocol) >= 0)
        try {
          parsed.hostname = import_punycode.default.toASCII(parsed.hostname);
        } catch (er) {}
    }
    if (parsed.auth)
      parsed.auth = encode_default(parsed.auth);
    if (parsed.hostname)
      parsed.hostname = encode_default(parsed.hostname);
    if (parsed.pathname)
      parsed.pathname = encode_default(parsed.pathname);
    if (parsed.search)
      parsed.search = encode_default(parsed.search);
    if (parsed.hash)
      parsed.hash = encode_default(parsed.hash);
    return format(parsed);
  }
  normalizeLinkText(url) {
    const parsed = parse_default(url, true);
    if (parsed.hostname) {
      if (!parsed.protocol || RECODE_HOSTNAME_FOR.indexOf(parsed.protocol) >= 0)
        try {
          parsed.hostname = import_punycode.default.toUnicode(parsed.hostname);
        } catch (er) {}
    }
    return decode_default(format(parsed), decode_default.defaultChars + "%");
  }
  constructor(...args) {
    _defineProperty(this, "inline", new ParserInline);
    _defineProperty(this, "block", new ParserBlock);
    _defineProperty(this, "core", new ParserCore);
    _defineProperty(this, "renderer", new Renderer);
    _defineProperty(this, "linkify", new LinkifyIt);
    _defineProperty(this, "utils", utils_exports);
    _defineProperty(this, "helpers", Object.assign({}, helpers_exports));
    const [presetNameOrOptions, options] = args;
    if (typeof presetNameOrOptions === "string") {
      this.configure(presetNameOrOptions);
      if (options)
        this.set(options);
    } else {
      this.configure("default");
      this.set(presetNameOrOptions || {});
    }
  }
  set(options) {
    Object.assign(this.options, options);
    return this;
  }
  configure(presets) {
    let p;
    if (typeof presets === "string") {
      const presetName = presets;
      p = config2[presetName];
      if (!p)
        throw new Error(`Wrong 'markdown-it' preset "${presetName}", check name`);
    } else
      p = presets;
    if (!p)
      throw new Error("Wrong `markdown-it` preset, can't be empty");
    if (p.options)
      this.options = { ...p.options };
    const components = p.components;
    if (components) {
      var _components$inline;
      [
        "core",
        "block",
        "inline"
      ].forEach((name) => {
        var _components$name;
        const rules = (_components$name = components[name]) === null || _components$name === undefined ? undefined : _components$name.rules;
        if (rules)
          this[name].ruler.enableOnly(rules);
      });
      const rules2 = (_components$inline = components.inline) === null || _components$inline === undefined ? undefined : _components$inline.rules2;
      if (rules2)
        this.inline.ruler2.enableOnly(rules2);
    }
    return this;
  }
  enable(list, ignoreInvalid = false) {
    let result = [];
    if (!Array.isArray(list))
      list = [list];
    [
      "core",
      "block",
      "inline"
    ].forEach((chain) => {
      result = result.concat(this[chain].ruler.enable(list, true));
    });
    result = result.concat(this.inline.ruler2.enable(list, true));
    const missed = list.filter((name) => result.indexOf(name) < 0);
    if (missed.length && !ignoreInvalid)
      throw new Error(`MarkdownIt. Failed to enable unknown rule(s): ${missed}`);
    return this;
  }
  disable(list, ignoreInvalid = false) {
    let result = [];
    if (!Array.isArray(list))
      list = [list];
    [
      "core",
      "block",
      "inline"
    ].forEach((chain) => {
      result = result.concat(this[chain].ruler.disable(list, true));
    });
    result = result.concat(this.inline.ruler2.disable(list, true));
    const missed = list.filter((name) => result.indexOf(name) < 0);
    if (missed.length && !ignoreInvalid)
      throw new Error(`MarkdownIt. Failed to disable unknown rule(s): ${missed}`);
    return this;
  }
  use(plugin, ...params) {
    plugin.apply(plugin, [this, ...params]);
    return this;
  }
  parse(src, env) {
    if (typeof src !== "string")
      throw new Error("Input data should be a String");
    const state = new this.core.State(src, this, env);
    this.core.process(state);
    return state.tokens;
  }
  render(src, env = {}) {
    return this.renderer.render(this.parse(src, env), this.options, env);
  }
  parseInline(src, env) {
    const state = new this.core.State(src, this, env);
    state.inlineMode = true;
    this.core.process(state);
    return state.tokens;
  }
  renderInline(src, env = {}) {
    return this.renderer.render(this.parseInline(src, env), this.options, env);
  }
}, MarkdownItCallable;
var init_markdown_it = __esm(() => {
  init_mdurl();
  init_build();
  init_dist2();
  init_build2();
  import_punycode = __toESM(require_punycode(), 1);
  /*! markdown-it 15.0.3 https://github.com/markdown-it/markdown-it @license MIT */
  __defProp2 = Object.defineProperty;
  utils_exports = /* @__PURE__ */ __exportAll({
    arrayReplaceAt: () => arrayReplaceAt,
    asciiTrim: () => asciiTrim,
    callable: () => callable,
    escapeHtml: () => escapeHtml2,
    escapeRE: () => escapeRE,
    fromCodePoint: () => fromCodePoint,
    isMdAsciiPunct: () => isMdAsciiPunct,
    isPunctChar: () => isPunctChar,
    isPunctCharCode: () => isPunctCharCode,
    isSpace: () => isSpace,
    isValidEntityCode: () => isValidEntityCode,
    isWhiteSpace: () => isWhiteSpace,
    lib: () => lib,
    normalizeReference: () => normalizeReference,
    unescapeAll: () => unescapeAll,
    unescapeMd: () => unescapeMd
  });
  UNESCAPE_MD_RE = /\\([!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~])/g;
  UNESCAPE_ALL_RE = new RegExp(`${UNESCAPE_MD_RE.source}|${/&([a-z#][a-z0-9]{1,31});/gi.source}`, "gi");
  DIGITAL_ENTITY_TEST_RE = /^#((?:x[a-f0-9]{1,8}|[0-9]{1,8}))$/i;
  HTML_ESCAPE_TEST_RE = /[&<>"]/;
  HTML_ESCAPE_REPLACE_RE = /[&<>"]/g;
  HTML_REPLACEMENTS = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;"
  };
  REGEXP_ESCAPE_RE = /[.?*+^$[\]\\(){}|-]/g;
  lib = {
    mdurl: exports_mdurl,
    ucmicro: exports_build
  };
  helpers_exports = /* @__PURE__ */ __exportAll({
    parseLinkDestination: () => parseLinkDestination,
    parseLinkLabel: () => parseLinkLabel,
    parseLinkTitle: () => parseLinkTitle
  });
  default_rules = {};
  default_rules.code_inline = function(tokens, idx, options, env, slf) {
    const token = tokens[idx];
    return `<code${slf.renderAttrs(token)}>${escapeHtml2(token.content)}</code>`;
  };
  default_rules.code_block = function(tokens, idx, options, env, slf) {
    const token = tokens[idx];
    return `<pre${slf.renderAttrs(token)}><code>${escapeHtml2(tokens[idx].content)}</code></pre>
`;
  };
  default_rules.fence = function(tokens, idx, options, env, slf) {
    const token = tokens[idx];
    const info = token.info ? unescapeAll(token.info).trim() : "";
    let langName = "";
    let langAttrs = "";
    if (info) {
      const arr = info.split(/(\s+)/g);
      langName = arr[0];
      langAttrs = arr.slice(2).join("");
    }
    let highlighted;
    if (options.highlight)
      highlighted = options.highlight(token.content, langName, langAttrs) || escapeHtml2(token.content);
    else
      highlighted = escapeHtml2(token.content);
    if (highlighted.indexOf("<pre") === 0)
      return highlighted + `
`;
    if (info) {
      const i = token.attrIndex("class");
      const tmpAttrs = token.attrs ? token.attrs.slice() : [];
      if (i < 0)
        tmpAttrs.push(["class", `${options.langPrefix}${langName}`]);
      else {
        tmpAttrs[i] = [tmpAttrs[i][0], tmpAttrs[i][1]];
        tmpAttrs[i][1] += ` ${options.langPrefix}${langName}`;
      }
      const tmpToken = { attrs: tmpAttrs };
      return `<pre><code${slf.renderAttrs(tmpToken)}>${highlighted}</code></pre>
`;
    }
    return `<pre><code${slf.renderAttrs(token)}>${highlighted}</code></pre>
`;
  };
  default_rules.image = function(tokens, idx, options, env, slf) {
    const token = tokens[idx];
    token.attrs[token.attrIndex("alt")][1] = slf.renderInlineAsText(token.children, options, env);
    return slf.renderToken(tokens, idx, options);
  };
  default_rules.hardbreak = function(tokens, idx, options) {
    return options.xhtmlOut ? `<br />
` : `<br>
`;
  };
  default_rules.softbreak = function(tokens, idx, options) {
    return options.breaks ? options.xhtmlOut ? `<br />
` : `<br>
` : `
`;
  };
  default_rules.text = function(tokens, idx) {
    return escapeHtml2(tokens[idx].content);
  };
  default_rules.html_block = function(tokens, idx) {
    return tokens[idx].content;
  };
  default_rules.html_inline = function(tokens, idx) {
    return tokens[idx].content;
  };
  UNNORMALIZED_NEWLINE_RE = /\r\n?/g;
  NULL_RE = /\0/g;
  RARE_RE = /\+-|\.\.|\?\?\?\?|!!!!|,,|--/;
  SCOPED_ABBR_TEST_RE = /\((c|tm|r)\)/i;
  SCOPED_ABBR_RE = /\((c|tm|r)\)/gi;
  SCOPED_ABBR = {
    c: "©",
    r: "®",
    tm: "™"
  };
  QUOTE_TEST_RE = /['"]/;
  QUOTE_RE = /['"]/g;
  _rules$2 = [
    ["normalize", normalize4],
    ["block", block],
    ["strip_references", strip_references],
    ["inline", inline],
    ["linkify", linkify$1],
    ["replacements", replace],
    ["smartquotes", smartquotes],
    ["text_join", text_join]
  ];
  html_blocks_default = [
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul"
  ];
  new RegExp(`^(?:${open_tag}|${close_tag}|<!---?>|<!--(?:[^-]|-[^-]|--[^>])*-->|<[?][\\s\\S]*?[?]>|<![A-Za-z][^>]*>|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>)`);
  HTML_OPEN_CLOSE_TAG_RE = new RegExp(`^(?:${open_tag}|${close_tag})`);
  HTML_SEQUENCES = [
    [
      /^<(script|pre|style|textarea)(?=(\s|>|$))/i,
      /<\/(script|pre|style|textarea)>/i,
      true
    ],
    [
      /^<!--/,
      /-->/,
      true
    ],
    [
      /^<\?/,
      /\?>/,
      true
    ],
    [
      /^<![A-Za-z]/,
      />/,
      true
    ],
    [
      /^<!\[CDATA\[/,
      /\]\]>/,
      true
    ],
    [
      new RegExp(`^</?(${html_blocks_default.join("|")})(?=(\\s|/?>|$))`, "i"),
      /^$/,
      true
    ],
    [
      new RegExp(`${HTML_OPEN_CLOSE_TAG_RE.source}\\s*$`),
      /^$/,
      false
    ]
  ];
  _rules$1 = [
    [
      "table",
      table,
      ["paragraph", "reference"]
    ],
    ["code", code],
    [
      "fence",
      fence,
      [
        "paragraph",
        "reference",
        "blockquote",
        "list"
      ]
    ],
    [
      "blockquote",
      blockquote,
      [
        "paragraph",
        "reference",
        "blockquote",
        "list"
      ]
    ],
    [
      "hr",
      hr,
      [
        "paragraph",
        "reference",
        "blockquote",
        "list"
      ]
    ],
    [
      "list",
      list,
      [
        "paragraph",
        "reference",
        "blockquote"
      ]
    ],
    ["reference", reference],
    [
      "html_block",
      html_block,
      [
        "paragraph",
        "reference",
        "blockquote"
      ]
    ],
    [
      "heading",
      heading,
      [
        "paragraph",
        "reference",
        "blockquote"
      ]
    ],
    ["lheading", lheading],
    ["paragraph", paragraph]
  ];
  ESCAPED = [];
  for (let i = 0;i < 256; i++)
    ESCAPED.push(0);
  "\\!\"#$%&'()*+,./:;<=>?@[]^_`{|}~-".split("").forEach(function(ch) {
    ESCAPED[ch.charCodeAt(0)] = 1;
  });
  strikethrough_default = {
    tokenize: strikethrough_tokenize,
    postProcess: strikethrough_postProcess
  };
  emphasis_default = {
    tokenize: emphasis_tokenize,
    postProcess: emphasis_post_process
  };
  EMAIL_RE = /^([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)$/;
  AUTOLINK_RE = /^([a-zA-Z][a-zA-Z0-9+.-]{1,31}):([^<>\x00-\x20]*)$/;
  DIGITAL_RE = /^&#((?:x[a-f0-9]{1,6}|[0-9]{1,7}));/i;
  NAMED_RE = /^&([a-z][a-z0-9]{1,31});/i;
  _rules = [
    ["text", text2],
    ["linkify", linkify],
    ["newline", newline],
    ["escape", escape],
    ["backticks", backtick],
    ["strikethrough", strikethrough_default.tokenize],
    ["emphasis", emphasis_default.tokenize],
    ["link", link],
    ["image", image],
    ["autolink", autolink],
    ["html_inline", html_inline],
    ["entity", entity]
  ];
  _rules2 = [
    ["balance_pairs", link_pairs],
    ["strikethrough", strikethrough_default.postProcess],
    ["emphasis", emphasis_default.postProcess],
    ["fragments_join", fragments_join]
  ];
  config2 = {
    default: {
      options: {
        html: false,
        xhtmlOut: false,
        breaks: false,
        langPrefix: "language-",
        linkify: false,
        typographer: false,
        quotes: "“”‘’",
        highlight: null,
        maxNesting: 100
      },
      components: {
        core: {},
        block: {},
        inline: {}
      }
    },
    zero: {
      options: {
        html: false,
        xhtmlOut: false,
        breaks: false,
        langPrefix: "language-",
        linkify: false,
        typographer: false,
        quotes: "“”‘’",
        highlight: null,
        maxNesting: 20
      },
      components: {
        core: { rules: [
          "normalize",
          "block",
          "strip_references",
          "inline",
          "text_join"
        ] },
        block: { rules: ["paragraph"] },
        inline: {
          rules: ["text"],
          rules2: ["balance_pairs", "fragments_join"]
        }
      }
    },
    commonmark: {
      options: {
        html: true,
        xhtmlOut: true,
        breaks: false,
        langPrefix: "language-",
        linkify: false,
        typographer: false,
        quotes: "“”‘’",
        highlight: null,
        maxNesting: 20
      },
      components: {
        core: { rules: [
          "normalize",
          "block",
          "strip_references",
          "inline",
          "text_join"
        ] },
        block: { rules: [
          "blockquote",
          "code",
          "fence",
          "heading",
          "hr",
          "html_block",
          "lheading",
          "list",
          "reference",
          "paragraph"
        ] },
        inline: {
          rules: [
            "autolink",
            "backticks",
            "emphasis",
            "entity",
            "escape",
            "html_inline",
            "image",
            "link",
            "newline",
            "text"
          ],
          rules2: [
            "balance_pairs",
            "emphasis",
            "fragments_join"
          ]
        }
      }
    }
  };
  BAD_PROTO_RE = /^(vbscript|javascript|file|data):/;
  GOOD_DATA_RE = /^data:image\/(gif|png|jpeg|webp);/;
  RECODE_HOSTNAME_FOR = [
    "http:",
    "https:",
    "mailto:"
  ];
  _defineProperty(MarkdownIt, "Token", Token);
  _defineProperty(MarkdownIt, "Ruler", Ruler);
  _defineProperty(MarkdownIt, "Renderer", Renderer);
  _defineProperty(MarkdownIt, "ParserCore", ParserCore);
  _defineProperty(MarkdownIt, "StateCore", StateCore);
  _defineProperty(MarkdownIt, "ParserBlock", ParserBlock);
  _defineProperty(MarkdownIt, "StateBlock", StateBlock);
  _defineProperty(MarkdownIt, "ParserInline", ParserInline);
  _defineProperty(MarkdownIt, "StateInline", StateInline);
  MarkdownItCallable = callable(MarkdownIt);
});

// plugins/humans/diagram.ts
function phaseGraph(api) {
  const participants = ["owner", "other"];
  const readiness = api.readReadiness("");
  const first = api.emptyState();
  api.applyEvent(first, { seq: 1, from: "owner", event: "initialized", at: "2000-01-01T00:00:00Z", summary: "" }, participants, readiness);
  const start = first.phase;
  const found = new Map;
  for (const phase of api.PHASES) {
    for (const name of api.EVENT_NAMES) {
      if (name === "initialized")
        continue;
      for (const from of participants) {
        const state = {
          ...api.emptyState(),
          phase,
          proposalOwner: "owner",
          waitingFor: ["owner"],
          reviewersDue: ["other"],
          acceptorsDue: ["other"],
          latestDecisionInput: 1,
          latestClassification: 2,
          primaryDrafted: true,
          primaryFrozen: name !== "deliverable_frozen",
          readinessPassed: true
        };
        const event = { seq: 3, from, event: name, at: "2000-01-01T00:00:00Z", summary: "", reply_to: 2, role: "primary", doc: name === "completed" ? "conclusion.md" : "doc.md" };
        api.applyEvent(state, event, participants, readiness);
        if (state.errors.length || state.phase === phase || state.phase === null)
          continue;
        const key = `${phase}\x00${state.phase}`;
        const edge = found.get(key) ?? { from: phase, to: state.phase, events: [] };
        if (!edge.events.includes(name))
          edge.events.push(name);
        found.set(key, edge);
      }
    }
  }
  const edges = [...found.values()];
  const fromAny = [...new Set(edges.map((e) => e.to))].filter((to) => api.PHASES.every((p) => p === to || edges.some((e) => e.from === p && e.to === to))).map((to) => ({ to, events: [...new Set(edges.filter((e) => e.to === to).flatMap((e) => e.events))] }));
  const anyTargets = new Set(fromAny.map((a) => a.to));
  const main = [start];
  for (let i = 0;i < main.length; i++) {
    for (const e of edges)
      if (e.from === main[i] && !anyTargets.has(e.to) && !main.includes(e.to))
        main.push(e.to);
  }
  const phases = [...main, ...api.PHASES.filter((p) => !main.includes(p))];
  return { start, phases, edges: edges.filter((e) => !anyTargets.has(e.to)), fromAny };
}
function phaseDiagramSvg(graph, path) {
  const visited = new Set(path.phases);
  const taken = new Map;
  for (let i = 1;i < path.phases.length; i++) {
    const key = `${path.phases[i - 1]}\x00${path.phases[i]}`;
    if (path.phases[i - 1] !== path.phases[i])
      taken.set(key, (taken.get(key) ?? 0) + 1);
  }
  const anyTargets = graph.fromAny.map((a) => a.to);
  const main = graph.phases.filter((p) => !anyTargets.includes(p));
  const pos = new Map;
  main.forEach((p, i) => pos.set(p, { x: LEFT, y: TOP + i * STEP }));
  const middle = TOP + (main.length - 1) * STEP / 2;
  anyTargets.forEach((p, i) => pos.set(p, { x: LEFT + NODE_W + SIDE, y: middle + i * STEP }));
  const width = LEFT + NODE_W + SIDE + NODE_W + 20;
  const height = TOP + main.length * STEP;
  const parts = [];
  const marker = (id, cls) => `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="${cls}" d="M0,0L10,5L0,10z"/></marker>`;
  parts.push(`<defs>${marker("arrow", "arrow-head")}${marker("arrow-taken", "arrow-head taken")}</defs>`);
  const first = pos.get(graph.start);
  const started = path.phases.length > 0;
  const cx = first.x + NODE_W / 2;
  parts.push(`<g class="edge${started ? " taken" : ""}" data-from="start" data-to="${escapeHtml(graph.start)}"><circle class="start" cx="${cx}" cy="${first.y - 38}" r="7"/><path d="M${cx},${first.y - 30}V${first.y - 2}" marker-end="url(#${started ? "arrow-taken" : "arrow"})"/><text class="edge-label" x="${cx + 10}" y="${first.y - 12}">initialized</text></g>`);
  for (const any of graph.fromAny) {
    const to = pos.get(any.to);
    for (const from of main) {
      const count = taken.get(`${from}\x00${any.to}`) ?? 0;
      const a = pos.get(from);
      const d = `M${a.x + NODE_W},${a.y + NODE_H / 2}L${to.x - 2},${to.y + NODE_H / 2}`;
      parts.push(`<g class="edge any${count ? " taken" : ""}" data-from="${escapeHtml(from)}" data-to="${escapeHtml(any.to)}"><path d="${d}" marker-end="url(#${count ? "arrow-taken" : "arrow"})"/></g>`);
    }
    parts.push(`<text class="edge-label" x="${to.x + NODE_W / 2}" y="${to.y + NODE_H + 16}" text-anchor="middle">${escapeHtml(any.events.join(", "))} (from any phase)</text>`);
  }
  for (const edge of graph.edges)
    parts.push(edgeSvg(edge, pos, taken.get(`${edge.from}\x00${edge.to}`) ?? 0));
  for (const phase of graph.phases) {
    const { x, y } = pos.get(phase);
    const cls = ["phase", visited.has(phase) ? "visited" : "", phase === path.current ? "current" : ""].filter(Boolean).join(" ");
    const current = phase === path.current ? ' aria-current="step"' : "";
    parts.push(`<g class="${cls}" data-phase="${escapeHtml(phase)}"${current}><rect x="${x}" y="${y}" width="${NODE_W}" height="${NODE_H}" rx="8"/><text x="${x + NODE_W / 2}" y="${y + NODE_H / 2 + 5}" text-anchor="middle">${escapeHtml(phase)}</text></g>`);
  }
  const label = `Phase diagram of the protocol; current phase: ${path.current ?? "none"}`;
  return `<svg class="phase-diagram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" role="img" aria-label="${escapeHtml(label)}">${parts.join("")}</svg>`;
}
function edgeSvg(edge, pos, count) {
  const a = pos.get(edge.from);
  const b = pos.get(edge.to);
  const label = `${edge.events.join(" / ")}${count > 1 ? ` ×${count}` : ""}`;
  let d;
  let text;
  if (b.y - a.y === STEP) {
    const x = a.x + NODE_W / 2;
    d = `M${x},${a.y + NODE_H}V${b.y - 2}`;
    text = `<text class="edge-label" x="${x + 10}" y="${(a.y + NODE_H + b.y) / 2 + 4}">${escapeHtml(label)}</text>`;
  } else {
    const bulge = a.x - 40 - Math.abs(b.y - a.y) / 6;
    d = `M${a.x},${a.y + NODE_H / 2}C${bulge},${a.y + NODE_H / 2} ${bulge},${b.y + NODE_H / 2} ${a.x - 2},${b.y + NODE_H / 2}`;
    text = `<text class="edge-label" x="${bulge + 14}" y="${(a.y + b.y + NODE_H) / 2 + 4}" text-anchor="end">${escapeHtml(label)}</text>`;
  }
  const cls = `edge${count ? " taken" : ""}`;
  return `<g class="${cls}" data-from="${escapeHtml(edge.from)}" data-to="${escapeHtml(edge.to)}"><path d="${d}" marker-end="url(#${count ? "arrow-taken" : "arrow"})"/>${text}</g>`;
}
var NODE_W = 150, NODE_H = 36, STEP = 84, LEFT = 190, TOP = 52, SIDE = 210;
var init_diagram = __esm(() => {
  init_text();
});

// plugins/humans/report-css.ts
var REPORT_CSS = `
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0969da; --accent-soft: #ddf4ff; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 24px 32px 48px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 1.8em; margin: 0.2em 0 0.6em; line-height: 1.25; }
h2 { font-size: 1.3em; border-bottom: 1px solid var(--line); padding-bottom: 0.25em; margin-top: 2em; }
h3 { font-size: 1.05em; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f6f8fa; padding: 0.1em 0.3em; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: #f6f8fa; padding: 12px; border-radius: 6px; overflow-x: auto; }
pre code { padding: 0; background: none; }
.kicker { color: var(--muted); text-transform: uppercase; letter-spacing: 0.06em; font-size: 0.8em; margin: 0; }
.muted { color: var(--muted); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
ul.inline { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
.badge { display: inline-block; padding: 0 8px; border-radius: 999px; font-size: 0.85em; font-weight: 600; border: 1px solid currentColor; }
.badge.ok, .outcome-proceed, .phase-completed { color: var(--ok); }
.badge.warn, .outcome-defer { color: var(--warn); }
.badge.bad, .outcome-blocked, .outcome-do_not_proceed, .phase-blocked { color: var(--bad); }
figure { margin: 0; }
figcaption { color: var(--muted); font-size: 0.85em; margin-top: 4px; }
svg.phase-diagram { max-width: 100%; height: auto; display: block; }
.phase-diagram text { font: 13px system-ui, sans-serif; fill: var(--ink); }
.phase-diagram .phase rect { fill: #fff; stroke: #8c959f; stroke-width: 1.5; }
.phase-diagram .phase.visited rect { fill: var(--accent-soft); stroke: var(--accent); }
.phase-diagram .phase.current rect { fill: var(--accent); stroke: #033d8b; stroke-width: 3; }
.phase-diagram .phase.current text { fill: #fff; font-weight: 700; }
.phase-diagram .edge path { fill: none; stroke: #afb8c1; stroke-width: 1.5; }
.phase-diagram .edge.any path { stroke-dasharray: 4 4; }
.phase-diagram .edge.taken path { stroke: var(--accent); stroke-width: 2.5; }
.phase-diagram .edge-label { font-size: 12px; fill: var(--muted); paint-order: stroke; stroke: #fff; stroke-width: 4px; stroke-linejoin: round; }
.phase-diagram .edge.taken .edge-label { fill: var(--accent); font-weight: 600; }
.phase-diagram .arrow-head { fill: #afb8c1; }
.phase-diagram .arrow-head.taken { fill: var(--accent); }
.phase-diagram .start { fill: var(--ink); }
table { border-collapse: collapse; width: 100%; font-size: 0.9em; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th { background: #f6f8fa; }
td.num { text-align: right; }
.nowrap { white-space: nowrap; }
td.summary { overflow-wrap: anywhere; }
td code { white-space: nowrap; }
.participant { font-weight: 600; }
ul.gates { list-style: none; padding-left: 0; }
ul.gates .box { font-size: 1.1em; }
ul.gates .checked .box { color: var(--ok); }
ul.gates .unchecked .box { color: var(--bad); }
.doc, article.deliverable { border: 1px solid var(--line); border-radius: 6px; padding: 4px 20px; margin-top: 12px; overflow-wrap: anywhere; }
/* Headings of rendered documents sit below the report's own. */
.doc h1 { font-size: 1.35em; margin-top: 0.6em; }
.doc h2 { font-size: 1.1em; border-bottom: none; margin-top: 1.2em; }
.doc h3 { font-size: 1em; }
.image-ref { color: var(--muted); font-style: italic; }
.verdict .error, .errors li { color: var(--bad); }
.verdict .warning { color: var(--warn); }
footer { margin-top: 3em; color: var(--muted); font-size: 0.85em; border-top: 1px solid var(--line); padding-top: 8px; }
@media print {
  @page { margin: 16mm 14mm; }
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2, h3 { break-after: avoid; }
  figure, tr, li, dl.facts { break-inside: avoid; }
  svg.phase-diagram { max-width: 140mm; }
  .doc, article.deliverable { break-inside: auto; border: none; padding: 0; }
  a { color: inherit; }
  a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 0.85em; color: var(--muted); }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

// plugins/humans/report.ts
var exports_report = {};
__export(exports_report, {
  runReport: () => runReport
});
async function runReport(ctx) {
  const snapshot = await loadSnapshot(ctx, ctx.folder());
  const html = renderReport(snapshot, ctx.api);
  const out = stringOption(ctx, "out") ?? "report.html";
  if (out === "-") {
    ctx.out(html);
    return { exitCode: 0 };
  }
  const path = ctx.host.resolvePath(out);
  await ctx.api.writeFileAtomic(ctx.host, path, html);
  const bytes = new TextEncoder().encode(html).length;
  if (!ctx.json)
    ctx.out(`report: ${path} (${bytes} bytes)`);
  return { exitCode: 0, json: { ok: true, exitCode: 0, path, bytes } };
}
function markdownRenderer() {
  const md = new MarkdownItCallable({ html: false, linkify: false, typographer: false });
  md.renderer.rules.image = (tokens, idx) => {
    const token = tokens[idx];
    return `<span class="image-ref">[image: ${escapeHtml(token.content)} — ${escapeHtml(token.attrGet("src") ?? "")}]</span>`;
  };
  const link = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx].attrSet("rel", "noopener noreferrer nofollow");
    return link(tokens, idx, options, env, self);
  };
  return md;
}
function renderReport(s, api) {
  const md = markdownRenderer();
  const render = (text) => text.trim() ? md.render(text) : '<p class="muted">(empty)</p>';
  const graph = phaseGraph(api);
  const path = { phases: s.timeline.map((t) => t.phase).filter((p) => p !== null), current: s.phase };
  const title = `ACP report: ${s.objective}`;
  const csp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="acp report">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
${header(s)}
<main>
<section id="phases"><h2>Phases</h2>
<p>Current phase: <strong class="current-phase">${escapeHtml(s.phase ?? "none")}</strong>${s.phaseSince ? ` since ${escapeHtml(s.phaseSince)}` : ""}; waiting for: ${escapeHtml(s.waitingFor.join(", ") || "nobody")}.</p>
<figure>${phaseDiagramSvg(graph, path)}<figcaption>Highlighted: the phases this collaboration went through and the moves it made (×n: more than once); the filled box is the current phase.</figcaption></figure>
</section>
${timeline(s)}
<section id="decisions"><h2>Decisions</h2><div class="doc">${render(s.documents.decisions)}</div></section>
${gates(s, (text) => md.renderInline(text))}
${deliverables(s, render)}
<section id="conclusion"><h2>Conclusion</h2><div class="doc">${render(s.documents.conclusion)}</div></section>
${verdict(s)}
</main>
<footer>Generated by <code>acp report</code> at ${escapeHtml(s.now)} from <code>${escapeHtml(s.folder)}</code>.</footer>
</body>
</html>
`;
}
function header(s) {
  const declared = s.outcome ? `<span class="badge outcome-${escapeHtml(s.outcome.status)}">${escapeHtml(s.outcome.status)}</span> ${escapeHtml(s.outcome.text)}` : "";
  const outcome = s.phase === "completed" ? declared || '<span class="muted">none declared</span>' : `<span class="muted">not concluded yet${declared ? "; conclusion.md draft:" : ""}</span> ${declared}`;
  const people = s.participants.map((p) => `<li><span class="participant">${escapeHtml(p.id)}</span>${p.id === s.owner ? ' <span class="muted">(owner)</span>' : ""}</li>`).join("");
  const first = s.timeline[0]?.event.at;
  const last = s.timeline.at(-1)?.event.at;
  return `<header id="summary">
<p class="kicker">Agent Collaboration Protocol — report</p>
<h1>${escapeHtml(s.objective)}</h1>
<dl class="facts">
<dt>Outcome</dt><dd id="outcome">${outcome}</dd>
<dt>Phase</dt><dd><span class="badge phase-${escapeHtml(s.phase ?? "none")}">${escapeHtml(s.phase ?? "none")}</span></dd>
<dt>Participants</dt><dd><ul class="inline">${people}</ul></dd>
<dt>Started</dt><dd>${escapeHtml(s.createdAt ?? first ?? "—")}</dd>
<dt>Last event</dt><dd>${escapeHtml(last ?? "—")} (${s.timeline.length} events)</dd>
<dt>Verdict</dt><dd>${verdictBadge(s)}</dd>
</dl>
</header>`;
}
function timeline(s) {
  const rows = s.timeline.map(({ event, phase }) => `<tr><td class="nowrap">${escapeHtml(event.at)}</td><td class="num">${escapeHtml(event.seq)}</td><td class="participant">${escapeHtml(event.from)}</td><td><code>${escapeHtml(event.event)}</code></td><td class="nowrap">${escapeHtml(phase ?? "none")}</td><td class="summary">${escapeHtml(event.summary)}${event.doc !== undefined ? ` <span class="muted">(${escapeHtml(event.doc)})</span>` : ""}</td></tr>`).join(`
`);
  const errors = s.logErrors.map((e) => `<li>${escapeHtml(e)}</li>`).join("");
  return `<section id="timeline"><h2>Timeline</h2>
<table><thead><tr><th>Time (UTC)</th><th>Seq</th><th>From</th><th>Event</th><th>Phase after</th><th>Summary</th></tr></thead>
<tbody>
${rows}
</tbody></table>${errors ? `<ul class="errors">${errors}</ul>` : ""}</section>`;
}
function gates(s, inline) {
  const item = (checked, text, extra = "") => `<li class="${checked ? "checked" : "unchecked"}"><span class="box" aria-label="${checked ? "checked" : "not checked"}">${checked ? "☑" : "☐"}</span> ${inline(text)}${extra}</li>`;
  const list = s.gates.map((g) => item(g.checked, g.text, ` <span class="muted">(${escapeHtml(g.source)})</span>`)).join("");
  const open = [
    ...s.readiness.blocking.map((t) => `<li><span class="badge bad">blocking</span> ${escapeHtml(t)}</li>`),
    ...s.readiness.unresolved.map((t) => `<li><span class="badge warn">unresolved</span> ${escapeHtml(t)}</li>`),
    ...s.readiness.deferredWithoutReason.map((t) => `<li><span class="badge warn">deferred without reason</span> ${escapeHtml(t)}</li>`)
  ].join("");
  return `<section id="gates"><h2>Gates</h2>
<p class="muted">Completion gates and “Ready to implement”, as checked in readiness.md.</p>
<ul class="gates">${list}${item(s.readiness.readyToImplement, "Ready to implement")}</ul>
${open ? `<h3>Open readiness items</h3><ul>${open}</ul>` : ""}</section>`;
}
function hashCheck(d) {
  if (d.problem)
    return `<span class="badge bad">unreadable</span> ${escapeHtml(d.problem)}`;
  if (!d.exists)
    return '<span class="badge bad">missing</span>';
  if (!d.frozen)
    return `<span class="badge warn">not frozen</span> current SHA-256 <code>${escapeHtml(d.sha256)}</code>`;
  const frozen = `frozen at seq ${escapeHtml(d.frozen.seq)} by ${escapeHtml(d.frozen.from)} with SHA-256 <code>${escapeHtml(d.frozen.sha256)}</code>`;
  if (d.matches)
    return `<span class="badge ok">hash matches</span> ${frozen}`;
  return `<span class="badge bad">changed since the freeze</span> ${frozen}; the file now hashes to <code>${escapeHtml(d.sha256)}</code>`;
}
function deliverables(s, render) {
  const p = s.primary;
  const primary = p ? `<dl class="facts"><dt>File</dt><dd><code>${escapeHtml(p.ref)}</code> (${escapeHtml(p.type)})</dd><dt>Status</dt><dd>${escapeHtml(p.status ?? "none")}</dd><dt>Hash check</dt><dd id="hash-check">${hashCheck(p)}</dd></dl>
<article class="doc deliverable">${p.text !== undefined ? render(p.text) : ""}</article>` : '<p class="muted">No primary deliverable is declared.</p>';
  const supporting = s.supporting.length ? `<h3>Supporting deliverables</h3><ul>${s.supporting.map((d) => `<li><code>${escapeHtml(d.ref)}</code> (${escapeHtml(d.type)}), status ${escapeHtml(d.status ?? "none")}: ${hashCheck(d)}</li>`).join("")}</ul>` : "";
  return `<section id="deliverable"><h2>Primary deliverable</h2>${primary}${supporting}</section>`;
}
function verdictBadge(s) {
  const { errors, warnings } = s.validation;
  if (errors.length)
    return `<span class="badge bad">validation failed</span> (${errors.length} error${errors.length === 1 ? "" : "s"})`;
  if (warnings.length)
    return '<span class="badge warn">passed with warnings</span>';
  return '<span class="badge ok">validation passed</span>';
}
function verdict(s) {
  const items = [...s.validation.errors.map((e) => `<li class="error">ERROR: ${escapeHtml(e)}</li>`), ...s.validation.warnings.map((w) => `<li class="warning">WARNING: ${escapeHtml(w)}</li>`)].join("");
  return `<section id="validation"><h2>Validation</h2><p>${verdictBadge(s)} <span class="muted">(what <code>acp validate</code> says now)</span></p>${items ? `<ul class="verdict">${items}</ul>` : ""}</section>`;
}
var init_report = __esm(() => {
  init_markdown_it();
  init_diagram();
  init_snapshot();
  init_text();
});

// plugins/humans/freeze.ts
var exports_freeze = {};
__export(exports_freeze, {
  runFreeze: () => runFreeze
});
import { join as join8 } from "node:path";
function isObject3(value) {
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
    const readinessPath = join8(folder, "readiness.md");
    const readinessBytes = await readIfExists2(host, readinessPath);
    const readinessText = readinessBytes ? rawText(ctx, readinessBytes, "readiness.md") : "";
    preflight(ctx, protocol, log.events, api.readReadiness(api.decodeText(readinessBytes ?? new Uint8Array, "readiness.md")), request.participant, target);
    const path = api.resolveDeliverablePath(folder, protocol, target.ref);
    const original = path && await api.readDeliverable(host, folder, protocol, target.ref);
    if (!path || !original)
      throw new api.AcpError("deliverable_frozen doc does not exist");
    const frozenText = withStatusFrozen(ctx, rawText(ctx, original, target.ref), target.ref);
    const sha256 = await api.sha256Hex(new TextEncoder().encode(frozenText));
    const protocolPath = join8(folder, "protocol.json");
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
  const declared = isObject3(protocol.deliverables) && Array.isArray(protocol.deliverables.supporting) ? protocol.deliverables.supporting : [];
  const index = declared.findIndex((s) => isObject3(s) && typeof s.file === "string" && api.deliverableRef(protocol, s.file) === doc);
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
function newline2(text) {
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
  const nl = newline2(text);
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
async function readIfExists2(host, path) {
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
var init_freeze = () => {};

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
      run: async (ctx) => (await Promise.resolve().then(() => (init_status(), exports_status))).runStatus(ctx)
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
      run: async (ctx) => (await Promise.resolve().then(() => (init_log(), exports_log))).runLog(ctx)
    },
    {
      name: "report",
      description: "Write a self-contained HTML report: phase diagram, timeline, decisions, gates, deliverable, verdict",
      options: {
        folder,
        out: { type: "string", description: "Output file (default report.html; - for stdout)", valueName: "file" },
        json: { type: "boolean", description: "Print {ok, path, bytes}" }
      },
      run: async (ctx) => (await Promise.resolve().then(() => (init_report(), exports_report))).runReport(ctx)
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
      run: async (ctx) => (await Promise.resolve().then(() => (init_freeze(), exports_freeze))).runFreeze(ctx)
    }
  ];
});

// plugins/core/process.ts
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
  return proc.stdout.isTTY === true && env("TERM") !== "dumb";
}
async function fdWriter(fd, stream) {
  const { writeSync } = await import("node:fs");
  let fallback;
  return (text) => {
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
}
async function runProcess(run) {
  const proc = globalThis.process;
  const env = envReader(proc);
  const controller = new AbortController;
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]]) {
    proc.on?.(signal, () => {
      controller.abort();
      setTimeout(() => proc.exit(code), SIGNAL_GRACE_MS).unref?.();
    });
  }
  const io = {
    argv: proc.argv.slice(2),
    stdout: await fdWriter(1, () => proc.stdout),
    stderr: await fdWriter(2, () => proc.stderr),
    color: colorAllowed(proc, env),
    runtime: await createProcessRuntime(),
    env,
    signal: controller.signal
  };
  proc.exitCode = await run(io, await createNodeHost({ syncFs: true }));
}
async function createProcessRuntime() {
  const g = globalThis;
  const deno = g.Deno;
  const name = deno ? "deno" : g.Bun ? "bun" : g.process ? "node" : "unknown";
  const run = async (command, options = {}) => {
    const { spawn } = await import("node:child_process");
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
  return mayRead ? { name, run, mayRead } : { name, run };
}
var SIGNAL_GRACE_MS = 3000;
var init_process = __esm(() => {
  init_node_host();
});

// acp.ts
import * as nodePath7 from "node:path";
// package.json
var package_default = {
  name: "acp-collab",
  version: "0.1.0",
  description: "Agent Collaboration Protocol (ACP schema v2): a CLI, an MCP server and a library for AI agents that take turns in a shared folder",
  license: "MIT",
  keywords: [
    "agents",
    "ai-agents",
    "collaboration",
    "mcp",
    "model-context-protocol",
    "protocol",
    "cli",
    "claude-code",
    "codex"
  ],
  type: "module",
  bin: {
    "acp-collab": "dist/acp.mjs",
    acp: "dist/acp.mjs"
  },
  files: [
    "dist/acp.mjs",
    "dist/acp-mcp.mjs",
    "dist/types/",
    "LICENSE",
    "README.md"
  ],
  types: "./dist/types/acp.d.ts",
  exports: {
    ".": {
      types: "./dist/types/acp.d.ts",
      default: "./dist/acp.mjs"
    },
    "./package.json": "./package.json"
  },
  engines: {
    node: ">=20.19"
  },
  scripts: {
    build: "node scripts/build.mjs",
    start: "npm run build --silent && node scripts/demo.mjs",
    test: "npm run build --silent && vitest run",
    "test:long": "ACP_LONG=1 npm test",
    typecheck: "tsc --noEmit",
    replay: "node scripts/replay.mjs",
    bench: "node scripts/build.mjs --compile && bun scripts/bench.ts",
    "bench:rpc": "node scripts/build.mjs && bun scripts/bench-rpc.ts",
    prepack: "node scripts/build.mjs --no-compile --types",
    "build:release": "node scripts/release.mjs"
  },
  devDependencies: {
    "@modelcontextprotocol/sdk": "^1.32.2",
    "@types/node": "^20.19.8",
    bun: "^1.4.5",
    "bun-types": "^1.4.5",
    cac: "^7.1.0",
    deno: "^2.9.6",
    "fast-check": "^4.11.0",
    "markdown-it": "^15.0.3",
    picocolors: "^1.1.1",
    skills: "^1.5.18",
    typescript: "^7.0.2",
    valibot: "^1.5.0",
    vite: "8.3.8",
    vitest: "4.1.12",
    "vscode-jsonrpc": "^10.0.0",
    yaml: "^2.9.1",
    zod: "^4.6.7"
  }
};

// plugins/core/pytext.ts
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
      else if (code < 32 || code === 127)
        out += `\\x${code.toString(16).padStart(2, "0")}`;
      else if (code >= 128 && code < 160 || code === 173 || code === 8232 || code === 8233 || code >= 55296 && code < 57344) {
        out += code <= 255 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
      } else
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
  return `${date.toISOString().slice(0, 19)}Z`;
}
async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
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

// acp.ts
init_util();
init_util();
init_node_host();

// plugins/core/memory-host.ts
init_util();
import * as nodePath3 from "node:path";
function createMemoryFileSystem(options = {}) {
  const now = options.now ?? (() => Date.now());
  const nodes = new Map;
  const watchers = new Map;
  const isRoot = (p) => nodePath3.dirname(p) === p;
  const norm = (p) => {
    if (!nodePath3.isAbsolute(p))
      throw fsError("EINVAL", `path must be absolute: ${p}`);
    const n = nodePath3.normalize(p);
    return isRoot(n) ? n : n.replace(/[\\/]+$/, "");
  };
  const get = (p) => isRoot(p) ? { kind: "dir", mtimeMs: 0 } : nodes.get(p);
  const real = (path, followLast = true, hops = 0) => {
    const p = norm(path);
    if (isRoot(p))
      return p;
    const parent = real(nodePath3.dirname(p), true, hops);
    const here = nodePath3.join(parent, nodePath3.basename(p));
    const node = nodes.get(here);
    if (node?.kind !== "link" || !followLast)
      return here;
    if (hops >= 40)
      throw fsError("ELOOP", path);
    return real(nodePath3.resolve(parent, node.target), true, hops + 1);
  };
  const changed = (p) => {
    for (const dir of new Set([p, nodePath3.dirname(p)])) {
      for (const fn of [...watchers.get(dir) ?? []]) {
        try {
          fn();
        } catch {}
      }
    }
  };
  const parentDir = (p, path) => {
    const parent = get(nodePath3.dirname(p));
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
    mkdirs(nodePath3.dirname(p));
    nodes.set(p, { kind: "dir", mtimeMs: now() });
    changed(p);
  };
  const inside = (key, dir) => key === dir || key.startsWith(dir.endsWith(nodePath3.sep) ? dir : dir + nodePath3.sep);
  for (const [path, text] of Object.entries(options.files ?? {})) {
    mkdirs(nodePath3.dirname(norm(path)));
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
      return [...nodes.keys()].filter((k) => k !== p && nodePath3.dirname(k) === p).map((k) => nodePath3.basename(k)).sort();
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
  return {
    fs: options.fs ?? createMemoryFileSystem({ files: options.files, now: () => now().getTime() }),
    now,
    pid: options.pid ?? 1,
    isProcessAlive: () => {
      return;
    },
    resolvePath: (path) => nodePath3.resolve(cwd, path)
  };
}

// acp.ts
init_node_host();

// plugins/core/errors.ts
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

// plugins/core/argv.ts
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
        throw new UsageError(`argument --${match.name}: ignored explicit argument '${match.value}'`);
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
  for (let i = 0;i < argv.length; i++) {
    const token = argv[i];
    const [name, inline] = token.startsWith("--") && token.includes("=") ? [token.slice(0, token.indexOf("=")), token.slice(token.indexOf("=") + 1)] : [token, undefined];
    const value = inline ?? argv[i + 1];
    if ((name === "--plugin" || name === "--folder") && value !== undefined) {
      if (name === "--plugin")
        plugins.push(value);
      else
        folder = value;
      if (inline === undefined)
        i++;
    }
  }
  return { plugins, config: !argv.includes("--no-config"), folder };
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

// acp.ts
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
var DELIVERABLE_EVENTS = new Set(["deliverable_drafted", "deliverable_revised", "deliverable_frozen"]);
var CONCLUSION_OUTCOMES = new Set(["proceed", "do_not_proceed", "defer", "blocked"]);
var SHA256_HEX = /^[0-9a-f]{64}$/;
var INIT_SUMMARY = "Initialized ACP schema v2 collaboration workspace.";
var VERSION = package_default.version;
var DEFAULT_WAIT_TIMEOUT_SECONDS = 1800;
var DEFAULT_WAIT_INTERVAL_SECONDS = 2;
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
  if (deliverables.mode === "external")
    return `external:${file}`;
  const dir = typeof deliverables.dir === "string" ? deliverables.dir : "deliverables";
  return `${dir}/${file}`;
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
  return {
    blocking,
    unresolved,
    deferredWithoutReason,
    readyToImplement: READY_RE.test(text),
    isGateChecked: (gate) => new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[[xX]\\]${S}*${escapeRegExp(gate)}${S}*${EOL}`, "u").test(text)
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
var OUTCOME_RE2 = new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[([A-Za-z_]+)\\]${S}+(${DOT}+)${EOL}`, "g");
var PLACEHOLDER_RE = /(?<![\p{L}\p{N}_])(?:tbd|todo|unresolved|待定)(?![\p{L}\p{N}_])/iu;
function conclusionErrors(text, ref) {
  const errors = [];
  const headings = new Set;
  for (const match of text.matchAll(CONCLUSION_HEADING_RE))
    headings.add(match[1]);
  const missing = CONCLUSION_SECTIONS.filter((section) => !headings.has(section));
  if (missing.length)
    errors.push(`conclusion.md is missing required sections: ${missing.join(", ")}`);
  const outcomes = [...text.matchAll(OUTCOME_RE2)].map((m) => m[1]).filter((status) => CONCLUSION_OUTCOMES.has(status));
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
async function scanEventLog(host, folder, onEvent) {
  let bytes;
  try {
    bytes = await readCapped(host, nodePath7.join(folder, "events.jsonl"), READ_LIMITS.log, "events.jsonl");
  } catch (error) {
    if (errorCode(error) === "ENOENT")
      return { errors: [], size: 0, tornTail: false };
    if (errorCode(error) === "EISDIR")
      throw new AcpError("events.jsonl is a directory, not the event log");
    if (errorCode(error) === "ELOOP")
      throw new AcpError("events.jsonl is a symbolic link loop, not the event log");
    throw error;
  }
  const errors = [];
  let before = 0;
  let tornTail = false;
  for (let start = 0;start < bytes.length; ) {
    let end = Math.min(bytes.length, start + LOG_CHUNK_BYTES);
    if (end < bytes.length) {
      const newline = bytes.indexOf(10, end - 1);
      end = newline === -1 ? bytes.length : newline + 1;
    }
    let text;
    try {
      text = decodeText(bytes.subarray(start, end), "events.jsonl");
    } catch (error) {
      throw logDecodeError(bytes, error);
    }
    const run = parseEventLines(text, before, end === bytes.length, onEvent, errors);
    before += run.lines;
    tornTail = run.tornTail;
    start = end;
  }
  return { errors, size: bytes.length, tornTail };
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
function isInt(value) {
  return typeof value === "number" && Number.isInteger(value);
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
  const v = context.valibot ?? await Promise.resolve().then(() => (init_dist(), exports_dist));
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
  rfc: () => Promise.resolve().then(() => (init_rfc(), exports_rfc)),
  "notify-turn": () => Promise.resolve().then(() => (init_notify_turn(), exports_notify_turn))
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
var MiB = 1048576;
var READ_LIMITS = { protocol: 16 * MiB, log: 512 * MiB, document: 64 * MiB, checkpoint: 256 * MiB };
var LOCK_MAX_BYTES = 65536;
async function readCapped(host, path, maxBytes, name) {
  try {
    return await host.fs.readFile(path, { maxBytes });
  } catch (error) {
    if (errorCode(error) === "EFTYPE")
      throw new AcpError(`${name} is not a regular file (a FIFO, device or socket); acp reads only regular files`, 2, "invalid_folder");
    if (errorCode(error) === "EFBIG")
      throw new AcpError(`${name} is larger than ${maxBytes / MiB >= 1 ? `${maxBytes / MiB} MiB` : `${maxBytes / 1024} KiB`}, more than it can legitimately hold; refusing to read it`, 2, "invalid_folder");
    throw error;
  }
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
  let value;
  try {
    value = JSON.parse(text.charCodeAt(0) === 65279 ? text.slice(1) : text);
  } catch (error) {
    throw new AcpError(`invalid protocol.json: ${jsonErrorDetail(error)}`, 2, "invalid_folder");
  }
  if (!isObject(value))
    throw new AcpError("invalid protocol.json: top level must be an object", 2, "invalid_folder");
  return value;
}
async function readTextIfExists(host, path, name) {
  try {
    return decodeText(await readCapped(host, path, READ_LIMITS.document, name), name);
  } catch (error) {
    if (["ENOENT", "EISDIR", "ENOTDIR", "ELOOP", "ENAMETOOLONG"].includes(errorCode(error) ?? ""))
      return;
    throw error;
  }
}
async function readReadinessFile(host, folder) {
  return readReadiness(await readTextIfExists(host, nodePath7.join(folder, "readiness.md"), "readiness.md") ?? "");
}
var LOCK_NAME = ".acp.lock";
var LOCK_BREAKER = ".acp.lock.break";
var LOCK_LEASE_MS = 1e4;
var LOCK_ABANDON_MS = LOCK_LEASE_MS;
var LOCK_MAX_HOLD_MS = 600000;
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
    raw = new TextDecoder().decode(await readCapped(host, path, LOCK_MAX_BYTES, nodePath7.basename(path)));
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
  const lock = await readLockInfo(host, nodePath7.join(folder, LOCK_NAME));
  const breaker = await readLockInfo(host, nodePath7.join(folder, LOCK_BREAKER)).catch(() => {
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
  const lockPath = nodePath7.join(folder, LOCK_NAME);
  if (options.held) {
    const current = await readLockInfo(host, lockPath);
    if (options.held.folder !== folder || current?.info?.token !== options.held.token)
      throw new AcpError(`the lock on ${folder} passed in is not held`);
    return fn(options.held);
  }
  const token = `${host.pid}-${Math.random().toString(36).slice(2)}`;
  const started = host.now().getTime();
  const deadline = started + (options.timeoutMs ?? 60000);
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
  const timer = setInterval(() => {
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
  }, LOCK_LEASE_MS / 4);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await pending;
    }
  };
}
async function breakLock(host, folder, staleRaw) {
  const lockPath = nodePath7.join(folder, LOCK_NAME);
  const breakerPath = nodePath7.join(folder, LOCK_BREAKER);
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
  const temp = `${nodePath7.join(nodePath7.dirname(path), `.${nodePath7.basename(path)}.${host.pid}.${Math.random().toString(36).slice(2)}.tmp`)}`;
  try {
    await host.fs.writeFile(temp, text, { exclusive: true });
    await host.fs.rename(temp, path);
  } catch (error) {
    await host.fs.remove(temp).catch(() => {
      return;
    });
    throw error;
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
  if (role === "supporting") {
    let refs = supportingRefsCache.get(protocol);
    if (!refs) {
      refs = supportingEntries(protocol).filter((s) => typeof s.file === "string").map((s) => deliverableRef(protocol, s.file));
      supportingRefsCache.set(protocol, refs);
    }
    if (!refs.includes(doc))
      return ["doc must reference a declared supporting deliverable"];
  }
  return [];
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
var CHECKPOINT_NAME = ".acp.checkpoint.json";
var CHECKPOINT_VERSION = 1;
function stateKeys() {
  return Object.keys(emptyState()).filter((key) => key !== "errors").sort();
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
  const gateSeqs = events.filter((e) => e.event === "decision_accepted").map((e) => pyStr(e.seq));
  return { count: events.length, maxSeq: nextSeq(events) - 1, seqs, gateSeqs, state: stripErrors(state) };
}
function stripErrors(state) {
  const { errors: _errors, ...rest } = state;
  return structuredClone(rest);
}
function checkpointState(facts, readiness) {
  const gates = decisionGateErrors(readiness);
  const errors = gates.length ? facts.gateSeqs.flatMap((seq) => gates.map((message) => `seq ${seq}: ${message}`)) : [];
  return { ...emptyState(), ...structuredClone(facts.state), errors };
}
async function loadCheckpoint(host, folder, participants) {
  let cp;
  try {
    cp = JSON.parse(new TextDecoder().decode(await readCapped(host, nodePath7.join(folder, CHECKPOINT_NAME), READ_LIMITS.checkpoint, CHECKPOINT_NAME)));
  } catch {
    return;
  }
  if (!isObject(cp) || cp.version !== CHECKPOINT_VERSION || !sameList(cp.participants, participants) || !sameList(cp.stateKeys, stateKeys()))
    return;
  const validShape = isObject(cp.log) && typeof cp.log.tail === "string" && isObject(cp.state) && isInt(cp.count) && isInt(cp.maxSeq) && Array.isArray(cp.seqs) && cp.seqs.every((r) => Array.isArray(r) && r.length === 2 && isInt(r[0]) && isInt(r[1])) && Array.isArray(cp.gateSeqs) && cp.gateSeqs.every((g) => typeof g === "string");
  if (!validShape)
    return;
  const tail = new TextEncoder().encode(cp.log.tail);
  const logPath = nodePath7.join(folder, "events.jsonl");
  let stat;
  let bytes;
  if (host.fs.readTail) {
    const read = await host.fs.readTail(logPath, tail.length);
    if (!read)
      return;
    ({ stat, bytes } = read);
  } else {
    stat = await host.fs.stat(logPath);
    if (!stat || stat.size !== cp.log.size)
      return;
    bytes = (await readCapped(host, logPath, READ_LIMITS.log, "events.jsonl")).subarray(-tail.length);
  }
  if (stat?.ino === undefined || stat.ctimeMs === undefined)
    return;
  if (stat.size !== cp.log.size || stat.mtimeMs !== cp.log.mtimeMs || stat.ctimeMs !== cp.log.ctimeMs || stat.ino !== cp.log.ino)
    return;
  if (bytes.length !== tail.length || bytes.some((b, i) => b !== tail[i]))
    return;
  return cp;
}
async function saveCheckpoint(host, folder, participants, facts, line, expectedSize) {
  const path = nodePath7.join(folder, CHECKPOINT_NAME);
  try {
    const stat = await host.fs.stat(nodePath7.join(folder, "events.jsonl"));
    if (!stat || stat.size !== expectedSize || stat.ino === undefined || stat.ctimeMs === undefined) {
      await host.fs.remove(path);
      return;
    }
    const cp = {
      version: CHECKPOINT_VERSION,
      participants,
      stateKeys: stateKeys(),
      ...facts,
      log: { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino, tail: line }
    };
    await host.fs.writeFile(path, `${JSON.stringify(cp)}
`);
  } catch {
    await host.fs.remove(path).catch(() => {
      return;
    });
  }
}
async function append(host, folder, request, registry, options = {}) {
  const protocol = await readProtocol(host, folder);
  if (!EVENT_NAMES.includes(request.event))
    throw new AcpError(`unknown event '${request.event}'`, 2, "unknown_event");
  const participants = participantIds(protocol);
  if (!participants.includes(request.participant))
    throw new AcpError(`participant '${request.participant}' is not listed in protocol.json`, 2, "unknown_participant");
  return withFolderLock(host, folder, async () => {
    const checkpoint = await loadCheckpoint(host, folder, participants);
    const log = checkpoint ? undefined : await readEventLog(host, folder);
    if (log?.errors.length)
      throw new AcpError(log.errors, 2, "invalid_log");
    const events = log?.events ?? [];
    const count = checkpoint ? checkpoint.count : events.length;
    const seqExists = (seq) => checkpoint ? isInt(seq) && hasSeq(checkpoint.seqs, seq) : events.some((e) => e.seq === seq);
    if (request.replyTo !== undefined && !seqExists(request.replyTo))
      throw new AcpError("reply_to must point to an existing event");
    if (count && request.replyTo === undefined)
      throw new AcpError("reply_to is required after initialized");
    if (DELIVERABLE_EVENTS.has(request.event)) {
      const docErrors = deliverableDocErrors(protocol, { doc: request.doc, role: request.role });
      if (docErrors.length)
        throw new AcpError(docErrors);
      if (request.event === "deliverable_frozen") {
        const errors = await freezeErrors(host, folder, protocol, request.doc, request.sha256);
        if (errors.length)
          throw new AcpError(errors);
      }
    }
    const seq = checkpoint ? checkpoint.maxSeq + 1 : nextSeq(events);
    if (!Number.isSafeInteger(seq))
      throw new AcpError(`events.jsonl holds a seq of 2^53 - 1 or more; acp cannot number the next event exactly (seq ${pyStr(seq - 1)})`, 2, "invalid_log");
    const event = {
      seq,
      from: request.participant,
      event: request.event,
      at: formatTimestamp(host.now()),
      summary: request.summary
    };
    if (request.doc !== undefined)
      event.doc = request.doc;
    if (request.replyTo !== undefined)
      event.reply_to = request.replyTo;
    if (request.role !== undefined)
      event.role = request.role;
    if (request.sha256 !== undefined)
      event.sha256 = request.sha256;
    const readiness = await readReadinessFile(host, folder);
    const before = checkpoint ? checkpointState(checkpoint, readiness) : replay(events, participants, readiness);
    const state = structuredClone(before);
    applyEvent(state, event, participants, readiness);
    if (state.errors.length)
      throw new AcpError(state.errors, 2, refusalCode(state.errors));
    if (["decision_accepted", "readiness_passed", "completed"].includes(request.event)) {
      const errors = readinessAppendErrors(readiness, request.event);
      if (errors.length)
        throw new AcpError(errors[0]);
    }
    if (request.event === "completed") {
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
    const line = formatEventLine(event);
    const written = (log?.tornTail ? `
` : "") + line;
    await host.fs.appendFile(nodePath7.join(folder, "events.jsonl"), written);
    const warnings = [];
    try {
      const current = await readProtocol(host, folder).catch(() => protocol);
      const updated = { ...current, currentPhase: state.phase, proposalOwner: state.proposalOwner, waitingFor: state.waitingFor, updatedAt: event.at };
      await writeFileAtomic(host, nodePath7.join(folder, "protocol.json"), formatProtocolJson(updated));
    } catch (error) {
      await host.fs.remove(nodePath7.join(folder, CHECKPOINT_NAME)).catch(() => {
        return;
      });
      const why = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
      warnings.push(`seq ${event.seq} ${event.event} is appended, but protocol.json could not be rewritten (${why}): its cached phase is stale until the next append or \`acp doctor --fix\``);
      return { event, state, previousPhase: before.phase, previousWaitingFor: before.waitingFor, warnings };
    }
    const facts = checkpoint ?? logFacts(events, before);
    const sizeBefore = checkpoint ? checkpoint.log.size : log.size;
    if (facts) {
      const next = {
        count: facts.count + 1,
        maxSeq: event.seq,
        seqs: addSeq(facts.seqs, event.seq),
        gateSeqs: event.event === "decision_accepted" ? [...facts.gateSeqs, pyStr(event.seq)] : facts.gateSeqs,
        state: stripErrors(state)
      };
      await saveCheckpoint(host, folder, participants, next, line, sizeBefore + new TextEncoder().encode(written).length);
    } else
      await host.fs.remove(nodePath7.join(folder, CHECKPOINT_NAME)).catch(() => {
        return;
      });
    return { event, state, previousPhase: before.phase, previousWaitingFor: before.waitingFor };
  }, { onWait: options.onLockWait, timeoutMs: options.lockTimeoutMs, held: options.lock }).then(async (result) => {
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
  });
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
  else if (frozenRequired && status !== "Frozen")
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
  #count = 0;
  #lastAt;
  #seenSeqs;
  #protocol;
  #participants;
  #readiness;
  constructor(protocol, participants, readiness, reviewText, keepEvents) {
    this.#protocol = protocol;
    this.#participants = participants;
    this.#readiness = readiness;
    this.headings = reviewHeadings(reviewText);
    this.headingSeqs = new Set(this.headings.map((h) => h.seq));
    this.events = keepEvents ? [] : undefined;
  }
  add(event) {
    const index = this.#count++;
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
      else if (!isInt(replyTo) || !(this.#seenSeqs ? this.#seenSeqs.has(replyTo) : replyTo >= 1 && replyTo <= index)) {
        errors.push(`seq ${seqText(event)}: reply_to must point to an earlier event`);
      }
    }
    const at = parseZonedTimestamp(event.at);
    if (at === undefined)
      errors.push(`seq ${seqText(event)}: at must be an ISO-8601 timestamp`);
    else {
      if (this.#lastAt !== undefined && at < this.#lastAt)
        errors.push(`seq ${seqText(event)}: at must not be earlier than the previous event`);
      this.#lastAt = at;
    }
    if (this.#seenSeqs)
      this.#seenSeqs.add(event.seq);
    else if (event.seq !== expected) {
      this.#seenSeqs = new Set([event.seq]);
      for (let seq = 1;seq <= index; seq++)
        this.#seenSeqs.add(seq);
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
  const finish = () => ({ ok: errors.length === 0, errors, warnings });
  let names;
  try {
    names = new Set(await host.fs.readDir(folder));
  } catch {
    names = new Set;
  }
  const fileErrors = [];
  for (const name of REQUIRED_FILES)
    if (!names.has(name))
      fileErrors.push(`missing ${name}`);
  for (const name of FORBIDDEN_FILES) {
    if (names.has(name))
      fileErrors.push(`${name} is not part of the protocol; remove it and use events.jsonl/readiness.md instead`);
  }
  let protocol;
  try {
    protocol = await readProtocol(host, folder);
  } catch (error) {
    if (!(error instanceof AcpError))
      throw error;
    errors.push(error.message, ...fileErrors);
    return finish();
  }
  errors.push(...fileErrors);
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
  const dirs = new Set;
  if (typeof protocol.repoRoot === "string" && !nodePath7.isAbsolute(protocol.repoRoot)) {
    const resolved = nodePath7.resolve(folder, protocol.repoRoot);
    if ((await host.fs.stat(resolved))?.isDirectory)
      dirs.add(resolved);
  }
  const declarationOk = checkDeliverablesDeclaration(protocol, folder, errors, host, dirs, registry);
  const ref = declarationOk || isObject(protocol.deliverables?.primary) ? primaryRef(protocol) : undefined;
  const reviewText = await readTextIfExists(host, nodePath7.join(folder, "review.md"), "review.md");
  const readinessText = await readTextIfExists(host, nodePath7.join(folder, "readiness.md"), "readiness.md") ?? "";
  const readiness = readReadiness(readinessText);
  const keepEvents = registry.hooks.has("validate");
  let pass = new LogPass(protocol, participants, readiness, reviewText ?? "", keepEvents);
  try {
    const log = await scanEventLog(host, folder, (event) => pass.add(event));
    errors.push(...log.errors);
  } catch (error) {
    if (!(error instanceof AcpError))
      throw error;
    errors.push(error.message);
    pass = new LogPass(protocol, participants, readiness, reviewText ?? "", keepEvents);
  }
  errors.push(...pass.shapeErrors);
  checkReviews(reviewText, pass, ref, errors);
  const { primaryFreezes, frozenSupporting } = pass;
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
  if (primaryFreezes > 1)
    errors.push("primary deliverable can be frozen only once");
  for (const entry of supportingEntries(protocol)) {
    if (typeof entry.file !== "string")
      continue;
    const sref = deliverableRef(protocol, entry.file);
    if (entry.frozen && !frozenSupporting.has(sref))
      errors.push(`supporting deliverable requires deliverable_frozen: ${sref}`);
    if (!entry.frozen && frozenSupporting.has(sref))
      errors.push(`supporting deliverable has freeze event but is not marked frozen: ${sref}`);
  }
  const state = pass.state;
  errors.push(...state.errors);
  const derivedPhase = state.phase ?? "None";
  if (protocol.currentPhase !== state.phase)
    errors.push(`protocol.json currentPhase is ${pyStr(protocol.currentPhase)}, expected ${derivedPhase}`);
  if (protocol.proposalOwner !== state.proposalOwner) {
    errors.push(`protocol.json proposalOwner is '${pyStr(protocol.proposalOwner)}', expected '${pyStr(state.proposalOwner)}'`);
  }
  const cachedWaiting = protocol.waitingFor;
  if (!Array.isArray(cachedWaiting) || cachedWaiting.length !== state.waitingFor.length || cachedWaiting.some((v, i) => v !== state.waitingFor[i])) {
    errors.push(`protocol.json waitingFor is ${pyRepr(cachedWaiting)}, expected ${pyRepr(state.waitingFor)}`);
  }
  const hasEvent = (name) => pass.eventNames.has(name);
  if (declarationOk) {
    const deliverables = protocol.deliverables;
    const primary = deliverables.primary;
    const frozenRequired = primaryFreezes > 0 || hasEvent("readiness_passed") || hasEvent("completed");
    const findings = { errors, warnings };
    await checkDeliverableContent(host, folder, protocol, registry, primary, ref, frozenRequired, true, findings);
    for (const entry of supportingEntries(protocol)) {
      const sref = deliverableRef(protocol, entry.file);
      await checkDeliverableContent(host, folder, protocol, registry, entry, sref, Boolean(entry.frozen), false, findings);
    }
    const refs = [ref, ...supportingEntries(protocol).map((s) => deliverableRef(protocol, s.file))];
    checkDecisions(await readTextIfExists(host, nodePath7.join(folder, "decisions.md"), "decisions.md"), refs, errors);
    const attachments = Array.isArray(deliverables.attachments) ? deliverables.attachments.filter(isObject) : [];
    for (const attachment of attachments) {
      const file = attachment.file;
      if (!await host.fs.stat(nodePath7.resolve(folder, file)))
        errors.push(`attachment missing: ${file}`);
    }
  }
  if (hasEvent("decision_accepted"))
    errors.push(...decisionGateErrors(readiness));
  const finished = hasEvent("readiness_passed") || hasEvent("completed");
  if (finished) {
    errors.push(...readinessGateErrors(readiness, "before readiness_passed or completed", true));
    if (primaryFreezes === 0 && !pass.anyPrimaryFreeze) {
      errors.push("readiness_passed requires primary deliverable_frozen");
    }
  }
  if (hasEvent("completed")) {
    const unchecked = completionGateTexts(protocol).filter((gate) => !readiness.isGateChecked(gate));
    if (unchecked.length)
      errors.push(`completion gates must be checked before completed: ${unchecked.join(", ")}`);
    errors.push(...conclusionErrors(await readTextIfExists(host, nodePath7.join(folder, "conclusion.md"), "conclusion.md") ?? "", ref));
  } else if (readiness.deferredWithoutReason.length) {
    warnings.push("deferred_nonblocking readiness items should include a reason");
  }
  if (registry.hooks.has("validate"))
    await registry.hooks.call("validate", { folder, files: documentFiles(host, folder, protocol), protocol, events: pass.events ?? [], errors, warnings });
  return finish();
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
  const ref = mode === "external" ? `external:${file}` : `${dir}/${file}`;
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
  const gateLines = protocol.completionGates.map((gate) => `- [ ] ${gate.text}`).join(`
`);
  const owner = participants[0];
  const files = new Map([
    ["README.md", readmeTemplate(protocol, ref)],
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

- Decision: the collaboration produces a ${definition.title} at \`${ref}\`.
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
    ],
    [deliverablePath, template]
  ]);
  return { protocol, files };
}
function readmeTemplate(protocol, ref) {
  const ids = protocol.participants.map((p) => typeof p === "string" ? p : p.id);
  return `# ACP collaboration

Objective: ${protocol.objective}

Participants: ${ids.join(", ")} (proposal owner: ${ids[0]}).

Primary deliverable: \`${ref}\`.

This folder follows the Agent Collaboration Protocol, schema v2. State lives in
\`protocol.json\`; \`events.jsonl\` is the append-only event log. Check whose turn it is
with \`acp next --folder . --participant <id>\`, append events with \`acp append\`, and
validate with \`acp validate --folder .\`.
`;
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
    throw new AcpError(`participant '${participant}' is not listed in protocol.json`, 2, "unknown_participant");
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
      if (isWaiting && proposal?.from !== participant)
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
    next: (ms) => pending || signal?.aborted ? Promise.resolve() : new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    }),
    close: () => {
      stopWatching();
      signal?.removeEventListener("abort", notify);
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
          throw new AcpError(`participant '${participant}' is not listed in protocol.json`, 2, "unknown_participant");
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
function libraryApi() {
  return {
    VERSION,
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
      io.stdout(`acp/${VERSION}
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
      builtIns: true
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
      io.stdout(formatHelp(registry, VERSION));
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
    io.stdout(formatHelp(registry, VERSION, spec));
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
    out(JSON.stringify(result.json));
  return result.exitCode;
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
    folder: () => folderOption(where.host, options.folder)
  };
  return runCommandChain(entry.chain, context);
}
async function runCommandChain(chain, context, index = chain.length - 1) {
  const spec = chain[index];
  const next = () => index > 0 ? runCommandChain(chain, context, index - 1) : Promise.resolve({ exitCode: 0 });
  const outcome = await spec.run({ ...context, next });
  return typeof outcome === "object" ? outcome : { exitCode: outcome ?? 0 };
}
function folderOption(host, value) {
  if (typeof value !== "string")
    throw new UsageError("the following arguments are required: --folder");
  if (value.includes("\x00"))
    throw new UsageError("argument --folder: a path cannot contain a NUL character");
  return host.resolvePath(value);
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
  await Promise.resolve().then(() => init_process());
  await runProcess((io, host) => runCli(io, host));
}
async function isEntryPoint() {
  const meta = import.meta;
  if (typeof meta.main === "boolean")
    return meta.main;
  const script = globalThis.process?.argv?.[1];
  if (!script || !import.meta.url.startsWith("file:"))
    return false;
  const { fileURLToPath } = await import("node:url");
  const { realpathSync } = await import("node:fs");
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}
if (await isEntryPoint())
  await main();
export {
  AcpAbortError,
  AcpAppendedError,
  AcpError,
  AcpPluginError,
  AcpTimeoutError,
  CONCLUSION_SECTIONS,
  DEFAULT_HOOK_TIMEOUT_MS,
  DEFAULT_WAIT_INTERVAL_SECONDS,
  DEFAULT_WAIT_TIMEOUT_SECONDS,
  EVENT_NAMES,
  FORBIDDEN_FILES,
  HOOK_NAMES,
  HookRunner,
  PHASES,
  REQUIRED_FILES,
  Registry,
  UsageError,
  VERSION,
  append,
  applyEvent,
  callType,
  comparePy,
  conclusionErrors,
  createMemoryFileSystem,
  createMemoryHost,
  createNodeHost,
  createRegistry,
  decisionGateErrors,
  decodeText,
  defaultGates,
  defaultTemplate,
  defineDeliverableType,
  definePlugin,
  deliverableRef,
  describeError,
  documentFiles,
  emptyState,
  followFolder,
  formatEventLine,
  formatNext,
  formatProtocolJson,
  formatTimestamp,
  fsError,
  init,
  inspectFolderLock,
  isUnsafePath,
  jsonErrorDetail,
  libraryApi,
  loadBuiltInTypes,
  markdown,
  nextAction,
  nextSeq,
  openCollaboration,
  parseArgv,
  parseEventLog,
  parsePyFloat,
  parsePyInt,
  parseZonedTimestamp,
  participantIds,
  planInit,
  pluginContext,
  primaryRef,
  pyRepr,
  pyStr,
  pyStrip,
  readCapped,
  readDeliverable,
  readEventLog,
  readProtocol,
  readReadiness,
  replay,
  resolveDeliverablePath,
  reviewHeadings,
  runCli,
  runCommand,
  scanEventLog,
  sha256Hex,
  sortedPy,
  validate,
  waitForTurn,
  withFolderLock,
  writeFileAtomic
};
