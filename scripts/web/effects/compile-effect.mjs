// Entry point: compiles one Cocos Creator `.effect` (v3.8.5 syntax) into the EffectAsset the engine
// deserialises from the editor's library ("dynamic") JSON form, with WebGL2 (`glsl3`) shaders only.
// Creator's own effect compiler lives in the editor and is not on npm; this covers what 2D/UI needs.
// Steps: parse-blocks → preprocess (includes, macros) → reflect → emit-glsl, states, properties.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngineFacts } from './engine-facts.mjs';
import { parseEffectBlocks } from './parse-blocks.mjs';
import { preprocessProgram } from './preprocess.mjs';
import { reflectProgram } from './reflect.mjs';
import { emitGlsl3 } from './emit-glsl.mjs';
import { convertPassStates } from './states.mjs';
import { convertProperties } from './properties.mjs';

/**
 * Effects (relative to editor/assets/effects) the 2D/UI build needs: the `dependentAssets` of the
 * base and 2d features (cc.config.json). builtin-unlit backs missing-material; splash-screen draws
 * the splash a build shows before its first scene.
 */
export const supportedEngineEffects = [
  'util/splash-screen',
  'for2d/builtin-sprite',
  'for2d/builtin-sprite-renderer',
  'internal/builtin-graphics',
  'internal/builtin-clear-stencil',
  'builtin-unlit',
];

const passKeys = new Set([
  'vert',
  'frag',
  'properties',
  'migrations',
  'priority',
  'primitive',
  'stage',
  'phase',
  'pass',
  'subpass',
  'propertyIndex',
  'embeddedMacros',
  'switch',
  'rasterizerState',
  'depthStencilState',
  'blendState',
  'dynamicStates',
]);

/** Effect name as the engine looks effects up (EffectAsset.get('internal/builtin-geometry-renderer')). */
function effectNameOf({ engineRoot, effectPath }) {
  const effectsRoot = path.join(engineRoot, 'editor/assets/effects');
  const relative = path.relative(effectsRoot, effectPath);
  const inside = relative && !relative.startsWith('..') && !path.isAbsolute(relative);
  return (inside ? relative : path.basename(effectPath)).replace(/\\/g, '/').replace(/\.effect$/, '');
}

function splitEntry({ value, key, where }) {
  if (typeof value !== 'string' || !value) throw new Error(`${where}: pass needs a '${key}: program:function'`);
  const [program, entry = 'main'] = value.split(':');
  return { program, entry };
}

function descriptorSets({ reflection }) {
  const builtinsAt = (rate) => ({
    blocks: reflection.allBlocks
      .filter((block) => block.builtin === rate)
      .map((block) => ({
        name: block.name,
        members: reflection.builtinBlockMembers[block.name],
        binding: block.layoutBinding ?? 0,
        stageFlags: block.stageFlags,
      })),
    samplerTextures: reflection.allSamplers
      .filter((sampler) => sampler.builtin === rate)
      .map((sampler) => ({
        name: sampler.name,
        type: sampler.type,
        count: sampler.count,
        binding: sampler.layoutBinding ?? 0,
        stageFlags: sampler.stageFlags,
      })),
  });
  const empty = { blocks: [], samplerTextures: [] };
  const rest = { samplers: [], textures: [], buffers: [], images: [], subpassInputs: [] };
  const strip = ({ defines: _defines, ...item }) => item;
  // Indexed by UpdateFrequency (cocos/rendering/custom/types.ts): instance, batch, phase, pass.
  return [
    { rate: 0, ...builtinsAt('local'), ...rest },
    { rate: 1, blocks: reflection.blocks.map(strip), samplerTextures: reflection.samplerTextures.map(strip), ...rest },
    { rate: 2, ...empty, ...rest },
    { rate: 3, ...builtinsAt('global'), ...rest },
  ];
}

