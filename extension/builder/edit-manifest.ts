/** app/AndroidManifest.xml: the lines the module's oam-patch.json asks for, before `</application>` and `</manifest>`. */
import { PlannedFile, findLine, missingAnchor, requireFile } from './planned-file';
import { PatchConfig } from './patch-config';

export function planManifest(file: PlannedFile, config: PatchConfig): void {
  const additions: Array<{ lines: string[]; closing: string }> = [
    { lines: config.manifest.application, closing: 'application' },
    { lines: config.manifest.manifest, closing: 'manifest' },
  ];
  for (const { lines, closing } of additions) {
    if (lines.length === 0) continue;
    const what = `add ${lines.length} line(s) inside <${closing}>`;
    if (!requireFile(file, what)) return;
    const close = findLine(file.lines, new RegExp(`^(\\s*)</${closing}>`));
    if (!close || close.index === 0) {
      missingAnchor(file, what, `\`</${closing}>\` on its own line`);
      continue;
    }
    file.edits.push({
      at: close.index - 1,
      kind: 'insertAfter',
      content: lines,
      indent: close.match[1] + '    ',
      description: `${lines.length} line(s) inside <${closing}> (from the module's oam-patch.json)`,
    });
  }
}
