#!/usr/bin/env node
// The `health-commerce` command (`npm run cli -- …`): builds only when a source changed, then runs
// the CLI in this very process, so a supervisor's signals reach it.
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
await import('../../dist/src/cli/cli.js');
