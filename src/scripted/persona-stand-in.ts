/**
 * A keyword stand-in built from one persona, for previews of any NPC: it answers from the
 * persona's own fields (greeting, goals, knowledge, fallback lines; a secret only once the
 * prompt says it is unlocked) and calls the tools it is given when the player's words name
 * them, never another NPC's lines. It is not a language model and says so where it is shown;
 * its point is to let a designer try the flow, the tools and the state before a real model.
 */
import { KeywordModel, type KeywordContext, type KeywordReply, type KeywordRule } from './keyword-model';
import { normalizePersona, type NormalizedPersona, type Persona } from '../game/persona/persona';
import { parsePersona } from '../game/persona/validate-persona';

export interface PersonaStandInOptions {
  /**
   * Tools the NPC has, so the stand-in can call the ones the player names. Only tools without
   * parameters are called: a keyword match cannot tell what arguments a tool needs.
   */
  tools?: ReadonlyArray<StandInTool>;
  chunkDelayMs?: number;
}

/**
 * A tool the stand-in may call. One with parameters is called only when it knows every required
 * argument: from `args`, or an enum value the player's line names (`parameters` gives the enums).
 */
export interface StandInTool {
  name: string;
  description?: string;
  parameterless?: boolean;
  /** Words of the player's line that call it (default: the words of its name). */
  words?: string[];
  /** Arguments to call it with. */
  args?: Record<string, unknown>;
  /** Its JSON Schema, to read enums and required arguments from. */
  parameters?: Record<string, unknown>;
}

/** What the preview shows next to a stand-in conversation. */
export const STAND_IN_NOTICE =
  "Keyword stand-in: it answers by matching words (from the persona's fields, or the sample's scripted evening); it is not a language model. Choose a server (or Chrome's built-in model) to hear a real one.";

const GREETING = /\b(hello|hi|hey|evening|morning|greetings|good day)\b/i;
const GOODBYE = /\b(bye|goodbye|goodnight|farewell|see you)\b/i;
const GOALS = /\b(want|need|goal|looking for|after|plan|dream)\b/i;
const WHO = /\b(who are you|your name|about yourself|what do you do)\b/i;
const RUMOUR = /\b(secrets?|rumou?rs?|gossip|news|heard|tell me something)\b/i;
/** Words too common to tie a line to a knowledge entry or a tool. */
const STOP = new Set([
  'the',
  'a',
  'an',
  'and',
  'or',
  'of',
  'to',
  'in',
  'on',
  'is',
  'are',
  'was',
  'her',
  'his',
  'their',
  'you',
  'your',
  'me',
  'my',
  'i',
  'it',
  'for',
  'with',
  'what',
  'who',
  'how',
  'do',
  'does',
  'any',
  'some',
  'about',
  'that',
  'this',
  'there',
  'have',
  'has',
  'be',
  'can',
  'tell',
]);

/** Throws invalid_request (naming the problems) for a persona that does not validate. */
export function createPersonaStandIn(persona: Persona | unknown, options: PersonaStandInOptions = {}): KeywordModel {
  const normalized = normalizePersona(parsePersona(persona));
  const tools = options.tools ?? [];
  let fallback = 0;
  const rules: KeywordRule[] = [
    { when: GOODBYE, reply: { emotion: normalized.defaultEmotion, line: 'Farewell, then.', end: true } },
    { when: WHO, reply: { emotion: normalized.defaultEmotion, line: whoLine(normalized) } },
    { when: RUMOUR, reply: (ctx) => secretOrDeflection(normalized, ctx) },
    ...tools.flatMap((tool) => toolRules(tool, (ctx) => toolLine(normalized, tool.name, ctx))),
    ...sampleLineRules(normalized),
    {
      when: GOALS,
      reply: {
        emotion: normalized.defaultEmotion,
        line:
          normalized.goals.length > 0 ? `What I want? ${sentence(normalized.goals[0])}` : fallbackLine(normalized, 0),
      },
    },
    { when: GREETING, reply: (ctx) => greetingReply(normalized, ctx) },
  ];
  return new KeywordModel({
    rules,
    otherwise: (ctx) =>
      knowledgeLine(normalized, ctx.said) ?? {
        emotion: normalized.defaultEmotion,
        line: fallbackLine(normalized, fallback++),
      },
    barks: normalized.fallbackLines.length > 0 ? normalized.fallbackLines : undefined,
    capabilities: { modelName: `keyword stand-in for ${normalized.name}` },
    chunkDelayMs: options.chunkDelayMs,
  });
}

