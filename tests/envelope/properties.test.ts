import fc from 'fast-check';
import { extractJson, hasCompleteObject, parseLenient } from '../../src/core/json';
import { InlineReplyReader, isRespondWord, parseEnvelope } from '../../src/core/envelope';

const SEED = 20240611;
const RUNS = 300;
const ctx = { toolNames: ['check_menu', 'take_order'], allowRespond: true };

/** Text made of the characters that matter to the parsers, so odd paths are reached often. */
const jsonish = fc.string({
  unit: fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    '"',
    "'",
    '`',
    ':',
    '=',
    ',',
    '\\',
    'u',
    'd',
    '8',
    '0',
    'a',
    'e',
    ' ',
    '\n',
    '/',
    '*',
    '|',
    '+',
    '-',
    '1',
    '.',
    'tool',
    'reply',
    'action',
    'respond',
    'take_order',
    'null',
    'true',
    '```',
  ),
  maxLength: 80,
});
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 120 }), jsonish);

function exerciseEverything(text: string): void {
  parseLenient(text);
  parseLenient(text, { partial: true });
  extractJson(text);
  hasCompleteObject(text);
  parseEnvelope(text, ctx);
  parseEnvelope(text, { toolNames: [], allowRespond: false });
}

const identifier = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/).filter((name) => !isRespondWord(name));
const toolNamesArb = fc.uniqueArray(identifier, { minLength: 1, maxLength: 4 });
const argsArb = fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
const replyArb = fc.string({ unit: 'binary', maxLength: 60 });

describe('never throws, never hangs', () => {
  it('on arbitrary text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        exerciseEverything(text);
        const reader = new InlineReplyReader(['take_order']);
        for (let index = 1; index <= text.length; index += 3) reader.push(text.slice(0, index));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('on every truncation of valid JSON, which partial mode always reads', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 3 }), (json) => {
        const full = parseLenient(json);
        expect(full.ok).toBe(true);
        if (full.ok) expect(full.value).toEqual(JSON.parse(json));
        for (let index = 0; index <= json.length; index++) {
          const prefix = json.slice(0, index);
          exerciseEverything(prefix);
          if (index > 0 && (json[0] === '{' || json[0] === '['))
            expect(parseLenient(prefix, { partial: true }).ok).toBe(true);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('on every truncation of an envelope', () => {
    fc.assert(
      fc.property(
        fc.record({ names: toolNamesArb, args: argsArb, reply: replyArb, asCall: fc.boolean() }),
        ({ names, args, reply, asCall }) => {
          const text = asCall ? JSON.stringify({ tool: names[0], args }) : JSON.stringify({ reply });
          const reader = new InlineReplyReader(names);
          for (let index = 0; index <= text.length; index++) {
            const prefix = text.slice(0, index);
            parseEnvelope(prefix, { toolNames: names, allowRespond: true });
            reader.push(prefix);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('valid envelopes round-trip', () => {
  it('tool calls in the short and the seed form', () => {
    fc.assert(
      fc.property(toolNamesArb, argsArb, fc.nat(), (names, args, pick) => {
        const tool = names[pick % names.length];
        for (const text of [
          JSON.stringify({ tool, args }),
          JSON.stringify({ action: tool, arguments: args }, null, 2),
        ]) {
          const parsed = parseEnvelope(text, { toolNames: names, allowRespond: pick % 2 === 0 });
          expect(parsed.kind).toBe('call');
          if (parsed.kind === 'call') {
            expect(parsed.tool).toBe(tool);
            expect(parsed.argCandidates[0]).toEqual(args);
          }
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('replies in the short and the seed form', () => {
    fc.assert(
      fc.property(toolNamesArb, replyArb, (names, reply) => {
        const forms = [JSON.stringify({ reply }), JSON.stringify({ action: 'respond', arguments: { text: reply } })];
        for (const text of forms) {
          expect(parseEnvelope(text, { toolNames: names, allowRespond: true })).toEqual({ kind: 'respond', reply });
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('an envelope cut just before its final "}" (a max-token cut) reads the same', () => {
    const objectArgsArb = fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), {
      minKeys: 1,
      maxKeys: 5,
    });
    fc.assert(
      fc.property(
        fc.record({ names: toolNamesArb, args: objectArgsArb, reply: replyArb, pick: fc.nat() }),
        ({ names, args, reply, pick }) => {
          const tool = names[pick % names.length];
          const ctx = { toolNames: names, allowRespond: true };
          const cut = (value: unknown, indent?: number) => JSON.stringify(value, null, indent).replace(/\s*\}$/, '');
          for (const text of [cut({ tool, args }), cut({ action: tool, arguments: args }, 2)]) {
            const parsed = parseEnvelope(text, ctx);
            expect(parsed.kind).toBe('call');
            if (parsed.kind === 'call') {
              expect(parsed.tool).toBe(tool);
              expect(parsed.argCandidates[0]).toEqual(args);
            }
          }
          for (const text of [cut({ reply }), cut({ action: 'respond', arguments: { text: reply } })]) {
            const parsed = parseEnvelope(text, ctx);
            expect(parsed).toEqual({ kind: 'respond', reply });
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a streamed reply reads on every prefix what a fresh reader reads', () => {
    fc.assert(
      fc.property(
        replyArb,
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 10 }),
        fc.nat(2),
        (reply, sizes, form) => {
          const envelope = [{ reply }, { action: 'respond', arguments: { text: reply } }, { say: reply, mood: reply }][
            form
          ];
          const text = JSON.stringify(envelope);
          const reader = new InlineReplyReader(['take_order']);
          let at = 0;
          let step = 0;
          while (at < text.length) {
            at = Math.min(text.length, at + sizes[step++ % sizes.length]);
            const prefix = text.slice(0, at);
            expect(reader.push(prefix)).toEqual(new InlineReplyReader(['take_order']).push(prefix));
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('streamed replies grow monotonically to the final text', () => {
    fc.assert(
      fc.property(
        replyArb,
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 20 }),
        fc.boolean(),
        (reply, sizes, seedForm) => {
          const text = seedForm
            ? JSON.stringify({ action: 'respond', arguments: { text: reply } })
            : JSON.stringify({ reply });
          const reader = new InlineReplyReader(['take_order']);
          let shown = '';
          let at = 0;
          let step = 0;
          while (at < text.length) {
            at = Math.min(text.length, at + sizes[step++ % sizes.length]);
            const state = reader.push(text.slice(0, at));
            expect(state.kind === 'unknown' || state.kind === 'reply-text').toBe(true);
            if (state.kind === 'reply-text') {
              expect(state.text.startsWith(shown)).toBe(true);
              shown = state.text;
            }
          }
          // A reply ending in a lone high surrogate keeps it held back; everything else arrives.
          const last = reply.charCodeAt(reply.length - 1);
          const expected = last >= 0xd800 && last <= 0xdbff ? reply.slice(0, -1) : reply;
          expect(shown).toBe(expected);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
