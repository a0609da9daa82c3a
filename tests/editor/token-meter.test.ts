import * as fs from 'fs';
import * as path from 'path';
import {
  componentDefaultsSetup,
  customToolsSetup,
  levelOf,
  measurePersona,
  noToolsSetup,
  tavernSetup,
  NANO_INPUT_BUDGET,
  NPC_COMPONENT_DEFAULT_OPTIONS,
  RESERVED_TOKENS,
  USABLE_TOKENS,
} from '../../extension/token-meter/token-meter';
import type { MeterSetup } from '../../extension/token-meter/token-meter';
import { NPC } from '../../src/game/npc';
import { estimateTokens } from '../../src/contract/language-model';
import type { GenerationRequest } from '../../src/contract/language-model';
import { MIRA, recordingModel } from './meter-support';
import { createTavernWorld, tavernTools } from '../../demo/tavern/tavern-world';

const BARE = { name: 'Bo' };

function sumOfRows(figures: ReturnType<typeof measurePersona>): number {
  return figures.personaTokens + figures.toolsTokens + figures.replyFormatTokens;
}

// The exact figures follow the core's prompt text: when the persona instructions, the tool
// catalog or the reply format change, these numbers change with them (the NPC cross-checks
// below show the meter still counts what the NPC sends).
describe('the token meter', () => {
  it('states its budget', () => {
    expect([NANO_INPUT_BUDGET, RESERVED_TOKENS, USABLE_TOKENS]).toEqual([4000, 256, 3744]);
  });

  it('measures a bare persona with no tools', () => {
    const figures = measurePersona(BARE, noToolsSetup());
    expect(figures).toMatchObject({
      personaTokens: 48,
      toolsTokens: 0,
      replyFormatTokens: 101,
      prefixTokens: 149,
      secretsTokens: 0,
      conversationTokens: 3595,
      level: 'ok',
    });
    // The runtime's own estimate (src/contract/token-estimate.ts) of 161 characters of instructions and the 364-character reply block.
    expect([figures.systemInstruction.length, figures.promptPrefix.length]).toEqual([161, 364]);
    expect(figures.promptPrefix.startsWith("Bo's reply has these parts:")).toBe(true);
    expect(sumOfRows(figures)).toBe(figures.prefixTokens);
    expect(figures.prefixTokens).toBe(estimateTokens(figures.systemInstruction + figures.promptPrefix));
  });

  it('measures Mira with no tools, the tavern tools and custom tools', () => {
    const none = measurePersona(MIRA, noToolsSetup());
    expect(none).toMatchObject({
      personaTokens: 156,
      toolsTokens: 0,
      replyFormatTokens: 101,
      prefixTokens: 257,
      secretsTokens: 42,
      conversationTokens: 3445,
    });

    const tavern = measurePersona(MIRA, tavernSetup());
    expect(tavern).toMatchObject({
      personaTokens: 142,
      toolsTokens: 129,
      replyFormatTokens: 106,
      prefixTokens: 377,
      secretsTokens: 43,
      conversationTokens: 3324,
    });

    const custom = customToolsSetup(
      JSON.stringify([
        { name: 'open_gate', description: 'Opens the town gate.' },
        {
          name: 'give_item',
          description: 'Gives the player an item.',
          parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
        },
      ]),
    );
    expect(custom.ok).toBe(true);
    const withCustom = measurePersona(MIRA, (custom as { ok: true; setup: MeterSetup }).setup);
    expect(withCustom).toMatchObject({
      personaTokens: 142,
      toolsTokens: 30,
      replyFormatTokens: 79,
      prefixTokens: 251,
    });

    for (const figures of [none, tavern, withCustom]) {
      expect(sumOfRows(figures)).toBe(figures.prefixTokens);
      expect(figures.conversationTokens).toBe(USABLE_TOKENS - figures.prefixTokens - figures.secretsTokens);
      expect(figures.share).toBeCloseTo((figures.prefixTokens + figures.secretsTokens) / USABLE_TOKENS, 10);
    }
  });

  it('counts exactly the prefix a real NPC sends (the tavern set-up of the demo)', async () => {
    const requests: GenerationRequest[] = [];
    const world = createTavernWorld();
    const npc = new NPC({
      persona: MIRA,
      model: recordingModel(requests),
      world,
      tools: tavernTools(world),
      options: { memoryTools: 'all', secretsUnlockAtRelationship: 10, worldContextPaths: ['player.gold', 'time'] },
    });
    await npc.talk('Evening!', { toolChoice: 'none' });
    const sent = requests[0];
    const figures = measurePersona(MIRA, tavernSetup());
    expect(sent.systemInstruction).toBe(figures.systemInstruction);
    expect(sent.promptPrefix).toBe(figures.promptPrefix);
  });

  it('counts exactly the prefix a real NPC without tools sends', async () => {
    const requests: GenerationRequest[] = [];
    const npc = new NPC({ persona: MIRA, model: recordingModel(requests) });
    await npc.talk('Evening!');
    const figures = measurePersona(MIRA, noToolsSetup());
    expect(requests[0].systemInstruction).toBe(figures.systemInstruction);
    expect(requests[0].promptPrefix).toBe(figures.promptPrefix);
  });

  it('grows as the persona grows and turns amber past 50% and red past 75%', () => {
    const long = (count: number) => ({ name: 'Bo', knowledge: ['The old mill burned down. '.repeat(count).trim()] });
    const small = measurePersona(long(10), noToolsSetup());
    const bigger = measurePersona(long(20), noToolsSetup());
    expect(bigger.personaTokens - small.personaTokens).toBe(69); // ten sentences of 5 words and a full stop
    expect(measurePersona(long(150), noToolsSetup()).level).toBe('ok');
    expect(measurePersona(long(250), noToolsSetup()).level).toBe('warn');
    expect(measurePersona(long(400), noToolsSetup()).level).toBe('danger');
    const over = measurePersona(long(600), noToolsSetup());
    expect(over.conversationTokens).toBeLessThan(0);
    expect(over.share).toBeGreaterThan(1);
    expect([levelOf(0.5), levelOf(0.5001), levelOf(0.75), levelOf(0.7501), levelOf(1), levelOf(1.0001)]).toEqual([
      'ok',
      'warn',
      'warn',
      'danger',
      'danger',
      'over',
    ]);
    expect(over.level).toBe('over');
    expect(over.largestPart).toMatchObject({ key: 'knowledge', group: 'persona' });
  });

  it('still measures a persona that is being typed (empty name, odd values)', () => {
    const figures = measurePersona({ name: '', maxSentences: 'abc', goals: 'x' }, noToolsSetup());
    expect(figures.prefixTokens).toBeGreaterThan(0);
    expect(measurePersona(null, noToolsSetup()).prefixTokens).toBe(figures.prefixTokens);
  });

  it('explains bad custom tool JSON', () => {
    expect(customToolsSetup('')).toEqual({ ok: true, setup: { tools: [], options: {} } });
    expect(customToolsSetup('[{"name": "x"')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^not JSON: /),
    });
    expect(customToolsSetup('[3]')).toEqual({
      ok: false,
      message: 'tool 1 must be an object with a name and a description',
    });
    expect(customToolsSetup('[{"name": "bad name!"}]')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^tool 1: /),
    });
    expect(customToolsSetup('[{"name": "a", "description": ""}, {"name": "a", "description": ""}]')).toEqual({
      ok: false,
      message: 'two tools are called "a"',
    });
    expect(customToolsSetup('{"name": "ring_bell", "description": "Rings the bell."}')).toMatchObject({ ok: true });
  });

  it('splits the figures into parts that add up: persona fields, tools, reply format, secrets once told', () => {
    for (const setup of [noToolsSetup(), tavernSetup(), componentDefaultsSetup()]) {
      const figures = measurePersona(MIRA, setup);
      const persona = figures.parts.filter((part) => part.group === 'persona');
      expect(persona.reduce((sum, part) => sum + part.tokens, 0)).toBe(figures.personaTokens);
      expect(figures.parts.reduce((sum, part) => sum + part.tokens, 0)).toBe(
        figures.prefixTokens + figures.secretsTokens,
      );
      expect(figures.parts.every((part) => part.tokens > 0)).toBe(true);
      expect(figures.largestPart.tokens).toBe(Math.max(...figures.parts.map((part) => part.tokens)));
    }
    const none = measurePersona(MIRA, noToolsSetup());
    // Mira's greeting, fallback lines and emotion are not in the prompt, so they have no slice (48 + 9 + 21 + 15 + 21 + 20 + 22 = 156).
    expect(none.parts.map((part) => `${part.key}:${part.tokens}`)).toEqual([
      'rules:48',
      'role:9',
      'personality:21',
      'speakingStyle:15',
      'backstory:21',
      'goals:20',
      'knowledge:22',
      'replyFormat:101',
      'secrets:42',
    ]);
    expect(none.largestPart.key).toBe('replyFormat');
    expect(measurePersona(MIRA, tavernSetup()).largestPart.key).toBe('tools');
    // Secrets guarded in the prefix are a persona field; the NPC's extra instructions their own slice.
    const guarded = measurePersona(MIRA, {
      tools: [],
      options: { secretsUnlockAtRelationship: null, extraInstructions: 'Never mention the war.' },
    });
    expect(guarded.parts.filter((part) => part.key === 'secrets').map((part) => part.group)).toEqual(['persona']);
    expect(guarded.parts.find((part) => part.key === 'extra')!.tokens).toBeGreaterThan(0);
    expect(guarded.secretsTokens).toBe(0);
  });

  it('knows what a new NPCComponent sends: its property defaults, read from its source', () => {
    const source = fs.readFileSync(path.join(__dirname, '../../assets/components/NPCComponent.ts'), 'utf8');
    const defaults: Record<string, string> = {};
    for (const match of source.matchAll(/^ {2}(\w+)(?:: [^=\n]+)? = ([^;\n]+);$/gm)) defaults[match[1]] = match[2];
    const options = NPC_COMPONENT_DEFAULT_OPTIONS;
    expect({
      worldStore: defaults.worldStore,
      externalTools: defaults.externalTools,
      groundingTool: defaults.groundingTool,
      emotions: defaults.emotions,
      fallbackLines: defaults.fallbackLines,
      extraInstructions: defaults.extraInstructions,
      secretsAlwaysGuarded: defaults.secretsAlwaysGuarded,
    }).toEqual({
      worldStore: 'null',
      externalTools: '[]',
      groundingTool: "''",
      emotions: '[]',
      fallbackLines: '[]',
      extraInstructions: "''",
      secretsAlwaysGuarded: 'false',
    });
    expect(defaults.worldReadable).toBe(JSON.stringify(options.worldReadable).replace(/"/g, "'"));
    expect([defaults.worldWritable, defaults.worldContextPaths]).toEqual([
      JSON.stringify(options.worldWritable),
      JSON.stringify(options.worldContextPaths),
    ]);
    expect({ facts: defaults.rememberFacts === 'true', relationship: defaults.trackRelationship === 'true' }).toEqual(
      options.memoryTools,
    );
    expect(defaults.replyFormat).toBe('ReplyFormat.Automatic');
    expect(options.replyFormat).toBe('automatic');
    expect(Number(defaults.secretsUnlockAt)).toBe(options.secretsUnlockAtRelationship);
    expect(Number(defaults.playerOptionCount)).toBe(options.playerOptionCount);
    expect(defaults.canEndConversation === 'true').toBe(options.canEndConversation);
    expect([Number(defaults.externalToolTimeoutMs), Number(defaults.toolTimeoutMs), Number(defaults.priority)]).toEqual(
      [options.externalToolTimeoutMs, options.toolTimeoutMs, options.priority],
    );
  });

  it("counts exactly the prefix a real NPC with a new NPCComponent's options sends", async () => {
    const requests: GenerationRequest[] = [];
    const npc = new NPC({
      persona: MIRA,
      model: recordingModel(requests),
      options: { ...NPC_COMPONENT_DEFAULT_OPTIONS },
    });
    await npc.talk('Evening!');
    const figures = measurePersona(MIRA, componentDefaultsSetup());
    expect(requests[0].systemInstruction).toBe(figures.systemInstruction);
    expect(requests[0].promptPrefix).toBe(figures.promptPrefix);
    expect(figures.toolsTokens).toBe(0);
  });
});
