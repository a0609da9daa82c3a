// Emits the `glsl3` (GLSL ES 3.00 for WebGL2) source of one stage from the flattened program text.
// WebGL2 cannot take Vulkan-style `layout(set = N, binding = M)`: the engine binds uniform blocks and
// samplers by name (WebGL2CmdFuncCreateShader: getActiveUniformBlockName / getUniformLocation), so
// blocks become `layout(std140) uniform X { … };`, samplers plain `uniform sampler2D x;`, varying and
// attribute locations are dropped (attributes are looked up with getAttribLocation). No `#version`
// line: WebGL2CmdFuncCreateShader prepends `#version 300 es\n` itself, before program-lib's defines.
// The effect's entry function (`vert: sprite-vs:vert`) is called from a generated `void main()`.

const glslVersion = 300;

/** `#pragma extension([GL_EXT_x, __VERSION__ < 300, require])` → an `#extension` line if it applies. */
function extensionLine({ pragma, where }) {
  const match = /^extension\(\s*\[\s*(\w+)\s*(?:,\s*([^,\]]+?))?\s*(?:,\s*(\w+))?\s*\]\s*\)/.exec(pragma);
  if (!match) throw new Error(`${where}: cannot read #pragma ${pragma}`);
  const [, name, condition, behavior = 'enable'] = match;
  if (condition) {
    const source = condition.replace(/__VERSION__/g, String(glslVersion));
    if (!/^[\d\s<>=!&|()]+$/.test(source))
      throw new Error(`${where}: cannot evaluate extension condition ${condition}`);
    if (!Function(`"use strict"; return (${source});`)()) return null;
  }
  return `#extension ${name} : ${behavior}`;
}

function stripSetAndBinding(qualifiers) {
  return qualifiers
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part && !/^(set|binding)\s*=/.test(part));
}

/**
 * @param {{ text: string, stage: 'vert' | 'frag', entry: string, where: string }} input
 * @returns {string} GLSL ES 3.00 source without `#version`
 */
export function emitGlsl3({ text, stage, entry, where }) {
  const extensions = [];
  const lines = [];
  for (const line of text.split('\n')) {
    const pragma = /^\s*#\s*pragma\s+(.*)$/.exec(line);
    if (pragma) {
      if (pragma[1].startsWith('extension')) {
        const extension = extensionLine({ pragma: pragma[1].trim(), where });
        if (extension && !extensions.includes(extension)) extensions.push(extension);
      }
      continue; // builtin / define-meta / format / rate / `//` … are compile-time only
    }
    lines.push(line);
  }
  let code = lines.join('\n');

  // Uniform blocks: std140 by name, no set/binding.
  code = code.replace(/(?:layout\s*\(([^)]*)\)\s*)?\buniform(\s+)(\w+)(\s*\{)/g, (...match) => {
    const [, qualifiers, space, name, brace] = match;
    const kept = stripSetAndBinding(qualifiers ?? '').filter((part) => part !== 'std140');
    return `layout(${['std140', ...kept].join(', ')}) uniform${space}${name}${brace}`;
  });
  // Samplers and other layout-qualified declarations: drop set/binding; varyings/attributes: drop location.
  code = code.replace(/layout\s*\(([^)]*)\)(\s*)(uniform|in|out)\b/g, (...match) => {
    const [all, qualifiers, space, storage] = match;
    if (/^\s*std140/.test(qualifiers)) return all;
    let kept = stripSetAndBinding(qualifiers);
    const keepsLocation = stage === 'frag' && storage === 'out';
    if (!keepsLocation) kept = kept.filter((part) => !/^location\s*=/.test(part));
    return kept.length ? `layout(${kept.join(', ')})${space}${storage}` : storage;
  });

  if (!new RegExp(`\\b(?:vec4|void)\\s+${entry}\\s*\\(`).test(code)) {
    throw new Error(`${where}: entry function ${entry}() not found`);
  }
  const header = [...extensions];
  if (stage === 'frag' && !/\bprecision\s+\w+\s+float\s*;/.test(code)) header.push('precision highp float;');
  const footer = [];
  if (entry !== 'main') {
    if (stage === 'vert') {
      footer.push('void main() { gl_Position = ' + `${entry}(); }`);
    } else {
      footer.push('layout(location = 0) out vec4 cc_FragColor;');
      footer.push(`void main() { cc_FragColor = ${entry}(); }`);
    }
  }
  const body = code.replace(/\n{3,}/g, '\n\n').trim();
  return `${[...header, body, ...footer].join('\n')}\n`;
}
