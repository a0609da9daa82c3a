/**
 * Lets the model pick what a character does next from options edited in the Inspector. The
 * answer is always one of the option ids (or the fallback option); with a time budget, the
 * fallback is used when the model is too slow, so a game loop never stalls on it (the budget
 * is wall time: a paused game does not stop it). Disabled (the component or its node turned
 * off), decisions in progress end `cancelled` and decide() rejects until it is enabled again.
 */
import { _decorator, Component, JsonAsset, CCInteger } from 'cc';
import { DecisionEngine, AgentError, Canceller, validatePersona, formatPersonaProblems } from '../runtime/oam-core.js';
import type { Decision, DecisionRequest, ImageInput, Persona } from '../runtime/oam-core.js';
import { OamRuntime } from './OamRuntime';
import { emitSafely } from './emitSafely';
import { DecisionOptionEntry } from './DecisionOptionEntry';
import { isGone, liveState } from './liveState';
import { noModelHere } from './noModelHere';

const { ccclass, property, menu } = _decorator;

/** Node event: `DecisionEvent` after every decide() that did not fail. */
export const DECISION = 'decision';
/** Node event: AgentError when decide() fails (never for a cancel). */
export const DECISION_ERROR = 'decision-error';

export interface DecisionEvent {
  situation: string;
  decision: Decision;
}

const live = liveState<DecisionComponent, { pending: Canceller[]; destroyed: boolean; off: boolean }>(() => ({
  pending: [],
  destroyed: false,
  off: false,
}));

@ccclass('oam.DecisionComponent')
@menu('oam/DecisionComponent')
export class DecisionComponent extends Component {
  @property({ type: [DecisionOptionEntry], tooltip: 'The choices (id + what it means).' })
  options: DecisionOptionEntry[] = [];

  @property({
    type: JsonAsset,
    tooltip: 'Who decides (a persona asset): role, personality and goals shape the choice.',
  })
  actor: JsonAsset | null = null;

  @property({ tooltip: 'Option id used when the model fails or runs out of time (empty = fail instead).' })
  fallbackOption = '';

  @property({ type: CCInteger, tooltip: 'Time budget (ms) after which the fallback option is used; 0 = no limit.' })
  timeBudgetMs = 0;

  @property({ tooltip: 'Ask for a one-sentence reason (slower); off = the id only.' })
  withReason = true;

  @property({ type: CCInteger, tooltip: 'Scheduler priority (50 = below the conversation the player is in).' })
  priority = 50;

  onEnable(): void {
    live(this).off = false;
  }

  onDisable(): void {
    // As NPCComponent: a persist-root node re-attached within one scene change is not stopped.
    void Promise.resolve().then(() => {
      const state = live(this);
      if (isGone(this, state)) this.cancel();
      else if (!this.enabledInHierarchy) {
        state.off = true;
        this.cancel();
      }
    });
  }

  onDestroy(): void {
    live(this).destroyed = true;
    this.cancel();
  }

  /**
   * Picks one option id for `situation`; `facts` are shown to the model as compact JSON, `image`
   * (see imageFromRenderTexture) is what the character looks at, for a model that takes images.
   */
  decide(situation: string, facts?: unknown, image?: ImageInput): Promise<Decision> {
    const state = live(this);
    if (isGone(this, state))
      return Promise.reject(
        new AgentError('cancelled', `The DecisionComponent on "${this.nodeName()}" was destroyed.`),
      );
    // Off: refused before anything runs, with no node event (a disabled component emits nothing).
    if (!this.enabledInHierarchy)
      return Promise.reject(
        new AgentError(
          'invalid_request',
          `The DecisionComponent on "${this.nodeName()}" is turned off (disabled or its node inactive); enable it before decide().`,
        ),
      );
    let request: DecisionRequest;
    try {
      request = this.request(situation, facts);
      if (image !== undefined) request.image = image;
    } catch (caught) {
      return this.failed(AgentError.from(caught, 'invalid_request'));
    }
    const canceller = new Canceller();
    const pending = state.pending;
    pending.push(canceller);
    request.signal = canceller.signal;
    const engine = new DecisionEngine(OamRuntime.model, {
      priority: this.priority,
      reason: this.withReason ? 'after' : 'none',
      // A shipped build with no model on this device picks by the options' weights and conditions.
      withoutModel: noModelHere,
    });
    const forget = () => {
      const index = pending.indexOf(canceller);
      if (index >= 0) pending.splice(index, 1);
    };
    return engine.decide(request).then(
      (decision) => {
        forget();
        this.emitNode(DECISION, { situation, decision });
        return decision;
      },
      (failure: unknown) => {
        forget();
        const error = AgentError.from(failure);
        if (error.code === 'cancelled') throw error;
        return this.failed(error);
      },
    );
  }

  /** Cancels every decision in progress (they reject with `cancelled`). */
  cancel(): void {
    for (const canceller of live(this).pending.splice(0))
      canceller.abort(new AgentError('cancelled', 'The decision was cancelled.'));
  }

  private request(situation: string, facts: unknown): DecisionRequest {
    const request: DecisionRequest = {
      situation,
      options: this.options.map((option, index) => ({
        id: option ? option.id : '',
        description: option ? option.description : '',
        weight: option ? option.weight : 1,
        ...(option && option.when.trim() ? { when: readConditions(option.when, index) } : {}),
      })),
    };
    if (facts !== undefined) request.facts = facts;
    const actor = this.readActor();
    if (actor) request.actor = actor;
    const fallback = this.fallbackOption.trim();
    if (fallback) request.fallback = fallback;
    if (this.timeBudgetMs > 0) request.timeoutMs = this.timeBudgetMs;
    return request;
  }

  private readActor(): Persona | undefined {
    if (!this.actor) return undefined;
    const check = validatePersona(this.actor.json);
    if (!check.ok)
      throw new AgentError(
        'invalid_request',
        `the actor asset "${this.actor.name}" is not a valid persona: ${formatPersonaProblems(check.problems)}`,
      );
    return check.persona;
  }

  private failed(error: AgentError): Promise<never> {
    const named = new AgentError(error.code, `DecisionComponent on "${this.nodeName()}": ${error.message}`, {
      cause: error,
    });
    this.emitNode(DECISION_ERROR, named);
    return Promise.reject(named);
  }

  private emitNode(type: string, payload: unknown): void {
    const state = live(this);
    if (!state.destroyed && !state.off) emitSafely(this.node, type, payload);
  }

  private nodeName(): string {
    return this.node ? this.node.name : '?';
  }
}

/** An option's `when` as the Inspector holds it (JSON text); invalid_request naming the option. */
function readConditions(text: string, index: number): Record<string, never> {
  try {
    return JSON.parse(text) as Record<string, never>;
  } catch {
    throw new AgentError('invalid_request', `options[${index}].when is not JSON: ${JSON.stringify(text.trim())}.`);
  }
}
