/**
 * `npm run demo`: Mira's evening at the Crooked Lantern (demo/profiles/mira.npc-profile.json),
 * played through the real NPC, tools and world state on the built-in stand-in model (or an
 * OpenAI-compatible server with --url). `--profile file` plays another NPC profile: its persona,
 * its own tools and world, its stand-in; `--persona file` a bare NPC of that persona (no tools).
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
import { EVENING } from './tavern/evening';
import { stepSeconds } from './phone-cost-model';
import { miraProfileParts, profileStandIn, readProfileFile } from './profiles/profile-file';
import type { NPCProfileParts } from '../src';

interface Flags {
  persona?: string;
  profile?: string;
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
    else if (flag === '--profile') flags.profile = value();
    else if (flag === '--url') flags.url = value();
    else if (flag === '--model') flags.model = value();
    else if (flag === '--fast') flags.fast = true;
    else if (flag === '--help' || flag === '-h') {
      console.log(
        'usage: npm run demo -- [--profile file.npc-profile.json | --persona file.persona] [--url http://127.0.0.1:8080/v1 --model name] [--fast]',
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

/** The --url server, after a connection check that gives up with a message instead of hanging. */
async function remoteModel(flags: Flags): Promise<LanguageModel> {
  const url = flags.url as string;
  // A server that accepts and never answers must not leave the terminal silent: a 5 s check,
  // and each step gives up after 20 s with a message.
  const remote = new OpenAICompatibleModel({
    baseUrl: url,
    model: flags.model ?? 'default',
    requestTimeoutMs: STEP_TIMEOUT_MS,
  });
  console.log(dim(`checking ${url} (up to ${CHECK_TIMEOUT_MS / 1000} s)…`));
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
      `the OpenAI-compatible server at ${url} is not reachable (${availability.status === 'unavailable' ? `${availability.reason}${availability.detail ? `: ${availability.detail}` : ''}` : availability.status}). Start llama.cpp's server, Ollama or LM Studio there, or run without --url to use the built-in stand-in.`,
    );
  }
  return remote;
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  if (flags.profile && flags.persona) fail('give --profile or --persona, not both.');
  const chunkDelayMs = flags.fast ? 0 : 25;
  // The NPC's parts: Mira's profile, another profile, or a bare NPC of a persona (no tools, no world).
  let parts: NPCProfileParts;
  let lines: string[];
  try {
    if (flags.persona) {
      let text = '';
      try {
        text = readFileSync(flags.persona, 'utf8');
      } catch (error) {
        fail(`cannot read ${flags.persona}: ${(error as Error).message}`);
      }
      // The text as it is: parsePersona skips a byte-order mark and names the line and column of a syntax error.
      const persona = parsePersona(text);
      parts = { persona, tools: [], options: {}, standInTools: [], profile: { persona } };
      lines = personaSuggestions(persona);
    } else {
      parts = flags.profile ? readProfileFile(flags.profile) : miraProfileParts();
      const own = parts.profile.playerLines;
      lines =
        own && own.length > 0 ? own : parts.profile.standIn === 'tavern' ? EVENING : personaSuggestions(parts.persona);
    }
  } catch (error) {
    fail((error as Error).message);
  }
  const world = parts.world;
  let model: LanguageModel;
  if (flags.url) {
    model = await remoteModel(flags);
  } else {
    try {
      model = flags.persona
        ? createPersonaStandIn(parts.persona, { chunkDelayMs })
        : profileStandIn(parts, chunkDelayMs);
    } catch (error) {
      fail((error as Error).message);
    }
    // Another character gets a stand-in built from its own fields and lines, never Mira's.
    if (parts.profile.standIn === undefined) console.log(dim(STAND_IN_NOTICE));
  }

  if (world)
    world.onChange((change) =>
      console.log(
        dim(`    world: ${change.path} ${JSON.stringify(change.oldValue)} → ${JSON.stringify(change.newValue)}`),
      ),
    );
  let npc: NPC;
  try {
    npc = new NPC({
      persona: parts.persona,
      model,
      world,
      tools: parts.tools,
      options: parts.options,
      memory: parts.memory,
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const name = npc.persona.name;
  console.log(bold(`\n${npc.greeting || `${name} looks up.`}`));
  const startingGold = world?.get<number>('player.gold');
  const purse = typeof startingGold === 'number' ? `; you carry ${startingGold} gold` : '';
  console.log(dim(`(model: ${model.capabilities.modelName}${purse})\n`));

  const rows: Array<{ turn: number; calls: number; prompt: number; cached: number; output: number; seconds: number }> =
    [];
  for (let turnIndex = 0; turnIndex < lines.length; turnIndex++) {
    const line = lines[turnIndex];
    console.log(`${bold('You:')} ${line}`);
    const steps: GenerationRequest[] = [];
    const outputs: string[] = [];
    // A tool the game answers (hand-answered in the preview) gets a plain answer here.
    const stream = npc.talkStream(line, {
      externalTools: (call) => {
        console.log(dim(`    (the demo answers ${call.name} as the game would: "done")`));
        return 'done';
      },
    });
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

  console.log(
    bold('Per turn (tokens: the runtime estimate, calibrated against Gemma 3; time from demo/phone-cost-model.ts):'),
  );
  console.log('turn  model calls  prompt tokens  cacheable  output tokens  est. phone time');
  for (const row of rows) {
    console.log(
      `${String(row.turn).padStart(4)}  ${String(row.calls).padStart(11)}  ${String(row.prompt).padStart(13)}  ${String(row.cached).padStart(9)}  ${String(row.output).padStart(13)}  ${row.seconds.toFixed(2).padStart(13)} s`,
    );
  }
  const total = rows.reduce((sum, row) => sum + row.calls, 0);
  const goldLeft = world?.get<number>('player.gold');
  const gold =
    typeof startingGold === 'number' && typeof goldLeft === 'number'
      ? ` ${name} took ${startingGold - goldLeft} gold of your ${startingGold} (${goldLeft} left) and`
      : ` ${name}`;
  console.log(
    `total: ${total} model calls for ${rows.length} turns;${gold} remembers ${npc.memory.facts.length} facts.`,
  );
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
