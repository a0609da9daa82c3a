/**
 * The control tokens and tags of every call family and chat template the readers know. None
 * of them is ever shown to a player: after the calls themselves are cut out, whatever of these
 * is left (a stray closer, a token the model wrote as text) is removed.
 */

/** Tokens written exactly (case-insensitive for the tag-like ones). */
export const MARKUP_TOKENS: readonly string[] = [
  // Gemma 4
  '<|tool_call>',
  '<tool_call|>',
  '<|"|>',
  '<|channel>',
  '<channel|>',
  '<|turn>',
  '<turn|>',
  '<|tool_response>',
  '<tool_response|>',
  // FunctionGemma, Gemma 3
  '<start_function_call>',
  '<end_function_call>',
  '<start_function_response>',
  '<end_function_response>',
  '<escape>',
  '<start_of_turn>',
  '<end_of_turn>',
  // Hermes / Qwen
  '<tool_call>',
  '</tool_call>',
  '<tool_response>',
  '</tool_response>',
  '<|im_start|>',
  '<|im_end|>',
  // Llama 3.x
  '<|python_tag|>',
  '<|eot_id|>',
  '<|eom_id|>',
  '<|start_header_id|>',
  '<|end_header_id|>',
  '</function>',
  // Mistral
  '[TOOL_CALLS]',
  // reasoning
  '<think>',
  '</think>',
  '<thinking>',
  '</thinking>',
  '<|START_THINKING|>',
  '<|END_THINKING|>',
];

/**
 * Tags and tokens by shape: `<|name|>`, `<|name>`, `<name|>` (Gemma 4, Llama, ChatML tokens),
 * `<function=…>` and `<function name="…">`, the wrapper tags small models put around a call,
 * `<bos>`/`<eos>`/`<pad>`, a chat turn's opener with its role (`<|im_start|>assistant`, `<start_of_turn>model`), and Markdown fence markers (```` ```tool_code ````): a fence's words stay, its markers go.
 */
const MARKUP_SHAPES =
  /<\|im_start\|>\s*(?:assistant|user|system|model)?|<start_of_turn>\s*(?:model|user)?|<\|[^<>\s|]{1,40}\|?>|<[^<>\s|]{1,40}\|>|<function(?:=[^<>]{0,80}|\s+name\s*=\s*"[^"<>]{0,80}")>|<\/?(?:tool_call|tool_calls|tool|tools|function_call|tool_code|response|json|xml|think|thinking|thought|reasoning|call)>|<(?:bos|eos|pad)>|\[TOOL_CALLS\]|```[A-Za-z_]*/gi;

const LOWER_TOKENS = MARKUP_TOKENS.map((token) => token.toLowerCase());

/** Whether any markup token is in the text (the property every shown line keeps). */
export function hasMarkup(text: string): boolean {
  MARKUP_SHAPES.lastIndex = 0;
  if (MARKUP_SHAPES.test(text)) return true;
  const lower = text.toLowerCase();
  return MARKUP_TOKENS.some((token) => lower.indexOf(token.toLowerCase()) >= 0);
}

/** The text without any markup token; repeated, because removing one can join the halves of another. */
export function withoutMarkup(text: string): string {
  // Every token holds one of these characters: text without them has none (the common case).
  if (!/[<>[`]/.test(text)) return text;
  let current = text;
  for (let pass = 0; pass < 8; pass++) {
    MARKUP_SHAPES.lastIndex = 0;
    let next = current.replace(MARKUP_SHAPES, ' ');
    let lower = next.toLowerCase();
    for (const token of LOWER_TOKENS) {
      if (lower.indexOf(token) < 0) continue;
      next = replaceAllInsensitive(next, token);
      lower = next.toLowerCase();
    }
    if (next === current) return current;
    current = next;
  }
  // Still markup after 8 passes: a crafted nest of tokens. Angle brackets go, so none can remain.
  return current.replace(/[<>]/g, ' ').replace(/\[TOOL_CALLS\]/gi, ' ');
}

function replaceAllInsensitive(text: string, token: string): string {
  const lower = text.toLowerCase();
  const needle = token.toLowerCase();
  let out = '';
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, from)) {
    out += text.slice(from, at) + ' ';
    from = at + token.length;
  }
  return out + text.slice(from);
}
