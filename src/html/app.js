// tsume html: the page's script. The data (`#pack-data`) holds, per problem, every
// position the page can show (the SFEN before each ply of the solution and after each
// accepted final alternative), and the attacker's legal moves (USI) before each of its
// plies, computed by the rules core. So this script never needs the rules: it parses
// SFENs, looks clicks up in the legal moves (a click that makes no legal move does
// nothing; 成/不成 is asked only when both are legal), and compares the move with the
// expected one. A wrong move is refused without being played.
(function () {
  'use strict';

  const DATA = JSON.parse(document.getElementById('pack-data').textContent);
  const PROBLEMS = new Map(DATA.problems.map(function (p) { return [p.id, p]; }));
  /** Delay before the defender's reply, so the user sees their own move first. */
  const REPLY_DELAY_MS = 350;

  const RANK_LETTERS = 'abcdefghi';
  const FILE_DIGITS_JA = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
  const RANKS_JA = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
  const HAND_ORDER = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];
  // As drawn (one character, as in `tsume render`) and as written in move notation.
  const DRAWN = { K: '玉', R: '飛', B: '角', G: '金', S: '銀', N: '桂', L: '香', P: '歩',
    '+R': '龍', '+B': '馬', '+S': '全', '+N': '圭', '+L': '杏', '+P': 'と' };
  const WRITTEN = Object.assign({}, DRAWN, { '+S': '成銀', '+N': '成桂', '+L': '成香' });
  const MARK = { b: '▲', w: '△' };

  const $ = function (id) { return document.getElementById(id); };

  // ----- positions -----

  /** `{squares: {'5e': {color, kind}}, hands: {b: {R: 1}, w: {}}, turn}` from an SFEN. */
  function parseSfen(sfen) {
    const fields = sfen.split(' ');
    const squares = {};
    fields[0].split('/').forEach(function (row, rank) {
      let file = 9;
      let promoted = false;
      for (const ch of row) {
        if (ch === '+') { promoted = true; continue; }
        if (ch >= '1' && ch <= '9') { file -= Number(ch); continue; }
        const upper = ch.toUpperCase();
        squares[file + RANK_LETTERS[rank]] = {
          color: ch === upper ? 'b' : 'w',
          kind: (promoted ? '+' : '') + upper,
        };
        promoted = false;
        file -= 1;
      }
    });
    const hands = { b: {}, w: {} };
    let count = '';
    for (const ch of fields[2] === '-' ? '' : fields[2]) {
      if (ch >= '0' && ch <= '9') { count += ch; continue; }
      const upper = ch.toUpperCase();
      const hand = hands[ch === upper ? 'b' : 'w'];
      hand[upper] = (hand[upper] || 0) + (count ? Number(count) : 1);
      count = '';
    }
    return { squares: squares, hands: hands, turn: fields[1] };
  }

  const rankIndex = function (square) { return RANK_LETTERS.indexOf(square[1]); };
  const squareJa = function (square) {
    return FILE_DIGITS_JA[Number(square[0]) - 1] + RANKS_JA[rankIndex(square)];
  };
  const opponent = function (color) { return color === 'b' ? 'w' : 'b'; };

  /**
   * A move in Japanese (`▲２三銀不成`), for moves that are not in the data (wrong ones);
   * `legal` is the set of legal moves there (不成 is written when promoting was legal).
   */
  function moveJa(position, usi, previousTo, legal) {
    const to = usi.slice(2, 4);
    const mover = position.turn;
    let text = MARK[mover] + (previousTo === to ? '同' : squareJa(to));
    if (usi[1] === '*') return text + WRITTEN[usi[0]] + '打';
    const piece = position.squares[usi.slice(0, 2)];
    text += WRITTEN[piece.kind];
    if (usi.endsWith('+')) return text + '成';
    return legal.has(usi + '+') ? text + '不成' : text;
  }

  /** The destination square of a USI move (drops too). */
  const destination = function (usi) { return usi.slice(2, 4); };

  // ----- the list -----

  const cards = Array.from(document.querySelectorAll('#cards .card'));

  function applyFilters() {
    const length = $('filter-length').value;
    const grade = $('filter-grade').value;
    let shown = 0;
    for (const card of cards) {
      const visible = (!length || card.dataset.length === length) &&
        (!grade || card.dataset.grade === grade);
      card.hidden = !visible;
      if (visible) shown += 1;
    }
    $('shown-count').textContent = shown === cards.length
      ? cards.length + ' problems'
      : shown + ' of ' + cards.length + ' problems';
  }

  /** The visible problems' ids, in list order (previous/next follow the filters). */
  function visibleIds() {
    return cards.filter(function (c) { return !c.hidden; }).map(function (c) { return c.dataset.id; });
  }

  // ----- the problem view -----

  /**
   * The open problem: `line` is the moves played so far or to come (the solution, its
   * last move replaced by an accepted alternative once played), `ply` the number of them
   * shown, `reached` how far the user has got (or the whole line once revealed).
   */
  let view = null;

  function openProblem(problem) {
    cancelReply();
    $('promote').hidden = true;
    view = {
      problem: problem,
      line: problem.moves.map(function (m) { return m.usi; }),
      ply: 0,
      reached: 0,
      revealed: false,
      selected: null,
      timer: null,
    };
    $('list-view').hidden = true;
    $('problem-view').hidden = false;
    buildBoard(problem.attacker);
    const number = DATA.problems.indexOf(problem) + 1;
    const grade = problem.grade === null ? 'ungraded' : 'grade ' + problem.grade;
    $('problem-title').textContent = '#' + number + ' · ' + problem.length + '手詰 (' +
      MARK[problem.attacker] + ' to play and mate in ' + problem.length + ') · ' + grade;
    $('problem-themes').textContent = problem.themes.length ? 'Themes: ' + problem.themes.join(', ') : '';
    document.title = '#' + number + ' ' + problem.id;
    setStatus('idle', MARK[problem.attacker] + ' to play. Click a piece (or a piece in hand), then one of its highlighted squares.');
    render();
  }

  function showList() {
    cancelReply();
    view = null;
    $('problem-view').hidden = true;
    $('list-view').hidden = false;
    document.title = document.querySelector('.top h1 a').textContent;
  }

  /** The square shown at a column and row, with `bottom` (the attacker) at the bottom. */
  function squareAt(col, row, bottom) {
    return bottom === 'b' ? (9 - col) + RANK_LETTERS[row] : (col + 1) + RANK_LETTERS[8 - row];
  }

  /** The 81 squares and the coordinates, oriented for the problem's attacker. */
  function buildBoard(bottom) {
    const board = $('board');
    board.textContent = '';
    for (let row = 0; row < 9; row++) {
      for (let col = 0; col < 9; col++) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'sq';
        button.dataset.square = squareAt(col, row, bottom);
        board.appendChild(button);
      }
    }
    $('files').textContent = '';
    $('ranks').textContent = '';
    for (let i = 0; i < 9; i++) {
      const file = document.createElement('span');
      file.textContent = FILE_DIGITS_JA[Number(squareAt(i, 0, bottom)[0]) - 1];
      $('files').appendChild(file);
      const rank = document.createElement('span');
      rank.textContent = RANKS_JA[rankIndex(squareAt(0, i, bottom))];
      $('ranks').appendChild(rank);
    }
  }

  /** The position after `ply` moves of the line. */
  function positionAt(ply) {
    const problem = view.problem;
    if (ply === problem.length && view.line[ply - 1] !== problem.moves[ply - 1].usi) {
      const alternative = problem.alternatives.find(function (a) { return a.usi === view.line[ply - 1]; });
      return parseSfen(alternative.sfen);
    }
    return parseSfen(problem.positions[ply]);
  }

  /** The moves accepted at `ply`: the solution's, and on the last move the alternatives. */
  function acceptedAt(ply) {
    const problem = view.problem;
    const moves = [problem.moves[ply].usi];
    if (ply === problem.length - 1) {
      problem.alternatives.forEach(function (a) { moves.push(a.usi); });
    }
    return moves;
  }

  /** The attacker's legal moves (a set of USI moves) at `ply`, one of its turns. */
  function legalAt(ply) {
    return new Set(view.problem.legal[ply / 2].split(' '));
  }

  /** The squares the selected piece (on the board or in hand) can legally move to. */
  function targets() {
    if (!view.selected || !attackerToMove()) return new Set();
    const prefix = view.selected.drop ? view.selected.drop + '*' : view.selected.from;
    const squares = new Set();
    for (const usi of legalAt(view.ply)) {
      if (usi.startsWith(prefix)) squares.add(destination(usi));
    }
    return squares;
  }

  /** The Japanese of the line's move at index `i` (an alternative once played). */
  function lineJa(i) {
    const problem = view.problem;
    const usi = view.line[i];
    if (usi === problem.moves[i].usi) return problem.moves[i].ja;
    return problem.alternatives.find(function (a) { return a.usi === usi; }).ja;
  }

  const attackerToMove = function () {
    return view.ply % 2 === 0 && view.ply < view.problem.length;
  };

  function render() {
    const problem = view.problem;
    const position = positionAt(view.ply);
    const last = view.ply > 0 ? destination(view.line[view.ply - 1]) : null;
    const reachable = targets();
    for (const button of $('board').children) {
      const square = button.dataset.square;
      const piece = position.squares[square];
      button.textContent = '';
      button.classList.toggle('last', square === last);
      button.classList.toggle('selected', !!view.selected && view.selected.from === square);
      button.classList.toggle('target', reachable.has(square));
      let label = squareJa(square);
      if (piece) {
        const span = document.createElement('span');
        const isAttacker = piece.color === problem.attacker;
        span.className = 'piece ' + (isAttacker ? 'attacker' : 'defender') +
          (piece.kind[0] === '+' ? ' promoted' : '');
        span.textContent = piece.kind === 'K' && isAttacker ? '王' : DRAWN[piece.kind];
        button.appendChild(span);
        label += ' ' + MARK[piece.color] + span.textContent;
      }
      if (reachable.has(square)) label += ' (legal destination)';
      button.setAttribute('aria-label', label);
    }
    renderHand($('hand-attacker'), position, problem.attacker, true);
    renderHand($('hand-defender'), position, opponent(problem.attacker), false);
    renderPanel();
  }

  /** A hand: clickable pieces for the attacker, plain text for the defender. */
  function renderHand(element, position, color, clickable) {
    element.textContent = '';
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = MARK[color] + '持駒';
    element.appendChild(label);
    const hand = position.hands[color];
    const kinds = HAND_ORDER.filter(function (k) { return hand[k]; });
    if (!kinds.length) {
      label.textContent += ' なし';
      return;
    }
    for (const kind of kinds) {
      const piece = document.createElement(clickable ? 'button' : 'span');
      piece.className = clickable ? 'hand-piece' : 'hand-text';
      piece.textContent = DRAWN[kind];
      if (hand[kind] > 1) {
        const count = document.createElement('span');
        count.className = 'count';
        count.textContent = String(hand[kind]);
        piece.appendChild(count);
      }
      if (clickable) {
        piece.type = 'button';
        piece.dataset.hand = kind;
        piece.classList.toggle('selected', !!view.selected && view.selected.drop === kind);
        piece.setAttribute('aria-label', MARK[color] + DRAWN[kind] + ' ×' + hand[kind]);
      }
      element.appendChild(piece);
    }
  }

  function renderPanel() {
    const problem = view.problem;
    $('problem-view').dataset.ply = String(view.ply);
    $('back').disabled = view.ply === 0;
    $('forward').disabled = view.ply >= view.reached;
    $('reveal').disabled = view.revealed;
    $('ply').textContent = 'Move ' + view.ply + ' of ' + problem.length;
    const moves = $('moves');
    moves.textContent = '';
    for (let i = 0; i < view.reached; i++) {
      const item = document.createElement('li');
      item.textContent = lineJa(i);
      item.dataset.ply = String(i + 1);
      if (i === view.ply - 1) item.className = 'current';
      moves.appendChild(item);
    }
    const solution = $('solution');
    solution.hidden = !view.revealed;
    if (view.revealed) {
      solution.textContent = 'Solution: ' + problem.moves.map(function (m) { return m.ja; }).join(' ');
      if (problem.alternatives.length) {
        const also = document.createElement('div');
        also.textContent = 'Also accepted as the last move: ' +
          problem.alternatives.map(function (a) { return a.ja; }).join(', ');
        solution.appendChild(also);
      }
    }
  }

  function setStatus(state, text) {
    $('status').dataset.state = state;
    $('status').textContent = text;
  }

  // ----- playing -----

  function onSquare(square) {
    if (!view || !$('promote').hidden) return;
    if (!attackerToMove()) {
      if (view.timer === null && view.ply < view.problem.length) setStatus('idle', 'The defender is to move: use Forward ▶.');
      return;
    }
    const position = positionAt(view.ply);
    const piece = position.squares[square];
    if (piece && piece.color === view.problem.attacker) {
      view.selected = view.selected && view.selected.from === square ? null : { from: square };
      render();
      return;
    }
    const selected = view.selected;
    if (!selected) return;
    // Only a legal move is played or asked about: any other click does nothing.
    const legal = legalAt(view.ply);
    if (selected.drop) {
      if (legal.has(selected.drop + '*' + square)) tryMove(selected.drop + '*' + square);
      return;
    }
    const plain = selected.from + square;
    const options = [plain, plain + '+'].filter(function (usi) { return legal.has(usi); });
    if (options.length === 1) {
      tryMove(options[0]);
    } else if (options.length === 2) {
      askPromotion(options);
    }
  }

  function onHand(kind) {
    if (!view || !attackerToMove() || !$('promote').hidden) return;
    view.selected = view.selected && view.selected.drop === kind ? null : { drop: kind };
    render();
  }

  /** Shows the promote / don't chooser; `options` is [plain, promoting]. */
  function askPromotion(options) {
    const chooser = $('promote');
    chooser.hidden = false;
    const choose = function (usi) {
      chooser.hidden = true;
      $('promote-yes').onclick = $('promote-no').onclick = $('promote-cancel').onclick = null;
      if (usi) {
        tryMove(usi);
      } else {
        view.selected = null;
        render();
      }
    };
    $('promote-yes').onclick = function () { choose(options[1]); };
    $('promote-no').onclick = function () { choose(options[0]); };
    $('promote-cancel').onclick = function () { choose(null); };
    $('promote-yes').focus();
  }

  /** Plays `usi` if it is the expected move here; otherwise says so and plays nothing. */
  function tryMove(usi) {
    const ply = view.ply;
    const position = positionAt(ply);
    view.selected = null;
    if (acceptedAt(ply).indexOf(usi) < 0) {
      const previousTo = ply > 0 ? destination(view.line[ply - 1]) : null;
      setStatus('wrong', '✗ ' + moveJa(position, usi, previousTo, legalAt(ply)) + ' is not the solution. Try again.');
      render();
      return;
    }
    view.line[ply] = usi;
    view.ply = ply + 1;
    const problem = view.problem;
    // The defender's reply is known: it counts as reached at once, and is shown shortly.
    view.reached = Math.max(view.reached, Math.min(ply + 2, problem.length));
    if (view.ply === problem.length) {
      setStatus('solved', '✓ ' + lineJa(ply) + ': mate. Solved! 詰み');
    } else {
      setStatus('correct', '✓ ' + lineJa(ply) + ': correct.');
      scheduleReply(ply + 1);
    }
    render();
  }

  /** Plays the defender's reply (the move at `ply`) after a short delay. */
  function scheduleReply(ply) {
    cancelReply();
    view.timer = setTimeout(function () {
      view.timer = null;
      if (view.ply !== ply) return;
      view.ply = ply + 1;
      setStatus('correct', '✓ ' + lineJa(ply - 1) + ' ' + lineJa(ply) + '. Your move.');
      render();
    }, REPLY_DELAY_MS);
  }

  function cancelReply() {
    if (view && view.timer !== null) {
      clearTimeout(view.timer);
      view.timer = null;
    }
  }

  /** Shows the position after `ply` moves (within what has been reached). */
  function goTo(ply) {
    if (!view) return;
    cancelReply();
    $('promote').hidden = true;
    view.selected = null;
    view.ply = Math.max(0, Math.min(ply, view.reached));
    const text = view.ply === 0 ? 'Start position.' : 'After ' + lineJa(view.ply - 1) + '.';
    const next = view.ply === view.problem.length ? ' Mate (詰み).' : attackerToMove() ? ' Your move.' : '';
    setStatus('idle', text + next);
    render();
  }

  function restart() {
    openProblem(view.problem);
  }

  function reveal() {
    view.revealed = true;
    view.reached = view.problem.length;
    setStatus('idle', 'Solution shown below: step through it with Forward ▶.');
    render();
  }

  function neighbour(step) {
    const ids = visibleIds();
    const index = ids.indexOf(view.problem.id);
    const next = ids[index + step];
    if (next !== undefined) location.hash = 'problem=' + next;
  }

  // ----- routing and events -----

  /** `#problem=<id>` opens a problem; anything else shows the list. Ids need no decoding. */
  function route() {
    const match = /^#problem=(.+)$/.exec(location.hash);
    const problem = match && PROBLEMS.get(match[1]);
    if (problem) {
      openProblem(problem);
    } else {
      showList();
    }
  }

  $('filter-length').addEventListener('change', applyFilters);
  $('filter-grade').addEventListener('change', applyFilters);
  $('board').addEventListener('click', function (event) {
    const square = event.target.closest('.sq');
    if (square) onSquare(square.dataset.square);
  });
  $('hand-attacker').addEventListener('click', function (event) {
    const piece = event.target.closest('.hand-piece');
    if (piece) onHand(piece.dataset.hand);
  });
  $('moves').addEventListener('click', function (event) {
    const item = event.target.closest('li');
    if (item) goTo(Number(item.dataset.ply));
  });
  $('back').addEventListener('click', function () { goTo(view.ply - 1); });
  $('forward').addEventListener('click', function () { goTo(view.ply + 1); });
  $('restart').addEventListener('click', restart);
  $('reveal').addEventListener('click', reveal);
  $('prev-problem').addEventListener('click', function () { neighbour(-1); });
  $('next-problem').addEventListener('click', function () { neighbour(1); });
  document.addEventListener('keydown', function (event) {
    if (!view || event.target.closest('select')) return;
    if (event.key === 'Escape' && !$('promote').hidden) $('promote-cancel').click();
    if (!$('promote').hidden) return;
    if (event.key === 'ArrowLeft') goTo(view.ply - 1);
    if (event.key === 'ArrowRight') goTo(view.ply + 1);
  });
  window.addEventListener('hashchange', route);
  applyFilters();
  route();
})();
