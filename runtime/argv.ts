/**
 * The one command-line parser: Python argparse's rules (spec §8b) applied to
 * the command data (`CommandSpec.options`), `--help` generated from the same
 * data, and the check that typed option values (RPC, embedders) obey it.
 * acp.ts's CLI edge uses it; it imports only types from runtime/types.ts.
 * @module
 */
import { UsageError } from './errors.ts';
import { isPySpaceCode, pyRepr, unicodeDigitValue } from './pytext.ts';
import type { CommandOptionSpec, CommandSpec, OptionValues, ParsedArgv, Registry } from './types.ts';
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
 * Parse argv the way Python's argparse parses the other tools' command lines
 * (spec §8b): `--name value` and `--name=value`, unambiguous prefixes (the
 * Python tools' options first), the last of a repeated single-value option
 * wins but every occurrence is converted, a value may start with `-` when it
 * is a negative number or holds a space, `--` ends the options. Errors carry
 * argparse's wording. cac cannot express prefixes or these value rules, so
 * this is the one parser (cac's would be a second).
 */
export function parseArgv(argv: readonly string[], spec: Pick<CommandSpec, 'options' | 'args'> & { name?: string }, globals = GLOBAL_OPTIONS): ParsedArgv {
  const own = spec.options ?? {};
  const known = { ...globals, ...own };
  const python = PYTHON_OPTIONS[spec.name ?? ''];
  const options: OptionValues = {};
  const rawSeconds = new Map<string, string>();
  const positionals: string[] = [];
  // Everything argparse would leave unrecognized, in command-line order.
  const unknown: { token: string; positional: boolean }[] = [];
  const lookup = (token: string): { name: string; value?: string } | undefined => optionOf(token, own, globals, python);
  // argparse classifies every token before it consumes any: an ambiguous prefix anywhere is the first error.
  for (const token of argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length)) if (looksLikeOption(token)) lookup(token);
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      // argparse drops `--` only when a positional takes what follows.
      if (spec.args?.length) for (const rest of argv.slice(i + 1)) positionals.push(rest), unknown.push({ token: rest, positional: true });
      else unknown.push(...argv.slice(i).map((t) => ({ token: t, positional: false })));
      break;
    }
    const match = looksLikeOption(token) ? lookup(token) : undefined;
    if (!match) {
      if (looksLikeOption(token)) unknown.push({ token, positional: false });
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
    if (option.type === 'seconds') rawSeconds.set(match.name, value);
    options[match.name] = (option.multiple ? [...((options[match.name] as unknown[] | undefined) ?? []), typed] : typed) as OptionValues[string];
  }
  const args = bindPositionals(positionals, unknown, own, options, spec.args ?? []);
  if (!options.help) for (const [name, raw] of rawSeconds) checkSeconds(name, options[name] as number, raw);
  return { options, args };
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
 * Resolve `--name`, `--name=value`, `-h` (`-hx` carries `x`, which a flag
 * refuses) or an unambiguous prefix: exact names first, then prefixes of
 * the Python tools' options, then of the command's own, then the globals.
 * An ambiguous prefix is reported with the token as given (`--s=b`).
 */
function optionOf(token: string, own: Record<string, CommandOptionSpec>, globals: Record<string, CommandOptionSpec>, python?: readonly string[]): { name: string; value?: string } | undefined {
  if (token.startsWith('-h') && !token.startsWith('--')) return { name: 'help', value: token.length > 2 ? token.slice(2) : undefined };
  if (!token.startsWith('--')) return undefined;
  const eq = token.indexOf('=');
  const name = token.slice(2, eq === -1 ? undefined : eq);
  const value = eq === -1 ? undefined : token.slice(eq + 1);
  for (const table of [own, globals]) {
    if (name !== '' && Object.hasOwn(table, name)) return { name, value };
  }
  const tables = python ? [python, Object.keys(own).filter((n) => !python.includes(n)), Object.keys(globals).filter((n) => !python.includes(n))] : [Object.keys(own), Object.keys(globals)];
  for (const names of tables) {
    const matches = names.filter((candidate) => candidate.startsWith(name));
    if (matches.length > 1) throw new UsageError(`ambiguous option: ${token} could match ${matches.map((m) => `--${m}`).join(', ')}`);
    if (matches.length === 1) return { name: matches[0]!, value };
  }
  return undefined;
}

/** Bind positionals to their names; report extras and missing required options in argparse's order and words. */
function bindPositionals(positionals: string[], unknown: { token: string; positional: boolean }[], own: Record<string, CommandOptionSpec>, options: OptionValues, names: readonly string[]): Record<string, string | undefined> {
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
  if (unused.length) throw new UsageError(`unrecognized arguments: ${unused.join(' ')}`);
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

/** The first token naming a command, skipping the global options before it. */
export function commandWord(argv: readonly string[]): { index: number; word?: string } {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--plugin') i++;
    else if (!token.startsWith('-')) return { index: i, word: token };
  }
  return { index: -1 };
}

/** The options needed before the command is known: which plugins to load, and the folder they must not come from. */
export function parsePartial(argv: readonly string[]): { plugins: string[]; config: boolean; folder?: string; root?: string } {
  const plugins: string[] = [];
  let folder: string | undefined;
  let root: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    const [name, inline] = token.startsWith('--') && token.includes('=') ? [token.slice(0, token.indexOf('=')), token.slice(token.indexOf('=') + 1)] : [token, undefined];
    const value = inline ?? argv[i + 1];
    if ((name === '--plugin' || name === '--folder' || name === '--root') && value !== undefined) {
      if (name === '--plugin') plugins.push(value);
      else if (name === '--root') root = value;
      else folder = value;
      if (inline === undefined) i++;
    }
  }
  return { plugins, config: !argv.includes('--no-config'), folder, root };
}

