/**
 * The plugin loader: finds `acp.config.yaml`, checks it, and imports plugin
 * files (`.ts`, `.mjs`, `.js`) or the bundled plugins (`acp:{name}`).
 *
 * acp.ts imports this module lazily, only when plugins are asked for. Like
 * every plugin module it imports nothing but types from runtime/types.ts and gets the
 * library as an argument (see docs/architecture.md).
 *
 * Safety rule: code is never loaded from inside a collaboration folder. Anyone
 * who can write a shared folder could otherwise run code on the machine of
 * every participant who runs `acp` there. So a config file or plugin file is
 * refused when it lies inside the `--folder` being worked on, or inside any
 * directory holding a `protocol.json` (symlinks resolved first).
 *
 * Trust rule (like git's `safe.directory`): a config or plugin file, and the
 * directory holding it, must be owned by the current user or root and not be
 * writable by group or others (a sticky directory such as /tmp excepted for
 * the directory), or another user could swap the code we run. The search for
 * `acp.config.yaml` stops at the repository root (`.git`) or the home
 * directory and skips collaboration folders and `acp serve`'s root.
 * `ACP_TRUSTED_CONFIG` (paths separated by the platform's delimiter) names
 * files or directories exempt from the ownership check, for a deliberate
 * shared setup.
 * @module
 */
import type { AcpApi, AcpPlugin, DeliverableType, Origin, PluginContext, PluginEntry, Registry, RegistryOptions, RuntimeFacts } from './types.ts';
import type { Host } from './host.ts';
import { builtinModule, isInside, realpathOfExistingAncestor } from './util.ts';

/** The config file name looked for in the working directory and its ancestors. */
export const CONFIG_FILE = 'acp.config.yaml';
const EXTENSIONS = ['.ts', '.mjs', '.js'];
const BUNDLED_PREFIX = 'acp:';

interface Request {
  entry: PluginEntry;
  /** Directory relative paths resolve against. */
  base: string;
  via: string;
}

/** Load the config file's plugins, then `options.plugins`, into `registry`. */
export async function loadPlugins(registry: Registry, options: RegistryOptions & { host: Host }, api: AcpApi, bundled: Record<string, () => Promise<unknown>>): Promise<void> {
  const path = await builtinModule('node:path', () => import('node:path'));
  const fail = (message: string): never => {
    throw new api.AcpError(message);
  };
  const scope: LoadScope = { host: options.host, path, runtime: options.runtime ?? { name: 'unknown' }, cwd: options.cwd ?? options.host.resolvePath('.'), fail };
  const guard = fileGuard(scope, options);
  const requests = await configRequests(registry, scope, options, guard);
  for (const entry of options.plugins ?? []) requests.push({ entry, base: scope.cwd, via: options.via ?? 'createRegistry' });
  for (const request of requests) {
    const { source, pluginOptions, load } = await resolveRequest(request, scope, guard, bundled);
    await loadOne(registry, { source, via: request.via, options: pluginOptions, load, runtime: scope.runtime, warn: options.warn }, api);
  }
}

/** What judging and loading a plugin file takes, the same for every file of one run. */
interface LoadScope {
  host: Host;
  path: PathModule;
  runtime: RuntimeFacts;
  /** The directory relative paths of the call resolve against. */
  cwd: string;
  fail(message: string): never;
}

/** The safety and trust rules of this module's header, as checks of one file. */
interface FileGuard {
  /** Refuse `file` if it, or the file it links to, lies in a collaboration folder; else its real path. */
  refuseInside(file: string, what: string): Promise<string>;
  /** Refuse a file (or its directory) another user could have written. */
  checkOwner(file: string, real: string, what: string): Promise<void>;
}

