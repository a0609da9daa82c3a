/**
 * A recording: what a model answered to each request of one eval, in the order asked, so a run
 * can be shared and replayed without the model (`--record file.json` writes one; the loopback
 * replay server in tests/eval answers from one). Each exchange names the item's input, which
 * the request must contain: a replay that goes out of step says so instead of answering wrong.
 */
import { writeFileSync } from 'node:fs';
import type { ScenarioRecord } from './runner';

export const RECORDING_FORMAT = 'oam-eval-recording';

export interface RecordedExchange {
  scenario: string;
  run: number;
  /** Text the request must contain (the player line, situation or prompt of the item). */
  expect: string;
  kind: string;
  isRepair: boolean;
  /**
   * The model's answer as far as the library read it (it stops once a JSON answer is complete);
   * absent when the step failed.
   */
  output?: string;
  /** The step failed with this message (the replay answers HTTP 500 with it). */
  fail?: string;
}

export interface Recording {
  format: typeof RECORDING_FORMAT;
  version: 1;
  /** Which model answered, as the user named it. */
  model: string;
  note?: string;
  exchanges: RecordedExchange[];
}

export function recordingOf(input: { model: string; note?: string; records: readonly ScenarioRecord[] }): Recording {
  const exchanges: RecordedExchange[] = [];
  for (const record of input.records) {
    for (const item of record.items) {
      for (const step of item.steps) {
        const exchange: RecordedExchange = {
          scenario: record.id,
          run: item.run,
          expect: item.input,
          kind: step.kind,
          isRepair: step.isRepair,
        };
        if (step.error) exchange.fail = step.error.message;
        else exchange.output = step.output;
        exchanges.push(exchange);
      }
    }
  }
  const recording: Recording = { format: RECORDING_FORMAT, version: 1, model: input.model, exchanges };
  if (input.note) recording.note = input.note;
  return recording;
}

export function writeRecording(path: string, recording: Recording): void {
  writeFileSync(path, `${JSON.stringify(recording, null, 2)}\n`);
}

/** Reads a recording, or throws saying what is wrong with it. */
export function readRecording(value: unknown): Recording {
  const candidate = value as Partial<Recording> | null;
  if (
    !candidate ||
    candidate.format !== RECORDING_FORMAT ||
    candidate.version !== 1 ||
    !Array.isArray(candidate.exchanges)
  ) {
    throw new Error(`not an eval recording (expected {"format":"${RECORDING_FORMAT}","version":1,"exchanges":[…]})`);
  }
  candidate.exchanges.forEach((exchange, index) => {
    if (
      typeof exchange?.expect !== 'string' ||
      (typeof exchange.output !== 'string' && typeof exchange.fail !== 'string')
    ) {
      throw new Error(`exchange ${index} needs "expect" and either "output" or "fail"`);
    }
  });
  return candidate as Recording;
}
