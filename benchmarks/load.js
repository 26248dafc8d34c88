// The anchor's load on `avanti serve`, from Node's `ws`: a light client, so that the server, not
// the load, is what the figures measure.
//
//   node load.js --port 8000 [--seats 201] [--tables 67] [--warmup 10] [--duration 40]
//                [--game avanti] [--pid 1234] [--out figures.json] [--record seats.json]
//                [--no-deflate] [--label text] [--one-at-a-time] [--route seat|game]
//
// The shape is the boardgame.io anchor's (../shared/anchors/boardgameio/load.js) and the client
// is the one of serverload.py, seat for seat:
//   - `--seats` seats at `--tables` tables (default: a table per three seats; the seats shared
//     out as evenly as can be, the first tables taking one more). Table k plays the k-th game of
//     `--game` in turn (a name, or several comma-separated: avanti,mare,autorama). With several
//     ports (`--port 8000,8001`: several server processes on one store), table k creates its
//     games on port k mod n, and seat i of table k plays on port (i + k) mod n (`--route
//     seat`, the default: every game's seats spread over the processes, each process taking
//     commands for every game); with `--route game` every seat of a game plays on the port its
//     game's id hashes to, as a load balancer routing by the stream's path does (nginx's
//     `hash $request_uri consistent`), so that one process holds each game.
//   - A table creates a game with POST /games (its players named, no bots) from a loopback
//     address of its own (127.0.x.y), as separate players would, so that the server's limit of
//     new games per address does not hold the tables back (127.0.0.1 for all where such an
//     address cannot be bound; a refusal then waits a second and tries again). Every table's
//     first game is created before the clock starts; at game over the table creates the next.
//   - Each seat is one WebSocket on /games/{id}/stream; its first message is
//     {"token": ..., "after": 0}. On every update with legal commands at a version it has not
//     answered, it sends one at once, chosen at random, as {"type": "command", "command": ...,
//     "expected_version": v}, unless its last command is still unanswered: then, as the
//     browser's page does (a command under way sends no other), it waits for that answer (a
//     stored command's comes in the `results` of the seat's next update, or as a bare
//     `result`, a refused one as an `error`) and answers the newest update it has then. A refused command other than a stale one (409
//     version-conflict) lets the seat choose again at the same version; five in a row and it
//     gives up. A seat never sends faster than the server's default rate per connection allows
//     (9 a second, 18 at once, under its 10 and 20): it waits first, inside the latency.
//     A seat closes its socket once it has seen the outcome, or the time is up, with nothing
//     unanswered. With `--one-at-a-time`, a seat also waits while another seat of its table
//     has a command under way, so that a table has at most one, as in the anchor's game (one
//     card a turn): where several seats may act at once (Avanti's cards laid face down, A8)
//     they act one after another, each on the update the one before left.
//   - `--warmup` seconds of play, then a window of `--duration` seconds. For the commands sent
//     in the window: accepted commands a second (results received in it); the latency from the
//     mover's send to the new state (the first update at the command's version or later)
//     reaching each other seat of the game, one sample per command and other seat, and to the
//     mover (p50, p90, p99 by the nearest rank, and the mean); the commands under way (sent,
//     not yet answered), their mean over the window sampled every 10 ms: by Little's law the
//     mean latency times the rate, so at the same rate a load that keeps more commands under
//     way waits longer for each; this process's own CPU
//     (process.cpuUsage()) over the window per accepted command; with `--pid` (comma-separated:
//     each server process), the servers' CPU (user + system from /proc/<pid>/stat, with every
//     descendant's) over the window per accepted command, and their largest resident memory
//     together, sampled four times a second.
//   - Every error is counted by kind: the server's kinds (version-conflict, rate-limited, ...),
//     create-<kind> for a refused POST /games, and the client's own: connect-failed, closed-<code>
//     (a socket the server closed), no-reply (nothing answered a command in 30 s), gave-up.
//   - `--record FILE` writes, after the run, what each seat was pushed and every accepted
//     command, for the replay check of beside_bgio.py.
// The figures go to stdout as one JSON line, and to `--out`. A watchdog bounds the run.
'use strict';

