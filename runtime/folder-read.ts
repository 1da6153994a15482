/**
 * One command, one read of each file: a host that keeps what its whole-file
 * reads gave, so that `validate` and a view of the same folder (`status`)
 * share them (see {@link FolderRead}) instead of reading, and judging,
 * two versions of a file that changed in between.
 * @module
 */
import type { FileSystem, Host } from './host.ts';
import type { FileRead } from './types.ts';

/**
 * `host`, whose `fs.readFile` of a path in `files` read under the same cap
 * gives what that read gave (the same bytes, or the same error thrown
 * again), and whose other whole-file reads are made and added to `files`.
 * Every other member is `host`'s, inherited ones too (a guarded or writer
 * host is made with `Object.create`: a spread would drop them), so a
 * guarded host stays guarded and a writer stays a writer.
 */
export function readingHost(host: Host, files: Map<string, FileRead>): Host {
  const fs = host.fs;
  const reading: FileSystem = {
    ...fs,
    async readFile(path, options) {
      const maxBytes = options?.maxBytes;
      const kept = files.get(path);
      if (kept && kept.maxBytes === maxBytes) {
        if ('error' in kept) throw kept.error;
        return kept.bytes;
      }
      try {
        const bytes = await fs.readFile(path, options);
        files.set(path, { maxBytes, bytes });
        return bytes;
      } catch (error) {
        files.set(path, { maxBytes, error });
        throw error;
      }
    },
  };
  return Object.create(host, { fs: { value: reading, enumerable: true } }) as Host;
}
