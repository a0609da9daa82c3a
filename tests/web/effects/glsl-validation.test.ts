/**
 * Every shader the effect compiler (scripts/web/effects/) makes from the engine's own `.effect`
 * sources compiles and links as GLSL ES 3.00 under glslangValidator, for every combination of its
 * defines (sampled where the combinations run to hundreds of thousands), with the `#version 300 es`
 * line and the `#define` prefix built as program-lib / WebGL2CmdFuncCreateShader build them. The
 * prefix's shape is checked against the engine's source, so a change there fails here first.
 * glslangValidator (Debian package glslang-tools) is required: without it this suite fails.
 */
import {
  compileEngineEffects,
  defineCombinations,
  engineStageSource,
  glslang,
  glslangPath,
  readEngine,
} from './harness';

const effects = compileEngineEffects();

describe('the engine builds shader sources the way this suite replays them', () => {
  test('program-lib prepends pipeline macros, template statistics and one #define per template define', () => {
    const programLib = readEngine('cocos/render-scene/core/program-lib.ts');
    expect(programLib).toContain('const prefix = pipeline.constantMacros + tmpl.constantMacros');
    expect(programLib).toContain(
      "macroArray.reduce((acc, cur): string => `${acc}#define ${cur.name} ${cur.value}\\n`, '')",
    );
    expect(programLib).toContain('tmplInfo.shaderInfo.stages[0].source = prefix + src.vert;');
    expect(programLib).toMatch(/case API\.WEBGL2: return 'glsl3';/);
    const utils = readEngine('cocos/render-scene/core/program-utils.ts');
    expect(utils).toContain("case 'boolean': return typeof def === 'number' ? def.toString() : (def ? '1' : '0');");
    expect(utils).toContain('tmpl.constantMacros += `#define ${key} ${tmpl.builtins.statistics[key]}\\n`;');
  });

  test('WebGL2CmdFuncCreateShader adds the #version line itself', () => {
    expect(readEngine('cocos/gfx/webgl2/webgl2-commands.ts')).toContain(
      'gl.shaderSource(gpuStage.glShader$, `#version 300 es\\n${gpuStage.source$}`);',
    );
  });

  test('glslangValidator is installed (apt-get install glslang-tools)', () => {
    expect(glslangPath()).not.toBeNull();
  });
});

describe.each(effects.flatMap(({ asset }) => asset.shaders.map((shader) => [shader.name, shader] as const)))(
  'shader %s',
  (_name, shader) => {
    const { macros, exhaustive } = defineCombinations(shader.defines);

    test(`validates under glslangValidator for ${exhaustive ? 'every' : 'a covering sample of'} define combination (${macros.length})`, () => {
      expect(glslangPath()).not.toBeNull();
      const failures: string[] = [];
      for (const combination of macros) {
        const vert = engineStageSource({ shader, macros: combination, stage: 'vert' });
        const frag = engineStageSource({ shader, macros: combination, stage: 'frag' });
        const result = glslang({ vert, frag });
        if (!result.ok) failures.push(`${JSON.stringify(combination)}\n${result.output.slice(0, 2000)}`);
        if (failures.length >= 3) break;
      }
      expect(failures).toEqual([]);
    }, 600_000);
  },
);

test('the UI effects are validated exhaustively', () => {
  for (const { asset } of effects.filter(({ asset }) => asset._name !== 'builtin-unlit')) {
    for (const shader of asset.shaders) expect(defineCombinations(shader.defines).exhaustive).toBe(true);
  }
});
