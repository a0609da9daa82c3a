/**
 * `npm run demo`: Mira's evening at the Crooked Lantern, played through the real NPC, tools
 * and world state on the built-in stand-in model (or an OpenAI-compatible server with --url).
 * Prints the dialogue as it streams, each tool call and world change, and per turn the model
 * calls, tokens and the estimated time on a phone.
 */
import { readFileSync } from 'node:fs';
import {
  NPC,
  OpenAICompatibleModel,
  estimateTokens,
  parsePersona,
  type LanguageModel,
  type GenerationRequest,
} from '../src';
import { createPersonaStandIn, personaSuggestions, STAND_IN_NOTICE } from '../src/testing';
import { createTavernWorld, tavernTools } from './tavern/tavern-world';
import { createMiraModel } from './tavern/mira-model';
import { EVENING } from './tavern/evening';
import { stepSeconds } from '../bench/cost-model';
import miraPersona from './tavern/mira.persona.json';

interface Flags {
  persona?: string;
  url?: string;
  model?: string;
  fast: boolean;
}

function parseFlags(argv: string[]): Flags {
  const flags: Flags = { fast: false };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    const value = () => {
      const given = argv[++index];
      if (given === undefined) fail(`${flag} needs a value.`);
      return given;
    };
    if (flag === '--persona') flags.persona = value();
    else if (flag === '--url') flags.url = value();
    else if (flag === '--model') flags.model = value();
    else if (flag === '--fast') flags.fast = true;
    else if (flag === '--help' || flag === '-h') {
      console.log(
        'usage: npm run demo -- [--persona file.persona] [--url http://127.0.0.1:8080/v1 --model name] [--fast]',
      );
      process.exit(0);
    } else fail(`Unknown flag ${flag}; try --help.`);
  }
  return flags;
}

/** How long the --url server may take to answer the connection check, and each model step. */
const CHECK_TIMEOUT_MS = 5000;
const STEP_TIMEOUT_MS = 20000;

function fail(message: string): never {
  console.error(`demo: ${message}`);
  process.exit(1);
}

