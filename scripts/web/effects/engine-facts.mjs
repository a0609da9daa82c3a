// Numbers the compiled EffectAsset must carry (gfx Type/Format/BlendFactor/…, RenderPriority) and the
// macros the legacy pipeline always prepends, read from the engine's own TypeScript at compile time so
// that they can never drift from the engine we ship: `cocos/gfx/base/define.ts`,
// `cocos/rendering/define.ts` and `cocos/rendering/render-pipeline.ts` (`_generateConstantMacros`).
import fs from 'node:fs';
import path from 'node:path';

const cache = new Map();

/** Evaluates one enum initialiser: numbers, hex, `1 << n`, `A | B`, `X + 4`, `X * 4`, earlier members. */
function evaluateInitialiser(expression, known) {
  const source = expression.replace(/\b[A-Za-z_]\w*\b/g, (word) => {
    if (!(word in known)) throw new Error(`engine enum initialiser references unknown name ${word}`);
    return String(known[word]);
  });
  if (!/^[\d\sxXa-fA-F|&<>+\-*/.()~]+$/.test(source)) throw new Error(`cannot evaluate enum initialiser ${expression}`);
  return Function(`"use strict"; return (${source});`)();
}

/** Parses `export enum Name { A, B = 0x2, C = A | B, }` bodies into name → number maps. */
export function parseTsEnums(text) {
  const enums = {};
  for (const match of text.matchAll(/export\s+(?:const\s+)?enum\s+(\w+)\s*\{([\s\S]*?)\n\}/g)) {
    try {
      enums[match[1]] = parseEnumBody(match[2]);
    } catch (_error) {
      // Enums whose initialisers reference other modules' constants are not needed here.
    }
  }
  return enums;
}

function parseEnumBody(rawBody) {
  const body = rawBody.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const members = {};
  let next = 0;
  for (const rawEntry of body.split(',')) {
    const entry = rawEntry.trim();
    if (!entry) continue;
    const [name, initialiser] = entry.split('=').map((part) => part.trim());
    if (!/^\w+$/.test(name)) continue;
    if (initialiser !== undefined && /^['"]/.test(initialiser)) {
      members[name] = initialiser.slice(1, -1); // string enum (e.g. AttributeName)
      continue;
    }
    const value = initialiser === undefined ? next : evaluateInitialiser(initialiser, members);
    members[name] = value;
    next = value + 1;
  }
  return members;
}

/** The `#define NAME` lines RenderPipeline._generateConstantMacros() prepends to every shader. */
function parsePipelineConstantMacros(text) {
  const start = text.indexOf('_generateConstantMacros (): void');
  if (start < 0) throw new Error('render-pipeline.ts: _generateConstantMacros not found');
  const end = text.indexOf('this._constantMacros = str;', start);
  return [...text.slice(start, end).matchAll(/#define (\w+) /g)].map((match) => match[1]);
}

/** Engine facts for one engine tree (cached per root). */
export function loadEngineFacts(engineRoot) {
  const root = path.resolve(engineRoot);
  if (cache.has(root)) return cache.get(root);
  const read = (relative) => fs.readFileSync(path.join(root, relative), 'utf8');
  const gfx = parseTsEnums(read('cocos/gfx/base/define.ts'));
  const rendering = parseTsEnums(read('cocos/rendering/define.ts'));
  for (const name of ['Type', 'Format', 'BlendFactor', 'BlendOp', 'ColorMask', 'ComparisonFunc', 'StencilOp']) {
    if (!gfx[name]) throw new Error(`cocos/gfx/base/define.ts: enum ${name} not found`);
  }
  const facts = {
    gfx,
    renderPriority: rendering.RenderPriority,
    pipelineConstantMacros: parsePipelineConstantMacros(read('cocos/rendering/render-pipeline.ts')),
  };
  cache.set(root, facts);
  return facts;
}
