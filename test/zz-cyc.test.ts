import { it } from 'vitest';
import { fileCycles, importEdges, readRules, sourceFiles } from './helpers/import-rules.js';
it('x', () => { const r = readRules(); console.log(JSON.stringify(fileCycles(importEdges(sourceFiles(r.folders))), null, 1)); });
