// The part of the core the RPC server uses, handed in by acp.ts (or by a
// library user) instead of imported: acp.ts loads this plugin lazily while its
// own module is still evaluating (its entry point awaits the CLI), so a value
// import back into acp.ts would wait for itself. Types are imported only.

import type * as Acp from '../../acp.ts';

/** Core functions the server needs; `import * as acp from 'acp.ts'` satisfies it. */
export interface AcpCore {
  runCli: typeof Acp.runCli;
  readProtocol: typeof Acp.readProtocol;
  parseEventLog: typeof Acp.parseEventLog;
  readEventLog: typeof Acp.readEventLog;
  decodeText: typeof Acp.decodeText;
  validate: typeof Acp.validate;
  nextAction: typeof Acp.nextAction;
  formatNext: typeof Acp.formatNext;
  applyEvent: typeof Acp.applyEvent;
  emptyState: typeof Acp.emptyState;
  readReadiness: typeof Acp.readReadiness;
  participantIds: typeof Acp.participantIds;
  primaryRef: typeof Acp.primaryRef;
  readDeliverable: typeof Acp.readDeliverable;
  sha256Hex: typeof Acp.sha256Hex;
  markdown: typeof Acp.markdown;
  formatTimestamp: typeof Acp.formatTimestamp;
  pyStr: typeof Acp.pyStr;
  AcpError: typeof Acp.AcpError;
  withFolderLock: typeof Acp.withFolderLock;
  writeFileAtomic: typeof Acp.writeFileAtomic;
  resolveDeliverablePath: typeof Acp.resolveDeliverablePath;
  deliverableRef: typeof Acp.deliverableRef;
}

/** Re-exported core types the plugin uses. */
export type Host = Acp.Host;
/** The plugin/type registry. */
export type Registry = Acp.Registry;
/** CLI input/output. */
export type CliIo = Acp.CliIo;
/** State derived from the log. */
export type DerivedState = Acp.DerivedState;
/** A JSON object. */
export type JsonObject = Record<string, unknown>;
