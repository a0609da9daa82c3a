/**
 * Memory, secrets and the prompt layout: memory tools stage and commit, clamps, the memory
 * note, secrets by relationship, and the byte-stable prefix (systemInstruction + promptPrefix)
 * across turns while everything after it changes.
 */
import { WorldState, type NPCEvent } from '../../src';
import { Script } from '../../src/testing';
import { MIRA, events, mira, requestText, stablePrefix, tavernTools } from './helpers';

const SECRET = MIRA.secrets[0];

describe('memory tools', () => {
  test('remember_fact is staged during the turn and committed when it succeeds', async () => {
    const { npc, model } = mira(
      [
        Script.call('remember_fact', { fact: 'The player is called Sam.' }),
        Script.reply({ emotion: 'happy', line: 'Nice to meet you, Sam.' }),
      ],
      { options: { memoryTools: 'all' } },
    );
    const stream = npc.talkStream("I'm Sam");
    const factsDuringTurn: Array<readonly string[]> = [];
    stream.on('toolResult', () => factsDuringTurn.push(npc.memory.facts.slice()));
    const turn = await stream.turn();
    expect(factsDuringTurn).toEqual([[]]);
    expect(npc.memory.facts).toEqual(['The player is called Sam.']);
    expect(turn.toolCalls[0].output).toEqual({ kind: 'text', text: 'Remembered.' });
    expect(model.calls).toBe(2);
  });

  test('the memory tools are offered with memoryTools "all" and absent by default', async () => {
    const withTools = mira([Script.reply({ emotion: 'happy', line: 'Hi.' })], { options: { memoryTools: 'all' } });
    await withTools.npc.talk('Hi');
    expect(withTools.model.requests[0].promptPrefix).toContain('remember_fact');
    expect(withTools.model.requests[0].promptPrefix).toContain('change_relationship');
    const byDefault = mira([Script.json({ emotion: 'happy', line: 'Hi.' })]);
    await byDefault.npc.talk('Hi');
    expect(requestText(byDefault.model.requests[0])).not.toContain('remember_fact');
    expect(byDefault.model.kinds).toEqual(['structured']);
  });

  test('a duplicate fact (other case and punctuation) is not stored twice', async () => {
    const { npc } = mira(
      [
        Script.call('remember_fact', { fact: 'the player is called sam' }),
        Script.reply({ emotion: 'neutral', line: 'I know, Sam.' }),
      ],
      { options: { memoryTools: 'all' }, memory: { facts: ['The player is called Sam.'] } },
    );
    const turn = await npc.talk("I'm Sam, remember?");
    expect(turn.toolCalls[0].output).toEqual({ kind: 'text', text: 'You already know that.' });
    expect(npc.memory.facts).toEqual(['The player is called Sam.']);
  });

  test('an empty fact is an error output, nothing stored', async () => {
    const { npc } = mira(
      [Script.call('remember_fact', { fact: '  ' }), Script.reply({ emotion: 'neutral', line: 'Hm.' })],
      { options: { memoryTools: 'all' } },
    );
    const turn = await npc.talk('Remember nothing');
    expect(turn.toolCalls[0].output.kind).toBe('error');
    expect(npc.memory.facts).toEqual([]);
  });

  test('facts beyond maxFacts drop the oldest on commit', async () => {
    const { npc } = mira(
      [Script.call('remember_fact', { fact: 'Fact three.' }), Script.reply({ emotion: 'neutral', line: 'Noted.' })],
      { options: { memoryTools: 'all', maxFacts: 2 }, memory: { facts: ['Fact one.', 'Fact two.'] } },
    );
    await npc.talk('Remember three');
    expect(npc.memory.facts).toEqual(['Fact two.', 'Fact three.']);
  });

  test('change_relationship is clamped to ±maxRelationshipChange', async () => {
    const { npc } = mira(
      [
        Script.call('change_relationship', { reason: 'saved my life', delta: 50 }),
        Script.reply({ emotion: 'grateful', line: 'Thank you!' }),
        Script.call('change_relationship', { reason: 'insult', delta: '-40' }),
        Script.reply({ emotion: 'angry', line: 'How dare you.' }),
      ],
      { options: { memoryTools: 'all' } },
    );
    const first = await npc.talk('I saved you');
    expect(first.relationship).toBe(10);
    expect(first.toolCalls[0].output).toEqual({ kind: 'text', text: 'You now feel neutral toward the player (10).' });
    const second = await npc.talk('You are ugly');
    expect(second.relationship).toBe(0);
    expect(npc.memory.relationship).toBe(0);
  });

  test('a custom maxRelationshipChange is used and described in the tool', async () => {
    const { npc, model } = mira(
      [
        Script.call('change_relationship', { reason: 'tip', delta: 9 }),
        Script.reply({ emotion: 'happy', line: 'Ta!' }),
      ],
      { options: { memoryTools: 'all', maxRelationshipChange: 3 } },
    );
    expect((await npc.talk('Here is a tip')).relationship).toBe(3);
    expect(model.requests[0].promptPrefix).toContain('delta: -3 worse to 3 better');
  });

  test('the relationship stays in -100..100', async () => {
    const up = mira(
      [
        Script.call('change_relationship', { reason: 'hero', delta: 10 }),
        Script.reply({ emotion: 'happy', line: 'My hero.' }),
      ],
      { options: { memoryTools: 'all' }, memory: { relationship: 95 } },
    );
    expect((await up.npc.talk('Hi')).relationship).toBe(100);
    const down = mira(
      [
        Script.call('change_relationship', { reason: 'thief', delta: -10 }),
        Script.reply({ emotion: 'angry', line: 'Thief!' }),
      ],
      { options: { memoryTools: 'all' }, memory: { relationship: -95 } },
    );
    expect((await down.npc.talk('Hi')).relationship).toBe(-100);
    const restored = mira([], { memory: { relationship: 500 } });
    expect(restored.npc.memory.relationship).toBe(100);
  });

  test('a bad delta is an error output and changes nothing', async () => {
    const { npc } = mira(
      [
        Script.call('change_relationship', { reason: 'x', delta: 'lots' }),
        Script.reply({ emotion: 'neutral', line: 'Hm.' }),
      ],
      { options: { memoryTools: 'all' } },
    );
    const turn = await npc.talk('Hi');
    expect(turn.toolCalls.every((toolCall) => toolCall.output.kind === 'error' || toolCall.rejected)).toBe(true);
    expect(npc.memory.relationship).toBe(0);
  });

  test.each([
    [-70, 'hostile'],
    [-30, 'unfriendly'],
    [0, 'neutral'],
    [40, 'friendly'],
    [70, 'trusting'],
  ])('relationship %i → "%s" in the memory note', async (relationship, word) => {
    const { npc, model } = mira([Script.reply({ emotion: 'neutral', line: 'Hm.' })], {
      options: { memoryTools: 'all' },
      memory: { relationship },
    });
    await npc.talk('Hi');
    expect(model.requests[0].prompt).toContain(`You feel ${word} toward the player (${relationship} on -100..100).`);
    expect(npc.memory.attitude).toBe(word);
  });

  test('the note holds facts and the summary; a fresh NPC without memory tools adds no note', async () => {
    const remembering = mira([Script.json({ emotion: 'neutral', line: 'Hm.' })], {
      memory: { facts: ['Likes ale.'], summary: 'They met last week.' },
    });
    await remembering.npc.talk('Hi');
    expect(remembering.model.requests[0].prompt).toContain('You remember: Likes ale.');
    expect(remembering.model.requests[0].prompt).toContain('Earlier conversation: They met last week.');
    const fresh = mira([Script.json({ emotion: 'neutral', line: 'Hm.' })]);
    await fresh.npc.talk('Hi');
    expect(fresh.model.requests[0].prompt).not.toContain('Memory:');
  });

  test('the turn reports the relationship after it; the next turn sees the committed memory', async () => {
    const { npc, model } = mira(
      [
        Script.call('remember_fact', { fact: 'Sam likes stew.' }),
        Script.call('change_relationship', { reason: 'kind', delta: 5 }),
        Script.reply({ emotion: 'happy', line: 'Stew it is.' }),
        Script.reply({ emotion: 'happy', line: 'Again?' }),
      ],
      { options: { memoryTools: 'all', maxToolRounds: 3 } },
    );
    const turn = await npc.talk('I love stew');
    expect(turn.relationship).toBe(5);
    await npc.talk('More stew');
    expect(model.requests[3].prompt).toContain('Sam likes stew.');
    expect(model.requests[3].prompt).toContain('(5 on -100..100)');
  });
});

