/**
 * Plays every scenario `runs` times against one model and keeps everything a score or a
 * reader of the report needs: per item the first action, the check, each model step as the
 * model wrote it, and the time from an injectable clock (wall time live, a fake in tests).
 * Items run one at a time: a local server or an on-device model answers one request at a time,
 * and a replayed recording must be asked in the order it was made.
 */
import { AgentError, type LanguageModel } from '../src';
import { ProbeModel, type Clock, type StepTrace } from './probe';
import type { EvalScenario, ItemResult, ItemSpec } from './scenarios';

export interface ItemRecord extends ItemSpec, ItemResult {
  /** 1-based run number. */
  run: number;
  /** Set when the item failed with an error instead of an answer (a fallback is not an error). */
  error?: { code: string; message: string };
  steps: StepTrace[];
  latencyMs: number;
}

export interface ScenarioRecord {
  id: string;
  title: string;
  checks: string;
  items: ItemRecord[];
}

export interface RunEvalOptions {
  model: LanguageModel;
  scenarios: readonly EvalScenario[];
  runs: number;
  clock: Clock;
  /** Called after each item, for progress lines. */
  onItem?: (scenario: EvalScenario, record: ItemRecord) => void;
}

export async function runEval(options: RunEvalOptions): Promise<ScenarioRecord[]> {
  const { scenarios, runs, clock, onItem } = options;
  const probe = new ProbeModel(options.model, clock);
  const records: ScenarioRecord[] = [];
  for (const scenario of scenarios) {
    const record: ScenarioRecord = { id: scenario.id, title: scenario.title, checks: scenario.checks, items: [] };
    records.push(record);
    for (let run = 1; run <= runs; run++) {
      const item = async (spec: ItemSpec, play: () => Promise<ItemResult>): Promise<void> => {
        probe.take();
        const started = clock();
        let result: ItemResult;
        let error: ItemRecord['error'];
        try {
          result = await play();
        } catch (thrown) {
          const agentError = AgentError.from(thrown);
          error = { code: agentError.code, message: agentError.message };
          result = { pass: false, detail: `error: ${agentError.code}`, output: '', fallback: false };
        }
        const latencyMs = clock() - started;
        const itemRecord: ItemRecord = { ...spec, ...result, run, steps: probe.take(), latencyMs };
        if (error) itemRecord.error = error;
        record.items.push(itemRecord);
        onItem?.(scenario, itemRecord);
      };
      try {
        await scenario.play({ model: probe, item });
      } catch (thrown) {
        // A scenario that cannot even set up is a bug here, not a model's miss: keep it visible.
        const agentError = AgentError.from(thrown);
        record.items.push({
          input: '(scenario set-up)',
          run,
          pass: false,
          detail: `error: ${agentError.code}`,
          output: '',
          fallback: false,
          error: { code: agentError.code, message: agentError.message },
          steps: probe.take(),
          latencyMs: 0,
        });
      }
    }
  }
  return records;
}
