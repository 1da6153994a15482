/**
 * The protocol's constants: the files a folder must and must not hold, the
 * wait defaults (spec §10), and this runtime's version.
 * @module
 */
import packageJson from '../package.json' with { type: 'json' };

/** Files a collaboration folder must hold (spec §1). */
export const REQUIRED_FILES = ['protocol.json', 'events.jsonl', 'proposal.md', 'review.md', 'decisions.md', 'readiness.md', 'conclusion.md'] as const;

/** Files whose presence is an error (spec §1). */
export const FORBIDDEN_FILES = ['state.log', 'discussion.md', 'opinions.md'] as const;

/** This runtime's version (package.json's, inlined by the bundler). */
export const VERSION: string = packageJson.version;

/** Default `wait` timeout: 30 minutes (spec §10). */
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 1800;

/** Default `wait` fallback poll period in seconds. */
export const DEFAULT_WAIT_INTERVAL_SECONDS = 2;
