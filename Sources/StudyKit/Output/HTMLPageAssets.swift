/// The HTML page's inline style sheet and script (``HTMLRenderer``).
///
/// Plain CSS and ES2017 with no library and no network: the page must work from `file://`
/// offline. The script reads model text only from the DOM (as `textContent`) and from the JSON
/// data element, and writes with `textContent`, never `innerHTML`.
enum HTMLPageAssets {
    /// Light and dark colours meet WCAG AA (4.5:1 for text) on their backgrounds; print turns
    /// the cards into a two-column question/answer sheet.
    static let css = """
        :root{--bg:#ffffff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;--accent:#0b5cad;\
        --accent-fg:#ffffff;
        --right:#116329;--right-bg:#dafbe1;--wrong:#a40e26;--wrong-bg:#ffebe9;--card:#ffffff;--card-back:#eef5ff;\
        --mark:#fff1a8;color-scheme:light dark}
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#3d444d;\
        --panel:#161b22;--accent:#6cb6ff;
        --accent-fg:#0d1117;--right:#7ee787;--right-bg:#12301c;--wrong:#ffa198;--wrong-bg:#3d1418;--card:#161b22;\
        --card-back:#132338;--mark:#4a3c00}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI","DejaVu \
        Sans",sans-serif}
        main{max-width:980px;margin:0 auto;padding:0 20px 40px}
        a{color:var(--accent)}
        :focus-visible{outline:3px solid var(--accent);outline-offset:2px}
        .skip{position:absolute;left:-999px;top:0;background:var(--accent);color:var(--accent-fg);padding:8px 12px;\
        z-index:2}
        .skip:focus{left:8px}
        nav{position:sticky;top:0;z-index:1;background:var(--panel);border-bottom:1px solid var(--line)}
        nav ul{display:flex;flex-wrap:wrap;gap:4px 18px;max-width:980px;margin:0 auto;padding:8px 20px;list-style:none}
        nav a{text-decoration:none;font-weight:600}
        nav a:hover{text-decoration:underline}
        header.top{padding:28px 0 8px}
        .kicker{margin:0;text-transform:uppercase;letter-spacing:.08em;font-size:.8rem;color:var(--muted);\
        font-weight:700}
        h1{margin:.2em 0 .3em;font-size:2.1rem;line-height:1.2}
        .blurb{font-size:1.2rem;margin:.2em 0 .6em}
        .source-title{color:var(--muted);margin:.2em 0}
        section{border-top:1px solid var(--line);padding:18px 0 8px;scroll-margin-top:48px}
        h2{font-size:1.5rem;margin:.2em 0 .5em}
        h3{font-size:1.1rem;margin:1em 0 .4em}
        .hint{color:var(--muted);font-size:.95rem}
        kbd{border:1px solid var(--line);border-bottom-width:2px;border-radius:4px;padding:0 5px;\
        background:var(--panel);font-size:.85em}
        details.provenance{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:8px 12px;\
        margin:10px 0 14px;font-size:.92rem}
        details.provenance summary{cursor:pointer;font-weight:600}
        details.provenance table{border-collapse:collapse;margin-top:8px;width:100%}
        details.provenance th,details.provenance td{text-align:left;vertical-align:top;padding:4px 8px;border-top:1px \
        solid var(--line)}
        .prov{display:inline-block;margin:4px 0 0;font-size:.8rem;color:var(--muted);border:1px solid var(--line);\
        border-radius:10px;padding:0 8px}
        .points li{margin:.35em 0}
        .points .prov{display:block;width:max-content;max-width:100%}
        .part-prov{display:block;width:max-content;max-width:100%;margin:0 0 10px}
        .overview{font-size:1.08rem}
        .js .js-only{display:revert}
        .js-only{display:none}
        .deck{max-width:720px}
        .cards{list-style:none;padding:0;margin:0}
        [hidden]{display:none!important}
        .section-filter{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:8px 12px;\
        margin:10px 0}
        .section-filter select{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);\
        border-radius:6px;
        padding:2px 6px;max-width:100%}
        .group-head{font-size:1rem;color:var(--muted);margin:1em 0 .4em}
        .js .deck .group{display:none}
        .js .deck .group.current{display:block}
        .card{margin:0 0 16px}
        .js .card{display:none}
        .js .card.current{display:block}
        .face{display:grid;cursor:pointer;perspective:1200px;border-radius:14px}
        .side{min-height:190px;padding:22px 24px;border:1px solid var(--line);border-radius:14px;background:var(--card);
        box-shadow:0 2px 8px rgba(0,0,0,.08);display:flex;flex-direction:column;justify-content:center;\
        backface-visibility:hidden;
        transition:transform .45s ease}
        .side p{margin:0;font-size:1.25rem}
        .side.a{background:var(--card-back)}
        .side p.recall{font-size:.9rem;color:var(--muted);margin:0 0 12px}
        .side-label{font-size:.75rem;text-transform:uppercase;letter-spacing:.08em;color:var(--muted);font-weight:700;\
        margin-bottom:6px}
        .js .side.a{transform:rotateY(180deg)}
        .js .flipped .side.q{transform:rotateY(-180deg)}
        .js .flipped .side.a{transform:rotateY(0)}
        .js .side{grid-area:1/1}
        .side.a{margin-top:8px}
        .js .side.a{margin-top:0}
        .face:focus-visible{outline-offset:4px}
        details.source{margin-top:8px}
        details.source summary{cursor:pointer;color:var(--accent);font-weight:600}
        blockquote{margin:8px 0;padding:6px 14px;border-left:4px solid var(--line);color:var(--fg);\
        background:var(--panel)}
        .page{color:var(--muted);font-size:.9rem;margin:2px 0}
        .mark{font-size:.9rem;color:var(--muted);margin:4px 0}
        .deck-status{color:var(--muted);margin:0 0 8px}
        .controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
        .js .controls{display:flex}
        .controls .sep{flex:0 0 12px}
        button{font:inherit;color:var(--fg);background:var(--panel);border:1px solid var(--line);border-radius:8px;\
        padding:6px 14px;cursor:pointer}
        button:hover{border-color:var(--accent)}
        button.good{border-color:var(--right);color:var(--right)}
        button.again{border-color:var(--wrong);color:var(--wrong)}
        .card.good .mark{color:var(--right)}
        .card.again .mark{color:var(--wrong)}
        .questions{list-style:none;padding:0}
        .question fieldset{border:1px solid var(--line);border-radius:10px;margin:0 0 14px;padding:12px 16px}
        .question legend{float:left;width:100%;font-weight:600;font-size:1.08rem;padding:0;margin:0 0 8px}
        .question legend + *{clear:both}
        .qn{display:block;font-size:.8rem;color:var(--muted);text-transform:uppercase;letter-spacing:.06em}
        .choices{display:grid;gap:8px;margin:6px 0}
        .choice{text-align:left;width:100%}
        .letter{display:inline-block;min-width:1.6em;font-weight:700;color:var(--muted)}
        .choice.right{background:var(--right-bg);border-color:var(--right);color:var(--right)}
        .choice.wrong{background:var(--wrong-bg);border-color:var(--wrong);color:var(--wrong)}
        .choice:disabled{cursor:default}
        .js .feedback{display:none}
        .js .answered .feedback{display:block}
        .verdict{font-weight:700;margin:.4em 0}
        .verdict.right{color:var(--right)}
        .verdict.wrong{color:var(--wrong)}
        .print-answer{display:none}
        .score{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:10px 16px;\
        align-items:center;gap:16px;flex-wrap:wrap}
        .js .score{display:flex}
        .score-text{margin:0;font-weight:700}
        .map-frame{overflow:auto;border:1px solid var(--line);border-radius:10px;background:var(--bg);max-height:80vh}
        .map-frame svg{display:block;margin:0 auto;max-width:100%;height:auto}
        #mindmap .map-frame{width:calc(100vw - 40px);max-width:max-content;position:relative;left:50%;\
        transform:translateX(-50%)}
        .mindmap .node[role=button]{cursor:pointer}
        .mindmap .node[role=button]:focus{outline:none}
        .mindmap .node[role=button]:focus-visible rect{stroke:var(--accent);stroke-width:4}
        .mindmap [aria-expanded=true] .plus{display:none}
        .mindmap .folded{display:none}
        details.outline{margin-top:10px}
        details.outline summary{cursor:pointer;color:var(--accent);font-weight:600}
        .hosts{color:var(--muted);margin:.2em 0 .8em}
        .player{margin:8px 0 16px;padding:10px 14px;max-width:760px;background:var(--panel);border:1px solid \
        var(--line);border-radius:10px}
        .player audio{display:block;width:100%}
        .player figcaption{color:var(--muted);font-size:.9rem;margin-top:6px}
        .transcript{list-style:none;padding:0;margin:0;max-width:760px}
        .turn{margin:0 0 10px;padding:6px 12px;border-left:4px solid var(--line)}
        .turn.explainer{border-left-color:var(--accent);background:var(--panel);border-radius:0 8px 8px 0}
        .speaker{margin:0;font-weight:700}
        .at{font-weight:400;font-variant-numeric:tabular-nums;color:var(--muted);font-size:.85rem}
        .line{margin:.15em 0}
        mark.material{background:var(--mark);color:inherit;border-radius:3px;padding:0 1px;\
        -webkit-box-decoration-break:clone;box-decoration-break:clone}
        .from,figure.material figcaption{margin:2px 0 0;font-size:.85rem;color:var(--muted)}
        figure.material{margin:6px 0 0}
        figure.material blockquote{margin:0}
        .recap{max-width:760px;border:1px solid var(--line);border-radius:10px;padding:6px 14px;margin:14px 0}
        .recap h4{margin:.3em 0;font-size:1rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
        .recap ol{margin:.3em 0 .5em}
        .gaps dt{font-weight:600}
        .gaps dd{margin:0 0 8px 16px}
        footer{max-width:980px;margin:0 auto;padding:12px 20px 30px;color:var(--muted);font-size:.9rem;border-top:1px \
        solid var(--line)}
        #selftest{white-space:pre-wrap;font-size:11px}
        @media (prefers-reduced-motion:reduce){.side{transition:none}}
        @media print{
        :root{--bg:#fff;--fg:#000;--muted:#333;--line:#999;--panel:#fff;--card:#fff;--card-back:#fff}
        nav,.skip,.hint,.controls,.deck-status,.mark,.score,.player,details.provenance summary::marker,footer{\
        display:none!important}
        .js .js-only{display:none!important}
        main{max-width:none;padding:0}
        section{break-inside:auto}
        .js .card,.card{display:block!important;margin:0;break-inside:avoid}
        .js .deck .group:not([hidden]){display:block!important}
        .face{grid-template-columns:1fr 1fr;perspective:none;cursor:auto}
        .side,.js .side.a,.js .side.q,.js .flipped .side.q,.js .flipped .side.a{grid-area:auto;\
        transform:none!important;min-height:0;
        border-radius:0;box-shadow:none;padding:6px 10px;backface-visibility:visible;border-width:0 0 1px 0}
        .side{border:0!important}
        .side.a{border-left:1px solid var(--line)!important}
        .card{border-bottom:1px solid var(--line)}
        .side p{font-size:11pt}
        details.source,.card .prov,.side p.recall{display:none}
        .question fieldset{break-inside:avoid}
        .js .feedback,.feedback{display:block}
        .verdict{display:none}
        .print-answer{display:block;font-weight:700}
        .map-frame,#mindmap .map-frame{overflow:visible;max-height:none;border:0;width:auto;left:auto;transform:none}
        .map-frame svg{max-width:100%;height:auto}
        }
        """

