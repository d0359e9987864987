import { enableCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Imported first by the entry points, before the application's modules load: V8 then keeps their compiled code on
 * disk between starts. The cache sits beside the compiled code (`dist/.compile-cache`, emptied by every build), not
 * in a shared temporary directory, where another local user could plant code for the service to run. Where it
 * cannot be written, nothing is cached.
 */
enableCompileCache(fileURLToPath(new URL('.compile-cache', import.meta.url)));
