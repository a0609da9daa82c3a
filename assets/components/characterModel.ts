/**
 * Which model answers one character, by where the game runs. In the editor and previews, the
 * shared model as configured (the stand-in, a development server, Chrome's model). In a shipped
 * build: Gemini Nano on Android or Chrome's model on the web while it is available, and the
 * character's own line bank otherwise (while the model downloads, on a phone without it, on iOS
 * and desktop); without a bank, lines from the persona itself. Developer text (the built-in
 * stand-in's "Gemini Nano answers here") never reaches a player; a game's own model or stand-in
 * rules are its choice and stay.
 */
import { BankModel, PreferAvailableModel, createPersonaStandIn } from '../runtime/oam-core.js';
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
  /** The game's shared model (OamRuntime.model) and what it is. */
  shared: LanguageModel;
  sharedKind: OamModelKind;
  /** The character's line bank (JSON), if it has one. */
  bank?: unknown;
  /** The persona: without a bank, a shipped build answers from its fields. */
  persona: unknown;
  /**
   * The game configured its own stand-in rules (OamRuntime.configure({ standIn })): lines it
   * wrote for players, kept in a shipped build. Only the built-in stand-in, whose lines are for
   * developers, gives way to the bank there.
   */
  gameStandIn?: boolean;
}

/** An on-device model that may not be there on every player's device. */
const ON_DEVICE: readonly OamModelKind[] = ['gemini-nano', 'chrome-nano'];

export function characterModel(input: CharacterModelInput): CharacterModel {
  const { place, shared, sharedKind } = input;
  // The editor and previews show what the developer configured; a custom model is the game's own.
  // A model, server or stand-in rules the game configured is its own choice, shipped or not.
  const gamesOwn =
    sharedKind === 'custom' ||
    sharedKind === 'openai-compatible' ||
    (sharedKind === 'stand-in' && input.gameStandIn === true);
  if (place !== 'shipped' || gamesOwn) return { model: shared, answers: () => sharedKind };
  const local: LanguageModel =
    input.bank !== undefined && input.bank !== null ? new BankModel(input.bank) : createPersonaStandIn(input.persona);
  const localKind: Answerer = input.bank !== undefined && input.bank !== null ? 'line-bank' : 'persona';
  if (ON_DEVICE.indexOf(sharedKind) < 0) return { model: local, answers: () => localKind };
  const preferred = new PreferAvailableModel(shared, local);
  return { model: preferred, answers: () => (preferred.usingPrimary ? sharedKind : localKind) };
}
