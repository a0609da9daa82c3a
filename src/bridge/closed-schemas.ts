/**
 * Schemas on the wire close as the seed's do (reference §3.8, "Undeclared keys are dropped"):
 * an object with `properties` and no `additionalProperties` is read as closed, so a key the
 * model invents is dropped from tool arguments and structured answers instead of reaching the
 * game. `allOf` members stay open (they describe parts of one object). An explicit
 * `additionalProperties` is kept as sent.
 */
import { setOwnKey } from '../core/json';
import { isRecord } from './params';

const MEMBER_LISTS = ['anyOf', 'oneOf'];
const MEMBER_MAPS = ['properties', '$defs', 'definitions'];

/** Sets an own member, also one named `__proto__` (which a plain assignment would swallow). */
const put = (target: Record<string, unknown>, key: string, value: unknown): void => setOwnKey(target, key, value);

function closed(node: unknown, open: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => closed(item, false));
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (MEMBER_MAPS.indexOf(key) >= 0 && isRecord(value)) {
      const members: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(value)) put(members, name, closed(member, false));
      put(out, key, members);
    } else if (MEMBER_LISTS.indexOf(key) >= 0 && Array.isArray(value)) {
      put(
        out,
        key,
        value.map((member) => closed(member, false)),
      );
    } else if (key === 'allOf' && Array.isArray(value)) {
      put(
        out,
        key,
        value.map((member) => closed(member, true)),
      );
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not') {
      put(out, key, closed(value, false));
    } else {
      put(out, key, value);
    }
  }
  if (!open && isRecord(node.properties) && !Object.prototype.hasOwnProperty.call(node, 'additionalProperties'))
    put(out, 'additionalProperties', false);
  return out;
}

/** A copy of a client's schema with its objects closed; anything that is not a schema object is returned as is. */
export function closedWireSchema(raw: unknown): unknown {
  return closed(raw, false);
}
