// End-to-end test of the `tsume html` page in headless Chromium, driven by playwright-core.
//
//   node tests/html_e2e.mjs PAGE.html SCREENSHOT_DIR
//
// Environment: TSUME_E2E_NODE_DIR, the npm prefix that holds node_modules/playwright-core
// (`.ci/run` installs the pinned version there); TSUME_CHROMIUM, the browser (default
// /usr/bin/chromium, Debian's package). `tests/html.rs` generates the page and runs this.
//
// The script reads the page's own data (`#pack-data`), so it works with any pack: it
// opens the first problem of 3 moves or more, plays its first move by clicking, checks
// the board changed and the move was accepted, plays a wrong move and checks it is
// refused (board unchanged), checks the legality the page embeds (the selected piece's
// legal destinations are highlighted, a click that makes no legal move does nothing: no
// 成/不成 question, no "not the solution"; a forced promotion is not asked), steps back and forward, reveals the solution, finishes a
// problem with a final alternative and plays one where White attacks when the pack has
// them, and checks the layout on a phone-sized screen. Screenshots go to SCREENSHOT_DIR. Any page error, console error or
// request that is not a local file fails the run.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [pagePath, shotDir] = process.argv.slice(2);
if (!pagePath || !shotDir) {
  console.error('usage: node tests/html_e2e.mjs PAGE.html SCREENSHOT_DIR');
  process.exit(2);
}
const nodeDir = process.env.TSUME_E2E_NODE_DIR;
if (!nodeDir) {
  console.error('TSUME_E2E_NODE_DIR must name the npm prefix holding playwright-core');
  process.exit(2);
}
// Resolve playwright-core from the install prefix, not from this file's directory.
const { chromium } = createRequire(path.join(path.resolve(nodeDir), 'e2e.cjs'))('playwright-core');
const executablePath = process.env.TSUME_CHROMIUM || '/usr/bin/chromium';
const pageUrl = pathToFileURL(path.resolve(pagePath)).href;
mkdirSync(shotDir, { recursive: true });

let checks = 0;
function ok(what) {
  checks += 1;
  console.log(`ok ${checks} - ${what}`);
}

/** Fails the run on any page error, console error or non-local request. */
function watch(page, problems) {
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('request', (r) => {
    if (!/^(file|data|about):/.test(r.url())) problems.push(`network request: ${r.url()}`);
  });
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(shotDir, `${name}.png`), fullPage: true });
}

/** Everything the user sees of the position: squares, pieces and hands. */
async function boardState(page) {
  return page.evaluate(() => {
    const squares = Array.from(document.querySelectorAll('#board .sq')).map((sq) => {
      const piece = sq.querySelector('.piece');
      return `${sq.dataset.square}=${piece ? piece.className + ':' + piece.textContent : ''}`;
    });
    const hands = ['hand-attacker', 'hand-defender'].map((id) => document.getElementById(id).textContent);
    return squares.join(' ') + ' | ' + hands.join(' | ');
  });
}

const ply = (page) => page.locator('#problem-view').getAttribute('data-ply').then(Number);
const status = (page) => page.locator('#status');

/** Clicks (or taps) a USI move: the piece or hand piece, the square, then 成/不成 if asked. */
async function clickMove(page, usi, { tap = false } = {}) {
  const press = (locator) => (tap ? locator.tap() : locator.click());
  if (usi[1] === '*') {
    await press(page.locator(`#hand-attacker [data-hand="${usi[0]}"]`));
  } else {
    await press(page.locator(`#board [data-square="${usi.slice(0, 2)}"]`));
  }
  await press(page.locator(`#board [data-square="${usi.slice(2, 4)}"]`));
  const chooser = page.locator('#promote');
  if (await chooser.isVisible()) {
    await press(page.locator(usi.endsWith('+') ? '#promote-yes' : '#promote-no'));
  }
}

/** Waits until the attacker is to move at `n` (the defender's reply has been played). */
async function waitForPly(page, n) {
  await page.waitForSelector(`#problem-view[data-ply="${n}"]`);
}

/** The attacker's legal moves (USI) at `ply` of a problem, from the page's data. */
const legalAt = (problem, ply) => problem.legal[ply / 2].split(' ');

