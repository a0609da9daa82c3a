// The tavern sample as Creator would compile it: the sample's project files copied to a work
// folder, the built extension installed into it by copy (as a user installs it), and every
// script of both asset-db mounts packed by Creator's own pipeline (pipeline.mjs).
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installExtension } from '../install-extension.mjs';
import { packProject } from './pipeline.mjs';

/** The sample's project files (what Creator needs to open it; library/ and temp/ are the editor's). */
const PROJECT_FILES = ['assets', 'settings', 'package.json'];

/**
 * Stages `samples/tavern` with the extension in `workDir/tavern`, packs it into `workDir/pack`,
 * and returns { project, extension, workspace, result, componentsUrl } (componentsUrl: the module
 * id of the extension's db://oam-cocos/index). `change(project)` may edit the staged copy before
 * packing (the browser test breaks a component on purpose). Throws with ModLo's errors.
 */
export async function packSample({ repo, workDir, change }) {
  const project = join(workDir, 'tavern');
  const workspace = join(workDir, 'pack');
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  for (const entry of PROJECT_FILES)
    cpSync(join(repo, 'samples', 'tavern', entry), join(project, entry), { recursive: true });
  const extension = installExtension(project);
  if (change) change(project);
  const result = await packProject({
    projectRoot: project,
    workspace,
    mounts: [
      { root: 'db://assets/', physical: join(project, 'assets') },
      { root: 'db://oam-cocos/', physical: join(extension, 'assets') },
    ],
  });
  if (result.errors.length > 0) throw new Error(`Creator's pipeline refused the sample:\n${result.errors.join('\n')}`);
  const componentsUrl = pathToFileURL(join(extension, 'assets', 'index.ts')).href;
  return { project, extension, workspace, result, componentsUrl };
}
