/**
 * Token counts of prompt texts: exact from the model when it can count, else estimated.
 */
import { raceSignal, type SignalLike } from '../../contract/abort';
import { estimateTokens, type LanguageModel } from '../../contract/language-model';

/** The most characters of text the counter keeps as cache keys (whole prompts are keys too). */
const MAX_CACHED_CHARS = 200_000;

/**
 * Counts tokens exactly with the model when it can, caching by text (blocks repeat across
 * steps). The cache is bounded by the characters it holds, not only by entries: whole prompts
 * are keys, and a long session must not keep megabytes of old prompts alive.
 */
export class TokenCounter {
  private cache = new Map<string, number>();
  private cachedChars = 0;
  constructor(private readonly model: LanguageModel) {}

  async count(text: string, signal?: SignalLike): Promise<number> {
    if (!text) return 0;
    const hit = this.cache.get(text);
    if (hit !== undefined) return hit;
    let exact: number | null | undefined = null;
    if (this.model.countTokens) {
      try {
        exact = await raceSignal(this.model.countTokens(text), signal);
      } catch (error) {
        if (signal?.aborted) throw error; // cancelled: stop; any other failure: fall back to the estimate
        exact = null;
      }
    }
    const value = typeof exact === 'number' && exact >= 0 ? exact : estimateTokens(text);
    if (this.cache.size >= 256 || this.cachedChars + text.length > MAX_CACHED_CHARS) {
      this.cache.clear();
      this.cachedChars = 0;
    }
    if (text.length <= MAX_CACHED_CHARS) {
      this.cache.set(text, value);
      this.cachedChars += text.length;
    }
    return value;
  }
}
