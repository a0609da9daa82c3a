/**
 * The gate guard: when the player walks up, the DecisionComponent on the same node picks one of
 * its options (let_in, warn, alarm, edited in the Inspector) for the situation, with what the
 * world state says about the player as facts. The guard's answer shows in a Label; the game
 * reacts to the option id (here: a line of text; in a real game, a door or an alarm bell).
 * With a Badge render texture set, the guard also looks at the badge the player drew into it.
 */
import { _decorator, Component, Label, RenderTexture } from 'cc';
import { DecisionComponent, WorldStateStore, imageFromRenderTexture } from 'db://oam-cocos/index';
import type { Decision, ImageInput } from 'db://oam-cocos/index';

const { ccclass, property, menu, requireComponent } = _decorator;

/** What the guard does for each option id. */
export const GUARD_REACTIONS: Record<string, string> = {
  let_in: 'Brann steps aside: "In you go. Mind your manners."',
  warn: 'Brann blocks the door: "One more peep and you sleep in the ditch."',
  alarm: 'Brann rings the bell: "Weapons down! Now!"',
};

/** The sentence shown for a decision (the reason too, when the model gave one). */
export function describeDecision(decision: Decision): string {
  const reaction = GUARD_REACTIONS[decision.optionId] || `Brann decides: ${decision.optionId}.`;
  const why = decision.isFallback ? ' (no time to think: the default choice)' : decision.reason ? ` (${decision.reason})` : '';
  return `${reaction}${why}`;
}

@ccclass('tavern.GuardBrain')
@menu('tavern/GuardBrain')
@requireComponent(DecisionComponent)
export class GuardBrain extends Component {
  @property({ type: WorldStateStore, tooltip: 'Facts about the player come from here.' })
  world: WorldStateStore | null = null;

  @property({ type: Label, tooltip: 'Shows what the guard does.' })
  statusLabel: Label | null = null;

  @property({ type: RenderTexture, tooltip: 'Optional: the badge the player drew; the guard looks at it.' })
  badge: RenderTexture | null = null;

  @property({ tooltip: 'Situation used by approach() without an argument.' })
  defaultSituation = 'A traveller walks up to the gate calmly, hands empty.';

  /** The last decision, or null before the first one. */
  lastDecision: Decision | null = null;
  private thinking = false;

  /**
   * Asks the guard what to do about `situation`, showing him `badge` (default: the Badge texture's
   * picture, when set); ignored while he is still deciding.
   */
  approach(situation?: string, badge: ImageInput | undefined = this.badgeImage()): Promise<Decision | null> {
    const brain = this.getComponent(DecisionComponent);
    if (!brain || this.thinking) return Promise.resolve(null);
    this.thinking = true;
    this.setStatus(badge ? 'Brann squints at your badge…' : 'Brann looks you over…');
    return brain.decide(situation || this.defaultSituation, this.facts(), badge).then((decision) => {
      this.thinking = false;
      this.lastDecision = decision;
      this.setStatus(describeDecision(decision));
      return decision;
    }, (error: { message: string }) => {
      this.thinking = false;
      this.setStatus(`Brann just stares. (${error.message})`);
      return null;
    });
  }

  /** Button handler (Click Events: GuardBrain.onApproachClicked, custom data = the situation). */
  onApproachClicked(_event: unknown, customEventData: string): void {
    void this.approach(customEventData);
  }

  /** The player's drawn badge as a picture, when the Badge texture is set and drawn into. */
  badgeImage(): ImageInput | undefined {
    if (!this.badge) return undefined;
    try {
      return imageFromRenderTexture(this.badge, { label: "the player's drawn badge" });
    } catch {
      return undefined; // nothing drawn yet: the guard sees no badge
    }
  }

  /** What the guard can see about the player, from the world state. */
  facts(): Record<string, unknown> {
    if (!this.world) return {};
    const inventory = this.world.get<string[]>('player.inventory') || [];
    return {
      time: this.world.get<string>('time'),
      drinksInHand: inventory.filter((i) => i === 'ale' || i === 'cider').length,
    };
  }

  private setStatus(text: string): void {
    if (this.statusLabel) this.statusLabel.string = text;
  }
}
