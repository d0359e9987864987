/** The parts of the `smpp` package (node-smpp) this service uses. */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  namespace smpp {
    interface PDU {
      command: string;
      command_status: number;
      sequence_number: number;
      [parameter: string]: unknown;
      isResponse(): boolean;
      response(options?: Record<string, unknown>): PDU;
    }

    class Session extends EventEmitter {
      socket: Socket;
      send(pdu: PDU, responseCallback?: (response: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
      bind_transceiver(options: Record<string, unknown>, callback?: (response: PDU) => void): boolean;
      submit_sm(options: Record<string, unknown>, callback?: (response: PDU) => void): boolean;
      deliver_sm(options: Record<string, unknown>, callback?: (response: PDU) => void): boolean;
      enquire_link(options?: Record<string, unknown> | ((response: PDU) => void), callback?: (response: PDU) => void): boolean;
      unbind(options?: Record<string, unknown> | ((response: PDU) => void), callback?: (response: PDU) => void): boolean;
      close(callback?: () => void): void;
      destroy(callback?: () => void): void;
      pause(): void;
      resume(): void;
    }

    class Server extends NetServer {
      sessions: Session[];
    }

    function connect(options: { url: string; auto_enquire_link_period?: number; [option: string]: unknown }, listener?: () => void): Session;
    function createServer(listener?: (session: Session) => void): Server;

    const ESME_ROK: number;
    const ESME_RTHROTTLED: number;
    const ESME_RMSGQFUL: number;
    const ESME_RSYSERR: number;
    const ESME_RX_T_APPN: number;
    const ESME_RINVDSTADR: number;
    const ESME_RBINDFAIL: number;
    const ESME_RSUBMITFAIL: number;
    const ESM_CLASS: { MC_DELIVERY_RECEIPT: number; UDH_INDICATOR: number };
    const errors: Record<string, number>;
  }

  export = smpp;
}
