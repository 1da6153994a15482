/**
 * The one command-line parser: Python argparse's rules (spec §8b) applied to
 * the command data (`CommandSpec.options`), `--help` generated from the same
 * data, and the check that typed option values (RPC, embedders) obey it.
 * acp.ts's CLI edge uses it; it imports only types from runtime/types.ts.
 * @module
 */
import { UsageError } from './errors.ts';
import { isPySpaceCode, pyRepr, unicodeDigitValue } from './pytext.ts';
import type { AcpPlugin, CommandOptionSpec, CommandSpec, OptionValues, ParsedArgv, Registry } from './types.ts';
export type { ParsedArgv } from './types.ts';

/** Options every command accepts. */
export const GLOBAL_OPTIONS: Record<string, CommandOptionSpec> = {
  plugin: { type: 'string', multiple: true, valueName: 'path', description: 'Load a plugin: a .ts/.mjs/.js file or a bundled acp:{name} (repeatable)' },
  'no-config': { type: 'boolean', description: 'Ignore acp.config.yaml (found in the working directory or its ancestors)' },
  help: { type: 'boolean', description: 'Show help' },
  debug: { type: 'boolean', description: 'On an internal error, print the stack trace' },
};

/** argparse's test for a negative number (`_negative_number_matcher`): Python's `\d` is any Unicode digit, its `$` allows a final newline. */
const NEGATIVE_NUMBER_RE = /^-\p{Nd}+\n?$|^-\p{Nd}*\.\p{Nd}+\n?$/u;

/**
 * The options of the Python tools' five commands, in their order (`-h/--help`
 * first, as argparse lists them). A prefix is resolved against these first,
 * so an option acp adds (`wait --token`) never changes how a command line
 * the Python tools accept parses (`wait --t 5` is `--timeout 5`).
 */
const PYTHON_OPTIONS: Record<string, readonly string[]> = {
  init: ['help', 'folder', 'participant', 'objective', 'completion', 'primary-deliverable-type', 'primary-deliverable-file', 'primary-deliverable-check', 'deliverables-mode', 'deliverables-dir', 'repo-root', 'resume'],
  append: ['help', 'folder', 'participant', 'event', 'summary', 'doc', 'reply-to', 'role', 'sha256'],
  next: ['help', 'folder', 'participant'],
  validate: ['help', 'folder'],
  wait: ['help', 'folder', 'participant', 'interval', 'timeout'],
};

/** An option as argparse names it in errors: `-h/--help` for help. */
const optionLabel = (name: string): string => (name === 'help' ? '-h/--help' : `--${name}`);

/**
 * What a command line is parsed against: the command's options and
 * positionals, its name (the Python tools' options resolve prefixes first)
 * and `late`, the options that plugins loaded after the global options were
 * read added to it (they resolve prefixes last, see {@link optionTable}).
 */
export type ArgvSpec = Pick<CommandSpec, 'options' | 'args'> & { name?: string; late?: readonly string[] };

/**
 * Parse argv the way Python's argparse parses the other tools' command lines
 * (spec §8b): `--name value` and `--name=value`, unambiguous prefixes (the
 * Python tools' options first), the last of a repeated single-value option
 * wins but every occurrence is converted, a value may start with `-` when it
 * is a negative number or holds a space, `--` ends the options. Errors carry
 * argparse's wording. cac cannot express prefixes or these value rules, so
 * this is the one parser (cac's would be a second).
 */
export function parseArgv(argv: readonly string[], spec: ArgvSpec, globals = GLOBAL_OPTIONS): ParsedArgv {
  const scanned = scanArgv(argv, spec, globals);
  const args = bindPositionals(scanned, spec.options ?? {}, spec.args ?? [], true);
  if (!scanned.options.help) checkAllSeconds(scanned);
  return { options: scanned.options, args };
}

/** One pass over argv: what {@link parseArgv} and {@link parseGlobalOptions} share. */
interface ScannedArgv {
  options: OptionValues;
  rawSeconds: Map<string, string>;
  positionals: string[];
  /** Everything argparse would leave unrecognized, in command-line order. */
  unknown: { token: string; positional: boolean }[];
  /** An option-like token matched no option (a plugin's option, perhaps). */
  unknownOption: boolean;
  /** How many tokens followed `--`. */
  afterDashes: number;
}

