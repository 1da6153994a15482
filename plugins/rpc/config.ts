// The server's YAML configuration, checked with valibot so that a mistake is
// reported with its exact place (`tokens.<token>`, `limits.maxBodyBytes` …)
// instead of surfacing later as a confusing runtime failure.
//
//   # acp-server.yaml
//   root: collabs                 # collaborations are the folders under it (relative to this file)
//   tcp: 127.0.0.1:9001           # loopback unless allowRemote: true
//   unix: ./acp.sock              # created owner-only (0600)
//   tls: { cert: server.crt, key: server.key }   # TCP over TLS (PEM); without it remote use is for trusted networks only
//   tokens:                       # TCP clients authenticate with one of these
//     7c1f0d5e9a4b4e21a8f3: alice
//     b93e51c07d2a46f0bb10: bob
//   limits:
//     maxHeaderBytes: 8192
//     maxBodyBytes: 4194304
//     stallTimeoutSeconds: 10
//     idleTimeoutSeconds: 120
//     authTimeoutSeconds: 30      # a TCP peer that has not authenticated by then is closed
//     maxConnections: 10000
//     forwardTimeoutSeconds: 300
//   pollIntervalSeconds: 1        # fallback when file-change notifications are missed
//   crossTask: false              # true: participants may reach agents they share no task with
//   repoRoots: [../repo]          # where task/create may point repoRoot (external deliverables); default none

import * as v from 'valibot';

const positiveInt = (what: string) => v.pipe(v.number(`${what} must be a number`), v.integer(`${what} must be a whole number`), v.minValue(1, `${what} must be at least 1`));
const seconds = (what: string) => v.pipe(v.number(`${what} must be a number of seconds`), v.minValue(0, `${what} must not be negative`));

const TokenKey = v.pipe(
  v.string(),
  v.minLength(16, 'a token must be at least 16 characters long'),
  v.regex(/^[\x21-\x7e]+$/, 'a token must be printable ASCII without spaces'),
);
const ParticipantId = v.pipe(
  v.string('the participant id must be a string'),
  v.minLength(1, 'the participant id must not be empty'),
  v.check((s) => s.trim() === s, 'the participant id must not start or end with spaces'),
);

const LimitsSchema = v.strictObject({
    maxHeaderBytes: v.optional(v.pipe(positiveInt('maxHeaderBytes'), v.minValue(64, 'maxHeaderBytes must be at least 64'))),
    maxBodyBytes: v.optional(positiveInt('maxBodyBytes')),
    stallTimeoutSeconds: v.optional(seconds('stallTimeoutSeconds')),
    idleTimeoutSeconds: v.optional(seconds('idleTimeoutSeconds')),
    authTimeoutSeconds: v.optional(seconds('authTimeoutSeconds')),
    maxConnections: v.optional(positiveInt('maxConnections')),
    forwardTimeoutSeconds: v.optional(seconds('forwardTimeoutSeconds')),
}, 'limits must be a mapping');

const ConfigSchema = v.strictObject({
  root: v.optional(v.pipe(v.string('root must be a path'), v.minLength(1, 'root must not be empty'))),
  tcp: v.optional(v.union([v.string(), v.number()], 'tcp must be host:port or a port number')),
  unix: v.optional(v.pipe(v.string('unix must be a socket path'), v.minLength(1, 'unix must not be empty'))),
  allowRemote: v.optional(v.boolean('allowRemote must be true or false')),
  tokens: v.optional(v.record(TokenKey, ParticipantId, 'tokens must map each token to a participant id')),
  limits: v.optional(LimitsSchema),
  pollIntervalSeconds: v.optional(v.pipe(v.number('pollIntervalSeconds must be a number'), v.minValue(0.01, 'pollIntervalSeconds must be at least 0.01'))),
  tls: v.optional(v.strictObject({
    cert: v.pipe(v.string('tls.cert must be a path'), v.minLength(1, 'tls.cert must not be empty')),
    key: v.pipe(v.string('tls.key must be a path'), v.minLength(1, 'tls.key must not be empty')),
  }, 'tls must be a mapping { cert, key }')),
  crossTask: v.optional(v.boolean('crossTask must be true or false')),
  repoRoots: v.optional(v.array(v.pipe(v.string('each repoRoots entry must be a path'), v.minLength(1, 'a repoRoots entry must not be empty')), 'repoRoots must be a list of directories')),
}, 'the configuration must be a YAML mapping (key: value lines)');

/** The configuration file's content, as checked. */
export type ServerConfigFile = v.InferOutput<typeof ConfigSchema>;

/** Raised for an unreadable or invalid configuration (the CLI prints `error: {message}`, exit 2). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function issueMessages(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => String((item as { key: unknown }).key)).join('.');
    let message = issue.message;
    // valibot's wording for a strictObject's extra key names no key; ours does.
    if (issue.kind === 'schema' && issue.type === 'strict_object' && issue.expected === 'never') message = 'unknown key';
    return path ? `${path}: ${message}` : message;
  });
}

/**
 * Parse and check a configuration text. `name` is used in messages (the
 * file's path). Throws {@link ConfigError} listing every problem found.
 */
export async function parseServerConfig(text: string, name: string): Promise<ServerConfigFile> {
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length) {
    const first = doc.errors[0]!;
    throw new ConfigError(`invalid server config ${name}: ${first.message.split('\n')[0]!.replace(/:$/, '')}`);
  }
  const value = doc.toJS() ?? {};
  const result = v.safeParse(ConfigSchema, value);
  if (!result.success) throw new ConfigError(`invalid server config ${name}: ${issueMessages(result.issues).join('; ')}`);
  return result.output;
}

/** Parse `host:port`, `[v6]:port` or a bare port into its parts. */
export function parseHostPort(value: string | number, what = '--tcp'): { host: string; port: number } {
  const text = String(value).trim();
  let host = '127.0.0.1';
  let portText = text;
  const v6 = /^\[([^\]]+)\]:(\d+)$/.exec(text);
  if (v6) {
    host = v6[1]!;
    portText = v6[2]!;
  } else if (text.includes(':')) {
    const at = text.lastIndexOf(':');
    host = text.slice(0, at) || host;
    portText = text.slice(at + 1);
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw new ConfigError(`${what}: expected host:port or a port number, got '${text}'`);
  return { host, port: Number(portText) };
}

/** Whether a host name or address is on this machine's loopback. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
