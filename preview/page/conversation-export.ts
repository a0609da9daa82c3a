/** A conversation saved from the preview page ("Export"), to replay against an edited persona. */
import { AgentError, type Persona } from '../../src';
import { readJsonInput } from '../../src/core/json/json-input';

/** A conversation saved from the preview, to replay against an edited persona. */
export interface PreviewSessionExport {
  type: 'oam-cocos.PreviewSession';
  version: 1;
  persona: Persona;
  /** `relationship`: what the designer set with the slider just before that turn. */
  turns: Array<{ say: string; line: string; emotion: string; tools: string[]; relationship?: number }>;
}

/** Reads a saved conversation; throws invalid_request naming what is wrong. */
export function readConversationExport(input: unknown): PreviewSessionExport {
  const value = readJsonInput(input, 'The saved conversation');
  const imported = value as Partial<PreviewSessionExport> | null;
  if (!imported || imported.type !== 'oam-cocos.PreviewSession' || imported.version !== 1)
    throw new AgentError(
      'invalid_request',
      'This is not a conversation saved from the preview (type "oam-cocos.PreviewSession", version 1).',
    );
  if (
    !imported.persona ||
    typeof imported.persona !== 'object' ||
    typeof (imported.persona as { name?: unknown }).name !== 'string'
  )
    throw new AgentError(
      'invalid_request',
      'The saved conversation needs the "persona" it was played with (an object with a name).',
    );
  if (!Array.isArray(imported.turns) || imported.turns.length === 0)
    throw new AgentError(
      'invalid_request',
      'The saved conversation needs "turns": [{"say": "…", "line": "…"}], at least one.',
    );
  imported.turns.forEach((turn, index) => {
    if (!turn || typeof turn.say !== 'string' || !turn.say.trim())
      throw new AgentError('invalid_request', `turns[${index}].say must be the line the player said.`);
    if (typeof turn.line !== 'string')
      throw new AgentError('invalid_request', `turns[${index}].line must be the line the NPC answered.`);
  });
  return imported as PreviewSessionExport;
}
