/**
 * ChromePromptModel through its public API, in Node, against the Prompt API stand-in
 * (bench/web/prompt-api-stand-in.ts: a STAND-IN for Chrome's built-in model that follows
 * the spec's interface). The same backend runs in headless Chromium in
 * chrome-prompt.browser.test.ts.
 */
import {
  AgentError,
  Canceller,
  ChromePromptModel,
  generateText,
  type GenerationChunk,
  type GenerationRequest,
} from '../../src';
import { samplingModeFor } from '../../src/models/chrome-prompt';
import { createPromptApiStandIn, type StandInOptions } from '../../bench/web/prompt-api-stand-in';
import type { PromptApi } from '../../src/models/chrome-prompt';

function setup(
  options: StandInOptions = {},
  modelOptions: Partial<ConstructorParameters<typeof ChromePromptModel>[0]> = {},
) {
  const { api, control } = createPromptApiStandIn(options);
  const model = new ChromePromptModel({ api: api as PromptApi, ...modelOptions });
  return { model, control };
}

async function collect(
  model: ChromePromptModel,
  request: GenerationRequest,
  signal?: Canceller['signal'],
): Promise<GenerationChunk[]> {
  const chunks: GenerationChunk[] = [];
  for await (const chunk of model.generate(request, signal)) chunks.push(chunk);
  return chunks;
}

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError;
  }
  throw new Error('expected a failure');
}

const REQUEST: GenerationRequest = {
  kind: 'respond',
  systemInstruction: 'You are Mira.',
  promptPrefix: 'TOOLS: none\n',
  prompt: 'Guest: Hello!\nMira:',
};

describe('availability', () => {
  test('no Prompt API in this runtime: unavailable, and generate() says so (load never needs it)', async () => {
    const model = new ChromePromptModel();
    expect(ChromePromptModel.isSupported()).toBe(false);
    await expect(model.availability()).resolves.toMatchObject({ status: 'unavailable', reason: 'no_prompt_api' });
    const error = await failure(collect(model, REQUEST));
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toMatch(/Chrome 148\+/);
    await expect(model.countTokens('x')).resolves.toBeNull();
  });

  test.each(['available', 'downloadable', 'downloading'] as const)('%s maps to the same status', async (state) => {
    const { model } = setup({ availability: state });
    await expect(model.availability()).resolves.toEqual({ status: state });
  });

  test('unavailable comes with a reason and what the machine needs', async () => {
    const { model } = setup({ availability: 'unavailable' });
    const availability = await model.availability();
    expect(availability).toMatchObject({ status: 'unavailable', reason: 'device_not_eligible' });
    expect(availability.status === 'unavailable' && availability.detail).toMatch(/22 GB/);
  });

  test('a document that is not fully active: unavailable with what to do', async () => {
    const { model, control } = setup();
    control.documentActive = false;
    const availability = await model.availability();
    expect(availability).toMatchObject({ status: 'unavailable', reason: 'unknown' });
    expect(availability.status === 'unavailable' && availability.detail).toMatch(/back\/forward cache/);
  });
});

describe('download', () => {
  test('downloadable without a user gesture: model_unavailable that says to call it from a click', async () => {
    const { model, control } = setup({ availability: 'downloadable' });
    const error = await failure(model.download());
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toMatch(/click, tap or key handler/);
    expect(control.availability).toBe('downloadable');
  });

  test('with a gesture: progress from downloadprogress, shared by concurrent calls, then available', async () => {
    const { model, control } = setup({ availability: 'downloadable' });
    control.activated = true;
    const seen: number[] = [];
    const listened: number[] = [];
    const stop = model.onDownloadProgress((progress) => listened.push(progress.fraction));
    const firstDownload = model.download({ onProgress: (progress) => seen.push(progress.fraction) });
    const secondDownload = model.download();
    await expect(model.availability()).resolves.toMatchObject({ status: 'downloading' });
    await Promise.all([firstDownload, secondDownload]);
    stop();
    expect(seen).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(listened).toEqual(seen);
    expect(control.log.creates).toHaveLength(1);
    expect(control.live()).toBe(0); // the download's session is not kept
    await expect(model.availability()).resolves.toEqual({ status: 'available' });
  });

  test('a cancelled wait is cancelled; the download goes on', async () => {
    const { model, control } = setup({ availability: 'downloadable' });
    control.activated = true;
    const canceller = new Canceller();
    const waiting = model.download({ signal: canceller.signal });
    canceller.abort();
    expect((await failure(waiting)).code).toBe('cancelled');
    await model.download();
    expect(control.availability).toBe('available');
  });

  test('generate() never starts a download: model_unavailable naming the gesture', async () => {
    const { model, control } = setup({ availability: 'downloadable' });
    control.activated = true;
    const error = await failure(collect(model, REQUEST));
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toMatch(/not downloaded yet/);
    expect(control.availability).toBe('downloadable');
  });
});

