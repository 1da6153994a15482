/**
 * What the humans' commands (`status`, `log`, `report`, `freeze`) receive:
 * the part of the command context they use, and the library functions they
 * call. Type-only imports: a plugin never value-imports acp.ts (the library
 * arrives as `api`).
 * @module
 */
import type * as Acp from '../../runtime/types.ts';

/** The library, as `context.api` holds it. */
export type HumansApi = Acp.AcpApi;

/** The command context, narrowed to what these commands use (so tests can build one). */
export type HumansContext = Pick<Acp.CommandContext, 'options' | 'api' | 'host' | 'registry' | 'out' | 'err' | 'json' | 'color' | 'signal' | 'folder' | 'store'>;

/** A string option's value (the parser keeps the last of a repeated one, as argparse does). */
export function stringOption(ctx: HumansContext, name: string): string | undefined {
  const value = ctx.options[name];
  const last: unknown = Array.isArray(value) ? value.at(-1) : value;
  return typeof last === 'string' ? last : undefined;
}
