/**
 * The scripted evening for editor and browser previews: keyword rules that answer like Mira
 * (and the gate guard) would, through the same tool calls a real model makes. It configures
 * OamRuntime's stand-in model before any NPC loads. On an Android build Gemini Nano answers
 * instead and these rules are not used.
 *
 * To preview with a real model, add OamRuntimeSettings with a server URL: it runs after this
 * component and merges its URL into this configuration, so the server answers and these rules
 * stay configured but unused (native builds ignore the URL).
 */
import { _decorator, Component, CCInteger } from 'cc';
import { OamRuntime } from 'db://oam-cocos/index';
import type { OamRuntimeConfig } from 'db://oam-cocos/index';

const { ccclass, property, menu, executionOrder, disallowMultiple } = _decorator;

/** The stand-in model's options (KeywordModelOptions of the runtime). */
export type StandInRules = NonNullable<OamRuntimeConfig['standIn']>;
type Rule = StandInRules['rules'][number];
type ReplyContext = { toolResults: Array<{ tool: string; output: string }>; prompt: string };

/** The JSON output of a tool this turn; `{ error }` when the game failed it. */
function toolOutput(ctx: ReplyContext, tool: string): Record<string, unknown> | undefined {
  const result = ctx.toolResults.find((t) => t.tool === tool);
  if (!result) return undefined;
  try {
    const value = JSON.parse(result.output);
    return value && typeof value === 'object' ? value : { error: result.output };
  } catch (e) {
    return { error: result.output };
  }
}

/**
 * The guard's choices. A decision prompt starts with "Situation: …", never a player's line, so
 * these rules only ever answer the DecisionComponent.
 */
const GUARD_RULES: Rule[] = [
  {
    when: /^Situation:[^\n]*\b(sword|blade|axe|weapon)/im,
    reply: { line: '', json: { choice: 'alarm', reason: 'A drawn blade at Mira\'s door means trouble.', confidence: 90 } },
  },
  {
    when: /^Situation:[^\n]*\b(stagger|drunk|sing|singing|shout)/im,
    reply: { line: '', json: { choice: 'warn', reason: 'Noisy, not dangerous: one warning will do.', confidence: 75 } },
  },
  {
    when: /^Situation:/m,
    reply: { line: '', json: { choice: 'let_in', reason: 'Calm and polite; Mira wants customers.', confidence: 80 } },
  },
];

/** Mira's evening: the same rules as the repository's `npm run demo`. */
const MIRA_RULES: Rule[] = [
  {
    when: /warm|menu|eat|food|hungry/i,
    tools: [{ name: 'check_menu' }],
    reply: (ctx) => {
      const menu = toolOutput(ctx, 'check_menu');
      if (!menu || 'error' in menu) return { emotion: 'happy', line: 'The stew is warm and the ale is cold, love.' };
      return { emotion: 'happy', line: `Lamb stew's bubbling, ${menu.stew} gold a bowl. Ale's ${menu.ale} gold, cider ${menu.cider}.` };
    },
  },
  {
    when: /\b(two|2)\b.*\bales?\b|\bales?\b.*please/i,
    tools: [{ name: 'take_order', args: { item: 'ale', quantity: 2 } }],
    reply: (ctx) => {
      const order = toolOutput(ctx, 'take_order');
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
];

/** The rules for the tavern's stand-in model; `chunkDelayMs` paces the streamed text. */
export function tavernStandIn(chunkDelayMs = 25): StandInRules {
  return {
    chunkDelayMs,
    rules: GUARD_RULES.concat(MIRA_RULES),
    otherwise: { emotion: 'curious', line: "Hm? Speak up, love, it's loud in here." },
    barks: ['Fresh stew, still bubbling!', 'Mind the puddle by the door.', 'Who wants another round?'],
  };
}

@ccclass('tavern.ScriptedEvening')
@menu('tavern/ScriptedEvening')
@executionOrder(-200)
@disallowMultiple
export class ScriptedEvening extends Component {
  @property({ type: CCInteger, tooltip: 'Delay between streamed chunks in previews (ms); 0 = instant.' })
  chunkDelayMs = 25;

  onLoad(): void {
    // Runs before every NPC, decision and NanoStatus (executionOrder -200), so they all share it.
    OamRuntime.configure({ standIn: tavernStandIn(this.chunkDelayMs) });
  }
}