/** Lines a player could try first, from the persona's own fields. */
export function personaSuggestions(persona: Persona | unknown): string[] {
  const normalized = normalizePersona(parsePersona(persona));
  const out = [`Hello, ${normalized.name}!`, 'Who are you?'];
  const topic = normalized.knowledge.map(topicOf).find(Boolean);
  if (topic) out.push(`What about the ${topic}?`);
  if (normalized.goals.length > 0) out.push('What are you looking for?');
  out.push('Heard any rumours?', 'Goodbye!');
  return out;
}

function whoLine(persona: NormalizedPersona): string {
  const role = persona.role ? `, ${persona.role}` : '';
  return `I'm ${persona.name}${role}.`;
}

function secretOrDeflection(persona: NormalizedPersona, ctx: KeywordContext): KeywordReply {
  // The NPC puts an unlocked secret in its memory note; below the threshold the prompt has none.
  const secrets = persona.secrets.concat(...persona.stages.map((stage) => stage.secrets));
  const unlocked = secrets.find((secret) => ctx.prompt.indexOf(secret) >= 0);
  if (unlocked) return { emotion: 'suspicious', line: `Between us? ${sentence(firstPerson(persona, unlocked))}` };
  return { emotion: persona.defaultEmotion, line: 'Nothing I would share with a stranger.' };
}

/** The stage the prompt shows (the NPC renders only the current one), or undefined. */
function stageInPrompt(
  persona: NormalizedPersona,
  ctx: KeywordContext,
): NormalizedPersona['stages'][number] | undefined {
  const shown = `${ctx.instructions ?? ''}\n${ctx.prompt}`;
  return persona.stages.find((stage) => shown.indexOf(`Your standing with the player: ${stage.name}.`) >= 0);
}

/** The greeting of the stage the NPC is at, else the persona's, in the persona's own mood. */
function greetingReply(persona: NormalizedPersona, ctx: KeywordContext): KeywordReply {
  const stage = stageInPrompt(persona, ctx);
  const line = (stage && stage.greeting) || persona.greeting || `Well met. I'm ${persona.name}.`;
  return { emotion: persona.defaultEmotion, line };
}

/** A player line like one of the persona's sample lines gets that sample's answer. */
function sampleLineRules(persona: NormalizedPersona): KeywordRule[] {
  const rules: KeywordRule[] = [];
  for (const sample of persona.sampleLines) {
    const words = contentWords(sample.player ?? '').filter((word) => word.length >= 4);
    if (words.length === 0) continue;
    rules.push({
      when: new RegExp(`\\b(${words.map(escapeRegExp).join('|')})\\b`, 'i'),
      reply: { emotion: persona.defaultEmotion, line: sample.npc },
    });
  }
  return rules;
}

/**
 * The rules that call a tool: one per enum value of its first enum parameter the player may name
 * (most specific first), then one with the given arguments; none when a required argument stays unknown.
 */
