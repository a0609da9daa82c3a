/**
 * The caps that keep a development server from holding a turn (issue 28, item 4): the model
 * time of a turn (maxModelTimePerTurnMs, default 60 s, retries included) and an output cap on
 * every step, honoured here even when the server ignores it. The caps are named in the error.
 */
import {
  Agent,
  DEFAULT_CAPABILITIES,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
} from '../../src';
import { failure } from './helpers';

/** A server that never answers; it only stops when its signal is aborted. */
class SilentModel implements LanguageModel {
  readonly capabilities = { ...DEFAULT_CAPABILITIES, modelName: 'silent' };
  readonly requests: GenerationRequest[] = [];
  availability() {
    return Promise.resolve({ status: 'available' as const });
  }
  async *generate(
    request: GenerationRequest,
    signal?: { aborted: boolean; addEventListener(type: 'abort', cb: () => void): void },
  ): AsyncIterable<GenerationChunk> {
    this.requests.push(request);
    await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve()));
    // Reached only after the abort: the stream ends without a word.
    if (!signal?.aborted) yield { delta: '', text: '' };
  }
}

/** A server that ignores max_tokens and streams the same words for ever. */
class EndlessModel implements LanguageModel {
  readonly capabilities = { ...DEFAULT_CAPABILITIES, modelName: 'endless' };
  readonly requests: GenerationRequest[] = [];
  chunks = 0;
  availability() {
    return Promise.resolve({ status: 'available' as const });
  }
  async *generate(request: GenerationRequest): AsyncIterable<GenerationChunk> {
    this.requests.push(request);
    let text = '';
    for (;;) {
      this.chunks++;
      text += 'and again ';
      yield { delta: 'and again ', text };
      await Promise.resolve();
    }
  }
}

describe('a turn cannot be held by its model', () => {
  test('a silent server fails the turn at the turn cap, once, not after three request timeouts', async () => {
    const model = new SilentModel();
    const agent = new Agent(model, { instructions: 'You are Mira.', config: { maxModelTimePerTurnMs: 100 } });
    const error = await failure(agent.respond('Hello'));
    expect(error.code).toBe('generation_failed');
    expect(error.message).toContain("this turn's cap of 100 ms (maxModelTimePerTurnMs)");
    expect(error.details).toMatchObject({ reason: 'turn_time_cap', limitMs: 100 });
    // generation_failed is retried otherwise; past the cap it is not.
    expect(model.requests).toHaveLength(1);
    // The failed turn leaves the history as it was.
    expect(agent.history).toEqual([]);
  });

  test('every step carries an output cap, and a server that streams past it is stopped where it should have', async () => {
    const model = new EndlessModel();
    const agent = new Agent(model, { instructions: 'You are Mira.', config: { maxModelTimePerTurnMs: 0 } });
    const response = await agent.respond('Hello', { toolChoice: 'none' });
    expect(model.requests.every((request) => typeof request.maxOutputTokens === 'number')).toBe(true);
    const cap = model.requests[0].maxOutputTokens as number;
    expect(cap).toBe(512);
    // Stopped within a bounded number of chunks (~3 tokens each), not left streaming.
    expect(model.chunks).toBeLessThan(cap);
    expect(response.text.startsWith('and again')).toBe(true);
  });

  test('the defaults: 60 s of model time per turn, 512 tokens per reply step; both can be set', async () => {
    const model = new EndlessModel();
    const agent = new Agent(model, { instructions: 'x', config: { maxResponseTokens: 40 } });
    expect(agent.config.maxModelTimePerTurnMs).toBe(60_000);
    await agent.respond('Hi', { toolChoice: 'none' });
    expect(model.requests[0].maxOutputTokens).toBe(40);
    expect(model.chunks).toBeLessThan(60);
  });
});
