/**
 * A rule-driven stand-in model for editor previews, the demo and browser builds: it reads the
 * player's words and the tool results of the turn and answers each step in the format the
 * agent asked for (tool envelope, arguments, inline reply, structured reply or plain text).
 * Deterministic, instant and always available, so a designer can try an NPC without a phone.
 */
import type { SignalLike } from '../contract/abort';
import type {
  GenerationChunk,
  GenerationRequest,
  LanguageModel,
  ModelAvailability,
  ModelCapabilities,
} from '../contract/language-model';
import { DEFAULT_CAPABILITIES } from '../contract/language-model';
import type { ImageInput } from '../contract/image-input';
import { readRenderedTurn } from '../core/prompt/render-conversation';
import { formatCall } from '../core/prompt/stable-prefix';
import { readCompactTable } from '../core/prompt/compact-value';
import { ScriptedLanguageModel, Script } from './scripted-model';

/** The steps of an agent turn, whose prompts hold the turn so far. */
const AGENT_STEPS = new Set<GenerationRequest['kind']>(['decide', 'toolArguments', 'respond', 'structured']);

export interface KeywordReply {
  emotion?: string;
  line: string;
  end?: boolean;
  /** For structured turns other than an NPC's (a decision, generated content): the JSON to answer. */
  json?: unknown;
}

export interface KeywordContext {
  /** The player's words this turn. */
  said: string;
  /** Tool results of this turn so far, in order. */
  toolResults: Array<{ tool: string; args: unknown; output: string }>;
  /** The full prompt of the step (memory note, world summary, conversation). */
  prompt: string;
  /** The step's system instruction and cached prefix (the persona, its current stage, the tools). */
  instructions?: string;
  /** The pictures sent with this turn (the player's badge): their labels are what a rule can read. */
  images: ImageInput[];
}

export interface KeywordRule {
  /** Matches the player's words (a RegExp or a list of words, any of which matches). A rule needs `when`, `image` or both. */
  when?: RegExp | string[];
  /**
   * Matches the turn's pictures: true when there is one, false when there is none, a RegExp or
   * words that some picture's label must match. A rule with both needs both.
   */
  image?: boolean | RegExp | string[];
  /** Tool calls to make first, in order (skipped when the agent does not offer the tool). */
  tools?: Array<{ name: string; args?: Record<string, unknown> }>;
  /** The reply once the tools have run. */
  reply: KeywordReply | string | ((ctx: KeywordContext) => KeywordReply | string);
}

export interface KeywordModelOptions {
  rules: KeywordRule[];
  /** Used when no rule matches. */
  otherwise?: KeywordRule['reply'];
  /** Ambient lines for barks ("text" steps), used in rotation. */
  barks?: string[];
  /** Picks the rule of a step instead of the first whose `when` matches (a line bank's matcher). */
  choose?: (ctx: KeywordContext) => KeywordRule | undefined;
  capabilities?: Partial<ModelCapabilities>;
  chunkDelayMs?: number;
}

export class KeywordModel implements LanguageModel {
  readonly capabilities: ModelCapabilities;
  private readonly inner: ScriptedLanguageModel;
  private barkIndex = 0;

  constructor(private readonly options: KeywordModelOptions) {
    this.capabilities = {
      ...DEFAULT_CAPABILITIES,
      modelName: 'keyword-stand-in',
      imageInput: true,
      ...options.capabilities,
    };
    this.inner = new ScriptedLanguageModel([], {
      capabilities: this.capabilities,
      chunkDelayMs: options.chunkDelayMs ?? 0,
      fallback: Script.dynamic((request) => this.answer(request)),
    });
  }

  /** Every request received, for previews that show the prompts. */
  get requests(): GenerationRequest[] {
    return this.inner.requests;
  }

  availability(): Promise<ModelAvailability> {
    return Promise.resolve({ status: 'available' });
  }

  generate(request: GenerationRequest, signal?: SignalLike): AsyncIterable<GenerationChunk> {
    return this.inner.generate(request, signal);
  }

