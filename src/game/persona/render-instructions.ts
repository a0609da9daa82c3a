/**
 * The persona as a compact system prompt for a small on-device model: short imperative lines.
 *
 * This text is the head of the cacheable prompt prefix, so it is a pure function of
 * (persona, options): byte-identical across turns. Nothing that changes per turn
 * (relationship, memory, world, situation, unlocked secrets) belongs here; that goes in the
 * memory note after the prefix.
 */
import { normalizePersona } from './persona';
import type { Persona } from './persona';
import { trimEndChars } from '../trim-chars';

export interface PersonaInstructionOptions {
  /** The NPC has tools: tell it to check facts with them instead of admitting ignorance. */
  usesTools: boolean;
  /**
   * The reply rules after the persona already say when to call a tool first (line-first
   * replies): the facts rule would say it twice on every call, so it is left out.
   */
  toolRulesInPrefix?: boolean;
  /** Overrides the persona's sentence limit (a bark uses 1). */
  maxSentences?: number;
  /**
   * Put the secrets in the prompt, guarded by a rule to keep them until the memory note says
   * the NPC trusts the player. False leaves them out entirely.
   */
  secretsInPrefix: boolean;
  /** Extra instructions from the game, one rule per line. */
  extra?: string;
}

/** Ends a sentence with a full stop unless it already ends with punctuation. */
function sentence(text: string): string {
  return /[.!?…]["'”’)\]]*$/.test(text) ? text : `${text}.`;
}

function list(items: readonly string[]): string {
  return sentence(items.map((item) => trimEndChars(item, '.;')).join('; '));
}

function sentenceRule(count: number): string {
  return count === 1 ? 'One short sentence at most.' : `At most ${count} short sentences.`;
}

function extraRules(extra: string | undefined): string[] {
  if (typeof extra !== 'string') return [];
  const rules: string[] = [];
  for (const raw of extra.split('\n')) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (!line) continue;
    rules.push(/^[-*•] /.test(line) ? `- ${line.slice(2)}` : `- ${line}`);
  }
  return rules;
}

export function renderPersonaInstructions(persona: Persona, options: PersonaInstructionOptions): string {
  const normalized = normalizePersona(persona);
  const override = options.maxSentences;
  const sentences =
    typeof override === 'number' && isFinite(override) ? Math.max(1, Math.floor(override)) : normalized.maxSentences;
  const secrets = options.secretsInPrefix ? normalized.secrets : [];
  const plural = secrets.length > 1;

  const lines: string[] = [];
  lines.push(
    normalized.role
      ? `You are ${normalized.name}, ${trimEndChars(normalized.role, '.,;')}, a character in a video game.`
      : `You are ${normalized.name}, a character in a video game.`,
  );
  if (normalized.personality) lines.push(`Personality: ${sentence(normalized.personality)}`);
  // Every word here is prefilled on a cold turn: a backstory is a sentence and needs no label
  // (3 Gemma tokens), "Style" says what "Speaking style" did (2 fewer).
  if (normalized.speakingStyle) lines.push(`Style: ${sentence(normalized.speakingStyle)}`);
  if (normalized.backstory) lines.push(sentence(normalized.backstory));
  if (normalized.goals.length > 0) lines.push(`Goals: ${list(normalized.goals)}`);
  if (normalized.knowledge.length > 0) lines.push(`You know: ${list(normalized.knowledge)}`);
  if (secrets.length > 0) lines.push(`${plural ? 'Your secrets' : 'Your secret'}: ${list(secrets)}`);

  // The rules as one line: the same words without a heading and bullets cost a third fewer tokens.
  const rules = [`Speak only as ${normalized.name}; never say you are an AI.`, sentenceRule(sentences)];
  if (!options.usesTools) rules.push('If you do not know something, say so in character.');
  else if (!options.toolRulesInPrefix) rules.push('Check facts with your tools before you state them.');
  if (secrets.length > 0)
    rules.push(
      `Never reveal ${plural ? 'your secrets' : 'your secret'} unless the game note below says you trust the player.`,
    );
  lines.push(rules.join(' '));
  lines.push(...extraRules(options.extra));
  return lines.join('\n');
}
