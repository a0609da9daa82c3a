/**
 * `npm run persona-test -- file [--profile p.npc-profile.json | --tavern] [--url http://127.0.0.1:8080/v1 --model name] [--script steps.json]`
 * Plays a persona test file (lines to say, checks on the answers) through the NPC its profile
 * describes (the test's `"profile"`, or `--profile`; `--tavern` is Mira's profile): the profile's
 * persona, tools, world and options, answered by the profile's stand-in (default), a recorded
 * script or an OpenAI-compatible server. A test without a profile plays a bare NPC of its
 * `"persona"` on that persona's own stand-in. Prints pass/fail per check; exit status 1 when a
 * check fails, 2 when the file or the set-up is wrong.
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
  loadNPCProfile,
  isSameCharacter,
  type LanguageModel,
  type NPCProfileParts,
  type Persona,
} from '../src';
import { ScriptedLanguageModel, createPersonaStandIn } from '../src/testing';
import { DEMO_HOST, miraProfileParts, profileStandIn, readProfileFile } from './profiles/profile-file';

interface Flags {
  file?: string;
  profile?: string;
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
    else if (flag === '--profile') flags.profile = value();
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
    `persona-test: ${message}\nusage: npm run persona-test -- file.persona-test.json [--profile file.npc-profile.json | --tavern] [--url URL --model NAME] [--script steps.json]`,
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
  if (flags.profile && flags.tavern) stop('give --profile or --tavern, not both.');
  let parts: NPCProfileParts | undefined;
  try {
    parts = profileOf({ flags, testProfile: test.profile, testDir: dirname(path) });
  } catch (error) {
    return stop(AgentError.from(error).message);
  }
  if (parts && test.persona !== undefined && !flags.profile && !flags.tavern)
    stop('the test names a "profile" and a "persona": the profile holds the persona, so leave "persona" out.');
  let persona: Persona;
  // A profile given on the command line plays the test's own persona with its tools and world.
  if (parts && (test.persona === undefined || (!flags.profile && !flags.tavern))) persona = parts.persona;
  else {
    const personaSource =
      typeof test.persona === 'string' ? readJson(resolve(dirname(path), test.persona), 'persona') : test.persona;
    if (personaSource === undefined)
      stop('the test names no "profile" or "persona" (an object, or a path relative to the test file).');
    try {
      persona = parsePersona(personaSource);
    } catch (error) {
      return stop(AgentError.from(error).message);
    }
  }

  let model: LanguageModel;
  let label: string;
  if (flags.url) {
    model = new OpenAICompatibleModel({ baseUrl: flags.url, model: flags.model ?? 'default', requestTimeoutMs: 20000 });
    label = `${flags.url} (${flags.model ?? 'default'})`;
  } else if (flags.script) {
    model = new ScriptedLanguageModel(readJson(resolve(flags.script), 'script') as never);
    label = `recorded script ${flags.script}`;
  } else if (parts) {
    // A host's named stand-in speaks for the profile's own character (the tavern's is Mira): another
    // persona played with the profile's tools gets a stand-in of its own lines and those tools.
    const ownCharacter = isSameCharacter(persona.name, parts.persona.name);
    const played = ownCharacter ? parts : { ...parts, persona, profile: { ...parts.profile, standIn: undefined } };
    try {
      model = profileStandIn(played);
    } catch (error) {
      return stop(AgentError.from(error).message);
    }
    label =
      played.profile.standIn === 'tavern'
        ? "the tavern's keyword stand-in"
        : `${persona.name}'s keyword stand-in (not a language model)`;
  } else {
    model = createPersonaStandIn(persona);
    label = `${persona.name}'s keyword stand-in (not a language model)`;
  }

  console.log(`persona test ${flags.file}: ${persona.name} on ${label}\n`);
  const report = await runPersonaTest({
    test,
    persona,
    model,
    tools: parts?.tools,
    world: parts?.world,
    options: parts?.options,
    memory: parts?.memory,
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

/** The profile to play: --profile, --tavern (Mira's), or the test's own "profile" (a path beside the test, or inline). */
function profileOf(input: {
  flags: Flags;
  testProfile: string | Record<string, unknown> | undefined;
  testDir: string;
}): NPCProfileParts | undefined {
  const { flags, testProfile, testDir } = input;
  if (flags.profile) return readProfileFile(flags.profile);
  if (flags.tavern) return miraProfileParts();
  if (typeof testProfile === 'string') return readProfileFile(resolve(testDir, testProfile));
  if (testProfile)
    return loadNPCProfile(testProfile, {
      handlers: DEMO_HOST.handlers,
      readPersona: (file) => readFileSync(resolve(testDir, file), 'utf8'),
    });
  return undefined;
}

main().catch((error) => {
  console.error(`persona-test: ${AgentError.from(error).message}`);
  process.exit(2);
});
