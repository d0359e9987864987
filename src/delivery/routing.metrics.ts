import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { Metrics } from '../metrics/metrics.js';

/** The routing and connector series of SPEC-3 §2 on /metrics. */
@Injectable()
export class RoutingMetrics {
  readonly submits: Counter<'connector' | 'outcome'>;
  readonly submitSeconds: Histogram<'connector'>;
  readonly routed: Counter<'route' | 'connector' | 'pick'>;
  readonly rerouted: Counter<'from' | 'to' | 'reason'>;
  readonly receipts: Counter<'connector' | 'status'>;
  readonly supplierCost: Counter<'connector'>;
  readonly resubmitted: Counter<'connector'>;

  constructor(metrics: Metrics) {
    const registers = [metrics.registry];
    this.submits = new Counter({
      name: 'sms_submit_total',
      help: 'submit_sm by connector and outcome (accepted, throttled, refused, rejected, lost, timeout)',
      labelNames: ['connector', 'outcome'],
      registers,
    });
    this.submitSeconds = new Histogram({
      name: 'sms_submit_seconds',
      help: 'Time from a submit_sm to its answer, by connector',
      labelNames: ['connector'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.routed = new Counter({
      name: 'sms_route_total',
      help: 'Messages handed to a connector by route; pick=fallback when the route would have picked another with every target healthy',
      labelNames: ['route', 'connector', 'pick'],
      registers,
    });
    this.rerouted = new Counter({
      name: 'sms_reroute_total',
      help: 'Messages that went to another connector than the one their last attempt (or their first parts) went to, and why',
      labelNames: ['from', 'to', 'reason'],
      registers,
    });
    this.receipts = new Counter({
      name: 'sms_receipts_total',
      help: 'Delivery receipts received, by connector and status (DELIVRD, UNDELIV, …)',
      labelNames: ['connector', 'status'],
      registers,
    });
    this.supplierCost = new Counter({
      name: 'sms_supplier_cost_total',
      help: "What the accepted parts cost at the routing file's target costs, by connector",
      labelNames: ['connector'],
      registers,
    });
    this.resubmitted = new Counter({
      name: 'sms_resubmit_unknown_total',
      help: 'Submits lost with their bind or left unanswered, whose message is offered again (the SMSC may have taken it)',
      labelNames: ['connector'],
      registers,
    });
  }
}
