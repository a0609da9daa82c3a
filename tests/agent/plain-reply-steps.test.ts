/**
 * Steps whose text the player reads never show raw JSON or half a character: a plain reply
 * step (toolChoice 'none' with tools, the seed-compatible reply step, the reply after a
 * rejected call) unwraps an envelope-shaped answer while it streams and at the end, and holds
 * back half a surrogate pair until the other half arrives.
 */
import { Agent, AgentTool } from '../../src';
import { Script, ScriptedLanguageModel, type ScriptStep } from '../../src/testing';

const menu = AgentTool.local({ name: 'check_menu', description: 'Lists the menu.' }, () => ({ ale: 3 }));

async function reply(steps: ScriptStep[], options: { inlineReplies?: boolean; toolChoice?: 'none' } = {}) {
  const model = new ScriptedLanguageModel(steps);
  const agent = new Agent(model, { tools: [menu], config: { inlineReplies: options.inlineReplies ?? true } });
  const run = agent.run('What does ale cost?', { toolChoice: options.toolChoice });
  const deltas: string[] = [];
  run.on('text', (event) => deltas.push(event.delta));
  const response = await run.response();
  return { response, deltas, model };
}

describe('a plain reply step unwraps an envelope-shaped answer', () => {
  test.each([
    ['{"reply":"Ale is 3."}', 'Ale is 3.'],
    ['```json\n{"reply": "Ale is 3."}\n```', 'Ale is 3.'],
    ['  {"reply": {"emotion": "happy", "line": "Ale is 3."}}', 'Ale is 3.'],
    ['{"action": "respond", "arguments": {"text": "Ale is 3."}}', 'Ale is 3.'],
    ['Ale is 3.', 'Ale is 3.'],
    ['Assistant: "Ale is 3."', 'Ale is 3.'],
  ])('toolChoice none with tools: %j → %j, in the deltas as in the reply', async (answer, line) => {
    const { response, deltas, model } = await reply([Script.text(answer, 6)], { toolChoice: 'none' });
    expect(response.text).toBe(line);
    expect(deltas.join('')).toBe(line);
    expect(model.requests.map((request) => request.kind)).toEqual(['respond']);
  });

  test('the seed-compatible reply step after a tool', async () => {
    const steps = [Script.call('check_menu'), Script.action('respond'), Script.text('{"reply":"Ale is 3 gold."}', 5)];
    const { response, deltas, model } = await reply(steps, { inlineReplies: false });
    expect(model.requests.map((request) => request.kind)).toEqual(['decide', 'decide', 'respond']);
    expect(response.text).toBe('Ale is 3 gold.');
    expect(deltas.join('')).toBe('Ale is 3 gold.');
  });

  test('a JSON answer that is not an envelope stays as written', async () => {
    const { response } = await reply([Script.text('{"ale": 3}')], { toolChoice: 'none' });
    expect(response.text).toBe('{"ale": 3}');
  });
});

describe('half a surrogate pair never reaches a text delta', () => {
  test('an emoji split across chunks arrives whole', async () => {
    const line = 'Cheers 🍺 and 🎉!';
    const chunks = line.length; // one UTF-16 unit per chunk: every emoji is split
    const { response, deltas } = await reply([Script.text(line, chunks)], { toolChoice: 'none' });
    expect(response.text).toBe(line);
    expect(deltas.join('')).toBe(line);
    for (const delta of deltas) {
      const first = delta.charCodeAt(0);
      const last = delta.charCodeAt(delta.length - 1);
      expect(first >= 0xdc00 && first <= 0xdfff).toBe(false);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
  });
});
