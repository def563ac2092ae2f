/**
 * `node dist/bench/profile-top.js FILE.cpuprofile [N] [LAST_SECONDS]`: the top entries of a V8 CPU
 * profile (`node --cpu-prof`, e.g. `BENCH_CPU_PROF=dir npm run bench`), as shares of the busy time
 * (of the profile's last LAST_SECONDS only, when given: the measured runs rather than the seeding):
 * - by package: every sample counted once for each package on its stack (inclusive);
 * - by function: self time.
 */
import { readFileSync } from 'node:fs';
import { formatTable } from './common.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The package (or our own folder) a script belongs to. */
function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url.split('/')[0];
  const src = /dist\/(src\/(?:platform|modules)\/[^/]+|src\/[^/]+|bench)/.exec(url);
  return src ? src[1] : url;
}

const file = process.argv[2];
const top = Number(process.argv[3] ?? 20);
const lastSeconds = process.argv[4] === undefined ? Infinity : Number(process.argv[4]);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const functions = new Map<string, number>();
let busy = 0;
let idle = 0;
const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
let at = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  at += dt;
  if (total - at > lastSeconds * 1e6) return;
  const leaf = byId.get(id)!;
  const leafName = leaf.callFrame.functionName;
  if (leafName === '(idle)' || leafName === '(program)') {
    idle += dt;
    return;
  }
  busy += dt;
  const key = `${leafName || '(anonymous)'} ${areaOf(leaf.callFrame.url, leafName)}:${leaf.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  const areas = new Set<string>();
  const frames = new Set<string>();
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
    const f = byId.get(n)!.callFrame;
    if (f.functionName === '(root)') continue;
    const area = areaOf(f.url, f.functionName);
    areas.add(area);
    if (area.startsWith('src') || area === 'bench')
      frames.add(`${f.functionName || '(anonymous)'} ${area}:${f.lineNumber + 1}`);
  }
  for (const a of areas) inclusive.set(a, (inclusive.get(a) ?? 0) + dt);
  for (const f of frames) functions.set(f, (functions.get(f) ?? 0) + dt);
});

const pct = (v: number) => `${((100 * v) / busy).toFixed(1)}%`;
const rows = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => [k, pct(v)]);
process.stdout.write(`${file}: busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s\n\n`);
process.stdout.write(`${formatTable(['on the stack (inclusive)', 'busy'], rows(inclusive))}\n\n`);
process.stdout.write(`${formatTable(['our functions on the stack (inclusive)', 'busy'], rows(functions))}\n\n`);
process.stdout.write(`${formatTable(['self time', 'busy'], rows(self))}\n`);
