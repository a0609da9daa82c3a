/**
 * The toolArguments step: a forced tool's arguments, written as JSON and checked, repaired once.
 */
import type { AgentTool } from '../tools';
import { argumentCandidates } from '../envelope';
import { CompletionScanner } from '../json';
import { argumentsTask, repairNote } from '../prompt/task-lines';
import { checkArguments } from './check-arguments';
import type { DecideOutcome } from './decide-outcome';
import type { EngineState } from './engine-state';
import { runStep } from './turn-step';

export async function argumentsStep(
  engine: EngineState,
  tool: AgentTool,
  enabled: AgentTool[],
): Promise<DecideOutcome> {
  const { config } = engine.turn;
  let problem = '';
  let previous = '';
  let firstArgs: Record<string, unknown> = {};
  const attempts = config.repairsInvalidOutput ? 2 : 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    let task = argumentsTask(tool);
    if (attempt > 0) task += `\n\n${repairNote(problem, previous)}`;
    const scanner = new CompletionScanner();
    const text = await runStep(engine, {
      kind: 'toolArguments',
      task,
      isRepair: attempt > 0,
      mode: 'required',
      enabledTools: enabled.map((candidate) => candidate.name),
      onText: (full) => scanner.push(full),
      responseSchema: tool.parameters.json,
    });
    const checked = checkArguments(tool, argumentCandidates(text, tool.name));
    if (checked.ok) return { kind: 'call', tool, args: checked.args };
    problem = checked.problem;
    firstArgs = checked.firstArgs;
    previous = text;
  }
  return { kind: 'rejected', tool, args: firstArgs, problem };
}
