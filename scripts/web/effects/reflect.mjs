// Reflection: reads the flattened GLSL of a program's stages and finds what the engine needs to know
// without compiling it: the preprocessor defines (and their types/ranges), vertex attributes, uniform
// blocks and samplers with the `#if` conditions they sit under, and which of them are engine builtins
// (`#pragma builtin(global|local)`). gfx numbers come from engine-facts (cocos/gfx/base/define.ts).

const glslTypeToGfx = {
  bool: 'BOOL',
  bvec2: 'BOOL2',
  bvec3: 'BOOL3',
  bvec4: 'BOOL4',
  int: 'INT',
  ivec2: 'INT2',
  ivec3: 'INT3',
  ivec4: 'INT4',
  uint: 'UINT',
  uvec2: 'UINT2',
  uvec3: 'UINT3',
  uvec4: 'UINT4',
  u32vec4: 'UINT4',
  float: 'FLOAT',
  vec2: 'FLOAT2',
  vec3: 'FLOAT3',
  vec4: 'FLOAT4',
  mat2: 'MAT2',
  mat2x3: 'MAT2X3',
  mat2x4: 'MAT2X4',
  mat3x2: 'MAT3X2',
  mat3: 'MAT3',
  mat3x4: 'MAT3X4',
  mat4x2: 'MAT4X2',
  mat4x3: 'MAT4X3',
  mat4: 'MAT4',
  sampler2D: 'SAMPLER2D',
  sampler2DShadow: 'SAMPLER2D',
  sampler2DArray: 'SAMPLER2D_ARRAY',
  sampler3D: 'SAMPLER3D',
  samplerCube: 'SAMPLER_CUBE',
  usampler2D: 'SAMPLER2D',
  isampler2D: 'SAMPLER2D',
};

// Default vertex formats per attribute type (Creator's convention; `#pragma format(X)` overrides).
const attributeFormats = {
  float: 'R32F',
  vec2: 'RG32F',
  vec3: 'RGB32F',
  vec4: 'RGBA32F',
  int: 'R32I',
  ivec2: 'RG32I',
  ivec3: 'RGB32I',
  ivec4: 'RGBA32I',
  uint: 'R32UI',
  uvec2: 'RG32UI',
  uvec3: 'RGB32UI',
  uvec4: 'RGBA32UI',
  u32vec4: 'RGBA32UI',
};

// Floats per member and std140 base alignment, for the "no implicit padding" rule the engine assumes
// (program-utils genHandles: "assumes no implicit padding, which is guaranteed by effect compiler").
const floatsPerType = { float: 1, int: 1, uint: 1, bool: 1, vec2: 2, ivec2: 2, uvec2: 2, bvec2: 2 };
const vec3Like = new Set(['vec3', 'ivec3', 'uvec3', 'bvec3']);
const vec4Like = new Set(['vec4', 'ivec4', 'uvec4', 'bvec4']);

const directive = /^\s*#\s*(\w+)\s*(.*)$/;
const ignoredIdentifiers = new Set(['defined', 'GL_ES', '__VERSION__', '__LINE__', '__FILE__']);

function identifiersOf(expression) {
  return [...expression.matchAll(/\b[A-Za-z_]\w*\b/g)].map((match) => match[0]);
}

/** Necessary conditions of an `#if` expression as `NAME` / `!NAME` terms (Creator's simple grammar). */
function conditionTerms(expression) {
  const trimmed = expression.trim();
  if (trimmed.includes('||')) return [];
  const terms = [];
  for (const rawPart of trimmed.split('&&')) {
    const part = rawPart
      .trim()
      .replace(/^\((.*)\)$/, '$1')
      .trim();
    const simple = /^(!?)\s*(?:defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)|(\w+))$/.exec(part);
    if (simple) terms.push(`${simple[1]}${simple[2] ?? simple[3] ?? simple[4]}`);
  }
  return terms;
}

function negate(terms) {
  if (terms.length !== 1) return [];
  return [terms[0].startsWith('!') ? terms[0].slice(1) : `!${terms[0]}`];
}

