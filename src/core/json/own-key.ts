/**
 * Writes a member as plain data. `obj["__proto__"] = v` would replace the object's prototype
 * (a model writing `{"__proto__": {"admin": true}}` would make `obj.admin` true with no own
 * key), so that one key is defined as an own property instead; every other key is assigned.
 */
export function setOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