/** Resolve, check and convert each token; positionals and unknown tokens are kept for binding. Token-level errors are thrown in argparse's words. */
function scanArgv(argv: readonly string[], spec: ArgvSpec, globals: Record<string, CommandOptionSpec>): ScannedArgv {
  const own = spec.options ?? {};
  const known = { ...globals, ...own };
  const table = optionTable(own, globals, PYTHON_OPTIONS[spec.name ?? ''], spec.late);
  const scanned: ScannedArgv = { options: {}, rawSeconds: new Map(), positionals: [], unknown: [], unknownOption: false, afterDashes: 0 };
  const { options, positionals, unknown } = scanned;
  const lookup = (token: string): { name: string; value?: string } | undefined => optionOf(token, table);
  // argparse classifies every token before it consumes any: an ambiguous prefix anywhere is the first error.
  for (const token of argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length)) if (looksLikeOption(token)) lookup(token);
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      scanned.afterDashes = argv.length - i - 1;
      // argparse drops `--` only when a positional takes what follows.
      if (spec.args?.length) for (const rest of argv.slice(i + 1)) positionals.push(rest), unknown.push({ token: rest, positional: true });
      else unknown.push(...argv.slice(i).map((t) => ({ token: t, positional: false })));
      break;
    }
    const match = looksLikeOption(token) ? lookup(token) : undefined;
    if (!match) {
      if (looksLikeOption(token)) unknown.push({ token, positional: false }), (scanned.unknownOption = true);
      else positionals.push(token), unknown.push({ token, positional: true });
      continue;
    }
    const option = known[match.name]!;
    if (option.type === 'boolean') {
      if (match.value !== undefined) throw new UsageError(`argument ${optionLabel(match.name)}: ignored explicit argument ${pyRepr(match.value)}`);
      options[match.name] = true;
      continue;
    }
    let value = match.value;
    if (value === undefined) {
      const following = argv[i + 1];
      if (following === undefined || following === '--' || (looksLikeOption(following) && (lookup(following) || !isValueLike(following)))) {
        throw new UsageError(`argument --${match.name}: expected one argument`);
      }
      value = following;
      i++;
    }
    if (option.choices && !option.choices.includes(value)) {
      throw new UsageError(`argument --${match.name}: invalid choice: ${pyRepr(value)} (choose from ${option.choices.map((c) => pyRepr(c)).join(', ')})`);
    }
    // argparse converts every occurrence (`--reply-to x --reply-to 1` is refused), the last one wins.
    const typed = convertOptionValue(match.name, option, value);
    if (option.type === 'seconds') scanned.rawSeconds.set(match.name, value);
    options[match.name] = (option.multiple ? [...((options[match.name] as unknown[] | undefined) ?? []), typed] : typed) as OptionValues[string];
  }
  return scanned;
}

/** The `seconds` values' check, once every option is parsed. */
function checkAllSeconds({ options, rawSeconds }: ScannedArgv): void {
  for (const [name, raw] of rawSeconds) checkSeconds(name, options[name] as number, raw);
}

/** What the CLI needs before any plugin of the user's is loaded (see {@link parseGlobalOptions}). */
export interface GlobalOptions {
  /** `--plugin` values, in order. */
  plugins: string[];
  /** Load acp.config.yaml's plugins (no `--no-config`). */
  config: boolean;
  /** The collaboration folder given, if any: plugin code inside it is refused. */
  folder?: string;
  /** `acp serve --root`. */
  root?: string;
  json: boolean;
  debug: boolean;
}

