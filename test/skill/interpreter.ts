// A scripted agent that follows SKILL.md literally: it reads the skill's
// loop and phase sections as numbered steps, and does each step by what it
// says — runs its command with the placeholders filled, writes or appends
// its template, or does one of the few edits the skill describes in words.
// A step it does not recognise fails the test: the skill and this reader
// must agree. The same reader drives the CLI (shell commands) and an MCP
// client (each command translated into the tool of the same name).

/** One numbered step: its words and its code blocks. */
export interface SkillStep {
  number: number;
  text: string;
  bash: string[];
  markdown: string[];
}

/** A `### ` section of "What to do in each phase" (or the loop). */
export interface SkillSection {
  heading: string;
  steps: SkillStep[];
}

/** The parts of SKILL.md the agent follows. */
export interface Skill {
  loop: SkillStep[];
  phases: SkillSection[];
  /** Commands outside the loop and the phases, by their first words (`init`, `status`, `report`, `validate`, `blocked`). */
  commands: string[];
  /** The paragraph that says what a custom type's init also needs. */
  customInit: string;
  /** Every bash command line of the page. */
  allCommands: string[];
}

/** Fenced blocks of a step body with its list indentation removed. */
function blocksOf(lines: string[], language: string): string[] {
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j]!.trim() !== '```'; j++) body.push(lines[j]!.slice(Math.min(indent, lines[j]!.length - lines[j]!.trimStart().length)));
    if (open[2] === language) blocks.push(body.join('\n'));
    i = j;
  }
  return blocks;
}

/** The words of a step body, code blocks left out, joined on one line. */
function wordsOf(lines: string[]): string {
  const out: string[] = [];
  let inBlock = false;
  for (const line of lines) {
    if (/^\s*```/.test(line)) inBlock = !inBlock;
    else if (!inBlock) out.push(line.trim());
  }
  return out.join(' ').replace(/\s+/g, ' ').trim();
}

/** Numbered steps of a piece of Markdown (`1. …` at the start of a line, the step's lines indented below it). */
export function stepsOf(markdown: string): SkillStep[] {
  const steps: SkillStep[] = [];
  let current: { number: number; lines: string[] } | undefined;
  const flush = (): void => {
    if (current) steps.push({ number: current.number, text: wordsOf(current.lines), bash: blocksOf(current.lines, 'bash'), markdown: blocksOf(current.lines, 'markdown') });
  };
  for (const line of markdown.split('\n')) {
    const start = /^(\d+)\. (.*)$/.exec(line);
    if (start) {
      flush();
      current = { number: Number(start[1]), lines: [start[2]!] };
    } else if (current && (line.startsWith('   ') || line.trim() === '')) current.lines.push(line);
    else if (current) {
      flush();
      current = undefined;
    }
  }
  flush();
  return steps;
}

/** The `## ` part of the page named `title` (up to the next `## `). */
function part(page: string, title: string): string {
  const start = page.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`SKILL.md has no "## ${title}"`);
  const rest = page.slice(start + title.length + 5);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** Read SKILL.md the way the scripted agent uses it. */
export function parseSkill(page: string): Skill {
  const phases = part(page, 'What to do in each phase')
    .split(/^### /m)
    .slice(1)
    .map((chunk) => ({ heading: chunk.split('\n', 1)[0]!.trim(), steps: stepsOf(chunk) }));
  const outside = ['Starting a collaboration (only the one who starts it)', 'Telling the user', 'Blocking', 'When a command is refused'].flatMap((title) => blocksOf(part(page, title).split('\n'), 'bash'));
  const allCommands = blocksOf(page.split('\n'), 'bash').flatMap((block) => block.split('\n')).filter((line) => line.trim() !== '');
  return { loop: stepsOf(part(page, 'The loop')), phases, commands: outside.flatMap((b) => b.split('\n')).filter(Boolean), customInit: part(page, 'Starting a collaboration (only the one who starts it)'), allCommands };
}

/** What the loop's `wait` printed, as the agent reads it. */
export interface Turn {
  phase: string;
  owner: string;
  waitingFor: string[];
  lastSeq: number;
  lastEvent: string;
}

/** Read the lines `wait` prints after `ready: …`. */
export function readTurn(text: string): Turn {
  const field = (name: string): string => {
    const m = new RegExp(`^${name}: (.*)$`, 'm').exec(text);
    if (!m) throw new Error(`no "${name}:" line in:\n${text}`);
    return m[1]!;
  };
  const last = /^last event: seq (\d+) (\S+) from /m.exec(text);
  const waiting = field('waiting for');
  return { phase: field('phase'), owner: field('proposal owner'), waitingFor: waiting === 'none' ? [] : waiting.split(', '), lastSeq: last ? Number(last[1]) : 0, lastEvent: last ? last[2]! : '' };
}

/** The phase section for a participant: the first whose heading's phase and role fit (SKILL.md orders them so). */
export function sectionFor(skill: Skill, turn: Turn, me: string): SkillSection {
  for (const section of skill.phases) {
    const h = section.heading;
    const phases = h.split(/[ ,(]/)[0]!.split(' ');
    const named = h.startsWith(`${turn.phase} `) || h.startsWith(`${turn.phase},`) || (h.startsWith('completed or blocked') && (turn.phase === 'completed' || turn.phase === 'blocked'));
    if (!named || !phases.length) continue;
    const owner = me === turn.owner;
    if (h.includes('(proposal owner)') && !owner) continue;
    if (h.includes('(each reviewer)') && owner) continue;
    const when = /, proposal owner, when last event is (\w+)/.exec(h);
    if (when && !(owner && turn.lastEvent === when[1])) continue;
    return section;
  }
  throw new Error(`SKILL.md has no section for ${me} in phase ${turn.phase}`);
}

/** Fill `<name>` placeholders; any other `<…>` in a document is prose the agent writes. */
export function fill(text: string, values: Record<string, string>): string {
  let out = text;
  for (const [name, value] of Object.entries(values)) out = out.split(`<${name}>`).join(value);
  return out;
}

/** Prose for the placeholders that ask the agent to write something. */
export function prose(text: string): string {
  return text.replace(/<[^>\n]+>/g, 'Settled between the participants');
}

/** A command line's words (quotes removed) and its flags (`--name value`, repeatable; `--flag` alone is `true`). */
export function parseCommand(line: string): { words: string[]; flags: Record<string, (string | true)[]> } {
  const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  const flags: Record<string, (string | true)[]> = {};
  for (let i = 0; i < words.length; i++) {
    if (!words[i]!.startsWith('--')) continue;
    const next = words[i + 1];
    const value = next === undefined || next.startsWith('--') ? true : words[++i]!;
    (flags[words[i - (value === true ? 0 : 1)]!.slice(2)] ??= []).push(value);
  }
  return { words, flags };
}
