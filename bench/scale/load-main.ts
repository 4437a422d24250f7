/** The load generator as its own process (so it does not share the server's event loop): env in, JSON result out. */
import { readFileSync } from 'node:fs';
import { load } from './load.js';

const payload = JSON.parse(readFileSync(process.env.PAYLOAD_FILE ?? '', 'utf8')) as Record<string, unknown>;
const body = (i: number): string => JSON.stringify({ ...payload, comment: { ...(payload.comment as object), id: 1_000_000 + i } });
const res = await load({ url: process.env.TARGET_URL ?? '', secret: process.env.SECRET ?? '', total: Number(process.env.TOTAL ?? 1000), connections: Number(process.env.CONNECTIONS ?? 50), body, event: 'issue_comment' });
process.stdout.write(JSON.stringify(res) + '\n');
