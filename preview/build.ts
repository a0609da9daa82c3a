/**
 * `node scripts/run-ts.mjs preview/build.ts`: writes the preview page into dist/preview/, where
 * the editor panel loads it (the extension build should run this after tsc).
 */
import { buildPreviewPage } from './build-page';

buildPreviewPage({ minify: true }).then(
  (dir) => console.log(`preview page built in ${dir}`),
  (error: Error) => {
    console.error(`preview: ${error.message}`);
    process.exit(1);
  },
);
