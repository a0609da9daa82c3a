import {
  argumentCandidates,
  parseEnvelope,
  PROBLEM_NO_ACTION,
  PROBLEM_NOT_JSON,
  PROBLEM_REPLY_NOT_ALLOWED,
  PROBLEM_CUT_OFF,
  resolveToolName,
  EnvelopeContext,
} from '../../src/core/envelope';

const tavern: EnvelopeContext = { toolNames: ['check_menu', 'take_order'], allowRespond: true };
const toolsOnly: EnvelopeContext = { ...tavern, allowRespond: false };
const parse = (text: string, ctx: EnvelopeContext = tavern) => parseEnvelope(text, ctx);

describe('parseEnvelope: our short form', () => {
  it('reads a tool call', () => {
    expect(parse('{"tool":"take_order","args":{"item":"ale","quantity":2}}')).toEqual({
      kind: 'call',
      tool: 'take_order',
      argCandidates: [{ item: 'ale', quantity: 2 }],
    });
  });

  it('reads a tool call without arguments as no candidates', () => {
    expect(parse('{"tool":"check_menu"}')).toEqual({ kind: 'call', tool: 'check_menu', argCandidates: [] });
  });

  it('reads an inline text reply', () => {
    expect(parse('{"reply":"Welcome, traveller!"}')).toEqual({ kind: 'respond', reply: 'Welcome, traveller!' });
  });

  it('reads an inline object reply', () => {
    expect(parse('{"reply":{"emotion":"happy","line":"Welcome!"}}')).toEqual({
      kind: 'respond',
      reply: { emotion: 'happy', line: 'Welcome!' },
    });
  });

  it('keeps an empty reply as an empty string', () => {
    expect(parse('{"reply":""}')).toEqual({ kind: 'respond', reply: '' });
  });
});

describe('parseEnvelope: seed form', () => {
  it('reads a call', () => {
    expect(parse('{"action": "take_order", "arguments": {"item": "ale", "quantity": 2}}')).toEqual({
      kind: 'call',
      tool: 'take_order',
      argCandidates: [{ item: 'ale', quantity: 2 }],
    });
  });

  it('reads respond without inline text', () => {
    expect(parse('{"action": "respond", "arguments": {}}')).toEqual({ kind: 'respond' });
  });

  it('reads respond with inline text in the arguments', () => {
    expect(parse('{"action":"respond","arguments":{"text":"Hi"}}')).toEqual({ kind: 'respond', reply: 'Hi' });
    expect(parse('{"action":"respond","arguments":{"message":"Hi","mood":"calm"}}')).toEqual({
      kind: 'respond',
      reply: 'Hi',
    });
  });

  it('reads a structured reply written as the arguments', () => {
    expect(parse('{"action":"respond","arguments":{"emotion":"happy","line":"Hi"}}')).toEqual({
      kind: 'respond',
      reply: { emotion: 'happy', line: 'Hi' },
    });
  });

  it('reads inline text at the top level and plain-text arguments', () => {
    expect(parse('{"action":"respond","text":"Hello"}')).toEqual({ kind: 'respond', reply: 'Hello' });
    expect(parse('{"action":"respond","arguments":"Hello there"}')).toEqual({ kind: 'respond', reply: 'Hello there' });
    expect(parse('{"action":"respond","arguments":"{\\"text\\": \\"Hi\\"}"}')).toEqual({
      kind: 'respond',
      reply: 'Hi',
    });
  });
});

