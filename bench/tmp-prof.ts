import { MockAgent, request } from 'undici';
import { ApiKey, createClient } from '../api/client/index.js';

const body = JSON.stringify({ ok: true, data: Array.from({ length: 5 }, (_, i) => ({ id: i, name: `Klient ${i}`, email: `k${i}@example.pl` })) });
const mock = new MockAgent();
mock.disableNetConnect();
mock.get('http://api.test').intercept({ path: '/api/v1/tenants/rowery-nowak/clients' }).reply(200, body, { headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) } }).persist();
const client = createClient({ baseUrl: 'http://api.test/api/v1', apiKey: new ApiKey('rs_test_abcdefghijklmnop1234', 'k'), tenant: 'rowery-nowak', dispatcher: mock, logLevel: 'silent' });
const raw = async () => { const res = await request('http://api.test/api/v1/tenants/rowery-nowak/clients', { dispatcher: mock, headers: { accept: 'application/json', authorization: 'Bearer rs_test_abcdefghijklmnop1234' } }); const p = (await res.body.json()) as { ok?: unknown }; return p.ok === true; };
const cl = async () => Array.isArray(await client.listClients());
async function time(name: string, f: () => Promise<boolean>, n: number) { const c = process.cpuUsage(); for (let i = 0; i < n; i++) await f(); const u = process.cpuUsage(c); return (u.user + u.system) / n; }
const which = process.argv[2] ?? 'both';
for (let i = 0; i < 3; i++) { await time('c', cl, 5000); await time('r', raw, 5000); }
const rs: number[] = [];
for (let round = 0; round < 10; round++) {
  const a = which !== 'raw' ? await time('client', cl, 5000) : 0;
  const b = which !== 'client' ? await time('raw', raw, 5000) : 0;
  rs.push(a / b);
  console.log(`client ${a.toFixed(1)} raw ${b.toFixed(1)} ratio ${(a / b).toFixed(2)}`);
}
rs.sort(); console.log('median', rs[5]);
await mock.close();
