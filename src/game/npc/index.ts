export { NPC } from './npc';
export { BUILT_IN_TOOLS, npcToolSet, npcInstructionRules } from './agent-parts';
export type { NPCToolSetInput } from './agent-parts';
export type { NPCConfig, NPCRestoreConfig, TalkOptions, BarkOptions } from './npc';
export { DialogueStream } from './dialogue-stream';
export type { DialogueTurn, NPCEvent, NPCEventType, NPCEventOf } from './dialogue';
export { resolveNPCOptions, DEFAULT_FALLBACK_LINES } from './npc-options';
export type { NPCOptions, NPCReplyFormat, ResolvedNPCOptions, MemoryToolsOption } from './npc-options';
export { npcReplySchema } from './reply-format';
export { readSaveState, NPC_SAVE_VERSION } from './save-state';
export type { NPCSaveState } from './save-state';
export { readPersonaTest, runPersonaTest } from './persona-test';
export type {
  PersonaTestFile,
  PersonaTestTurn,
  PersonaTurnExpectations,
  PersonaTestReport,
  PersonaTurnReport,
  PersonaCheck,
  RunPersonaTestInput,
} from './persona-test';
export {
  npcSetupFromInspector,
  npcOptionsFromInspector,
  readToolDeclarations,
  INSPECTOR_REPLY_FORMATS,
} from './inspector-setup';
export type {
  NPCInspectorProperties,
  ToolDeclarationProperties,
  DeclaredTool,
  InspectorSetup,
} from './inspector-setup';