function compileShader({ name, file, programs, chunksRoot, facts, vert, frag }) {
  const stages = {
    vert: preprocessProgram({ file, programs, chunksRoot, program: vert.program }),
    frag: preprocessProgram({ file, programs, chunksRoot, program: frag.program }),
  };
  const reflection = reflectProgram({ file, stages, facts });
  const glsl3 = {
    vert: emitGlsl3({
      text: stages.vert.text,
      stage: 'vert',
      entry: vert.entry,
      where: `${file} (CCProgram ${vert.program})`,
    }),
    frag: emitGlsl3({
      text: stages.frag.text,
      stage: 'frag',
      entry: frag.entry,
      where: `${file} (CCProgram ${frag.program})`,
    }),
  };
  const hash = crypto.createHash('sha1').update(`${name}\n${glsl3.vert}\n${glsl3.frag}`).digest().readUInt32BE(0);
  const shader = {
    name,
    hash,
    builtins: reflection.builtins,
    defines: reflection.defines,
    attributes: reflection.attributes,
    blocks: reflection.blocks,
    samplerTextures: reflection.samplerTextures,
    samplers: [],
    textures: [],
    buffers: [],
    images: [],
    subpassInputs: [],
    descriptors: descriptorSets({ reflection }),
    glsl3,
  };
  return { shader, reflection };
}

function compilePass({ pass, where, context }) {
  if (!pass || typeof pass !== 'object') throw new Error(`${where}: pass is not a mapping`);
  for (const key of Object.keys(pass)) if (!passKeys.has(key)) throw new Error(`${where}: unknown pass key ${key}`);
  const vert = splitEntry({ value: pass.vert, key: 'vert', where });
  const frag = splitEntry({ value: pass.frag, key: 'frag', where });
  const program = `${context.name}|${pass.vert}|${pass.frag}`;
  if (!context.shaders.has(program)) {
    context.shaders.set(program, compileShader({ ...context, name: program, vert, frag }));
  }
  const { reflection } = context.shaders.get(program);
  const info = { program, ...convertPassStates({ pass, facts: context.facts, where }) };
  for (const key of ['stage', 'phase', 'pass', 'subpass', 'propertyIndex', 'embeddedMacros', 'switch']) {
    if (pass[key] !== undefined) info[key] = pass[key];
  }
  const properties = convertProperties({ properties: pass.properties, reflection, facts: context.facts, where });
  if (properties) info.properties = properties;
  return info; // `migrations` are editor-only (material upgrades) and not read at run time.
}

/**
 * @param {{ engineRoot: string, effectPath: string }} input
 * @returns {object} EffectAsset in library JSON form
 */
export function compileEffect({ engineRoot, effectPath }) {
  const file = path.resolve(effectPath);
  let source;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${file}: cannot read effect (${error.code ?? error.message})`, { cause: error });
  }
  const { effect, programs } = parseEffectBlocks({ source, file });
  const context = {
    name: effectNameOf({ engineRoot, effectPath: file }),
    file,
    programs,
    chunksRoot: path.join(engineRoot, 'editor/assets/chunks'),
    facts: loadEngineFacts(engineRoot),
    shaders: new Map(),
  };
  const techniques = effect.techniques.map((technique, techniqueIndex) => {
    const passes = technique?.passes;
    if (!Array.isArray(passes) || passes.length === 0)
      throw new Error(`${file}: technique ${techniqueIndex} has no passes`);
    const compiled = {
      passes: passes.map((pass, passIndex) =>
        compilePass({ pass, where: `${file}: technique ${techniqueIndex} pass ${passIndex}`, context }),
      ),
    };
    if (technique.name !== undefined) compiled.name = technique.name;
    return compiled;
  });
  return {
    __type__: 'cc.EffectAsset',
    _name: context.name,
    _objFlags: 0,
    _native: '',
    techniques,
    shaders: [...context.shaders.values()].map((entry) => entry.shader),
    combinations: [],
    hideInEditor: false,
  };
}

/** The supported engine effects with their uuids from the `.meta` files: `[{ uuid, asset }]`. */
export function compileEngineEffects({ engineRoot }) {
  return supportedEngineEffects.map((name) => {
    const effectPath = path.join(engineRoot, 'editor/assets/effects', `${name}.effect`);
    const meta = JSON.parse(fs.readFileSync(`${effectPath}.meta`, 'utf8'));
    if (!meta.uuid) throw new Error(`${effectPath}.meta: no uuid`);
    return { uuid: meta.uuid, asset: compileEffect({ engineRoot, effectPath }) };
  });
}