function toolRules(tool: StandInTool, reply: KeywordRule['reply']): KeywordRule[] {
  const words = `(${(tool.words && tool.words.length > 0 ? tool.words.map(escapeRegExp) : toolWords(tool)).join('|')})`;
  const schema = (tool.parameters ?? {}) as { properties?: Record<string, { enum?: unknown[] }>; required?: string[] };
  const properties = schema.properties ?? {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const given = tool.args ?? {};
  const known = (args: Record<string, unknown>) => required.every((name) => args[name] !== undefined);
  const withoutParameters = tool.parameterless !== false && Object.keys(properties).length === 0;
  const rules: KeywordRule[] = [];
  const enumName = Object.keys(properties).find((name) => Array.isArray(properties[name].enum));
  if (enumName) {
    for (const value of properties[enumName].enum as unknown[]) {
      if (typeof value !== 'string' || !value) continue;
      const args = { ...given, [enumName]: value };
      if (!known(args)) continue;
      rules.push({
        when: new RegExp(`^(?=[\\s\\S]*\\b${words}\\b)(?=[\\s\\S]*\\b${escapeRegExp(value)}s?\\b)`, 'i'),
        tools: [{ name: tool.name, args }],
        reply,
      });
    }
  }
  const plain = new RegExp(`\\b${words}\\b`, 'i');
  if (withoutParameters) rules.push({ when: plain, tools: [{ name: tool.name }], reply });
  else if (tool.args !== undefined && known(given))
    rules.push({ when: plain, tools: [{ name: tool.name, args: { ...given } }], reply });
  return rules;
}

function knowledgeLine(persona: NormalizedPersona, said: string): KeywordReply | undefined {
  const words = contentWords(said);
  let best: { entry: string; score: number } | undefined;
  for (const entry of persona.knowledge) {
    const score = contentWords(entry).filter((word) => words.indexOf(word) >= 0).length;
    if (score > 0 && (!best || score > best.score)) best = { entry, score };
  }
  return best ? { emotion: persona.defaultEmotion, line: sentence(firstPerson(persona, best.entry)) } : undefined;
}

function toolLine(persona: NormalizedPersona, tool: string, ctx: KeywordContext): KeywordReply {
  const result = ctx.toolResults.find((recorded) => recorded.tool === tool);
  if (!result) return { emotion: persona.defaultEmotion, line: fallbackLine(persona, 0) };
  if (/^error/i.test(result.output) || /"error"/.test(result.output))
    return { emotion: 'worried', line: "That didn't work, I'm afraid." };
  // Said in words: JSON in a line would read as the start of the answer's trailer.
  const said = plainWords(result.output);
  const shown = said.length > 120 ? `${said.slice(0, 117)}...` : said;
  return { emotion: persona.defaultEmotion, line: `Here's what I have: ${shown}.` };
}

/** `{"horseshoe":4,"sword":40}` → `horseshoe 4, sword 40`; other text as it is, without braces. */
function plainWords(output: string): string {
  try {
    const value = JSON.parse(output) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.entries(value as Record<string, unknown>)
        .map(
          ([key, entry]) =>
            `${key} ${typeof entry === 'object' ? JSON.stringify(entry).replace(/[{}"]/g, '') : String(entry)}`,
        )
        .join(', ');
    }
    if (Array.isArray(value))
      return value
        .map((item) => (typeof item === 'object' ? JSON.stringify(item).replace(/[{}"]/g, '') : String(item)))
        .join(', ');
  } catch {
    // not JSON: the text itself
  }
  return output.replace(/[{}]/g, '').trim();
}

function fallbackLine(persona: NormalizedPersona, index: number): string {
  const lines =
    persona.fallbackLines.length > 0 ? persona.fallbackLines : ['Hm? Say that again.', "I'm not sure what you mean."];
  return lines[index % lines.length];
}

function toolWords(tool: { name: string; description?: string }): string[] {
  const fromName = tool.name.split(/[_.\-\s]+/).filter((word) => word.length > 2 && !STOP.has(word.toLowerCase()));
  return fromName.length > 0 ? fromName.map(escapeRegExp) : [escapeRegExp(tool.name)];
}

function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9\u00c0-\uffff]+/)
    .filter((word) => word.length > 2 && !STOP.has(word));
}

/** The first word of four letters or more that says what an entry is about ("mine"). */
function topicOf(entry: string): string {
  return contentWords(entry).find((word) => word.length >= 4) ?? '';
}

/** First-person forms of the verbs whose third-person form is not the plain verb plus -s. */
const FIRST_PERSON_VERBS: Record<string, string> = {
  is: 'am',
  has: 'have',
  does: 'do',
  "isn't": 'am not',
  "hasn't": "haven't",
  "doesn't": "don't",
};

/** "owes" → "owe", "watches" → "watch", "carries" → "carry"; a past or modal verb stays. */
function firstPersonVerb(verb: string): string {
  if (FIRST_PERSON_VERBS[verb]) return FIRST_PERSON_VERBS[verb];
  if (/ies$/.test(verb)) return verb.slice(0, -3) + 'y';
  if (/(?:ss|sh|ch|x|o)es$/.test(verb)) return verb.slice(0, -2);
  if (/[^s]s$/.test(verb)) return verb.slice(0, -1);
  return verb;
}

/**
 * Designers write knowledge and secrets about the character ("She forged the royal seal…",
 * "Hilde owes the guild money"); said by the character it starts "I forged…", "I owe…". Only a
 * sentence whose subject is the character (its first name, she or he, then a lower-case word)
 * changes: its subject, its verb and her/his before a word; "The mine is flooded" and "They
 * say…" stay as written.
 */
function firstPerson(persona: NormalizedPersona, text: string): string {
  const name = escapeRegExp(persona.name.split(/\s+/)[0] || persona.name);
  const match = new RegExp(`^(?:${name}|she|he)\\s+([\\w']+)(.*)$`, 'i').exec(text.trim());
  if (!match || !/^[a-z]/.test(match[1])) return text;
  // Her or his before a word is the character's own then ("her hammer" → "my hammer").
  const rest = match[2].replace(/\b(?:her|his)\b(?=\s+\w)/gi, 'my');
  return `I ${firstPersonVerb(match[1])}${rest}`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
