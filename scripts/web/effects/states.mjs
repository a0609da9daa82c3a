// Pass state translation: the YAML's `blendState` / `depthStencilState` / `rasterizerState` /
// `primitive` / `dynamicStates` / `priority` strings (`src_alpha`, `less_equal`, `none`, `max - 10`)
// become the engine's numeric enums (read from cocos/gfx/base/define.ts and RenderPriority in
// cocos/rendering/define.ts), with field names exactly as gfx's BlendTarget/DepthStencilState/
// RasterizerState declare them, since Pass.fillPipelineInfo() Object.assign()s them in.

function enumValue({ enumeration, enumName, value, where }) {
  if (typeof value === 'number') return value;
  const key = String(value).trim().toUpperCase().replace(/-/g, '_');
  if (!(key in enumeration)) throw new Error(`${where}: unknown ${enumName} "${value}"`);
  return enumeration[key];
}

function booleanOrNumber({ value, where, key }) {
  if (typeof value === 'boolean' || typeof value === 'number') return value;
  throw new Error(`${where}: ${key} must be a boolean or number, got ${JSON.stringify(value)}`);
}

function convertFields({ state, schema, where, gfx }) {
  const out = {};
  for (const [key, value] of Object.entries(state ?? {})) {
    const rule = schema[key];
    if (!rule) throw new Error(`${where}: unknown state ${key}`);
    const targets = rule.fields ?? [key];
    const converted = rule.enum
      ? enumValue({ enumeration: gfx[rule.enum], enumName: rule.enum, value, where: `${where}.${key}` })
      : booleanOrNumber({ value, where, key });
    for (const target of targets) out[target] = converted;
  }
  return out;
}

const rasterizerSchema = {
  isDiscard: {},
  polygonMode: { enum: 'PolygonMode' },
  shadeModel: { enum: 'ShadeModel' },
  cullMode: { enum: 'CullMode' },
  isFrontFaceCCW: {},
  depthBiasEnabled: {},
  depthBias: {},
  depthBiasClamp: {},
  depthBiasSlop: {},
  isDepthClip: {},
  isMultisample: {},
  lineWidth: {},
};

function stencilSchema() {
  const schema = { depthTest: {}, depthWrite: {}, depthFunc: { enum: 'ComparisonFunc' } };
  const fields = {
    stencilTest: {},
    stencilFunc: { enum: 'ComparisonFunc' },
    stencilReadMask: {},
    stencilWriteMask: {},
    stencilFailOp: { enum: 'StencilOp' },
    stencilZFailOp: { enum: 'StencilOp' },
    stencilPassOp: { enum: 'StencilOp' },
    stencilRef: {},
  };
  for (const [name, rule] of Object.entries(fields)) {
    schema[`${name}Front`] = rule;
    schema[`${name}Back`] = rule;
    schema[name] = { ...rule, fields: [`${name}Front`, `${name}Back`] }; // shorthand for both faces
  }
  return schema;
}

const blendTargetSchema = {
  blend: {},
  blendSrc: { enum: 'BlendFactor' },
  blendDst: { enum: 'BlendFactor' },
  blendEq: { enum: 'BlendOp' },
  blendSrcAlpha: { enum: 'BlendFactor' },
  blendDstAlpha: { enum: 'BlendFactor' },
  blendAlphaEq: { enum: 'BlendOp' },
};

function colorMask({ value, gfx, where }) {
  if (typeof value === 'number') return value;
  const key = String(value).toUpperCase();
  if (key in gfx.ColorMask) return gfx.ColorMask[key];
  if (!/^[RGBA]+$/.test(key)) throw new Error(`${where}: unknown ColorMask "${value}"`);
  return [...key].reduce((mask, channel) => mask | gfx.ColorMask[channel], 0);
}

function convertBlendState({ state, where, gfx }) {
  const out = {};
  for (const [key, value] of Object.entries(state)) {
    if (key === 'targets') {
      out.targets = value.map((target, index) => {
        const { blendColorMask, ...rest } = target ?? {};
        const converted = convertFields({
          state: rest,
          schema: blendTargetSchema,
          where: `${where}.targets[${index}]`,
          gfx,
        });
        if (blendColorMask !== undefined) {
          converted.blendColorMask = colorMask({ value: blendColorMask, gfx, where: `${where}.targets[${index}]` });
        }
        return converted;
      });
    } else if (key === 'isA2C' || key === 'isIndepend') {
      out[key] = booleanOrNumber({ value, where, key });
    } else if (key === 'blendColor') {
      const components = Array.isArray(value) ? value : [value, value, value, value];
      const [red = 0, green = 0, blue = 0, alpha = 0] = components;
      out.blendColor = { x: red, y: green, z: blue, w: alpha }; // gfx Color's fields
    } else {
      throw new Error(`${where}: unknown blendState field ${key}`);
    }
  }
  return out;
}

/** Evaluates `priority` values such as `max - 10` against RenderPriority { MIN, MAX, DEFAULT }. */
export function evaluatePriority({ value, renderPriority, where }) {
  if (typeof value === 'number') return value;
  const source = String(value).replace(/\b[A-Za-z_]\w*\b/g, (word) => {
    const key = word.toUpperCase();
    if (!(key in renderPriority)) throw new Error(`${where}: unknown priority name ${word}`);
    return String(renderPriority[key]);
  });
  if (!/^[\d\s+\-*/()]+$/.test(source)) throw new Error(`${where}: cannot evaluate priority ${value}`);
  const result = Function(`"use strict"; return (${source});`)();
  if (!Number.isInteger(result) || result < renderPriority.MIN || result > renderPriority.MAX) {
    throw new Error(`${where}: priority ${value} is outside ${renderPriority.MIN}..${renderPriority.MAX}`);
  }
  return result;
}

/**
 * Converts the state fields of one YAML pass; returns only the fields present.
 * @param {{ pass: object, facts: object, where: string }} input
 */
export function convertPassStates({ pass, facts, where }) {
  const { gfx } = facts;
  const out = {};
  if (pass.priority !== undefined) {
    out.priority = evaluatePriority({ value: pass.priority, renderPriority: facts.renderPriority, where });
  }
  if (pass.primitive !== undefined) {
    out.primitive = enumValue({
      enumeration: gfx.PrimitiveMode,
      enumName: 'PrimitiveMode',
      value: pass.primitive,
      where,
    });
  }
  if (pass.dynamicStates !== undefined) {
    const names = Array.isArray(pass.dynamicStates) ? pass.dynamicStates : [pass.dynamicStates];
    out.dynamicStates = names.reduce(
      (flags, name) =>
        flags |
        enumValue({ enumeration: gfx.DynamicStateFlagBit, enumName: 'DynamicStateFlagBit', value: name, where }),
      0,
    );
  }
  if (pass.rasterizerState) {
    out.rasterizerState = convertFields({
      state: pass.rasterizerState,
      schema: rasterizerSchema,
      where: `${where}.rasterizerState`,
      gfx,
    });
  }
  if (pass.depthStencilState) {
    out.depthStencilState = convertFields({
      state: pass.depthStencilState,
      schema: stencilSchema(),
      where: `${where}.depthStencilState`,
      gfx,
    });
  }
  if (pass.blendState) {
    out.blendState = convertBlendState({ state: pass.blendState, where: `${where}.blendState`, gfx });
  }
  return out;
}
