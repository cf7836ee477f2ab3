// The browser board in headless Chromium, step by step (scripts/web-check runs it):
//   node scripts/web-check.js URL OUT_DIR
// Each step writes OUT_DIR/NN-name.png and prints what it measured; a failed check ends
// the run with exit status 1.
"use strict";
const { chromium } = require("playwright-core");

const [url, out] = process.argv.slice(2);
const LONG = 180000;
let failures = 0;

function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures += 1;
}

async function shot(page, name) {
  const path = `${out}/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  console.log(`     screenshot ${path}`);
}

const state = (page) => page.evaluate(() => view.state);

async function waitState(page, what, fn, arg) {
  await page.waitForFunction(fn, arg, { timeout: LONG, polling: 50 });
  return state(page);
}

// Posts a request as the page's own buttons do.
const post = (page, request) => page.evaluate((r) => send(r), request);

// Sets the players (and the clock: minutes, or "" for none) through the form, and
// waits until the engine holds them.
async function setPlayers(page, black, white, level, minutes = "") {
  await page.selectOption("#black-kind", black);
  await page.selectOption("#white-kind", white);
  await page.fill("#black-level", String(level));
  await page.fill("#white-level", String(level));
  await page.fill("#clock-minutes", minutes);
  await page.fill("#clock-increment", "0");
  await page.click("#apply-players");
  await page.waitForFunction(
    ([b, w, l, m]) => {
      const s = view.state;
      return s.players.black.kind === b && s.players.white.kind === w && s.players.black.level === l && (m === "" ? !s.clock : s.clock && s.clock.main_s === 60 * Number(m));
    },
    [black, white, level, minutes],
    { timeout: LONG },
  );
}

async function clickMove(page, mv) {
  await page.click(`#board [data-col="${mv.col}"][data-row="${mv.row}"]`);
}

async function wholeGame(page) {
  await setPlayers(page, "human", "iago", 8);
  await post(page, { op: "new", from: "start" });
  let clicks = 0;
  for (;;) {
    const s = await waitState(page, "Black's turn", () => {
      const s = view.state;
      return s && (s.over || (s.to_move === "black" && !s.job));
    });
    if (s.over) break;
    // A varied but repeatable choice among the legal moves.
    const mv = s.legal[(s.cursor * 7) % s.legal.length];
    await clickMove(page, mv);
    clicks += 1;
    await page.waitForFunction((c) => view.state.cursor > c, s.cursor, { timeout: LONG });
    if (clicks === 12) await shot(page, "02-midgame");
  }
  const s = await state(page);
  console.log(`     game: ${clicks} clicks, ${s.moves.length} moves, ${s.result}`);
  check(s.over && s.discs.black + s.discs.white <= 64 && /wins|Draw/.test(s.result), "a whole game by clicks against iago level 8");
  check((await page.textContent("#status")) === s.result, "the result is shown");
  await shot(page, "03-game-over");
  return s;
}

async function undo(page, before) {
  await page.click("#undo");
  const s = await waitState(page, "the undo", (c) => view.state.cursor < c, before.cursor);
  check(s.cursor < before.cursor && !s.over && s.to_move === "black", `undo: back from move ${before.cursor} to ${s.cursor}, Black to move`);
  await page.click("#redo");
  const again = await waitState(page, "the redo", (c) => view.state.cursor > c, s.cursor);
  check(again.cursor > s.cursor, `redo: forward to move ${again.cursor}`);
  await page.click("#undo");
  await waitState(page, "the undo", (c) => view.state.cursor < c, again.cursor);
  await shot(page, "04-undo");
}

async function hints(page) {
  await setPlayers(page, "human", "human", 10);
  await page.fill("#hint-level", "10");
  await post(page, { op: "new", from: "text", text: "f5d6c3d3c4f4c5b3c2e3d2c6b4a4" });
  await waitState(page, "the game", () => view.state.cursor === 14 && !view.state.hints.on);
  // From the click to the first score on a square, measured in the page.
  const ms = await page.evaluate(async () => {
    const start = performance.now();
    document.getElementById("hints-on").click();
    await new Promise((done) => {
      const look = () => (document.querySelector("#board .hint") ? done() : requestAnimationFrame(look));
      look();
    });
    return performance.now() - start;
  });
  console.log(`     hints: the first score on the board ${ms.toFixed(0)} ms after the click`);
  check(ms < 200, "hints appear within 200 ms of asking");
  const h = await page.evaluate(async () => {
    await new Promise((done) => {
      const look = () => (view.hints && view.hints.done ? done() : setTimeout(look, 50));
      look();
    });
    return view.hints;
  });
  const legal = (await state(page)).legal.length;
  check(h.lines.length === legal, `every legal move scored (${h.lines.length} of ${legal}) at depth ${h.depth}`);
  const shown = await page.$$eval("#board .hint", (els) => els.length);
  check(shown === legal, `a score on each legal square (${shown})`);
  await shot(page, "05-hints");
}

