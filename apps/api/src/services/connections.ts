import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { REQUEST_ID_HEADER } from '@frontdoor/contract';

/** How long an answer has been sent before its connection may be cut: time for the client to read it. */
export const ANSWERED_GRACE_MS = 500;

/**
 * The server's open connections and each one's latest answer, for the stop. Node's
 * closeIdleConnections leaves a connection whose answer is sent but whose request body is still
 * arriving (a client trickling a byte a second, already answered 403): it is not idle, and it held the
 * stop until the forced exit.
 */
export function trackConnections(server: Server, now: () => number) {
  const latest = new Map<Socket, ServerResponse | undefined>();
  const answeredAt = new WeakMap<ServerResponse, number>();
  server.on('connection', (socket: Socket) => {
    latest.set(socket, undefined);
    socket.once('close', () => latest.delete(socket));
  });
  server.on('request', (req: { socket: Socket }, res: ServerResponse) => {
    latest.set(req.socket, res);
    res.once('finish', () => answeredAt.set(res, now()));
  });
  return {
    /** Cuts each connection answered at least ANSWERED_GRACE_MS ago; an answer under way is left to finish. */
    closeAnswered(): void {
      for (const [socket, res] of latest) {
        const at = res && answeredAt.get(res);
        if (at !== undefined && now() - at >= ANSWERED_GRACE_MS) socket.destroy();
      }
    },
    /** What still holds the stop: the open connections, and the request ids of the answers not yet sent. */
    stillOpen(): { openConnections: number; reqIds: string[] } {
      const reqIds = [...latest.values()]
        .filter((res) => res !== undefined && !res.writableFinished)
        .map((res) => String(res?.getHeader(REQUEST_ID_HEADER) ?? 'unknown'));
      return { openConnections: latest.size, reqIds };
    },
  };
}
