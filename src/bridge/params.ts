/**
 * Reads a request's params by name (reference §3.1): absent params mean `{}`, a null member
 * counts as absent, a wrong type is −32602 naming the member, and members nobody read can be
 * reported as warnings.
 */
import { invalidParams } from './errors';
import { shown } from './shown';

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface NumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
}

export class ParamReader {
  private readonly values: JsonRecord;
  private readonly read = new Set<string>();

  /** `where` names the params in messages: "params", "params.options", "requests[2]". */
  constructor(
    raw: unknown,
    /** Where these params sit in the request (`params`, `params.requests[1]`), for messages. */
    readonly where = 'params',
  ) {
    if (raw === undefined || raw === null) this.values = {};
    else if (isRecord(raw)) this.values = raw;
    else throw invalidParams(`${where} must be an object (params are by name).`);
  }

  /** The raw value, or undefined when absent or null. */
  any(name: string): unknown {
    this.read.add(name);
    const value = this.values[name];
    return value === null ? undefined : value;
  }

  /** True when the member is there and null: "a key you send wins, even null". */
  isNull(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.values, name) && this.values[name] === null;
  }

  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.values, name);
  }

  string(name: string): string | undefined {
    const value = this.any(name);
    if (value !== undefined && typeof value !== 'string') throw this.wrong(name, 'a string', value);
    return value as string | undefined;
  }

  requiredString(name: string): string {
    const value = this.string(name);
    if (value === undefined) throw invalidParams(`${this.where}.${name} is required (a string).`);
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.any(name);
    if (value !== undefined && typeof value !== 'boolean') throw this.wrong(name, 'true or false', value);
    return value as boolean | undefined;
  }

  number(name: string, rule: NumberRule = {}): number | undefined {
    const value = this.any(name);
    if (value === undefined) return undefined;
    const kind = rule.integer ? 'a whole number' : 'a number';
    if (typeof value !== 'number' || !isFinite(value) || (rule.integer && !Number.isInteger(value))) {
      throw this.wrong(name, kind, value);
    }
    if ((rule.min !== undefined && value < rule.min) || (rule.max !== undefined && value > rule.max)) {
      throw invalidParams(
        `${this.where}.${name} must be ${kind} from ${rule.min ?? '-∞'} to ${rule.max ?? '∞'}; got ${value}.`,
      );
    }
    return value;
  }

  object(name: string): JsonRecord | undefined {
    const value = this.any(name);
    if (value !== undefined && !isRecord(value)) throw this.wrong(name, 'an object', value);
    return value as JsonRecord | undefined;
  }

  array(name: string): unknown[] | undefined {
    const value = this.any(name);
    if (value !== undefined && !Array.isArray(value)) throw this.wrong(name, 'a list', value);
    return value as unknown[] | undefined;
  }

  /** A nested object read the same way (its unknown members are reported under its name). */
  nested(name: string): ParamReader {
    return new ParamReader(this.object(name), `${this.where}.${name}`);
  }

  /** Warnings for members that were sent but never read. */
  unknownWarnings(): string[] {
    return Object.keys(this.values)
      .filter((key) => !this.read.has(key))
      .map((key) => `${this.where}.${shown(key)} is not a known member and was ignored.`);
  }

  private wrong(name: string, expected: string, value: unknown) {
    const got = Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value;
    return invalidParams(`${this.where}.${name} must be ${expected}; got ${got}.`);
  }
}
