/**
 * Checks a replay bundle against its published schema (ajv), then for what a schema cannot say:
 * every step has its output (or the error it failed with), so a replay never has to guess what
 * the model said. Every problem is named by its place in the file (`bundle.turns[2].steps[0]`).
 */
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { AgentError } from '../../contract/errors';
import { readJsonInput } from '../../core/json';
import replayBundleSchema from '../../../schemas/replay-bundle.schema.json';
import { REPLAY_BUNDLE_FORMAT, REPLAY_BUNDLE_VERSION, type ReplayBundle } from './replay-bundle';

export { replayBundleSchema as REPLAY_BUNDLE_SCHEMA };

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: true }).compile(replayBundleSchema as object);
  return compiled;
}

function placeOf(instancePath: string): string {
  return `bundle${instancePath.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`;
}

function describe(error: ErrorObject): string {
  const params = error.params as { additionalProperty?: string; allowedValue?: unknown };
  let extra = '';
  if (error.keyword === 'additionalProperties') extra = ` (${String(params.additionalProperty)})`;
  if (error.keyword === 'const') extra = ` ${JSON.stringify(params.allowedValue)}`;
  return `${placeOf(error.instancePath)}: ${error.message ?? 'is not valid'}${extra}`;
}

/** Every problem of a bundle, one line each; empty when it can be replayed. */
export function replayBundleProblems(input: unknown): string[] {
  const value = input as Partial<ReplayBundle> | null;
  // The format and version first, alone: a bundle of another version fails on everything else too.
  if (!value || typeof value !== 'object' || Array.isArray(value)) return ['bundle: must be a JSON object'];
  if (value.format !== REPLAY_BUNDLE_FORMAT)
    return [`bundle.format: must be "${REPLAY_BUNDLE_FORMAT}" (got ${JSON.stringify(value.format)})`];
  if (value.version !== REPLAY_BUNDLE_VERSION)
    return [
      `bundle.version: ${JSON.stringify(value.version)} is not a version this runtime reads (it reads ${REPLAY_BUNDLE_VERSION})`,
    ];
  const validate = validator();
  if (!validate(input)) return (validate.errors ?? []).map(describe);
  const problems: string[] = [];
  (value.turns ?? []).forEach((turn, index) => {
    turn.steps.forEach((step, at) => {
      const where = `bundle.turns[${index}].steps[${at}]`;
      if (step.output === undefined && step.error === undefined)
        problems.push(`${where}: has no "output" (the model's raw text) and no "error"; the replay cannot play it`);
      if (step.output !== undefined && step.error !== undefined)
        problems.push(`${where}: has both "output" and "error"; a step ends one way`);
    });
    if (!turn.isFallback && !turn.error && turn.steps.length === 0 && turn.toolCalls.length === 0)
      problems.push(`bundle.turns[${index}].steps: is empty; an answered turn has at least one model output`);
  });
  return problems;
}

/** The bundle (a copy), or invalid_request listing every problem; nothing is played before. */
export function parseReplayBundle(input: unknown): ReplayBundle {
  const value = readJsonInput(input, 'The replay bundle');
  const problems = replayBundleProblems(value);
  if (problems.length > 0)
    throw new AgentError('invalid_request', `The replay bundle is not valid:\n${problems.join('\n')}`);
  return JSON.parse(JSON.stringify(value)) as ReplayBundle;
}
