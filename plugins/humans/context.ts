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

/** The command context, narrowed to what these commands use (so tests can build one), with the options of command `V`. */
export type HumansContext<V = Acp.OptionValues> = Pick<Acp.CommandContext<V>, 'options' | 'api' | 'host' | 'registry' | 'out' | 'err' | 'json' | 'color' | 'signal' | 'folder' | 'store'>;
