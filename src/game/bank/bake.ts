/**
 * Bakes a line bank: each intent's example lines are played through the real NPC (its persona,
 * tools and world, on whatever model is given: a development server, Chrome's model, a phone's)
 * on a fresh conversation per line and per relationship, and each answer is kept with its
 * intent, emotion, band and the actions it made. The designer then reviews the bank (keep, edit,
 * drop) before it ships; nothing here decides what is good.
 */
import { AgentError } from '../../contract/errors';
import type { LanguageModel } from '../../contract/language-model';
import type { SignalLike } from '../../contract/abort';
import type { AgentTool } from '../../core/tools';
import type { WorldState } from '../world';
import { NPC } from '../npc/npc';
import type { NPCOptions } from '../npc/npc-options';
import type { DialogueTurn } from '../npc/dialogue';
import { normalizePersona, type Persona } from '../persona/persona';
import { parsePersona } from '../persona/validate-persona';
import { parseLineBank, type BankLine, type LineBank } from './line-bank';
import { numberIn } from './count-in';

function withCount(args: Record<string, unknown>, asked: number | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args))
    out[key] = asked !== undefined && value === asked ? '{count}' : value;
  return out;
}

export interface BakeInput {
  persona: Persona | unknown;
  model: LanguageModel;
  /** Intent name → the player lines to play for it (a bank's `intents`). */
  intents: Record<string, string[]>;
  /** A fresh set of tools and world for each played line, so one order does not empty the next one's purse. */
  setup?: () => { tools?: AgentTool[]; world?: WorldState };
  options?: NPCOptions;
  /** Lines played per intent (default 3, the first examples). */
  perIntent?: number;
  /**
   * Relationship bands to bake apart, each `{ from, to? }` (default one band, 0): a line baked
   * at 50 is kept for 50 and above (up to the next band).
   */
  bands?: Array<{ from: number }>;
  /** Situations for barks (default none). */
  barkSituations?: string[];
  signal?: SignalLike;
  /** Called after each line, for a progress display. */
  onLine?: (entry: { intent: string; said: string; line: BankLine }) => void;
}

export async function bakeLineBank(input: BakeInput): Promise<LineBank> {
  const persona = parsePersona(input.persona);
  const name = normalizePersona(persona).name;
  const perIntent = input.perIntent ?? 3;
  if (!(Number.isInteger(perIntent) && perIntent >= 1))
    throw new AgentError('invalid_request', `perIntent must be a whole number ≥ 1; got ${String(perIntent)}.`);
  const intents = Object.entries(input.intents ?? {});
  if (intents.length === 0)
    throw new AgentError('invalid_request', 'Baking needs at least one intent with example lines.');
  const bands = readBands(input.bands);
  const lines: BankLine[] = [];
  for (const [index, { from }] of bands.entries()) {
    const to = index + 1 < bands.length ? bands[index + 1].from - 1 : undefined;
    const band = bands.length > 1 ? { from, to } : undefined;
    for (const [intent, examples] of intents) {
      for (const said of examples.slice(0, perIntent))
        await bakeLine({ input, persona, relationship: from, band, intent, said, lines });
    }
  }
  const barks = await bakeBarks(input, persona);
  const fallbacks = normalizePersona(persona).fallbackLines.map((line) => ({ line }));
  const bank: LineBank = {
    version: 1,
    character: name,
    intents: Object.fromEntries(intents),
    lines,
    ...(fallbacks.length > 0 ? { fallbacks } : {}),
    ...(barks.length > 0 ? { barks } : {}),
  };
  // An intent the model never answered (every try fell back) cannot ship: say which.
  const unanswered = intents
    .map(([intent]) => intent)
    .filter((intent) => !lines.some((line) => line.intent === intent));
  if (unanswered.length > 0)
    throw new AgentError(
      'generation_failed',
      `The model gave no usable answer for ${unanswered.join(', ')}; try again or write those lines by hand.`,
    );
  return parseLineBank(bank);
}

/** The relationship bands, lowest first; each must be in -100..100 and given once. */
function readBands(given: BakeInput['bands']): Array<{ from: number }> {
  const bands = (given ?? [{ from: 0 }]).slice().sort((left, right) => left.from - right.from);
  for (const [index, band] of bands.entries()) {
    if (!(Number.isFinite(band.from) && band.from >= -100 && band.from <= 100))
      throw new AgentError('invalid_request', `bands[${index}].from must be a number from -100 to 100.`);
    if (index > 0 && band.from === bands[index - 1].from)
      throw new AgentError('invalid_request', `bands: ${band.from} is given twice.`);
  }
  return bands;
}

/**
 * Plays one example line on a fresh NPC at the band's relationship and keeps its answer in
 * `lines` (once per intent and wording); a fallback answer is not kept.
 */
async function bakeLine(parts: {
  input: BakeInput;
  persona: Persona;
  relationship: number;
  /** The band the line is kept for, when the bank has more than one. */
  band: { from: number; to: number | undefined } | undefined;
  intent: string;
  said: string;
  lines: BankLine[];
}): Promise<void> {
  const { input, persona, relationship, band, intent, said, lines } = parts;
  const setup = input.setup ? input.setup() : {};
  const npc = new NPC({
    persona,
    model: input.model,
    tools: setup.tools,
    world: setup.world,
    options: input.options,
    memory: { facts: [], relationship, summary: '' },
  });
  try {
    const turn = await npc.talk(said, { signal: input.signal });
    if (turn.isFallback) return;
    const line: BankLine = { intent, line: turn.line, emotion: turn.emotion };
    if (band) {
      line.minRelationship = band.from;
      if (band.to !== undefined) line.maxRelationship = band.to;
    }
    const calls = replayableCalls(turn.toolCalls, said);
    if (calls.length > 0) line.calls = calls;
    if (turn.endsConversation) line.end = true;
    if (!lines.some((kept) => kept.intent === intent && kept.line === line.line)) lines.push(line);
    input.onLine?.({ intent, said, line });
  } finally {
    npc.close();
  }
}

/**
 * Only calls that were made and worked; a number the player said becomes "{count}", so "an ale"
 * later serves one, not the two the baked line was asked for.
 */
function replayableCalls(records: DialogueTurn['toolCalls'], said: string): NonNullable<BankLine['calls']> {
  const asked = numberIn(said);
  return records
    .filter((record) => !record.rejected && !record.refused && record.output.kind !== 'error')
    .filter((record) => !record.call.name.startsWith('read_'))
    .map((record) => ({ name: record.call.name, args: withCount(record.call.args, asked) }));
}

/** One bark per situation, each on a fresh NPC; the same bark twice is kept once. */
async function bakeBarks(input: BakeInput, persona: Persona): Promise<string[]> {
  const barks: string[] = [];
  for (const situation of input.barkSituations ?? []) {
    const npc = new NPC({ persona, model: input.model, options: input.options });
    try {
      const bark = await npc.bark(situation, { signal: input.signal });
      if (bark && barks.indexOf(bark) < 0) barks.push(bark);
    } finally {
      npc.close();
    }
  }
  return barks;
}
