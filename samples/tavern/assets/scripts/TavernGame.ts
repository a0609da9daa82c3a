/**
 * The tavern's game rules. Mira's two game actions, `check_menu` and `take_order`, are declared
 * on her NPCComponent in the Inspector (External Tools); when the model calls one, the NPC node
 * emits `npc-external-tool` and this script answers it from the WorldStateStore: it reads the
 * menu, takes the gold and fills the player's inventory. It also keeps a small HUD up to date.
 */
import { _decorator, Component, Label } from 'cc';
import { NPCComponent, WorldStateStore, NPC_EXTERNAL_TOOL, WORLD_CHANGED } from 'db://oam-cocos/index';
import type { ExternalToolRequest } from 'db://oam-cocos/index';

const { ccclass, property, menu } = _decorator;

/** The state the tools need: the WorldStateStore's get/set. */
export interface TavernState {
  get<T = unknown>(path: string): T | undefined;
  set(path: string, value: unknown): boolean;
}

/** What a tool answers: an output for the model, or an error it explains in character. */
export type ToolAnswer = { ok: true; output: unknown } | { ok: false; error: string };

const MAX_QUANTITY = 10;

/** `check_menu`: tonight's food and drink with prices in gold. */
export function checkMenu(state: TavernState): ToolAnswer {
  const menu = state.get<Record<string, number>>('tavern.menu');
  if (!menu || typeof menu !== 'object') return { ok: false, error: 'The menu board is blank tonight.' };
  return { ok: true, output: menu };
}

/** `take_order`: serves `quantity` of `item` and takes the gold from the player's purse. */
export function takeOrder(state: TavernState, args: Record<string, unknown>): ToolAnswer {
  const item = typeof args.item === 'string' ? args.item.trim().toLowerCase() : '';
  const quantity = args.quantity === undefined ? 1 : args.quantity;
  const menu = state.get<Record<string, number>>('tavern.menu') || {};
  if (!item || typeof menu[item] !== 'number') {
    return { ok: false, error: `There is no "${String(args.item)}" on the menu; it has ${Object.keys(menu).join(', ')}.` };
  }
  if (typeof quantity !== 'number' || !isFinite(quantity) || Math.floor(quantity) !== quantity || quantity < 1 || quantity > MAX_QUANTITY) {
    return { ok: false, error: `The quantity must be a whole number from 1 to ${MAX_QUANTITY}.` };
  }
  const cost = menu[item] * quantity;
  const gold = state.get<number>('player.gold') || 0;
  if (cost > gold) return { ok: false, error: `The player has ${gold} gold; ${quantity} ${item} cost ${cost}.` };
  const inventory = state.get<string[]>('player.inventory') || [];
  const served: string[] = [];
  for (let i = 0; i < quantity; i++) served.push(item);
  state.set('player.gold', gold - cost);
  state.set('player.inventory', inventory.concat(served));
  return { ok: true, output: { served: quantity, item, cost, goldLeft: gold - cost } };
}

/** Answers one of Mira's external tools; an unknown tool is refused, never left waiting. */
export function answerTavernTool(state: TavernState, name: string, args: Record<string, unknown>): ToolAnswer {
  switch (name) {
    case 'check_menu':
      return checkMenu(state);
    case 'take_order':
      return takeOrder(state, args || {});
    default:
      return { ok: false, error: `The tavern cannot do ${name}.` };
  }
}

@ccclass('tavern.TavernGame')
@menu('tavern/TavernGame')
export class TavernGame extends Component {
  @property({ type: NPCComponent, tooltip: 'Mira: her external tools are answered here.' })
  mira: NPCComponent | null = null;

  @property({ type: WorldStateStore, tooltip: 'The tavern\'s world state (gold, inventory, menu).' })
  world: WorldStateStore | null = null;

  @property({ type: Label, tooltip: 'Shows the player\'s gold and what they carry.' })
  hudLabel: Label | null = null;

  /** Tool calls answered so far, newest last (shown in the log, handy in tests). */
  readonly answered: Array<{ tool: string; answer: ToolAnswer }> = [];

  onLoad(): void {
    if (this.mira) this.mira.node.on(NPC_EXTERNAL_TOOL, this.onExternalTool, this);
    if (this.world) this.world.node.on(WORLD_CHANGED, this.refreshHud, this);
  }

  start(): void {
    this.refreshHud();
  }

  onDestroy(): void {
    if (this.mira && this.mira.node && this.mira.node.isValid) this.mira.node.off(NPC_EXTERNAL_TOOL, this.onExternalTool, this);
    if (this.world && this.world.node && this.world.node.isValid) this.world.node.off(WORLD_CHANGED, this.refreshHud, this);
  }

  /** `npc-external-tool` listener: the turn waits until answer() or fail() is called. */
  onExternalTool(request: ExternalToolRequest): void {
    if (!this.world) {
      request.fail('The tavern has no world state set up.');
      return;
    }
    const answer = answerTavernTool(this.world, request.call.name, request.call.args);
    this.answered.push({ tool: request.call.name, answer });
    if (answer.ok) request.answer(answer.output);
    else request.fail(answer.error);
  }

  refreshHud(): void {
    if (!this.hudLabel || !this.world) return;
    const gold = this.world.get<number>('player.gold') || 0;
    const inventory = this.world.get<string[]>('player.inventory') || [];
    this.hudLabel.string = `Gold: ${gold}    Carrying: ${inventory.length > 0 ? inventory.join(', ') : 'nothing'}`;
  }
}