const dim = (text: string) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[0m` : text);
const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  let persona: unknown = miraPersona;
  if (flags.persona) {
    try {
      persona = readFileSync(flags.persona, 'utf8');
    } catch (error) {
      fail(`cannot read ${flags.persona}: ${(error as Error).message}`);
    }
  }
  let model: LanguageModel;
  const world = createTavernWorld();
  // Another persona gets a stand-in built from its own fields and its own first lines, never Mira's.
  let ownPersona: ReturnType<typeof parsePersona> | undefined;
  if (flags.persona) {
    try {
      // The text as it is: parsePersona skips a byte-order mark and names the line and column of a syntax error.
      ownPersona = parsePersona(persona);
    } catch (error) {
      fail((error as Error).message);
    }
  }
  if (flags.url) {
    // A server that accepts and never answers must not leave the terminal silent: a 5 s check,
    // and each step gives up after 20 s with a message.
    const remote = new OpenAICompatibleModel({
      baseUrl: flags.url,
      model: flags.model ?? 'default',
      requestTimeoutMs: STEP_TIMEOUT_MS,
    });
    console.log(dim(`checking ${flags.url} (up to ${CHECK_TIMEOUT_MS / 1000} s)…`));
    const availability = await Promise.race([
      remote.availability(),
      new Promise<{ status: 'unavailable'; reason: string; detail: string }>((done) =>
        setTimeout(
          () =>
            done({
              status: 'unavailable',
              reason: 'no answer',
              detail: `nothing came back within ${CHECK_TIMEOUT_MS / 1000} s`,
            }),
          CHECK_TIMEOUT_MS,
        ).unref(),
      ),
    ]);
    if (availability.status !== 'available') {
      fail(
        `the OpenAI-compatible server at ${flags.url} is not reachable (${availability.status === 'unavailable' ? `${availability.reason}${availability.detail ? `: ${availability.detail}` : ''}` : availability.status}). Start llama.cpp's server, Ollama or LM Studio there, or run without --url to use the built-in stand-in.`,
      );
    }
    model = remote;
  } else if (ownPersona) {
    model = createPersonaStandIn(ownPersona, {
      tools: tavernTools(world).map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameterless: tool.isParameterless,
      })),
      chunkDelayMs: flags.fast ? 0 : 25,
    });
    console.log(dim(STAND_IN_NOTICE));
  } else {
    model = createMiraModel({ chunkDelayMs: flags.fast ? 0 : 25 });
  }

  world.onChange((change) =>
    console.log(
      dim(`    world: ${change.path} ${JSON.stringify(change.oldValue)} → ${JSON.stringify(change.newValue)}`),
    ),
  );
  let npc: NPC;
  try {
    npc = new NPC({
      persona,
      model,
      world,
      tools: tavernTools(world),
      options: { memoryTools: 'all', secretsUnlockAtRelationship: 10, worldContextPaths: ['player.gold', 'time'] },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const name = npc.persona.name;
  console.log(bold(`\n${npc.persona.greeting || `${name} looks up.`}`));
  const startingGold = world.get<number>('player.gold') ?? 0;
  console.log(dim(`(model: ${model.capabilities.modelName}; you carry ${startingGold} gold)\n`));

  const rows: Array<{ turn: number; calls: number; prompt: number; cached: number; output: number; seconds: number }> =
    [];
  const lines = ownPersona ? personaSuggestions(ownPersona) : EVENING;
  for (let turnIndex = 0; turnIndex < lines.length; turnIndex++) {
    const line = lines[turnIndex];
    console.log(`${bold('You:')} ${line}`);
    const steps: GenerationRequest[] = [];
    const outputs: string[] = [];
    const stream = npc.talkStream(line);
    let started = false;
    stream.on('modelStep', (event) => steps.push(event.request));
    stream.on('modelStepFinished', (event) => outputs.push(event.output));
    // A side effect runs after the words it goes with: end the streamed line before showing it.
    let lineOpen = false;
    const endLine = () => {
      if (lineOpen) {
        process.stdout.write('\n');
        lineOpen = false;
      }
    };
    stream.on('toolCall', (event) => {
      endLine();
      console.log(dim(`    tool: ${event.call.name}(${JSON.stringify(event.call.args)})`));
    });
    stream.on('toolResult', (event) =>
      console.log(
        dim(
          `    → ${event.record.output.kind === 'json' ? JSON.stringify(event.record.output.value) : event.record.output.kind === 'text' ? event.record.output.text : `error: ${event.record.output.message}`}`,
        ),
      ),
    );
    stream.on('line', (event) => {
      if (!started) {
        process.stdout.write(`${bold(`${name}:`)} `);
        started = true;
      }
      process.stdout.write(event.isReset ? `\n${event.line}` : event.delta);
      lineOpen = true;
    });
    const turn = await stream.turn().catch((error) => fail(`${name} could not answer: ${error.message}`));
    if (!started) process.stdout.write(`${bold(`${name}:`)} ${turn.line}`);
    console.log(
      dim(
        `  [${turn.emotion}${turn.isFallback ? ', fallback' : ''}${turn.endsConversation ? ', ends the conversation' : ''}; relationship ${turn.relationship}]`,
      ),
    );
    let seconds = 0;
    let prompt = 0;
    let cached = 0;
    let output = 0;
    steps.forEach((step, index) => {
      const promptTokens = estimateTokens((step.systemInstruction ?? '') + (step.promptPrefix ?? '') + step.prompt);
      const cacheableTokens = estimateTokens((step.systemInstruction ?? '') + (step.promptPrefix ?? ''));
      const outputTokens = estimateTokens(outputs[index] ?? '');
      prompt += promptTokens;
      cached += cacheableTokens;
      output += outputTokens;
      seconds += stepSeconds({ promptTokens, cacheableTokens, outputTokens }, rows.length > 0 || index > 0);
    });
    rows.push({ turn: turnIndex + 1, calls: turn.modelCalls, prompt, cached, output, seconds });
    console.log();
    if (turn.endsConversation) break;
  }

  console.log(bold('Per turn (tokens estimated at 4 characters each; time from bench/cost-model.ts):'));
  console.log('turn  model calls  prompt tokens  cacheable  output tokens  est. phone time');
  for (const row of rows) {
    console.log(
      `${String(row.turn).padStart(4)}  ${String(row.calls).padStart(11)}  ${String(row.prompt).padStart(13)}  ${String(row.cached).padStart(9)}  ${String(row.output).padStart(13)}  ${row.seconds.toFixed(2).padStart(13)} s`,
    );
  }
  const total = rows.reduce((sum, row) => sum + row.calls, 0);
  const taken = startingGold - (world.get<number>('player.gold') ?? 0);
  console.log(
    `total: ${total} model calls for ${rows.length} turns; ${name} took ${taken} gold of your ${startingGold} (${world.get('player.gold')} left) and remembers ${npc.memory.facts.length} facts.`,
  );
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
