/**
 * The floor of a no-op run, each read alone in a process of its own (plain JavaScript, no type
 * stripping, only the library it measures):
 *   node floor-reads.mjs csv FILE          csv-parse over the file, counting records
 *   node floor-reads.mjs xml FILE          fast-xml-parser over the whole document
 *   node floor-reads.mjs pages URL SERIAL PAGE_SIZE CONCURRENCY
 *                                          the list pages: the first, then the rest CONCURRENCY at a time
 *   node floor-reads.mjs creates URL SERIAL COUNT CONCURRENCY TEMPLATE.json
 *                                          COUNT creates of the template listing (MLSNumber and Url
 *                                          made distinct), CONCURRENCY at a time
 * Prints the records or listings read (created). The pages are plain `node:http` POSTs on a
 * keep-alive agent (a page is a megabyte: its bytes, not its request, are its cost). The creates are
 * the cheapest a client can make them: one socket each of CONCURRENCY, kept alive, each request one
 * write of its head and body, each answer read by its Content-Length (~40 µs of CPU a create where
 * `node:http` spends ~90–140 µs, fetch ~350 µs and got ~470 µs: docs/performance.md), so the floor is
 * the server's and the wire's. It reads only what the sandbox sends (a Content-Length on every answer).
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';

const agent = new Agent({ keepAlive: true });

/** POST `body` as JSON to `url` and parse the answer. */
function postJson(url, body) {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(text),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** A kept-alive connection that POSTs JSON and reads each answer by its Content-Length. */
function rawConnection(url) {
  const target = new URL(url);
  const socket = connect(Number(target.port || 80), target.hostname);
  socket.setNoDelay(true);
  let buffered = null;
  let waiting = null;
  socket.on('error', (error) => waiting?.reject(error));
  socket.on('data', (chunk) => {
    buffered = buffered ? Buffer.concat([buffered, chunk]) : chunk;
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = buffered.toString('latin1', 0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1]);
    if (!(length >= 0)) return waiting?.reject(new Error(`no Content-Length: ${head}`));
    if (buffered.length < end + 4 + length) return;
    const body = buffered.toString('utf8', end + 4, end + 4 + length);
    buffered = null;
    const done = waiting;
    waiting = null;
    done?.resolve(JSON.parse(body));
  });
  return {
    post(path, body) {
      const text = JSON.stringify(body);
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: ${target.host}\r\ncontent-type: application/json\r\naccept: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
        );
      });
    },
    close: () => socket.end(),
  };
}

const [mode, ...args] = process.argv.slice(2);

async function csv(file) {
  const { parse } = await import('csv-parse');
  let records = 0;
  for await (const _ of createReadStream(file).pipe(parse({ from_line: 2 }))) records++;
  return records;
}

async function xml(file) {
  const { XMLParser } = await import('fast-xml-parser');
  const doc = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(
    await readFile(file, 'utf8'),
  );
  return doc.Listings.Listing.length;
}

async function pages(url, serial, pageSize, concurrency) {
  const read = async (page) => {
    const body = await postJson(`${url}/chat/Chatbot/RealEstateList`, {
      SerialNumber: serial,
      PageNumber: page,
      PageSize: Number(pageSize),
    });
    return body.Data;
  };
  const first = await read(1);
  const count = Math.ceil((first.VirtualCount ?? 0) / Number(pageSize));
  let next = 2;
  let listings = first.List.length;
  const worker = async () => {
    while (next <= count) {
      const page = await read(next++);
      listings += page.List.length;
    }
  };
  await Promise.all(Array.from({ length: Number(concurrency) }, worker));
  return listings;
}

async function creates(url, serial, count, concurrency, templateFile) {
  const template = JSON.parse(await readFile(templateFile, 'utf8'));
  let next = 0;
  let created = 0;
  const path = `${new URL(url).pathname.replace(/\/+$/, '')}/chat/Chatbot/RealEstateCreate`;
  const worker = async () => {
    const connection = rawConnection(url);
    while (next < Number(count)) {
      const i = next++;
      const body = await connection.post(path, {
        ...template,
        SerialNumber: serial,
        MLSNumber: `F-${i}`,
        Url: `https://floor.example/l/${i}`,
      });
      if (body.Code === 200) created++;
      else throw new Error(`create ${i}: ${JSON.stringify(body).slice(0, 200)}`);
    }
    connection.close();
  };
  await Promise.all(Array.from({ length: Number(concurrency) }, worker));
  return created;
}

const read = { csv, xml, pages, creates }[mode];
if (!read) throw new Error(`floor-reads: unknown mode ${mode}`);
process.stdout.write(String(await read(...args)));
agent.destroy();