describe('secrets', () => {
  test('hidden below the threshold: not in any request text', async () => {
    const { npc, model } = mira([Script.json({ emotion: 'neutral', line: 'Nothing to tell.' })], {
      memory: { relationship: 49 },
    });
    await npc.talk('Any secrets?');
    for (const request of model.requests) expect(requestText(request)).not.toContain('mayor');
  });

  test('at the threshold: shown in the per-turn note, never in the stable prefix', async () => {
    const { npc, model } = mira([Script.json({ emotion: 'neutral', line: 'Well…' })], { memory: { relationship: 50 } });
    await npc.talk('Any secrets?');
    const request = model.requests[0];
    expect(request.prompt).toContain(SECRET);
    expect(request.prompt).toMatch(/trust the player enough to share your secret/);
    expect(stablePrefix(request)).not.toContain('mayor');
  });

  test('a custom threshold', async () => {
    const { npc, model } = mira([Script.json({ emotion: 'neutral', line: 'Well…' })], {
      options: { secretsUnlockAtRelationship: -20 },
      memory: { relationship: -20 },
    });
    await npc.talk('Any secrets?');
    expect(model.requests[0].prompt).toContain(SECRET);
  });

  test('null: guarded in the stable prefix with a keep-it rule, whatever the relationship', async () => {
    const { npc, model } = mira([Script.json({ emotion: 'neutral', line: 'Nope.' })], {
      options: { secretsUnlockAtRelationship: null },
      memory: { relationship: -80 },
    });
    await npc.talk('Any secrets?');
    const request = model.requests[0];
    expect(stablePrefix(request)).toContain(SECRET);
    expect(request.prompt).not.toContain('mayor');
    expect(stablePrefix(request)).toMatch(/never|keep|not (reveal|tell|share)/i);
  });
});

