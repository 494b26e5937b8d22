import { createServer, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { REQUEST_ID_HEADER } from '@frontdoor/contract';
import { testClock, TEST_START } from '../../test/harness.ts';
import { ANSWERED_GRACE_MS, trackConnections } from './connections.ts';

describe('trackConnections', () => {
  it('names the requests still unanswered for the too-long line, and cuts an answered connection whose body still arrives once its grace is over', async () => {
    const clock = testClock(TEST_START);
    let held: ServerResponse | undefined;
    const server = createServer((req, res) => {
      res.setHeader(REQUEST_ID_HEADER, String(req.headers[REQUEST_ID_HEADER]));
      // one answered at once, its body not read; the other held open
      if (req.url === '/answered') res.end('refused');
      else held = res;
    });
    const connections = trackConnections(server, clock.now);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const request = (path: string, reqId: string) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\n${REQUEST_ID_HEADER}: ${reqId}\r\nContent-Length: 40\r\n\r\n{`,
      );
      return socket;
    };
    const answered = request('/answered', 'answered-1');
    await new Promise((resolve) => answered.once('data', resolve));
    const waiting = request('/held', 'held-1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      expect(connections.stillOpen()).toEqual({ openConnections: 2, reqIds: ['held-1'] });
      // just answered: the client is given time to read it
      clock.advance(ANSWERED_GRACE_MS - 1);
      connections.closeAnswered();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(answered.destroyed).toBe(false);
      clock.advance(1);
      connections.closeAnswered();
      // the server's end of it closes a moment after the client's
      await vi.waitFor(() =>
        expect(connections.stillOpen()).toEqual({ openConnections: 1, reqIds: ['held-1'] }),
      );
      expect(answered.destroyed).toBe(true);
    } finally {
      held?.end();
      answered.destroy();
      waiting.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
