#!/usr/bin/env node
// The checkout's entry point. npm links bins when it installs, before the root `prepare` step
// has built dist/, so a bin that named dist/ directly would not be linked on a fresh clone.
await import('../dist/cli.js');
