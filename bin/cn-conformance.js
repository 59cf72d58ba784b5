#!/usr/bin/env node
// The command of a checkout: the TypeScript sources through tsx, no build step. The packed package's bin is
// the compiled entry instead (dist/cli/main.js, built by `npm run build` when `npm pack` runs).
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
