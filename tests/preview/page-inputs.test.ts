/** The preview page's input readers: personas, recorded scripts, model choices, host messages. */
import { readPersona, SAMPLE_PERSONA } from '../../preview/page/persona-source';
import { readScript, SAMPLE_SCRIPT } from '../../preview/page/script-source';
import { createModel } from '../../preview/page/model-choice';
import { readEmbedMessage, readQuerySettings, EMBED_MESSAGE_TYPE } from '../../preview/page/embed-message';
import { OpenAICompatibleModel, KeywordModel, generateText } from '../../src';
import { ScriptedLanguageModel } from '../../src/testing';

describe('readPersona', () => {
  test('accepts the sample and pasted JSON text', () => {
    expect(readPersona(SAMPLE_PERSONA)).toMatchObject({ ok: true, name: 'Mira' });
    expect(readPersona('{"name": "Gorm", "role": "the blacksmith"}')).toMatchObject({
      ok: true,
      name: 'Gorm',
      persona: { role: 'the blacksmith' },
    });
  });

  test('text that is not JSON names the problem', () => {
    const reading = readPersona('name: Gorm');
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.problems.join('\n')).toMatch(/^persona: .*JSON/i);
  });

  test('a persona without a name names the field', () => {
    const reading = readPersona('{"role": "the blacksmith"}');
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.problems.some((problem) => problem.includes('name'))).toBe(true);
  });

  test('empty text, a list and a wrongly typed field are rejected', () => {
    const empty = readPersona('   ');
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.problems[0]).toContain('empty');
    expect(readPersona('[1, 2]').ok).toBe(false);
    const typed = readPersona({ name: 'Gorm', goals: 'be rich' });
    expect(typed.ok).toBe(false);
    if (!typed.ok) expect(typed.problems.join('\n')).toContain('goals');
  });
});

describe('readScript', () => {
  test('the sample script reads as two steps', () => {
    const reading = readScript(SAMPLE_SCRIPT);
    expect(reading.ok).toBe(true);
    if (reading.ok) expect(reading.steps).toHaveLength(2);
  });

  test('every step form: raw text, call, reply (text or object), fail', async () => {
    const reading = readScript(
      JSON.stringify([
        'raw output',
        { call: 'take_order', args: { item: 'ale', quantity: 1 } },
        { reply: 'Hello!' },
        { reply: { emotion: 'happy', line: 'Hi' } },
        { fail: 'model_unavailable', message: 'offline' },
      ]),
    );
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    const model = new ScriptedLanguageModel(reading.steps);
    const say = async () => (await generateText(model, { kind: 'decide', prompt: 'x' })).text;
    expect(await say()).toBe('raw output');
    expect(JSON.parse(await say())).toEqual({ tool: 'take_order', args: { item: 'ale', quantity: 1 } });
    expect(JSON.parse(await say())).toEqual({ reply: 'Hello!' });
    expect(JSON.parse(await say())).toEqual({ reply: { emotion: 'happy', line: 'Hi' } });
    await expect(say()).rejects.toMatchObject({ code: 'model_unavailable', message: 'offline' });
  });

  test('bad scripts: not JSON, not a list, empty, bad steps (each named by index)', () => {
    expect(readScript('[{')).toMatchObject({ ok: false, problems: [expect.stringMatching(/^script: not JSON/)] });
    expect(readScript('{"reply": "x"}')).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('non-empty JSON list')],
    });
    expect(readScript('[]')).toMatchObject({ ok: false });
    const reading = readScript(
      JSON.stringify([
        { reply: 'ok' },
        42,
        { call: 7 },
        { call: 'x', args: [1] },
        { fail: 'nope' },
        { reply: null },
        {},
      ]),
    );
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.problems.map((problem) => problem.slice(0, problem.indexOf(':')))).toEqual([
      'script[1]',
      'script[2]',
      'script[3]',
      'script[4]',
      'script[5]',
      'script[6]',
    ]);
    expect(reading.problems[3]).toContain('"fail" must be an error code');
  });
});