/** Per line: the condition terms in force, plus every identifier the conditions mention. */
function scanConditions(lines) {
  const stack = [];
  const lineTerms = [];
  const conditionIdentifiers = [];
  const comparedIdentifiers = new Set();
  const testedIdentifiers = new Set(); // named in #if/#elif (not only in #ifdef/#ifndef guards)
  const noteExpression = (expression, isGuard = false) => {
    conditionIdentifiers.push(...identifiersOf(expression));
    // `#ifdef X` / `defined(X)` test presence only; the engine #defines every listed define (false
    // as 0), so a name tested only that way (CC_USE_SURFACE_SHADER) must stay out of the list.
    const valueTested = isGuard ? '' : expression.replace(/defined\s*\(\s*\w+\s*\)|defined\s+\w+/g, '');
    identifiersOf(valueTested).forEach((name) => testedIdentifiers.add(name));
    for (const match of expression.matchAll(
      /(\b[A-Za-z_]\w*)\s*(?:==|!=|<=|>=|<|>)|(?:==|!=|<=|>=|<|>)\s*([A-Za-z_]\w*)/g,
    )) {
      comparedIdentifiers.add(match[1] ?? match[2]);
    }
  };
  for (const line of lines) {
    const match = directive.exec(line);
    if (match) {
      const [, keyword, rest] = match;
      if (keyword === 'if') {
        noteExpression(rest);
        stack.push(conditionTerms(rest));
      } else if (keyword === 'ifdef' || keyword === 'ifndef') {
        noteExpression(rest, true);
        stack.push([`${keyword === 'ifndef' ? '!' : ''}${rest.trim()}`]);
      } else if (keyword === 'elif') {
        noteExpression(rest);
        stack[stack.length - 1] = conditionTerms(rest);
      } else if (keyword === 'else') {
        stack[stack.length - 1] = negate(stack[stack.length - 1]);
      } else if (keyword === 'endif') {
        stack.pop();
      }
    }
    lineTerms.push(stack.flat());
  }
  return { lineTerms, conditionIdentifiers, comparedIdentifiers, testedIdentifiers };
}

/** `#pragma` lines directly above line `index` (blank lines skipped). */
function pragmasAbove(lines, index) {
  const pragmas = [];
  for (let cursor = index - 1; cursor >= 0; cursor--) {
    const line = lines[cursor].trim();
    if (!line) continue;
    const match = /^#\s*pragma\s+(.*)$/.exec(line);
    if (!match) break;
    pragmas.push(match[1].trim());
  }
  return pragmas;
}