async function longSearch(page) {
  await page.fill("#hint-level", "30");
  await page.click("#apply-players");
  await page.waitForFunction(() => view.state.hints.level === 30 && view.hints && view.hints.depth >= 8, null, { timeout: LONG });
  const startDepth = await page.evaluate(() => view.hints.depth);
  // While the level-30 search runs: the longest gap between frames over 5 s, and how
  // long a click on Flip takes to redraw the board.
  const figures = await page.evaluate(async () => {
    let longest = 0;
    let last = performance.now();
    const until = last + 5000;
    let flip = null;
    await new Promise((done) => {
      const frame = (now) => {
        longest = Math.max(longest, now - last);
        last = now;
        if (flip === null && now > until - 2500) {
          const before = document.querySelector("#cols-top").textContent;
          const t = performance.now();
          document.getElementById("flip").click();
          flip = document.querySelector("#cols-top").textContent !== before ? performance.now() - t : -1;
        }
        if (now < until) requestAnimationFrame(frame);
        else done();
      };
      requestAnimationFrame(frame);
    });
    return { longest, flip, depth: view.hints.depth, done: view.hints.done, nodes: view.hints.nodes };
  });
  console.log(`     level 30: depth ${startDepth} to ${figures.depth} in 5 s (${figures.nodes} nodes), longest frame gap ${figures.longest.toFixed(0)} ms, Flip redrawn in ${figures.flip.toFixed(1)} ms`);
  check(!figures.done, "the level-30 search still runs");
  check(figures.longest < 250 && figures.flip >= 0 && figures.flip < 100, "the page stays responsive while it runs");
  await shot(page, "06-level-30-flipped");
  await page.click("#flip");
  await page.click("#hints-on");
  await page.waitForFunction(() => !view.state.hints.on && !view.state.job, null, { timeout: LONG });
}

async function analysis(page, game) {
  const s = await state(page);
  if (!s.features.analysis) {
    check(false, "analysis offered");
    return;
  }
  await post(page, { op: "new", from: "text", text: game });
  await page.fill("#analysis-depth", "8");
  await page.fill("#analysis-verify", "12");
  await page.click("#analyze");
  await page.waitForFunction(() => view.analysis && view.analysis.done, null, { timeout: LONG });
  const a = await page.evaluate(() => view.analysis);
  const rows = await page.$$eval("#analysis-table tbody tr", (trs) => trs.length);
  console.log(`     analysis: ${a.rows.length} rows, ${a.summary}`);
  check(rows === a.rows.length && rows > 20, "the analysis lists every move");
  await shot(page, "07-analysis");
  const row = a.rows.find((r) => r.lost >= 3) || a.rows[10];
  await page.click(`#analysis-table tbody tr[data-ply="${row.number - 1}"]`);
  const at = await waitState(page, "the row's position", (p) => view.state.cursor === p, row.number - 1);
  check(at.cursor === row.number - 1, `a click on row ${row.number} goes to its position`);
  const point = await page.$(`#graph circle[data-ply="${row.number + 1}"]`);
  if (point) {
    await point.click();
    const there = await waitState(page, "the point's position", (p) => view.state.cursor === p, row.number + 1);
    check(there.cursor === row.number + 1, "a click on the graph goes to its position");
  }
  await shot(page, "08-analysis-row");
}

async function keyboard(page) {
  await setPlayers(page, "human", "human", 4);
  await post(page, { op: "new", from: "start" });
  const s = await waitState(page, "a new game", () => view.state.cursor === 0);
  await page.focus("#board .square[tabindex='0']");
  const [c, r] = await page.evaluate(() => view.focus);
  const target = s.legal[s.legal.length - 1];
  const keys = [];
  for (let i = 0; i < Math.abs(target.col - c); i++) keys.push(target.col > c ? "ArrowRight" : "ArrowLeft");
  for (let i = 0; i < Math.abs(target.row - r); i++) keys.push(target.row > r ? "ArrowDown" : "ArrowUp");
  for (const key of keys) await page.keyboard.press(key);
  await page.keyboard.press("Enter");
  const after = await waitState(page, "the move", () => view.state.cursor === 1);
  check(after.moves[0] === target.move, `arrow keys and Enter play ${target.move}`);
  await page.keyboard.press("u");
  const back = await waitState(page, "the undo", () => view.state.cursor === 0);
  check(back.cursor === 0, "U takes it back");
}

async function clock(page) {
  await setPlayers(page, "iago", "iago", 60, "0.25");
  await post(page, { op: "new", from: "start" });
  const s = await waitState(page, "the end of a game on 15 s clocks", () => view.state.over && view.state.clock);
  console.log(`     clock game: ${s.result}, ${s.clock.black_s.toFixed(1)} s and ${s.clock.white_s.toFixed(1)} s left`);
  check(s.clock.black_s > 0 && s.clock.white_s > 0 && !/time/.test(s.result), "iago at level 60 on its time manager: no flag fell");
  await shot(page, "09-clock-game");
  await setPlayers(page, "human", "iago", 10);
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 960 } });
    page.on("pageerror", (e) => check(false, `no script error: ${e.message}`));
    const started = Date.now();
    await page.goto(url);
    await page.waitForFunction(() => view.state && document.querySelectorAll("#board .square").length === view.state.size ** 2, null, { polling: "raf" });
    const loaded = await page.evaluate(() => performance.now());
    console.log(`     start page: board drawn ${loaded.toFixed(0)} ms after the navigation began (${Date.now() - started} ms for the script)`);
    check(loaded < 1000, "the start page loads in under a second");
    await shot(page, "01-start");
    const game = await wholeGame(page);
    const transcript = (await post(page, { op: "export", format: "transcript" })).text;
    await undo(page, game);
    await hints(page);
    await longSearch(page);
    await analysis(page, transcript);
    await keyboard(page);
    await clock(page);
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true });
    await phone.goto(url);
    await phone.waitForFunction(() => view.state && document.querySelectorAll("#board .square").length === view.state.size ** 2);
    const fits = await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    check(fits, "the page fits a phone's width (390 px)");
    await phone.screenshot({ path: `${out}/10-phone.png` });
    console.log(`     screenshot ${out}/10-phone.png`);
  } finally {
    await browser.close();
  }
  console.log(failures ? `web-check: ${failures} failed` : "web-check: all steps passed");
  process.exit(failures ? 1 : 0);
})().catch((e) => {
  console.error(`web-check: ${e.stack}`);
  process.exit(1);
});
