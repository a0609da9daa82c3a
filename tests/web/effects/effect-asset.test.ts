/**
 * The EffectAssets the compiler (scripts/web/effects/) makes from the engine's own `.effect` files,
 * checked against the engine's TypeScript rather than against the compiler's output: the serialisable
 * fields of cc.EffectAsset, the numbers of gfx's BlendFactor / CullMode / ComparisonFunc / Type /
 * Format / ShaderStageFlagBit (cocos/gfx/base/define.ts), the state field names of BlendTarget /
 * DepthStencilState / RasterizerState, the uuids the default materials point at, and that a broken
 * effect fails with an Error naming the file and the problem.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileEffectFile, compileEngineEffects, EffectAsset, engineEnum, engineRoot, readEngine } from './harness';

const effects = compileEngineEffects();
const byName = (name: string): EffectAsset => effects.find(({ asset }) => asset._name === name)!.asset;
const gfx = (name: string) => engineEnum('cocos/gfx/base/define.ts', name);
const Type = gfx('Type');
const BlendFactor = gfx('BlendFactor');
const CullMode = gfx('CullMode');
const ComparisonFunc = gfx('ComparisonFunc');
const StencilOp = gfx('StencilOp');
const Format = gfx('Format');
const Stage = gfx('ShaderStageFlagBit');

describe('the supported engine effects', () => {
  test('are the ones the UI and default materials point at, under the uuids of their .meta files', () => {
    const uuids = new Set(effects.map(({ uuid }) => uuid));
    const materials = [
      'ui-alpha-test-material',
      'ui-base-material',
      'ui-graphics-material',
      'ui-sprite-alpha-sep-material',
      'ui-sprite-gray-alpha-sep-material',
      'ui-sprite-gray-material',
      'ui-sprite-material',
      'default-clear-stencil',
      'missing-material',
      'missing-effect-material',
      'default-sprite-renderer-material',
    ];
    for (const material of materials) {
      const mtl = JSON.parse(readEngine(`editor/assets/default_materials/${material}.mtl`));
      expect({ material, uuid: uuids.has(mtl._effectAsset.__uuid__) }).toEqual({ material, uuid: true });
    }
    for (const { uuid, asset } of effects) {
      const meta = JSON.parse(readEngine(`editor/assets/effects/${asset._name}.effect.meta`));
      expect(meta.uuid).toBe(uuid);
    }
  });

  test("carry cc.EffectAsset's serialisable fields and the engine's names (EffectAsset.get('internal/…'))", () => {
    const source = readEngine('cocos/asset/assets/effect-asset.ts');
    const serialisable = [...source.matchAll(/@serializable\s+(?:@\w+\s+)*public (\w+)/g)].map((match) => match[1]);
    expect(serialisable).toEqual(['techniques', 'shaders', 'combinations', 'hideInEditor']);
    expect(readEngine('cocos/rendering/pipeline-scene-data.ts')).toContain(
      "effectName: 'internal/builtin-geometry-renderer'",
    );
    for (const { asset } of effects) {
      expect(Object.keys(asset).sort()).toEqual(['__type__', '_name', '_native', '_objFlags', ...serialisable].sort());
      expect(asset.__type__).toBe('cc.EffectAsset');
    }
    expect(effects.map(({ asset }) => asset._name).sort()).toEqual([
      'builtin-unlit',
      'for2d/builtin-sprite',
      'for2d/builtin-sprite-renderer',
      'internal/builtin-clear-stencil',
      'internal/builtin-graphics',
      'util/splash-screen',
    ]);
  });

  test('every pass names a shader of its effect, and shader hashes are distinct', () => {
    const hashes = new Set<number>();
    for (const { asset } of effects) {
      const names = asset.shaders.map((shader) => shader.name);
      for (const technique of asset.techniques)
        for (const pass of technique.passes) expect(names).toContain(pass.program);
      for (const shader of asset.shaders) {
        expect(hashes.has(shader.hash)).toBe(false);
        hashes.add(shader.hash);
        expect(shader.glsl3.vert).not.toMatch(/#version|layout\s*\(\s*set|#pragma|#include/);
        expect(shader.glsl3.frag).not.toMatch(/#version|layout\s*\(\s*set|#pragma|#include/);
      }
    }
  });

  test('state field names are the ones gfx BlendTarget / DepthStencilState / RasterizerState declare', () => {
    const source = readEngine('cocos/gfx/base/pipeline-sub-state.ts');
    const fieldsOf = (className: string): string[] => {
      const start = source.indexOf(`export class ${className} {`);
      const constructor = source.slice(source.indexOf('constructor (', start), source.indexOf(') {}', start));
      return [...constructor.matchAll(/public (\w+)/g)].map((match) => match[1]);
    };
    const allowed = {
      blend: fieldsOf('BlendTarget'),
      depthStencil: fieldsOf('DepthStencilState'),
      rasterizer: fieldsOf('RasterizerState'),
    };
    expect(allowed.blend).toContain('blendDstAlpha');
    for (const { asset } of effects) {
      for (const technique of asset.techniques) {
        for (const pass of technique.passes) {
          for (const target of pass.blendState?.targets ?? [])
            for (const key of Object.keys(target)) expect(allowed.blend).toContain(key);
          for (const key of Object.keys(pass.depthStencilState ?? {})) expect(allowed.depthStencil).toContain(key);
          for (const key of Object.keys(pass.rasterizerState ?? {})) expect(allowed.rasterizer).toContain(key);
        }
      }
    }
  });
});

describe('for2d/builtin-sprite', () => {
  const asset = byName('for2d/builtin-sprite');
  const pass = asset.techniques[0].passes[0];
  const shader = asset.shaders[0];

  test('alphaThreshold is a FLOAT property defaulting to [0.5], stored in ALPHA_TEST_DATA (fragment stage)', () => {
    expect(pass.properties).toEqual({ alphaThreshold: { type: Type.FLOAT, value: [0.5] } });
    expect(shader.blocks).toEqual([
      {
        name: 'ALPHA_TEST_DATA',
        defines: ['USE_ALPHA_TEST'],
        binding: 0,
        stageFlags: Stage.FRAGMENT,
        members: [{ name: 'alphaThreshold', type: Type.FLOAT, count: 1 }],
      },
    ]);
  });

  test('blends src_alpha / one_minus_src_alpha, culls none, no depth test', () => {
    expect(pass.blendState).toEqual({
      targets: [
        {
          blend: true,
          blendSrc: BlendFactor.SRC_ALPHA,
          blendDst: BlendFactor.ONE_MINUS_SRC_ALPHA,
          blendDstAlpha: BlendFactor.ONE_MINUS_SRC_ALPHA,
        },
      ],
    });
    expect(BlendFactor.SRC_ALPHA).toBe(2);
    expect(pass.rasterizerState).toEqual({ cullMode: CullMode.NONE });
    expect(pass.depthStencilState).toEqual({ depthTest: false, depthWrite: false });
  });

  test('defines, attributes and builtins are what the UI batcher and the materials use', () => {
    expect(shader.defines.map((define) => `${define.name}:${define.type}`)).toEqual([
      'USE_LOCAL:boolean',
      'SAMPLE_FROM_RT:boolean',
      'USE_PIXEL_ALIGNMENT:boolean',
      'CC_USE_EMBEDDED_ALPHA:boolean',
      'USE_ALPHA_TEST:boolean',
      'USE_TEXTURE:boolean',
      'IS_GRAY:boolean',
    ]);
    for (const mtl of ['ui-sprite-gray-material', 'ui-alpha-test-material', 'ui-sprite-alpha-sep-material']) {
      const defines = JSON.parse(readEngine(`editor/assets/default_materials/${mtl}.mtl`))._defines[0];
      for (const name of Object.keys(defines)) expect(shader.defines.map((define) => define.name)).toContain(name);
    }
    expect(shader.attributes.map(({ name, format, location }) => ({ name, format, location }))).toEqual([
      { name: 'a_position', format: Format.RGB32F, location: 0 },
      { name: 'a_texCoord', format: Format.RG32F, location: 1 },
      { name: 'a_color', format: Format.RGBA32F, location: 2 },
    ]);
    expect(shader.builtins.globals.blocks.map((block) => block.name)).toEqual(['CCGlobal', 'CCCamera']);
    expect(shader.builtins.locals).toEqual({
      blocks: [{ name: 'CCLocal', defines: ['USE_LOCAL'] }],
      samplerTextures: [{ name: 'cc_spriteTexture', defines: ['USE_TEXTURE'] }],
      buffers: [],
      images: [],
    });
    // cc_spriteTexture is the engine's local-set sampler (UNIFORM_SPRITE_TEXTURE_NAME).
    expect(readEngine('cocos/rendering/define.ts')).toContain("UNIFORM_SPRITE_TEXTURE_NAME = 'cc_spriteTexture'");
  });
});

describe('internal/builtin-graphics and internal/builtin-clear-stencil', () => {
  test('graphics blends premultiplied (one / one_minus_src_alpha) and needs CCLocal', () => {
    const asset = byName('internal/builtin-graphics');
    expect(asset.techniques[0].passes[0].blendState!.targets[0]).toEqual({
      blend: true,
      blendSrc: BlendFactor.ONE,
      blendDst: BlendFactor.ONE_MINUS_SRC_ALPHA,
      blendSrcAlpha: BlendFactor.ONE,
      blendDstAlpha: BlendFactor.ONE_MINUS_SRC_ALPHA,
    });
    expect(asset.shaders[0].attributes.map((attribute) => attribute.name)).toEqual(['a_position', 'a_color', 'a_dist']);
    expect(asset.shaders[0].builtins.locals.blocks.map((block) => block.name)).toEqual(['CCLocal']);
  });

  test('clear-stencil has no uniforms at all', () => {
    const shader = byName('internal/builtin-clear-stencil').shaders[0];
    expect(shader.blocks).toEqual([]);
    expect(shader.builtins.globals.blocks).toEqual([]);
    expect(shader.defines).toEqual([]);
  });
});

describe('builtin-unlit (missing-material)', () => {
  const asset = byName('builtin-unlit');

  test('targets become handleInfo and the target gets a composed default, as Pass reads them', () => {
    const properties = asset.techniques[0].passes[0].properties!;
    expect(properties.colorScale).toEqual({
      type: Type.FLOAT3,
      value: [1, 1, 1],
      handleInfo: ['colorScaleAndCutoff', 0, Type.FLOAT3],
    });
    expect(properties.alphaThreshold).toEqual({
      type: Type.FLOAT,
      value: [0.5],
      handleInfo: ['colorScaleAndCutoff', 3, Type.FLOAT],
    });
    expect(properties.colorScaleAndCutoff).toEqual({ type: Type.FLOAT4, value: [1, 1, 1, 0.5] });
    expect(properties.mainTexture).toEqual({ type: Type.SAMPLER2D, value: 'grey' });
    expect(properties.mainColor).toEqual({ type: Type.FLOAT4, value: [1, 1, 1, 1], linear: true });
  });

  test('material blocks come first, samplers after them (program-lib: samplerStartBinding = blocks.length)', () => {
    const shader = asset.shaders.find((candidate) => candidate.name === 'builtin-unlit|unlit-vs:vert|unlit-fs:frag')!;
    expect(shader.blocks.map(({ name, binding, stageFlags }) => ({ name, binding, stageFlags }))).toEqual([
      { name: 'TexCoords', binding: 0, stageFlags: Stage.VERTEX },
      { name: 'Constant', binding: 1, stageFlags: Stage.FRAGMENT },
    ]);
    expect(shader.samplerTextures.map(({ name, binding, type }) => ({ name, binding, type }))).toEqual([
      { name: 'mainTexture', binding: 2, type: Type.SAMPLER2D },
    ]);
    const defines = Object.fromEntries(shader.defines.map((define) => [define.name, define]));
    expect(defines.CC_USE_FOG).toEqual({ name: 'CC_USE_FOG', type: 'number', range: [0, 4] });
    expect(defines.ALPHA_TEST_CHANNEL).toEqual({
      name: 'ALPHA_TEST_CHANNEL',
      type: 'string',
      options: ['a', 'r', 'g', 'b'],
    });
    expect(defines.CC_USE_SURFACE_SHADER).toBeUndefined(); // tested with #ifdef only
  });

  test('the planar-shadow pass: stencil shorthand for both faces, phase and propertyIndex kept', () => {
    const pass = asset.techniques[0].passes[1];
    expect(pass).toMatchObject({ phase: 'planar-shadow', propertyIndex: 0 });
    expect(pass.depthStencilState).toMatchObject({
      depthTest: true,
      depthWrite: false,
      stencilTestFront: true,
      stencilFuncFront: ComparisonFunc.NOT_EQUAL,
      stencilPassOpFront: StencilOp.REPLACE,
      stencilRefFront: 0x80,
      stencilRefBack: 0x80,
      stencilReadMaskFront: 0x80,
      stencilWriteMaskBack: 0x80,
    });
    expect(asset.techniques.map((technique) => technique.name)).toEqual([
      'opaque',
      'transparent',
      'add',
      'alpha-blend',
    ]);
  });
});

describe('effects of our own', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'oam-effects-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const program = (body: string) => `
CCProgram vs %{
  precision highp float;
  in vec3 a_position;
  vec4 vert () { return vec4(a_position, 1.0); }
}%
CCProgram fs %{
  precision highp float;
  ${body}
}%
`;
  const write = (name: string, yaml: string, body = 'vec4 frag () { return vec4(1.0); }'): string => {
    const file = join(dir, `${name}.effect`);
    writeFileSync(file, `CCEffect %{\n${yaml}\n}%\n${program(body)}`);
    return file;
  };
  const pass = (extra = '') => `  techniques:\n  - passes:\n    - vert: vs:vert\n      frag: fs:frag\n${extra}`;

  test('priority expressions use RenderPriority from cocos/rendering/define.ts', () => {
    const file = write('priority', pass('      priority: max - 10\n'));
    const { asset, error } = compileEffectFile(file);
    expect(error).toBeUndefined();
    const renderPriority = engineEnum('cocos/rendering/define.ts', 'RenderPriority');
    expect(asset!.techniques[0].passes[0].priority).toBe(renderPriority.MAX - 10);
    expect(asset!._name).toBe('priority');
  });

  test('an unknown include fails naming the file and the include', () => {
    const file = write(
      'bad-include',
      pass(),
      '#include <builtin/uniforms/no-such-chunk>\n  vec4 frag () { return vec4(1.0); }',
    );
    const { error } = compileEffectFile(file);
    expect(error).toContain(file);
    expect(error).toMatch(/unknown include <builtin\/uniforms\/no-such-chunk>/);
  });

  test('an unknown blend factor fails naming the file and the factor', () => {
    const file = write(
      'bad-blend',
      pass('      blendState:\n        targets:\n        - blend: true\n          blendSrc: src_alpah\n'),
    );
    const { error } = compileEffectFile(file);
    expect(error).toContain(file);
    expect(error).toMatch(/unknown BlendFactor "src_alpah"/);
  });

  test('a missing entry function fails naming the file, the program and the function', () => {
    const file = write('bad-entry', pass(), 'vec4 fragment () { return vec4(1.0); }');
    const { error } = compileEffectFile(file);
    expect(error).toContain(file);
    expect(error).toMatch(/CCProgram fs\): entry function frag\(\) not found/);
  });

  test('a property that matches no uniform fails naming it', () => {
    const file = write('bad-property', pass('      properties:\n        tint: { value: [1, 1, 1, 1] }\n'));
    const { error } = compileEffectFile(file);
    expect(error).toContain(file);
    expect(error).toMatch(/property tint matches no uniform/);
  });

  test('a missing effect file fails naming it', () => {
    const { error } = compileEffectFile(join(dir, 'nope.effect'));
    expect(error).toContain(join(dir, 'nope.effect'));
  });

  test('the engine tree used is the v3.8.5 one', () => {
    expect(JSON.parse(readFileSync(join(engineRoot(), 'package.json'), 'utf8')).version).toBe('3.8.5');
  });
});
