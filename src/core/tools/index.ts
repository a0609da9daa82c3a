export { AgentTool, RESERVED_TOOL_NAMES, checkToolName, checkToolSet, newCallId } from './agent-tool';
export type { ToolCall, ToolContext, ToolHandler, ToolDefinition } from './agent-tool';
export { ToolOutput, isToolOutput } from './tool-output';
export { readSnapshot } from './snapshot';
export type { ToolApproval, ToolVerdict } from './tool-approval';
