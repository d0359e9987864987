import { parseRoutingFile, RoutingFileError } from './routing-file.js';

const VALID = `
connectors:
  - id: orange-ci
    url: smpp://sys:pw@10.0.0.5:2775
    binds: 2
    window: 10
    tps: 50
  - id: agg-x
    url: smpps://agg:secret@smpp.example.net:3550
routes:
  - name: ci-orange
    match: { prefixes: ["+22507", "+22508"], mccmnc: ["61203"], accounts: ["*"], traffic: any }
    strategy: failover
    targets: [{ connector: orange-ci, cost: 0.012 }, { connector: agg-x, cost: 0.020 }]
  - name: rest
    match: {}
    strategy: least_cost
    targets: [{ connector: agg-x, cost: 0.030 }, { connector: orange-ci, cost: 0.035 }]
`;

function problemsOf(text: string): string[] {
  try {
    parseRoutingFile('routes.yaml', text, 10);
  } catch (error) {
    if (error instanceof RoutingFileError) return error.problems;
    throw error;
  }
  throw new Error('the file was accepted');
}

describe(parseRoutingFile.name, () => {
  it('reads connectors and routes, with the defaults of what they leave out', () => {
    const settings = parseRoutingFile('routes.yaml', VALID, 7);

    expect(settings.connectors).toEqual([
      { id: 'orange-ci', url: 'smpp://sys:pw@10.0.0.5:2775', binds: 2, window: 10, tps: 50 },
      { id: 'agg-x', url: 'smpps://agg:secret@smpp.example.net:3550', binds: 1, window: 7, tps: null },
    ]);
    expect(settings.routes[0]).toEqual({
      name: 'ci-orange',
      prefixes: ['+22507', '+22508'],
      mccmnc: ['61203'],
      accounts: [],
      traffic: 'any',
      strategy: 'failover',
      targets: [
        { connector: 'orange-ci', cost: 0.012, weight: 1 },
        { connector: 'agg-x', cost: 0.02, weight: 1 },
      ],
    });
    expect(settings.partsWaitSeconds).toBe(600);
  });

  it('reads the same table written as JSON', () => {
    const json = JSON.stringify({
      connectors: [{ id: 'a', url: 'log:' }],
      routes: [{ name: 'all', targets: [{ connector: 'a' }] }],
      parts_wait_seconds: 60,
    });

    expect(parseRoutingFile('routes.json', json, 10)).toEqual(
      expect.objectContaining({ connectors: [{ id: 'a', url: 'log:', binds: 1, window: 10, tps: null }], partsWaitSeconds: 60 }),
    );
  });

  it('names the path and the line of each field the schema refuses', () => {
    const text = `connectors:
  - id: Orange_CI
    url: http://nope
    bind: 2
routes:
  - name: all
    strategy: cheapest
    targets: [{ connector: Orange_CI }]
`;
    expect(problemsOf(text)).toEqual([
      'connectors[0].bind (line 4): unknown field',
      'connectors[0].id (line 2): must be 1 to 16 lower-case letters, digits or dashes',
      'connectors[0].url (line 3): must be smpp://system_id:password@host:port, smpps://… (TLS) or log:',
      'routes[0].strategy (line 7): must be one of failover, round_robin, least_cost',
    ]);
  });

  it('refuses an unknown connector, a least_cost target without cost, a duplicate id and a route below a catch-all', () => {
    const text = `connectors:
  - { id: a, url: "log:" }
  - { id: a, url: "log:" }
routes:
  - name: cheap
    match: { prefixes: ["+225"] }
    strategy: least_cost
    targets: [{ connector: a, cost: 1 }, { connector: b }]
  - name: all
    targets: [{ connector: a }]
  - name: late
    match: { traffic: otp }
    targets: [{ connector: a }]
`;
    expect(problemsOf(text)).toEqual([
      'connectors[1].id (line 3): connector "a" is defined twice',
      'routes[0].targets[1].connector (line 8): unknown connector "b"',
      'routes[0].targets[1] (line 8): a least_cost target needs a cost',
      'routes[2] (line 11): route "late" comes after the catch-all route "all" and would never match',
    ]);
  });

  it('says where the YAML itself is broken', () => {
    expect(problemsOf('connectors:\n  - id: a\n   url: x\n')).toEqual([expect.stringMatching(/^line 3: /)]);
  });

  it('refuses a file without routes', () => {
    expect(problemsOf('connectors: [{ id: a, url: "log:" }]\n')).toEqual(['(file) (line 1): routes is required']);
  });
});
