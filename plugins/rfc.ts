/**
 * Plugin `rfc`: a Request for Comments deliverable type (not built in).
 *
 * Load it with `--plugin acp:rfc` (bundled), `--plugin path/to/plugins/rfc.ts`
 * or a `plugins:` entry of `acp.config.yaml`, then
 * `acp init --primary-deliverable-type rfc …`. The folder records the
 * primary deliverable as `type: "custom"` with the RFC sections as its
 * checklist and `pluginType: "rfc"`, so tools without this plugin still
 * validate it.
 *
 * Beyond section presence, its check enforces (when loaded):
 * - a header (above the first `##` section) with exactly one
 *   `Discussion: <http(s) URL | none>` line and one
 *   `Supersedes: <none | RFC-<n>[, RFC-<n>…]>` line;
 * - once the RFC must be frozen: `Alternatives` lists at least two options
 *   (top-level list items, or `###` headings), `Unresolved Questions` says
 *   `None` (open items belong in readiness.md), and — with option
 *   `requireDiscussionUrl` — `Discussion:` is a URL; a `Drawbacks` section
 *   that says `None` is a warning.
 *
 * Options (config file): `minAlternatives` (number, default 2),
 * `requireDiscussionUrl` (boolean, default false).
 *
 * Like any drop-in plugin it imports only types from runtime/types.ts and gets the API
 * through its context argument.
 * @module
 */
import type { AcpPlugin, DeliverableCheckContext, Findings, PluginContext } from '../runtime/types.ts';

/** The RFC's required sections, in order. */
export const RFC_SECTIONS: readonly string[] = ['Summary', 'Motivation', 'Detailed Design', 'Drawbacks', 'Alternatives', 'Unresolved Questions'];

const URL_RE = /^https?:\/\/\S+$/;
const RFC_ID_RE = /^RFC-\d{1,6}$/;
const LIST_ITEM_RE = /^ ?(?:[-*+]|\d{1,3}[.)])[ \t]+\S/;
const SUBHEADING_RE = /^###[ \t]+\S/;

/** The text above the first `## ` heading (title, type, status and header fields). */
function headerOf(text: string): string {
  // Lines end at \n only (the core's rule; the text has universal newlines).
  const match = /(?<![^\n])## /.exec(text);
  return match ? text.slice(0, match.index) : text;
}

/** Values of `Name: value` lines in the header. */
function headerValues(header: string, name: string): string[] {
  const re = new RegExp(`^${name}:[ \\t]*(.*?)[ \\t]*$`);
  return header.split('\n').flatMap((line) => re.exec(line)?.[1] ?? []);
}

/** Whether a section body says there is nothing: `None`, `- None.`, `N/A`. */
function saysNone(body: string): boolean {
  const text = body
    .trim()
    .replace(/^[-*+][ \t]+/, '')
    .replace(/\.$/, '')
    .trim()
    .toLowerCase();
  return text === 'none' || text === 'n/a';
}

/** Options in an Alternatives section: `###` headings if any, else top-level list items. */
function countOptions(body: string): number {
  const lines = body.split('\n');
  const headings = lines.filter((line) => SUBHEADING_RE.test(line)).length;
  return headings || lines.filter((line) => LIST_ITEM_RE.test(line)).length;
}

/** The plugin factory: acp calls it with the plugin API. */
export default function rfcPlugin(context: PluginContext): AcpPlugin {
  const { options, markdown } = context;
  const minAlternatives = options.minAlternatives ?? 2;
  if (typeof minAlternatives !== 'number' || !Number.isInteger(minAlternatives) || minAlternatives < 1) {
    throw new Error(`option minAlternatives must be a positive integer, got ${JSON.stringify(minAlternatives)}`);
  }
  const requireDiscussionUrl = options.requireDiscussionUrl ?? false;
  if (typeof requireDiscussionUrl !== 'boolean') throw new Error('option requireDiscussionUrl must be true or false');

  const check = ({ text, ref, frozenRequired }: DeliverableCheckContext): Findings => {
    const errors: string[] = [];
    const warnings: string[] = [];
    const header = headerOf(text);
    const discussion = headerValues(header, 'Discussion');
    if (discussion.length !== 1) errors.push(`${ref}: the header (above the first section) must have exactly one \`Discussion:\` line (an http(s) URL or \`none\`)`);
    else if (!URL_RE.test(discussion[0]!) && discussion[0]!.toLowerCase() !== 'none') {
      errors.push(`${ref}: \`Discussion:\` must be an http(s) URL or \`none\`, got '${discussion[0]}'`);
    } else if (frozenRequired && requireDiscussionUrl && !URL_RE.test(discussion[0]!)) {
      errors.push(`${ref}: \`Discussion:\` must link the discussion once the RFC is frozen`);
    }
    const supersedes = headerValues(header, 'Supersedes');
    if (supersedes.length !== 1) errors.push(`${ref}: the header (above the first section) must have exactly one \`Supersedes:\` line (\`none\` or RFC-<number>, …)`);
    else if (supersedes[0]!.toLowerCase() !== 'none') {
      const bad = supersedes[0]!.split(',').map((id) => id.trim()).filter((id) => !RFC_ID_RE.test(id));
      if (bad.length) errors.push(`${ref}: \`Supersedes:\` must be \`none\` or a comma-separated list of RFC-<number>, got '${supersedes[0]}'`);
    }
    if (frozenRequired) {
      const alternatives = markdown.sectionBody(text, 'Alternatives');
      if (alternatives !== undefined) {
        const found = countOptions(alternatives);
        if (found < minAlternatives) errors.push(`${ref}: Alternatives must list at least ${minAlternatives} options (list items or ### headings) once frozen; found ${found}`);
      }
      const unresolved = markdown.sectionBody(text, 'Unresolved Questions');
      if (unresolved !== undefined && !saysNone(unresolved)) {
        errors.push(`${ref}: Unresolved Questions must say None once frozen (classify open questions in readiness.md instead)`);
      }
      const drawbacks = markdown.sectionBody(text, 'Drawbacks');
      if (drawbacks !== undefined && saysNone(drawbacks)) warnings.push(`${ref}: Drawbacks says None; every design has some cost worth writing down`);
    }
    return { errors, warnings };
  };

  const rfc = context.defineDeliverableType({
    type: 'rfc',
    title: 'Request for Comments',
    defaultFile: 'rfc.md',
    description: 'A proposal open for comments: motivation, design, drawbacks and at least two alternatives.',
    // Extra --primary-deliverable-check values add sections after the RFC's own.
    sections: (checklist) => [...RFC_SECTIONS, ...checklist.map((c) => c.trim()).filter((c) => c && !RFC_SECTIONS.includes(c))],
    template: ({ title, type, sections }) =>
      `# ${title}\n\nDeliverable type: \`${type}\`\nStatus: Draft\nDiscussion: none\nSupersedes: none\n\n` + sections.map((section) => `## ${section}\n\n\n`).join('\n'),
    gates: ({ defaults }) => [
      ...defaults,
      'RFC header has one `Discussion:` and one `Supersedes:` line',
      `RFC \`Alternatives\` lists at least ${minAlternatives} options`,
      'RFC `Unresolved Questions` says None',
    ],
    check,
  });
  return context.definePlugin({ name: 'rfc', deliverableTypes: [rfc] });
}
