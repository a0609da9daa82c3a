/**
 * The tool loop of one turn. Default (inline) mode: a decide step answers with either a tool
 * call or the reply itself, streamed as it is written, so small talk costs one model call and
 * a one-tool turn two. Seed-compatible mode keeps a separate reply step after every decide.
 * The steps themselves are in their own files (decide-step.ts, arguments-step.ts,
 * respond-step.ts, structured-step.ts), on the try's state (engine-state.ts).
 */
import { abortError } from '../../contract/abort';
import { ToolOutput } from '../tools';
import type { AgentResponse } from './events';
import { EngineState } from './engine-state';
import { resolveTurnTools } from './turn-setup';
import type { DecideOutcome } from './decide-outcome';
import { decideStep } from './decide-step';
import { argumentsStep } from './arguments-step';
import { respondStep } from './respond-step';
import { structuredStep } from './structured-step';
import { prefetchLookups } from './prefetch-lookups';
import { acceptInline } from './inline-reply';
import { refuseCalls, runAfterReply } from './after-reply-calls';

export type { TurnInput, TurnSetup } from './turn-setup';
export type { TurnEngineParts } from './engine-state';

export class TurnEngine extends EngineState {
  async run(): Promise<AgentResponse> {
    const { config } = this.turn;
    const { choice } = this.input;
    const resolved = resolveTurnTools(
      this.setup.tools,
      choice,
      this.input.enabledTools ?? config.toolPolicy.enabledTools,
    );
    const forced = resolved.forced;
    let enabled = resolved.enabled;
    this.current.push({ type: 'prompt', text: this.input.prompt });

    let inline: unknown;
    let inlineProblem: { problem: string; previous: string } | undefined;
    const policy = config.toolPolicy;
    // Line first, a small lookup that can say now what it would return goes into this turn's
    // prompt instead of costing a model call (the menu, a quest log): the words can come first.
    // The lookup stays offered: a model that calls it anyway gets a correct answer, one call later.
    if (this.lineFirst && !forced && choice === 'auto') prefetchLookups(this, enabled);
    const toolsOn = choice !== 'none' && (enabled.length > 0 || forced !== undefined);

    while (toolsOn && this.rounds < policy.maxToolRounds && this.calls < policy.maxToolCalls) {
      const first = this.rounds === 0;
      let outcome: DecideOutcome;
      if (first && forced) {
        if (enabled.indexOf(forced) < 0) break; // forced but not enabled: straight to the reply
        // A parameterless forced tool needs no model step: it just runs (below).
        outcome = forced.isParameterless
          ? { kind: 'call', tool: forced, args: {} }
          : await argumentsStep(this, forced, enabled);
      } else if (first && choice === 'required' && enabled.length === 1) {
        // The only tool the model may use takes no arguments: nothing to ask.
        outcome = enabled[0].isParameterless
          ? { kind: 'call', tool: enabled[0], args: {} }
          : await argumentsStep(this, enabled[0], enabled);
      } else {
        outcome = await decideStep(this, enabled, first && choice === 'required');
      }

      if (outcome.kind === 'call') {
        const key = `${outcome.tool.name} ${JSON.stringify(outcome.args)}`;
        if (config.dedupesToolCalls && this.succeeded.has(key)) break; // the same call again means "reply now"
        const record = await this.execute(outcome.tool, outcome.args);
        if (!ToolOutput.isError(record.output)) this.succeeded.add(key);
        if (first && forced && forced.isParameterless) {
          // Inline mode then decides as usual, without the tool that just ran (it can only run
          // the same way again): the reply comes inline (still 1 call) or the model uses another
          // tool (a grounded NPC looks at the menu, then takes the order). Seed mode goes straight
          // to its reply step, since a decide there would cost a call just to say "respond".
          enabled = enabled.filter((tool) => tool !== forced);
          if (!config.inlineReplies || enabled.length === 0) break;
        }
        continue;
      }
      if (outcome.kind === 'rejected') {
        this.reject(outcome.tool, outcome.args, outcome.problem);
        break;
      }
      if (outcome.kind === 'reply') {
        // Actions written after the words run whether or not the words are usable: the model
        // chose them, and a repair step then sees their results.
        if (outcome.after) await runAfterReply(this, outcome.after);
        if (outcome.refused) refuseCalls(this, outcome.refused, 'that tool is not available now');
        if (config.inlineReplies && outcome.inline !== undefined) {
          const accepted = acceptInline(this, outcome.inline, outcome.envelope);
          if (accepted.ok) inline = accepted.value;
          else inlineProblem = accepted.failure;
        }
        break;
      }
      break; // gave up on an unusable answer: reply without more tools
    }

    if (inline === undefined) {
      if (this.input.schema) inline = await structuredStep(this, this.input.schema, inlineProblem);
      else inline = await respondStep(this);
    }
    return this.finish(inline);
  }

  private finish(reply: unknown): AgentResponse {
    if (this.turn.signal.aborted) throw abortError(this.turn.signal);
    const structured = this.input.schema !== undefined;
    const text = structured ? JSON.stringify(reply) : (reply as string);
    if (!structured) this.turn.showText(text);
    // Actions written after the words come after them in the transcript too, so the next
    // prompt shows the line, then what the game really did (a failed order included).
    const after = this.afterReply
      ? this.current.splice(this.afterReply.from, this.afterReply.to - this.afterReply.from)
      : [];
    this.current.push(structured ? { type: 'response', text, structured: reply } : { type: 'response', text });
    this.current.push(...after);
    const response: AgentResponse = {
      text,
      toolCalls: this.turn.toolCalls.slice(),
      usage: { ...this.turn.usage },
      steps: this.turn.steps.slice(),
      modelCalls: this.turn.modelCalls,
    };
    if (structured) response.structured = reply;
    return response;
  }
}
