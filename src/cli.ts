import { enableCompileCache } from 'node:module';

// each command is a process of its own: V8 keeps the modules' compiled code on disk between them, a sixth of a
// command's time (enabled before they load, which a static import would do first)
enableCompileCache();
await import('./cli/command-line.js');
