/** The tool loop: what the model writes in decide steps, repairs, rejections, tool choices, budgets, dedupe. */
import { Agent, AgentTool, ToolOutput } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { collect, failure, FAST, shownText, tavern, tavernAgent } from './helpers';

describe('reading what the model writes', () => {
  test.each([
    ['canonical short form', Script.call('take_order', { item: 'ale', quantity: 2 })],
    ['JSON cut after its arguments closed', '{"tool": "take_order", "args": {"item": "ale", "quantity": 2}'],
    [
      'prose around the JSON',
      'Sure! Here it is: {"tool": "take_order", "args": {"item": "ale", "quantity": 2}} Hope that helps.',
    ],
    ['a code fence', '```json\n{"tool": "take_order", "args": {"item": "ale", "quantity": 2}}\n```'],
    ['the seed form', Script.action('take_order', { item: 'ale', quantity: 2 })],
    ['seed synonyms (name/parameters)', '{"name": "take_order", "parameters": {"item": "ale", "quantity": 2}}'],
    ['a camelCase tool name', '{"tool": "takeOrder", "args": {"item": "ale", "quantity": 2}}'],
    ['a spaced, capitalised tool name', '{"tool": "Take Order", "args": {"item": "ale", "quantity": 2}}'],
    [
      'an OpenAI function object with string arguments',
      JSON.stringify({ function: { name: 'take_order', arguments: '{"item":"ale","quantity":2}' } }),
    ],
    [
      'OpenAI tool_calls',
      JSON.stringify({
        tool_calls: [{ type: 'function', function: { name: 'take_order', arguments: { item: 'ale', quantity: 2 } } }],
      }),
    ],
    ['single quotes and a trailing comma', "{'tool': 'take_order', 'args': {'item': 'ale', 'quantity': 2,},}"],
    ['arguments next to the tool', '{"tool": "take_order", "item": "ale", "quantity": 2, "reason": "asked"}'],
    ['coercible values', '{"tool": "take_order", "args": {"item": "Ale", "quantity": "2"}}'],
  ])('%s', async (_label, step) => {
    const { agent, model, log } = tavernAgent([step, Script.reply('Two ales.')]);
    const response = await agent.respond('Two ales');
    expect(log).toEqual(['take_order {"item":"ale","quantity":2}']);
    expect(response.toolCalls[0].call.args).toEqual({ item: 'ale', quantity: 2 });
    expect(model.kinds).toEqual(['decide', 'decide']);
    expect(model.requests.some((request) => request.isRepair)).toBe(false);
  });

  test('a call cut off inside its arguments never runs: the repair asks again, and the whole call runs', async () => {
    const { agent, model, log } = tavernAgent([
      '{"tool": "take_order", "args": {"item": "ale", "quantity": 2',
      Script.call('take_order', { item: 'ale', quantity: 3 }),
      Script.reply('Three ales.'),
    ]);
    const response = await agent.respond('Ales, please');
    expect(log).toEqual(['take_order {"item":"ale","quantity":3}']);
    expect(response.toolCalls.map((record) => record.call.args)).toEqual([{ item: 'ale', quantity: 3 }]);
    expect(model.requests.filter((request) => request.isRepair)).toHaveLength(1);
  });

  test.each([['check_menu'], ['`check_menu()`'], ['Check Menu.']])('a bare tool name %j', async (bare) => {
    const { agent, log, model } = tavernAgent([bare, Script.reply('Ale 3.')]);
    await agent.respond('Menu?');
    expect(log).toEqual(['check_menu']);
    expect(model.calls).toBe(2);
  });

  test('the seed respond envelope in inline mode goes on to a reply step', async () => {
    const { agent, model } = tavernAgent([Script.action('respond'), 'Hello!']);
    expect((await agent.respond('Hi')).text).toBe('Hello!');
    expect(model.kinds).toEqual(['decide', 'respond']);
  });

  test('line first (default): words that are not JSON are the reply, in one call', async () => {
    const { agent, model, log } = tavernAgent(['lorem ipsum dolor sit amet']);
    const response = await agent.respond('Hi');
    expect(response.text).toBe('lorem ipsum dolor sit amet');
    expect(model.kinds).toEqual(['decide']);
    expect(log).toEqual([]);
  });

  test('JSON envelopes (lineFirst off): garbage twice is a repair, then the reply without tools', async () => {
    const { agent, model, log } = tavernAgent(
      ['lorem ipsum dolor sit amet, consectetur adipiscing', '%%%% ###', 'Welcome!'],
      { lineFirst: false },
    );
    const response = await agent.respond('Hi');
    expect(response.text).toBe('Welcome!');
    expect(model.kinds).toEqual(['decide', 'decide', 'respond']);
    expect(model.requests.map((request) => request.isRepair)).toEqual([false, true, false]);
    expect(model.requests[1].prompt).toContain('Your previous answer was invalid: the answer was not a JSON object.');
    expect(model.requests[1].prompt).toContain('Previous answer: lorem ipsum dolor sit amet');
    expect(log).toEqual([]);
    expect(response.toolCalls).toEqual([]);
  });

  test('the repair quotes at most 240 characters of the previous answer', async () => {
    const long = 'x'.repeat(500);
    const { agent, model } = tavernAgent([long, Script.reply('Hi.')], { lineFirst: false });
    await agent.respond('Hi');
    const quoted = model.requests[1].prompt.split('Previous answer: ')[1].split('\n')[0];
    expect(quoted).toBe(`${'x'.repeat(240)}…`);
  });

  test('an unknown tool twice: the reply follows without tools, nothing ran', async () => {
    const { agent, model, log } = tavernAgent([
      Script.call('summon_dragon'),
      Script.call('summon_dragon'),
      'No dragons here.',
    ]);
    const response = await agent.respond('Summon a dragon');
    expect(response.text).toBe('No dragons here.');
    expect(model.kinds).toEqual(['decide', 'decide', 'respond']);
    expect(model.requests[1].prompt).toContain('summon_dragon is not an available tool');
    expect(model.requests[1].prompt).toContain('check_menu');
    expect(log).toEqual([]);
    expect(response.toolCalls).toEqual([]);
  });

  test('invalid arguments twice: recorded as rejected ("The call was not made"), never run, the reply sees it', async () => {
    const bad = Script.call('take_order', { item: 'ale', quantity: 12 });
    const { agent, model, log } = tavernAgent([bad, bad, 'We only pour up to ten.']);
    const run = agent.run('Twelve ales');
    const completed: boolean[] = [];
    run.on('toolCompleted', (event) => completed.push(event.record.rejected === true));
    const started: string[] = [];
    run.on('toolStarted', (event) => started.push(event.call.name));
    const response = await run.response();
    expect(log).toEqual([]);
    expect(started).toEqual([]);
    expect(completed).toEqual([true]);
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0].rejected).toBe(true);
    expect(response.toolCalls[0].call.args).toEqual({ item: 'ale', quantity: 12 });
    const message = ToolOutput.render(response.toolCalls[0].output);
    expect(message).toMatch(
      /^Error: The call was not made: the arguments for take_order are invalid: .*at most 10; got 12/,
    );
    expect(model.kinds).toEqual(['decide', 'decide', 'respond']);
    expect(model.requests[2].prompt).toContain('The call was not made');
    const uses = agent.history.filter((entry) => entry.type === 'toolUse');
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ type: 'toolUse', rejected: true });
  });

  test('invalid, then repaired arguments: the repair has isRepair and quotes the problem', async () => {
    const { agent, model, log } = tavernAgent([
      Script.call('take_order', { item: 'ale', quantity: 12 }),
      Script.call('take_order', { item: 'ale', quantity: 10 }),
      Script.reply('Ten ales.'),
    ]);
    const run = agent.run('Twelve ales');
    const repairs: boolean[] = [];
    run.on('step', (event) => repairs.push(event.step.isRepair));
    const response = await run.response();
    expect(repairs).toEqual([false, true, false]);
    expect(model.requests[1].isRepair).toBe(true);
    expect(model.requests[1].prompt).toContain('$.quantity: must be at most 10; got 12');
    expect(model.requests[1].prompt).toContain(
      'Previous answer: {"tool":"take_order","args":{"item":"ale","quantity":12}}',
    );
    expect(log).toEqual(['take_order {"item":"ale","quantity":10}']);
    expect(response.steps.map((step) => step.isRepair)).toEqual([false, true, false]);
  });

  test('repairs switched off: one invalid answer is final', async () => {
    const { agent, model, log } = tavernAgent([Script.call('take_order', { item: 'mead', quantity: 1 }), 'No mead.'], {
      repairsInvalidOutput: false,
    });
    const response = await agent.respond('Mead');
    expect(model.kinds).toEqual(['decide', 'respond']);
    expect(response.toolCalls[0].rejected).toBe(true);
    expect(log).toEqual([]);
  });

  test('a tool error output is shown to the model and does not end the loop', async () => {
    const fixture = tavern();
    const broken = AgentTool.local({ name: 'pay', description: 'Takes coins.' }, () =>
      ToolOutput.error('purse is empty'),
    );
    const model = new ScriptedLanguageModel([
      Script.call('pay'),
      Script.call('check_menu'),
      Script.reply('Try the bread.'),
    ]);
    const agent = new Agent(model, { tools: [fixture.menu, broken], config: FAST });
    const response = await agent.respond('Pay');
    expect(response.toolCalls.map((toolCall) => toolCall.output.kind)).toEqual(['error', 'json']);
    expect(model.requests[1].prompt).toContain('[pay {} → Error: purse is empty]');
  });
});

