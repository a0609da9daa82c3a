/**
 * The fuzz classes for issue 29's files: persona files (the importer, the validator, the
 * inspector's form round trip) and native scripts (read, then played as an agent turn). What
 * must stay zero: errors that are not AgentErrors, data a Save would lose without listing it,
 * Object.prototype pollution, hangs.
 */
import { Agent, AgentError, AgentTool, validatePersona } from '../../src';
import { ScriptedLanguageModel, readNativeScript } from '../../src/testing';
import { formFromPersona, personaFromForm } from '../../extension/persona/form-model';
import { readPersonaFile } from '../../extension/persona/persona-file';
import { rng } from './fuzz-core';

export interface FileCounts {
  inputs: number;
  nonAgentErrors: number;
  silentLosses: number;
  pollution: number;
  hangs: number;
  /** Native scripts accepted past the bounds (1,000 steps, 1,000 chunks, 1 h of delay) or whose template expanded the player's "$&". */
  unbounded: number;
  firstProblems: string[];
}

/** Counts with nothing found yet: what a clean run ends with, besides its inputs. */
export const emptyFileCounts = (): FileCounts => ({
  inputs: 0,
  nonAgentErrors: 0,
  silentLosses: 0,
  pollution: 0,
  hangs: 0,
  unbounded: 0,
  firstProblems: [],
});

function note(counts: FileCounts, problem: string): void {
  if (counts.firstProblems.length < 5) counts.firstProblems.push(problem.slice(0, 300));
}

const FIELDS = [
  'name',
  'role',
  'personality',
  'speakingStyle',
  'backstory',
  'greeting',
  'goals',
  'knowledge',
  'secrets',
  'fallbackLines',
  'defaultEmotion',
  'maxSentences',
];

/** A persona-shaped value with random fields, types, lengths and hostile keys. */
function personaValue(random: () => number): Record<string, unknown> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const text = () =>
    pick(['Bram', '  the ferryman  ', '', 'Zoë 🍺', `${'.'.repeat(pick([10, 2000]))}x`, 'a\u0000b', 'line\nbreak']);
  const value = (): unknown =>
    pick([text(), 3, true, null, { a: 1 }, [text(), 2], [text()], [{ step: 1 }, 'Keep the inn']]);
  const out: Record<string, unknown> = {};
  for (const field of FIELDS) if (random() < 0.5) out[field] = random() < 0.6 ? text() : value();
  if (random() < 0.8) out.name = text() || 'Bram';
  if (random() < 0.2) out[pick(['mood', 'constructor', 'toString', 'notes'])] = value();
  return out;
}