/**
 * The global options, read before any plugin of the user's is loaded (issue
 * 35): parsed by the one parser over `spec`, the command as the built-in
 * plugins define it (`undefined` when no built-in defines it: a plugin's
 * command, or none, is read against the global options alone). Like
 * argparse's `parse_known_args`, tokens no option matches are left for the
 * full parse once the plugins are loaded. Plugins cannot change what a
 * spelling read here means (their options resolve prefixes last, and
 * {@link spellingChange} refuses a plugin whose option would), so every
 * `--plugin` and `--no-config` found here is what the full parse finds.
 * A command line no plugin could make acceptable is refused here, before any
 * plugin code runs: a bad value, an ambiguous prefix, a missing required
 * argument, and unrecognized arguments when no token is left that a plugin
 * option could match (or more tokens follow `--` than positionals exist).
 */
export function parseGlobalOptions(argv: readonly string[], spec: ArgvSpec | undefined): GlobalOptions {
  const scanned = scanArgv(argv, spec ?? {}, GLOBAL_OPTIONS);
  const { options } = scanned;
  if (spec && !options.help) {
    const certain = !scanned.unknownOption || scanned.afterDashes > (spec.args?.length ?? 0);
    bindPositionals(scanned, spec.options ?? {}, spec.args ?? [], certain);
    checkAllSeconds(scanned);
  }
  const text = (name: string): string | undefined => (typeof options[name] === 'string' ? (options[name] as string) : undefined);
  return {
    plugins: (options.plugin as string[] | undefined) ?? [],
    config: options['no-config'] !== true,
    folder: spec ? text('folder') : folderCandidate(argv),
    root: text('root'),
    // A plugin's command: its options are not known yet, and an error is reported as the words ask.
    json: spec ? options.json === true : argv.includes('--json'),
    debug: options.debug === true,
  };
}

/**
 * For a command no built-in defines: the value of the last `--folder` (or a
 * prefix of it) before `--`, whatever option it turns out to be. Only the
 * loader's refusal of plugin code inside the folder uses it, so a wrong
 * guess refuses more, never less.
 */
function folderCandidate(argv: readonly string[]): string | undefined {
  let folder: string | undefined;
  for (let i = 0; i < argv.length && argv[i] !== '--'; i++) {
    const token = argv[i]!;
    const eq = token.indexOf('=');
    const name = token.startsWith('--') ? token.slice(2, eq === -1 ? undefined : eq) : '';
    if (name === '' || !'folder'.startsWith(name)) continue;
    folder = eq === -1 ? argv[i + 1] : token.slice(eq + 1);
  }
  return folder;
}

/**
 * A string option's value as its type wants it, converted the way argparse
 * converts each occurrence: `int` with Python's `int()`, `seconds` with
 * Python's `float()`; the words are argparse's. The one parser of each
 * option type: every command and every door (argv, RPC, embedders) uses it.
 */
export function convertOptionValue(name: string, option: CommandOptionSpec, text: string): string | number {
  if (option.type === 'int') return parsePyInt(text, name);
  if (option.type === 'seconds') return parsePyFloat(text, name);
  return text;
}

/** A `seconds` value must be a number, not NaN (checked once every option is parsed, as the tools check it). */
export function checkSeconds(name: string, value: number, raw: string): void {
  // A negative value is Python's too (wait: a negative --timeout times out at once, a negative --interval polls at the floor); NaN crashes it.
  if (Number.isNaN(value)) throw new UsageError(`argument --${name}: invalid non-negative number: '${raw}'`);
}

/** Whether argparse would take `token` for an option string (`_parse_optional` returning non-None). */
function looksLikeOption(token: string): boolean {
  return token.length > 1 && token.startsWith('-');
}

/** Option-like tokens argparse still takes as values: negative numbers and anything with a space. */
function isValueLike(token: string): boolean {
  return NEGATIVE_NUMBER_RE.test(token) || token.includes(' ');
}

/**
 * The names a command's options resolve against. Exact names first; then a
 * prefix is tried against each tier in turn, the first tier it matches
 * deciding (two matches in one tier: ambiguous): the Python tools' options,
 * so an option acp adds (`wait --token`) never changes how a command line
 * the Python tools accept parses (`wait --t 5` is `--timeout 5`); the
 * command's other options; the global options; and last the options that
 * plugins loaded after the global options were read added (`late`), so a
 * plugin never changes what a spelling read before it loaded means.
 */
