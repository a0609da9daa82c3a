/**
 * Mira's tavern as game code: the starting world and the two tools (check_menu reads the menu;
 * take_order serves drinks and takes the player's gold from the world state). Shared by the
 * demo, the preview page and the benchmark; the Cocos sample has the same tools as components.
 */
import { AgentTool, JsonSchema, ToolOutput, WorldState, type ProfileToolHandler } from '../../src';

export const TAVERN_WORLD = {
  player: { name: 'Traveller', gold: 20, inventory: [] as string[] },
  tavern: {
    name: 'The Crooked Lantern',
    menu: { ale: 3, stew: 5, bread: 1, cider: 4 },
  },
  time: 'evening',
};

export type MenuItem = keyof typeof TAVERN_WORLD.tavern.menu;
export const MENU_ITEMS = Object.keys(TAVERN_WORLD.tavern.menu) as MenuItem[];

export function createTavernWorld(): WorldState {
  return new WorldState(JSON.parse(JSON.stringify(TAVERN_WORLD)));
}

export function tavernTools(world: WorldState, options: { orderIsSideEffect?: boolean } = {}): AgentTool[] {
  const checkMenu = AgentTool.local(
    // The menu is known in advance: a line-first turn reads it in its prompt instead of a call.
    {
      name: 'check_menu',
      description: "Lists tonight's food and drink with prices in gold.",
      snapshot: () => world.get('tavern.menu'),
    },
    () => world.get('tavern.menu'),
  );
  const takeOrder = AgentTool.local(
    {
      name: 'take_order',
      // Short on purpose: a listed tool's words are prefilled on every turn (docs/performance.md).
      description: "Serves food or drink and takes the player's gold.",
      // Mira's lines report what the order cost and what is left, so by default the line waits
      // for the result. A game whose line does not need it declares the order a side effect:
      // it is applied right after the streamed line, and a refusal is in the turn's tool calls.
      sideEffect: options.orderIsSideEffect === true,
      parameters: JsonSchema.obj({
        item: JsonSchema.enumOf(MENU_ITEMS, { description: 'what the player ordered' }),
        quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }),
      }),
    },
    (args: { item: MenuItem; quantity: number }) => serveOrder(world, args),
  );
  return [checkMenu, takeOrder];
}

/** take_order's game code: serves the order and takes its price from the player's gold. */
function serveOrder(world: WorldState, args: { item: MenuItem; quantity: number }): unknown {
  const price = world.get<number>(`tavern.menu.${args.item}`) ?? 0;
  const cost = price * args.quantity;
  const gold = world.get<number>('player.gold') ?? 0;
  if (cost > gold) return ToolOutput.error(`The player has ${gold} gold; ${args.quantity} ${args.item} cost ${cost}.`);
  world.set('player.gold', gold - cost);
  world.modify<string[]>('player.inventory', (inv) => (inv ?? []).concat(Array(args.quantity).fill(args.item)));
  return { served: args.quantity, item: args.item, cost, goldLeft: gold - cost };
}

/**
 * The tavern's game code by name, for NPC profiles (demo/profiles/mira.npc-profile.json names
 * `"answer": {"handler": "take_order"}`): the same function tavernTools runs.
 */
export const TAVERN_HANDLERS: Record<string, ProfileToolHandler> = {
  take_order: (args, context) => {
    if (!context.world) return ToolOutput.error('take_order needs the tavern world.');
    return serveOrder(context.world, args as { item: MenuItem; quantity: number });
  },
};
