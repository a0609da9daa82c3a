/** What a decide step offers the reader (the context) and what the reader makes of an answer. */
export interface EnvelopeContext {
  /** The tools offered in this step (canonical names). */
  toolNames: readonly string[];
  /** Whether answering without a tool is allowed in this step. */
  allowRespond: boolean;
  /** A tool's parameter names in order, for calls written by position (`take_order("stew", 3)`). */
  parameterOrder?: (tool: string) => readonly string[] | undefined;
}

export type EnvelopeParse =
  | {
      kind: 'call';
      /** The canonical name of a known tool. */
      tool: string;
      /** Argument objects to try, best first; empty means "no arguments" ({}). */
      argCandidates: unknown[];
      /** Other calls to known tools in the same answer that could not be read: recorded, never run. */
      unread?: Array<{ tool: string; problem: string }>;
    }
  | { kind: 'respond'; /** The inline reply (string or object) when the envelope has one. */ reply?: unknown }
  | {
      kind: 'invalid';
      /** One sentence for the repair prompt. */
      problem: string;
      /** Set when the envelope named a known tool. */
      tool?: string;
    };
