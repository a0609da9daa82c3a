// Flattens one CCProgram into a single GLSL text the way Creator's effect compiler sees it: resolves
// `#include <path>` (chunks under editor/assets/chunks/, CCPrograms of the same file, or files next to
// the effect) recursively and once per program, turns single-line `#pragma define` macros into plain
// `#define`s, and expands the multi-line ones whose bodies hold `#if` directives (GLSL macros cannot),
// which is what the chunks' "`#pragma //` empty pragma trick" relies on.
import fs from 'node:fs';
import path from 'node:path';
import { stripComments } from './parse-blocks.mjs';

const includeLine = /^\s*#\s*include\s*[<"]([^>"]+)[>"]\s*;?\s*$/;

function findInclude({ request, programs, chunksRoot, fromDir }) {
  const name = request.replace(/\.chunk$/, '');
  if (programs.has(name)) return { key: `program:${name}`, load: () => programs.get(name) };
  for (const base of [fromDir, chunksRoot]) {
    if (!base) continue;
    const candidate = path.resolve(base, `${name}.chunk`);
    if (fs.existsSync(candidate)) {
      return {
        key: candidate,
        dir: path.dirname(candidate),
        load: () => stripComments(fs.readFileSync(candidate, 'utf8')),
      };
    }
  }
  return null;
}

/** Inlines includes recursively; a chunk already included in this program is skipped. */
function inlineIncludes({ text, context, origin, fromDir }) {
  const out = [];
  for (const line of text.split('\n')) {
    const match = includeLine.exec(line);
    if (!match) {
      out.push(line);
      continue;
    }
    const found = findInclude({
      request: match[1],
      programs: context.programs,
      chunksRoot: context.chunksRoot,
      fromDir,
    });
    if (!found) throw new Error(`${context.file}: unknown include <${match[1]}> (included from ${origin})`);
    if (context.seen.has(found.key)) continue;
    context.seen.add(found.key);
    out.push(inlineIncludes({ text: found.load(), context, origin: match[1], fromDir: found.dir ?? fromDir }));
  }
  return out.join('\n');
}

/** Groups physical lines into logical ones: a line ending in `\` continues on the next. */
function logicalLines(text) {
  const lines = text.split('\n');
  const result = [];
  for (let index = 0; index < lines.length; index++) {
    const parts = [lines[index]];
    while (/\\\s*$/.test(parts[parts.length - 1]) && index + 1 < lines.length) parts.push(lines[++index]);
    result.push(parts);
  }
  return result;
}

const macroHead = /^\s*#\s*(pragma\s+define|define)\s+(\w+)(\(([^)]*)\))?(.*)$/;

function findClosingParen(text, openIndex) {
  let depth = 0;
  for (let index = openIndex; index < text.length; index++) {
    if (text[index] === '(') depth++;
    else if (text[index] === ')' && --depth === 0) return index;
  }
  return -1;
}

function splitArguments(text) {
  const args = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    if (char === '(') depth++;
    if (char === ')') depth--;
    current += char;
  }
  if (current.trim() || args.length) args.push(current.trim());
  return args;
}

/** Expands invocations of macros whose bodies contain preprocessor directives. */
function expandDirectiveMacros({ text, macros, file }) {
  let result = text;
  for (let round = 0; round < 16; round++) {
    let changed = false;
    for (const macro of macros) {
      const pattern = new RegExp(`\\b${macro.name}\\s*\\(`, 'g');
      let match;
      while ((match = pattern.exec(result))) {
        const open = match.index + match[0].length - 1;
        const close = findClosingParen(result, open);
        if (close < 0) throw new Error(`${file}: unbalanced call of macro ${macro.name}`);
        const args = splitArguments(result.slice(open + 1, close));
        if (args.length !== macro.params.length) {
          throw new Error(`${file}: macro ${macro.name} takes ${macro.params.length} arguments, got ${args.length}`);
        }
        let body = macro.body;
        macro.params.forEach((param, index) => {
          body = body.replace(new RegExp(`\\b${param}\\b`, 'g'), args[index]);
        });
        body = body.replace(/\s*##\s*/g, '');
        // No trailing newline: the invocation's `;` lands on the body's last line (`#pragma //`).
        result = `${result.slice(0, match.index)}\n${body}${result.slice(close + 1)}`;
        pattern.lastIndex = match.index + 1;
        changed = true;
      }
    }
    if (!changed) return result;
  }
  throw new Error(`${file}: macro expansion does not terminate`);
}

/** Converts `#pragma define`s and collects every macro name the program defines itself. */
function processMacros({ text, file }) {
  const macroNames = new Set();
  const guardedConstants = new Map();
  const directiveMacros = [];
  const out = [];
  let previous = '';
  for (const parts of logicalLines(text)) {
    const head = macroHead.exec(parts[0]);
    const guard = previous;
    if (parts[0].trim()) previous = parts[0].trim();
    if (!head) {
      out.push(...parts);
      continue;
    }
    const [, kind, name, paramList, params] = head;
    // `#ifndef X / #define X 2` (common-define's debug-view constants) is a default for a name the
    // program also tests where the guard's chunk is not included: it stays a define (see reflect).
    if (new RegExp(`^#\\s*ifndef\\s+${name}$`).test(guard) && /^\s*-?\d+\s*$/.test(head[5])) {
      guardedConstants.set(name, Number(head[5]));
    } else {
      macroNames.add(name);
    }
    const bodyLines = [head[5], ...parts.slice(1)].map((line) => line.replace(/\\\s*$/, ''));
    const hasDirectives = bodyLines.slice(1).some((line) => /^\s*#/.test(line));
    if (hasDirectives) {
      const paramNames = paramList
        ? params
            .split(',')
            .map((param) => param.trim())
            .filter(Boolean)
        : [];
      directiveMacros.push({ name, params: paramNames, body: bodyLines.map((line) => line.trim()).join('\n') });
      continue;
    }
    const body = bodyLines
      .map((line) => line.trim())
      .join(' ')
      .trim();
    if (kind !== 'define' || parts.length > 1) out.push(`#define ${name}${paramList ?? ''} ${body}`);
    else out.push(parts[0]);
  }
  const expanded = directiveMacros.length
    ? expandDirectiveMacros({ text: out.join('\n'), macros: directiveMacros, file })
    : out.join('\n');
  return { text: expanded, macroNames, guardedConstants };
}

/**
 * @param {{ file: string, programs: Map<string, string>, chunksRoot: string, program: string }} input
 * @returns {{ text: string, macroNames: Set<string>, guardedConstants: Map<string, number> }}
 */
export function preprocessProgram({ file, programs, chunksRoot, program }) {
  if (!programs.has(program)) throw new Error(`${file}: no CCProgram named ${program}`);
  const context = { file, programs, chunksRoot, seen: new Set([`program:${program}`]) };
  const flat = inlineIncludes({ text: programs.get(program), context, origin: program, fromDir: path.dirname(file) });
  return processMacros({ text: flat, file });
}