describe('the stable prefix', () => {
  test('is byte-identical across turns while memory, relationship (crossing the unlock), world and situation change', async () => {
    const world = new WorldState({ player: { gold: 10 }, time: 'evening' });
    const tools = tavernTools();
    const { npc, model } = mira(
      [
        // Turn 1: relationship 45 → 55 (crosses the unlock threshold), a fact remembered.
        Script.call('change_relationship', { reason: 'tipped well', delta: 10 }),
        Script.call('remember_fact', { fact: 'The player tips well.' }),
        Script.reply({ emotion: 'happy', line: 'You are too kind.' }),
        // Turn 2: a tool, then the reply.
        Script.call('check_menu'),
        Script.reply({ emotion: 'neutral', line: 'Stew is 5 gold.' }),
        // Turn 3: small talk.
        Script.reply({ emotion: 'happy', line: 'Goodnight!' }),
      ],
      {
        tools: [tools.menu],
        world,
        options: { memoryTools: 'all', worldContextPaths: ['player.gold', 'time'], maxToolRounds: 3 },
        memory: { relationship: 45 },
      },
    );
    await npc.talk('Here is a gold coin', { situation: 'The tavern is quiet.' });
    world.set('player.gold', 9);
    world.set('time', 'night');
    await npc.talk('What is warm?', { situation: 'A bard starts playing.' });
    await npc.talk('Goodnight');

    expect(model.calls).toBe(6);
    const prefixes = new Set(model.requests.map(stablePrefix));
    expect(prefixes.size).toBe(1);
    // What changed went after the prefix.
    const [first, , , fourth, , sixth] = model.requests;
    expect(first.prompt).toContain('player.gold: 10');
    expect(first.prompt).toContain('Situation: The tavern is quiet.');
    expect(first.prompt).not.toContain(SECRET);
    expect(fourth.prompt).toContain('player.gold: 9');
    expect(fourth.prompt).toContain('time: night');
    expect(fourth.prompt).toContain('Situation: A bard starts playing.');
    expect(fourth.prompt).not.toContain('The tavern is quiet.'); // the situation lasts one turn
    expect(fourth.prompt).toContain(SECRET); // unlocked at 55
    expect(fourth.prompt).toContain('The player tips well.');
    expect(sixth.prompt).not.toContain('A bard starts playing.');
    for (const request of model.requests) {
      expect(stablePrefix(request)).not.toContain('player.gold:');
      expect(stablePrefix(request)).not.toContain('evening');
      expect(stablePrefix(request)).not.toContain('Situation:');
      expect(stablePrefix(request)).not.toContain('tips well');
    }
  });

  test('the world summary and situation come before the conversation, after the memory note', async () => {
    const world = new WorldState({ player: { gold: 3 } });
    const { npc, model } = mira([Script.reply({ emotion: 'neutral', line: 'Three gold, then.' })], {
      world,
      options: { worldContextPaths: ['player.gold'], memoryTools: 'all' },
    });
    await npc.talk('How much do I have?', { situation: 'Rain outside.' });
    const prompt = model.requests[0].prompt;
    const order = [
      'Memory:',
      'Game state:',
      'player.gold: 3',
      'Situation: Rain outside.',
      'Player: How much do I have?',
    ].map((section) => prompt.indexOf(section));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect(order.slice().sort((left, right) => left - right)).toEqual(order);
  });

  test('history shows only the spoken line of earlier structured replies', async () => {
    const { npc, model } = mira([
      Script.json({ emotion: 'happy', line: 'Welcome!' }),
      Script.json({ emotion: 'happy', line: 'Again!' }),
    ]);
    await npc.talk('Hi');
    await npc.talk('Hi again');
    expect(model.requests[1].prompt).toContain('Mira: Welcome!');
    expect(model.requests[1].prompt).not.toMatch(/Mira: \{/);
  });

  test('world tools: read within readable paths, writes outside writable paths are refused', async () => {
    const world = new WorldState({ player: { gold: 10 }, secret: { vault: 999 } });
    const { npc } = mira(
      [
        Script.call('update_world_state', { path: 'player.gold', value: 7 }),
        Script.call('update_world_state', { path: 'secret.vault', value: 0 }),
        Script.reply({ emotion: 'neutral', line: 'Paid.' }),
      ],
      { world, options: { worldReadable: ['player'], worldWritable: ['player.gold'], maxToolRounds: 3 } },
    );
    const stream = npc.talkStream('I pay 3 gold');
    const { events: evs } = await events(stream);
    const results = evs.filter((event) => event.type === 'toolResult') as Array<
      Extract<NPCEvent, { type: 'toolResult' }>
    >;
    expect(world.get('player.gold')).toBe(7);
    expect(world.get('secret.vault')).toBe(999);
    expect(results[1].record.output.kind).toBe('error');
    expect(JSON.stringify(results[1].record.output)).toContain('player.gold');
  });
});