/** The guard of one run: `--folder` (`options.folder`) and the `ACP_TRUSTED_CONFIG` exemptions fixed once. */
function fileGuard(scope: LoadScope, options: RegistryOptions): FileGuard {
  const { host, path, runtime, cwd, fail } = scope;
  const given = options.folder === undefined ? undefined : path.resolve(cwd, options.folder);
  // Resolved once a file is to be judged (most runs find none). A folder this process may not read (Deno without --allow-read for it) is compared as spelt.
  let folder: Promise<string | undefined> | undefined;
  const realFolder = (): Promise<string | undefined> => (folder ??= given === undefined ? Promise.resolve(undefined) : realpathOfExistingAncestor(host, given).catch(() => given));

  /** The collaboration folder `file` lies in, if any. */
  const collaborationOf = async (file: string): Promise<string | undefined> => {
    const real = await realFolder();
    if (real !== undefined && isInside(file, real)) return real;
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      const marker = path.join(dir, 'protocol.json');
      if (runtime.mayRead?.(marker) !== false && (await host.fs.stat(marker).catch(() => null))?.isFile) return dir;
      if (path.dirname(dir) === dir) return undefined;
    }
  };
  const refuseInside = async (file: string, what: string): Promise<string> => {
    const real = await host.fs.realpath(file);
    const inside = (await collaborationOf(file)) ?? (await collaborationOf(real));
    if (inside === undefined) return real;
    return fail(
      `refusing to load ${what} ${file}: it is inside the collaboration folder ${inside}. acp never runs code from a collaboration ` +
        'folder, because anyone who can write that shared folder would gain code execution on every participant; keep plugins and ' +
        `${CONFIG_FILE} outside it (e.g. in the repository or your home directory)`,
    );
  };
  const trusted = (options.env?.('ACP_TRUSTED_CONFIG') ?? '').split(path.delimiter).filter((p) => p !== '').map((p) => path.resolve(cwd, p));
  const checkOwner = (file: string, real: string, what: string) => refuseUntrusted(host, runtime, { file, real, what, trusted, fail }, path);
  return { refuseInside, checkOwner };
}

/** The plugins the config file lists (with `options.config`), its sections kept in `registry.config`. */
async function configRequests(registry: Registry, scope: LoadScope, options: RegistryOptions, guard: FileGuard): Promise<Request[]> {
  const { host, path, runtime, cwd, fail } = scope;
  const requests: Request[] = [];
  if (!options.config) return requests;
  // Not the folder holding `--folder`: in the usual layout that is the repository, and skipping it would drop the team's plugins silently.
  const holding = (options.collaborationRoots ?? []).map((dir) => path.resolve(cwd, dir));
  const home = options.env?.('HOME');
  const file = await findConfigFile(host, runtime, cwd, path, { home: home ? path.resolve(home) : undefined, skip: holding, fail });
  if (file === undefined) return requests;
  const real = await guard.refuseInside(file, 'the config file');
  await guard.checkOwner(file, real, 'the config file');
  const { entries, sections } = await readConfigFile(host, real, fail);
  registry.config = { file, sections };
  for (const entry of entries) requests.push({ entry, base: path.dirname(real), via: file });
  return requests;
}

/** Where one request's plugin comes from and how to import it: inline, bundled (`acp:{name}`), or a file that passes the guard. */
async function resolveRequest(request: Request, scope: LoadScope, guard: FileGuard, bundled: Record<string, () => Promise<unknown>>): Promise<{ source: string; pluginOptions: Record<string, unknown>; load: () => Promise<unknown> }> {
  const { host, path, runtime, fail } = scope;
  const { entry } = request;
  if (typeof entry === 'object' && entry !== null && !('path' in entry && typeof entry.path === 'string')) {
    return { source: 'inline', pluginOptions: {}, load: async () => ({ default: entry }) };
  }
  const spec = typeof entry === 'string' ? entry : entry.path;
  const pluginOptions = typeof entry === 'object' ? (entry.options ?? {}) : {};
  if (spec.startsWith(BUNDLED_PREFIX)) {
    const name = spec.slice(BUNDLED_PREFIX.length);
    const loader = Object.hasOwn(bundled, name) ? bundled[name] : undefined;
    if (!loader) fail(`unknown bundled plugin '${spec}' (from ${request.via}; bundled: ${Object.keys(bundled).map((n) => BUNDLED_PREFIX + n).join(', ')})`);
    return { source: spec, pluginOptions, load: loader! };
  }
  const file = path.resolve(request.base, spec);
  if (!EXTENSIONS.includes(path.extname(file))) fail(`plugin ${file} (from ${request.via}) must be a ${EXTENSIONS.join(', ')} file`);
  const stat = runtime.mayRead?.(file) === false ? null : await host.fs.stat(file).catch(() => null);
  if (!stat?.isFile) fail(`plugin file not found: ${file} (from ${request.via})${runtime.name === 'deno' ? '; under Deno, grant --allow-read to its folder' : ''}`);
  const real = await guard.refuseInside(file, 'plugin');
  await guard.checkOwner(file, real, 'plugin');
  return { source: file, pluginOptions, load: () => importFile(real, runtime, fail) };
}

