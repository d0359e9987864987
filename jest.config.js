import { availableParallelism } from 'node:os';

const tsJest = [
  'ts-jest',
  {
    useESM: true,
    tsconfig: 'tsconfig.json',
    astTransformers: { before: ['<rootDir>/test/support/swagger-transformer.cjs'] },
  },
];

const common = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // its ESM build imports JSON without an import attribute, which Jest warns about
    '^libphonenumber-js$': '<rootDir>/node_modules/libphonenumber-js/index.cjs',
    '^libphonenumber-js/max$': '<rootDir>/node_modules/libphonenumber-js/max/index.cjs',
  },
  transform: { '^.+\\.ts$': tsJest },
  testEnvironment: 'node',
};

// every spec of the Galera suite starts on three running nodes
const galera = { ...common, rootDir: '.', setupFilesAfterEnv: ['<rootDir>/test/support/galera-setup.ts'] };

export default {
  // two workers even on two cores: e2e specs spend much of their time waiting on servers and databases
  maxWorkers: Math.min(4, Math.max(2, availableParallelism() - 1)),
  // a worker keeps the module graph of every ESM spec it has run (Node's vm modules are not collected), some 70 MB each: past
  // twenty specs its heap nears 2 GB, which takes longer to tear down than Jest waits for a worker's exit; a fresh one is cheaper
  workerIdleMemoryLimit: '512MB',
  // e2e specs spawn processes and wait on databases; unit specs finish far below this
  testTimeout: 30_000,
  projects: [
    { ...common, displayName: 'unit', rootDir: '.', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    // with the bench's own spec: its floors do the statements the service does
    { ...common, displayName: 'e2e', rootDir: '.', testMatch: ['<rootDir>/test/*.e2e-spec.ts', '<rootDir>/bench/*.e2e-spec.ts'] },
    // several instances on one MariaDB, and MariaDB outages: run by test:e2e:mysql only
    { ...common, displayName: 'e2e-mysql', rootDir: '.', testMatch: ['<rootDir>/test/mysql/*.e2e-spec.ts'] },
    // three instances on a three-node Galera cluster, the two-instance specs of what test/galera does not cover (a
    // campaign cancelled while written, the address book) with their instances on different nodes, and the specs of
    // the README's other reliability rows (hostile input, credentials, crashes, a throttled lot, the bulk lane's
    // chunks, webhook addresses), instance i on node i: run by test:e2e:galera only, with the cluster's environment
    // (galera-local.sh env)
    {
      ...galera,
      displayName: 'e2e-galera',
      testMatch: [
        '<rootDir>/test/galera/*.e2e-spec.ts',
        '<rootDir>/test/mysql/{campaign,address-book}-two-instances.e2e-spec.ts',
        '<rootDir>/test/{hostile-input,auth,crash,delivery-crash,delivery-volume,sms-send-chunks,webhook,webhook-crash,contact-import-crash,campaign-crash}.e2e-spec.ts',
      ],
      testPathIgnorePatterns: ['/test/galera/node-failure'],
    },
    // the spec that kills and restarts a node: run by test:e2e:galera after the others, alone on the cluster
    { ...galera, displayName: 'e2e-galera-node-failure', testMatch: ['<rootDir>/test/galera/node-failure.e2e-spec.ts'] },
    // the images, compose.yaml, compose.cluster.yaml and the Kubernetes manifests under podman: run by test:containers,
    // after the global setup has built the images
    {
      ...common,
      displayName: 'containers',
      rootDir: '.',
      testMatch: ['<rootDir>/test/containers/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/containers/images.ts',
    },
    // Swagger UI in headless Chromium: run by test:browser
    { ...common, displayName: 'browser', rootDir: '.', testMatch: ['<rootDir>/test/browser/*.e2e-spec.ts'] },
  ],
};
