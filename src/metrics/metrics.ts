import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The service's Prometheus instruments, on a registry of its own (one per app, so tests can boot several). */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly otpSends = new Counter({
    name: 'otp_sends_total',
    help: 'OTP send requests by channel, outcome and, for SMS, destination country (ISO-2)',
    labelNames: ['channel', 'outcome', 'country'] as const,
    registers: [this.registry],
  });

  readonly otpVerified = new Counter({
    name: 'otp_verified_total',
    help: 'OTPs verified, by destination country (ISO-2) for SMS',
    labelNames: ['country'] as const,
    registers: [this.registry],
  });

  readonly otpVerifications = new Counter({
    name: 'otp_verifications_total',
    help: 'OTP verification requests by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly messageStatuses = new Counter({
    name: 'messages_status_total',
    help: 'Messages handed over (sent) or failed, and delivery receipts applied (delivered, undelivered), by kind',
    labelNames: ['kind', 'status'] as const,
    registers: [this.registry],
  });

  readonly inboundSms = new Counter({
    name: 'inbound_sms_total',
    help: 'Inbound SMS by outcome: stored, or dropped because no account (unowned) or several (shared) have the number written to',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** A gauge read when scraped. */
  gauge(name: string, help: string, read: (set: (value: number, labels?: Record<string, string>) => void) => Promise<void> | void, labelNames: string[] = []) {
    return new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        await read((value, labels) => (labels ? this.set(labels, value) : this.set(value)));
      },
    });
  }
}
