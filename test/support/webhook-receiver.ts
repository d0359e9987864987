import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  at: number;
}

/** How the receiver answers a request to a path; the default is 200. */
export type Responder = (hook: ReceivedHook, response: ServerResponse, count: number) => void;

/** A real HTTP receiver on 127.0.0.1 that keeps every request and answers as each path is told to. */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  connections = 0;
  private readonly responders = new Map<string, Responder>();
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const hook = { path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        this.received.push(hook);
        const count = this.received.filter((each) => each.path === hook.path).length;
        const responder = this.responders.get(hook.path);
        if (responder) responder(hook, response, count);
        else response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  on(path: string, responder: Responder): void {
    this.responders.set(path, responder);
  }

  at(path: string): ReceivedHook[] {
    return this.received.filter((hook) => hook.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
