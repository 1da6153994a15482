/**
 * Text helpers of the humans' views: escaping untrusted text for a terminal
 * and for HTML, durations, and colours that cost nothing when off.
 * @module
 */

/**
 * Control characters, and the bidirectional overrides that make text display
 * in another order than it is stored ("Trojan source"): a summary written by
 * another agent must not move the cursor, recolour the terminal or hide text.
 */
const UNSAFE_TERMINAL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Untrusted text made safe for one terminal line: controls become `\uXXXX`. */
export function terminalSafe(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  return text.replace(UNSAFE_TERMINAL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The terminal's unsafe set less tab and line breaks, which HTML lays out as
 * spaces: a browser applies the bidirectional overrides too (a summary
 * "\u202eevil" displays as "live") and draws other controls as boxes.
 */
const UNSAFE_HTML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * HTML (already escaped, or rendered from Markdown) with each control and
 * bidirectional override shown as the text `\uXXXX`: visible and inert.
 */
export function visibleControls(html: string): string {
  return html.replace(UNSAFE_HTML, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Escape text for HTML element content and quoted attribute values (controls shown as `\uXXXX`). */
export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  return visibleControls(text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!));
}

/** A duration for people: `42s`, `5m 3s`, `2h 5m`, `3d 4h`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** The colours the views use. */
export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

/**
 * Colours, or plain text. picocolors is imported only when colour is on: its
 * module reads the environment when loaded, which Deno refuses without
 * `--allow-env` (and the edge turns colour off when it cannot read it).
 */
export async function paint(color: boolean): Promise<Paint> {
  if (!color) {
    const plain = (text: string): string => text;
    return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain, magenta: plain };
  }
  const pc = (await import('picocolors')).default.createColors(true);
  return { bold: pc.bold, dim: pc.dim, red: pc.red, green: pc.green, yellow: pc.yellow, cyan: pc.cyan, magenta: pc.magenta };
}

/** A signed folder's verification in one line (status and the report; docs/signing.md). */
export function describeSigning(signing: { events: number; verified: number; unsigned: [number, number][]; policy: string; head: { seq: number; sha256: string } | null; problems: number }): string {
  const unsigned = signing.unsigned.reduce((n, [a, b]) => n + b - a + 1, 0);
  const head = signing.head ? `head seq ${signing.head.seq} ${signing.head.sha256}` : 'no signed head';
  const problems = signing.problems ? `, ${signing.problems} problem${signing.problems === 1 ? '' : 's'}` : '';
  return `${signing.verified} of ${signing.events} events verified${unsigned ? ` (${unsigned} unsigned)` : ''}, policy ${signing.policy}, ${head}${problems}`;
}