describe('parseEnvelope: messy text', () => {
  it.each([
    '```json\n{"action": "take_order", "arguments": {"item": "ale"}}\n```',
    'Sure! I will take the order.\n{"action": "take_order", "arguments": {"item": "ale"}}\nAnything else?',
    "{'action': 'take_order', 'arguments': {'item': 'ale',},}",
    '{action: take_order, arguments: {item: ale}}',
    '{"action": "take_order", // the order\n "arguments": {"item": "ale"}}',
    '{"action" = "take_order", "arguments" = {"item" = "ale"}}',
    '{"action": "take_order" | "respond", "arguments": {"item": "ale"}}',
    '{"action": "take_order | respond", "arguments": {"item": "ale"}}',
  ])('%j', (text) => {
    expect(parse(text)).toEqual({ kind: 'call', tool: 'take_order', argCandidates: [{ item: 'ale' }] });
  });

  it.each([
    // Cut inside the arguments, more of them may have followed: running it would be a guess.
    '{"action": "take_order", "arguments": {"item": "ale"',
    '{"tool": "take_order", "args": {"item": "ale", "quan',
    '{"name": "take_order", "',
  ])('%j is cut off: never run, repaired', (text) => {
    expect(parse(text)).toEqual({ kind: 'invalid', tool: 'take_order', problem: PROBLEM_CUT_OFF });
  });

  it('an envelope cut after its arguments closed is still the call', () => {
    expect(parse('{"tool": "take_order", "args": {"item": "ale"}')).toEqual({
      kind: 'call',
      tool: 'take_order',
      argCandidates: [{ item: 'ale' }],
    });
  });

  it('reads a truncated respond envelope', () => {
    expect(parse('{"reply": "Welcome, trav')).toEqual({ kind: 'respond', reply: 'Welcome, trav' });
  });
});

describe('parseEnvelope: bare words', () => {
  it.each<[string, unknown]>([
    ['check_menu', { kind: 'call', tool: 'check_menu', argCandidates: [] }],
    ['`check_menu()`', { kind: 'call', tool: 'check_menu', argCandidates: [{}] }],
    ['  Check Menu  ', { kind: 'call', tool: 'check_menu', argCandidates: [] }],
    ['respond.', { kind: 'respond' }],
    ['**Reply**', { kind: 'respond' }],
    ['```\nrespond\n```', { kind: 'respond' }],
  ])('%j', (text, expected) => {
    expect(parse(text)).toEqual(expected);
  });

  it.each([
    '',
    '   ',
    'Welcome to the inn, traveller!',
    'dance',
    'check_menu\nplease',
    'x'.repeat(65),
    'check_menu '.repeat(7),
  ])('%j is not an envelope', (text) => {
    expect(parse(text)).toEqual({ kind: 'invalid', problem: PROBLEM_NOT_JSON });
  });

  it('reads a tool name written before its arguments object', () => {
    expect(parse('take_order {"item": "ale"}')).toEqual({
      kind: 'call',
      tool: 'take_order',
      argCandidates: [{ item: 'ale' }],
    });
  });
});