export interface OptionTable {
  names: ReadonlySet<string>;
  tiers: readonly (readonly string[])[];
}

/** The {@link OptionTable} of a command's own options, the global options, its Python options (if any) and its `late` options. */
export function optionTable(own: Record<string, CommandOptionSpec>, globals: Record<string, CommandOptionSpec>, python: readonly string[] = [], late: readonly string[] = []): OptionTable {
  const notPython = (name: string): boolean => !python.includes(name);
  const early = Object.keys(own).filter((name) => !late.includes(name));
  return { names: new Set([...Object.keys(own), ...Object.keys(globals)]), tiers: [python, early.filter(notPython), Object.keys(globals).filter(notPython), late.filter(notPython)] };
}

/** What `--{spelling}` means in `table`: an option's name, the options it could match (ambiguous), or nothing. */
export function resolveSpelling(table: OptionTable, spelling: string): { name: string } | { ambiguous: string[] } | undefined {
  if (spelling !== '' && table.names.has(spelling)) return { name: spelling };
  for (const names of table.tiers) {
    const matches = names.filter((candidate) => candidate.startsWith(spelling));
    if (matches.length > 1) return { ambiguous: matches };
    if (matches.length === 1) return { name: matches[0]! };
  }
  return undefined;
}

/**
 * Resolve `--name`, `--name=value`, `-h` (`-hx` carries `x`, which a flag
 * refuses) or an unambiguous prefix (see {@link OptionTable}). An ambiguous
 * prefix is reported with the token as given (`--s=b`).
 */
function optionOf(token: string, table: OptionTable): { name: string; value?: string } | undefined {
  if (token.startsWith('-h') && !token.startsWith('--')) return { name: 'help', value: token.length > 2 ? token.slice(2) : undefined };
  if (!token.startsWith('--')) return undefined;
  const eq = token.indexOf('=');
  const value = eq === -1 ? undefined : token.slice(eq + 1);
  const meaning = resolveSpelling(table, token.slice(2, eq === -1 ? undefined : eq));
  if (meaning && 'ambiguous' in meaning) throw new UsageError(`ambiguous option: ${token} could match ${meaning.ambiguous.map((m) => `--${m}`).join(', ')}`);
  return meaning && { name: meaning.name, value };
}

/**
 * Which spelling of an option of a command changes meaning when `added`
 * options join it (a plugin's, registered after `before`), described for
 * the refusal; `undefined` when none does. Two options with one name are
 * refused; a spelling that meant an option (or was ambiguous) must mean the
 * same afterwards. Spellings that meant nothing may come to mean a new option.
 */
export function spellingChange(before: OptionTable, after: OptionTable, added: readonly string[], existing: readonly string[]): string | undefined {
  const twin = added.find((name) => existing.includes(name));
  if (twin !== undefined) return `option --${twin} is already defined`;
  const show = (meaning: ReturnType<typeof resolveSpelling>): string => (meaning === undefined ? 'nothing' : 'name' in meaning ? `--${meaning.name}` : `ambiguous (${meaning.ambiguous.map((m) => `--${m}`).join(', ')})`);
  for (const name of [...existing, ...added]) {
    for (let length = 1; length <= name.length; length++) {
      const spelling = name.slice(0, length);
      const was = resolveSpelling(before, spelling);
      if (was === undefined) continue;
      const now = resolveSpelling(after, spelling);
      if (show(now) !== show(was)) return `--${spelling} would mean ${show(now)} instead of ${show(was)}`;
    }
  }
  return undefined;
}

/** The command `name` as the CLI parses it: its options, positionals and the options plugins of the user's added ({@link OptionTable}'s `late`). */
export function argvSpecOf(registry: Registry, name: string): ArgvSpec | undefined {
  const entry = registry.commands.get(name);
  if (!entry) return undefined;
  const late = lateOwners(registry);
  const options = Object.keys(entry.spec.options ?? {});
  if (late.has(entry.origin.plugin ?? '')) return { ...entry.spec, late: options };
  const flags = registry.stores.filter((store) => store.flag && late.has(ownerOfStore(registry, store))).map((store) => store.flag!.name);
  const extended = entry.chain.flatMap((spec, index) => (index > 0 && late.has(entry.owners[index]!) ? Object.keys(spec.options ?? {}) : []));
  return { ...entry.spec, late: options.filter((option) => extended.includes(option) || (entry.spec.store === true && flags.includes(option))) };
}

