/**
 * Whether git is enabled for a run, and its settings: `--git`, or a `git:`
 * section of the nearest acp.config.yaml (see docs/git.md).
 * @module
 */
import type { AcpApi, CommandContext, Registry } from '../../runtime/types.ts';

/** What the git plugin's modules need of a command's context: the library, the host and the runtime facts. */
export type GitEnv = Pick<CommandContext, 'api' | 'host' | 'runtime'>;

/** The git transport's settings. */
export interface GitSettings {
  /** Remote name (default `origin`). */
  remote: string;
  /** Branch the folder lives on (default: the checked-out branch); another branch works beside it (the folder's files follow it, HEAD is left alone). */
  branch?: string;
  /** `wait`: first poll interval, seconds (default 1). */
  intervalSeconds: number;
  /** `wait`: longest poll interval when idle, seconds (default 2). */
  maxIntervalSeconds: number;
  /** `append`: attempts before giving up on a contended push (default 60; retrying also stops after {@link RETRY_BUDGET_MS}). */
  attempts: number;
}

const DEFAULTS: GitSettings = { remote: 'origin', intervalSeconds: 1, maxIntervalSeconds: 2, attempts: 60 };

/**
 * The settings when git is enabled (its flag given, or a `git:` section in
 * the configuration file, which the loader does not read under
 * `--no-config`), else undefined. A malformed section is an error naming
 * the file and key.
 */
export async function gitSettings(api: AcpApi, config: Registry['config'], requested: boolean): Promise<GitSettings | undefined> {
  const section = await configSection(api, config);
  if (!requested && section === undefined) return undefined;
  return { ...DEFAULTS, ...section?.settings };
}

async function configSection(api: AcpApi, config: Registry['config']): Promise<{ settings: Partial<GitSettings> } | undefined> {
  // The loader found, trusted and read the file (plugins:, and that git: is a mapping).
  if (config === undefined) return undefined;
  const file = config.file;
  const data = config.sections;
  const v = await import('valibot');
  if (!data || typeof data !== 'object' || !Object.hasOwn(data, 'git')) return undefined;
  const seconds = v.pipe(v.number('must be a number of seconds'), v.minValue(0.05, 'must be at least 0.05'));
  const Section = v.strictObject(
    {
      remote: v.optional(v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'))),
      branch: v.optional(v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'))),
      interval: v.optional(seconds),
      'max-interval': v.optional(seconds),
      attempts: v.optional(v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'))),
    },
    'unknown key (allowed: remote, branch, interval, max-interval, attempts)',
  );
  const result = v.safeParse(Section, data.git ?? {});
  if (!result.success) {
    const issue = result.issues[0];
    const key = issue.path?.map((p: { key: unknown }) => String(p.key)).join('.');
    throw new api.AcpError(`${file}: git${key ? `.${key}` : ''}: ${issue.message}`);
  }
  const o = result.output;
  const settings: Partial<GitSettings> = {};
  if (o.remote !== undefined) settings.remote = o.remote;
  if (o.branch !== undefined) settings.branch = o.branch;
  if (o.interval !== undefined) settings.intervalSeconds = o.interval;
  if (o['max-interval'] !== undefined) settings.maxIntervalSeconds = o['max-interval'];
  if (o.attempts !== undefined) settings.attempts = o.attempts;
  return { settings };
}
