/**
 * A client's text as it is echoed in an error or warning: at most 100 characters. A 10 MB id,
 * name or key would otherwise come back whole, sometimes twice (in the message and in `data`).
 */
const MAX_SHOWN = 100;

export function shown(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}
