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
  tools?: ReadonlyArray<{ name: string; description?: string; parameterless?: boolean }>;
  chunkDelayMs?: number;
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
  const p = normalizePersona(parsePersona(persona));
  const tools = options.tools ?? [];
  let fallback = 0;
  const rules: KeywordRule[] = [
    { when: GOODBYE, reply: { emotion: p.defaultEmotion, line: 'Farewell, then.', end: true } },
    { when: WHO, reply: { emotion: p.defaultEmotion, line: whoLine(p) } },
    { when: RUMOUR, reply: (ctx) => secretOrDeflection(p, ctx) },
    ...tools
      .filter((tool) => tool.parameterless !== false)
      .map((tool): KeywordRule => ({
        when: new RegExp(`\\b(${toolWords(tool).join('|')})\\b`, 'i'),
        tools: [{ name: tool.name }],
        reply: (ctx) => toolLine(p, tool.name, ctx),
      })),
    {
      when: GOALS,
      reply: {
        emotion: p.defaultEmotion,
        line: p.goals.length > 0 ? `What I want? ${sentence(p.goals[0])}` : fallbackLine(p, 0),
      },
    },
    { when: GREETING, reply: { emotion: 'happy', line: p.greeting || `Well met. I'm ${p.name}.` } },
  ];
  return new KeywordModel({
    rules,
    otherwise: (ctx) => knowledgeLine(p, ctx.said) ?? { emotion: p.defaultEmotion, line: fallbackLine(p, fallback++) },
    barks: p.fallbackLines.length > 0 ? p.fallbackLines : undefined,
    capabilities: { modelName: `keyword stand-in for ${p.name}` },
    chunkDelayMs: options.chunkDelayMs,
  });
}

/** Lines a player could try first, from the persona's own fields. */
export function personaSuggestions(persona: Persona | unknown): string[] {
  const p = normalizePersona(parsePersona(persona));
  const out = [`Hello, ${p.name}!`, 'Who are you?'];
  const topic = p.knowledge.map(topicOf).find(Boolean);
  if (topic) out.push(`What about the ${topic}?`);
  if (p.goals.length > 0) out.push('What are you looking for?');
  out.push('Heard any rumours?', 'Goodbye!');
  return out;
}

function whoLine(p: NormalizedPersona): string {
  const role = p.role ? `, ${p.role}` : '';
  return `I'm ${p.name}${role}.`;
}

function secretOrDeflection(p: NormalizedPersona, ctx: KeywordContext): KeywordReply {
  // The NPC puts an unlocked secret in its memory note; below the threshold the prompt has none.
  const unlocked = p.secrets.find((s) => ctx.prompt.indexOf(s) >= 0);
  if (unlocked) return { emotion: 'suspicious', line: `Between us? ${sentence(unlocked)}` };
  return { emotion: p.defaultEmotion, line: 'Nothing I would share with a stranger.' };
}

function knowledgeLine(p: NormalizedPersona, said: string): KeywordReply | undefined {
  const words = contentWords(said);
  let best: { entry: string; score: number } | undefined;
  for (const entry of p.knowledge) {
    const score = contentWords(entry).filter((w) => words.indexOf(w) >= 0).length;
    if (score > 0 && (!best || score > best.score)) best = { entry, score };
  }
  return best ? { emotion: p.defaultEmotion, line: sentence(best.entry) } : undefined;
}

function toolLine(p: NormalizedPersona, tool: string, ctx: KeywordContext): KeywordReply {
  const result = ctx.toolResults.find((r) => r.tool === tool);
  if (!result) return { emotion: p.defaultEmotion, line: fallbackLine(p, 0) };
  if (/^error/i.test(result.output) || /"error"/.test(result.output))
    return { emotion: 'worried', line: "That didn't work, I'm afraid." };
  // Said in words: JSON in a line would read as the start of the answer's trailer.
  const said = plainWords(result.output);
  const shown = said.length > 120 ? `${said.slice(0, 117)}...` : said;
  return { emotion: p.defaultEmotion, line: `Here's what I have: ${shown}.` };
}

/** `{"horseshoe":4,"sword":40}` → `horseshoe 4, sword 40`; other text as it is, without braces. */
function plainWords(output: string): string {
  try {
    const value = JSON.parse(output) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v).replace(/[{}"]/g, '') : String(v)}`)
        .join(', ');
    }
    if (Array.isArray(value))
      return value.map((v) => (typeof v === 'object' ? JSON.stringify(v).replace(/[{}"]/g, '') : String(v))).join(', ');
  } catch {
    // not JSON: the text itself
  }
  return output.replace(/[{}]/g, '').trim();
}

function fallbackLine(p: NormalizedPersona, index: number): string {
  const lines = p.fallbackLines.length > 0 ? p.fallbackLines : ['Hm? Say that again.', "I'm not sure what you mean."];
  return lines[index % lines.length];
}

function toolWords(tool: { name: string; description?: string }): string[] {
  const fromName = tool.name.split(/[_.\-\s]+/).filter((w) => w.length > 2 && !STOP.has(w.toLowerCase()));
  return fromName.length > 0 ? fromName.map(escapeRegExp) : [escapeRegExp(tool.name)];
}

function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9\u00c0-\uffff]+/)
    .filter((w) => w.length > 2 && !STOP.has(w));
}

/** The first word of four letters or more that says what an entry is about ("mine"). */
function topicOf(entry: string): string {
  return contentWords(entry).find((w) => w.length >= 4) ?? '';
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
