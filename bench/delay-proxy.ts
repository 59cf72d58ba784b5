// A proxy that holds every request a fixed time before passing it on: a target at a given round trip, made
// of a local one. Bodies are passed through as they are; the upstream connections are kept alive.
import { createServer, request, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The round trip the benchmark's remote run is measured at. */
export const ROUND_TRIP_MS = 50;

export interface DelayProxy {
  /** The proxy's origin (http://127.0.0.1:port). */
  origin: string;
  close(): Promise<void>;
}

export async function startDelayProxy(upstream: string, delayMs: number): Promise<DelayProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        const up = request(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host }, agent },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        up.on('error', (e) => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`delay proxy: ${e.message}`);
        });
        up.end(Buffer.concat(chunks));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