async function loadOne(
  registry: Registry,
  spec: { source: string; via: string; options: Record<string, unknown>; load(): Promise<unknown>; runtime: RuntimeFacts; warn?(message: string): void },
  api: AcpApi,
): Promise<void> {
  const fail = (message: string): never => {
    throw new api.AcpError(message);
  };
  const module = (await spec.load()) as { default?: unknown };
  let label = spec.source;
  const valibot = await import('valibot');
  const context = api.pluginContext(spec.options, spec.runtime, { source: spec.source, warn: (message) => spec.warn?.(`plugin ${label}: ${message}`), valibot });
  let value = module.default;
  if (value === undefined) fail(`plugin ${spec.source} has no default export (export default a plugin, a deliverable type, or a function (context) => plugin)`);
  if (typeof value === 'function') {
    try {
      value = await (value as (context: PluginContext) => unknown)(context);
    } catch (error) {
      if (error instanceof api.AcpError) throw error;
      throw new api.AcpPluginError(spec.source, 'its default export function', error);
    }
  }
  let plugin: AcpPlugin;
  if (isDeliverableType(value)) plugin = { name: value.type, deliverableTypes: [value] };
  else if (isPlugin(value)) plugin = value;
  else {
    return fail(
      `plugin ${spec.source}: the default export must be a plugin ({ name, hooks?, deliverableTypes? }), a deliverable type ` +
        `({ type, title, sections() }) or a function (context) => one of these; got ${describe(value)}`,
    );
  }
  label = `'${plugin.name}'`;
  const origin: Origin = { kind: 'plugin', source: spec.source, via: spec.via };
  await registry.addPlugin(plugin, origin, context);
}

function isDeliverableType(value: unknown): value is DeliverableType {
  return typeof value === 'object' && value !== null && typeof (value as DeliverableType).type === 'string' && typeof (value as DeliverableType).sections === 'function';
}

