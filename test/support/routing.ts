import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { SmsConnectors } from '../../src/delivery/sms-connectors.js';
import type { ConnectorHealth } from '../../src/delivery/sms-connector.js';
import type { FakeSmsc, ReceivedSubmit } from './fake-smsc.js';
import { startTestApp, type TestApp } from './test-app.js';
import { until } from './until.js';

export interface RoutingFileContent {
  connectors: Array<Record<string, unknown>>;
  routes: Array<Record<string, unknown>>;
  parts_wait_seconds?: number;
}

/** Writes the routing table as YAML in a directory of its own, and returns the file's path (write again to change it). */
export function routingFile(content: RoutingFileContent, file = join(mkdtempSync(join(tmpdir(), 'routing-')), 'routes.yaml')): string {
  writeFileSync(file, stringify(content));
  return file;
}

/** A connector entry for an SMSC of the tests. */
export const connector = (id: string, smsc: FakeSmsc, extra: Record<string, unknown> = {}) => ({ id, url: smsc.url, ...extra });

/** Boots the app on a routing file and waits until every SMSC has a bind. */
export async function startRoutedApp(file: string, smscs: FakeSmsc[], env: Record<string, string> = {}): Promise<TestApp> {
  const t = await startTestApp({ SMS_ROUTING_FILE: file, ...env });
  await until(
    () => smscs.every((smsc) => smsc.binds > 0),
    Boolean,
  );
  return t;
}

/** What the app's connector shows now. */
export const healthOf = (t: TestApp, id: string): ConnectorHealth => t.app.get(SmsConnectors).get(id)!.health();

/** Leaves the environment as the other specs expect it. */
export const forgetRouting = () => Object.assign(process.env, { SMS_ROUTING_FILE: '', SMS_PROVIDER: 'log', SMPP_URL: '' });

/** The submits an SMSC took for one number (E.164). */
export const submitsTo = (smsc: FakeSmsc, to: string): ReceivedSubmit[] => smsc.submits.filter((submit) => submit.destinationAddr === to.slice(1));
