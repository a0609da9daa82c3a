/**
 * Which model answers one character, by where the game runs. In the editor and previews, the
 * shared model as configured (the stand-in, a development server, Chrome's model). In a shipped
 * build: Gemini Nano on Android or Chrome's model on the web while it is available, and the
 * character's own line bank otherwise (while the model downloads, on a phone without it, on iOS
 * and desktop); without a bank, lines from the persona itself. Developer text (the built-in
 * stand-in's "Gemini Nano answers here") never reaches a player; a game's own model or stand-in
 * rules are its choice and stay.
 */
import {
  AgentError,
  BankModel,
  PreferAvailableModel,
  createPersonaStandIn,
  isSameCharacter,
} from '../runtime/oam-core.js';
import type { LanguageModel } from '../runtime/oam-core.js';
import type { OamModelKind } from './OamRuntime';

/** Where the game runs: the editor, a preview (browser or simulator), or a shipped build. */
export type RunPlace = 'editor' | 'preview' | 'shipped';

/** Who answers the character: the shared model's kind, its line bank, or its persona's own lines. */
export type Answerer = OamModelKind | 'line-bank' | 'persona';

export interface CharacterModel {
  model: LanguageModel;
  /** Who answers right now (a model that becomes available takes over from the bank). */
  answers(): Answerer;
}

export interface CharacterModelInput {
  place: RunPlace;
  /** The game's shared model (OamRuntime.model). */
  shared: LanguageModel;
  /**
   * What the shared model is, read at each request: a game may configure the runtime after its
   * NPCs are built (a scene's OamRuntimeSettings, the sample's scripted evening).
   */
  sharedKind: OamModelKind | (() => OamModelKind);
  /** The character's line bank (JSON), if it has one. */
  bank?: unknown;
  /** The persona: without a bank, a shipped build answers from its fields. */
  persona: unknown;
  /**
   * The game configured its own stand-in rules (OamRuntime.configure({ standIn })): lines it
   * wrote for players, kept in a shipped build. Only the built-in stand-in, whose lines are for
   * developers, gives way to the bank there. Read at each request, like sharedKind.
   */
  gameStandIn?: boolean | (() => boolean);
}

/** An on-device model that may not be there on every player's device. */
const ON_DEVICE: readonly OamModelKind[] = ['gemini-nano', 'chrome-nano'];

/**
 * A model, server or stand-in rules the game configured is its own choice, kept in a shipped
 * build: with its own rules the shared model already falls back to them while an on-device model
 * is not there. (Gemini Nano's shared model has no stand-in behind it: there the bank covers a
 * missing Nano.)
 */
function isGamesOwn(kind: OamModelKind, gameStandIn: boolean): boolean {
  if (kind === 'custom' || kind === 'openai-compatible') return true;
  return gameStandIn && (kind === 'stand-in' || kind === 'chrome-nano');
}

const valueOf = <T>(value: T | (() => T)): T => (typeof value === 'function' ? (value as () => T)() : value);

export function characterModel(input: CharacterModelInput): CharacterModel {
  // The editor and previews show what the developer configured.
  if (input.place !== 'shipped') return { model: input.shared, answers: () => valueOf(input.sharedKind) };
  const router = new CharacterRouter(input);
  return { model: router, answers: () => router.route().answers };
}

/** A shipped build's character: each request goes where the runtime, as it is now, says. */
class CharacterRouter implements LanguageModel {
  private readonly local: LanguageModel;
  private readonly localKind: Answerer;
  private readonly preferred: PreferAvailableModel;

  /** A bad bank is refused here, when the character is set up (invalid_request naming it). */
  constructor(private readonly input: CharacterModelInput) {
    const hasBank = input.bank !== undefined && input.bank !== null;
    const bank = hasBank ? new BankModel(input.bank) : undefined;
    const name = (input.persona as { name?: unknown } | null)?.name;
    if (bank && typeof name === 'string' && !isSameCharacter(bank.bank.character, name))
      throw new AgentError(
        'invalid_request',
        `the line bank is ${JSON.stringify(bank.bank.character)}'s (bank.character), not ${JSON.stringify(name)}'s`,
      );
    this.local = bank ?? createPersonaStandIn(input.persona);
    this.localKind = hasBank ? 'line-bank' : 'persona';
    this.preferred = new PreferAvailableModel(input.shared, this.local);
  }

  route(): { model: LanguageModel; answers: Answerer } {
    const kind = valueOf(this.input.sharedKind);
    if (isGamesOwn(kind, valueOf(this.input.gameStandIn ?? false) === true))
      return { model: this.input.shared, answers: kind };
    if (ON_DEVICE.indexOf(kind) < 0) return { model: this.local, answers: this.localKind };
    return { model: this.preferred, answers: this.preferred.usingPrimary ? kind : this.localKind };
  }

  get capabilities(): LanguageModel['capabilities'] {
    return this.route().model.capabilities;
  }

  generate(request: Parameters<LanguageModel['generate']>[0], signal?: Parameters<LanguageModel['generate']>[1]) {
    return this.route().model.generate(request, signal);
  }

  availability(): ReturnType<LanguageModel['availability']> {
    return this.route().model.availability();
  }

  async countTokens(text: string): Promise<number | null> {
    const model = this.route().model;
    return model.countTokens ? model.countTokens(text) : null;
  }

  async prewarm(systemInstruction?: string, promptPrefix?: string): Promise<void> {
    const model = this.route().model;
    if (model.prewarm) await model.prewarm(systemInstruction, promptPrefix);
  }
}

/**
 * Whether a DecisionComponent picks by its options' weights and conditions instead of asking the
 * model: in a shipped build, where the on-device model is not available on this device, or the
 * model is the built-in stand-in (its choices are for developers). A model, server or stand-in
 * rules the game configured itself still decide.
 */
export async function decidesWithoutModel(input: {
  shipped: boolean;
  kind: OamModelKind;
  gameStandIn: boolean;
  model: LanguageModel;
}): Promise<boolean> {
  const { shipped, kind, gameStandIn, model } = input;
  if (!shipped || isGamesOwn(kind, gameStandIn)) return false;
  if (ON_DEVICE.indexOf(kind) < 0) return true;
  try {
    return (await model.availability()).status !== 'available';
  } catch {
    return true;
  }
}