/** The text of a persona file: JSON, sometimes with a BOM, a `__proto__` key, broken or deep. */
function personaText(random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  let text = JSON.stringify(personaValue(random), null, pick([0, 2]));
  const roll = random();
  if (roll < 0.1) text = `\ufeff${text}`;
  else if (roll < 0.2) text = text.replace(/^\{/, '{"__proto__": {"admin": true}, ');
  else if (roll < 0.25) text = text.slice(0, Math.floor(text.length * random()));
  else if (roll < 0.3) text = text.replace(/^\{/, `{"deep": ${'['.repeat(3000)}1${']'.repeat(3000)}, `);
  return text;
}

/** Equal as Save writes it: texts trimmed, blank list entries left out, a lone text in a list field as its one entry. */
function sameAsSaved(original: unknown, written: unknown): boolean {
  if (typeof original === 'string' && Array.isArray(written))
    return written.length === 1 && written[0] === original.trim();
  if (typeof original === 'string')
    return typeof written === 'string' ? original.trim() === written : original.trim() === '';
  if (Array.isArray(original) && Array.isArray(written) && original.every((entry) => typeof entry === 'string'))
    return (
      JSON.stringify(original.map((entry: string) => entry.trim()).filter((entry) => entry)) === JSON.stringify(written)
    );
  if (
    Array.isArray(original) &&
    original.length > 0 &&
    original.every((entry) => typeof entry === 'string' && !entry.trim())
  )
    return written === undefined;
  return JSON.stringify(original) === JSON.stringify(written);
}

export function fuzzPersonaFiles(count: number, seed: number): FileCounts {
  const random = rng(seed);
  const counts = emptyFileCounts();
  for (let index = 0; index < count; index++) {
    const text = personaText(random);
    counts.inputs++;
    try {
      readPersonaFile(text);
      validatePersona(text);
      const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      let value: unknown;
      try {
        value = JSON.parse(source);
      } catch {
        continue; // not JSON: the inspector shows it read-only (tested), nothing to round-trip
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      const form = formFromPersona(value);
      const written = personaFromForm(form);
      const unshown = (form.unshown ?? []).join('\n');
      for (const key of Object.keys(value)) {
        if (key === '$schema') continue;
        const original = (value as Record<string, unknown>)[key];
        const kept = Object.prototype.hasOwnProperty.call(written, key) ? written[key] : undefined;
        // Unknown keys are kept exactly; persona fields as Save writes them.
        const same = FIELDS.includes(key)
          ? sameAsSaved(original, kept)
          : JSON.stringify(original) === JSON.stringify(kept);
        if (same) continue;
        if (unshown.includes(`${key}:`) || unshown.includes(`${key}[`)) continue;
        counts.silentLosses++;
        note(
          counts,
          `Save changes ${key} without saying: ${JSON.stringify(original)?.slice(0, 80)} → ${JSON.stringify(kept)?.slice(0, 80)}`,
        );
      }
    } catch (error) {
      if (!(error instanceof AgentError)) {
        counts.nonAgentErrors++;
        note(counts, `${(error as Error).message} on ${text.slice(0, 120)}`);
      }
    }
    if (({} as Record<string, unknown>).admin !== undefined) {
      counts.pollution++;
      note(counts, 'Object.prototype gained "admin"');
      delete (Object.prototype as Record<string, unknown>).admin;
    }
  }
  return counts;
}

/** A native script with random steps, bounds and templates. */
function nativeScript(random: () => number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const step = (): unknown => {
    const timing = random() < 0.2 ? { delayMs: pick([0, 5, 1e9, -1, Number.NaN, 3e9]) } : {};
    switch (Math.floor(random() * 6)) {
      case 0:
        return {
          text: pick(['Across.', '', "$& $' {toolOutputs}"]),
          chunks: pick([undefined, 1, 7, 1000, 1001, 1e7, 0]),
          ...timing,
        };
      case 1:
        return {
          toolCalls: [
            { name: pick(['pay_toll', 'nope', '']), arguments: pick([{ coins: 2 }, '{"coins":', [1], { coins: 'x' }]) },
          ],
          ...timing,
        };
      case 2:
        return { json: pick([{ line: 'x' }, null, [1], 'text']), ...timing };
      case 3:
        return { template: pick(['You said {prompt}', '{toolOutput}/{toolOutputs}', '{prompt}{prompt}$&']), ...timing };
      case 4:
        return { error: pick(['refusal', 'busy', 'made_up', 'cancelled']), message: 'scripted' };
      default:
        return pick([{ text: 'a', json: 1 }, {}, null, 'text', { text: 'x', extra: 1 }]);
    }
  };
  return pick([
    'scripted',
    {
      type: 'scripted',
      steps: Array.from({ length: Math.floor(random() * 4) }, step),
      fallback: pick([undefined, 'Mind the water.', step()]),
    },
    { type: 'other' },
    { type: 'scripted', steps: 'x' },
    { type: 'scripted', steps: Array.from({ length: 1001 }, () => ({ text: 'x' })) },
  ]);
}

export async function fuzzNativeScripts(count: number, seed: number): Promise<FileCounts> {
  const random = rng(seed);
  const counts = emptyFileCounts();
  const toll = AgentTool.local(
    {
      name: 'pay_toll',
      description: 'Takes the toll.',
      parameters: { type: 'object', properties: { coins: { type: 'integer' } }, required: ['coins'] },
    },
    () => 'paid',
  );
  for (let index = 0; index < count; index++) {
    const script = nativeScript(random);
    counts.inputs++;
    try {
      const read = readNativeScript(script);
      const steps = (script as { steps?: Array<{ chunks?: number; delayMs?: number }> }).steps ?? [];
      if (
        steps.length > 1000 ||
        steps.some((step) => step && ((step.chunks ?? 0) > 1000 || (step.delayMs ?? 0) > 3_600_000))
      ) {
        counts.unbounded++;
        note(counts, `accepted past the bounds: ${JSON.stringify(script).slice(0, 160)}`);
      }
      const slow = read.steps.concat(read.fallback ? [read.fallback] : []).some((step) => (step.delayMs ?? 0) > 50);
      const model = ScriptedLanguageModel.fromNativeScript(script as never);
      const agent = new Agent(model, { tools: [toll], config: { retry: { maxAttempts: 1, initialDelayMs: 0 } } });
      const run = agent.run('Take me across, {toolOutputs} $&');
      // A long scripted delay is cancelled after a moment: the cancel must end it.
      const timer = slow ? setTimeout(() => run.cancel(), 20) : undefined;
      let hangTimer: ReturnType<typeof setTimeout> | undefined;
      const outcome = await Promise.race([
        run.response().then(
          () => 'done',
          (error: unknown) => (error instanceof AgentError ? 'failed' : error),
        ),
        new Promise((done) => {
          hangTimer = setTimeout(() => done('hang'), 3000);
        }),
      ]);
      clearTimeout(hangTimer);
      if (timer) clearTimeout(timer);
      if (outcome === 'hang') {
        counts.hangs++;
        note(counts, `hang on ${JSON.stringify(script).slice(0, 160)}`);
        run.cancel();
      } else if (outcome === 'done') {
        const text = (await run.response()).text;
        if (text.includes('Take me across,') && !text.includes('$&')) {
          counts.unbounded++;
          note(counts, `the player's "$&" was expanded: ${text.slice(0, 120)}`);
        }
      } else if (outcome !== 'failed') {
        counts.nonAgentErrors++;
        note(counts, `${String(outcome)} on ${JSON.stringify(script).slice(0, 160)}`);
      }
    } catch (error) {
      if (!(error instanceof AgentError)) {
        counts.nonAgentErrors++;
        note(counts, `${(error as Error).message} on ${JSON.stringify(script).slice(0, 160)}`);
      }
    }
  }
  return counts;
}

export function fileProblems(counts: FileCounts): number {
  return counts.nonAgentErrors + counts.silentLosses + counts.pollution + counts.hangs + counts.unbounded;
}
