#!/usr/bin/env node
// Runs the TypeScript CLI directly (tsx), so `npx tokenscope …` works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../electron/cli/program.ts');
await main(process.argv);