/** The names of the plugins loaded from files, the config or `--plugin` (not built in): their options are read after the global options. */
function lateOwners(registry: Registry): Set<string> {
  return new Set(registry.plugins.filter((entry) => entry.origin.kind !== 'built-in').map((entry) => entry.plugin.name));
}

/** The plugin a store provider came from. */
function ownerOfStore(registry: Registry, store: Registry['stores'][number]): string {
  return registry.plugins.find((entry) => entry.plugin.stores?.includes(store))?.plugin.name ?? '';
}

/**
 * Why the options a plugin of the user's adds to the command line (its
 * commands' options, its extensions' and its stores' flags) cannot join
 * `registry`: two options with one name, or a spelling that would change
 * meaning ({@link spellingChange}); `undefined` when they can. Checked
 * before the plugin's setup runs.
 */
export function pluginOptionConflict(registry: Registry, plugin: AcpPlugin): string | undefined {
  const changed = new Map<string, ArgvSpec>();
  const current = (name: string): ArgvSpec | undefined => changed.get(name) ?? argvSpecOf(registry, name);
  const add = (name: string, base: ArgvSpec, added: Record<string, CommandOptionSpec>): string | undefined => {
    const python = PYTHON_OPTIONS[name];
    const before = optionTable(base.options ?? {}, GLOBAL_OPTIONS, python, base.late);
    const next: ArgvSpec = { ...base, options: { ...base.options, ...added }, late: [...(base.late ?? []), ...Object.keys(added)] };
    const change = spellingChange(before, optionTable(next.options!, GLOBAL_OPTIONS, python, next.late), Object.keys(added), [...Object.keys(base.options ?? {}), ...Object.keys(GLOBAL_OPTIONS)]);
    changed.set(name, next);
    return change && `command '${name}': ${change}`;
  };
  const storeFlags = Object.fromEntries(registry.stores.filter((store) => store.flag).map((store) => [store.flag!.name, { type: 'boolean', description: store.flag!.description } as const]));
  for (const command of plugin.commands ?? []) {
    // A new command is read against the global options alone before its plugin loads.
    const base = command.extend ? current(command.name) : { name: command.name, options: {}, args: command.args };
    const added = command.extend ? (command.options ?? {}) : { ...command.options, ...(command.store ? storeFlags : {}) };
    const conflict = base && add(command.name, base, added);
    if (conflict) return conflict;
  }
  for (const store of plugin.stores ?? []) {
    if (!store.flag) continue;
    const storeCommands = new Set([...[...registry.commands].filter(([, entry]) => entry.spec.store).map(([name]) => name), ...(plugin.commands ?? []).filter((c) => c.store && !c.extend).map((c) => c.name)]);
    for (const name of storeCommands) {
      const conflict = add(name, current(name)!, { [store.flag.name]: { type: 'boolean', description: store.flag.description } });
      if (conflict) return conflict;
    }
  }
  return undefined;
}

/** Bind positionals to their names; report extras (when `unrecognized`) and missing required options in argparse's order and words. */
function bindPositionals({ positionals, unknown, options }: ScannedArgv, own: Record<string, CommandOptionSpec>, names: readonly string[], unrecognized: boolean): Record<string, string | undefined> {
  const args: Record<string, string | undefined> = {};
  const missing: string[] = [];
  names.forEach((raw, index) => {
    const name = raw.replace(/\?$/, '');
    args[name] = positionals[index];
    if (positionals[index] === undefined && !raw.endsWith('?')) missing.push(name);
  });
  // The first positionals are bound; the rest stay unrecognized where they stood.
  let bound = Math.min(names.length, positionals.length);
  const unused = unknown.filter((item) => !(item.positional && bound-- > 0)).map((item) => item.token);
  if (options.help) return args;
  for (const [name, option] of Object.entries(own)) if (option.required && options[name] === undefined) missing.push(`--${name}`);
  if (missing.length) throw new UsageError(`the following arguments are required: ${missing.join(', ')}`);
  if (unused.length && unrecognized) throw new UsageError(`unrecognized arguments: ${unused.join(' ')}`);
  return args;
}

