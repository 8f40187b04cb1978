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
 * Prints the records or listings read (created). The platform's calls are plain `node:http` POSTs on
 * a keep-alive agent, the cheapest a client can make them (fetch costs ~2.5× its CPU a call, got
 * ~4×: docs/performance.md, "A create's cost"), so the floor is the server's and the wire's.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';

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
  const worker = async () => {
    while (next < Number(count)) {
      const i = next++;
      const body = await postJson(`${url}/chat/Chatbot/RealEstateCreate`, {
        ...template,
        SerialNumber: serial,
        MLSNumber: `F-${i}`,
        Url: `https://floor.example/l/${i}`,
      });
      if (body.Code === 200) created++;
      else throw new Error(`create ${i}: ${JSON.stringify(body).slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: Number(concurrency) }, worker));
  return created;
}

const read = { csv, xml, pages, creates }[mode];
if (!read) throw new Error(`floor-reads: unknown mode ${mode}`);
process.stdout.write(String(await read(...args)));
agent.destroy();
