/// <reference lib="dom" />
/**
 * The token meter in the page, the same figures as the persona inspector in Creator: how much
 * of Gemini Nano's input the NPC's fixed prompt takes (persona, tools, reply rules, secrets once
 * told) for the profile being played, and what is left for memory and the conversation. The
 * figure is the prompt that NPC sends (tests/editor/profile-meter.test.ts).
 */
import { AgentError, type NPCProfileParts, type Persona } from '../../src';
import { measurePersona, profileSetup, USABLE_TOKENS } from '../../extension/token-meter/token-meter';
import { element, clear } from './dom';

const PART_LABELS: Record<string, string> = {
  rules: 'rules',
  tools: 'tools',
  replyFormat: 'reply rules',
  secrets: 'secrets once told',
  sampleLines: 'sample lines',
  stages: 'stage',
};

/** Renders the meter for `persona` played with `parts`; a persona the meter cannot read says why. */
export function renderMeter(
  root: HTMLElement,
  { persona, parts, relationship = 0 }: { persona: Persona; parts: NPCProfileParts; relationship?: number },
): void {
  clear(root);
  let figures;
  try {
    figures = measurePersona(persona, { ...profileSetup(parts), relationship });
  } catch (error) {
    root.append(element('p', { class: 'help' }, `Token meter: ${AgentError.from(error).message}`));
    return;
  }
  const used = figures.prefixTokens + figures.secretsTokens;
  const percent = Math.min(100, Math.round((used / USABLE_TOKENS) * 100));
  const breakdown = figures.parts
    .filter((part) => part.tokens > 0)
    .map((part) => `${PART_LABELS[part.key] ?? part.key} ${part.tokens}`)
    .join(' · ');
  root.append(
    element(
      'div',
      { class: 'meter-head' },
      element('strong', { id: 'meter-total' }, `${figures.prefixTokens} tokens every turn`),
      element(
        'span',
        { class: 'muted' },
        ` of ${USABLE_TOKENS} usable; ${figures.conversationTokens} left for memory and the conversation`,
      ),
    ),
    element(
      'div',
      { class: `meter-bar level-${figures.level}`, role: 'meter', 'aria-valuenow': String(percent) },
      element('span', { style: `width: ${percent}%` }),
    ),
    element(
      'p',
      { class: 'help', id: 'meter-parts' },
      `${breakdown}${figures.stage ? ` · at stage "${figures.stage}"` : ''}. Largest: ${PART_LABELS[figures.largestPart.key] ?? figures.largestPart.key}.`,
    ),
  );
}
