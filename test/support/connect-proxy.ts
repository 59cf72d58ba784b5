// A forward proxy on loopback that tunnels CONNECT requests (what undici's ProxyAgent sends for http and
// https targets alike) and records each tunnel's destination, so a test can see what went through it.
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface TestProxy {
  url: string;
  /** host:port of every tunnel asked for, in order. */
  tunnels: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(): Promise<TestProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    res.writeHead(405, { 'content-type': 'text/plain' }).end('this test proxy only tunnels (CONNECT)');
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const destination = req.url ?? '';
    tunnels.push(destination);
    const [host, port] = [destination.slice(0, destination.lastIndexOf(':')), Number(destination.slice(destination.lastIndexOf(':') + 1))];
    const upstream = connect({ host: host.replace(/^\[(.*)\]$/, '$1'), port }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
