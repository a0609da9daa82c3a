/**
 * The fuzz classes behind `npm run fuzz` (tests/fuzz/main.ts) and its seeded sample in jest
 * (tests/fuzz/sample.test.ts). Each class drives generated and mutated model outputs through the
 * public API and counts what must never happen: an exception other than AgentError, a hang,
 * Object.prototype polluted, arguments that violate the tool's schema reaching its handler, a
 * state change (history) after a failed or cancelled turn, an event after a cancel.
 */
import {
  Agent,
  AgentError,
  AgentTool,
  AGENT_ERROR_CODES,
  JsonSchema,
  type AgentErrorCode,
  type AgentEvent,
} from '../../src';
import { InlineReplyReader, parseEnvelope } from '../../src/core/envelope';
import { parseLenient } from '../../src/core/json';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { CompletionScanner } from '../../src/core/json/completion-scanner';

export interface FuzzCounts {
  inputs: number;
  nonAgentErrors: number;
  hangs: number;
  pollution: number;
  schemaViolationsReachingHandlers: number;
  stateChangesAfterFailure: number;
  eventsAfterCancel: number;
  firstProblems: string[];
}

export function emptyCounts(): FuzzCounts {
  return {
    inputs: 0,
    nonAgentErrors: 0,
    hangs: 0,
    pollution: 0,
    schemaViolationsReachingHandlers: 0,
    stateChangesAfterFailure: 0,
    eventsAfterCancel: 0,
    firstProblems: [],
  };
}

function note(counts: FuzzCounts, what: string): void {
  if (counts.firstProblems.length < 10) counts.firstProblems.push(what.slice(0, 300));
}

/** mulberry32: a small seeded generator, so every run with one seed is the same run. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS = [
  '{"tool": "take_order", "args": {"item": "ale", "quantity": 2}}',
  '{"reply": "Two ales, coming up!"}',
  '{"reply": {"emotion": "happy", "line": "Welcome!"}}',
  '{"action": "respond", "arguments": {"text": "Hello"}}',
  '```json\n{"tool":"check_menu","args":{}}\n```',
  'take_order(item="ale", quantity=2)',
  '[take_order(item="stew", quantity=1)]',
  '<start_function_call>call:take_order{item:<escape>ale<escape>,quantity:2}<end_function_call>',
  '<think>{"reply":"no"}</think>{"reply":"yes"}',
  'Sure! {"tool": "check_menu"}',
  '{"tool": "take_order", "args": {"item": "ale", "quantity": 1e400, "meta": {"__proto__": {"admin": true}}}}',
  'Assistant: "Ale is 3 gold."',
  '{"reply": "Cheers 🍺!"}',
];

const INSERTS = [
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  ',',
  ':',
  '\\',
  '\\u00',
  '\ud83c',
  '\n',
  '```',
  '__proto__',
  'constructor',
  'prototype',
  '1e400',
  'NaN',
  '-0',
  'null',
  '<think>',
  '</think>',
  '(',
  ')',
  ' '.repeat(50),
  '\u0000',
];

/** One mutated model output. */
export function mutate(random: () => number): string {
  let text = SEEDS[Math.floor(random() * SEEDS.length)];
  const edits = 1 + Math.floor(random() * 4);
  for (let edit = 0; edit < edits; edit++) {
    const at = Math.floor(random() * (text.length + 1));
    const kind = random();
    if (kind < 0.3) text = text.slice(0, at) + INSERTS[Math.floor(random() * INSERTS.length)] + text.slice(at);
    else if (kind < 0.5)
      text = text.slice(0, at); // truncated, as a stream cut short
    else if (kind < 0.65) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 5));
    else if (kind < 0.75) text = text.slice(0, at) + text.slice(at).replace(/"/, "'");
    else if (kind < 0.85) text = `${'{"a":'.repeat(1 + Math.floor(random() * 300))}1`;
    else if (kind < 0.92)
      text = text.slice(0, at) + String.fromCharCode(Math.floor(random() * 0xffff)) + text.slice(at);
    else text = text + text.slice(0, at);
  }
  return text;
}

function polluted(): boolean {
  const probe = {} as Record<string, unknown>;
  return probe.admin !== undefined || probe.polluted !== undefined || Object.keys(Object.prototype).length > 0;
}