function lineIndexAt(text, offset) {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

function braceDepthAt(code, offset) {
  let depth = 0;
  for (let index = 0; index < offset; index++) {
    if (code[index] === '{') depth++;
    else if (code[index] === '}') depth--;
  }
  return depth;
}

function arrayCount({ suffix, constants }) {
  if (!suffix) return 1;
  const inner = suffix.slice(1, -1).trim();
  const substituted = inner.replace(/\b[A-Za-z_]\w*\b/g, (word) => (word in constants ? constants[word] : 'NaN'));
  if (!/^[\d\s+\-*/()NaN]+$/.test(substituted)) return 0;
  const value = Function(`"use strict"; return (${substituted});`)();
  return Number.isFinite(value) ? value : 0; // 0: the engine fills in counts it knows (cc_joints, …)
}

function numericConstants(text) {
  const constants = {};
  for (const match of text.matchAll(/^\s*#\s*define\s+(\w+)\s+(\d+)\s*$/gm)) constants[match[1]] = match[2];
  return constants;
}

function parseMembers({ body, constants, where }) {
  const members = [];
  for (const statement of body.split(';')) {
    const trimmed = statement.trim();
    if (!trimmed) continue;
    const match = /^(?:(?:lowp|mediump|highp)\s+)?(\w+)\s+(.+)$/.exec(trimmed);
    if (!match) throw new Error(`${where}: cannot read uniform member "${trimmed}"`);
    for (const declarator of match[2].split(',')) {
      const member = /^\s*(\w+)\s*(\[[^\]]*\])?\s*$/.exec(declarator);
      if (!member || !glslTypeToGfx[match[1]]) throw new Error(`${where}: cannot read uniform member "${trimmed}"`);
      members.push({ glslType: match[1], name: member[1], count: arrayCount({ suffix: member[2], constants }) });
    }
  }
  return members;
}

/** Throws if std140 would place a member elsewhere than the engine's packed offsets. */
function checkPacking({ members, where }) {
  let offset = 0;
  for (const member of members) {
    const isMatrix = /^mat/.test(member.glslType);
    if (isMatrix && member.glslType !== 'mat4') {
      throw new Error(`${where}: member ${member.name} is ${member.glslType}; only mat4 packs without padding`);
    }
    const isArray = member.count !== 1;
    const vectorLike = vec4Like.has(member.glslType) || vec3Like.has(member.glslType);
    const alignment = isMatrix || isArray || vectorLike ? 4 : (floatsPerType[member.glslType] ?? 1);
    if (isArray && !vec4Like.has(member.glslType) && !isMatrix) {
      throw new Error(`${where}: array member ${member.name} must be vec4 or mat4 (std140 pads other arrays)`);
    }
    if (offset % alignment !== 0) {
      throw new Error(`${where}: member ${member.name} would get implicit std140 padding; reorder or pad the block`);
    }
    const size = isMatrix ? 16 : vec3Like.has(member.glslType) ? 3 : vec4Like.has(member.glslType) ? 4 : alignment;
    offset += size * Math.max(member.count, 1);
  }
}

function vec4Slots(members) {
  return members.reduce((sum, member) => {
    const perElement = /^mat(\d)/.exec(member.glslType)?.[1] ?? 1;
    return sum + Number(perElement) * member.count;
  }, 0);
}

function parseDefineMeta(text) {
  const metas = new Map();
  for (const match of text.matchAll(/^\s*#\s*pragma\s+define-meta\s+(\w+)(.*)$/gm)) {
    const meta = { name: match[1] };
    const range = /range\(\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\)/.exec(match[2]);
    const options = /options\(\s*\[([^\]]*)\]\s*\)/.exec(match[2]);
    const fallback = /default\(\s*([^)]*?)\s*\)/.exec(match[2]);
    if (range) meta.range = [Number(range[1]), Number(range[2])];
    if (options)
      meta.options = options[1]
        .split(',')
        .map((option) => option.trim())
        .filter(Boolean);
    if (fallback) meta.default = fallback[1];
    metas.set(meta.name, { ...metas.get(meta.name), ...meta });
  }
  return metas;
}

function layoutBinding(qualifiers) {
  const match = /\bbinding\s*=\s*(\d+)/.exec(qualifiers ?? '');
  return match ? Number(match[1]) : undefined;
}

/** Scans one stage. Returns declarations in order, each with the condition terms above it. */
function scanStage({ text, stage, file, facts }) {
  const lines = text.split('\n');
  const { lineTerms, conditionIdentifiers, comparedIdentifiers, testedIdentifiers } = scanConditions(lines);
  const code = lines.map((line) => (directive.test(line) ? '' : line)).join('\n');
  const constants = numericConstants(text);
  const found = {
    blocks: [],
    samplers: [],
    attributes: [],
    conditionIdentifiers,
    comparedIdentifiers,
    testedIdentifiers,
  };
  const where = (name) => `${file} (${stage} ${name})`;
  const context = (offset) => {
    const line = lineIndexAt(code, offset);
    return { terms: lineTerms[line], pragmas: pragmasAbove(lines, line) };
  };
  const builtinOf = (pragmas) =>
    pragmas.map((pragma) => /^builtin\(\s*(global|local)\s*\)/.exec(pragma)?.[1]).find(Boolean);

  const blockPattern = /(?:layout\s*\(([^)]*)\)\s*)?\buniform\s+(\w+)\s*\{([^}]*)\}\s*(\w*)\s*;/g;
  for (const match of code.matchAll(blockPattern)) {
    if (braceDepthAt(code, match.index) !== 0) continue;
    if (match[4]) throw new Error(`${where(match[2])}: uniform block instance names are not supported`);
    const { terms, pragmas } = context(match.index);
    const members = parseMembers({ body: match[3], constants, where: where(match[2]) });
    const builtin = builtinOf(pragmas);
    if (!builtin) checkPacking({ members, where: where(`block ${match[2]}`) });
    found.blocks.push({ name: match[2], members, terms, builtin, stage, layoutBinding: layoutBinding(match[1]) });
  }
  const uniformPattern =
    /(?:layout\s*\(([^)]*)\)\s*)?\buniform\s+(?:(?:lowp|mediump|highp)\s+)?(\w+)\s+(\w+)\s*(\[[^\]]*\])?\s*;/g;
  for (const match of code.matchAll(uniformPattern)) {
    if (braceDepthAt(code, match.index) !== 0) continue;
    const typeName = glslTypeToGfx[match[2]];
    if (!typeName || !typeName.startsWith('SAMPLER')) {
      throw new Error(`${where(match[3])}: loose uniform ${match[2]} ${match[3]}; put it in a uniform block`);
    }
    const { terms, pragmas } = context(match.index);
    found.samplers.push({
      name: match[3],
      type: facts.gfx.Type[typeName],
      count: arrayCount({ suffix: match[4], constants }),
      terms,
      builtin: builtinOf(pragmas),
      stage,
      layoutBinding: layoutBinding(match[1]),
    });
  }
  if (stage === 'vert') {
    const attributePattern =
      /(?<=^|[;}\n])\s*(?:layout\s*\(([^)]*)\)\s*)?\bin\s+(?:(?:flat|smooth|lowp|mediump|highp)\s+)*(\w+)\s+(\w+)\s*(\[[^\]]*\])?\s*;/g;
    for (const match of code.matchAll(attributePattern)) {
      if (braceDepthAt(code, match.index) !== 0) continue;
      const { terms, pragmas } = context(match.index + match[0].search(/\S/));
      const formatPragma = pragmas.map((pragma) => /^format\(\s*(\w+)\s*\)/.exec(pragma)?.[1]).find(Boolean);
      const formatName = formatPragma ?? attributeFormats[match[2]];
      if (!formatName || facts.gfx.Format[formatName] === undefined) {
        throw new Error(`${where(match[3])}: no vertex format for attribute type ${match[2]}`);
      }
      found.attributes.push({
        name: match[3],
        glslType: match[2],
        format: facts.gfx.Format[formatName],
        terms,
      });
    }
  }
  return found;
}

