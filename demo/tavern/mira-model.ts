/**
 * The built-in stand-in for Gemini Nano in the demo and previews: keyword rules that answer
 * like Mira would, through the same tool calls and envelopes a real model uses.
 */
import { KeywordModel, type KeywordContext } from '../../src';

function parsed(ctx: KeywordContext, tool: string): Record<string, unknown> | undefined {
  const r = ctx.toolResults.find((t) => t.tool === tool);
  if (!r) return undefined;
  try { return JSON.parse(r.output); } catch { return { error: r.output }; }
}

export function createMiraModel(options: { chunkDelayMs?: number } = {}): KeywordModel {
  return new KeywordModel({
    chunkDelayMs: options.chunkDelayMs,
    rules: [
      {
        when: /warm|menu|eat|food|hungry/i,
        tools: [{ name: 'check_menu' }],
        reply: (ctx) => {
          const menu = parsed(ctx, 'check_menu') as Record<string, number> | undefined;
          if (!menu) return { emotion: 'happy', line: 'The stew is warm and the ale is cold, love.' };
          return { emotion: 'happy', line: `Lamb stew's bubbling, ${menu.stew} gold a bowl. Ale's ${menu.ale} gold, cider ${menu.cider}.` };
        },
      },
      {
        when: /\b(two|2)\b.*\bales?\b|\bales?\b.*please/i,
        tools: [{ name: 'take_order', args: { item: 'ale', quantity: 2 } }],
        reply: (ctx) => {
          const order = parsed(ctx, 'take_order');
          if (!order || 'error' in order) return { emotion: 'worried', line: "Your purse is a bit light for that, I'm afraid." };
          return { emotion: 'happy', line: `Two ales, coming right up. That's ${order.cost} gold, you've ${order.goldLeft} left.` };
        },
      },
      {
        when: /business|busy|how are you|how's/i,
        reply: { emotion: 'amused', line: "Busy as a beehive, and twice as loud. Can't complain!" },
      },
      {
        when: /thank|fine ale|kind|lovely/i,
        tools: [{ name: 'change_relationship', args: { reason: 'the player was kind', delta: 10 } }],
        reply: { emotion: 'grateful', line: "Aren't you a sweetheart. You're welcome here any night." },
      },
      {
        when: /rumou?r|gossip|news|heard/i,
        reply: (ctx) => /trust the player enough to share your secret/.test(ctx.prompt)
          ? { emotion: 'suspicious', line: "Between us? I saw the mayor's men hide a chest of silver in the old mill." }
          : { emotion: 'neutral', line: "Only that the north road's flooded. Ask me again when I know you better." },
      },
      {
        when: /bye|goodnight|good night|farewell/i,
        reply: { emotion: 'happy', line: 'Goodnight, traveller. Mind the step on your way out!', end: true },
      },
    ],
    otherwise: { emotion: 'curious', line: "Hm? Speak up, love, it's loud in here." },
    barks: ['Fresh stew, still bubbling!', 'Mind the puddle by the door.', 'Who wants another round?'],
  });
}
