/**
 * The event log (spec §4): events.jsonl read whole or streamed in chunks,
 * its lines parsed and written in the field order the Python tools use.
 * @module
 */
import * as nodePath from 'node:path';
import { AcpError } from './errors.ts';
import { READ_LIMITS, logDecodeError, openCapped, readCapped, readWholeLines } from './files.ts';
import type { FileReader, Host } from './host.ts';
import { PyJsonError, dumpsPy, lineReader, pyKeys } from './pyjson.ts';
import { decodeText, endsWithLineBreak, hasLoneSurrogate, pyRepr, pySplitLines, pyStrip } from './pytext.ts';
import type { EventLog, Json, ResumePoint } from './types.ts';
import { errorCode, isObject, isPyIntLike, pySeqKey, sleep } from './util.ts';

/** Parse events.jsonl text (spec §4). */
export function parseEventLog(text: string): Omit<EventLog, 'size'> {
  const events: Json[] = [];
  const errors: string[] = [];
  const { tornTail } = parseEventLines(text, 0, true, (event) => void events.push(event), errors);
  return { events, errors, tornTail };
}

/**
 * Parse a run of whole lines of events.jsonl (text after universal
 * newlines) whose first line is line `before + 1`; `last` when the run ends
 * the file. Events go to `onEvent`, bad lines to `errors`.
 */
function parseEventLines(text: string, before: number, last: boolean, onEvent: (event: Json, line: string) => void, errors: string[]): { lines: number; tornTail: boolean } {
  // The Python tools split the log with str.splitlines() and read each line with json.loads.
  const lines = pySplitLines(text);
  const tornTail = last && text.length > 0 && !endsWithLineBreak(text);
  const read = lineReader(text);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // An event line starts with `{`: skip the (regex) blank test for it.
    if (line.charCodeAt(0) !== 0x7b && pyStrip(line) === '') continue;
    let value: unknown;
    try {
      value = read(line);
    } catch (error) {
      // An unterminated last line that is not JSON is what an interrupted
      // writer leaves: say so (after the detail, which tools compare loosely).
      const torn = tornTail && i === lines.length - 1 ? ` (the last line is incomplete: a writer was interrupted; \`acp doctor --fix\` repairs it)` : '';
      errors.push(`events.jsonl line ${before + i + 1}: invalid JSON: ${jsonErrorDetail(error)}${torn}`);
      continue;
    }
    if (!isObject(value)) {
      errors.push(`events.jsonl line ${before + i + 1}: event must be an object`);
      continue;
    }
    onEvent(value, line);
  }
  return { lines: lines.length, tornTail };
}

/**
 * Read events.jsonl for a reader that does not take the lock: a line being
 * appended at this moment can be caught half-copied (the OS copies a write
 * page by page), so an unreadable last line is read once more before it is
 * reported. A torn line left by a killed writer is still there then.
 */
export async function readEventLogSettled(host: Host, folder: string): Promise<EventLog> {
  try {
    const log = await readEventLog(host, folder);
    if (!log.tornTail || !log.errors.length) return log;
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
  }
  await sleep(25);
  return readEventLog(host, folder);
}

/** Read and parse events.jsonl; a missing file is `error: missing events.jsonl`. */
export async function readEventLog(host: Host, folder: string): Promise<EventLog> {
  const events: Json[] = [];
  let lastLine: string | undefined;
  const rest = await scanEventLog(host, folder, (event, line) => {
    events.push(event);
    lastLine = line;
  });
  return { events, ...rest, lastLine };
}

/**
 * How much of events.jsonl is decoded at a time: a long log is never held
 * as one string (validate of 100k events stays far below 150 MB).
 */
const LOG_CHUNK_BYTES = 1 << 20;

/**
 * Read events.jsonl and hand its events to `onEvent` in order, a megabyte of
 * whole lines at a time (never the whole log at once); returns the errors of
 * bad lines (as {@link readEventLog}). Throws what readEventLog throws, maybe
 * after some events: the consumer then starts afresh. `resume` (the
 * validation checkpoint) may vouch for a prefix; `afterChunk` runs after
 * each piece's events (validate checks their signatures there).
 */
