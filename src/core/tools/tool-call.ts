/** One call the model chose, as the agent runs it (approval hooks and handlers see it too). */
export interface ToolCall {
  /** `call_` followed by 24 letters and digits. */
  id: string;
  name: string;
  args: Record<string, unknown>;
}
