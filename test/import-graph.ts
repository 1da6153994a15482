// The imports of the project's own modules, as test/architecture.test.ts
// checks them: the import rule (plugins/ and deliverable-types/ take only
// types from the core) and the absence of any import circle. A text scan,
// not the compiler's: it must see every form a module can take, so it is
// tested on planted fixtures of each form too.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import of a module: its specifier, and whether only types cross it. */
export interface ImportEdge {
  spec: string;
  typeOnly: boolean;
}

/** Block comments and whole-line `//` comments out (their examples are not imports); strings stay. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/^\s*\/\/.*$/gm, '');
}

/**
 * Every import and re-export of a module's text: `import … from`, `import
 * type … from`, `export … from`, `export type … from`, a bare `import 'x'`,
 * and dynamic `import('x')`, with any quote style, across lines. `import
 * { type A } from` is not type-only (under verbatimModuleSyntax the module
 * is still loaded); `import('x').T` and `typeof import('x')` in a type
 * position are.
 */
export function importsOf(source: string): ImportEdge[] {
  const text = withoutComments(source);
  const q = `(['"\`])([^'"\`]+)\\`;
  const found: ImportEdge[] = [];
  for (const m of text.matchAll(new RegExp(`^\\s*(?:import|export)\\s+(type\\s+)?(?![(])[^'"\`;]*?\\bfrom\\s*${q}2`, 'gm'))) found.push({ spec: m[3]!, typeOnly: m[1] !== undefined });
  for (const m of text.matchAll(new RegExp(`^\\s*import\\s*${q}1`, 'gm'))) found.push({ spec: m[2]!, typeOnly: false });
  for (const m of text.matchAll(new RegExp(`(\\btypeof\\s+)?\\bimport\\s*\\(\\s*${q}2\\s*\\)(\\s*\\.)?`, 'g'))) found.push({ spec: m[3]!, typeOnly: m[1] !== undefined || m[4] !== undefined });
  return found;
}

/** The project file a relative specifier names (`.js`/`.mjs` may name the `.ts` source); undefined for packages and `node:`. */
export function resolveSpec(root: string, file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const target = relative(root, resolve(root, dirname(file), spec)).replaceAll('\\', '/');
  const ts = target.replace(/\.(m?js)$/, '.ts');
  return ts !== target && existsSync(join(root, ts)) ? ts : target;
}

/** The import graph of `files` (project-relative paths): each file's project targets, type-only edges included. */
export function importGraph(root: string, files: readonly string[], read = (file: string) => readFileSync(join(root, file), 'utf8')): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(read(file))
      .map(({ spec }) => resolveSpec(root, file, spec))
      .filter((target): target is string => target !== undefined && target.endsWith('.ts'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every import circle of a graph, each as the path that closes it (`a.ts → b.ts → a.ts`). */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/**
 * The import rule for one module of plugins/ or deliverable-types/: no value
 * import of the core (acp.ts, runtime/, package.json), of another plugin, or
 * (for a deliverable type) of any plugin; a plugin's own files and the
 * built-in types' own files may import each other. Returns the offending
 * specifiers.
 */
export function importRuleViolations(root: string, file: string, text: string): string[] {
  const ownerOf = (path: string): string => (path.startsWith('plugins/') ? `plugin:${path.slice('plugins/'.length).replace(/\.ts$/, '').split('/')[0]}` : path.split('/')[0]!);
  const own = ownerOf(file);
  const broken: string[] = [];
  for (const { spec, typeOnly } of importsOf(text)) {
    const target = resolveSpec(root, file, spec);
    if (target === undefined || typeOnly) continue;
    const core = target === 'acp.ts' || target.startsWith('runtime/') || target === 'package.json';
    const foreign = (target.startsWith('plugins/') || target.startsWith('deliverable-types/')) && ownerOf(target) !== own;
    if (core || foreign) broken.push(`${file}: ${spec}`);
  }
  return broken;
}
