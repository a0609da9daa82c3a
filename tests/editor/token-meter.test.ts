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

function sumOfRows(f: ReturnType<typeof measurePersona>): number {
  return f.personaTokens + f.toolsTokens + f.replyFormatTokens;
}

// The exact figures follow the core's prompt text: when the persona instructions, the tool
// catalog or the reply format change, these numbers change with them (the NPC cross-checks
// below show the meter still counts what the NPC sends).
describe('the token meter', () => {
  it('states its budget', () => {
    expect([NANO_INPUT_BUDGET, RESERVED_TOKENS, USABLE_TOKENS]).toEqual([4000, 256, 3744]);
  });

  it('measures a bare persona with no tools', () => {
    const f = measurePersona(BARE, noToolsSetup());
    expect(f).toMatchObject({
      personaTokens: 48,
      toolsTokens: 0,
      replyFormatTokens: 91,
      prefixTokens: 139,
      secretsTokens: 0,
      conversationTokens: 3605,
      level: 'ok',
    });
    // By hand: 189 characters of instructions → ⌈189/4⌉ = 48; with the 364-character reply block, ⌈553/4⌉ = 139.
    expect([f.systemInstruction.length, f.promptPrefix.length]).toEqual([189, 364]);
    expect(f.promptPrefix.startsWith("Bo's reply has these parts:")).toBe(true);
    expect(sumOfRows(f)).toBe(f.prefixTokens);
    expect(f.prefixTokens).toBe(estimateTokens(f.systemInstruction + f.promptPrefix));
  });

  it('measures Mira with no tools, the tavern tools and custom tools', () => {
    const none = measurePersona(MIRA, noToolsSetup());
    expect(none).toMatchObject({
      personaTokens: 157,
      toolsTokens: 0,
      replyFormatTokens: 92,
      prefixTokens: 249,
      secretsTokens: 40,
      conversationTokens: 3455,
    });

    const tavern = measurePersona(MIRA, tavernSetup());
    expect(tavern).toMatchObject({
      personaTokens: 165,
      toolsTokens: 402,
      replyFormatTokens: 91,
      prefixTokens: 658,
      secretsTokens: 40,
      conversationTokens: 3046,
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
      personaTokens: 165,
      toolsTokens: 167,
      replyFormatTokens: 91,
      prefixTokens: 423,
    });

    for (const f of [none, tavern, withCustom]) {
      expect(sumOfRows(f)).toBe(f.prefixTokens);
      expect(f.conversationTokens).toBe(USABLE_TOKENS - f.prefixTokens - f.secretsTokens);
      expect(f.share).toBeCloseTo((f.prefixTokens + f.secretsTokens) / USABLE_TOKENS, 10);
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
    const f = measurePersona(MIRA, tavernSetup());
    expect(sent.systemInstruction).toBe(f.systemInstruction);
    expect(sent.promptPrefix).toBe(f.promptPrefix);
  });

  it('counts exactly the prefix a real NPC without tools sends', async () => {
    const requests: GenerationRequest[] = [];
    const npc = new NPC({ persona: MIRA, model: recordingModel(requests) });
    await npc.talk('Evening!');
    const f = measurePersona(MIRA, noToolsSetup());
    expect(requests[0].systemInstruction).toBe(f.systemInstruction);
    expect(requests[0].promptPrefix).toBe(f.promptPrefix);
  });

  it('grows as the persona grows and turns amber past 50% and red past 75%', () => {
    const long = (n: number) => ({ name: 'Bo', knowledge: ['x'.repeat(n)] });
    const small = measurePersona(long(100), noToolsSetup());
    const bigger = measurePersona(long(200), noToolsSetup());
    expect(bigger.personaTokens - small.personaTokens).toBe(25);
    expect(measurePersona(long(7000), noToolsSetup()).level).toBe('warn');
    expect(measurePersona(long(11000), noToolsSetup()).level).toBe('danger');
    const over = measurePersona(long(16000), noToolsSetup());
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
    const f = measurePersona({ name: '', maxSentences: 'abc', goals: 'x' }, noToolsSetup());
    expect(f.prefixTokens).toBeGreaterThan(0);
    expect(measurePersona(null, noToolsSetup()).prefixTokens).toBe(f.prefixTokens);
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
      const f = measurePersona(MIRA, setup);
      const persona = f.parts.filter((p) => p.group === 'persona');
      expect(persona.reduce((sum, p) => sum + p.tokens, 0)).toBe(f.personaTokens);
      expect(f.parts.reduce((sum, p) => sum + p.tokens, 0)).toBe(f.prefixTokens + f.secretsTokens);
      expect(f.parts.every((p) => p.tokens > 0)).toBe(true);
      expect(f.largestPart.tokens).toBe(Math.max(...f.parts.map((p) => p.tokens)));
    }
    const none = measurePersona(MIRA, noToolsSetup());
    // Mira's greeting, fallback lines and emotion are not in the prompt, so they have no slice (49 + 9 + 20 + 17 + 24 + 19 + 19 = 157).
    expect(none.parts.map((p) => `${p.key}:${p.tokens}`)).toEqual([
      'rules:49',
      'role:9',
      'personality:20',
      'speakingStyle:17',
      'backstory:24',
      'goals:19',
      'knowledge:19',
      'replyFormat:92',
      'secrets:40',
    ]);
    expect(none.largestPart.key).toBe('replyFormat');
    expect(measurePersona(MIRA, tavernSetup()).largestPart.key).toBe('tools');
    // Secrets guarded in the prefix are a persona field; the NPC's extra instructions their own slice.
    const guarded = measurePersona(MIRA, {
      tools: [],
      options: { secretsUnlockAtRelationship: null, extraInstructions: 'Never mention the war.' },
    });
    expect(guarded.parts.filter((p) => p.key === 'secrets').map((p) => p.group)).toEqual(['persona']);
    expect(guarded.parts.find((p) => p.key === 'extra')!.tokens).toBeGreaterThan(0);
    expect(guarded.secretsTokens).toBe(0);
  });

  it('knows what a new NPCComponent sends: its property defaults, read from its source', () => {
    const source = fs.readFileSync(path.join(__dirname, '../../assets/components/NPCComponent.ts'), 'utf8');
    const defaults: Record<string, string> = {};
    for (const m of source.matchAll(/^ {2}(\w+)(?:: [^=\n]+)? = ([^;\n]+);$/gm)) defaults[m[1]] = m[2];
    const o = NPC_COMPONENT_DEFAULT_OPTIONS;
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
    expect(defaults.worldReadable).toBe(JSON.stringify(o.worldReadable).replace(/"/g, "'"));
    expect([defaults.worldWritable, defaults.worldContextPaths]).toEqual([
      JSON.stringify(o.worldWritable),
      JSON.stringify(o.worldContextPaths),
    ]);
    expect({ facts: defaults.rememberFacts === 'true', relationship: defaults.trackRelationship === 'true' }).toEqual(
      o.memoryTools,
    );
    expect(defaults.replyFormat).toBe('ReplyFormat.Automatic');
    expect(o.replyFormat).toBe('automatic');
    expect(Number(defaults.secretsUnlockAt)).toBe(o.secretsUnlockAtRelationship);
    expect(Number(defaults.playerOptionCount)).toBe(o.playerOptionCount);
    expect(defaults.canEndConversation === 'true').toBe(o.canEndConversation);
    expect([Number(defaults.externalToolTimeoutMs), Number(defaults.toolTimeoutMs), Number(defaults.priority)]).toEqual(
      [o.externalToolTimeoutMs, o.toolTimeoutMs, o.priority],
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
    const f = measurePersona(MIRA, componentDefaultsSetup());
    expect(requests[0].systemInstruction).toBe(f.systemInstruction);
    expect(requests[0].promptPrefix).toBe(f.promptPrefix);
    expect(f.toolsTokens).toBe(0);
  });
});
