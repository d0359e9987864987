import { Inject, Injectable } from '@nestjs/common';
import { AccountRepository } from '../account/account.repository.js';
import { appConfig, type AppConfig } from '../config/app.config.js';
import { Database } from '../database/database.js';
import { AdminService } from './admin.service.js';

export interface DemoCredentials {
  account_id: string;
  api_key: string;
}

/** Outside production, an empty database gets a demo account so that a first `npm start` can be tried at once. */
@Injectable()
export class DemoAccount {
  constructor(
    private readonly database: Database,
    private readonly accounts: AccountRepository,
    private readonly admin: AdminService,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
  ) {}

  async createIfEmpty(): Promise<DemoCredentials | null> {
    if (this.app.production) return null;
    if (await this.database.run((sql) => this.accounts.any(sql))) return null;
    const created = await this.admin.createAccount({ name: 'Demo', sender: 'DEMO', balance: '1000.00' });
    return { account_id: created.account_id, api_key: created.api_key };
  }
}
