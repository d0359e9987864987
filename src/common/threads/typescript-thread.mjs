// Runs a module of the TypeScript sources on a worker thread (see start-thread.ts), compiling it and the sources
// it imports as they load: the test suites run the sources, and a thread cannot borrow their compiler.
// Plain JavaScript: Node runs it as it is.
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';
import ts from 'typescript';

const COMPILER_OPTIONS = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2023,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
};

registerHooks({
  // the sources import each other by the names they are built to (`./recipient.js` for `./recipient.ts`)
  resolve(specifier, context, nextResolve) {
    if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
      const source = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
      if (existsSync(source)) return { url: source.href, format: 'module', shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (!url.endsWith('.ts')) return nextLoad(url, context);
    const fileName = fileURLToPath(url);
    const { outputText } = ts.transpileModule(readFileSync(fileName, 'utf8'), { fileName, compilerOptions: COMPILER_OPTIONS });
    return { format: 'module', source: outputText, shortCircuit: true };
  },
});

await import(workerData);
