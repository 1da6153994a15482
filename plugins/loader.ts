/**
 * The plugin loader: finds `acp.config.yaml`, checks it, and imports plugin
 * files (`.ts`, `.mjs`, `.js`) or the bundled plugins (`acp:{name}`).
 *
 * acp.ts imports this module lazily, only when plugins are asked for. Like
 * every plugin module it imports nothing but types from acp.ts and gets the
 * library as an argument (see docs/architecture.md).
 *
 * Safety rule: code is never loaded from inside a collaboration folder. Anyone
 * who can write a shared folder could otherwise run code on the machine of
 * every participant who runs `acp` there. So a config file or plugin file is
 * refused when it lies inside the `--folder` being worked on, or inside any
 * directory holding a `protocol.json` (symlinks resolved first).
 * @module
 */
import type { AcpApi, AcpPlugin, DeliverableType, Host, Origin, PluginContext, PluginEntry, Registry, RegistryOptions, RuntimeFacts } from '../acp.ts';
import { isInside, realpathOfExistingAncestor } from './core/util.ts';

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
  const { host } = options;
  const path = await import('node:path');
  const fail = (message: string): never => {
    throw new api.AcpError(message);
  };
  const runtime: RuntimeFacts = options.runtime ?? { name: 'unknown' };
  const cwd = options.cwd ?? host.resolvePath('.');
  // A folder this process may not read (Deno without --allow-read for it) is compared as spelt.
  const given = options.folder === undefined ? undefined : path.resolve(cwd, options.folder);
  const folder = given === undefined ? undefined : await realpathOfExistingAncestor(host, given).catch(() => given);

  /** The collaboration folder `file` lies in, if any. */
  const collaborationOf = async (file: string): Promise<string | undefined> => {
    if (folder !== undefined && isInside(file, folder)) return folder;
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      const marker = path.join(dir, 'protocol.json');
      if (runtime.mayRead?.(marker) !== false && (await host.fs.stat(marker).catch(() => null))?.isFile) return dir;
      if (path.dirname(dir) === dir) return undefined;
    }
  };
  /** Refuse `file` if it, or the file it links to, lies in a collaboration folder. */
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

  const requests: Request[] = [];
  if (options.config) {
    const file = await findConfigFile(host, runtime, cwd, path);
    if (file !== undefined) {
      const real = await refuseInside(file, 'the config file');
      for (const entry of await readConfigFile(host, real, fail)) requests.push({ entry, base: path.dirname(real), via: file });
    }
  }
  for (const entry of options.plugins ?? []) requests.push({ entry, base: cwd, via: options.via ?? 'createRegistry' });

  for (const request of requests) {
    const { entry } = request;
    let source: string;
    let pluginOptions: Record<string, unknown> = {};
    let load: () => Promise<unknown>;
    if (typeof entry === 'object' && entry !== null && !('path' in entry && typeof entry.path === 'string')) {
      source = 'inline';
      load = async () => ({ default: entry });
    } else {
      const spec = typeof entry === 'string' ? entry : entry.path;
      if (typeof entry === 'object') pluginOptions = entry.options ?? {};
      if (spec.startsWith(BUNDLED_PREFIX)) {
        const name = spec.slice(BUNDLED_PREFIX.length);
        const loader = Object.hasOwn(bundled, name) ? bundled[name] : undefined;
        if (!loader) fail(`unknown bundled plugin '${spec}' (from ${request.via}; bundled: ${Object.keys(bundled).map((n) => BUNDLED_PREFIX + n).join(', ')})`);
        source = spec;
        load = loader!;
      } else {
        const file = path.resolve(request.base, spec);
        if (!EXTENSIONS.includes(path.extname(file))) fail(`plugin ${file} (from ${request.via}) must be a ${EXTENSIONS.join(', ')} file`);
        const stat = runtime.mayRead?.(file) === false ? null : await host.fs.stat(file).catch(() => null);
        if (!stat?.isFile) fail(`plugin file not found: ${file} (from ${request.via})${runtime.name === 'deno' ? '; under Deno, grant --allow-read to its folder' : ''}`);
        const real = await refuseInside(file, 'plugin');
        source = file;
        load = () => importFile(real, runtime, fail);
      }
    }
    await loadOne(registry, { source, via: request.via, options: pluginOptions, load, runtime, warn: options.warn }, api);
  }
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
  const { pathToFileURL } = await import('node:url');
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

/** The nearest `acp.config.yaml` in `cwd` or its ancestors (directories the runtime may not read are skipped). */
export async function findConfigFile(host: Host, runtime: RuntimeFacts, cwd: string, path: PathModule): Promise<string | undefined> {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const file = path.join(dir, CONFIG_FILE);
    if (runtime.mayRead?.(file) !== false && (await host.fs.stat(file).catch(() => null))?.isFile) return file;
    if (path.dirname(dir) === dir) return undefined;
  }
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
 * ```
 */
export async function readConfigFile(host: Host, file: string, fail: (message: string) => never): Promise<PluginEntry[]> {
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
  const Config = v.strictObject({ plugins: v.optional(v.nullable(v.array(Entry, 'must be a list'))), git: v.optional(v.nullable(Mapping)) }, unknownKey);
  if (typeof data !== 'object' || Array.isArray(data) || data === null) return fail(`${file}: the top level must be a mapping with a plugins: list`);
  const result = v.safeParse(Config, data);
  if (!result.success) {
    const issue = deepestIssue(result.issues[0]);
    const key = formatKey(issue.path);
    const message = issue.message.startsWith('unknown key') ? `unknown key (allowed: ${key.includes('[') ? 'path, options' : 'plugins, git'})` : issue.message;
    return fail(`${file}: ${key || '(top level)'}: ${message}`);
  }
  return (result.output.plugins ?? []).map((entry) => (typeof entry === 'string' ? entry.trim() : { path: entry.path.trim(), options: entry.options ?? {} }));
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
