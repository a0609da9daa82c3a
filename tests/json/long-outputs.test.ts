/**
 * Long, hostile outputs read correctly (their time is in `npm run bench`, "long outputs"): a
 * tool name padded with 20,000 spaces is no tool, a reply of 20,000 blank lines keeps its
 * words, an echoed `[tool {…} → …]` record is still removed from the end of a reply.
 */
import { parseEnvelope } from '../../src/core/envelope';
import { cleanReplyText } from '../../src/core/prompt/reply-text';
import { trimEnd } from '../../src/core/prompt/text-cleanup';

const LABELS = ['User', 'Assistant'];

test('a tool name with 20,000 spaces inside is not a call to that tool', () => {
  const env = parseEnvelope(`{"tool": "take${' '.repeat(20_000)}order", "args": {}}`, {
    toolNames: ['take_order'],
    allowRespond: true,
  });
  expect(env.kind).toBe('invalid');
});

test('a name padded at both ends is still found', () => {
  const env = parseEnvelope(`{"tool": "  \`take_order\`  ", "args": {}}`, {
    toolNames: ['take_order'],
    allowRespond: true,
  });
  expect(env).toMatchObject({ kind: 'call', tool: 'take_order' });
});

test('20,000 blank lines inside a reply: the words stay, the tail is trimmed', () => {
  const reply = `Hello${'\n'.repeat(20_000)}there${'\n'.repeat(20_000)}`;
  const cleaned = cleanReplyText({ raw: reply, labels: LABELS, final: true });
  expect(cleaned.startsWith('Hello')).toBe(true);
  expect(cleaned.endsWith('there')).toBe(true);
  expect(trimEnd(`a \n\t `)).toBe('a');
  expect(trimEnd('')).toBe('');
});

test.each([
  ['Ale is 3. [check_menu {} → {"ale":3}]', 'Ale is 3.'],
  ['Ale is 3.  [check_menu {"x": 1} → ok]  \n', 'Ale is 3.'],
  ['See [note] and [check_menu {} → ok]', 'See [note] and'],
  ['A [b [check_menu {} → ok]', 'A [b'],
  ['Just [brackets].', 'Just [brackets].'],
])('an echoed tool record is removed from the end: %j', (raw, line) => {
  expect(cleanReplyText({ raw, labels: LABELS, final: true })).toBe(line);
});
