/**
 * Line first, small lookups that can say now what they would return go into the turn's note
 * instead of costing a model call (the menu, a quest log), so the words can come first.
 */
import type { AgentTool } from '../tools';
import { readSnapshot } from '../tools/snapshot';
import { isPrefetchedLookup } from '../prompt/stable-prefix';
import { compactValue } from '../prompt/compact-value';
import type { EngineState } from './engine-state';

/**
 * Places parameterless lookups' small snapshots in the turn's note (`check_menu now: ale 3, stew 5`).
 * The prefix does not list such a lookup (isPrefetchedLookup), so one whose snapshot cannot
 * be read this turn (too big, it threw) is offered here instead, to be called as usual.
 */
export function prefetchLookups(engine: EngineState, enabled: readonly AgentTool[]): void {
  const facts: string[] = [];
  for (const tool of enabled) {
    const snapshot = tool.isParameterless ? readSnapshot(tool) : undefined;
    if (snapshot) facts.push(`${tool.name} now: ${compactValue(snapshot.value, snapshot.json)}`);
    else if (isPrefetchedLookup(tool))
      facts.push(`Tool you can call now: ${tool.name}()${tool.description ? `: ${tool.description}` : ''}`);
  }
  if (facts.length > 0) engine.contextNote = [engine.contextNote, facts.join('\n')].filter(Boolean).join('\n\n');
}
