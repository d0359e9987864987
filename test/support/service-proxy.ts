import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * What kube-proxy does for a ClusterIP Service, for pods that `podman play kube` runs (podman has no Services):
 * connections to one local port, each sent to the next of the pods' addresses in turn.
 */
export class ServiceProxy {
  /** Connections sent to each backend. */
  readonly connections = new Map<string, number>();
  private readonly server: Server;
  private readonly open = new Set<Socket>();
  private next = 0;

  constructor(private readonly backends: ReadonlyArray<{ host: string; port: number }>) {
    this.server = createServer((client) => {
      const backend = this.backends[this.next++ % this.backends.length]!;
      const key = `${backend.host}:${backend.port}`;
      this.connections.set(key, (this.connections.get(key) ?? 0) + 1);
      const upstream = connect(backend.port, backend.host);
      for (const socket of [client, upstream]) {
        this.open.add(socket);
        socket.on('close', () => this.open.delete(socket));
      }
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
  }

  /** Listens on a free local port, and resolves with it. */
  listen(): Promise<number> {
    return new Promise((resolve) => {
      this.server.listen(0, '127.0.0.1', () => {
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
  }

  /** Stops listening and ends the connections still open (a client's idle keep-alive ones too). */
  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.open) socket.destroy();
    return closed;
  }
}
