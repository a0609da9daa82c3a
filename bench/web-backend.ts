/**
 * Bench rows for the web backend: the four scenarios of bench/web/chrome-scenarios.ts (an
 * NPC turn, a tool turn, a decision, content) through ChromePromptModel over the Prompt API
 * STAND-IN (not Chrome's model; Gemma 3 token counts stand in for Chrome's measureContextUsage).
 * Per scenario: model calls, input tokens, the part the clone of the base session already held
 * (the stable prefix: prefilled once per base), output tokens, repair calls, base sessions
 * created and clones. Then the repairs responseConstraint saves, for content whose first answer
 * breaks its schema: the core fills GenerationRequest.responseSchema for content, so the row
 * without responseConstraint takes it off the request.
 */
import { ChromePromptModel, ContentGenerator, JsonSchema, type GenerationRequest, type LanguageModel } from '../src';
import type { PromptApi } from '../src/models/chrome-prompt';
import { createPromptApiStandIn, type BrainInput } from './web/prompt-api-stand-in';
import { Observed, SCENARIO_NAMES, keywordBrain, rulesFor, runScenario } from './web/chrome-scenarios';
import { gemmaTokens } from './tokenizer';

const pad = (value: string | number, width: number) => String(value).padStart(width);

async function scenarioRows(): Promise<void> {
  console.log('\nweb backend (ChromePromptModel over the Prompt API stand-in, Gemma 3 token counts):');
  const head = `${'scenario'.padEnd(12)} ${pad('calls', 5)} ${pad('input', 6)} ${pad('reused', 6)} ${pad('output', 6)} ${pad('repairs', 7)} ${pad('bases', 5)} ${pad('clones', 6)}`;
  console.log(head);
  console.log('-'.repeat(head.length));
  for (const name of SCENARIO_NAMES) {
    let brain: (i: BrainInput) => Promise<string> = async () => '';
    const { api, control } = createPromptApiStandIn({
      brain: (input) => brain(input),
      count: (text) => gemmaTokens(text) + 4,
      chunkChars: 4,
    });
    const observed = new Observed(new ChromePromptModel({ api: api as PromptApi }));
    brain = keywordBrain(observed, rulesFor(name));
    const outcome = await runScenario(name, observed);
    const sum = (key: 'inputTokens' | 'cachedInputTokens' | 'outputTokens') =>
      outcome.steps.reduce((total, step) => total + step[key], 0);
    console.log(
      `${name.padEnd(12)} ${pad(outcome.modelCalls, 5)} ${pad(sum('inputTokens'), 6)} ${pad(sum('cachedInputTokens'), 6)} ${pad(sum('outputTokens'), 6)} ${pad(outcome.repairs, 7)} ${pad(control.log.creates.length, 5)} ${pad(control.log.clones, 6)}`,
    );
    (observed.inner as ChromePromptModel).dispose();
  }
}

/** Content whose unconstrained first answer breaks the schema (rarity "epic"), with and without responseConstraint. */
async function constraintRows(): Promise<void> {
  const schema = JsonSchema.obj({
    name: JsonSchema.string(),
    rarity: JsonSchema.enumOf(['common', 'rare', 'legendary']),
    value: JsonSchema.integer({ minimum: 1, maximum: 100 }),
  });
  const variants: Array<{ constrained: boolean; schemaInPrompt: boolean; label: string }> = [
    { constrained: false, schemaInPrompt: true, label: 'without responseConstraint' },
    { constrained: true, schemaInPrompt: true, label: 'with responseConstraint (schema in the prompt)' },
    { constrained: true, schemaInPrompt: false, label: 'with responseConstraint, schemaInPrompt: false' },
  ];
  for (const { constrained, schemaInPrompt, label } of variants) {
    let answers = 0;
    // Constrained decoding cannot leave the schema; free decoding slips once here.
    const brain = async (input: BrainInput) =>
      input.constraint || answers++ > 0
        ? '{"name":"Lantern of the Crooked Inn","rarity":"rare","value":40}'
        : '{"name":"Lantern of the Crooked Inn","rarity":"epic","value":40}';
    const { api } = createPromptApiStandIn({ brain, count: (text) => gemmaTokens(text) + 4 });
    const chrome = new ChromePromptModel({ api: api as PromptApi, schemaInPrompt });
    // The core's structured step carries the schema it checks; the unconstrained row takes it off.
    const wired: LanguageModel = {
      get capabilities() {
        return chrome.capabilities;
      },
      availability: () => chrome.availability(),
      generate: (request: GenerationRequest, signal) =>
        chrome.generate(
          constrained || request.kind !== 'structured' ? request : { ...request, responseSchema: undefined },
          signal,
        ),
    };
    const observed = new Observed(wired);
    const result = await new ContentGenerator(observed).generate({
      prompt: 'Create one loot item a tavern keeper might hide.',
      schema,
    });
    const taken = observed.take();
    console.log(
      `  content, first answer off-schema, ${label.padEnd(48)} ${result.modelCalls} calls, ${taken.repairs} repairs, ${taken.steps.reduce((total, step) => total + step.inputTokens, 0)} input tokens`,
    );
    chrome.dispose();
  }
}

export async function benchWebBackend(): Promise<void> {
  await scenarioRows();
  console.log(
    '\nrepairs saved by responseConstraint (the schema the core sets on the request, taken off for the first row):',
  );
  await constraintRows();
}