function isPlugin(value: unknown): value is AcpPlugin {
  return typeof value === 'object' && value !== null && typeof (value as AcpPlugin).name === 'string';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).join(', ') || '(none)'}`;
  return typeof value;
}

async function importFile(file: string, runtime: RuntimeFacts, fail: (message: string) => never): Promise<unknown> {
  const { pathToFileURL } = await builtinModule('node:url', () => import('node:url'));
  try {
    return await import(pathToFileURL(file).href);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION' && file.endsWith('.ts')) {
      return fail(
        `cannot load plugin ${file}: this Node.js cannot import TypeScript (Node >= 22.18 strips types natively). ` +
          'Write the plugin as .mjs, or run acp with bun, deno or the compiled binary',
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    const hint = runtime.name === 'deno' && /Requires read access|NotCapable|PermissionDenied/.test(message) ? ' (under Deno, grant --allow-read to the plugin folder)' : '';
    return fail(`cannot load plugin ${file}: ${message.split('\n')[0]}${hint}`);
  }
}

type PathModule = typeof import('node:path');

/** Where {@link findConfigFile} stops and what it skips. */
export interface ConfigSearch {
  /** The home directory: the search ends there. */
  home?: string;
  /** Directories never looked in (`acp serve`'s root, whose sub-folders other agents create). */
  skip?: string[];
  fail(message: string): never;
}

/**
 * The nearest `acp.config.yaml` in `cwd` or its ancestors, up to the
 * repository root (a directory with `.git`) or the home directory, whichever
 * comes first. Collaboration folders (a `protocol.json` or `events.jsonl`)
 * and `acp serve`'s root (`search.skip`) are skipped: other agents write
 * there. A candidate the runtime may not read (Deno without
 * `--allow-read` for it) is an error, since a team's veto plugin must never
 * be bypassed silently.
 */
export async function findConfigFile(host: Host, runtime: RuntimeFacts, cwd: string, path: PathModule, search: ConfigSearch): Promise<string | undefined> {
  const exists = async (file: string): Promise<boolean> => (await host.fs.stat(file).catch(() => null)) !== null;
  const skip = new Set(search.skip ?? []);
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const file = path.join(dir, CONFIG_FILE);
    if (runtime.mayRead?.(file) === false) {
      search.fail(`cannot look for ${file}: this runtime may not read it. A config there could hold plugins your team relies on; ` + `grant read access to it (Deno: --allow-read=${file}) or pass --no-config`);
    }
    const markers = await Promise.all(['protocol.json', 'events.jsonl'].map((name) => runtime.mayRead?.(path.join(dir, name)) !== false && exists(path.join(dir, name))));
    if (!markers.some(Boolean) && !skip.has(dir)) {
      const stat = await host.fs.stat(file).catch((error: unknown) => search.fail(`cannot read ${file}: ${(error as Error).message}`));
      if (stat !== null && !stat.isFile) search.fail(`${file} is not a regular file`);
      if (stat?.isFile) return file;
    }
    const isRepoRoot = runtime.mayRead?.(path.join(dir, '.git')) !== false && (await exists(path.join(dir, '.git')));
    if (isRepoRoot || dir === search.home || path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Refuse a config or plugin file another user could have written: the file
 * and its directory must be owned by this user or root and not be writable
 * by group or others (a sticky directory excepted). Files at or under an
 * `ACP_TRUSTED_CONFIG` entry are exempt. Hosts that know no owners (the
 * in-memory host) have nothing to check.
 */
async function refuseUntrusted(
  host: Host,
  runtime: RuntimeFacts,
  target: { file: string; real: string; what: string; trusted: string[]; fail(message: string): never },
  path: PathModule,
): Promise<void> {
  const { file, real, what, trusted, fail } = target;
  if (trusted.some((entry) => isInside(file, entry) || isInside(real, entry))) return;
  const hint = `; if this shared setup is deliberate, set ACP_TRUSTED_CONFIG=${real}`;
  for (const [subject, isDirectory] of [[real, false], [path.dirname(real), true]] as const) {
    const stat = await host.fs.stat(subject).catch(() => null);
    if (stat?.uid === undefined || stat.mode === undefined) continue;
    const named = subject === real ? `${what} ${file}` : `${what} ${file}: its directory ${subject}`;
    if (stat.uid !== 0 && stat.uid !== runtime.uid) {
      const owner = await userName(host, runtime, stat.uid);
      const me = runtime.uid === undefined ? 'the current user is unknown (Deno: grant --allow-sys=uid)' : `you are uid ${runtime.uid}`;
      fail(`refusing to load ${named} is owned by ${owner}, and ${me}: another user's file could run code as you${hint}`);
    }
    const sticky = isDirectory && (stat.mode & 0o1000) !== 0;
    if ((stat.mode & 0o022) !== 0 && !sticky) {
      fail(`refusing to load ${named} is writable by ${stat.mode & 0o002 ? 'everyone' : 'its group'} (mode ${(stat.mode & 0o777).toString(8)}): another user could change the code run as you${hint}`);
    }
  }
}

