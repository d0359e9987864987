import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseConfig, type DatabaseConfig } from '../config/database.config.js';
import { dataSourceOptions } from './data-source.options.js';
import { Database } from './database.js';
import { ReportReads } from './report-reads.js';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [databaseConfig.KEY],
      useFactory: (config: DatabaseConfig) => ({ ...dataSourceOptions(config), autoLoadEntities: true, migrationsRun: true }),
    }),
  ],
  providers: [Database, ReportReads],
  exports: [Database, ReportReads],
})
export class DatabaseModule {}
