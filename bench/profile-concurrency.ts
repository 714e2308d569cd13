import { readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { writeHeapSnapshot } from 'v8';
import { expectationOf } from './check';
import { cutsOf, readStream, type ConcurrencyContender } from './concurrency-process';
import { ConcurrentFeeder, piecesWithCuts } from './concurrent-feed';
import { generateTranscript, type BenchFormat } from './generate-transcript';
import { collectGarbage } from './measure';

// Where the live heap of many open streams goes, by object type, per stream:
//   node --expose-gc -r ts-node/register/transpile-only bench/profile-concurrency.ts [format] [streams] [partstream|floor]
// Holds `streams` streams opened (no bytes), after the opening frames, and at mid-stream, takes a
// heap snapshot at each point, and prints the difference between snapshots by node type and name
// (constructor, closure name, or system type), in bytes and objects per stream (and per delta held
// for the mid-stream difference). Shallow sizes: every object counted once, where it is.

interface Totals {
  count: number;
  size: number;
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

function read(file: string): Snapshot {
  return JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
}

/** The node ids of a snapshot. */
function idsOf(snapshot: Snapshot): Set<number> {
  const fields = snapshot.snapshot.meta.node_fields;
  const width = fields.length;
  const idAt = fields.indexOf('id');
  const ids = new Set<number>();
  for (let i = 0; i < snapshot.nodes.length; i += width) ids.add(snapshot.nodes[i + idAt]);
  return ids;
}

/**
 * Shallow size and count of the objects of `snapshot` that `earlier` did not have (node ids are
 * stable within a process), by "type name ← what holds it": the first strong retainer's type and
 * name and the edge's name, so that arrays, contexts and closures say whose they are.
 */
function newObjectsOf(snapshot: Snapshot, earlier: Set<number>): Map<string, Totals> {
  const { nodes, edges, strings } = snapshot;
  const meta = snapshot.snapshot.meta;
  const width = meta.node_fields.length;
  const [typeAt, nameAt, idAt, sizeAt, edgeCountAt] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f));
  const edgeWidth = meta.edge_fields.length;
  const [edgeTypeAt, edgeNameAt, toAt] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f));
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const label = (i: number): string => {
    const type = nodeTypes[nodes[i + typeAt]];
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') return type;
    return `${type} ${strings[nodes[i + nameAt]].slice(0, 50)}`;
  };
  const holder = new Map<number, string>();
  let edge = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const count = nodes[i + edgeCountAt];
    for (let k = 0; k < count; k++, edge += edgeWidth) {
      const to = edges[edge + toAt];
      if (holder.has(to) || earlier.has(nodes[to + idAt])) continue;
      const type = edgeTypes[edges[edge + edgeTypeAt]];
      if (type === 'weak' || type === 'shortcut') continue;
      const name = type === 'element' || type === 'hidden' ? `[${edges[edge + edgeNameAt]}]` : strings[edges[edge + edgeNameAt]];
      holder.set(to, `${label(i)}.${type === 'element' || type === 'hidden' ? '[]' : name.slice(0, 30)}`);
    }
  }
  const totals = new Map<string, Totals>();
  for (let i = 0; i < nodes.length; i += width) {
    if (earlier.has(nodes[i + idAt])) continue;
    const key = `${label(i)}  ← ${holder.get(i) ?? '(root)'}`;
    const entry = totals.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += nodes[i + sizeAt];
    totals.set(key, entry);
  }
  return totals;
}

function snapshotNow(label: string): string {
  collectGarbage();
  const file = writeHeapSnapshot(join(tmpdir(), `partstream-${label}-${process.pid}.heapsnapshot`));
  return file;
}

function printDifference(title: string, before: string, after: string, per: number, perDelta?: number): void {
  const b = newObjectsOf(read(after), idsOf(read(before)));
  const rows = [...b].map(([key, totals]) => ({ key, count: totals.count, size: totals.size }));
  rows.sort((x, y) => y.size - x.size);
  const total = rows.reduce((sum, r) => sum + r.size, 0);
  process.stdout.write(`\n${title}: ${(total / per).toFixed(0)} B per stream${perDelta === undefined ? '' : `, ${(total / per / perDelta).toFixed(1)} B per delta`}\n`);
  for (const r of rows.slice(0, 45)) {
    if (Math.abs(r.size / per) < 8) break;
    const delta = perDelta === undefined ? '' : `  ${(r.size / per / perDelta).toFixed(2).padStart(7)} B/delta`;
    process.stdout.write(`${(r.size / per).toFixed(0).padStart(8)} B  ${(r.count / per).toFixed(2).padStart(8)} objects${delta}  ${r.key}\n`);
  }
}

async function main(): Promise<void> {
  const format = (process.argv[2] ?? 'openai-chat') as BenchFormat;
  const streams = Number(process.argv[3] ?? 300);
  const contender = (process.argv[4] ?? 'partstream') as ConcurrencyContender;
  const transcript = generateTranscript({ format, n: 1_650, seed: 0x5eed });
  const expectation = expectationOf(transcript);
  const cuts = await cutsOf(format, transcript.bytes);
  const { pieces, cutIndexes } = piecesWithCuts(transcript.bytes, 512, [cuts.opening, cuts.middle]);
  const warm = new ConcurrentFeeder();
  await Promise.all(Array.from({ length: 20 }, () => readStream(contender, format, warm.source(pieces), expectation)));
  const feeder = new ConcurrentFeeder();
  const files = [snapshotNow('baseline')];
  feeder.holdAt(0);
  const done = Promise.all(Array.from({ length: streams }, () => readStream(contender, format, feeder.source(pieces), expectation)));
  for (const limit of cutIndexes) {
    await feeder.whenParked(streams);
    files.push(snapshotNow(`at-${limit}`));
    feeder.release(limit);
  }
  await feeder.whenParked(streams);
  files.push(snapshotNow('middle'));
  feeder.release();
  await done;
  process.stdout.write(`${contender} ${format}, ${streams} streams, ${cuts.deltasAtMiddle} deltas each at mid-stream\n`);
  printDifference('opened, no bytes yet', files[0], files[1], streams);
  printDifference('opening frames (role, message start, block start)', files[1], files[2], streams);
  printDifference('mid-stream, above the before-text state', files[2], files[3], streams, cuts.deltasAtMiddle);
  for (const file of files) rmSync(file);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
