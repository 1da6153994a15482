// Deno read grants shared by the tests that run acp under least privilege.
import { dirname, join } from 'node:path';

/**
 * `acp.config.yaml` in every ancestor of `dir` (itself excluded): where the
 * config search looks. acp refuses to guess about a candidate it may not
 * read, so a least-privilege Deno line grants these (or passes --no-config).
 */
export function configCandidates(dir: string): string[] {
  const out: string[] = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    out.push(join(d, 'acp.config.yaml'));
    if (dirname(d) === d) return out;
  }
}