describe('generate', () => {
  test("the stable prefix is the base session's system prompt; each request clones it; chunks are cumulative", async () => {
    const { model, control } = setup({ brain: () => 'Well met, traveller!' });
    const chunks = await collect(model, REQUEST);
    expect(control.log.creates[0].initialPrompts).toEqual([
      { role: 'system', content: 'You are Mira.\n\nTOOLS: none\n' },
    ]);
    expect(control.log.prompts[0]).toMatchObject({
      input: 'Guest: Hello!\nMira:',
      system: 'You are Mira.\n\nTOOLS: none\n',
    });
    expect(chunks.map((chunk) => chunk.delta).join('')).toBe('Well met, traveller!');
    for (const chunk of chunks) expect('Well met, traveller!'.startsWith(chunk.text)).toBe(true);
    const last = chunks[chunks.length - 1];
    expect(last).toMatchObject({ text: 'Well met, traveller!', finishReason: 'stop' });
    expect(last.usage?.cachedInputTokens).toBeGreaterThan(0);
    expect(last.usage?.inputTokens).toBeGreaterThan(last.usage?.cachedInputTokens ?? 0);

    await generateText(model, { ...REQUEST, prompt: 'Guest: And you?\nMira:' });
    expect(control.log.creates).toHaveLength(1); // one base session for the prefix
    expect(control.log.clones).toBe(2);
    expect(control.live()).toBe(1); // the clones were destroyed; the base stays
    expect(model.baseSessionCount).toBe(1);
  });

  test('base sessions are bounded: the least recently used is destroyed', async () => {
    const { model, control } = setup({}, { maxBaseSessions: 2 });
    for (const prefix of ['A', 'B', 'A', 'C'])
      await generateText(model, { kind: 'text', promptPrefix: prefix, prompt: 'x' });
    expect(control.log.creates.map((options) => options.initialPrompts?.[0]?.content)).toEqual(['A', 'B', 'C']);
    expect(model.baseSessionCount).toBe(2);
    expect(control.live()).toBe(2); // B was destroyed
    await generateText(model, { kind: 'text', promptPrefix: 'A', prompt: 'x' });
    expect(control.log.creates).toHaveLength(3); // A was kept (used more recently than B)
    model.dispose();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(control.live()).toBe(0);
  });

  test("temperature → samplingMode (part of the base's key); topK and seed are not sent", async () => {
    expect([0, 0.3, 0.7, 1.1, 2].map((temperature) => samplingModeFor(temperature))).toEqual([
      'most-predictable',
      'predictable',
      'balanced',
      'creative',
      'most-creative',
    ]);
    const { model, control } = setup();
    await generateText(model, { ...REQUEST, temperature: 0.1, topK: 3, seed: 7 });
    await generateText(model, { ...REQUEST, temperature: 1.2 });
    expect(control.log.creates.map((options) => options.samplingMode)).toEqual(['most-predictable', 'creative']);
    expect(JSON.stringify(control.log.creates)).not.toMatch(/topK|temperature|seed/);
    expect(control.log.creates[0].expectedInputs).toEqual([{ type: 'text', languages: ['en'] }]);
  });

  test('responseSchema becomes responseConstraint and the answer matches it', async () => {
    const schema = {
      type: 'object',
      properties: { choice: { type: 'string', enum: ['warn', 'attack'] } },
      required: ['choice'],
    };
    const { model, control } = setup({ brain: (input) => (input.constraint ? '{"choice":"warn"}' : 'I think: warn') });
    const result = await generateText(model, { kind: 'decide', prompt: 'Decide.', responseSchema: schema });
    expect(JSON.parse(result.text)).toEqual({ choice: 'warn' });
    expect(control.log.prompts[0].constraint).toEqual(schema);
    const plain = await generateText(model, { kind: 'decide', prompt: 'Decide.' });
    expect(plain.text).toBe('I think: warn');
    expect(control.log.prompts[1].constraint).toBeUndefined();
  });

  test('the schema costs prompt tokens unless schemaInPrompt: false (omitResponseConstraintInput)', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const brain = () => '{"a":"b"}';
    const on = setup({ brain });
    const off = setup({ brain }, { schemaInPrompt: false });
    const withSchema = await generateText(on.model, { kind: 'structured', prompt: 'x', responseSchema: schema });
    const without = await generateText(off.model, { kind: 'structured', prompt: 'x', responseSchema: schema });
    expect(off.control.log.prompts[0].omitted).toBe(true);
    expect(on.control.log.prompts[0].omitted).toBeUndefined();
    expect((withSchema.usage?.inputTokens ?? 0) - (without.usage?.inputTokens ?? 0)).toBe(
      Math.ceil(JSON.stringify(schema).length / 4) + 4,
    );
  });

  test('a constraint the model cannot meet, an unsupported schema, a schema that is not an object', async () => {
    const { model } = setup({ brain: () => 'not json' });
    expect(
      (await failure(generateText(model, { kind: 'structured', prompt: 'x', responseSchema: { type: 'object' } })))
        .code,
    ).toBe('generation_failed');
    const ref = await failure(
      generateText(model, { kind: 'structured', prompt: 'x', responseSchema: { $ref: '#/a' } }),
    );
    expect(ref.code).toBe('invalid_schema');
    const bad = await failure(
      generateText(model, {
        kind: 'structured',
        prompt: 'x',
        responseSchema: [] as unknown as Record<string, unknown>,
      }),
    );
    expect(bad.code).toBe('invalid_schema');
  });

  test('abort mid-stream: cancelled, and the clone is destroyed', async () => {
    const { model, control } = setup({
      brain: () => 'a long answer that streams in many small chunks',
      chunkDelayMs: 2,
    });
    const canceller = new Canceller();
    const seen: string[] = [];
    const run = (async () => {
      for await (const chunk of model.generate(REQUEST, canceller.signal)) {
        seen.push(chunk.text);
        if (seen.length === 2) canceller.abort();
      }
    })();
    const error = await failure(run);
    expect(error.code).toBe('cancelled');
    expect(seen.length).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(control.live()).toBe(1);
  });

  test('a consumer that stops early destroys the clone', async () => {
    const { model, control } = setup({ brain: () => 'one two three four five', chunkDelayMs: 1 });
    for await (const _ of model.generate(REQUEST)) break;
    expect(control.live()).toBe(1);
  });

  test('maxOutputTokens stops reading (the Prompt API has no limit of its own)', async () => {
    const { model } = setup({ brain: () => 'x'.repeat(200) });
    const result = await generateText(model, { ...REQUEST, maxOutputTokens: 5 });
    expect(result.finishReason).toBe('max_tokens');
    expect(result.text.length).toBeLessThan(40);
  });

  test('a prompt past the context window fails before prompting; contextoverflow fails the turn', async () => {
    const { model, control } = setup({ contextWindow: 300 });
    const error = await failure(generateText(model, { ...REQUEST, prompt: 'y'.repeat(2000) }));
    expect(error.code).toBe('context_size_exceeded');
    expect(error.message).toMatch(/context window of 300/);
    expect(control.log.prompts).toHaveLength(0);
    control.overflowNext = true;
    expect((await failure(generateText(model, REQUEST))).code).toBe('context_size_exceeded');
  });

  test("the budget follows the browser's context window", async () => {
    const { model } = setup({ contextWindow: 3000 });
    expect(model.capabilities.maxInputTokens).toBe(4000);
    await model.prewarm('sys', 'prefix');
    expect(model.capabilities.maxInputTokens).toBe(3000 - 1024);
    expect(model.capabilities.prefixCaching).toBe(true);
  });

  test('the deprecated names (inputUsage, inputQuota, measureInputUsage, quotaoverflow) are read when they are all there is', async () => {
    const { model, control } = setup({ legacyNames: true, contextWindow: 300 });
    const result = await generateText(model, REQUEST);
    expect(result.usage?.cachedInputTokens).toBeGreaterThan(0);
    expect((await failure(generateText(model, { ...REQUEST, prompt: 'y'.repeat(2000) }))).message).toMatch(
      /window of 300/,
    );
    control.overflowNext = true;
    expect((await failure(generateText(model, REQUEST))).code).toBe('context_size_exceeded');
    await expect(model.countTokens('abcdefgh')).resolves.toBe(6);
  });

  test('countTokens asks the browser', async () => {
    const { model } = setup();
    await expect(model.countTokens('abcdefgh')).resolves.toBe(6);
  });

  test('bad input is refused before any model call', async () => {
    const { model, control } = setup();
    expect((await failure(collect(model, { kind: 'text' } as GenerationRequest))).code).toBe('invalid_request');
    expect((await failure(collect(model, { ...REQUEST, maxOutputTokens: 0 }))).code).toBe('invalid_request');
    expect(control.log.creates).toHaveLength(0);
    expect(() => new ChromePromptModel({ maxBaseSessions: 0 })).toThrow(/maxBaseSessions/);
    expect(() => new ChromePromptModel({ samplingMode: 'wild' as never })).toThrow(/samplingMode/);
    expect(() => new ChromePromptModel({ api: {} as PromptApi })).toThrow(/LanguageModel/);
  });
});

