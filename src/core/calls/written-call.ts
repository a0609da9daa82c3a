/**
 * What a call-family reader returns: each call it found, where it sits in the text, and its
 * arguments, or why they could not be read. A reader never guesses: a call whose arguments are
 * not certain carries a `problem` and no `args`, and is never run.
 */

export type CallFamily = 'gemma4' | 'functionGemma' | 'pythonic' | 'hermes' | 'llama3' | 'json';

export interface WrittenCall {
  family: CallFamily;
  /** The tool name as written (resolved to a registered tool by the caller). */
  name: string;
  /** Named arguments, when they were read with certainty. */
  args?: Record<string, unknown>;
  /** Arguments written by position (`take_order("stew", 3)`), for the caller to map by the tool's parameter order. */
  positional?: unknown[];
  /** Why the arguments could not be read; set when `args` is not. */
  problem?: string;
  /** Where the call's markup starts and ends in the text (end exclusive). */
  start: number;
  end: number;
}

export interface CallReadContext {
  /** Whether a written name refers to one of the game's tools (fuzzy: `takeOrder`, `functions.take_order`). */
  isTool(name: string): boolean;
  /**
   * Whether a name is exactly one of the game's tools: what a call written inside ordinary words
   * must name (`trade (honestly)` and `Attack (him)` are speech, `trade(item="ale")` is a call).
   */
  isExactTool(name: string): boolean;
}

/** One family's reader: every call of that family in the text, in order. */
export type CallReader = (text: string, ctx: CallReadContext) => WrittenCall[];

export const PROBLEM_CUT_OFF = 'the call was cut off before it ended';
export const PROBLEM_UNREADABLE = 'its arguments could not be read; write them as name="value"';

/** A call whose arguments could not be read: recorded, never run. */
export function unreadCall(base: Omit<WrittenCall, 'args' | 'positional' | 'problem'>, problem: string): WrittenCall {
  return { ...base, problem };
}

/** Hard ceiling on nesting inside one call's arguments: deeper is not a game action. */
export const MAX_ARG_DEPTH = 32;

/**
 * Most calls or call openers a reader takes from one output: far more than any turn runs (the
 * turn's call budget is 12), and it keeps garbage with thousands of openers linear.
 */
export const MAX_CALLS = 48;

/** Longest text the readers look at: past it nothing is read as a call (the output caps are far lower). */
export const MAX_READ_CHARS = 40_000;