  private answer(request: GenerationRequest): string {
    // An agent step's prompt holds the turn so far (readRenderedTurn); a bark's or a summary's does not.
    const turn = AGENT_STEPS.has(request.kind) ? readRenderedTurn(request.prompt) : undefined;
    const said = turn?.prompt || lastPlayerLine(request.prompt);
    const results = [...lookupsReadAhead(request.prompt), ...(turn?.toolResults ?? [])];
    const images = request.images ?? [];
    const instructions = `${request.systemInstruction ?? ''}\n${request.promptPrefix ?? ''}`;
    const ctx: KeywordContext = { said, toolResults: results, prompt: request.prompt, instructions, images };
    // A bark or a summary is no answer to the player: `choose` is asked only at an agent step.
    const rule = this.options.choose
      ? turn
        ? this.options.choose(ctx)
        : undefined
      : this.options.rules.find((candidate) => ruleMatches(candidate, said, images));
    const offered = offeredTools(request);
    const pending = (rule?.tools ?? []).filter(
      (tool) => offered.indexOf(tool.name) >= 0 && !results.some((result) => result.tool === tool.name),
    );
    const seedFormat = (request.promptPrefix ?? '').indexOf('"action":') >= 0;
    const structured =
      /reply is a JSON object|is one JSON object|reply has these parts|as one JSON object with these keys|JSON of this form|in brackets|then the \w+ on a new line|Other keys:/.test(
        `${request.promptPrefix ?? ''}${request.prompt}`,
      );
    // The default format asks for the words first, then JSON lines (the other keys, the actions).
    const lineFirst =
      /as plain text\.|^Reply with .*'s words|^Actions(?: \([^)]*\))? go (?:on lines )?after the words|^If you need /m.test(
        `${request.promptPrefix ?? ''}${request.prompt}`,
      );
    const effects = afterReplyTools(request, offered);

    switch (request.kind) {
      case 'toolArguments': {
        const forced = offered.find((name) => request.prompt.indexOf(`Use ${name}`) >= 0);
        const call = (rule?.tools ?? []).find((tool) => tool.name === forced);
        return JSON.stringify(call?.args ?? {});
      }
      case 'decide': {
        const needed = lineFirst ? pending.filter((tool) => effects.indexOf(tool.name) < 0) : pending;
        if (lineFirst && needed.length === 0) {
          return lineFirstAnswer(
            this.reply(rule, ctx),
            structured,
            pending.map((tool) => formatCall(tool.name, tool.args ?? {})),
          );
        }
        if (needed.length > 0) {
          const next = needed[0];
          // Line first, a needed tool is asked for in Gemma's call syntax too.
          if (lineFirst) return formatCall(next.name, next.args ?? {});
          return seedFormat
            ? JSON.stringify({ action: next.name, arguments: next.args ?? {} })
            : JSON.stringify({ tool: next.name, args: next.args ?? {} });
        }
        if (seedFormat) return JSON.stringify({ action: 'respond', arguments: {} });
        const reply = this.reply(rule, ctx);
        return JSON.stringify({ reply: structured ? structuredReply(reply) : reply.line });
      }
      case 'structured': {
        const reply = this.reply(rule, ctx);
        if (reply.json !== undefined) return jsonAnswer(reply.json, request, lineFirst);
        return lineFirst ? lineFirstAnswer(reply, true, []) : JSON.stringify(structuredReply(reply));
      }
      case 'respond': {
        const reply = this.reply(rule, ctx);
        return reply.emotion && /\[happy\]|brackets/.test(`${request.systemInstruction ?? ''}${request.prompt}`)
          ? `[${reply.emotion}] ${reply.line}`
          : reply.line;
      }
      case 'summary':
        return 'The player and the character talked; nothing else of note happened.';
      default: {
        const barks = this.options.barks ?? [];
        if (barks.length === 0) return this.reply(rule, ctx).line;
        return barks[this.barkIndex++ % barks.length];
      }
    }
  }

  private reply(rule: KeywordRule | undefined, ctx: KeywordContext): KeywordReply {
    const source = rule ? rule.reply : (this.options.otherwise ?? 'I am not sure what you mean.');
    const value = typeof source === 'function' ? source(ctx) : source;
    return typeof value === 'string' ? { emotion: 'neutral', line: value } : value;
  }
}

function ruleMatches(rule: KeywordRule, said: string, images: readonly ImageInput[]): boolean {
  if (rule.image !== undefined && !imageMatches(rule.image, images)) return false;
  return rule.when === undefined ? rule.image !== undefined : matches(rule.when, said);
}

function imageMatches(want: NonNullable<KeywordRule['image']>, images: readonly ImageInput[]): boolean {
  if (typeof want === 'boolean') return want === images.length > 0;
  return images.some((image) => matches(want, image.label ?? ''));
}

function matches(when: RegExp | string[], said: string): boolean {
  if (when instanceof RegExp) return when.test(said);
  const lower = said.toLowerCase();
  return when.some((word) => lower.indexOf(word.toLowerCase()) >= 0);
}

function structuredReply(reply: KeywordReply): unknown {
  if (reply.json !== undefined) return reply.json;
  const out: Record<string, unknown> = { emotion: reply.emotion ?? 'neutral', line: reply.line };
  if (reply.end) out.end = true;
  return out;
}