/** Parsers: parseEnvelope, parseLenient, the inline reader and the completion scanner, chunk by chunk. */
export function fuzzParsers(count: number, seed: number): FuzzCounts {
  const counts = emptyCounts();
  const random = rng(seed);
  const ctx = { toolNames: ['take_order', 'check_menu'], allowRespond: true };
  for (let index = 0; index < count; index++) {
    const text = mutate(random);
    counts.inputs++;
    const start = Date.now();
    try {
      parseEnvelope(text, ctx);
      parseLenient(text);
      const reader = new InlineReplyReader(ctx.toolNames);
      const scanner = new CompletionScanner();
      const step = 1 + Math.floor(random() * 7);
      for (let end = step; end < text.length + step; end += step) {
        reader.push(text.slice(0, end));
        scanner.push(text.slice(0, end));
      }
    } catch (error) {
      if (!(error instanceof AgentError)) {
        counts.nonAgentErrors++;
        note(counts, `parsers: ${String(error)} on ${JSON.stringify(text)}`);
      }
    }
    if (Date.now() - start > 1000) {
      counts.hangs++;
      note(counts, `parsers: slow (${Date.now() - start} ms) on ${JSON.stringify(text.slice(0, 200))}`);
    }
    if (polluted()) {
      counts.pollution++;
      note(counts, `parsers: Object.prototype polluted by ${JSON.stringify(text)}`);
    }
  }
  return counts;
}

const ORDER_SCHEMA = JsonSchema.obj({
  item: JsonSchema.enumOf(['ale', 'stew']),
  quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }),
});

function tools(counts: FuzzCounts) {
  const order = AgentTool.local(
    { name: 'take_order', description: 'Serves an item.', parameters: ORDER_SCHEMA },
    (args: unknown) => {
      if (ORDER_SCHEMA.validate(args).length > 0 || Object.getPrototypeOf(args) !== Object.prototype) {
        counts.schemaViolationsReachingHandlers++;
        note(counts, `handler got ${JSON.stringify(args)}`);
      }
      return 'served';
    },
  );
  const menu = AgentTool.local({ name: 'check_menu', description: 'Lists the menu.' }, () => ({ ale: 3 }));
  return [order, menu];
}

