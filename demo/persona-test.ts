/**
 * `npm run persona-test -- file [--tavern] [--url http://127.0.0.1:8080/v1 --model name] [--script steps.json]`
 * Plays a persona test file (lines to say, checks on the answers) against the persona's own
 * keyword stand-in (default), the tavern's stand-in with its world and tools (`--tavern`), a
 * recorded script or an OpenAI-compatible server, and prints pass/fail per check. Exit status 1
 * when a check fails, 2 when the file or the set-up is wrong.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  AgentError,
  OpenAICompatibleModel,
  parsePersona,
  findJsonSyntaxError,
  readPersonaTest,
  runPersonaTest,
  type AgentTool,
  type LanguageModel,
  type Persona,
  type WorldState,
} from '../src';
import { ScriptedLanguageModel, createPersonaStandIn } from '../src/testing';
import { createTavernWorld, tavernTools } from './tavern/tavern-world';
import { createMiraModel } from './tavern/mira-model';

interface Flags {
  file?: string;
  tavern: boolean;
  url?: string;
  model?: string;
  script?: string;
}

function parseFlags(argv: string[]): Flags {
  const flags: Flags = { tavern: false };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    const value = () => argv[++index] ?? stop(`${flag} needs a value.`);
    if (flag === '--tavern') flags.tavern = true;
    else if (flag === '--url') flags.url = value();
    else if (flag === '--model') flags.model = value();
    else if (flag === '--script') flags.script = value();
    else if (flag.startsWith('--')) stop(`unknown option ${flag}.`);
    else flags.file = flag;
  }
  return flags;
}

function stop(message: string): never {
  console.error(
    `persona-test: ${message}\nusage: npm run persona-test -- file.persona-test.json [--tavern] [--url URL --model NAME] [--script steps.json]`,
  );
  process.exit(2);
}

function readJson(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return stop(`cannot read the ${what} ${path}: ${(error as Error).message}`);
  }
  // As the editor reads files: a byte-order mark is not part of the JSON, and a syntax error
  // is reported with its line and column.
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(source);
  } catch (error) {
    const found = findJsonSyntaxError(source);
    const where = found ? `${found.message} (line ${found.line}, column ${found.column})` : (error as Error).message;
    return stop(`the ${what} ${path} is not JSON: ${where}`);
  }
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  if (!flags.file) stop('give the persona test file.');
  const path = resolve(flags.file);
  let test;
  try {
    test = readPersonaTest(readJson(path, 'persona test'));
  } catch (error) {
    return stop(AgentError.from(error).message);
  }
  const personaSource =
    typeof test.persona === 'string' ? readJson(resolve(dirname(path), test.persona), 'persona') : test.persona;
  if (personaSource === undefined)
    stop('the test names no "persona" (an object, or a path relative to the test file).');
  let persona: Persona;
  try {
    persona = parsePersona(personaSource);
  } catch (error) {
    return stop(AgentError.from(error).message);
  }

  let world: WorldState | undefined;
  let tools: AgentTool[] = [];
  if (flags.tavern) {
    world = createTavernWorld();
    tools = tavernTools(world);
  }
  let model: LanguageModel;
  let label: string;
  if (flags.url) {
    model = new OpenAICompatibleModel({ baseUrl: flags.url, model: flags.model ?? 'default', requestTimeoutMs: 20000 });
    label = `${flags.url} (${flags.model ?? 'default'})`;
  } else if (flags.script) {
    model = new ScriptedLanguageModel(readJson(resolve(flags.script), 'script') as never);
    label = `recorded script ${flags.script}`;
  } else if (flags.tavern) {
    model = createMiraModel();
    label = "the tavern's keyword stand-in";
  } else {
    model = createPersonaStandIn(persona, {
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameterless: tool.isParameterless,
      })),
    });
    label = `${persona.name}'s keyword stand-in (not a language model)`;
  }

  console.log(`persona test ${flags.file}: ${persona.name} on ${label}\n`);
  const report = await runPersonaTest({
    test,
    persona,
    model,
    tools,
    world,
    options: flags.tavern ? { memoryTools: 'all', worldContextPaths: ['player.gold', 'time'] } : undefined,
  });
  report.turns.forEach((turn, index) => {
    console.log(`${index + 1}. You: ${turn.say}`);
    console.log(
      `   ${persona.name}: ${turn.line || '(no answer)'}  [${turn.emotion || '-'}${turn.tools.length ? `; ${turn.tools.join(', ')}` : ''}; relationship ${turn.relationship}]`,
    );
    for (const check of turn.checks)
      console.log(`   ${check.pass ? 'pass' : 'FAIL'}  ${check.name}${check.pass ? '' : `: ${check.detail}`}`);
  });
  console.log(`\n${report.passed} passed, ${report.failed} failed`);
  process.exit(report.failed > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(`persona-test: ${AgentError.from(error).message}`);
  process.exit(2);
});
