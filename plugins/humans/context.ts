/**
 * What the humans' commands (`status`, `log`, `report`, `freeze`) receive:
 * the part of the command context they use, and the library functions they
 * call. Type-only imports: a plugin never value-imports acp.ts (the library
 * arrives as `api`).
 * @module
 */
import type * as Acp from '../../acp.ts';

/** The library functions the humans' commands use (all exported by acp.ts). */
export type HumansApi = Pick<
  typeof Acp,
  | 'AcpError'
  | 'append'
  | 'applyEvent'
  | 'decodeText'
  | 'deliverableRef'
  | 'emptyState'
  | 'followFolder'
  | 'markdown'
  | 'parseEventLog'
  | 'participantIds'
  | 'primaryRef'
  | 'pyStr'
  | 'readDeliverable'
  | 'readEventLog'
  | 'readProtocol'
  | 'readReadiness'
  | 'resolveDeliverablePath'
  | 'sha256Hex'
  | 'validate'
  | 'withFolderLock'
  | 'writeFileAtomic'
  | 'formatProtocolJson'
  | 'PHASES'
  | 'EVENT_NAMES'
>;

/** The command context, narrowed to what these commands use. */
export interface HumansContext {
  options: Record<string, string | string[] | boolean | undefined>;
  api: HumansApi;
  host: Acp.Host;
  registry: Acp.Registry;
  /** One line to stdout (newline added). */
  out(text: string): void;
  /** One line to stderr (newline added). */
  err(text: string): void;
  json: boolean;
  /** Colour allowed (decided at the CLI edge). */
  color: boolean;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  /** `--folder`, resolved (a usage error when missing). */
  folder(): string;
}

/** A string option's value (the last one when repeated, as argparse does). */
export function stringOption(ctx: HumansContext, name: string): string | undefined {
  const value = ctx.options[name];
  if (Array.isArray(value)) return value.at(-1);
  return typeof value === 'string' ? value : undefined;
}

/**
 * A command as the command API declares it (the sketch of issue 11: name,
 * description, options, and a `run` that gets the context).
 */
export interface HumansCommandSpec {
  name: string;
  description: string;
  options?: Record<string, { type: 'string' | 'boolean'; description: string; valueName?: string }>;
  run(ctx: HumansContext): Promise<number>;
}
