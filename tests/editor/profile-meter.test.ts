/**
 * The token meter measures an NPC profile: its figure is the prompt the NPC built from that
 * profile sends, byte for byte (at each relationship stage), and it counts the stages and the
 * sample lines.
 */
import { measurePersona, profileSetup } from '../../extension/token-meter/token-meter';
import { NPC } from '../../src/game/npc';
import { estimateTokens, type GenerationRequest } from '../../src/contract/language-model';
import { readProfileFile } from '../../demo/profiles/profile-file';
import { recordingModel } from './meter-support';

async function sentFor(file: string, relationship?: number): Promise<{ sent: GenerationRequest }> {
  const parts = readProfileFile(file);
  const requests: GenerationRequest[] = [];
  const memory = relationship === undefined ? parts.memory : { facts: [], relationship, summary: '' };
  const npc = new NPC({ ...parts, memory, model: recordingModel(requests) });
  await npc.talk('Hello.', { toolChoice: 'none' });
  return { sent: requests[0] };
}

describe('the token meter on an NPC profile', () => {
  test.each([
    ['demo/profiles/hilde.npc-profile.json', undefined],
    ['demo/profiles/hilde.npc-profile.json', 20],
    ['demo/profiles/hilde.npc-profile.json', 75],
    ['demo/profiles/guard.npc-profile.json', undefined],
    ['demo/profiles/mira.npc-profile.json', undefined],
  ])('%s at relationship %s: the figure is the prompt the NPC sends, byte for byte', async (file, relationship) => {
    const { sent } = await sentFor(file, relationship);
    const parts = readProfileFile(file);
    const setup = profileSetup(parts);
    if (relationship !== undefined) setup.relationship = relationship;
    const figures = measurePersona(parts.persona, setup);
    expect(figures.systemInstruction).toBe(sent.systemInstruction);
    expect(figures.promptPrefix).toBe(sent.promptPrefix);
    expect(figures.prefixTokens).toBe(estimateTokens(`${sent.systemInstruction}${sent.promptPrefix}`));
    const rows = figures.parts.filter((part) => part.group !== 'secrets').reduce((sum, part) => sum + part.tokens, 0);
    expect(rows).toBe(figures.prefixTokens);
  });

  test("counts the blacksmith's stages and sample lines, and names the stage measured", () => {
    const parts = readProfileFile('demo/profiles/hilde.npc-profile.json');
    const figures = measurePersona(parts.persona, profileSetup(parts));
    expect(figures.stage).toBe('stranger');
    expect(figures.stages.map((stage) => [stage.name, stage.from, stage.to])).toEqual([
      ['stranger', -100, 9],
      ['regular', 10, 49],
      ['confidant', 50, 100],
    ]);
    expect(figures.stages.every((stage) => stage.tokens > 0)).toBe(true);
    expect([figures.sampleLinesShown, figures.sampleLinesDropped]).toEqual([3, 0]);
    const keys = figures.parts.map((part) => part.key);
    expect(keys).toEqual(expect.arrayContaining(['sampleLines', 'stages', 'tools', 'replyFormat']));
    const tight = measurePersona(parts.persona, {
      ...profileSetup(parts),
      options: { ...parts.options, sampleLineTokens: 30 },
    });
    expect(tight.sampleLinesShown).toBeLessThan(3);
    expect(tight.sampleLinesDropped).toBe(3 - tight.sampleLinesShown);
    const sampleRow = (measured: typeof figures) =>
      measured.parts.find((part) => part.key === 'sampleLines')?.tokens ?? 0;
    expect(sampleRow(tight)).toBeLessThan(sampleRow(figures));
  });

  test("her profile's figure is her own, not the tavern's", () => {
    const hilde = readProfileFile('demo/profiles/hilde.npc-profile.json');
    const figures = measurePersona(hilde.persona, profileSetup(hilde));
    expect(`${figures.systemInstruction}${figures.promptPrefix}`).not.toMatch(/check_menu|take_order|menu/);
    expect(figures.promptPrefix).toContain('forge_item');
  });
});
