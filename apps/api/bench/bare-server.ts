/**
 * The reference of api-speed.ts: bare Fastify answering what the portal's calls answer in shape,
 * started by the same Node with the same flags. Prints its address as the portal's start line does.
 */
import Fastify from 'fastify';

const app = Fastify();
app.get('/bare', () => ({ status: 'success' }));
app.post('/bare', () => ({ status: 'success' }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.info(JSON.stringify({ address }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
