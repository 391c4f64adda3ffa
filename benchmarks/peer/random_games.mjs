// Random whole games on the peer engine (Thrillberg/imperial's JavaScript game logic), for
// benchmarks/peer_compare.py. Our code; the peer's code is never copied into this repository.
//
// Get the peer (any checkout of github.com/Thrillberg/imperial), outside the repository:
//
//   git clone --depth 1 https://github.com/Thrillberg/imperial /tmp/peer
//
// and run (node 20+, no npm packages needed):
//
//   node benchmarks/peer/random_games.mjs /tmp/peer [--games N] [--first-seed S] [--players 4]
//       [--warmup W]
//
// The peer's engine is app/javascript/Domain/ImperialGameCoordinator.js (ES modules with
// extension-less imports, written for Babel and Vite): a module hook below resolves those
// imports and loads the files as ES modules, so Node runs the sources as they are.
//
// Workload, as benchmarks/bench.py plays ours: base game "imperial", variant "standard"
// (the starting bonds dealt by nation, like our first edition's standard game), N players;
// from the start to the end of the game each step applies a uniformly random action of the
// engine's availableActions (seeded), leaving out "undo" (ours offers no undo among the legal
// actions). A nation turn is a chosen "rondel" action (the rondel actions the engine ticks
// itself, after the Swiss banks let a nation pass the investor, are not choices and are not
// counted), as bench.py counts ChooseRondel. Timing covers building the game, initialize and
// every tick plus the listing of availableActions; printed as one JSON line per game and a
// summary line (actions, nation turns, wall ms, CPU ms of this process, which counts Node's
// own helper threads: its garbage collector and compiler).
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const args = process.argv.slice(2);
if (args.length < 1 || args[0].startsWith('--')) {
  console.error('usage: node random_games.mjs PEER_DIR [--games N] [--first-seed S] [--players P] [--max-actions M] [--warmup W]');
  process.exit(2);
}
const peer = path.resolve(args[0]);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const games = option('--games', 10);
const firstSeed = option('--first-seed', 0);
const playerCount = option('--players', 4);
const maxActions = option('--max-actions', 50000);
// games played first and left out of the figures (the JIT compiler's warm-up)
const warmup = option('--warmup', 0);

const domain = path.join(peer, 'app', 'javascript');
const hooks = `
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const ROOT = ${JSON.stringify(pathToFileURL(domain).href)};
export async function resolve(specifier, context, next) {
  if (context.parentURL?.startsWith(ROOT) && specifier.startsWith('.') && !/\\.m?js$/.test(specifier)) {
    const url = new URL(specifier + '.js', context.parentURL);
    if (existsSync(fileURLToPath(url))) return next(url.href, context);
  }
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (url.startsWith(ROOT) && url.endsWith('.js')) return next(url, { ...context, format: 'module' });
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url);

const { default: Imperial } = await import(pathToFileURL(path.join(domain, 'Domain', 'ImperialGameCoordinator.js')).href);
const { default: Action } = await import(pathToFileURL(path.join(domain, 'Domain', 'action.js')).href);
const { Nation } = await import(pathToFileURL(path.join(domain, 'Domain', 'constants.js')).href);

// mulberry32: a small seeded generator (the runs repeat; not the same stream as Python's)
const rng = (seed) => {
  let a = (seed + 0x9e3779b9) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

// the peer's own seating for 4 players (app/javascript/src/assignNations.js)
const SEATING = [Nation.AH, Nation.IT, Nation.FR, Nation.GB, Nation.GE, Nation.RU];

const play = (seed) => {
  const random = rng(seed);
  let errors = 0;
  const logger = { error: () => { errors += 1; } };
  const game = new Imperial(undefined, logger);
  const players = Array.from({ length: playerCount }, (_, i) => ({ id: `P${i}`, nation: SEATING[i] }));
  game.tick(Action.initialize({ players, soloMode: false, variant: 'standard', baseGame: 'imperial' }));
  let actions = 0;
  let turns = 0;
  while (!game.winner && actions < maxActions) {
    const choices = [...game.availableActions].filter((a) => a.type !== 'undo');
    if (choices.length === 0) break;
    const action = choices[Math.floor(random() * choices.length)];
    if (action.type === 'rondel') turns += 1;
    game.tick(action);
    actions += 1;
  }
  return { actions, turns, finished: Boolean(game.winner), errors };
};

for (let i = 0; i < warmup; i += 1) play(1000000 + firstSeed + i);

let total = { games: 0, actions: 0, turns: 0, wall_ms: 0, cpu_ms: 0, unfinished: 0, errors: 0 };
for (let i = 0; i < games; i += 1) {
  const seed = firstSeed + i;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = play(seed);
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpuUsed = process.cpuUsage(cpu0);
  const cpu = (cpuUsed.user + cpuUsed.system) / 1000;
  console.log(JSON.stringify({ seed, ...r, wall_ms: wall, cpu_ms: cpu }));
  total = {
    games: total.games + 1,
    actions: total.actions + r.actions,
    turns: total.turns + r.turns,
    wall_ms: total.wall_ms + wall,
    cpu_ms: total.cpu_ms + cpu,
    unfinished: total.unfinished + (r.finished ? 0 : 1),
    errors: total.errors + r.errors,
  };
}
console.log(JSON.stringify({ total }));
