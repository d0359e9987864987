import type { Sql } from '../../database/sql.js';
import type { RoutingMetrics } from '../routing.metrics.js';
import type { ConnectorHealth, PartsProgress, SmsConnector } from '../sms-connector.js';
import type { SmsProvider, SmsSubmission } from '../sms-provider.js';

/**
 * A connector over a provider that is always there (`log:`): healthy unless drained. It has the provider's receipts
 * when it bears the provider's name (the connector `log` of `SMS_PROVIDER=log`): they name that provider.
 */
export class ProviderConnector implements SmsConnector {
  readonly transport = 'log';
  private drained = false;
  private changedAt = Date.now();

  constructor(
    readonly id: string,
    private readonly provider: SmsProvider,
    private readonly metrics: RoutingMetrics,
  ) {}

  get sendsReceipts(): boolean {
    return this.provider.sendsReceipts && this.provider.name === this.id;
  }

  async accepted(sql: Sql, providerIds: string[], at: Date): Promise<void> {
    if (this.sendsReceipts) await this.provider.accepted?.(sql, providerIds, at, this.id);
  }

  available(): boolean {
    return !this.drained;
  }

  health(): ConnectorHealth {
    return {
      id: this.id,
      healthy: !this.drained,
      binds: { bound: 1, total: 1 },
      circuit: 'closed',
      drained: this.drained,
      tps: null,
      rate: null,
      inFlight: 0,
      lastError: null,
      since: new Date(this.changedAt),
    };
  }

  async submit(sms: SmsSubmission, progress: PartsProgress): Promise<string[]> {
    progress.providerIds = (await this.provider.submit(sms)).providerIds;
    sms.attempts?.note(this.id, 'accepted');
    this.metrics.submits.inc({ connector: this.id, outcome: 'accepted' });
    return progress.providerIds;
  }

  setDrained(drained: boolean): void {
    if (drained === this.drained) return;
    this.drained = drained;
    this.changedAt = Date.now();
  }

  start(): void {}

  async stop(): Promise<void> {}

  onReady(): void {}
}
