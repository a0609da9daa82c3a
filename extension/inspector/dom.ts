/** Small DOM helpers shared by the inspector's sections (no framework in Creator's panel). */

export type MakeElement = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, string>,
  text?: string,
) => HTMLElementTagNameMap[K];

/** `el('div', { class: 'row' }, 'text')` for one document. */
export function elementMaker(doc: Document): MakeElement {
  return (tag, attrs = {}, text) => {
    const node = doc.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
