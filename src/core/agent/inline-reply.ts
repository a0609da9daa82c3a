/**
 * Whether a reply written inline (in the decide step) is usable, and the reply check the
 * structured step shares: the schema's, then the run's own refine.
 */
import type { JsonSchema } from '../schema';
import { isPlainObject } from '../json';
import { visible } from './shown-text';
import type { EngineState } from './engine-state';

/**
 * Takes the inline reply if it is usable. For a structured turn a small model sometimes drops
 * the wrapper and writes the reply object itself (`{"emotion": …, "line": …}`): that whole
 * envelope counts when it fits the schema, instead of costing a repair.
 */
export function acceptInline(
  engine: EngineState,
  value: unknown,
  envelope?: unknown,
): { ok: true; value: unknown } | { ok: false; failure: { problem: string; previous: string } } {
  const schema = engine.input.schema;
  if (!schema) {
    if (typeof value !== 'string')
      return { ok: false, failure: { problem: 'the reply must be text', previous: JSON.stringify(value) } };
    const text = visible(engine, value, true);
    return text ? { ok: true, value: text } : { ok: false, failure: { problem: 'the reply was empty', previous: '' } };
  }
  const checked = checkReply(engine, schema, value);
  if (checked.ok) return { ok: true, value: checked.value };
  if (isPlainObject(envelope) && envelope !== value) {
    const whole = checkReply(engine, schema, envelope);
    if (whole.ok) return { ok: true, value: whole.value };
  }
  return { ok: false, failure: { problem: checked.problem, previous: JSON.stringify(value) } };
}

/** The schema's check, then the run's own. */
export function checkReply(
  engine: EngineState,
  schema: JsonSchema,
  value: unknown,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  const checked = schema.check(value);
  if (!checked.ok || !engine.input.refine) return checked;
  const problem = engine.input.refine(checked.value);
  return problem ? { ok: false, problem } : checked;
}
