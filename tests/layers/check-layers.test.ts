/**
 * The layer check that `npm test` runs (scripts/check-layers.mjs): the project's own src passes,
 * and a tree with a cycle between folders or an import its layer may not make fails, naming the
 * files involved.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CHECK = pathToFileURL(join(__dirname, '..', '..', 'scripts', 'check-layers.mjs')).href;

/** Runs the check's readFolderGraph in Node (the script is an ES module): each folder's targets and the problems. */
function readFolderGraph(sourceRoot?: string): { edges: Record<string, string[]>; problems: string[] } {
  const program = `
    const { readFolderGraph } = await import(${JSON.stringify(CHECK)});
    const { edges, problems } = readFolderGraph(process.argv[1] || undefined);
    const shown = Object.fromEntries([...edges].map(([from, targets]) => [from, [...targets.keys()].sort()]));
    console.log(JSON.stringify({ edges: shown, problems }));`;
  const args = ['--input-type=module', '-e', program, sourceRoot ?? ''];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' }));
}

/** A throwaway src tree: path → source text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'oam-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the layer check', () => {
  test("the project's src has no cycle between folders and no forbidden import", () => {
    const { edges, problems } = readFolderGraph();
    expect(problems).toEqual([]);
    expect(edges.contract).toBeUndefined();
    expect(edges.models).toEqual(['contract']);
    expect(edges['core/prompt']).not.toContain('core/agent');
  });

  test('a cycle between two folders of one layer fails, naming a file on each side', () => {
    const root = tree({
      'core/agent/agent.ts': "import type { Note } from '../prompt/note';\nexport type Agent = Note;\n",
      'core/prompt/note.ts': "import type { Agent } from '../agent/agent';\nexport type Note = Agent | string;\n",
    });
    try {
      const { problems } = readFolderGraph(root);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^import cycle between folders: core\/agent → core\/prompt \(core\/agent\/agent\.ts\)/,
      );
      expect(problems[0]).toContain('core/prompt → core/agent (core/prompt/note.ts)');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the contract importing core, or a backend importing the game layer, fails', () => {
    const root = tree({
      'contract/errors.ts': "import { helper } from '../core/json/helper';\nexport const code = helper;\n",
      'core/json/helper.ts': 'export const helper = 1;\n',
      'models/backend.ts': "import { NPC } from '../game/npc/npc';\nexport const made = NPC;\n",
      'game/npc/npc.ts': 'export const NPC = 2;\n',
    });
    try {
      const { problems } = readFolderGraph(root);
      expect(problems).toEqual([
        'contract/errors.ts imports ../core/json/helper: contract may not depend on core',
        'models/backend.ts imports ../game/npc/npc: models may not depend on game',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