const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const WebSocket = require('ws');

function arg(name, dflt) {
  const i = process.argv.indexOf('--' + name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

const PORTS = String(arg('port', '8000')).split(',').map(Number);
const SEATS = Number(arg('seats', '201'));
const TABLES = Number(arg('tables', String(Math.max(1, Math.round(SEATS / 3)))));
const WARMUP_S = Number(arg('warmup', '10'));
const DURATION_S = Number(arg('duration', '40'));
const GAMES = String(arg('game', 'avanti')).split(',').filter(Boolean);
const PIDS = String(arg('pid', '')).split(',').filter(Boolean).map(Number);
const OUT = arg('out', '');
const RECORD = arg('record', '');
const LABEL = arg('label', '');
const DEFLATE = !process.argv.includes('--no-deflate');
const ONE_AT_A_TIME = process.argv.includes('--one-at-a-time');
const ROUTE = String(arg('route', 'seat'));

const PATIENCE_MS = 30000; // a hung server, not a slow one
const RATE = 9; // commands a second a seat sends at most, and at once:
const BURST = 18; // under the server's default limit per connection (10 and 20)
const HOST = '127.0.0.1';

for (const [name, value] of [['seats', SEATS], ['tables', TABLES], ['warmup', WARMUP_S],
  ['duration', DURATION_S]]) {
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number >= 0`);
}
if (TABLES < 1 || SEATS < 2 * TABLES) throw new Error('--seats must be at least 2 a table');
if (PORTS.some((port) => !Number.isInteger(port) || port <= 0)) throw new Error('bad --port');
if (ROUTE !== 'seat' && ROUTE !== 'game') throw new Error('--route is seat or game');

function portOf(gameId, table, seat) {
  // the port a seat's WebSocket goes to: spread by seat, or where the game's id hashes to
  if (ROUTE === 'seat') return PORTS[(table + seat) % PORTS.length];
  let hash = 2166136261; // FNV-1a over the id's characters
  for (let i = 0; i < gameId.length; i++) hash = Math.imul(hash ^ gameId.charCodeAt(i), 16777619);
  return PORTS[(hash >>> 0) % PORTS.length];
}

const now = () => performance.now(); // ms, monotonic
let winStart = Infinity;
let winEnd = Infinity; // also the deadline: no command is sent after it
const inWindow = (t) => t >= winStart && t < winEnd;

setTimeout(() => {
  console.error('WATCHDOG: load.js exceeded its time bound, exiting');
  process.exit(3);
}, (WARMUP_S + DURATION_S + 120) * 1000 + 2 * PATIENCE_MS).unref();

const errors = new Map(); // kind -> count
const count = (kind) => errors.set(kind, (errors.get(kind) || 0) + 1);
const games = new Map(); // game id -> kind
const gamesFinishedBy = { all: 0 };
const seatsLog = []; // every seat of every game
let underWay = 0; // commands sent and not yet answered, every seat's
const underWaySamples = [0, 0]; // their sum over the window's samples, and how many
setInterval(() => {
  if (inWindow(now())) {
    underWaySamples[0] += underWay;
    underWaySamples[1] += 1;
  }
}, 10).unref();
const acked = []; // {seat, version, sent, answered}
let sent = 0;
const live = new Set(); // seats whose socket is open or opening

// -- /proc -------------------------------------------------------------------------------------

let TICKS = 100;
try {
  TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
} catch (e) {
  // USER_HZ is 100 on Linux
}

function family(pid) {
  // The process and every descendant (through /proc/<pid>/task/<tid>/children).
  const found = [pid];
  for (let i = 0; i < found.length && found.length < 1000; i++) {
    try {
      for (const task of fs.readdirSync(`/proc/${found[i]}/task`)) {
        const text = fs.readFileSync(`/proc/${found[i]}/task/${task}/children`, 'utf8');
        for (const child of text.split(/\s+/)) if (child) found.push(Number(child));
      }
    } catch (e) {
      // gone, or no such file: no children to add
    }
  }
  return found;
}

function cpuSeconds(pid) {
  // user + system of the process and its descendants, or null when the process is gone.
  let total = 0;
  for (const each of family(pid)) {
    try {
      const fields = fs.readFileSync(`/proc/${each}/stat`, 'utf8').split(')').pop().trim().split(/\s+/);
      total += (Number(fields[11]) + Number(fields[12])) / TICKS;
    } catch (e) {
      if (each === pid) return null;
    }
  }
  return total;
}

function rssBytes(pid) {
  let total = 0;
  for (const each of family(pid)) {
    try {
      const line = fs.readFileSync(`/proc/${each}/status`, 'utf8').split('\n')
        .find((l) => l.startsWith('VmRSS:'));
      total += Number(line.split(/\s+/)[1]) * 1024;
    } catch (e) {
      if (each === pid) return null;
    }
  }
  return total;
}

function machineBusy() {
  // The machine's busy and total clock ticks so far (/proc/stat), or null.
  try {
    const v = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = v.reduce((a, b) => a + b, 0);
    return [total - v[3] - (v[4] || 0), total];
  } catch (e) {
    return null;
  }
}

// -- HTTP --------------------------------------------------------------------------------------

function request(method, port, url, body, localAddress) {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const options = {
      host: HOST, port, path: url, method, agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
    };
    if (localAddress) options.localAddress = localAddress;
    const req = http.request(options, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let parsed = null;
        try {
          parsed = JSON.parse(raw);
        } catch (e) {
          // not JSON: the status says enough
        }
        resolve({ status: res.statusCode, body: parsed });
      });
    });
    req.setTimeout(PATIENCE_MS, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(text);
  });
}

function canBind(address) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, address, () => probe.close(() => resolve(true)));
  });
}

async function tableAddresses() {
  const addresses = [];
  for (let t = 0; t < TABLES; t++) addresses.push(`127.0.${1 + Math.floor(t / 250)}.${2 + (t % 250)}`);
  return (await canBind(addresses[addresses.length - 1])) ? addresses : addresses.map(() => null);
}

async function createGame(table, kind, players, address) {
  // POST /games for a table: the reply, or null (counted) when refused or failed.
  const names = [];
  for (let s = 0; s < players; s++) names.push(`Player ${s + 1}`);
  let reply;
  try {
    reply = await request('POST', PORTS[table % PORTS.length], '/games', { game: kind, players: names }, address);
  } catch (e) {
    count('create-failed');
    return null;
  }
  if (reply.status !== 201) {
    count(`create-${(reply.body && reply.body.error && reply.body.error.kind) || reply.status}`);
    return null;
  }
  games.set(reply.body.id, kind);
  return reply.body;
}

// -- a seat ------------------------------------------------------------------------------------

class Seat {
  constructor(gameId, seat, port, token) {
    this.gameId = gameId;
    this.seat = seat;
    this.versions = []; // each update's version, in the order received
    this.arrivals = []; // and when it came
    this.events = RECORD ? [] : null; // [position, event] of every update, when recording
    this.version = 0;
    this.latest = null;
    this.actedAt = -1; // the version of the update last answered
    this.outstanding = []; // when each command not yet answered was sent, oldest first
    this.table = [this]; // the seats of its table (set by the table once all are made)
    this.failures = 0;
    this.tokens = BURST;
    this.stamp = now();
    this.ended = false;
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
    });
    this.index = seatsLog.length;
    seatsLog.push(this);
    live.add(this);
    this.opened = false;
    this.ws = new WebSocket(`ws://${HOST}:${port}/games/${gameId}/stream`, {
      perMessageDeflate: DEFLATE,
      maxPayload: 2 ** 23,
      handshakeTimeout: PATIENCE_MS,
    });
    this.ws.on('open', () => {
      this.opened = true;
      this.ws.send(JSON.stringify({ token, after: 0 }));
    });
    this.ws.on('message', (data) => this.receive(JSON.parse(data), now()));
    this.ws.on('error', () => {
      if (!this.opened && !this.ended) {
        count('connect-failed');
        this.end();
      }
    });
    this.ws.on('close', (code) => {
      if (!this.ended) {
        count(this.opened ? `closed-${code}` : 'connect-failed');
        this.end();
      }
    });
  }

  over() {
    return this.latest !== null && this.latest.outcome !== null;
  }

  end() {
    if (this.ended) return;
    this.ended = true;
    underWay -= this.outstanding.length; // never to be answered now
    this.outstanding = [];
    live.delete(this);
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.close();
    }
    this.resolve();
  }

  check(t) {
    // End the seat when it has nothing unanswered and the game is over or the time is up.
    if (this.ended) return;
    if (this.outstanding.length > 0) {
      if (t - this.outstanding[0] >= PATIENCE_MS) {
        count('no-reply');
        this.end();
      }
    } else if (t >= winEnd || this.over()) {
      this.end();
    }
  }

  receive(message, t) {
    if (this.ended) return;
    const kind = message.type;
    let fresh = false;
    if (kind === 'update') {
      this.versions.push(message.version);
      this.arrivals.push(t);
      this.version = message.version;
      if (this.events !== null) {
        for (const item of message.events) this.events.push([item.position, item.event]);
      }
      this.latest = message;
      fresh = true;
      for (const answer of message.results || []) this.answered(answer, t); // the mover's
    } else if (kind === 'result') {
      this.answered(message, t);
      fresh = true;
    } else if (kind === 'error') {
      if (this.outstanding.length > 0) this.settle(0);
      const error = (message.error && message.error.kind) || 'unknown-error';
      count(error);
      if (error !== 'version-conflict') {
        this.failures += 1;
        this.actedAt = -1; // the seat may try again at this version
      }
      fresh = true; // a newer update may have come while the command was under way
    }
    if (fresh) {
      if (this.failures >= 5) {
        count('gave-up');
        this.end();
        return;
      }
      if (t < winEnd) this.act(t);
    }
    this.check(t);
  }

  // A stored command's answer (in the `results` of the seat's update, or a bare `result`).
  answered(answer, t) {
    if (this.outstanding.length > 0) {
      acked.push({ seat: this, version: answer.version, sent: this.settle(answer.version), answered: t });
      this.failures = 0;
    }
  }

  // The oldest command under way is answered (stored at `version`, or refused: 0): when it
  // was sent. With --one-at-a-time each other seat of the table that has the update at that
  // version may act now; one that has not acts when it comes.
  settle(version) {
    underWay -= 1;
    const sent = this.outstanding.shift();
    if (ONE_AT_A_TIME) {
      const t = now();
      for (const other of this.table) {
        if (other !== this && !other.ended && other.version >= version && t < winEnd) other.act(t);
      }
    }
    return sent;
  }

  act(t) {
    const latest = this.latest;
    if (latest === null || latest.outcome !== null || latest.legal.length === 0) return;
    if (latest.version <= this.actedAt) return;
    if (this.outstanding.length > 0) return; // one command under way at a time, as the page
    if (ONE_AT_A_TIME && this.table.some((seat) => seat.outstanding.length > 0)) return;
    const version = latest.version;
    this.actedAt = version;
    const choice = latest.legal[Math.floor(Math.random() * latest.legal.length)];
    const text = JSON.stringify({ type: 'command', command: choice.command, expected_version: version });
    this.outstanding.push(t);
    underWay += 1;
    sent += 1;
    // The token bucket: wait, rather than send faster than RATE (commands keep their order).
    this.tokens = Math.min(BURST, this.tokens + ((t - this.stamp) / 1000) * RATE) - 1;
    this.stamp = t;
    if (this.tokens >= 0) {
      this.ws.send(text);
    } else {
      setTimeout(() => {
        if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
      }, (-this.tokens / RATE) * 1000);
    }
  }
}

