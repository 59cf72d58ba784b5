#!/usr/bin/env node
// The sources are TypeScript run through tsx, so an installed package needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