/**
 * Check typed option values against a command's spec (what argv parsing
 * guarantees for the CLI), converting texts of typed options (`int`,
 * `seconds`) with the same parser as the command line. Returns the values
 * as `run` sees them.
 */
export function checkOptionValues(spec: CommandSpec, options: OptionValues): OptionValues {
  const known = { ...spec.options, ...GLOBAL_OPTIONS };
  const checked: OptionValues = {};
  for (const [name, value] of Object.entries(options)) {
    const option = Object.hasOwn(known, name) ? known[name] : undefined;
    if (!option) throw new UsageError(`unrecognized arguments: --${name}`);
    checked[name] = value === undefined ? undefined : typedValue(name, option, value);
  }
  const missing = Object.entries(spec.options ?? {}).filter(([name, option]) => option.required && checked[name] === undefined).map(([name]) => `--${name}`);
  if (missing.length) throw new UsageError(`the following arguments are required: ${missing.join(', ')}`);
  return checked;
}

/** One typed value (or list of them, for a `multiple` option) as `run` sees it. */
function typedValue(name: string, option: CommandOptionSpec, value: OptionValues[string]): OptionValues[string] {
  if (option.type === 'boolean') {
    if (typeof value !== 'boolean') throw new UsageError(`argument --${name}: expected a flag (true or false)`);
    return value;
  }
  const items = option.multiple ? value : [value];
  if (!Array.isArray(items)) throw new UsageError(`argument --${name}: expected a list of ${option.type === 'string' ? 'strings' : 'numbers'}`);
  const numeric = option.type === 'int' || option.type === 'seconds';
  const typed = items.map((item) => {
    // Any integer: `--reply-to` of 40 digits is an int to argparse (it then points to no event).
    if (numeric && typeof item === 'number' && (option.type === 'seconds' || Number.isInteger(item))) return item;
    if (typeof item !== 'string') throw new UsageError(`argument --${name}: expected ${option.multiple ? 'a list of strings' : 'one argument'}`);
    if (option.choices && !option.choices.includes(item)) throw new UsageError(`argument --${name}: invalid choice: ${pyRepr(item)} (choose from ${option.choices.map((c) => pyRepr(c)).join(', ')})`);
    return convertOptionValue(name, option, item);
  });
  if (option.type === 'seconds') typed.forEach((n, i) => checkSeconds(name, n as number, String(items[i])));
  return (option.multiple ? typed : typed[0]) as OptionValues[string];
}