/** `uid N (name)` from /etc/passwd when readable, else `uid N`. */
async function userName(host: Host, runtime: RuntimeFacts, uid: number): Promise<string> {
  const passwd = '/etc/passwd';
  if (runtime.mayRead?.(passwd) === false) return `uid ${uid}`;
  const text = await host.fs.readFile(passwd).then((bytes) => new TextDecoder().decode(bytes), () => '');
  const name = text.split('\n').map((line) => line.split(':')).find((fields) => fields[2] === String(uid))?.[0];
  return name ? `uid ${uid} (${name})` : `uid ${uid}`;
}

/**
 * Read and check a config file. Accepted shape:
 *
 * ```yaml
 * plugins:
 *   - ./plugins/rfc.ts            # a path (relative to this file) or acp:{name}
 *   - path: acp:notify-turn       # or a path with options for the plugin
 *     options: { participant: bob, command: [notify-send, "ACP: your turn"] }
 * git:                            # optional: drive folders through git (plugin git, docs/git.md);
 *   remote: origin                # its keys are checked by that plugin when it runs
 * strict: true                    # optional: every append is strict (docs/agents.md); false turns it off for the servers too
 * ```
 */
export async function readConfigFile(host: Host, file: string, fail: (message: string) => never): Promise<{ entries: PluginEntry[]; sections: Record<string, unknown> }> {
  const [YAML, v] = await Promise.all([import('yaml'), import('valibot')]);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await host.fs.readFile(file));
  } catch (error) {
    return fail(`${file}: cannot read: ${error instanceof TypeError ? 'not valid UTF-8' : (error as Error).message}`);
  }
  const document = YAML.parseDocument(text);
  const yamlError = document.errors[0];
  if (yamlError) {
    const at = yamlError.linePos?.[0];
    return fail(`${file}${at ? `:${at.line}:${at.col}` : ''}: invalid YAML: ${yamlError.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  const data: unknown = document.toJS() ?? {};
  const unknownKey = 'unknown key';
  const Path = v.pipe(v.string('must be a path (a string)'), v.check((s) => s.trim() !== '', 'must not be blank'));
  const Mapping = v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'must be a mapping (key: value)');
  const Entry = v.union(
    [Path, v.strictObject({ path: Path, options: v.optional(Mapping) }, unknownKey)],
    'must be a plugin path (a string) or a mapping { path, options }',
  );
  const Config = v.strictObject(
    { plugins: v.optional(v.nullable(v.array(Entry, 'must be a list'))), git: v.optional(v.nullable(Mapping)), strict: v.optional(v.boolean('must be true or false')) },
    unknownKey,
  );
  if (typeof data !== 'object' || Array.isArray(data) || data === null) return fail(`${file}: the top level must be a mapping with a plugins: list`);
  const result = v.safeParse(Config, data);
  if (!result.success) {
    const issue = deepestIssue(result.issues[0]);
    const key = formatKey(issue.path);
    const message = issue.message.startsWith('unknown key') ? `unknown key (allowed: ${key.includes('[') ? 'path, options' : 'plugins, git, strict'})` : issue.message;
    return fail(`${file}: ${key || '(top level)'}: ${message}`);
  }
  const entries = (result.output.plugins ?? []).map((entry) => (typeof entry === 'string' ? entry.trim() : { path: entry.path.trim(), options: entry.options ?? {} }));
  const { plugins: _plugins, ...sections } = data as Record<string, unknown>;
  return { entries, sections };
}

interface IssueLike {
  message: string;
  path?: { key: unknown }[];
  issues?: IssueLike[];
}

/**
 * For a union, report the branch that got furthest (e.g. the bad key of a
 * `{ path, options }` entry). Sub-issue paths are relative to the union.
 */
function deepestIssue(issue: IssueLike): IssueLike {
  const deeper = (issue.issues ?? []).filter((sub) => (sub.path?.length ?? 0) > 0);
  if (!deeper.length) return issue;
  const best = deeper.reduce((a, b) => ((b.path?.length ?? 0) > (a.path?.length ?? 0) ? b : a));
  return deepestIssue({ ...best, path: [...(issue.path ?? []), ...(best.path ?? [])] });
}

function formatKey(path: { key: unknown }[] | undefined): string {
  return (path ?? []).map(({ key }, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
}
