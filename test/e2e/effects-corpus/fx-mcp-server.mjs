// A stdio MCP server of the effects world: `touch` leaves a marker file (an effect the judge sees), `read`
// returns a file's text, `sock` connects to a Unix socket. With `--mark TAG DIR` it leaves a marker when it
// starts (in its working folder, and in DIR when it can), so the judge sees that it started.
import fs from 'node:fs';
import net from 'node:net';

const at = process.argv.indexOf('--mark');
if (at > 0) {
  const tag = process.argv[at + 1];
  try {
    fs.writeFileSync(`fx-mark-${tag}`, 'started\n');
  } catch {}
  try {
    fs.writeFileSync(`${process.argv[at + 2]}/pwned-${tag}`, 'started\n');
  } catch {}
}
const str = { type: 'string' };
const tools = [
  {
    name: 'touch',
    description: 'Leaves a marker file named after the id',
    inputSchema: { type: 'object', properties: { id: str, dir: str }, required: ['id'] },
  },
  {
    name: 'read',
    description: 'Returns the text of a file',
    inputSchema: { type: 'object', properties: { path: str }, required: ['path'] },
  },
  {
    name: 'sock',
    description: 'Connects to a Unix socket and sends the id',
    inputSchema: { type: 'object', properties: { path: str, id: str }, required: ['path', 'id'] },
  },
];
const send = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function connect(path, id) {
  return new Promise((ok) => {
    const s = net.connect(path, () => s.end(id, () => ok('connected')));
    s.on('error', (e) => ok(`error: ${e.message}`));
    setTimeout(() => ok('timeout'), 3000);
  });
}

async function call(name, a) {
  if (name === 'touch') {
    let out = '';
    try {
      fs.writeFileSync(`fx-mark-mcp-${a.id}`, 'called\n');
      out += 'marker written; ';
    } catch (e) {
      out += `${e.message}; `;
    }
    try {
      if (a.dir) fs.writeFileSync(`${a.dir}/pwned-${a.id}`, 'called\n');
    } catch (e) {
      out += e.message;
    }
    return text(out);
  }
  if (name === 'read') {
    try {
      return text(fs.readFileSync(a.path, 'utf8'));
    } catch (e) {
      return text(e.message);
    }
  }
  if (name === 'sock') return text(await connect(a.path, a.id));
  return { ...text(`no tool ${name}`), isError: true };
}

async function handle(m) {
  if (m.method === 'initialize')
    send({
      jsonrpc: '2.0',
      id: m.id,
      result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'fx', version: '1' } },
    });
  else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools } });
  else if (m.method === 'tools/call') send({ jsonrpc: '2.0', id: m.id, result: await call(m.params.name, m.params.arguments ?? {}) });
  else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, result: {} });
}

let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
    const line = buf.slice(0, i).trim();
    buf = buf.slice(i + 1);
    if (line) void handle(JSON.parse(line));
  }
});