/**
 * A legal move that is not accepted here: a drop if there is one, else a board move
 * (neither promoting nor not in the accepted moves).
 */
function wrongMove(problem, ply, accepted) {
  const legal = legalAt(problem, ply);
  const wrong = (usi) => !accepted.includes(usi.replace(/\+$/, '')) && !accepted.includes(usi.replace(/\+?$/, '+'));
  const move = legal.find((usi) => usi[1] === '*' && wrong(usi)) || legal.find(wrong);
  if (!move) throw new Error('no wrong move to try');
  return move;
}

/** The squares marked as legal destinations, sorted. */
const targetSquares = (page) =>
  page.$$eval('#board .sq.target', (squares) => squares.map((s) => s.dataset.square).sort());

/** The destinations of the legal moves starting with `prefix` (`7c` or `G*`), sorted. */
function destinations(legal, prefix) {
  return [...new Set(legal.filter((u) => u.startsWith(prefix)).map((u) => u.slice(2, 4)))].sort();
}

/**
 * At the start of `problem` (open, nothing played): selecting a piece highlights exactly
 * its legal destinations, for every attacker piece on the board and in hand; a click on a
 * square no legal move reaches does nothing (no 成/不成 question, no verdict, the board
 * and the selection unchanged).
 */
async function checkLegality(page, problem) {
  const legal = legalAt(problem, 0);
  const attacker = problem.attacker;
  const { pieces, hand, all } = await page.evaluate(() => ({
    pieces: Array.from(document.querySelectorAll('#board .piece.attacker')).map((p) => p.parentElement.dataset.square),
    hand: Array.from(document.querySelectorAll('#hand-attacker [data-hand]')).map((b) => b.dataset.hand),
    all: Array.from(document.querySelectorAll('#board .sq')).map((s) => s.dataset.square),
  }));
  assert.deepEqual(await targetSquares(page), [], 'nothing highlighted before a selection');
  let highlighted = 0;
  for (const from of pieces) {
    await page.click(`#board [data-square="${from}"]`);
    const want = destinations(legal, from);
    assert.deepEqual(await targetSquares(page), want, `the legal destinations of ${from}`);
    highlighted += want.length;
    await page.click(`#board [data-square="${from}"]`);
    assert.deepEqual(await targetSquares(page), [], `${from} deselected`);
  }
  for (const kind of hand) {
    await page.click(`#hand-attacker [data-hand="${kind}"]`);
    const want = destinations(legal, `${kind}*`);
    assert.deepEqual(await targetSquares(page), want, `the legal drops of ${kind}`);
    highlighted += want.length;
    await page.click(`#hand-attacker [data-hand="${kind}"]`);
  }
  assert.ok(highlighted > 0, 'some destination was highlighted');
  ok(`${problem.id}: selecting each of ${pieces.length + hand.length} pieces highlights exactly its legal destinations`);

  // An impossible click: a piece to a square it cannot reach (not one of its own pieces),
  // preferring the far ranks, where a promotable piece used to be asked 成/不成.
  const far = (sq) => (attacker === 'b' ? 'abc' : 'ghi').includes(sq[1]);
  const candidates = [];
  for (const from of pieces) {
    const reach = destinations(legal, from);
    for (const to of all) {
      if (!reach.includes(to) && !pieces.includes(to)) candidates.push([from, to]);
    }
  }
  candidates.sort((a, b) => Number(far(b[1])) - Number(far(a[1])));
  assert.ok(candidates.length, 'an unreachable square to click');
  const tries = candidates.slice(0, 3);
  if (hand.length) {
    // A drop on an occupied square is never legal.
    const occupied = await page.$$eval('#board .piece.defender', (ps) => ps.map((p) => p.parentElement.dataset.square));
    tries.push([`${hand[0]}*`, occupied[0]]);
  }
  // The defender's king is 玉 (upside down), an attacker's king 王.
  const kings = await page.$$eval('#board .piece', (ps) => ps.filter((p) => /[玉王]/.test(p.textContent))
    .map((p) => `${p.classList.contains('attacker') ? 'attacker' : 'defender'}:${p.textContent}`));
  assert.ok(kings.includes('defender:玉'), `the defender's king is 玉: ${kings}`);
  assert.ok(!kings.includes('defender:王') && !kings.includes('attacker:玉'), `kings: ${kings}`);
  const before = await boardState(page);
  const statusBefore = await status(page).textContent();
  for (const [from, to] of tries) {
    const selector = from.endsWith('*')
      ? `#hand-attacker [data-hand="${from[0]}"]`
      : `#board [data-square="${from}"]`;
    await page.click(selector);
    await page.click(`#board [data-square="${to}"]`);
    await page.waitForTimeout(100);
    assert.ok(await page.locator('#promote').isHidden(), `no 成/不成 question for ${from}→${to}`);
    assert.equal(await status(page).getAttribute('data-state'), 'idle', `no verdict for ${from}→${to}`);
    assert.equal(await status(page).textContent(), statusBefore);
    assert.equal(await boardState(page), before, `${from}→${to} changed nothing`);
    assert.equal(await ply(page), 0);
    assert.equal(await page.locator('.selected').count(), 1, `${from} is still the selection`);
    await page.click(selector);
    assert.equal(await page.locator('.selected').count(), 0);
  }
  ok(`impossible clicks do nothing (${tries.map(([f, t]) => f + '→' + t).join(', ')})`);
}

