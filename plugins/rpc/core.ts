// The library as the RPC plugin receives it: the context's `api` (plugins
// never value-import acp.ts; see docs/architecture.md). Types only.

import type * as Acp from '../../runtime/types.ts';

/** The library (a plugin's `context.api`; `import * as acp from 'acp.ts'` satisfies it too). */
export type AcpCore = Acp.AcpApi;

/** Re-exported core types the plugin uses. */
export type Host = Acp.Host;
/** The plugin/type registry. */
export type Registry = Acp.Registry;
/** State derived from the log. */
export type DerivedState = Acp.DerivedState;
/** A JSON object. */
export type JsonObject = Record<string, unknown>;
