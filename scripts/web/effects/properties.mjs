// Pass `properties`: each YAML property gets the gfx `type` of the uniform member or sampler it
// names (or its `target: member.swizzle`, which also yields `handleInfo` [member, offset, type] as
// Pass reads it), and a `value` array (numbers) or texture name ('grey', 'white', …). Targets that are
// not properties themselves are added with a value composed from their sub-properties, as Creator does.
// Editor-only keys (`editor`) are dropped.

const componentIndex = { x: 0, y: 1, z: 2, w: 3, r: 0, g: 1, b: 2, a: 3 };

function typeSizeInFloats({ type, gfxType }) {
  const sizes = {
    FLOAT: 1,
    INT: 1,
    UINT: 1,
    BOOL: 1,
    FLOAT2: 2,
    INT2: 2,
    FLOAT3: 3,
    INT3: 3,
    FLOAT4: 4,
    INT4: 4,
    MAT4: 16,
  };
  const name = Object.keys(gfxType).find((key) => gfxType[key] === type);
  return sizes[name] ?? 4;
}

function swizzleType({ length, gfxType }) {
  return [gfxType.FLOAT, gfxType.FLOAT2, gfxType.FLOAT3, gfxType.FLOAT4][length - 1];
}

function normaliseValue({ value, isSampler, where }) {
  if (value === undefined) return undefined;
  if (isSampler) {
    if (typeof value !== 'string')
      throw new Error(`${where}: texture default must be a name like grey/white/black/normal`);
    return value;
  }
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((item) => typeof item === 'number')) throw new Error(`${where}: value must be numbers`);
  return list;
}

/**
 * @param {{ properties: object | undefined, reflection: object, facts: object, where: string }} input
 * @returns {object | undefined}
 */
export function convertProperties({ properties, reflection, facts, where }) {
  if (!properties) return undefined;
  const gfxType = facts.gfx.Type;
  const members = new Map();
  for (const block of reflection.blocks) for (const member of block.members) members.set(member.name, member);
  const samplers = new Map(reflection.samplerTextures.map((sampler) => [sampler.name, sampler]));
  const lookup = (name) => members.get(name) ?? samplers.get(name);

  const out = {};
  const composed = new Map();
  for (const [name, declaration] of Object.entries(properties)) {
    const propertyWhere = `${where}: property ${name}`;
    const { value, target, linear, sampler, editor: _editor, ...rest } = declaration ?? {};
    const unknownKeys = Object.keys(rest);
    if (unknownKeys.length) throw new Error(`${propertyWhere}: unknown key ${unknownKeys[0]}`);
    if (sampler !== undefined) throw new Error(`${propertyWhere}: per-property 'sampler' states are not supported`);
    const info = {};
    if (target) {
      const [targetName, swizzle] = String(target).split('.');
      const targetUniform = lookup(targetName);
      if (!targetUniform) throw new Error(`${propertyWhere}: target ${targetName} matches no uniform or sampler`);
      const isSampler = samplers.has(targetName);
      if (swizzle && !/^[xyzw]{1,4}$|^[rgba]{1,4}$/.test(swizzle))
        throw new Error(`${propertyWhere}: bad swizzle ${swizzle}`);
      info.type = swizzle ? swizzleType({ length: swizzle.length, gfxType }) : targetUniform.type;
      const offset = swizzle ? componentIndex[swizzle[0]] : 0;
      info.handleInfo = [targetName, offset, info.type];
      const normalised = normaliseValue({ value, isSampler, where: propertyWhere });
      if (normalised !== undefined) info.value = normalised;
      if (!composed.has(targetName)) composed.set(targetName, { uniform: targetUniform, isSampler, parts: [] });
      composed.get(targetName).parts.push({ offset, value: normalised });
    } else {
      const uniform = lookup(name);
      if (!uniform) throw new Error(`${propertyWhere} matches no uniform member or sampler`);
      info.type = uniform.type;
      const normalised = normaliseValue({ value, isSampler: samplers.has(name), where: propertyWhere });
      if (normalised !== undefined) info.value = normalised;
    }
    if (linear !== undefined) info.linear = linear;
    out[name] = info;
  }
  for (const [targetName, { uniform, isSampler, parts }] of composed) {
    if (out[targetName]) continue;
    if (isSampler) {
      const named = parts.find((part) => part.value !== undefined);
      out[targetName] = { type: uniform.type, ...(named ? { value: named.value } : {}) };
      continue;
    }
    const value = new Array(typeSizeInFloats({ type: uniform.type, gfxType })).fill(0);
    for (const part of parts) part.value?.forEach((component, index) => (value[part.offset + index] = component));
    out[targetName] = { type: uniform.type, value };
  }
  return out;
}
