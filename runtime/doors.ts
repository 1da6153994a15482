/**
 * The doors besides the CLI — the MCP tools, the JSON-RPC actions, the
 * library's request objects — read from the one table: each command's
 * option data ({@link CommandOptionSpec}). What a door calls an option,
 * whether it takes it, how its arguments are checked (one function, the
 * CLI's words) and the JSON Schema MCP lists are all derived here, so a
 * new option reaches every door without a door's code changing.
 *
 * The one rule of a JSON value ({@link optionsFromDoor}): a string option
 * takes a string; an `int` or `seconds` option a number, or a string read
 * as the command line reads its text (Python's `int()` / `float()`: `"3"`,
 * `"inf"`), with argparse's words for one it cannot read; a repeatable
 * option a list; a flag `true` or `false`; `null` is no value.
 * @module
 */
import { checkOptionValues } from './argv.ts';
import { UsageError } from './errors.ts';
import { strictSetting } from './strict.ts';
import type { CommandOptionSpec, CommandSpec, Door, JsonObjectSchema, JsonSchemaProperty, OptionValues, Registry, ServerDecisions } from './types.ts';

/** `reply-to` → `replyTo`. */
function camelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * What `door` calls option `name`, or `undefined` where it does not take
 * it: `--json` never (a door answers JSON anyway), an option whose `doors`
 * is `false` (the CLI's only) or says so for this door.
 */
export function doorName(name: string, option: CommandOptionSpec, door: Door): string | undefined {
  if (name === 'json' || option.doors === false) return undefined;
  const doors = option.doors ?? {};
  if (door === 'mcp') return doors.mcp === false ? undefined : (doors.mcp?.name ?? name.replaceAll('-', '_'));
  if (door === 'library') return doors.library === false ? undefined : (doors.library ?? camelCase(name));
  return doors.rpc === false ? undefined : camelCase(name);
}

/** The options `door` takes, by the name it gives them: `[option name, its spec]`. */
export function doorOptions(options: Readonly<Record<string, CommandOptionSpec>> | undefined, door: Door): ReadonlyMap<string, [string, CommandOptionSpec]> {
  if (options === undefined) return new Map();
  // Option tables are data, made once: their door tables too (every append asks for append's).
  let byDoor = doorTables.get(options);
  if (!byDoor) doorTables.set(options, (byDoor = new Map()));
  const known = byDoor.get(door);
  if (known) return known;
  const table = new Map<string, [string, CommandOptionSpec]>();
  for (const [name, option] of Object.entries(options)) {
    const key = doorName(name, option, door);
    if (key !== undefined) table.set(key, [name, option]);
  }
  byDoor.set(door, table);
  return table;
}

const doorTables = new WeakMap<object, Map<Door, ReadonlyMap<string, [string, CommandOptionSpec]>>>();

/**
 * The one check of a door's arguments: `args` (JSON values, named as
 * `door` names them) become the option values `run` gets, keyed by option
 * name, or a {@link UsageError} in the CLI's words (`argument --reply-to:
 * invalid int value: 'one'`, `the following arguments are required:
 * --summary`, `unrecognized arguments: colour`) — the same words at every
 * door. `decided` are values the door sets itself (a server's folder, its
 * strictness), checked with the rest. JSON-RPC also takes the CLI's own
 * spelling (`reply-to`).
 */
export function optionsFromDoor(options: Readonly<Record<string, CommandOptionSpec>> | undefined, args: Readonly<Record<string, unknown>>, door: Door, decided: OptionValues = {}): OptionValues {
  const table = doorOptions(options, door);
  const values: OptionValues = {};
  for (const [key, value] of Object.entries(args)) {
    const entry = table.get(key) ?? (door === 'rpc' ? [...table.values()].find(([name]) => name === key) : undefined);
    if (!entry) throw new UsageError(`unrecognized arguments: ${key}${spellingHint(key, table)}`);
    if (value !== null && value !== undefined) values[entry[0]] = value as OptionValues[string];
  }
  if (door === 'mcp') {
    for (const [name, option] of table.values()) {
      const mcp = option.doors ? option.doors.mcp : undefined;
      if (values[name] === undefined && mcp && mcp.default !== undefined) values[name] = mcp.default;
    }
  }
  return checkOptionValues({ options }, { ...values, ...decided });
}

/** ` (did you mean primaryType?)` where `key` is how another door (or the CLI) names an option this door calls otherwise. */
function spellingHint(key: string, table: ReadonlyMap<string, [string, CommandOptionSpec]>): string {
  const folded = key.replace(/[-_]/g, '').toLowerCase();
  for (const [doorKey, [name, option]] of table) {
    const spellings = [name, camelCase(name), name.replaceAll('-', '_'), ...(['mcp', 'rpc', 'library'] as const).map((door) => doorName(name, option, door) ?? name)];
    if (spellings.some((spelling) => spelling.replace(/[-_]/g, '').toLowerCase() === folded)) return ` (did you mean ${doorKey}?)`;
  }
  return '';
}

/**
 * A command's options for a call to a server (the MCP tools, the JSON-RPC
 * actions): the client's `args`, checked by {@link optionsFromDoor}, and
 * what the server decides itself — the folder, the store it was started
 * with (a store's flag is the CLI's only), and strictness: a `strict`
 * option the door does not take is on unless acp.config.yaml says
 * `strict: false` (a server's callers are agents; a call cannot turn it off).
 */
export function serverOptions(registry: Registry, spec: CommandSpec, args: Readonly<Record<string, unknown>>, door: 'mcp' | 'rpc', given: ServerDecisions = {}): OptionValues {
  const decided: OptionValues = {};
  if (given.folder !== undefined) decided.folder = given.folder;
  if (given.json) decided.json = true;
  const flags = new Set(registry.stores.map((store) => store.flag?.name));
  if (spec.store) for (const [name, value] of Object.entries(given.storeFlags ?? {})) if (flags.has(name)) decided[name] = value as OptionValues[string];
  const strict = spec.options?.strict;
  if (strict && doorName('strict', strict, door) === undefined) decided.strict = strictSetting(registry, true);
  return optionsFromDoor(spec.options, args, door, decided);
}

/**
 * A library request checked as every door checks its arguments: the keys
 * of `request` are the library's ({@link doorName}), its values are
 * returned as `run` would get them (`replyTo: "3"` read as 3), under the
 * same keys; a key the table does not know is refused by name.
 */
export function checkedRequest<R extends object>(options: Readonly<Record<string, CommandOptionSpec>>, request: R, decided: OptionValues, extra: readonly string[] = []): R {
  const own = Object.fromEntries(Object.entries(request).filter(([key]) => !extra.includes(key)));
  const values = optionsFromDoor(options, own, 'library', decided);
  const checked: Record<string, unknown> = Object.fromEntries(Object.entries(request).filter(([key]) => extra.includes(key)));
  for (const [key, [name]] of doorOptions(options, 'library')) if (values[name] !== undefined) checked[key] = values[name];
  return checked as R;
}

/**
 * The JSON Schema of the options `door` takes (MCP's inputSchema): each
 * option's type, help text, choices, MCP default and whether it is required.
 * It describes what {@link optionsFromDoor} accepts (which also reads a
 * number from a string, as the command line does).
 */
export function doorSchema(options: Readonly<Record<string, CommandOptionSpec>> | undefined, door: Door): JsonObjectSchema {
  const properties: Record<string, JsonSchemaProperty> = {};
  const required: string[] = [];
  for (const [key, [, option]] of doorOptions(options, door)) {
    const type = option.type === 'boolean' ? 'boolean' : option.type === 'int' ? 'integer' : option.type === 'seconds' ? 'number' : 'string';
    const one: JsonSchemaProperty = { type, ...(option.choices ? { enum: option.choices } : {}), ...(option.type === 'seconds' ? { minimum: 0 } : {}) };
    const mcp = door === 'mcp' && option.doors ? option.doors.mcp : undefined;
    const value: JsonSchemaProperty = option.multiple ? { type: 'array', items: one } : one;
    properties[key] = { ...value, description: option.description, ...(mcp && mcp.default !== undefined ? { default: mcp.default } : {}) };
    if (option.required) required.push(key);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}
