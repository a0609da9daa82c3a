/** The short last line of each step's prompt: what to write now. Kept short; the rules live in the prefix. */
import type { AgentTool } from '../tools';
import type { JsonSchema } from '../schema';
import type { AgentLabels } from './policy';
import { isPrefetchedLookup, replyTrailerOf, wordsOnlyLabel } from './stable-prefix';

export function decideTask(input: {
  required: boolean;
  enabled: readonly AgentTool[];
  allTools: readonly AgentTool[];
  format: 'lineFirst' | 'inline' | 'seed';
  /** The speaker's label: a line-first step ends on `Mira:`, the cue a model continues from. */
  assistant: string;
}): string {
  const { required, enabled } = input;
  // Line first, a lookup read ahead is not in the catalog: the note only narrows what is listed.
  const listed =
    input.format === 'lineFirst' ? input.allTools.filter((tool) => !isPrefetchedLookup(tool)) : input.allTools;
  const narrowed = listed.some((tool) => enabled.indexOf(tool) < 0)
    ? ` Tools available now: ${enabled.map((tool) => tool.name).join(', ')}.`
    : '';
  if (required) return `Next step: you must use one of the tools now.${narrowed} Answer with one JSON object.`;
  // The prefix says how to answer; the speaker's label is all the step adds (2 tokens, where
  // "Next step: a tool whose result you need, or your reply." cost 12 on every decide step).
  if (input.format === 'lineFirst') return narrowed ? `${narrowed.trim()}\n${input.assistant}:` : `${input.assistant}:`;
  return input.format === 'inline'
    ? `Next step: one JSON object, a tool or your reply.${narrowed}`
    : `Next step: one JSON object, a tool or respond.${narrowed}`;
}

export function argumentsTask(tool: AgentTool): string {
  const desc = tool.description ? ` (${tool.description.replace(/\.$/, '')})` : '';
  return `Use ${tool.name}${desc} now. Write only its arguments as one JSON object with these keys:\n${tool.parameters.renderFields()}\nAnswer with the JSON object only.`;
}

export function respondTask(labels: AgentLabels, usedTools: boolean): string {
  const facts = usedTools ? ', using the facts from the tool results in your own words' : '';
  return `Write ${labels.assistant}'s reply to ${labels.user}'s last message${facts}. Answer with only what ${labels.assistant} says.`;
}

export function structuredTask(labels: AgentLabels, schema: JsonSchema, usedTools: boolean): string {
  const facts = usedTools ? ', using the facts from the tool results' : '';
  const isObject =
    (schema.json as { type?: unknown }).type === 'object' ||
    (schema.json as { properties?: unknown }).properties !== undefined;
  // An object reply's shape is in the stable prefix already (cached), and the request is the
  // prompt's last words: 9 Gemma tokens, where "Write the content Game asked for as the JSON
  // object described above, on its own." cost 18 on every structured step.
  if (isObject) return `Answer with that JSON object only${facts}.`;
  const what = labels.writes
    ? `the ${labels.writes} ${labels.user} asked for`
    : `${labels.assistant}'s new reply to the last message`;
  return `Write ${what}${facts} as JSON of this form: ${schema.render()}.\nAnswer with the JSON only.`;
}

/** A structured reply written line first: the words as plain text, then the other keys as JSON. */
export function lineFirstTask({
  labels,
  schema,
  lineField,
  usedTools,
}: {
  labels: AgentLabels;
  schema: JsonSchema;
  /** The key of the schema written first, as plain text. */
  lineField: string;
  /** Whether the turn has tool results the reply should use. */
  usedTools: boolean;
}): string {
  const facts = usedTools ? ', using the facts from the tool results' : '';
  // The words are the whole reply (a decision's choice): the task says what they are.
  const alone = wordsOnlyLabel(schema, lineField);
  if (alone) return `Write ${labels.assistant}'s ${alone}${facts}, as plain text.`;
  const trailer = replyTrailerOf(schema, lineField).text;
  const then = trailer ? `\n${trailer}` : '';
  const first = lineField === 'line' ? `what ${labels.assistant} says` : `the ${lineField}`;
  return `Write ${labels.assistant}'s new reply to the last message${facts}: first ${first}, as plain text.${then}`;
}

export function repairNote(problem: string, previous: string): string {
  const flat = previous.replace(/\s+/g, ' ').trim();
  const shown = flat.length > 240 ? `${flat.slice(0, 240)}…` : flat;
  return `Your previous answer was invalid: ${problem.replace(/\.$/, '')}.\nPrevious answer: ${shown}\nAnswer again, correctly.`;
}
