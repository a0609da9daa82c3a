/** What a tool gives back to the model. An error output never aborts the turn. */
export type ToolOutput =
  { kind: 'text'; text: string } | { kind: 'json'; value: unknown } | { kind: 'error'; message: string };

export const ToolOutput = {
  text(text: string): ToolOutput {
    return { kind: 'text', text };
  },
  json(value: unknown): ToolOutput {
    return { kind: 'json', value };
  },
  error(message: string): ToolOutput {
    return { kind: 'error', message };
  },
  /** Reads whatever a handler returned: a string is text, a ToolOutput stays, anything else is JSON. */
  of(value: unknown): ToolOutput {
    if (typeof value === 'string') return { kind: 'text', text: value };
    if (isToolOutput(value)) return value;
    return { kind: 'json', value: value === undefined ? null : value };
  },
  /** The text the model sees: compact JSON for json, `Error: …` for errors. */
  render(output: ToolOutput): string {
    switch (output.kind) {
      case 'text':
        return output.text;
      case 'json':
        return JSON.stringify(output.value) ?? 'null';
      case 'error':
        return `Error: ${output.message}`;
    }
  },
  isError(output: ToolOutput): boolean {
    return output.kind === 'error';
  },
};

export function isToolOutput(value: unknown): value is ToolOutput {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as { kind?: unknown; text?: unknown; message?: unknown };
  return (
    (fields.kind === 'text' && typeof fields.text === 'string') ||
    (fields.kind === 'error' && typeof fields.message === 'string') ||
    (fields.kind === 'json' && 'value' in (value as object))
  );
}
