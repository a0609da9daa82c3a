/**
 * Looks texts up in the extension's i18n dictionaries (i18n/en.js, i18n/zh.js) and fills in
 * `{name}` placeholders. The editor's own `Editor.I18n.t` is used when it is there; this
 * lookup serves the browser test, Node tests and the fallback when a key is missing.
 */
export type Dictionary = { [key: string]: string | Dictionary };
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

export function lookup(dictionary: Dictionary, key: string): string | undefined {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function fillIn(text: string, vars?: Record<string, string | number>): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** A translator over one dictionary; an unknown key comes back as itself, so it is noticed. */
export function translatorFor(dictionary: Dictionary): Translate {
  return (key, vars) => fillIn(lookup(dictionary, key) ?? key, vars);
}

/** Every key path of a dictionary (`persona.field.name.label`, ...), sorted. */
export function keysOf(dictionary: Dictionary, prefix = ''): string[] {
  const out: string[] = [];
  for (const [name, entry] of Object.entries(dictionary)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (typeof entry === 'string') out.push(path);
    else out.push(...keysOf(entry, path));
  }
  return out.sort();
}