/**
 * Reflects a vert/frag pair.
 * @param {{ file: string, stages: { vert: {text, macroNames}, frag: {text, macroNames} }, facts: object }} input
 */
export function reflectProgram({ file, stages, facts }) {
  const { Type, ShaderStageFlagBit } = facts.gfx;
  const scans = { vert: scanStage({ text: stages.vert.text, stage: 'vert', file, facts }) };
  scans.frag = scanStage({ text: stages.frag.text, stage: 'frag', file, facts });

  // Defines: identifiers in #if conditions and #pragma define-meta, minus macros the program defines
  // itself, GL_*/__* builtins, and the constants the pipeline / program-lib prepend.
  const macroNames = new Set([...stages.vert.macroNames, ...stages.frag.macroNames]);
  const statistics = ['CC_EFFECT_USED_VERTEX_UNIFORM_VECTORS', 'CC_EFFECT_USED_FRAGMENT_UNIFORM_VECTORS'];
  const excluded = new Set([...facts.pipelineConstantMacros, ...statistics, ...ignoredIdentifiers]);
  const metas = new Map([...parseDefineMeta(stages.vert.text), ...parseDefineMeta(stages.frag.text)]);
  const guarded = new Map([...stages.vert.guardedConstants, ...stages.frag.guardedConstants]);
  const tested = new Set([...scans.vert.testedIdentifiers, ...scans.frag.testedIdentifiers]);
  const isDefine = (name) =>
    !macroNames.has(name) &&
    !excluded.has(name) &&
    !/^(GL_|__)/.test(name) &&
    (tested.has(name) || (metas.has(name) && !guarded.has(name)));
  const order = [];
  const orderSeen = new Set();
  const metaOrder = (text) => [...text.matchAll(/^\s*#\s*pragma\s+define-meta\s+(\w+)/gm)].map((match) => match[1]);
  for (const name of [
    ...scans.vert.conditionIdentifiers,
    ...metaOrder(stages.vert.text),
    ...scans.frag.conditionIdentifiers,
    ...metaOrder(stages.frag.text),
  ]) {
    if (!orderSeen.has(name) && isDefine(name)) order.push(name);
    orderSeen.add(name);
  }
  const compared = new Set([...scans.vert.comparedIdentifiers, ...scans.frag.comparedIdentifiers]);
  const defines = order.map((name) => {
    const meta = metas.get(name) ?? {};
    // A constant the chunks only define under `#ifndef`: a one-value number define, so program-lib
    // prepends the very value the chunk would have defined, in both stages.
    if (guarded.has(name)) return { name, type: 'number', range: [guarded.get(name), guarded.get(name)] };
    if (meta.options) return { name, type: 'string', options: meta.options };
    if (meta.range) return { name, type: 'number', range: meta.range };
    if (compared.has(name)) return { name, type: 'number', range: [0, 3] };
    const info = { name, type: 'boolean' };
    if (meta.default !== undefined) info.default = meta.default;
    return info;
  });
  const defineNames = new Set(order);
  const keepTerms = (terms) => [...new Set(terms.filter((term) => defineNames.has(term.replace(/^!/, ''))))];

  // Blocks and samplers, merged across stages by name.
  const stageFlag = (stage) => (stage === 'vert' ? ShaderStageFlagBit.VERTEX : ShaderStageFlagBit.FRAGMENT);
  const mergeByName = (items) => {
    const merged = new Map();
    for (const item of items) {
      const existing = merged.get(item.name);
      if (!existing) {
        merged.set(item.name, { ...item, stageFlags: stageFlag(item.stage) });
        continue;
      }
      existing.stageFlags |= stageFlag(item.stage);
      if (item.members && JSON.stringify(item.members) !== JSON.stringify(existing.members)) {
        throw new Error(`${file}: uniform block ${item.name} differs between vertex and fragment stage`);
      }
    }
    return [...merged.values()];
  };
  const allBlocks = mergeByName([...scans.vert.blocks, ...scans.frag.blocks]);
  const allSamplers = mergeByName([...scans.vert.samplers, ...scans.frag.samplers]);
  const toUniforms = (members) =>
    members.map((member) => ({ name: member.name, type: Type[glslTypeToGfx[member.glslType]], count: member.count }));

  const blocks = allBlocks
    .filter((block) => !block.builtin)
    .map((block, binding) => ({
      name: block.name,
      defines: keepTerms(block.terms),
      binding,
      stageFlags: block.stageFlags,
      members: toUniforms(block.members),
    }));
  const samplerTextures = allSamplers
    .filter((sampler) => !sampler.builtin)
    .map((sampler, index) => ({
      name: sampler.name,
      type: sampler.type,
      count: sampler.count,
      defines: keepTerms(sampler.terms),
      stageFlags: sampler.stageFlags,
      binding: blocks.length + index,
    }));
  const builtinsOf = (rate) => ({
    blocks: allBlocks
      .filter((block) => block.builtin === rate)
      .map((block) => ({ name: block.name, defines: keepTerms(block.terms) })),
    samplerTextures: allSamplers
      .filter((sampler) => sampler.builtin === rate)
      .map((sampler) => ({ name: sampler.name, defines: keepTerms(sampler.terms) })),
    buffers: [],
    images: [],
  });

  const attributes = [];
  for (const attribute of scans.vert.attributes) {
    if (attributes.some((known) => known.name === attribute.name)) continue;
    const defines = keepTerms(attribute.terms);
    const info = {
      name: attribute.name,
      type: Type[glslTypeToGfx[attribute.glslType]],
      count: 1,
      format: attribute.format,
      isNormalized: false,
      location: attributes.length,
      defines,
    };
    if (defines.includes('USE_INSTANCING')) info.isInstanced = true;
    attributes.push(info);
  }

  const slotsFor = (stage) =>
    allBlocks
      .filter((block) => block.stageFlags & stageFlag(stage))
      .reduce((sum, block) => sum + vec4Slots(block.members), 0);

  return {
    defines,
    attributes,
    blocks,
    samplerTextures,
    builtins: {
      globals: builtinsOf('global'),
      locals: builtinsOf('local'),
      statistics: {
        CC_EFFECT_USED_VERTEX_UNIFORM_VECTORS: slotsFor('vert'),
        CC_EFFECT_USED_FRAGMENT_UNIFORM_VECTORS: slotsFor('frag'),
      },
    },
    builtinBlockMembers: Object.fromEntries(
      allBlocks.filter((block) => block.builtin).map((block) => [block.name, toUniforms(block.members)]),
    ),
    allBlocks,
    allSamplers,
  };
}