/**
 * What CPython does to a number's text before reading it
 * (`_PyUnicode_TransformDecimalAndSpaceToASCII`, then stripping ASCII white
 * space): non-ASCII white space becomes a space and a Unicode decimal digit
 * its ASCII digit (`٣`, `１`); ASCII passes unchanged, so `\x1c`–`\x1f`
 * (white space to `str.isspace()`) stay and make the value invalid.
 * `undefined` when a non-ASCII character is neither.
 */
function pyNumberAscii(text: string): string | undefined {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x7f) out += ch;
    else if (isPySpaceCode(code)) out += ' ';
    else if (/\p{Nd}/u.test(ch)) out += String(unicodeDigitValue(ch));
    else return undefined;
  }
  return out.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');
}

/**
 * Python's `int()` on a command-line value: surrounding white space, a sign,
 * `_` between digits and any Unicode decimal digit are accepted.
 */
export function parsePyInt(text: string, name: string): number {
  // The usual spelling (`--reply-to 12`) without the Unicode regexes below,
  // which V8 compiles on first use (~0.2 ms of a small command).
  if (/^[0-9]{1,15}$/.test(text)) return Number(text);
  const body = pyNumberAscii(text);
  const match = body === undefined ? null : /^([+-]?)([0-9]+(?:_[0-9]+)*)$/.exec(body);
  if (!match) throw new UsageError(`argument --${name}: invalid int value: ${pyRepr(text)}`);
  const value = Number(match[2]!.replaceAll('_', ''));
  return match[1] === '-' ? -value : value;
}

/** Python's `float()` on a command-line value (also `inf`, `1e3`, `1_0`, Unicode digits). */
export function parsePyFloat(text: string, name: string): number {
  const body = pyNumberAscii(text);
  const special = body === undefined ? null : /^([+-]?)(inf|infinity|nan)$/i.exec(body);
  const digits = '[0-9]+(?:_[0-9]+)*';
  const plain = body !== undefined && new RegExp(`^[+-]?(?:${digits}(?:\\.(?:${digits})?)?|\\.${digits})(?:[eE][+-]?${digits})?$`).test(body);
  const value = special ? (special[2]!.toLowerCase() === 'nan' ? Number.NaN : special[1] === '-' ? -Infinity : Infinity) : plain ? Number(body!.replaceAll('_', '')) : undefined;
  if (value === undefined) throw new UsageError(`argument --${name}: invalid float value: ${pyRepr(text)}`);
  return value;
}

/** `acp --help` and `acp {command} --help`, generated from the command data. */
export function formatHelp(registry: Registry, version: string, command?: CommandSpec): string {
  if (!command) {
    const rows = [...registry.commands.values()].map(({ spec, origin }) => `  ${spec.name.padEnd(10)} ${spec.description}${origin.plugin && origin.plugin !== 'protocol' ? ` (${origin.plugin})` : ''}`);
    return [`acp/${version}`, '', 'Usage: acp <command> [options]', '', 'Commands:', ...rows, '', 'Run `acp <command> --help` for its options.', ''].join('\n');
  }
  const args = (command.args ?? []).map((a) => (a.endsWith('?') ? `[${a.slice(0, -1)}]` : `<${a}>`)).join(' ');
  const optionRows = Object.entries({ ...(command.options ?? {}), ...GLOBAL_OPTIONS }).map(([name, option]) => {
    const flag = option.type === 'boolean' ? `--${name}` : `--${name} <${option.valueName ?? name}>`;
    return `  ${flag.padEnd(38)} ${option.description}${option.required ? ' (required)' : ''}`;
  });
  return [`acp/${version}`, '', `Usage: acp ${command.name}${args ? ` ${args}` : ''} [options]`, '', command.description, '', 'Options:', ...optionRows, ''].join('\n');
}

