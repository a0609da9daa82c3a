/**
 * What an NPC's persona stages and sample lines add to its turns: the character instructions for
 * the stage the relationship is in (the prefix), and the secrets it may tell now (the turn's
 * note). The NPC and the persona inspector's token meter both render through here.
 */
import { renderCharacter, type CharacterInstructions } from '../persona/render-character';
import type { NormalizedPersona, Persona } from '../persona/persona';
import { stageIndexAt, stageSecretsReached, type NormalizedStage } from '../persona/stages';
import type { ResolvedNPCOptions } from './npc-options';

export type { NormalizedStage };

/** The stage of a relationship, or undefined when the persona has none or the value is in no band. */
export function currentStage(persona: NormalizedPersona, relationship: number): NormalizedStage | undefined {
  const index = stageIndexAt(persona.stages, relationship);
  return index >= 0 ? persona.stages[index] : undefined;
}

/** The instructions an NPC with these options sends at this relationship. */
export function npcCharacterInstructions(input: {
  persona: Persona;
  rules: { usesTools: boolean; toolRulesInPrefix?: boolean; secretsInPrefix: boolean; extra: string | undefined };
  options: ResolvedNPCOptions;
  relationship: number;
}): CharacterInstructions {
  return renderCharacter(input.persona, {
    ...input.rules,
    relationship: input.relationship,
    sampleLineTokens: input.options.sampleLineTokens,
  });
}

/**
 * The secrets the NPC may tell at this relationship: the persona's own once the relationship
 * reaches `secretsUnlockAtRelationship` (as without stages), and each stage's from that stage up.
 */
export function unlockedSecrets(input: {
  persona: NormalizedPersona;
  options: ResolvedNPCOptions;
  relationship: number;
}): string[] {
  const { persona, options, relationship } = input;
  const threshold = options.secretsUnlockAtRelationship;
  const own = threshold !== null && relationship >= threshold ? persona.secrets : [];
  const staged = stageSecretsReached(persona.stages, relationship);
  return own.concat(staged.filter((secret) => own.indexOf(secret) < 0));
}