// -- a table -----------------------------------------------------------------------------------

async function playTable(table, kind, players, address, first) {
  let created = first;
  while (now() < winEnd) {
    if (created === null) {
      created = await createGame(table, kind, players, address);
      if (created === null) {
        await new Promise((r) => setTimeout(r, 1000)); // refused: try again
        continue;
      }
    }
    const seats = created.seats.map(
      (entry) => new Seat(created.id, entry.seat, portOf(created.id, table, entry.seat), entry.token)
    );
    for (const seat of seats) seat.table = seats;
    await Promise.all(seats.map((seat) => seat.done));
    if (seats.every((seat) => seat.over())) {
      gamesFinishedBy.all += 1;
      gamesFinishedBy[kind] = (gamesFinishedBy[kind] || 0) + 1;
    }
    created = null;
  }
}

// -- the figures -------------------------------------------------------------------------------

function pct(sorted, q) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function firstReached(seat, version) {
  // When the seat was first pushed an update at `version` or later, or null.
  const v = seat.versions;
  let lo = 0;
  let hi = v.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v[mid] < version) lo = mid + 1;
    else hi = mid;
  }
  return lo === v.length ? null : seat.arrivals[lo];
}

function latencies() {
  const byGame = new Map();
  for (const seat of seatsLog) {
    if (!byGame.has(seat.gameId)) byGame.set(seat.gameId, []);
    byGame.get(seat.gameId).push(seat);
  }
  const others = [];
  const mover = [];
  for (const command of acked) {
    if (!inWindow(command.sent)) continue;
    for (const seat of byGame.get(command.seat.gameId)) {
      const reached = firstReached(seat, command.version);
      if (reached === null) continue;
      (seat === command.seat ? mover : others).push(reached - command.sent);
    }
  }
  return [Float64Array.from(others).sort(), Float64Array.from(mover).sort()];
}

