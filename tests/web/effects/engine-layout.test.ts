/**
 * The builtin uniform blocks the compiled shaders declare (from editor/assets/chunks/builtin/uniforms)
 * match what the engine binds for them: the member lists of UBOGlobal / UBOCamera / UBOLocal in
 * cocos/rendering/define.ts (names, gfx Type, counts), their COUNT (floats), and — measured by
 * glslangValidator's std140 reflection — their size in bytes (UBO*Enum.SIZE), which is what WebGL2
 * checks when it says "uniform buffer that is too small".
 */
import { compileEngineEffects, engineEnum, engineUboLayout, glslang, Shader, Uniform } from './harness';

const effects = compileEngineEffects();
const sprite = effects.find(({ asset }) => asset._name === 'for2d/builtin-sprite')!.asset.shaders[0];
const typeEnum = engineEnum('cocos/gfx/base/define.ts', 'Type');

const floatsOf = (member: Uniform): number =>
  ({ [typeEnum.FLOAT4]: 4, [typeEnum.MAT4]: 16, [typeEnum.FLOAT]: 1 })[member.type] * member.count;

function emittedBuiltin(shader: Shader, name: string): Uniform[] {
  for (const set of shader.descriptors) {
    const block = set.blocks.find((candidate) => candidate.name === name);
    if (block) return block.members;
  }
  throw new Error(`${shader.name} declares no builtin block ${name}`);
}

/** The block's declaration as emitted in glsl3, plus a probe that reads every member so none is optimised out. */
function probeShaders(shader: Shader, block: string, members: Uniform[]): { vert: string; frag: string } {
  const declaration = new RegExp(`layout\\(std140\\) uniform ${block} \\{[^}]*\\};`).exec(
    `${shader.glsl3.vert}\n${shader.glsl3.frag}`,
  );
  if (!declaration) throw new Error(`${shader.name}: no std140 declaration of ${block} in glsl3`);
  const reads = members
    .map((member) => (member.type === typeEnum.MAT4 ? `${member.name}[0]` : member.name))
    .join(' + ');
  return {
    vert: `#version 300 es\n${declaration[0]}\nvoid main() { gl_Position = ${reads}; }\n`,
    frag: '#version 300 es\nprecision highp float;\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n',
  };
}

describe.each([
  ['CCGlobal', 'UBOGlobal'],
  ['CCCamera', 'UBOCamera'],
  ['CCLocal', 'UBOLocal'],
])('builtin block %s', (block, engineClass) => {
  const engineMembers = engineUboLayout(engineClass);
  const engineCounts = engineEnum('cocos/rendering/define.ts', `${engineClass}Enum`);

  test(`has the members of ${engineClass}.LAYOUT in cocos/rendering/define.ts`, () => {
    expect(engineMembers.length).toBeGreaterThan(0);
    expect(emittedBuiltin(sprite, block)).toEqual(engineMembers);
  });

  test(`adds up to ${engineClass}Enum.COUNT floats`, () => {
    const floats = emittedBuiltin(sprite, block).reduce((sum, member) => sum + floatsOf(member), 0);
    expect(floats).toBe(engineCounts.COUNT);
  });

  test(`is ${engineClass}Enum.SIZE bytes in std140, as glslangValidator lays it out`, () => {
    const { vert, frag } = probeShaders(sprite, block, engineMembers);
    const result = glslang({ vert, frag, reflect: true });
    expect(result.output).not.toMatch(/ERROR/);
    const size = new RegExp(`^${block}: offset -1, type ffffffff, size (\\d+),`, 'm').exec(result.output);
    expect(size && Number(size[1])).toBe(engineCounts.SIZE);
  });

  test('is the same declaration in every compiled shader that uses it', () => {
    for (const { asset } of effects) {
      for (const shader of asset.shaders) {
        const uses = [...shader.builtins.globals.blocks, ...shader.builtins.locals.blocks].some(
          (used) => used.name === block,
        );
        if (uses) expect(emittedBuiltin(shader, block)).toEqual(engineMembers);
      }
    }
  });
});
