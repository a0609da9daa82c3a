import {
  customToolsSetup, levelOf, measurePersona, noToolsSetup, tavernSetup, NANO_INPUT_BUDGET, RESERVED_TOKENS, USABLE_TOKENS,
} from '../../extension/token-meter/token-meter';
import type { MeterSetup } from '../../extension/token-meter/token-meter';
import { NPC } from '../../src/game/npc';
import { estimateTokens } from '../../src/models/types';
import type { GenerationRequest } from '../../src/models/types';
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
    expect(f).toMatchObject({ personaTokens: 48, toolsTokens: 0, replyFormatTokens: 91, prefixTokens: 139, secretsTokens: 0, conversationTokens: 3605, level: 'ok' });
    // By hand: 189 characters of instructions → ⌈189/4⌉ = 48; with the 364-character reply block, ⌈553/4⌉ = 139.
    expect([f.systemInstruction.length, f.promptPrefix.length]).toEqual([189, 364]);
    expect(f.promptPrefix.startsWith("Bo's reply has these parts:")).toBe(true);
    expect(sumOfRows(f)).toBe(f.prefixTokens);
    expect(f.prefixTokens).toBe(estimateTokens(f.systemInstruction + f.promptPrefix));
  });

  it('measures Mira with no tools, the tavern tools and custom tools', () => {
    const none = measurePersona(MIRA, noToolsSetup());
    expect(none).toMatchObject({ personaTokens: 157, toolsTokens: 0, replyFormatTokens: 92, prefixTokens: 249, secretsTokens: 40, conversationTokens: 3455 });

    const tavern = measurePersona(MIRA, tavernSetup());
    expect(tavern).toMatchObject({ personaTokens: 165, toolsTokens: 402, replyFormatTokens: 91, prefixTokens: 658, secretsTokens: 40, conversationTokens: 3046 });

    const custom = customToolsSetup(JSON.stringify([
      { name: 'open_gate', description: 'Opens the town gate.' },
      { name: 'give_item', description: 'Gives the player an item.', parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] } },
    ]));
    expect(custom.ok).toBe(true);
    const withCustom = measurePersona(MIRA, (custom as { ok: true; setup: MeterSetup }).setup);
    expect(withCustom).toMatchObject({ personaTokens: 165, toolsTokens: 167, replyFormatTokens: 91, prefixTokens: 423 });

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
      persona: MIRA, model: recordingModel(requests), world, tools: tavernTools(world),
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
    const long = (n: number) => ({ name: 'Bo', knowledge: [ 'x'.repeat(n) ] });
    const small = measurePersona(long(100), noToolsSetup());
    const bigger = measurePersona(long(200), noToolsSetup());
    expect(bigger.personaTokens - small.personaTokens).toBe(25);
    expect(measurePersona(long(7000), noToolsSetup()).level).toBe('warn');
    expect(measurePersona(long(11000), noToolsSetup()).level).toBe('danger');
    const over = measurePersona(long(16000), noToolsSetup());
    expect(over.conversationTokens).toBeLessThan(0);
    expect(over.share).toBeGreaterThan(1);
    expect([levelOf(0.5), levelOf(0.5001), levelOf(0.75), levelOf(0.7501)]).toEqual(['ok', 'warn', 'warn', 'danger']);
  });

  it('still measures a persona that is being typed (empty name, odd values)', () => {
    const f = measurePersona({ name: '', maxSentences: 'abc', goals: 'x' }, noToolsSetup());
    expect(f.prefixTokens).toBeGreaterThan(0);
    expect(measurePersona(null, noToolsSetup()).prefixTokens).toBe(f.prefixTokens);
  });

  it('explains bad custom tool JSON', () => {
    expect(customToolsSetup('')).toEqual({ ok: true, setup: { tools: [], options: {} } });
    expect(customToolsSetup('[{"name": "x"')).toMatchObject({ ok: false, message: expect.stringMatching(/^not JSON: /) });
    expect(customToolsSetup('[3]')).toEqual({ ok: false, message: 'tool 1 must be an object with a name and a description' });
    expect(customToolsSetup('[{"name": "bad name!"}]')).toMatchObject({ ok: false, message: expect.stringMatching(/^tool 1: /) });
    expect(customToolsSetup('[{"name": "a", "description": ""}, {"name": "a", "description": ""}]')).toEqual({ ok: false, message: 'two tools are called "a"' });
    expect(customToolsSetup('{"name": "ring_bell", "description": "Rings the bell."}')).toMatchObject({ ok: true });
  });
});