const round = (value, digits) => (value === null || value === undefined ? null : +value.toFixed(digits));
const sum = (values) => (values.some((v) => v === null) ? null : values.reduce((a, b) => a + b, 0));

async function main() {
  const addresses = await tableAddresses();
  const kinds = [];
  const players = [];
  for (let t = 0; t < TABLES; t++) {
    kinds.push(GAMES[t % GAMES.length]);
    players.push(Math.floor(SEATS / TABLES) + (t < SEATS % TABLES ? 1 : 0));
  }
  for (const port of PORTS) {
    for (const kind of new Set(GAMES)) {
      const reply = await request('GET', port, `/schemas/${kind}`); // every game's package loaded
      if (reply.status !== 200) throw new Error(`GET /schemas/${kind} on port ${port}: ${reply.status}`);
    }
  }
  const firsts = await Promise.all(kinds.map((kind, t) => createGame(t, kind, players[t], addresses[t])));
  const started = now();
  winStart = started + WARMUP_S * 1000;
  winEnd = winStart + DURATION_S * 1000;
  const tables = kinds.map((kind, t) => playTable(t, kind, players[t], addresses[t], firsts[t]));

  // The servers at the window's edges, their memory four times a second in it.
  const ticker = setInterval(() => {
    const t = now();
    for (const seat of live) seat.check(t);
  }, 250);
  await new Promise((r) => setTimeout(r, Math.max(0, winStart - now())));
  const cpuBefore = PIDS.map(cpuSeconds);
  const busyBefore = machineBusy();
  const clientBefore = process.cpuUsage();
  let rss = null;
  while (now() < winEnd) {
    const sizes = PIDS.map(rssBytes);
    if (PIDS.length > 0 && sizes.every((size) => size !== null)) rss = Math.max(rss || 0, sum(sizes));
    await new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, winEnd - now()))));
  }
  const client = process.cpuUsage(clientBefore);
  const cpuAfter = PIDS.map(cpuSeconds);
  const busyAfter = machineBusy();
  await Promise.all(tables);
  clearInterval(ticker);

  const [others, mover] = latencies();
  const accepted = acked.filter((command) => inWindow(command.answered)).length;
  const clientCpuS = (client.user + client.system) / 1e6;
  const serverCpu = PIDS.map((pid, i) =>
    cpuBefore[i] === null || cpuAfter[i] === null ? null : cpuAfter[i] - cpuBefore[i]
  );
  const serverTotal = PIDS.length === 0 ? null : sum(serverCpu);
  const byKind = {};
  for (const kind of games.values()) byKind[kind] = (byKind[kind] || 0) + 1;
  const ticks = busyBefore && busyAfter ? busyAfter[1] - busyBefore[1] : 0;
  const result = {
    label: LABEL,
    games_played: [...new Set(GAMES)].sort(),
    seats: SEATS,
    tables: TABLES,
    ports: PORTS,
    warmup_s: WARMUP_S,
    window_s: DURATION_S,
    accepted,
    moves_per_second: round(accepted / DURATION_S, 1),
    commands_sent: sent,
    commands_accepted: acked.length,
    latency_samples: others.length,
    p50_ms: round(pct(others, 0.5), 2),
    p90_ms: round(pct(others, 0.9), 2),
    p99_ms: round(pct(others, 0.99), 2),
    max_ms: round(others.length ? others[others.length - 1] : null, 2),
    mover_p50_ms: round(pct(mover, 0.5), 2),
    mover_p90_ms: round(pct(mover, 0.9), 2),
    mover_p99_ms: round(pct(mover, 0.99), 2),
    mean_ms: round(others.length ? others.reduce((a, b) => a + b, 0) / others.length : null, 2),
    under_way: round(underWaySamples[1] ? underWaySamples[0] / underWaySamples[1] : null, 1),
    one_at_a_time: ONE_AT_A_TIME,
    route: ROUTE,
    client_cpu_s: round(clientCpuS, 3),
    client_cpu_ms_per_move: accepted ? round((1000 * clientCpuS) / accepted, 4) : null,
    client_cpu_percent: round((100 * clientCpuS) / DURATION_S, 1),
    server_pids: PIDS,
    server_cpu_s: serverCpu.map((c) => round(c, 3)),
    server_cpu_ms_per_move: serverTotal === null || !accepted ? null : round((1000 * serverTotal) / accepted, 4),
    server_cpu_percent: serverTotal === null ? null : round((100 * serverTotal) / DURATION_S, 1),
    server_rss_max_mib: rss === null ? null : round(rss / 2 ** 20, 1),
    machine_busy: ticks ? round((busyAfter[0] - busyBefore[0]) / ticks, 3) : null,
    machine_cores: os.cpus().length,
    errors: Object.fromEntries([...errors.entries()].sort()),
    games_created: games.size,
    games_by_kind: byKind,
    games_finished: gamesFinishedBy.all,
    deflate: DEFLATE,
    node: process.version,
    ws: require('ws/package.json').version,
  };
  console.log(JSON.stringify(result));
  if (OUT) {
    fs.mkdirSync(path.dirname(path.resolve(OUT)), { recursive: true });
    fs.writeFileSync(OUT, JSON.stringify(result, null, 2) + '\n');
  }
  if (RECORD) {
    const record = {
      games: Object.fromEntries(games),
      seats: seatsLog.map((seat) => ({
        game: seat.gameId, seat: seat.seat, version: seat.version, events: seat.events,
      })),
      acked: acked.map((command) => ({ seat: command.seat.index, version: command.version })),
    };
    fs.writeFileSync(RECORD, JSON.stringify(record));
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
