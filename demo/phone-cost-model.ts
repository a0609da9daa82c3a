/**
 * Estimated time a turn takes on a phone's Gemini Nano, from published figures. They are
 * inputs, not measurements of this project (no phone here); see shared/reference/mlkit-genai.md §5.
 * The demo prints its per-turn estimate with it and the bench measures with it; it lives here so
 * the bench builds on the demo and never the other way round.
 */
export interface CostModel {
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
  perCallSeconds: number;
  /** What a cached prefix token costs, relative to prefilling it (1: no prefix caching). */
  cachedPrefillFactor: number;
}

export const COST_MODEL: CostModel = {
  prefillTokensPerSecond: 940,
  decodeTokensPerSecond: 15,
  perCallSeconds: 0.3,
  cachedPrefillFactor: 0.25,
};

/** Each figure with where it comes from and how far it can be trusted. */
export const COST_SOURCES: Array<{ figure: string; source: string; strength: string }> = [
  {
    figure: 'prefill 940 prompt tokens/s',
    source:
      'nano-v3 on a Pixel 10 Pro, Android Developers Blog "Gemini Nano with on-device ML Kit and GenAI APIs", Aug 2025',
    strength: "medium: the vendor's figure, one device",
  },
  {
    figure: 'decode 15 tokens/s (range 9.6 to 19)',
    source:
      "Android Authority's measurements of Nano 3 (≈9.6) and Nano 4 Fast (≈19), as reported in kuscher/booklight docs/research/on-device-ai.md",
    strength: 'medium: third-party measurements, second-hand; 15 is the middle of the range, not a measurement',
  },
  {
    figure: '0.3 s fixed cost per call',
    source:
      "time to first token for text on nano-v3, one developer's measurement (kuscher/booklight docs/research/device-findings.md)",
    strength: 'WEAK: one developer, one device',
  },
  {
    figure: 'cached prefix at 0.25× its prefill',
    source:
      "ML Kit's prefix-caching page (1,000+100 tokens: 2.11 s → 0.5 s on a Pixel 9) as quoted by booklight, marked uncertain there",
    strength:
      'WEAK: quoted second-hand and marked uncertain; how ML Kit treats a prefix that grows each turn is unverified',
  },
];

export interface StepCost {
  promptTokens: number;
  /** Tokens of the byte-stable prefix (system instruction + prompt prefix). */
  cacheableTokens: number;
  outputTokens: number;
}

/** Seconds until the step's first output token (the fixed cost and the prefill). */
export function firstTokenSeconds(
  step: Omit<StepCost, 'outputTokens'>,
  prefixCached: boolean,
  model: CostModel = COST_MODEL,
): number {
  const cached = prefixCached ? Math.min(step.cacheableTokens, step.promptTokens) : 0;
  const prefill = (step.promptTokens - cached + cached * model.cachedPrefillFactor) / model.prefillTokensPerSecond;
  return model.perCallSeconds + prefill;
}

/** Seconds one model step takes. */
export function stepSeconds(step: StepCost, prefixCached: boolean, model: CostModel = COST_MODEL): number {
  return firstTokenSeconds(step, prefixCached, model) + step.outputTokens / model.decodeTokensPerSecond;
}
