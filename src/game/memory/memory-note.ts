/**
 * The per-turn `Memory:` note. It goes after the cacheable prefix (it changes every turn), so
 * it carries what the persona prompt must not: the relationship, remembered facts, the
 * summary, and the secrets the NPC now trusts the player with.
 */
import { attitude, clampRelationship } from './npc-memory';
import type { NPCMemoryState } from './npc-memory';
import { trimEndChars } from '../trim-chars';

export interface MemoryNoteOptions {
  /**
   * Show the relationship line. The NPC shows it when the relationship tool is on or the
   * value is not 0, so a fresh NPC without that tool adds nothing.
   */
  showRelationship: boolean;
  /** Secrets the NPC may now share (the relationship reached the unlock threshold). */
  secretsUnlocked?: readonly string[];
}

function joined(items: readonly string[]): string {
  const text = items
    .map((item) => trimEndChars(item.trim(), '.;'))
    .filter((item) => item)
    .join('; ');
  return text ? `${text}.` : '';
}

/** The note, or "" when there is nothing to say (so nothing is added to the prompt). */
export function renderMemoryNote(state: NPCMemoryState, options: MemoryNoteOptions): string {
  const lines: string[] = [];
  if (options.showRelationship) {
    const clamped = clampRelationship(state.relationship);
    lines.push(`You feel ${attitude(clamped)} toward the player (${clamped} on -100..100).`);
  }
  const facts = joined(state.facts ?? []);
  if (facts) lines.push(`You remember: ${facts}`);
  const summary = typeof state.summary === 'string' ? state.summary.replace(/\s+/g, ' ').trim() : '';
  if (summary) lines.push(`Earlier conversation: ${summary}`);
  const secrets = joined(options.secretsUnlocked ?? []);
  if (secrets) {
    const plural = (options.secretsUnlocked ?? []).filter((text) => text.trim()).length > 1;
    lines.push(`You trust the player enough to share your ${plural ? 'secrets' : 'secret'}: ${secrets}`);
  }
  return lines.length > 0 ? `Memory:\n${lines.join('\n')}` : '';
}
