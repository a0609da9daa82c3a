/**
 * Shared parts of the effect-compiler tests (scripts/web/effects/): where the engine v3.8.5 tree is,
 * running the compiler (an ES module) in a child Node, reading facts straight from the engine's
 * TypeScript (independently of the compiler's own reader), building a shader exactly as the engine
 * does before WebGL2 compiles it, and running glslangValidator on it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const REPO = join(__dirname, '..', '..', '..');
const COMPILER = pathToFileURL(join(REPO, 'scripts', 'web', 'effects', 'compile-effect.mjs')).href;

let located: string | null = null;

/**
 * The engine tree: the one scripts/web/test-play.mjs located and passes in OAM_ENGINE_ROOT, else
 * found the same way (scripts/engine/locate-engine.mjs, docs/engine.md).
 */
export function engineRoot(): string {
  if (!located) {
    const locate = pathToFileURL(join(REPO, 'scripts', 'engine', 'locate-engine.mjs')).href;
    located =
      process.env.OAM_ENGINE_ROOT ||
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { locateEngine } = await import(${JSON.stringify(locate)});
           console.log(locateEngine({ say: (line) => console.error(line) }).root);`,
        ],
        { encoding: 'utf8' },
      ).trim();
  }
  if (!existsSync(join(located, 'editor', 'assets', 'effects')))
    throw new Error(`the engine tree ${located} has no editor/assets/effects`);
  return located;
}

export function readEngine(relative: string): string {
  return readFileSync(join(engineRoot(), relative), 'utf8');
}

export interface Uniform {
  name: string;
  type: number;
  count: number;
}
export interface Define {
  name: string;
  type: 'boolean' | 'number' | 'string';
  range?: number[];
  options?: string[];
}
export interface Shader {
  name: string;
  hash: number;
  glsl3: { vert: string; frag: string };
  defines: Define[];
  builtins: {
    statistics: Record<string, number>;
    globals: { blocks: { name: string }[] };
    locals: { blocks: { name: string }[] };
  };
  attributes: { name: string; format: number; location: number; defines: string[] }[];
  blocks: { name: string; binding: number; stageFlags: number; members: Uniform[]; defines: string[] }[];
  samplerTextures: { name: string; binding: number; type: number }[];
  descriptors: { rate: number; blocks: { name: string; members: Uniform[] }[] }[];
}
export interface Pass {
  program: string;
  blendState?: { targets: Record<string, number | boolean>[] };
  rasterizerState?: Record<string, number | boolean>;
  depthStencilState?: Record<string, number | boolean>;
  properties?: Record<string, { type: number; value?: number[] | string; handleInfo?: [string, number, number] }>;
  priority?: number;
}
export interface EffectAsset {
  __type__: string;
  _name: string;
  techniques: { name?: string; passes: Pass[] }[];
  shaders: Shader[];
  [key: string]: unknown;
}

/** Runs `program` (an ES module body with `compiler` imported) in Node and parses what it prints. */
function runCompiler<T>(program: string, args: string[]): T {
  const source = `const compiler = await import(${JSON.stringify(COMPILER)});\n${program}`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', source, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out) as T;
}

export function compileEngineEffects(): { uuid: string; asset: EffectAsset }[] {
  return runCompiler('console.log(JSON.stringify(compiler.compileEngineEffects({ engineRoot: process.argv[1] })));', [
    engineRoot(),
  ]);
}

/** compileEffect on one file: the asset, or the thrown Error's message. */
export function compileEffectFile(effectPath: string): { asset?: EffectAsset; error?: string } {
  return runCompiler(
    `try {
       console.log(JSON.stringify({ asset: compiler.compileEffect({ engineRoot: process.argv[1], effectPath: process.argv[2] }) }));
     } catch (error) {
       console.log(JSON.stringify({ error: error instanceof Error ? error.message : 'not an Error: ' + String(error) }));
     }`,
    [engineRoot(), effectPath],
  );
}

/**
 * A TypeScript `enum` from an engine file, parsed here (not with the compiler's parser): implicit
 * increments, literals, `1 << n`, `A | B`, `X + 4`, `COUNT * 4` over earlier members.
 */
export function engineEnum(relative: string, name: string): Record<string, number> {
  const text = readEngine(relative);
  const start = text.indexOf(`export enum ${name} {`);
  if (start < 0) throw new Error(`${relative}: enum ${name} not found`);
  const body = text.slice(text.indexOf('{', start) + 1, text.indexOf('\n}', start));
  const members: Record<string, number> = {};
  let next = 0;
  for (const entry of body
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .split(',')) {
    const [key, expression] = entry.split('=').map((part) => part.trim());
    if (!key) continue;
    let value = next;
    if (expression !== undefined) {
      const substituted = expression.replace(/\b[A-Za-z_]\w*/g, (word) => String(members[word] ?? NaN));
      value = Function(`return (${substituted});`)() as number;
    }
    members[key] = value;
    next = value + 1;
  }
  return members;
}

/** `new Uniform('cc_time', Type.FLOAT4, 1)` entries of `export class <name>`'s LAYOUT, with Type numbers. */
export function engineUboLayout(className: string): Uniform[] {
  const text = readEngine('cocos/rendering/define.ts');
  const start = text.indexOf(`export class ${className} {`);
  if (start < 0) throw new Error(`cocos/rendering/define.ts: class ${className} not found`);
  const layout = text.slice(text.indexOf('LAYOUT = new UniformBlock(', start), text.indexOf('], 1);', start));
  const types = engineEnum('cocos/gfx/base/define.ts', 'Type');
  return [...layout.matchAll(/new Uniform\('(\w+)', Type\.(\w+), (\d+)\)/g)].map((match) => ({
    name: match[1],
    type: types[match[2]],
    count: Number(match[3]),
  }));
}

/** Values for RenderPipeline._generateConstantMacros()'s names as a WebGL2 device in Chrome gives them. */
const pipelineValues: Record<string, number> = {
  CC_DEVICE_SUPPORT_FLOAT_TEXTURE: 1,
  CC_ENABLE_CLUSTERED_LIGHT_CULLING: 0,
  CC_DEVICE_MAX_VERTEX_UNIFORM_VECTORS: 4095,
  CC_DEVICE_MAX_FRAGMENT_UNIFORM_VECTORS: 1024,
  CC_DEVICE_CAN_BENEFIT_FROM_INPUT_ATTACHMENT: 0,
  CC_PLATFORM_ANDROID_AND_WEBGL: 0,
  CC_ENABLE_WEBGL_HIGHP_STRUCT_VALUES: 0,
  CC_JOINT_UNIFORM_CAPACITY: 30,
};

/** The pipeline's constant macros, names read from cocos/rendering/render-pipeline.ts. */
export function pipelineConstantMacros(): string {
  const text = readEngine('cocos/rendering/render-pipeline.ts');
  const body = text.slice(
    text.indexOf('_generateConstantMacros (): void'),
    text.indexOf('this._constantMacros = str;'),
  );
  const names = [...body.matchAll(/#define (\w+) /g)].map((match) => match[1]);
  return names
    .map((name) => {
      if (!(name in pipelineValues)) throw new Error(`render-pipeline.ts defines ${name}; give it a test value`);
      return `#define ${name} ${pipelineValues[name]}\n`;
    })
    .join('');
}

export type Macros = Record<string, boolean | number | string>;

/** program-utils.ts mapDefine(). */
function mapDefine(info: Define, value: boolean | number | string | undefined): string {
  switch (info.type) {
    case 'boolean':
      return typeof value === 'number' ? value.toString() : value ? '1' : '0';
    case 'string':
      return value !== undefined ? String(value) : info.options![0];
    case 'number':
      return value !== undefined ? value.toString() : info.range![0].toString();
  }
}

/**
 * The stage source WebGL2 compiles: `#version 300 es\n` (WebGL2CmdFuncCreateShader) + pipeline
 * constantMacros + template constantMacros (the statistics, populateMacros) + one `#define` per
 * template define (prepareDefines) + glsl3 (ProgramLib.getGFXShader).
 */
export function engineStageSource({
  shader,
  macros,
  stage,
}: {
  shader: Shader;
  macros: Macros;
  stage: 'vert' | 'frag';
}): string {
  const constantMacros = Object.entries(shader.builtins.statistics)
    .map(([key, value]) => `#define ${key} ${value}\n`)
    .join('');
  const defines = shader.defines.map((info) => `#define ${info.name} ${mapDefine(info, macros[info.name])}\n`).join('');
  return `#version 300 es\n${pipelineConstantMacros() + constantMacros + defines}${shader.glsl3[stage]}`;
}

export function glslangPath(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v glslangValidator'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** Compiles and links a vert/frag pair with glslangValidator; returns its output on failure, else null. Also its reflection (`-q`). */
export function glslang({ vert, frag, reflect = false }: { vert: string; frag: string; reflect?: boolean }): {
  ok: boolean;
  output: string;
} {
  const dir = mkdtempSync(join(tmpdir(), 'oam-glslang-'));
  try {
    writeFileSync(join(dir, 'shader.vert'), vert);
    writeFileSync(join(dir, 'shader.frag'), frag);
    const args = [...(reflect ? ['-q'] : []), '-l', join(dir, 'shader.vert'), join(dir, 'shader.frag')];
    const run = spawnSync(glslangPath() ?? 'glslangValidator', args, { encoding: 'utf8' });
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Deterministic pseudo-random numbers (mulberry32) for sampling large define spaces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function choicesOf(info: Define): (boolean | number | string)[] {
  if (info.type === 'boolean') return [false, true];
  if (info.type === 'string') return info.options!;
  const [low, high] = info.range!;
  return Array.from({ length: high - low + 1 }, (_, index) => low + index);
}

/**
 * Define combinations to validate: every combination when there are at most `limit`, otherwise every
 * single choice of each define against all-off and all-on backgrounds plus `samples` seeded random ones.
 */
export function defineCombinations(
  defines: Define[],
  { limit = 1024, samples = 160 } = {},
): { macros: Macros[]; exhaustive: boolean } {
  const choices = defines.map(choicesOf);
  const total = choices.reduce((product, list) => product * list.length, 1);
  if (total <= limit) {
    let combos: Macros[] = [{}];
    defines.forEach((info, index) => {
      combos = combos.flatMap((combo) => choices[index].map((choice) => ({ ...combo, [info.name]: choice })));
    });
    return { macros: combos, exhaustive: true };
  }
  const pick = (index: number, on: boolean) => (on ? choices[index][choices[index].length - 1] : choices[index][0]);
  const background = (on: boolean): Macros =>
    Object.fromEntries(defines.map((info, index) => [info.name, pick(index, on)]));
  const combos: Macros[] = [background(false), background(true)];
  defines.forEach((info, index) => {
    for (const choice of choices[index]) {
      combos.push({ ...background(false), [info.name]: choice });
      combos.push({ ...background(true), [info.name]: choice });
    }
  });
  const next = random(0x5eed);
  for (let sample = 0; sample < samples; sample++) {
    combos.push(
      Object.fromEntries(
        defines.map((info, index) => [info.name, choices[index][Math.floor(next() * choices[index].length)]]),
      ),
    );
  }
  return { macros: combos, exhaustive: false };
}
