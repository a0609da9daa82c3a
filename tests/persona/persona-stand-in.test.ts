/**
 * The persona-aware stand-in: a blacksmith answers as the blacksmith (never Mira's tavern
 * lines), tells a secret only once the relationship unlocks it, calls the tools it was given
 * when the player names them, rotates its fallback lines, and suggests lines from its persona.
 */
import { NPC, AgentTool, type Persona } from '../../src';
import { createPersonaStandIn, personaSuggestions } from '../../src/testing';

const GORM: Persona = {
  name: 'Gorm',
  role: 'the village blacksmith',
  personality: 'Gruff but fair.',
  goals: ['Find good iron ore before winter'],
  knowledge: ['The old mine in the hills still has iron', 'Mira at the tavern owes him three gold'],
  secrets: ['He forged the sword that killed the old baron'],
  greeting: 'Mind the sparks. What do you need?',
  fallbackLines: ['Hrm.', 'Speak plainly.'],
};

function gorm(options: Record<string, unknown> = {}, tools: AgentTool[] = []) {
  const model = createPersonaStandIn(GORM, {
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description })),
  });
  return new NPC({
    persona: GORM,
    model,
    tools,
    options: { memoryTools: 'none', secretsUnlockAtRelationship: 50, ...options },
  });
}

describe('the persona stand-in', () => {
  test('answers from the persona: greeting, who, goals, knowledge; never the tavern', async () => {
    const npc = gorm();
    expect((await npc.talk('Hello there!')).line).toBe('Mind the sparks. What do you need?');
    expect((await npc.talk('Who are you?')).line).toBe("I'm Gorm, the village blacksmith.");
    expect((await npc.talk('What do you want most?')).line).toBe('What I want? Find good iron ore before winter.');
    expect((await npc.talk('Is there iron around here?')).line).toBe('The old mine in the hills still has iron.');
    const all = [(await npc.talk('Two ales, please.')).line, (await npc.talk('Nice weather.')).line];
    expect(all).toEqual(['Hrm.', 'Speak plainly.']);
    expect(all.join(' ')).not.toMatch(/ale|stew|Mira's|Crooked Lantern/);
  });

  test('the secret only past the unlock threshold', async () => {
    const npc = gorm();
    expect((await npc.talk('Heard any rumours?')).line).toBe('Nothing I would share with a stranger.');
    const saved = npc.saveState();
    const trusted = NPC.restore(
      { ...saved, memory: { ...saved.memory, relationship: 60 } },
      {
        model: createPersonaStandIn(GORM),
        options: { memoryTools: 'none', secretsUnlockAtRelationship: 50 },
      },
    );
    expect((await trusted.talk('Heard any rumours?')).line).toBe(
      'Between us? I forged the sword that killed the old baron.',
    );
  });

  test('knowledge about the character is said in the first person; about anyone else, as written', async () => {
    const persona: Persona = {
      name: 'Hilde Ironhand',
      knowledge: [
        'Hilde owes the smiths guild forty silver',
        'She watches the north road every night',
        'She carries her late husband hammer',
        'She is the only smith who can work starsteel',
        'They say the old mine is haunted by miners',
        'The river ford floods every spring',
      ],
      fallbackLines: ['Hm.'],
    };
    const npc = new NPC({ persona, model: createPersonaStandIn(persona), options: { memoryTools: 'none' } });
    const lines: string[] = [];
    for (const said of ['The guild?', 'The north road?', 'That hammer?', 'Starsteel?', 'The mine?', 'The ford?'])
      lines.push((await npc.talk(said)).line);
    expect(lines).toEqual([
      'I owe the smiths guild forty silver.',
      'I watch the north road every night.',
      'I carry my late husband hammer.',
      'I am the only smith who can work starsteel.',
      'They say the old mine is haunted by miners.',
      'The river ford floods every spring.',
    ]);
  });

  test('calls a tool the player names and reports what it returned', async () => {
    const prices = AgentTool.local({ name: 'check_prices', description: 'Lists smithing prices.' }, () => ({
      horseshoe: 4,
      sword: 40,
    }));
    const turn = await gorm({}, [prices]).talk('What are your prices?');
    expect(turn.toolCalls.map((record) => record.call.name)).toEqual(['check_prices']);
    expect(turn.line).toBe("Here's what I have: horseshoe 4, sword 40.");
  });

  test('suggestions come from the persona; a broken persona is refused with its problems', () => {
    expect(personaSuggestions(GORM)).toEqual([
      'Hello, Gorm!',
      'Who are you?',
      'What about the mine?',
      'What are you looking for?',
      'Heard any rumours?',
      'Goodbye!',
    ]);
    expect(() => createPersonaStandIn({ name: '' })).toThrow(/name/);
  });
});