    /// Cards, quiz and mind map behaviour; `#selftest` in the URL also runs each interaction
    /// once and writes what it saw into `<pre id="selftest">` as JSON, for headless browser tests.
    static let script = """
        (function () {
          'use strict';
          var doc = document, root = doc.documentElement, errors = [];
          window.addEventListener('error', function (event) { errors.push(String(event.message || event)); });
          root.classList.add('js');
          var data = {};
          try { data = JSON.parse(doc.getElementById('kit-data').textContent); } catch (e) { errors.push('data: ' + \
        e.message); }
          var storageKey = typeof data.storageKey === 'string' ? data.storageKey : 'studykit';
          var store = {
            get: function (key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } },
            set: function (key, value) { try { window.localStorage.setItem(key, value); } catch (e) { /* private mode \
        */ } }
          };
          function keyName(event) { return event.key === 'Spacebar' ? ' ' : event.key; }

          // Flashcards: one at a time, flip, previous/next, again/good.
          var deck = doc.querySelector('.deck');
          // `cards` are those the section filter shows (all of them without one), `allCards` every card.
          var allCards = deck ? Array.prototype.slice.call(deck.querySelectorAll('.card')) : [];
          var cards = allCards;
          var current = 0;
          function face(index) { return cards[index].querySelector('.face'); }
          function markOf(card) { return store.get(storageKey + ':' + card.getAttribute('data-key')); }
          function showMark(card) {
            var mark = markOf(card);
            card.classList.toggle('good', mark === 'good');
            card.classList.toggle('again', mark === 'again');
            card.querySelector('.mark').textContent = mark ? 'Marked: ' + mark : '';
          }
          function tally() {
            var good = 0, again = 0;
            cards.forEach(function (card) { var mark = markOf(card); if (mark === 'good') { good++; } if (mark === \
        'again') { again++; } });
            deck.querySelector('.card-pos').textContent = 'Card ' + (current + 1) + ' of ' + cards.length;
            deck.querySelector('.card-tally').textContent = (good || again) ? '· ' + good + ' good, ' + again + ' \
        again' : '';
          }
          function showCard(index, keepFocus) {
            allCards.forEach(function (card) {
              if (cards.indexOf(card) < 0) { card.classList.remove('current', 'flipped'); }
            });
            if (!cards.length) {
              if (deck) { deck.querySelector('.card-pos').textContent = 'No card in this section'; }
              return;
            }
            var hadFocus = deck.contains(doc.activeElement) && doc.activeElement.classList.contains('face');
            current = (index + cards.length) % cards.length;
            cards.forEach(function (card, i) {
              card.classList.toggle('current', i === current);
              if (i !== current) { card.classList.remove('flipped'); face(i).setAttribute('aria-pressed', 'false'); }
            });
            // A deck grouped by section shows the current card's section heading above it.
            Array.prototype.forEach.call(deck.querySelectorAll('.group'), function (group) {
              group.classList.toggle('current', group.contains(cards[current]));
            });
            tally();
            if (hadFocus || keepFocus) { face(current).focus(); }
          }
          function flip() {
            var card = cards[current], flipped = !card.classList.contains('flipped');
            card.classList.toggle('flipped', flipped);
            face(current).setAttribute('aria-pressed', flipped ? 'true' : 'false');
          }
          function mark(value) {
            store.set(storageKey + ':' + cards[current].getAttribute('data-key'), value);
            showMark(cards[current]);
            tally();
          }
          if (allCards.length) {
            allCards.forEach(function (card) {
              showMark(card);
              card.querySelector('.face').addEventListener('click', flip);
            });
            deck.addEventListener('keydown', function (event) {
              var key = keyName(event);
              if ((key === ' ' || key === 'Enter') && event.target.classList.contains('face')) { \
        event.preventDefault(); flip(); }
              else if (key === 'ArrowRight') { event.preventDefault(); showCard(current + 1); }
              else if (key === 'ArrowLeft') { event.preventDefault(); showCard(current - 1); }
            });
            deck.querySelector('.controls').addEventListener('click', function (event) {
              var button = event.target.closest('button');
              if (!button) { return; }
              var act = button.getAttribute('data-act');
              if (act === 'prev') { showCard(current - 1); } else if (act === 'next') { showCard(current + 1); }
              else if (act === 'flip') { flip(); } else if (act === 'again' || act === 'good') { mark(act); }
            });
            showCard(0);
          }

          // Quiz: check an answer, show the explanation, count the score, retry.
          var questions = Array.prototype.slice.call(doc.querySelectorAll('.question'));
          var answers = Array.isArray(data.answers) ? data.answers : [];
          var scoreText = doc.querySelector('.score-text');
          function updateScore() {
            var answered = 0, right = 0, shown = questions.filter(shownBySectionFilter);
            shown.forEach(function (question) {
              if (question.classList.contains('answered')) { answered++; }
              if (question.classList.contains('got-right')) { right++; }
            });
            scoreText.textContent = answered === shown.length
              ? 'You scored ' + right + ' of ' + shown.length + '.'
              : 'Answered ' + answered + ' of ' + shown.length + ' · ' + right + ' right so far.';
          }
          function answer(question, index, chosen) {
            if (question.classList.contains('answered')) { return; }
            var rightIndex = answers[index];
            var buttons = Array.prototype.slice.call(question.querySelectorAll('.choice'));
            var isRight = chosen === rightIndex;
            buttons.forEach(function (button, i) {
              button.disabled = true;
              if (i === rightIndex) { button.classList.add('right'); }
              if (i === chosen && !isRight) { button.classList.add('wrong'); }
            });
            var verdict = question.querySelector('.verdict');
            verdict.className = 'verdict ' + (isRight ? 'right' : 'wrong');
            var right = buttons[rightIndex];
            verdict.textContent = isRight ? 'Right.'
              : 'Not quite. The answer is ' + right.querySelector('.letter').textContent + ': ' + \
        right.querySelector('.choice-text').textContent + '.';
            question.classList.add('answered');
            question.classList.toggle('got-right', isRight);
            updateScore();
          }
          questions.forEach(function (question, index) {
            question.querySelector('.choices').addEventListener('click', function (event) {
              var button = event.target.closest('.choice');
              if (button) { answer(question, index, Number(button.getAttribute('data-i'))); }
            });
          });
          var retry = doc.querySelector('.retry');
          if (retry) {
            retry.addEventListener('click', function () {
              questions.forEach(function (question) {
                question.classList.remove('answered', 'got-right');
                Array.prototype.forEach.call(question.querySelectorAll('.choice'), function (button) {
                  button.disabled = false; button.classList.remove('right', 'wrong');
                });
                question.querySelector('.verdict').textContent = '';
              });
              updateScore();
              if (questions.length) { questions[0].querySelector('.choice').focus(); }
            });
          }

          // Section filter: only one top-level section's cards and questions (every section's by default).
          var filter = doc.getElementById('section-filter');
          function shownBySectionFilter(element) {
            var group = element.closest('.group');
            return !group || !group.hidden;
          }
          function applyFilter() {
            Array.prototype.forEach.call(doc.querySelectorAll('.group[data-group]'), function (group) {
              group.hidden = filter.value !== '' && group.getAttribute('data-group') !== filter.value;
            });
            cards = allCards.filter(shownBySectionFilter);
            if (deck) { showCard(0); }
            if (scoreText) { updateScore(); }
          }
          if (filter) { filter.addEventListener('change', applyFilter); }

          // Mind map: fold and unfold branches.
          var map = doc.querySelector('svg.mindmap');
          var nodes = map ? Array.prototype.slice.call(map.querySelectorAll('.node')) : [];
          var byId = {};
          nodes.forEach(function (node) { byId[node.id] = node; });
          function parentOf(node) { var p = node.getAttribute('data-parent'); return p === null ? null : byId['mm-' + \
        p]; }
          function refreshMap() {
            nodes.forEach(function (node) {
              var hidden = false, up = parentOf(node);
              while (up) { if (up.getAttribute('aria-expanded') === 'false') { hidden = true; } up = parentOf(up); }
              node.classList.toggle('folded', hidden);
              var edge = map.querySelector('.edge[data-to="' + node.id.slice(3) + '"]');
              if (edge) { edge.classList.toggle('folded', hidden); }
            });
          }
          function fold(node) {
            node.setAttribute('aria-expanded', node.getAttribute('aria-expanded') === 'false' ? 'true' : 'false');
            refreshMap();
          }
          if (map) {
            map.addEventListener('click', function (event) {
              var node = event.target.closest('.node[role=button]');
              if (node) { fold(node); }
            });
            map.addEventListener('keydown', function (event) {
              var key = keyName(event), node = event.target.closest && event.target.closest('.node[role=button]');
              if (node && (key === 'Enter' || key === ' ')) { event.preventDefault(); fold(node); }
            });
          }

          // #selftest: exercise everything once and report what happened, for headless tests.
          function selftest() {
            var report = {};
            function press(target, key) { target.dispatchEvent(new KeyboardEvent('keydown', { key: key, bubbles: true, \
        cancelable: true })); }
            function flipped() { return cards[current].classList.contains('flipped'); }
            function visibleCards() { return cards.filter(function (card) { return card.offsetParent !== null; }\
        ).length; }
            function box(element) { var r = element.getBoundingClientRect(); return [r.left, r.top + window.scrollY, \
        r.width, r.height]; }
            report.cards = cards.length;
            if (cards.length) {
              report.visibleCards = visibleCards();
              report.flips = [flipped()];
              face(current).click(); report.flips.push(flipped());
              face(current).click(); report.flips.push(flipped());
              press(face(current), ' '); report.flips.push(flipped());
              press(face(current), ' '); report.flips.push(flipped());
              press(face(current), 'ArrowRight'); report.afterRight = current; report.visibleAfterRight = \
        visibleCards();
              press(face(current), 'ArrowLeft'); report.afterLeft = current;
              deck.querySelector('[data-act=good]').click();
              report.stored = store.get(storageKey + ':' + cards[current].getAttribute('data-key'));
              report.markText = cards[current].querySelector('.mark').textContent;
            }
            report.questions = questions.length;
            if (questions.length) {
              report.verdicts = [];
              questions.forEach(function (question, index) {
                var pick = index % 2 === 0 ? answers[index] : (answers[index] + 1) % 4;
                question.querySelectorAll('.choice')[pick].click();
                var verdict = question.querySelector('.verdict');
                report.verdicts.push({ picked: pick, verdict: verdict.className.replace('verdict ', ''), text: \
        verdict.textContent,
                  explanationShown: question.querySelector('.feedback').offsetParent !== null });
              });
              report.scoreText = scoreText.textContent;
              retry.click();
              report.scoreAfterRetry = scoreText.textContent;
              report.answeredAfterRetry = doc.querySelectorAll('.question.answered').length;
            }
            if (map) {
              report.mapNodes = nodes.length;
              report.expectedMapNodes = data.mindMapNodes;
              report.labelBoxes = nodes.map(function (node) { return box(node.querySelector('rect')); });
              report.textBoxes = nodes.map(function (node) { return box(node.querySelector('text')); });
              var foldable = map.querySelector('.node[role=button]');
              if (foldable) {
                foldable.dispatchEvent(new MouseEvent('click', { bubbles: true }));
                report.foldedAfterClick = map.querySelectorAll('.node.folded').length;
                press(foldable, 'Enter');
                report.foldedAfterEnter = map.querySelectorAll('.node.folded').length;
              }
            }
            if (filter && filter.options.length > 2) {
              // The second section alone: the deck steps through its cards only, no other card or question shows.
              var option = filter.options[2];
              filter.value = option.value;
              filter.dispatchEvent(new Event('change'));
              var inGroup = function (element) {
                var group = element.closest('.group');
                return !!group && group.getAttribute('data-group') === option.value;
              };
              var visible = function (element) { return element.offsetParent !== null; };
              var shownOutside = function (element) { return visible(element) && !inGroup(element); };
              report.filter = { value: option.value, heading: option.textContent, sections: filter.options.length - 1,
                cardsShown: cards.length, cardsInSection: allCards.filter(inGroup).length,
                cardsVisibleOutside: allCards.filter(shownOutside).length,
                questionsVisible: questions.filter(visible).length, questionsInSection: \
        questions.filter(inGroup).length,
                questionsVisibleOutside: questions.filter(shownOutside).length,
                scoreText: scoreText ? scoreText.textContent : null, stepped: [] };
              for (var step = 0; step <= cards.length && cards.length; step++) {
                press(face(current), 'ArrowRight');
                report.filter.stepped.push(inGroup(cards[current]) && visible(cards[current]));
              }
              filter.value = '';
              filter.dispatchEvent(new Event('change'));
              report.filter.cardsAfterReset = cards.length;
              report.filter.questionsVisibleAfterReset = questions.filter(visible).length;
            }
            report.sections = Array.prototype.map.call(doc.querySelectorAll('header.top, main > section'), function \
        (section) {
              return { id: section.id, box: box(section) };
            });
            var podcast = doc.getElementById('podcast');
            if (podcast) {
              report.podcast = {
                turns: podcast.querySelectorAll('.turn').length,
                speakers: Array.prototype.map.call(podcast.querySelectorAll('.turn .speaker'), function (p) { return \
        p.lastChild.textContent.trim(); }),
                quotes: podcast.querySelectorAll('.turn mark.material, .turn figure.material').length,
                recap: podcast.querySelectorAll('.recap li').length,
                players: podcast.querySelectorAll('audio[controls]').length
              };
            }
            function finish() {
              report.scripts = doc.scripts.length;
              report.resources = performance.getEntriesByType('resource').length;
              report.lang = root.lang;
              report.errors = errors;
              window.scrollTo(0, 0);
              var out = doc.createElement('pre');
              out.id = 'selftest';
              out.textContent = JSON.stringify(report);
              doc.body.appendChild(out);
            }
            // The podcast's player: where its source resolves, and whether the file loaded.
            var audio = podcast && podcast.querySelector('audio');
            if (!audio) { finish(); return; }
            var settled = false;
            function settle(how) {
              if (settled) { return; }
              settled = true;
              report.podcast.audio = { how: how, src: audio.currentSrc || audio.src, duration: \
        isFinite(audio.duration) ? audio.duration : null,
                error: audio.error ? audio.error.code : 0, readyState: audio.readyState,
                focusable: audio.tabIndex >= 0 };
              finish();
            }
            if (audio.readyState >= 1) { settle('ready'); return; }
            audio.addEventListener('loadedmetadata', function () { settle('loaded'); });
            audio.addEventListener('error', function () { settle('error'); });
            window.setTimeout(function () { settle('timeout'); }, 3000);
          }
          if (window.location.hash === '#selftest') {
            try { selftest(); } catch (e) {
              errors.push('selftest: ' + e.message);
              var out = doc.createElement('pre'); out.id = 'selftest'; out.textContent = JSON.stringify({ errors: \
        errors }); doc.body.appendChild(out);
            }
          }
        })();
        """
}
