/**
 * The decide step's reading of calls written in a model family's own syntax (`core/calls`):
 * the first call that names an available tool and was read with certainty is the answer; an
 * unknown name before it does not block it. Calls to known tools that could not be read are
 * returned beside it as not made, or, when no call could be read, become the problem the repair
 * prompt names. Calls written as JSON are left to the envelope reader, which knows the reply
 * forms and the synonyms.
 */
import { findCalls, MARKUP_CALL_READERS } from '../calls/find-calls';
import type { CallReadContext, WrittenCall } from '../calls/written-call';
import { setOwnKey } from '../json/own-key';
import { isRespondWord, resolveToolName } from './names';
import type { EnvelopeContext, EnvelopeParse } from './envelope-parse';

/** What the call readers need to know of the tools: fuzzy names for markup, exact ones for calls inside words. */
export function callContext(toolNames: readonly string[]): CallReadContext {
  return {
    isTool: (name) => resolveToolName(name, toolNames) !== undefined,
    isExactTool: (name) => toolNames.indexOf(name) >= 0,
  };
}

export function readFamilyCall(source: string, ctx: EnvelopeContext): EnvelopeParse | undefined {
  const calls = findCalls(source, callContext(ctx.toolNames), MARKUP_CALL_READERS);
  if (calls.length === 0) return undefined;
  const unread: Array<{ tool: string; problem: string }> = [];
  let chosen: { tool: string; args: Record<string, unknown> } | undefined;
  for (const call of calls) {
    const tool = resolveToolName(call.name, ctx.toolNames);
    if (!tool) continue;
    const args = callArguments(call, tool, ctx);
    if (!chosen && 'args' in args) chosen = { tool, args: args.args };
    else if ('problem' in args) unread.push({ tool, problem: args.problem });
  }
  if (chosen) {
    const parse: EnvelopeParse = { kind: 'call', tool: chosen.tool, argCandidates: [chosen.args] };
    if (unread.length > 0) parse.unread = unread;
    return parse;
  }
  if (unread.length > 0)
    return { kind: 'invalid', problem: `${unread[0].tool}: ${unread[0].problem}`, tool: unread[0].tool };
  // Only unknown names: a respond word is left to the readers after this one, anything else is named.
  const unknown = calls.find((call) => !isRespondWord(call.name));
  if (!unknown) return undefined;
  const options = ctx.toolNames.slice();
  if (ctx.allowRespond) options.push('reply');
  return {
    kind: 'invalid',
    problem: `${unknown.name} is not an available tool; use one of: ${options.join(', ') || 'nothing'}`,
  };
}

/** A call's arguments as an object: positional ones mapped by the tool's parameter order when that is certain. */
export function callArguments(
  call: WrittenCall,
  tool: string,
  ctx: Pick<EnvelopeContext, 'parameterOrder'>,
): { args: Record<string, unknown> } | { problem: string } {
  if (!call.args) return { problem: call.problem ?? 'its arguments could not be read' };
  if (!call.positional) return { args: call.args };
  const order = ctx.parameterOrder?.(tool);
  const named = Object.keys(call.args);
  if (!order || call.positional.length > order.length)
    return { problem: 'its arguments were written without names; write them as name="value"' };
  const args: Record<string, unknown> = {};
  for (let index = 0; index < call.positional.length; index++) {
    if (named.indexOf(order[index]) >= 0) return { problem: `${order[index]} was given twice` };
    setOwnKey(args, order[index], call.positional[index]);
  }
  for (const key of named) setOwnKey(args, key, call.args[key]);
  return { args };
}
