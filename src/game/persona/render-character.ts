/**
 * The whole character part of an NPC's prompt: the persona's instructions, then its sample lines
 * (within their token budget), then its current relationship stage. Everything here is a pure
 * function of (persona, options, stage): byte-identical for every turn inside one stage.
 */
import { normalizePersona } from './persona';
import type { Persona } from './persona';
import { renderPersonaInstructions, type PersonaInstructionOptions } from './render-instructions';
import { DEFAULT_SAMPLE_LINE_TOKENS, renderSampleLines } from './sample-lines';
import { renderStage, stageIndexAt } from './stages';

export interface CharacterInstructionOptions extends PersonaInstructionOptions {
  /** The relationship now; picks the stage rendered (default 0). */
  relationship?: number;
  /** Tokens the sample lines may take (default DEFAULT_SAMPLE_LINE_TOKENS; 0 leaves them out). */
  sampleLineTokens?: number;
}

export interface CharacterInstructions {
  text: string;
  /** The stage rendered, or -1 for none. */
  stageIndex: number;
  /** How many sample lines are in the text, and how many the budget left out. */
  sampleLinesShown: number;
  sampleLinesDropped: number;
}

export function renderCharacter(persona: Persona, options: CharacterInstructionOptions): CharacterInstructions {
  const normalized = normalizePersona(persona);
  const base = renderPersonaInstructions(persona, options);
  const budget = options.sampleLineTokens === undefined ? DEFAULT_SAMPLE_LINE_TOKENS : options.sampleLineTokens;
  const samples = renderSampleLines(normalized.sampleLines, budget);
  const stageIndex = stageIndexAt(normalized.stages, options.relationship ?? 0);
  const stage = renderStage(normalized.stages[stageIndex]);
  return {
    text: [base, samples.text, stage].filter(Boolean).join('\n'),
    stageIndex,
    sampleLinesShown: samples.shown,
    sampleLinesDropped: samples.dropped,
  };
}

/** The text alone (see renderCharacter). */
export function renderCharacterInstructions(persona: Persona, options: CharacterInstructionOptions): string {
  return renderCharacter(persona, options).text;
}
