/**
 * A persona test run from the page, with the set-up the test file names, as
 * `npm run persona-test` runs it: the test's `"profile"` (one of the sample profiles by file
 * name, or inline), else its inline `"persona"` with the page's profile, else (a persona named
 * by path, which a page cannot read) the page's own set-up. The report says which one ran, so
 * the same file gives the same counts here and on the command line.
 */
import {
  AgentError,
  parsePersona,
  readPersonaTest,
  runPersonaTest,
  type LanguageModel,
  type NPCProfileParts,
  type Persona,
  type PersonaTestReport,
} from '../../src';
import { loadPageProfile, pageStandIn, sampleProfile } from './page-profiles';

export interface PageSetup {
  parts: NPCProfileParts;
  persona: Persona;
  /** The page's model; undefined: the stand-in of whatever profile the test runs. */
  model?: LanguageModel;
}

export interface PagePersonaTestRun {
  report: PersonaTestReport;
  persona: Persona;
  /** Which set-up ran, in words, for the results' heading. */
  ranWith: string;
}

function setupOf(
  test: ReturnType<typeof readPersonaTest>,
  page: PageSetup,
): { parts: NPCProfileParts; persona: Persona; ranWith: string } {
  if (typeof test.profile === 'string') {
    const sample = sampleProfile(test.profile);
    if (!sample)
      throw new AgentError(
        'invalid_request',
        `the test names the profile ${JSON.stringify(test.profile)}; the page knows only the sample profiles (${['mira', 'hilde', 'guard'].map((id) => `${id}.npc-profile.json`).join(', ')}): put the profile inline in the test, or run it with npm run persona-test.`,
      );
    const parts = loadPageProfile(sample.profile);
    return { parts, persona: parts.persona, ranWith: `the test's profile (${sample.file})` };
  }
  if (test.profile) {
    const parts = loadPageProfile(test.profile);
    return { parts, persona: parts.persona, ranWith: "the test's own profile" };
  }
  if (test.persona && typeof test.persona === 'object')
    return {
      parts: page.parts,
      persona: parsePersona(test.persona),
      ranWith: "the test's persona, with the set-up's tools and world",
    };
  return {
    parts: page.parts,
    persona: page.persona,
    ranWith:
      typeof test.persona === 'string'
        ? `the set-up's persona (${page.persona.name}): the test names its persona by path, which a page cannot read`
        : `the set-up's persona (${page.persona.name})`,
  };
}

/** Reads and runs a persona test file's text; throws invalid_request naming what is wrong in it. */
export async function runPagePersonaTest(text: string, page: PageSetup): Promise<PagePersonaTestRun> {
  const test = readPersonaTest(text);
  const { parts, persona, ranWith } = setupOf(test, page);
  const model = page.model ?? pageStandIn(parts, persona, 0);
  const report = await runPersonaTest({
    test,
    persona,
    model,
    tools: parts.tools,
    world: parts.world,
    options: parts.options,
    memory: parts.memory,
  });
  return { report, persona, ranWith };
}
