/// <reference lib="dom" />
/**
 * The page of the ChromePromptModel browser tests, bundled by esbuild into an IIFE. With
 * `?standin=1` it installs the Prompt API STAND-IN (not Chrome's model) as the global
 * `LanguageModel` before anything runs; without it, the page uses whatever the browser has
 * (the opt-in check on Chrome's real model). The backend finds the API by feature detection.
 */
import { AgentError, Canceller, ChromePromptModel, generateText, type ModelAvailability } from '../../src';
import { createPromptApiStandIn, type BrainInput, type StandInControl } from '../../bench/web/prompt-api-stand-in';
import {
  Observed,
  SCENARIO_NAMES,
  keywordBrain,
  keywordModel,
  rulesFor,
  runScenario,
  type ScenarioName,
  type ScenarioOutcome,
} from '../../bench/web/chrome-scenarios';

const params = new URLSearchParams(location.search);
let brain: (input: BrainInput) => string | Promise<string> = () => 'Hello from the stand-in.';
let control: StandInControl | undefined;
if (params.get('standin') === '1') {
  const made = createPromptApiStandIn({
    availability: (params.get('availability') as 'available' | null) ?? 'available',
    brain: (input) => brain(input),
    chunkChars: 4,
  });
  control = made.control;
  (globalThis as { LanguageModel?: unknown }).LanguageModel = made.api;
}

const downloads: { progress: number[]; result?: string; atLoad?: string } = { progress: [] };
const model = new ChromePromptModel();

// Before anything else ran (no user gesture yet): a download must be refused with what to do.
if (params.get('downloadAtLoad') === '1') {
  downloads.atLoad = `activation=${String(navigator.userActivation?.hasBeenActive)}`;
  model.download().then(
    () => {
      downloads.atLoad += ' done';
    },
    (error: unknown) => {
      downloads.atLoad += ` ${AgentError.from(error).code}: ${AgentError.from(error).message}`;
    },
  );
}

// The download button: its click is the user gesture Chrome needs while the model is downloadable.
document.getElementById('download')?.addEventListener('click', () => {
  model.download({ onProgress: (progress) => downloads.progress.push(progress.fraction) }).then(
    () => {
      downloads.result = 'done';
    },
    (error: unknown) => {
      downloads.result = `${AgentError.from(error).code}: ${AgentError.from(error).message}`;
    },
  );
});

function errorOf(error: unknown): { code: string; message: string } {
  const agentError = AgentError.from(error);
  return { code: agentError.code, message: agentError.message };
}

const api = {
  control: () => control,
  downloads,
  hasPromptApi: () => ChromePromptModel.isSupported(),
  availability: (): Promise<ModelAvailability> => model.availability(),
  download: () =>
    model.download().then(
      () => 'done',
      (error: unknown) => errorOf(error),
    ),
  async generate(
    request: Parameters<ChromePromptModel['generate']>[0],
    abortAfterChunks?: number,
  ): Promise<{
    chunks: string[];
    text?: string;
    finishReason?: string;
    usage?: unknown;
    error?: { code: string; message: string };
  }> {
    const chunks: string[] = [];
    const canceller = new Canceller();
    try {
      for await (const chunk of model.generate(request, canceller.signal)) {
        chunks.push(chunk.text);
        if (chunk.finishReason)
          return { chunks, text: chunk.text, finishReason: chunk.finishReason, usage: chunk.usage };
        if (abortAfterChunks !== undefined && chunks.length >= abortAfterChunks) canceller.abort();
      }
      return { chunks };
    } catch (error) {
      return { chunks, error: errorOf(error) };
    }
  },
  countTokens: (text: string) => model.countTokens(text),
  text: (request: Parameters<ChromePromptModel['generate']>[0]) =>
    generateText(model, request).then(
      (result) => result.text,
      (error: unknown) => errorOf(error),
    ),
  /** Runs the four scenarios; on the stand-in, checks that every prompt reached the browser exactly as the core laid it out. */
  /** The same scenarios on the keyword stand-in directly: what a backend's turns are compared with. */
  async reference(names: ScenarioName[] = SCENARIO_NAMES): Promise<ScenarioOutcome[]> {
    const out: ScenarioOutcome[] = [];
    for (const name of names) out.push(await runScenario(name, new Observed(keywordModel(name))));
    return out;
  },
  async scenarios(
    names: ScenarioName[] = SCENARIO_NAMES,
  ): Promise<Array<ScenarioOutcome | { name: string; error: { code: string; message: string } }>> {
    const out: Array<ScenarioOutcome | { name: string; error: { code: string; message: string } }> = [];
    for (const name of names) {
      const observed = new Observed(new ChromePromptModel());
      const mismatches: string[] = [];
      brain = keywordBrain(observed, rulesFor(name), (input, request) => {
        const stable = [request.systemInstruction, request.promptPrefix].filter(Boolean).join('\n\n');
        if (input.system !== stable || input.prompt !== request.prompt) mismatches.push(request.kind);
      });
      try {
        const outcome = await runScenario(name, observed);
        if (mismatches.length) throw new Error(`prompts changed on the way for ${mismatches.join(', ')}`);
        out.push(outcome);
      } catch (error) {
        out.push({ name, error: errorOf(error) });
      }
      (observed.inner as ChromePromptModel).dispose();
    }
    return out;
  },
};

(globalThis as { OamChromeTest?: unknown }).OamChromeTest = api;
