// The last step of `npm run build`: the embedded store's initdb, run once here instead of on every
// first start (see src/store/pglite-template.ts). Nearly free when this PGlite's template exists.
import { makeTemplate, templateDir } from '../dist/store/pglite-template.js';

if ((await makeTemplate()) === 'made') process.stdout.write(`Made the embedded store's template: ${templateDir()}\n`);