describe('parseEnvelope: wrappers and synonyms', () => {
  it.each([
    '{"tool_call": {"name": "take_order", "arguments": {"item": "ale"}}}',
    '{"functionCall": {"name": "take_order", "args": {"item": "ale"}}}',
    '{"step": {"decision": {"action": "take_order", "input": {"item": "ale"}}}}',
    '{"next_step": {"tool": "take_order", "parameters": {"item": "ale"}}}',
    '{"envelope": {"call": {"function": "take_order", "params": {"item": "ale"}}}}',
    '{"tool_calls": [{"function": {"name": "take_order", "arguments": "{\\"item\\": \\"ale\\"}"}}]}',
    '{"action": {"name": "take_order", "arguments": {"item": "ale"}}}',
    '{"function": {"name": "take_order", "arguments": "{\\"item\\":\\"ale\\"}"}}',
    '{"tool_name": "take_order", "tool_input": {"item": "ale"}}',
    '{"function_name": "take_order", "function_arguments": {"item": "ale"}}',
    '{"next_action": "take_order", "action_input": "{\'item\': \'ale\'}"}',
    '{"command": "take_order", "tool_args": {"item": "ale"}}',
    '{"selected_tool": "take_order", "tool_arguments": {"item": "ale"}}',
    '{"take_order": {"item": "ale"}}',
    '{"take_order": {"item": "ale"}, "reason": "the guest is thirsty"}',
    '[{"action": "take_order", "arguments": {"item": "ale"}}]',
  ])('%j', (text) => {
    expect(parse(text)).toEqual({ kind: 'call', tool: 'take_order', argCandidates: [{ item: 'ale' }] });
  });

  it('does not unwrap more than three levels', () => {
    const four = '{"step": {"step": {"step": {"step": {"action": "check_menu"}}}}}';
    expect(parse(four).kind).toBe('invalid');
    const three = '{"step": {"step": {"step": {"action": "check_menu"}}}}';
    expect(parse(three)).toMatchObject({ kind: 'call', tool: 'check_menu' });
  });

  it('prefers an action key that names a known action', () => {
    expect(parse('{"name": "Bob", "tool": "take_order", "args": {"item": "ale"}}')).toEqual({
      kind: 'call',
      tool: 'take_order',
      argCandidates: [{ item: 'ale' }, { name: 'Bob' }],
    });
  });

  it('orders candidates: nested function arguments, argument key, sibling keys', () => {
    const text =
      '{"function": {"name": "take_order", "arguments": {"item": "stew"}}, "arguments": {"item": "ale"}, "item": "bread", "reasoning": "x", "type": "function"}';
    expect(parse(text)).toEqual({
      kind: 'call',
      tool: 'take_order',
      argCandidates: [{ item: 'stew' }, { item: 'ale' }, { item: 'bread' }],
    });
  });

  it('reads arguments written next to the action, without meta keys', () => {
    expect(parse('{"action": "take_order", "item": "ale", "quantity": 2, "thought": "x", "why": "y"}')).toEqual({
      kind: 'call',
      tool: 'take_order',
      argCandidates: [{ item: 'ale', quantity: 2 }],
    });
  });

  it('treats blank, null and empty-string arguments as {}', () => {
    for (const args of ['""', '"  "', 'null', '{}', '"null"']) {
      expect(parse('{"action": "check_menu", "arguments": ' + args + '}')).toEqual({
        kind: 'call',
        tool: 'check_menu',
        argCandidates: [{}],
      });
    }
  });

  it('rejects arguments that are not an object, naming the tool', () => {
    expect(parse('{"action": "take_order", "arguments": "ale"}')).toEqual({
      kind: 'invalid',
      problem: 'the arguments for take_order must be a JSON object',
      tool: 'take_order',
    });
  });

  it.each([
    'respond',
    'respond_directly',
    'reply',
    'answer',
    'final',
    'final_answer',
    'none',
    'no_tool',
    'talk',
    'say',
    'speak',
    'chat',
    'response',
    'direct_response',
    'respond_to_user',
    'reply_to_user',
    'finish',
    'done',
    'no_action',
    'nothing',
    'direct_reply',
    'reply_directly',
    'answer_directly',
    'respondDirectly',
    'FinalAnswer',
    'Respond.',
  ])('respond word %s', (word) => {
    expect(parse(JSON.stringify({ action: word, arguments: {} }))).toEqual({ kind: 'respond' });
  });

  it('reads single-key respond shapes and keeps their text', () => {
    expect(parse('{"respond": "Welcome!"}')).toEqual({ kind: 'respond', reply: 'Welcome!' });
    expect(parse('{"final_answer": {"line": "Hi"}}')).toEqual({ kind: 'respond', reply: { line: 'Hi' } });
    expect(parse('{"none": null}')).toEqual({ kind: 'respond' });
  });

  it('lets a user tool win over a respond word', () => {
    const ctx = { toolNames: ['say', 'check_menu'], allowRespond: true };
    expect(parseEnvelope('{"action": "say", "arguments": {"words": "hi"}}', ctx)).toEqual({
      kind: 'call',
      tool: 'say',
      argCandidates: [{ words: 'hi' }],
    });
    expect(parseEnvelope('say', ctx)).toEqual({ kind: 'call', tool: 'say', argCandidates: [] });
  });
});

