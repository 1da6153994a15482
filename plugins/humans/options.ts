/**
 * The options of the humans' commands, as data: plugins/humans.ts gives them
 * to `defineCommand`, and each command's implementation takes its `run`
 * context typed from them (a module of its own, so that neither imports the
 * other).
 * @module
 */
import type { OptionValuesOf } from '../../runtime/types.ts';

/** `--folder`, required by every command but the dashboard. */
export const folder = { type: 'string', required: true, description: 'Collaboration folder' } as const;

/** The options of `acp log`: the parser hands `run` `--since` as a number (Python's `int()`, argparse's words). */
export const logOptions = {
  folder,
  follow: { type: 'boolean', description: 'Keep printing new events (until the collaboration is completed or blocked, or Ctrl-C)' },
  since: { type: 'int', description: 'Only the events after this seq', valueName: 'seq' },
  json: { type: 'boolean', description: 'Print the events as JSON lines' },
} as const;

/** The options of `acp dashboard`: `--port` arrives as a number. */
export const dashboardOptions = {
  root: { type: 'string', description: 'Directory holding the collaborations (default: the working directory)', valueName: 'dir' },
  host: { type: 'string', description: 'Address to listen on (default 127.0.0.1; another one is reachable by others: use TLS)', valueName: 'address' },
  port: { type: 'int', description: 'Port (default 0: a free one)', valueName: 'port' },
  'allow-host': { type: 'string', multiple: true, description: "Another name the Host header may carry (a proxy's, this machine's name; repeatable): any other Host is refused (DNS rebinding)", valueName: 'name' },
  'tls-cert': { type: 'string', description: 'PEM certificate: serve HTTPS', valueName: 'file' },
  'tls-key': { type: 'string', description: 'PEM private key of --tls-cert', valueName: 'file' },
} as const;

/** The options of `acp report`. */
export const reportOptions = {
  folder,
  out: { type: 'string', description: 'Output file (default report.html; - for stdout)', valueName: 'file' },
  json: { type: 'boolean', description: 'Print {ok, path, bytes}' },
} as const;

/** The options of `acp freeze`. */
export const freezeOptions = {
  folder,
  participant: { type: 'string', required: true, description: 'Who freezes (the proposal owner, in readiness_check)', valueName: 'id' },
  doc: { type: 'string', description: 'The deliverable reference to freeze (default: the primary one)', valueName: 'ref' },
  summary: { type: 'string', description: 'Summary of the event (default: names the file and hash)', valueName: 'text' },
  // A server's freezes are strict unless its configuration says otherwise: a call cannot turn it off.
  strict: { type: 'boolean', doors: false, description: 'Refuse, changing nothing, when the folder would then fail `validate --strict` (default: the strict: key of acp.config.yaml)' },
  json: { type: 'boolean', description: 'Print one JSON object' },
} as const;

/** What `run` of `acp log` gets as options. */
export type LogOptions = OptionValuesOf<typeof logOptions>;
/** What `run` of `acp dashboard` gets as options. */
export type DashboardOptions = OptionValuesOf<typeof dashboardOptions>;
/** What `run` of `acp report` gets as options. */
export type ReportOptions = OptionValuesOf<typeof reportOptions>;
/** What `run` of `acp freeze` gets as options. */
export type FreezeOptions = OptionValuesOf<typeof freezeOptions>;
