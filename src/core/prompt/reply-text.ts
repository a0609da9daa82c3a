/**
 * Cleans a streamed reply so what the player sees only ever grows: drops leading space, a
 * leading speaker label (`Mira:`, `**Mira**:`) and wrapping quotes, and holds back text that
 * could still turn out to be one of those.
 */
const OPEN_QUOTES = '"“‘«\'';
const CLOSE_QUOTES = '"”’»\'';

export function cleanReplyText(raw: string, labels: readonly string[], final: boolean): string {
  let text = raw.replace(/^\s+/, '');
  // A label: `Name:` or `**Name**:` / `**Name:**` / `*Name*:` at the very start.
  for (const label of labels) {
    const forms = [`${label}:`, `**${label}**:`, `**${label}:**`, `*${label}*:`, `${label} says:`];
    for (const form of forms) {
      if (text.toLowerCase().startsWith(form.toLowerCase())) {
        text = text.slice(form.length).replace(/^\s+/, '');
        break;
      }
      if (!final && form.toLowerCase().startsWith(text.toLowerCase())) return '';
    }
  }
  let quoted = false;
  if (text.length > 0 && OPEN_QUOTES.indexOf(text[0]) >= 0) {
    quoted = true;
    text = text.slice(1);
  }
  if (final) {
    text = text.replace(/\s*\[[A-Za-z_][\w.-]* \{[^\]]*\][\s]*$/g, ''); // an echoed tool record
    text = text.trim();
    if (quoted && text.length > 0 && CLOSE_QUOTES.indexOf(text[text.length - 1]) >= 0) text = text.slice(0, -1).trim();
    return text;
  }
  // While streaming, hold back trailing space and a possible closing quote.
  text = text.replace(/\s+$/, '');
  if (quoted && text.length > 0 && CLOSE_QUOTES.indexOf(text[text.length - 1]) >= 0) text = text.slice(0, -1).replace(/\s+$/, '');
  return text;
}
