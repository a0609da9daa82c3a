/**
 * Reasoning a model writes before its answer, which is never the answer and never shown:
 * - `<think>…</think>` (Qwen 3, DeepSeek R1; also `<thinking>`, `<thought>`, `<reasoning>`);
 * - Gemma 4's thought channel, `<|channel>thought …<channel|>`;
 * - Command R's `<|START_THINKING|>…<|END_THINKING|>`;
 * - a tool response the model wrote itself (`<|tool_response>…<tool_response|>`, `<tool_response>…`);
 * - a closer with no opener before it (a template that opens the block itself, llama.cpp's
 *   "thinking forced open"): everything before it was reasoning.
 * An unclosed block hides everything after its opener: the answer has not started yet.
 */

interface Block {
  open: RegExp;
  close: (open: RegExpExecArray) => string;
}

const BLOCKS: Block[] = [
  { open: /<(think|thinking|thought|reasoning)>/i, close: (open) => `</${open[1]}>` },
  { open: /<\|channel>/, close: () => '<channel|>' },
  { open: /<\|START_THINKING\|>/, close: () => '<|END_THINKING|>' },
  // A tool's answer the model made up (Gemma 4, Hermes/Qwen): never the answer either.
  { open: /<\|tool_response>/, close: () => '<tool_response|>' },
  { open: /<tool_response>/i, close: () => '</tool_response>' },
];
/** The closers that also end a block a template opened (so everything before them was reasoning). */
export const ORPHAN_CLOSERS: readonly string[] = ['</think>', '</thinking>', '<channel|>', '<|END_THINKING|>'];

/** Text that may still become a reasoning opener, held back while streaming. */
export const REASONING_OPENERS = [
  '<think>',
  '<thinking>',
  '<thought>',
  '<reasoning>',
  '<|channel>',
  '<|START_THINKING|>',
];

/** `text` without its reasoning (linear: each block is found with one search). */
export function stripReasoning(text: string): string {
  if (text.indexOf('<') < 0) return text;
  let rest = withoutOrphanReasoning(text);
  let out = '';
  for (;;) {
    let first: { block: Block; match: RegExpExecArray } | undefined;
    for (const block of BLOCKS) {
      const match = block.open.exec(rest);
      if (match && (!first || match.index < first.match.index)) first = { block, match };
    }
    if (!first) return out + rest;
    out += rest.slice(0, first.match.index);
    const closeTag = first.block.close(first.match);
    const from = first.match.index + first.match[0].length;
    const close = rest.toLowerCase().indexOf(closeTag.toLowerCase(), from);
    if (close < 0) return out; // still thinking: no answer yet
    rest = rest.slice(close + closeTag.length);
  }
}

/** Drops the reasoning before a closer that has no opener in front of it. */
function withoutOrphanReasoning(text: string): string {
  for (const closer of ORPHAN_CLOSERS) {
    const at = text.indexOf(closer);
    if (at < 0) continue;
    const before = text.slice(0, at);
    if (!BLOCKS.some((block) => block.open.test(before))) return text.slice(at + closer.length);
  }
  return text;
}
