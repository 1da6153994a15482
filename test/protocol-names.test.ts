// Two protocols are called "ACP" (issue 39): the folders are the Agent
// Collaboration Protocol's, `acp serve` speaks the Agent Communication
// Protocol's JSON-RPC methods. Each place that names them names both, each
// for what it is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_DIR } from './conformance/replay.ts';
import { acp } from './humans/context.ts';

const FOLDERS = /Agent\s+\*?Collaboration\*?\s+Protocol/;
const METHODS = /Agent\s+\*?Communication\*?\s+Protocol/;

describe('the two protocols named "ACP"', () => {
  test('serve --help names the folders\' protocol and the methods\' protocol', async () => {
    const help = (await acp(['serve', '--help'])).stdout;
    expect(help).toMatch(/Agent Collaboration Protocol folders/);
    expect(help).toMatch(/Agent Communication Protocol's methods/);
  });

  test('docs/rpc.md and the README say which protocol is which', () => {
    const intro = readFileSync(join(REPO_DIR, 'docs', 'rpc.md'), 'utf8').split('\n\n').slice(1, 3).join('\n\n');
    expect(intro).toMatch(FOLDERS);
    expect(intro).toMatch(METHODS);
    const readme = readFileSync(join(REPO_DIR, 'README.md'), 'utf8');
    const server = /\*\*\[JSON-RPC server\]\(docs\/rpc\.md\)\.\*\*([^]*?)\n\n/.exec(readme)![1]!;
    expect(server).toMatch(FOLDERS);
    expect(server).toMatch(METHODS);
  });
});
