/**
 * The tools and handlers a game's code adds to an NPCComponent (registerTool,
 * registerProfileHandler): checked before they change anything, replaced by name.
 */
import { AgentError, AgentTool } from '../runtime/oam-core.js';
import type { ProfileToolHandler } from '../runtime/oam-core.js';

/** `tools` with `tool` in place of any tool of its name; throws when it is not an AgentTool. */
export function withTool(tools: AgentTool[], tool: AgentTool): AgentTool[] {
  if (!(tool instanceof AgentTool))
    throw new AgentError(
      'invalid_request',
      'registerTool needs an AgentTool (AgentTool.local(...) or AgentTool.external(...)).',
    );
  return withoutTool(tools, tool.name).concat([tool]);
}

export function withoutTool(tools: AgentTool[], name: string): AgentTool[] {
  return tools.filter((existing) => existing.name !== name);
}

/** `handlers` with `handler` under `name`; throws when it is not a function. */
export function withHandler(
  handlers: Record<string, ProfileToolHandler>,
  name: string,
  handler: ProfileToolHandler,
): Record<string, ProfileToolHandler> {
  if (typeof handler !== 'function')
    throw new AgentError('invalid_request', `registerProfileHandler("${name}") needs a function.`);
  return { ...handlers, [name]: handler };
}
