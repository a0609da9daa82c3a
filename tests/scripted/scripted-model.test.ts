/** ScriptedLanguageModel: the deterministic model every other test stands on. */
import { AgentError, Canceller, generateText, type GenerationChunk, type GenerationRequest } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';

const req = (prompt = 'Hi', extra: Partial<GenerationRequest> = {}): GenerationRequest => ({
  kind: 'text',
  prompt,
  ...extra,
});

async function chunks(
  model: ScriptedLanguageModel,
  request = req(),
  signal?: Canceller['signal'],
): Promise<GenerationChunk[]> {
  const out: GenerationChunk[] = [];
  for await (const chunk of model.generate(request, signal)) out.push(chunk);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError;
  }
  throw new Error('expected a rejection');
}

describe('ScriptedLanguageModel', () => {
  test('text in chunks: deltas add up, text is cumulative, the last chunk says stop', async () => {
    const model = new ScriptedLanguageModel([Script.text('Hello brave traveller', 4)]);
    const cs = await chunks(model);
    expect(cs).toHaveLength(4);
    expect(cs.map((chunk) => chunk.delta).join('')).toBe('Hello brave traveller');
    expect(cs[cs.length - 1]).toMatchObject({ text: 'Hello brave traveller', finishReason: 'stop' });
    expect(cs.slice(0, -1).every((chunk) => chunk.finishReason === undefined)).toBe(true);
    for (let index = 1; index < cs.length; index++) expect(cs[index].text.startsWith(cs[index - 1].text)).toBe(true);
  });

  test('plain strings are text steps; an empty text is one empty final chunk', async () => {
    const model = new ScriptedLanguageModel(['abc', '']);
    expect((await generateText(model, req())).text).toBe('abc');
    expect(await chunks(model)).toEqual([{ delta: '', text: '', finishReason: 'stop' }]);
  });

  test('the envelope builders', async () => {
    const model = new ScriptedLanguageModel([
      Script.call('take_order', { item: 'ale' }),
      Script.reply('Hi'),
      Script.reply({ mood: 'happy' }),
      Script.action('respond'),
      Script.json({ a: [1] }),
    ]);
    const texts: string[] = [];
    for (let index = 0; index < 5; index++) texts.push((await generateText(model, req())).text);
    expect(texts).toEqual([
      '{"tool":"take_order","args":{"item":"ale"}}',
      '{"reply":"Hi"}',
      '{"reply":{"mood":"happy"}}',
      '{"action":"respond","arguments":{}}',
      '{"a":[1]}',
    ]);
  });

  test('templates fill the prompt and the tool outputs', async () => {
    const model = new ScriptedLanguageModel([
      Script.template('You said {prompt}; last {toolOutput}; all {toolOutputs}'),
    ]);
    // Read from the prompt as the agent renders it (readRenderedTurn).
    const request = req(
      'Memory: none\n\nConversation:\nUser: hi\nAssistant: hello\nUser: two ales\n[a {} → one]\n[b {"n":1} → two]\n\nNext step: a tool whose result you need, or your reply.',
    );
    expect((await generateText(model, request)).text).toBe('You said two ales; last two; all one; two');
    const bare = new ScriptedLanguageModel([Script.template('[{prompt}] [{toolOutput}]')]);
    expect((await generateText(bare, req('plain'))).text).toBe('[plain] []');
  });

  test('dynamic steps see the request and may return a step or a string', async () => {
    const model = new ScriptedLanguageModel([
      Script.dynamic((request) => `kind was ${request.kind}`),
      Script.dynamic((request) => Script.fail(request.prompt === 'bad' ? 'refusal' : 'busy')),
    ]);
    expect((await generateText(model, req('x', { kind: 'decide' }))).text).toBe('kind was decide');
    expect((await rejection(generateText(model, req('bad')))).code).toBe('refusal');
  });

  test('delays wrap another step and can be cancelled', async () => {
    const model = new ScriptedLanguageModel([
      Script.delay(5, Script.text('late')),
      Script.delay(10_000, Script.text('never')),
    ]);
    expect((await generateText(model, req())).text).toBe('late');
    const canceller = new Canceller();
    const pending = generateText(model, req(), canceller.signal);
    setTimeout(() => canceller.abort(), 5);
    expect((await rejection(pending)).code).toBe('cancelled');
  });

  test('fail with any code, message and retry-after; afterText streams before the failure', async () => {
    const model = new ScriptedLanguageModel([
      Script.fail('rate_limited', 'Too many.', { retryAfterMs: 1200 }),
      Script.fail('generation_failed', undefined, { afterText: 'Half a sen' }),
    ]);
    const rateLimit = await rejection(generateText(model, req()));
    expect(rateLimit.code).toBe('rate_limited');
    expect(rateLimit.message).toBe('Too many.');
    expect(rateLimit.retryAfterMs).toBe(1200);

    const seen: string[] = [];
    let error: AgentError | undefined;
    try {
      for await (const chunk of model.generate(req())) seen.push(chunk.text);
    } catch (err) {
      error = err as AgentError;
    }
    expect(seen[seen.length - 1]).toBe('Half a sen');
    expect(error?.code).toBe('generation_failed');
    expect(error?.message).toContain('generation_failed');
  });

  test('hang never answers until cancelled; a pre-aborted signal fails at once', async () => {
    const model = new ScriptedLanguageModel([Script.hang(), Script.text('unused')]);
    const canceller = new Canceller();
    const pending = generateText(model, req(), canceller.signal);
    let settled = false;
    pending.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    canceller.abort();
    expect((await rejection(pending)).code).toBe('cancelled');
    const aborted = new Canceller();
    aborted.abort();
    expect((await rejection(generateText(model, req(), aborted.signal))).code).toBe('cancelled');
    expect(model.calls).toBe(2);
  });

  test('cancel mid-stream with chunk delays', async () => {
    const model = new ScriptedLanguageModel([Script.text('a b c d e f g h', 8)], { chunkDelayMs: 3 });
    const canceller = new Canceller();
    const seen: string[] = [];
    let error: AgentError | undefined;
    try {
      for await (const chunk of model.generate(req(), canceller.signal)) {
        seen.push(chunk.delta);
        if (seen.length === 2) canceller.abort();
      }
    } catch (caught) {
      error = caught as AgentError;
    }
    expect(seen).toHaveLength(2);
    expect(error?.code).toBe('cancelled');
  });

  test('an exhausted script says so clearly; a fallback plays instead when given', async () => {
    const model = new ScriptedLanguageModel(['one']);
    await generateText(model, req());
    const error = await rejection(generateText(model, req('x', { kind: 'respond' })));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe(
      'ScriptedLanguageModel: the script is exhausted after 1 steps; add a step for request #2 (kind respond).',
    );

    const fallback = new ScriptedLanguageModel([], { fallback: 'Hm.' });
    expect((await generateText(fallback, req())).text).toBe('Hm.');
    expect((await generateText(fallback, req())).text).toBe('Hm.');
  });

  test('records every request (a copy), the kinds, remaining steps, append', async () => {
    const model = new ScriptedLanguageModel(['a']);
    const request = req('first', { kind: 'decide', systemInstruction: 'sys', promptPrefix: 'pre' });
    await generateText(model, request);
    request.prompt = 'changed later';
    expect(model.requests[0]).toMatchObject({
      kind: 'decide',
      prompt: 'first',
      systemInstruction: 'sys',
      promptPrefix: 'pre',
    });
    expect(model.remaining).toBe(0);
    model.append('b', Script.text('c'));
    expect(model.remaining).toBe(2);
    await generateText(model, req('second', { kind: 'respond' }));
    expect(model.kinds).toEqual(['decide', 'respond']);
    expect(model.calls).toBe(2);
  });

  test('chunks never split a surrogate pair', async () => {
    const text = '😀🎉🐉'.repeat(5) + 'x';
    for (const size of [1, 2, 3, 4, 5, 7, 16, 31, 100]) {
      const model = new ScriptedLanguageModel([Script.text(text, size)]);
      const cs = await chunks(model);
      expect(cs.map((chunk) => chunk.delta).join('')).toBe(text);
      for (const chunk of cs) {
        expect(chunk.delta.length).toBeGreaterThan(0);
        const first = chunk.delta.charCodeAt(0);
        const last = chunk.delta.charCodeAt(chunk.delta.length - 1);
        expect(first >= 0xdc00 && first <= 0xdfff).toBe(false); // no lone low half at the start
        expect(last >= 0xd800 && last <= 0xdbff).toBe(false); // no lone high half at the end
      }
    }
  });

  test('capabilities, availability and countTokens', async () => {
    const model = new ScriptedLanguageModel([], {
      capabilities: { maxInputTokens: 1000, systemInstructions: false },
      countTokens: (text) => text.length,
    });
    expect(model.capabilities).toMatchObject({
      modelName: 'scripted',
      maxInputTokens: 1000,
      systemInstructions: false,
      nativeToolCalling: false,
    });
    expect(await model.availability()).toEqual({ status: 'available' });
    model.setAvailability({ status: 'unavailable', reason: 'deviceNotSupported' } as never);
    expect((await model.availability()).status).toBe('unavailable');
    expect(await model.countTokens!('abcd')).toBe(4);
    expect(new ScriptedLanguageModel().countTokens).toBeUndefined();
  });
});
