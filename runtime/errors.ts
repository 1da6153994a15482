/**
 * The library's typed errors. Every refusal carries the exact message the
 * other tools print, the exit code the CLI uses, and a stable `code` that
 * other layers (the RPC server, MCP tools) map instead of parsing text.
 * acp.ts re-exports them; this module imports only types (runtime/types.ts).
 * @module
 */
import type { AppendResult } from './types.ts';

/**
 * A refusal the protocol defines: the message is the exact text other tools
 * print, and the CLI maps it to `error: {message}` with exit code 2.
 */
export class AcpError extends Error {
  /** Process exit code the CLI uses for this error. */
  readonly exitCode: number;
  /** Individual messages when several checks failed at once (joined by `; ` in `message`). */
  readonly messages: string[];
  /**
   * What kind of refusal this is, stable across versions and wording (the
   * RPC server and MCP tools map it): `usage`, `invalid_folder`,
   * `invalid_log`, `unknown_event`, `unknown_participant`, `not_your_turn`,
   * `phase`, `invalid_event`, `strict` (strict mode: the folder would fail
   * validation after the event), `plugin_refused`, `plugin_failed`,
   * `plugin_timeout`, `after_append`, `timeout`, `aborted`, `lock_timeout`,
   * or `refused` (and `file_system` from `describeError`).
   */
  readonly code: string;
  constructor(message: string | string[], exitCode = 2, code = 'refused') {
    const messages = Array.isArray(message) ? message : [message];
    super(messages.join('; '));
    this.name = 'AcpError';
    this.exitCode = exitCode;
    this.messages = messages;
    this.code = code;
  }
}

/**
 * Raised when an `append:after` or `phase:change` hook failed: the event
 * *was* appended (`appended`) and must not be appended again.
 */
export class AcpAppendedError extends AcpError {
  readonly appended: AppendResult;
  constructor(messages: string[], appended: AppendResult) {
    super(messages, 2, 'after_append');
    this.name = 'AcpAppendedError';
    this.appended = appended;
  }
}

/** Raised when `wait` runs out of time. */
export class AcpTimeoutError extends AcpError {
  constructor(message: string) {
    super(message, 1, 'timeout');
    this.name = 'AcpTimeoutError';
  }
}

/** Raised when an operation is aborted through its `AbortSignal`. */
export class AcpAbortError extends AcpError {
  constructor() {
    super('aborted', 130, 'aborted');
    this.name = 'AcpAbortError';
  }
}

/** Raised when a plugin's code throws; names the plugin (exit 2). */
export class AcpPluginError extends AcpError {
  readonly plugin: string;
  constructor(plugin: string, hook: string, cause: unknown) {
    super(`plugin '${plugin}' failed in ${hook}: ${cause instanceof Error ? cause.message : String(cause)}`, 2, 'plugin_failed');
    this.name = 'AcpPluginError';
    this.plugin = plugin;
  }
}

/** A mistake on the command line: `error: …`, exit 2 (argparse's wording). */
export class UsageError extends AcpError {
  constructor(message: string) {
    super(message, 2, 'usage');
    this.name = 'UsageError';
  }
}