/**
 * A promotion that is forced (only the promoting move is legal) is played without a
 * 成/不成 question; without one in the pack, a board move that cannot promote.
 */
async function checkNoQuestion(page, data) {
  let found = null;
  for (const kind of ['forced promotion', 'move that cannot promote']) {
    for (const p of data.problems) {
      for (let i = 0; i < p.length && !found; i += 2) {
        const usi = p.moves[i].usi;
        const legal = legalAt(p, i);
        if (usi[1] === '*') continue;
        const forced = usi.endsWith('+') && !legal.includes(usi.slice(0, -1));
        const plainOnly = !usi.endsWith('+') && !legal.includes(usi + '+');
        if (kind === 'forced promotion' ? forced : plainOnly) found = { problem: p, ply: i, usi, kind };
      }
    }
    if (found) break;
  }
  assert.ok(found, 'a board move that is not asked about');
  const { problem, ply: at, usi, kind } = found;
  await page.click('#to-list');
  await openProblem(page, problem.id);
  for (let i = 0; i < at; i += 2) {
    await clickMove(page, problem.moves[i].usi);
    await waitForPly(page, i + 2);
  }
  await page.click(`#board [data-square="${usi.slice(0, 2)}"]`);
  await page.click(`#board [data-square="${usi.slice(2, 4)}"]`);
  await page.waitForSelector('#status[data-state="correct"], #status[data-state="solved"]');
  assert.ok(await page.locator('#promote').isHidden(), 'no 成/不成 question');
  assert.equal(await ply(page), at + 1);
  ok(`the ${kind} ${usi} (${problem.moves[at].ja}) of ${problem.id} is played without a 成/不成 question`);
  await shot(page, 'no-question');
}

async function openProblem(page, id) {
  await page.locator(`#cards .card[data-id="${id}"] a`).click();
  await page.waitForSelector('#problem-view:not([hidden])');
  assert.equal(await ply(page), 0);
}