/**
 * A rule's JSON answer, as asked: only the keys the prompt lists (a model writes what it is asked
 * for), and line first when the task asks for one key as plain text.
 */
function jsonAnswer(json: unknown, request: GenerationRequest, lineFirst: boolean): string {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return JSON.stringify(json);
  const text = `${request.promptPrefix ?? ''}${request.prompt}`;
  const compact = /is one JSON object: (\{.*\})$/m.exec(text);
  // The words alone (`Write Brom's choice (one option id), as plain text.`): that key is all.
  const alone = lineFirst ? /'s (\w+)(?: \([^)]*\))?, as plain text/.exec(text) : null;
  const listed = alone
    ? [alone[1]]
    : compact
      ? Array.from(compact[1].matchAll(/"([^"]+)"\??: /g), (match) => match[1])
      : Array.from(text.matchAll(/^- "([^"]+)"/gm), (match) => match[1]);
  const value: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(json as Record<string, unknown>))
    if (listed.length === 0 || listed.indexOf(key) >= 0) value[key] = entry;
  const first = alone ?? (lineFirst ? /first the (\w+), as plain text/.exec(text) : null);
  const key = first ? first[1] : undefined;
  if (key === undefined || typeof value[key] !== 'string') return JSON.stringify(value);
  const words = value[key] as string;
  delete value[key];
  return Object.keys(value).length > 0 ? `${words}\n${JSON.stringify(value)}` : words;
}

/** The words, then the reply's other keys and the actions, one JSON object per line. */
function lineFirstAnswer(reply: KeywordReply, structured: boolean, after: string[]): string {
  const lines = [reply.line];
  if (structured) {
    const rest = structuredReply(reply) as Record<string, unknown>;
    delete rest.line;
    // The emotion as the tag the prompt asks for (`[happy]`), anything optional as JSON.
    if (typeof rest.emotion === 'string') lines.push(`[${rest.emotion}]`);
    delete rest.emotion;
    if (Object.keys(rest).length > 0) lines.push(JSON.stringify(rest));
  }
  return [...lines, ...after].join('\n');
}

/**
 * The tools the prefix says go after the words (`Actions (a, b) go on lines after the words`);
 * without names, every listed tool is one.
 */
function afterReplyTools(request: GenerationRequest, offered: string[]): string[] {
  const prefix = request.promptPrefix ?? '';
  const match = /actions that go with your words \(([^)]*)\)|Actions \(([^)]*)\) go (?:on lines )?after the words/.exec(
    prefix,
  );
  if (match) return (match[1] ?? match[2]).split(/,\s*/);
  if (!/^Actions go after the words/m.test(prefix)) return [];
  // The lookups are named when there are actions too (`If you need what a or b returns`).
  const lookups = /^If you need what (.+) returns, /m.exec(prefix);
  const named = lookups ? lookups[1].split(' or ') : [];
  return offered.filter((name) => named.indexOf(name) < 0);
}

/** A lookup read into the prompt ahead (`check_menu now: ale 3, stew 5`) counts as its result. */
function lookupsReadAhead(prompt: string): KeywordContext['toolResults'] {
  return Array.from(prompt.matchAll(/^([A-Za-z_][\w.-]*) now: (.+)$/gm), (match) => ({
    tool: match[1],
    args: {},
    output: readAhead(match[2]),
  }));
}

/**
 * A lookup read ahead as the lookup itself returns it: a table the prompt writes compactly
 * (`ale 3, stew 5`, compact-value.ts) is JSON again, so a rule reads the same output either way.
 */
function readAhead(text: string): string {
  const table = readCompactTable(text);
  return table ? JSON.stringify(table) : text;
}

/** Tool names listed in the stable prefix's catalog (`- name: …`, or `- name(…): …` line first). */
function offeredTools(request: GenerationRequest): string[] {
  const text = `${request.promptPrefix ?? ''}`;
  const names: string[] = [];
  const re = /^- ([A-Za-z_][\w.-]*)(?:: |\()/gm;
  let match: RegExpExecArray | null;
  while ((match = re.exec(text)) !== null) names.push(match[1]);
  const now = /Tools available now: ([^.]+)\./.exec(request.prompt);
  if (now) return names.filter((name) => now[1].split(/,\s*/).indexOf(name) >= 0);
  return names;
}

function lastPlayerLine(prompt: string): string {
  const lines = prompt.split('\n').filter((line) => /^[^:[\n]{1,40}: /.test(line));
  const last = lines[lines.length - 1] ?? prompt;
  return last.replace(/^[^:]+: /, '');
}
