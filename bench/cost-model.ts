/**
 * Estimated time a turn takes on a phone's Gemini Nano, from published figures:
 * - prefill ≈ 940 prompt tokens/s: nano-v3 on a Pixel 10 Pro (Android Developers Blog,
 *   "Gemini Nano with on-device ML Kit and GenAI APIs", Aug 2025);
 * - decode ≈ 15 output tokens/s: between ≈9.6 (Nano 3) and ≈19 (Nano 4 Fast) measured by
 *   Android Authority (reported in kuscher/booklight docs/research/on-device-ai.md);
 * - a fixed cost per call ≈ 0.3 s (time to first token for text on nano-v3, one developer's
 *   measurement in kuscher/booklight docs/research/device-findings.md);
 * - a cached prefix costs ≈ a quarter of its prefill (ML Kit's prefix-caching page: 1,000+100
 *   tokens 2.11 s → 0.5 s on a Pixel 9, as quoted by booklight; marked uncertain there).
 * The figures are inputs, not measurements of this project; see shared/reference/mlkit-genai.md §5.
 */
export const COST_MODEL = {
  prefillTokensPerSecond: 940,
  decodeTokensPerSecond: 15,
  perCallSeconds: 0.3,
  cachedPrefillFactor: 0.25,
};

export interface StepCost {
  promptTokens: number;
  /** Tokens of the byte-stable prefix (system instruction + prompt prefix). */
  cacheableTokens: number;
  outputTokens: number;
}

/** Seconds one model step takes; the prefix counts as cached from the second call on. */
export function stepSeconds(step: StepCost, prefixCached: boolean): number {
  const cached = prefixCached ? Math.min(step.cacheableTokens, step.promptTokens) : 0;
  const prefill = (step.promptTokens - cached + cached * COST_MODEL.cachedPrefillFactor) / COST_MODEL.prefillTokensPerSecond;
  return COST_MODEL.perCallSeconds + prefill + step.outputTokens / COST_MODEL.decodeTokensPerSecond;
}
