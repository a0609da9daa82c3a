import { Agent } from '../../src/core/agent/agent';
import { AgentTool } from '../../src/core/tools';
import { JsonSchema } from '../../src/core/schema';
import { ScriptedLanguageModel, Script } from '../../src/scripted/scripted-model';

test('smoke: one tool then inline reply', async () => {
  const menu = AgentTool.local({ name: 'check_menu', description: 'Lists the menu.' }, () => ({ ale: 3, stew: 5 }));
  const order = AgentTool.local(
    {
      name: 'take_order',
      description: 'Serves an item.',
      parameters: JsonSchema.obj({
        item: JsonSchema.enumOf(['ale', 'stew']),
        quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }),
      }),
    },
    (args: { item: string; quantity: number }) => `Served ${args.quantity} ${args.item}.`,
  );
  const model = new ScriptedLanguageModel([
    Script.call('take_order', { item: 'Ale', quantity: '2' }),
    Script.reply('Here are your two ales!'),
  ]);
  const agent = new Agent(model, { instructions: 'You are Mira, an innkeeper.', tools: [menu, order] });
  const run = agent.run('Two ales please');
  const texts: string[] = [];
  run.on('text', (event) => texts.push(event.delta));
  const response = await run.response();
  expect(model.calls).toBe(2);
  expect(response.text).toBe('Here are your two ales!');
  expect(texts.join('')).toBe(response.text);
});
