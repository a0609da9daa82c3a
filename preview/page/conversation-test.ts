/**
 * "Save as persona test": the conversation on the page written as a persona test file that
 * `npm run persona-test` and the page both run. Each turn expects what the NPC did then: the
 * tools it called (and no others of the profile's), its emotion, and that it answered, so a
 * later edit of the persona that changes the behaviour fails the test. Lines are not pinned:
 * a model's wording changes every run.
 */
import type { PreviewSessionExport } from './conversation-export';
import type { Persona } from '../../src';

export interface ConversationTestInput {
  conversation: PreviewSessionExport;
  /**
   * The profile the conversation ran with, its persona inline (the file runs anywhere, the
   * command line included), or undefined for a persona on its own.
   */
  profile?: Record<string, unknown>;
  /** The profile's game tools, so a turn that called none of them says so. */
  toolNames: string[];
}

export function conversationAsPersonaTest(input: ConversationTestInput): Record<string, unknown> {
  const { conversation, profile, toolNames } = input;
  const turns = conversation.turns.map((turn) => {
    const called = turn.tools.filter((name) => toolNames.indexOf(name) >= 0);
    const expect: Record<string, unknown> = {};
    if (called.length > 0) expect.calls = Array.from(new Set(called));
    const notCalled = toolNames.filter((name) => called.indexOf(name) < 0);
    if (notCalled.length > 0) expect.notCalls = notCalled;
    if (turn.emotion) expect.emotionIn = [turn.emotion];
    // A relationship the designer set before the turn is set again there: the stage it reached is part of the test.
    return { say: turn.say, ...(turn.relationship !== undefined ? { relationship: turn.relationship } : {}), expect };
  });
  const where: { profile: Record<string, unknown> } | { persona: Persona } = profile
    ? { profile }
    : { persona: conversation.persona };
  return { ...where, turns };
}
