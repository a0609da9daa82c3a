import { InlineReplyReader, InlineReplyState, parseEnvelope } from '../../src/core/envelope';

/** Splits text into chunks of 1..5 characters, deterministically from a seed. */
function chunked(text: string, seed: number): string[] {
  const prefixes: string[] = [];
  let state = seed;
  let cut = 0;
  while (cut < text.length) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    cut = Math.min(text.length, cut + 1 + (state % 5));
    prefixes.push(text.slice(0, cut));
  }
  return prefixes;
}

/** Feeds a stream and checks that reply text only ever grows; returns every state seen. */
function stream(text: string, seed = 1, toolNames: string[] = []): InlineReplyState[] {
  const reader = new InlineReplyReader(toolNames);
  const states: InlineReplyState[] = [];
  let previous = '';
  for (const prefix of chunked(text, seed)) {
    const state = reader.push(prefix);
    if (state.kind === 'reply-text') {
      expect(state.text.startsWith(previous)).toBe(true);
      previous = state.text;
      const last = state.text.charCodeAt(state.text.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
    states.push(state);
  }
  return states;
}

const lastOf = (states: InlineReplyState[]) => states[states.length - 1];

describe('InlineReplyReader', () => {
  const replies = [
    'Welcome, traveller!',
    'Line one\nline two',
    'He said "hi" and left',
    'Café crème, naïve',
    'Grinning 😀 and 👍🏽',
    'Tab\there, backslash \\ and slash /',
    '',
  ];

  it.each(replies)('streams the short form reply %j', (reply) => {
    const text = JSON.stringify({ reply });
    for (const seed of [1, 2, 3, 4, 5]) {
      const states = stream(text, seed);
      expect(lastOf(states)).toEqual({ kind: 'reply-text', text: reply });
      const final = parseEnvelope(text, { toolNames: [], allowRespond: true });
      expect(final).toEqual({ kind: 'respond', reply });
    }
  });

  it('decodes escapes written by the model (\\n, \\", \\u00e9, surrogate pairs)', () => {
    const text = '{"reply": "Say \\"hi\\"\\nto caf\\u00e9 \\ud83d\\ude00!"}';
    for (const seed of [1, 7, 11, 13]) {
      const states = stream(text, seed);
      expect(lastOf(states)).toEqual({ kind: 'reply-text', text: 'Say "hi"\nto café 😀!' });
    }
  });

  it('streams the seed form with inline text', () => {
    const text = '{"action": "respond", "arguments": {"text": "Hello there, friend."}}';
    const states = stream(text, 3);
    expect(lastOf(states)).toEqual({ kind: 'reply-text', text: 'Hello there, friend.' });
    const firstText = states.findIndex((state) => state.kind === 'reply-text');
    // Recognised as soon as the text value opens, long before the object closes.
    expect(firstText).toBeGreaterThan(0);
    expect(firstText).toBeLessThan(states.length - 5);
  });

  it('recognises the reply as soon as its string opens', () => {
    const reader = new InlineReplyReader();
    expect(reader.push('{"rep')).toEqual({ kind: 'unknown' });
    expect(reader.push('{"reply"')).toEqual({ kind: 'unknown' });
    expect(reader.push('{"reply": "')).toEqual({ kind: 'reply-text', text: '' });
    expect(reader.push('{"reply": "W')).toEqual({ kind: 'reply-text', text: 'W' });
  });

  it('holds back partial escapes and half surrogate pairs', () => {
    const reader = new InlineReplyReader();
    expect(reader.push('{"reply": "a\\')).toEqual({ kind: 'reply-text', text: 'a' });
    expect(reader.push('{"reply": "a\\u00')).toEqual({ kind: 'reply-text', text: 'a' });
    expect(reader.push('{"reply": "a\\u00e9')).toEqual({ kind: 'reply-text', text: 'aé' });
    expect(reader.push('{"reply": "a\\u00e9\\ud83d')).toEqual({ kind: 'reply-text', text: 'aé' });
    expect(reader.push('{"reply": "a\\u00e9\\ud83d\\ude0')).toEqual({ kind: 'reply-text', text: 'aé' });
    expect(reader.push('{"reply": "a\\u00e9\\ud83d\\ude00')).toEqual({ kind: 'reply-text', text: 'aé😀' });
  });

  it('does not shorten the text when a quote turns out to close the string', () => {
    const reader = new InlineReplyReader();
    expect(reader.push('{"reply": "Say "')).toEqual({ kind: 'reply-text', text: 'Say ' });
    expect(reader.push('{"reply": "Say "h')).toEqual({ kind: 'reply-text', text: 'Say "h' });
    expect(reader.push('{"reply": "Say "hi"}')).toEqual({ kind: 'reply-text', text: 'Say "hi' });
  });

  it('returns the partial object for a structured reply', () => {
    const text = '{"reply": {"emotion": "happy", "line": "Welcome!"}}';
    const states = stream(text, 2);
    expect(lastOf(states)).toEqual({ kind: 'reply-object', value: { emotion: 'happy', line: 'Welcome!' } });
    const reader = new InlineReplyReader();
    expect(reader.push('{"reply": {"emotion": "hap')).toEqual({ kind: 'reply-object', value: { emotion: 'hap' } });
  });

  it('returns the arguments object for a structured seed-form reply', () => {
    const text = '{"action": "respond", "arguments": {"emotion": "calm", "line": "Hm."}}';
    expect(lastOf(stream(text, 4))).toEqual({ kind: 'reply-object', value: { emotion: 'calm', line: 'Hm.' } });
  });

  it('says "call" once a tool is named, and stays there', () => {
    for (const text of [
      '{"tool": "take_order", "args": {"item": "ale"}}',
      '{"action": "take_order", "arguments": {"text": "ale"}}',
    ]) {
      const states = stream(text, 5);
      expect(lastOf(states)).toEqual({ kind: 'call' });
      expect(states.some((state) => state.kind === 'reply-text' || state.kind === 'reply-object')).toBe(false);
      const firstCall = states.findIndex((state) => state.kind === 'call');
      expect(states.slice(firstCall).every((state) => state.kind === 'call')).toBe(true);
    }
  });

  it('waits until the action name is complete before deciding', () => {
    const reader = new InlineReplyReader();
    expect(reader.push('{"action": "res')).toEqual({ kind: 'unknown' });
    expect(reader.push('{"action": "respond", "arguments": {')).toEqual({ kind: 'unknown' });
    expect(reader.push('{"action": "respond", "arguments": {"text": "Hi')).toEqual({ kind: 'reply-text', text: 'Hi' });
  });

  it('stays unknown for respond without inline text', () => {
    const states = stream('{"action": "respond", "arguments": {}}', 1);
    expect(states.every((state) => state.kind === 'unknown')).toBe(true);
  });

  it('treats a reply key that is a registered tool as not a reply', () => {
    const states = stream('{"say": {"words": "hi"}}', 1, ['say']);
    expect(states.some((state) => state.kind === 'reply-text' || state.kind === 'reply-object')).toBe(false);
  });

  it('skips prose and fences before the object', () => {
    const states = stream('Sure!\n```json\n{"reply": "Hi!"}\n```', 2);
    expect(lastOf(states)).toEqual({ kind: 'reply-text', text: 'Hi!' });
  });

  it('ignores garbage and repeated pushes', () => {
    const reader = new InlineReplyReader();
    expect(reader.push('')).toEqual({ kind: 'unknown' });
    expect(reader.push('no json at all')).toEqual({ kind: 'unknown' });
    expect(reader.push('no json at all {]')).toEqual({ kind: 'unknown' });
    const r2 = new InlineReplyReader();
    r2.push('{"reply": "ab');
    expect(r2.push('{"reply": "ab')).toEqual({ kind: 'reply-text', text: 'ab' });
    // A later text that is not an extension is ignored rather than shortening the reply.
    expect(r2.push('{"reply": "xy')).toEqual({ kind: 'reply-text', text: 'ab' });
  });
});

describe('InlineReplyReader reading only the new characters of an open reply', () => {
  it('extends the text across escapes, quotes and surrogates split between chunks', () => {
    const reply = 'A "quoted" word, a \\ backslash, tabs\t, café \u00e9 and 😀 — done';
    for (const text of [JSON.stringify({ reply }), JSON.stringify({ action: 'respond', arguments: { text: reply } })]) {
      for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
        const states = stream(text, seed);
        expect(lastOf(states)).toEqual({ kind: 'reply-text', text: reply });
      }
    }
  });

  it('does not mistake another open string that reads the same for the reply', () => {
    const reader = new InlineReplyReader();
    expect(reader.push('{"reply": "ha", "mood": "ha')).toEqual({ kind: 'reply-text', text: 'ha' });
    expect(reader.push('{"reply": "ha", "mood": "happy')).toEqual({ kind: 'reply-text', text: 'ha' });
    expect(reader.push('{"reply": "ha", "mood": "happy"}')).toEqual({ kind: 'reply-text', text: 'ha' });
  });

  it('reads what follows the reply once its string closes', () => {
    const reader = new InlineReplyReader(['take_order']);
    expect(reader.push('{"reply": "Hel')).toEqual({ kind: 'reply-text', text: 'Hel' });
    expect(reader.push('{"reply": "Hello"')).toEqual({ kind: 'reply-text', text: 'Hello' });
    expect(reader.push('{"reply": "Hello", "tool": "take_order"}')).toEqual({ kind: 'reply-text', text: 'Hello' });
    expect(reader.push('{"reply": "Hello"} and more')).toEqual({ kind: 'reply-text', text: 'Hello' });
  });

  it('keeps an unescaped quote that turns out to be text', () => {
    const reader = new InlineReplyReader();
    expect(reader.push('{"reply": "Say ')).toEqual({ kind: 'reply-text', text: 'Say ' });
    expect(reader.push('{"reply": "Say " ')).toEqual({ kind: 'reply-text', text: 'Say ' });
    expect(reader.push('{"reply": "Say " hi')).toEqual({ kind: 'reply-text', text: 'Say " hi' });
    expect(reader.push('{"reply": "Say " hi\\\'')).toEqual({ kind: 'reply-text', text: 'Say " hi\'' });
  });

  it('reads single-quoted replies', () => {
    expect(lastOf(stream("{'reply': 'It\\'s \"fine\" here'}", 3))).toEqual({
      kind: 'reply-text',
      text: 'It\'s "fine" here',
    });
  });

  it('starts over from a full read when the text does not extend the last one', () => {
    const reader = new InlineReplyReader();
    reader.push('{"reply": "abc');
    expect(reader.push('{"reply": "abX')).toEqual({ kind: 'reply-text', text: 'abc' });
    expect(reader.push('{"reply": "abcd')).toEqual({ kind: 'reply-text', text: 'abcd' });
  });

  it('waits for an unquoted action word to end before calling it a tool call', () => {
    const reader = new InlineReplyReader();
    expect(reader.push('{action: respo')).toEqual({ kind: 'unknown' });
    expect(reader.push('{action: respond, text: "Hi')).toEqual({ kind: 'reply-text', text: 'Hi' });
  });

  it('answers on every prefix exactly what a fresh reader would (valid envelopes)', () => {
    const replies = [
      '',
      'Hi',
      'Say "hi"\n\tthen \\ leave',
      'Grinning 😀 👍🏽 é',
      'a'.repeat(300) + '"b"' + 'c'.repeat(50),
    ];
    for (const reply of replies) {
      const texts = [
        JSON.stringify({ reply }),
        JSON.stringify({ action: 'respond', arguments: { text: reply } }, null, 2),
        JSON.stringify({ reply, mood: reply }),
        JSON.stringify({ respond: reply }),
        '```json\n' + JSON.stringify({ reply: { line: reply } }) + '\n```',
      ];
      for (const text of texts) {
        for (const seed of [1, 2, 3]) {
          const reader = new InlineReplyReader(['take_order']);
          for (const prefix of chunked(text, seed)) {
            expect([prefix, reader.push(prefix)]).toEqual([prefix, new InlineReplyReader(['take_order']).push(prefix)]);
          }
        }
      }
    }
  });
});
