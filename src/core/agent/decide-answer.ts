/**
 * Reads what a decide step wrote: a line-first reply (with the calls after its words), a call
 * whose result the words need, a JSON envelope's call or inline reply, or the problem that a
 * repair step quotes (with the tool it named, if any).
 */
import type { AgentTool } from '../tools';
import { parseEnvelope } from '../envelope';
import { extractJson, hasCompleteObject } from '../json';
import { readLineFirst } from '../envelope/line-first';
import { stripReasoning } from '../calls/reasoning';
import type { DecideOutcome } from './decide-outcome';
import type { EngineState } from './engine-state';
import { checkArguments } from './check-arguments';
import { lineFirstReply } from './line-first-reply';

/** What a decide step is asked: the tools it may call, and whether it must call one. */
export interface Decision {
  enabled: AgentTool[];
  required: boolean;
}

/** An answer that cannot be used as it is: what is wrong, and the tool (and arguments) it named. */
export interface DecisionProblem {
  kind: 'problem';
  problem: string;
  known?: { tool: AgentTool | undefined; args?: Record<string, unknown> };
}

export function readDecision(engine: EngineState, text: string, ask: Decision): DecideOutcome | DecisionProblem {
  const { enabled, required } = ask;
  const names = enabled.map((tool) => tool.name);
  const written =
    engine.lineFirst && !required ? readLineFirst(stripReasoning(text), engine.trailerKinds()) : undefined;
  // Words before a call whose result is needed ("Let me look.\ncheck_menu()") are a
  // preamble: the call is the answer.
  const needed = written
    ? written.calls.find((call) => enabled.some((tool) => tool.name === call.tool && !tool.sideEffect))
    : undefined;
  if (needed) {
    const tool = enabled.find((candidate) => candidate.name === needed.tool) as AgentTool;
    const checked = checkArguments(tool, needed.argCandidates);
    if (checked.ok) return { kind: 'call', tool, args: checked.args };
  }
  // Words that are a call themselves (`check_menu`, `[check_menu()]`) are read as the call.
  if (
    written &&
    !needed &&
    parseEnvelope(written.line, { toolNames: names, allowRespond: false, parameterOrder: engine.parameterOrder })
      .kind !== 'call'
  ) {
    // Cut by the token limit: the words may stop mid-word, so the reply step writes them whole.
    if (engine.lastFinishReason === 'max_tokens') return { kind: 'reply', inline: undefined };
    return lineFirstReply(engine, written, enabled);
  }
  const env = parseEnvelope(text, {
    toolNames: names,
    allowRespond: !required,
    parameterOrder: engine.parameterOrder,
  });
  if (env.kind === 'respond') {
    // A reply cut off before its JSON closed (the decide step's small output cap, a stream
    // that ended early) must not become the final reply, cut mid-word: the reply step
    // writes it whole instead (its text shown so far is reset).
    const whole = env.reply === undefined || hasCompleteObject(text);
    return {
      kind: 'reply',
      inline: whole ? env.reply : undefined,
      envelope: whole ? extractJson(text)?.value : undefined,
    };
  }
  if (env.kind === 'call') {
    const tool = enabled.find((candidate) => candidate.name === env.tool) as AgentTool;
    const checked = checkArguments(tool, env.argCandidates);
    if (checked.ok) return { kind: 'call', tool, args: checked.args };
    return { kind: 'problem', problem: checked.problem, known: { tool, args: checked.firstArgs } };
  }
  return {
    kind: 'problem',
    problem: env.problem,
    known: env.tool ? { tool: enabled.find((candidate) => candidate.name === env.tool) } : undefined,
  };
}
