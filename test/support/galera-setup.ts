import { wholeCluster } from './galera.js';

// every spec of the Galera suite starts on three nodes, whatever became of them in the spec before
beforeAll(wholeCluster, 180_000);
