/**
 * A stand-in for the Hugging Face datasets server on 127.0.0.1: `/splits?dataset=` and
 * `/rows?dataset=&config=&split=&offset=&length=` with the real API's JSON shapes (features, rows with
 * row_idx and truncated_cells, num_rows_total, num_rows_per_page, partial), its cap of 100 rows a page
 * (a longer page is a 422) and 404 for an unknown dataset. Records every request; `delayMs` holds each
 * answer back that long (a slow network).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeDataset {
  /** config -> split -> rows */
  configs: Record<string, Record<string, Record<string, unknown>[]>>;
}

export interface FakeDatasetsServer {
  url: string;
  requests: { path: string; query: Record<string, string> }[];
  delayMs: number;
  close(): Promise<void>;
}

const MAX_LENGTH = 100;

export async function startFakeDatasetsServer(datasets: Record<string, FakeDataset>): Promise<FakeDatasetsServer> {
  const requests: FakeDatasetsServer['requests'] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const query = Object.fromEntries(url.searchParams);
    requests.push({ path: url.pathname, query });
    setTimeout(() => answer(url, query, res), fake.delayMs);
  });
  const answer = (url: URL, query: Record<string, string>, res: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const dataset = datasets[query.dataset ?? ''];
    if (!dataset)
      return send(404, {
        error:
          'The dataset does not exist, or is not accessible without authentication (private or gated). Please check the spelling of the dataset name or retry with authentication.',
      });
    if (url.pathname === '/splits') {
      const splits = Object.entries(dataset.configs).flatMap(([config, s]) => Object.keys(s).map((split) => ({ dataset: query.dataset, config, split })));
      return send(200, { splits, pending: [], failed: [] });
    }
    if (url.pathname !== '/rows') return send(404, { error: 'Not found' });
    const rows = dataset.configs[query.config]?.[query.split];
    if (!rows) return send(404, { error: 'The config or the split does not exist in the dataset' });
    const offset = Number(query.offset ?? 0);
    const length = Number(query.length ?? MAX_LENGTH);
    if (length > MAX_LENGTH) return send(422, { error: `Parameter 'length' must not be greater than ${MAX_LENGTH}` });
    const page = rows.slice(offset, offset + length);
    send(200, {
      features: Object.keys(rows[0] ?? {}).map((name, i) => ({ feature_idx: i, name, type: { dtype: 'string', _type: 'Value' } })),
      rows: page.map((row, i) => ({ row_idx: offset + i, row, truncated_cells: [] })),
      num_rows_total: rows.length,
      num_rows_per_page: MAX_LENGTH,
      partial: false,
    });
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeDatasetsServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    delayMs: 0,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
