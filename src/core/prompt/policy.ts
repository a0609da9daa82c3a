/**
 * The settings the prompt builder reads. They live here, below the agent, so the builder does
 * not depend on the agent that uses it; the agent's config carries them as they are.
 */

export interface ContextPolicy {
  trimsHistory: boolean;
  /** Input tokens kept free for the model's own framing. */
  reservedTokens: number;
  /** Overrides the model's input limit (the ~4000 tokens of Gemini Nano). */
  maxInputTokens?: number;
  /** Each tool output shown to the model is cut to this many characters. */
  maxToolOutputChars: number;
  /** Completed turns always sent, even when the budget is tight (as the seed: 1). */
  minimumRecentTurns: number;
}

export interface AgentLabels {
  user: string;
  assistant: string;
  /**
   * What the assistant writes when it is not a reply to a conversation (a content generator's
   * `content`): the prompt then asks for "the content Game asked for", not "Writer's new reply".
   */
  writes?: string;
}

/** How the prompt names the answer: "Mira's reply", or "The content" for a generator. */
export function answerName(labels: AgentLabels): string {
  return labels.writes ? `The ${labels.writes}` : `${labels.assistant}'s reply`;
}

/** What a step prompt is built from, besides the turn itself. */
export interface PromptSettings {
  context: ContextPolicy;
  labels: AgentLabels;
  /** How an earlier structured reply appears in the conversation (default `key: value; …`). */
  structuredReplyRenderer?: (value: unknown) => string;
}
