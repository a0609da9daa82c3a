/**
 * The built-in stand-in for Gemini Nano in the demo and previews: the tavern's keyword rules
 * (shared with the Cocos sample's previews), answered through the same tool calls and envelopes
 * a real model uses.
 */
import { KeywordModel } from '../../src';
import { TAVERN_STAND_IN } from '../../samples/tavern/assets/scripts/TavernRules';

export function createMiraModel(options: { chunkDelayMs?: number } = {}): KeywordModel {
  return new KeywordModel({ ...TAVERN_STAND_IN, chunkDelayMs: options.chunkDelayMs });
}
