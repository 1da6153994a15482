// The style rules of the house that a parser can hold (test/architecture.test.ts
// runs them): every export documented, no function body over a length, no
// work and no environment read at module top level. The parser is oxc's, as
// rolldown ships it and vite (a pinned devDependency) re-exports it: a real
// TypeScript parser, so strings, comments, template literals and regular
// expressions cannot fool a rule the way they fool a line scanner.
import { parseSync, Visitor, type ESTree, type VisitorObject } from 'vite';

/** Where a rule was broken: `file:line`, and what. */
export type Finding = string;

/** A function's body: its name (the declaration's, the variable's, the method's key; `(anonymous)` otherwise), first line, and lines from `{` to `}`. */
export interface FunctionSpan {
  name: string;
  line: number;
  lines: number;
}

interface Parsed {
  program: ESTree.Program;
  comments: { type: string; value: string; start: number; end: number }[];
  lineOf(offset: number): number;
}

/** Every text parsed in this process: the three rules read the same files, each parsed once. */
const parsed = new Map<string, Parsed>();

function parse(file: string, text: string): Parsed {
  const key = `${file}\0${text}`;
  let known = parsed.get(key);
  if (!known) {
    known = parseOnce(file, text);
    parsed.set(key, known);
  }
  return known;
}

function parseOnce(file: string, text: string): Parsed {
  const result = parseSync(file, text);
  if (result.errors.length) throw new Error(`${file}: ${result.errors[0]!.message}`);
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return { program: result.program, comments: result.comments, lineOf };
}

type AnyFunction = ESTree.Function | ESTree.ArrowFunctionExpression;

/** Every function of `text` with a block body: declarations, expressions, arrows and methods. */
export function functionSpans(file: string, text: string): FunctionSpan[] {
  const { program, lineOf } = parse(file, text);
  const spans: FunctionSpan[] = [];
  const names = new Map<AnyFunction, string>();
  const measure = (node: AnyFunction): void => {
    if (!node.body || node.body.type !== 'BlockStatement') return;
    const line = lineOf(node.body.start);
    spans.push({ name: ('id' in node && node.id?.name) || names.get(node) || '(anonymous)', line, lines: lineOf(node.body.end - 1) - line + 1 });
  };
  const nameValue = (key: ESTree.Node | null | undefined, value: ESTree.Node | null | undefined): void => {
    if (key?.type === 'Identifier' && (value?.type === 'FunctionExpression' || value?.type === 'ArrowFunctionExpression')) names.set(value, key.name);
  };
  new Visitor({
    VariableDeclarator: (node) => nameValue(node.id, node.init),
    Property: (node) => nameValue(node.key, node.value),
    MethodDefinition: (node) => nameValue(node.key, node.value),
    PropertyDefinition: (node) => nameValue(node.key, node.value),
    FunctionDeclaration: measure,
    FunctionExpression: measure,
    ArrowFunctionExpression: measure,
  }).visit(program);
  return spans;
}

/**
 * Exports without a JSDoc comment (`/** … *\/` right above them, nothing but
 * white space between). `export default name` and `export { name }` are
 * judged by the declaration of `name`; re-exports (`export … from`) by the
 * module they come from.
 */
export function undocumentedExports(file: string, text: string): Finding[] {
  const { program, comments, lineOf } = parse(file, text);
  const docs = comments.filter((c) => c.type === 'Block' && c.value.startsWith('*'));
  const documented = (node: ESTree.Node): boolean => {
    const before = docs.filter((c) => c.end <= node.start).at(-1);
    return before !== undefined && text.slice(before.end, node.start).trim() === '';
  };
  const declarations = new Map<string, ESTree.Node>();
  for (const node of program.body) {
    const declared = node.type === 'ExportNamedDeclaration' || node.type === 'ExportDefaultDeclaration' ? node.declaration : node;
    if (declared?.type === 'VariableDeclaration') for (const d of declared.declarations) if (d.id.type === 'Identifier') declarations.set(d.id.name, node);
    if ((declared?.type === 'FunctionDeclaration' || declared?.type === 'ClassDeclaration') && declared.id) declarations.set(declared.id.name, node);
  }
  const findings: Finding[] = [];
  const judge = (node: ESTree.Node, name: string): void => {
    if (!documented(node)) findings.push(`${file}:${lineOf(node.start)}: export ${name} has no JSDoc comment`);
  };
  for (const node of program.body) {
    if (node.type === 'ExportDefaultDeclaration') {
      const named = node.declaration.type === 'Identifier' ? declarations.get(node.declaration.name) : undefined;
      judge(named ?? node, 'default');
    } else if (node.type === 'ExportNamedDeclaration' && node.source === null) {
      if (node.declaration) judge(node, text.slice(node.start, node.end).split('\n')[0]!.replace(/^export\s+/, '').slice(0, 60));
      for (const specifier of node.specifiers) {
        const local = specifier.local.type === 'Identifier' ? specifier.local.name : undefined;
        const declared = local === undefined ? undefined : declarations.get(local);
        if (declared) judge(declared, local!);
      }
    }
  }
  return findings;
}

