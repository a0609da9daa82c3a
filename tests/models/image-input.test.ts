/**
 * Image input through the public API: the checks every backend shares (each bad input named,
 * before anything is sent), each backend's wire form (OpenAI's body, Chrome's session calls on
 * the Prompt API stand-in, Gemini Nano's bridge JSON), refusal by a backend without images, the
 * scheduler passing it on, and the PNG encoder a game uses for raw pixels.
 */
import { inflateSync } from 'zlib';
import {
  AgentError,
  ChromePromptModel,
  GeminiNanoModel,
  MAX_IMAGE_BYTES,
  ModelScheduler,
  OpenAICompatibleModel,
  encodePng,
  generateText,
  imageDataUrl,
  imageFromDataUrl,
  imageFromPixels,
  type GenerationRequest,
  type ImageInput,
} from '../../src';
import { ScriptedLanguageModel } from '../../src/testing';
import type { PromptApi } from '../../src/models/chrome-prompt';
import { createPromptApiStandIn, type StandInOptions } from '../../bench/web/prompt-api-stand-in';
import { ScriptedNative, type IncomingRequest } from '../android/fixture-player';

/** A real 2×2 PNG (what a game's drawn badge is, only smaller). */
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEUlEQVR4nGO4st78PwgzwBgAYgQK5eEf8isAAAAASUVORK5CYII=';
const JPEG_B64 = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]).toString('base64');
const BADGE: ImageInput = { data: PNG_B64, mimeType: 'image/png', width: 2, height: 2, label: 'guild badge' };

const REQUEST: GenerationRequest = {
  kind: 'respond',
  systemInstruction: 'You are Brann, the gate guard.',
  promptPrefix: 'Rules: answer in one short sentence.\n',
  prompt: 'Player: Here is my badge.\nBrann:',
  images: [BADGE],
};

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError;
  }
  throw new Error('expected a failure');
}

/** An OpenAI-compatible model whose fetch records what would have been sent and answers one line. */
function openAi(options: { imageInput?: boolean } = {}) {
  const bodies: Array<Record<string, unknown>> = [];
  const model = new OpenAICompatibleModel({
    baseUrl: 'http://127.0.0.1:9/v1',
    model: 'llava',
    streaming: false,
    ...options,
    fetch: (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      const answer = { choices: [{ message: { content: 'A guild badge.' }, finish_reason: 'stop' }] };
      return Promise.resolve({
        ok: true,
        status: 200,
        headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) },
        text: () => Promise.resolve(JSON.stringify(answer)),
        json: () => Promise.resolve(answer),
      } as never);
    },
  });
  return { model, bodies };
}

describe('request checks: a bad image is refused, named, before any model call', () => {
  const tooLarge = 'A'.repeat(Math.ceil((MAX_IMAGE_BYTES + 3) / 3) * 4);
  const cases: Array<[string, unknown, RegExp]> = [
    [
      'a GIF',
      { ...BADGE, mimeType: 'image/gif' },
      /images\[0\]\.mimeType must be "image\/png" or "image\/jpeg", got "image\/gif"/,
    ],
    ['no mimeType', { data: PNG_B64 }, /images\[0\]\.mimeType/],
    ['empty data', { ...BADGE, data: '' }, /images\[0\]\.data .*empty/],
    ['no data', { mimeType: 'image/png' }, /images\[0\]\.data .*missing/],
    ['a data: URL', { ...BADGE, data: `data:image/png;base64,${PNG_B64}` }, /data: URL.*imageFromDataUrl/],
    ['not base64', { ...BADGE, data: 'not*base64!!' }, /images\[0\]\.data is not base64/],
    ['base64 with spaces', { ...BADGE, data: `${PNG_B64.slice(0, 8)} ${PNG_B64.slice(9)}` }, /not base64/],
    ['a JPEG called a PNG', { ...BADGE, data: JPEG_B64 }, /is not a PNG file/],
    ['a PNG called a JPEG', { ...BADGE, mimeType: 'image/jpeg' }, /is not a JPEG file/],
    ['too large', { data: tooLarge, mimeType: 'image/png' }, /images\[0\] is \d+ bytes; the limit is 3145728/],
    ['a width of 0', { ...BADGE, width: 0 }, /images\[0\]\.width must be a whole number of pixels/],
    ['a height of 1.5', { ...BADGE, height: 1.5 }, /images\[0\]\.height/],
    ['a label that is no string', { ...BADGE, label: 7 }, /images\[0\]\.label must be a string/],
    ['no object', null, /images\[0\] must be an object/],
  ];

  test.each(cases)('%s', async (_name, image, message) => {
    const { model, bodies } = openAi();
    const error = await failure(generateText(model, { ...REQUEST, images: [image as ImageInput] }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(message);
    expect(bodies).toHaveLength(0);
  });

  test('images that are not a list', async () => {
    const scripted = new ScriptedLanguageModel(['never']);
    const error = await failure(generateText(scripted, { ...REQUEST, images: BADGE as never }));
    expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/images must be a list/) });
  });

  test('imageFromDataUrl takes what a canvas gives and checks it', () => {
    const image = imageFromDataUrl(`data:image/png;base64,${PNG_B64}`, { label: 'badge' });
    expect(image).toEqual({ data: PNG_B64, mimeType: 'image/png', label: 'badge' });
    expect(imageDataUrl(image)).toBe(`data:image/png;base64,${PNG_B64}`);
    expect(() => imageFromDataUrl('data:image/gif;base64,R0lG')).toThrow(/data:image\/png;base64/);
  });
});

