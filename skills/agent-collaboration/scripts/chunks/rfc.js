globalThis[Symbol.for("acp.chunk:./chunks/rfc.js")] = async function (__acpRequire, __acpMeta, __acpLoad) {
"use strict";
// plugins/rfc.ts
var RFC_SECTIONS = ["Summary", "Motivation", "Detailed Design", "Drawbacks", "Alternatives", "Unresolved Questions"];
var URL_RE = /^https?:\/\/\S+$/;
var RFC_ID_RE = /^RFC-\d{1,6}$/;
var LIST_ITEM_RE = /^ ?(?:[-*+]|\d{1,3}[.)])[ \t]+\S/;
var SUBHEADING_RE = /^###[ \t]+\S/;
function headerOf(text) {
  const match = /(?<![^\n])## /.exec(text);
  return match ? text.slice(0, match.index) : text;
}
function headerValues(header, name) {
  const re = new RegExp(`^${name}:[ \\t]*(.*?)[ \\t]*$`);
  return header.split(`
`).flatMap((line) => re.exec(line)?.[1] ?? []);
}
function saysNone(body) {
  const text = body.trim().replace(/^[-*+][ \t]+/, "").replace(/\.$/, "").trim().toLowerCase();
  return text === "none" || text === "n/a";
}
function countOptions(body) {
  const lines = body.split(`
`);
  const headings = lines.filter((line) => SUBHEADING_RE.test(line)).length;
  return headings || lines.filter((line) => LIST_ITEM_RE.test(line)).length;
}
function rfcPlugin(context) {
  const { options, markdown } = context;
  const minAlternatives = options.minAlternatives ?? 2;
  if (typeof minAlternatives !== "number" || !Number.isInteger(minAlternatives) || minAlternatives < 1) {
    throw new Error(`option minAlternatives must be a positive integer, got ${JSON.stringify(minAlternatives)}`);
  }
  const requireDiscussionUrl = options.requireDiscussionUrl ?? false;
  if (typeof requireDiscussionUrl !== "boolean")
    throw new Error("option requireDiscussionUrl must be true or false");
  const check = ({ text, ref, frozenRequired }) => {
    const errors = [];
    const warnings = [];
    const header = headerOf(text);
    const discussion = headerValues(header, "Discussion");
    if (discussion.length !== 1)
      errors.push(`${ref}: the header (above the first section) must have exactly one \`Discussion:\` line (an http(s) URL or \`none\`)`);
    else if (!URL_RE.test(discussion[0]) && discussion[0].toLowerCase() !== "none") {
      errors.push(`${ref}: \`Discussion:\` must be an http(s) URL or \`none\`, got '${discussion[0]}'`);
    } else if (frozenRequired && requireDiscussionUrl && !URL_RE.test(discussion[0])) {
      errors.push(`${ref}: \`Discussion:\` must link the discussion once the RFC is frozen`);
    }
    const supersedes = headerValues(header, "Supersedes");
    if (supersedes.length !== 1)
      errors.push(`${ref}: the header (above the first section) must have exactly one \`Supersedes:\` line (\`none\` or RFC-<number>, \u2026)`);
    else if (supersedes[0].toLowerCase() !== "none") {
      const bad = supersedes[0].split(",").map((id) => id.trim()).filter((id) => !RFC_ID_RE.test(id));
      if (bad.length)
        errors.push(`${ref}: \`Supersedes:\` must be \`none\` or a comma-separated list of RFC-<number>, got '${supersedes[0]}'`);
    }
    if (frozenRequired) {
      const alternatives = markdown.sectionBody(text, "Alternatives");
      if (alternatives !== undefined) {
        const found = countOptions(alternatives);
        if (found < minAlternatives)
          errors.push(`${ref}: Alternatives must list at least ${minAlternatives} options (list items or ### headings) once frozen; found ${found}`);
      }
      const unresolved = markdown.sectionBody(text, "Unresolved Questions");
      if (unresolved !== undefined && !saysNone(unresolved)) {
        errors.push(`${ref}: Unresolved Questions must say None once frozen (classify open questions in readiness.md instead)`);
      }
      const drawbacks = markdown.sectionBody(text, "Drawbacks");
      if (drawbacks !== undefined && saysNone(drawbacks))
        warnings.push(`${ref}: Drawbacks says None; every design has some cost worth writing down`);
    }
    return { errors, warnings };
  };
  const rfc = context.defineDeliverableType({
    type: "rfc",
    title: "Request for Comments",
    defaultFile: "rfc.md",
    description: "A proposal open for comments: motivation, design, drawbacks and at least two alternatives.",
    sections: (checklist) => [...RFC_SECTIONS, ...checklist.map((c) => c.trim()).filter((c) => c && !RFC_SECTIONS.includes(c))],
    template: ({ title, type, sections }) => `# ${title}

Deliverable type: \`${type}\`
Status: Draft
Discussion: none
Supersedes: none

` + sections.map((section) => `## ${section}


`).join(`
`),
    gates: ({ defaults }) => [
      ...defaults,
      "RFC header has one `Discussion:` and one `Supersedes:` line",
      `RFC \`Alternatives\` lists at least ${minAlternatives} options`,
      "RFC `Unresolved Questions` says None"
    ],
    check
  });
  return context.definePlugin({ name: "rfc", deliverableTypes: [rfc] });
}
return { RFC_SECTIONS, "default": rfcPlugin };

};
