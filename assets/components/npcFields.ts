/**
 * The NPCComponent's Inspector fields: type, range and the tooltip a designer reads, one entry
 * per property (the component holds the defaults).
 */
import { CCInteger, CCString, Enum, JsonAsset } from 'cc';
import { WorldStateStore } from './WorldStateStore';
import { ToolDeclaration } from './ToolDeclaration';
import { ReplyFormat } from './replyFormat';

export const NPC_FIELDS = {
  persona: { type: JsonAsset, tooltip: 'The persona (a JSON asset: name, role, personality, goals, secrets…).' },
  profile: {
    type: JsonAsset,
    tooltip:
      'An NPC profile (.npc-profile): persona, tools, world paths and options in one file. When set, the NPC fields below are not read.',
  },
  lineBank: {
    type: JsonAsset,
    tooltip: 'Lines said where no on-device model is (a line bank, see docs/line-banks.md); shipped builds only.',
  },
  worldStore: { type: WorldStateStore, tooltip: "The scene's shared state. Without one the NPC has no world tools." },
  worldReadable: {
    type: [CCString],
    tooltip: 'World paths the NPC may read ("" = everything; empty list = no read tool).',
  },
  worldWritable: { type: [CCString], tooltip: 'World paths the NPC may change (empty = none).' },
  worldContextPaths: { type: [CCString], tooltip: 'World paths summarised into every turn (no tool call needed).' },
  groundingTool: { tooltip: 'A tool forced on the first step of every turn (e.g. check_menu); empty = none.' },
  replyFormat: { type: Enum(ReplyFormat), tooltip: 'Automatic: structured, retried as plain text on failure.' },
  rememberFacts: { tooltip: 'The NPC may remember facts about the player (remember_fact tool).' },
  trackRelationship: { tooltip: 'The NPC tracks its relationship with the player (change_relationship tool).' },
  secretsUnlockAt: {
    type: CCInteger,
    range: [-100, 100, 1],
    tooltip: 'Secrets stay out of the prompt until the relationship reaches this (−100…100).',
  },
  secretsAlwaysGuarded: {
    tooltip:
      'Keep the secrets in the prompt from the start, guarded by a rule not to tell (ignores Secrets Unlock At).',
  },
  emotions: { type: [CCString], tooltip: 'Emotions the NPC may show (empty = all 16).' },
  playerOptionCount: {
    type: CCInteger,
    range: [0, 4, 1],
    tooltip: 'Suggested player replies per turn (each costs about a second on a phone).',
  },
  canEndConversation: { tooltip: 'The NPC may end the conversation.' },
  fallbackLines: {
    type: [CCString],
    tooltip: "Lines used when the model cannot answer (empty = the persona's, then built-in ones).",
  },
  externalTools: { type: [ToolDeclaration], tooltip: 'Game actions answered through the npc-external-tool event.' },
  extraInstructions: { multiline: true, tooltip: 'Extra instructions appended to the persona.' },
  externalToolTimeoutMs: {
    type: CCInteger,
    tooltip: 'How long a turn waits for the game to answer an external tool (ms).',
  },
  toolTimeoutMs: { type: CCInteger, tooltip: 'How long a local tool may run (ms).' },
  priority: { type: CCInteger, tooltip: "Scheduler priority of this NPC's turns (100 = the one the player talks to)." },
  prewarmOnStart: {
    tooltip: 'Load the on-device model when the scene starts, so the first reply does not pay the ~2 s cold start.',
  },
};