export async function scanEventLog(
  host: Host,
  folder: string,
  onEvent: (event: Json, line: string) => void,
  resume?: (file: FileReader) => Promise<ResumePoint | undefined>,
  afterChunk?: () => Promise<void>,
): Promise<Omit<EventLog, 'events'> & { lines: number }> {
  const path = nodePath.join(folder, 'events.jsonl');
  let file: FileReader;
  try {
    file = await openCapped(host, path, READ_LIMITS.log, 'events.jsonl');
  } catch (error) {
    // The Python tools refuse a folder without its log (issue 12 item 5):
    // starting a new history there would split it from theirs for good.
    if (errorCode(error) === 'ENOENT') throw new AcpError('missing events.jsonl', 2, 'invalid_log');
    if (errorCode(error) === 'EISDIR') throw new AcpError('events.jsonl is a directory, not the event log');
    if (errorCode(error) === 'ELOOP') throw new AcpError('events.jsonl is a symbolic link loop, not the event log');
    throw error;
  }
  try {
    const from = await resume?.(file);
    const errors: string[] = from?.errors ?? [];
    let before = from?.lines ?? 0;
    let tornTail = false;
    const scan = async (lines: Uint8Array, end: boolean): Promise<void> => {
      let text: string;
      try {
        text = decodeText(lines, 'events.jsonl');
      } catch (error) {
        throw logDecodeError(await readCapped(host, path, READ_LIMITS.log, 'events.jsonl'), error);
      }
      const run = parseEventLines(text, before, end, onEvent, errors);
      before += run.lines;
      tornTail = run.tornTail;
      await afterChunk?.();
    };
    const position = await readWholeLines(file, from?.offset ?? 0, LOG_CHUNK_BYTES, scan, from?.seen);
    return { errors, size: position, tornTail, lines: before };
  } finally {
    await file.close();
  }
}

/** The fields of an event in the order the tools write them (spec §4); other keys follow in their own order. */
const EVENT_FIELD_ORDER = ['seq', 'from', 'event', 'at', 'summary', 'doc', 'reply_to', 'role', 'sha256'];

/** Serialise an event as one compact line (spec §4) as json.dumps does, with U+0085/U+2028/U+2029 escaped. */
export function formatEventLine(event: Json): string {
  const keys = [...EVENT_FIELD_ORDER.filter((key) => Object.hasOwn(event, key)), ...pyKeys(event).filter((key) => !EVENT_FIELD_ORDER.includes(key))];
  const members = keys.flatMap((key) => (event[key] === undefined ? [] : [`${dumpsPy(key)}:${dumpsPy(event[key])}`]));
  return `{${members.join(',')}}`.replace(/[\u0085\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}

/**
 * Refuse to write text that UTF-8 cannot encode: a lone surrogate, which is
 * what a command-line byte that is not UTF-8 becomes (`$'x\xffy'` is
 * `'x\udcffy'`, as Python decodes argv). The Python tools fail to write
 * such an event or folder (UnicodeEncodeError); acp says so before writing
 * anything. `what` names the file; `values` are the strings going into it.
 */
export function refuseUnencodable(what: string, values: unknown): void {
  const bad = firstLoneSurrogateText(values);
  if (bad === undefined) return;
  const char = [...bad].find((ch) => hasLoneSurrogate(ch))!;
  throw new AcpError(`cannot write ${what}: ${pyRepr(bad)} holds ${pyRepr(char)}, which UTF-8 cannot encode (a byte that is not UTF-8 in the command line, or a lone surrogate); nothing was written`, 2, 'invalid_event');
}

/** The first string (or key) in a JSON value that holds a lone surrogate. */
function firstLoneSurrogateText(value: unknown): string | undefined {
  if (typeof value === 'string') return hasLoneSurrogate(value) ? value : undefined;
  if (Array.isArray(value) || value instanceof Map) {
    for (const item of value instanceof Map ? [...value].flat() : value) {
      const found = firstLoneSurrogateText(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') return firstLoneSurrogateText(Object.entries(value).flat());
  return undefined;
}

/**
 * A JSON parser's complaint, made engine-neutral: V8 quotes the whole input
 * ("…" is not valid JSON) and JavaScriptCore prefixes "JSON Parse error: ";
 * either would leak file content (or a second `error: `) into our message.
 */
export function jsonErrorDetail(error: unknown): string {
  if (error instanceof PyJsonError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return (
    message
      .replace(/^JSON Parse error:\s*/, '')
      .replace(/,\s*".*" is not valid JSON$/s, '')
      .replace(/\berror:\s*/gi, '')
      .split('\n', 1)[0] || 'invalid JSON'
  );
}

/** Next seq: largest integer seq + 1, or 1 (spec §4). */
export function nextSeq(events: Json[]): number {
  return highestSeq(events) + 1;
}

/** The highest integer seq of the log (0 when none): what a refusal past 2^53 quotes (`nextSeq - 1` is rounded there). */
export function highestSeq(events: Json[]): number {
  let max = 0;
  for (const event of events) if (isPyIntLike(event.seq) && Number(pySeqKey(event.seq)) > max) max = Number(pySeqKey(event.seq));
  return max;
}