/** How one 'Two ales' turn ended within 5 s: 'ok', its error, or 'hang'. */
function turnOutcome(agent: Agent): Promise<unknown> {
  return withTimeout(
    agent
      .run('Two ales')
      .response()
      .then(
        () => 'ok' as const,
        (error: unknown) => error,
      ),
    5000,
  );
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'hang'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), ms);
  });
  try {
    return await Promise.race([promise, hang]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** Whole turns whose model answers with mutated outputs. */
export async function fuzzTurns(count: number, seed: number): Promise<FuzzCounts> {
  const counts = emptyCounts();
  const random = rng(seed);
  for (let index = 0; index < count; index++) {
    const outputs = [mutate(random), mutate(random), mutate(random), mutate(random)];
    const model = new ScriptedLanguageModel(
      outputs.map((output) => Script.text(output, 1 + Math.floor(random() * 6))),
      { fallback: Script.reply('Done.') },
    );
    const agent = new Agent(model, { tools: tools(counts), config: { retry: { initialDelayMs: 0 } } });
    await agent.replaceHistory([
      { type: 'prompt', text: 'earlier' },
      { type: 'response', text: 'before' },
    ]);
    const before = JSON.stringify(agent.history);
    counts.inputs++;
    const outcome = await turnOutcome(agent);
    if (outcome === 'hang') {
      counts.hangs++;
      note(counts, `turn hung on ${JSON.stringify(outputs)}`);
    } else if (outcome !== 'ok') {
      if (!(outcome instanceof AgentError)) {
        counts.nonAgentErrors++;
        note(counts, `turn threw ${String(outcome)} on ${JSON.stringify(outputs)}`);
      }
      if (JSON.stringify(agent.history) !== before) counts.stateChangesAfterFailure++;
    }
    if (polluted()) counts.pollution++;
  }
  return counts;
}

/** A one-tool turn cancelled at each of its events in turn, from inside that event's listener. */
export async function fuzzCancels(rounds: number): Promise<FuzzCounts> {
  const counts = emptyCounts();
  for (let round = 0; round < rounds; round++) {
    for (let index = 0; index < 24; index++) {
      let handled = 0;
      const order = AgentTool.local({ name: 'take_order', description: 'Serves.', parameters: ORDER_SCHEMA }, () => {
        handled++;
        return 'ok';
      });
      const model = new ScriptedLanguageModel([
        Script.call('take_order', { item: 'ale', quantity: 2 }, 1 + (round % 5)),
        Script.reply('Two ales!', 1 + (index % 4)),
      ]);
      const agent = new Agent(model, { tools: [order] });
      const run = agent.run('Two ales');
      const seen: AgentEvent[] = [];
      let cancelledAt = -1;
      let handledAtCancel = 0;
      const drain = (async () => {
        for await (const event of run.events) {
          seen.push(event);
          if (seen.length - 1 === index) {
            cancelledAt = index;
            handledAtCancel = handled;
            run.cancel('fuzz');
          }
        }
      })().catch(() => undefined);
      counts.inputs++;
      const outcome = await withTimeout(
        run.response().then(
          () => 'ok' as const,
          (error: unknown) => error,
        ),
        5000,
      );
      await drain;
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (outcome === 'hang') counts.hangs++;
      else if (outcome !== 'ok' && !(outcome instanceof AgentError)) counts.nonAgentErrors++;
      if (cancelledAt >= 0) {
        if (seen.length > cancelledAt + 1) {
          counts.eventsAfterCancel++;
          note(counts, `event ${seen[cancelledAt + 1].type} after a cancel at ${seen[cancelledAt].type}`);
        }
        if (handled > handledAtCancel) counts.eventsAfterCancel++;
        if (outcome !== 'ok' && agent.history.length !== 0) counts.stateChangesAfterFailure++;
      }
    }
  }
  return counts;
}

/** Every code a fault may carry: the contract's own list. */
const CODES: readonly AgentErrorCode[] = AGENT_ERROR_CODES;

/** Every error code at every step of a two-tool turn. */
export async function fuzzErrors(): Promise<FuzzCounts> {
  const counts = emptyCounts();
  for (const code of CODES) {
    for (let step = 0; step < 3; step++) {
      const steps = [
        Script.call('check_menu'),
        Script.call('take_order', { item: 'ale', quantity: 2 }),
        Script.reply('Done.'),
      ];
      steps.splice(step, 0, Script.fail(code, `fuzz ${code}`));
      const model = new ScriptedLanguageModel(steps, { fallback: Script.fail(code) });
      const agent = new Agent(model, {
        tools: tools(counts),
        config: { retry: { initialDelayMs: 0, maxRetryAfterMs: 0 } },
      });
      counts.inputs++;
      const outcome = await turnOutcome(agent);
      if (outcome === 'hang') counts.hangs++;
      else if (outcome !== 'ok') {
        if (!(outcome instanceof AgentError)) counts.nonAgentErrors++;
        if (agent.history.length !== 0) counts.stateChangesAfterFailure++;
      }
    }
  }
  return counts;
}

export function problemsIn(counts: FuzzCounts): number {
  return (
    counts.nonAgentErrors +
    counts.hangs +
    counts.pollution +
    counts.schemaViolationsReachingHandlers +
    counts.stateChangesAfterFailure +
    counts.eventsAfterCancel
  );
}

/** Heap before and after `turns` turns spread over `npcs` NPCs on one scheduler (compaction on). */
export async function heapUnderLoad(
  npcs: number,
  turns: number,
): Promise<{ beforeMb: number; afterMb: number; longestHistory: number; summaries: number }> {
  const { ModelScheduler, NPC } = await import('../../src');
  const gc = (globalThis as { gc?: () => void }).gc;
  const reply = (request: { kind: string }) =>
    request.kind === 'summary'
      ? 'They talked.'
      : JSON.stringify(
          request.kind === 'decide'
            ? { reply: { emotion: 'neutral', line: 'Aye, that is so.' } }
            : { emotion: 'neutral', line: 'Aye.' },
        );
  const inner = new ScriptedLanguageModel([], {
    fallback: Script.dynamic(reply),
    countTokens: (text) => Math.ceil(text.length / 4),
  });
  const shared = new ModelScheduler(inner, { callsPerMinute: 0 });
  const people = Array.from(
    { length: npcs },
    (_, index) =>
      new NPC({
        persona: { name: `Villager ${index}`, role: 'villager' },
        model: shared,
        options: { compactAfterTurns: 8, keepRecentTurns: 2 },
      }),
  );
  if (gc) gc();
  const beforeMb = process.memoryUsage().heapUsed / 1048576;
  let longestHistory = 0;
  for (let turn = 0; turn < turns; turn += npcs) {
    await Promise.all(people.map((npc, npcIndex) => npc.talk(`Line ${turn + npcIndex}: ${'news '.repeat(20)}`)));
    for (const npc of people) longestHistory = Math.max(longestHistory, npc.turnCount);
  }
  // The request log of the scripted model is the test double's, not the game's: drop it before measuring.
  inner.requests.length = 0;
  if (gc) gc();
  const afterMb = process.memoryUsage().heapUsed / 1048576;
  const summaries = people.reduce((total, npc) => total + (npc.memory.summary ? 1 : 0), 0);
  return { beforeMb, afterMb, longestHistory, summaries };
}