describe('createModel', () => {
  test('the stand-in is the keyword model; a script becomes a scripted model', () => {
    const standin = createModel({ kind: 'standin' });
    expect(standin.ok && standin.model).toBeInstanceOf(KeywordModel);
    const script = createModel({ kind: 'script', script: SAMPLE_SCRIPT });
    expect(script.ok && script.model).toBeInstanceOf(ScriptedLanguageModel);
    expect(script.ok && script.label).toBe('recorded script (2 steps)');
  });

  test('an OpenAI-compatible endpoint: URL checked, model name optional, no request made', () => {
    const created = createModel({ kind: 'openai', url: ' http://127.0.0.1:11434/v1/ ', model: 'gemma3' });
    expect(created.ok && created.model).toBeInstanceOf(OpenAICompatibleModel);
    expect(created.ok && created.label).toBe('http://127.0.0.1:11434/v1 (gemma3)');
    expect(createModel({ kind: 'openai', url: 'http://127.0.0.1:8080/v1', model: '  ' })).toMatchObject({
      ok: true,
      label: 'http://127.0.0.1:8080/v1 (default)',
    });
  });

  test('a missing or bad endpoint URL, a bad script and an unknown choice are problems, not throws', () => {
    expect(createModel({ kind: 'openai', url: '' })).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('enter the server URL')],
    });
    expect(createModel({ kind: 'openai', url: 'localhost:8080' })).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('baseUrl must be an http(s) URL')],
    });
    expect(createModel({ kind: 'script', script: 'nope' })).toMatchObject({ ok: false });
    expect(createModel({ kind: 'gpt' } as never)).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('unknown choice "gpt"')],
    });
  });
});

describe('messages from the editor panel', () => {
  test('reads the set-up message and drops bad fields', () => {
    expect(
      readEmbedMessage({
        type: EMBED_MESSAGE_TYPE,
        persona: '{"name":"Gorm"}',
        openaiUrl: 'http://127.0.0.1:8080/v1',
        openaiModel: 7,
        modelKind: 'gpt',
        extraTools: [
          { name: 'open_door', description: 'Opens the door.' },
          { name: 'x' },
          null,
          { name: 'y', description: 'd', parameters: 'no' },
        ],
      }),
    ).toEqual({
      persona: '{"name":"Gorm"}',
      openaiUrl: 'http://127.0.0.1:8080/v1',
      extraTools: [{ name: 'open_door', description: 'Opens the door.' }],
    });
  });

  test('keeps the NPC options and the initial world of a picked NPC node when they are objects', () => {
    const options = { worldReadable: [''], secretsUnlockAtRelationship: null };
    expect(readEmbedMessage({ type: EMBED_MESSAGE_TYPE, npcOptions: options, initialWorld: { gold: 3 } })).toEqual({
      npcOptions: options,
      initialWorld: { gold: 3 },
    });
    expect(readEmbedMessage({ type: EMBED_MESSAGE_TYPE, npcOptions: [1], initialWorld: 'gold' })).toEqual({});
    expect(readEmbedMessage({ type: EMBED_MESSAGE_TYPE, npcOptions: null, initialWorld: [] })).toEqual({});
  });

  test('ignores other messages', () => {
    for (const message of [null, 'oam-preview:setup', { type: 'other' }, [], 42])
      expect(readEmbedMessage(message)).toBeNull();
  });

  test('reads the endpoint from the query string, malformed escapes kept as they are', () => {
    expect(readQuerySettings('?openaiUrl=http%3A%2F%2F127.0.0.1%3A8080%2Fv1&openaiModel=gemma+3&x=1')).toEqual({
      openaiUrl: 'http://127.0.0.1:8080/v1',
      openaiModel: 'gemma 3',
    });
    expect(readQuerySettings('')).toEqual({});
    expect(readQuerySettings('?openaiModel=%E0%A4%A&openaiUrl')).toEqual({ openaiModel: '%E0%A4%A', openaiUrl: '' });
  });
});
