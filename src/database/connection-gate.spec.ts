import { ConnectionGate } from './connection-gate.js';

describe('ConnectionGate', () => {
  /** Enters the gate, recording the order in which units get through. */
  const entering = (gate: ConnectionGate, order: string[], name: string, urgent: boolean) =>
    gate.enter(urgent).then(() => void order.push(name));

  it('lets units through at once while the pool has connections free', async () => {
    const gate = new ConnectionGate(10);
    const order: string[] = [];

    await Promise.all(Array.from({ length: 8 }, (_, i) => entering(gate, order, `bulk ${i}`, false)));
    await Promise.all([entering(gate, order, 'otp 1', true), entering(gate, order, 'otp 2', true)]);

    expect(order).toHaveLength(10);
    expect(gate.waiting).toBe(0);
  });

  it('keeps a fifth of the pool for urgent units: other units wait once they hold the rest', async () => {
    const gate = new ConnectionGate(10);
    const order: string[] = [];
    await Promise.all(Array.from({ length: 8 }, (_, i) => entering(gate, order, `bulk ${i}`, false)));

    const ninth = entering(gate, order, 'bulk 8', false);
    await entering(gate, order, 'otp', true);

    expect(order.at(-1)).toBe('otp');
    expect(gate.waiting).toBe(1);
    gate.leave(false);
    await ninth;
    expect(order.at(-1)).toBe('bulk 8');
  });

  it('gives a connection given back to an urgent unit before the others waiting before it', async () => {
    const gate = new ConnectionGate(2);
    const order: string[] = [];
    await Promise.all([entering(gate, order, 'bulk 1', false), entering(gate, order, 'otp 1', true)]);
    const waiting = [entering(gate, order, 'bulk 2', false), entering(gate, order, 'bulk 3', false), entering(gate, order, 'otp 2', true)];

    gate.leave(true);
    await waiting[2];

    expect(order).toEqual(['bulk 1', 'otp 1', 'otp 2']);
    gate.leave(false);
    await waiting[0];
    gate.leave(false);
    await waiting[1];
    expect(order).toEqual(['bulk 1', 'otp 1', 'otp 2', 'bulk 2', 'bulk 3']);
  });

  it('gives the others a connection once as many as the pool has went to urgent units past them', async () => {
    const gate = new ConnectionGate(2);
    const order: string[] = [];
    await Promise.all([entering(gate, order, 'otp 1', true), entering(gate, order, 'otp 2', true)]);
    const renewal = entering(gate, order, 'renewal', false);
    const urgent = [3, 4, 5].map((n) => entering(gate, order, `otp ${n}`, true));

    gate.leave(true);
    gate.leave(true);
    await Promise.all(urgent.slice(0, 2));
    gate.leave(true);
    await renewal;
    gate.leave(true);
    await urgent[2];

    expect(order).toEqual(['otp 1', 'otp 2', 'otp 3', 'otp 4', 'renewal', 'otp 5']);
    expect(gate.waiting).toBe(0);
  });

  it('lets a pool of one connection serve urgent and other units in turn', async () => {
    const gate = new ConnectionGate(1);
    const order: string[] = [];
    await entering(gate, order, 'bulk 1', false);
    const next = [entering(gate, order, 'bulk 2', false), entering(gate, order, 'otp 1', true), entering(gate, order, 'otp 2', true)];

    for (let left = 0; left < 3; left++) {
      gate.leave(order.at(-1)!.startsWith('otp'));
      await new Promise(setImmediate);
    }
    await Promise.all(next);

    expect(order).toEqual(['bulk 1', 'otp 1', 'bulk 2', 'otp 2']);
  });
});