describe('inline replies and early stop', () => {
  test('reading stops as soon as the JSON object closes (the rest would only cost decode time)', async () => {
    const { agent } = tavernAgent([
      Script.text('{"tool":"check_menu","args":{}} and then a long ramble that costs decode time on a phone', 8),
      Script.reply('Ale 3.'),
    ]);
    const run = agent.run('Menu');
    const outputs: string[] = [];
    run.on('stepFinished', (event) => outputs.push(event.output));
    const response = await run.response();
    expect(response.steps.map((step) => step.stoppedEarly)).toEqual([true, false]);
    expect(outputs[0].length).toBeLessThan(60);
  });

  test('an inline reply cut off before its JSON closes is not final: the reply step writes it whole', async () => {
    const { agent, model } = tavernAgent([
      Script.text('{"reply": "Our stew is the best in the valley, made with', 4),
      'Our stew is the best in the valley, made with care.',
    ]);
    const { events, error } = await collect(agent.run('Stew?'));
    expect(error).toBeUndefined();
    expect(model.kinds).toEqual(['decide', 'respond']);
    const done = events[events.length - 1];
    expect(done.type === 'completed' && done.response.text).toBe('Our stew is the best in the valley, made with care.');
    expect(events.some((event) => event.type === 'text' && event.isReset)).toBe(true);
    expect(shownText(events)).toBe('Our stew is the best in the valley, made with care.');
  });

  test('trailing text after a complete inline reply is ignored', async () => {
    const { agent, model } = tavernAgent([Script.text('{"reply": "Hi there"} trailing junk', 6)]);
    const { events } = await collect(agent.run('Hi'));
    expect(shownText(events)).toBe('Hi there');
    expect(model.kinds).toEqual(['decide']);
  });

  test('an inline reply that is not text (no schema) goes on to a reply step', async () => {
    const { agent, model } = tavernAgent([Script.reply({ line: 'Hi' }), 'Hi.']);
    expect((await agent.respond('Hi')).text).toBe('Hi.');
    expect(model.kinds).toEqual(['decide', 'respond']);
  });
});