describe('OpenAI-compatible: an image_url data URI part', () => {
  test('the user message is the text, then one image_url part per image', async () => {
    const { model, bodies } = openAi();
    expect(model.capabilities.imageInput).toBe(true);
    await expect(generateText(model, REQUEST)).resolves.toMatchObject({ text: 'A guild badge.' });
    expect(bodies[0].messages).toEqual([
      { role: 'system', content: REQUEST.systemInstruction },
      {
        role: 'user',
        content: [
          { type: 'text', text: `${REQUEST.promptPrefix}${REQUEST.prompt}` },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_B64}` } },
        ],
      },
    ]);
    // Without an image the message stays one string, as before.
    expect(model.requestBody({ ...REQUEST, images: undefined }).messages).toEqual([
      { role: 'system', content: REQUEST.systemInstruction },
      { role: 'user', content: `${REQUEST.promptPrefix}${REQUEST.prompt}` },
    ]);
  });

  test('imageInput: false refuses a request with an image, naming the backend, before sending', async () => {
    const { model, bodies } = openAi({ imageInput: false });
    expect(model.capabilities.imageInput).toBe(false);
    const error = await failure(generateText(model, REQUEST));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(
      /The OpenAI-compatible model "llava" at http:\/\/127\.0\.0\.1:9\/v1 does not take images/,
    );
    expect(bodies).toHaveLength(0);
    await expect(generateText(model, { ...REQUEST, images: [] })).resolves.toMatchObject({ text: 'A guild badge.' });
  });
});

describe("Chrome's Prompt API: expectedInputs image and content parts", () => {
  function chrome(options: StandInOptions = {}) {
    const { api, control } = createPromptApiStandIn({
      brain: ({ images }) => `I see ${images.length} image(s).`,
      ...options,
    });
    return { model: new ChromePromptModel({ api: api as PromptApi }), control };
  }

  test('a session that takes images, and the prompt as text and image parts (a Blob of the file)', async () => {
    const { model, control } = chrome();
    expect(model.capabilities.imageInput).toBe(true);
    await expect(generateText(model, REQUEST)).resolves.toMatchObject({ text: 'I see 1 image(s).' });
    expect(control.log.creates).toHaveLength(1);
    expect(control.log.creates[0].expectedInputs).toEqual([{ type: 'text', languages: ['en'] }, { type: 'image' }]);
    const prompt = control.log.prompts[0];
    expect(prompt.input).toBe(REQUEST.prompt);
    expect(prompt.images).toHaveLength(1);
    const blob = prompt.images?.[0] as Blob;
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.type).toBe('image/png');
    expect(Buffer.from(await blob.arrayBuffer()).toString('base64')).toBe(PNG_B64);
  });

  test('text-only requests keep their own base session (no image input declared)', async () => {
    const { model, control } = chrome();
    await generateText(model, { ...REQUEST, images: undefined });
    await generateText(model, REQUEST);
    await generateText(model, { ...REQUEST, images: undefined });
    expect(control.log.creates.map((create) => create.expectedInputs)).toEqual([
      [{ type: 'text', languages: ['en'] }],
      [{ type: 'text', languages: ['en'] }, { type: 'image' }],
    ]);
    expect(control.log.prompts.map((prompt) => prompt.images?.length ?? 0)).toEqual([0, 1, 0]);
  });

  test('a browser whose model takes no images: model_unavailable saying so', async () => {
    const { model } = chrome({ imageInput: false });
    const error = await failure(generateText(model, REQUEST));
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toMatch(/does not take images here/);
    await expect(generateText(model, { ...REQUEST, images: undefined })).resolves.toMatchObject({
      text: 'I see 0 image(s).',
    });
  });
});

describe('Gemini Nano: the image over the bridge', () => {
  function nano(info: Record<string, unknown> = { imageInput: true }) {
    const generates: IncomingRequest[] = [];
    const native = ScriptedNative.device((request, side) => {
      if (request.method !== 'generate') return;
      generates.push(request);
      side.emit({ id: request.id, result: { text: 'A guild badge.', finishReason: 'stop' } });
    }, info);
    return { model: new GeminiNanoModel({ transport: native, requestTimeoutMs: 500 }), native, generates };
  }

  test('images go as base64 without the label, and the prefix inside the prompt (ML Kit: no promptPrefix with an image)', async () => {
    const { model, generates } = nano();
    await expect(generateText(model, REQUEST)).resolves.toMatchObject({ text: 'A guild badge.' });
    expect(generates[0].params).toEqual({
      systemInstruction: REQUEST.systemInstruction,
      prompt: `${REQUEST.promptPrefix}${REQUEST.prompt}`,
      images: [{ data: PNG_B64, mimeType: 'image/png', width: 2, height: 2 }],
    });
    expect(model.capabilities).toMatchObject({ imageInput: true, maxImagesPerRequest: 1 });
    // The next text-only request uses the device's prefix cache again.
    await generateText(model, { ...REQUEST, images: undefined });
    expect(generates[1].params).toEqual({
      promptPrefix: `${REQUEST.systemInstruction}\n\n${REQUEST.promptPrefix}`,
      prompt: REQUEST.prompt,
    });
  });

  test('two images are refused before the bridge is asked (ML Kit takes one per request)', async () => {
    const { model, native } = nano();
    const error = await failure(generateText(model, { ...REQUEST, images: [BADGE, BADGE] }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/Gemini Nano takes 1 image per request, got 2/);
    expect(native.methods()).not.toContain('generate');
  });

  test('an Android module older than image input (no imageInput in modelInfo): refused, naming Gemini Nano', async () => {
    const { model, native } = nano({});
    const error = await failure(generateText(model, REQUEST));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/^Gemini Nano does not take images/);
    expect(native.methods()).not.toContain('generate');
    expect(model.capabilities.imageInput).toBe(false);
  });
});

describe('scripted models and the scheduler', () => {
  test('a scripted model sees the images; one whose capabilities say no refuses them', async () => {
    const model = new ScriptedLanguageModel([
      { type: 'dynamic', compute: (request) => `saw ${request.images?.[0]?.label ?? 'nothing'}` },
    ]);
    await expect(generateText(model, REQUEST)).resolves.toMatchObject({ text: 'saw guild badge' });
    const blind = new ScriptedLanguageModel(['never'], { capabilities: { modelName: 'blind', imageInput: false } });
    const error = await failure(generateText(blind, REQUEST));
    expect(error.message).toMatch(/The scripted model "blind" does not take images/);
  });

  test('the scheduler passes the capability and the images through', async () => {
    const inner = new ScriptedLanguageModel(['ok']);
    const scheduler = new ModelScheduler(inner);
    expect(scheduler.capabilities.imageInput).toBe(true);
    await generateText(scheduler, REQUEST);
    expect(inner.requests[0].images).toEqual([BADGE]);
    const blind = new ModelScheduler(new ScriptedLanguageModel([], { capabilities: { imageInput: false } }));
    expect(blind.capabilities.imageInput).toBe(false);
  });
});

describe('PNG from raw pixels (a RenderTexture read on a phone)', () => {
  /** The scanlines of a PNG made by encodePng, inflated with Node's zlib. */
  function scanlines(png: Uint8Array): { width: number; height: number; rows: Buffer } {
    const bytes = Buffer.from(png);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    const idatLength = bytes.readUInt32BE(33);
    expect(bytes.subarray(37, 41).toString('latin1')).toBe('IDAT');
    return { width, height, rows: inflateSync(bytes.subarray(41, 41 + idatLength)) };
  }

  test('RGBA rows become a valid PNG, flipped when they run bottom to top', () => {
    const red = [255, 0, 0, 255];
    const blue = [0, 0, 255, 255];
    const pixels = new Uint8Array([...red, ...red, ...blue, ...blue]); // row 0 red, row 1 blue
    const plain = scanlines(encodePng({ width: 2, height: 2, pixels }));
    expect(plain).toMatchObject({ width: 2, height: 2 });
    expect([...plain.rows]).toEqual([0, ...red, ...red, 0, ...blue, ...blue]);
    const flipped = scanlines(encodePng({ width: 2, height: 2, pixels, flipY: true }));
    expect([...flipped.rows]).toEqual([0, ...blue, ...blue, 0, ...red, ...red]);
    const image = imageFromPixels({ width: 2, height: 2, pixels, label: 'badge' });
    expect(image).toMatchObject({ mimeType: 'image/png', width: 2, height: 2, label: 'badge' });
  });

  test('a picture larger than one stored block (65535 bytes) still inflates whole', () => {
    const pixels = new Uint8Array(200 * 100 * 4).map((_, index) => index % 251);
    const { rows } = scanlines(encodePng({ width: 200, height: 100, pixels }));
    expect(rows.length).toBe((200 * 4 + 1) * 100);
    expect([...rows.subarray(1, 9)]).toEqual([...pixels.subarray(0, 8)]);
  });

  test('pixels that do not fit their size, or a picture too large to send, are refused', () => {
    expect(() => encodePng({ width: 2, height: 2, pixels: new Uint8Array(3) })).toThrow(/16 bytes for 2×2, got 3/);
    expect(() => encodePng({ width: 0, height: 2, pixels: new Uint8Array(0) })).toThrow(/at least 1×1/);
    expect(() => encodePng({ width: 2000, height: 2000, pixels: new Uint8Array(16e6) })).toThrow(/scale it down/);
  });
});