describe('parseEnvelope: problems', () => {
  it('says when replying is not allowed', () => {
    for (const text of ['{"reply": "Hi"}', '{"action": "respond"}', 'respond']) {
      expect(parse(text, toolsOnly)).toEqual({ kind: 'invalid', problem: PROBLEM_REPLY_NOT_ALLOWED });
    }
    expect(PROBLEM_REPLY_NOT_ALLOWED).toBe('"reply" is not allowed now; you must call one of the tools');
  });

  it('names the unknown tool and the options', () => {
    expect(parse('{"action": "dance"}')).toEqual({
      kind: 'invalid',
      problem: 'dance is not an available tool; use one of: check_menu, take_order, or reply',
    });
    expect(parse('{"tool": "dance"}', toolsOnly)).toEqual({
      kind: 'invalid',
      problem: 'dance is not an available tool; use one of: check_menu or take_order',
    });
    expect(parseEnvelope('{"tool": "dance"}', { toolNames: ['wave'], allowRespond: true })).toEqual({
      kind: 'invalid',
      problem: 'dance is not an available tool; use one of: wave or reply',
    });
  });

  it('says when the object names nothing', () => {
    for (const text of ['{}', '{"foo": 1, "bar": 2}', '{"tool": null}', '{"action": ""}', '{"reason": "thinking"}']) {
      expect(parse(text)).toEqual({ kind: 'invalid', problem: PROBLEM_NO_ACTION });
    }
    expect(PROBLEM_NO_ACTION).toBe('the JSON object names no tool and no reply');
  });

  it('clips a very long unknown name', () => {
    const result = parse(JSON.stringify({ tool: 'x'.repeat(500) }));
    expect(result.kind).toBe('invalid');
    if (result.kind === 'invalid') expect(result.problem.length).toBeLessThan(140);
  });

  it.each([
    '',
    '{',
    '}',
    '[]',
    '[1, 2]',
    'null',
    '"respond"',
    '{"a": [{"b": ',
    '\u0000\uffff\ud800',
    '{'.repeat(5000),
    '"'.repeat(3000),
  ])('never throws on %j', (text) => {
    expect(() => parse(text)).not.toThrow();
    expect(['invalid', 'respond', 'call']).toContain(parse(text).kind);
  });

  it('handles huge input', () => {
    const huge = 'prose '.repeat(50000) + '{"tool": "check_menu"}' + ' more'.repeat(50000);
    expect(parse(huge)).toEqual({ kind: 'call', tool: 'check_menu', argCandidates: [] });
  });
});

describe('resolveToolName', () => {
  const tools = ['check_menu', 'take_order', 'getWeather'];
  it.each<[string, string | undefined]>([
    ['check_menu', 'check_menu'],
    ['Check Menu', 'check_menu'],
    ['takeOrder', 'take_order'],
    ['TAKE-ORDER', 'take_order'],
    ['TakeOrder', 'take_order'],
    ['`check_menu()`', 'check_menu'],
    ['"check_menu"', 'check_menu'],
    ['**check_menu**', 'check_menu'],
    ['check_menu.', 'check_menu'],
    ['functions.check_menu', 'check_menu'],
    ['tools.take_order', 'take_order'],
    ['tool: take_order', 'take_order'],
    ['get_weather', 'getWeather'],
    ['GETWEATHER', 'getWeather'],
    ['check menu please', undefined],
    ['', undefined],
    ['()', undefined],
    ['dance', undefined],
  ])('%j → %s', (raw, expected) => {
    expect(resolveToolName(raw, tools)).toBe(expected);
  });

  it('prefers the exact name when two tools normalise alike', () => {
    expect(resolveToolName('take_order', ['takeOrder', 'take_order'])).toBe('take_order');
    expect(resolveToolName('takeOrder', ['takeOrder', 'take_order'])).toBe('takeOrder');
  });
});

describe('argumentCandidates', () => {
  it('offers the object itself first', () => {
    expect(argumentCandidates('{"item": "ale", "quantity": 2}', 'take_order')).toEqual([{ item: 'ale', quantity: 2 }]);
  });

  it('then the arguments of an envelope around them, then argument keys', () => {
    expect(
      argumentCandidates('```json\n{"action": "take_order", "arguments": {"item": "ale"}}\n```', 'take_order'),
    ).toEqual([{ action: 'take_order', arguments: { item: 'ale' } }, { item: 'ale' }]);
    expect(
      argumentCandidates('{"args": {"item": "ale"}, "parameters": "{\\"item\\": \\"stew\\"}"}', 'take_order'),
    ).toEqual([{ args: { item: 'ale' }, parameters: '{"item": "stew"}' }, { item: 'ale' }, { item: 'stew' }]);
  });

  it('reads truncated arguments and returns nothing without JSON', () => {
    expect(argumentCandidates('{"item": "ale", "quantity": 2', 'take_order')).toEqual([{ item: 'ale', quantity: 2 }]);
    expect(argumentCandidates('I would like an ale', 'take_order')).toEqual([]);
    expect(argumentCandidates('', 'take_order')).toEqual([]);
  });
});
