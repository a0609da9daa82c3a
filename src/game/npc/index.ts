export { NPC, BUILT_IN_TOOLS } from './npc';
export type { NPCConfig, TalkOptions, BarkOptions } from './npc';
export { DialogueStream } from './dialogue-stream';
export type { DialogueTurn, NPCEvent, NPCEventType, NPCEventOf } from './dialogue';
export { resolveNPCOptions, DEFAULT_FALLBACK_LINES } from './npc-options';
export type { NPCOptions, NPCReplyFormat, ResolvedNPCOptions } from './npc-options';
export { npcReplySchema } from './reply-format';
export { readSaveState, NPC_SAVE_VERSION } from './save-state';
export type { NPCSaveState } from './save-state';
