/**
 * The layer check that `npm test` runs (scripts/check-layers.mjs): the project's own src passes,
 * and a tree with a cycle between folders or an import its layer may not make fails, naming the
 * files involved; so does a cycle between two files, between two of the project's top-level
 * folders (the bench and the demo), and a file or function past its size.
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

/** Runs one exported function of the check in Node with JSON arguments; its JSON result. */
function callCheck(name: string, args: unknown[]): unknown {
  const program = `
    const check = await import(${JSON.stringify(CHECK)});
    console.log(JSON.stringify(check[process.argv[1]](...JSON.parse(process.argv[2]))));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', program, name, JSON.stringify(args)], {
    encoding: 'utf8',
  });
  return JSON.parse(output);
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

  test('two files importing each other fail, types included, and so does a stale allow-list entry', () => {
    const root = tree({
      'src/core/tools/call.ts':
        "import type { Approval } from './approval';\nexport type Call = { approval?: Approval };\n",
      'src/core/tools/approval.ts':
        "import type { Call } from './call';\nexport type Approval = (call: Call) => boolean;\n",
    });
    try {
      expect(callCheck('checkFileCycles', [root, ['src'], []])).toEqual([
        'import cycle between files: src/core/tools/approval.ts → src/core/tools/call.ts → src/core/tools/approval.ts',
      ]);
      expect(callCheck('checkFileCycles', [root, ['src'], ['src/a.ts src/b.ts']])).toContain(
        'import cycle is gone: remove "src/a.ts src/b.ts" from KNOWN_FILE_CYCLES',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the demo importing the bench while the bench imports the demo fails', () => {
    const root = tree({
      'bench/index.ts': "import { persona } from '../demo/persona';\nexport const rows = [persona];\n",
      'demo/persona.ts': "import { COST } from '../bench/cost';\nexport const persona = COST;\n",
      'bench/cost.ts': 'export const COST = 1;\n',
    });
    try {
      const problems = callCheck('checkProjectFolders', [root, ['bench', 'demo']]) as string[];
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^import cycle between project folders: bench → demo \(bench\/index\.ts\), demo → bench/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("the project's own folders and files have no cycle", () => {
    expect(callCheck('checkProjectFolders', [])).toEqual([]);
    expect(callCheck('checkFileCycles', [])).toEqual([]);
  });

  test('a file or a function past its limit fails unless listed, a listed one may not grow, a fixed one must leave the list', () => {
    const body = Array.from({ length: 85 }, (_, index) => `  total += ${index};`).join('\n');
    const root = tree({
      'src/long.ts': `export function long(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`,
    });
    try {
      const sizes = callCheck('readSizes', [root, ['src']]) as { files: object; functions: Record<string, number> };
      expect(sizes.functions).toEqual({ 'src/long.ts long': 89 });
      expect(callCheck('checkSizes', [sizes, { files: {}, functions: {} }])).toEqual([
        'function over 80 lines: src/long.ts long (89)',
      ]);
      expect(callCheck('checkSizes', [sizes, { files: {}, functions: { 'src/long.ts long': 89 } }])).toEqual([]);
      expect(callCheck('checkSizes', [sizes, { files: {}, functions: { 'src/long.ts long': 88 } }])).toEqual([
        'function grew past its allow-list size: src/long.ts long (89, listed 88)',
      ]);
      expect(
        callCheck('checkSizes', [sizes, { files: { 'src/gone.ts': 500 }, functions: { 'src/long.ts long': 89 } }]),
      ).toEqual(['file is no longer over 400 lines (or is gone): remove src/gone.ts from the allow-list']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("today's sizes are within the allow-lists", () => {
    expect(callCheck('checkSizes', [callCheck('readSizes', [])])).toEqual([]);
  });
});