async function checkList(page, data) {
  const cards = page.locator('#cards .card');
  assert.equal(await cards.count(), data.problems.length, 'one card per problem');
  for (const p of data.problems) {
    const card = page.locator(`#cards .card[data-id="${p.id}"]`);
    assert.ok(await card.isVisible(), `card ${p.id} visible`);
    assert.ok(await card.locator('svg').isVisible(), `thumbnail of ${p.id}`);
    const text = await card.innerText();
    assert.ok(!text.includes(p.id), `the card of ${p.id} does not show its id: ${text}`);
    const [att, def] = p.attacker === 'b' ? ['▲', '△'] : ['△', '▲'];
    assert.match(text, new RegExp(`${att}持駒 .+\n${def}持駒 .+`), `the card of ${p.id} writes both hands`);
    assert.equal(await card.locator('a').getAttribute('href'), `#problem=${p.id}`);
  }
  ok(`the list shows ${data.problems.length} problems with thumbnails and hands, the ids in the links only`);
  await shot(page, 'list');

  const shortest = Math.min(...data.problems.map((p) => p.length));
  await page.selectOption('#filter-length', String(shortest));
  const wanted = data.problems.filter((p) => p.length === shortest).map((p) => p.id);
  assert.deepEqual(await visibleIds(page), wanted, 'length filter');
  await page.selectOption('#filter-length', '');
  const grades = data.problems.map((p) => p.grade).filter((g) => g !== null);
  if (grades.length) {
    const grade = Math.max(...grades);
    await page.selectOption('#filter-grade', String(grade));
    const want = data.problems.filter((p) => p.grade === grade).map((p) => p.id);
    assert.deepEqual(await visibleIds(page), want, 'grade filter');
    assert.match(await page.locator('#shown-count').textContent(), new RegExp(`^${want.length} of `));
    await page.selectOption('#filter-grade', '');
  }
  assert.equal((await visibleIds(page)).length, data.problems.length);
  ok('the length and grade filters show exactly the matching problems');
}

function visibleIds(page) {
  return page.$$eval('#cards .card:not([hidden])', (cards) => cards.map((c) => c.dataset.id));
}

async function playFirstMoveAndAWrongOne(page, problem) {
  await openProblem(page, problem.id);
  await shot(page, 'problem-start');
  const start = await boardState(page);
  await checkLegality(page, problem);
  // The selection, shown with its destinations.
  const shown = (await page.$$eval('#board .piece.attacker', (ps) => ps.map((p) => p.parentElement.dataset.square)))[0];
  await page.click(`#board [data-square="${shown}"]`);
  await shot(page, 'destinations');
  await page.click(`#board [data-square="${shown}"]`);
  const first = problem.moves[0].usi;
  await clickMove(page, first);
  await page.waitForSelector('#status[data-state="correct"]');
  assert.match(await status(page).textContent(), new RegExp(problem.moves[0].ja));
  const afterFirst = await boardState(page);
  assert.notEqual(afterFirst, start, 'the board changed');
  const to = page.locator(`#board [data-square="${first.slice(2, 4)}"] .piece.attacker`);
  assert.equal(await to.count(), 1, `an attacker piece stands on ${first.slice(2, 4)}`);
  ok(`the first move ${first} (${problem.moves[0].ja}) is accepted and played`);

  await waitForPly(page, 2);
  assert.notEqual(await boardState(page), afterFirst, 'the defender replied');
  assert.equal(await page.locator('#moves li').count(), 2);
  ok(`the defender's reply ${problem.moves[1].usi} is played by itself`);
  await shot(page, 'first-move');

  const accepted = [problem.moves[2].usi];
  if (problem.length === 3) accepted.push(...problem.alternatives.map((a) => a.usi));
  const before = await boardState(page);
  const wrong = wrongMove(problem, 2, accepted);
  await clickMove(page, wrong);
  await page.waitForSelector('#status[data-state="wrong"]');
  assert.match(await status(page).textContent(), /not the solution/);
  assert.equal(await boardState(page), before, 'the board is unchanged');
  assert.equal(await ply(page), 2);
  ok(`the wrong move ${wrong} is refused and not played`);
  await shot(page, 'wrong-move');

  await page.click('#back');
  await page.click('#back');
  assert.equal(await ply(page), 0);
  assert.equal(await boardState(page), start, 'back to the start position');
  await page.click('#forward');
  assert.equal(await boardState(page), afterFirst);
  await page.click('#forward');
  assert.equal(await boardState(page), before);
  assert.ok(await page.locator('#forward').isDisabled(), 'no stepping past what was played');
  ok('back and forward step through the moves played');

  await page.click('#reveal');
  const solution = await page.locator('#solution').textContent();
  for (const m of problem.moves) assert.ok(solution.includes(m.ja), `${m.ja} in the solution`);
  assert.equal(await page.locator('#moves li').count(), problem.length);
  for (let i = 2; i < problem.length; i++) await page.click('#forward');
  assert.equal(await ply(page), problem.length);
  ok('the solution is revealed and can be stepped through to the end');
  await shot(page, 'revealed');
}

