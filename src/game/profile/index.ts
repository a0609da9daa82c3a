export { loadNPCProfile, readNPCProfile, NPC_PROFILE_SCHEMA } from './npc-profile';
export type { NPCProfile, NPCProfileParts, LoadProfileOptions, ProfileStandInTool } from './npc-profile';
export { fillTemplate, answerByRules } from './rule-tools';
export type {
  ProfileToolDeclaration,
  ProfileToolAnswer,
  ProfileRule,
  ProfileRuleCase,
  ProfileRuleTable,
  ProfileToolHandler,
  ProfileHandlerContext,
} from './rule-tools';
