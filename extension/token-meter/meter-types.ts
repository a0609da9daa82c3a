/**
 * The token meter's figures and set-ups as types, and the budget they are measured against:
 * Gemini Nano's input limit, the runtime's reserve and the shares where the meter changes colour.
 */
import type { NPCOptions } from '../../src/game/npc/npc-options';
import type { AgentTool } from '../../src/core/tools';
import type { WorldState } from '../../src/game/world';

/** Gemini Nano's input limit on current devices, in tokens. */
export const NANO_INPUT_BUDGET = 4000;
/** Kept free by the runtime's prompt builder (context.reservedTokens). */
export const RESERVED_TOKENS = 256;
/** What the prompt may use: the budget minus the reserve. */
export const USABLE_TOKENS = NANO_INPUT_BUDGET - RESERVED_TOKENS;
/** Shares of the usable budget where the meter turns amber, then red. */
export const WARN_SHARE = 0.5;
export const DANGER_SHARE = 0.75;

export type ToolPreset = 'none' | 'tavern' | 'custom' | 'npc';
/** 'over': the fixed prompt alone is past the usable budget, so every turn fails. */
export type MeterLevel = 'ok' | 'warn' | 'danger' | 'over';

/**
 * One slice of the bar. Persona fields are keyed by their field name; `rules` is the name and
 * the fixed rules every persona gets, `extra` the NPC's extra instructions (and the text-reply
 * rule), `secrets` the secrets once told (when they are not in the prefix).
 */
export type MeterPartKey =
  | 'rules'
  | 'role'
  | 'personality'
  | 'speakingStyle'
  | 'backstory'
  | 'goals'
  | 'knowledge'
  | 'secrets'
  | 'maxSentences'
  | 'sampleLines'
  | 'stages'
  | 'extra'
  | 'tools'
  | 'replyFormat';

export interface MeterPart {
  key: MeterPartKey;
  /** 'persona': a slice of the persona instructions row; the others are their own rows. */
  group: 'persona' | 'tools' | 'replyFormat' | 'secrets';
  tokens: number;
}

/**
 * An NPC set-up to measure the persona with, in the form `new NPC({...})` takes it: the game's
 * own tools, the world it is given and its options. The world and memory tools are added from
 * these the way the NPC adds them (`npcToolCatalog`).
 */
export interface MeterSetup {
  tools: AgentTool[];
  /** Without a world the NPC has no world tools, whatever its world paths say. */
  world?: WorldState;
  options: NPCOptions;
  /** The relationship to measure at (default 0): it picks the persona's stage. */
  relationship?: number;
}

export interface MeterFigures {
  /** The persona's instructions (the system instruction). */
  personaTokens: number;
  /** The tool catalog and the rules for calling tools (0 without tools). */
  toolsTokens: number;
  /** The reply-format block (emotion, line, end). */
  replyFormatTokens: number;
  /** The whole stable prefix, as the runtime counts it; the three rows above add up to it. */
  prefixTokens: number;
  /** Extra tokens once the NPC tells its secrets (they are added to the turn's note then). */
  secretsTokens: number;
  /** Budget minus reserve. */
  usableTokens: number;
  /** What is left for memory, world notes and the conversation, after prefix and secrets. */
  conversationTokens: number;
  /** (prefix + secrets) / usable, from 0; above 1 the persona alone does not fit. */
  share: number;
  level: MeterLevel;
  /**
   * The bar's slices in prompt order: the fixed rules, persona fields in schema order, the
   * NPC's extra instructions, tools, reply format, secrets once told. They add up to prefix +
   * secrets; empty ones are left out.
   */
  parts: MeterPart[];
  /** The part with the most tokens (the one to shorten first). */
  largestPart: MeterPart;
  /** The texts that were counted, for a "show prompt" view and for tests. */
  systemInstruction: string;
  promptPrefix: string;
  /** What each relationship stage's line costs in the prefix while the NPC is at it, lowest first. */
  stages: Array<{ name: string; from: number; to: number; tokens: number }>;
  /** The stage measured (its name), or '' for none. */
  stage: string;
  /** Sample lines in the prefix, and those past their token budget (left out). */
  sampleLinesShown: number;
  sampleLinesDropped: number;
}
