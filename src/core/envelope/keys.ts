/**
 * The key spellings the envelope reader understands, all compared after `compactName`
 * (lowercase, alphanumerics only), so `tool_name`, `toolName` and `Tool-Name` are one key.
 */
import { compactName } from './names';

function set(words: string[]): ReadonlySet<string> {
  return new Set(words.map(compactName));
}

/** Single-key objects that only wrap the real envelope; unwrapped up to 3 levels. */
export const WRAPPER_KEYS = set([
  'toolcall',
  'functioncall',
  'step',
  'decision',
  'nextstep',
  'envelope',
  'call',
  'action',
  'toolcalls',
]);

/** Keys naming the action, in the order they are tried. */
export const ACTION_KEYS: readonly string[] = [
  'tool',
  'action',
  'toolname',
  'name',
  'function',
  'functionname',
  'call',
  'nextaction',
  'next',
  'step',
  'command',
  'use',
  'choice',
  'decision',
  'tooltouse',
  'selectedtool',
];

/** Keys holding the arguments, in the order they are tried. */
export const ARGUMENT_KEYS: readonly string[] = [
  'args',
  'arguments',
  'parameters',
  'params',
  'input',
  'inputs',
  'toolinput',
  'actioninput',
  'argument',
  'toolarguments',
  'toolargs',
  'functionarguments',
];

/** Commentary a model adds next to the action; never an argument. */
export const META_KEYS = set([
  'reason',
  'reasoning',
  'thought',
  'thoughts',
  'explanation',
  'why',
  'rationale',
  'comment',
  'note',
  'type',
]);

/** Keys that carry an inline reply (at top level, or inside a respond action's arguments). */
export const REPLY_KEYS = set(['reply', 'text', 'message', 'response', 'content', 'say', 'line']);

export const ACTION_KEY_SET: ReadonlySet<string> = new Set(ACTION_KEYS);
export const ARGUMENT_KEY_SET: ReadonlySet<string> = new Set(ARGUMENT_KEYS);
