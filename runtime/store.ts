/**
 * The stores a transaction writes through: the local folder (under the
 * folder lock), or the store a plugin provides for the folder (git).
 * @module
 */
import { AcpError } from './errors.ts';
import { withFolderLock } from './files.ts';
import type { Host } from './host.ts';
import { writerHost } from './guarded-host.ts';
import type { Registry, Store } from './types.ts';

/** The local folder as a store: the folder lock, and atomic writes inside it. */
export function localStore(host: Host): Store {
  return {
    name: 'local',
    transact: (folder, _intent, body, options = {}) =>
      withFolderLock(host, folder, (lock) => body({ lock, synced: false, written: new Set(), done: [], attempt: 1 }), { onWait: options.onLockWait, timeoutMs: options.lockTimeoutMs, signal: options.lockSignal }),
    create: async (folder, _intent, body, options = {}) => ({ value: await body((fn) => withFolderLock(host, folder, fn, { onWait: options.onLockWait, timeoutMs: options.lockTimeoutMs })) }),
  };
}

/**
 * The store that serves `folder`: the one a plugin's provider claims (its
 * flag in `flags`, or its configuration), else the local folder. Two
 * providers claiming one folder is an error: nothing would say which wins.
 */
export async function openStore(guarded: Host, folder: string, registry?: Registry, flags: Readonly<Record<string, unknown>> = {}): Promise<Store> {
  // A store is the transaction's storage: it holds the write capability (and is the only plugin part that does).
  const host = writerHost(guarded);
  const claims: Store[] = [];
  for (const provider of registry?.stores ?? []) {
    const requested = provider.flag !== undefined && flags[provider.flag.name] === true;
    const store = await provider.open({ folder, host, requested, config: registry?.config });
    if (store) claims.push(store);
  }
  if (claims.length > 1) throw new AcpError(`stores ${claims.map((c) => `'${c.name}'`).join(' and ')} both serve ${folder}: configure one`, 2, 'usage');
  return claims[0] ?? localStore(host);
}