/** Solves a problem by clicking, with its first final alternative as the last move. */
async function solveWithAlternative(page, problem) {
  await page.click('#to-list');
  await openProblem(page, problem.id);
  for (let i = 0; i + 1 < problem.length; i += 2) {
    await clickMove(page, problem.moves[i].usi);
    await waitForPly(page, i + 2);
  }
  const alternative = problem.alternatives[0];
  await clickMove(page, alternative.usi);
  await page.waitForSelector('#status[data-state="solved"]');
  assert.equal(await page.locator('#moves li').last().textContent(), alternative.ja);
  ok(`the final alternative ${alternative.usi} (${alternative.ja}) solves ${problem.id}`);
  await shot(page, 'alternative-solved');
  await page.click('#back');
  await clickMove(page, problem.moves[problem.length - 1].usi);
  await page.waitForSelector('#status[data-state="solved"]');
  ok('so does the solution\'s own last move');
}

/** White attacks: the board is seen from White's side and White's moves are played. */
async function playWhiteAttacker(page, problem) {
  await page.click('#to-list');
  await openProblem(page, problem.id);
  const corners = await page.$$eval('#board .sq', (sq) => [sq[0].dataset.square, sq[80].dataset.square]);
  assert.deepEqual(corners, ['1i', '9a'], 'White at the bottom: 1九 top left, 9一 bottom right');
  assert.equal((await page.locator('#files').textContent())[0], '１');
  const first = problem.moves[0];
  await clickMove(page, first.usi);
  await page.waitForSelector('#status[data-state="correct"]');
  const to = page.locator(`#board [data-square="${first.usi.slice(2, 4)}"] .piece.attacker`);
  assert.equal(await to.count(), 1, 'White\'s piece, upright, on the destination');
  await waitForPly(page, 2);
  ok(`White attacks in ${problem.id}: the board is turned and ${first.usi} (${first.ja}) is played`);
  await shot(page, 'white-attacker');
}

async function checkPhone(browser, problem, problems) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  watch(page, problems);
  await page.goto(pageUrl);
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert.ok(await fits(), 'the list fits the phone width');
  await shot(page, 'phone-list');
  await page.locator(`#cards .card[data-id="${problem.id}"] a`).tap();
  await page.waitForSelector('#problem-view:not([hidden])');
  assert.ok(await fits(), 'the problem view fits the phone width');
  const box = await page.locator('.board-frame').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375, `the board fits: ${JSON.stringify(box)}`);
  assert.ok(box.width >= 300, `the board uses the width: ${box.width}px`);
  await clickMove(page, problem.moves[0].usi, { tap: true });
  await page.waitForSelector('#status[data-state="correct"]');
  ok(`on a 375 px phone screen the page fits and the first move is played by tapping`);
  await shot(page, 'phone-problem');
  await context.close();
}

async function main() {
  const started = Date.now();
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
  const problems = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 820 } });
    page.setDefaultTimeout(10_000);
    watch(page, problems);
    await page.goto(pageUrl);
    const data = await page.evaluate(() => JSON.parse(document.getElementById('pack-data').textContent));
    const main = data.problems.find((p) => p.length >= 3);
    assert.ok(main, 'the pack needs a problem of 3 moves or more');

    await checkList(page, data);
    await playFirstMoveAndAWrongOne(page, main);
    const withAlternative = data.problems.find((p) => p.alternatives.length > 0);
    if (withAlternative) {
      await solveWithAlternative(page, withAlternative);
    } else {
      console.log('# no problem of this pack has a final alternative: that check is skipped');
    }
    await checkNoQuestion(page, data);
    const white = data.problems.find((p) => p.attacker === 'w' && p.length >= 3);
    if (white) {
      await playWhiteAttacker(page, white);
    } else {
      console.log('# no problem of this pack has White attacking: that check is skipped');
    }
    await checkPhone(browser, main, problems);
    assert.deepEqual(problems, [], 'no page errors, console errors or network requests');
    ok('no page error, console error or network request');
  } finally {
    await browser.close();
  }
  console.log(`# ${checks} checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${shotDir}`);
}

main().catch((e) => {
  console.error(`not ok - ${e.stack || e}`);
  process.exit(1);
});
