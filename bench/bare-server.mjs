// The baseline of the platform benchmark: Fastify answering a constant, nothing else.
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ status: 'ready' }));
app.get('/constant', async () => ({ id: 1, name: 'constant' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
