/**
 * A line bank (schemas/line-bank.schema.json): a character's answers written or baked ahead of
 * time, by intent, for players whose device has no model. Checked with ajv against the
 * published schema, then for what a schema cannot say (a line's intent must be one the bank
 * defines, a band must not be empty), every problem named by its place in the file.
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { AgentError } from '../../contract/errors';
import lineBankSchema from '../../../schemas/line-bank.schema.json';

export { lineBankSchema as LINE_BANK_SCHEMA };

export type WorldCondition = string | number | boolean | null | { min?: number; max?: number };

export interface BankLine {
  intent?: string;
  line: string;
  emotion?: string;
  minRelationship?: number;
  maxRelationship?: number;
  secret?: boolean;
  world?: Record<string, WorldCondition>;
  calls?: Array<{ name: string; args?: Record<string, unknown> }>;
  end?: boolean;
  /** Said instead when the game refuses one of the line's calls. */
  ifRefused?: { line: string; emotion?: string };
}

export interface LineBank {
  version: 1;
  character: string;
  /** Intent name → example player lines. */
  intents: Record<string, string[]>;
  lines: BankLine[];
  fallbacks?: BankLine[];
  barks?: string[];
}

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: true }).compile(lineBankSchema as object);
  return compiled;
}

/** Every problem of a bank, as `bank.lines[3].intent: …` lines; empty when it is usable. */
export function lineBankProblems(input: unknown): string[] {
  const validate = validator();
  if (!validate(input)) {
    return (validate.errors ?? []).map((error) => {
      const where = `bank${error.instancePath.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`;
      const extra =
        error.keyword === 'additionalProperties'
          ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})`
          : '';
      return `${where}: ${error.message ?? 'is not valid'}${extra}`;
    });
  }
  const bank = input as LineBank;
  const problems: string[] = [];
  const check = (line: BankLine, where: string, needsIntent: boolean) => {
    if (needsIntent && line.intent === undefined) problems.push(`${where}.intent: is required for a line`);
    if (line.intent !== undefined && !Object.prototype.hasOwnProperty.call(bank.intents, line.intent))
      problems.push(`${where}.intent: "${line.intent}" is not one of the bank's intents`);
    if (line.minRelationship !== undefined && line.maxRelationship !== undefined)
      if (line.minRelationship > line.maxRelationship)
        problems.push(
          `${where}: minRelationship ${line.minRelationship} is above maxRelationship ${line.maxRelationship}`,
        );
  };
  bank.lines.forEach((line, index) => check(line, `bank.lines[${index}]`, true));
  (bank.fallbacks ?? []).forEach((line, index) => check(line, `bank.fallbacks[${index}]`, false));
  for (const intent of Object.keys(bank.intents))
    if (!bank.lines.some((line) => line.intent === intent)) problems.push(`bank.intents.${intent}: no line answers it`);
  return problems;
}

/** The bank, or invalid_request listing every problem (before any turn is played). */
export function parseLineBank(input: unknown): LineBank {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new AgentError('invalid_request', `The line bank is not JSON: ${(error as Error).message}`);
    }
  }
  const problems = lineBankProblems(value);
  if (problems.length > 0)
    throw new AgentError('invalid_request', `The line bank is not valid:\n${problems.join('\n')}`);
  return JSON.parse(JSON.stringify(value)) as LineBank;
}
