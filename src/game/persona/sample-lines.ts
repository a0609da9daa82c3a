/**
 * Sample lines: a few example exchanges that set a character's voice better than any adjective
 * ("Style: gruff"). They sit in the cacheable prefix, so they cost every call's prefill:
 * they are rendered in order until a token budget is spent, and the later ones are dropped.
 */
import { estimateTokens } from '../../contract/language-model';

export interface SampleLine {
  /** What the player says (optional: a line the character says unprompted). */
  player?: string;
  /** What the character answers, in its own voice. Required. */
  npc: string;
}

/** Tokens the examples may take in the prefix unless the NPC says otherwise (about 3 short exchanges). */
export const DEFAULT_SAMPLE_LINE_TOKENS = 120;

export interface RenderedSampleLines {
  /** The block for the prompt, or '' when none fit. */
  text: string;
  /** How many of the persona's examples are in it (the first ones). */
  shown: number;
  /** How many were left out for the budget. */
  dropped: number;
  /** The block's tokens by the runtime's estimate. */
  tokens: number;
}

function tidy(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

/** The examples with an answer, texts tidied (anything odd from code that skipped validation dropped). */
export function normalizeSampleLines(value: unknown): SampleLine[] {
  if (!Array.isArray(value)) return [];
  const out: SampleLine[] = [];
  for (const entry of value) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const npc = tidy((entry as Record<string, unknown>).npc);
    if (!npc) continue;
    const player = tidy((entry as Record<string, unknown>).player);
    out.push(player ? { player, npc } : { npc });
  }
  return out;
}

function quoted(text: string): string {
  return `"${text.replace(/"/g, "'")}"`;
}

function exampleLine(sample: SampleLine): string {
  return sample.player ? `- ${quoted(sample.player)} → ${quoted(sample.npc)}` : `- ${quoted(sample.npc)}`;
}

const HEADING = 'How you sound (examples, not a script):';

/**
 * The examples within `budgetTokens` (the heading counts too), first ones first; an example that
 * does not fit ends the list, so the block never depends on which later ones happen to be short.
 */
export function renderSampleLines(samples: readonly SampleLine[], budgetTokens: number): RenderedSampleLines {
  const budget = typeof budgetTokens === 'number' && isFinite(budgetTokens) ? Math.max(0, budgetTokens) : 0;
  const lines: string[] = [];
  let text = '';
  for (const sample of samples) {
    const next = [HEADING, ...lines, exampleLine(sample)].join('\n');
    if (estimateTokens(next) > budget) break;
    lines.push(exampleLine(sample));
    text = next;
  }
  return {
    text,
    shown: lines.length,
    dropped: samples.length - lines.length,
    tokens: text ? estimateTokens(text) : 0,
  };
}
