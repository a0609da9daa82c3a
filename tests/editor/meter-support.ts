/** Shared by the token-meter tests: Mira's persona and a model that records what an NPC sends. */
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_CAPABILITIES } from '../../src/contract/language-model';
import type { GenerationChunk, GenerationRequest, LanguageModel } from '../../src/contract/language-model';

export const MIRA = JSON.parse(fs.readFileSync(path.join(__dirname, '../../demo/tavern/mira.persona.json'), 'utf8'));

/** A model that records each request and answers with a short structured reply. */
export function recordingModel(requests: GenerationRequest[]): LanguageModel {
  return {
    capabilities: { ...DEFAULT_CAPABILITIES, modelName: 'recorder', systemInstructions: true },
    availability: async () => ({ status: 'available' }),
    async *generate(request: GenerationRequest): AsyncIterable<GenerationChunk> {
      requests.push(request);
      const text = '{"reply": {"emotion": "happy", "line": "Evening!"}}';
      yield { delta: text, text, finishReason: 'stop' };
    },
  };
}
