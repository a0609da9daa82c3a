/**
 * A recorded turn in a few short lines, for a QA overlay on a phone's screen: who answered, each
 * model step with its prompt tokens (the backend's count, or `~` an estimate) and its time, each
 * tool call with how it ended, and the line.
 */
import { estimateTokens } from '../../contract/language-model';
import type { RecordedStep, RecordedToolCall, RecordedTurn } from './replay-bundle';

function seconds(ms: number | undefined): string {
  return ms === undefined ? '?' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function stepText(step: RecordedStep): string {
  const promptTokens = step.usage
    ? `${step.usage.inputTokens}`
    : `~${estimateTokens(`${step.systemInstruction ?? ''}${step.promptPrefix ?? ''}${step.prompt}`)}`;
  const output = step.usage ? `${step.usage.outputTokens}` : `~${estimateTokens(step.output ?? '')}`;
  const first = step.firstChunkMs !== undefined ? `, first piece ${seconds(step.firstChunkMs)}` : '';
  const ended = step.error ? ` FAILED ${step.error.code}` : '';
  return `${step.kind}: ${promptTokens} prompt + ${output} out tokens, ${seconds(step.ms)}${first}${ended}`;
}

function callText(call: RecordedToolCall): string {
  const args = JSON.stringify(call.args);
  if (call.rejected) return `${call.name}${args} rejected (bad arguments)`;
  if (call.refused !== undefined) return `${call.name}${args} refused: ${call.refused}`;
  const outcome = call.output.kind === 'error' ? `error: ${call.output.message}` : 'ok';
  return `${call.name}${args} → ${outcome}${call.ms !== undefined ? ` (${seconds(call.ms)})` : ''}`;
}

/** The turn's lines: a head line, then its steps and calls indented, then what was said. */
export function summarizeTurn(turn: RecordedTurn, index: number): string[] {
  const lines = [
    `#${index + 1} "${turn.said}" · ${turn.answeredBy} · ${turn.steps.length} step(s) · ${seconds(turn.ms)}`,
  ];
  for (const step of turn.steps) lines.push(`  ${stepText(step)}`);
  for (const call of turn.toolCalls) lines.push(`  tool ${callText(call)}`);
  if (turn.error) lines.push(`  turn failed: ${turn.error.code}: ${turn.error.message}`);
  else lines.push(`  → [${turn.emotion}] ${turn.line}${turn.isFallback ? ' (authored fallback)' : ''}`);
  return lines;
}
