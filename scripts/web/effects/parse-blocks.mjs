// Splits an `.effect` file into its `CCEffect %{ … }%` YAML (techniques, passes, properties) and its
// `CCProgram name %{ … }%` GLSL blocks, the two languages Creator's effect format mixes in one file.
// The YAML is parsed with the `yaml` package (anchors/aliases such as `&props` / `*props` included).
import { parse as parseYaml } from 'yaml';

/** Removes `//` and `/* … *\/` comments, keeping line breaks so that line structure survives. */
export function stripComments(source) {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ''))
    .replace(/\/\/[^\n]*/g, (comment, offset, whole) => {
      // `#pragma // …` is the chunks' "empty pragma trick": keep the pragma, drop the words.
      const lineStart = whole.lastIndexOf('\n', offset) + 1;
      return /^\s*#pragma\s*$/.test(whole.slice(lineStart, offset)) ? '//' : '';
    });
}

/**
 * @param {{ source: string, file: string }} input
 * @returns {{ effect: object, programs: Map<string, string> }}
 */
export function parseEffectBlocks({ source, file }) {
  const programs = new Map();
  let effectYaml = null;
  const blockPattern = /\b(CCEffect|CCProgram\s+([\w-]+))\s*%\{([\s\S]*?)\}%/g;
  for (const match of source.matchAll(blockPattern)) {
    if (match[1] === 'CCEffect') {
      if (effectYaml !== null) throw new Error(`${file}: more than one CCEffect block`);
      effectYaml = match[3];
    } else {
      if (programs.has(match[2])) throw new Error(`${file}: CCProgram ${match[2]} is declared twice`);
      programs.set(match[2], stripComments(match[3]));
    }
  }
  if (effectYaml === null) throw new Error(`${file}: no CCEffect %{ … }% block`);
  let effect;
  try {
    effect = parseYaml(effectYaml, { maxAliasCount: -1 });
  } catch (error) {
    throw new Error(`${file}: CCEffect YAML does not parse: ${error.message}`, { cause: error });
  }
  if (!effect || !Array.isArray(effect.techniques) || effect.techniques.length === 0) {
    throw new Error(`${file}: CCEffect has no techniques`);
  }
  return { effect, programs };
}
