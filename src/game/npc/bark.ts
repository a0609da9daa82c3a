/** One ambient line ("Fresh bread, still warm!"): no history, memory, tools or secrets; low priority. */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import { generateText, type LanguageModel } from '../../contract/language-model';
import { renderPersonaInstructions, cleanLine, type Persona } from '../persona';
import { playerText } from '../../core/player-text';
import type { ResolvedNPCOptions } from './npc-options';

export interface BarkOptions {
  signal?: SignalLike;
  /** Drop the bark if the model has not started it by then (ms since epoch): its moment has passed. */
  deadline?: number;
  /** Scheduler priority (default 10, below conversations and decisions). */
  priority?: number;
}

export async function barkLine({
  model,
  persona,
  options,
  situation,
  worldSummary,
  bark,
}: {
  model: LanguageModel;
  persona: Persona;
  options: ResolvedNPCOptions;
  /** What is happening, in the game's words. */
  situation: string;
  /** The world summary the NPC sees ('' for none). */
  worldSummary: string;
  bark: BarkOptions;
}): Promise<string> {
  const system = renderPersonaInstructions(persona, { usesTools: false, maxSentences: 1, secretsInPrefix: false });
  const state = worldSummary ? `Game state:\n${worldSummary}\n` : '';
  const prompt = `${state}Situation: ${situation.trim()}\n\nPlayer: (The player says nothing.)\n\nWrite one short line ${persona.name} says aloud now. Only the words.`;
  const useSystem = model.capabilities.systemInstructions;
  const { text } = await generateText(
    model,
    {
      kind: 'text',
      systemInstruction: useSystem ? system : undefined,
      prompt: useSystem ? prompt : `${system}\n\n${prompt}`,
      temperature: options.temperature,
      maxOutputTokens: options.barkMaxTokens,
      priority: bark.priority ?? 10,
      deadline: bark.deadline,
      label: `${persona.name} (bark)`,
    },
    bark.signal,
  );
  // Reasoning, calls and control tokens go first: the bark is the first line of what is left.
  const first =
    playerText(text)
      .split('\n')
      .map((part) => part.trim())
      .find((part) => part.length > 0) ?? '';
  const line = cleanLine(first.replace(/^\[[^\]]{1,30}\]\s*/, ''), [persona.name]);
  if (!line)
    throw new AgentError(
      'generation_failed',
      `${persona.name}'s bark came back empty; try again or use an authored line.`,
    );
  return line;
}
