// The command-line options of the scripts here (`--name value`), read one
// way in every script.

/**
 * The value after `--name` among a script's arguments (`argv`, without the
 * runtime and the script); `fallback` when the option is missing or nothing
 * (or an empty string) follows it.
 */
export function optionOf(argv: readonly string[], name: string): string | undefined;
export function optionOf(argv: readonly string[], name: string, fallback: string): string;
export function optionOf(argv: readonly string[], name: string, fallback?: string): string | undefined {
  const at = argv.indexOf(`--${name}`);
  return (at >= 0 ? argv[at + 1] : undefined) || fallback;
}