/**
 * The first token naming a command, skipping the options before it (a
 * `--plugin` spelling with its value, as the global options resolve it).
 */
export function commandWord(argv: readonly string[]): { index: number; word?: string } {
  const table = optionTable({}, GLOBAL_OPTIONS);
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('-')) return { index: i, word: token };
    const eq = token.indexOf('=');
    const meaning = token.startsWith('--') && eq === -1 ? resolveSpelling(table, token.slice(2)) : undefined;
    if (meaning && 'name' in meaning && GLOBAL_OPTIONS[meaning.name]!.type !== 'boolean') i++;
  }
  return { index: -1 };
}

/**
 * Check typed option values against a command's options (what argv parsing
 * guarantees for the CLI), converting texts of typed options (`int`,
 * `seconds`) with the same parser as the command line: the one check of
 * every door (runCommand, and runtime/doors.ts for the servers and the
 * library's requests), in the CLI's words. `null` is no value. Returns the
 * values as `run` sees them.
 */
export function checkOptionValues(spec: Pick<CommandSpec, 'options'>, options: OptionValues): OptionValues {
  const known = { ...spec.options, ...GLOBAL_OPTIONS };
  const checked: OptionValues = {};
  for (const [name, value] of Object.entries(options)) {
    const option = Object.hasOwn(known, name) ? known[name] : undefined;
    if (!option) throw new UsageError(`unrecognized arguments: --${name}`);
    checked[name] = value === undefined || value === null ? undefined : typedValue(name, option, value);
  }
  const missing = Object.entries(spec.options ?? {}).filter(([name, option]) => option.required && checked[name] === undefined).map(([name]) => `--${name}`);
  if (missing.length) throw new UsageError(`the following arguments are required: ${missing.join(', ')}`);
  return checked;
}

/** A value as a refusal shows it: a string as Python's repr (argparse's words), anything else (a door's JSON value) as JSON. */
function shownValue(value: unknown): string {
  return typeof value === 'string' ? pyRepr(value) : (JSON.stringify(value) ?? String(value));
}

/**
 * One typed value (or list of them, for a `multiple` option) as `run` sees
 * it. A number option takes a number, or a string read as the command line
 * reads its text (`'3'`; `'x'` is argparse's `invalid int value: 'x'`).
 */
function typedValue(name: string, option: CommandOptionSpec, value: unknown): OptionValues[string] {
  if (option.type === 'boolean') {
    if (typeof value !== 'boolean') throw new UsageError(`argument --${name}: expected true or false, got ${shownValue(value)}`);
    return value;
  }
  if (option.multiple && !Array.isArray(value)) throw new UsageError(`argument --${name}: expected a list (the option is repeatable), got ${shownValue(value)}`);
  const items: unknown[] = option.multiple ? (value as unknown[]) : [value];
  const typed = items.map((item) => {
    if (option.type === 'int' || option.type === 'seconds') {
      // Any integer: `--reply-to` of 40 digits is an int to argparse (it then points to no event).
      if (typeof item === 'number' && (option.type === 'seconds' || Number.isInteger(item))) return item;
      // A number that is not an int is shown as its text, as argparse shows the text it could not read (`invalid int value: '1.5'`).
      if (typeof item !== 'string') throw new UsageError(`argument --${name}: invalid ${option.type === 'int' ? 'int' : 'float'} value: ${shownValue(typeof item === 'number' ? String(item) : item)}`);
    } else if (typeof item !== 'string') throw new UsageError(`argument --${name}: expected a string, got ${shownValue(item)}`);
    if (option.choices && !option.choices.includes(item)) throw new UsageError(`argument --${name}: invalid choice: ${pyRepr(item)} (choose from ${option.choices.map((c) => pyRepr(c)).join(', ')})`);
    return convertOptionValue(name, option, item);
  });
  if (option.type === 'seconds') typed.forEach((n, i) => checkSeconds(name, n as number, String(items[i])));
  return (option.multiple ? typed : typed[0]) as OptionValues[string];
}
