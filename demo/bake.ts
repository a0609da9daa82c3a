/**
 * `npm run bake -- (--profile FILE | --persona FILE [--tavern]) --intents FILE --url URL
 *   [--model NAME] [--out FILE] [--per-intent N] [--bands 0,20,50]`
 * Bakes a line bank for a character: every intent's example lines (from a bank or an
 * `{ "intents": … }` file) are played through the real NPC on an OpenAI-compatible server (a
 * llama.cpp or Ollama on this machine), and the answers are written as a bank
 * (schemas/line-bank.schema.json) for the designer to review before it ships. `--profile` plays
 * an NPC profile's NPC (its persona, options, and its tools with a fresh world for each line);
 * `--tavern` gives a persona the tavern's tools and world. Exit status 2 for bad input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AgentError, OpenAICompatibleModel, bakeLineBank, type NPCProfileParts } from '../src';
import { createTavernWorld, tavernTools } from './tavern/tavern-world';
import { readProfileFile } from './profiles/profile-file';

interface Flags {
  persona?: string;
  profile?: string;
  intents?: string;
  url?: string;
  model: string;
  out?: string;
  perIntent: number;
  bands?: number[];
  tavern: boolean;
}

const USAGE =
  'usage: npm run bake -- (--profile FILE | --persona FILE [--tavern]) --intents FILE --url URL [--model NAME] [--out FILE] [--per-intent N] [--bands 0,20,50]';

function stop(message: string): never {
  console.error(`bake: ${message}\n${USAGE}`);
  process.exit(2);
}

function parseFlags(argv: string[]): Flags {
  const flags: Flags = { model: 'default', perIntent: 3, tavern: false };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    const value = () => argv[++index] ?? stop(`${flag} needs a value.`);
    if (flag === '--persona') flags.persona = value();
    else if (flag === '--profile') flags.profile = value();
    else if (flag === '--intents') flags.intents = value();
    else if (flag === '--url') flags.url = value();
    else if (flag === '--model') flags.model = value();
    else if (flag === '--out') flags.out = value();
    else if (flag === '--per-intent') flags.perIntent = Number(value());
    else if (flag === '--bands') flags.bands = value().split(',').map(Number);
    else if (flag === '--tavern') flags.tavern = true;
    else stop(`unknown option ${flag}.`);
  }
  if (!flags.persona === !flags.profile)
    stop('give the NPC profile (--profile FILE) or the persona (--persona FILE), one of them.');
  if (!flags.intents) stop('give the intents to play (--intents FILE: a bank, or {"intents": {…}}).');
  if (!flags.url) stop('give an OpenAI-compatible server (--url http://127.0.0.1:8080/v1).');
  if (!(Number.isInteger(flags.perIntent) && flags.perIntent >= 1)) stop('--per-intent must be a whole number ≥ 1.');
  if (flags.bands && flags.bands.some((band) => !Number.isFinite(band) || band < -100 || band > 100))
    stop('--bands must be numbers from -100 to 100, e.g. 0,20,50.');
  return flags;
}

function readJson(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(resolve(path), 'utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    return stop(`cannot read the ${what} ${path}: ${(error as Error).message}`);
  }
}

/** An NPC profile's NPC for baking: its persona and options, a fresh set of its tools and world per line. */
function profileBake(path: string) {
  let parts: NPCProfileParts;
  try {
    parts = readProfileFile(path);
  } catch (error) {
    return stop(AgentError.from(error).message);
  }
  const setup = () => {
    const fresh = readProfileFile(path);
    return { tools: fresh.tools, world: fresh.world };
  };
  return { persona: parts.persona, options: parts.options, setup };
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  const played = flags.profile ? profileBake(flags.profile) : undefined;
  const persona = played ? played.persona : readJson(flags.persona as string, 'persona');
  const source = readJson(flags.intents as string, 'intents') as { intents?: Record<string, string[]> };
  if (!source || typeof source.intents !== 'object') stop(`${flags.intents} has no "intents" object.`);
  const model = new OpenAICompatibleModel({
    baseUrl: flags.url as string,
    model: flags.model,
    requestTimeoutMs: 60000,
  });
  try {
    const bank = await bakeLineBank({
      persona,
      model,
      intents: source.intents as Record<string, string[]>,
      perIntent: flags.perIntent,
      bands: flags.bands?.map((from) => ({ from })),
      options: played?.options,
      setup:
        played?.setup ??
        (flags.tavern
          ? () => {
              const world = createTavernWorld();
              return { world, tools: tavernTools(world) };
            }
          : undefined),
      barkSituations: ['The door opens.', 'It is getting late.'],
      onLine: ({ intent, said, line }) => console.error(`${intent}: "${said}" → ${line.line}`),
    });
    const text = `${JSON.stringify(bank, null, 2)}\n`;
    if (flags.out) {
      writeFileSync(resolve(flags.out), text);
      console.error(
        `bake: ${bank.lines.length} lines for ${bank.character} written to ${flags.out}; review them before they ship.`,
      );
    } else process.stdout.write(text);
  } catch (error) {
    const failure = AgentError.from(error);
    console.error(`bake: ${failure.code}: ${failure.message}`);
    process.exit(failure.code === 'invalid_request' ? 2 : 1);
  }
}

void main();