/** What a module may hold at its top level: imports, exports, declarations; nothing that runs when it is imported. */
const DECLARATIONS = new Set(['ImportDeclaration', 'ExportNamedDeclaration', 'ExportDefaultDeclaration', 'ExportAllDeclaration', 'VariableDeclaration', 'FunctionDeclaration', 'ClassDeclaration', 'TSInterfaceDeclaration', 'TSTypeAliasDeclaration', 'TSModuleDeclaration', 'TSDeclareFunction', 'EmptyStatement']);
/** The runtimes' globals through which a module reads the environment, argv or the exit code. */
const RUNTIME_GLOBALS = new Set(['process', 'Deno', 'Bun']);
/** Nodes whose identifiers are types, not values (`typeof process` in a type reads nothing). */
const TYPE_NODES = ['TSTypeAnnotation', 'TSTypeAliasDeclaration', 'TSInterfaceDeclaration', 'TSTypeQuery', 'TSTypeParameterInstantiation'] as const;

/**
 * Work at module top level: a statement that is no declaration, an `await`,
 * or any use of `process`, `Deno` or `Bun` (the environment, argv, the exit
 * code) outside a function body. Limits: a declaration's initializer may
 * still call a function with effects (`const x = f()`); the rule sees only
 * these globals, not what a called function reads.
 */
export function topLevelEffects(file: string, text: string): Finding[] {
  const { program, lineOf } = parse(file, text);
  const findings: Finding[] = [];
  const at = (node: ESTree.Node): string => `${file}:${lineOf(node.start)}: ${text.slice(node.start, node.end).split('\n')[0]!.slice(0, 60)}`;
  for (const node of program.body) if (!DECLARATIONS.has(node.type)) findings.push(`${at(node)} runs at import`);
  let inFunction = 0;
  let inType = 0;
  const count = (delta: number) => (): void => void (inFunction += delta);
  const countType = (delta: number) => (): void => void (inType += delta);
  // A property's name (`x.process`, `{ process: … }`) is no use of the global.
  const names = new Set<ESTree.Node>();
  const visitor: Record<string, (node: never) => void> = {
    MemberExpression: (node: ESTree.MemberExpression) => {
      const viaGlobalThis = node.object.type === 'Identifier' && node.object.name === 'globalThis' && node.property.type === 'Identifier' && RUNTIME_GLOBALS.has(node.property.name);
      if (!node.computed && !viaGlobalThis) names.add(node.property);
    },
    Property: (node: ESTree.ObjectProperty) => void (!node.computed && !node.shorthand && names.add(node.key)),
    FunctionDeclaration: count(1),
    'FunctionDeclaration:exit': count(-1),
    FunctionExpression: count(1),
    'FunctionExpression:exit': count(-1),
    ArrowFunctionExpression: count(1),
    'ArrowFunctionExpression:exit': count(-1),
    AwaitExpression: (node: ESTree.Node) => void (inFunction === 0 && findings.push(`${at(node)} awaits at import`)),
    Identifier: (node: ESTree.IdentifierReference) => void (inFunction === 0 && inType === 0 && !names.has(node) && RUNTIME_GLOBALS.has(node.name) && findings.push(`${at(node)} uses ${node.name} at import`)),
  };
  for (const type of TYPE_NODES) {
    visitor[type] = countType(1);
    visitor[`${type}:exit`] = countType(-1);
  }
  new Visitor(visitor as VisitorObject).visit(program);
  return findings;
}
