import { Injectable } from '@nestjs/common';
import { placeholders, type Sql } from '../database/sql.js';

/** Connectors the operator drained, shared by every instance (each reads it every few seconds). */
@Injectable()
export class ConnectorDrainRepository {
  /** Those of `connectors` that are drained. */
  async drained(sql: Sql, connectors: readonly string[]): Promise<string[]> {
    if (connectors.length === 0) return [];
    const rows = await sql.all<{ connector: string }>(`SELECT connector FROM sms_connector_drain WHERE connector IN (${placeholders(connectors)})`, connectors);
    return rows.map((row) => row.connector);
  }

  async drain(sql: Sql, connector: string, at: Date): Promise<void> {
    await sql.insertLaterIfAbsent('sms_connector_drain', { connector, drained_at: at });
  }

  async enable(sql: Sql, connector: string): Promise<void> {
    await sql.run('DELETE FROM sms_connector_drain WHERE connector = ?', [connector]);
  }
}
