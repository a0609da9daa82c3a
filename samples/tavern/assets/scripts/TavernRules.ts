/**
 * The tavern's keyword rules for the stand-in model: Mira's evening and the gate guard's
 * choices. One source for the sample's previews (ScriptedEvening) and the repository's
 * `npm run demo`, so both answer alike. No imports, so both can load it: the types below are the
 * shape of the runtime's KeywordModelOptions.
 */

export interface TavernReply {
  emotion?: string;
  line: string;
  end?: boolean;
  /** For a decision: the structured answer. */
  json?: unknown;
}

export interface TavernReplyContext {
  toolResults: Array<{ tool: string; output: string }>;
  prompt: string;
}

export interface TavernRule {
  when: RegExp;
  /** Words one of the turn's pictures must be labelled with (a badge the player holds up). */
  image?: string[];
  tools?: Array<{ name: string; args?: Record<string, unknown> }>;
  reply: TavernReply | ((ctx: TavernReplyContext) => TavernReply);
}

/** The JSON output of a tool this turn; `{ error }` when the game failed it. */
function toolOutput(ctx: TavernReplyContext, tool: string): Record<string, unknown> | undefined {
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
 * What Mira says about the menu the game returned, whatever it holds: a price is named only
 * when the menu has it as a number, so a hand-played `{"soup":2,"ale":3}` never reads
 * "undefined gold a bowl".
 */
function menuLine(menu: Record<string, unknown>): string {
  const price = (item: string) => (typeof menu[item] === 'number' ? (menu[item] as number) : undefined);
  const stew = price('stew');
  if (stew !== undefined && price('ale') !== undefined) {
    const cider = price('cider') !== undefined ? `, cider ${price('cider')}` : '';
    return `Lamb stew's bubbling, ${stew} gold a bowl. Ale's ${price('ale')} gold${cider}.`;
  }
  const priced = Object.keys(menu).filter((item) => price(item) !== undefined).map((item) => `${item} ${price(item)} gold`);
  if (priced.length === 0) return "Nothing's priced tonight, love. Ask me what you fancy.";
  return `Tonight there's ${priced.join(', ')}.`;
}

/**
 * The guard's choices. A decision prompt starts with "Situation: …", never a player's line, so
 * these rules only ever answer a DecisionComponent.
 */
export const GUARD_RULES: TavernRule[] = [
  {
    when: /^Situation:[^\n]*\b(sword|blade|axe|weapon)/im,
    reply: { line: '', json: { choice: 'alarm', reason: 'A drawn blade at Mira\'s door means trouble.', confidence: 90 } },
  },
  {
    when: /^Situation:/m,
    // A guild badge (the picture the player shows) outweighs the noise, never a drawn blade.
    image: ['badge'],
    reply: { line: '', json: { choice: 'let_in', reason: 'The badge checks out: a member of the guild.', confidence: 85 } },
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

/** Mira's evening. */
export const MIRA_RULES: TavernRule[] = [
  {
    when: /warm|menu|eat|food|hungry/i,
    tools: [{ name: 'check_menu' }],
    reply: (ctx) => {
      const menu = toolOutput(ctx, 'check_menu');
      if (!menu || 'error' in menu) return { emotion: 'happy', line: 'The stew is warm and the ale is cold, love.' };
      return { emotion: 'happy', line: menuLine(menu) };
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

/** The whole stand-in configuration, without its pacing. */
export const TAVERN_STAND_IN = {
  rules: GUARD_RULES.concat(MIRA_RULES),
  otherwise: { emotion: 'curious', line: "Hm? Speak up, love, it's loud in here." } as TavernReply,
  barks: ['Fresh stew, still bubbling!', 'Mind the puddle by the door.', 'Who wants another round?'],
};