describe('tool choices', () => {
  test("'auto' and 'explicit' decide between tools and the reply", async () => {
    for (const choice of ['auto', 'explicit'] as const) {
      const { agent, model } = tavernAgent([Script.reply('Hi.')]);
      const run = agent.run('Hi', { toolChoice: choice });
      const modes: string[] = [];
      run.on('step', (event) => modes.push(`${event.step.toolCallingMode} ${event.step.enabledTools.join(',')}`));
      await run.response();
      expect(modes).toEqual(['allowed check_menu,take_order']);
      expect(model.kinds).toEqual(['decide']);
    }
  });

  test("'none' replies directly, even with tools", async () => {
    const { agent, model } = tavernAgent(['Hi.']);
    const run = agent.run('Menu?', { toolChoice: 'none' });
    const modes: string[] = [];
    run.on('step', (event) => modes.push(event.step.toolCallingMode));
    await run.response();
    expect(model.kinds).toEqual(['respond']);
    expect(modes).toEqual(['disallowed']);
  });

  test("'required' refuses the reply on the first step and repairs it, then decides freely", async () => {
    const { agent, model, log } = tavernAgent([
      Script.reply('Hi!'),
      Script.call('check_menu'),
      Script.reply('Ale is 3.'),
    ]);
    const run = agent.run('Hi', { toolChoice: 'required' });
    const modes: string[] = [];
    run.on('step', (event) => modes.push(event.step.toolCallingMode));
    const texts: string[] = [];
    run.on('text', (event) => texts.push(event.isReset ? `reset:${event.text}` : event.delta));
    const response = await run.response();
    expect(response.text).toBe('Ale is 3.');
    expect(modes).toEqual(['required', 'required', 'allowed']);
    expect(model.requests[0].prompt).toContain('you must use one of the tools now');
    expect(model.requests[1].isRepair).toBe(true);
    expect(model.requests[1].prompt).toContain('"reply" is not allowed now');
    expect(log).toEqual(['check_menu']);
    // The refused reply never reached the screen.
    expect(texts.join('')).toBe('Ale is 3.');
    expect(texts.some((text) => text.startsWith('reset:'))).toBe(false);
  });

  test("'required' with one enabled tool asks only for its arguments", async () => {
    const { agent, model, log } = tavernAgent(['{"item": "stew", "quantity": 1}', Script.reply('One stew.')]);
    const response = await agent.respond('Food', { toolChoice: 'required', enabledTools: ['take_order'] });
    expect(model.kinds).toEqual(['toolArguments', 'decide']);
    expect(log).toEqual(['take_order {"item":"stew","quantity":1}']);
    expect(response.text).toBe('One stew.');
  });

  test('{tool} with parameters: a toolArguments step (envelope form accepted), then decide', async () => {
    const { agent, model, log } = tavernAgent([
      Script.call('take_order', { item: 'bread', quantity: '3' }),
      Script.reply('Three loaves.'),
    ]);
    const run = agent.run('Bread', { toolChoice: { tool: 'take_order' } });
    const modes: string[] = [];
    run.on('step', (event) => modes.push(event.step.toolCallingMode));
    await run.response();
    expect(model.kinds).toEqual(['toolArguments', 'decide']);
    expect(modes).toEqual(['required', 'allowed']);
    expect(model.requests[0].prompt).toContain('Use take_order (Serves an item) now.');
    expect(log).toEqual(['take_order {"item":"bread","quantity":3}']);
  });

  test('{tool} with parameters: invalid twice is rejected, never run', async () => {
    const { agent, model, log } = tavernAgent(['{"item": "wine"}', 'no idea', 'Sorry.']);
    const response = await agent.respond('Wine', { toolChoice: { tool: 'take_order' } });
    expect(model.kinds).toEqual(['toolArguments', 'toolArguments', 'respond']);
    expect(model.requests[1].isRepair).toBe(true);
    expect(response.toolCalls[0].rejected).toBe(true);
    expect(log).toEqual([]);
  });

  test('an unknown {tool} or a bad choice is invalid_request before any model call', async () => {
    const { agent, model } = tavernAgent([]);
    const error = await failure(agent.respond('x', { toolChoice: { tool: 'fly' } }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('fly');
    expect((await failure(agent.respond('x', { toolChoice: 'sometimes' as never }))).code).toBe('invalid_request');
    expect(model.calls).toBe(0);
    expect(agent.history).toEqual([]);
  });

  test('a forced tool that is not enabled: straight to the reply', async () => {
    const { agent, model, log } = tavernAgent(['Hm.']);
    await agent.respond('x', { toolChoice: { tool: 'check_menu' }, enabledTools: ['take_order'] });
    expect(model.kinds).toEqual(['respond']);
    expect(log).toEqual([]);
  });
});

describe('enabledTools', () => {
  test('narrows the offer; a call to a tool not offered is refused and repaired', async () => {
    const { agent, model, log } = tavernAgent([
      Script.call('take_order', { item: 'ale', quantity: 1 }),
      Script.call('check_menu'),
      Script.reply('Ale is 3.'),
    ]);
    const run = agent.run('Menu', { enabledTools: ['check_menu'] });
    const offered: string[][] = [];
    run.on('step', (event) => offered.push(event.step.enabledTools));
    await run.response();
    expect(offered[0]).toEqual(['check_menu']);
    expect(model.requests[0].prompt).toContain('Tools available now: check_menu.');
    expect(model.requests[1].isRepair).toBe(true);
    expect(model.requests[1].prompt).toContain('take_order is not an available tool');
    expect(log).toEqual(['check_menu']);
  });

  test('the prefix still lists every tool (it stays byte-stable)', async () => {
    const { agent, model } = tavernAgent([Script.reply('a'), Script.reply('b')]);
    await agent.respond('1', { enabledTools: ['check_menu'] });
    await agent.respond('2');
    expect(model.requests[0].promptPrefix).toBe(model.requests[1].promptPrefix);
    expect(model.requests[0].promptPrefix).toContain('take_order');
  });

  test('from the config; an empty list means no tools; an unknown name is invalid_request', async () => {
    const fromConfig = tavernAgent([Script.reply('x')], { toolPolicy: { enabledTools: ['take_order'] } });
    const run = fromConfig.agent.run('x');
    const offered: string[][] = [];
    run.on('step', (event) => offered.push(event.step.enabledTools));
    await run.response();
    expect(offered).toEqual([['take_order']]);

    const noTools = tavernAgent(['Plain.']);
    await noTools.agent.respond('x', { enabledTools: [] });
    expect(noTools.model.kinds).toEqual(['respond']);

    const unknownTool = tavernAgent([]);
    expect((await failure(unknownTool.agent.respond('x', { enabledTools: ['nope'] }))).code).toBe('invalid_request');
    expect(unknownTool.model.calls).toBe(0);
  });
});

describe('budgets', () => {
  test('maxToolRounds 1: the reply is forced after one tool', async () => {
    const { agent, model, log } = tavernAgent([Script.call('check_menu'), 'Ale 3.'], {
      toolPolicy: { maxToolRounds: 1 },
    });
    expect((await agent.respond('Menu')).text).toBe('Ale 3.');
    expect(model.kinds).toEqual(['decide', 'respond']);
    expect(log).toEqual(['check_menu']);
  });

  test('maxToolCalls 2: a model that keeps calling tools is made to reply', async () => {
    const { agent, model, log } = tavernAgent(
      [
        Script.call('take_order', { item: 'ale', quantity: 1 }),
        Script.call('take_order', { item: 'stew', quantity: 1 }),
        'Here you go.',
      ],
      { toolPolicy: { maxToolCalls: 2 } },
    );
    expect((await agent.respond('Everything')).text).toBe('Here you go.');
    expect(model.kinds).toEqual(['decide', 'decide', 'respond']);
    expect(log).toHaveLength(2);
  });

  test('the default round budget is 4', async () => {
    const calls = [1, 2, 3, 4].map((quantity) => Script.call('take_order', { item: 'ale', quantity: quantity }));
    const { agent, model, log } = tavernAgent([...calls, 'Done.']);
    await agent.respond('Keep pouring');
    expect(log).toHaveLength(4);
    expect(model.kinds).toEqual(['decide', 'decide', 'decide', 'decide', 'respond']);
  });

  test('maxToolRounds 0 means no tools at all', async () => {
    const { agent, model } = tavernAgent(['Hi.'], { toolPolicy: { maxToolRounds: 0 } });
    await agent.respond('Menu');
    expect(model.kinds).toEqual(['respond']);
  });

  test('a rejected call ends the tool rounds: the reply follows', async () => {
    const bad = Script.call('take_order', { item: 'ale', quantity: 99 });
    const { agent, model } = tavernAgent([bad, bad, 'No.'], { toolPolicy: { maxToolRounds: 1 } });
    await agent.respond('99 ales');
    expect(model.kinds).toEqual(['decide', 'decide', 'respond']);
  });

  test('bad budgets are invalid_request', () => {
    expect(() => tavernAgent([], { toolPolicy: { maxToolRounds: -1 } })).toThrow(/maxToolRounds/);
    expect(() => tavernAgent([], { toolPolicy: { maxToolCalls: 1.5 } })).toThrow(/maxToolCalls/);
  });
});

describe('dedupe', () => {
  test('an identical successful call repeated means "reply now": the tool does not run again', async () => {
    const { agent, model, log } = tavernAgent([Script.call('check_menu'), Script.call('check_menu'), 'Ale is 3.']);
    const response = await agent.respond('Menu');
    expect(log).toEqual(['check_menu']);
    expect(response.toolCalls).toHaveLength(1);
    expect(model.kinds).toEqual(['decide', 'decide', 'respond']);
  });

  test('after coercion: "Ale"/"2" equals ale/2', async () => {
    const { agent, log } = tavernAgent([
      Script.call('take_order', { item: 'ale', quantity: 2 }),
      Script.call('take_order', { item: 'Ale', quantity: '2' }),
      'Done.',
    ]);
    await agent.respond('Two ales');
    expect(log).toHaveLength(1);
  });

  test('different arguments are not a repeat', async () => {
    const { agent, log } = tavernAgent([
      Script.call('take_order', { item: 'ale', quantity: 2 }),
      Script.call('take_order', { item: 'ale', quantity: 3 }),
      Script.reply('Done.'),
    ]);
    await agent.respond('Ales');
    expect(log).toHaveLength(2);
  });

  test('switched off, the repeated call runs again (dice)', async () => {
    let rolls = 0;
    const dice = AgentTool.local({ name: 'roll', description: 'Rolls a die.' }, () => ++rolls);
    const model = new ScriptedLanguageModel([Script.call('roll'), Script.call('roll'), Script.reply('1 and 2.')]);
    const agent = new Agent(model, { tools: [dice], config: { dedupesToolCalls: false } });
    const response = await agent.respond('Roll twice');
    expect(rolls).toBe(2);
    expect(response.toolCalls.map((toolCall) => toolCall.output)).toEqual([
      { kind: 'json', value: 1 },
      { kind: 'json', value: 2 },
    ]);
  });

  test('a failed call repeated runs again', async () => {
    let attempts = 0;
    const flaky = AgentTool.local({ name: 'pick_lock', description: 'Tries the lock.' }, () => {
      attempts++;
      if (attempts === 1) throw new Error('jammed');
      return 'open';
    });
    const model = new ScriptedLanguageModel([
      Script.call('pick_lock'),
      Script.call('pick_lock'),
      Script.reply('Open!'),
    ]);
    const agent = new Agent(model, { tools: [flaky] });
    await agent.respond('Pick it');
    expect(attempts).toBe(2);
  });
});