describe('every failure is one of the 12 codes with what to do', () => {
  const cases: Array<{
    stage: 'create' | 'clone' | 'measure' | 'prompt' | 'midstream';
    name: string;
    code: string;
    says: RegExp;
  }> = [
    { stage: 'create', name: 'NotAllowedError', code: 'model_unavailable', says: /user gesture|click/ },
    { stage: 'create', name: 'NotSupportedError', code: 'model_unavailable', says: /Chrome 148\+/ },
    { stage: 'create', name: 'QuotaExceededError', code: 'context_size_exceeded', says: /stable prefix/ },
    { stage: 'create', name: 'NetworkError', code: 'model_unavailable', says: /download/ },
    { stage: 'prompt', name: 'NotSupportedError', code: 'unsupported_language', says: /English, Spanish or Japanese/ },
    { stage: 'prompt', name: 'QuotaExceededError', code: 'context_size_exceeded', says: /10000 tokens requested/ },
    { stage: 'prompt', name: 'NotAllowedError', code: 'model_unavailable', says: /chrome:\/\/settings\/ai/ },
    { stage: 'prompt', name: 'NotReadableError', code: 'guardrail_violation', says: /filtered/ },
    { stage: 'prompt', name: 'UnknownError', code: 'generation_failed', says: /try again/ },
    { stage: 'prompt', name: 'OperationError', code: 'generation_failed', says: /try again/ },
    { stage: 'midstream', name: 'UnknownError', code: 'generation_failed', says: /try again/ },
    { stage: 'clone', name: 'InvalidStateError', code: 'model_unavailable', says: /not active/ },
    { stage: 'measure', name: 'InvalidStateError', code: 'model_unavailable', says: /not active/ },
  ];
  test.each(cases)('$stage $name → $code', async ({ stage, name, code, says }) => {
    const { model, control } = setup({ brain: () => 'some words to stream' });
    control.failNext = { stage, name };
    const error = await failure(generateText(model, REQUEST));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(says);
    expect(error.unexpected).toBe(false);
    expect(control.live()).toBeLessThanOrEqual(1); // no clone left behind
  });

  test('an AbortError the caller did not ask for is a cancel; a base the browser destroyed is replaced', async () => {
    const { model, control } = setup();
    await generateText(model, REQUEST);
    control.failNext = { stage: 'clone', name: 'AbortError' };
    const result = await generateText(model, REQUEST);
    expect(result.text).toBe('Hello from the stand-in.');
    expect(control.log.creates).toHaveLength(2);
    control.failNext = { stage: 'prompt', name: 'AbortError' };
    expect((await failure(generateText(model, REQUEST))).code).toBe('cancelled');
  });

  test('a failed base creation is not kept: the next request tries again', async () => {
    const { model, control } = setup();
    control.failNext = { stage: 'create', name: 'UnknownError' };
    expect((await failure(generateText(model, REQUEST))).code).toBe('generation_failed');
    await expect(generateText(model, REQUEST)).resolves.toMatchObject({ finishReason: 'stop' });
  });
});
